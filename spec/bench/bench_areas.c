/* bench_areas.c [FLOORS] - the C twin of bench_areas.lua: FLOORS (default
** 1000) floors of 80x80 through a C area generator registered by ID (a fill,
** 24 rooms, 47 corridor fills, the map attached, two stairs: what the Lua
** bench's generator does). Prints one JSON line: ms per floor in all, in the
** generator (its whole body, the area calls it makes included, as the Lua
** bench times its generator), and outside it: what the core does around a
** generation (savepoint, stream, checks, attach, props, renewal times,
** on_spawn lookup, base.floor_generated, unique entrances, commit). The best
** of three runs, each on a fresh world; the time outside the generator is
** also given as the median over the floors of that run, which a machine
** busy with other work disturbs least. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/strata.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef struct gen_state {
  double seconds;       /* inside the generator */
  double area_seconds;  /* of which: add_floor and the stairs */
  strata_token rock, floor;
} gen_state;

#define TRY(x) do { strata_status st_ = (x); if (st_) return st_; } while (0)

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int imin(int a, int b) { return a < b ? a : b; }
static int iabs(int a) { return a < 0 ? -a : a; }

static strata_status rooms(strata_call *c, void *data, strata_error *err) {
  gen_state *g = data;
  double t0 = now();
  uint64_t m;
  TRY(strata_map_create(c->rt, 80, 80, NULL, &m, err));
  strata_tilemap *tm = strata_world_tilemap(c->world, m);
  TRY(strata_tilemap_clear(tm, g->rock, err));
  int px = 40, py = 40;
  for (int i = 0; i < 24; i++) {
    int w = (int)strata_rng_int(c->rng, 4, 12), h = (int)strata_rng_int(c->rng, 4, 10);
    int x = (int)strata_rng_int(c->rng, 1, 78 - w), y = (int)strata_rng_int(c->rng, 1, 78 - h);
    TRY(strata_tilemap_fill_rect(tm, x, y, w, h, g->floor, 0, err));
    int cx = x + w / 2, cy = y + h / 2;
    TRY(strata_tilemap_fill_rect(tm, imin(px, cx), py, iabs(cx - px) + 1, 1, g->floor, 0, err));
    TRY(strata_tilemap_fill_rect(tm, cx, imin(py, cy), 1, iabs(cy - py) + 1, g->floor, 0, err));
    px = cx;
    py = cy;
  }
  double t1 = now();
  TRY(strata_area_add_floor(c->rt, c->area, m, c->floor, err));
  TRY(strata_stairs_create(c->rt, m, 40, 40, -1, NULL, err));
  TRY(strata_stairs_create(c->rt, m, px, py, 1, NULL, err));
  c->made = m;
  double t2 = now();
  g->area_seconds += t2 - t1;
  g->seconds += t2 - t0;
  return STRATA_OK;
}

int main(int argc, char **argv) {
  int floors = argc > 1 ? atoi(argv[1]) : 1000;
  strata_error err;
  gen_state g;
  double best_total = 1e300, best_gen = 0, best_area = 0, best_median = 0;
  double *outside = malloc((size_t)(floors > 0 ? floors : 1) * sizeof *outside);
  strata_registry *reg = strata_registry_new(&err);
  if (!reg ||
      strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_FLOOR, "bench.rooms", rooms, &g, "bench", &err) ||
      strata_registry_add_area_archetype(reg, &(strata_area_archetype){ .id = "bench.deep",
                                         .generator = "bench.rooms" }, &err)) {
    fprintf(stderr, "bench_areas: %s\n", err.message);
    return 1;
  }
  for (int run = 0; run < 3; run++) {
    strata_world *w = strata_world_new(1, &err);
    strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
    memset(&g, 0, sizeof g);
    g.rock = strata_tokens_intern(strata_world_tokens(w), "rock", 4, &err);
    g.floor = strata_tokens_intern(strata_world_tokens(w), "floor", 5, &err);
    uint64_t area, m;
    if (strata_area_create(rt, "bench.deep", NULL, &area, &err)) {
      fprintf(stderr, "bench_areas: %s\n", err.message);
      return 1;
    }
    double t0 = now();
    for (int n = 1; n <= floors; n++) {
      double f0 = now(), g0 = g.seconds;
      if (strata_area_floor(rt, area, n, &m, &err)) {
        fprintf(stderr, "bench_areas: floor %d: %s\n", n, err.message);
        return 1;
      }
      outside[n - 1] = (now() - f0) - (g.seconds - g0);
    }
    double total = now() - t0;
    if (total < best_total) {
      best_total = total;
      best_gen = g.seconds;
      best_area = g.area_seconds;
      qsort(outside, (size_t)floors, sizeof *outside, cmp_double);
      best_median = outside[floors / 2];
    }
    strata_runtime_free(rt);
    strata_world_free(w);
  }
  double ms = best_total / floors * 1000, gen = best_gen / floors * 1000;
  printf("{\"bench\":\"areas_c\",\"floors\":%d,\"size\":\"80x80\",\"ms_per_floor\":%.4f,"
         "\"generator_ms_per_floor\":%.4f,\"area_calls_in_generator_ms_per_floor\":%.4f,"
         "\"outside_generator_ms_per_floor\":%.4f,\"outside_generator_median_ms\":%.4f}\n",
         floors, ms, gen, best_area / floors * 1000, ms - gen, best_median * 1000);
  free(outside);
  strata_registry_free(reg);
  return 0;
}
