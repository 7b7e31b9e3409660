/*
** noise.c - strata.noise: the core's noise (noise.h) from Lua.
** strata.noise.simplex(seed | rng | stream) -> a noise with :at(x, y);
** strata.noise.heights(width, height, { rng =, seed =, variance = }) -> the
** heights, with .width, .height and :at(x, y). Both hold the core's values
** (a permutation, the heights) and nothing else.
*/
#include <string.h>

#include "lrng.h"
#include "strata/noise.h"

#define NOISE_MT "strata.noise"
#define HEIGHTS_MT "strata.heights"

typedef struct heights {
  int width, height;
  double v[];
} heights;

/* Seeds *r from the generator at arg (a strata.rng or a world stream): its
** state read, and (by the caller, once drawn) written back through
** put_back, so a stream's world keeps its one state. 0: arg is neither. */
static int take_rng(lua_State *L, int arg, strata_rng *r) {
  if (!luaL_testudata(L, arg, RNG_MT) && !luaL_testudata(L, arg, "strata.stream")) return 0;
  lua_getfield(L, arg, "state");
  lua_pushvalue(L, arg);
  lua_call(L, 1, 1);
  lstrata_check_rng_state(L, -1, r);
  lua_pop(L, 1);
  return 1;
}

static void put_back(lua_State *L, int arg, const strata_rng *r) {
  char text[STRATA_RNG_STATE_CHARS];
  strata_rng_format(r, text);
  lua_getfield(L, arg, "set_state");
  lua_pushvalue(L, arg);
  lua_pushstring(L, text);
  lua_call(L, 2, 0);
}

/* strata.noise.simplex(seed | rng): a seed as strata.rng.new takes */
static int noise_simplex(lua_State *L) {
  strata_noise *n = lua_newuserdatauv(L, sizeof *n, 0);
  luaL_setmetatable(L, NOISE_MT);
  strata_rng r;
  if (take_rng(L, 1, &r)) {
    strata_noise_from_rng(n, &r);
    put_back(L, 1, &r);
  } else if (lua_type(L, 1) == LUA_TNUMBER || lua_type(L, 1) == LUA_TSTRING) {
    strata_noise_seed(n, lstrata_check_seed(L, 1));
  } else {
    const char *what = luaL_typename(L, 1);
    return lstrata_argerror(L, 1, lua_pushfstring(L, "expected a seed (an integer or a string) or a generator, got %s",
                                                  what));
  }
  return 1;
}

/* noise:at(x, y) -> [-1, 1] */
static int noise_at(lua_State *L) {
  const strata_noise *n = lstrata_checkudata(L, 1, NOISE_MT);
  lua_pushnumber(L, strata_noise_simplex(n, lstrata_checknumber(L, 2), lstrata_checknumber(L, 3)));
  return 1;
}

/* strata.noise.heights(width, height, { rng =, seed =, variance = 0.65 }) */
static int noise_heights(lua_State *L) {
  static const char *const known[] = { "rng", "seed", "variance", NULL };
  lua_Integer w = lstrata_checkinteger(L, 1), h = lstrata_checkinteger(L, 2);
  lstrata_check_options(L, 3, known, 0);
  if (w < 1 || h < 1 || w > STRATA_NOISE_HEIGHTS_MAX || h > STRATA_NOISE_HEIGHTS_MAX)
    return lstrata_error(L, "width and height must be 1 to %d, got %I x %I", STRATA_NOISE_HEIGHTS_MAX, w, h);
  double variance = 0.65; /* NoiseMap's when its exponent is left out (docs/layouts.md) */
  if (lstrata_rawfield(L, 3, "variance") != LUA_TNIL) variance = lstrata_checknumber(L, -1);
  strata_rng r;
  int from_rng = lstrata_rawfield(L, 3, "rng") != LUA_TNIL;
  if (from_rng && !take_rng(L, lua_gettop(L), &r))
    return lstrata_error(L, "option 'rng' must be a generator (strata.rng.new, world.rng:stream), got %s",
                         luaL_typename(L, -1));
  if (!from_rng) {
    if (lstrata_rawfield(L, 3, "seed") == LUA_TNIL) return lstrata_error(L, "needs a seed or an rng");
    if (!lua_isinteger(L, -1) && lua_type(L, -1) != LUA_TSTRING)
      return lstrata_error(L, "option 'seed' must be an integer or a string, got %s", luaL_typename(L, -1));
    strata_rng_seed(&r, lstrata_check_seed(L, lua_gettop(L)));
  }
  heights *hs = lua_newuserdatauv(L, sizeof *hs + (size_t)w * (size_t)h * sizeof(double), 0);
  hs->width = (int)w;
  hs->height = (int)h;
  luaL_setmetatable(L, HEIGHTS_MT);
  strata_error err;
  if (strata_noise_heights(&r, variance, (int)w, (int)h, hs->v, &err)) return lstrata_raise(L, NULL, &err);
  if (from_rng) {
    lstrata_rawfield(L, 3, "rng");
    put_back(L, lua_gettop(L), &r);
    lua_pop(L, 1);
  }
  return 1;
}

/* heights:at(x, y) -> [0, 1] */
static int heights_at(lua_State *L) {
  const heights *hs = lstrata_checkudata(L, 1, HEIGHTS_MT);
  lua_Integer x = lstrata_checkinteger(L, 2), y = lstrata_checkinteger(L, 3);
  if (x < 0 || y < 0 || x >= hs->width || y >= hs->height)
    return lstrata_error(L, "(%I, %I) is out of the heights (%d x %d)", x, y, hs->width, hs->height);
  lua_pushnumber(L, hs->v[(size_t)y * hs->width + x]);
  return 1;
}

static int heights_index(lua_State *L) {
  const heights *hs = lstrata_checkudata(L, 1, HEIGHTS_MT);
  const char *k = lua_tostring(L, 2);
  if (k && strcmp(k, "width") == 0) lua_pushinteger(L, hs->width);
  else if (k && strcmp(k, "height") == 0) lua_pushinteger(L, hs->height);
  else {
    luaL_getmetatable(L, HEIGHTS_MT);
    lua_getfield(L, -1, "methods");
    lua_pushvalue(L, 2);
    lua_rawget(L, -2);
  }
  return 1;
}

void lstrata_open_noise(lua_State *L) {
  static const luaL_Reg noise_meta[] = { { NULL, NULL } };
  static const luaL_Reg noise_methods[] = { { "at", noise_at }, { NULL, NULL } };
  static const luaL_Reg heights_meta[] = { { "__index", heights_index }, { NULL, NULL } };
  static const luaL_Reg heights_methods[] = { { "at", heights_at }, { NULL, NULL } };
  static const luaL_Reg funcs[] = { { "simplex", noise_simplex }, { "heights", noise_heights }, { NULL, NULL } };
  lstrata_register_type(L, NOISE_MT, "noise", noise_meta, noise_methods);
  lstrata_register_type(L, HEIGHTS_MT, "heights", heights_meta, heights_methods);
  lstrata_add_functions(L, "noise", 1, funcs);
}
