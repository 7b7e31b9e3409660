/*
** test_bidir_threads.c - a long Dijkstra search from both ends gives the
** same route, node for node, and the same count of settled cells, whether
** its backward side runs on a second thread (threads = 2) or not (1).
**
** The search runs on the engine from both ends (gridbidir.c), on maps large
** enough for its second thread, with walls scattered at several densities,
** ends far apart and near, routes across open floor (the two sides' first
** parts then touch), an end nearer the middle and walls dense on one side
** (the frontiers grow apart and the first part ends early), an end walled
** in (no route; one side runs out in its first part) and a search object
** made fresh (its queues start small: the second thread stops for room and
** the caller's thread finishes that part). CMakeLists.txt also runs this
** under valgrind's Helgrind, which reports any race between the threads.
*/
#include <math.h>
#include <string.h>

#include "check.h"
#include "gridengine.h" /* gridengine_run_one */
#include "strata/strata.h"

#define SIDE 300

/* CHECK, naming the case when it fails */
#define CHECK_AT(cond)                                                                     \
  do {                                                                                     \
    if (!(cond)) fprintf(stderr, "%s, ends (%d, %d) (%d, %d):\n", what, e->x1, e->y1, e->x2, \
                         e->y2);                                                           \
    CHECK(cond);                                                                           \
  } while (0)

typedef struct ends4 {
  int x1, y1, x2, y2;
} ends4;

static int bidir; /* the engine's number in the table */

/* One Dijkstra search (8 neighbours, diagonal sqrt 2) with threads = t, by
** the engine from both ends whatever the table would choose. */
static int search(strata_grid_search *s, const strata_tilemap *m, const ends4 *e, int t,
                  strata_path *p, uint64_t *expanded) {
  strata_grid_options o;
  strata_grid_options_init(&o);
  o.algorithm = STRATA_PATH_DIJKSTRA, o.connectivity = 8, o.threads = t;
  strata_error err;
  int ran;
  if (gridengine_run_one(s, m, bidir, e->x1, e->y1, e->x2, e->y2, &o, p, &ran, &err) != STRATA_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 0;
  }
  if (!ran) return 0;
  *expanded = strata_grid_search_expanded(s);
  return 1;
}

static void same_route(const strata_tilemap *m, const ends4 *e, int fresh, const char *what) {
  static strata_grid_search *kept[2];
  strata_grid_search *s[2];
  for (int t = 0; t < 2; t++) {
    if (fresh || kept[t] == NULL) {
      strata_grid_search_free(kept[t]);
      kept[t] = strata_grid_search_new(NULL);
    }
    s[t] = kept[t];
  }
  strata_path p[2];
  uint64_t expanded[2] = {0, 0};
  for (int t = 0; t < 2; t++) {
    strata_path_init(&p[t]);
    CHECK_AT(search(s[t], m, e, t + 1, &p[t], &expanded[t]));
  }
  CHECK_AT(p[0].len == p[1].len);
  CHECK_AT(p[0].len == 0 || p[0].cost == p[1].cost);
  CHECK_AT(p[0].len == 0 || memcmp(p[0].nodes, p[1].nodes, p[0].len * sizeof *p[0].nodes) == 0);
  CHECK_AT(expanded[0] == expanded[1]);
  for (int t = 0; t < 2; t++) strata_path_free(&p[t]);
  if (fresh < 0)
    for (int t = 0; t < 2; t++) strata_grid_search_free(kept[t]), kept[t] = NULL;
}

/* A SIDE x SIDE map of floor with walls at random, a share `left` of the
** cells on the left half and `right` on the right; wl, fl: its tokens. */
static strata_tilemap *walled(strata_rng *r, double left, double right, strata_token *wl,
                              strata_token *fl) {
  strata_tilemap *m = strata_tilemap_new(SIDE, SIDE, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  *wl = strata_tokens_find(t, "wall", 4), *fl = strata_tokens_intern(t, "floor", 5, NULL);
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++)
      strata_tilemap_set(m, x, y, strata_rng_chance(r, x < SIDE / 2 ? left : right) ? *wl : *fl, NULL);
  return m;
}

int main(void) {
  while (strcmp(gridengine_name(bidir), "bidir") != 0) bidir++;
  strata_rng r;
  strata_rng_seed(&r, 24);
  const double density[] = {0.02, 0.1, 0.2, 0.3};
  for (int k = 0; k < 4; k++) {
    strata_token wl, fl;
    strata_tilemap *m = walled(&r, density[k], density[k], &wl, &fl);
    const ends4 ends[] = {
        {0, 0, SIDE - 1, SIDE - 1},   /* corner to corner */
        {SIDE - 1, 0, 0, SIDE - 2},   /* the other diagonal */
        {3, SIDE / 2, SIDE - 4, SIDE / 2 + 7}, /* nearly straight across */
        {10, 20, SIDE - 30, 40},
        {SIDE / 2, 0, SIDE / 2 + 1, SIDE - 1},
        {40, SIDE / 2, SIDE - 1, SIDE - 1}, /* one end nearer the middle: frontiers apart */
    };
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
      /* ends on floor: the engine wants a passable start */
      strata_tilemap_reset(m, ends[i].x1, ends[i].y1, fl, NULL);
      strata_tilemap_reset(m, ends[i].x2, ends[i].y2, fl, NULL);
      same_route(m, &ends[i], i == 0, "same route on one thread or two");
    }
    /* The goal walled in: no route. */
    const ends4 shut = {1, 1, SIDE - 3, SIDE - 3};
    strata_tilemap_reset(m, shut.x1, shut.y1, fl, NULL);
    for (int dy = -1; dy <= 1; dy++)
      for (int dx = -1; dx <= 1; dx++)
        strata_tilemap_reset(m, shut.x2 + dx, shut.y2 + dy, dx || dy ? wl : fl, NULL);
    same_route(m, &shut, 0, "no route, on one thread or two");
    strata_path p;
    strata_path_init(&p);
    strata_grid_search *s = strata_grid_search_new(NULL);
    uint64_t expanded;
    CHECK(search(s, m, &shut, 2, &p, &expanded));
    CHECK(p.len == 0);
    /* The start walled in: its side runs out in the first part. */
    const ends4 shut2 = {shut.x2, shut.y2, shut.x1, shut.y1};
    CHECK(search(s, m, &shut2, 2, &p, &expanded));
    CHECK(p.len == 0);
    strata_grid_search_free(s);
    strata_path_free(&p);
    same_route(m, &ends[0], -1, "same route after the walls");
    strata_tilemap_free(m);
  }
  /* Walls dense on the left, sparse on the right: one side's frontier
  ** grows far slower than the other's. */
  strata_token wl, fl;
  strata_tilemap *m = walled(&r, 0.4, 0.05, &wl, &fl);
  const ends4 across[] = {{2, SIDE / 2, SIDE - 3, SIDE / 2}, {SIDE - 3, 10, 2, SIDE - 10}};
  for (size_t i = 0; i < sizeof across / sizeof *across; i++) {
    strata_tilemap_reset(m, across[i].x1, across[i].y1, fl, NULL);
    strata_tilemap_reset(m, across[i].x2, across[i].y2, fl, NULL);
    same_route(m, &across[i], i == 0 ? 1 : -1, "same route from dense walls to sparse ones");
  }
  strata_tilemap_free(m);
  return check_summary("bidir_threads");
}
