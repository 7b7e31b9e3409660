/*
** fov_maps.h - what the two field of view benchmarks share, so that they
** time the same work: reading a map written by bench_gridgen ("W H", then
** rows of '.' floor and '#' wall) and the starts, picked the same way on
** both sides (floor cells from a fixed sequence), and the clock.
** bench_fov.c (strata) and bench_fov_libtcod.c (libtcod) include it.
*/
#ifndef FOV_MAPS_H
#define FOV_MAPS_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct fov_map {
  int w, h;
  char *cells;
  int n;          /* starts */
  int *sx, *sy;
} fov_map;

/* 1 and the map with n starts; 0 (with a line on stderr) when it cannot be read. */
static int fov_map_read(fov_map *m, const char *path, int n) {
  FILE *f = fopen(path, "r");
  if (f == NULL || fscanf(f, "%d %d", &m->w, &m->h) != 2 || m->w < 1 || m->h < 1) {
    fprintf(stderr, "%s: not a map\n", path);
    if (f) fclose(f);
    return 0;
  }
  m->cells = malloc((size_t)m->w * (size_t)m->h);
  char *line = malloc((size_t)m->w + 4);
  int ok = m->cells != NULL && line != NULL && fgetc(f) == '\n';
  for (int y = 0; ok && y < m->h; y++) {
    ok = fgets(line, m->w + 4, f) != NULL && (int)strcspn(line, "\n") == m->w;
    if (ok) memcpy(m->cells + (size_t)y * (size_t)m->w, line, (size_t)m->w);
  }
  free(line);
  fclose(f);
  if (!ok) {
    fprintf(stderr, "%s: a row is not %d cells long\n", path, m->w);
    return 0;
  }
  m->n = n;
  m->sx = malloc((size_t)n * sizeof *m->sx), m->sy = malloc((size_t)n * sizeof *m->sy);
  uint64_t s = 0x5eed;
  for (int i = 0; i < n;) {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    int x = (int)((s >> 33) % (uint64_t)m->w), y = (int)((s >> 13) % (uint64_t)m->h);
    if (m->cells[(size_t)y * (size_t)m->w + (size_t)x] == '.') m->sx[i] = x, m->sy[i] = y, i++;
  }
  return 1;
}

static double fov_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fov_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* The median of the per-pass times in ms per field of view: passes over
** every start until min_time seconds have gone (at least 3 passes). */
#define FOV_TIME(m, min_time, out_ms, BODY)                                       \
  do {                                                                           \
    double times_[1000];                                                         \
    int passes_ = 0;                                                             \
    double start_ = fov_now();                                                   \
    while (passes_ < 1000 && (passes_ < 3 || fov_now() - start_ < (min_time))) { \
      double t0_ = fov_now();                                                    \
      for (int i_ = 0; i_ < (m)->n; i_++) {                                      \
        int x = (m)->sx[i_], y = (m)->sy[i_];                                    \
        BODY;                                                                    \
      }                                                                          \
      times_[passes_++] = (fov_now() - t0_) * 1e3 / (m)->n;                      \
    }                                                                            \
    qsort(times_, (size_t)passes_, sizeof times_[0], fov_cmp);                   \
    (out_ms) = times_[passes_ / 2];                                              \
  } while (0)

#endif
