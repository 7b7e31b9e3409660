/*
** gridjump.c - jump point search (Harabor and Grastien 2011) on maps of one
** cost, 8 neighbours, diagonal steps of cost sqrt 2, as A* (octile
** estimate) and as Dijkstra (the same successors, no estimate).
**
** Why: on a map of one cost most shortest routes are symmetric (the same
** steps in another order), and a search that settles cells one by one
** settles all of them. JPS only settles "jump points", cells where a route
** may have to turn, found by scanning straight and diagonal lines from the
** cells it settles. The scans work a word at a time: a bit per cell, rows
** in one bitset and columns in a transposed one, so one scan finds the next
** wall or forced neighbour among 64 cells with a few logic operations and a
** count of zeros (the block idea of Harabor and Grastien's 2014 work).
**
** Corners may be cut (a diagonal step needs only its destination passable),
** so the pruning rules are those of the original paper:
** - straight (dx, 0) into n: go on (dx, 0); (dx, +-1) is forced when
**   n + (0, +-1) is a wall.
** - diagonal (dx, dy) into n: go on (dx, 0), (0, dy), (dx, dy); (-dx, dy)
**   is forced when n - (dx, 0) is a wall, (dx, -dy) when n - (0, dy) is.
** A straight scan stops at a jump point, at the goal, or before a wall. A
** diagonal walk stops at the goal, at a cell with a forced neighbour
** (queued), or before a wall; a cell on it where a straight scan finds
** something is expanded on the spot, its successors being known already.
**
** Keys are exact: g counts straight and diagonal steps (16 bits each; more
** gives up with -2, as gridbidir.c does), and a + b sqrt 2 from whole counts
** orders keys exactly as a double (see gridbidir.c). A cell is queued again
** only when its g strictly drops; a popped entry whose g is no longer the
** cell's is stale. The cost reported is cell cost x (straight + diagonal
** sqrt 2), the same expression as gridbidir.c's.
**
** Memory per cell: g and the parent jump point with an 11-bit search stamp
** (8 bytes, one record), and two bits for the bitsets; then the open jump
** points (a bag while few, a heap past that: see heap_push). The bitsets are rebuilt only when the class grid's serial
** changes. On scattered walls nearly every cell is a jump point and JPS
** loses to gridbidir.c; the table (gridengine.c) picks by gridjump_forced_per_run.
** Figures: docs/benchmarks.md.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gridengine.h"
#include "strata/alloc.h"
#include "util.h"

#define COUNT_MAX 0xfffeu
#define NONE UINT32_MAX
#define CELL_BITS 28
#define CELL_MASK ((1u << CELL_BITS) - 1)
#define DIR_START 4u /* (dx + 1) * 3 + (dy + 1) for (0, 0) */

typedef struct jentry {
  double f;      /* key: g (+ estimate for A*) */
  uint32_t cell; /* padded index | arrival direction << CELL_BITS */
  uint32_t g;    /* straight | diagonal << 16 */
} jentry;

/* A cell's search state in one place (one cache line to miss, not three):
** g, and the parent jump point with the search's stamp in the top bits
** (cells < 2^21, see GRIDBIDIR_MAX_CELLS). */
#define PARENT_BITS 21
#define PARENT_MASK ((1u << PARENT_BITS) - 1)
#define GEN_MAX ((1u << (32 - PARENT_BITS)) - 1)
typedef struct jcell {
  uint32_t g;  /* straight | diagonal << 16 */
  uint32_t ps; /* parent | stamp << PARENT_BITS */
} jcell;

struct grid_jump {
  /* bitsets: a bit per padded cell, 1 = passable; one spare zero word at
  ** the end of each line so that scans may read one word ahead */
  uint64_t *rows, *cols;
  uint32_t wpr, wpc; /* words per row, per column */
  uint32_t pw, ph;
  uint64_t serial;
  int built;
  double per_run; /* forced positions per run of passable cells, for the dispatch */
  /* the search */
  jcell *cell;
  uint32_t cap;
  uint32_t gen; /* 1..GEN_MAX */
  jentry *heap;
  uint32_t len, heap_cap;
  int heaped; /* the open list is a heap (else a bag: see heap_push) */
};

void gridjump_free(struct grid_jump *j) {
  if (j == NULL) return;
  strata_free(j->rows), strata_free(j->cols);
  strata_free(j->cell);
  strata_free(j->heap);
  strata_free(j);
}

size_t gridjump_memory(const struct grid_jump *j) {
  if (j == NULL) return 0;
  size_t bytes = sizeof *j;
  bytes += ((size_t)j->wpr * j->ph + (size_t)j->wpc * j->pw) * sizeof(uint64_t);
  bytes += (size_t)j->cap * sizeof *j->cell;
  return bytes + (size_t)j->heap_cap * sizeof *j->heap;
}

static int build_bits(struct grid_jump *j, const uint8_t *cls, uint32_t pw, uint32_t ph,
                      uint64_t serial) {
  if (j->built && j->serial == serial && j->pw == pw && j->ph == ph) return 1;
  uint32_t wpr = (pw + 63) / 64 + 1, wpc = (ph + 63) / 64 + 1;
  if (!j->built || j->pw != pw || j->ph != ph) {
    strata_free(j->rows), strata_free(j->cols);
    j->rows = strata_calloc((size_t)wpr * ph, sizeof *j->rows);
    j->cols = strata_calloc((size_t)wpc * pw, sizeof *j->cols);
    j->built = 0;
    if (j->rows == NULL || j->cols == NULL) return 0;
  } else {
    memset(j->rows, 0, (size_t)wpr * ph * sizeof *j->rows);
    memset(j->cols, 0, (size_t)wpc * pw * sizeof *j->cols);
  }
  j->wpr = wpr, j->wpc = wpc, j->pw = pw, j->ph = ph;
  for (uint32_t y = 0; y < ph; y++) {
    const uint8_t *c = cls + (size_t)y * pw;
    uint64_t *row = j->rows + (size_t)y * wpr;
    for (uint32_t x = 0; x < pw; x++)
      if (c[x]) {
        row[x >> 6] |= 1ull << (x & 63);
        j->cols[(size_t)x * wpc + (y >> 6)] |= 1ull << (y & 63);
      }
  }
  /* For the dispatch: the forced positions (cells with a wall beside them
  ** and a free cell beside the next one, eastwards; the other ways are
  ** alike on the maps we know) per run of passable cells in a row. JPS
  ** pays per jump point times the length of its scans; both grow with this
  ** count, which is low where walls come in long lines that bound short
  ** runs (rooms 0.12, corridors of a maze 0.32) and high where walls are
  ** scattered over open ground (random walls, 1 to 40 %: 1.05 to 1.8). */
  uint64_t forced = 0, runs = 0;
  for (uint32_t y = 1; y + 1 < ph; y++) {
    const uint64_t *A = j->rows + (size_t)(y - 1) * wpr, *B = A + wpr, *C = B + wpr;
    for (uint32_t k = 0; k + 1 < wpr; k++) {
      uint64_t an = (A[k] >> 1) | (A[k + 1] << 63), cn = (C[k] >> 1) | (C[k + 1] << 63);
      forced += (uint64_t)__builtin_popcountll(((~A[k] & an) | (~C[k] & cn)) & B[k]);
      runs += (uint64_t)__builtin_popcountll(B[k] & ~((B[k] << 1) | (k ? B[k - 1] >> 63 : 0)));
    }
  }
  j->per_run = runs ? (double)forced / (double)runs : 0;
  j->serial = serial, j->built = 1;
  return 1;
}

double gridjump_forced_per_run(struct grid_jump **jp, const uint8_t *cls, uint32_t pw,
                               uint32_t ph, uint64_t serial) {
  if (*jp == NULL && (*jp = strata_calloc(1, sizeof **jp)) == NULL) return -1;
  return build_bits(*jp, cls, pw, ph, serial) ? (*jp)->per_run : -1;
}

/* The first position q > from on line B (A and C the lines beside it) that
** is a wall (*wall = 1) or has a forced neighbour ahead: A or C blocked at
** q and free at q + 1. Lines end with a wall, so the scan ends. */
static inline uint32_t scan_fwd(const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                uint32_t from, int *wall) {
  uint32_t p = from + 1, k = p >> 6;
  uint64_t m = ~0ull << (p & 63);
  for (;; k++, m = ~0ull) {
    const uint64_t a = A[k], c = C[k], b = B[k];
    const uint64_t an = (a >> 1) | (A[k + 1] << 63), cn = (c >> 1) | (C[k + 1] << 63);
    const uint64_t stop = ((~a & an) | (~c & cn) | ~b) & m;
    if (stop) {
      uint32_t q = k * 64 + (uint32_t)__builtin_ctzll(stop);
      *wall = !((b >> (q & 63)) & 1);
      return q;
    }
  }
}

/* The same backwards: the last position q < from that is a wall or has A or
** C blocked at q and free at q - 1. */
static inline uint32_t scan_bwd(const uint64_t *A, const uint64_t *B, const uint64_t *C,
                                uint32_t from, int *wall) {
  uint32_t p = from - 1, k = p >> 6;
  uint64_t m = (p & 63) == 63 ? ~0ull : (2ull << (p & 63)) - 1;
  for (;; k--, m = ~0ull) {
    const uint64_t a = A[k], c = C[k], b = B[k];
    const uint64_t ap = (a << 1) | (k ? A[k - 1] >> 63 : 0), cp = (c << 1) | (k ? C[k - 1] >> 63 : 0);
    const uint64_t stop = ((~a & ap) | (~c & cp) | ~b) & m;
    if (stop) {
      uint32_t q = k * 64 + 63 - (uint32_t)__builtin_clzll(stop);
      *wall = !((b >> (q & 63)) & 1);
      return q;
    }
  }
}

typedef struct ctx {
  const struct grid_jump *j;
  const uint8_t *cls;
  int32_t pw;
  uint64_t recip; /* floor(2^42 / pw) + 1: cell * recip >> 42 == cell / pw for cells < 2^21 */
  uint32_t gx, gy, goal; /* padded */
} ctx;

/* Straight scan from (along, across) in direction d over a bitset with a
** line of `words` words per row (for rows) or per column (for columns): the
** coordinate along it of the jump point found (the goal included), or NONE.
** next is the cell one step on, in the padded grid. Forced inline: each
** caller then gets the code of its own bitset, as fast as two written-out
** twins (maze A*: 3.54 ms against 3.55, medians of 16 alternated runs);
** as one function that takes the bitset, it ran 35 % slower. */
static inline __attribute__((always_inline)) uint32_t jump_line(const ctx *c, const uint64_t *bits,
                                                                uint32_t words, uint32_t along,
                                                                uint32_t across, uint32_t next,
                                                                int d, uint32_t goal_along,
                                                                uint32_t goal_across) {
  if (!c->cls[next]) return NONE; /* a wall next: the common case in corridors */
  const uint64_t *A = bits + (size_t)(across - 1) * words, *B = A + words, *C = B + words;
  int wall;
  uint32_t q = d > 0 ? scan_fwd(A, B, C, along, &wall) : scan_bwd(A, B, C, along, &wall);
  if (across == goal_across &&
      (d > 0 ? goal_along > along && goal_along <= q : goal_along < along && goal_along >= q))
    return goal_along;
  return wall ? NONE : q;
}

/* Along a row from (x, y) in direction dx: the x found, or NONE. */
static inline __attribute__((always_inline)) uint32_t jump_h(const ctx *c, uint32_t x, uint32_t y,
                                                              uint32_t v, int dx) {
  return jump_line(c, c->j->rows, c->j->wpr, x, y, v + (uint32_t)dx, dx, c->gx, c->gy);
}

/* Along a column: the y found, or NONE. */
static inline __attribute__((always_inline)) uint32_t jump_v(const ctx *c, uint32_t x, uint32_t y,
                                                              uint32_t v, int dy) {
  return jump_line(c, c->j->cols, c->j->wpc, y, x, v + (uint32_t)(dy * c->pw), dy, c->gy, c->gx);
}


/* The open jump points: a few at a time on the maps JPS is taken for (the
** maze's A*: 4.7 on average, 19 at most), where a binary heap's compares are
** branches the predictor misses. So up to BAG_MAX they are kept unsorted
** and the least is found by a scan without branches; past that they become
** a heap (and a heap is a valid bag again once it has shrunk to BAG_MIN).
** Which entry leaves among equal keys depends on the order of the pushes and
** pops alone. Maze A*: 6 % faster than the heap alone (alternated pairs);
** the heap's push and pop had been 17 % of its time (perf). */
#define BAG_MAX 32
#define BAG_MIN 8

static void heap_up(jentry *h, uint32_t i, jentry e) {
  while (i > 0) {
    const uint32_t p = (i - 1) / 2;
    if (h[p].f <= e.f) break;
    h[i] = h[p];
    i = p;
  }
  h[i] = e;
}

static int heap_push(struct grid_jump *j, jentry e) {
  if (!STRATA_GROW32(j->heap, j->heap_cap, (size_t)j->len + 1)) return 0;
  jentry *h = j->heap;
  if (j->heaped) {
    heap_up(h, j->len++, e);
  } else {
    h[j->len++] = e;
    if (j->len > BAG_MAX) { /* a heap from here on */
      for (uint32_t i = 1; i < j->len; i++) heap_up(h, i, h[i]);
      j->heaped = 1;
    }
  }
  return 1;
}

/* The least entry. From the bag: the first least one, found without a
** branch, and the last entry moved into its place. From the heap, bottom-up:
** the hole at the top goes down to a leaf along the lesser children (one
** compare a level, taken without a branch), then the last entry rises from
** there; it came from the bottom and seldom rises far. */
static jentry heap_pop(struct grid_jump *j) {
  jentry *h = j->heap;
  const uint32_t n = --j->len;
  if (!j->heaped) {
    uint32_t m = 0;
    double best = h[0].f;
    for (uint32_t i = 1; i <= n; i++) {
      const int less = h[i].f < best;
      m = less ? i : m;
      best = less ? h[i].f : best;
    }
    const jentry top = h[m];
    h[m] = h[n];
    return top;
  }
  const jentry top = h[0], e = h[n];
  if (n <= BAG_MIN) j->heaped = 0;
  if (n == 0) return top;
  uint32_t i = 0;
  for (;;) {
    uint32_t l = 2 * i + 1;
    if (l >= n) break;
    if (l + 1 < n) l += h[l + 1].f < h[l].f;
    h[i] = h[l];
    i = l;
  }
  heap_up(h, i, e);
  return top;
}

static inline double dkey(uint32_t s, uint32_t d) { return (double)s + M_SQRT2 * (double)d; }

/* Records g = (s, d) and parent p for v if that is better than what v has
** in this search; 1 if so. */
static inline int improve(jcell *cells, uint32_t gen, uint32_t v, uint32_t s, uint32_t d,
                          uint32_t p) {
  const jcell old = cells[v];
  if ((old.ps & ~PARENT_MASK) == gen && dkey(s, d) >= dkey(old.g & 0xffffu, old.g >> 16)) return 0;
  cells[v] = (jcell){s | d << 16, p | gen};
  return 1;
}

/* Queues v at (x, y), g = (s, d), reached in direction code; 0 on ENOMEM. */
static inline int push(struct grid_jump *j, const ctx *c, int astar, uint32_t v, uint32_t x,
                       uint32_t y, uint32_t s, uint32_t d, unsigned code) {
  double f = dkey(s, d);
  if (astar) { /* octile: (hi - lo) straight steps and lo diagonal */
    uint32_t ax = x > c->gx ? x - c->gx : c->gx - x, ay = y > c->gy ? y - c->gy : c->gy - y;
    uint32_t lo = ax < ay ? ax : ay, hi = ax ^ ay ^ lo;
    f = dkey(s + hi - lo, d + lo);
  }
  return heap_push(j, (jentry){f, v | code << CELL_BITS, s | d << 16});
}

/* One direction (dx, dy) from the popped jump point u: a diagonal walk, or a
** straight scan whose find is relaxed. 0, or -1 out of memory, -2 a count
** outgrew 16 bits. Forced inline with dx, dy constant in each of the eight
** copies (see run): the scan direction, the step and the signs then fold
** away (maze A*: 14 % fewer instructions than one copy taking them,
** callgrind, four searches). */
static inline __attribute__((always_inline)) int expand_dir(struct grid_jump *j, const ctx *c,
                                                            const int astar, uint32_t u,
                                                            uint32_t ux, uint32_t uy, uint32_t us,
                                                            uint32_t ud, const int dx, const int dy,
                                                            uint64_t *pops) {
  const int32_t pw = c->pw;
  const uint8_t *cls = c->cls;
  jcell *cells = j->cell;
  const uint32_t gen = j->gen << PARENT_BITS;
  const unsigned code = (unsigned)(dx + 1) * 3 + (unsigned)(dy + 1);
  if (dx != 0 && dy != 0) {
    /* The diagonal, walked here: a cell where one of its straight scans
    ** finds something is a jump point whose successors are exactly
    ** those two finds and the diagonal on (no forced neighbour, or it
    ** would have stopped there), so it is expanded on the spot instead
    ** of queued and scanned again when popped: it is recorded (g,
    ** parent) for the route, its finds are relaxed, and the walk goes
    ** on from it. Its g may later drop (it was never settled); then it
    ** is queued and expanded like any other (and a route through it
    ** only gets shorter: see the route below). */
    const int32_t step = dy * pw + dx;
    uint32_t p = u, x = ux, y = uy, v = u, ps = us, pd = ud;
    for (;;) {
      v = (uint32_t)((int32_t)v + step);
      x = (uint32_t)((int32_t)x + dx), y = (uint32_t)((int32_t)y + dy);
      if (!cls[v]) return 0;
      if (++pd > COUNT_MAX) return -2;
      if (v == c->goal || (!cls[v - dx] && cls[v - dx + dy * pw]) ||
          (!cls[v - dy * pw] && cls[v + dx - dy * pw])) {
        if (improve(cells, gen, v, ps, pd, p) && !push(j, c, astar, v, x, y, ps, pd, code))
          return -1;
        return 0;
      }
      const uint32_t qh = jump_h(c, x, y, v, dx), qv = jump_v(c, x, y, v, dy);
      if (qh == NONE && qv == NONE) continue;
      if (!improve(cells, gen, v, ps, pd, p)) return 0; /* reached as cheaply before */
      ++*pops;
      if (qh != NONE) {
        const uint32_t s = ps + (dx > 0 ? qh - x : x - qh), w = y * (uint32_t)pw + qh;
        if (s > COUNT_MAX) return -2;
        if (improve(cells, gen, w, s, pd, v) &&
            !push(j, c, astar, w, qh, y, s, pd, (unsigned)(dx + 1) * 3 + 1))
          return -1;
      }
      if (qv != NONE) {
        const uint32_t s = ps + (dy > 0 ? qv - y : y - qv), w = qv * (uint32_t)pw + x;
        if (s > COUNT_MAX) return -2;
        if (improve(cells, gen, w, s, pd, v) &&
            !push(j, c, astar, w, x, qv, s, pd, 3 + (unsigned)(dy + 1)))
          return -1;
      }
      p = v;
    }
  }
  uint32_t vx = ux, vy = uy, n;
  if (dy == 0) {
    uint32_t q = jump_h(c, ux, uy, u, dx);
    if (q == NONE) return 0;
    vx = q, n = dx > 0 ? q - ux : ux - q;
  } else {
    uint32_t q = jump_v(c, ux, uy, u, dy);
    if (q == NONE) return 0;
    vy = q, n = dy > 0 ? q - uy : uy - q;
  }
  const uint32_t s = us + n, v = vy * (uint32_t)pw + vx;
  if (s > COUNT_MAX) return -2;
  if (improve(cells, gen, v, s, ud, u) && !push(j, c, astar, v, vx, vy, s, ud, code)) return -1;
  return 0;
}

/* The search proper: 1 found, 0 no route, -1 out of memory, -2 a count
** outgrew 16 bits. */
static inline __attribute__((always_inline)) int run(struct grid_jump *j, const ctx *c,
                                                     const int astar, uint32_t start,
                                                     uint64_t *expanded) {
  const int32_t pw = c->pw;
  const uint8_t *cls = c->cls;
  jcell *cells = j->cell;
  const uint32_t gen = j->gen << PARENT_BITS;
  uint64_t pops = 0;
  j->len = 0, j->heaped = 0;
  cells[start] = (jcell){0, start | gen};
  if (!heap_push(j, (jentry){0, start | DIR_START << CELL_BITS, 0})) return -1;
  while (j->len) {
    const jentry e = heap_pop(j);
    const uint32_t u = e.cell & CELL_MASK;
    if (cells[u].g != e.g) continue; /* stale: u was queued again with a lower g */
    pops++;
    if (u == c->goal) {
      *expanded = pops;
      return 1;
    }
    /* a multiply, not a division (GRIDBIDIR_MAX_CELLS keeps cells, pw < 2^21) */
    const uint32_t uy = (uint32_t)(((uint64_t)u * c->recip) >> 42), ux = u - uy * (uint32_t)pw;
    const int adx = (int)(e.cell >> CELL_BITS) / 3 - 1, ady = (int)(e.cell >> CELL_BITS) % 3 - 1;
    /* the directions to scan, as a bit per (dx + 1) * 3 + (dy + 1) */
    unsigned dirs;
#define DBIT(dx, dy) (1u << (((dx) + 1) * 3 + ((dy) + 1)))
    if (adx == 0 && ady == 0) {
      dirs = 0x1ffu & ~DBIT(0, 0);
    } else if (ady == 0) {
      dirs = DBIT(adx, 0);
      if (!cls[u + pw]) dirs |= DBIT(adx, 1);
      if (!cls[u - pw]) dirs |= DBIT(adx, -1);
    } else if (adx == 0) {
      dirs = DBIT(0, ady);
      if (!cls[u + 1]) dirs |= DBIT(1, ady);
      if (!cls[u - 1]) dirs |= DBIT(-1, ady);
    } else {
      dirs = DBIT(adx, 0) | DBIT(0, ady) | DBIT(adx, ady);
      if (!cls[u - adx]) dirs |= DBIT(-adx, ady);
      if (!cls[u - ady * pw]) dirs |= DBIT(adx, -ady);
    }
#undef DBIT
    const uint32_t us = e.g & 0xffffu, ud = e.g >> 16;
    while (dirs) {
      const unsigned code = (unsigned)__builtin_ctz(dirs);
      dirs &= dirs - 1;
      int r;
      switch (code) {
      case 0: r = expand_dir(j, c, astar, u, ux, uy, us, ud, -1, -1, &pops); break;
      case 1: r = expand_dir(j, c, astar, u, ux, uy, us, ud, -1, 0, &pops); break;
      case 2: r = expand_dir(j, c, astar, u, ux, uy, us, ud, -1, 1, &pops); break;
      case 3: r = expand_dir(j, c, astar, u, ux, uy, us, ud, 0, -1, &pops); break;
      case 5: r = expand_dir(j, c, astar, u, ux, uy, us, ud, 0, 1, &pops); break;
      case 6: r = expand_dir(j, c, astar, u, ux, uy, us, ud, 1, -1, &pops); break;
      case 7: r = expand_dir(j, c, astar, u, ux, uy, us, ud, 1, 0, &pops); break;
      default: r = expand_dir(j, c, astar, u, ux, uy, us, ud, 1, 1, &pops); break;
      }
      if (r) return r;
    }
  }
  *expanded = pops;
  return 0;
}

/* A* and Dijkstra, each with its own copy of the search. */
static int run_astar(struct grid_jump *j, const ctx *c, uint32_t start, uint64_t *expanded) {
  return run(j, c, 1, start, expanded);
}

static int run_dijkstra(struct grid_jump *j, const ctx *c, uint32_t start, uint64_t *expanded) {
  return run(j, c, 0, start, expanded);
}

int gridjump_run(struct grid_jump **jp, const uint8_t *cls, uint32_t pw, uint32_t ph,
                 uint64_t serial, int astar, int sx, int sy, int gx, int gy, double cell_cost,
                 strata_path *out, uint64_t *expanded) {
  const uint32_t n = pw * ph;
  if (n > GRIDBIDIR_MAX_CELLS) return -2; /* run()'s division by multiply needs cells < 2^21 */
  struct grid_jump *j = *jp;
  if (j == NULL && (j = *jp = strata_calloc(1, sizeof *j)) == NULL) return -1;
  if (!build_bits(j, cls, pw, ph, serial)) return -1;
  if (n > j->cap) {
    jcell *cells = strata_calloc(n, sizeof *cells);
    if (cells == NULL) return -1;
    strata_free(j->cell);
    j->cell = cells, j->cap = n, j->gen = 0;
  }
  if (++j->gen > GEN_MAX) { /* 2047 searches: clear the stamps once */
    memset(j->cell, 0, (size_t)j->cap * sizeof *j->cell);
    j->gen = 1;
  }
  out->len = 0;
  out->cost = 0;
  const uint32_t start = (uint32_t)(sy + 1) * pw + (uint32_t)(sx + 1);
  const ctx c = {j, cls, (int32_t)pw, ((uint64_t)1 << 42) / pw + 1, (uint32_t)gx + 1, (uint32_t)gy + 1,
                 (uint32_t)(gy + 1) * pw + (uint32_t)(gx + 1)};
  *expanded = 0;
  if (!cls[start] || !cls[c.goal]) return 0;
  int r = astar ? run_astar(j, &c, start, expanded) : run_dijkstra(j, &c, start, expanded);
  if (r <= 0) return r;
  /* The route, from the goal back along the parents, filling the straight
  ** or diagonal line between each jump point and its parent, written from
  ** the back: its length is known from g. A parent's g only drops after a
  ** child records it (see the diagonal walk), so the route costs at most
  ** g(goal), which is optimal: it costs exactly that, and as sqrt 2 is
  ** irrational it has exactly g's straight and diagonal steps. */
  const uint32_t gg = j->cell[c.goal].g, straight = gg & 0xffffu, diagonal = gg >> 16;
  const int32_t width = (int32_t)pw - 2;
  const size_t len = (size_t)straight + diagonal + 1;
  if (len > out->cap) {
    uint32_t *nodes = strata_realloc(out->nodes, len * sizeof *nodes);
    if (nodes == NULL) return -1;
    out->nodes = nodes, out->cap = len;
  }
  uint32_t *const nodes = out->nodes;
  size_t i = len;
  uint32_t v = c.goal, x = c.gx, y = c.gy;
  uint32_t at = (y - 1) * (uint32_t)width + (x - 1); /* map index of (x, y) */
  nodes[--i] = at;
  while (v != start) {
    const uint32_t p = j->cell[v].ps & PARENT_MASK;
    const uint32_t py = (uint32_t)(((uint64_t)p * c.recip) >> 42), px = p - py * pw;
    const int32_t dx = px > x ? 1 : px < x ? -1 : 0, dy = py > y ? 1 : py < y ? -1 : 0;
    const int32_t step = dy * width + dx;
    uint32_t k = px != x ? (px > x ? px - x : x - px) : (py > y ? py - y : y - py);
    for (; k; k--) nodes[--i] = at = (uint32_t)((int32_t)at + step);
    x = px, y = py, v = p;
  }
  out->len = len;
  out->cost = cell_cost * ((double)straight + M_SQRT2 * (double)diagonal);
  return 1;
}
