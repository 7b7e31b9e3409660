/* picture.c - pictures of maps from Lua: tilemap:to_svg / to_png, xy:to_svg. */
#include <stdlib.h>
#include <string.h>

#include "lstrata.h"
#include "ltilemap.h"

/* The cell option of the options table at arg, checked whole: to the C API
** a cell of 0 means the default, so an explicit 0 (or a size that an int
** would wrap to 0) must be refused before it gets there. */
static int opt_cell(lua_State *L, int arg) {
  lua_Integer cell = lstrata_opt_int(L, arg, "cell", 12);
  if (cell < 1 || cell > STRATA_PICTURE_CELL_MAX)
    lstrata_error(L, "cell must be 1 to %d pixels, got %I", STRATA_PICTURE_CELL_MAX, cell);
  return (int)cell;
}

/* Reads { cell =, path = } (tile maps) into opt; path is filled from the option. */
static void check_picture_options(lua_State *L, int arg, strata_tilemap *m, strata_picture_options *opt,
                                  strata_path *path) {
  static const char *const known[] = {"cell", "path", NULL};
  lstrata_check_options(L, arg, known, 1);
  opt->cell = 12;
  opt->path = NULL;
  if (!lua_istable(L, arg)) return;
  opt->cell = opt_cell(L, arg);
  if (lua_getfield(L, arg, "path") != LUA_TNIL) {
    lstrata_check_path(L, lua_gettop(L), m, path);
    opt->path = path;
  }
  lua_pop(L, 1);
}

/* A path read into a to-be-closed userdata, so that an error frees it. */
static strata_path *new_path(lua_State *L) {
  strata_path *p = lua_newuserdatauv(L, sizeof *p, 0);
  strata_path_init(p);
  luaL_setmetatable(L, "strata.picture_path");
  lua_toclose(L, -1);
  return p;
}

static int path_close(lua_State *L) {
  strata_path_free(lstrata_checkudata(L, 1, "strata.picture_path"));
  return 0;
}

/* m:to_svg{ cell = 12, path = p } -> the SVG text */
static int tilemap_to_svg(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  strata_picture_options opt;
  check_picture_options(L, 2, m, &opt, new_path(L));
  char *out;
  size_t len;
  strata_error err;
  if (strata_tilemap_svg(m, &opt, &out, &len, &err) != STRATA_OK)
    return lstrata_raise(L, "to_svg", &err);
  lua_pushlstring(L, out, len);
  strata_free(out);
  return 1;
}

/* m:to_png{ cell = 12, path = p } -> the PNG file's bytes */
static int tilemap_to_png(lua_State *L) {
  strata_tilemap *m = lstrata_check_tilemap(L, 1);
  strata_picture_options opt;
  check_picture_options(L, 2, m, &opt, new_path(L));
  unsigned char *out;
  size_t len;
  strata_error err;
  if (strata_tilemap_png(m, &opt, &out, &len, &err) != STRATA_OK)
    return lstrata_raise(L, "to_png", &err);
  lua_pushlstring(L, (const char *)out, len);
  strata_free(out);
  return 1;
}

/* The node at the point at the top of the stack, or a raised error naming what. */
static size_t node_at(lua_State *L, strata_xymap *m, const char *what) {
  lua_Integer x, y;
  lstrata_check_point(L, lua_gettop(L), &x, &y);
  int64_t n = strata_xymap_node_at(m, (int)x, (int)y);
  if (n < 0 || x < 0 || y < 0 || x > 65535 || y > 65535)
    lstrata_error(L, "option '%s': no node at (%d, %d)", what, (int)x, (int)y);
  return (size_t)n;
}

static int route_close(lua_State *L) {
  strata_xy_route_free(lstrata_checkudata(L, 1, "strata.picture_route"));
  return 0;
}

/* xy:to_svg{ cell = 12, from = {x, y}, to = {x, y} } -> the SVG text, the route
** between from and to (when both are given) highlighted. */
static int xymap_to_svg(lua_State *L) {
  static const char *const known[] = {"cell", "from", "to", NULL};
  strata_xymap *m = lstrata_check_xymap(L, 1);
  lstrata_check_options(L, 2, known, 1);
  strata_picture_options opt = {12, NULL};
  strata_xy_route *route = lua_newuserdatauv(L, sizeof *route, 0);
  memset(route, 0, sizeof *route);
  luaL_setmetatable(L, "strata.picture_route");
  lua_toclose(L, -1);
  int has_route = 0;
  strata_error err;
  if (lua_istable(L, 2)) {
    opt.cell = opt_cell(L, 2);
    int has_from = lua_getfield(L, 2, "from") != LUA_TNIL;
    int has_to = lua_getfield(L, 2, "to") != LUA_TNIL;
    if (has_from != has_to) return lstrata_argerror(L, 2, "give both 'from' and 'to', or neither");
    if (has_from) {
      size_t b = node_at(L, m, "to");
      lua_pop(L, 1);
      size_t a = node_at(L, m, "from");
      if (strata_xymap_shortest_path(m, a, b, route, &err) != STRATA_OK)
        return lstrata_raise(L, "to_svg", &err);
      has_route = 1;
    }
  }
  char *out;
  size_t len;
  if (strata_xymap_svg(m, has_route ? route : NULL, &opt, &out, &len, &err) != STRATA_OK)
    return lstrata_raise(L, "to_svg", &err);
  lua_pushlstring(L, out, len);
  strata_free(out);
  return 1;
}

void lstrata_open_picture(lua_State *L) {
  /* Only __close: the value is to-be-closed, freed once whichever way the call ends. */
  static const luaL_Reg path_meta[] = {{"__close", path_close}, {NULL, NULL}};
  static const luaL_Reg route_meta[] = {{"__close", route_close}, {NULL, NULL}};
  static const luaL_Reg tilemap_methods[] = {{"to_svg", tilemap_to_svg}, {"to_png", tilemap_to_png},
                                             {NULL, NULL}};
  static const luaL_Reg xymap_methods[] = {{"to_svg", xymap_to_svg}, {NULL, NULL}};
  luaL_newmetatable(L, "strata.picture_path");
  luaL_setfuncs(L, path_meta, 0);
  lua_pop(L, 1);
  luaL_newmetatable(L, "strata.picture_route");
  luaL_setfuncs(L, route_meta, 0);
  lua_pop(L, 1);
  lstrata_add_methods(L, TILEMAP_MT, "map", tilemap_methods);
  lstrata_add_methods(L, "strata.xymap", "xy", xymap_methods);
}
