/*
** bench_distmap_libtcod.c - libtcod's distance maps on the maps of
** bench_distmap.h, our own harness around Debian's libtcod-dev (1.18),
** built by scripts/bench into the build folder when pkg-config finds it;
** never part of strata's build.
**
** One goal: TCOD_dijkstra_compute (the dijkstra object and its TCOD_map made
** once, reused run after run). More goals: libtcod 1.18's Dijkstra has one
** root, and its TCOD_pf_* pathfinder reads no costs (its bounds test refuses
** every index above 0), so the roots are pushed on libtcod's own frontier
** (TCOD_Frontier, the heap its pathfinders are built on) and the Dijkstra
** loop around it is the textbook one, in libtcod's units (hundredths: 100 a
** straight step, 141 a diagonal one), the fairest multi-root search libtcod
** offers.
*/
#include <limits.h>

#include <libtcod.h>
#include <libtcod/pathfinder_frontier.h>

#include "bench_distmap.h"

/* Multi-root Dijkstra on libtcod's frontier; dist (w*h ints) holds the result. */
static void frontier_dijkstra(struct TCOD_Frontier *f, const gridgen_map *m, const int *goals, int count,
                              int *dist) {
  const int w = m->w, h = m->h;
  for (int i = 0; i < w * h; i++) dist[i] = INT_MAX;
  TCOD_frontier_clear(f);
  for (int i = 0; i < count; i++) {
    const int index[2] = {goals[2 * i + 1], goals[2 * i]};
    dist[index[0] * w + index[1]] = 0;
    TCOD_frontier_push(f, index, 0, 0);
  }
  while (TCOD_frontier_size(f) > 0) {
    TCOD_frontier_pop(f);
    const int y = f->active_index[0], x = f->active_index[1], du = f->active_dist;
    if (du > dist[y * w + x]) continue; /* stale */
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++) {
        const int nx = x + dx, ny = y + dy;
        if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= h || m->cells[ny * w + nx] != '.')
          continue;
        const int nd = du + (dx != 0 && dy != 0 ? 141 : 100);
        if (nd >= dist[ny * w + nx]) continue;
        dist[ny * w + nx] = nd;
        const int index[2] = {ny, nx};
        TCOD_frontier_push(f, index, nd, nd);
      }
  }
}

int main(int argc, char **argv) {
  bench_request q;
  if (!bench_request_make(&q, argc, argv, "bench_distmap_libtcod")) return 2;
  const int w = q.map.w, h = q.map.h;
  TCOD_map_t map = TCOD_map_new(w, h);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const bool floor = q.map.cells[y * w + x] == '.';
      TCOD_map_set_properties(map, x, y, floor, floor);
    }
  TCOD_dijkstra_t dj = TCOD_dijkstra_new(map, (float)BENCH_DIAGONAL);
  struct TCOD_Frontier *f = TCOD_frontier_new(2);
  int *dist = malloc((size_t)w * (size_t)h * sizeof *dist);
  double *ms = malloc((size_t)q.runs * sizeof *ms), probe[BENCH_PROBES];
  for (int run = 0; run < q.runs; run++) {
    const double t0 = bench_now_ms();
    if (q.count == 1) TCOD_dijkstra_compute(dj, q.goals[0], q.goals[1]);
    else frontier_dijkstra(f, &q.map, q.goals, q.count, dist);
    ms[run] = bench_now_ms() - t0;
  }
  for (int i = 0; i < BENCH_PROBES; i++) {
    const int x = q.probe[i][0], y = q.probe[i][1];
    if (q.count == 1) probe[i] = TCOD_dijkstra_get_distance(dj, x, y);
    else probe[i] = dist[y * w + x] == INT_MAX ? -1 : dist[y * w + x] / 100.0;
  }
  bench_report(&q, ms, probe);
  TCOD_frontier_delete(f);
  TCOD_dijkstra_delete(dj);
  TCOD_map_delete(map);
  free(dist), free(ms);
  bench_request_free(&q);
  return 0;
}
