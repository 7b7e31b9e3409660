/*
** xygrid.c - routes across XY maps. The maps' nodes are numbered one after
** another into one graph; an exit into a transition node is re-pointed at
** the node the transition stands for. The search is the shared one
** (strata_search_run over a strata_graph).
*/
#include <stdlib.h>
#include <string.h>

#include "strata/path.h"
#include "strata/alloc.h"
#include "strata/xygrid.h"
#include "xymap_internal.h"

struct strata_xygrid {
  const strata_xymap **maps;
  size_t *offset;          /* first global node of each map; count + 1 entries */
  size_t count, cap;
  strata_search *search;
};

strata_xygrid *strata_xygrid_new(strata_error *err) {
  strata_xygrid *g = strata_calloc(1, sizeof *g);
  if (g == NULL || (g->offset = strata_calloc(1, sizeof *g->offset)) == NULL) {
    strata_free(g);
    strata_error_nomem(err, "creating a grid");
    return NULL;
  }
  return g;
}

void strata_xygrid_free(strata_xygrid *g) {
  if (g == NULL) return;
  strata_free(g->maps);
  strata_free(g->offset);
  strata_search_free(g->search);
  strata_free(g);
}

static int64_t map_index(const strata_xygrid *g, const char *z) {
  for (size_t i = 0; i < g->count; i++)
    if (strcmp(strata_xymap_z(g->maps[i]), z) == 0) return (int64_t)i;
  return -1;
}

strata_status strata_xygrid_add(strata_xygrid *g, const strata_xymap *m, strata_error *err) {
  if (map_index(g, strata_xymap_z(m)) >= 0)
    return strata_error_set(err, STRATA_EARG, "the grid already has a map with Z '%s'",
                            strata_xymap_z(m));
  if (g->count == g->cap) { /* two arrays of one capacity: not strata_grow */
    size_t cap = g->cap ? g->cap * 2 : 8;
    const strata_xymap **maps = strata_realloc(g->maps, cap * sizeof *maps);
    if (maps == NULL) goto nomem;
    g->maps = maps;
    size_t *offset = strata_realloc(g->offset, (cap + 1) * sizeof *offset);
    if (offset == NULL) goto nomem;
    g->offset = offset;
    g->cap = cap;
  }
  size_t total = g->offset[g->count] + strata_xymap_node_count(m);
  if (total >= UINT32_MAX)
    return strata_error_set(err, STRATA_ELIMIT, "a grid holds fewer than 2^32 nodes");
  g->maps[g->count++] = m;
  g->offset[g->count] = total;
  return STRATA_OK;
nomem:
  return strata_error_nomem(err, "adding a map to a grid");
}

size_t strata_xygrid_map_count(const strata_xygrid *g) { return g->count; }

const strata_xymap *strata_xygrid_map(const strata_xygrid *g, const char *z) {
  int64_t i = map_index(g, z);
  return i < 0 ? NULL : g->maps[i];
}

/* The map holding global node n (binary search over the offsets). */
static size_t map_of(const strata_xygrid *g, uint32_t n) {
  size_t lo = 0, hi = g->count;
  while (hi - lo > 1) {
    size_t mid = (lo + hi) / 2;
    if (g->offset[mid] <= n) lo = mid;
    else hi = mid;
  }
  return lo;
}

/* Where an exit into local node `target` of map mi arrives: the node itself,
** or for a transition, the node it stands for; -1 when that does not exist. */
static int64_t arrival(const strata_xygrid *g, size_t mi, uint32_t target) {
  const strata_xymap *m = g->maps[mi];
  const strata_xy_legend *lg = &m->legend[m->comps[m->nodes[target]].legend];
  if (lg->kind != STRATA_XY_TRANSITION) return (int64_t)(g->offset[mi] + target);
  if (!lg->has_target) return -1;
  int64_t ti = map_index(g, lg->target_z);
  if (ti < 0) return -1;
  int64_t n = strata_xymap_node_at(g->maps[ti], (int)lg->target_x, (int)lg->target_y);
  if (n < 0) return -1;
  /* A transition pointing at another transition is not followed further. */
  const strata_xymap *tm = g->maps[ti];
  if (tm->legend[tm->comps[tm->nodes[n]].legend].kind == STRATA_XY_TRANSITION) return -1;
  return (int64_t)(g->offset[ti] + (size_t)n);
}

static unsigned grid_edges(void *ud, uint32_t node, strata_edge *out) {
  const strata_xygrid *g = ud;
  size_t mi = map_of(g, node);
  const strata_xymap *m = g->maps[mi];
  uint32_t local = node - (uint32_t)g->offset[mi];
  unsigned k = 0;
  for (uint32_t c = m->node_chains[local]; c < m->node_chains[local + 1] && k < STRATA_GRAPH_MAX_DEGREE; c++) {
    const xy_chain *ch = &m->chains[c];
    if (!(ch->flags & XY_CHAIN_USABLE)) continue;
    int64_t to = arrival(g, mi, ch->target);
    if (to < 0) continue;
    out[k++] = (strata_edge){(uint32_t)to, ch->weight};
  }
  return k;
}

void strata_xygrid_route_free(strata_xygrid_route *r) {
  if (r == NULL) return;
  strata_free(r->names);
  strata_free(r->steps);
  memset(r, 0, sizeof *r);
}

strata_status strata_xygrid_shortest_path(strata_xygrid *g, const char *z1, int x1, int y1,
                                          const char *z2, int x2, int y2,
                                          strata_xygrid_route *out, strata_error *err) {
  memset(out, 0, sizeof *out);
  int64_t a = map_index(g, z1), b = map_index(g, z2);
  if (a < 0 || b < 0)
    return strata_error_set(err, STRATA_ENOTFOUND, "the grid has no map with Z '%s'",
                            a < 0 ? z1 : z2);
  int64_t na = strata_xymap_node_at(g->maps[a], x1, y1);
  int64_t nb = strata_xymap_node_at(g->maps[b], x2, y2);
  if (na < 0 || nb < 0) return STRATA_OK;
  if (g->search == NULL && (g->search = strata_search_new(err)) == NULL) return STRATA_ENOMEM;
  strata_graph graph = {(uint32_t)g->offset[g->count], g, grid_edges, NULL};
  strata_path p;
  strata_path_init(&p);
  uint32_t start = (uint32_t)(g->offset[a] + (size_t)na), goal = (uint32_t)(g->offset[b] + (size_t)nb);
  strata_status st = strata_search_run(g->search, &graph, start, goal, STRATA_PATH_DIJKSTRA, &p, err);
  if (st != STRATA_OK || p.len < 2) {
    strata_path_free(&p);
    return st;
  }
  /* For each hop, the lightest exit whose arrival is the next node. */
  size_t hops = p.len - 1, cells = 1;
  uint32_t *chains = strata_malloc(hops * sizeof *chains);
  size_t *chain_map = strata_malloc(hops * sizeof *chain_map);
  if (chains == NULL || chain_map == NULL) goto nomem;
  for (size_t h = 0; h < hops; h++) {
    size_t mi = map_of(g, p.nodes[h]);
    const strata_xymap *m = g->maps[mi];
    uint32_t local = p.nodes[h] - (uint32_t)g->offset[mi];
    /* The lightest usable exit whose arrival is the next node. */
    chains[h] = UINT32_MAX;
    for (uint32_t c = m->node_chains[local]; c < m->node_chains[local + 1]; c++)
      if ((m->chains[c].flags & XY_CHAIN_USABLE) &&
          arrival(g, mi, m->chains[c].target) == (int64_t)p.nodes[h + 1])
        chains[h] = xy_route_chain(m, local, m->chains[c].target);
    chain_map[h] = mi;
    cells += xy_chain_steps(m, chains[h]) + 1;
  }
  out->names = strata_malloc(hops * sizeof *out->names);
  out->steps = strata_malloc(cells * sizeof *out->steps);
  if (out->names == NULL || out->steps == NULL) goto nomem;
  size_t s = 0;
  for (size_t h = 0; h <= hops; h++) {
    size_t mi = map_of(g, p.nodes[h]);
    const strata_xymap *m = g->maps[mi];
    const xy_comp *c = &m->comps[m->nodes[p.nodes[h] - (uint32_t)g->offset[mi]]];
    const strata_xy_legend *lg = &m->legend[c->legend];
    out->steps[s].cell = (strata_xy_step){c->gx / 2.0, c->gy / 2.0, lg->symbol, 1, lg->interrupt};
    out->steps[s++].z = strata_xymap_z(m);
    if (h == hops) break;
    const strata_xymap *hm = g->maps[chain_map[h]];
    out->names[h] = xy_chain_name(hm, chains[h]);
    uint32_t first = xy_chain_first(hm, chains[h]);
    for (uint32_t k = 0, n = xy_chain_steps(hm, chains[h]); k < n; k++) {
      strata_xymap_step(hm, first + k, &out->steps[s].cell);
      out->steps[s++].z = strata_xymap_z(hm);
    }
  }
  out->hop_count = hops;
  out->step_count = s;
  out->cost = p.cost;
  strata_free(chains);
  strata_free(chain_map);
  strata_path_free(&p);
  return STRATA_OK;
nomem:
  strata_free(chains);
  strata_free(chain_map);
  strata_path_free(&p);
  strata_xygrid_route_free(out);
  return strata_error_nomem(err, "finding a route");
}
