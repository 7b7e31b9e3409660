/*
** gridbidir.c - A* from both ends on maps of one cost, 8 neighbours,
** diagonal steps of cost sqrt 2.
**
** Why: a search from the start that stops at the goal still settles every
** cell nearer than the goal, on a map crossed corner to corner nearly all.
** Two searches, one from each end, that stop when they meet settle fewer
** (the figures: docs/benchmarks.md; the variants tried: CHANGELOG.md).
**
** - The stopping rule is Goldberg and Harrelson's: when a side settles a
**   cell u and a neighbour v is settled by the other side, the route through
**   the edge is a candidate mu; the search stops once the two lowest open
**   keys add up to mu or more. A cell settled by both is a candidate too.
** - Keys are the reduced costs of the average potential
**   p = (h_goal - h_start) / 2 of Ikeda et al. (octile estimates): both
**   sides see non-negative reduced costs, so each is a Dijkstra search
**   under the same stopping rule. Keys are doubled to stay whole. The same
**   search answers Dijkstra requests (the table's guided engine): the cost
**   is the optimal one, and the route fixed by the map and the request.
**   (A Dijkstra from both ends, its backward side on a second thread, was
**   here too: slower than gridflood.c's one-sided Dijkstra, and reached only
**   where this search gave up; taken out, CHANGELOG.md.)
** - Which side moves: the one with the smaller frontier (Pohl's rule).
**   Balancing the radii does worse on mazes, where the cells within a
**   distance grow slower than the distance.
**
** Each side keeps one FIFO per way a step can raise the key (Dinitz's
** k-queue method, as in gridflood.c): cells leave in order, so every FIFO
** stays sorted and the least head is next. An arrival is queued only if it
** beats the best g queued.
**
** Distances are exact: g = straight + diagonal * sqrt 2 with whole counts
** below 2^16 (more gives up, -2, and the caller takes the one-sided
** engines), keys the same with whole parts below 2^18. Two that differ do
** so by at least 1 / (|a| + |b| sqrt 2) (as |a^2 - 2 b^2| >= 1), over 7e-7
** here, far above the rounding of their doubles; the stopping test falls
** back to an exact integer test when close.
**
** Memory per cell: a byte of state (a nibble per side) and each side's best
** queued g.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gridengine.h"
#include "strata/alloc.h"
#include "util.h"

/* The byte per cell: the forward side's nibble, then the backward one's
** (a wall, 0xff, looks settled by both: never entered). */
#define DONE 8u   /* settled by this side; low 3 bits: the direction it came from */
#define OPEN_S 2u /* not settled, queued (with mine[] holding the best g queued) */

/* A step raises a doubled key by 2 (straight) or 2 sqrt 2 (diagonal) plus
** the change of h_goal - h_start, whose straight part moves by -4..4 and
** whose diagonal part by -2..2. One FIFO per (straight, diagonal) raise. */
#define RAISE_S 11 /* -4..6 */
#define RAISE_D 7  /* -2..4 */
#define SLOTS (RAISE_S * RAISE_D)
#define CELL_MASK 0x1fffffffu /* bentry.cell: the index; the top 3 bits: the direction */
#define COUNT_MAX 0xfffeu     /* step counts kept in 16 bits; a search needing more gives up */

typedef struct bentry {
  double key;    /* the doubled key, 2 g + p */
  uint32_t cell; /* padded index | direction it came from << 29 */
  uint32_t g;    /* straight | diagonal << 16 */
  uint16_t x, y; /* coordinates, for the estimates */
} bentry;

/* Counters as 64-bit words: stores of entries (doubles, 32- and 16-bit
** words) then cannot be taken to change them. */
typedef struct bfifo {
  bentry *items;
  uint64_t mask, head, tail; /* head, tail: counters, masked on use */
} bfifo;

typedef struct bside {
  bfifo q[SLOTS];
  double head[SLOTS];  /* key of each FIFO's head; INFINITY when empty */
  uint8_t act[SLOTS];  /* the FIFOs used in this search */
  uint8_t used[SLOTS];
  uint64_t nact;
  uint64_t best;       /* the FIFO with the least head */
  uint64_t open;       /* entries queued */
} bside;

struct grid_bidir {
  uint8_t *mark; /* per padded cell, forward nibble | backward nibble << 4 */
  uint32_t cap;
  /* The best g each side queued the cell with (a cell may be queued more
  ** than once, so they skip worse arrivals); they are also the final g of
  ** the cells a side settled. */
  uint32_t *best[2];
  uint32_t best_cap;
  bside side[2];
};

void gridbidir_free(struct grid_bidir *b) {
  if (b == NULL) return;
  strata_free(b->mark);
  strata_free(b->best[0]), strata_free(b->best[1]);
  for (int x = 0; x < 2; x++)
    for (int i = 0; i < SLOTS; i++) strata_free(b->side[x].q[i].items);
  strata_free(b);
}

size_t gridbidir_memory(const struct grid_bidir *b) {
  if (b == NULL) return 0;
  size_t bytes = sizeof *b + (size_t)b->cap * sizeof *b->mark;
  bytes += (size_t)b->best_cap * 2 * sizeof(uint32_t);
  for (int x = 0; x < 2; x++)
    for (int i = 0; i < SLOTS; i++)
      if (b->side[x].q[i].items) bytes += (size_t)(b->side[x].q[i].mask + 1) * sizeof(bentry);
  return bytes;
}

static int fifo_grow(bfifo *q) {
  uint64_t cap = q->items ? (q->mask + 1) * 2 : 1024, len = q->tail - q->head;
  bentry *items = strata_malloc((size_t)cap * sizeof *items);
  if (items == NULL) return 0;
  for (uint64_t i = 0; i < len; i++) items[i] = q->items[(q->head + i) & q->mask];
  strata_free(q->items);
  q->items = items, q->mask = cap - 1, q->head = 0, q->tail = len;
  return 1;
}

/* The sign of a + b sqrt 2, exactly (|a|, |b| < 2^30, so that the squares fit). */
static int sign_sqrt2(int64_t a, int64_t b) {
  if (a >= 0 && b >= 0) return (a | b) != 0;
  if (a <= 0 && b <= 0) return -1;
  /* opposite signs: compare a^2 with 2 b^2, never equal (sqrt 2 is irrational) */
  int64_t a2 = a * a, b2 = 2 * b * b;
  return a > 0 ? (a2 > b2 ? 1 : -1) : (b2 > a2 ? 1 : -1);
}

typedef struct ends {
  int32_t pw;
  uint32_t cell[2]; /* the origin of each side: start, goal */
  int x[2], y[2];
} ends;

/* p = h_goal - h_start at (x, y) as exact parts, negated for the backward
** side; h is the octile distance, (hi - lo) straight steps and lo diagonal. */
static inline void potential(const ends *en, int side, int x, int y, int32_t *ps, int32_t *pd) {
  int ax = abs(x - en->x[1]), ay = abs(y - en->y[1]); /* to the goal */
  int bx = abs(x - en->x[0]), by = abs(y - en->y[0]); /* to the start */
  int alo = ax < ay ? ax : ay, ahi = ax ^ ay ^ alo;
  int blo = bx < by ? bx : by, bhi = bx ^ by ^ blo;
  int32_t s = (ahi - alo) - (bhi - blo), d = alo - blo;
  *ps = side ? -s : s, *pd = side ? -d : d;
}

/* g = straight | diagonal << 16 as a double, straight + diagonal * sqrt 2. */
static inline double dkey(uint32_t g) {
  return (double)(g & 0xffffu) + M_SQRT2 * (double)(g >> 16);
}

/* The side's FIFO with the least head. */
static inline void find_best(bside *S) {
  uint64_t best = S->act[0];
  double k = S->head[best];
  for (uint64_t i = 1; i < S->nact; i++) {
    uint64_t j = S->act[i];
    if (S->head[j] < k) k = S->head[j], best = j;
  }
  S->best = best;
}

typedef struct meeting {
  int found;
  uint32_t s, d; /* mu, exactly */
  uint32_t a, b; /* a settled forward, b backward: a == b or neighbours */
} meeting;

/* Offers the route through a (forward) and b (backward) of g = (s, d) as mu. */
static inline void offer(meeting *mt, uint32_t s, uint32_t d, uint32_t a, uint32_t b) {
  if (!mt->found || sign_sqrt2((int64_t)s - mt->s, (int64_t)d - mt->d) < 0)
    mt->found = 1, mt->s = s, mt->d = d, mt->a = a, mt->b = b;
}

/* The exact parts of an entry's doubled key. */
static inline void key_parts(const ends *en, int side, const bentry *e, int32_t *ks, int32_t *kd) {
  int32_t ps, pd;
  potential(en, side, e->x, e->y, &ps, &pd);
  *ks = 2 * (int32_t)(e->g & 0xffffu) + ps, *kd = 2 * (int32_t)(e->g >> 16) + pd;
}

/* Whether the least keys of both sides add up to 2 mu or more. */
static int may_stop(const struct grid_bidir *b, const ends *en, const meeting *mt) {
  const bside *F = &b->side[0], *B = &b->side[1];
  double kf = F->head[F->best], kb = B->head[B->best];
  if (kf == INFINITY || kb == INFINITY) return 1;
  double diff = kf + kb - 2 * ((double)mt->s + M_SQRT2 * (double)mt->d);
  if (diff > 1e-6) return 1;
  if (diff < -1e-6) return 0;
  const bfifo *qf = &F->q[F->best], *qb = &B->q[B->best];
  int32_t fs, fd, bs, bd;
  key_parts(en, 0, &qf->items[qf->head & qf->mask], &fs, &fd);
  key_parts(en, 1, &qb->items[qb->head & qb->mask], &bs, &bd);
  return sign_sqrt2((int64_t)fs + bs - 2 * (int64_t)mt->s, (int64_t)fd + bd - 2 * (int64_t)mt->d) >= 0;
}

static inline int push(bside *S, uint64_t slot, bentry e) {
  bfifo *q = &S->q[slot];
  if ((q->items == NULL || q->tail - q->head > q->mask) && !fifo_grow(q)) return 0;
  if (q->tail == q->head) {
    S->head[slot] = e.key;
    if (!S->used[slot]) S->used[slot] = 1, S->act[S->nact++] = (uint8_t)slot;
  }
  q->items[q->tail++ & q->mask] = e;
  S->open++;
  return 1;
}

/* A side ran out before the two met: the ends are connected only if it
** settled the other's origin before that side settled anything (once the
** other side has settled its origin, reaching it is a meeting). */
static void ran_out(const struct grid_bidir *b, const ends *en, meeting *mt) {
  if (mt->found) return;
  for (int x = 0; x < 2; x++) {
    const uint32_t end = en->cell[!x];
    if ((b->mark[end] >> (x ? 4u : 0u)) & DONE) { /* side x settled the other's origin */
      offer(mt, b->best[x][end] & 0xffffu, b->best[x][end] >> 16, end, end);
      return;
    }
  }
}

#define SLOT0 (4 * RAISE_D + 2) /* raise 0 */

/* Settles the next cell of side x (a constant in each copy): 0 to go
** on, 1 when the sides met on a cell, -1 out of memory, -2 when a step
** count outgrew 16 bits. A cell is queued once per arrival (its best so far
** is not kept), and left alone when it comes out settled. */
static inline __attribute__((always_inline)) int step(struct grid_bidir *b, const ends *en,
                                                      const int x, meeting *mt, uint64_t *pops) {
  static const int8_t DX[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t DY[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  const int32_t pw = en->pw;
  const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
  const unsigned sh = x ? 4u : 0u, osh = x ? 0u : 4u;
  uint8_t *mark = b->mark;
  uint32_t *const mine = b->best[x], *const theirs = b->best[!x];
  bside *S = &b->side[x];
  const uint64_t bi = S->best;
  bfifo *q = &S->q[bi];
  const bentry e = q->items[q->head++ & q->mask];
  S->open--;
  const double last = e.key;
  S->head[bi] = q->tail != q->head ? q->items[q->head & q->mask].key : INFINITY;
  const uint32_t u = e.cell & CELL_MASK;
  const uint32_t mu = mark[u];
  if ((mu >> sh) & DONE) { /* settled already, by a shorter route */
    if (S->head[bi] != last) find_best(S);
    return 0;
  }
  ++*pops;
  const uint32_t dir = e.cell >> 29, g = e.g;
  mark[u] = (uint8_t)((mu & (0xfu << osh)) | (DONE | dir) << sh);
  if ((mu >> osh) & DONE) { /* settled by both: mu is reached */
    uint32_t o = theirs[u];
    offer(mt, (g & 0xffffu) + (o & 0xffffu), (g >> 16) + (o >> 16), u, u);
    return 1;
  }
  if ((g & 0xffffu) >= COUNT_MAX || (g >> 16) >= COUNT_MAX) return -2;
  int32_t kus, kud;
  key_parts(en, x, &e, &kus, &kud);
  int keep = S->head[bi] == last; /* the same FIFO still holds the least key */
#pragma GCC unroll 8
  for (int d = 0; d < 8; d++) {
    const uint32_t v = (uint32_t)((int32_t)u + off[d]);
    const uint32_t mv = mark[v];
    if ((mv >> sh) & DONE) continue; /* walls too */
    const int straight = d < 4;
    const uint32_t gv = g + (straight ? 1u : 0x10000u);
    if ((mv >> osh) & DONE) { /* the other side settled v: a route */
      uint32_t o = theirs[v];
      uint32_t rs = (gv & 0xffffu) + (o & 0xffffu), rd = (gv >> 16) + (o >> 16);
      if (x) offer(mt, rs, rd, v, u);
      else offer(mt, rs, rd, u, v);
    }
    /* queued before with a g no greater: this arrival is no better (doubles
    ** of g order them exactly, see the top) */
    if ((mv >> sh) & OPEN_S) {
      const uint32_t o = mine[v];
      if (dkey(gv) >= dkey(o)) continue;
    } else {
      mark[v] = (uint8_t)(mv | OPEN_S << sh);
    }
    mine[v] = gv;
    const int vx = e.x + DX[d], vy = e.y + DY[d];
    int32_t ps, pd;
    potential(en, x, vx, vy, &ps, &pd);
    const int32_t ks = 2 * (int32_t)(gv & 0xffffu) + ps, kd = 2 * (int32_t)(gv >> 16) + pd;
    const uint64_t slot = (uint64_t)((ks - kus + 4) * RAISE_D + (kd - kud + 2));
    if (slot == SLOT0) keep = 2; /* raise 0: its key is the least */
    if (!push(S, slot,
              (bentry){(double)ks + M_SQRT2 * (double)kd, v | (uint32_t)d << 29, gv,
                       (uint16_t)vx, (uint16_t)vy}))
      return -1;
  }
  if (keep == 2) S->best = SLOT0;
  else if (!keep) find_best(S);
  return 0;
}

/* A* from both ends. Returns 1 with mt filled, 0 when the ends are not
** connected, -1 out of memory, -2 when a step count outgrew 16 bits. */
static int a_run(struct grid_bidir *b, const ends *en, meeting *mt, uint64_t *expanded) {
  if (b->best_cap < b->cap) {
    uint32_t *f = strata_malloc((size_t)b->cap * sizeof *f), *g = strata_malloc((size_t)b->cap * sizeof *g);
    if (f == NULL || g == NULL) {
      strata_free(f), strata_free(g);
      return -1;
    }
    strata_free(b->best[0]), strata_free(b->best[1]);
    b->best[0] = f, b->best[1] = g, b->best_cap = b->cap;
  }
  uint64_t pops = 0;
  mt->found = 0;
  for (int x = 0; x < 2; x++) {
    bside *S = &b->side[x];
    for (uint64_t i = 0; i < S->nact; i++) {
      uint64_t j = S->act[i];
      S->q[j].head = S->q[j].tail = 0, S->head[j] = INFINITY, S->used[j] = 0;
    }
    S->nact = 0, S->open = 0;
    b->best[x][en->cell[x]] = 0; /* read by the other side once settled */
    int32_t ps, pd;
    potential(en, x, en->x[x], en->y[x], &ps, &pd);
    if (!push(S, SLOT0,
              (bentry){(double)ps + M_SQRT2 * (double)pd, en->cell[x], 0, (uint16_t)en->x[x],
                       (uint16_t)en->y[x]}))
      return -1;
    S->best = SLOT0;
  }
  bside *const F = &b->side[0], *const B = &b->side[1];
  int r = 0;
  for (;;) {
    if (mt->found && may_stop(b, en, mt)) break;
    if (F->open == 0 || B->open == 0) break; /* a side ran out: mu stands, or no route */
    /* Pohl's cardinality rule: advance the side with the smaller frontier.
    ** Alternating by key instead (balanced radii) settles twice the cells of
    ** a one-sided search on a maze, where the cells within a distance grow
    ** slower than the distance; this rule keeps to about one side there. */
    r = B->open < F->open ? step(b, en, 1, mt, &pops) : step(b, en, 0, mt, &pops);
    if (r) break;
  }
  if (r == 0) ran_out(b, en, mt);
  *expanded = pops;
  return r < 0 ? r : mt->found;
}

/* The route from the meeting: the forward chain from a back to the start,
** reversed, then the backward chain from b on to the goal (a backward
** direction points away from the goal, so the next cell is the cell minus
** that step). A direction is the low 3 bits of the side's nibble. */
static int route(const ends *en, const meeting *mt, const uint8_t *mark, uint32_t pw,
                 double cell_cost, strata_path *out) {
  const int32_t p = (int32_t)pw;
  const int32_t off[8] = {-p, 1, p, -1, -p + 1, p + 1, p - 1, -p - 1};
  const uint32_t width = pw - 2;
  size_t len = 0, straight = 0, diagonal = 0;
  for (int part = 0; part < 2; part++) {
    uint32_t v = part ? mt->b : mt->a;
    if (part) {
      if (mt->b == mt->a) { /* a is in the path already: step past it */
        if (v == en->cell[1]) break;
        unsigned d = (mark[v] >> 4) & 7u;
        d < 4 ? straight++ : diagonal++;
        v = (uint32_t)((int32_t)v - off[d]);
      } else { /* the step from a to b */
        uint32_t step = mt->b > mt->a ? mt->b - mt->a : mt->a - mt->b;
        step == 1 || step == pw ? straight++ : diagonal++;
      }
    }
    for (;;) {
      if (!grid_route_add(out, &len, (v / pw - 1) * width + (v % pw - 1))) return -1;
      if (v == en->cell[part]) break;
      unsigned d = (mark[v] >> (part ? 4u : 0u)) & 7u;
      d < 4 ? straight++ : diagonal++;
      v = (uint32_t)((int32_t)v - off[d]);
    }
    if (part == 0) grid_route_reverse(out->nodes, len);
  }
  out->len = len;
  out->cost = cell_cost * ((double)straight + M_SQRT2 * (double)diagonal);
  return 1;
}

int gridbidir_run(struct grid_bidir **bp, const uint8_t *cls, uint32_t pw, uint32_t ph, int sx,
                  int sy, int gx, int gy, double cell_cost, strata_path *out, uint64_t *expanded) {
  uint32_t n = pw * ph;
  struct grid_bidir *b = *bp;
  if (b == NULL && (b = *bp = strata_calloc(1, sizeof *b)) == NULL) return -1;
  ends en = {(int32_t)pw,
             {(uint32_t)(sy + 1) * pw + (uint32_t)(sx + 1), (uint32_t)(gy + 1) * pw + (uint32_t)(gx + 1)},
             {sx, gx},
             {sy, gy}};
  out->len = 0;
  out->cost = 0;
  meeting mt = {0, 0, 0, en.cell[0], en.cell[0]};
  if (n > b->cap) {
    uint8_t *mark = strata_malloc((size_t)n + 4);
    if (mark == NULL) return -1;
    strata_free(b->mark);
    b->mark = mark, b->cap = n;
  }
  /* class 1 (passable) -> 0 (unseen by both), class 0 (wall) -> 0xff */
  grid_marks_clear(b->mark, cls, n);
  int found = 1;
  if (en.cell[0] == en.cell[1]) *expanded = 1;
  else found = a_run(b, &en, &mt, expanded);
  if (found <= 0) return found;
  return route(&en, &mt, b->mark, pw, cell_cost, out);
}
