/*
** gridengine.h - the search engines of tile maps, and what they share.
**
** A search on a tile map (strata_grid_search_run) is answered by one engine
** of the table in gridengine.c: the first whose rule admits the map and the
** request. Each engine lives in its own file and keeps its own workspace in
** the search object; this header declares them all, with the padded class
** grid they search and the route helpers they use.
**
**   gridjump.c    jump point search (8 neighbours, diagonal sqrt 2, walls in lines)
**   gridjunction.c  over the junctions of corridors (4 neighbours, or 8 with
**                 diagonal sqrt 2 or 1: mazes)
**   gridbidir.c   A* from both ends (8 neighbours, diagonal sqrt 2), which
**                 answers Dijkstra requests too (the guided engine)
**   gridflood.c   one-cost maps: breadth-first, Dial's buckets, A* by f mod 4
**                 (at diagonal 1 over landmarks' fields kept per class grid);
**                 the share of corridor cells (the corridor engine's rule)
**   gridbucket.c  maps of a few whole-number costs: a ring of buckets
**   gridpath.c    any map: the generic engine of search_internal.h
*/
#ifndef STRATA_GRIDENGINE_H
#define STRATA_GRIDENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strata/path.h"
#include "strata/alloc.h"
#include "strata/tilemap.h"
#include "util.h"

/* ---- the class grid ---- */

/* Distinct passable costs a class grid can name (0xff marks "not cached"
** while it is built). */
#define GRID_MAX_CLASSES 254

/* The map padded with a border of walls, one byte per cell: 0 blocks, k > 0
** is the k-th distinct cost of entering the cell. Neighbours are index
** offsets with no bounds checks. Built by the search object from the map and
** rebuilt when the map or its token traits change. */
typedef struct grid_classes {
  uint8_t *cls;
  uint32_t pw, ph;                    /* width + 2, height + 2 */
  double cost[GRID_MAX_CLASSES + 1];  /* cost[0] = 0 */
  unsigned count;                     /* classes in use */
  int too_many;                       /* more distinct costs than that: cls is unusable */
  int integral;                       /* every cost a whole number <= 65535 */
  double min_cost, max_cost;
  uint64_t serial;                    /* counts rebuilds: names cls's contents */
} grid_classes;

/* The cost of each token id under t's traits (0: impassable) into *cost
** (index 0 too, 0), grown as needed; 0 on ENOMEM. */
int grid_token_costs(double **cost, uint32_t *cap, const strata_tokens *t);
/* Builds gc from m (cls grown or reused): 0 on ENOMEM; gc->too_many when m
** has more distinct costs than a class byte names. */
int grid_classes_build(grid_classes *gc, const strata_tilemap *m, const double *token_cost);
/* The class of cost c in gc (0 for c <= 0), added when new: -1 when gc
** names GRID_MAX_CLASSES costs already. */
int grid_class_of(grid_classes *gc, double c);

/* One request, checked: coordinates on the map, connectivity 4 or 8. */
typedef struct grid_query {
  const strata_tilemap *map;
  const double *token_cost;  /* cost per token id (0: impassable), for the generic engine */
  const grid_classes *g;     /* NULL when too_many (only the generic engine runs) */
  int x1, y1, x2, y2;
  strata_path_algorithm algorithm;
  int eight;
  double diag;               /* multiplier of a diagonal step (1 when !eight) */
  /* Per-search costs and actors (strata_grid_options): custom when either
  ** is asked for, and then only the generic engine runs. */
  int custom;
  strata_grid_cost_fn cost;
  void *cost_data;
  double cost_min;
  strata_grid_occupied occupied;
  double occupied_cost;
  strata_error *err;         /* where the generic engine says why it failed (-3) */
} grid_query;

/* The generic engine's answer per cell for a custom search, asked once a
** search: cost[i] is valid where stamp[i] == gen. Made on the first custom
** search, grown with the maps. */
typedef struct grid_cells {
  uint32_t *stamp;
  double *cost;
  uint32_t cap, gen;
} grid_cells;

/* ---- routes ---- */

/* Routes are walked back from one end: each engine appends the cells with
** grid_route_add (len counts them; 0 when out of memory) and turns the walk
** around with grid_route_reverse. */
static inline int grid_route_add(strata_path *out, size_t *len, uint32_t node) {
  /* the test first: a call per cell was an eighth of a search on a maze */
  if (*len >= out->cap && !STRATA_GROW(out->nodes, out->cap, *len + 1)) return 0;
  out->nodes[(*len)++] = node;
  return 1;
}

static inline void grid_route_reverse(uint32_t *nodes, size_t len) {
  for (size_t i = 0, j = len - 1; len > 1 && i < j; i++, j--) {
    uint32_t t = nodes[i];
    nodes[i] = nodes[j], nodes[j] = t;
  }
}

/* A byte per padded cell from a one-cost class grid: 0 passable, 0xff a
** wall (which then looks settled, queued and everything else). */
static inline void grid_marks_clear(uint8_t *mark, const uint8_t *cls, uint32_t n) {
  /* class 1 (passable) -> 0, class 0 (wall) -> 0xff: the byte minus one.
  ** Eight bytes at a time as (class ^ 1) * 0xff, which carries into no
  ** neighbouring byte: gcc -O2 leaves the byte loop scalar, and that was
  ** 3 % of a search. */
  uint32_t i = 0;
  for (; n - i >= 8; i += 8) {
    uint64_t c;
    memcpy(&c, cls + i, 8);
    c = (c ^ 0x0101010101010101ull) * 0xffu;
    memcpy(mark + i, &c, 8);
  }
  for (; i < n; i++) mark[i] = (uint8_t)(cls[i] - 1u);
}

/* ---- the engines ----
** Each returns 1 found (out filled: map indices and cost), 0 no route, -1
** out of memory, -2 gives up (a count outgrew its bits: the table's next
** engine runs), -3 failed (a custom search: STRATA_EARG, q->err says
** why). *state is the engine's workspace, made on first use. */

/* gridflood.c: maps of one cost (class grid of classes 0 and 1). */
struct grid_flood;
void gridflood_free(struct grid_flood *f); /* NULL is accepted */
size_t gridflood_memory(const struct grid_flood *f);
typedef enum gridflood_kind {
  GRIDFLOOD_BFS,        /* fewest steps (Dijkstra too when every step costs the same) */
  GRIDFLOOD_DIJKSTRA,   /* Dijkstra, 8 neighbours, diagonal steps dearer (diag > 1) */
  GRIDFLOOD_ASTAR       /* A*, 4 neighbours or 8 with diag == 1 */
} gridflood_kind;
/* serial names cls's contents: A* at 8 neighbours, diagonal 1, keeps its
** landmarks' fields of it (made again when it changes). */
int gridflood_run(struct grid_flood **f, const uint8_t *cls, uint32_t pw, uint32_t ph,
                  uint64_t serial, gridflood_kind kind, int eight, double diag, int sx, int sy,
                  int gx, int gy, double cell_cost, strata_path *out, uint64_t *expanded);

/* The share of the passable cells of a class grid that have exactly two
** passable neighbours of the four: corridors (a maze: 0.9; scattered walls
** or rooms: under 0.3). */
double gridflood_corridor_share(const uint8_t *cls, uint32_t pw, uint32_t ph);

/* gridbidir.c: A* from both ends, one cost, 8 neighbours, diagonal sqrt 2,
** at most GRIDBIDIR_MAX_CELLS padded cells, a passable start; it answers
** Dijkstra requests too (the same cost). -2 when a route needs more than
** 65534 steps of a kind from one end. */
#define GRIDBIDIR_MAX_CELLS (1u << 21)
struct grid_bidir;
void gridbidir_free(struct grid_bidir *b);
size_t gridbidir_memory(const struct grid_bidir *b);
int gridbidir_run(struct grid_bidir **b, const uint8_t *cls, uint32_t pw, uint32_t ph, int sx,
                  int sy, int gx, int gy, double cell_cost, strata_path *out, uint64_t *expanded);

/* gridjump.c: jump point search as A* (astar 1) or Dijkstra (astar 0), one
** cost, 8 neighbours, diagonal sqrt 2, at most GRIDBIDIR_MAX_CELLS cells.
** serial names the grid's contents: the bitsets made from it are rebuilt
** when it changes. -2 as gridbidir_run. */
struct grid_jump;
void gridjump_free(struct grid_jump *j);
size_t gridjump_memory(const struct grid_jump *j);
/* Builds the bitsets if needed and returns the table's measure of the map:
** cells with a forced neighbour for a straight scan per run of passable
** cells in a row (low: walls in long lines; high: scattered walls); -1 when
** out of memory. */
double gridjump_forced_per_run(struct grid_jump **j, const uint8_t *cls, uint32_t pw,
                               uint32_t ph, uint64_t serial);
int gridjump_run(struct grid_jump **j, const uint8_t *cls, uint32_t pw, uint32_t ph,
                 uint64_t serial, int astar, int sx, int sy, int gx, int gy, double cell_cost,
                 strata_path *out, uint64_t *expanded);

/* gridjunction.c: A* (astar 1) or Dijkstra over the junctions of a map of
** one cost, 8 neighbours (eight 1) with diagonal cost diag (sqrt 2 or 1: one
** graph serves both) or 4: corridors are chains between junctions, walked
** once per map and connectivity (serial as gridjump_run's). A workspace
** serves one connectivity at a time. */
struct grid_junction;
void gridjunction_free(struct grid_junction *j);
size_t gridjunction_memory(const struct grid_junction *j);
/* Builds the graph if needed and returns the table's measure of the map:
** junctions per passable cell (the maze: 0.2; open ground and rooms: most
** cells); -1 when out of memory. */
double gridjunction_share(struct grid_junction **j, int eight, const uint8_t *cls, uint32_t pw,
                          uint32_t ph, uint64_t serial);
int gridjunction_run(struct grid_junction **j, int eight, double diag, const uint8_t *cls,
                     uint32_t pw, uint32_t ph, uint64_t serial, int astar, int sx, int sy, int gx,
                     int gy, double cell_cost, strata_path *out, uint64_t *expanded);

/* gridbucket.c: A* with every step alike (4 neighbours, or diagonal 1) and
** Dijkstra, on maps of at most GRID_MAX_CLASSES whole-number costs, with
** the keys in a ring of buckets. */
struct grid_bucket;
void gridbucket_free(struct grid_bucket *b);
size_t gridbucket_memory(const struct grid_bucket *b);
/* Whether it serves q: such costs, such a request, and keys that span few
** enough buckets for the ring. */
int gridbucket_fits(const grid_query *q);
int gridbucket_run(struct grid_bucket **b, const grid_query *q, strata_path *out,
                   uint64_t *expanded);

/* gridpath.c: the generic engine (search_internal.h) over the map's cells:
** any map, any algorithm, and the custom searches (cells: their answers). */
int gridpath_run(strata_search **s, grid_cells *cells, const grid_query *q, strata_path *out,
                 uint64_t *expanded);
void gridpath_cells_free(grid_cells *cells);

/* ---- the table (gridengine.c), for the tests and benchmarks ---- */

/* Engines in the table, in order, and each one's name. */
int gridengine_count(void);
const char *gridengine_name(int engine);
/* Runs engine number `engine` alone for a request, as strata_grid_search_run
** would run it had the table chosen it: STRATA_OK with *ran = 1 (out
** filled, len 0 for no route), or *ran = 0 when its rule does not admit the
** request or it gave up (-2). Arguments are checked as by
** strata_grid_search_run. */
strata_status gridengine_run_one(strata_grid_search *s, const strata_tilemap *m, int engine,
                                 int x1, int y1, int x2, int y2,
                                 const strata_grid_options *opt, strata_path *out, int *ran,
                                 strata_error *err);
/* The name of the engine that answered the search object's last search. */
const char *gridengine_last(const strata_grid_search *s);

#endif
