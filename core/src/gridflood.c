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
** - At 8 neighbours, diagonal 1, A* estimates with two of Chebyshev and four
**   landmarks' fields (distances from cells near the map's corners, made
**   once per class grid: gridflood_landmarks), and offers only the cells of
**   the lowest f (flood_astar_land). Where walls make routes longer than
**   Chebyshev says (rooms), Chebyshev alone left A* settling most of the
**   map; on open ground, every cell of f below the optimum.
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
#include "prefault.h"
#include "strata/alloc.h"
#include "util.h"

#define UNSEEN 1u
#define OPEN 0x40u   /* reached, distance not final (A* only) */
#define DONE 0x80u   /* distance final; low 3 bits: the direction it came from */
#define START 0x08u  /* with DONE: the start, which has no parent */


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
  /* A* at 8 neighbours, diagonal 1: LANDMARKS distances per padded cell
  ** (steps from each landmark; LAND_FAR unreached), of the class grid named
  ** by land_serial - 1 (0: none made); land_ok 0 when a distance outgrew
  ** 16 bits (Chebyshev alone then). */
  uint16_t *land;
  uint32_t land_cap;
  uint64_t land_serial;
  int land_ok;
  /* A*: mark is the class grid named by clean - 1 (0: not known) between
  ** searches; a search lists the cells it changed in queue (touched of
  ** them) and puts them back after, instead of copying the whole grid (a
  ** megabyte for a search of a thousand cells). flood_astar lists the
  ** cells it takes, whose `around` neighbours are all it offers (a store
  ** a cell: one an offer cost rooms at 4 neighbours 7 %); the landmarks'
  ** search the cells it offers (a few a cell taken). Past touch_max (a
  ** 64th of the grid's bytes) it stops listing and the next search copies
  ** the grid: bytes put back one by one cost more than that. */
  uint64_t clean;
  uint32_t touched, touch_max;
  int around;
};

#define LANDMARKS 4
#define LAND_FAR 0xffffu

void gridflood_free(struct grid_flood *f) {
  if (f == NULL) return;
  strata_free(f->mark);
  strata_free(f->queue);
  strata_free(f->key);
  for (int i = 0; i < BUCKETS_MAX; i++) strata_free(f->bucket[i].items);
  for (int i = 0; i < 4; i++) strata_free(f->ring[i].items);
  strata_free(f->land);
  strata_free(f);
}

size_t gridflood_memory(const struct grid_flood *f) {
  if (f == NULL) return 0;
  size_t bytes = sizeof *f + (size_t)f->cap * (sizeof *f->mark + sizeof *f->queue);
  for (int i = 0; i < 4; i++) bytes += (size_t)f->ring[i].cap * sizeof(astar_entry);
  bytes += (size_t)f->key_cap * sizeof *f->key;
  bytes += (size_t)f->land_cap * LANDMARKS * sizeof *f->land;
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
    f->clean = 0;
  }
  return 1;
}

/* Breadth-first: fewest steps. Stops when the goal is reached. No branch
** on a neighbour's state: every neighbour is written at the queue's tail,
** and the tail moves on only for an unseen one (with a branch per
** neighbour, 2.3 times as long on the three maps of docs/benchmarks.md:
** which neighbours are open looks random to the predictor). Its bytes
** (grid_marks_clear) are 0 for an unseen cell, so that the test is one
** compare with zero and the new byte an or. With whole, no goal: every
** cell reached (a landmark's field). */
static inline __attribute__((always_inline)) int bfs(struct grid_flood *f, int32_t pw, const int dirs,
                                                     const int whole, uint32_t start, uint32_t goal,
                                                     uint64_t *expanded) {
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint8_t *mark = f->mark;
  uint32_t *queue = f->queue;
  uint32_t head = 0, tail = 0;
  mark[start] = DONE;
  queue[tail++] = start;
  if (!whole && start == goal) return *expanded = 1, 1;
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
    if (!whole && mark[goal] != 0) return *expanded = head, 1;
  }
  *expanded = head;
  return 0;
}

static int flood_bfs(struct grid_flood *f, int32_t pw, int dirs, uint32_t start, uint32_t goal,
                     uint64_t *expanded) {
  /* a copy for each count of neighbours: the loop over them unrolled */
  return dirs == 4 ? bfs(f, pw, 4, 0, start, goal, expanded)
                   : bfs(f, pw, 8, 0, start, goal, expanded);
}

static int flood_dial(struct grid_flood *f, const uint8_t *cls, uint32_t n, int32_t pw,
                      double diag, uint32_t start, uint32_t goal, uint64_t *expanded) {
  if (n > f->key_cap) {
    uint64_t *key = strata_malloc((size_t)n * sizeof *key);
    if (key == NULL) return -1;
    strata_free(f->key);
    f->key = key, f->key_cap = n;
    /* read near the front of the search, a row apart: a few % less time on huge pages */
    strata_hugepages(key, (size_t)n * sizeof *key);
  }
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  dial_run r = {f->key, f->bucket, 0, 3, goal, pw, 1, 0, 0, {{0, 0}}, 0, 0};
  const int pruned = dial_offers(&r, diag);
  keys_clear(r.key, cls, n);
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
  for (unsigned d = 0; d < 8; d++) {
    cell_list *const l = d < 4 ? ls : ld;
    const uint64_t c = (d < 4 ? KEY_ONE : r.dkey) | d;
    const uint32_t v = (uint32_t)((int32_t)start + off[d]);
    l->len = (uint32_t)relax(r.key + v, l->items, l->len, v, c, c | KEY_LOW);
  }
  if (!pruned) return dial_loop(&r, 0, 0, BUCKET_SHIFT, 0, 0, expanded);
  return (r.dkey >> BUCKET_SHIFT) == 8 ? dial_loop(&r, 1, 1, BUCKET_SHIFT, 0, 0, expanded)
                                        : dial_loop(&r, 1, 0, BUCKET_SHIFT, 0, 0, expanded);
}

static int stack_grow(astar_stack *s) { return STRATA_GROW32(s->items, s->cap, (size_t)s->cap + 1); }
static int stack_room(astar_stack *s, uint32_t n) {
  return STRATA_GROW32(s->items, s->cap, (size_t)s->len + n);
}

/* A landmark's field: steps (8 neighbours, every step 1) from src into slot
** l of f->land. The breadth-first flood of the searches first (its queue in
** order of distance, each cell's direction from its parent in its byte),
** then each cell one step beyond its parent, in the queue's order: a
** flood into the landmarks' 8-byte cells took 3 times as long. Returns the
** cells reached, 0 when a distance outgrew 16 bits. */
static uint32_t land_flood(struct grid_flood *f, const uint8_t *cls, int32_t pw, uint32_t n,
                           uint32_t src, int l) {
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  uint64_t reached;
  grid_marks_clear(f->mark, cls, n);
  bfs(f, pw, 8, 1, src, 0, &reached);
  uint16_t *const land = f->land + l;
  land[(size_t)src * LANDMARKS] = 0;
  for (uint32_t i = 1; i < reached; i++) {
    const uint32_t v = f->queue[i];
    const uint32_t parent = (uint32_t)((int32_t)v - off[f->mark[v] & 7u]);
    const uint32_t dv = land[(size_t)parent * LANDMARKS] + 1u;
    if (dv >= LAND_FAR - 1) return 0;
    land[(size_t)v * LANDMARKS] = (uint16_t)dv;
  }
  return (uint32_t)reached;
}

/* The passable cell of slot l's field still unreached (LAND_FAR) nearest
** (cx, cy), walking the diagonals of equal |dx| + |dy| outwards, the first
** of each in row order; 0 when none is left. */
static uint32_t land_corner(const uint16_t *land, const uint8_t *cls, uint32_t pw, uint32_t ph,
                            uint32_t cx, uint32_t cy) {
  for (uint32_t d = 0; d < pw + ph; d++)
    for (uint32_t y = cy > d ? cy - d : 1; y + 1 < ph && y <= cy + d; y++) {
      const uint32_t dy = y > cy ? y - cy : cy - y, dx = d - dy;
      for (int side = 0; side < 2; side++) {
        if (side && dx == 0) break;
        if (side ? cx + dx + 1 >= pw : cx < dx + 1) continue;
        const uint32_t i = y * pw + (side ? cx + dx : cx - dx);
        if (cls[i] != 0 && land[(size_t)i * LANDMARKS] == LAND_FAR) return i;
      }
    }
  return 0;
}

/* The landmarks of a class grid (serial names its contents), made when it
** changed: for each corner, the passable cell nearest it whose flood reaches
** half the passable cells (a cell walled in a corner's pocket is passed
** over, its pocket's cells left at one value: still a bound, as nothing
** there reaches the rest). A cell's estimate is then the largest
** difference between its distance and the goal's from one landmark: a
** bound that holds whatever the walls (triangle inequality) and changes by
** at most one a step, so f stays in [F, F + 2]. About four breadth-first
** floods of the map, once per class grid; 0 on ENOMEM. */
static int gridflood_landmarks(struct grid_flood *f, const uint8_t *cls, uint32_t pw,
                               uint32_t ph, uint64_t serial) {
  if (f->land_serial == serial + 1) return 1;
  const uint32_t n = pw * ph;
  if (n > f->land_cap) {
    uint16_t *land = strata_malloc((size_t)n * LANDMARKS * sizeof *land);
    if (land == NULL) return 0;
    strata_free(f->land);
    f->land = land, f->land_cap = n;
  }
  memset(f->land, 0xff, (size_t)n * LANDMARKS * sizeof *f->land);
  uint32_t passable = 0;
  for (uint32_t i = 0; i < n; i++) passable += cls[i] != 0;
  f->land_ok = 1;
  for (int l = 0; l < LANDMARKS && f->land_ok; l++) {
    const uint32_t cx = l & 1 ? pw - 2 : 1, cy = l & 2 ? ph - 2 : 1;
    for (int tries = 0; tries < 4; tries++) {
      const uint32_t best = land_corner(f->land + l, cls, pw, ph, cx, cy);
      if (best == 0) break;
      const uint32_t reached = land_flood(f, cls, (int32_t)pw, n, best, l);
      if (reached == 0) f->land_ok = 0;
      if (reached == 0 || (uint64_t)reached * 2 >= passable) break;
      for (uint32_t i = 0; i < reached; i++) f->land[(size_t)f->queue[i] * LANDMARKS + l] = LAND_FAR - 1;
    }
  }
  f->land_serial = serial + 1;
  f->clean = 0; /* the floods' bytes in mark */
  return 1;
}

static inline uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* |a - b| */
static inline uint32_t absdiff(uint32_t a, uint32_t b) { return a > b ? a - b : b - a; }

/* A* when every step costs the same (4 neighbours, or 8 with diagonal 1),
** with the Manhattan or Chebyshev distance: f = g + h is a whole number of
** steps and a step raises it by 0, 1 or 2, so the open cells' f lie in
** [F, F + 2] for the lowest open F. Cells are kept in four LIFO stacks by
** f mod 4, and a cell's byte holds its f mod 4 instead of a g array: with f
** known to within [F, F + 2], that is enough to tell whether a new route is
** shorter (same cell, same h: lower f means lower g). Last in, first out
** within a stack prefers the deepest cells, which goes straight for the
** goal when nothing is in the way. Not inlined into gridflood_run: there it
** moved the breadth-first loops and cost them 3-4 % at 8 neighbours (the
** same instructions). */
static __attribute__((noinline)) int flood_astar(struct grid_flood *f, int32_t pw, int eight,
                                                 uint32_t start, uint16_t sx, uint16_t sy,
                                                 uint32_t goal, uint16_t gx, uint16_t gy,
                                                 uint64_t *expanded) {
  uint8_t *mark = f->mark;
  astar_stack *ring = f->ring;
  for (int i = 0; i < 4; i++) ring[i].len = 0;
#define H(x, y)                                                                      \
  (eight ? ((uint32_t)abs((int)(x) - (int)gx) > (uint32_t)abs((int)(y) - (int)gy)   \
                ? (uint32_t)abs((int)(x) - (int)gx) : (uint32_t)abs((int)(y) - (int)gy)) \
         : (uint32_t)(abs((int)(x) - (int)gx) + abs((int)(y) - (int)gy)))
  uint32_t fcur = H(sx, sy);
  uint64_t pops = 0;
  uint32_t *const touched = f->queue;
  const uint32_t touch_max = f->touch_max; /* a local: the byte stores may alias the field */
  uint32_t nt = 0;
  mark[start] = (uint8_t)(OPEN | START | ((fcur & 3u) << 4));
  if (ring[fcur & 3].cap == 0 && !stack_grow(&ring[fcur & 3])) return -1;
  ring[fcur & 3].items[ring[fcur & 3].len++] = (astar_entry){start, sx, sy};
  for (;;) {
    /* every entry's f is in [fcur, fcur + 2]: three empty stacks in a row
    ** are the end (no count of open cells to keep per push and pop) */
    astar_stack *s = &ring[fcur & 3];
    if (s->len == 0) {
      if (ring[(fcur + 1) & 3].len == 0 && ring[(fcur + 2) & 3].len == 0) break;
      while (s->len == 0) s = &ring[++fcur & 3];
    }
    astar_entry e = s->items[--s->len];
    uint32_t u = e.cell;
    uint8_t mu = mark[u];
    /* done already, or a stale entry of a cell since moved to a lower f */
    if ((mu & DONE) || ((mu >> 4) & 3u) != (fcur & 3u)) continue;
    mark[u] = (uint8_t)(DONE | (mu & 0x0fu));
    touched[nt] = u; /* it and its neighbours: a store a cell, not one an offer */
    nt += nt < touch_max;
    pops++;
    if (u == goal) return f->touched = nt, *expanded = pops, 1;
    /* Each step written out (constants in each): a loop over arrays of
    ** offsets and raises kept them in memory. A neighbour open already has
    ** its f in [fcur, fcur + 2], from its byte; it stays where kept. */
#define STEP(d, dv, fvexpr, vx, vy, kept)                                                \
  do {                                                                                 \
    uint32_t v = (uint32_t)((int32_t)u + (dv));                                        \
    uint8_t mv = mark[v];                                                              \
    if (mv == 0 || (mv & DONE)) break;                                                 \
    uint32_t fv = (fvexpr);                                                            \
    if (mv != UNSEEN && (kept)) break;                                                 \
    mark[v] = (uint8_t)(OPEN | (d) | ((fv & 3u) << 4));                                \
    astar_stack *t = &ring[fv & 3];                                                    \
    if (t->len == t->cap && !stack_grow(t)) return -1;                                 \
    t->items[t->len++] = (astar_entry){v, (uint16_t)(vx), (uint16_t)(vy)};             \
  } while (0)
    if (!eight) {
      /* A straight step raises f by 2 when it moves away from the goal on its
      ** axis, else by 0: four comparisons per cell instead of an estimate
      ** per neighbour. */
      /* open at fcur (never beaten) or at fcur + 2 (beaten by fcur only) */
#define KEEP4 (fv != fcur || ((mv >> 4) & 3u) == (fcur & 3u))
      const uint32_t before = s->len; /* s: the stack at fcur, where steps that keep f go */
      STEP(0u, -pw, fcur + (e.y <= gy ? 2u : 0u), e.x, e.y - 1, KEEP4);
      STEP(1u, 1, fcur + (e.x >= gx ? 2u : 0u), e.x + 1, e.y, KEEP4);
      STEP(2u, pw, fcur + (e.y >= gy ? 2u : 0u), e.x, e.y + 1, KEEP4);
      STEP(3u, -1, fcur + (e.x <= gx ? 2u : 0u), e.x - 1, e.y, KEEP4);
      /* Ties: with the estimate exact on open ground every cell on a
      ** shortest route has the goal's f. Of two steps that keep f, the one
      ** along the axis with more of the way left goes on top, so is taken
      ** first: the search keeps near the straight line instead of running
      ** along one axis to the map's edge and back (73,173 cells settled to
      ** 2,177 on the open map of docs/benchmarks.md). Only pushes of two
      ** pay for the test; the route depends on the map and the request. */
      if (s->len == before + 2) {
        astar_entry *top = &s->items[before];
        const int across = abs((int)e.x - (int)gx) > abs((int)e.y - (int)gy);
        if ((top[1].y == e.y) != across) {
          astar_entry t = top[0];
          top[0] = top[1], top[1] = t;
        }
      }
      continue;
    }
    /* Chebyshev: the estimate after a step is the larger of the two axes'
    ** distances, each one less (towards the goal), the same or one more;
    ** g + 1 is the same for all eight. */
    const uint32_t ax = (uint32_t)abs((int)e.x - (int)gx), ay = (uint32_t)abs((int)e.y - (int)gy);
    const uint32_t g1 = fcur - (ax > ay ? ax : ay) + 1;
    const uint32_t xw = e.x > gx ? ax - 1 : ax + 1, xe = e.x < gx ? ax - 1 : ax + 1;
    const uint32_t yn = e.y > gy ? ay - 1 : ay + 1, ys = e.y < gy ? ay - 1 : ay + 1;
#define MAX2(a, b) ((a) > (b) ? (a) : (b))
#define KEEP8 (fv >= fcur + ((((mv >> 4) & 3u) - fcur) & 3u))
    STEP(0u, -pw, g1 + MAX2(ax, yn), e.x, e.y - 1, KEEP8);
    STEP(1u, 1, g1 + MAX2(xe, ay), e.x + 1, e.y, KEEP8);
    STEP(2u, pw, g1 + MAX2(ax, ys), e.x, e.y + 1, KEEP8);
    STEP(3u, -1, g1 + MAX2(xw, ay), e.x - 1, e.y, KEEP8);
    STEP(4u, -pw + 1, g1 + MAX2(xe, yn), e.x + 1, e.y - 1, KEEP8);
    STEP(5u, pw + 1, g1 + MAX2(xe, ys), e.x + 1, e.y + 1, KEEP8);
    STEP(6u, pw - 1, g1 + MAX2(xw, ys), e.x - 1, e.y + 1, KEEP8);
    STEP(7u, -pw - 1, g1 + MAX2(xw, yn), e.x - 1, e.y - 1, KEEP8);
#undef MAX2
#undef KEEP8
#undef KEEP4
#undef STEP
  }
#undef H
  f->touched = nt;
  *expanded = pops;
  return 0;
}

/* A* at 8 neighbours, diagonal 1, with the larger of two estimates: of
** Chebyshev and the four landmarks', the two largest at the start (ties to
** the first). A search on the open map of docs/benchmarks.md, the same
** cells settled: all five 35 us, two landmarks and Chebyshev 25; with the
** partial expansion below, those two 21.5, two landmarks alone 16.8.
** Partial expansion: a cell taken at f offers only the neighbours whose f
** is f too, and goes back on the stack of the least higher f among the
** others (AGAIN in its entry) to offer those when the search gets there.
** The estimate is consistent, so a cell first offered at the lowest open f
** has its shortest route then: every open cell has f == fcur, each is
** offered once (no stale entries, no compare with a kept f), and on open
** ground, where the estimate is near exact, the cells beside the route are
** never offered (1,430 offered for 1,066 settled on that map). A taken
** cell keeps its f mod 4 in its byte. */
#define AGAIN 0x80000000u
static inline __attribute__((always_inline)) int astar_land(struct grid_flood *f, int32_t pw,
                                                            const int cheb, const uint16_t *la,
                                                            const uint16_t *lb, uint32_t start,
                                                            uint16_t sx, uint16_t sy,
                                                            uint32_t goal, uint16_t gx,
                                                            uint16_t gy, uint64_t *expanded) {
  uint8_t *const mark = f->mark;
  uint32_t *const touched = f->queue;
  const uint32_t touch_max = f->touch_max;
  astar_stack *const ring = f->ring;
  uint32_t nt = 0;
  const uint32_t ga = la[(size_t)goal * LANDMARKS], gb = lb[(size_t)goal * LANDMARKS];
  /* the first estimate (Chebyshev's given as its value), the larger of both */
#define EST(v, chebv)                                                                      \
  max_u32(cheb ? (chebv) : absdiff(la[(size_t)(v) * LANDMARKS], ga),                        \
          absdiff(lb[(size_t)(v) * LANDMARKS], gb))
  for (int i = 0; i < 4; i++) ring[i].len = 0;
  uint32_t fcur = EST(start, max_u32(absdiff(sx, gx), absdiff(sy, gy)));
  uint64_t pops = 0;
  touched[nt++] = start;
  mark[start] = (uint8_t)(OPEN | START);
  if (ring[fcur & 3].cap == 0 && !stack_grow(&ring[fcur & 3])) return -1;
  /* Without Chebyshev an entry keeps the cell's g where its coordinates
  ** were (low half in x): no estimate of the cell taken, no f to recover */
  ring[fcur & 3].items[ring[fcur & 3].len++] = (astar_entry){start, cheb ? sx : 0, cheb ? sy : 0};
  for (;;) {
    astar_stack *s = &ring[fcur & 3];
    if (s->len == 0) {
      if (ring[(fcur + 1) & 3].len == 0 && ring[(fcur + 2) & 3].len == 0) break;
      while (s->len == 0) s = &ring[++fcur & 3];
    }
    const astar_entry e = s->items[--s->len];
    const uint32_t u = e.cell & ~AGAIN;
    const uint32_t mu = mark[u];
    uint32_t fu = fcur;
    if (e.cell & AGAIN) {
      if (cheb) fu = fcur - ((fcur - (mu >> 4)) & 3u); /* its f, in [fcur - 2, fcur] */
    } else {
      mark[u] = (uint8_t)(DONE | (mu & 0x0fu) | ((fcur & 3u) << 4));
      pops++;
      if (u == goal) return f->touched = nt, *expanded = pops, 1;
    }
    /* Chebyshev after a step: each axis's distance one less, the same or
    ** one more (as flood_astar's) */
    const uint32_t ax = absdiff(e.x, gx), ay = absdiff(e.y, gy);
    const uint32_t g1 = cheb ? fu - EST(u, max_u32(ax, ay)) + 1 : (e.x | (uint32_t)e.y << 16) + 1;
    const uint32_t xw = e.x > gx ? ax - 1 : ax + 1, xe = e.x < gx ? ax - 1 : ax + 1;
    const uint32_t yn = e.y > gy ? ay - 1 : ay + 1, ys = e.y < gy ? ay - 1 : ay + 1;
    uint32_t later = 3; /* the least f - fcur of a neighbour not offered (3: none) */
    if (s->cap - s->len < 8 && !stack_room(s, 8)) return -1;
#define OFFER(d, dv, dx, dy, chebv)                                                        \
  do {                                                                                     \
    const uint32_t v = (uint32_t)((int32_t)u + (dv));                                      \
    if (mark[v] != UNSEEN) break;                                                          \
    const uint32_t fv = g1 + EST(v, chebv);                                                \
    if (fv != fcur) {                                                                      \
      later = min_u32(later, fv - fcur); /* below fcur: wraps past it */                  \
      break;                                                                               \
    }                                                                                      \
    touched[nt] = v;                                                                       \
    nt += nt < touch_max;                                                                  \
    mark[v] = (uint8_t)(OPEN | (d));                                                       \
    s->items[s->len++] = cheb ? (astar_entry){v, (uint16_t)(e.x + (dx)), (uint16_t)(e.y + (dy))} \
                              : (astar_entry){v, (uint16_t)g1, (uint16_t)(g1 >> 16)};      \
  } while (0)
#define N OFFER(0u, -pw, 0, -1, max_u32(ax, yn))
#define E OFFER(1u, 1, 1, 0, max_u32(xe, ay))
#define S OFFER(2u, pw, 0, 1, max_u32(ax, ys))
#define W OFFER(3u, -1, -1, 0, max_u32(xw, ay))
#define NE OFFER(4u, -pw + 1, 1, -1, max_u32(xe, yn))
#define SE OFFER(5u, pw + 1, 1, 1, max_u32(xe, ys))
#define SW OFFER(6u, pw - 1, -1, 1, max_u32(xw, ys))
#define NW OFFER(7u, -pw - 1, -1, -1, max_u32(xw, yn))
    /* Every step costs 1 and may cut corners, so a neighbour next to the
    ** cell's parent too is a step from the parent, which offered it (or
    ** will, coming back): only the cells ahead of the step are offered,
    ** 3 after a straight step and 5 after a diagonal one (open ground: 16.2
    ** to 14.7 us a search). In the same order as all eight. */
    switch (mu & START ? 8u : mu & 7u) {
    case 0: N; NE; NW; break;
    case 1: E; NE; SE; break;
    case 2: S; SE; SW; break;
    case 3: W; SW; NW; break;
    case 4: N; E; NE; SE; NW; break;
    case 5: E; S; NE; SE; SW; break;
    case 6: S; W; SE; SW; NW; break;
    case 7: N; W; NE; SW; NW; break;
    default: N; E; S; W; NE; SE; SW; NW; break;
    }
#undef N
#undef E
#undef S
#undef W
#undef NE
#undef SE
#undef SW
#undef NW
#undef OFFER
    if (later < 3) {
      astar_stack *t = &ring[(fcur + later) & 3];
      if (t->len == t->cap && !stack_grow(t)) return -1;
      t->items[t->len++] = (astar_entry){u | AGAIN, e.x, e.y};
    }
  }
#undef EST
  f->touched = nt;
  *expanded = pops;
  return 0;
}

/* The two estimates, then the loop for them: without Chebyshev its
** arithmetic per neighbour goes too. */
static __attribute__((noinline)) int flood_astar_land(struct grid_flood *f, int32_t pw,
                                                      const uint16_t *land, uint32_t start,
                                                      uint16_t sx, uint16_t sy, uint32_t goal,
                                                      uint16_t gx, uint16_t gy,
                                                      uint64_t *expanded) {
  uint32_t h[LANDMARKS + 1]; /* the landmarks', then Chebyshev's */
  for (int l = 0; l < LANDMARKS; l++)
    h[l] = absdiff(land[(size_t)start * LANDMARKS + l], land[(size_t)goal * LANDMARKS + l]);
  h[LANDMARKS] = max_u32(absdiff(sx, gx), absdiff(sy, gy));
  int a = 0, b;
  for (int l = 1; l <= LANDMARKS; l++) a = h[l] > h[a] ? l : a;
  b = a == 0 ? 1 : 0;
  for (int l = 0; l <= LANDMARKS; l++) b = l != a && h[l] > h[b] ? l : b;
  if (a == LANDMARKS || b == LANDMARKS) /* Chebyshev and one landmark */
    return astar_land(f, pw, 1, land, land + (a == LANDMARKS ? b : a), start, sx, sy, goal, gx,
                      gy, expanded);
  return astar_land(f, pw, 0, land + a, land + b, start, sx, sy, goal, gx, gy, expanded);
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

/* The route from the directions kept per cell: walked back from the goal,
** then reversed; 1, or -1 on ENOMEM. */
static int walk_back(const struct grid_flood *f, gridflood_kind kind, uint32_t pw, double diag,
                     uint32_t start, uint32_t goal, int gx, int gy, double cell_cost,
                     strata_path *out) {
  const int32_t p = (int32_t)pw, w = p - 2;
  /* each step's offset on the padded grid and on the map */
  const int32_t off[8] = {-p, 1, p, -1, -p + 1, p + 1, p - 1, -p - 1};
  const int32_t moff[8] = {-w, 1, w, -1, -w + 1, w + 1, w - 1, -w - 1};
  size_t len = 0, straight = 0, diagonal = 0;
  uint32_t node = (uint32_t)gy * (uint32_t)w + (uint32_t)gx;
  for (uint32_t v = goal;;) {
    if (!grid_route_add(out, &len, node)) return -1;
    if (v == start) break;
    unsigned d = kind == GRIDFLOOD_DIJKSTRA ? (unsigned)(f->key[v] & 7u) : f->mark[v] & 7u;
    if (d < 4) straight++;
    else diagonal++;
    v = (uint32_t)((int32_t)v - off[d]);
    node = (uint32_t)((int32_t)node - moff[d]);
  }
  grid_route_reverse(out->nodes, len);
  out->len = len;
  out->cost = cell_cost * ((double)straight + diag * (double)diagonal);
  return 1;
}

int gridflood_run(struct grid_flood **fp, const uint8_t *cls, uint32_t pw, uint32_t ph,
                  uint64_t serial, gridflood_kind kind, int eight, double diag, int sx, int sy,
                  int gx, int gy, double cell_cost, strata_path *out, uint64_t *expanded) {
  uint32_t n = pw * ph;
  uint32_t start = (uint32_t)(sy + 1) * pw + (uint32_t)(sx + 1);
  uint32_t goal = (uint32_t)(gy + 1) * pw + (uint32_t)(gx + 1);
  /* Dijkstra's keys have their bits: past them, the buckets of gridbucket.c */
  if (kind == GRIDFLOOD_DIJKSTRA && ((double)n * diag >= 134217728.0 || diag >= BUCKETS_MAX / 8 - 2))
    return -2;
  if (!prepare(fp, kind == GRIDFLOOD_DIJKSTRA ? 0 : n)) return -1; /* Dijkstra: keys alone */
  struct grid_flood *f = *fp;
  const int landmarks = kind == GRIDFLOOD_ASTAR && eight && n < AGAIN;
  if (landmarks && !gridflood_landmarks(f, cls, pw, ph, serial)) return -1;
  int32_t p = (int32_t)pw;
  int found;
  if (kind == GRIDFLOOD_DIJKSTRA) {
    found = flood_dial(f, cls, n, p, diag, start, goal, expanded);
  } else if (kind == GRIDFLOOD_BFS) {
    f->clean = 0;
    grid_marks_clear(f->mark, cls, n);
    found = flood_bfs(f, p, eight ? 8 : 4, start, goal, expanded);
  } else {
    if (f->clean != serial + 1) memcpy(f->mark, cls, n); /* one class: 1 passable, 0 wall */
    f->clean = 0;
    /* a walled start (its steps out are legal) has no distance from the
    ** landmarks: Chebyshev alone */
    const int land = landmarks && f->land_ok && cls[start];
    f->around = land ? 0 : eight ? 8 : 4;
    f->touch_max = n / 64 / (uint32_t)(f->around + 1);
    found = land ? flood_astar_land(f, p, f->land, start, (uint16_t)sx, (uint16_t)sy, goal,
                                    (uint16_t)gx, (uint16_t)gy, expanded)
                 : flood_astar(f, p, eight, start, (uint16_t)sx, (uint16_t)sy, goal,
                               (uint16_t)gx, (uint16_t)gy, expanded);
    if (found < 0) return found;
  }
  out->len = 0;
  out->cost = 0;
  const int r = found > 0 ? walk_back(f, kind, pw, diag, start, goal, gx, gy, cell_cost, out) : found;
  if (kind == GRIDFLOOD_ASTAR && r >= 0 && f->touched < f->touch_max) {
    const int32_t off[8] = {-p, 1, p, -1, -p + 1, p + 1, p - 1, -p - 1};
    for (uint32_t i = 0; i < f->touched; i++) {
      const uint32_t u = f->queue[i];
      f->mark[u] = cls[u];
      for (int d = 0; d < f->around; d++) f->mark[(int32_t)u + off[d]] = cls[(int32_t)u + off[d]];
    }
    f->clean = serial + 1;
  }
  return r;
}
