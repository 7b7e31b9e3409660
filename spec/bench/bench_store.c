/* bench_store.c - PostgreSQL beside SQLite on the same machine (issue 39):
** the world of bench_world.h (N objects, default 1,000,000; 1,000 maps of
** 80x80) saved whole to both stores, then in PAIRS alternated pairs (SQLite
** first, then PostgreSQL) each store's world opened (wall time: the server
** works in its own processes) and saved incrementally ROUNDS times after
** bench_world_change (100 objects and 10 cells), the median save of the
** round taken. Per row: each pair's ratio PostgreSQL / SQLite, their median
** and range, and the load average before and after (/proc/loadavg).
**
** build/bench_store URI [N [PAIRS]]   (URI: a postgresql:// world; the
** SQLite file goes to $TMPDIR or /tmp; scripts/bench --store runs it) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_world.h"
#include "strata/world.h"

#define ROUNDS 15
#define MAX_PAIRS 64
#define NMAPS 1000

typedef struct store_run {
  double open_ms, open_cpu_ms, save_ms, save_cpu_ms;
} store_run;

/* The load average over the last minute, as /proc/loadavg says it. */
static void loadavg(char *out, size_t size) {
  FILE *f = fopen("/proc/loadavg", "r");
  if (!f || !fgets(out, (int)size, f)) snprintf(out, size, "?");
  if (f) fclose(f);
  out[strcspn(out, "\n")] = '\0';
}

/* One store's turn of a pair: its world opened from place, then ROUNDS
** incremental saves to it (round counts on across turns, so that each
** save changes what the last one wrote). */
static store_run turn(const char *place, const uint64_t *actors, int n, const uint64_t *maps, int *round) {
  strata_error err;
  strata_world *w;
  strata_mod_version *mv;
  size_t nm;
  store_run r;
  double a = now(), ca = cpu();
  if (strata_world_open(place, &w, &mv, &nm, &err)) die("open", &err);
  r.open_ms = (now() - a) * 1e3;
  r.open_cpu_ms = (cpu() - ca) * 1e3;
  if (strata_world_count(w) < (size_t)n) { fprintf(stderr, "%s: objects missing\n", place); exit(1); }
  double t[ROUNDS], c[ROUNDS];
  for (int k = 0; k < ROUNDS; k++, (*round)++) {
    bench_world_change(w, actors, n, maps, NMAPS, *round);
    double t0 = now(), c0 = cpu();
    if (strata_world_save(w, place, mv, nm, &err)) die("incremental save", &err);
    t[k] = now() - t0;
    c[k] = cpu() - c0;
  }
  qsort(t, ROUNDS, sizeof *t, cmp_double);
  qsort(c, ROUNDS, sizeof *c, cmp_double);
  r.save_ms = t[ROUNDS / 2] * 1e3;
  r.save_cpu_ms = c[ROUNDS / 2] * 1e3;
  strata_world_free(w);
  strata_mod_versions_free(mv, nm);
  return r;
}

/* One row of the summary: the pairs' ratios (sorted in place), their median and range. */
static void ratio_row(const char *label, double *ratio, int pairs, const char *target) {
  qsort(ratio, (size_t)pairs, sizeof *ratio, cmp_double);
  double median = pairs % 2 ? ratio[pairs / 2] : (ratio[pairs / 2 - 1] + ratio[pairs / 2]) / 2;
  printf("%-40s %7.2fx   %5.2f - %-5.2f  %s\n", label, median, ratio[0], ratio[pairs - 1], target);
}

int main(int argc, char **argv) {
  if (argc < 2 || strncmp(argv[1], "postgres", 8) != 0) {
    fprintf(stderr, "usage: bench_store postgresql://...[?world=NAME] [N [PAIRS]]\n");
    return 2;
  }
  const char *uri = argv[1];
  int n = argc > 2 ? atoi(argv[2]) : 1000000;
  int pairs = argc > 3 ? atoi(argv[3]) : 5;
  if (n < NMAPS) n = NMAPS;
  if (pairs < 1) pairs = 1;
  if (pairs > MAX_PAIRS) pairs = MAX_PAIRS;
  const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char path[512], load0[128], load1[128];
  snprintf(path, sizeof path, "%s/strata_bench_store.db", dir);
  loadavg(load0, sizeof load0);

  strata_error err;
  strata_world *w = strata_world_new(42, &err);
  uint64_t *actors = malloc((size_t)n * sizeof *actors), maps[NMAPS];
  if (!w || !actors) { fprintf(stderr, "out of memory\n"); return 1; }
  bench_world_maps(w, NMAPS, maps);
  bench_world_objects(w, n, actors, NMAPS, maps);
  strata_mod_version mods[1] = { { "base", "0.1.0" } };
  unlink(path);
  double a = now();
  if (strata_world_save(w, path, mods, 1, &err)) die("full save to SQLite", &err);
  double b = now();
  if (strata_world_save(w, uri, mods, 1, &err)) die("full save to PostgreSQL", &err);
  double c = now();
  strata_world_free(w);
  printf("world: %d objects with 3 properties and a position, %d maps of 80x80, 1,000 timers and "
         "subscriptions\nfull save: SQLite %.0f ms, PostgreSQL %.0f ms (once, wall)\n\n", n, NMAPS,
         (b - a) * 1e3, (c - b) * 1e3);

  printf("%-5s %-10s %10s %10s %14s %14s\n", "pair", "store", "open ms", "open cpu", "save ms (med)",
         "save cpu (med)");
  double open_ratio[MAX_PAIRS], save_ratio[MAX_PAIRS];
  int round = 1;
  for (int p = 0; p < pairs; p++) {
    store_run s = turn(path, actors, n, maps, &round);
    store_run g = turn(uri, actors, n, maps, &round);
    printf("%-5d %-10s %10.1f %10.1f %14.2f %14.2f\n", p + 1, "SQLite", s.open_ms, s.open_cpu_ms, s.save_ms,
           s.save_cpu_ms);
    printf("%-5d %-10s %10.1f %10.1f %14.2f %14.2f\n", p + 1, "PostgreSQL", g.open_ms, g.open_cpu_ms, g.save_ms,
           g.save_cpu_ms);
    open_ratio[p] = g.open_ms / s.open_ms;
    save_ratio[p] = g.save_ms / s.save_ms;
  }
  loadavg(load1, sizeof load1);
  printf("\n%-40s %8s   %-13s  %s\n", "PostgreSQL / SQLite, wall", "median", "range", "target");
  ratio_row("incremental save (100 objects, 10 cells)", save_ratio, pairs, "<= 3x");
  ratio_row("open (every object)", open_ratio, pairs, "<= 2x");
  printf("%d pairs, SQLite first; load average before: %s; after: %s\n", pairs, load0, load1);
  unlink(path);
  free(actors);
  return 0;
}
