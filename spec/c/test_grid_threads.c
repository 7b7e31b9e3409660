/*
** test_grid_threads.c - two threads search one map at once, each with its
** own strata_grid_search, and find the routes one thread alone finds.
**
** The map is only read by a search (its caches live in the search object),
** so this needs no lock. CMakeLists.txt also runs this test under
** valgrind's Helgrind when valgrind is installed, which reports any data
** race between the threads (a write to the map, or to shared state).
*/
#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"

#define SIDE 96
#define REQUESTS 24

typedef struct request {
  int x1, y1, x2, y2;
  strata_grid_options o;
  double cost; /* from one thread alone; -1 no route */
  size_t len;
} request;

typedef struct job {
  const strata_tilemap *map;
  const request *req;
  int first, mismatches, failures;
} job;

static void *search_all(void *arg) {
  job *j = arg;
  strata_grid_search *s = strata_grid_search_new(NULL);
  strata_path p;
  strata_path_init(&p);
  if (s == NULL) {
    j->failures++;
    return NULL;
  }
  /* both threads make every request, in orders of their own */
  for (int round = 0; round < 3; round++)
    for (int k = 0; k < REQUESTS; k++) {
      const request *q = &j->req[(k + j->first) % REQUESTS];
      if (strata_grid_search_run(s, j->map, q->x1, q->y1, q->x2, q->y2, &q->o, &p, NULL) != STRATA_OK) {
        j->failures++;
        continue;
      }
      double cost = p.len ? p.cost : -1;
      if (cost != q->cost || p.len != q->len) j->mismatches++;
    }
  strata_path_free(&p);
  strata_grid_search_free(s);
  return NULL;
}

int main(void) {
  strata_rng r;
  strata_rng_seed(&r, 17);
  strata_tilemap *m = strata_tilemap_new(SIDE, SIDE, NULL, NULL);
  strata_tokens *t = strata_tilemap_tokens(m);
  strata_token_traits wall = {0, 1, "#", "", 0}, mud = {1, 3, "m", "", 0};
  strata_tokens_define(t, "wall", 4, &wall, NULL);
  strata_tokens_define(t, "mud", 3, &mud, NULL);
  strata_token wl = strata_tokens_find(t, "wall", 4), md = strata_tokens_find(t, "mud", 3);
  strata_token fl = strata_tokens_intern(t, "floor", 5, NULL);
  for (int y = 0; y < SIDE; y++)
    for (int x = 0; x < SIDE; x++) strata_tilemap_set(m, x, y, strata_rng_chance(&r, 0.25) ? wl : fl, NULL);
  /* a second map of the same size with mud too: the generic and bucket engines */
  strata_tilemap *m2 = strata_tilemap_clone(m, NULL);
  for (int i = 0; i < SIDE * SIDE / 5; i++)
    strata_tilemap_reset(m2, (int)strata_rng_below(&r, SIDE), (int)strata_rng_below(&r, SIDE), md, NULL);

  const strata_tilemap *maps[2] = {m, m2};
  strata_grid_search *alone = strata_grid_search_new(NULL);
  strata_path p;
  strata_path_init(&p);
  for (int which = 0; which < 2; which++) {
    request req[REQUESTS];
    for (int k = 0; k < REQUESTS; k++) {
      request *q = &req[k];
      q->x1 = (int)strata_rng_below(&r, SIDE), q->y1 = (int)strata_rng_below(&r, SIDE);
      q->x2 = (int)strata_rng_below(&r, SIDE), q->y2 = (int)strata_rng_below(&r, SIDE);
      strata_grid_options_init(&q->o);
      q->o.algorithm = (strata_path_algorithm)(k % 4);
      q->o.connectivity = k % 3 ? 8 : 4;
      q->o.diagonal_cost = k % 5 ? M_SQRT2 : 1;
      CHECK(strata_grid_search_run(alone, maps[which], q->x1, q->y1, q->x2, q->y2, &q->o, &p, NULL) ==
            STRATA_OK);
      q->cost = p.len ? p.cost : -1;
      q->len = p.len;
    }
    job jobs[2] = {{maps[which], req, 0, 0, 0}, {maps[which], req, REQUESTS / 2, 0, 0}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&th[i], NULL, search_all, &jobs[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < 2; i++) {
      CHECK_EQ_INT(jobs[i].failures, 0);
      CHECK_EQ_INT(jobs[i].mismatches, 0);
    }
  }
  strata_path_free(&p);
  strata_grid_search_free(alone);
  strata_tilemap_free(m);
  strata_tilemap_free(m2);
  return check_summary("grid_threads");
}
