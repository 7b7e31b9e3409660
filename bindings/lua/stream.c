/*
** stream.c - world.rng:stream(key) from Lua: the name of one of the world's
** random streams, not a generator. Each draw reads the stream's state from
** the world, draws, and writes it back: the world is the stream's one owner,
** so what a timer handler draws is where the next draw starts (in the same
** advance, the next, and after a save), and a savepoint that is undone puts
** the stream back with everything else (the core journals the write).
**
** The value holds two user values: the world state it names a stream of (kept
** alive by it) and the key.
**
** ctx.rng of a floor, map hook or branch room generator is such a value too:
** the core lends the call's generator to the world under its key for the
** call (strata_world_lend_stream), so draws through the key reach it, and the
** world's savepoints journal them.
*/
#include <string.h>

#include "lrng.h"

#define STREAM_MT "strata.stream"

/* The stream at arg: its world (raises once that is closed) and key. Leaves
** the stack as it was. */
static const char *check_stream(lua_State *L, int arg, strata_world **w) {
  lstrata_checkudata(L, arg, STREAM_MT);
  lua_getiuservalue(L, arg, 2);
  const char *key = lua_tostring(L, -1); /* kept alive by the user value */
  lua_getiuservalue(L, arg, 1);
  *w = lstrata_to_world(L, -1);
  lua_pop(L, 2);
  if (!*w) lstrata_error(L, "stream '%s': its world is closed", key);
  return key;
}

/* One draw: the stream's state lent to op, then written back. op raises only
** on its arguments, before it draws (the state is then left as it was). */
static int draw(lua_State *L, int (*op)(lua_State *, strata_rng *)) {
  strata_world *w;
  const char *key = check_stream(L, 1, &w);
  strata_rng r;
  strata_error err;
  if (strata_world_stream(w, key, &r, &err)) return lstrata_raise(L, NULL, &err);
  int n = op(L, &r);
  if (strata_world_set_stream(w, key, &r, &err)) return lstrata_raise(L, NULL, &err);
  return n;
}

static int s_int(lua_State *L) { return draw(L, lstrata_rng_int); }
static int s_float(lua_State *L) { return draw(L, lstrata_rng_float); }
static int s_chance(lua_State *L) { return draw(L, lstrata_rng_chance); }
static int s_shuffle(lua_State *L) { return draw(L, lstrata_rng_shuffle); }
static int s_pick(lua_State *L) { return draw(L, lstrata_rng_pick); }
static int s_normal(lua_State *L) { return draw(L, lstrata_rng_normal); }
static int s_weighted(lua_State *L) { return draw(L, lstrata_rng_weighted); }

/* s:state() -> string (32 hex digits): where the next draw starts */
static int s_state(lua_State *L) {
  strata_world *w;
  const char *key = check_stream(L, 1, &w);
  strata_rng r;
  strata_error err;
  if (strata_world_stream(w, key, &r, &err)) return lstrata_raise(L, NULL, &err);
  char text[STRATA_RNG_STATE_CHARS];
  strata_rng_format(&r, text);
  lua_pushstring(L, text);
  return 1;
}

/* s:set_state(text) -> s */
static int s_set_state(lua_State *L) {
  strata_world *w;
  const char *key = check_stream(L, 1, &w);
  strata_rng r;
  lstrata_check_rng_state(L, 2, &r);
  strata_error err;
  if (strata_world_set_stream(w, key, &r, &err)) return lstrata_raise(L, NULL, &err);
  lua_settop(L, 1);
  return 1;
}

/* s:stream(key) -> a new generator, strata.rng.new(world seed):stream(s.key):stream(key) */
static int s_stream(lua_State *L) {
  strata_world *w;
  const char *key = check_stream(L, 1, &w);
  return lstrata_rng_substream(L, strata_hash64(strata_world_seed(w), key, strlen(key)));
}

static int s_index(lua_State *L) {
  lstrata_checkudata(L, 1, STREAM_MT);
  const char *k = lua_tostring(L, 2);
  if (k && strcmp(k, "key") == 0) {
    lua_getiuservalue(L, 1, 2);
    return 1;
  }
  luaL_getmetatable(L, STREAM_MT);
  lua_getfield(L, -1, "methods");
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  return 1;
}

static int s_newindex(lua_State *L) {
  lstrata_checkudata(L, 1, STREAM_MT);
  lua_getiuservalue(L, 1, 2);
  return lstrata_error(L, "stream '%s' has no fields to set", lua_tostring(L, -1));
}

/* Two values naming the same stream of the same world are equal. */
static int s_eq(lua_State *L) {
  if (!luaL_testudata(L, 1, STREAM_MT) || !luaL_testudata(L, 2, STREAM_MT)) return 0;
  lua_getiuservalue(L, 1, 1);
  lua_getiuservalue(L, 2, 1);
  lua_getiuservalue(L, 1, 2);
  lua_getiuservalue(L, 2, 2);
  lua_pushboolean(L, lua_rawequal(L, -4, -3) && lua_rawequal(L, -2, -1));
  return 1;
}

static int s_tostring(lua_State *L) {
  lstrata_checkudata(L, 1, STREAM_MT);
  lua_getiuservalue(L, 1, 2);
  lua_pushfstring(L, "stream '%s'", lua_tostring(L, -1));
  return 1;
}

void lstrata_push_stream(lua_State *L, int world_idx, const char *key) {
  world_idx = lua_absindex(L, world_idx);
  lua_newuserdatauv(L, 0, 2);
  lua_pushvalue(L, world_idx);
  lua_setiuservalue(L, -2, 1);
  lua_pushstring(L, key);
  lua_setiuservalue(L, -2, 2);
  luaL_setmetatable(L, STREAM_MT);
}

/* world_state:stream_handle(key) -> the stream named key of that world (made
** in the world by its first draw). */
static int w_stream_handle(lua_State *L) {
  lstrata_check_world(L, 1);
  size_t len;
  const char *key = lstrata_checklstring(L, 2, &len);
  lstrata_argcheck(L, strlen(key) == len, 2, "a stream key cannot hold a zero byte");
  lstrata_push_stream(L, 1, key);
  return 1;
}

void lstrata_open_stream(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"int", s_int}, {"float", s_float}, {"chance", s_chance}, {"shuffle", s_shuffle},
    {"pick", s_pick}, {"normal", s_normal}, {"weighted", s_weighted}, {"state", s_state},
    {"set_state", s_set_state}, {"stream", s_stream},
    {NULL, NULL}};
  static const luaL_Reg meta[] = {
    {"__index", s_index}, {"__newindex", s_newindex}, {"__eq", s_eq}, {"__tostring", s_tostring}, {NULL, NULL}};
  static const luaL_Reg world_methods[] = {{"stream_handle", w_stream_handle}, {NULL, NULL}};
  lstrata_register_type(L, STREAM_MT, "stream", meta, methods);
  lstrata_add_methods(L, "strata.world_state", NULL, world_methods);
}
