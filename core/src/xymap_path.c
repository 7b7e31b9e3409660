/*
** xymap_path.c - shortest routes on an XY map, computed on demand (no
** all-pairs table, no cap on route length): Dijkstra over the nodes, then
** each node's predecessor chosen the way Evennia's current expectations need
** it (docs/xy-maps.md, "Routes").
**
** The rule: walking back from the goal, the predecessor of v is, among the
** nodes u with an edge to v and dist[u] + w(u,v) == dist[v] exactly (as
** doubles), the one with the smallest dist[u], then the highest node index
** (nodes are numbered in scan order: rows bottom-up, each left to right).
** That is the choice of a binary-heap Dijkstra that pops (dist ascending,
** node index descending), scans neighbours in ascending node index and
** relaxes only on strict improvement: the first node settled among the
** optimal predecessors is the one kept. Such a heap is what scipy's
** csgraph.dijkstra, which Evennia calls, is consistent with since it dropped
** its Fibonacci heap; the rule reproduces all 70 shortest-path cases of
** Evennia's tests.py as fixed for scipy 1.17 (spec/xymap_evennia_spec.lua).
** The comparison is exact, not within a tolerance, because the heap's is:
** with weights such as 0.1, two routes equal on paper can differ in the last
** bit, and only the exactly shortest one is ever relaxed into dist[v].
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "xymap_internal.h"
#include "strata/alloc.h"
#include "util.h"

typedef struct heap_item {
  double dist;
  uint32_t node;
} heap_item;

static int heap_push(heap_item **h, size_t *n, size_t *cap, double dist, uint32_t node) {
  if (!strata_grow(h, cap, *n + 1, sizeof **h)) return 0;
  size_t i = (*n)++;
  while (i > 0 && (*h)[(i - 1) / 2].dist > dist) {
    (*h)[i] = (*h)[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  (*h)[i] = (heap_item){dist, node};
  return 1;
}

static heap_item heap_pop(heap_item *h, size_t *n) {
  heap_item top = h[0], last = h[--*n];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && h[c + 1].dist < h[c].dist) c++;
    if (h[c].dist >= last.dist) break;
    h[i] = h[c];
    i = c;
  }
  if (*n > 0) h[i] = last;
  return top;
}

void strata_xy_route_free(strata_xy_route *r) {
  if (r == NULL) return;
  strata_free(r->names);
  strata_free(r->steps);
  memset(r, 0, sizeof *r);
}

/* A ring of buckets for whole-number weights (at most max_w): Dial's queue,
** exact because every key is an integer and no key is more than max_w above
** the current one. */
typedef struct bucket_ring {
  uint32_t **items;
  uint32_t *len, *cap;
  uint32_t size; /* a power of two > max_w */
} bucket_ring;

static void ring_free(bucket_ring *r) {
  for (uint32_t i = 0; r->items && i < r->size; i++) strata_free(r->items[i]);
  strata_free(r->items), strata_free(r->len), strata_free(r->cap);
}

static int ring_push(bucket_ring *r, uint64_t key, uint32_t node) {
  uint32_t b = (uint32_t)(key & (r->size - 1));
  if (!STRATA_GROW32(r->items[b], r->cap[b], (size_t)r->len[b] + 1)) return 0;
  r->items[b][r->len[b]++] = node;
  return 1;
}

/* Settles nodes in order of distance until every node no farther than b is
** settled; dist[] must hold INFINITY except dist[a] = 0. 0 on ENOMEM. */
static int settle_integral(const strata_xymap *m, size_t a, size_t b, double *dist) {
  bucket_ring r = {0};
  for (r.size = 2; r.size <= m->max_int_weight; r.size *= 2) {}
  r.items = strata_calloc(r.size, sizeof *r.items);
  r.len = strata_calloc(r.size, sizeof *r.len);
  r.cap = strata_calloc(r.size, sizeof *r.cap);
  int ok = r.items && r.len && r.cap && ring_push(&r, 0, (uint32_t)a);
  size_t pending = ok ? 1 : 0;
  for (uint64_t cur = 0; ok && pending > 0; cur++) {
    uint32_t bk = (uint32_t)(cur & (r.size - 1));
    if (isfinite(dist[b]) && (double)cur > dist[b]) break;
    while (r.len[bk] > 0) {
      uint32_t u = r.items[bk][--r.len[bk]];
      pending--;
      if (dist[u] != (double)cur) continue; /* stale */
      for (uint32_t c = m->node_chains[u]; c < m->node_chains[u + 1]; c++) {
        const xy_chain *ch = &m->chains[c];
        if (!(ch->flags & XY_CHAIN_USABLE)) continue;
        double nd = (double)cur + ch->weight;
        if (nd < dist[ch->target]) {
          dist[ch->target] = nd;
          if (!ring_push(&r, (uint64_t)nd, ch->target)) { ok = 0; break; }
          pending++;
        }
      }
    }
  }
  ring_free(&r);
  return ok;
}

static strata_xy_step node_step(const strata_xymap *m, uint32_t node) {
  const xy_comp *c = &m->comps[m->nodes[node]];
  const strata_xy_legend *lg = xy_legend_of(m, c);
  return (strata_xy_step){c->gx / 2.0, c->gy / 2.0, lg->symbol, 1, lg->interrupt};
}

strata_status strata_xymap_shortest_path(const strata_xymap *m, size_t a, size_t b,
                                         strata_xy_route *out, strata_error *err) {
  memset(out, 0, sizeof *out);
  if (a >= m->node_count || b >= m->node_count)
    return strata_error_set(err, STRATA_EARG, "node %zu or %zu is not on a %zu-node map", a, b,
                            m->node_count);
  if (a == b) return STRATA_OK;
  double *dist = strata_malloc(m->node_count * sizeof *dist);
  uint32_t *pred = strata_malloc(m->node_count * sizeof *pred);
  heap_item *heap = NULL;
  size_t hn = 0, hcap = 0;
  strata_status st = STRATA_OK;
  if (dist == NULL || pred == NULL) goto nomem;
  for (size_t i = 0; i < m->node_count; i++) dist[i] = INFINITY;
  dist[a] = 0;
  /* Settle every node no farther than b: all of b's optimal predecessors. */
  if (m->max_int_weight) {
    if (!settle_integral(m, a, b, dist)) goto nomem;
  } else if (!heap_push(&heap, &hn, &hcap, 0, (uint32_t)a)) {
    goto nomem;
  }
  while (hn > 0) {
    heap_item it = heap_pop(heap, &hn);
    if (it.dist > dist[it.node]) continue;
    if (isfinite(dist[b]) && it.dist > dist[b]) break;
    for (uint32_t c = m->node_chains[it.node]; c < m->node_chains[it.node + 1]; c++) {
      const xy_chain *ch = &m->chains[c];
      if (!(ch->flags & XY_CHAIN_USABLE)) continue;
      double nd = it.dist + ch->weight;
      if (nd < dist[ch->target]) {
        dist[ch->target] = nd;
        if (!heap_push(&heap, &hn, &hcap, nd, ch->target)) goto nomem;
      }
    }
  }
  if (!isfinite(dist[b])) goto done; /* no route */
  /* Walk back from b choosing predecessors by Evennia's rule. */
  size_t hops = 0;
  for (uint32_t v = (uint32_t)b; v != a; hops++) {
    int64_t best = -1;
    for (uint32_t k = m->node_in[v]; k < m->node_in[v + 1]; k++) {
      const xy_chain *ch = &m->chains[m->in_chains[k]];
      uint32_t from = xy_chain_source(m, m->in_chains[k]);
      /* Bit-exact: dist[v] was stored as this very sum by the settling pass
      ** (same operands, same operation), so the true predecessors match. */
      if (!isfinite(dist[from]) || dist[from] + ch->weight != dist[v]) continue;
      if (best < 0 || dist[from] < dist[best] || (dist[from] == dist[best] && from > best))
        best = from;
    }
    if (best < 0 || hops > m->node_count) {
      st = strata_error_set(err, STRATA_ESTATE, "route reconstruction failed at node %u", v);
      goto done;
    }
    pred[v] = (uint32_t)best;
    v = (uint32_t)best;
  }
  /* Count the cells, then fill names and steps from start to goal. */
  size_t cells = 1;
  uint32_t *order = strata_malloc((hops + 1) * sizeof *order);
  if (order == NULL) goto nomem;
  size_t i = hops;
  for (uint32_t v = (uint32_t)b;; v = pred[v]) {
    order[i] = v;
    if (v == a) break;
    i--;
  }
  uint32_t *routes = strata_malloc((hops ? hops : 1) * sizeof *routes);
  if (routes == NULL) {
    strata_free(order);
    goto nomem;
  }
  for (size_t h = 0; h < hops; h++) {
    routes[h] = xy_route_chain(m, order[h], order[h + 1]);
    cells += xy_chain_steps(m, routes[h]) + 1;
  }
  out->names = strata_malloc(hops * sizeof *out->names);
  out->steps = strata_malloc(cells * sizeof *out->steps);
  if (out->names == NULL || out->steps == NULL) {
    strata_free(order), strata_free(routes);
    strata_xy_route_free(out);
    goto nomem;
  }
  size_t s = 0;
  out->steps[s++] = node_step(m, order[0]);
  for (size_t h = 0; h < hops; h++) {
    out->names[h] = xy_chain_name(m, routes[h]);
    for (uint32_t k = 0, n = xy_chain_steps(m, routes[h]), f = xy_chain_first(m, routes[h]); k < n; k++)
      strata_xymap_step(m, f + k, &out->steps[s++]);
    out->steps[s++] = node_step(m, order[h + 1]);
  }
  out->hop_count = hops;
  out->step_count = s;
  out->cost = dist[b];
  strata_free(order);
  strata_free(routes);
  goto done;
nomem:
  st = strata_error_nomem(err, "finding a route");
done:
  strata_free(dist);
  strata_free(pred);
  strata_free(heap);
  return st;
}
