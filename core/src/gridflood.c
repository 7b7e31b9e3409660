/*
** gridflood.c - searches on maps whose passable cells all cost the same.
**
** Most game maps are like that (floor and wall), and there the general
** machinery of gridbucket.c (cost arrays, bucket rings, generation stamps)
** is more than the problem needs:
**
** - When every step costs the same (4 neighbours, or 8 with diagonal steps
**   as dear as straight ones) Dijkstra is a breadth-first flood: a cell's
**   first label is final, so it needs one byte of state and a FIFO of cell
**   indices, and may stop as soon as the goal is reached.
** - With 8 neighbours and a diagonal multiplier d > 1 there are two step
**   costs, 1 and d, both at least 1: cells in buckets narrower than a step
**   are final when their bucket's turn comes, in any order, so Dijkstra
**   needs no heap (flood_dial: Dial's buckets), and a cell offers routes
**   only to the neighbours its parent could not reach as cheaply.
** - A* with every step alike keeps f mod 4 in the cell's byte and four
**   stacks by f (flood_astar).
** (A* with a dearer diagonal had its own engine here, a FIFO per raise of
** f: no faster than the bucket rings, and taken out; docs/benchmarks.md.)
**
** The byte per cell of BFS and A* is a copy of the class grid made for each
** search (1 for an unseen passable cell, 0 for a wall), so one load tells
** "passable and unseen"; a reached cell keeps the direction it was reached
** from (Dijkstra keeps it in its key).
*/
#include <stdlib.h>
#include <string.h>

#include "gridengine.h"
#include "griddial.h"
#include "strata/alloc.h"
#include "util.h"

#define UNSEEN 1u
#define OPEN 0x40u   /* reached, distance not final (A* only) */
#define DONE 0x80u   /* distance final; low 3 bits: the direction it came from */
#define START 0x08u  /* with DONE: the start, which has no parent */

#define BUCKETS_MAX 512 /* Dijkstra's ring of buckets: diagonals below 62 */

/* A*: an open cell with its coordinates, for the estimate. */
typedef struct astar_entry {
  uint32_t cell;
  uint16_t x, y;
} astar_entry;

typedef struct astar_stack {
  astar_entry *items;
  uint32_t len, cap;
} astar_stack;

struct grid_flood {
  uint8_t *mark;       /* per padded cell: UNSEEN, 0, OPEN | dir, DONE | dir */
  uint32_t *queue;     /* breadth-first search: cell indices */
  uint32_t cap;        /* cells the arrays above hold */
  uint64_t *key;       /* Dijkstra: per padded cell, distance and direction */
  uint32_t key_cap;
  cell_list bucket[BUCKETS_MAX]; /* Dijkstra: cells by their distance in eighths */
  astar_stack ring[4]; /* A*: open cells by f mod 4 */
};

void gridflood_free(struct grid_flood *f) {
  if (f == NULL) return;
  strata_free(f->mark);
  strata_free(f->queue);
  strata_free(f->key);
  for (int i = 0; i < BUCKETS_MAX; i++) strata_free(f->bucket[i].items);
  for (int i = 0; i < 4; i++) strata_free(f->ring[i].items);
  strata_free(f);
}

size_t gridflood_memory(const struct grid_flood *f) {
  if (f == NULL) return 0;
  size_t bytes = sizeof *f + (size_t)f->cap * (sizeof *f->mark + sizeof *f->queue);
  for (int i = 0; i < 4; i++) bytes += (size_t)f->ring[i].cap * sizeof(astar_entry);
  bytes += (size_t)f->key_cap * sizeof *f->key;
  for (int i = 0; i < BUCKETS_MAX; i++) bytes += (size_t)f->bucket[i].cap * sizeof(uint32_t);
  return bytes;
}

static int prepare(struct grid_flood **fp, uint32_t n) {
  struct grid_flood *f = *fp;
  if (f == NULL && (f = *fp = strata_calloc(1, sizeof *f)) == NULL) return 0;
  if (n > f->cap) {
    uint8_t *mark = strata_malloc(n);
    uint32_t *queue = strata_malloc((size_t)n * sizeof *queue);
    if (mark == NULL || queue == NULL) {
      strata_free(mark), strata_free(queue);
      return 0;
    }
    strata_free(f->mark), strata_free(f->queue);
    f->mark = mark, f->queue = queue;
    f->cap = n;
  }
  return 1;
}

/* Breadth-first: fewest steps. Stops when the goal is reached. No branch
** on a neighbour's state: every neighbour is written at the queue's tail,
** and the tail moves on only for an unseen one (with a branch per
** neighbour, 2.3 times as long on the three maps of docs/benchmarks.md:
** which neighbours are open looks random to the predictor). Its bytes
** (grid_marks_clear) are 0 for an unseen cell, so that the test is one
** compare with zero and the new byte an or. */
static inline __attribute__((always_inline)) int bfs(struct grid_flood *f, int32_t pw, const int dirs,
                                                     uint32_t start, uint32_t goal,
                                                     uint64_t *expanded) {
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint8_t *mark = f->mark;
  uint32_t *queue = f->queue;
  uint32_t head = 0, tail = 0;
  mark[start] = DONE;
  queue[tail++] = start;
  if (start == goal) return *expanded = 1, 1;
  while (head < tail) {
    const uint32_t u = queue[head++];
    uint8_t *const mu = mark + u; /* the neighbours' bytes by offset: no index to widen */
#pragma GCC unroll 8
    for (int d = 0; d < dirs; d++) {
      const uint32_t mv = mu[off[d]], unseen = mv < 1u;
      queue[tail] = (uint32_t)((int32_t)u + off[d]);
      tail += unseen;
      mu[off[d]] = (uint8_t)(mv | ((DONE | (unsigned)d) & (0u - unseen)));
    }
    if (mark[goal] != 0) return *expanded = head, 1;
  }
  *expanded = head;
  return 0;
}

static int flood_bfs(struct grid_flood *f, int32_t pw, int dirs, uint32_t start, uint32_t goal,
                     uint64_t *expanded) {
  /* a copy for each count of neighbours: the loop over them unrolled */
  return dirs == 4 ? bfs(f, pw, 4, start, goal, expanded) : bfs(f, pw, 8, start, goal, expanded);
}

/* Dijkstra with straight steps of cost 1 and diagonal steps of cost diag
** (Dial's buckets). A cell's key is its distance in fixed point (KEY_ONE a
** straight step, diag * KEY_ONE rounded a diagonal one: sums of whole
** numbers, the same whatever the order of the steps) with the direction it
** came from in the low 3 bits and KEY_SETTLED above them; walls hold 0,
** unseen cells KEY_UNSEEN. Buckets hold the cells by their distance in
** eighths of a step: every step costs at least 1, so a cell can give no
** cell of its own bucket a shorter route, and the cells of a bucket are
** final in any order: no heap, no sorting. A neighbour offered a shorter
** distance takes it without a branch (which neighbours improve looks
** random to the predictor). Ties go to the first offer, in the buckets'
** order, which the map and the request alone fix. For sqrt 2 the rounding
** of the diagonal (under 2^-32) orders two routes right while they differ
** by fewer than some 39,000 diagonal steps (the doubles of the generic
** engine have their own rounding). */
#define KEY_SHIFT 36
#define KEY_ONE ((uint64_t)1 << KEY_SHIFT)
/* Buckets of an eighth of a step: any width up to a step keeps a bucket's
** cells final, and a narrow one has fewer offers bettered later. */
#define BUCKET_SHIFT (KEY_SHIFT - 3)
typedef struct dial_run {
  uint64_t *key;
  cell_list *bucket;
  int32_t off[8];
  uint64_t dkey;
  uint32_t mask, goal;
} dial_run;

/* The buckets from the start's, whose neighbours are queued. PRUNED (a
** diagonal cheaper than two straight steps): a cell offers routes only to
** the neighbours its parent could not reach as cheaply. One reached by a
** straight step reaches its sides and the cells behind them more cheaply
** from its parent, so it offers the three ahead; one reached diagonally
** offers the three ahead and the two whose way round, past its parent's
** side, may be walled (jump point search's natural and forced neighbours,
** the forced ones always). Else every neighbour. 1 found, 0 not, -1
** ENOMEM. */
static inline __attribute__((always_inline)) int dial_loop(const dial_run *r, const int pruned,
                                                           uint64_t *pops) {
  /* in locals: the lists' stores may alias what is behind a pointer */
  uint64_t *const key = r->key;
  cell_list *const bucket = r->bucket;
  const uint32_t mask = r->mask, goal = r->goal;
  const uint64_t dkey = r->dkey;
  const uint32_t dbuckets = (uint32_t)(dkey >> BUCKET_SHIFT);
  const int32_t pw = r->off[2];
  uint64_t settled = *pops;
  for (uint32_t k = 1, empty = 0; empty <= mask; k++) {
    cell_list *const cur = &bucket[k & mask];
    const uint32_t count = cur->len;
    empty = count ? 0 : empty + 1;
    /* room for eight offers of each of this bucket's cells in the buckets
    ** they go to: a step later, and a diagonal later (that or the next) */
    if (count && (!list_room(&bucket[(k + 8) & mask], 8 * count) ||
                  !list_room(&bucket[(k + dbuckets) & mask], 8 * count) ||
                  !list_room(&bucket[(k + dbuckets + 1) & mask], 8 * count)))
      return -1;
    const uint32_t *const items = cur->items;
    for (uint32_t i = 0; i < count; i++) {
      const uint32_t u = items[i];
      const uint64_t ku = key[u];
      if (ku & KEY_SETTLED) continue; /* left already: a second entry */
      key[u] = ku | KEY_SETTLED;
      settled++;
      if (u == goal) return *pops = settled, 1;
      const uint64_t ks = (ku & ~(uint64_t)KEY_LOW) + KEY_ONE, kd = ks - KEY_ONE + dkey;
      cell_list *const ls = &bucket[(ks >> BUCKET_SHIFT) & mask];
      cell_list *const ld = &bucket[(kd >> BUCKET_SHIFT) & mask];
      uint32_t *const is = ls->items, *const id = ld->items;
      uint32_t n = ls->len;
      const uint32_t un = u - (uint32_t)pw, us = u + (uint32_t)pw;
#define S0 n = relax(key, is, n, un, ks | 0)
#define S1 n = relax(key, is, n, u + 1, ks | 1)
#define S2 n = relax(key, is, n, us, ks | 2)
#define S3 n = relax(key, is, n, u - 1, ks | 3)
#define D4 n = relax(key, id, n, un + 1, kd | 4)
#define D5 n = relax(key, id, n, us + 1, kd | 5)
#define D6 n = relax(key, id, n, us - 1, kd | 6)
#define D7 n = relax(key, id, n, un - 1, kd | 7)
/* straight offers, then the diagonal ones from ld's length (ld may be ls) */
#define THEN ls->len = n, n = ld->len
      if (!pruned) {
        S0, S1, S2, S3, THEN, D4, D5, D6, D7;
      } else {
        switch (ku & 7u) {
        case 0: S0, THEN, D4, D7; break;
        case 1: S1, THEN, D4, D5; break;
        case 2: S2, THEN, D5, D6; break;
        case 3: S3, THEN, D6, D7; break;
        case 4: S0, S1, THEN, D4, D5, D7; break;
        case 5: S1, S2, THEN, D5, D4, D6; break;
        case 6: S2, S3, THEN, D6, D5, D7; break;
        default: S0, S3, THEN, D7, D4, D6; break;
        }
      }
      ld->len = n;
#undef S0
#undef S1
#undef S2
#undef S3
#undef D4
#undef D5
#undef D6
#undef D7
#undef THEN
    }
    cur->len = 0;
  }
  *pops = settled;
  return 0;
}

static int flood_dial(struct grid_flood *f, const uint8_t *cls, uint32_t n, int32_t pw,
                      double diag, uint32_t start, uint32_t goal, uint64_t *expanded) {
  if (n > f->key_cap) {
    uint64_t *key = strata_malloc((size_t)n * sizeof *key);
    if (key == NULL) return -1;
    strata_free(f->key);
    f->key = key, f->key_cap = n;
  }
  dial_run r = {f->key, f->bucket, {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1},
                (uint64_t)(diag * (double)KEY_ONE) & ~(uint64_t)KEY_LOW, 3, goal};
  for (uint32_t i = 0; i < n; i++) r.key[i] = (uint64_t)0 - (cls[i] != 0); /* KEY_UNSEEN or 0 */
  /* the ring holds buckets k to k + 1 + diag */
  while (r.mask + 1 < ((uint32_t)diag + 2) * 8) r.mask = r.mask * 2 + 1;
  for (uint32_t b = 0; b <= r.mask; b++) r.bucket[b].len = 0;
  /* the start: settled, its eight neighbours offered */
  r.key[start] = KEY_SETTLED;
  *expanded = 1;
  if (start == goal) return 1;
  cell_list *const ls = &r.bucket[(KEY_ONE >> BUCKET_SHIFT) & r.mask];
  cell_list *const ld = &r.bucket[(r.dkey >> BUCKET_SHIFT) & r.mask];
  if (!list_room(ls, 8) || !list_room(ld, 8)) return -1;
  for (unsigned d = 0; d < 4; d++)
    ls->len = relax(r.key, ls->items, ls->len, (uint32_t)((int32_t)start + r.off[d]), KEY_ONE | d);
  for (unsigned d = 4; d < 8; d++)
    ld->len = relax(r.key, ld->items, ld->len, (uint32_t)((int32_t)start + r.off[d]), r.dkey | d);
  return diag < 2 ? dial_loop(&r, 1, expanded) : dial_loop(&r, 0, expanded);
}

static int stack_grow(astar_stack *s) { return STRATA_GROW32(s->items, s->cap, (size_t)s->cap + 1); }

/* A* when every step costs the same (4 neighbours, or 8 with diagonal 1),
** with the Manhattan or Chebyshev distance: f = g + h is a whole number of
** steps and a step raises it by 0, 1 or 2, so the open cells' f lie in
** [F, F + 2] for the lowest open F. Cells are kept in four LIFO stacks by
** f mod 4, and a cell's byte holds its f mod 4 instead of a g array: with f
** known to within [F, F + 2], that is enough to tell whether a new route is
** shorter (same cell, same h: lower f means lower g). Last in, first out
** within a stack prefers the deepest cells, which goes straight for the
** goal when nothing is in the way. */
static int flood_astar(struct grid_flood *f, int32_t pw, int eight, uint32_t start, uint16_t sx,
                       uint16_t sy, uint32_t goal, uint16_t gx, uint16_t gy, uint64_t *expanded) {
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int dirs = eight ? 8 : 4;
  uint8_t *mark = f->mark;
  astar_stack *ring = f->ring;
  for (int i = 0; i < 4; i++) ring[i].len = 0;
#define H(x, y)                                                                      \
  (eight ? ((uint32_t)abs((int)(x) - (int)gx) > (uint32_t)abs((int)(y) - (int)gy)   \
                ? (uint32_t)abs((int)(x) - (int)gx) : (uint32_t)abs((int)(y) - (int)gy)) \
         : (uint32_t)(abs((int)(x) - (int)gx) + abs((int)(y) - (int)gy)))
  uint32_t fcur = H(sx, sy), open = 1;
  uint64_t pops = 0;
  mark[start] = (uint8_t)(OPEN | START | ((fcur & 3u) << 4));
  if (ring[fcur & 3].cap == 0 && !stack_grow(&ring[fcur & 3])) return -1;
  ring[fcur & 3].items[ring[fcur & 3].len++] = (astar_entry){start, sx, sy};
  while (open > 0) {
    astar_stack *s = &ring[fcur & 3];
    while (s->len == 0) s = &ring[++fcur & 3];
    astar_entry e = s->items[--s->len];
    open--;
    uint32_t u = e.cell;
    uint8_t mu = mark[u];
    /* done already, or a stale entry of a cell since moved to a lower f */
    if ((mu & DONE) || ((mu >> 4) & 3u) != (fcur & 3u)) continue;
    mark[u] = (uint8_t)(DONE | (mu & 0x0fu));
    pops++;
    if (u == goal) return *expanded = pops, 1;
    if (!eight) {
      /* A straight step raises f by 2 when it moves away from the goal on its
      ** axis, else by 0: four comparisons per cell instead of an estimate
      ** per neighbour. */
      /* The four directions written out (constants in each): a loop over
      ** arrays of offsets and raises kept them in memory. */
#define STEP4(d, dv, raised, vx, vy)                                                     \
  do {                                                                                 \
    uint32_t v = (uint32_t)((int32_t)u + (dv));                                        \
    uint8_t mv = mark[v];                                                              \
    if (mv == 0 || (mv & DONE)) break;                                                 \
    uint32_t fv = fcur + ((raised) ? 2u : 0u);                                         \
    /* open already: at fcur (never beaten) or at fcur + 2 (beaten by fcur) */         \
    if (mv != UNSEEN && (fv != fcur || ((mv >> 4) & 3u) == (fcur & 3u))) break;        \
    mark[v] = (uint8_t)(OPEN | (d) | ((fv & 3u) << 4));                                \
    astar_stack *t = &ring[fv & 3];                                                    \
    if (t->len == t->cap && !stack_grow(t)) return -1;                                 \
    t->items[t->len++] = (astar_entry){v, (uint16_t)(vx), (uint16_t)(vy)};             \
    open++;                                                                            \
  } while (0)
      STEP4(0u, -pw, e.y <= gy, e.x, e.y - 1);
      STEP4(1u, 1, e.x >= gx, e.x + 1, e.y);
      STEP4(2u, pw, e.y >= gy, e.x, e.y + 1);
      STEP4(3u, -1, e.x <= gx, e.x - 1, e.y);
#undef STEP4
      continue;
    }
    uint32_t g = fcur - H(e.x, e.y);
    for (int d = 0; d < dirs; d++) {
      uint32_t v = (uint32_t)((int32_t)u + off[d]);
      uint8_t mv = mark[v];
      if (mv == 0 || (mv & DONE)) continue;
      uint16_t vx = (uint16_t)(e.x + DX[d]), vy = (uint16_t)(e.y + DY[d]);
      uint32_t fv = g + 1 + H(vx, vy);
      if (mv != UNSEEN) {
        uint32_t fold = fcur + ((((mv >> 4) & 3u) - fcur) & 3u);
        if (fv >= fold) continue;
      }
      mark[v] = (uint8_t)(OPEN | (unsigned)d | ((fv & 3u) << 4));
      astar_stack *t = &ring[fv & 3];
      if (t->len == t->cap && !stack_grow(t)) return -1;
      t->items[t->len++] = (astar_entry){v, vx, vy};
      open++;
    }
  }
#undef H
  *expanded = pops;
  return 0;
}

double gridflood_corridor_share(const uint8_t *cls, uint32_t pw, uint32_t ph) {
  uint64_t passable = 0, corridor = 0;
  for (uint32_t y = 1; y + 1 < ph; y++) {
    const uint8_t *up = cls + (size_t)(y - 1) * pw, *c = up + pw, *down = c + pw;
    for (uint32_t x = 1; x + 1 < pw; x++) {
      const uint32_t open = c[x] != 0;
      const uint32_t n = (uint32_t)(c[x - 1] != 0) + (c[x + 1] != 0) + (up[x] != 0) + (down[x] != 0);
      passable += open, corridor += open & (n == 2);
    }
  }
  return passable ? (double)corridor / (double)passable : 0;
}

int gridflood_run(struct grid_flood **fp, const uint8_t *cls, uint32_t pw, uint32_t ph,
                  gridflood_kind kind, int eight, double diag, int sx, int sy, int gx, int gy,
                  double cell_cost, strata_path *out, uint64_t *expanded) {
  uint32_t n = pw * ph;
  uint32_t start = (uint32_t)(sy + 1) * pw + (uint32_t)(sx + 1);
  uint32_t goal = (uint32_t)(gy + 1) * pw + (uint32_t)(gx + 1);
  uint32_t width = pw - 2;
  /* Dijkstra's keys have their bits: past them, the buckets of gridbucket.c */
  if (kind == GRIDFLOOD_DIJKSTRA && ((double)n * diag >= 134217728.0 || diag >= BUCKETS_MAX / 8 - 2))
    return -2;
  if (!prepare(fp, kind == GRIDFLOOD_DIJKSTRA ? 0 : n)) return -1; /* Dijkstra: keys alone */
  struct grid_flood *f = *fp;
  int32_t p = (int32_t)pw;
  int found;
  if (kind == GRIDFLOOD_DIJKSTRA) {
    found = flood_dial(f, cls, n, p, diag, start, goal, expanded);
  } else {
    if (kind == GRIDFLOOD_BFS) grid_marks_clear(f->mark, cls, n);
    else memcpy(f->mark, cls, n); /* one class: 1 passable, 0 wall */
    found = kind == GRIDFLOOD_ASTAR
                ? flood_astar(f, p, eight, start, (uint16_t)sx, (uint16_t)sy, goal, (uint16_t)gx,
                              (uint16_t)gy, expanded)
                : flood_bfs(f, p, eight ? 8 : 4, start, goal, expanded);
  }
  out->len = 0;
  out->cost = 0;
  if (found <= 0) return found;
  /* Walk back from the goal by the stored directions, then reverse. */
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int32_t off[8] = {-p, 1, p, -1, -p + 1, p + 1, p - 1, -p - 1};
  size_t len = 0, straight = 0, diagonal = 0;
  int x = gx, y = gy;
  for (uint32_t v = goal;;) {
    if (!grid_route_add(out, &len, (uint32_t)y * width + (uint32_t)x)) return -1;
    if (v == start) break;
    unsigned d = kind == GRIDFLOOD_DIJKSTRA ? (unsigned)(f->key[v] & 7u) : f->mark[v] & 7u;
    if (d < 4) straight++;
    else diagonal++;
    v = (uint32_t)((int32_t)v - off[d]);
    x -= DX[d], y -= DY[d];
  }
  grid_route_reverse(out->nodes, len);
  out->len = len;
  out->cost = cell_cost * ((double)straight + diag * (double)diagonal);
  return 1;
}
