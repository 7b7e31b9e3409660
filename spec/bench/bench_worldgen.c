/*
** bench_worldgen.c - world templates: a 200x200x10 world with the check on
** (target: <= 100 ms), the time per floor at 1000x1000, and the template
** file's write and read, for each algorithm of the check.
**
**   bench_worldgen [RUNS]
**
** Each figure is the best and the median of RUNS runs (default 15; 5 at
** 1000x1000), seeds 1..RUNS. Prints one JSON line per row.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/alloc.h"
#include "strata/worldgen.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

typedef struct figures { double best, median; int attempts; } figures;

/* Generates runs worlds (seeds 1..runs) of the given size; ms per world. */
static int time_worlds(int w, int h, int z, strata_path_algorithm alg, int runs, figures *out) {
  double *ms = malloc(sizeof *ms * (size_t)runs);
  out->attempts = 0;
  for (int i = 0; i < runs; i++) {
    strata_worldgen_options o;
    strata_worldgen_options_init(&o);
    o.dim_x = w, o.dim_y = h, o.dim_z = z, o.seed = i + 1, o.path_alg = alg;
    strata_worldgen *t;
    strata_error err;
    double t0 = now_ms();
    if (strata_worldgen_generate(&o, &t, &err) != STRATA_OK) {
      fprintf(stderr, "bench_worldgen: %s\n", err.message);
      free(ms);
      return 1;
    }
    ms[i] = now_ms() - t0;
    for (int k = 0; k < z; k++) out->attempts += t->floors[k].attempts;
    strata_worldgen_free(t);
  }
  qsort(ms, (size_t)runs, sizeof *ms, by_value);
  out->best = ms[0], out->median = ms[runs / 2];
  free(ms);
  return 0;
}

int main(int argc, char **argv) {
  int runs = argc > 1 ? atoi(argv[1]) : 15;
  if (runs < 1) runs = 1;
  static const strata_path_algorithm algs[] = {STRATA_PATH_GREEDY, STRATA_PATH_ASTAR,
                                               STRATA_PATH_BFS};
  for (int a = 0; a < 3; a++) {
    const char *name = strata_path_algorithm_name(algs[a]);
    figures f;
    if (time_worlds(200, 200, 10, algs[a], runs, &f)) return 1;
    printf("{\"bench\":\"worldgen\",\"dims\":\"200x200x10\",\"path_alg\":\"%s\",\"runs\":%d,"
           "\"best_ms\":%.2f,\"median_ms\":%.2f,\"attempts_per_floor\":%.3f,\"target_ms\":100}\n",
           name, runs, f.best, f.median, (double)f.attempts / (10.0 * runs));
    int big_runs = runs < 5 ? runs : 5;
    if (time_worlds(1000, 1000, 2, algs[a], big_runs, &f)) return 1;
    printf("{\"bench\":\"worldgen\",\"dims\":\"1000x1000x2\",\"path_alg\":\"%s\",\"runs\":%d,"
           "\"best_ms_per_floor\":%.2f,\"median_ms_per_floor\":%.2f,\"attempts_per_floor\":%.3f}\n",
           name, big_runs, f.best / 2, f.median / 2, (double)f.attempts / (2.0 * big_runs));
    /* The check's share: the same worlds without it. */
    if (a == 0) {
      strata_worldgen_options o;
      double best = 1e300;
      for (int i = 0; i < runs; i++) {
        strata_worldgen_options_init(&o);
        o.dim_x = 200, o.dim_y = 200, o.dim_z = 10, o.seed = i + 1, o.post_check = 0;
        strata_worldgen *t;
        double t0 = now_ms();
        if (strata_worldgen_generate(&o, &t, NULL) != STRATA_OK) return 1;
        double ms = now_ms() - t0;
        if (ms < best) best = ms;
        strata_worldgen_free(t);
      }
      printf("{\"bench\":\"worldgen\",\"dims\":\"200x200x10\",\"path_alg\":\"none (no check)\","
             "\"runs\":%d,\"best_ms\":%.2f}\n", runs, best);
    }
  }
  /* The template file of a 200x200x10 world: format, parse. */
  strata_worldgen_options o;
  strata_worldgen_options_init(&o);
  o.dim_x = 200, o.dim_y = 200, o.dim_z = 10, o.seed = 1;
  strata_worldgen *t, *u;
  if (strata_worldgen_generate(&o, &t, NULL) != STRATA_OK) return 1;
  double fmt = 1e300, parse = 1e300;
  size_t len = 0;
  for (int i = 0; i < runs; i++) {
    char *text;
    double t0 = now_ms();
    strata_worldgen_format(t, &text, &len, NULL);
    double t1 = now_ms();
    if (strata_worldgen_parse(text, len, NULL, &u, NULL) != STRATA_OK) return 1;
    double t2 = now_ms();
    if (t1 - t0 < fmt) fmt = t1 - t0;
    if (t2 - t1 < parse) parse = t2 - t1;
    strata_free(text);
    strata_worldgen_free(u);
  }
  printf("{\"bench\":\"worldgen_file\",\"dims\":\"200x200x10\",\"bytes\":%zu,\"format_ms\":%.2f,"
         "\"parse_ms\":%.2f}\n", len, fmt, parse);
  strata_worldgen_free(t);
  return 0;
}
