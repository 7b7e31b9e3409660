/*
** rng.h - the one random generator: PCG32 (O'Neill, "PCG: A Family of Simple
** Fast Space-Efficient Statistically Good Algorithms for Random Number
** Generation", 2014; the XSH-RR 64/32 variant).
**
** A strata_rng is a plain value (two 64-bit words): copy it to save it,
** assign it back to restore it. Streams derived from (seed, key) are
** independent of the order in which they are made, so a generator for
** "area 7, floor 3" gives the same numbers whatever was generated before.
*/
#ifndef STRATA_RNG_H
#define STRATA_RNG_H

#include "strata/api.h"
#include "strata/error.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_rng {
  uint64_t state;
  uint64_t inc; /* always odd: selects the PCG sequence */
} strata_rng;

/* Seeds a generator; equal seeds give equal sequences. */
STRATA_API void strata_rng_seed(strata_rng *r, uint64_t seed);
/* Seeds r as the stream named key (len bytes) of seed. */
STRATA_API void strata_rng_stream(strata_rng *r, uint64_t seed, const char *key, size_t len);

STRATA_API uint32_t strata_rng_u32(strata_rng *r);
STRATA_API uint64_t strata_rng_u64(strata_rng *r);
/* Uniform integer in [lo, hi], unbiased; lo > hi is treated as [hi, lo]. */
STRATA_API int64_t strata_rng_int(strata_rng *r, int64_t lo, int64_t hi);
/* Uniform integer in [0, n); 0 when n == 0. */
STRATA_API uint64_t strata_rng_below(strata_rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
STRATA_API double strata_rng_float(strata_rng *r);
/* 1 with probability p (p <= 0 never, p >= 1 always). */
STRATA_API int strata_rng_chance(strata_rng *r, double p);
/* A normal (Gaussian) draw of mean and standard deviation sd: Box-Muller,
** always two uniform draws (no value kept for the next call: a strata_rng
** stays a plain value). sd 0 gives mean; the caller keeps both finite and
** sd >= 0. */
STRATA_API double strata_rng_normal(strata_rng *r, double mean, double sd);
/* An index i in [0, n) drawn with probability weights[i] / sum, one
** uniform draw. Weights must be finite and >= 0 with a positive sum (one
** past the largest double is drawn as the same proportions): otherwise
** STRATA_EARG naming the first bad weight (nothing drawn). */
STRATA_API strata_status strata_rng_weighted(strata_rng *r, const double *weights, size_t n, size_t *out,
                                             strata_error *err);
/* Fisher-Yates shuffle of n elements of size bytes each (size <= 256). */
STRATA_API void strata_rng_shuffle(strata_rng *r, void *base, size_t n, size_t size);

/* Saved form: 32 lowercase hex digits ("state" then "inc"), plus NUL. */
#define STRATA_RNG_STATE_CHARS 33
STRATA_API void strata_rng_format(const strata_rng *r, char out[STRATA_RNG_STATE_CHARS]);
/* Parses the saved form; returns 0 (r untouched) when text is not valid. */
STRATA_API int strata_rng_parse(strata_rng *r, const char *text, size_t len);

/* Mixes a key into a 64-bit hash (FNV-1a then splitmix64 finalisation). */
STRATA_API uint64_t strata_hash64(uint64_t seed, const char *key, size_t len);

#ifdef __cplusplus
}
#endif
#endif
