/* lrng.h - generators as seen by the other binding files. */
#ifndef LRNG_H
#define LRNG_H

#include "lstrata.h"

#define RNG_MT "strata.rng"

strata_rng *lstrata_check_rng(lua_State *L, int arg);
/* Pushes a new generator: the stream `key` of seed. */
void lstrata_push_rng_stream(lua_State *L, uint64_t seed, const char *key, size_t len);

/* Pushes a new generator of seed `seed` (as strata.rng.new) in the state *state;
** returns it, to read its state back after Lua code drew from it. */
strata_rng *lstrata_push_rng(lua_State *L, uint64_t seed, const strata_rng *state);

#endif
