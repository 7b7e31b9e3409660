/*
** layout.c - strata.core.layout: layout files and generators for Lua.
**
** A file userdata owns the parsed file; each generator userdata points into
** one and keeps it alive through its user value, so generators outlive the
** table they came in.
*/
#include <stdlib.h>
#include <string.h>

#include "lrng.h"
#include "lstrata.h"
#include "ltilemap.h"

#define FILE_MT "strata.layout_file"
#define GEN_MT "strata.layout"

typedef struct lfile { strata_layout_file *file; } lfile;
typedef struct lgen {
  const strata_layout_gen *gen;
  const char *name;
} lgen;

static int file_gc(lua_State *L) {
  lfile *f = lstrata_checkudata(L, 1, FILE_MT);
  strata_layout_file_free(f->file);
  f->file = NULL;
  return 0;
}

/* Pushes a generator of the file at index fi. */
static void push_gen(lua_State *L, int fi, const strata_layout_gen *g, const char *name) {
  lgen *u = lua_newuserdatauv(L, sizeof *u, 1);
  u->gen = g, u->name = name;
  luaL_setmetatable(L, GEN_MT);
  lua_pushvalue(L, fi);
  lua_setiuservalue(L, -2, 1);
}

static lfile *push_file(lua_State *L, const char *text, size_t len, const char *name, int single) {
  lfile *f = lua_newuserdatauv(L, sizeof *f, 0);
  f->file = NULL;
  luaL_setmetatable(L, FILE_MT);
  strata_error err;
  f->file = single ? strata_layout_parse_generator(text, len, name, &err)
                   : strata_layout_file_parse(text, len, name, &err);
  if (f->file == NULL) {
    /* The message names NAME:LINE:COL already; err's line and column are
    ** for C callers, and lstrata_raise would repeat them. */
    err.line = err.column = 0;
    lstrata_raise(L, NULL, &err);
  }
  return f;
}

/* parse(text [, name]) -> generator */
static int l_parse(lua_State *L) {
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  const char *name = lstrata_optstring(L, 2, "layout");
  lfile *f = push_file(L, text, len, name, 1);
  push_gen(L, lua_gettop(L), strata_layout_at(f->file, 0), "");
  return 1;
}

/* parse_file(text [, name]) -> { [layout name] = generator }, { names in order } */
static int l_parse_file(lua_State *L) {
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  const char *name = lstrata_optstring(L, 2, "layouts");
  lfile *f = push_file(L, text, len, name, 0);
  int fi = lua_gettop(L);
  size_t n = strata_layout_count(f->file);
  lua_createtable(L, 0, (int)n);
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    const char *ln = strata_layout_name(f->file, i);
    push_gen(L, fi, strata_layout_at(f->file, i), ln);
    lua_setfield(L, -3, ln);
    lua_pushstring(L, ln);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 2;
}

/* gen:run(tilemap, rng) -> true | false, why   (configuration errors raise) */
static int gen_run(lua_State *L) {
  lgen *g = lstrata_checkudata(L, 1, GEN_MT);
  strata_tilemap *m = lstrata_check_tilemap(L, 2);
  strata_rng *rng = lstrata_check_rng(L, 3);
  strata_layout_result res;
  char why[256];
  strata_error err;
  if (strata_layout_run(g->gen, m, rng, &res, why, sizeof why, &err)) return lstrata_raise(L, NULL, &err);
  if (res == STRATA_LAYOUT_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushboolean(L, 0);
  lua_pushstring(L, why);
  return 2;
}

/* The same under no public name, for strata.layout.run and generate: its
** errors are the message alone, which their wrapper names. */
static int gen_run_plain(lua_State *L) { return gen_run(L); }

static int gen_tostring(lua_State *L) {
  lgen *g = lstrata_checkudata(L, 1, GEN_MT);
  if (g->name && *g->name) lua_pushfstring(L, "strata.layout '%s'", g->name);
  else lua_pushstring(L, "strata.layout");
  return 1;
}

void lstrata_open_layout(lua_State *L) {
  static const luaL_Reg file_meta[] = {{"__gc", file_gc}, {NULL, NULL}};
  static const luaL_Reg no_methods[] = {{NULL, NULL}};
  static const luaL_Reg gen_methods[] = {{"run", gen_run}, {"_run", gen_run_plain}, {NULL, NULL}};
  static const luaL_Reg gen_meta[] = {{"__tostring", gen_tostring}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"parse", l_parse}, {"parse_file", l_parse_file}, {NULL, NULL}};
  lstrata_register_type(L, FILE_MT, NULL, file_meta, no_methods);
  lstrata_register_type(L, GEN_MT, "generator", gen_meta, gen_methods);
  lstrata_add_functions(L, "layout", 1, funcs);
}
