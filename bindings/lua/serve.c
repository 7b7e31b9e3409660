/*
** serve.c - strata.core.serve: the core's serving process (strata/serve.h)
** for lua/strata/serve.lua, which makes strata.serve of it (names, handles,
** the world's mods). core.serve.open(uri, { scopes =, label =, ttl =,
** wait = }) -> the serve userdata, its world's state and the saved mod
** list. The state is the serve's (lworld.h): it keeps the serve userdata
** alive, and the serve userdata keeps it (uservalue 1) only to tell it,
** when the core frees the world at close, that the world is gone.
*/
#include "lstrata.h"
#include "lworld.h"
#include "strata/serve.h"

#define SERVE_MT "strata.serve"

typedef struct serve_ud {
  strata_serve *s; /* NULL once closed */
} serve_ud;

static strata_serve *check_serve(lua_State *L) {
  serve_ud *u = lstrata_checkudata(L, 1, SERVE_MT);
  if (u->s == NULL) lstrata_error(L, "the serve handle is closed");
  return u->s;
}

/* The scopes of the options at t, read raw into a userdata pushed (the
** strings stay alive in the options table for the call, which runs no Lua). */
static const char **check_scopes(lua_State *L, int t, size_t *n) {
  if (lstrata_rawfield(L, t, "scopes") != LUA_TTABLE)
    lstrata_error(L, "scopes must be a list of strings, got %s", luaL_typename(L, -1));
  size_t len = lua_rawlen(L, -1);
  const char **scopes = lua_newuserdatauv(L, sizeof *scopes * (len ? len : 1), 0);
  for (size_t i = 0; i < len; i++) {
    if (lua_rawgeti(L, -2, (lua_Integer)i + 1) != LUA_TSTRING)
      lstrata_error(L, "scopes[%d] must be a string, got %s", (int)i + 1, luaL_typename(L, -1));
    scopes[i] = lua_tostring(L, -1);
    lua_pop(L, 1);
  }
  lua_remove(L, -2);
  *n = len;
  return scopes;
}

/* open(uri, options) -> serve, state, { {id, version}, ... } */
static int serve_open(lua_State *L) {
  const char *uri = lstrata_checkstring(L, 1);
  lstrata_checktype(L, 2, LUA_TTABLE);
  strata_serve_options opt = { 0 };
  opt.scopes = check_scopes(L, 2, &opt.nscopes);
  opt.label = lstrata_opt_string(L, 2, "label", NULL);
  opt.ttl = lstrata_opt_number(L, 2, "ttl", 0);
  opt.wait = lstrata_opt_number(L, 2, "wait", 0);
  serve_ud *u = lua_newuserdatauv(L, sizeof *u, 1);
  u->s = NULL;
  luaL_setmetatable(L, SERVE_MT);
  int at = lua_gettop(L);
  strata_mod_version *mods = NULL;
  size_t n = 0;
  strata_error err;
  if (strata_serve_open(uri, &opt, &u->s, &mods, &n, &err)) return lstrata_raise(L, NULL, &err);
  lstrata_push_served_world(L, strata_serve_world(u->s), at);
  lua_pushvalue(L, -1);
  lua_setiuservalue(L, at, 1);
  lstrata_push_mods(L, mods, n);
  return 3;
}

/* save({ {id, version}, ... }) -> how many objects were handed over */
static int serve_save(lua_State *L) {
  strata_serve *s = check_serve(L);
  size_t n, handed = 0;
  strata_mod_version *mods = lstrata_check_mods(L, 2, &n);
  strata_error err;
  if (strata_serve_save(s, mods, n, &handed, &err)) return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)handed);
  return 1;
}

/* poll(ms) -> how many objects arrived */
static int serve_poll(lua_State *L) {
  strata_serve *s = check_serve(L);
  int ms = lstrata_check_int(L, 2);
  size_t arrived = 0;
  strata_error err;
  if (strata_serve_poll(s, ms, &arrived, &err)) return lstrata_raise(L, NULL, &err);
  lua_pushinteger(L, (lua_Integer)arrived);
  return 1;
}

/* scope_of(uid) -> "area:U", "map:U", "world", or nil when the world holds no uid */
static int serve_scope_of(lua_State *L) {
  strata_serve *s = check_serve(L);
  lua_Integer uid = lstrata_checkinteger(L, 2);
  char scope[STRATA_LEASE_SCOPE_MAX];
  if (uid <= 0 || !*strata_serve_scope_of(s, (uint64_t)uid, scope)) return 0;
  lua_pushstring(L, scope);
  return 1;
}

/* move(uid, map, x, y) */
static int serve_move(lua_State *L) {
  strata_serve *s = check_serve(L);
  lua_Integer uid = lstrata_checkinteger(L, 2), map = lstrata_checkinteger(L, 3);
  lua_Integer x = lstrata_checkinteger(L, 4), y = lstrata_checkinteger(L, 5);
  strata_error err;
  if (strata_serve_move(s, (uint64_t)uid, (uint64_t)map, x, y, &err)) return lstrata_raise(L, NULL, &err);
  return 0;
}

static int serve_owns(lua_State *L) {
  strata_serve *s = check_serve(L);
  lua_pushboolean(L, strata_serve_owns(s, lstrata_checkstring(L, 2)));
  return 1;
}

static int serve_holder(lua_State *L) {
  lua_pushstring(L, strata_lease_holder(strata_serve_leases(check_serve(L))));
  return 1;
}

/* The state's world is gone with the serve: the state is told first, so
** that nothing reaches the world once it is freed. */
static int serve_close(lua_State *L) {
  serve_ud *u = lstrata_checkudata(L, 1, SERVE_MT);
  if (u->s == NULL) return 0;
  lua_getiuservalue(L, 1, 1);
  lstrata_world_gone(L, -1);
  lua_pop(L, 1);
  strata_serve_close(u->s);
  u->s = NULL;
  return 0;
}

static int serve_is_open(lua_State *L) {
  lua_pushboolean(L, ((serve_ud *)lstrata_checkudata(L, 1, SERVE_MT))->s != NULL);
  return 1;
}

void lstrata_open_serve(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"save", serve_save}, {"poll", serve_poll}, {"scope_of", serve_scope_of}, {"owns", serve_owns}, {"move", serve_move},
    {"holder", serve_holder}, {"close", serve_close}, {"is_open", serve_is_open}, {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__gc", serve_close}, {"__close", serve_close}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"open", serve_open}, {NULL, NULL}};
  lstrata_register_type(L, SERVE_MT, NULL, meta, methods);
  lstrata_add_functions(L, "serve", 0, funcs);
}
