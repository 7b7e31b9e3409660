/*
** feature.c - entrances and stairs. Stairs keep a relative floor_delta,
** resolved when they are used (travel.c), so that a generator can place them
** on a map that is not a floor of anything yet.
*/
#include "runtime_internal.h"

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
  if (!st && !(st = entrance_sys_new(&sys, area, floor, arch ? arch->image : NULL, err)))
    st = place(rt, map, x, y, &sys, &f, err);
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
  if (!(st = stairs_sys_new(&sys, floor_delta, err))) st = place(rt, map, x, y, &sys, &f, err);
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
