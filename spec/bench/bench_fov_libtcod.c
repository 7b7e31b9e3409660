/*
** bench_fov_libtcod.c - libtcod's field of view on the same maps and from
** the same starts as bench_fov (fov_maps.h): our own small harness over
** Debian's libtcod-dev, built by scripts/bench into the build folder when
** pkg-config finds libtcod (CMake leaves it out).
**
**   bench_fov_libtcod MAP symmetric|permissive RADIUS [MIN_TIME]
**
** symmetric is FOV_SYMMETRIC_SHADOWCAST, permissive FOV_PERMISSIVE_8;
** light_walls on. Prints one JSON line like bench_fov's.
*/
#include <libtcod.h>

#include "fov_maps.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_fov_libtcod MAP symmetric|permissive RADIUS [MIN_TIME]\n");
    return 2;
  }
  fov_map fm;
  if (!fov_map_read(&fm, argv[1], 100)) return 1;
  TCOD_fov_algorithm_t algo = strcmp(argv[2], "permissive") == 0 ? FOV_PERMISSIVE_8 : FOV_SYMMETRIC_SHADOWCAST;
  int radius = atoi(argv[3]);
  double min_time = argc > 4 ? atof(argv[4]) : 0.5;
  TCOD_Map *m = TCOD_map_new(fm.w, fm.h);
  for (int y = 0; y < fm.h; y++)
    for (int x = 0; x < fm.w; x++) {
      int floor = fm.cells[(size_t)y * (size_t)fm.w + (size_t)x] == '.';
      TCOD_map_set_properties(m, x, y, floor, floor);
    }
  unsigned long long cells = 0;
  for (int i = 0; i < fm.n; i++) {
    TCOD_map_compute_fov(m, fm.sx[i], fm.sy[i], radius, true, algo);
    for (int y = 0; y < fm.h; y++)
      for (int x = 0; x < fm.w; x++) cells += TCOD_map_is_in_fov(m, x, y);
  }
  double ms;
  FOV_TIME(&fm, min_time, ms, TCOD_map_compute_fov(m, x, y, radius, true, algo));
  printf("{\"peer\":\"libtcod\",\"map\":\"%s\",\"algo\":\"%s\",\"radius\":%d,\"ms\":%.6f,\"cells\":%llu}\n",
         argv[1], argv[2], radius, ms, cells);
  TCOD_map_delete(m);
  return 0;
}
