/* rng.c - strata.rng: seeded PCG32 generators and their streams, from Lua. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lrng.h"

typedef struct lstrata_rng {
  strata_rng rng;
  uint64_t seed; /* streams derive from (seed, key), not from the position */
} lstrata_rng;

strata_rng *lstrata_check_rng(lua_State *L, int arg) {
  return &((lstrata_rng *)lstrata_checkudata(L, arg, RNG_MT))->rng;
}

static lstrata_rng *push_rng(lua_State *L, uint64_t seed) {
  lstrata_rng *ud = lua_newuserdatauv(L, sizeof *ud, 0);
  ud->seed = seed;
  luaL_setmetatable(L, RNG_MT);
  return ud;
}

void lstrata_push_rng_stream(lua_State *L, uint64_t seed, const char *key, size_t len) {
  lstrata_rng *ud = push_rng(L, strata_hash64(seed, key, len));
  strata_rng_stream(&ud->rng, seed, key, len);
}

strata_rng *lstrata_push_rng(lua_State *L, uint64_t seed, const strata_rng *state) {
  lstrata_rng *ud = push_rng(L, seed);
  ud->rng = *state;
  return &ud->rng;
}

/* A seed is an integer, or a string hashed to one. */
uint64_t lstrata_check_seed(lua_State *L, int arg) {
  if (lua_type(L, arg) == LUA_TSTRING) {
    size_t len;
    const char *s = lua_tolstring(L, arg, &len);
    return strata_hash64(0, s, len);
  }
  int isint = 0;
  lua_Integer v = lua_tointegerx(L, arg, &isint);
  if (!isint) lstrata_argerror(L, arg, lua_pushfstring(L, "seed must be an integer or a string, got %s",
                                                       luaL_typename(L, arg)));
  return (uint64_t)v;
}

/* strata.rng.new(seed) */
static int rng_new(lua_State *L) {
  uint64_t seed = lstrata_check_seed(L, 1);
  lstrata_rng *ud = push_rng(L, seed);
  strata_rng_seed(&ud->rng, seed);
  return 1;
}

/* The draws below take their arguments from index 2 on (1 is the generator
** or the world stream they were called on) and draw from r: a strata.rng's
** own generator, or a world stream's state lent for the one draw (stream.c). */

/* r:int(m) -> [1, m];  r:int(m, n) -> [m, n] (like math.random) */
int lstrata_rng_int(lua_State *L, strata_rng *r) {
  lua_Integer lo = 1, hi;
  if (lua_isnoneornil(L, 3)) {
    hi = lstrata_checkinteger(L, 2);
    lstrata_argcheck(L, hi >= 1, 2, "interval is empty");
  } else {
    lo = lstrata_checkinteger(L, 2);
    hi = lstrata_checkinteger(L, 3);
    lstrata_argcheck(L, lo <= hi, 3, "interval is empty");
  }
  lua_pushinteger(L, (lua_Integer)strata_rng_int(r, lo, hi));
  return 1;
}

/* r:float() -> [0, 1);  r:float(a, b) -> [a, b) */
int lstrata_rng_float(lua_State *L, strata_rng *r) {
  double f = strata_rng_float(r);
  if (!lua_isnoneornil(L, 2)) {
    double a = lstrata_checknumber(L, 2), b = lstrata_checknumber(L, 3);
    lstrata_argcheck(L, a <= b, 3, "interval is empty");
    f = a + (b - a) * f;
  }
  lua_pushnumber(L, f);
  return 1;
}

int lstrata_rng_chance(lua_State *L, strata_rng *r) {
  lua_Number p = lstrata_checknumber(L, 2);
  lstrata_argcheck(L, p == p, 2, "probability is NaN");
  lua_pushboolean(L, strata_rng_chance(r, p));
  return 1;
}

/* r:shuffle(t) -> t, its array part shuffled in place */
int lstrata_rng_shuffle(lua_State *L, strata_rng *r) {
  lstrata_checktype(L, 2, LUA_TTABLE);
  /* Raw length and raw access: a table's __len or __index/__newindex (a mod's
  ** code) cannot make this loop run forever or run code inside it. */
  lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
  for (lua_Integer i = n; i > 1; i--) {
    lua_Integer j = 1 + (lua_Integer)strata_rng_below(r, (uint64_t)i);
    lua_rawgeti(L, 2, i);
    lua_rawgeti(L, 2, j);
    lua_rawseti(L, 2, i);
    lua_rawseti(L, 2, j);
  }
  lua_settop(L, 2);
  return 1;
}

/* r:pick(t) -> a random element of the array t (error when empty) */
int lstrata_rng_pick(lua_State *L, strata_rng *r) {
  lstrata_checktype(L, 2, LUA_TTABLE);
  lua_Integer n = (lua_Integer)lua_rawlen(L, 2);
  lstrata_argcheck(L, n > 0, 2, "cannot pick from an empty list");
  lua_rawgeti(L, 2, 1 + (lua_Integer)strata_rng_below(r, (uint64_t)n));
  return 1;
}

/* r:normal(mean = 0, sd = 1) -> a normal draw (strata_rng_normal) */
int lstrata_rng_normal(lua_State *L, strata_rng *r) {
  double mean = lua_isnoneornil(L, 2) ? 0 : lstrata_checknumber(L, 2);
  double sd = lua_isnoneornil(L, 3) ? 1 : lstrata_checknumber(L, 3);
  lstrata_argcheck(L, isfinite(mean), 2, "mean must be a finite number");
  lstrata_argcheck(L, isfinite(sd) && sd >= 0, 3, "sd must be a finite number >= 0");
  lua_pushnumber(L, strata_rng_normal(r, mean, sd));
  return 1;
}

/* A key of r:weighted's table: a number or a string, in the order keys are
** drawn in (numbers first, by value; then strings, by their bytes), so that
** the draw never depends on the order Lua's table happens to hold them in. */
typedef struct wkey {
  int type;          /* 0 integer, 1 float, 2 string */
  lua_Integer i;
  double f;
  const char *s;     /* (held by the table, which the call does not change) */
  size_t len;
  double weight;
} wkey;

static int wkey_cmp(const void *pa, const void *pb) {
  const wkey *a = pa, *b = pb;
  if ((a->type == 2) != (b->type == 2)) return a->type == 2 ? 1 : -1;
  if (a->type == 2) {
    int c = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
    return c ? c : (a->len > b->len) - (a->len < b->len);
  }
  if (a->type == 0 && b->type == 0) return (a->i > b->i) - (a->i < b->i);
  double x = a->type ? a->f : (double)a->i, y = b->type ? b->f : (double)b->i;
  return (x > y) - (x < y);
}

/* The key at the top, read into *k (raw: no metamethod runs), or raises. */
static void read_wkey(lua_State *L, wkey *k) {
  if (lua_type(L, -2) == LUA_TSTRING) {
    k->type = 2;
    k->s = lua_tolstring(L, -2, &k->len);
  } else if (lua_type(L, -2) == LUA_TNUMBER) {
    k->type = lua_isinteger(L, -2) ? 0 : 1;
    k->i = lua_tointeger(L, -2);
    k->f = lua_tonumber(L, -2);
  } else {
    lstrata_argerror(L, 2, lua_pushfstring(L, "keys must be strings or numbers, got %s", luaL_typename(L, -2)));
  }
  int isnum = lua_type(L, -1) == LUA_TNUMBER;
  k->weight = isnum ? lua_tonumber(L, -1) : -1;
  if (!isnum || !(k->weight >= 0) || isinf(k->weight)) {
    lua_pushvalue(L, -2);
    const char *name = luaL_tolstring(L, -1, NULL);
    lstrata_argerror(L, 2, lua_pushfstring(L, "weight of '%s' must be a finite number >= 0, got %s", name,
                                           isnum ? lua_tolstring(L, -3, NULL) : luaL_typename(L, -3)));
  }
}

/* r:weighted{ key = weight, ... } -> a key, drawn with probability its
** weight / the sum (strata_rng_weighted over the keys in wkey order) */
int lstrata_rng_weighted(lua_State *L, strata_rng *r) {
  lstrata_checktype(L, 2, LUA_TTABLE);
  size_t n = 0;
  for (lua_pushnil(L); lua_next(L, 2); lua_pop(L, 1)) n++;
  wkey *keys = lua_newuserdatauv(L, (n ? n : 1) * sizeof *keys, 0); /* freed by the collector */
  double *weights = lua_newuserdatauv(L, (n ? n : 1) * sizeof *weights, 0);
  size_t i = 0;
  for (lua_pushnil(L); i < n && lua_next(L, 2); lua_pop(L, 1)) read_wkey(L, &keys[i++]);
  qsort(keys, n, sizeof *keys, wkey_cmp);
  for (i = 0; i < n; i++) weights[i] = keys[i].weight;
  size_t k = 0;
  strata_error err;
  if (strata_rng_weighted(r, weights, n, &k, &err)) return lstrata_raise(L, NULL, &err);
  if (keys[k].type == 2) lua_pushlstring(L, keys[k].s, keys[k].len);
  else if (keys[k].type == 0) lua_pushinteger(L, keys[k].i);
  else lua_pushnumber(L, keys[k].f);
  return 1;
}

#define RNG_DRAW(name) \
  static int rng_##name(lua_State *L) { return lstrata_rng_##name(L, lstrata_check_rng(L, 1)); }
RNG_DRAW(int)
RNG_DRAW(float)
RNG_DRAW(chance)
RNG_DRAW(shuffle)
RNG_DRAW(pick)
RNG_DRAW(normal)
RNG_DRAW(weighted)

/* r:state() -> string (32 hex digits) */
static int rng_state(lua_State *L) {
  char text[STRATA_RNG_STATE_CHARS];
  strata_rng_format(lstrata_check_rng(L, 1), text);
  lua_pushstring(L, text);
  return 1;
}

void lstrata_check_rng_state(lua_State *L, int arg, strata_rng *r) {
  size_t len;
  const char *text = lstrata_checklstring(L, arg, &len);
  if (!strata_rng_parse(r, text, len))
    lstrata_argerror(L, arg, "not a generator state (32 hex digits from rng:state())");
}

static int rng_set_state(lua_State *L) {
  lstrata_check_rng_state(L, 2, lstrata_check_rng(L, 1));
  lua_settop(L, 1);
  return 1;
}

int lstrata_rng_substream(lua_State *L, uint64_t seed) {
  size_t len;
  const char *key;
  if (lua_type(L, 2) == LUA_TNUMBER) key = lua_tolstring(L, 2, &len); /* 7 and "7" agree */
  else key = lstrata_checklstring(L, 2, &len);
  lstrata_push_rng_stream(L, seed, key, len);
  return 1;
}

/* r:stream(key) -> a new generator, the same for the same (seed, key) */
static int rng_stream(lua_State *L) {
  return lstrata_rng_substream(L, ((lstrata_rng *)lstrata_checkudata(L, 1, RNG_MT))->seed);
}

static int rng_tostring(lua_State *L) {
  char text[STRATA_RNG_STATE_CHARS];
  strata_rng_format(lstrata_check_rng(L, 1), text);
  lua_pushfstring(L, "strata.rng %s", text);
  return 1;
}

void lstrata_open_rng(lua_State *L) {
  static const luaL_Reg methods[] = {
    {"int", rng_int}, {"float", rng_float}, {"chance", rng_chance}, {"shuffle", rng_shuffle},
    {"pick", rng_pick}, {"normal", rng_normal}, {"weighted", rng_weighted}, {"state", rng_state},
    {"set_state", rng_set_state}, {"stream", rng_stream}, {NULL, NULL}};
  static const luaL_Reg meta[] = {{"__tostring", rng_tostring}, {NULL, NULL}};
  static const luaL_Reg funcs[] = {{"new", rng_new}, {NULL, NULL}};
  lstrata_register_type(L, RNG_MT, "rng", meta, methods);
  lstrata_add_functions(L, "rng", 1, funcs);
}
