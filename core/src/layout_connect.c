/*
** layout_connect.c - Connect's searches when every cost is a whole number
** (KeeperRL's corpus: 1 for a cell no element governs, 4 to 1000 else).
**
** The search is layout_run.c's A* step for step: the same expansions in the
** same order (lower f first, then the larger column-major cell), costs asked
** for at the same moments (a predicate may draw), the same tentative
** distances, so the same corridors. What differs is the bookkeeping, as the
** searches are most of the time of most layouts (300 per Connect):
** - whole-number distances, and a heap of one 64-bit key per entry, f above
**   the cell's complement, so that an entry's order is one comparison;
** - a border of impassable cells around the area, so that a neighbour needs
**   no bounds test (its index keeps the column-major order);
** - one word per cell for discovered and closed, valid for one search;
** - no parent links: with costs of 1 or more, a cell's parent always has a
**   smaller distance than the cell, so the walk back (the neighbour with the
**   strictly smallest distance) never falls back on it.
**
** The walk back is a shortest path: the search's cells all have g at least
** their distance (closed ones exactly it), and a cell's parent has exactly
** its distance less its cost, so each step lands on a cell with g equal to
** its distance. lg_search_straight uses that: when a staircase of cost-1
** cells joins the two ends, every shortest path costs one per cell, so the
** path the search would give is made of cost-1 cells only.
*/
#include <stdlib.h>
#include <string.h>

#include "layout_internal.h"
#include "strata/alloc.h"

struct lg_search {
  int aw, ah, S;          /* area, and the padded column's length (ah + 2) */
  size_t np;              /* padded cells */
  int32_t *cost;          /* >= 0 the cost to enter, LG_IMPASSABLE, or LG_UNKNOWN */
  uint32_t *cost_gen;     /* not keeping costs: cost[] is valid when this is gen */
  uint32_t *seen;         /* 2 gen: discovered in this search; 2 gen + 1: closed */
  int32_t *g;
  uint64_t *heap;
  size_t nheap;
  uint32_t gen;
  lg_cost_fn cost_of;
  void *ctx;
  /* Keeping costs: per column of the area (nw words each), a bit per cell
  ** whose cost is kept and is 1 (lg_search_straight). */
  uint64_t *one;
  int nw;
};

#define LG_UNKNOWN (-2)
#define LG_BORDER (-3)

lg_search *lg_search_new(int aw, int ah, int keep_costs, lg_cost_fn cost_of, void *ctx) {
  lg_search *s = strata_calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->aw = aw, s->ah = ah, s->S = ah + 2, s->cost_of = cost_of, s->ctx = ctx;
  s->np = (size_t)(aw + 2) * (size_t)(ah + 2);
  s->cost = strata_malloc(s->np * sizeof *s->cost);
  s->seen = strata_calloc(s->np, sizeof *s->seen);
  s->g = strata_malloc(s->np * sizeof *s->g);
  s->heap = strata_malloc((4 * (size_t)aw * ah + 16) * sizeof *s->heap);
  if (!keep_costs) s->cost_gen = strata_calloc(s->np, sizeof *s->cost_gen);
  s->nw = (ah + 63) / 64;
  if (keep_costs) s->one = strata_calloc((size_t)aw * (size_t)s->nw, sizeof *s->one);
  if (!s->cost || !s->seen || !s->g || !s->heap || (!keep_costs && !s->cost_gen) || (keep_costs && !s->one)) {
    lg_search_free(s);
    return NULL;
  }
  for (size_t p = 0; p < s->np; p++) s->cost[p] = LG_UNKNOWN;
  /* the border: columns 0 and aw + 1, rows 0 and ah + 1 */
  for (int y = 0; y < s->S; y++) s->cost[y] = s->cost[(size_t)(aw + 1) * s->S + y] = LG_BORDER;
  for (int x = 0; x < aw + 2; x++) s->cost[(size_t)x * s->S] = s->cost[(size_t)x * s->S + ah + 1] = LG_BORDER;
  return s;
}

void lg_search_free(lg_search *s) {
  if (s == NULL) return;
  strata_free(s->cost), strata_free(s->cost_gen), strata_free(s->seen), strata_free(s->g), strata_free(s->heap);
  strata_free(s->one), strata_free(s);
}

static inline uint64_t *one_word(const lg_search *s, int i, int j) {
  return &s->one[(size_t)i * (size_t)s->nw + (size_t)(j >> 6)];
}

void lg_search_forget(lg_search *s, int i, int j) {
  s->cost[(size_t)(i + 1) * s->S + (size_t)(j + 1)] = LG_UNKNOWN;
  *one_word(s, i, j) &= ~((uint64_t)1 << (j & 63));
}

int32_t lg_search_cost(const lg_search *s, int i, int j) {
  return s->cost[(size_t)(i + 1) * s->S + (size_t)(j + 1)];
}

/* Column i's bits of rows [y0, y0 + h), h <= 64, from bit 0. */
static uint64_t one_window(const lg_search *s, int i, int y0, int h) {
  const uint64_t *col = one_word(s, i, y0);
  int off = y0 & 63;
  uint64_t w = col[0] >> off;
  if (off && off + h > 64) w |= col[1] << (64 - off);
  return h == 64 ? w : w & (((uint64_t)1 << h) - 1);
}

/* The cells of p reached from g along runs of p, towards higher bits (up)
** or lower ones: a fill in six steps of doubling length. */
static uint64_t fill(uint64_t g, uint64_t p, int up) {
  for (int k = 1; k < 64; k *= 2) {
    if (up) g |= p & (g << k), p &= p << k;
    else g |= p & (g >> k), p &= p >> k;
  }
  return g;
}

int lg_search_straight(const lg_search *s, int i1, int j1, int i2, int j2) {
  int y0 = j1 < j2 ? j1 : j2, h = abs(j1 - j2) + 1, di = i2 >= i1 ? 1 : -1, up = j2 >= j1;
  if (s->one == NULL || h > 64) return 0;
  uint64_t reach = (uint64_t)1 << (j1 - y0), goal = (uint64_t)1 << (j2 - y0);
  for (int i = i1;; i += di) {
    uint64_t ones = one_window(s, i, y0, h);
    if (i != i1) reach &= ones; /* a step across, onto a cost-1 cell */
    if ((reach = fill(reach, ones, up)) == 0) return 0;
    if (i == i2) return (reach & goal) != 0;
  }
}

static inline uint64_t key(int32_t f, uint32_t cell) { return (uint64_t)(uint32_t)f << 32 | (0xffffffffu - cell); }

static inline void push(lg_search *s, uint64_t k) {
  size_t i = s->nheap++;
  uint64_t *h = s->heap;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (h[up] <= k) break;
    h[i] = h[up], i = up;
  }
  h[i] = k;
}

static inline uint64_t pop(lg_search *s) {
  uint64_t *h = s->heap, top = h[0], last = h[--s->nheap];
  size_t i = 0, n = s->nheap;
  for (;;) {
    size_t k = 2 * i + 1;
    if (k >= n) break;
    k += k + 1 < n && h[k + 1] < h[k];
    if (h[k] >= last) break;
    h[i] = h[k], i = k;
  }
  if (n) h[i] = last;
  return top;
}

int lg_search_path(lg_search *s, int i1, int j1, int i2, int j2, int32_t *path, size_t *len) {
  if (s->gen >= 0x7ffffff0u) { /* the stamps would wrap: start them again */
    memset(s->seen, 0, s->np * sizeof *s->seen);
    if (s->cost_gen) memset(s->cost_gen, 0, s->np * sizeof *s->cost_gen);
    s->gen = 0;
  }
  uint32_t gen = ++s->gen, open = 2 * gen, closed = 2 * gen + 1;
  int S = s->S;
  uint32_t p1 = (uint32_t)((i1 + 1) * S + j1 + 1), p2 = (uint32_t)((i2 + 1) * S + j2 + 1);
  int gx = i2 + 1, gy = j2 + 1;
  int32_t *cost = s->cost, *g = s->g;
  uint32_t *seen = s->seen;
  /* up, down, right, left: KeeperRL's order */
  const int32_t off[4] = {-1, 1, S, -S};
  const int dx[4] = {0, 0, 1, -1}, dy[4] = {-1, 1, 0, 0};
  s->nheap = 0;
  seen[p1] = open, g[p1] = 0;
  push(s, key(abs(i1 - i2) + abs(j1 - j2), p1));
  int found = 0;
  while (s->nheap > 0) {
    uint32_t u = 0xffffffffu - (uint32_t)pop(s);
    if (seen[u] == closed) continue;
    seen[u] = closed;
    if (u == p2) {
      found = 1;
      break;
    }
    int ux = (int)u / S, uy = (int)u % S;
    for (int d = 0; d < 4; d++) {
      uint32_t v = u + (uint32_t)off[d];
      int32_t c = cost[v];
      if (c == LG_BORDER) continue;
      if (s->cost_gen ? s->cost_gen[v] != gen : c == LG_UNKNOWN) {
        c = cost[v] = s->cost_of(s->ctx, ux + dx[d] - 1, uy + dy[d] - 1);
        if (s->cost_gen) s->cost_gen[v] = gen;
        else if (c == 1) *one_word(s, ux + dx[d] - 1, uy + dy[d] - 1) |= (uint64_t)1 << ((uy + dy[d] - 1) & 63);
      }
      if (c < 0) continue;
      int32_t ng = g[u] + c;
      uint32_t sv = seen[v];
      if (sv == closed || (sv == open && ng >= g[v])) continue;
      seen[v] = open, g[v] = ng;
      push(s, key(ng + abs(ux + dx[d] - gx) + abs(uy + dy[d] - gy), v));
    }
  }
  *len = 0;
  if (!found) return 0;
  /* Back from p2: at each step the neighbour (up, down, right, left) with
  ** the strictly smallest tentative distance. */
  size_t n = 0;
  for (uint32_t v = p2; v != p1;) {
    path[n++] = (int32_t)((v / (uint32_t)S - 1) * (uint32_t)s->ah + (v % (uint32_t)S - 1));
    int32_t best = g[v];
    uint32_t next = v;
    for (int d = 0; d < 4; d++) {
      uint32_t w = v + (uint32_t)off[d];
      if (seen[w] >= open && g[w] < best) best = g[w], next = w;
    }
    if (next == v) break; /* cannot happen with costs of 1 or more */
    v = next;
  }
  *len = n;
  return 1;
}
