/*
** bench_machine.c - the machine's limits per cell, the yardsticks of the
** grid searches' cost per settled cell ("Distance from the limit" in
** docs/benchmarks.md).
**
**   bench_machine [CELLS [ROUNDS]]
**
** On an array of CELLS 4-byte values (default 1,000,000: one per cell of a
** 1000x1000 map, as a search's distances): a streaming pass (every value
** read in order and summed) and a shuffled read per cell (every value read
** once, in the order of a random permutation, the indices themselves read
** in order: what a search pays when the cells it touches next are nowhere
** near the last). ns per cell, the median of ROUNDS passes of each
** (default 21), alternated; one JSON line.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "strata/rng.h"

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The sums are kept, so that no pass can be left out. */
static volatile uint64_t sink;

int main(int argc, char **argv) {
  const long cells = argc > 1 ? atol(argv[1]) : 1000000;
  const int rounds = argc > 2 ? atoi(argv[2]) : 21;
  if (cells < 1 || rounds < 1) {
    fprintf(stderr, "usage: bench_machine [CELLS [ROUNDS]]\n");
    return 2;
  }
  uint32_t *value = malloc((size_t)cells * sizeof *value), *order = malloc((size_t)cells * sizeof *order);
  double *stream = malloc((size_t)rounds * sizeof *stream), *shuffled = malloc((size_t)rounds * sizeof *shuffled);
  if (value == NULL || order == NULL || stream == NULL || shuffled == NULL) {
    fprintf(stderr, "bench_machine: out of memory\n");
    return 2;
  }
  strata_rng r;
  strata_rng_seed(&r, 1);
  for (long i = 0; i < cells; i++) value[i] = (uint32_t)i, order[i] = (uint32_t)i;
  for (long i = cells - 1; i > 0; i--) { /* Fisher-Yates */
    const long j = (long)strata_rng_below(&r, (uint64_t)i + 1);
    const uint32_t t = order[i];
    order[i] = order[j], order[j] = t;
  }
  for (int k = 0; k < rounds; k++) {
    uint64_t sum = 0;
    double t0 = now_ns();
    for (long i = 0; i < cells; i++) sum += value[i];
    stream[k] = (now_ns() - t0) / (double)cells;
    sink += sum;
    sum = 0;
    t0 = now_ns();
    for (long i = 0; i < cells; i++) sum += value[order[i]];
    shuffled[k] = (now_ns() - t0) / (double)cells;
    sink += sum;
  }
  qsort(stream, (size_t)rounds, sizeof *stream, cmp_double);
  qsort(shuffled, (size_t)rounds, sizeof *shuffled, cmp_double);
  printf("{\"bench\":\"machine\",\"cells\":%ld,\"rounds\":%d,\"stream_ns\":%.4f,\"stream_min_ns\":%.4f,"
         "\"shuffled_ns\":%.4f,\"shuffled_min_ns\":%.4f}\n",
         cells, rounds, stream[rounds / 2], stream[0], shuffled[rounds / 2], shuffled[0]);
  free(value), free(order), free(stream), free(shuffled);
  return 0;
}
