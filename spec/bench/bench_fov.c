/*
** bench_fov.c - field of view on a map of bench_gridgen's, timed.
**
**   bench_fov MAP ALGORITHM RADIUS [MIN_TIME]
**
** ALGORITHM: symmetric, permissive or basic; RADIUS 0 for unlimited. From
** 100 starts (fov_maps.h, the same as bench_fov_libtcod's), light_walls on.
** Prints one JSON line: ms per field of view (median of passes), the cells
** seen summed over the starts, and those of them exactly at the radius
** (libtcod's radius leaves them out: dx*dx + dy*dy < r*r).
*/
#include "fov_maps.h"
#include "strata/strata.h"
#include "strata/fov.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_fov MAP ALGORITHM RADIUS [MIN_TIME]\n");
    return 2;
  }
  fov_map fm;
  if (!fov_map_read(&fm, argv[1], 100)) return 1;
  strata_fov_options o;
  strata_fov_options_init(&o);
  if (!strata_fov_algorithm_parse(argv[2], &o.algorithm)) {
    fprintf(stderr, "bench_fov: unknown algorithm %s\n", argv[2]);
    return 2;
  }
  o.radius = atoi(argv[3]);
  double min_time = argc > 4 ? atof(argv[4]) : 0.5;
  strata_error err;
  strata_tilemap *m = strata_tilemap_new(fm.w, fm.h, NULL, &err);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall;
  strata_tokens_default_traits("wall", 4, &wall);
  wall.passable = 0, wall.opaque = 1;
  strata_tokens_define(t, "wall", 4, &wall, &err);
  strata_token tw = strata_tokens_find(t, "wall", 4), tf = strata_tokens_intern(t, "floor", 5, &err);
  for (int y = 0; y < fm.h; y++)
    for (int x = 0; x < fm.w; x++)
      strata_tilemap_reset(m, x, y, fm.cells[(size_t)y * (size_t)fm.w + (size_t)x] == '#' ? tw : tf, &err);
  strata_fov *f = strata_fov_new(&err);
  strata_fov_set *s = strata_fov_set_new(&err);
  /* the counts (and the transparency cache, built once for the map) */
  uint64_t cells = 0, rim = 0;
  int64_t r2 = (int64_t)o.radius * o.radius;
  for (int i = 0; i < fm.n; i++) {
    if (strata_fov_compute(f, m, fm.sx[i], fm.sy[i], &o, s, &err) != STRATA_OK) {
      fprintf(stderr, "bench_fov: %s\n", err.message);
      return 1;
    }
    cells += strata_fov_set_count(s);
    uint64_t cursor = 0;
    int x, y;
    while (o.radius && strata_fov_set_next(s, &cursor, &x, &y)) {
      int64_t dx = x - fm.sx[i], dy = y - fm.sy[i];
      rim += dx * dx + dy * dy == r2;
    }
  }
  double ms;
  FOV_TIME(&fm, min_time, ms, strata_fov_compute(f, m, x, y, &o, s, NULL));
  printf("{\"peer\":\"strata\",\"map\":\"%s\",\"algo\":\"%s\",\"radius\":%d,\"ms\":%.6f,"
         "\"cells\":%llu,\"rim\":%llu,\"set_bytes\":%zu}\n",
         argv[1], argv[2], o.radius, ms, (unsigned long long)cells, (unsigned long long)rim,
         strata_fov_set_memory(s));
  strata_fov_set_free(s);
  strata_fov_free(f);
  strata_tilemap_free(m);
  return 0;
}
