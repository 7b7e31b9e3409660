/*
** bench_engines.c - each engine of the table against the others, on one
** request: the evidence that each engine earns its place.
**
**   bench_engines MAP META ALGO CONN [COSTS [ROUNDS [ENGINES]]]
**
** MAP and META as for bench_grid; ALGO astar, dijkstra or bfs; CONN 4, 8
** (diagonal 1), 8s (diagonal sqrt 2) or 8:D (diagonal D). COSTS "one" (the
** map as it is: floor and wall) or "costs" (a fifth of the floor turned to
** mud, cost 2, and a tenth to water, cost 3, at random: a map of several
** costs). Runs every engine the table admits for the request, in turns
** (blocks of four searches of each, ROUNDS searches of each in all, default 16), and prints for
** each its median time, the cost of its route, and how many times faster
** it is than the engine that would answer without it (the next admitted
** engine of the table), as one JSON line per engine; also the least time
** of each, which the load of a shared machine disturbs least, and the
** cells each settled (the ns a settled cell of docs/benchmarks.md). ENGINES, a
** comma-separated list of names, times those only.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridengine.h"
#include "strata/strata.h"

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: bench_engines MAP META ALGO CONN [one|costs [ROUNDS]]\n");
    return 2;
  }
  const char *costs = argc > 5 ? argv[5] : "one";
  int rounds = argc > 6 ? atoi(argv[6]) : 16;
  int sx = 0, sy = 0, gx = 0, gy = 0;
  FILE *mf = fopen(argv[2], "r");
  char line[256];
  while (mf && fgets(line, sizeof line, mf)) {
    if (!strncmp(line, "start", 5)) sscanf(line + 5, "%d %d", &sx, &sy);
    if (!strncmp(line, "goal", 4)) sscanf(line + 4, "%d %d", &gx, &gy);
  }
  if (mf) fclose(mf);
  FILE *f = fopen(argv[1], "r");
  int w, h;
  if (!f || fscanf(f, "%d %d\n", &w, &h) != 2) return 2;
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0}, mud = {1, 2, "m", "", 0}, water = {1, 3, "~", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_tokens_define(t, "mud", 3, &mud, NULL);
  strata_tokens_define(t, "water", 5, &water, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), fl = strata_tokens_intern(t, "floor", 5, NULL);
  strata_token md = strata_tokens_find(t, "mud", 3), wa = strata_tokens_find(t, "water", 5);
  strata_rng r;
  strata_rng_seed(&r, 1);
  char *row = malloc((size_t)w + 4);
  for (int y = 0; y < h; y++) {
    if (!fgets(row, w + 4, f)) return 2;
    for (int x = 0; x < w; x++) {
      strata_token tok = row[x] == '#' ? wl : fl;
      if (tok == fl && !strcmp(costs, "costs") && !(x == sx && y == sy) && !(x == gx && y == gy)) {
        double u = strata_rng_float(&r);
        tok = u < 0.2 ? md : u < 0.3 ? wa : fl;
      }
      strata_tilemap_set(m, x, y, tok, NULL);
    }
  }
  free(row);
  fclose(f);

  strata_grid_options o;
  strata_grid_options_init(&o);
  if (!strata_path_algorithm_parse(argv[3], &o.algorithm)) return 2;
  if (!strcmp(argv[4], "4")) o.connectivity = 4;
  else if (!strcmp(argv[4], "8")) o.connectivity = 8, o.diagonal_cost = 1;
  else if (!strcmp(argv[4], "8s")) o.connectivity = 8, o.diagonal_cost = M_SQRT2;
  else if (!strncmp(argv[4], "8:", 2)) o.connectivity = 8, o.diagonal_cost = atof(argv[4] + 2);
  else return 2;

  const int n = gridengine_count();
  strata_grid_search *s[64];
  int admitted[64] = {0};
  double *times[64];
  double cost[64];
  uint64_t settled[64];
  strata_path p;
  strata_path_init(&p);
  for (int e = 0; e < n; e++) {
    s[e] = strata_grid_search_new(NULL);
    times[e] = calloc((size_t)rounds, sizeof(double));
    int ran = 0;
    if (argc > 7) {
      char list[512];
      snprintf(list, sizeof list, ",%s,", argv[7]);
      char key[64];
      snprintf(key, sizeof key, ",%s,", gridengine_name(e));
      if (strstr(list, key) == NULL) continue;
    }
    gridengine_run_one(s[e], m, e, sx, sy, gx, gy, &o, &p, &ran, NULL); /* sizes the workspace */
    admitted[e] = ran;
    cost[e] = p.len ? p.cost : -1;
    settled[e] = strata_grid_search_expanded(s[e]);
  }
  /* In turns, a block of BLOCK searches of an engine at a time (its first
  ** one untimed): an engine meets its workspace warm, as when it answers a
  ** game's searches, and the machine's load of the moment falls on every
  ** engine alike. */
  enum { BLOCK = 4 };
  for (int k = 0; k < rounds; k += BLOCK)
    for (int e = 0; e < n; e++) {
      if (!admitted[e]) continue;
      int ran;
      gridengine_run_one(s[e], m, e, sx, sy, gx, gy, &o, &p, &ran, NULL);
      for (int b = 0; b < BLOCK && k + b < rounds; b++) {
        double t0 = now_ms();
        gridengine_run_one(s[e], m, e, sx, sy, gx, gy, &o, &p, &ran, NULL);
        times[e][k + b] = now_ms() - t0;
      }
    }
  double median[64], least[64];
  for (int e = 0; e < n; e++)
    if (admitted[e]) {
      qsort(times[e], (size_t)rounds, sizeof(double), cmp_double);
      median[e] = times[e][rounds / 2];
      least[e] = times[e][0];
    }
  const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
  for (int e = 0; e < n; e++) {
    if (!admitted[e]) continue;
    int next = e + 1;
    /* the next one timed here (with ENGINES: the next one listed) */
    while (next < n && !admitted[next]) next++;
    printf("{\"map\":\"%s\",\"costs\":\"%s\",\"algo\":\"%s\",\"conn\":\"%s\",\"engine\":\"%s\","
           "\"median_ms\":%.4f,\"min_ms\":%.4f,\"cost\":%.6f,\"settled\":%llu,\"instead\":\"%s\",\"instead_ms\":%.4f,"
           "\"instead_min_ms\":%.4f,\"speedup\":%.2f,\"speedup_min\":%.2f}\n",
           name, costs, argv[3], argv[4], gridengine_name(e), median[e], least[e], cost[e],
           (unsigned long long)settled[e], next < n ? gridengine_name(next) : "", next < n ? median[next] : 0,
           next < n ? least[next] : 0, next < n && median[e] > 0 ? median[next] / median[e] : 0,
           next < n && least[e] > 0 ? least[next] / least[e] : 0);
  }
  for (int e = 0; e < n; e++) strata_grid_search_free(s[e]), free(times[e]);
  strata_path_free(&p);
  strata_tilemap_free(m);
  return 0;
}
