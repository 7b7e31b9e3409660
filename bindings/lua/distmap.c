/*
** distmap.c - strata.distmap: distance maps of tile maps (strata/distmap.h).
**
**   map:distance_map(goals [, { connectivity =, diagonal_cost =, max_cost =, occupied = }]) -> field
**     goals: a list of points { {x, y}, ... }; { token = "stairs" } (or a list
**     of names): every cell holding one; or a function(x, y) called once per
**     cell, row by row, whose truthy results pick the goals (read as
**     booleans, raw: called from mod code it runs under the mod's budget,
**     which is also checked every 4096 cells).
**   field:at(x, y) -> distance | nil      field:step_down(x, y) -> x, y | nil
**   field:flee([factor = 1.2]) -> a new field    field:update() -> field
**   field.width, field.height
**
** The field holds the core's object and, as its uservalue, the map's
** userdata, which update reads again (a closed or deleted map is refused).
** Goals cross as plain data: the points are read once into an array, and a
** predicate's answers are collected before anything is computed, the map
** then checked again (the predicate may have closed it).
*/
#include <math.h>
#include <string.h>

#include "lguard.h"
#include "ltilemap.h"
#include "strata/distmap.h"

#define DISTMAP_MT "strata.distmap"
#define FLEE_DEFAULT 1.2

typedef struct ldistmap {
  strata_distmap *d; /* NULL once collected */
} ldistmap;

static ldistmap *check_ud(lua_State *L, int arg) { return lstrata_checkudata(L, arg, DISTMAP_MT); }

/* A new field object whose uservalue is the map at map_index. */
static ldistmap *push_field(lua_State *L, int map_index) {
  map_index = lua_absindex(L, map_index);
  ldistmap *ud = lua_newuserdatauv(L, sizeof *ud, 1);
  ud->d = NULL;
  luaL_setmetatable(L, DISTMAP_MT);
  strata_error err;
  if ((ud->d = strata_distmap_new(&err)) == NULL) lstrata_raise(L, NULL, &err);
  lua_pushvalue(L, map_index);
  lua_setiuservalue(L, -2, 1);
  return ud;
}

/* Cell indices collected in a Lua table (the garbage collector owns them
** whatever raises), turned into an array when done. */
typedef struct goal_list {
  int table;
  lua_Integer n;
} goal_list;

static void goal_add(lua_State *L, goal_list *g, uint32_t cell) {
  lua_pushinteger(L, (lua_Integer)cell);
  lua_rawseti(L, g->table, ++g->n);
}

/* The goals as an array (a userdata left on the stack). */
static uint32_t *goal_array(lua_State *L, const goal_list *g) {
  uint32_t *cells = lua_newuserdatauv(L, (size_t)(g->n ? g->n : 1) * sizeof *cells, 0);
  for (lua_Integer i = 1; i <= g->n; i++) {
    lua_rawgeti(L, g->table, i);
    cells[i - 1] = (uint32_t)lua_tointeger(L, -1);
    lua_pop(L, 1);
  }
  return cells;
}

static void goals_from_points(lua_State *L, int arg, strata_tilemap *m, goal_list *g) {
  const int w = strata_tilemap_width(m), h = strata_tilemap_height(m);
  const lua_Integer n = (lua_Integer)lua_rawlen(L, arg); /* raw: a lying __len cannot make it loop */
  for (lua_Integer i = 1; i <= n; i++) {
    if ((i & 4095) == 0) lstrata_guard_charge(L, 4096);
    lua_rawgeti(L, arg, i);
    lua_Integer x, y;
    if (!lstrata_test_point(L, -1, &x, &y))
      lstrata_error(L, "goal %I must be a point {x, y} with integer coordinates, got %s", i, luaL_typename(L, -1));
    lua_pop(L, 1);
    if (x < 0 || y < 0 || x >= w || y >= h)
      lstrata_error(L, "goal %I (%I, %I) is outside the %dx%d map", i, x, y, w, h);
    goal_add(L, g, (uint32_t)y * (uint32_t)w + (uint32_t)x);
  }
}

/* { token = "name" } or { token = { "a", "b" } }: every cell holding one. */
static void goals_from_tokens(lua_State *L, int arg, strata_tilemap *m, goal_list *g) {
  static const char *const known[] = {"token", NULL};
  lstrata_check_options(L, arg, known, 0);
  strata_token want[64];
  int count = 0;
  const strata_tokens *t = strata_tilemap_tokens(m);
  lstrata_rawfield(L, arg, "token");
  const int list = lua_type(L, -1) == LUA_TTABLE;
  const lua_Integer n = list ? luaL_len(L, -1) : 1;
  for (lua_Integer i = 1; i <= n; i++) {
    if (list) lua_geti(L, -1, i);
    size_t len;
    const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &len) : NULL;
    if (name == NULL || count == 64)
      lstrata_error(L, "goal token must be a name or a list of at most 64 names");
    want[count] = strata_tokens_find(t, name, len);
    count += want[count] != 0; /* a name never seen: nothing holds it */
    lua_pop(L, list ? 1 : 0);
  }
  lua_pop(L, 1);
  const int w = strata_tilemap_width(m), h = strata_tilemap_height(m);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      for (int k = 0; k < count; k++)
        if (strata_tilemap_has(m, x, y, want[k])) {
          goal_add(L, g, (uint32_t)y * (uint32_t)w + (uint32_t)x);
          break;
        }
}

/* A predicate: called per cell, its answers read as booleans. */
static void goals_from_function(lua_State *L, int arg, strata_tilemap *m, goal_list *g) {
  const int w = strata_tilemap_width(m), h = strata_tilemap_height(m);
  uint32_t i = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++, i++) {
      if ((i & 4095) == 4095) lstrata_guard_charge(L, 4096);
      lua_pushvalue(L, arg);
      lua_pushinteger(L, x);
      lua_pushinteger(L, y);
      lua_call(L, 2, 1);
      if (lua_toboolean(L, -1)) goal_add(L, g, i);
      lua_pop(L, 1);
    }
}

/* map:distance_map(goals [, opts]) */
static int map_distance_map(lua_State *L) {
  /* diagonal_cost as find_path names it: "diagonal" is refused naming it */
  static const char *const known[] = {"connectivity", "diagonal_cost", "max_cost", "occupied", NULL};
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  lstrata_check_options(L, 3, known, 1);
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  if (lua_istable(L, 3)) {
    o.connectivity = (int)lstrata_opt_int(L, 3, "connectivity", 4);
    o.diagonal_cost = lstrata_opt_number(L, 3, "diagonal_cost", o.diagonal_cost);
    o.max_cost = lstrata_opt_number(L, 3, "max_cost", o.max_cost);
    lstrata_opt_occupied(L, 3, &o.occupied, &o.occupied_cost);
  }
  lua_settop(L, 3);
  lua_newtable(L);
  goal_list g = {lua_gettop(L), 0};
  if (lua_type(L, 2) == LUA_TFUNCTION) {
    goals_from_function(L, 2, m, &g);
    m = lstrata_check_tilemap(L, 1); /* the predicate may have closed it */
  } else if (lua_type(L, 2) != LUA_TTABLE) {
    return lstrata_argnerror(L, 2, "goals must be a list of points, { token = } or a function(x, y)");
  } else if (lstrata_rawfield(L, 2, "token") != LUA_TNIL) {
    lua_pop(L, 1);
    goals_from_tokens(L, 2, m, &g);
  } else {
    lua_pop(L, 1);
    goals_from_points(L, 2, m, &g);
  }
  const uint32_t *cells = goal_array(L, &g);
  ldistmap *ud = push_field(L, 1);
  strata_error err;
  if (strata_distmap_compute(ud->d, m, cells, (size_t)g.n, &o, &err) != STRATA_OK)
    return lstrata_raise(L, NULL, &err);
  return 1;
}

/* The field at arg, computed. */
static strata_distmap *check_field(lua_State *L, int arg) {
  ldistmap *ud = check_ud(L, arg);
  if (ud->d == NULL || strata_distmap_width(ud->d) == 0) lstrata_argerror(L, arg, "the distance map is empty");
  return ud->d;
}

static void check_cell(lua_State *L, const strata_distmap *d, int *x, int *y) {
  *x = lstrata_check_int(L, 2);
  *y = lstrata_check_int(L, 3);
  const int w = strata_distmap_width(d), h = strata_distmap_height(d);
  if (*x < 0 || *y < 0 || *x >= w || *y >= h)
    lstrata_error(L, "cell (%d, %d) is outside the %dx%d map", *x, *y, w, h);
}

/* field:at(x, y) -> distance, or nil when unreached */
static int field_at(lua_State *L) {
  const strata_distmap *d = check_field(L, 1);
  int x, y;
  check_cell(L, d, &x, &y);
  double dist;
  if (!strata_distmap_at(d, x, y, &dist)) return 0;
  lua_pushnumber(L, dist);
  return 1;
}

/* field:step_down(x, y) -> x, y of the next cell downhill, or nil */
static int field_step_down(lua_State *L) {
  const strata_distmap *d = check_field(L, 1);
  int x, y, nx, ny;
  check_cell(L, d, &x, &y);
  if (!strata_distmap_step_down(d, x, y, &nx, &ny)) return 0;
  lua_pushinteger(L, nx);
  lua_pushinteger(L, ny);
  return 2;
}

/* field:flee([factor]) -> a new field: the safety map */
static int field_flee(lua_State *L) {
  const strata_distmap *d = check_field(L, 1);
  const double factor = lua_isnoneornil(L, 2) ? FLEE_DEFAULT : lstrata_checknumber(L, 2);
  lua_getiuservalue(L, 1, 1);
  ldistmap *ud = push_field(L, -1);
  strata_error err;
  if (strata_distmap_flee(ud->d, d, factor, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  return 1;
}

/* field:update() -> field, brought up to date with its map's edits */
static int field_update(lua_State *L) {
  strata_distmap *d = check_field(L, 1);
  lua_getiuservalue(L, 1, 1);
  strata_tilemap *m = lstrata_check_tilemap(L, lua_gettop(L));
  strata_error err;
  if (strata_distmap_update(d, m, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  lua_settop(L, 1);
  return 1;
}

static int field_index(lua_State *L) {
  ldistmap *ud = check_ud(L, 1);
  const char *key = lua_tostring(L, 2);
  if (key != NULL && ud->d != NULL && (strcmp(key, "width") == 0 || strcmp(key, "height") == 0)) {
    lua_pushinteger(L, key[0] == 'w' ? strata_distmap_width(ud->d) : strata_distmap_height(ud->d));
    return 1;
  }
  luaL_getmetafield(L, 1, "methods");
  lua_getfield(L, -1, key ? key : "");
  return 1;
}

static int field_gc(lua_State *L) {
  ldistmap *ud = check_ud(L, 1);
  strata_distmap_free(ud->d);
  ud->d = NULL;
  return 0;
}

static int field_tostring(lua_State *L) {
  ldistmap *ud = check_ud(L, 1);
  if (ud->d == NULL) lua_pushliteral(L, "strata.distmap (empty)");
  else lua_pushfstring(L, "strata.distmap %dx%d", strata_distmap_width(ud->d), strata_distmap_height(ud->d));
  return 1;
}

void lstrata_open_distmap(lua_State *L) {
  static const luaL_Reg methods[] = {{"at", field_at}, {"step_down", field_step_down},
                                     {"flee", field_flee}, {"update", field_update}, {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__index", field_index}, {"__gc", field_gc},
                                  {"__tostring", field_tostring}, {NULL, NULL}};
  static const luaL_Reg map_methods[] = {{"distance_map", map_distance_map}, {NULL, NULL}};
  lstrata_register_type(L, DISTMAP_MT, "distmap", meta, methods);
  lstrata_add_methods(L, TILEMAP_MT, "map", map_methods);
}
