/*
** bench_xymap.c - XY maps at scale: parse time, first shortest path, memory.
**
**   bench_xymap MAP_FILE [RUNS]
**
** MAP_FILE holds a map string from the peers' gen_grid_map.py (the inputs
** Evennia was measured on; see docs/benchmarks.md) or one of the plain grids
** scripts/bench writes without them. Parses it RUNS times
** (median), then times the first shortest path from the bottom-left node to
** the top-right one on a fresh map, and reports the bytes the map holds per
** node (counted through wrapped malloc/calloc/realloc). One JSON line.
**
** The first parse of a process is reported apart (first_parse_ms): it is the
** only one whose memory is new to the process, and on a virtual machine the
** kernel's first touch of each page can cost more than the parse itself. The
** later parses reuse the memory of the earlier ones (malloc is told to keep
** what is freed), so their median is the parser's own work, the same for
** every map whatever glibc's thresholds make of its array sizes.
*/
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/strata.h"

static size_t live_bytes;
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  if (p) live_bytes += malloc_usable_size(p);
  return p;
}
void *__wrap_calloc(size_t n, size_t size) {
  void *p = __real_calloc(n, size);
  if (p) live_bytes += malloc_usable_size(p);
  return p;
}
void *__wrap_realloc(void *p, size_t n) {
  size_t old = p ? malloc_usable_size(p) : 0;
  void *q = __real_realloc(p, n);
  if (q) live_bytes += malloc_usable_size(q) - old;
  return q;
}
void __wrap_free(void *p) {
  if (p) live_bytes -= malloc_usable_size(p);
  __real_free(p);
}

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
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  if (argc < 2) {
    fprintf(stderr, "usage: bench_xymap MAP_FILE [RUNS]\n");
    return 2;
  }
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  if (runs < 1) runs = 1;
  FILE *f = fopen(argv[1], "rb");
  if (!f) {
    fprintf(stderr, "bench_xymap: cannot open %s\n", argv[1]);
    return 2;
  }
  fseek(f, 0, SEEK_END);
  long len = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)len + 1);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) return 2;
  fclose(f);
  strata_error err;
  double *times = malloc((size_t)runs * sizeof *times);
  size_t bytes = 0, nodes = 0;
  double path_ms = 0, cost = 0;
  size_t hops = 0;
  for (int r = 0; r < runs; r++) {
    size_t before = live_bytes;
    double t0 = now_ms();
    strata_xymap *m = strata_xymap_parse(text, (size_t)len, "bench", NULL, 0, &err);
    times[r] = now_ms() - t0;
    if (m == NULL) {
      fprintf(stderr, "bench_xymap: %s (line %d, column %d)\n", err.message, err.line, err.column);
      return 1;
    }
    bytes = live_bytes - before;
    nodes = strata_xymap_node_count(m);
    if (r == 0) {
      int mx, my;
      strata_xymap_extent(m, &mx, &my);
      int64_t a = strata_xymap_node_at(m, 0, 0), b = strata_xymap_node_at(m, mx, my);
      strata_xy_route route;
      double p0 = now_ms();
      if (a < 0 || b < 0 ||
          strata_xymap_shortest_path(m, (size_t)a, (size_t)b, &route, &err) != STRATA_OK) {
        fprintf(stderr, "bench_xymap: no corner nodes or path error\n");
        return 1;
      }
      path_ms = now_ms() - p0;
      hops = route.hop_count;
      cost = route.cost;
      strata_xy_route_free(&route);
    }
    strata_xymap_free(m);
  }
  double first_parse = times[0];
  qsort(times, (size_t)runs, sizeof *times, cmp_double);
  const char *name = strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1];
  printf("{\"bench\":\"xymap\",\"map\":\"%s\",\"nodes\":%zu,\"chars\":%ld,\"runs\":%d,"
         "\"parse_ms\":%.3f,\"first_parse_ms\":%.3f,\"first_path_ms\":%.3f,\"path_hops\":%zu,\"path_cost\":%.3f,"
         "\"bytes\":%zu,\"bytes_per_node\":%.1f}\n",
         name, nodes, len, runs, times[runs / 2], first_parse, path_ms, hops, cost, bytes,
         nodes ? (double)bytes / (double)nodes : 0.0);
  free(times);
  free(text);
  return 0;
}
