/*
** world_bymap.c - the world's index of objects by map: which objects stand
** on a map, without a scan of every object (stairs and entrances are found
** on their map when an actor travels, a map's objects listed and dropped).
**
** Entries live in an open-addressing table by map uid; each holds its uids
** sorted, so that a list comes out in uid order as a scan gave it. The
** index is derived state: not saved (an open rebuilds it as objects are
** restored), and not journaled (a rollback puts objects back through the
** same calls as any edit). Removals never allocate; an addition that cannot
** marks the whole index lost, and the next read builds it again from the
** objects, or scans them when that fails too.
*/
#include "world_internal.h"
#include "strata/alloc.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t map, size_t cap) {
  return (size_t)((map * UINT64_C(0x9E3779B97F4A7C15)) >> 32) & (cap - 1);
}

static struct bymap_entry *find(const strata_world *w, uint64_t map) {
  if (!w->bymap_cap) return NULL;
  for (size_t i = slot_of(map, w->bymap_cap);; i = (i + 1) & (w->bymap_cap - 1)) {
    struct bymap_entry *e = &w->bymap[i];
    if (e->map == map) return e;
    if (!e->map) return NULL;
  }
}

/* The table at twice the size: 1, or 0 when out of memory (left as it was). */
static int grow_table(strata_world *w) {
  size_t cap = w->bymap_cap ? w->bymap_cap * 2 : 16;
  struct bymap_entry *t = strata_calloc(cap, sizeof *t);
  if (!t) return 0;
  for (size_t k = 0; k < w->bymap_cap; k++) {
    if (!w->bymap[k].map) continue;
    size_t i = slot_of(w->bymap[k].map, cap);
    while (t[i].map) i = (i + 1) & (cap - 1);
    t[i] = w->bymap[k];
  }
  strata_free(w->bymap);
  w->bymap = t;
  w->bymap_cap = cap;
  return 1;
}

/* The entry of map, made when missing; NULL when out of memory. */
static struct bymap_entry *make(strata_world *w, uint64_t map) {
  struct bymap_entry *e = find(w, map);
  if (e) return e;
  if ((w->bymap_n + 1) * 2 > w->bymap_cap && !grow_table(w)) return NULL;
  size_t i = slot_of(map, w->bymap_cap);
  while (w->bymap[i].map) i = (i + 1) & (w->bymap_cap - 1);
  w->bymap_n++;
  e = &w->bymap[i];
  e->map = map;
  return e;
}

/* Empties slot i, moving back the entries after it that belong before it
** (no tombstones: a lookup stops at the first empty slot). */
static void drop_slot(strata_world *w, size_t i) {
  size_t mask = w->bymap_cap - 1;
  strata_free(w->bymap[i].uids);
  memset(&w->bymap[i], 0, sizeof w->bymap[i]);
  w->bymap_n--;
  for (size_t j = (i + 1) & mask; w->bymap[j].map; j = (j + 1) & mask) {
    size_t home = slot_of(w->bymap[j].map, w->bymap_cap);
    /* j's entry may move to i when its home is not in (i, j] (cyclically) */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      w->bymap[i] = w->bymap[j];
      memset(&w->bymap[j], 0, sizeof w->bymap[j]);
      i = j;
    }
  }
}

/* Where uid is, or goes, in e's sorted list. */
static size_t position(const struct bymap_entry *e, uint64_t uid) {
  size_t lo = 0, hi = e->n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (e->uids[mid] < uid) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static void clear_all(strata_world *w) {
  for (size_t i = 0; i < w->bymap_cap; i++) strata_free(w->bymap[i].uids);
  if (w->bymap_cap) memset(w->bymap, 0, w->bymap_cap * sizeof *w->bymap);
  w->bymap_n = 0;
}

void world_bymap_add(strata_world *w, const strata_object *o) {
  if (w->bymap_lost) return;
  struct bymap_entry *e = make(w, o->map);
  if (e && e->n == e->cap) {
    size_t cap = e->cap ? e->cap * 2 : 4;
    uint64_t *u = strata_realloc(e->uids, cap * sizeof *u);
    if (u) e->uids = u, e->cap = cap;
  }
  if (!e || e->n == e->cap) {
    clear_all(w); /* rebuilt when next read */
    w->bymap_lost = 1;
    return;
  }
  /* An object newer than the map's others (an open restores in uid order,
  ** and new uids are the highest) goes last, without a search. */
  size_t at = e->n && e->uids[e->n - 1] >= o->uid ? position(e, o->uid) : e->n;
  if (at < e->n && e->uids[at] == o->uid) return;
  memmove(e->uids + at + 1, e->uids + at, (e->n - at) * sizeof *e->uids);
  e->uids[at] = o->uid;
  e->n++;
}

void world_bymap_remove(strata_world *w, const strata_object *o) {
  struct bymap_entry *e = w->bymap_lost ? NULL : find(w, o->map);
  if (!e) return;
  size_t at = position(e, o->uid);
  if (at == e->n || e->uids[at] != o->uid) return;
  memmove(e->uids + at, e->uids + at + 1, (e->n - at - 1) * sizeof *e->uids);
  if (--e->n == 0) drop_slot(w, (size_t)(e - w->bymap));
}

void world_bymap_free(strata_world *w) {
  clear_all(w);
  strata_free(w->bymap);
  w->bymap = NULL;
  w->bymap_cap = 0;
}

/* Builds a lost index again from the objects: 1, or 0 when out of memory. */
static int rebuild(strata_world *w) {
  w->bymap_lost = 0;
  for (strata_object *o = world_next(w, 0); o && !w->bymap_lost; o = world_next(w, o->uid))
    if (o->has_pos) world_bymap_add(w, o);
  return !w->bymap_lost;
}

uint64_t strata_world_next_on(const strata_world *cw, uint64_t map, uint64_t after) {
  strata_world *w = (strata_world *)cw; /* the index is a cache, not state */
  if (after == UINT64_MAX) return 0;
  if (w->bymap_lost && !rebuild(w)) { /* out of memory: a scan, as before there was an index */
    for (strata_object *o = world_next(w, after); o; o = world_next(w, o->uid))
      if (o->has_pos && o->map == map) return o->uid;
    return 0;
  }
  const struct bymap_entry *e = find(w, map);
  size_t at = e ? position(e, after + 1) : 0;
  return e && at < e->n ? e->uids[at] : 0;
}

size_t strata_world_objects_on(const strata_world *w, uint64_t map, const char *kind, uint64_t *out,
                               size_t cap) {
  size_t n = 0;
  for (uint64_t u = strata_world_next_on(w, map, 0); u; u = strata_world_next_on(w, map, u)) {
    if (kind && strcmp(strata_world_get(w, u)->kind, kind) != 0) continue;
    if (out && n < cap) out[n] = u;
    n++;
  }
  return n;
}
