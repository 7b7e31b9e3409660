/*
** gridbucket.c - A* and Dijkstra on maps of a few whole-number costs.
**
** The generic engine (search_internal.h) pays for its generality on grids:
** a division per node to find coordinates, bounds checks per neighbour, a
** token-stack walk per cost lookup and a comparison heap. Maps of several
** costs (floor, mud, water) get this engine instead:
**
** - the padded class grid (gridengine.h): neighbours are index offsets with
**   no bounds checks, a cell's cost one byte away.
** - parents as a direction in the state word, and O(1) reset between
**   searches with 16-bit generation stamps.
** - keys in buckets instead of a heap: with integer costs (4 neighbours, or
**   8 with diagonal cost 1) A* and Dijkstra keys are integers and a ring of
**   LIFO buckets orders them exactly. With real keys (diagonal != 1),
**   Dijkstra uses buckets as wide as the cheapest step: every label in the
**   lowest bucket is final then (Dinitz 1978), so order inside a bucket does
**   not matter. (A* with real keys had a radix heap here: 1.2-1.6 times the
**   generic engine's speed, not enough to keep; docs/benchmarks.md.)
** Entries carry their cell's coordinates so the estimate needs no division.
*/
#include <math.h>
#include <stdlib.h>

#include "gridengine.h"
#include "strata/alloc.h"
#include "util.h"
#include <string.h>

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

struct grid_bucket {
  uint32_t cap;
  uint16_t gen;
  uint32_t *state;
  uint32_t *ortho, *diag; /* diag: only once a search with diagonal steps needed it */
  entry_stack *ring;      /* ring_size stacks, grown when a search needs more */
  uint32_t ring_size;
};

void gridbucket_free(struct grid_bucket *gs) {
  if (gs == NULL) return;
  strata_free(gs->state);
  strata_free(gs->ortho);
  strata_free(gs->diag);
  for (uint32_t i = 0; i < gs->ring_size; i++) strata_free(gs->ring[i].items);
  strata_free(gs->ring);
  strata_free(gs);
}

size_t gridbucket_memory(const struct grid_bucket *gs) {
  if (gs == NULL) return 0;
  size_t bytes = sizeof *gs + (size_t)gs->cap * (sizeof *gs->state + sizeof *gs->ortho);
  if (gs->diag) bytes += (size_t)gs->cap * sizeof *gs->diag;
  bytes += gs->ring_size * sizeof *gs->ring;
  for (uint32_t i = 0; i < gs->ring_size; i++) bytes += gs->ring[i].cap * sizeof(grid_entry);
  return bytes;
}

/* Makes room for n cells (with diagonal costs when need_diag) and a ring of
** ring_size buckets (0: none). */
static int prepare_work(struct grid_bucket *gs, uint32_t n, int need_diag, uint32_t ring_size) {
  if (n > gs->cap) {
    uint32_t *state = strata_calloc(n, sizeof *state), *ortho = strata_malloc((size_t)n * sizeof *ortho);
    if (state == NULL || ortho == NULL) {
      strata_free(state), strata_free(ortho);
      return 0;
    }
    strata_free(gs->state), strata_free(gs->ortho), strata_free(gs->diag);
    gs->state = state, gs->ortho = ortho, gs->diag = NULL;
    gs->cap = n;
    gs->gen = 0;
  }
  if (need_diag && gs->diag == NULL &&
      (gs->diag = strata_malloc((size_t)gs->cap * sizeof *gs->diag)) == NULL)
    return 0;
  if (ring_size > gs->ring_size) {
    entry_stack *ring = strata_realloc(gs->ring, ring_size * sizeof *ring);
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

static int stack_grow(entry_stack *s) { return STRATA_GROW32(s->items, s->cap, (size_t)s->cap + 1); }

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

typedef enum queue_kind { QUEUE_RING_INT, QUEUE_RING_WIDTH } queue_kind;

/* The search proper, specialised by the compiler for each (eight, queue). */
static inline __attribute__((always_inline)) int
grid_run(struct grid_bucket *gs, const grid_classes *gc, int eight, queue_kind queue, int use_h, double diag,
         double width, uint32_t ring_size, uint32_t start, uint16_t sx, uint16_t sy, uint32_t goal, uint16_t gx,
         uint16_t gy, uint64_t *expanded_out) {
  const int32_t pw = (int32_t)gc->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int dirs = eight ? 8 : 4;
  uint32_t step[GRID_MAX_CLASSES + 1];
  for (unsigned c = 0; c <= gc->count; c++) step[c] = (uint32_t)gc->cost[c];
  const double hscale = gc->min_cost;
  const uint32_t ihscale = (uint32_t)gc->min_cost;
  const uint8_t *cls = gc->cls;
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
    uint64_t b_ = queue == QUEUE_RING_INT ? (uint64_t)(f) : (uint64_t)((f) * inv_width); \
    if (b_ < cur) b_ = cur;                                                              \
    entry_stack *s_ = &ring[b_ & mask];                                                  \
    if (s_->len == s_->cap && !stack_grow(s_)) return -1;                                \
    s_->items[s_->len++] = (entry);                                                      \
    count++;                                                                             \
  } while (0)

  state[start] = gen | STATE_START;
  ortho[start] = 0;
  if (dcost) dcost[start] = 0;
  for (uint32_t i = 0; i < ring_size; i++) ring[i].len = 0;
  double f0 = ESTIMATE(sx, sy);
  cur = queue == QUEUE_RING_INT ? (uint64_t)f0 : (uint64_t)(f0 * inv_width);
  PUSH(ESTIMATE(sx, sy), ((grid_entry){start, sx, sy}));

  for (;;) {
    if (count == 0) break;
    entry_stack *top = &ring[cur & mask];
    while (top->len == 0) top = &ring[++cur & mask];
    const grid_entry e = top->items[--top->len];
    count--;
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
  *expanded_out = expanded;
  return found;
}

/* Fills out from the direction bytes, walking back from the goal once and
** reversing; coordinates are tracked by the steps, with no division. 0 on
** ENOMEM. */
static int build_path(const struct grid_bucket *gs, uint32_t pw_, uint32_t start,
                      uint32_t goal, int gx, int gy, double diag, strata_path *out) {
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int32_t pw = (int32_t)pw_;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint32_t w = pw_ - 2;
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

/* The queue for q's keys and the size of its ring; 0 when q is not for
** this engine or the ring would be too large. */
static int choose_ring(const grid_query *q, queue_kind *queue, double *width, uint32_t *ring_size) {
  const grid_classes *g = q->g;
  if (g == NULL || !g->integral || g->count == 0) return 0;
  double max_step = g->max_cost * q->diag;
  *width = 1;
  if (q->diag == 1 && (q->algorithm == STRATA_PATH_ASTAR || q->algorithm == STRATA_PATH_DIJKSTRA)) {
    *queue = QUEUE_RING_INT;
  } else if (q->algorithm == STRATA_PATH_DIJKSTRA) {
    *queue = QUEUE_RING_WIDTH;
    *width = g->min_cost;
  } else {
    return 0;
  }
  /* The ring must hold every key between the lowest open one and the
  ** highest: a step raises a key by at most span buckets. */
  double span = *queue == QUEUE_RING_INT ? 2 * max_step + 2 : max_step / *width + 2;
  if (!(span < MAX_RING)) return 0;
  uint32_t n = 4;
  while (n < span + 1) n *= 2;
  *ring_size = n;
  return 1;
}

int gridbucket_fits(const grid_query *q) {
  queue_kind queue;
  double width;
  uint32_t ring_size;
  return choose_ring(q, &queue, &width, &ring_size);
}

int gridbucket_run(struct grid_bucket **bp, const grid_query *q, strata_path *out,
                   uint64_t *expanded) {
  const grid_classes *gc = q->g;
  struct grid_bucket *gs = *bp;
  if (gs == NULL && (gs = *bp = strata_calloc(1, sizeof *gs)) == NULL) return -1;
  queue_kind queue;
  double width;
  uint32_t ring_size;
  if (!choose_ring(q, &queue, &width, &ring_size)) return -2;
  const int use_h = q->algorithm == STRATA_PATH_ASTAR, eight = q->eight;
  const double diag = q->diag;
  uint32_t n = gc->pw * gc->ph;
  /* Real keys keep the diagonal part of g apart: the search reads it. */
  if (!prepare_work(gs, n, eight || queue != QUEUE_RING_INT, ring_size)) return -1;
  const int x1 = q->x1, y1 = q->y1, x2 = q->x2, y2 = q->y2;
  uint32_t start = (uint32_t)(y1 + 1) * gc->pw + (uint32_t)(x1 + 1);
  uint32_t goal = (uint32_t)(y2 + 1) * gc->pw + (uint32_t)(x2 + 1);
  uint16_t sx = (uint16_t)x1, sy = (uint16_t)y1, gx = (uint16_t)x2, gy = (uint16_t)y2;
  int found;
#define RUN(e, k) grid_run(gs, gc, e, k, use_h, diag, width, ring_size, start, sx, sy, goal, gx, gy, expanded)
  if (eight) found = queue == QUEUE_RING_INT ? RUN(1, QUEUE_RING_INT) : RUN(1, QUEUE_RING_WIDTH);
  else found = queue == QUEUE_RING_INT ? RUN(0, QUEUE_RING_INT) : RUN(0, QUEUE_RING_WIDTH);
#undef RUN
  if (found < 0) return -1;
  out->len = 0;
  out->cost = 0;
  if (found && !build_path(gs, gc->pw, start, goal, x2, y2, diag, out)) return -1;
  return found;
}
