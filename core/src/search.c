/* search.c - the search workspace and searches over a generic strata_graph. */
#include "search_internal.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdlib.h>

int strata_path_algorithm_parse(const char *name, strata_path_algorithm *out) {
  static const struct { const char *name; strata_path_algorithm a; } names[] = {
    {"astar", STRATA_PATH_ASTAR}, {"dijkstra", STRATA_PATH_DIJKSTRA},
    {"bfs", STRATA_PATH_BFS}, {"greedy", STRATA_PATH_GREEDY}};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (strcmp(name, names[i].name) == 0) { *out = names[i].a; return 1; }
  return 0;
}

const char *strata_path_algorithm_name(strata_path_algorithm a) {
  switch (a) {
    case STRATA_PATH_ASTAR: return "astar";
    case STRATA_PATH_DIJKSTRA: return "dijkstra";
    case STRATA_PATH_BFS: return "bfs";
    case STRATA_PATH_GREEDY: return "greedy";
  }
  return "?";
}

void strata_path_init(strata_path *p) { memset(p, 0, sizeof *p); }

void strata_path_free(strata_path *p) {
  if (p == NULL) return;
  strata_free(p->nodes);
  memset(p, 0, sizeof *p);
}

strata_search *strata_search_new(strata_error *err) {
  strata_search *s = strata_calloc(1, sizeof *s);
  if (s == NULL) strata_error_nomem(err, "creating a search");
  return s;
}

void strata_search_free(strata_search *s) {
  if (s == NULL) return;
  strata_free(s->stamp);
  strata_free(s->parent);
  strata_free(s->g);
  strata_free(s->queue);
  for (unsigned i = 0; i < RADIX_BUCKETS; i++) strata_free(s->bucket[i].items);
  strata_free(s->order.items);
  strata_free(s);
}

uint64_t strata_search_expanded(const strata_search *s) { return s->expanded; }

size_t strata_search_memory(const strata_search *s) {
  size_t bytes = sizeof *s;
  bytes += (size_t)s->cap * (sizeof *s->stamp + sizeof *s->parent + sizeof *s->g);
  if (s->queue) bytes += (size_t)s->cap * sizeof *s->queue;
  for (unsigned i = 0; i < RADIX_BUCKETS; i++) bytes += s->bucket[i].cap * sizeof(heap_entry);
  bytes += s->order.cap * sizeof(heap_entry);
  return bytes;
}

int search_entry_grow(entry_list *l) {
  return STRATA_GROW(l->items, l->cap, l->cap + 1);
}

int search_prepare(strata_search *s, uint32_t n, int need_queue) {
  if (n > s->cap) {
    /* Grow all arrays or none, so a failure leaves a usable workspace. */
    uint32_t *stamp = strata_calloc(n, sizeof *stamp);
    uint32_t *parent = strata_malloc((size_t)n * sizeof *parent);
    double *g = strata_malloc((size_t)n * sizeof *g);
    uint32_t *queue = s->queue ? strata_malloc((size_t)n * sizeof *queue) : NULL;
    if (stamp == NULL || parent == NULL || g == NULL || (s->queue && queue == NULL)) {
      strata_free(stamp), strata_free(parent), strata_free(g), strata_free(queue);
      return 0;
    }
    strata_free(s->stamp), strata_free(s->parent), strata_free(s->g), strata_free(s->queue);
    s->stamp = stamp, s->parent = parent, s->g = g, s->queue = queue;
    s->cap = n;
    s->generation = 0;
  }
  if (need_queue && s->queue == NULL) {
    /* BFS needs a queue of every node; made lazily since most callers never use it. */
    s->queue = strata_malloc((size_t)(s->cap ? s->cap : 1) * sizeof *s->queue);
    if (s->queue == NULL) return 0;
  }
  /* Stamps wrap after 2^31 searches: clear them once then. */
  if (++s->generation >= 0x7fffffffu) {
    memset(s->stamp, 0, (size_t)s->cap * sizeof *s->stamp);
    s->generation = 1;
  }
  return 1;
}

strata_status search_build_path(strata_search *s, uint32_t start, uint32_t goal,
                                strata_path *out, strata_error *err) {
  size_t len = 1;
  for (uint32_t v = goal; v != start; v = s->parent[v]) len++;
  if (len > out->cap) {
    uint32_t *nodes = strata_realloc(out->nodes, len * sizeof *nodes);
    if (nodes == NULL)
      return strata_error_nomem(err, "for a %zu-node path", len);
    out->nodes = nodes;
    out->cap = len;
  }
  size_t i = len;
  for (uint32_t v = goal;; v = s->parent[v]) {
    out->nodes[--i] = v;
    if (v == start) break;
  }
  out->len = len;
  out->cost = s->g[goal];
  return STRATA_OK;
}

/* The generic entry point: edges and estimate through the graph's pointers.
** Edge costs are checked here, where nothing else vouches for them. */
typedef struct checked_graph {
  const strata_graph *g;
  int bad;
} checked_graph;

static unsigned checked_edges(void *ud, uint32_t node, strata_edge *out) {
  checked_graph *c = ud;
  unsigned k = c->g->edges(c->g->ud, node, out);
  if (k > STRATA_GRAPH_MAX_DEGREE) k = STRATA_GRAPH_MAX_DEGREE, c->bad = 1;
  unsigned keep = 0;
  for (unsigned e = 0; e < k; e++) {
    if (out[e].to >= c->g->node_count || !(out[e].cost >= 0) || out[e].cost > 1e300) {
      c->bad = 1;
      continue;
    }
    out[keep++] = out[e];
  }
  return keep;
}

static double checked_estimate(void *ud, uint32_t node, uint32_t goal) {
  checked_graph *c = ud;
  double h = c->g->estimate(c->g->ud, node, goal);
  return h >= 0 && h < 1e300 ? h : 0;
}

strata_status strata_search_run(strata_search *s, const strata_graph *g, uint32_t start,
                                uint32_t goal, strata_path_algorithm algorithm,
                                strata_path *out, strata_error *err) {
  if (s == NULL || g == NULL || g->edges == NULL || out == NULL)
    return strata_error_set(err, STRATA_EARG, "search needs a workspace, a graph and a path");
  checked_graph c = {g, 0};
  strata_status st = search_engine(s, g->node_count, &c, checked_edges,
                                   g->estimate ? checked_estimate : NULL, start, goal,
                                   algorithm, out, err);
  if (st == STRATA_OK && c.bad) {
    out->len = 0;
    return strata_error_set(err, STRATA_EARG,
                            "the graph reported an edge to a missing node, a negative or "
                            "infinite cost, or more than %d edges from one node",
                            STRATA_GRAPH_MAX_DEGREE);
  }
  return st;
}
