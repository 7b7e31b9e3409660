/*
** noise.h - coherent noise: 2D simplex noise, and the diamond-square heights
** the layout language's NoiseMap draws (docs/layouts.md), as a game's own.
**
** A strata_noise is a plain value (a permutation of 256 bytes, doubled):
** copy it to keep it. It is made from a seed, or from a generator whose
** draws it takes (the generator moves on), so a world stream seeds the same
** noise on every run.
*/
#ifndef STRATA_NOISE_H
#define STRATA_NOISE_H

#include "strata/api.h"
#include "strata/error.h"
#include "strata/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_noise {
  unsigned char perm[512];
} strata_noise;

/* Seeds n: equal seeds give equal noise. */
STRATA_API void strata_noise_seed(strata_noise *n, uint64_t seed);
/* Seeds n from r's next draws (one shuffle of 256: 255 draws). */
STRATA_API void strata_noise_from_rng(strata_noise *n, strata_rng *r);
/* Simplex noise at (x, y): continuous, in [-1, 1], 0 at every integer point
** of the skewed lattice; features about one unit apart (scale x and y for
** larger ones). Periodic with period 256 along the lattice's axes.
** A coordinate that is not finite gives 0. */
STRATA_API double strata_noise_simplex(const strata_noise *n, double x, double y);

/* The largest width or height of strata_noise_heights. */
#define STRATA_NOISE_HEIGHTS_MAX 4096
/* The heights NoiseMap draws from r (the same draws, the same field) for a
** width x height region, variance the factor each halving of the
** diamond-square step scales its displacement by (NoiseMap's; finite, >= 0),
** scaled to [0, 1] (the lowest 0, the highest 1; a flat field all 0), row by
** row into out[y * width + x] (width * height doubles). NoiseMap's bands are
** quantiles of these: the scaling changes none. STRATA_EARG for a size out
** of [1, STRATA_NOISE_HEIGHTS_MAX] or a bad variance (nothing drawn),
** ENOMEM. */
STRATA_API strata_status strata_noise_heights(strata_rng *r, double variance, int width, int height, double *out,
                                              strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
