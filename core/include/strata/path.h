/*
** path.h - shortest paths over any graph.
**
** The search works on a strata_graph: nodes are numbered 0..node_count-1 and
** a callback lists the edges out of a node. XY maps and multi-map grids
** expose themselves this way and share this search. Tile maps have their own
** (strata_grid_search in tilemap.h), which picks among engines made for
** grids and falls back on this one.
**
** A strata_search is the reusable workspace of one search at a time: it grows
** to the largest graph it has seen and is never shrunk, so repeated searches
** over the same graph allocate nothing. Resetting between searches is O(1)
** (generation stamps), not O(nodes).
*/
#ifndef STRATA_PATH_H
#define STRATA_PATH_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_path_algorithm {
  STRATA_PATH_ASTAR = 0, /* optimal; uses the graph's estimate */
  STRATA_PATH_DIJKSTRA,  /* optimal; ignores the estimate */
  STRATA_PATH_BFS,       /* fewest edges; optimal when every edge costs the same */
  STRATA_PATH_GREEDY     /* best-first on the estimate alone: fast, not optimal */
} strata_path_algorithm;

/* Parses "astar", "dijkstra", "bfs", "greedy"; returns 0 if unknown. */
STRATA_API int strata_path_algorithm_parse(const char *name, strata_path_algorithm *out);
STRATA_API const char *strata_path_algorithm_name(strata_path_algorithm a);

/* The most edges one node may report. */
#define STRATA_GRAPH_MAX_DEGREE 32

typedef struct strata_edge {
  uint32_t to;
  double cost; /* >= 0 and finite */
} strata_edge;

typedef struct strata_graph {
  uint32_t node_count;
  void *ud;
  /* Writes the edges out of node into out (at most STRATA_GRAPH_MAX_DEGREE)
  ** and returns how many. Called once per expanded node. */
  unsigned (*edges)(void *ud, uint32_t node, strata_edge *out);
  /* A lower bound of the cost from node to goal that never drops by more than
  ** an edge's cost along that edge (consistent). NULL means 0 everywhere. */
  double (*estimate)(void *ud, uint32_t node, uint32_t goal);
} strata_graph;

/* A path: nodes from start to goal, both included. len == 0 means no path.
** nodes comes from strata_malloc (strata_path_free frees it): a caller that
** fills a path itself grows it with strata_realloc. */
typedef struct strata_path {
  uint32_t *nodes;
  size_t len, cap;
  double cost;
} strata_path;

STRATA_API void strata_path_init(strata_path *p);
STRATA_API void strata_path_free(strata_path *p);

typedef struct strata_search strata_search;

STRATA_API strata_search *strata_search_new(strata_error *err);
STRATA_API void strata_search_free(strata_search *s); /* NULL is accepted */

/* Finds a path from start to goal. "No path" is not an error: it returns
** STRATA_OK with out->len == 0. Fails only on bad arguments (a node out of
** range, a negative edge cost) or when memory runs out. out is reused. */
STRATA_API strata_status strata_search_run(strata_search *s, const strata_graph *g,
                                uint32_t start, uint32_t goal,
                                strata_path_algorithm algorithm,
                                strata_path *out, strata_error *err);

/* Nodes expanded by the last search (for benchmarks and tests). */
STRATA_API uint64_t strata_search_expanded(const strata_search *s);
/* Bytes held by the workspace. */
STRATA_API size_t strata_search_memory(const strata_search *s);

#ifdef __cplusplus
}
#endif
#endif
