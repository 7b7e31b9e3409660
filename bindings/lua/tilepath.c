/*
** tilepath.c - strata.path: the route a tile map's find_path returns.
**
** A long route as a table costs a table per cell, which from Lua cost more
** than the search (48,405 cells: about 10 ms of tables after a 2 ms
** search). The path value holds the cells as one array of cell indices, in
** one userdata, and gives them out on demand:
**
**   #p, p.cost                      length (cells, both ends included), cost
**   p:xy(i) -> x, y                 the i-th cell (1-based); nothing outside 1..#p
**   for i, x, y in p:cells() do     every cell in order, no table made
**   p:table()                       { {x, y, x =, y =}, ..., cost = c }, the table form
**   p[i]                            the i-th point as a new table { x, y, x =, y = }
**                                   (compatibility: a table per access; ipairs works)
**
** It is accepted wherever a path is: map:render{ path = p }, and any code
** that reads #p, p[i] or ipairs(p).
*/
#include <stdlib.h>
#include <string.h>

#include "ltilepath.h"

typedef struct lpath {
  size_t len;
  double cost;
  uint32_t width, height; /* of the map the cells index */
  uint32_t cells[];       /* y * width + x */
} lpath;

void lstrata_push_tilepath(lua_State *L, const strata_path *p, int width, int height) {
  lpath *u = lua_newuserdatauv(L, sizeof *u + p->len * sizeof u->cells[0], 0);
  u->len = p->len, u->cost = p->cost;
  u->width = (uint32_t)width, u->height = (uint32_t)height;
  if (p->len) memcpy(u->cells, p->nodes, p->len * sizeof u->cells[0]);
  luaL_setmetatable(L, TILEPATH_MT);
}

static lpath *check_path(lua_State *L, int arg) { return lstrata_checkudata(L, arg, TILEPATH_MT); }

static void push_point(lua_State *L, lua_Integer x, lua_Integer y) {
  lua_createtable(L, 2, 2);
  lua_pushinteger(L, x);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, 1);
  lua_setfield(L, -2, "x");
  lua_pushinteger(L, y);
  lua_pushvalue(L, -1);
  lua_rawseti(L, -3, 2);
  lua_setfield(L, -2, "y");
}

/* p:xy(i) -> x, y */
static int path_xy(lua_State *L) {
  const lpath *u = check_path(L, 1);
  lua_Integer i = lstrata_checkinteger(L, 2);
  if (i < 1 || (lua_Unsigned)i > u->len) return 0;
  uint32_t c = u->cells[i - 1];
  lua_pushinteger(L, c % u->width);
  lua_pushinteger(L, c / u->width);
  return 2;
}

static int cells_next(lua_State *L) {
  const lpath *u = lua_touserdata(L, 1);
  lua_Integer i = lua_tointeger(L, 2) + 1;
  if (i < 1 || (lua_Unsigned)i > u->len) return 0;
  uint32_t c = u->cells[i - 1];
  lua_pushinteger(L, i);
  lua_pushinteger(L, c % u->width);
  lua_pushinteger(L, c / u->width);
  return 3;
}

/* p:cells() -> iterator, p, 0: for i, x, y in p:cells() */
static int path_cells(lua_State *L) {
  check_path(L, 1);
  lua_pushcfunction(L, cells_next);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* p:table() -> { {x, y, x =, y =}, ..., cost = c } */
static int path_table(lua_State *L) {
  const lpath *u = check_path(L, 1);
  if (u->len > (size_t)0x7fffffff) return lstrata_error(L, "path too long for a table");
  lua_createtable(L, (int)u->len, 1);
  for (size_t i = 0; i < u->len; i++) {
    push_point(L, u->cells[i] % u->width, u->cells[i] / u->width);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_pushnumber(L, u->cost);
  lua_setfield(L, -2, "cost");
  return 1;
}

static int path_index(lua_State *L) {
  const lpath *u = check_path(L, 1);
  int isint = 0;
  lua_Integer i = lua_tointegerx(L, 2, &isint);
  if (isint) {
    if (i < 1 || (lua_Unsigned)i > u->len) return 0;
    push_point(L, u->cells[i - 1] % u->width, u->cells[i - 1] / u->width);
    return 1;
  }
  const char *key = lua_tostring(L, 2);
  if (key != NULL && strcmp(key, "cost") == 0) {
    lua_pushnumber(L, u->cost);
    return 1;
  }
  luaL_getmetafield(L, 1, "methods");
  lua_getfield(L, -1, key ? key : "");
  return 1;
}

static int path_len(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)check_path(L, 1)->len);
  return 1;
}

static int path_tostring(lua_State *L) {
  const lpath *u = check_path(L, 1);
  lua_pushfstring(L, "strata.path (%I cells, cost %f)", (LUAI_UACINT)u->len, u->cost);
  return 1;
}

/* Makes room for n cells in out. */
static void reserve(lua_State *L, strata_path *out, size_t n) {
  if (n <= out->cap) return;
  uint32_t *nodes = strata_realloc(out->nodes, n * sizeof *nodes);
  if (nodes == NULL) lstrata_error(L, "out of memory reading a path");
  out->nodes = nodes, out->cap = n;
}

void lstrata_check_tilepath(lua_State *L, int arg, int width, int height, strata_path *out,
                            const char *what) {
  arg = lua_absindex(L, arg);
  const lpath *u = luaL_testudata(L, arg, TILEPATH_MT);
  out->len = 0;
  if (u != NULL) {
    reserve(L, out, u->len);
    for (size_t i = 0; i < u->len; i++) {
      uint32_t x = u->cells[i] % u->width, y = u->cells[i] / u->width;
      if (x >= (uint32_t)width || y >= (uint32_t)height)
        lstrata_error(L, "%s: point %d (%d, %d) is outside the %dx%d map", what, (int)i + 1, (int)x,
                      (int)y, width, height);
      out->nodes[out->len++] = y * (uint32_t)width + x;
    }
    out->cost = u->cost;
    return;
  }
  lstrata_checktype(L, arg, LUA_TTABLE);
  lua_Integer n = luaL_len(L, arg);
  reserve(L, out, n > 0 ? (size_t)n : 0);
  for (lua_Integer i = 1; i <= n; i++) {
    lua_geti(L, arg, i);
    lua_Integer x, y;
    lstrata_check_point(L, -1, &x, &y);
    lua_pop(L, 1);
    if (x < 0 || y < 0 || x >= width || y >= height)
      lstrata_error(L, "%s: point %d (%d, %d) is outside the %dx%d map", what, (int)i, (int)x, (int)y,
                    width, height);
    out->nodes[out->len++] = (uint32_t)y * (uint32_t)width + (uint32_t)x;
  }
}

void lstrata_open_tilepath(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"xy", path_xy}, {"cells", path_cells}, {"table", path_table}, {NULL, NULL}};
  static const luaL_Reg meta[] = {
    {"__index", path_index}, {"__len", path_len}, {"__tostring", path_tostring}, {NULL, NULL}};
  lstrata_register_type(L, TILEPATH_MT, "path", meta, methods);
}
