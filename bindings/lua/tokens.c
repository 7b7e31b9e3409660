/* tokens.c - strata.tokens: token tables and their traits, from Lua. */
#include <string.h>

#include "ltokens.h"

#define TOKENS_MT "strata.tokens"

/* The registry key of this Lua state's default token table. */
static const char DEFAULT_KEY = 'k';

strata_tokens *lstrata_check_tokens(lua_State *L, int arg) {
  strata_tokens **ud = lstrata_checkudata(L, arg, TOKENS_MT);
  if (*ud == NULL) lstrata_argerror(L, arg, "the token table was released");
  return *ud;
}

void lstrata_push_tokens(lua_State *L, strata_tokens *t) {
  strata_tokens **ud = lua_newuserdatauv(L, sizeof *ud, 0);
  *ud = t;
  strata_tokens_retain(t);
  luaL_setmetatable(L, TOKENS_MT);
}

strata_tokens *lstrata_default_tokens(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);
  strata_tokens *t = lstrata_check_tokens(L, -1);
  lua_pop(L, 1);
  return t;
}

void lstrata_check_traits(lua_State *L, int arg, const char *name, size_t len,
                          const strata_token_traits *base, strata_token_traits *out) {
  static const char *const known[] = {"passable", "cost", "glyph", "color", "transparent", NULL};
  lstrata_check_options(L, arg, known, 0);
  if (base) *out = *base;
  else strata_tokens_default_traits(name, len, out);
  out->passable = lstrata_opt_bool(L, arg, "passable", out->passable);
  /* transparent: as given; else passable's value when that is given (a
  ** wall blocks sight unless it says otherwise); else unchanged */
  lua_getfield(L, arg, "passable");
  int gave_passable = !lua_isnil(L, -1);
  lua_pop(L, 1);
  int transparent = gave_passable ? out->passable : !out->opaque;
  out->opaque = !lstrata_opt_bool(L, arg, "transparent", transparent);
  out->cost = lstrata_opt_number(L, arg, "cost", out->cost);
  const char *glyph = lstrata_opt_string(L, arg, "glyph", NULL);
  if (glyph) {
    if (strlen(glyph) >= sizeof out->glyph) lstrata_argerror(L, arg, "glyph must be one character");
    memset(out->glyph, 0, sizeof out->glyph);
    memcpy(out->glyph, glyph, strlen(glyph));
  }
  const char *color = lstrata_opt_string(L, arg, "color", NULL);
  if (color) {
    if (strlen(color) >= sizeof out->color) lstrata_argerror(L, arg, "color name is too long");
    memset(out->color, 0, sizeof out->color);
    memcpy(out->color, color, strlen(color));
  }
}

void lstrata_define_token(lua_State *L, strata_tokens *t, int name_arg, int traits_arg) {
  size_t len;
  const char *name = lstrata_checklstring(L, name_arg, &len);
  strata_token id = strata_tokens_find(t, name, len);
  strata_token_traits traits;
  lstrata_check_traits(L, traits_arg, name, len, id ? strata_tokens_traits(t, id) : NULL,
                       &traits);
  strata_error err;
  if (strata_tokens_define(t, name, len, &traits, &err) != STRATA_OK)
    lstrata_raise(L, "define", &err);
}

void lstrata_push_traits(lua_State *L, const strata_token_traits *tr) {
  lua_createtable(L, 0, 5);
  lua_pushboolean(L, tr->passable);
  lua_setfield(L, -2, "passable");
  lua_pushboolean(L, !tr->opaque);
  lua_setfield(L, -2, "transparent");
  lua_pushnumber(L, tr->cost);
  lua_setfield(L, -2, "cost");
  lua_pushstring(L, tr->glyph);
  lua_setfield(L, -2, "glyph");
  if (tr->color[0]) {
    lua_pushstring(L, tr->color);
    lua_setfield(L, -2, "color");
  }
}

/* tokens:define(name, { passable =, transparent =, cost =, glyph =, color = }) */
static int tokens_define(lua_State *L) {
  lstrata_define_token(L, lstrata_check_tokens(L, 1), 2, 3);
  lua_settop(L, 1);
  return 1;
}

/* tokens:traits(name) -> table (the defaults for a token never defined) */
static int tokens_traits(lua_State *L) {
  strata_tokens *t = lstrata_check_tokens(L, 1);
  size_t len;
  const char *name = lstrata_checklstring(L, 2, &len);
  strata_token id = strata_tokens_find(t, name, len);
  strata_token_traits d;
  if (id == 0) strata_tokens_default_traits(name, len, &d);
  lstrata_push_traits(L, id ? strata_tokens_traits(t, id) : &d);
  return 1;
}

/* tokens:names() -> array of every interned name, in id order */
static int tokens_names(lua_State *L) {
  strata_tokens *t = lstrata_check_tokens(L, 1);
  uint32_t n = strata_tokens_count(t);
  lua_createtable(L, (int)n, 0);
  for (uint32_t id = 1; id <= n; id++) {
    size_t len;
    const char *name = strata_tokens_name(t, id, &len);
    lua_pushlstring(L, name, len);
    lua_rawseti(L, -2, id);
  }
  return 1;
}

static int tokens_gc(lua_State *L) {
  strata_tokens **ud = lstrata_checkudata(L, 1, TOKENS_MT);
  strata_tokens_release(*ud);
  *ud = NULL;
  return 0;
}

static int tokens_tostring(lua_State *L) {
  strata_tokens *t = lstrata_check_tokens(L, 1);
  lua_pushfstring(L, "strata.tokens (%d tokens)", (int)strata_tokens_count(t));
  return 1;
}

/* strata.tokens.new() -> an empty table of tokens */
static int tokens_new(lua_State *L) {
  strata_error err;
  strata_tokens *t = strata_tokens_new(&err);
  if (t == NULL) return lstrata_raise(L, "tokens.new", &err);
  lstrata_push_tokens(L, t);
  strata_tokens_release(t);
  return 1;
}

/* strata.tokens.define(name, traits): on the default table every map uses
** unless it is given its own. */
static int tokens_define_default(lua_State *L) {
  lstrata_define_token(L, lstrata_default_tokens(L), 1, 2);
  return 0;
}

static int tokens_traits_default(lua_State *L) {
  lua_rawgetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);
  lua_insert(L, 1);
  return tokens_traits(L);
}

void lstrata_open_tokens(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"define", tokens_define}, {"traits", tokens_traits}, {"names", tokens_names}, {NULL, NULL}};
  static const luaL_Reg meta[] = {
    {"__gc", tokens_gc}, {"__tostring", tokens_tostring}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {
    {"new", tokens_new}, {"define", tokens_define_default},
    {"traits", tokens_traits_default}, {NULL, NULL}};
  lstrata_register_type(L, TOKENS_MT, "tokens", meta, methods);

  tokens_new(L);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);

  luaL_newlib(L, funcs);
  lstrata_name_functions(L, "strata.tokens.", funcs);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &DEFAULT_KEY);
  lua_setfield(L, -2, "default");
  lua_setfield(L, -2, "tokens");
}
