/*
** noise.c - simplex noise in two dimensions, and NoiseMap's heights for a
** game (noise.h).
**
** Simplex noise: the plane is cut into equilateral triangles (a square
** lattice skewed along the diagonal); a point gets the sum, over its
** triangle's three corners, of a radial falloff (0.5 - d^2)^4 times the dot
** product of the corner's gradient with the offset from the corner. The
** gradients are twelve unit vectors, one each 30 degrees, picked per corner
** through the permutation. Each corner's falloff reaches zero before the
** next triangle's corners, so the sum is continuous with its derivative.
*/
#include "strata/noise.h"

#include <math.h>

#include "layout_internal.h" /* lg_noise_heights */
#include "strata/alloc.h"

void strata_noise_from_rng(strata_noise *n, strata_rng *r) {
  for (int i = 0; i < 256; i++) n->perm[i] = (unsigned char)i;
  strata_rng_shuffle(r, n->perm, 256, 1);
  for (int i = 0; i < 256; i++) n->perm[256 + i] = n->perm[i];
}

void strata_noise_seed(strata_noise *n, uint64_t seed) {
  strata_rng r;
  strata_rng_seed(&r, seed);
  strata_noise_from_rng(n, &r);
}

/* cos and sin of k * 30 degrees */
static const double grad[12][2] = {
  { 1, 0 }, { 0.8660254037844387, 0.5 }, { 0.5, 0.8660254037844387 }, { 0, 1 },
  { -0.5, 0.8660254037844387 }, { -0.8660254037844387, 0.5 }, { -1, 0 }, { -0.8660254037844387, -0.5 },
  { -0.5, -0.8660254037844387 }, { 0, -1 }, { 0.5, -0.8660254037844387 }, { 0.8660254037844387, -0.5 } };

static double corner(const strata_noise *n, int i, int j, double dx, double dy) {
  double t = 0.5 - dx * dx - dy * dy;
  if (t <= 0) return 0;
  const double *g = grad[n->perm[i + n->perm[j]] % 12];
  t *= t;
  return t * t * (g[0] * dx + g[1] * dy);
}

/* The lattice index of a skewed coordinate, mod 256 (in range for any finite c). */
static int wrap256(double c) {
  double m = fmod(c, 256.0);
  return ((int)m + 256) & 255;
}

/* The scale that takes the sum's bound to 1: the largest sum there can be
** (each corner's gradient pointing at the point), found by a dense scan of
** a triangle, is 0.010080; clamped against rounding all the same. */
#define SIMPLEX_SCALE 99.2

double strata_noise_simplex(const strata_noise *n, double x, double y) {
  if (!isfinite(x) || !isfinite(y)) return 0;
  const double F2 = 0.36602540378443865, G2 = 0.21132486540518713; /* (sqrt 3 - 1) / 2, (3 - sqrt 3) / 6 */
  double s = (x + y) * F2;
  double fi = floor(x + s), fj = floor(y + s);
  if (!isfinite(fi) || !isfinite(fj)) return 0; /* near the largest numbers, skewed past them */
  double t = (fi + fj) * G2;
  double x0 = x - (fi - t), y0 = y - (fj - t); /* from the cell's first corner */
  int i1 = x0 > y0, j1 = !i1;                  /* the lower or the upper triangle */
  double x1 = x0 - i1 + G2, y1 = y0 - j1 + G2;
  double x2 = x0 - 1 + 2 * G2, y2 = y0 - 1 + 2 * G2;
  int i = wrap256(fi), j = wrap256(fj);
  double sum = corner(n, i, j, x0, y0) + corner(n, i + i1, j + j1, x1, y1) + corner(n, i + 1, j + 1, x2, y2);
  double v = SIMPLEX_SCALE * sum;
  return v > 1 ? 1 : v < -1 ? -1 : v;
}

strata_status strata_noise_heights(strata_rng *r, double variance, int width, int height, double *out,
                                   strata_error *err) {
  if (width < 1 || height < 1 || width > STRATA_NOISE_HEIGHTS_MAX || height > STRATA_NOISE_HEIGHTS_MAX)
    return strata_error_in(err, STRATA_EARG, "strata_noise_heights", "width and height must be 1 to %d, got %d x %d",
                           STRATA_NOISE_HEIGHTS_MAX, width, height);
  if (!(variance >= 0) || isinf(variance))
    return strata_error_in(err, STRATA_EARG, "strata_noise_heights", "variance must be a finite number >= 0, got %g",
                           variance);
  size_t N = (size_t)width * (size_t)height;
  double *h = strata_malloc(N * sizeof *h);
  if (!h || lg_noise_heights(r, variance, width, height, h)) {
    strata_free(h);
    return strata_error_nomem(err, "drawing noise heights");
  }
  double lo = h[0], hi = h[0];
  for (size_t i = 1; i < N; i++) {
    if (h[i] < lo) lo = h[i];
    if (h[i] > hi) hi = h[i];
  }
  double span = hi - lo;
  /* NoiseMap's heights are by column (x * height + y): here by row (a
  ** division, not a product by 1 / span, so that the highest is exactly 1) */
  for (int x = 0; x < width; x++)
    for (int y = 0; y < height; y++) {
      double v = span > 0 ? (h[(size_t)x * height + y] - lo) / span : 0;
      out[(size_t)y * width + x] = v > 1 ? 1 : v;
    }
  strata_free(h);
  return STRATA_OK;
}
