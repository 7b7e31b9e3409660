/*
** json.c - strata.json: the core's JSON reader and writer (strata/json.h)
** from Lua, for plain data.
** strata.json.decode(text) -> a Lua value: objects and arrays as tables,
** integers as integers, other numbers as floats, null as strata.json.null;
** strata.json.encode(value [, { pretty = true }]) -> text: a table whose keys
** are 1..n is an array, one whose keys are strings an object (its keys in
** byte order, so that the text is the same on every run; an empty table is
** {}, unless marked by strata.json.array(t): []). Tables are read raw, no
** metamethod runs; what cannot be JSON (a function, a cycle, a NaN, a key of
** another kind) is refused with its path.
** The array mark is a metatable kept in the Lua state's registry, protected
** so that no one can take it to put on another table or replace it; the
** encoder compares it by identity and checks a marked table's keys as any
** other's, so a mark never makes the encoder trust what a table holds.
** The tree being built or read sits in a box the garbage collector frees, so
** an error midway leaks nothing.
*/
#include <stdlib.h>
#include <string.h>

#include "lstrata.h"
#include "strata/json.h"

#define BOX_MT "strata.json_tree"
#define ARRAY_MT "strata.json.array"

typedef struct box {
  strata_json root;
  strata_buffer text;
} box;

static int box_gc(lua_State *L) {
  box *b = lua_touserdata(L, 1);
  strata_json_free(&b->root);
  strata_buffer_free(&b->text);
  return 0;
}

static box *push_box(lua_State *L) {
  box *b = lua_newuserdatauv(L, sizeof *b, 0);
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, BOX_MT);
  return b;
}

static int json_fail(lua_State *L, const strata_json_path *path, const char *what) {
  strata_error err;
  strata_error_clear(&err);
  strata_json_fail(&err, STRATA_EARG, path, "%s", what);
  return lstrata_raise(L, NULL, &err);
}

/* ---- decode ------------------------------------------------------------------------- */

static void push_value(lua_State *L, const strata_json *v) {
  lstrata_checkstack(L, 3, "decoding JSON");
  switch (v->type) {
  case STRATA_JNULL: lua_pushlightuserdata(L, NULL); break;
  case STRATA_JBOOL: lua_pushboolean(L, v->u.b); break;
  case STRATA_JINT: lua_pushinteger(L, (lua_Integer)v->u.i); break;
  case STRATA_JFLOAT: lua_pushnumber(L, (lua_Number)v->u.f); break;
  case STRATA_JSTRING: lua_pushlstring(L, v->u.str.s, v->u.str.len); break;
  case STRATA_JARRAY:
  case STRATA_JOBJECT: {
    int obj = v->type == STRATA_JOBJECT, n = v->u.c.n > (size_t)INT32_MAX ? INT32_MAX : (int)v->u.c.n;
    lua_createtable(L, obj ? 0 : n, obj ? n : 0);
    for (size_t i = 0; i < v->u.c.n; i++) {
      if (obj) lua_pushlstring(L, v->u.c.keys[i].s, v->u.c.keys[i].len);
      push_value(L, &v->u.c.items[i]);
      if (obj) lua_rawset(L, -3);
      else lua_rawseti(L, -2, (lua_Integer)i + 1);
    }
    break;
  }
  }
}

/* strata.json.decode(text) */
static int json_decode(lua_State *L) {
  size_t len;
  const char *text = lstrata_checklstring(L, 1, &len);
  box *b = push_box(L);
  strata_error err;
  if (strata_json_parse(&b->root, text, len, &err)) return lstrata_raise(L, NULL, &err);
  push_value(L, &b->root);
  strata_json_free(&b->root);
  return 1;
}

/* ---- encode ------------------------------------------------------------------------- */

static void to_json(lua_State *L, int idx, const strata_json_path *path, size_t depth, strata_json *out);

typedef struct member {
  const char *key;
  size_t len;
  int ref; /* the value's slot in the scratch table */
} member;

static int cmp_members(const void *a, const void *b) {
  const member *x = a, *y = b;
  size_t n = x->len < y->len ? x->len : y->len;
  int c = memcmp(x->key, y->key, n);
  return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* The table at idx as an object, its string keys sorted. */
static void object_to_json(lua_State *L, int idx, size_t n, const strata_json_path *path, size_t depth,
                           strata_json *out) {
  member *m = lua_newuserdatauv(L, (n ? n : 1) * sizeof *m, 0);
  size_t k = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_pop(L, 1);
    m[k].key = lua_tolstring(L, -1, &m[k].len); /* kept alive by the table, unchanged meanwhile */
    k++;
  }
  qsort(m, n, sizeof *m, cmp_members);
  *out = strata_json_object();
  strata_error err;
  for (size_t i = 0; i < n; i++) {
    strata_json_path here = { path, m[i].key, m[i].len, 0 };
    strata_json item = strata_json_null();
    if (strata_json_put(out, m[i].key, m[i].len, &item, &err)) lstrata_raise(L, NULL, &err);
    lua_pushlstring(L, m[i].key, m[i].len);
    lua_rawget(L, idx);
    to_json(L, lua_gettop(L), &here, depth + 1, &out->u.c.items[i]);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Whether the table at idx carries the array mark (the registry's own metatable, not a look-alike). */
static int marked_array(lua_State *L, int idx) {
  if (!lua_getmetatable(L, idx)) return 0;
  luaL_getmetatable(L, ARRAY_MT);
  int same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same;
}

static void table_to_json(lua_State *L, int idx, const strata_json_path *path, size_t depth, strata_json *out) {
  if (depth >= STRATA_JSON_MAX_DEPTH) {
    json_fail(L, path, lua_pushfstring(L, "tables nested deeper than %d levels (a cycle?)", STRATA_JSON_MAX_DEPTH));
  }
  lstrata_checkstack(L, 4, "encoding JSON");
  size_t n = 0, strings = 0;
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_pop(L, 1);
    n++;
    if (lua_type(L, -1) == LUA_TSTRING) strings++;
  }
  int array = marked_array(L, idx);
  if (array && strings) json_fail(L, path, "a table marked by strata.json.array has a string key");
  *out = strata_json_array();
  if (strings == n && !array) {
    object_to_json(L, idx, n, path, depth, out);
    return;
  }
  strata_error err;
  for (size_t i = 0; i < n; i++) {
    strata_json null = strata_json_null();
    if (strata_json_push(out, &null, &err)) lstrata_raise(L, NULL, &err);
  }
  lua_pushnil(L);
  while (lua_next(L, idx) != 0) {
    lua_Integer i = lua_isinteger(L, -2) ? lua_tointeger(L, -2) : 0;
    if (i < 1 || (lua_Unsigned)i > n) {
      json_fail(L, path, strings ? "a table's keys must be all strings (an object) or 1 to n (an array), not both"
                                  : "a table's keys must be all strings (an object) or 1 to n (an array)");
    }
    strata_json_path here = { path, NULL, 0, (size_t)i - 1 };
    to_json(L, lua_gettop(L), &here, depth + 1, &out->u.c.items[i - 1]);
    lua_pop(L, 1);
  }
}

static void to_json(lua_State *L, int idx, const strata_json_path *path, size_t depth, strata_json *out) {
  strata_error err;
  *out = strata_json_null();
  switch (lua_type(L, idx)) {
  case LUA_TBOOLEAN: *out = strata_json_bool(lua_toboolean(L, idx)); return;
  case LUA_TNUMBER:
    if (lua_isinteger(L, idx)) *out = strata_json_int((int64_t)lua_tointeger(L, idx));
    else *out = strata_json_float((double)lua_tonumber(L, idx));
    return;
  case LUA_TSTRING: {
    size_t len;
    const char *s = lua_tolstring(L, idx, &len);
    if (strata_json_string(out, s, len, &err)) lstrata_raise(L, NULL, &err);
    return;
  }
  case LUA_TTABLE: table_to_json(L, idx, path, depth, out); return;
  case LUA_TLIGHTUSERDATA:
    if (lua_touserdata(L, idx) == NULL) return; /* strata.json.null */
    break;
  default: break;
  }
  json_fail(L, path, lua_pushfstring(L, "%s cannot be JSON (plain data only: tables, strings, numbers, booleans, "
                                        "strata.json.null)", luaL_typename(L, idx)));
}

/* strata.json.encode(value [, { pretty = }]) */
static int json_encode(lua_State *L) {
  static const char *const known[] = { "pretty", NULL };
  lstrata_check_options(L, 2, known, 1);
  int pretty = lua_istable(L, 2) && lstrata_opt_bool(L, 2, "pretty", 0);
  lua_settop(L, 1);
  box *b = push_box(L);
  to_json(L, 1, NULL, 0, &b->root);
  strata_error err;
  if (strata_json_write(&b->root, pretty, &b->text, &err)) return lstrata_raise(L, NULL, &err);
  lua_pushlstring(L, (const char *)b->text.data, b->text.len);
  return 1;
}

/* strata.json.array([t]) -> t (a new table when absent), marked to be written as an array */
static int json_array(lua_State *L) {
  if (lua_isnoneornil(L, 1)) {
    lua_settop(L, 0);
    lua_newtable(L);
  }
  lstrata_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  if (marked_array(L, 1)) return 1;
  /* another's metatable is never replaced: the table is someone's object, not a list */
  if (lua_getmetatable(L, 1)) lstrata_argnerror(L, 1, "a table with a metatable of its own cannot be marked");
  luaL_setmetatable(L, ARRAY_MT);
  return 1;
}

void lstrata_open_json(lua_State *L) {
  static const luaL_Reg box_meta[] = { { "__gc", box_gc }, { NULL, NULL } };
  static const luaL_Reg funcs[] = { { "decode", json_decode }, { "encode", json_encode }, { "array", json_array },
                                    { NULL, NULL } };
  luaL_newmetatable(L, BOX_MT);
  luaL_setfuncs(L, box_meta, 0);
  lstrata_protect_metatable(L, "strata.json_tree");
  lua_pop(L, 1);
  luaL_newmetatable(L, ARRAY_MT);
  lstrata_protect_metatable(L, ARRAY_MT);
  lua_pop(L, 1);
  lstrata_add_functions(L, "json", 1, funcs);
  lua_getfield(L, -1, "json");
  lua_pushlightuserdata(L, NULL);
  lua_setfield(L, -2, "null");
  lua_pop(L, 1);
}
