/* bench_timers.c - the world's timers at 10,000 to 100,000 (the documented
** cap of one advance): N one-shot timers scheduled at random due times (about
** four per time: ties), then one advance that runs them all through a handler
** that does nothing; and, in another world, N/10 of N timers cancelled (one
** at random in each ten, in scheduling order).
**
** The figure that matters is the cost per timer (schedule + advance) at each
** N against the cost at the first N: flat for a heap, growing with N for a
** sorted array. CPU time of the process, median of ROUNDS.
**
** build/bench_timers [N ...]   (default: 10000 25000 50000 100000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "strata/strata.h"

#define ROUNDS 3

static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const strata_error *err) {
  fprintf(stderr, "bench_timers: %s: %s\n", what, err->message);
  exit(1);
}

static uint64_t state = 88172645463325252u;
static uint64_t next(void) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

static long runs;
static strata_status noop(strata_call *c, void *data, strata_error *err) {
  (void)c; (void)data; (void)err;
  runs++;
  return STRATA_OK;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v) {
  qsort(v, ROUNDS, sizeof *v, cmp_double);
  return v[ROUNDS / 2];
}

/* Schedules n one-shot timers due at random whole times in [1, n/4]. */
static strata_world *scheduled(int n, uint64_t *uids, double *secs) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  if (!w) die("world", &err);
  double a = cpu();
  for (int i = 0; i < n; i++) {
    strata_value args = strata_value_int(i);
    if (strata_world_schedule(w, (double)(1 + next() % (uint64_t)(n / 4)), 0, "bench.tick", &args,
                              uids ? &uids[i] : NULL, &err))
      die("schedule", &err);
  }
  *secs = cpu() - a;
  return w;
}

int main(int argc, char **argv) {
  int sizes[16], nsizes = 0;
  for (int i = 1; i < argc && nsizes < 16; i++) sizes[nsizes++] = atoi(argv[i]);
  if (!nsizes) {
    static const int dflt[] = { 10000, 25000, 50000, 100000 };
    for (nsizes = 0; nsizes < 4; nsizes++) sizes[nsizes] = dflt[nsizes];
  }
  strata_error err;
  strata_registry *reg = strata_registry_new(&err);
  if (!reg || strata_registry_add_logic(reg, STRATA_LOGIC_HANDLER, "bench.tick", noop, NULL, "bench", &err))
    die("registry", &err);
  printf("| timers | schedule ms | advance ms | µs per timer | × the first | cancel N/10 ms |\n");
  printf("|---:|---:|---:|---:|---:|---:|\n");
  double first = 0;
  for (int s = 0; s < nsizes; s++) {
    int n = sizes[s];
    if (n < 4) continue;
    double sched[ROUNDS], adv[ROUNDS], per[ROUNDS], canc[ROUNDS];
    uint64_t *uids = malloc((size_t)n * sizeof *uids);
    if (!uids) return 1;
    for (int r = 0; r < ROUNDS; r++) {
      strata_world *w = scheduled(n, NULL, &sched[r]);
      strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
      if (!rt) die("runtime", &err);
      runs = 0;
      double a = cpu();
      if (strata_advance(rt, (double)n, NULL, &err)) die("advance", &err);
      adv[r] = cpu() - a;
      if (runs != n || strata_world_timer_count(w) != 0) {
        fprintf(stderr, "bench_timers: %ld of %d timers ran\n", runs, n);
        return 1;
      }
      per[r] = (sched[r] + adv[r]) / n * 1e6;
      strata_runtime_free(rt);
      strata_world_free(w);

      double unused;
      w = scheduled(n, uids, &unused);
      a = cpu();
      for (int i = 0; i < n / 10; i++)
        if (strata_world_cancel(w, uids[10 * i + (int)(next() % 10)], &err)) die("cancel", &err);
      canc[r] = cpu() - a;
      strata_world_free(w);
    }
    free(uids);
    double p = median(per);
    if (!first) first = p;
    printf("| %d | %.1f | %.1f | %.2f | %.2f | %.1f |\n", n, median(sched) * 1e3, median(adv) * 1e3, p,
           p / first, median(canc) * 1e3);
    fflush(stdout);
  }
  strata_registry_free(reg);
  return 0;
}
