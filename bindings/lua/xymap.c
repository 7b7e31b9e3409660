/* xymap.c - strata.xymap: maps drawn in the XY map language, from Lua. */
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "lstrata.h"

#define XYMAP_MT "strata.xymap"
#define XYGRID_MT "strata.xygrid"

typedef struct lstrata_xymap {
  strata_xymap *map;
  int in_grid; /* a grid uses the map: only collecting it may free it then */
} lstrata_xymap;

static strata_xymap *check_xymap(lua_State *L, int arg) {
  lstrata_xymap *ud = lstrata_checkudata(L, arg, XYMAP_MT);
  if (ud->map == NULL) lstrata_argerror(L, arg, "the map was closed");
  return ud->map;
}

strata_xymap *lstrata_check_xymap(lua_State *L, int arg) { return check_xymap(L, arg); }

/* A direction-keyed table ({ n = ..., sw = ... }) into out[8] via fill(). */
static void check_direction_key(lua_State *L, int legend_arg, const char *field, int *dir) {
  const char *key = lua_tostring(L, -2);
  *dir = key ? strata_xy_direction(key) : -1;
  if (*dir < 0)
    lstrata_argerror(L, legend_arg, lua_pushfstring(L, "legend field '%s' has a key that is not a "
                                                    "direction (n, ne, e, se, s, sw, w, nw)", field));
}

/* Reads legend = { [symbol] = { kind =, display =, weight =, weights =,
** directions =, aliases =, interrupt =, average =, target = } }. spawn_aliases
** and prototype are accepted for the world's grid (spawning rooms and exits)
** and mean nothing to the map's shape. */
static size_t check_legend(lua_State *L, int opts, strata_xy_legend **out) {
  static const char *const known[] = {"kind", "display", "weight", "weights", "directions",
                                      "aliases", "interrupt", "average", "target",
                                      "spawn_aliases", "prototype", NULL};
  *out = NULL;
  if (lua_getfield(L, opts, "legend") == LUA_TNIL) {
    lua_pop(L, 1);
    return 0;
  }
  if (!lua_istable(L, -1)) lstrata_argerror(L, 2, "option 'legend' must be a table");
  int lt = lua_gettop(L);
  size_t n = 0;
  lua_pushnil(L);
  while (lua_next(L, lt)) n++, lua_pop(L, 1);
  strata_xy_legend *entries = lua_newuserdatauv(L, (n ? n : 1) * sizeof *entries, 0);
  size_t i = 0;
  lua_pushnil(L);
  while (lua_next(L, lt)) {
    size_t klen;
    const char *key = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &klen) : NULL;
    if (key == NULL || klen != 1 || key[0] == ' ' || key[0] == '\n')
      lstrata_argerror(L, 2, lua_pushfstring(L, "Map-legend key '%s' is invalid: keys must be one "
                                             "character other than space",
                                             key ? key : luaL_typename(L, -2)));
    if (!lua_istable(L, -1))
      lstrata_argerror(L, 2, lua_pushfstring(L, "legend entry '%s' must be a table", key));
    int e = lua_gettop(L);
    lstrata_check_options(L, e, known, 0);
    const char *kind = lstrata_opt_string(L, e, "kind", NULL);
    int k = kind ? strata_xy_kind_parse(kind) : -1;
    if (k < 0)
      lstrata_argerror(L, 2, lua_pushfstring(L, "legend entry '%s' needs a known kind (node, "
                                             "interrupt_node, transition, ns, ew, nesw, senw, plus, "
                                             "cross, oneway_n/e/s/w, router, up, down, blocked, "
                                             "interrupt_link, teleporter, link), got %s",
                                             key, kind ? kind : "none"));
    strata_xy_legend *lg = &entries[i++];
    strata_xy_legend_default((strata_xy_kind)k, key[0], lg);
    const char *display = lstrata_opt_string(L, e, "display", NULL);
    if (display) {
      if (strlen(display) >= sizeof lg->display) lstrata_argerror(L, 2, "legend display is too long");
      strcpy(lg->display, display);
    }
    /* A weight below 1 is refused by the parser where the link is drawn. */
    lg->default_weight = lstrata_opt_number(L, e, "weight", lg->default_weight);
    if (!isfinite(lg->default_weight)) lstrata_argerror(L, 2, "legend weight must be a finite number");
    lg->interrupt = lstrata_opt_bool(L, e, "interrupt", lg->interrupt);
    lg->average = lstrata_opt_bool(L, e, "average", lg->average);
    if (lua_getfield(L, e, "weights") == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        int d;
        check_direction_key(L, 2, "weights", &d);
        /* Negative values mean "the default weight" to the C legend: refused
        ** here, the others where the link is drawn. */
        if (lua_type(L, -1) != LUA_TNUMBER || !(lua_tonumber(L, -1) >= 0) || !isfinite(lua_tonumber(L, -1)))
          lstrata_argerror(L, 2, lua_pushfstring(L, "legend entry '%s': weights.%s must be a number >= 1 (link "
                                                 "weights must be >= 1)", key, lua_tostring(L, -2)));
        lg->weights[d] = lua_tonumber(L, -1);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, e, "directions") == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        int from, to = lua_type(L, -1) == LUA_TSTRING ? strata_xy_direction(lua_tostring(L, -1)) : -1;
        check_direction_key(L, 2, "directions", &from);
        if (to < 0) lstrata_argerror(L, 2, "legend directions map a direction to a direction");
        lg->directions[from] = (int8_t)to;
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, e, "aliases") == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        int d;
        check_direction_key(L, 2, "aliases", &d);
        const char *name = lua_tostring(L, -1);
        if (name == NULL || !*name || strlen(name) >= STRATA_XY_NAME_MAX)
          lstrata_argerror(L, 2, "legend aliases must be short non-empty names");
        strcpy(lg->aliases[d], name);
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    if (lua_getfield(L, e, "target") == LUA_TTABLE) {
      lua_geti(L, -1, 1), lua_geti(L, -2, 2), lua_geti(L, -3, 3);
      if (!lua_isnumber(L, -3) || !lua_isnumber(L, -2) || lua_isnil(L, -1))
        lstrata_argerror(L, 2, "legend target must be { X, Y, Z }");
      lg->has_target = 1;
      lg->target_x = lua_tonumber(L, -3);
      lg->target_y = lua_tonumber(L, -2);
      const char *z = luaL_tolstring(L, -1, NULL);
      if (strlen(z) >= sizeof lg->target_z) lstrata_argerror(L, 2, "legend target Z is too long");
      strcpy(lg->target_z, z);
      lua_pop(L, 4);
    }
    lua_pop(L, 1);
    lua_pop(L, 1); /* the entry */
  }
  *out = entries; /* kept alive on the stack until parse returns */
  return n;
}

/* strata.xymap.parse(map_string [, { legend =, z = }]) */
static int xymap_parse(lua_State *L) {
  static const char *const known[] = {"legend", "z", NULL};
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  lstrata_check_options(L, 2, known, 1);
  const char *z = "";
  strata_xy_legend *legend = NULL;
  size_t count = 0;
  if (lua_istable(L, 2)) {
    if (lua_getfield(L, 2, "z") != LUA_TNIL) z = luaL_tolstring(L, -1, NULL);
    count = check_legend(L, 2, &legend);
  }
  strata_error err;
  strata_xymap *m = strata_xymap_parse(text, len, z, legend, count, &err);
  if (m == NULL) return lstrata_raise(L, NULL, &err);
  lstrata_xymap *ud = lua_newuserdatauv(L, sizeof *ud, 0);
  ud->map = m;
  ud->in_grid = 0;
  luaL_setmetatable(L, XYMAP_MT);
  return 1;
}

/* The same, for strata's grid maps: running under no public name, its errors
** name no function, and the grid names the grid map instead. */
static int xymap_parse_plain(lua_State *L) { return xymap_parse(L); }

static void push_coord(lua_State *L, double v) {
  if (v == floor(v)) lua_pushinteger(L, (lua_Integer)v);
  else lua_pushnumber(L, v);
}

/* Sets [1], [2], x and y of the table on top: every point strata returns
** carries both spellings ({ x, y } and { x =, y = }). */
static void push_xy(lua_State *L, double x, double y) {
  push_coord(L, x);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, 1);
  lua_setfield(L, -2, "x");
  push_coord(L, y);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, 2);
  lua_setfield(L, -2, "y");
}

static void push_node(lua_State *L, const strata_xymap *m, size_t node) {
  strata_xy_node_info info;
  strata_xymap_node(m, node, &info);
  lua_createtable(L, 2, 5);
  push_xy(L, info.x, info.y);
  lua_pushlstring(L, &info.symbol, 1);
  lua_setfield(L, -2, "symbol");
  lua_pushstring(L, strata_xy_kind_name(info.kind));
  lua_setfield(L, -2, "kind");
  lua_pushboolean(L, info.interrupt);
  lua_setfield(L, -2, "interrupt");
  if (info.legend->has_target) {
    lua_createtable(L, 3, 0);
    lua_pushnumber(L, info.legend->target_x);
    lua_rawseti(L, -2, 1);
    lua_pushnumber(L, info.legend->target_y);
    lua_rawseti(L, -2, 2);
    lua_pushstring(L, info.legend->target_z);
    lua_rawseti(L, -2, 3);
    lua_setfield(L, -2, "target");
  }
}

/* Reads a whole-number coordinate pair at arg; raises outside the map, as
** Evennia does, with the map's extent. Returns the node index or -1. */
static int64_t check_node_xy(lua_State *L, const strata_xymap *m, int arg, int point) {
  lua_Integer x, y;
  if (point) {
    lstrata_check_point(L, arg, &x, &y);
  } else {
    x = lstrata_checkinteger(L, arg);
    y = lstrata_checkinteger(L, arg + 1);
  }
  int mx, my;
  strata_xymap_extent(m, &mx, &my);
  if (x < 0 || y < 0 || x > mx || y > my)
    lstrata_argerror(L, arg, lua_pushfstring(L, "coordinate (%d, %d) is outside the grid size of "
                                             "(0,0) - (%d, %d)", (int)x, (int)y, mx, my));
  return strata_xymap_node_at(m, (int)x, (int)y);
}

/* xy:node(x, y) -> { x, y, symbol, kind, interrupt, target? } | nil */
static int xymap_node(lua_State *L) {
  strata_xymap *m = check_xymap(L, 1);
  int64_t n = check_node_xy(L, m, 2, 0);
  if (n < 0) return 0;
  push_node(L, m, (size_t)n);
  return 1;
}

/* xy:nodes() -> array of node tables in scan order */
static int xymap_nodes(lua_State *L) {
  strata_xymap *m = check_xymap(L, 1);
  size_t n = strata_xymap_node_count(m);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    push_node(L, m, i);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* xy:exits(x, y) -> array of { name, direction, to = {x, y}, weight } */
static int xymap_exits(lua_State *L) {
  strata_xymap *m = check_xymap(L, 1);
  int64_t n = check_node_xy(L, m, 2, 0);
  if (n < 0) return lstrata_argerror(L, 2, "no node at that coordinate");
  size_t count = strata_xymap_exit_count(m, (size_t)n);
  lua_createtable(L, (int)count, 0);
  for (size_t i = 0; i < count; i++) {
    strata_xy_exit ex;
    strata_xymap_exit(m, (size_t)n, i, &ex);
    strata_xy_node_info to;
    strata_xymap_node(m, ex.target, &to);
    lua_createtable(L, 0, 4);
    lua_pushstring(L, ex.name);
    lua_setfield(L, -2, "name");
    lua_pushstring(L, strata_xy_direction_name(ex.direction));
    lua_setfield(L, -2, "direction");
    lua_createtable(L, 2, 2);
    push_xy(L, to.x, to.y);
    lua_setfield(L, -2, "to");
    lua_pushnumber(L, ex.weight);
    lua_setfield(L, -2, "weight");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

/* xy:shortest_path({x1, y1}, {x2, y2}) -> directions, steps, cost
** steps: { { x =, y =, symbol =, node = bool, interrupt = bool }, ... } */
static int xymap_shortest_path(lua_State *L) {
  strata_xymap *m = check_xymap(L, 1);
  int64_t a = check_node_xy(L, m, 2, 1), b = check_node_xy(L, m, 3, 1);
  strata_xy_route r = {0};
  if (a >= 0 && b >= 0) {
    strata_error err;
    if (strata_xymap_shortest_path(m, (size_t)a, (size_t)b, &r, &err) != STRATA_OK)
      return lstrata_raise(L, "shortest_path", &err);
  }
  /* No route is nil and a reason, as for tile maps; the same node is a route of no steps. */
  if (r.hop_count == 0 && (a < 0 || b < 0 || a != b)) {
    strata_xy_route_free(&r);
    lua_pushnil(L);
    if (a < 0 || b < 0) {
      lua_Integer x, y;
      lstrata_check_point(L, a < 0 ? 2 : 3, &x, &y);
      lua_pushfstring(L, "no node at (%d, %d)", (int)x, (int)y);
    } else {
      lua_pushliteral(L, "no route between these nodes");
    }
    return 2;
  }
  lua_createtable(L, (int)r.hop_count, 0);
  for (size_t i = 0; i < r.hop_count; i++) {
    lua_pushstring(L, r.names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_createtable(L, (int)r.step_count, 0);
  for (size_t i = 0; i < r.step_count; i++) {
    const strata_xy_step *s = &r.steps[i];
    lua_createtable(L, 2, 5);
    push_xy(L, s->x, s->y);
    lua_pushlstring(L, &s->symbol, 1);
    lua_setfield(L, -2, "symbol");
    lua_pushboolean(L, s->is_node);
    lua_setfield(L, -2, "node");
    lua_pushboolean(L, s->interrupt);
    lua_setfield(L, -2, "interrupt");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_pushnumber(L, r.hop_count ? r.cost : 0.0);
  strata_xy_route_free(&r);
  return 3;
}

/* xy:display([{ builder = false }]) -> the map as players see it (markup: `|`
** shown as `||`); builder: every marker shown by its own symbol */
static int xymap_display(lua_State *L) {
  static const char *const known[] = {"builder", NULL};
  strata_xymap *m = check_xymap(L, 1);
  lstrata_check_options(L, 2, known, 1);
  int builder = lua_istable(L, 2) && lstrata_opt_bool(L, 2, "builder", 0);
  char *text;
  size_t len;
  strata_error err;
  if ((builder ? strata_xymap_builder_display : strata_xymap_display)(m, &text, &len, &err) != STRATA_OK)
    return lstrata_raise(L, "display", &err);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

/* xy:visual_range({x, y} [, { dist = 2, mode = "nodes" | "scan", character = "@" | false,
**   target = {x, y}, target_path_style = "|y{display_symbol}|n", max_size = {w, h},
**   builder = false }]) */
static int xymap_visual_range(lua_State *L) {
  static const char *const known[] = {"dist", "mode", "character", "target", "target_path_style",
                                      "max_size", "builder", NULL};
  strata_xymap *m = check_xymap(L, 1);
  lua_Integer x, y;
  lstrata_check_point(L, 2, &x, &y);
  lstrata_check_options(L, 3, known, 1);
  strata_xy_view v = {(int)x, (int)y, 2, STRATA_XY_VIEW_NODES, "@", 0, 0, 0, NULL, 0, 0, 0};
  if (lua_istable(L, 3)) {
    v.builder = lstrata_opt_bool(L, 3, "builder", 0);
    if (lua_getfield(L, 3, "dist") == LUA_TBOOLEAN && !lua_toboolean(L, -1)) v.dist = -1;
    lua_pop(L, 1);
    if (v.dist >= 0) {
      lua_Integer d = lstrata_opt_int(L, 3, "dist", 2);
      if (d > 1 << 20) return lstrata_argerror(L, 3, "option 'dist' is too large");
      v.dist = d < 0 ? 0 : (int)d;
    }
    const char *mode = lstrata_opt_string(L, 3, "mode", "nodes");
    if (strcmp(mode, "nodes") == 0) v.mode = STRATA_XY_VIEW_NODES;
    else if (strcmp(mode, "scan") == 0) v.mode = STRATA_XY_VIEW_SCAN;
    else return lstrata_argerror(L, 3, lua_pushfstring(L, "Map.get_visual_range 'mode' was '%s' - it "
                                                       "must be either 'scan' or 'nodes'.", mode));
    int t = lua_getfield(L, 3, "character");
    if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) v.character = NULL;
    else if (t == LUA_TSTRING) v.character = lua_tostring(L, -1);
    else if (t != LUA_TNIL) return lstrata_argerror(L, 3, "option 'character' must be a string or false");
    lua_pop(L, 1); /* the string stays alive in the option table */
    if (lua_getfield(L, 3, "target") != LUA_TNIL) {
      lua_Integer tx, ty;
      lstrata_check_point(L, lua_gettop(L), &tx, &ty);
      v.has_target = 1, v.target_x = (int)tx, v.target_y = (int)ty;
    }
    lua_pop(L, 1);
    v.target_style = lstrata_opt_string(L, 3, "target_path_style", NULL);
    if (lua_getfield(L, 3, "max_size") == LUA_TTABLE) {
      lua_geti(L, -1, 1), lua_geti(L, -2, 2);
      v.max_w = lua_isinteger(L, -2) ? (int)lua_tointeger(L, -2) : 0;
      v.max_h = lua_isinteger(L, -1) ? (int)lua_tointeger(L, -1) : 0;
      lua_pop(L, 2);
    } else if (!lua_isnil(L, -1)) {
      return lstrata_argerror(L, 3, "option 'max_size' must be {w, h}");
    }
    lua_pop(L, 1);
  }
  char *text;
  size_t len;
  strata_error err;
  if (strata_xymap_visual_range(m, &v, &text, &len, &err) != STRATA_OK)
    return lstrata_argerror(L, 2, err.message);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

static int xymap_gc(lua_State *L) {
  lstrata_xymap *ud = lstrata_checkudata(L, 1, XYMAP_MT);
  strata_xymap_free(ud->map);
  ud->map = NULL;
  return 0;
}

/* m:close() and <close>: a map a grid uses stays (the grid would point at
** freed memory); it goes when neither is reachable. */
static int xymap_close(lua_State *L) {
  lstrata_xymap *ud = lstrata_checkudata(L, 1, XYMAP_MT);
  if (ud->in_grid) return lstrata_error(L, "the map is in a grid; it goes with the grid");
  return xymap_gc(L);
}

static int xymap_tostring(lua_State *L) {
  lstrata_xymap *ud = lstrata_checkudata(L, 1, XYMAP_MT);
  if (ud->map == NULL) {
    lua_pushliteral(L, "strata.xymap (closed)");
  } else {
    int mx, my;
    strata_xymap_extent(ud->map, &mx, &my);
    lua_pushfstring(L, "strata.xymap '%s' (%d nodes, %d x %d)", strata_xymap_z(ud->map),
                    (int)strata_xymap_node_count(ud->map), mx + 1, my + 1);
  }
  return 1;
}

static int xymap_index(lua_State *L) {
  lstrata_xymap *ud = lstrata_checkudata(L, 1, XYMAP_MT);
  const char *key = lstrata_checkstring(L, 2);
  if (ud->map && strcmp(key, "z") == 0) {
    lua_pushstring(L, strata_xymap_z(ud->map));
  } else if (ud->map && (strcmp(key, "max_x") == 0 || strcmp(key, "max_y") == 0)) {
    int mx, my;
    strata_xymap_extent(ud->map, &mx, &my);
    lua_pushinteger(L, key[4] == 'x' ? mx : my);
  } else {
    luaL_getmetafield(L, 1, "methods");
    lua_getfield(L, -1, key);
  }
  return 1;
}

/* ---- grids of maps ------------------------------------------------------------- */

typedef struct lstrata_xygrid {
  strata_xygrid *grid;
} lstrata_xygrid;

static strata_xygrid *check_grid(lua_State *L, int arg) {
  return ((lstrata_xygrid *)lstrata_checkudata(L, arg, XYGRID_MT))->grid;
}

/* grid:add(xy): the grid keeps the map alive (in its user value). */
static int xygrid_add(lua_State *L) {
  strata_xygrid *g = check_grid(L, 1);
  strata_xymap *m = check_xymap(L, 2);
  strata_error err;
  if (strata_xygrid_add(g, m, &err) != STRATA_OK) return lstrata_argerror(L, 2, err.message);
  ((lstrata_xymap *)lua_touserdata(L, 2))->in_grid = 1;
  lua_getiuservalue(L, 1, 1);
  lua_pushvalue(L, 2);
  lua_setfield(L, -2, strata_xymap_z(m));
  lua_settop(L, 1);
  return 1;
}

/* grid:map(z) -> the map with that Z, or nil */
static int xygrid_map(lua_State *L) {
  check_grid(L, 1);
  const char *z = luaL_tolstring(L, 2, NULL);
  lua_getiuservalue(L, 1, 1);
  lua_getfield(L, -1, z);
  return 1;
}

/* A coordinate for the C API: one beyond an int is -1, where no node is
** (a cast would wrap it onto a node). */
static int xy_int(lua_Integer v) { return v < 0 || v > INT_MAX ? -1 : (int)v; }

/* Reads {X, Y, Z}. */
static const char *check_xyz(lua_State *L, int arg, lua_Integer *x, lua_Integer *y) {
  lstrata_checktype(L, arg, LUA_TTABLE);
  lua_geti(L, arg, 1), lua_geti(L, arg, 2), lua_geti(L, arg, 3);
  if (!lua_isinteger(L, -3) || !lua_isinteger(L, -2) || lua_isnil(L, -1))
    lstrata_argnerror(L, arg, "expected a coordinate {X, Y, Z} with integer X and Y");
  *x = lua_tointeger(L, -3);
  *y = lua_tointeger(L, -2);
  const char *z = luaL_tolstring(L, -1, NULL);
  lua_replace(L, arg); /* keep the string alive in the argument's slot */
  lua_pop(L, 3);
  return z;
}

/* grid:shortest_path({X, Y, Z}, {X, Y, Z}) -> directions, steps (with z), cost */
static int xygrid_shortest_path(lua_State *L) {
  strata_xygrid *g = check_grid(L, 1);
  lua_Integer x1, y1, x2, y2;
  const char *z1 = check_xyz(L, 2, &x1, &y1), *z2 = check_xyz(L, 3, &x2, &y2);
  strata_xygrid_route r;
  strata_error err;
  if (strata_xygrid_shortest_path(g, z1, xy_int(x1), xy_int(y1), z2, xy_int(x2), xy_int(y2), &r,
                                  &err) != STRATA_OK)
    return lstrata_raise(L, "shortest_path", &err);
  int same = x1 == x2 && y1 == y2 && strcmp(z1, z2) == 0;
  if (r.hop_count == 0 && !same) {
    strata_xygrid_route_free(&r);
    lua_pushnil(L);
    /* The maps exist (an unknown Z is an error above): say which end has no node. */
    if (strata_xymap_node_at(strata_xygrid_map(g, z1), xy_int(x1), xy_int(y1)) < 0)
      lua_pushfstring(L, "no node at (%I, %I) on map '%s'", x1, y1, z1);
    else if (strata_xymap_node_at(strata_xygrid_map(g, z2), xy_int(x2), xy_int(y2)) < 0)
      lua_pushfstring(L, "no node at (%I, %I) on map '%s'", x2, y2, z2);
    else
      lua_pushliteral(L, "no route between these nodes");
    return 2;
  }
  lua_createtable(L, (int)r.hop_count, 0);
  for (size_t i = 0; i < r.hop_count; i++) {
    lua_pushstring(L, r.names[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_createtable(L, (int)r.step_count, 0);
  for (size_t i = 0; i < r.step_count; i++) {
    const strata_xygrid_step *s = &r.steps[i];
    lua_createtable(L, 2, 6);
    push_xy(L, s->cell.x, s->cell.y);
    lua_pushstring(L, s->z);
    lua_setfield(L, -2, "z");
    lua_pushlstring(L, &s->cell.symbol, 1);
    lua_setfield(L, -2, "symbol");
    lua_pushboolean(L, s->cell.is_node);
    lua_setfield(L, -2, "node");
    lua_pushboolean(L, s->cell.interrupt);
    lua_setfield(L, -2, "interrupt");
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_pushnumber(L, r.hop_count ? r.cost : 0.0);
  strata_xygrid_route_free(&r);
  return 3;
}

static int xygrid_gc(lua_State *L) {
  lstrata_xygrid *ud = lstrata_checkudata(L, 1, XYGRID_MT);
  strata_xygrid_free(ud->grid);
  ud->grid = NULL;
  return 0;
}

/* strata.xymap.grid([maps]) -> a grid holding the given maps */
static int xygrid_new(lua_State *L) {
  if (!lua_isnoneornil(L, 1)) lstrata_checktype(L, 1, LUA_TTABLE);
  strata_error err;
  lstrata_xygrid *ud = lua_newuserdatauv(L, sizeof *ud, 1);
  ud->grid = NULL;
  luaL_setmetatable(L, XYGRID_MT);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  if ((ud->grid = strata_xygrid_new(&err)) == NULL) return lstrata_raise(L, "xymap.grid", &err);
  int g = lua_gettop(L);
  if (lua_istable(L, 1)) {
    /* Raw reads: a table whose __index never returns nil cannot keep this loop going. */
    for (lua_Integer i = 1; lua_rawgeti(L, 1, i) != LUA_TNIL; i++) {
      lua_pushcfunction(L, xygrid_add);
      lua_pushvalue(L, g);
      lua_pushvalue(L, -3);
      lua_call(L, 2, 0);
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_settop(L, g);
  return 1;
}

void lstrata_open_xymap(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"node", xymap_node}, {"nodes", xymap_nodes}, {"exits", xymap_exits},
    {"shortest_path", xymap_shortest_path}, {"display", xymap_display},
    {"visual_range", xymap_visual_range},
    {"close", xymap_close}, {NULL, NULL}};
  static const luaL_Reg meta[] = {
    {"__index", xymap_index}, {"__gc", xymap_gc}, {"__close", xymap_close},
    {"__tostring", xymap_tostring}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"parse", xymap_parse}, {"_parse", xymap_parse_plain}, {"grid", xygrid_new},
                                   {NULL, NULL}};
  static const luaL_Reg grid_methods[] = {
    {"add", xygrid_add}, {"map", xygrid_map}, {"shortest_path", xygrid_shortest_path},
    {NULL, NULL}};
  static const luaL_Reg grid_meta[] = {{"__gc", xygrid_gc}, {NULL, NULL}};
  lstrata_register_type(L, XYGRID_MT, "grid", grid_meta, grid_methods);
  lstrata_register_type(L, XYMAP_MT, "xy", meta, methods);
  lstrata_add_functions(L, "xymap", 1, funcs);
  /* The legend kinds the parser knows, for checks made before any map is parsed (base.legend). */
  lua_getfield(L, -1, "xymap");
  lua_createtable(L, STRATA_XY_KIND_COUNT, 0);
  for (int k = 0; k < STRATA_XY_KIND_COUNT; k++) {
    lua_pushstring(L, strata_xy_kind_name((strata_xy_kind)k));
    lua_rawseti(L, -2, k + 1);
  }
  lua_setfield(L, -2, "kinds");
  lua_pop(L, 1);
}
