/*
** feature.c - entrances and stairs. Stairs keep a relative floor_delta,
** resolved when they are used (travel.c), so that a generator can place them
** on a map that is not a floor of anything yet.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"
#include "util.h"
#include "world_internal.h" /* world_kind_edits, world_next */

#include <inttypes.h>

/* uid is a live object of kind `kind` (or of kind `also`, unless NULL). */
static strata_status check_kind(const strata_runtime *rt, uint64_t uid, const char *kind, const char *also,
                                const char *what, const char *role, strata_error *err) {
  char b[48];
  strata_object *o = strata_world_object(rt->w, uid);
  if (!o) return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, uid, "%s: %s was deleted",
                                     role, rt_label(rt, uid, b));
  if (strcmp(o->kind, kind) != 0 && !(also && strcmp(o->kind, also) == 0))
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_KIND, uid, "%s: expected a%s %s%s%s, got %s",
                               role, kind[0] == 'a' ? "n" : "", kind, also ? " or a " : "", also ? also : "",
                               rt_label(rt, uid, b));
  return STRATA_OK;
}

/* ---- the stairs by map (runtime_internal.h) ---- */

static uint64_t feature_edits(const strata_runtime *rt) { return world_kind_edits(rt->w, "feature"); }

/* Whether the index holds for the world as it is. */
static int index_current(const strata_runtime *rt) { return rt->stairs.stamp == feature_edits(rt) + 1; }

static void index_clear(strata_runtime *rt) {
  struct stairs_index *ix = &rt->stairs;
  for (size_t i = 0; i < ix->n; i++) strata_free(ix->maps[i].s);
  ix->n = 0;
  ix->stamp = 0;
  uidmap_free(&ix->at);
}

void feature_index_free(strata_runtime *rt) {
  index_clear(rt);
  strata_free(rt->stairs.maps);
}

/* Feature f (uid, and delta or where it leads) on map, in uid order: 0 when
** out of memory (nothing added). */
static int index_add(strata_runtime *rt, uint64_t map, const struct stair *f) {
  struct stairs_index *ix = &rt->stairs;
  size_t *at = uidmap_get(&ix->at, map);
  if (!at) {
    if (!STRATA_GROW(ix->maps, ix->cap, ix->n + 1) || !uidmap_put(&ix->at, map, ix->n)) return 0;
    ix->maps[ix->n] = (struct stairs_on){ map, NULL, 0, 0 };
    at = uidmap_get(&ix->at, map);
    ix->n++;
  }
  struct stairs_on *e = &ix->maps[*at];
  if (!STRATA_GROW(e->s, e->cap, e->n + 1)) return 0;
  size_t i = e->n++;
  for (; i && e->s[i - 1].uid > f->uid; i--) e->s[i] = e->s[i - 1];
  e->s[i] = *f;
  return 1;
}

/* What the index keeps of feature uid, read from its properties: 0 when it
** is neither stairs nor an entrance. */
static int facts_of(const strata_runtime *rt, uint64_t uid, struct stair *f) {
  memset(f, 0, sizeof *f);
  f->uid = uid;
  switch (strata_feature_type_of(rt, uid)) {
  case STRATA_FEATURE_STAIRS: f->delta = strata_feature_floor_delta(rt, uid); return 1;
  case STRATA_FEATURE_ENTRANCE:
    f->area = entrance_area(rt, uid);
    f->has_floor = entrance_floor(rt, uid, &f->floor);
    return 1;
  default: return 0;
  }
}

/* Builds the index from every object: 0 when out of memory (none then). */
static int index_build(strata_runtime *rt) {
  index_clear(rt);
  for (strata_object *o = world_next(rt->w, 0); o; o = world_next(rt->w, o->uid)) {
    struct stair f;
    if (!o->has_pos || strcmp(o->kind, "feature") != 0 || !facts_of(rt, o->uid, &f)) continue;
    if (!index_add(rt, o->map, &f)) {
      index_clear(rt);
      return 0;
    }
  }
  rt->stairs.stamp = feature_edits(rt) + 1;
  return 1;
}

/* Without the index (out of memory): every feature on map read. */
static uint64_t stairs_scan(const strata_runtime *rt, uint64_t map, int64_t delta) {
  for (uint64_t u = strata_world_next_on(rt->w, map, 0); u; u = strata_world_next_on(rt->w, map, u))
    if (strcmp(strata_world_get(rt->w, u)->kind, "feature") == 0 &&
        strata_feature_type_of(rt, u) == STRATA_FEATURE_STAIRS && strata_feature_floor_delta(rt, u) == delta)
      return u;
  return 0;
}

/* The index's stairs on map (NULL: none), built when it does not hold; *ok
** 0 when it cannot be (out of memory). */
static const struct stairs_on *index_on(const strata_runtime *crt, uint64_t map, int *ok) {
  strata_runtime *rt = (strata_runtime *)crt; /* the index is not state */
  *ok = index_current(rt) || index_build(rt);
  const size_t *at = *ok ? uidmap_get(&rt->stairs.at, map) : NULL;
  return at ? &rt->stairs.maps[*at] : NULL;
}

uint64_t feature_stairs_on(const strata_runtime *rt, uint64_t map, int64_t delta) {
  int ok;
  const struct stairs_on *e = index_on(rt, map, &ok);
  if (!ok) return stairs_scan(rt, map, delta);
  for (size_t i = 0; e && i < e->n; i++)
    if (e->s[i].delta == delta && delta) return e->s[i].uid;
  return 0;
}

strata_feature_type feature_type_at(const strata_runtime *rt, const strata_object *o, struct stair *at) {
  int ok;
  const struct stairs_on *e = o->has_pos ? index_on(rt, o->map, &ok) : NULL;
  for (size_t i = 0; e && i < e->n; i++)
    if (e->s[i].uid == o->uid) {
      *at = e->s[i];
      return at->delta ? STRATA_FEATURE_STAIRS : STRATA_FEATURE_ENTRANCE;
    }
  return facts_of(rt, o->uid, at) ? (at->delta ? STRATA_FEATURE_STAIRS : STRATA_FEATURE_ENTRANCE)
                                  : STRATA_FEATURE_NONE;
}

/* After the runtime made feature f on map: an index that held before
** (`held`) takes it in rather than being built again. */
static void index_made(strata_runtime *rt, int held, uint64_t map, uint64_t f) {
  struct stair s;
  if (held && facts_of(rt, f, &s) && index_add(rt, map, &s)) rt->stairs.stamp = feature_edits(rt) + 1;
}

/* A feature at (x, y) on map with sys = the table `sys` (taken over). */
static strata_status place(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                           strata_value *sys, uint64_t *out, strata_error *err) {
  uint64_t f;
  strata_status st = strata_world_create(rt->w, "feature", NULL, &f, err);
  if (!st) st = strata_object_set_position(rt->w, f, map, x, y, err);
  if (!st) st = sys_init(rt, f, sys, err);
  else strata_value_clear(sys);
  if (!st) *out = f;
  return st;
}

/* The area's way back out, and its place in the tree: see feature.h. */
static strata_status link_area(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                               uint64_t area, strata_error *err) {
  uint64_t owner = strata_map_area(rt, map, NULL);
  if (owner == area) return STRATA_OK;
  strata_status st = area_set_entrance(rt, area, map, x, y, err);
  if (st || !owner || area_parent_uid(rt, area)) return st;
  /* parentless: a child of the owner's area, unless the owner is below it */
  int depth = 0;
  for (uint64_t up = owner; up && depth < 1024; up = area_parent_uid(rt, up), depth++)
    if (up == area) return STRATA_OK;
  st = area_set_parent(rt, area, owner, err);
  if (!st) st = area_set_child(rt, owner, area, 1, err);
  return st;
}

/* The area and floor an entrance into map `to` leads to: the area it is a
** floor of, or a new base.one_map area around it (see feature.h). */
static strata_status area_of_map(strata_runtime *rt, uint64_t to, uint64_t *area, int64_t *floor,
                                 strata_error *err) {
  if ((*area = strata_map_area(rt, to, floor)) != 0) return STRATA_OK;
  *floor = 1;
  strata_status st = strata_area_create(rt, STRATA_AREA_ONE_MAP, NULL, area, err);
  return st ? st : strata_area_add_floor(rt, *area, to, 1, err);
}

strata_status strata_entrance_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                     uint64_t area, const int64_t *floor, uint64_t *feature,
                                     strata_error *err) {
  const char *what = "strata_entrance_create";
  uint64_t to_map = rt_object(rt, area, "map") ? area : 0;
  strata_status st = check_kind(rt, map, "map", NULL, what, "map", err);
  if (!st) st = check_kind(rt, area, "area", "map", what, "area", err);
  if (!st) st = map_check_cell(rt, map, x, y, what, err);
  if (st || (st = rt_begin(rt, err))) return st;
  int64_t n;
  if (to_map && !(st = area_of_map(rt, to_map, &area, &n, err)) && !floor) floor = &n;
  const strata_object *a = rt_object(rt, area, "area");
  const strata_area_archetype *arch = st || !a ? NULL : rt_area_archetype_opt(rt, a->archetype);
  strata_value sys = strata_value_nil();
  uint64_t f = 0;
  int held = index_current(rt);
  if (!st && !(st = entrance_sys_new(&sys, area, floor, arch ? arch->image : NULL, err)))
    st = place(rt, map, x, y, &sys, &f, err);
  if (!st) index_made(rt, held, map, f);
  if (!st) st = link_area(rt, map, x, y, area, err);
  if (rt_end(rt, st)) return st;
  if (feature) *feature = f;
  return STRATA_OK;
}

strata_status strata_stairs_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                   int64_t floor_delta, uint64_t *feature, strata_error *err) {
  const char *what = "strata_stairs_create";
  strata_status st = check_kind(rt, map, "map", NULL, what, "map", err);
  if (!st) st = map_check_cell(rt, map, x, y, what, err);
  if (st) return st;
  if (floor_delta == 0) return strata_error_in(err, STRATA_EARG, what, "floor_delta must not be 0");
  int64_t n, deepest;
  uint64_t a = strata_map_area(rt, map, &n);
  if (a && map_floor(rt, map, &n) && strata_area_deepest_floor(rt, a, &deepest) &&
      n + floor_delta > deepest)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_DEEPEST, a,
                               "floor %" PRId64 " of area#%" PRIu64 " is the deepest (%" PRId64 "): no stairs lead below it",
                               n, a, deepest);
  if ((st = rt_begin(rt, err))) return st;
  strata_value sys = strata_value_nil();
  uint64_t f = 0;
  int held = index_current(rt);
  if (!(st = stairs_sys_new(&sys, floor_delta, err))) st = place(rt, map, x, y, &sys, &f, err);
  if (!st) index_made(rt, held, map, f);
  if (rt_end(rt, st)) return st;
  if (feature) *feature = f;
  return STRATA_OK;
}

uint64_t strata_feature_target(const strata_runtime *rt, uint64_t feature, int *has_floor,
                               int64_t *floor) {
  int64_t n = 0, d = 0;
  int has = 0;
  uint64_t area = 0;
  switch (strata_feature_type_of(rt, feature)) {
  case STRATA_FEATURE_ENTRANCE:
    area = entrance_area(rt, feature);
    has = entrance_floor(rt, feature, &n);
    if (!has && rt_object(rt, area, "area")) { n = strata_area_starting_floor(rt, area); has = 1; }
    break;
  case STRATA_FEATURE_STAIRS: {
    uint64_t map = strata_world_object(rt->w, feature)->map;
    area = strata_map_area(rt, map, &n);
    d = strata_feature_floor_delta(rt, feature);
    has = area && map_floor(rt, map, &n) && d != 0;
    n += d;
    break;
  }
  default: break;
  }
  if (has_floor) *has_floor = has;
  if (floor) *floor = has ? n : 0;
  return area;
}
