/* lrng.h - generators as seen by the other binding files. */
#ifndef LRNG_H
#define LRNG_H

#include "lstrata.h"

#define RNG_MT "strata.rng"

strata_rng *lstrata_check_rng(lua_State *L, int arg);
/* The seed at arg: an integer, or a string hashed to one (strata.rng.new's); raises otherwise. */
uint64_t lstrata_check_seed(lua_State *L, int arg);
/* Pushes a new generator: the stream `key` of seed. */
void lstrata_push_rng_stream(lua_State *L, uint64_t seed, const char *key, size_t len);

/* Pushes a new generator of seed `seed` (as strata.rng.new) in the state *state;
** returns it, to read its state back after Lua code drew from it. */
strata_rng *lstrata_push_rng(lua_State *L, uint64_t seed, const strata_rng *state);

/* The draws of r:int, r:float, r:chance, r:shuffle, r:pick, r:normal and r:weighted on r, their
** arguments from index 2 on; each returns its count of results. */
int lstrata_rng_int(lua_State *L, strata_rng *r);
int lstrata_rng_float(lua_State *L, strata_rng *r);
int lstrata_rng_chance(lua_State *L, strata_rng *r);
int lstrata_rng_shuffle(lua_State *L, strata_rng *r);
int lstrata_rng_pick(lua_State *L, strata_rng *r);
int lstrata_rng_normal(lua_State *L, strata_rng *r);
int lstrata_rng_weighted(lua_State *L, strata_rng *r);
/* Pushes the stream of seed named by the key at index 2 (r:stream(key)). */
int lstrata_rng_substream(lua_State *L, uint64_t seed);
/* Reads the state text at arg (from rng:state()) into *r, or raises. */
void lstrata_check_rng_state(lua_State *L, int arg, strata_rng *r);

/* Pushes the stream value (world.rng:stream) named key of the world state
** userdata at world_idx (stream.c). */
void lstrata_push_stream(lua_State *L, int world_idx, const char *key);

#endif
