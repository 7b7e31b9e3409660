/*
** search_internal.h - the search engine, written once as an inline function so
** that each graph kind gets a copy specialised on its own edge and estimate
** functions (the compiler inlines constant function pointers). search.c uses
** it through strata_graph's pointers; gridpath.c with the grid's functions.
*/
#ifndef STRATA_SEARCH_INTERNAL_H
#define STRATA_SEARCH_INTERNAL_H

#include <string.h>

#include "strata/path.h"

typedef struct heap_entry {
  uint64_t key; /* the bits of a non-negative double: ordered like the double */
  uint32_t node;
  uint32_t aux; /* carried along for the caller (the grid engine: coordinates) */
} heap_entry;

typedef struct entry_list {
  heap_entry *items;
  size_t len, cap;
} entry_list;

/* A radix heap (Ahuja, Mehlhorn, Orlin, Tarjan 1990) over the bit patterns of
** keys: valid because A* with a consistent estimate, and Dijkstra, pop keys in
** non-decreasing order. Bucket 0 holds keys equal to the last popped key and
** is a stack, so ties go depth-first: on open ground A* walks straight on.
** Greedy search pops out of order and uses a binary heap (in `order`). */
#define RADIX_BUCKETS 65

struct strata_search {
  uint32_t cap;        /* nodes the arrays below can hold */
  uint32_t generation; /* stamp 2*gen: open this search; 2*gen+1: closed */
  uint32_t *stamp;
  uint32_t *parent;
  double *g;
  uint32_t *queue;     /* BFS queue, made on the first BFS */
  entry_list bucket[RADIX_BUCKETS];
  uint64_t last;
  entry_list order;    /* binary heap for greedy search */
  uint64_t expanded;
};

/* Makes room for n nodes (and a BFS queue when need_queue) and starts a new generation; 0 on ENOMEM. */
int search_prepare(strata_search *s, uint32_t n, int need_queue);
int search_entry_grow(entry_list *l);
strata_status search_build_path(strata_search *s, uint32_t start, uint32_t goal,
                                strata_path *out, strata_error *err);

static inline uint64_t key_bits(double d) {
  uint64_t k;
  memcpy(&k, &d, sizeof k);
  return k;
}

static inline unsigned radix_index(uint64_t key, uint64_t last) {
  uint64_t x = key ^ last;
  return x == 0 ? 0 : 64u - (unsigned)__builtin_clzll(x);
}

static inline int radix_push(strata_search *s, uint64_t key, uint32_t node, uint32_t aux) {
  if (key < s->last) key = s->last; /* an estimate's rounding, never a real decrease */
  entry_list *b = &s->bucket[radix_index(key, s->last)];
  if (b->len == b->cap && !search_entry_grow(b)) return 0;
  b->items[b->len++] = (heap_entry){key, node, aux};
  return 1;
}

/* 1 and the entry's node and aux; 0 when empty; -1 on ENOMEM. */
static inline int radix_pop(strata_search *s, uint32_t *node, uint32_t *aux) {
  entry_list *b0 = &s->bucket[0];
  if (b0->len == 0) {
    unsigned i = 1;
    while (i < RADIX_BUCKETS && s->bucket[i].len == 0) i++;
    if (i == RADIX_BUCKETS) return 0;
    entry_list *b = &s->bucket[i];
    uint64_t min = b->items[0].key;
    for (size_t k = 1; k < b->len; k++)
      if (b->items[k].key < min) min = b->items[k].key;
    s->last = min;
    /* Every entry moves to a strictly lower bucket, never back into b. */
    for (size_t k = 0; k < b->len; k++) {
      entry_list *to = &s->bucket[radix_index(b->items[k].key, min)];
      if (to->len == to->cap && !search_entry_grow(to)) return -1;
      to->items[to->len++] = b->items[k];
    }
    b->len = 0;
  }
  --b0->len;
  *node = b0->items[b0->len].node;
  *aux = b0->items[b0->len].aux;
  return 1;
}

static inline void radix_clear(strata_search *s) {
  for (unsigned i = 0; i < RADIX_BUCKETS; i++) s->bucket[i].len = 0;
  s->last = 0;
}

/* Binary heap on (key) for greedy search. */
static inline int order_push(strata_search *s, uint64_t key, uint32_t node) {
  entry_list *h = &s->order;
  if (h->len == h->cap && !search_entry_grow(h)) return 0;
  size_t i = h->len++;
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (h->items[p].key <= key) break;
    h->items[i] = h->items[p];
    i = p;
  }
  h->items[i] = (heap_entry){key, node, 0};
  return 1;
}

static inline int order_pop(strata_search *s, uint32_t *node) {
  entry_list *h = &s->order;
  if (h->len == 0) return 0;
  *node = h->items[0].node;
  heap_entry last = h->items[--h->len];
  size_t i = 0, n = h->len;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h->items[c + 1].key < h->items[c].key) c++;
    if (h->items[c].key >= last.key) break;
    h->items[i] = h->items[c];
    i = c;
  }
  if (n > 0) h->items[i] = last;
  return 1;
}

typedef unsigned (*search_edges_fn)(void *ud, uint32_t node, strata_edge *out);
typedef double (*search_estimate_fn)(void *ud, uint32_t node, uint32_t goal);

/* The one search. Returns STRATA_OK with out->len == 0 when there is no path. */
static inline __attribute__((always_inline)) strata_status
search_engine(strata_search *s, uint32_t node_count, void *ud, search_edges_fn edges,
              search_estimate_fn estimate, uint32_t start, uint32_t goal,
              strata_path_algorithm algorithm, strata_path *out, strata_error *err) {
  strata_edge buf[STRATA_GRAPH_MAX_DEGREE];
  out->len = 0;
  out->cost = 0;
  if (start >= node_count || goal >= node_count)
    return strata_error_set(err, STRATA_EARG, "search from node %u to node %u of a %u-node graph",
                            start, goal, node_count);
  if (!search_prepare(s, node_count, algorithm == STRATA_PATH_BFS))
    return strata_error_nomem(err, "for a %u-node search", node_count);
  const uint32_t open = s->generation * 2u, closed = open + 1u;
  uint32_t *stamp = s->stamp, *parent = s->parent;
  double *g = s->g;
  int use_estimate = estimate != NULL && algorithm != STRATA_PATH_DIJKSTRA;
  uint64_t expanded = 0;
  int found = 0;

  g[start] = 0;
  parent[start] = start;

  if (algorithm == STRATA_PATH_BFS) {
    uint32_t *queue = s->queue;
    size_t head = 0, tail = 0;
    queue[tail++] = start;
    stamp[start] = closed;
    while (head < tail) {
      uint32_t u = queue[head++];
      expanded++;
      if (u == goal) { found = 1; break; }
      unsigned k = edges(ud, u, buf);
      for (unsigned e = 0; e < k; e++) {
        uint32_t v = buf[e].to;
        if (stamp[v] == closed) continue;
        stamp[v] = closed;
        g[v] = g[u] + buf[e].cost;
        parent[v] = u;
        queue[tail++] = v;
      }
    }
  } else if (algorithm == STRATA_PATH_GREEDY) {
    s->order.len = 0;
    stamp[start] = open;
    if (!order_push(s, key_bits(use_estimate ? estimate(ud, start, goal) : 0), start)) goto nomem;
    uint32_t u;
    while (order_pop(s, &u)) {
      if (stamp[u] == closed) continue;
      stamp[u] = closed;
      expanded++;
      if (u == goal) { found = 1; break; }
      unsigned k = edges(ud, u, buf);
      for (unsigned e = 0; e < k; e++) {
        uint32_t v = buf[e].to;
        if (stamp[v] == closed || stamp[v] == open) continue;
        stamp[v] = open;
        g[v] = g[u] + buf[e].cost;
        parent[v] = u;
        if (!order_push(s, key_bits(use_estimate ? estimate(ud, v, goal) : 0), v)) goto nomem;
      }
    }
  } else {
    radix_clear(s);
    stamp[start] = open;
    if (!radix_push(s, key_bits(use_estimate ? estimate(ud, start, goal) : 0), start, 0))
      goto nomem;
    uint32_t u, unused;
    int r;
    while ((r = radix_pop(s, &u, &unused)) > 0) {
      if (stamp[u] == closed) continue; /* a stale duplicate */
      stamp[u] = closed;
      expanded++;
      if (u == goal) { found = 1; break; }
      double gu = g[u];
      unsigned k = edges(ud, u, buf);
      for (unsigned e = 0; e < k; e++) {
        uint32_t v = buf[e].to;
        uint32_t sv = stamp[v];
        if (sv == closed) continue;
        double ng = gu + buf[e].cost;
        if (sv == open && ng >= g[v]) continue;
        stamp[v] = open;
        g[v] = ng;
        parent[v] = u;
        double f = use_estimate ? ng + estimate(ud, v, goal) : ng;
        if (!radix_push(s, key_bits(f), v, 0)) goto nomem;
      }
    }
    if (r < 0) goto nomem;
  }
  s->expanded = expanded;
  if (!found) return STRATA_OK;
  return search_build_path(s, start, goal, out, err);
nomem:
  s->expanded = expanded;
  return strata_error_nomem(err, "during a search");
}

#endif
