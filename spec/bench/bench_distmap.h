/*
** bench_distmap.h - what bench_distmap.c (strata) and
** bench_distmap_libtcod.c (libtcod, built by scripts/bench when pkg-config
** finds it) share, so that both time the same request: the map (gridgen.h's
** open, maze or rooms), the goals (one: the map's start; more: cells drawn
** from a stream named after the map, floor only), 8 neighbours with a
** diagonal step of 1.41 (libtcod keeps hundredths: 141), the probe cells
** whose distances both print, and the timing: the median of the runs, in
** CPU time of the thread (the machine is shared: time spent waiting for a
** core is neither side's).
**
**   bench_distmap[_libtcod] TYPE SIZE GOALS RUNS
**
** prints one JSON line: { "type", "size", "goals", "ms" (median), "probes": [...] }.
*/
#ifndef BENCH_DISTMAP_H
#define BENCH_DISTMAP_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "gridgen.h"

#define BENCH_DIAGONAL 1.41
#define BENCH_PROBES 6

typedef struct bench_request {
  gridgen_map map;
  int *goals; /* x, y pairs */
  int count, runs;
  int probe[BENCH_PROBES][2];
  const char *type;
  int size;
} bench_request;

/* A floor cell drawn from r. */
static void bench_floor_cell(const gridgen_map *m, strata_rng *r, int *xy) {
  do {
    xy[0] = (int)strata_rng_below(r, (uint64_t)m->w), xy[1] = (int)strata_rng_below(r, (uint64_t)m->h);
  } while (m->cells[xy[1] * m->w + xy[0]] != '.');
}

/* Reads the arguments and makes the request; 0 (with a message) on failure. */
static int bench_request_make(bench_request *q, int argc, char **argv, const char *name) {
  if (argc < 5) {
    fprintf(stderr, "usage: %s TYPE SIZE GOALS RUNS\n", name);
    return 0;
  }
  q->type = argv[1], q->size = atoi(argv[2]), q->count = atoi(argv[3]), q->runs = atoi(argv[4]);
  if (q->count < 1 || q->runs < 1 || !gridgen_make(&q->map, q->type, q->size, q->size, 1)) {
    fprintf(stderr, "%s: cannot make the request\n", name);
    return 0;
  }
  strata_rng r;
  strata_rng_stream(&r, 36, q->type, strlen(q->type));
  q->goals = malloc((size_t)q->count * 2 * sizeof *q->goals);
  q->goals[0] = q->map.sx, q->goals[1] = q->map.sy;
  for (int i = 1; i < q->count; i++) bench_floor_cell(&q->map, &r, q->goals + 2 * i);
  q->probe[0][0] = q->map.gx, q->probe[0][1] = q->map.gy;
  for (int i = 1; i < BENCH_PROBES; i++) bench_floor_cell(&q->map, &r, q->probe[i]);
  return 1;
}

static double bench_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int bench_cmp(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The JSON line: the median of ms[0..runs), the probes' distances (-1: unreached). */
static void bench_report(const bench_request *q, double *ms, const double *probe) {
  qsort(ms, (size_t)q->runs, sizeof *ms, bench_cmp);
  printf("{\"type\": \"%s\", \"size\": %d, \"goals\": %d, \"ms\": %.4f, \"probes\": [", q->type, q->size,
         q->count, ms[q->runs / 2]);
  for (int i = 0; i < BENCH_PROBES; i++) printf("%s%.4f", i ? ", " : "", probe[i]);
  printf("]}\n");
}

static void bench_request_free(bench_request *q) {
  free(q->goals);
  gridgen_free(&q->map);
}

#endif
