/*
** gridsearch.c - the fast engine for A* and Dijkstra on tile maps.
**
** The generic engine (search_internal.h) pays for its generality on grids:
** a division per node to find coordinates, bounds checks per neighbour, a
** token-stack walk per cost lookup and a comparison heap. Grid searches are
** the hot path of games, so tile maps get this engine instead:
**
** - a padded copy of the map as one byte per cell (a cost class; 0 blocks),
**   with a blocked border, so neighbours are index offsets with no bounds
**   checks. It is rebuilt only when the map or its token traits changed.
** - parents as a direction byte, and O(1) reset between searches with 16-bit
**   generation stamps.
** - bucket queues instead of a heap: with integer costs (4 neighbours, or 8
**   with diagonal cost 1) A* and Dijkstra keys are integers and a ring of
**   LIFO buckets orders them exactly. With real costs (diagonal sqrt 2),
**   Dijkstra uses buckets as wide as the cheapest step: every label in the
**   lowest bucket is already final (Dinitz 1978), so order inside a bucket
**   does not matter and the result is still exact. A* with real costs keeps
**   the exact radix heap.
** Entries carry their cell's coordinates so the estimate needs no division.
*/
#include <math.h>
#include <stdlib.h>

#include "gridflood.h"
#include "tilemap_internal.h"

#define MAX_CLASSES 254 /* 0xff marks "not cached" below */
#define GRIDJUMP_MAX_FORCED_PER_RUN 0.4 /* see the dispatch below */
#define MAX_RING 8192 /* more buckets than this: the key range is too wide for a ring */

typedef struct grid_entry {
  uint32_t cell;   /* padded index */
  uint16_t x, y;   /* unpadded coordinates */
} grid_entry;

typedef struct entry_stack {
  grid_entry *items;
  uint32_t len, cap;
} entry_stack;

/* A cell's search state is split by temperature. The hot word, read for
** every neighbour, holds the generation stamp (low 16 bits), the direction
** from the parent, START and CLOSED; the costs, read only when a neighbour
** is reached again while open, live in their own arrays. Costs are exact:
** ortho is the sum of the class costs of straight steps, diag that of
** diagonal steps, and g = ortho + diag * d for the diagonal multiplier d.
** Exact because the fast engine only runs when every class cost is an
** integer. */
#define STATE_STAMP 0xffffu
#define STATE_DIR_SHIFT 16
#define STATE_START (1u << 19)
#define STATE_CLOSED (1u << 20)

struct grid_search {
  /* The padded class grid and what it was built from. */
  uint8_t *cls;
  uint32_t pw, ph;
  double class_cost[MAX_CLASSES + 1];
  unsigned nclasses;
  int integral;           /* every class cost is an integer */
  double min_cost, max_cost;
  uint64_t map_revision, tokens_revision;
  const strata_tokens *table;
  uint32_t tokens_count;
  int built, too_many_classes;
  /* The workspace. */
  uint32_t cap;
  uint16_t gen;
  uint32_t *state;
  uint32_t *ortho, *diag; /* diag: only once a search with diagonal steps needed it */
  entry_stack *ring;      /* ring_size stacks, grown when a search needs more */
  uint32_t ring_size;
  strata_search *radix;   /* the shared radix heap, for real-valued A* keys */
  struct grid_flood *flood; /* the engine for maps of one cost (gridflood.c) */
  struct grid_bidir *bidir; /* its bidirectional searches (gridbidir.c) */
  struct grid_jump *jump;   /* its jump point searches (gridjump.c) */
  uint64_t cls_serial;      /* counts the rebuilds of cls */
  uint64_t expanded;
};

void gridsearch_free(struct grid_search *gs) {
  if (gs == NULL) return;
  free(gs->cls);
  free(gs->state);
  free(gs->ortho);
  free(gs->diag);
  for (uint32_t i = 0; i < gs->ring_size; i++) free(gs->ring[i].items);

  free(gs->ring);
  strata_search_free(gs->radix);
  gridflood_free(gs->flood);
  gridbidir_free(gs->bidir);
  gridjump_free(gs->jump);
  free(gs);
}

size_t gridsearch_memory(const struct grid_search *gs) {
  if (gs == NULL) return 0;
  size_t bytes = sizeof *gs + (size_t)gs->pw * gs->ph;
  bytes += (size_t)gs->cap * (sizeof *gs->state + sizeof *gs->ortho);
  if (gs->diag) bytes += (size_t)gs->cap * sizeof *gs->diag;
  bytes += gs->ring_size * sizeof *gs->ring;
  for (uint32_t i = 0; i < gs->ring_size; i++) bytes += gs->ring[i].cap * sizeof(grid_entry);

  if (gs->radix) bytes += strata_search_memory(gs->radix);
  return bytes + gridflood_memory(gs->flood) + gridbidir_memory(gs->bidir) +
         gridjump_memory(gs->jump);
}

/* Rebuilds the class grid if the map or the traits changed; 0 on ENOMEM. */
static int refresh_classes(strata_tilemap *m, struct grid_search *gs) {
  if (gs->built && gs->map_revision == m->revision && gs->table == m->tokens &&
      gs->tokens_revision == strata_tokens_revision(m->tokens) &&
      gs->tokens_count == strata_tokens_count(m->tokens))
    return 1;
  if (!tilemap_refresh_costs(m)) return 0;
  uint32_t pw = (uint32_t)m->width + 2, ph = (uint32_t)m->height + 2;
  if (gs->cls == NULL || gs->pw != pw || gs->ph != ph) {
    free(gs->cls);
    gs->cls = calloc((size_t)pw * ph, 1);
    if (gs->cls == NULL) return 0;
    gs->pw = pw, gs->ph = ph;
  }
  /* Classes: distinct costs, found through a small table keyed by token id
  ** for single-token cells (the common case) and by linear search otherwise. */
  gs->nclasses = 0;
  gs->too_many_classes = 0;
  gs->integral = 1;
  gs->min_cost = 0, gs->max_cost = 0;
  uint8_t single[256];
  memset(single, 0xff, sizeof single);
  for (uint32_t y = 0; y < (uint32_t)m->height; y++) {
    uint8_t *row = gs->cls + (size_t)(y + 1) * pw + 1;
    for (uint32_t x = 0; x < (uint32_t)m->width; x++) {
      uint32_t i = y * (uint32_t)m->width + x;
      uint32_t v = m->cells[i];
      if (v < 256 && single[v] != 0xff) {
        row[x] = single[v];
        continue;
      }
      double c = tilemap_cell_cost(m, i);
      unsigned k = 0;
      if (c > 0) {
        for (k = 1; k <= gs->nclasses && gs->class_cost[k] != c; k++) {}
        if (k > gs->nclasses) {
          if (gs->nclasses == MAX_CLASSES) {
            gs->too_many_classes = 1;
            goto done;
          }
          gs->class_cost[++gs->nclasses] = c;
          if (c != floor(c) || c > 65535) gs->integral = 0;
          if (gs->min_cost == 0 || c < gs->min_cost) gs->min_cost = c;
          if (c > gs->max_cost) gs->max_cost = c;
        }
      }
      row[x] = (uint8_t)k;
      if (v < 256 && (v & CELL_STACK) == 0) single[v] = (uint8_t)k;
    }
  }
done:
  gs->map_revision = m->revision;
  gs->tokens_revision = strata_tokens_revision(m->tokens);
  gs->tokens_count = strata_tokens_count(m->tokens);
  gs->table = m->tokens;
  gs->built = 1;
  gs->cls_serial++;
  return 1;
}

/* Makes room for n cells (with diagonal costs when need_diag) and a ring of
** ring_size buckets (0: none). */
static int prepare_work(struct grid_search *gs, uint32_t n, int need_diag, uint32_t ring_size) {
  if (n > gs->cap) {
    uint32_t *state = calloc(n, sizeof *state), *ortho = malloc((size_t)n * sizeof *ortho);
    if (state == NULL || ortho == NULL) {
      free(state), free(ortho);
      return 0;
    }
    free(gs->state), free(gs->ortho), free(gs->diag);
    gs->state = state, gs->ortho = ortho, gs->diag = NULL;
    gs->cap = n;
    gs->gen = 0;
  }
  if (need_diag && gs->diag == NULL &&
      (gs->diag = malloc((size_t)gs->cap * sizeof *gs->diag)) == NULL)
    return 0;
  if (ring_size > gs->ring_size) {
    entry_stack *ring = realloc(gs->ring, ring_size * sizeof *ring);
    if (ring == NULL) return 0;
    memset(ring + gs->ring_size, 0, (ring_size - gs->ring_size) * sizeof *ring);
    gs->ring = ring;
    gs->ring_size = ring_size;
  }
  if (++gs->gen == 0) { /* 65535 searches: clear the stamps once */
    memset(gs->state, 0, (size_t)gs->cap * sizeof *gs->state);
    gs->gen = 1;
  }
  return 1;
}

static int stack_grow(entry_stack *s) {
  uint32_t cap = s->cap ? s->cap * 2 : 16;
  grid_entry *items = realloc(s->items, (size_t)cap * sizeof *items);
  if (items == NULL) return 0;
  s->items = items, s->cap = cap;
  return 1;
}

/* Manhattan (4 neighbours) or octile (8) distance times the cheapest cell:
** admissible and consistent. */
static inline double grid_estimate(uint16_t x, uint16_t y, uint16_t gx, uint16_t gy, int eight,
                                   double hscale, double diag) {
  uint32_t dx = x > gx ? (uint32_t)(x - gx) : (uint32_t)(gx - x);
  uint32_t dy = y > gy ? (uint32_t)(y - gy) : (uint32_t)(gy - y);
  if (!eight) return hscale * (double)(dx + dy);
  uint32_t lo = dx < dy ? dx : dy, hi = dx < dy ? dy : dx;
  /* a diagonal dearer than two straight steps is never worth taking */
  return hscale * ((double)(hi - lo) + (diag < 2 ? diag : 2) * (double)lo);
}

/* The same estimate in integers, for integral costs and diagonal cost 1. */
static inline uint32_t grid_estimate_int(uint16_t x, uint16_t y, uint16_t gx, uint16_t gy,
                                         int eight, uint32_t hscale) {
  uint32_t dx = x > gx ? (uint32_t)(x - gx) : (uint32_t)(gx - x);
  uint32_t dy = y > gy ? (uint32_t)(y - gy) : (uint32_t)(gy - y);
  return hscale * (eight ? (dx > dy ? dx : dy) : dx + dy);
}

typedef enum queue_kind { QUEUE_RING_INT, QUEUE_RING_WIDTH, QUEUE_RADIX } queue_kind;

/* The search proper, specialised by the compiler for each (eight, queue). */
static inline __attribute__((always_inline)) int
grid_run(struct grid_search *gs, int eight, queue_kind queue, int use_h, double diag,
         double width, uint32_t ring_size, uint32_t start, uint16_t sx, uint16_t sy, uint32_t goal, uint16_t gx,
         uint16_t gy) {
  const int32_t pw = (int32_t)gs->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int dirs = eight ? 8 : 4;
  uint32_t step[MAX_CLASSES + 1];
  for (unsigned c = 0; c <= gs->nclasses; c++) step[c] = (uint32_t)gs->class_cost[c];
  const double hscale = gs->min_cost;
  const uint32_t ihscale = (uint32_t)gs->min_cost;
  const uint8_t *cls = gs->cls;
  uint32_t *state = gs->state, *ortho = gs->ortho, *dcost = gs->diag;
  const uint16_t gen = gs->gen;
  const double inv_width = 1.0 / width;
  entry_stack *ring = gs->ring;
  const uint64_t mask = ring_size - 1;
  uint64_t cur = 0, count = 0;
  uint64_t expanded = 0;
  int found = 0;

#define ESTIMATE(x, y) (use_h ? grid_estimate((x), (y), gx, gy, eight, hscale, diag) : 0.0)

#define PUSH(f, entry)                                                                   \
  do {                                                                                   \
    if (queue == QUEUE_RADIX) {                                                          \
      grid_entry e_ = (entry);                                                           \
      if (!radix_push(gs->radix, key_bits(f), e_.cell, (uint32_t)e_.x | (uint32_t)e_.y << 16)) \
        return -1;                                                                       \
    } else {                                                                             \
      uint64_t b_ = queue == QUEUE_RING_INT ? (uint64_t)(f) : (uint64_t)((f) * inv_width); \
      if (b_ < cur) b_ = cur;                                                            \
      entry_stack *s_ = &ring[b_ & mask];                                                \
      if (s_->len == s_->cap && !stack_grow(s_)) return -1;                              \
      s_->items[s_->len++] = (entry);                                                    \
      count++;                                                                           \
    }                                                                                    \
  } while (0)

  state[start] = gen | STATE_START;
  ortho[start] = 0;
  if (dcost) dcost[start] = 0;
  if (queue == QUEUE_RADIX) {
    radix_clear(gs->radix);
  } else {
    for (uint32_t i = 0; i < ring_size; i++) ring[i].len = 0;
    double f0 = ESTIMATE(sx, sy);
    cur = queue == QUEUE_RING_INT ? (uint64_t)f0 : (uint64_t)(f0 * inv_width);
  }
  PUSH(ESTIMATE(sx, sy), ((grid_entry){start, sx, sy}));

  for (;;) {
    grid_entry e;
    if (queue == QUEUE_RADIX) {
      uint32_t xy;
      int r = radix_pop(gs->radix, &e.cell, &xy);
      if (r < 0) return -1;
      if (r == 0) break;
      e.x = (uint16_t)xy, e.y = (uint16_t)(xy >> 16);
    } else {
      if (count == 0) break;
      entry_stack *s = &ring[cur & mask];
      while (s->len == 0) s = &ring[++cur & mask];
      e = s->items[--s->len];
      count--;
    }
    uint32_t u = e.cell;
    if (state[u] & STATE_CLOSED) continue;
    state[u] |= STATE_CLOSED;
    expanded++;
    if (u == goal) {
      found = 1;
      break;
    }
    const uint32_t uo = ortho[u], ud = dcost ? dcost[u] : 0;
    for (int d = 0; d < dirs; d++) {
      uint32_t v = (uint32_t)((int32_t)u + off[d]);
      uint8_t c = cls[v];
      if (c == 0) continue;
      uint32_t sv = state[v];
      int seen = (sv & STATE_STAMP) == gen;
      if (seen && (sv & STATE_CLOSED)) continue;
      uint32_t no = d < 4 ? uo + step[c] : uo, nd = d < 4 ? ud : ud + step[c];
      uint16_t vx = (uint16_t)(e.x + DX[d]), vy = (uint16_t)(e.y + DY[d]);
      if (queue == QUEUE_RING_INT) {
        /* diagonal 1: everything is an integer, no floating point at all */
        uint32_t ng = no + nd;
        if (seen && ng >= ortho[v] + (dcost ? dcost[v] : 0)) continue;
        state[v] = gen | ((uint32_t)d << STATE_DIR_SHIFT);
        ortho[v] = no;
        if (dcost) dcost[v] = nd;
        uint64_t b = ng + (use_h ? grid_estimate_int(vx, vy, gx, gy, eight, ihscale) : 0);
        entry_stack *s = &ring[b & mask];
        if (s->len == s->cap && !stack_grow(s)) return -1;
        s->items[s->len++] = (grid_entry){v, vx, vy};
        count++;
        continue;
      }
      double ng = (double)no + diag * (double)nd;
      if (seen && ng >= (double)ortho[v] + diag * (double)dcost[v]) continue;
      state[v] = gen | ((uint32_t)d << STATE_DIR_SHIFT);
      ortho[v] = no;
      dcost[v] = nd;
      PUSH(ng + ESTIMATE(vx, vy), ((grid_entry){v, vx, vy}));
    }
  }
#undef PUSH
#undef ESTIMATE
  gs->expanded = expanded;
  return found;
}

/* Fills out from the direction bytes, walking back from the goal once and
** reversing; coordinates are tracked by the steps, with no division. 0 on
** ENOMEM. */
static int build_path(const struct grid_search *gs, const strata_tilemap *m, uint32_t start,
                      uint32_t goal, int gx, int gy, double diag, strata_path *out) {
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int32_t pw = (int32_t)gs->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint32_t w = (uint32_t)m->width;
  size_t len = 0;
  int x = gx, y = gy;
  for (uint32_t v = goal;;) {
    if (!grid_route_add(out, &len, (uint32_t)y * w + (uint32_t)x)) return 0;
    if (v == start) break;
    unsigned d = (gs->state[v] >> STATE_DIR_SHIFT) & 7;
    v = (uint32_t)((int32_t)v - off[d]);
    x -= DX[d], y -= DY[d];
  }
  grid_route_reverse(out->nodes, len);
  out->len = len;
  out->cost = (double)gs->ortho[goal] + (gs->diag ? diag * (double)gs->diag[goal] : 0);
  return 1;
}

int gridsearch_run(strata_tilemap *m, int x1, int y1, int x2, int y2,
                   const strata_grid_options *opt, strata_path *out, strata_error *err) {
  struct grid_search *gs = m->grid;
  if (gs == NULL && (gs = m->grid = calloc(1, sizeof *gs)) == NULL) goto nomem;
  if (!refresh_classes(m, gs)) goto nomem;
  int eight = opt->connectivity == 8;
  /* One cost everywhere: breadth-first, two FIFOs for Dijkstra with a
  ** dearer diagonal, or A* on whole-number keys (gridflood.c). */
  if (!gs->too_many_classes && gs->nclasses == 1) {
    double diag = eight ? opt->diagonal_cost : 1;
    /* Diagonal sqrt 2 (the usual one): searches from both ends, which settle
    ** far fewer cells (gridbidir.c); its exactness argument needs sqrt 2 and
    ** grids of at most GRIDBIDIR_MAX_CELLS cells. */
    if (eight && diag == M_SQRT2 && gs->pw * gs->ph <= GRIDBIDIR_MAX_CELLS &&
        (opt->algorithm == STRATA_PATH_DIJKSTRA || opt->algorithm == STRATA_PATH_ASTAR) &&
        gs->cls[(size_t)(y1 + 1) * gs->pw + (size_t)(x1 + 1)] != 0) {
      /* Walls in long lines (rooms, corridors): jump point search, which
      ** settles only the cells where routes turn (gridjump.c). Scattered
      ** walls make nearly every cell such a cell and the scans long, and
      ** there the searches from both ends win. The threshold on forced
      ** positions per run comes from timing both on 1000x1000 maps from
      ** 0.12 to 1.8 (docs/benchmarks.md, "Which engine"). */
      double per_run = gridjump_forced_per_run(&gs->jump, gs->cls, gs->pw, gs->ph, gs->cls_serial);
      if (per_run < 0) goto nomem;
      if (per_run < GRIDJUMP_MAX_FORCED_PER_RUN) {
        int r = gridjump_run(&gs->jump, gs->cls, gs->pw, gs->ph, gs->cls_serial,
                             opt->algorithm == STRATA_PATH_ASTAR, x1, y1, x2, y2, gs->class_cost[1],
                             out, &gs->expanded);
        if (r == -1) goto nomem;
        if (r >= 0) return 1;
        /* -2: a count outgrew 16 bits; gridbidir gives up on it too */
      }
      int r = gridbidir_run(&gs->bidir, gs->cls, gs->pw, gs->ph,
                            opt->algorithm == STRATA_PATH_ASTAR, x1, y1, x2, y2,
                            gs->class_cost[1], out, &gs->expanded);
      if (r == -1) goto nomem;
      if (r >= 0) return 1;
      /* -2: a distance outgrew its 16-bit counts; the one-sided engines below */
    }
    int kind = -1;
    if (opt->algorithm == STRATA_PATH_BFS) kind = GRIDFLOOD_BFS;
    else if (opt->algorithm == STRATA_PATH_DIJKSTRA)
      kind = diag == 1 ? GRIDFLOOD_BFS : GRIDFLOOD_TWO_QUEUES;
    else if (opt->algorithm == STRATA_PATH_ASTAR)
      kind = diag == 1 ? GRIDFLOOD_ASTAR : diag <= 2 ? GRIDFLOOD_ASTAR_DIAG : -1;
    if (kind >= 0) {
      if (gridflood_run(&gs->flood, gs->cls, gs->pw, gs->ph, (gridflood_kind)kind, eight, diag,
                        x1, y1, x2, y2, gs->class_cost[1], out, &gs->expanded) < 0)
        goto nomem;
      return 1;
    }
  }
  /* Many distinct costs, or costs that are not integers: the generic engine. */
  if (gs->too_many_classes || !gs->integral || opt->algorithm == STRATA_PATH_BFS) return 0;
  int use_h = opt->algorithm == STRATA_PATH_ASTAR;
  double diag = eight ? opt->diagonal_cost : 1;
  double max_step = gs->max_cost * diag;
  queue_kind queue;
  double width = 1;
  if (gs->nclasses == 0) {
    queue = QUEUE_RADIX; /* nothing passable: any queue will do */
  } else if (gs->integral && diag == 1 && 2 * max_step + 2 < MAX_RING) {
    queue = QUEUE_RING_INT;
  } else if (!use_h && max_step / gs->min_cost + 2 < MAX_RING) {
    queue = QUEUE_RING_WIDTH;
    width = gs->min_cost;
  } else {
    queue = QUEUE_RADIX;
  }
  /* The ring must hold every key between the lowest open one and the
  ** highest: a step raises a key by at most span buckets. */
  uint32_t ring_size = 0;
  if (queue != QUEUE_RADIX) {
    double span = queue == QUEUE_RING_INT ? 2 * max_step + 2 : max_step / width + 2;
    for (ring_size = 4; ring_size < span + 1; ring_size *= 2) {}
  }
  uint32_t n = gs->pw * gs->ph;
  if (!prepare_work(gs, n, eight, ring_size)) goto nomem;
  if (queue == QUEUE_RADIX && gs->radix == NULL && (gs->radix = strata_search_new(err)) == NULL)
    return -1;
  uint32_t start = (uint32_t)(y1 + 1) * gs->pw + (uint32_t)(x1 + 1);
  uint32_t goal = (uint32_t)(y2 + 1) * gs->pw + (uint32_t)(x2 + 1);
  uint16_t sx = (uint16_t)x1, sy = (uint16_t)y1, gx = (uint16_t)x2, gy = (uint16_t)y2;
  int found;
  if (eight) {
    found = queue == QUEUE_RING_INT
                ? grid_run(gs, 1, QUEUE_RING_INT, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy)
            : queue == QUEUE_RING_WIDTH
                ? grid_run(gs, 1, QUEUE_RING_WIDTH, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy)
                : grid_run(gs, 1, QUEUE_RADIX, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy);
  } else {
    found = queue == QUEUE_RING_INT
                ? grid_run(gs, 0, QUEUE_RING_INT, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy)
            : queue == QUEUE_RING_WIDTH
                ? grid_run(gs, 0, QUEUE_RING_WIDTH, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy)
                : grid_run(gs, 0, QUEUE_RADIX, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy);
  }
  if (found < 0) goto nomem;
  out->len = 0;
  out->cost = 0;
  if (found && !build_path(gs, m, start, goal, x2, y2, diag, out)) goto nomem;
  return 1;
nomem:
  strata_error_set(err, STRATA_ENOMEM, "out of memory for a search on a %dx%d map", m->width,
                   m->height);
  return -1;
}

uint64_t gridsearch_expanded(const struct grid_search *gs) { return gs ? gs->expanded : 0; }
