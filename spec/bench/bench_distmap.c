/*
** bench_distmap.c - distance maps (strata/distmap.h) on the maps of
** bench_distmap.h: one field object reused run after run, as a game keeps
** it. scripts/bench --distmap-only runs it beside bench_distmap_libtcod.c.
*/
#include "bench_distmap.h"
#include "strata/strata.h"

int main(int argc, char **argv) {
  bench_request q;
  if (!bench_request_make(&q, argc, argv, "bench_distmap")) return 2;
  const int w = q.map.w, h = q.map.h;
  strata_tilemap *m = strata_tilemap_new(w, h, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  const strata_token wt = strata_tokens_find(t, "wall", 4), ft = strata_tokens_intern(t, "floor", 5, NULL);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) strata_tilemap_set(m, x, y, q.map.cells[y * w + x] == '.' ? ft : wt, NULL);
  uint32_t *goals = malloc((size_t)q.count * sizeof *goals);
  for (int i = 0; i < q.count; i++) goals[i] = (uint32_t)(q.goals[2 * i + 1] * w + q.goals[2 * i]);
  strata_distmap_options o;
  strata_distmap_options_init(&o);
  o.connectivity = 8, o.diagonal_cost = BENCH_DIAGONAL;
  strata_distmap *d = strata_distmap_new(NULL);
  double *ms = malloc((size_t)q.runs * sizeof *ms), probe[BENCH_PROBES];
  strata_error err;
  for (int run = 0; run < q.runs; run++) {
    const double t0 = bench_now_ms();
    if (strata_distmap_compute(d, m, goals, (size_t)q.count, &o, &err) != STRATA_OK) {
      fprintf(stderr, "bench_distmap: %s\n", err.message);
      return 1;
    }
    ms[run] = bench_now_ms() - t0;
  }
  for (int i = 0; i < BENCH_PROBES; i++)
    if (!strata_distmap_at(d, q.probe[i][0], q.probe[i][1], &probe[i])) probe[i] = -1;
  bench_report(&q, ms, probe);
  strata_distmap_free(d);
  strata_tilemap_free(m);
  free(goals), free(ms);
  bench_request_free(&q);
  return 0;
}
