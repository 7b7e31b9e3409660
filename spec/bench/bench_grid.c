/*
** bench_grid.c - grid pathfinding on the peers' workloads or ours.
**
**   bench_grid MAP META ALGO CONN [MIN_TIME_S [THREADS]]
**
** MAP and META come from the peers' gen_grid.py or from bench_gridgen (the
** same format; scripts/bench picks one); ALGO is astar, dijkstra, bfs or
** greedy; CONN is 4, 8 (diagonal cost 1) or 8s (diagonal sqrt 2); THREADS is
** strata_grid_options.threads (deprecated: no effect). Times one start->goal
** search repeatedly (at least 3 runs and MIN_TIME_S seconds) on a map loaded once, checks the path (legal moves,
** cost recomputed from scratch, compared with the recorded optimum) and
** prints one JSON line in the format of the peers' report.py, so that
** strata and the peers can be tabulated from the same run.
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "gridengine.h" /* gridengine_last: which engine of the table answered */
#include "strata/strata.h"

/* Allocations made through malloc/calloc/realloc, counted by wrapping them at
** link time (-Wl,--wrap, see CMakeLists.txt): searches in the steady state
** must make none. */
static unsigned long allocations;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void *__wrap_malloc(size_t n) { allocations++; return __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { allocations++; return __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { allocations++; return __real_realloc(p, n); }
void __real_free(void *p);
void __wrap_free(void *p);
void __wrap_free(void *p) { __real_free(p); }

static void die(const char *msg, const char *arg) {
  fprintf(stderr, "bench_grid: %s %s\n", msg, arg ? arg : "");
  exit(2);
}

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double peak_rss_mb(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_maxrss / 1024.0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct meta {
  int sx, sy, gx, gy;
  double opt4, opt8, opt8s;
  char type[32];
} meta;

static void load_meta(const char *path, meta *m) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open", path);
  char line[256];
  memset(m, 0, sizeof *m);
  while (fgets(line, sizeof line, f)) {
    char key[32];
    if (sscanf(line, "%31s", key) != 1 || key[0] == '#') continue;
    const char *rest = line + strlen(key);
    if (!strcmp(key, "start")) sscanf(rest, "%d %d", &m->sx, &m->sy);
    else if (!strcmp(key, "goal")) sscanf(rest, "%d %d", &m->gx, &m->gy);
    else if (!strcmp(key, "opt4")) sscanf(rest, "%lf", &m->opt4);
    else if (!strcmp(key, "opt8")) sscanf(rest, "%lf", &m->opt8);
    else if (!strcmp(key, "opt8s")) sscanf(rest, "%lf", &m->opt8s);
    else if (!strcmp(key, "type")) sscanf(rest, "%31s", m->type);
  }
  fclose(f);
}

/* Reads the map into a tile map: '.' floor, '#' wall (impassable). */
static strata_tilemap *load_map(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open", path);
  int w, h;
  if (fscanf(f, "%d %d\n", &w, &h) != 2) die("bad header in", path);
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, &err);
  if (!m) die(err.message, path);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_token fl = strata_tokens_intern(t, "floor", 5, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4);
  char *row = malloc((size_t)w + 4);
  for (int y = 0; y < h; y++) {
    if (!fgets(row, w + 4, f)) die("short map", path);
    for (int x = 0; x < w; x++) strata_tilemap_set(m, x, y, row[x] == '#' ? wl : fl, NULL);
  }
  free(row);
  fclose(f);
  return m;
}

/* "dir/open_1000x1000_s1.map" -> "open_1000x1000_s1", as the peers name maps. */
static const char *map_name(const char *path) {
  static char name[256];
  const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
  snprintf(name, sizeof name, "%s", base);
  char *dot = strrchr(name, '.');
  if (dot && strcmp(dot, ".map") == 0) *dot = '\0';
  return name;
}

int main(int argc, char **argv) {
  if (argc < 5) die("usage: bench_grid MAP META ALGO CONN [MIN_TIME_S [THREADS]]", NULL);
  const char *algo = argv[3], *conn = argv[4];
  double min_time = argc > 5 ? atof(argv[5]) : 1.0;
  meta mt;
  load_meta(argv[2], &mt);
  double rss_before = peak_rss_mb();
  double t0 = now_ms();
  strata_tilemap *m = load_map(argv[1]);
  double map_ms = now_ms() - t0;
  strata_grid_options o;
  strata_grid_options_init(&o);
  if (!strata_path_algorithm_parse(algo, &o.algorithm)) die("unknown algorithm", algo);
  if (!strcmp(conn, "4")) o.connectivity = 4;
  else if (!strcmp(conn, "8")) o.connectivity = 8, o.diagonal_cost = 1;
  else if (!strcmp(conn, "8s")) o.connectivity = 8, o.diagonal_cost = M_SQRT2;
  else die("CONN must be 4, 8 or 8s, got", conn);
  if (argc > 6) o.threads = atoi(argv[6]);
  double opt = !strcmp(conn, "4") ? mt.opt4 : !strcmp(conn, "8") ? mt.opt8 : mt.opt8s;

  strata_path p;
  strata_path_init(&p);
  strata_error err;
  /* A search object of its own, as a game would keep one (the map's own,
  ** which strata_tilemap_find_path uses, is the same kind of object). */
  strata_grid_search *search = strata_grid_search_new(&err);
  if (search == NULL) die(err.message, "");
  size_t cap = 64, n = 0;
  double *times = malloc(cap * sizeof *times);
  /* The first search sizes the workspace; it is timed separately (setup). */
  double setup_start = now_ms();
  if (strata_grid_search_run(search, m, mt.sx, mt.sy, mt.gx, mt.gy, &o, &p, &err)) die(err.message, "");
  double setup_ms = now_ms() - setup_start;
  double rss_load = peak_rss_mb();
  /* Room for every timing first (the loop stops at 100,000 runs), so the
  ** loop's only allocations are the search's, however fast it is. */
  times = realloc(times, (cap = 100000) * sizeof *times);
  unsigned long allocations_before = allocations;
  double started = now_ms();
  while (n < 3 || (now_ms() - started < min_time * 1e3 && n < 100000)) {
    double s = now_ms();
    strata_grid_search_run(search, m, mt.sx, mt.sy, mt.gx, mt.gy, &o, &p, &err);
    times[n++] = now_ms() - s;
  }
  unsigned long search_allocations = allocations - allocations_before;
  size_t mem_after = strata_tilemap_memory(m) + strata_grid_search_memory(search);
  qsort(times, n, sizeof *times, cmp_double);
  double median = times[n / 2];

  /* Check the path from scratch: endpoints, legal moves, passable cells. */
  int w = strata_tilemap_width(m);
  long orth = 0, diag = 0;
  int valid = p.len > 0;
  const char *why = "";
  if (valid && (p.nodes[0] != (uint32_t)(mt.sy * w + mt.sx) ||
                p.nodes[p.len - 1] != (uint32_t)(mt.gy * w + mt.gx)))
    valid = 0, why = "wrong endpoints";
  for (size_t i = 1; valid && i < p.len; i++) {
    int x0 = (int)(p.nodes[i - 1] % (uint32_t)w), y0 = (int)(p.nodes[i - 1] / (uint32_t)w);
    int x1 = (int)(p.nodes[i] % (uint32_t)w), y1 = (int)(p.nodes[i] / (uint32_t)w);
    int dx = abs(x1 - x0), dy = abs(y1 - y0);
    if (!strata_tilemap_passable(m, x1, y1)) valid = 0, why = "impassable cell on path";
    else if (dx > 1 || dy > 1 || dx + dy == 0) valid = 0, why = "not a move";
    else if (dx + dy == 2 && o.connectivity == 4) valid = 0, why = "diagonal in 4-connectivity";
    else if (dx + dy == 2) diag++;
    else orth++;
  }
  double cost = !strcmp(conn, "8s") ? (double)orth + (double)diag * M_SQRT2 : (double)(orth + diag);
  int optimal = valid && fabs(cost - opt) < 1e-6 * (opt > 1 ? opt : 1);
  uint64_t expanded = strata_grid_search_expanded(search);
  printf("{\"peer\":\"strata\",\"version\":\"%s\",\"bench\":\"path\",\"algo\":\"%s\",\"conn\":\"%s\","
         "\"map\":\"%s\",\"type\":\"%s\",\"w\":%d,\"h\":%d,\"runs\":%zu,\"median_ms\":%.6f,"
         "\"min_ms\":%.6f,\"max_ms\":%.6f,\"q1_ms\":%.6f,\"q3_ms\":%.6f,\"found\":%s,\"valid\":%s,"
         "\"why\":\"%s\",\"steps\":%ld,\"orth\":%ld,\"diag\":%ld,\"cost\":%.6f,\"opt\":%.6f,"
         "\"optimal\":%s,\"engine\":\"%s\",\"expanded\":%llu,\"nodes_per_s\":%.1f,\"setup_ms\":%.3f,"
         "\"map_build_ms\":%.3f,\"map_bytes\":%zu,\"rss_before_mb\":%.2f,\"rss_load_mb\":%.2f,"
         "\"peak_rss_mb\":%.2f,\"allocations_in_timed_searches\":%lu,\"status\":\"ok\"}\n",
         STRATA_VERSION, algo, conn, map_name(argv[1]),
         mt.type, w, strata_tilemap_height(m), n, median, times[0], times[n - 1], times[n / 4],
         times[(3 * n) / 4], p.len ? "true" : "false", valid ? "true" : "false", why,
         orth + diag, orth, diag, cost, opt, optimal ? "true" : "false",
         gridengine_last(search), (unsigned long long)expanded, median > 0 ? (double)expanded / (median * 1e-3) : 0.0,
         setup_ms, map_ms, mem_after, rss_before, rss_load, peak_rss_mb(), search_allocations);
  strata_path_free(&p);
  strata_grid_search_free(search);
  strata_tilemap_free(m);
  free(times);
  return valid ? 0 : 1;
}
