/*
** schema.c - the bookkeeping of areas, maps, features and the world record
** as methods of the "strata.runtime" userdata (installed by runtime.c): the
** core's getters (area.h, feature.h), taking and giving uids, so that the
** Lua layer reads that state through the core and never through `sys`
** paths (whose spelling is core/src/sys.c's alone). nil stands for none.
*/
#include "lruntime.h"
#include "lschema.h"
#include "lworld.h"
#include "strata/area.h"
#include "strata/feature.h"

static const strata_runtime *rt_at(lua_State *L) { return lstrata_check_runtime(L, 1)->rt; }
static uint64_t uid_at(lua_State *L, int arg) { return (uint64_t)lstrata_checkinteger(L, arg); }

static int push_uid(lua_State *L, uint64_t uid) {
  if (uid) lua_pushinteger(L, (lua_Integer)uid);
  else lua_pushnil(L);
  return 1;
}

static int push_opt_int(lua_State *L, int has, int64_t n) {
  if (has) lua_pushinteger(L, (lua_Integer)n);
  else lua_pushnil(L);
  return 1;
}

static int push_str(lua_State *L, const char *s) {
  if (s) lua_pushstring(L, s);
  else lua_pushnil(L);
  return 1;
}

/* rt:map_area(map) -> area uid, floor | nil */
static int s_map_area(lua_State *L) {
  int64_t floor;
  uint64_t a = strata_map_area(rt_at(L), uid_at(L, 2), &floor);
  if (!a) { lua_pushnil(L); return 1; }
  lua_pushinteger(L, (lua_Integer)a);
  lua_pushinteger(L, (lua_Integer)floor);
  return 2;
}

/* rt:map_level(map) -> n */
static int s_map_level(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)strata_map_level(rt_at(L), uid_at(L, 2)));
  return 1;
}

/* rt:area_floor_map(area, n) -> map uid | nil */
static int s_area_floor_map(lua_State *L) {
  return push_uid(L, strata_area_floor_map(rt_at(L), uid_at(L, 2), lstrata_checkinteger(L, 3)));
}

/* rt:area_floors(area) -> { n, ... } in increasing order */
static int s_area_floors(lua_State *L) {
  const strata_runtime *rt = rt_at(L);
  uint64_t area = uid_at(L, 2);
  size_t n = strata_area_floors(rt, area, NULL, NULL, 0);
  int64_t *fl = lua_newuserdatauv(L, (n ? n : 1) * sizeof *fl, 0); /* freed by the collector */
  n = strata_area_floors(rt, area, fl, NULL, n);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)fl[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* rt:area_children(area) -> { uid, ... } in uid order */
static int s_area_children(lua_State *L) {
  const strata_runtime *rt = rt_at(L);
  uint64_t area = uid_at(L, 2);
  size_t n = strata_area_children(rt, area, NULL, 0);
  uint64_t *v = lua_newuserdatauv(L, (n ? n : 1) * sizeof *v, 0);
  lstrata_push_uids(L, v, strata_area_children(rt, area, v, n));
  return 1;
}

/* rt:area_child_position(area, child) -> x, y, floor | nil */
static int s_area_child_position(lua_State *L) {
  int64_t x, y, floor;
  if (!strata_area_child_position(rt_at(L), uid_at(L, 2), uid_at(L, 3), &x, &y, &floor)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, (lua_Integer)x);
  lua_pushinteger(L, (lua_Integer)y);
  lua_pushinteger(L, (lua_Integer)floor);
  return 3;
}

/* rt:area_entrance(area) -> map uid, x, y | nil */
static int s_area_entrance(lua_State *L) {
  int64_t x, y;
  uint64_t m = strata_area_entrance(rt_at(L), uid_at(L, 2), &x, &y);
  if (!m) { lua_pushnil(L); return 1; }
  lua_pushinteger(L, (lua_Integer)m);
  lua_pushinteger(L, (lua_Integer)x);
  lua_pushinteger(L, (lua_Integer)y);
  return 3;
}

/* rt:area_info(area) -> parent uid | nil, starting floor, deepest floor | nil,
** deepest visited | nil, unique ID | nil, generator | nil, conquered */
static int s_area_info(lua_State *L) {
  const strata_runtime *rt = rt_at(L);
  uint64_t a = uid_at(L, 2);
  int64_t deepest = 0, visited = 0;
  int has_deepest = strata_area_deepest_floor(rt, a, &deepest);
  int has_visited = strata_area_deepest_visited(rt, a, &visited);
  push_uid(L, strata_area_parent(rt, a));
  lua_pushinteger(L, (lua_Integer)strata_area_starting_floor(rt, a));
  push_opt_int(L, has_deepest, deepest);
  push_opt_int(L, has_visited, visited);
  push_str(L, strata_area_unique_id(rt, a));
  push_str(L, strata_area_generator(rt, a));
  lua_pushboolean(L, strata_area_is_conquered(rt, a));
  return 7;
}

/* A copy of a stored table (references as handles), or nil. */
static int push_stored(lua_State *L, const lruntime *lr, const strata_value *v) {
  if (!v) { lua_pushnil(L); return 1; }
  lstrata_runtime_table(L, lr);
  lua_rawgeti(L, -1, T_STATE);
  lstrata_push_value(L, lua_gettop(L), v);
  return 1;
}

/* rt:area_params(area) -> a copy of the params table | nil */
static int s_area_params(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  return push_stored(L, lr, strata_area_params(lr->rt, uid_at(L, 2)));
}

/* rt:map_tokens(map) -> a copy of { [name] = traits } | nil: the map's own tokens */
static int s_map_tokens(lua_State *L) {
  lruntime *lr = lstrata_check_runtime(L, 1);
  return push_stored(L, lr, strata_map_tokens(lr->rt, uid_at(L, 2)));
}

/* rt:feature_info(feature) -> "entrance" | "stairs" | nil, floor_delta | nil,
** target area uid | nil, target floor | nil, image | nil */
static int s_feature_info(lua_State *L) {
  const strata_runtime *rt = rt_at(L);
  uint64_t f = uid_at(L, 2);
  strata_feature_type t = strata_feature_type_of(rt, f);
  int has_floor = 0;
  int64_t floor = 0;
  uint64_t area = strata_feature_target(rt, f, &has_floor, &floor);
  push_str(L, t == STRATA_FEATURE_ENTRANCE ? "entrance" : t == STRATA_FEATURE_STAIRS ? "stairs" : NULL);
  push_opt_int(L, t == STRATA_FEATURE_STAIRS, strata_feature_floor_delta(rt, f));
  push_uid(L, area);
  push_opt_int(L, has_floor, floor);
  push_str(L, strata_feature_image(rt, f));
  return 5;
}

const luaL_Reg lstrata_schema_methods[] = {
  { "map_area", s_map_area }, { "map_level", s_map_level }, { "map_tokens", s_map_tokens },
  { "area_floor_map", s_area_floor_map }, { "area_floors", s_area_floors },
  { "area_children", s_area_children }, { "area_child_position", s_area_child_position },
  { "area_entrance", s_area_entrance }, { "area_info", s_area_info }, { "area_params", s_area_params },
  { "feature_info", s_feature_info }, { NULL, NULL } };
