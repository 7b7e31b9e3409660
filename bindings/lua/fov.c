/* fov.c - field of view from Lua: map:fov, visibility sets (strata.fov
** values), strata.line and strata.circle. */
#include "ltilemap.h"
#include "strata/bresenham.h"
#include "strata/fov.h"

#define FOV_MT "strata.fov"

typedef struct lfov {
  strata_fov_set *set; /* the core's; freed with the value */
} lfov;

static strata_fov_set *check_set(lua_State *L, int arg) {
  return ((lfov *)lstrata_checkudata(L, arg, FOV_MT))->set;
}

static lfov *push_set(lua_State *L) {
  lfov *ud = lua_newuserdatauv(L, sizeof *ud, 0);
  ud->set = NULL;
  luaL_setmetatable(L, FOV_MT);
  strata_error err;
  if ((ud->set = strata_fov_set_new(&err)) == NULL) lstrata_raise(L, NULL, &err);
  return ud;
}

/* m:fov(x, y [, { radius =, algorithm =, light_walls =, into = }]) -> a visibility set */
static int map_fov(lua_State *L) {
  static const char *const known[] = {"radius", "algorithm", "light_walls", "into", NULL};
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  int x = lstrata_check_int(L, 2), y = lstrata_check_int(L, 3);
  lstrata_check_options(L, 4, known, 1);
  strata_fov_options o;
  strata_fov_options_init(&o);
  strata_fov_set *into = NULL;
  if (lua_istable(L, 4)) {
    lua_Integer r = lstrata_opt_int(L, 4, "radius", 0);
    if (r < 0 || r > 0x3fffffff)
      return lstrata_argerror(L, 4, lua_pushfstring(L, "radius must be 0 (unlimited) or more, got %I", r));
    o.radius = (int)r;
    const char *alg = lstrata_opt_string(L, 4, "algorithm", "symmetric");
    if (!strata_fov_algorithm_parse(alg, &o.algorithm))
      return lstrata_argerror(L, 4, lua_pushfstring(L, "unknown algorithm '%s' (known: symmetric, "
                                                    "permissive, basic)", alg));
    o.light_walls = lstrata_opt_bool(L, 4, "light_walls", 1);
    if (lstrata_rawfield(L, 4, "into") != LUA_TNIL) {
      if (luaL_testudata(L, -1, FOV_MT) == NULL)
        return lstrata_argerror(L, 4, "option 'into' must be a visibility set (map:fov's)");
      into = check_set(L, -1);
    }
  }
  if (into == NULL) push_set(L);
  strata_fov_set *out = into ? into : check_set(L, -1);
  strata_error err;
  if (strata_tilemap_fov(m, x, y, &o, out, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  return 1;
}

/* set:visible(x, y) -> boolean */
static int fov_visible(lua_State *L) {
  strata_fov_set *s = check_set(L, 1);
  lua_Integer x = lstrata_checkinteger(L, 2), y = lstrata_checkinteger(L, 3);
  /* (a cell past the ints is outside any map: false, as the docs say of every such cell) */
  const int in = x >= 0 && y >= 0 && x <= 0x7fffffff && y <= 0x7fffffff;
  lua_pushboolean(L, in && strata_fov_set_visible(s, (int)x, (int)y));
  return 1;
}

/* set:count() -> cells in the set */
static int fov_count(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)strata_fov_set_count(check_set(L, 1)));
  return 1;
}

static int fov_cells_next(lua_State *L) {
  strata_fov_set *s = check_set(L, lua_upvalueindex(1));
  uint64_t cursor = (uint64_t)lua_tointeger(L, lua_upvalueindex(2));
  int x, y;
  if (!strata_fov_set_next(s, &cursor, &x, &y)) return 0;
  lua_pushinteger(L, (lua_Integer)cursor);
  lua_replace(L, lua_upvalueindex(2));
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

/* set:cells() -> iterator of x, y in row order */
static int fov_cells(lua_State *L) {
  check_set(L, 1);
  lua_settop(L, 1);
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, fov_cells_next, 2);
  return 1;
}

/* set:add(other) -> set: other's cells added (a light map of several sources) */
static int fov_add(lua_State *L) {
  strata_fov_set *s = check_set(L, 1), *other = check_set(L, 2);
  strata_error err;
  if (strata_fov_set_add(s, other, &err) != STRATA_OK) return lstrata_raise(L, NULL, &err);
  lua_settop(L, 1);
  return 1;
}

static int fov_gc(lua_State *L) {
  lfov *ud = lstrata_checkudata(L, 1, FOV_MT);
  strata_fov_set_free(ud->set);
  ud->set = NULL;
  return 0;
}

static int fov_tostring(lua_State *L) {
  strata_fov_set *s = check_set(L, 1);
  lua_pushfstring(L, "strata.fov %I cells of a %dx%d map", (lua_Integer)strata_fov_set_count(s),
                  strata_fov_set_width(s), strata_fov_set_height(s));
  return 1;
}

static int line_next(lua_State *L) {
  strata_line *l = lua_touserdata(L, lua_upvalueindex(1));
  int x, y;
  if (!strata_line_next(l, &x, &y)) return 0;
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

/* strata.line(x0, y0, x1, y1) -> iterator of the line's cells x, y, both ends included */
static int l_line(lua_State *L) {
  int x0 = lstrata_check_int(L, 1), y0 = lstrata_check_int(L, 2);
  int x1 = lstrata_check_int(L, 3), y1 = lstrata_check_int(L, 4);
  strata_line *l = lua_newuserdatauv(L, sizeof *l, 0);
  strata_line_init(l, x0, y0, x1, y1);
  lua_pushcclosure(L, line_next, 1);
  return 1;
}

static int circle_next(lua_State *L) {
  lua_Integer i = lua_tointeger(L, lua_upvalueindex(2));
  if (lua_rawgeti(L, lua_upvalueindex(1), 2 * i + 1) == LUA_TNIL) return 0;
  lua_rawgeti(L, lua_upvalueindex(1), 2 * i + 2);
  lua_pushinteger(L, i + 1);
  lua_replace(L, lua_upvalueindex(2));
  return 2;
}

/* strata.circle(x, y, r) -> iterator of the cells x, y of the circle of radius r
** around (x, y), clockwise from the top */
static int l_circle(lua_State *L) {
  int cx = lstrata_check_int(L, 1), cy = lstrata_check_int(L, 2);
  lua_Integer r = lstrata_checkinteger(L, 3);
  if (r < 0 || r > 65535) return lstrata_argnerror(L, 3, "radius must be 0 to 65535");
  size_t n = strata_circle((int)r, NULL, NULL, 0);
  int *xy = lua_newuserdatauv(L, 2 * n * sizeof *xy, 0);
  if (strata_circle((int)r, xy, xy + n, n) != n) {
    strata_error err;
    strata_error_nomem(&err, "for a circle of radius %d", (int)r);
    return lstrata_raise(L, NULL, &err);
  }
  lstrata_checkstack(L, 4, "a circle");
  lua_createtable(L, (int)(2 * n), 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)cx + xy[i]);
    lua_rawseti(L, -2, (lua_Integer)(2 * i + 1));
    lua_pushinteger(L, (lua_Integer)cy + xy[n + i]);
    lua_rawseti(L, -2, (lua_Integer)(2 * i + 2));
  }
  lua_pushinteger(L, 0);
  lua_pushcclosure(L, circle_next, 2);
  return 1;
}

void lstrata_open_fov(lua_State *L) {
  static const luaL_Reg meta[] = {{"__gc", fov_gc}, {"__tostring", fov_tostring}, {NULL, NULL}};
  static const luaL_Reg methods[] = {{"visible", fov_visible}, {"count", fov_count},
                                     {"cells", fov_cells}, {"add", fov_add}, {NULL, NULL}};
  static const luaL_Reg map_methods[] = {{"fov", map_fov}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"line", l_line}, {"circle", l_circle}, {NULL, NULL}};
  lstrata_register_type(L, FOV_MT, "fov", meta, methods);
  lstrata_add_methods(L, TILEMAP_MT, "map", map_methods);
  /* strata.line and strata.circle (lua/strata/init.lua lifts them from here) */
  lstrata_add_functions(L, "geometry", 0, funcs);
  lstrata_name_functions(L, "strata.", funcs);
}
