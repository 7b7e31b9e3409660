/* lstrata.c - shared binding helpers and the module entry point. */
#include "lstrata.h"
#include "lguard.h"

#include <stdarg.h>
#include <string.h>

/* ---- public names ------------------------------------------------------------------- */
/* Registry key of the table { [C function] = "public name" }. */
static const char NAMES_KEY = 0;

void lstrata_name_functions(lua_State *L, const char *prefix, const luaL_Reg *funcs) {
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &NAMES_KEY) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &NAMES_KEY);
  }
  for (; funcs->name; funcs++) {
    if (funcs->func == NULL || funcs->name[0] == '_') continue;
    lua_pushcfunction(L, funcs->func);
    lua_pushfstring(L, "%s%s", prefix, funcs->name);
    lua_rawset(L, -3);
  }
  lua_pop(L, 1);
}

const char *lstrata_public_name(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, 0, &ar)) return NULL;
  if (!lua_checkstack(L, 2)) return NULL;
  lua_getinfo(L, "f", &ar);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &NAMES_KEY) != LUA_TTABLE) {
    lua_pop(L, 2);
    return NULL;
  }
  lua_insert(L, -2);
  lua_rawget(L, -2);
  /* The string stays alive in the names table, which the registry holds. */
  const char *name = lua_tostring(L, -1);
  lua_pop(L, 2);
  return name;
}

/* ---- the caller's line ------------------------------------------------------------- */
/* Registry key of the chunk-name prefix of strata's own Lua files ("@.../strata/"),
** which lua/strata/boundary.lua gives (core._library_source). */
static const char LIBRARY_KEY = 0;

static int set_library_source(lua_State *L) {
  lstrata_checkstring(L, 1);
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &LIBRARY_KEY);
  return 0;
}

/* Whether the code that called the running C function is strata's own Lua. */
static int called_by_library(lua_State *L) {
  lua_Debug ar;
  if (!lua_getstack(L, 1, &ar) || !lua_getinfo(L, "S", &ar)) return 0;
  if (strcmp(ar.source, "=strata") == 0) return 1;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &LIBRARY_KEY) != LUA_TSTRING) {
    lua_pop(L, 1);
    return 0;
  }
  size_t n;
  const char *prefix = lua_tolstring(L, -1, &n);
  int mine = strncmp(ar.source, prefix, n) == 0;
  lua_pop(L, 1);
  return mine;
}

/* "file:line: " of the caller, or "" when the caller is strata's own Lua:
** the public function that called it puts its own caller's line. */
static void push_where(lua_State *L) {
  if (called_by_library(L)) lua_pushliteral(L, "");
  else luaL_where(L, 1);
}

int lstrata_raise(lua_State *L, const char *prefix, const strata_error *err) {
  return lstrata_raise_text(L, prefix, err, err->message);
}

int lstrata_raise_text(lua_State *L, const char *prefix, const strata_error *err, const char *message) {
  const char *name = lstrata_public_name(L);
  if (name) prefix = name;
  push_where(L);
  if (prefix) lua_pushfstring(L, "%s: ", prefix);
  else lua_pushliteral(L, "");
  lua_pushstring(L, message[0] ? message : strata_status_name(err->status));
  if (err->line > 0) lua_pushfstring(L, " (line %d, column %d)", err->line, err->column);
  else lua_pushliteral(L, "");
  lua_concat(L, 4);
  return lua_error(L);
}

int lstrata_error(lua_State *L, const char *fmt, ...) {
  const char *name = lstrata_public_name(L);
  va_list ap;
  va_start(ap, fmt);
  push_where(L);
  if (name) lua_pushfstring(L, "%s: ", name);
  else lua_pushliteral(L, "");
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 3);
  return lua_error(L);
}

/* A method's arguments are counted as its caller wrote them: self is not one. */
static int shown_arg(const char *name, int arg) { return strchr(name, ':') ? arg - 1 : arg; }

int lstrata_argerror(lua_State *L, int arg, const char *msg) {
  (void)arg; /* (the message says which: unnamed, it is the message alone) */
  return lstrata_error(L, "%s", msg);
}

int lstrata_argnerror(lua_State *L, int arg, const char *msg) {
  const char *name = lstrata_public_name(L);
  if (!name) return lstrata_error(L, "%s", msg);
  return lstrata_error(L, "argument #%d: %s", shown_arg(name, arg), msg);
}

int lstrata_typeerror(lua_State *L, int arg, const char *tname) {
  const char *name = lstrata_public_name(L);
  const char *got;
  if (luaL_getmetafield(L, arg, "__name") == LUA_TSTRING) got = lua_tostring(L, -1);
  else if (lua_type(L, arg) == LUA_TLIGHTUSERDATA) got = "light userdata";
  else got = luaL_typename(L, arg);
  if (!name) return lstrata_error(L, "%s expected, got %s", tname, got);
  if (shown_arg(name, arg) == 0)
    return lstrata_error(L, "expected a %s as self (call it with a colon: %s(...)), got %s", tname, name, got);
  return lstrata_argnerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, got));
}

lua_Integer lstrata_checkinteger(lua_State *L, int arg) {
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, arg, &isint);
  if (!isint) {
    if (lua_isnumber(L, arg)) lstrata_argnerror(L, arg, "number has no integer representation");
    else lstrata_typeerror(L, arg, "number");
  }
  return v;
}

lua_Integer lstrata_optinteger(lua_State *L, int arg, lua_Integer def) {
  return lua_isnoneornil(L, arg) ? def : lstrata_checkinteger(L, arg);
}

void lstrata_checkstack(lua_State *L, int n, const char *what) {
  if (!lua_checkstack(L, n)) lstrata_error(L, "stack overflow (%s)", what);
}

lua_Number lstrata_checknumber(lua_State *L, int arg) {
  int isnum = 0;
  lua_Number v = lua_tonumberx(L, arg, &isnum);
  if (!isnum) lstrata_typeerror(L, arg, "number");
  return v;
}

const char *lstrata_checklstring(lua_State *L, int arg, size_t *len) {
  const char *s = lua_tolstring(L, arg, len);
  if (!s) lstrata_typeerror(L, arg, "string");
  return s;
}

const char *lstrata_optlstring(lua_State *L, int arg, const char *def, size_t *len) {
  if (lua_isnoneornil(L, arg)) {
    if (len) *len = def ? strlen(def) : 0;
    return def;
  }
  return lstrata_checklstring(L, arg, len);
}

void lstrata_checktype(lua_State *L, int arg, int t) {
  if (lua_type(L, arg) != t) lstrata_typeerror(L, arg, lua_typename(L, t));
}

void *lstrata_checkudata(lua_State *L, int arg, const char *tname) {
  void *p = luaL_testudata(L, arg, tname);
  if (!p) lstrata_typeerror(L, arg, tname);
  return p;
}

/* Pushes "unknown option 'key' (nearest known: a, b, c)": the same words as
** lua/strata/options.lua, which checks the options of the Lua half. */
static void push_unknown_option(lua_State *L, const char *key, const char *const known[]) {
  size_t n = 0;
  while (known[n]) n++;
  const char *near[3];
  size_t kept = strata_nearest(key, known, n, near, NULL, 3);
  luaL_Buffer b;
  luaL_buffinit(L, &b);
  luaL_addstring(&b, "unknown option '");
  luaL_addstring(&b, key);
  luaL_addstring(&b, "' (nearest known: ");
  for (size_t i = 0; i < kept; i++) {
    if (i) luaL_addstring(&b, ", ");
    luaL_addstring(&b, near[i]);
  }
  luaL_addstring(&b, ")");
  luaL_pushresult(&b);
}

/* strata.core.nearest(name, known): the (up to 3) strings of the array known
** nearest to name, as strata_nearest ranks them (options.nearest). The array
** is read raw, its strings kept alive by the table on the stack. */
/* strata.core.edit_distance(a, b): strata_edit_distance (options.distance). */
static int l_edit_distance(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)strata_edit_distance(lstrata_checkstring(L, 1), lstrata_checkstring(L, 2)));
  return 1;
}

static int l_nearest(lua_State *L) {
  const char *name = lstrata_checkstring(L, 1);
  lstrata_checktype(L, 2, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
  const char **known = lua_newuserdatauv(L, (size_t)(n ? n : 1) * sizeof *known, 0);
  for (lua_Integer i = 1; i <= n; i++) {
    if (lua_rawgeti(L, 2, i) != LUA_TSTRING)
      lstrata_error(L, "strata.options.nearest: known[%d] is a %s, not a string", (int)i, luaL_typename(L, -1));
    known[i - 1] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  const char *near[3];
  size_t kept = strata_nearest(name, known, (size_t)n, near, NULL, 3);
  lua_createtable(L, (int)kept, 0);
  for (size_t i = 0; i < kept; i++) {
    lua_pushstring(L, near[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  return 1;
}

void lstrata_check_options(lua_State *L, int arg, const char *const known[], int optional) {
  if (optional && lua_isnoneornil(L, arg)) return;
  lstrata_checktype(L, arg, LUA_TTABLE);
  lua_pushnil(L);
  while (lua_next(L, arg) != 0) {
    lua_pop(L, 1);
    if (lua_type(L, -1) != LUA_TSTRING) {
      lstrata_argerror(L, arg, lua_pushfstring(L, "option keys must be strings, got a %s",
                                               luaL_typename(L, -1)));
    }
    const char *key = lua_tostring(L, -1);
    int ok = 0;
    for (int i = 0; known[i]; i++) ok |= strcmp(known[i], key) == 0;
    if (!ok) {
      push_unknown_option(L, key, known);
      lstrata_argerror(L, arg, lua_tostring(L, -1));
    }
  }
}

/* Raw, as lstrata_check_options reads the keys: an options table's
** metamethods never run (the border rule), nor give values it lacks. */
int lstrata_rawfield(lua_State *L, int t, const char *key) {
  t = lua_absindex(L, t);
  lua_pushstring(L, key);
  return lua_rawget(L, t);
}

static void field_error(lua_State *L, const char *key, const char *expected) {
  /* a number that is not what was wanted (1.5 for an integer) is named by its value */
  if (lua_type(L, -1) == LUA_TNUMBER)
    lstrata_error(L, "option '%s' must be %s, got %s", key, expected, lua_tolstring(L, -1, NULL));
  lstrata_error(L, "option '%s' must be %s, got %s", key, expected, luaL_typename(L, -1));
}

lua_Integer lstrata_opt_int(lua_State *L, int t, const char *key, lua_Integer def) {
  t = lua_absindex(L, t);
  if (lstrata_rawfield(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return def; }
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, -1, &isint);
  if (!isint) field_error(L, key, "an integer");
  lua_pop(L, 1);
  return v;
}

lua_Number lstrata_opt_number(lua_State *L, int t, const char *key, lua_Number def) {
  t = lua_absindex(L, t);
  if (lstrata_rawfield(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (lua_type(L, -1) != LUA_TNUMBER) field_error(L, key, "a number");
  lua_Number v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

int lstrata_opt_bool(lua_State *L, int t, const char *key, int def) {
  t = lua_absindex(L, t);
  if (lstrata_rawfield(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (lua_type(L, -1) != LUA_TBOOLEAN) field_error(L, key, "a boolean");
  int v = lua_toboolean(L, -1);
  lua_pop(L, 1);
  return v;
}

/* The string stays valid while the option table holds it. */
const char *lstrata_opt_string(lua_State *L, int t, const char *key, const char *def) {
  t = lua_absindex(L, t);
  if (lstrata_rawfield(L, t, key) == LUA_TNIL) { lua_pop(L, 1); return def; }
  if (lua_type(L, -1) != LUA_TSTRING) field_error(L, key, "a string");
  const char *v = lua_tostring(L, -1);
  lua_pop(L, 1);
  return v;
}

static int point_coord(lua_State *L, int t, int index, const char *name, lua_Integer *out) {
  int type = lua_geti(L, t, index);
  if (type == LUA_TNIL) {
    lua_pop(L, 1);
    type = lua_getfield(L, t, name);
  }
  int isint = 0;
  *out = lua_tointegerx(L, -1, &isint);
  lua_pop(L, 1);
  return isint;
}

int lstrata_test_point(lua_State *L, int arg, lua_Integer *x, lua_Integer *y) {
  arg = lua_absindex(L, arg);
  return lua_type(L, arg) == LUA_TTABLE && point_coord(L, arg, 1, "x", x) && point_coord(L, arg, 2, "y", y);
}

void lstrata_check_point(lua_State *L, int arg, lua_Integer *x, lua_Integer *y) {
  arg = lua_absindex(L, arg);
  if (lua_type(L, arg) != LUA_TTABLE)
    lstrata_argnerror(L, arg, lua_pushfstring(L, "expected a point {x, y}, got %s",
                                              luaL_typename(L, arg)));
  if (!lstrata_test_point(L, arg, x, y))
    lstrata_argnerror(L, arg, "expected a point {x, y} with integer coordinates");
}

int lstrata_check_int(lua_State *L, int arg) {
  lua_Integer v = lstrata_checkinteger(L, arg);
  if (v < -0x7fffffff || v > 0x7fffffff) lstrata_argnerror(L, arg, "integer out of range");
  return (int)v;
}

void lstrata_push_uids(lua_State *L, const uint64_t *u, size_t n) {
  lua_createtable(L, (int)n, 0);
  for (size_t i = 0; i < n; i++) {
    lua_pushinteger(L, (lua_Integer)u[i]);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
}

static void add_public_methods(lua_State *L, const char *public_prefix, const luaL_Reg *funcs) {
  if (public_prefix == NULL) return;
  lua_pushfstring(L, "%s:", public_prefix);
  lstrata_name_functions(L, lua_tostring(L, -1), funcs);
  lua_pop(L, 1);
}

void lstrata_register_type(lua_State *L, const char *name, const char *public_prefix,
                           const luaL_Reg *meta, const luaL_Reg *methods) {
  luaL_newmetatable(L, name);
  luaL_setfuncs(L, meta, 0);
  lstrata_protect_metatable(L, name);
  int own_index = lua_getfield(L, -1, "__index") == LUA_TFUNCTION;
  lua_pop(L, 1);
  lua_newtable(L);
  luaL_setfuncs(L, methods, 0);
  lua_setfield(L, -2, own_index ? "methods" : "__index");
  if (public_prefix) {
    lua_pushstring(L, public_prefix);
    lua_setfield(L, -2, "public");
  }
  lua_pop(L, 1);
  add_public_methods(L, public_prefix, methods);
}

void lstrata_add_methods(lua_State *L, const char *name, const char *public_prefix,
                         const luaL_Reg *funcs) {
  luaL_getmetatable(L, name);
  if (lua_getfield(L, -1, "methods") != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_getfield(L, -1, "__index");
  }
  luaL_setfuncs(L, funcs, 0);
  lua_pop(L, 2);
  add_public_methods(L, public_prefix, funcs);
}

/* getmetatable() on a strata value gives its type name, never the metatable:
** its __gc and methods stay out of reach (luaL_checkudata reads the real one). */
void lstrata_protect_metatable(lua_State *L, const char *name) {
  lua_pushstring(L, name);
  lua_setfield(L, -2, "__metatable");
}

void lstrata_add_functions(lua_State *L, const char *field, int is_public, const luaL_Reg *funcs) {
  lua_newtable(L);
  luaL_setfuncs(L, funcs, 0);
  lua_setfield(L, -2, field);
  if (is_public) {
    lua_pushfstring(L, "strata.%s.", field);
    lstrata_name_functions(L, lua_tostring(L, -1), funcs);
    lua_pop(L, 1);
  }
}

int lstrata_open_core(lua_State *L) {
  lua_newtable(L);
  lua_pushstring(L, strata_version());
  lua_setfield(L, -2, "version");
  lstrata_open_tokens(L);
  lstrata_open_tilemap(L);
  lstrata_open_tilepath(L);
  lstrata_open_fov(L);
  lstrata_open_distmap(L);
  lstrata_open_rng(L);
  lstrata_open_noise(L);
  lstrata_open_json(L);
  lstrata_open_xymap(L);
  lstrata_open_world(L);
  lstrata_open_stream(L);
  lstrata_open_room(L);
  lstrata_open_grid(L);
  lstrata_open_branch(L);
  lstrata_open_layout(L);
  lstrata_open_picture(L);
  lstrata_open_paths(L);
  lstrata_open_worldgen(L);
  lstrata_open_runtime(L);
  lstrata_open_turns(L);
  lstrata_open_guard(L);
  lstrata_open_lease(L);
  lstrata_open_serve(L);
  lua_pushcfunction(L, set_library_source);
  lua_setfield(L, -2, "_library_source");
  lua_pushcfunction(L, l_nearest);
  lua_setfield(L, -2, "nearest");
  lua_pushcfunction(L, l_edit_distance);
  lua_setfield(L, -2, "edit_distance");
  return 1;
}
