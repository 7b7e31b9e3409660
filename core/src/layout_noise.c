/*
** layout_noise.c - NoiseMap's heights (diamond-square, KeeperRL's draw order)
** and their sorting, from which the bands' quantiles are read.
**
** The heights are sorted with a radix sort on their bit patterns: a map of
** 100x65 cells has 6,500 random heights, and a comparison sort of them
** mispredicts about half of its 85,000 branches (it was a third of
** world_map's time). The radix sort has no data-dependent branch; digits
** that every key shares (the exponents of heights in a narrow range) are
** skipped.
*/
#include <stdlib.h>
#include <string.h>

#include "layout_internal.h"
#include "strata/alloc.h"

int lg_noise_heights(strata_rng *rng, double variance, int W, int H, double *heights) {
  int n = 1;
  while (n < W - 1 || n < H - 1) n *= 2;
  int G = n / 2 + 1;
  double *grid = strata_calloc((size_t)G * G, sizeof *grid);
  if (grid == NULL) return -1;
#define AT(i, j) grid[(size_t)(i) * G + (j)]
  AT(0, 0) = AT(G - 1, 0) = AT(0, G - 1) = AT(G - 1, G - 1) = AT((G - 1) / 2, (G - 1) / 2) = 1.0;
  double v = 0.5;
  for (int s = G - 1, first = 1; s >= 2; s /= 2, first = 0) {
    int h = s / 2, cells = (G - 1) / s;
    if (!first)
      for (int i = 0; i < cells; i++)
        for (int j = 0; j < cells; j++)
          AT(i * s + h, j * s + h) = (AT(i * s, j * s) + AT(i * s + s, j * s) + AT(i * s, j * s + s) +
                                      AT(i * s + s, j * s + s)) / 4 + v * (2 * strata_rng_float(rng) - 1);
    for (int i = 0; i < cells; i++)
      for (int j = 0; j <= cells; j++) {
        int x = i * s + h, y = j * s;
        double sum = 0;
        int k = 0;
        int px[4] = {x, x - h, x + h, x}, py[4] = {y - h, y, y, y + h};
        for (int q = 0; q < 4; q++)
          if (px[q] >= 0 && py[q] >= 0 && px[q] < G && py[q] < G) sum += AT(px[q], py[q]), k++;
        AT(x, y) = sum / k + v * (2 * strata_rng_float(rng) - 1);
      }
    for (int i = 0; i <= cells; i++)
      for (int j = 0; j < cells; j++) {
        int x = i * s, y = j * s + h;
        double sum = 0;
        int k = 0;
        int px[4] = {x - h, x, x, x + h}, py[4] = {y, y - h, y + h, y};
        for (int q = 0; q < 4; q++)
          if (px[q] >= 0 && py[q] >= 0 && px[q] < G && py[q] < G) sum += AT(px[q], py[q]), k++;
        AT(x, y) = sum / k + v * (2 * strata_rng_float(rng) - 1);
      }
    v *= variance;
  }
  for (int x = 0; x < W; x++)
    for (int y = 0; y < H; y++) heights[x * H + y] = AT(x * G / W, y * G / H);
#undef AT
  strata_free(grid);
  return 0;
}

/* A double's bits as an unsigned key in the same order (no NaN here). */
static uint64_t key_of(double d) {
  uint64_t b;
  memcpy(&b, &d, sizeof b);
  return b & 0x8000000000000000ull ? ~b : b | 0x8000000000000000ull;
}

static double double_of(uint64_t k) {
  uint64_t b = k & 0x8000000000000000ull ? k & ~0x8000000000000000ull : ~k;
  double d;
  memcpy(&d, &b, sizeof d);
  return d;
}

enum { DIGIT = 11, DIGITS = 6, BUCKETS = 1 << DIGIT };

int lg_sort_heights(const double *in, size_t n, double *out) {
  uint64_t *a = strata_malloc(n * sizeof *a), *b = strata_malloc(n * sizeof *b);
  uint32_t (*count)[BUCKETS] = strata_calloc(DIGITS, sizeof *count);
  if (a == NULL || b == NULL || count == NULL) {
    strata_free(a), strata_free(b), strata_free(count);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t k = key_of(in[i]);
    a[i] = k;
    for (int d = 0; d < DIGITS; d++) count[d][(k >> (d * DIGIT)) & (BUCKETS - 1)]++;
  }
  for (int d = 0; d < DIGITS; d++) {
    uint32_t *c = count[d];
    int shift = d * DIGIT;
    if (n == 0 || c[(a[0] >> shift) & (BUCKETS - 1)] == n) continue; /* one digit for all */
    uint32_t sum = 0;
    for (int i = 0; i < BUCKETS; i++) {
      uint32_t t = c[i];
      c[i] = sum, sum += t;
    }
    for (size_t i = 0; i < n; i++) b[c[(a[i] >> shift) & (BUCKETS - 1)]++] = a[i];
    uint64_t *t = a;
    a = b, b = t;
  }
  for (size_t i = 0; i < n; i++) out[i] = double_of(a[i]);
  strata_free(a), strata_free(b), strata_free(count);
  return 0;
}
