/*
** gridgen.h - grid workloads made by strata's own code, for test_workloads.c
** and spec/bench/bench_gridgen.c: maps of floor ('.') and wall ('#'), a start
** and a goal, and their optima from a plain reference Dijkstra that shares
** nothing with the engines under test.
**
** Three kinds, after the peers' benchmark workloads:
** - open:  each cell a wall with probability 1/5, independently.
** - maze:  a perfect maze (one route between any two cells), dug by a
**          depth-first walk over the cells at odd coordinates; corridors one
**          cell wide, so routes are long.
** - rooms: the map cut into 16x16 blocks; most blocks get a room of 4 to 13
**          cells a side, the others a single floor cell; blocks joined by
**          L-shaped corridors one cell wide along a random spanning tree,
**          plus about one extra link in ten (so there are loops).
** Randomness comes from strata_rng streams named after the kind and size, so
** a (kind, width, height, seed) always gives the same map.
**
** Start: the floor cell nearest the top-left corner (least x + y, then least
** y) whose 4-connected component holds at least half the floor; goal: the
** cell of that component nearest the bottom-right corner (greatest x + y,
** then greatest y). A diagonal step is legal whenever its destination is
** floor (corners may be cut), as in strata, libtcod and rot.js.
*/
#ifndef STRATA_GRIDGEN_H
#define STRATA_GRIDGEN_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/rng.h"

typedef struct gridgen_map {
  int w, h;
  char *cells; /* w * h bytes, row-major: '.' floor, '#' wall */
  int sx, sy, gx, gy;
  long passable, component; /* floor cells; cells in start's 4-component */
} gridgen_map;

static void gridgen_rect(gridgen_map *m, int x0, int y0, int x1, int y1) {
  if (x0 > x1) { int t = x0; x0 = x1; x1 = t; }
  if (y0 > y1) { int t = y0; y0 = y1; y1 = t; }
  for (int y = y0; y <= y1; y++) memset(m->cells + (size_t)y * (size_t)m->w + (size_t)x0, '.', (size_t)(x1 - x0 + 1));
}

static void gridgen_open(gridgen_map *m, strata_rng *r) {
  for (size_t i = 0; i < (size_t)m->w * (size_t)m->h; i++) m->cells[i] = strata_rng_chance(r, 0.2) ? '#' : '.';
}

static int gridgen_maze(gridgen_map *m, strata_rng *r) {
  const int cw = (m->w - 1) / 2, ch = (m->h - 1) / 2;
  if (cw < 1 || ch < 1) return 0;
  memset(m->cells, '#', (size_t)m->w * (size_t)m->h);
  char *seen = calloc((size_t)cw * (size_t)ch, 1);
  int *stack = malloc((size_t)cw * (size_t)ch * sizeof *stack);
  if (seen == NULL || stack == NULL) return free(seen), free(stack), 0;
  int top = 0;
  stack[top++] = 0, seen[0] = 1, m->cells[m->w + 1] = '.';
  while (top > 0) {
    const int c = stack[top - 1], cx = c % cw, cy = c / cw;
    int next[4], n = 0;
    if (cx > 0 && !seen[c - 1]) next[n++] = c - 1;
    if (cx < cw - 1 && !seen[c + 1]) next[n++] = c + 1;
    if (cy > 0 && !seen[c - cw]) next[n++] = c - cw;
    if (cy < ch - 1 && !seen[c + cw]) next[n++] = c + cw;
    if (n == 0) {
      top--;
      continue;
    }
    const int d = next[strata_rng_below(r, (uint64_t)n)], dx = d % cw, dy = d / cw;
    seen[d] = 1;
    /* the wall between the two cells, then the new cell */
    m->cells[(size_t)(cy + dy + 1) * (size_t)m->w + (size_t)(cx + dx + 1)] = '.';
    m->cells[(size_t)(2 * dy + 1) * (size_t)m->w + (size_t)(2 * dx + 1)] = '.';
    stack[top++] = d;
  }
  free(seen);
  free(stack);
  return 1;
}

/* An L-shaped corridor between two anchors, one leg or the other first. */
static void gridgen_corridor(gridgen_map *m, strata_rng *r, const int *a, const int *b) {
  if (strata_rng_chance(r, 0.5)) {
    gridgen_rect(m, a[0], a[1], b[0], a[1]);
    gridgen_rect(m, b[0], a[1], b[0], b[1]);
  } else {
    gridgen_rect(m, a[0], a[1], a[0], b[1]);
    gridgen_rect(m, a[0], b[1], b[0], b[1]);
  }
}

static int gridgen_rooms(gridgen_map *m, strata_rng *r) {
  enum { BLOCK = 16 };
  const int bw = m->w - 2 >= BLOCK ? (m->w - 2) / BLOCK : 1, bh = m->h - 2 >= BLOCK ? (m->h - 2) / BLOCK : 1;
  int inner = BLOCK - 1; /* room for a room inside a block, leaving a wall line */
  if (inner > m->w - 2) inner = m->w - 2;
  if (inner > m->h - 2) inner = m->h - 2;
  if (inner < 1) return 0;
  const int n = bw * bh;
  memset(m->cells, '#', (size_t)m->w * (size_t)m->h);
  int *anchor = malloc((size_t)n * 2 * sizeof *anchor), *stack = malloc((size_t)n * sizeof *stack);
  char *seen = calloc((size_t)n, 1), *linked = calloc((size_t)n, 2); /* right, down */
  if (!anchor || !stack || !seen || !linked) return free(anchor), free(stack), free(seen), free(linked), 0;
  for (int b = 0; b < n; b++) {
    const int ox = 1 + (b % bw) * BLOCK, oy = 1 + (b / bw) * BLOCK;
    int *a = anchor + 2 * b;
    if (inner >= 4 && strata_rng_chance(r, 0.85)) {
      const int rw = (int)strata_rng_int(r, 4, inner - 2 > 4 ? inner - 2 : 4);
      const int rh = (int)strata_rng_int(r, 4, inner - 2 > 4 ? inner - 2 : 4);
      const int rx = ox + (int)strata_rng_int(r, 0, inner - rw), ry = oy + (int)strata_rng_int(r, 0, inner - rh);
      gridgen_rect(m, rx, ry, rx + rw - 1, ry + rh - 1);
      a[0] = rx + (int)strata_rng_below(r, (uint64_t)rw), a[1] = ry + (int)strata_rng_below(r, (uint64_t)rh);
    } else {
      a[0] = ox + (int)strata_rng_below(r, (uint64_t)inner), a[1] = oy + (int)strata_rng_below(r, (uint64_t)inner);
      m->cells[(size_t)a[1] * (size_t)m->w + (size_t)a[0]] = '.';
    }
  }
  /* the spanning tree: a depth-first walk over the blocks */
  int top = 0;
  stack[top++] = 0, seen[0] = 1;
  while (top > 0) {
    const int c = stack[top - 1], cx = c % bw, cy = c / bw;
    int next[4], k = 0;
    if (cx > 0 && !seen[c - 1]) next[k++] = c - 1;
    if (cx < bw - 1 && !seen[c + 1]) next[k++] = c + 1;
    if (cy > 0 && !seen[c - bw]) next[k++] = c - bw;
    if (cy < bh - 1 && !seen[c + bw]) next[k++] = c + bw;
    if (k == 0) {
      top--;
      continue;
    }
    const int d = next[strata_rng_below(r, (uint64_t)k)];
    seen[d] = 1;
    const int lo = c < d ? c : d;
    linked[2 * lo + (abs(d - c) == 1 ? 0 : 1)] = 1;
    gridgen_corridor(m, r, anchor + 2 * c, anchor + 2 * d);
    stack[top++] = d;
  }
  /* extra links, for loops */
  for (int c = 0; c < n; c++) {
    if (c % bw < bw - 1 && !linked[2 * c] && strata_rng_chance(r, 0.1))
      gridgen_corridor(m, r, anchor + 2 * c, anchor + 2 * (c + 1));
    if (c / bw < bh - 1 && !linked[2 * c + 1] && strata_rng_chance(r, 0.1))
      gridgen_corridor(m, r, anchor + 2 * c, anchor + 2 * (c + bw));
  }
  free(anchor), free(stack), free(seen), free(linked);
  return 1;
}

/* The 4-connected component of cell s: marks it with `mark` in comp and
** returns its size; its cells are left in queue[0..size). */
static long gridgen_component(const gridgen_map *m, int *comp, int mark, int s, int *queue) {
  long head = 0, tail = 0;
  comp[s] = mark, queue[tail++] = s;
  while (head < tail) {
    const int c = queue[head++], x = c % m->w, y = c / m->w;
    const int nb[4] = {x > 0 ? c - 1 : -1, x < m->w - 1 ? c + 1 : -1, y > 0 ? c - m->w : -1,
                       y < m->h - 1 ? c + m->w : -1};
    for (int k = 0; k < 4; k++)
      if (nb[k] >= 0 && m->cells[nb[k]] == '.' && comp[nb[k]] == 0) comp[nb[k]] = mark, queue[tail++] = nb[k];
  }
  return tail;
}

static int gridgen_endpoints(gridgen_map *m) {
  const int w = m->w, h = m->h;
  m->passable = 0;
  for (size_t i = 0; i < (size_t)w * (size_t)h; i++) m->passable += m->cells[i] == '.';
  int *comp = calloc((size_t)w * (size_t)h, sizeof *comp), *queue = malloc((size_t)w * (size_t)h * sizeof *queue);
  if (comp == NULL || queue == NULL) return free(comp), free(queue), 0;
  int found = 0, mark = 0;
  for (int d = 0; d <= w + h - 2 && !found; d++)
    for (int y = 0; y < h && !found; y++) {
      const int x = d - y;
      if (x < 0 || x >= w || m->cells[y * w + x] != '.' || comp[y * w + x] != 0) continue;
      const long size = gridgen_component(m, comp, ++mark, y * w + x, queue);
      if (2 * size < m->passable) continue;
      found = 1, m->component = size, m->sx = x, m->sy = y;
      int best = queue[0];
      for (long i = 1; i < size; i++) {
        const int c = queue[i], cs = c % w + c / w, bs = best % w + best / w;
        if (cs > bs || (cs == bs && c / w > best / w)) best = c;
      }
      m->gx = best % w, m->gy = best / w;
    }
  free(comp);
  free(queue);
  return found;
}

static void gridgen_free(gridgen_map *m) {
  free(m->cells);
  m->cells = NULL;
}

/* Makes the map of the given kind ("open", "maze" or "rooms"); 0 on failure
** (an unknown kind, a map too small for it, no memory). */
static int gridgen_make(gridgen_map *m, const char *kind, int w, int h, uint64_t seed) {
  memset(m, 0, sizeof *m);
  if (w < 3 || h < 3) return 0;
  m->w = w, m->h = h;
  if ((m->cells = malloc((size_t)w * (size_t)h)) == NULL) return 0;
  char key[96];
  int len = snprintf(key, sizeof key, "gridgen:%s:%dx%d", kind, w, h);
  strata_rng r;
  strata_rng_stream(&r, seed, key, (size_t)len);
  int ok = strcmp(kind, "open") == 0    ? (gridgen_open(m, &r), 1)
           : strcmp(kind, "maze") == 0  ? gridgen_maze(m, &r)
           : strcmp(kind, "rooms") == 0 ? gridgen_rooms(m, &r)
                                        : 0;
  if (!ok || !gridgen_endpoints(m)) return gridgen_free(m), 0;
  return 1;
}

/* ---- the reference: a textbook Dijkstra with a binary heap ---------------- */

typedef struct gridgen_item {
  double d;
  int cell;
} gridgen_item;

/* The least cost from start to goal: 4 or 8 neighbours, straight steps of
** cost 1 and diagonal ones of cost diag; -1 when the goal is out of reach. */
static double gridgen_optimum(const gridgen_map *m, int eight, double diag) {
  const int w = m->w, h = m->h, n = w * h, start = m->sy * w + m->sx, goal = m->gy * w + m->gx;
  double *dist = malloc((size_t)n * sizeof *dist);
  size_t cap = 1024, len = 0;
  gridgen_item *heap = malloc(cap * sizeof *heap);
  if (dist == NULL || heap == NULL) return free(dist), free(heap), -2;
  for (int i = 0; i < n; i++) dist[i] = INFINITY;
  dist[start] = 0, heap[len++] = (gridgen_item){0, start};
  double found = -1;
  while (len > 0) {
    const gridgen_item top = heap[0];
    heap[0] = heap[--len]; /* sift the last item down from the root */
    for (size_t i = 0;;) {
      size_t l = 2 * i + 1, s = i;
      if (l < len && heap[l].d < heap[s].d) s = l;
      if (l + 1 < len && heap[l + 1].d < heap[s].d) s = l + 1;
      if (s == i) break;
      gridgen_item t = heap[i];
      heap[i] = heap[s], heap[s] = t, i = s;
    }
    if (top.d > dist[top.cell]) continue; /* stale */
    if (top.cell == goal) {
      found = top.d;
      break;
    }
    const int x = top.cell % w, y = top.cell / w;
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        if ((dx == 0 && dy == 0) || (!eight && dx != 0 && dy != 0)) continue;
        const int nx = x + dx, ny = y + dy, v = ny * w + nx;
        if (nx < 0 || ny < 0 || nx >= w || ny >= h || m->cells[v] != '.') continue;
        const double nd = top.d + (dx != 0 && dy != 0 ? diag : 1);
        if (nd >= dist[v]) continue;
        dist[v] = nd;
        if (len == cap) {
          gridgen_item *more = realloc(heap, 2 * cap * sizeof *heap);
          if (more == NULL) return free(dist), free(heap), -2;
          heap = more, cap *= 2;
        }
        size_t i = len++; /* sift up */
        while (i > 0 && heap[(i - 1) / 2].d > nd) heap[i] = heap[(i - 1) / 2], i = (i - 1) / 2;
        heap[i] = (gridgen_item){nd, v};
      }
  }
  free(dist);
  free(heap);
  return found;
}

#endif
