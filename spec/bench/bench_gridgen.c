/*
** bench_gridgen.c - writes grid workloads made by strata's own generator
** (spec/c/gridgen.h, the one test_workloads uses) for bench_grid.
**
**   bench_gridgen OUTDIR TYPE SIZE [SEED]
**
** TYPE is open, maze or rooms; the map is SIZE x SIZE. Writes
** OUTDIR/TYPE_SIZExSIZE_sSEED.map ("W H", then rows of '.' floor and '#'
** wall) and .meta (start, goal and the optima at 4, 8 and 8 with diagonal
** sqrt 2 from gridgen.h's reference Dijkstra, as "key value" lines), the
** same format as the peers' generator, so bench_grid reads either. scripts/
** bench uses it when the peers' harnesses are not there.
*/
#include <stdio.h>
#include <stdlib.h>

#include "gridgen.h"

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: bench_gridgen OUTDIR TYPE SIZE [SEED]\n");
    return 2;
  }
  const char *dir = argv[1], *type = argv[2];
  const int size = atoi(argv[3]);
  const long seed = argc > 4 ? atol(argv[4]) : 1;
  gridgen_map g;
  if (!gridgen_make(&g, type, size, size, (uint64_t)seed)) {
    fprintf(stderr, "bench_gridgen: cannot make a %s map of %dx%d\n", type, size, size);
    return 1;
  }
  const double opt4 = gridgen_optimum(&g, 0, 1), opt8 = gridgen_optimum(&g, 1, 1);
  const double opt8s = gridgen_optimum(&g, 1, M_SQRT2);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s_%dx%d_s%ld.map", dir, type, size, size, seed);
  FILE *f = fopen(path, "w");
  if (f == NULL) return perror(path), 1;
  fprintf(f, "%d %d\n", size, size);
  for (int y = 0; y < size; y++) {
    fwrite(g.cells + (size_t)y * (size_t)size, 1, (size_t)size, f);
    fputc('\n', f);
  }
  if (fclose(f) != 0) return perror(path), 1;
  snprintf(path, sizeof path, "%s/%s_%dx%d_s%ld.meta", dir, type, size, size, seed);
  if ((f = fopen(path, "w")) == NULL) return perror(path), 1;
  fprintf(f,
          "format gridmeta-1\n# made by strata's spec/c/gridgen.h\ntype %s\nsize %d %d\nseed %ld\n"
          "start %d %d\ngoal %d %d\npassable %ld\ncomponent4 %ld\nopt4 %.0f\nopt8 %.0f\nopt8s %.6f\n"
          "corner_rule always\n",
          type, size, size, seed, g.sx, g.sy, g.gx, g.gy, g.passable, g.component, opt4, opt8, opt8s);
  if (fclose(f) != 0) return perror(path), 1;
  fprintf(stderr, "%s_%dx%d_s%ld: start (%d,%d) goal (%d,%d) opt4 %.0f opt8 %.0f opt8s %.3f\n", type, size,
          size, seed, g.sx, g.sy, g.gx, g.gy, opt4, opt8, opt8s);
  gridgen_free(&g);
  return 0;
}
