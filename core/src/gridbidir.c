/*
** gridbidir.c - bidirectional Dijkstra and A* on maps of one cost, 8
** neighbours, diagonal steps of cost sqrt 2.
**
** Why: a search from the start that stops at the goal still settles every
** cell nearer than the goal, on a map crossed corner to corner nearly all.
** Two searches, one from each end, that stop when they meet settle fewer
** (the figures: docs/benchmarks.md; the variants tried: CHANGELOG.md).
**
** - Dijkstra (Goldberg and Harrelson's rule): when a side settles a cell u
**   and a neighbour v is settled by the other side, the route through the
**   edge is a candidate mu; the search stops once the two lowest open keys
**   add up to mu or more. A cell settled by both is a candidate too. The
**   first part of the search, up to half the octile distance, runs each
**   side alone, the backward one on a second thread when the search is long
**   (see "Dijkstra" below).
** - A*: the same, on the reduced costs of the average potential
**   p = (h_goal - h_start) / 2 of Ikeda et al. (octile estimates): both
**   sides see non-negative reduced costs, so each is a Dijkstra search
**   under the same stopping rule. Keys are doubled to stay whole.
** - Which side moves: the one with the smaller frontier (Pohl's rule).
**   Balancing the radii does worse on mazes, where the cells within a
**   distance grow slower than the distance.
**
** Each side is a Dijkstra with one FIFO per way a step can raise the key
** (Dinitz's k-queue method, as in gridflood.c): cells leave in order, so
** every FIFO stays sorted and the least head is next. Dijkstra has two,
** straight and diagonal arrivals; a straight arrival is final, a diagonal
** one can be beaten only by a straight one, so a cell is queued at most
** twice per side. A* queues an arrival only if it beats the best g queued.
**
** Distances are exact: g = straight + diagonal * sqrt 2 with whole counts
** below 2^16 (more gives up, -2, and the caller takes the one-sided
** engines), keys the same with whole parts below 2^18. Two that differ do
** so by at least 1 / (|a| + |b| sqrt 2) (as |a^2 - 2 b^2| >= 1), over 7e-7
** here, far above the rounding of their doubles; the stopping test falls
** back to an exact integer test when close. Dijkstra's keys are whole
** numbers (see gkey), exact by the same bound.
**
** Memory per cell: A*, a byte of state (a nibble per side) and each side's
** best queued g; Dijkstra, per side a byte of state and g (4 bytes: a queued
** diagonal g first, to drop straight arrivals no better, then the settled
** one).
*/
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "gridengine.h"
#include "strata/alloc.h"
#include "util.h"

#if defined(__SSE2__) && !defined(STRATA_NO_SIMD)
#include <emmintrin.h>
#endif

/* A*'s byte per cell: the forward side's nibble, then the backward one's
** (a wall, 0xff, looks settled by both: never entered). */
#define DONE 8u   /* settled by this side; low 3 bits: the direction it came from */
#define OPEN_S 2u /* not settled, queued (with mine[] holding the best g queued) */

/* A*: a step raises a doubled key by 2 (straight) or 2 sqrt 2 (diagonal)
** plus the change of h_goal - h_start, whose straight part moves by -4..4
** and whose diagonal part by -2..2. One FIFO per (straight, diagonal) raise;
** Dijkstra uses the first two, straight and diagonal. */
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

struct dentry;

struct grid_bidir {
  uint8_t *mark;  /* A*: per padded cell, forward nibble | backward nibble << 4 */
  uint32_t cap;
  /* Dijkstra: each side's byte per padded cell (D_* below) and g, straight
  ** | diagonal << 16: the settled g, or before that the g of the queued
  ** diagonal arrival (D_OPEN_D). Apart, so that the sides may run on two
  ** threads. */
  uint8_t *dmark[2];
  uint32_t *dist[2];
  uint32_t dcap;
  uint32_t *log; /* Dijkstra: forward cells settled near the end of the first part */
  uint32_t log_len, log_cap;
  /* A*: the best g each side queued the cell with (A* may queue a cell more
  ** than once, so it needs them to skip worse arrivals); they are also the
  ** final g of the cells a side settled. Made on the first A* search. */
  uint32_t *best[2];
  uint32_t best_cap;
  bside side[2];
  struct dentry *ring[2][2]; /* Dijkstra: [side][straight 0, diagonal 1] FIFOs */
  uint32_t ring_cap[2][2];   /* powers of two */
};

void gridbidir_free(struct grid_bidir *b) {
  if (b == NULL) return;
  strata_free(b->mark);
  strata_free(b->dmark[0]), strata_free(b->dmark[1]), strata_free(b->dist[0]), strata_free(b->dist[1]);
  strata_free(b->log);
  strata_free(b->best[0]), strata_free(b->best[1]);
  for (int x = 0; x < 2; x++) {
    for (int i = 0; i < SLOTS; i++) strata_free(b->side[x].q[i].items);
    strata_free(b->ring[x][0]), strata_free(b->ring[x][1]);
  }
  strata_free(b);
}

size_t gridbidir_memory(const struct grid_bidir *b) {
  if (b == NULL) return 0;
  size_t bytes = sizeof *b + (size_t)b->cap * sizeof *b->mark;
  bytes += (size_t)b->dcap * 2 * (sizeof(uint8_t) + sizeof(uint32_t));
  bytes += (size_t)b->log_cap * sizeof(uint32_t);
  bytes += (size_t)b->best_cap * 2 * sizeof(uint32_t);
  for (int x = 0; x < 2; x++) {
    for (int i = 0; i < SLOTS; i++)
      if (b->side[x].q[i].items) bytes += (size_t)(b->side[x].q[i].mask + 1) * sizeof(bentry);
    bytes += ((size_t)b->ring_cap[x][0] + b->ring_cap[x][1]) * 2 * sizeof(uint32_t);
  }
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

/* Dijkstra's keys: g as a whole number, straight steps times 2^40 plus
** diagonal steps times sqrt 2 * 2^40 rounded. They order routes exactly:
** sums a + b sqrt 2 that differ (|a|, |b| < 2^17) do so by more than 3e-6
** (see the top), and a key is off by at most b * 2^-41 < 1e-7. An add per
** step and an integer compare per test, where doubles made from the counts
** cost two conversions each (a sixth of a search's instructions). */
#define KEY_STRAIGHT (1ull << 40)
#define KEY_DIAGONAL 0x16a09e667f4ull /* round(sqrt 2 * 2^40) */
#define KEY_NONE (1ull << 62)         /* an empty FIFO's head; two still add up */
#define KEY_LIMIT ((uint64_t)COUNT_MAX << 40) /* keys below it have both counts below COUNT_MAX */

static inline uint64_t gkey(uint32_t g) {
  return ((uint64_t)(g & 0xffffu) << 40) + (uint64_t)(g >> 16) * KEY_DIAGONAL;
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
** other side has settled its origin, reaching it is a meeting). Side x's
** state is marks[x][cell] >> sh[x] (DONE for A*'s nibbles and Dijkstra's
** bytes alike), its g g[x][cell]. */
static void ran_out(const ends *en, const uint8_t *const marks[2], const unsigned sh[2],
                    const uint32_t *const g[2], meeting *mt) {
  if (mt->found) return;
  for (int x = 0; x < 2; x++) {
    const uint32_t end = en->cell[!x];
    if ((marks[x][end] >> sh[x]) & DONE) { /* side x settled the other's origin */
      offer(mt, g[x][end] & 0xffffu, g[x][end] >> 16, end, end);
      return;
    }
  }
}

#define SLOT0 (4 * RAISE_D + 2) /* raise 0 */

/* A*: settles the next cell of side x (a constant in each copy): 0 to go
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
  if (r == 0) {
    const uint8_t *const marks[2] = {b->mark, b->mark};
    const unsigned sh[2] = {0, 4};
    const uint32_t *const g[2] = {b->best[0], b->best[1]};
    ran_out(en, marks, sh, g, mt);
  }
  *expanded = pops;
  return r < 0 ? r : mt->found;
}

/* ---- Dijkstra ----
**
** Two parts when the search is long. First each side alone settles the
** cells nearer than a radius of at most half the octile distance h between
** the ends (no route is shorter than h, so the two cannot have met on a
** cell, and an edge between them joins two cells settled within sqrt 2 of
** that half: the forward side logs those, and the routes through them are
** offered once both are done). Neither side reads the other's state in that
** part, so they can run at once, the backward side on a thread of its own
** (threads > 1), and what each settles does not depend on which ran first
** or how fast. Then the two go on in turns, as Goldberg and Harrelson's rule
** asks, from there. So the route, and every count, is the same on one
** thread or two. */

/* A side's byte per cell. */
#define D_DONE DONE  /* settled; low 3 bits: the direction it came from (as A*'s) */
#define D_OPEN_S 16u /* queued after a straight step */
#define D_OPEN_D 32u /* queued after a diagonal step; dist holds its g */
#define D_WALL 0xffu

/* The neighbours of u as lanes: bytes 0-3 of the row above from u's left,
** 4-7 of u's row, 8-11 of the row below (3, 5, 7 and 11 are not
** neighbours). Straight neighbours: lanes 1 (n), 4 (w), 6 (e), 9 (s);
** diagonal: 0 (nw), 2 (ne), 8 (sw), 10 (se). LANE_DIR gives the direction
** code of a lane (n e s w ne se sw nw = 0..7), four bits per lane. */
#define LANES_S 0x252u
#define LANES_D 0x505u
#define LANE_DIR(l) ((uint32_t)(0x52601030407ull >> (4 * (l))) & 7u)

/* From a side's three rows of bytes (as loaded, little-endian order), the
** lanes it would queue an arrival into: straight lanes with neither D_DONE
** nor D_OPEN_S, diagonal lanes with none of D_DONE, D_OPEN_S, D_OPEN_D
** (walls, 0xff, never). */
static inline uint32_t lanes_wanted(uint32_t up, uint32_t mid, uint32_t down) {
#if defined(__SSE2__) && !defined(STRATA_NO_SIMD)
  const __m128i v = _mm_unpacklo_epi64(
      _mm_unpacklo_epi32(_mm_cvtsi32_si128((int)up), _mm_cvtsi32_si128((int)mid)),
      _mm_cvtsi32_si128((int)down));
  const char ms = (char)(D_DONE | D_OPEN_S), md = (char)(D_DONE | D_OPEN_S | D_OPEN_D);
  const __m128i busy = _mm_setr_epi8(md, ms, md, 0, ms, 0, ms, 0, md, ms, md, 0, 0, 0, 0, 0);
  const __m128i free_ = _mm_cmpeq_epi8(_mm_and_si128(v, busy), _mm_setzero_si128());
  return (uint32_t)_mm_movemask_epi8(free_) & (LANES_S | LANES_D);
#else
  const uint32_t row[3] = {up, mid, down};
  uint32_t w = 0;
  for (unsigned l = 0; l < 12; l++) {
    const uint32_t byte = (row[l / 4] >> (8 * (l % 4))) & 0xffu; /* little-endian lanes */
    const uint32_t busy = (LANES_S >> l) & 1u ? D_DONE | D_OPEN_S : D_DONE | D_OPEN_S | D_OPEN_D;
    w |= (uint32_t)((byte & busy) == 0) << l;
  }
  return w & (LANES_S | LANES_D);
#endif
}

/* The lanes the other side settled and this one did not: routes. */
static inline uint32_t lanes_met(uint32_t up, uint32_t mid, uint32_t down, uint32_t oup,
                                 uint32_t omid, uint32_t odown) {
  const uint32_t row[3] = {up, mid, down}, orow[3] = {oup, omid, odown};
  uint32_t m = 0;
  for (unsigned r = 0; r < 3; r++) {
    /* bit 3 of each byte: the other's D_DONE without this one's (a wall has both) */
    const uint32_t met = orow[r] & ~row[r] & 0x08080808u;
    for (unsigned c = 0; c < 4; c++) m |= ((met >> (8 * c + 3)) & 1u) << (4 * r + c);
  }
  return m & (LANES_S | LANES_D);
}

static inline uint32_t load4(const uint8_t *p) {
  uint32_t v;
  memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  v = __builtin_bswap32(v);
#endif
  return v;
}

/* Dijkstra's entries carry the cell with the direction it came from and g
** as straight | diagonal << 16, 8 bytes; the key is made from g where it is
** needed (keeping it in the entry, 16 bytes, measured no faster). A side's
** two FIFOs live in locals while it runs, so that stores into the queues
** cannot be taken to change them (they would be reloaded after every store
** otherwise). */
typedef struct dentry {
  uint32_t cell; /* padded index | direction << 29 */
  uint32_t g;    /* straight | diagonal << 16 */
} dentry;

typedef struct dring {
  dentry *items;
  uint32_t mask, head, tail; /* head, tail: counters, masked on use */
} dring;

static int dring_grow(dring *r) {
  uint32_t cap = r->mask + 1, len = r->tail - r->head;
  dentry *items = strata_malloc((size_t)cap * 2 * sizeof *items);
  if (items == NULL) return 0;
  for (uint32_t i = 0; i < len; i++) items[i] = r->items[(r->head + i) & r->mask];
  strata_free(r->items);
  r->items = items, r->mask = cap * 2 - 1, r->head = 0, r->tail = len;
  return 1;
}

/* Makes room in r for at least want entries. */
static int dring_reserve(dring *r, uint32_t want) {
  while (r->mask + 1 - (r->tail - r->head) < want)
    if (!dring_grow(r)) return 0;
  return 1;
}

#define PREFETCH 8

#define RING_HEAD_KEY(r) ((r).tail != (r).head ? gkey((r).items[(r).head & (r).mask].g) : KEY_NONE)

/* How a side runs (d_side): ALONE in the first part, up to a key, reading
** nothing of the other side; MAY_GROW when it may allocate (not on the
** second thread: strata's allocator hooks are not for threads); LOGS for
** the forward side's first part. */
#define ALONE 1
#define MAY_GROW 2
#define LOGS 4

typedef struct dpart {
  uint64_t stop2;    /* ALONE: stop before a key k with 2 k >= stop2 (2 k, to halve exactly) */
  uint64_t log2from; /* LOGS: log the cells settled with 2 k >= log2from */
} dpart;

/* d_side's step: queues the neighbours of u (settled at g and key ke)
** wanted among the rows up, mid, down of its side's bytes, straight
** arrivals in r0 and diagonal ones in r1, and lowers the head keys k0, k1.
**
** The eight neighbours' bytes were read in three loads, one per row (the
** arrays have slack at their ends for the last one), and are tested all at
** once. Only the neighbours to be queued are then visited, by their bits:
** eight branches on neighbour states that look random to the predictor
** become loops over one or two bits. (A version that queued without any
** branch, writing every entry and moving the tail by a flag, was slower
** than eight branches.) Straight arrivals first, then diagonal ones: two
** loops instead of a branch on the kind per neighbour. A FIFO's keys only
** grow, so a new entry is its head only when it was empty: the minimum
** updates the head key. */
static inline __attribute__((always_inline)) void d_queue(uint8_t *const mark, uint32_t *const dist,
                                                          const int32_t loff[12], uint32_t u,
                                                          uint32_t g, uint64_t ke, uint32_t up,
                                                          uint32_t mid, uint32_t down, dring *r0,
                                                          dring *r1, uint64_t *k0, uint64_t *k1) {
  const uint32_t gs = g + 1u, gd = g + 0x10000u;
  const uint64_t ks = ke + KEY_STRAIGHT, kd = ke + KEY_DIAGONAL;
  const uint32_t want = lanes_wanted(up, mid, down);
  for (uint32_t ws = want & LANES_S; ws; ws &= ws - 1) {
    const int l = __builtin_ctz(ws);
    const uint32_t v = (uint32_t)((int32_t)u + loff[l]);
    const uint32_t mv = mark[v];
    /* Queued diagonally with a g no greater (often equal: a straight and
    ** a diagonal step in either order): this arrival would only be popped
    ** to be dropped as settled, so it is not queued. Their keys order
    ** them exactly. */
    if ((mv & D_OPEN_D) && ks >= gkey(dist[v])) continue;
    mark[v] = (uint8_t)(mv | D_OPEN_S);
    r0->items[r0->tail++ & r0->mask] = (dentry){v | (uint32_t)LANE_DIR(l) << 29, gs};
    *k0 = *k0 < ks ? *k0 : ks;
  }
  for (uint32_t wd = want & LANES_D; wd; wd &= wd - 1) {
    const int l = __builtin_ctz(wd);
    const uint32_t v = (uint32_t)((int32_t)u + loff[l]);
    dist[v] = gd;
    mark[v] = (uint8_t)(mark[v] | D_OPEN_D);
    r1->items[r1->tail++ & r1->mask] = (dentry){v | (uint32_t)LANE_DIR(l) << 29, gd};
    *k1 = *k1 < kd ? *k1 : kd;
  }
}

/* Runs side x (a constant in each copy). Together: while its frontier is
** no larger than the other's; 0: go on with the other side, 1: done (met,
** or a side ran out). ALONE: up to the part's key; 0: there, 1: ran out
** (no route: the ends are further apart than that). Both: -1 out of
** memory, -2 a count outgrew 16 bits, -3 a FIFO or the log is full and
** MAY_GROW is not set (call again with it). */
static inline __attribute__((always_inline)) int d_side(struct grid_bidir *b, const ends *en,
                                                        const int x, const int how, dring rr[2][2],
                                                        const dpart *part, meeting *mt,
                                                        uint64_t *pops) {
  const int32_t pw = en->pw;
  /* lane l = 4 row + column of the 3 x 4 bytes read around a cell */
  const int32_t loff[12] = {-pw - 1, -pw, -pw + 1, 0, -1, 0, 1, 0, pw - 1, pw, pw + 1, 0};
  uint8_t *const mark = b->dmark[x];
  const uint8_t *const omark = b->dmark[!x];
  uint32_t *const dist = b->dist[x];
  const uint32_t *const odist = b->dist[!x];
  dring r0 = rr[x][0], r1 = rr[x][1];
  uint32_t other_open = 0;
  uint64_t ko = 0;
  if (!(how & ALONE)) {
    const dring o0 = rr[!x][0], o1 = rr[!x][1];
    other_open = (o0.tail - o0.head) + (o1.tail - o1.head);
    /* the other side's least key, fixed while this side runs */
    const uint64_t ko0 = RING_HEAD_KEY(o0), ko1 = RING_HEAD_KEY(o1);
    ko = ko1 < ko0 ? ko1 : ko0;
  }
  uint64_t k0 = RING_HEAD_KEY(r0), k1 = RING_HEAD_KEY(r1);
  uint64_t n = 0;
  uint32_t room = 0; /* cells that can be settled before a FIFO (or the log) may be full */
  int ret = 0;
  for (;;) {
    if (!(how & ALONE) && (r0.tail - r0.head) + (r1.tail - r1.head) > other_open) break;
    /* A cell queues at most four entries in each FIFO: room for that many
    ** is made once every so many cells, not checked at every one. */
    if (room == 0) {
      const uint32_t need0 = r0.tail - r0.head + 4 > r0.mask + 1, need1 = r1.tail - r1.head + 4 > r1.mask + 1;
      const uint32_t needlog = (how & LOGS) && b->log_len == b->log_cap;
      if (need0 | need1 | needlog) {
        if (!(how & MAY_GROW)) { ret = -3; break; }
        if (need0 && !dring_grow(&r0)) { ret = -1; break; }
        if (need1 && !dring_grow(&r1)) { ret = -1; break; }
        if (needlog) {
          if (!STRATA_GROW32(b->log, b->log_cap, (size_t)b->log_cap + 1)) { ret = -1; break; }
        }
      }
      const uint32_t f0 = r0.mask + 1 - (r0.tail - r0.head), f1 = r1.mask + 1 - (r1.tail - r1.head);
      room = (f0 < f1 ? f0 : f1) / 4;
      if ((how & LOGS) && b->log_cap - b->log_len < room) room = b->log_cap - b->log_len;
    }
    const int from1 = k1 < k0;
    const uint64_t ke = from1 ? k1 : k0;
    if (ke == KEY_NONE) { ret = 1; break; } /* both ran out: mu stands, or no route */
    if ((how & ALONE) && 2 * ke >= part->stop2) break; /* the first part is done */
    /* Which FIFO gives the next cell changes from pop to pop in no regular
    ** way: both heads are read and one is chosen by a mask, not a branch. */
    const uint32_t sel = 0u - (uint32_t)from1;
    {
      /* Cells leave each FIFO in the order they entered it: fetch the rows
      ** of the one that leaves PREFETCH pops from now (the frontier is too
      ** long for its rows to stay in the nearest cache). */
      const uint32_t c0 = r0.items[(r0.head + PREFETCH) & r0.mask].cell;
      const uint32_t c1 = r1.items[(r1.head + PREFETCH) & r1.mask].cell;
      const uint32_t c = ((c1 & sel) | (c0 & ~sel)) & CELL_MASK;
      __builtin_prefetch(mark + c - pw);
      __builtin_prefetch(mark + c);
      __builtin_prefetch(mark + c + pw);
      __builtin_prefetch(dist + c, 1);
    }
    const dentry e0 = r0.items[r0.head & r0.mask], e1 = r1.items[r1.head & r1.mask];
    const dentry e = {(e1.cell & sel) | (e0.cell & ~sel), (e1.g & sel) | (e0.g & ~sel)};
    r0.head += ~sel & 1u, r1.head += sel & 1u;
    /* Goldberg and Harrelson's rule */
    if (!(how & ALONE) && mt->found &&
        ke + ko >= ((uint64_t)mt->s << 40) + (uint64_t)mt->d * KEY_DIAGONAL) {
      ret = 1;
      break;
    }
    k0 = RING_HEAD_KEY(r0), k1 = RING_HEAD_KEY(r1);
    const uint32_t u = e.cell & CELL_MASK;
    const uint32_t mu = mark[u];
    if (mu & D_DONE) continue; /* settled already, by a shorter route */
    if (ke >= KEY_LIMIT) { ret = -2; break; } /* the key bounds both counts */
    n++;
    room--;
    /* The neighbours' rows, loaded before u's byte is stored: a 4-byte load
    ** that covers a byte still in the store buffer cannot take it from
    ** there and waits until the store is done. */
    const uint32_t up = load4(mark + u - pw - 1), mid = load4(mark + u - 1),
                   down = load4(mark + u + pw - 1);
    const uint32_t g = e.g;
    mark[u] = (uint8_t)(D_DONE | e.cell >> 29);
    dist[u] = g;
    if ((how & LOGS) && 2 * ke >= part->log2from) b->log[b->log_len++] = u;
    if (!(how & ALONE)) {
      if (omark[u] & D_DONE) { /* settled by both: mu is reached */
        const uint32_t o = odist[u];
        offer(mt, (g & 0xffffu) + (o & 0xffffu), (g >> 16) + (o >> 16), u, u);
        ret = 1;
        break;
      }
      uint32_t meet = lanes_met(up, mid, down, load4(omark + u - pw - 1), load4(omark + u - 1),
                                load4(omark + u + pw - 1));
      for (; meet; meet &= meet - 1) { /* the other side settled a neighbour: routes */
        const int l = __builtin_ctz(meet);
        const uint32_t v = (uint32_t)((int32_t)u + loff[l]);
        const uint32_t o = odist[v], straight = (LANES_S >> l) & 1u;
        const uint32_t rs = (g & 0xffffu) + (o & 0xffffu) + straight;
        const uint32_t rd = (g >> 16) + (o >> 16) + (straight ^ 1u);
        if (x) offer(mt, rs, rd, v, u);
        else offer(mt, rs, rd, u, v);
      }
    }
    d_queue(mark, dist, loff, u, g, ke, up, mid, down, &r0, &r1, &k0, &k1);
  }
  rr[x][0] = r0, rr[x][1] = r1;
  *pops += n;
  return ret;
}

/* The copies d_side is made in: each side together, each side alone with
** and without growing, the forward side alone logging. */
static int d_fwd(struct grid_bidir *b, const ends *en, dring rr[2][2], const dpart *p, meeting *mt,
                 uint64_t *pops) {
  return d_side(b, en, 0, MAY_GROW, rr, p, mt, pops);
}
static int d_bwd(struct grid_bidir *b, const ends *en, dring rr[2][2], const dpart *p, meeting *mt,
                 uint64_t *pops) {
  return d_side(b, en, 1, MAY_GROW, rr, p, mt, pops);
}
static int d_fwd_alone(struct grid_bidir *b, const ends *en, dring rr[2][2], const dpart *p,
                       uint64_t *pops) {
  return d_side(b, en, 0, ALONE | MAY_GROW | LOGS, rr, p, NULL, pops);
}
static int d_bwd_alone(struct grid_bidir *b, const ends *en, dring rr[2][2], const dpart *p,
                       int may_grow, uint64_t *pops) {
  return may_grow ? d_side(b, en, 1, ALONE | MAY_GROW, rr, p, NULL, pops)
                  : d_side(b, en, 1, ALONE, rr, p, NULL, pops);
}

/* The first part runs in rounds, each side alone up to a radius of an
** eighth, a quarter, a half, then all of h / 2 (a round ends with a wait for
** the slower side: few rounds, the first one small). After each, both sides stand where their
** own search puts them at that radius, so what comes next is decided from
** them alone: the first part goes on while their frontiers are within a
** factor of two of each other (else the side with the smaller frontier
** does better alone, by Pohl's rule, in the second part), and a side that
** ran out ends the search there, the ends being in two pieces. */
#define ROUNDS 4

/* The backward side's rounds, on the second thread: it waits for a round,
** runs it, reports, and waits again until told to quit. */
typedef struct dworker {
  struct grid_bidir *b;
  const ends *en;
  dring (*rr)[2];
  const uint8_t *cls;
  uint32_t n;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  dpart part;            /* the round asked for */
  unsigned asked, done;  /* rounds asked for and done */
  int quit;
  int ret;               /* the last round's, as d_side's */
  uint64_t pops;
} dworker;

static void *d_worker(void *arg) {
  dworker *w = arg;
  grid_marks_clear(w->b->dmark[1], w->cls, w->n);
  pthread_mutex_lock(&w->lock);
  for (;;) {
    while (w->asked == w->done && !w->quit) pthread_cond_wait(&w->cond, &w->lock);
    if (w->quit) break;
    const dpart part = w->part;
    pthread_mutex_unlock(&w->lock);
    uint64_t pops = 0;
    const int ret = d_bwd_alone(w->b, w->en, w->rr, &part, 0, &pops);
    pthread_mutex_lock(&w->lock);
    w->ret = ret, w->pops += pops, w->done++;
    pthread_cond_broadcast(&w->cond);
  }
  pthread_mutex_unlock(&w->lock);
  return NULL;
}

/* The first part pays for itself (and the second thread for its start, tens
** of microseconds) past about this many cells and this half distance. */
#define ROUNDS_MIN_CELLS 65536u
#define ROUNDS_MIN_HALF 128u /* in straight steps */

/* The FIFOs, grown while running, kept for the next search. */
static void keep_rings(struct grid_bidir *b, dring rr[2][2]) {
  for (int x = 0; x < 2; x++)
    for (int k = 0; k < 2; k++) b->ring[x][k] = rr[x][k].items, b->ring_cap[x][k] = rr[x][k].mask + 1;
}

/* The first part: 0 done (the second part goes on), 1 a side ran out (no
** route), -1 out of memory, -2 a count outgrew 16 bits. */
static int d_first_part(struct grid_bidir *b, const ends *en, dring rr[2][2], const uint8_t *cls,
                        uint32_t n, uint64_t h, int threads, uint64_t *pops) {
  dworker w = {.b = b, .en = en, .rr = rr, .cls = cls, .n = n};
  pthread_t thread;
  int threaded = 0;
  if (threads > 1) {
    /* The second thread cannot grow its FIFOs: room for a frontier across
    ** the map, past which it stops and this thread finishes its round. */
    const uint32_t pw = (uint32_t)en->pw, ph = n / pw;
    if (!dring_reserve(&rr[1][0], 4 * (pw + ph)) || !dring_reserve(&rr[1][1], 4 * (pw + ph)))
      return -1;
    if (pthread_mutex_init(&w.lock, NULL) == 0) {
      if (pthread_cond_init(&w.cond, NULL) == 0) {
        /* The second thread takes no signals: a host's handlers (the Lua
        ** binding's budget timer among them) run on the caller's thread. */
        sigset_t all, old;
        sigfillset(&all);
        pthread_sigmask(SIG_SETMASK, &all, &old);
        threaded = pthread_create(&thread, NULL, d_worker, &w) == 0;
        pthread_sigmask(SIG_SETMASK, &old, NULL);
        if (!threaded) pthread_cond_destroy(&w.cond);
      }
      if (!threaded) pthread_mutex_destroy(&w.lock);
    }
  }
  if (!threaded) grid_marks_clear(b->dmark[1], cls, n);
  grid_marks_clear(b->dmark[0], cls, n);
  int r = 0;
  for (int k = 1; k <= ROUNDS && r == 0; k++) {
    const dpart part = {h >> (ROUNDS - k), /* 2 k below h / 8, h / 4, h / 2, h */
                        h > 2 * KEY_DIAGONAL + KEY_STRAIGHT ? h - 2 * KEY_DIAGONAL - KEY_STRAIGHT : 0};
    if (threaded) {
      pthread_mutex_lock(&w.lock);
      w.part = part, w.asked++;
      pthread_cond_broadcast(&w.cond);
      pthread_mutex_unlock(&w.lock);
    }
    r = d_fwd_alone(b, en, rr, &part, pops);
    int rb = -3;
    if (threaded) {
      pthread_mutex_lock(&w.lock);
      while (w.done != w.asked) pthread_cond_wait(&w.cond, &w.lock);
      rb = w.ret;
      pthread_mutex_unlock(&w.lock);
    }
    /* the backward side's round, or the rest of it where the second thread
    ** ran out of room (it waits meanwhile) */
    if (rb == -3) rb = d_bwd_alone(b, en, rr, &part, 1, pops);
    if (r == 0) r = rb;
    const uint32_t nf = (rr[0][0].tail - rr[0][0].head) + (rr[0][1].tail - rr[0][1].head);
    const uint32_t nb = (rr[1][0].tail - rr[1][0].head) + (rr[1][1].tail - rr[1][1].head);
    const uint32_t small = nf < nb ? nf : nb, large = nf ^ nb ^ small;
    if (r == 0 && large > 2 * (uint64_t)small + 64) break;
  }
  if (threaded) {
    pthread_mutex_lock(&w.lock);
    w.quit = 1;
    pthread_cond_broadcast(&w.cond);
    pthread_mutex_unlock(&w.lock);
    pthread_join(thread, NULL);
    pthread_cond_destroy(&w.cond);
    pthread_mutex_destroy(&w.lock);
    *pops += w.pops;
  }
  return r;
}

static int d_run(struct grid_bidir *b, const ends *en, const uint8_t *cls, uint32_t n, int threads,
                 meeting *mt, uint64_t *expanded) {
  dring rr[2][2];
  for (int x = 0; x < 2; x++)
    for (int k = 0; k < 2; k++) {
      if (b->ring_cap[x][k] == 0) {
        if ((b->ring[x][k] = strata_malloc(1024 * sizeof(dentry))) == NULL) return -1;
        b->ring_cap[x][k] = 1024;
      }
      rr[x][k] = (dring){b->ring[x][k], b->ring_cap[x][k] - 1, 0, 0};
    }
  rr[0][0].items[rr[0][0].tail++] = (dentry){en->cell[0], 0};
  rr[1][0].items[rr[1][0].tail++] = (dentry){en->cell[1], 0};
  mt->found = 0;
  /* h, the octile distance between the ends: no route is shorter */
  const uint32_t dx = (uint32_t)abs(en->x[1] - en->x[0]), dy = (uint32_t)abs(en->y[1] - en->y[0]);
  const uint32_t lo = dx < dy ? dx : dy, hi = dx ^ dy ^ lo;
  const uint64_t h = (uint64_t)(hi - lo) * KEY_STRAIGHT + (uint64_t)lo * KEY_DIAGONAL;
  b->log_len = 0;
  uint64_t pops = 0;
  int r = 0;
  /* Short searches skip the first part (and so never take the second
  ** thread, whatever threads says: the route is the same). */
  if (n >= ROUNDS_MIN_CELLS && hi >= 2 * ROUNDS_MIN_HALF) {
    r = d_first_part(b, en, rr, cls, n, h, threads, &pops);
  } else {
    grid_marks_clear(b->dmark[0], cls, n);
    grid_marks_clear(b->dmark[1], cls, n);
  }
  if (r == 0) {
    /* The routes across the edges between the two sides' first parts: one
    ** end of each is in the log. */
    const int32_t pw = en->pw;
    const int32_t off[8] = {-pw, 1, pw, -1, -pw + 1, pw + 1, pw - 1, -pw - 1};
    for (uint32_t i = 0; i < b->log_len; i++) {
      const uint32_t u = b->log[i], g = b->dist[0][u];
      if (b->dmark[1][u] & D_DONE) { /* settled by both (not when h is exact: a guard) */
        const uint32_t o = b->dist[1][u];
        offer(mt, (g & 0xffffu) + (o & 0xffffu), (g >> 16) + (o >> 16), u, u);
      }
      for (int d = 0; d < 8; d++) {
        const uint32_t v = (uint32_t)((int32_t)u + off[d]), mv = b->dmark[1][v];
        if (mv == D_WALL || !(mv & D_DONE)) continue;
        const uint32_t o = b->dist[1][v], straight = d < 4;
        offer(mt, (g & 0xffffu) + (o & 0xffffu) + straight, (g >> 16) + (o >> 16) + !straight, u, v);
      }
    }
    const dpart none = {0, 0};
    do {
      r = d_fwd(b, en, rr, &none, mt, &pops);
      if (r == 0) r = d_bwd(b, en, rr, &none, mt, &pops);
    } while (r == 0);
    if (r == 1) {
      const uint8_t *const marks[2] = {b->dmark[0], b->dmark[1]};
      const unsigned sh[2] = {0, 0};
      const uint32_t *const g[2] = {b->dist[0], b->dist[1]};
      ran_out(en, marks, sh, g, mt);
    }
  } else if (r == 1) {
    r = 0; /* a side ran out in the first part: the ends are not connected */
    mt->found = 0;
  }
  keep_rings(b, rr);
  *expanded = pops;
  return r < 0 ? r : mt->found;
}

/* The route from the meeting: the forward chain from a back to the start,
** reversed, then the backward chain from b on to the goal (a backward
** direction points away from the goal, so the next cell is the cell minus
** that step). A direction is the low 3 bits of marks[side][cell] >> sh[side]. */
static int route(const ends *en, const meeting *mt, const uint8_t *const marks[2],
                 const unsigned sh[2], uint32_t pw, double cell_cost, strata_path *out) {
  const int32_t p = (int32_t)pw;
  const int32_t off[8] = {-p, 1, p, -1, -p + 1, p + 1, p - 1, -p - 1};
  const uint32_t width = pw - 2;
  size_t len = 0, straight = 0, diagonal = 0;
  for (int part = 0; part < 2; part++) {
    uint32_t v = part ? mt->b : mt->a;
    if (part) {
      if (mt->b == mt->a) { /* a is in the path already: step past it */
        if (v == en->cell[1]) break;
        unsigned d = (marks[1][v] >> sh[1]) & 7u;
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
      unsigned d = (marks[part][v] >> sh[part]) & 7u;
      d < 4 ? straight++ : diagonal++;
      v = (uint32_t)((int32_t)v - off[d]);
    }
    if (part == 0) grid_route_reverse(out->nodes, len);
  }
  out->len = len;
  out->cost = cell_cost * ((double)straight + M_SQRT2 * (double)diagonal);
  return 1;
}

int gridbidir_run(struct grid_bidir **bp, const uint8_t *cls, uint32_t pw, uint32_t ph, int astar,
                  int threads, int sx, int sy, int gx, int gy, double cell_cost, strata_path *out,
                  uint64_t *expanded) {
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
  if (astar) {
    if (n > b->cap) {
      uint8_t *mark = strata_malloc((size_t)n + 4);
      if (mark == NULL) return -1;
      strata_free(b->mark);
      b->mark = mark, b->cap = n;
    }
    /* class 1 (passable) -> 0 (unseen by both), class 0 (wall) -> 0xff */
    grid_marks_clear(b->mark, cls, n);
  } else if (n > b->dcap) {
    for (int x = 0; x < 2; x++) {
      uint8_t *mark = strata_malloc((size_t)n + 4); /* slack: rows are loaded by fours */
      uint32_t *dist = strata_malloc((size_t)n * sizeof *dist);
      if (mark == NULL || dist == NULL) {
        strata_free(mark), strata_free(dist);
        return -1;
      }
      strata_free(b->dmark[x]), strata_free(b->dist[x]);
      b->dmark[x] = mark, b->dist[x] = dist;
    }
    b->dcap = n;
  }
  int found = 1;
  if (en.cell[0] == en.cell[1]) *expanded = 1;
  else found = astar ? a_run(b, &en, &mt, expanded) : d_run(b, &en, cls, n, threads, &mt, expanded);
  if (found <= 0) return found;
  const uint8_t *const marks[2] = {astar ? b->mark : b->dmark[0], astar ? b->mark : b->dmark[1]};
  const unsigned sh[2] = {0, astar ? 4u : 0u};
  return route(&en, &mt, marks, sh, pw, cell_cost, out);
}
