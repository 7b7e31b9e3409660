/*
** feature.c - entrances and stairs. Stairs keep a relative floor_delta,
** resolved when they are used (travel.c), so that a generator can place them
** on a map that is not a floor of anything yet.
*/
#include "runtime_internal.h"

#include <inttypes.h>

static strata_status check_kind(const strata_runtime *rt, uint64_t uid, const char *kind,
                                const char *what, const char *role, strata_error *err) {
  char b[48];
  strata_object *o = strata_world_object(rt->w, uid);
  if (!o) return strata_error_refuse(err, STRATA_ENOTFOUND, what, STRATA_REFUSED_DELETED, uid, "%s: %s was deleted",
                                     role, rt_label(rt, uid, b));
  if (strcmp(o->kind, kind) != 0)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_KIND, uid, "%s: expected a%s %s, got %s", role,
                               kind[0] == 'a' ? "n" : "", kind, rt_label(rt, uid, b));
  return STRATA_OK;
}

/* A feature at (x, y) on map with sys = the table `sys` (taken over). */
static strata_status place(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                           strata_value *sys, uint64_t *out, strata_error *err) {
  uint64_t f;
  strata_status st = strata_world_create(rt->w, "feature", NULL, &f, err);
  if (!st) st = strata_object_set_position(rt->w, f, map, x, y, err);
  if (!st) st = sys_set(rt->w, f, NULL, 0, sys, err);
  else strata_value_clear(sys);
  if (!st) *out = f;
  return st;
}

static strata_status put(strata_value *t, const char *key, strata_value v, strata_error *err) {
  strata_value k = K(key);
  strata_status st = strata_vtable_set(t->u.t, &k, &v, err);
  if (st) strata_value_clear(&v);
  return st;
}

static strata_status put_str(strata_value *t, const char *key, const char *s, strata_error *err) {
  strata_value v = strata_value_nil();
  strata_status st = strata_value_string(&v, s, strlen(s), err);
  return st ? st : put(t, key, v, err);
}

/* The area's way back out, and its place in the tree: see feature.h. */
static strata_status link_area(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                               uint64_t area, strata_error *err) {
  strata_world *w = rt->w;
  uint64_t owner = sys_uid(w, map, SYS(K("area")));
  if (owner == area) return STRATA_OK;
  strata_value e = strata_value_nil();
  strata_status st = strata_value_table(&e, err);
  if (!st) st = put(&e, "map", strata_value_int((int64_t)map), err);
  if (!st) st = put(&e, "x", strata_value_int(x), err);
  if (!st) st = put(&e, "y", strata_value_int(y), err);
  if (!st) st = sys_set(w, area, SYS(K("entrance")), &e, err);
  else strata_value_clear(&e);
  if (st || !owner || sys_uid(w, area, SYS(K("parent")))) return st;
  /* parentless: a child of the owner's area, unless the owner is below it */
  int depth = 0;
  for (uint64_t up = owner; up && depth < 1024; up = sys_uid(w, up, SYS(K("parent"))), depth++)
    if (up == area) return STRATA_OK;
  st = sys_set_uid(w, area, SYS(K("parent")), owner, err);
  strata_value yes = strata_value_bool(1);
  if (!st) st = sys_set(w, owner, SYS(K("children"), I((int64_t)area)), &yes, err);
  return st;
}

strata_status strata_entrance_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                     uint64_t area, const int64_t *floor, uint64_t *feature,
                                     strata_error *err) {
  const char *what = "strata_entrance_create";
  strata_status st = check_kind(rt, map, "map", what, "map", err);
  if (!st) st = check_kind(rt, area, "area", what, "area", err);
  if (!st) st = map_check_cell(rt, map, x, y, what, err);
  if (st || (st = rt_begin(rt, err))) return st;
  strata_value sys = strata_value_nil();
  uint64_t f = 0;
  if (!(st = strata_value_table(&sys, err))) {
    st = put_str(&sys, "type", "entrance", err);
    if (!st) st = put(&sys, "area", strata_value_int((int64_t)area), err);
    if (!st && floor) st = put(&sys, "floor", strata_value_int(*floor), err);
    if (!st) st = place(rt, map, x, y, &sys, &f, err);
    else strata_value_clear(&sys);
  }
  if (!st) st = link_area(rt, map, x, y, area, err);
  if (rt_end(rt, st)) return st;
  if (feature) *feature = f;
  return STRATA_OK;
}

strata_status strata_stairs_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                   int64_t floor_delta, uint64_t *feature, strata_error *err) {
  const char *what = "strata_stairs_create";
  strata_status st = check_kind(rt, map, "map", what, "map", err);
  if (!st) st = map_check_cell(rt, map, x, y, what, err);
  if (st) return st;
  if (floor_delta == 0) return strata_error_in(err, STRATA_EARG, what, "floor_delta must not be 0");
  int64_t n, deepest;
  uint64_t a = sys_uid(rt->w, map, SYS(K("area")));
  if (a && sys_int(rt->w, map, SYS(K("floor")), &n) && sys_int(rt->w, a, SYS(K("deepest_floor")), &deepest) &&
      n + floor_delta > deepest)
    return strata_error_refuse(err, STRATA_EARG, what, STRATA_REFUSED_DEEPEST, a,
                               "floor %" PRId64 " of area#%" PRIu64 " is the deepest (%" PRId64 "): no stairs lead below it",
                               n, a, deepest);
  if ((st = rt_begin(rt, err))) return st;
  strata_value sys = strata_value_nil();
  uint64_t f = 0;
  if (!(st = strata_value_table(&sys, err))) {
    st = put_str(&sys, "type", "stairs", err);
    if (!st) st = put(&sys, "floor_delta", strata_value_int(floor_delta), err);
    if (!st) st = place(rt, map, x, y, &sys, &f, err);
    else strata_value_clear(&sys);
  }
  if (rt_end(rt, st)) return st;
  if (feature) *feature = f;
  return STRATA_OK;
}

strata_feature_type strata_feature_type_of(const strata_runtime *rt, uint64_t feature) {
  const char *t = sys_str(rt->w, feature, SYS(K("type")));
  if (!t || !rt_object(rt, feature, "feature")) return STRATA_FEATURE_NONE;
  if (strcmp(t, "entrance") == 0) return STRATA_FEATURE_ENTRANCE;
  if (strcmp(t, "stairs") == 0) return STRATA_FEATURE_STAIRS;
  return STRATA_FEATURE_NONE;
}

int64_t strata_feature_floor_delta(const strata_runtime *rt, uint64_t feature) {
  int64_t d;
  if (strata_feature_type_of(rt, feature) != STRATA_FEATURE_STAIRS) return 0;
  return sys_int(rt->w, feature, SYS(K("floor_delta")), &d) ? d : 0;
}

uint64_t strata_feature_target(const strata_runtime *rt, uint64_t feature, int *has_floor,
                               int64_t *floor) {
  int64_t n = 0, d = 0;
  int has = 0;
  uint64_t area = 0;
  switch (strata_feature_type_of(rt, feature)) {
  case STRATA_FEATURE_ENTRANCE:
    area = sys_uid(rt->w, feature, SYS(K("area")));
    has = sys_int(rt->w, feature, SYS(K("floor")), &n);
    if (!has && rt_object(rt, area, "area")) { n = strata_area_starting_floor(rt, area); has = 1; }
    break;
  case STRATA_FEATURE_STAIRS: {
    uint64_t map = strata_world_object(rt->w, feature)->map;
    area = sys_uid(rt->w, map, SYS(K("area")));
    has = area && sys_int(rt->w, map, SYS(K("floor")), &n) &&
          sys_int(rt->w, feature, SYS(K("floor_delta")), &d);
    n += d;
    break;
  }
  default: break;
  }
  if (has_floor) *has_floor = has;
  if (floor) *floor = has ? n : 0;
  return area;
}
