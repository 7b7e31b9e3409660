/*
** world_bymap.c - the world's index of objects by map: which objects stand
** on a map, without a scan of every object (stairs and entrances are found
** on their map when an actor travels, a map's objects listed and dropped).
**
** Entries are found by map uid through a uidmap (uidset.h); each holds its
** uids sorted, so that a list comes out in uid order as a scan gave it. The
** index is derived state: not saved (an open rebuilds it as objects are
** restored), and not journaled (a rollback puts objects back through the
** same calls as any edit). Removals never allocate; an addition that cannot
** marks the whole index lost, and the next read builds it again from the
** objects, or scans them when that fails too.
**
** The cells actors hold are kept here too, in each tile map
** (strata_tilemap_occupied): a count per cell, moved by the same calls as
** the index (an actor placed, moved, deleted, and each undone), counted
** again from the index when a map is given its tiles (an open attaches them
** after or before its actors) or when a count was lost to memory.
*/
#include "world_internal.h"
#include "strata/alloc.h"
#include "tilemap_internal.h" /* the cells actors hold */
#include "util.h"

#include <stdlib.h>
#include <string.h>

static struct bymap_entry *find(const strata_world *w, uint64_t map) {
  const size_t *at = uidmap_get(&w->bymap_at, map);
  return at ? &w->bymap[*at] : NULL;
}

/* The entry of map, made when missing; NULL when out of memory. */
static struct bymap_entry *make(strata_world *w, uint64_t map) {
  struct bymap_entry *e = find(w, map);
  if (e) return e;
  if (!STRATA_GROW(w->bymap, w->bymap_cap, w->bymap_n + 1)) return NULL;
  if (!uidmap_put(&w->bymap_at, map, w->bymap_n)) return NULL;
  e = &w->bymap[w->bymap_n++];
  *e = (struct bymap_entry){ map, NULL, 0, 0 };
  return e;
}

/* Drops an emptied entry: the last one takes its place. */
static void drop(strata_world *w, struct bymap_entry *e) {
  size_t i = (size_t)(e - w->bymap);
  strata_free(e->uids);
  uidmap_del(&w->bymap_at, e->map);
  if (i != --w->bymap_n) {
    w->bymap[i] = w->bymap[w->bymap_n];
    *uidmap_get(&w->bymap_at, w->bymap[i].map) = i;
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
  for (size_t i = 0; i < w->bymap_n; i++) strata_free(w->bymap[i].uids);
  w->bymap_n = 0;
  uidmap_free(&w->bymap_at);
}

void world_bymap_add(strata_world *w, const strata_object *o) {
  if (w->bymap_lost) return;
  struct bymap_entry *e = make(w, o->map);
  if (!e || !STRATA_GROW(e->uids, e->cap, e->n + 1)) {
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
  if (--e->n == 0) drop(w, e);
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

/* ---- the cells actors hold ---- */

/* The tile map o (an actor with a position) stands on, and its cell; NULL
** for any other object, and off every map. */
static strata_tilemap *held_cell(const strata_world *w, const strata_object *o, uint32_t *cell) {
  if (!o->has_pos || strcmp(o->kind, "actor") != 0) return NULL;
  strata_tilemap *m = strata_world_tilemap(w, o->map);
  if (!m || o->x < 0 || o->y < 0 || o->x >= m->width || o->y >= m->height) return NULL;
  *cell = (uint32_t)o->y * (uint32_t)m->width + (uint32_t)o->x;
  return m;
}

static void hold(strata_tilemap *m, uint32_t cell, int delta) {
  size_t *k = uidmap_get(&m->occ, (uint64_t)cell + 1);
  if (delta > 0 && k) ++*k;
  else if (delta > 0 && !uidmap_put(&m->occ, (uint64_t)cell + 1, 1)) m->occ_lost = 1;
  else if (delta < 0 && k && --*k == 0) uidmap_del(&m->occ, (uint64_t)cell + 1);
}

/* Counts the actors on map's tile map m again, all but except. */
static void count_again(strata_world *w, uint64_t map, strata_tilemap *m, const strata_object *except) {
  uidmap_free(&m->occ);
  m->occ_lost = 0;
  uint32_t cell;
  for (uint64_t u = strata_world_next_on(w, map, 0); u && !m->occ_lost; u = strata_world_next_on(w, map, u)) {
    const strata_object *o = world_rec(w, u);
    if (o && o != except && held_cell(w, o, &cell) == m) hold(m, cell, 1);
  }
}

void world_occupy(strata_world *w, const strata_object *o, int delta) {
  uint32_t cell;
  strata_tilemap *m = held_cell(w, o, &cell);
  if (!m) return;
  /* A lost count is counted again: o is where it stands now, which the
  ** count takes when o arrives (delta > 0) and leaves out when it goes. */
  if (m->occ_lost) count_again(w, o->map, m, delta < 0 ? o : NULL);
  else hold(m, cell, delta);
}

void world_occupancy_count(strata_world *w, uint64_t map) {
  strata_tilemap *m = strata_world_tilemap(w, map);
  if (m) count_again(w, map, m, NULL);
}
