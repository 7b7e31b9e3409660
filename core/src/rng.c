/* rng.c - PCG32 (XSH-RR 64/32) and the helpers built on it. */
#include "strata/rng.h"

#include <math.h>
#include <string.h>

#define PCG_MULT 6364136223846793005ull

static uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t strata_hash64(uint64_t seed, const char *key, size_t len) {
  uint64_t h = 1469598103934665603ull ^ splitmix64(seed);
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)key[i]) * 1099511628211ull;
  return splitmix64(h ^ len);
}

/* The PCG paper's seeding: state from the seed, sequence from the stream id. */
static void pcg_init(strata_rng *r, uint64_t initstate, uint64_t seq) {
  r->state = 0;
  r->inc = (seq << 1) | 1u;
  strata_rng_u32(r);
  r->state += initstate;
  strata_rng_u32(r);
}

void strata_rng_seed(strata_rng *r, uint64_t seed) {
  pcg_init(r, splitmix64(seed), splitmix64(seed ^ 0xda3e39cb94b95bdbull));
}

void strata_rng_stream(strata_rng *r, uint64_t seed, const char *key, size_t len) {
  uint64_t h = strata_hash64(seed, key, len);
  pcg_init(r, splitmix64(h), splitmix64(h ^ 0x5851f42d4c957f2dull));
}

uint32_t strata_rng_u32(strata_rng *r) {
  uint64_t old = r->state;
  r->state = old * PCG_MULT + r->inc;
  uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
  uint32_t rot = (uint32_t)(old >> 59u);
  return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

uint64_t strata_rng_u64(strata_rng *r) {
  uint64_t hi = strata_rng_u32(r);
  return (hi << 32) | strata_rng_u32(r);
}

/* Lemire's nearly divisionless method, widened to 64 bits: unbiased. */
uint64_t strata_rng_below(strata_rng *r, uint64_t n) {
  if (n == 0) return 0;
  if (n <= 0xffffffffull) {
    uint32_t n32 = (uint32_t)n;
    uint64_t m = (uint64_t)strata_rng_u32(r) * n32;
    uint32_t low = (uint32_t)m;
    if (low < n32) {
      uint32_t threshold = (uint32_t)(-n32) % n32;
      while (low < threshold) {
        m = (uint64_t)strata_rng_u32(r) * n32;
        low = (uint32_t)m;
      }
    }
    return m >> 32;
  }
  /* Rejection sampling for ranges past 32 bits: rare, so simple. */
  uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
  uint64_t x;
  do x = strata_rng_u64(r); while (x >= limit);
  return x % n;
}

int64_t strata_rng_int(strata_rng *r, int64_t lo, int64_t hi) {
  if (lo > hi) { int64_t t = lo; lo = hi; hi = t; }
  uint64_t span = (uint64_t)hi - (uint64_t)lo;
  if (span == UINT64_MAX) return (int64_t)strata_rng_u64(r);
  return (int64_t)((uint64_t)lo + strata_rng_below(r, span + 1));
}

double strata_rng_float(strata_rng *r) {
  return (double)(strata_rng_u64(r) >> 11) * (1.0 / 9007199254740992.0);
}

int strata_rng_chance(strata_rng *r, double p) {
  if (!(p > 0)) return 0;
  if (p >= 1) return 1;
  return strata_rng_float(r) < p;
}

double strata_rng_normal(strata_rng *r, double mean, double sd) {
  double u1 = strata_rng_float(r), u2 = strata_rng_float(r);
  /* 1 - u1 is in (0, 1]: its log is finite */
  return mean + sd * sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
}

static double weighted_sum(const double *weights, size_t n, double scale) {
  double sum = 0;
  for (size_t i = 0; i < n; i++) sum += weights[i] * scale;
  return sum;
}

strata_status strata_rng_weighted(strata_rng *r, const double *weights, size_t n, size_t *out,
                                  strata_error *err) {
  double sum = 0;
  size_t last = 0; /* the last index of a positive weight */
  for (size_t i = 0; i < n; i++) {
    if (!(weights[i] >= 0) || isinf(weights[i]))
      return strata_error_in(err, STRATA_EARG, "strata_rng_weighted",
                             "weight %zu must be a finite number >= 0, got %g", i, weights[i]);
    if (weights[i] > 0) last = i;
    sum += weights[i];
  }
  if (!(sum > 0)) return strata_error_in(err, STRATA_EARG, "strata_rng_weighted", "the weights sum to 0");
  /* finite weights whose sum is not: each scaled by a power of two at most 1/n (exact, as the
  ** draw's proportions), so that their sum is finite */
  int e = 0;
  if (isinf(sum)) frexp((double)n, &e);
  const double scale = ldexp(1, -e);
  double x = strata_rng_float(r) * (isinf(sum) ? weighted_sum(weights, n, scale) : sum);
  /* (rounding may carry x past the running sum's end: the last positive weight takes it) */
  for (size_t i = 0; i < last; i++) {
    if (x < weights[i] * scale) { *out = i; return STRATA_OK; }
    x -= weights[i] * scale;
  }
  *out = last;
  return STRATA_OK;
}

void strata_rng_shuffle(strata_rng *r, void *base, size_t n, size_t size) {
  unsigned char tmp[256];
  unsigned char *a = base;
  if (size == 0 || size > sizeof tmp) return;
  for (size_t i = n; i > 1; i--) {
    size_t j = (size_t)strata_rng_below(r, i);
    if (j == i - 1) continue;
    memcpy(tmp, a + (i - 1) * size, size);
    memcpy(a + (i - 1) * size, a + j * size, size);
    memcpy(a + j * size, tmp, size);
  }
}

static void put_hex64(char *out, uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  for (int i = 15; i >= 0; i--, v >>= 4) out[i] = digits[v & 15];
}

void strata_rng_format(const strata_rng *r, char out[STRATA_RNG_STATE_CHARS]) {
  put_hex64(out, r->state);
  put_hex64(out + 16, r->inc);
  out[32] = '\0';
}

static int get_hex64(const char *s, uint64_t *out) {
  uint64_t v = 0;
  for (int i = 0; i < 16; i++) {
    char c = s[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else return 0;
    v = (v << 4) | (uint64_t)d;
  }
  *out = v;
  return 1;
}

int strata_rng_parse(strata_rng *r, const char *text, size_t len) {
  uint64_t state, inc;
  if (len != 32 || !get_hex64(text, &state) || !get_hex64(text + 16, &inc)) return 0;
  if ((inc & 1u) == 0) return 0; /* not a state this generator can be in */
  r->state = state;
  r->inc = inc;
  return 1;
}
