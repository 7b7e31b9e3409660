/* gridflood.h - searches on maps whose passable cells all cost the same
** (gridflood.c); the fast grid engine (gridsearch.c) owns the workspace. */
#ifndef STRATA_GRIDFLOOD_H
#define STRATA_GRIDFLOOD_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "strata/path.h"

/* Routes are walked back from one end: each engine appends the cells with
** grid_route_add (len counts them; 0 when out of memory) and turns the
** walk around with grid_route_reverse. */
static inline int grid_route_add(strata_path *out, size_t *len, uint32_t node) {
  if (*len == out->cap) {
    size_t cap = out->cap ? out->cap * 2 : 256;
    uint32_t *nodes = realloc(out->nodes, cap * sizeof *nodes);
    if (nodes == NULL) return 0;
    out->nodes = nodes, out->cap = cap;
  }
  out->nodes[(*len)++] = node;
  return 1;
}

static inline void grid_route_reverse(uint32_t *nodes, size_t len) {
  for (size_t i = 0, j = len - 1; len > 1 && i < j; i++, j--) {
    uint32_t t = nodes[i];
    nodes[i] = nodes[j], nodes[j] = t;
  }
}

struct grid_flood;

void gridflood_free(struct grid_flood *f); /* NULL is accepted */
size_t gridflood_memory(const struct grid_flood *f);

typedef enum gridflood_kind {
  GRIDFLOOD_BFS,        /* fewest steps (Dijkstra too when every step costs the same) */
  GRIDFLOOD_TWO_QUEUES, /* Dijkstra, 8 neighbours, diagonal steps dearer (diag != 1) */
  GRIDFLOOD_ASTAR,      /* A*, 4 neighbours or 8 with diag == 1 */
  GRIDFLOOD_ASTAR_DIAG  /* A*, 8 neighbours, diag != 1 */
} gridflood_kind;

/* Searches the padded class grid cls (pw x ph, one class: 1 passable, 0
** wall) from (sx, sy) to (gx, gy), map coordinates; a step into a cell costs
** cell_cost, times diag when diagonal. *f is created on first use and
** reused. Fills out (map indices, cost) and *expanded; returns 1 found, 0 no
** route, -1 out of memory. */
int gridflood_run(struct grid_flood **f, const uint8_t *cls, uint32_t pw, uint32_t ph,
                  gridflood_kind kind, int eight, double diag, int sx, int sy, int gx, int gy,
                  double cell_cost, strata_path *out, uint64_t *expanded);

/* Bidirectional Dijkstra (astar 0) or A* (astar 1) with 8 neighbours and
** diagonal steps of cost sqrt 2 on the same class grid (gridbidir.c), for
** grids of at most GRIDBIDIR_MAX_CELLS padded cells whose start is
** passable. *b is created on first use and reused. Same results as
** gridflood_run, except -2: a route needed more than 65534 straight or
** diagonal steps from one end (the caller then searches another way). */
#define GRIDBIDIR_MAX_CELLS (1u << 21)
struct grid_bidir;
void gridbidir_free(struct grid_bidir *b); /* NULL is accepted */
size_t gridbidir_memory(const struct grid_bidir *b);
int gridbidir_run(struct grid_bidir **b, const uint8_t *cls, uint32_t pw, uint32_t ph, int astar,
                  int sx, int sy, int gx, int gy, double cell_cost, strata_path *out,
                  uint64_t *expanded);

/* Jump point search (gridjump.c) as A* (astar 1) or Dijkstra (astar 0), 8
** neighbours, diagonal sqrt 2, on the same class grid. serial names the
** grid's contents: the bitsets made from it are rebuilt when it changes.
** Same results as gridbidir_run, -2 included. */
struct grid_jump;
void gridjump_free(struct grid_jump *j); /* NULL is accepted */
size_t gridjump_memory(const struct grid_jump *j);
/* Builds the bitsets if needed and returns the dispatch's measure of the
** map: cells with a forced neighbour for a straight scan per run of
** passable cells in a row (low: walls in long lines; high: scattered
** walls); -1 when out of memory. */
double gridjump_forced_per_run(struct grid_jump **j, const uint8_t *cls, uint32_t pw,
                               uint32_t ph, uint64_t serial);
int gridjump_run(struct grid_jump **j, const uint8_t *cls, uint32_t pw, uint32_t ph,
                 uint64_t serial, int astar, int sx, int sy, int gx, int gy, double cell_cost,
                 strata_path *out, uint64_t *expanded);

#endif
