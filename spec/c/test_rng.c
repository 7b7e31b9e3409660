/* test_rng.c - PCG32: determinism, ranges, streams, saved state. */
#include "check.h"
#include "strata/rng.h"

int main(void) {
  strata_rng a, b;
  strata_rng_seed(&a, 42);
  strata_rng_seed(&b, 42);
  for (int i = 0; i < 100; i++) CHECK_EQ_INT(strata_rng_u32(&a), strata_rng_u32(&b));
  strata_rng_seed(&b, 43);
  int same = 0;
  for (int i = 0; i < 100; i++) same += strata_rng_u32(&a) == strata_rng_u32(&b);
  CHECK(same < 3);

  /* int(lo, hi) stays in range and hits both ends. */
  int seen_lo = 0, seen_hi = 0, out = 0;
  for (int i = 0; i < 10000; i++) {
    int64_t v = strata_rng_int(&a, -3, 3);
    out += v < -3 || v > 3;
    seen_lo |= v == -3;
    seen_hi |= v == 3;
  }
  CHECK(!out && seen_lo && seen_hi);
  CHECK_EQ_INT(strata_rng_int(&a, 5, 5), 5);
  int64_t swapped = strata_rng_int(&a, 9, 7);
  CHECK(swapped >= 7 && swapped <= 9);
  CHECK_EQ_INT(strata_rng_below(&a, 0), 0);

  /* Uniformity, roughly: 6 buckets of 60000 draws within 3 %. */
  int counts[6] = {0};
  for (int i = 0; i < 60000; i++) counts[strata_rng_below(&a, 6)]++;
  for (int i = 0; i < 6; i++) CHECK(counts[i] > 9700 && counts[i] < 10300);

  double lo = 1, hi = 0;
  for (int i = 0; i < 10000; i++) {
    double f = strata_rng_float(&a);
    if (f < lo) lo = f;
    if (f > hi) hi = f;
  }
  CHECK(lo >= 0 && lo < 0.01 && hi < 1 && hi > 0.99);
  CHECK(!strata_rng_chance(&a, 0) && strata_rng_chance(&a, 1));
  int hits = 0;
  for (int i = 0; i < 10000; i++) hits += strata_rng_chance(&a, 0.25);
  CHECK(hits > 2300 && hits < 2700);

  /* Shuffle is a permutation. */
  int deck[52], sum = 0;
  for (int i = 0; i < 52; i++) deck[i] = i;
  strata_rng_shuffle(&a, deck, 52, sizeof deck[0]);
  int moved = 0;
  for (int i = 0; i < 52; i++) sum += deck[i], moved += deck[i] != i;
  CHECK_EQ_INT(sum, 51 * 52 / 2);
  CHECK(moved > 40);

  /* Saved state restores the sequence exactly. */
  char text[STRATA_RNG_STATE_CHARS];
  strata_rng_format(&a, text);
  uint32_t next = strata_rng_u32(&a);
  strata_rng c;
  CHECK(strata_rng_parse(&c, text, 32));
  CHECK_EQ_INT(strata_rng_u32(&c), next);
  CHECK(!strata_rng_parse(&c, "xyz", 3));
  CHECK(!strata_rng_parse(&c, "0000000000000000000000000000000g", 32));
  CHECK(!strata_rng_parse(&c, "00000000000000000000000000000002", 32)); /* even inc */

  /* Streams depend on (seed, key) only. */
  strata_rng s1, s2, s3;
  strata_rng_stream(&s1, 7, "area 1 floor 2", 14);
  strata_rng_stream(&s2, 7, "area 1 floor 2", 14);
  strata_rng_stream(&s3, 7, "area 1 floor 3", 14);
  CHECK_EQ_INT(strata_rng_u32(&s1), strata_rng_u32(&s2));
  CHECK(strata_rng_u64(&s1) != strata_rng_u64(&s3));
  return check_summary("rng");
}
