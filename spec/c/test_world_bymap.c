/* test_world_bymap.c - the world's index of objects by map
** (strata_world_objects_on): always what a scan of every object finds, after
** creations, moves, deletions, rollbacks of each, a save and an open, and
** allocations that fail; and an index, not a scan (issue 30). */
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "failing_alloc.h" /* __wrap_malloc & co.: allocations that fail */
#include "strata/world.h"
#include "world_internal.h" /* the index's own entries */

#define MAXN 512

/* The objects on map as a scan finds them (the index's definition). */
static size_t scan(const strata_world *w, uint64_t map, const char *kind, uint64_t *out) {
  size_t n = 0;
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    if (o->has_pos && o->map == map && (!kind || strcmp(o->kind, kind) == 0)) out[n++] = o->uid;
  return n;
}

/* The index agrees with the scan on every map uid up to the world's counter. */
static int agrees(const strata_world *w, const char *kind) {
  uint64_t a[MAXN], b[MAXN];
  for (uint64_t map = 1; map <= 64; map++) {
    size_t n = scan(w, map, kind, a);
    size_t m = strata_world_objects_on(w, map, kind, b, MAXN);
    if (n != m || memcmp(a, b, n * sizeof *a) != 0) {
      fprintf(stderr, "map #%llu: the index has %zu objects, a scan %zu\n", (unsigned long long)map, m, n);
      return 0;
    }
  }
  return 1;
}

static uint64_t make(strata_world *w, const char *kind) {
  uint64_t uid = 0;
  CHECK_EQ_INT(strata_world_create(w, kind, NULL, &uid, NULL), STRATA_OK);
  return uid;
}

static void put(strata_world *w, uint64_t uid, uint64_t map, int64_t x) {
  CHECK_EQ_INT(strata_object_set_position(w, uid, map, x, 0, NULL), STRATA_OK);
}

static void test_basics(void) {
  strata_world *w = strata_world_new(1, NULL);
  uint64_t m1 = make(w, "map"), m2 = make(w, "map");
  uint64_t a = make(w, "actor"), b = make(w, "feature"), c = make(w, "actor");
  CHECK_EQ_INT(strata_world_objects_on(w, m1, NULL, NULL, 0), 0);
  put(w, c, m1, 1);
  put(w, a, m1, 2);
  put(w, b, m2, 3);
  uint64_t out[4] = {0};
  CHECK_EQ_INT(strata_world_objects_on(w, m1, NULL, out, 4), 2);
  CHECK(out[0] == a && out[1] == c); /* uid order, whatever the order of arrival */
  CHECK_EQ_INT(strata_world_objects_on(w, m1, NULL, out, 1), 2); /* the count, past cap */
  CHECK_EQ_INT(strata_world_objects_on(w, m2, "feature", out, 4), 1);
  CHECK_EQ_INT(strata_world_objects_on(w, m2, "actor", out, 4), 0);
  put(w, a, m1, 5); /* a move on the same map */
  put(w, a, m2, 0);
  CHECK(agrees(w, NULL) && agrees(w, "actor"));
  CHECK_EQ_INT(strata_world_delete(w, c, NULL), STRATA_OK);
  CHECK(agrees(w, NULL));
  CHECK_EQ_INT(strata_world_objects_on(w, m1, NULL, out, 4), 0);
  /* an index: an entry per map with objects, none for the others */
  CHECK_EQ_INT(w->bymap_n, 1);
  strata_world_free(w);
}

/* A fixed pseudo-random walk of creations, moves and deletions, in nested
** savepoints that are committed or rolled back. */
static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n) {
  rnd_state = rnd_state * 1103515245u + 12345u;
  return (rnd_state >> 8) % n;
}

static void churn(strata_world *w, int steps) {
  static const char *const kinds[] = {"actor", "feature", "thing"};
  for (int i = 0; i < steps; i++) {
    uint64_t uid = 1 + rnd((unsigned)strata_world_next_uid(w));
    switch (rnd(4)) {
    case 0: make(w, kinds[rnd(3)]); break;
    case 1: case 2:
      if (strata_world_object(w, uid)) put(w, uid, 1 + rnd(8), rnd(5));
      break;
    case 3:
      if (uid > 8 && strata_world_object(w, uid)) CHECK_EQ_INT(strata_world_delete(w, uid, NULL), STRATA_OK);
      break;
    }
  }
}

static void test_savepoints(void) {
  strata_world *w = strata_world_new(1, NULL);
  for (int i = 0; i < 8; i++) make(w, "map");
  churn(w, 200);
  CHECK(agrees(w, NULL));
  for (int round = 0; round < 40; round++) {
    CHECK_EQ_INT(strata_world_begin(w, NULL), STRATA_OK);
    churn(w, 30);
    CHECK_EQ_INT(strata_world_begin(w, NULL), STRATA_OK);
    churn(w, 30);
    CHECK(agrees(w, NULL));
    if (rnd(2)) strata_world_rollback(w); else strata_world_commit(w);
    CHECK(agrees(w, NULL));
    churn(w, 10);
    if (rnd(2)) strata_world_rollback(w); else strata_world_commit(w);
    CHECK(agrees(w, NULL) && agrees(w, "actor"));
  }
  strata_world_free(w);
}

static void test_reopen(void) {
  strata_world *w = strata_world_new(1, NULL);
  for (int i = 0; i < 8; i++) make(w, "map");
  churn(w, 300);
  char path[] = "/tmp/strata_test_bymap_XXXXXX";
  close(mkstemp(path));
  strata_error err;
  CHECK_EQ_INT(strata_world_save(w, path, NULL, 0, &err), STRATA_OK);
  strata_world *r = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  CHECK_EQ_INT(strata_world_open(path, &r, &mods, &nmods, &err), STRATA_OK);
  strata_mod_versions_free(mods, nmods);
  if (r) {
    CHECK(agrees(r, NULL));
    uint64_t a[MAXN], b[MAXN];
    for (uint64_t map = 1; map <= 8; map++) {
      size_t n = strata_world_objects_on(w, map, NULL, a, MAXN);
      CHECK_EQ_INT(strata_world_objects_on(r, map, NULL, b, MAXN), n);
      CHECK(memcmp(a, b, n * sizeof *a) == 0);
    }
    /* and it goes on being kept in the opened world */
    churn(r, 100);
    CHECK(agrees(r, NULL));
    strata_world_free(r);
  }
  unlink(path);
  strata_world_free(w);
}

/* Every allocation of a move, of a rollback and of a query failing in turn:
** the move fails whole or succeeds, and the index still agrees. */
static void test_out_of_memory(void) {
  int lost = 0; /* the index lost at least once (its rebuild tested) */
  for (long k = 1; k < 60; k++) {
    strata_world *w = strata_world_new(1, NULL);
    for (int i = 0; i < 8; i++) make(w, "map");
    churn(w, 60);
    CHECK_EQ_INT(strata_world_begin(w, NULL), STRATA_OK);
    allocations = 0, fail_at = k, armed = 1;
    for (uint64_t uid = 9; uid < strata_world_next_uid(w); uid++)
      if (strata_world_object(w, uid)) strata_object_set_position(w, uid, 1 + uid % 3, 0, 0, NULL);
    armed = 0;
    lost |= w->bymap_lost;
    CHECK(agrees(w, NULL));
    allocations = 0, fail_at = k, armed = 1;
    strata_world_rollback(w);
    uint64_t out[MAXN];
    strata_world_objects_on(w, 1, NULL, out, MAXN);
    armed = 0;
    CHECK(agrees(w, NULL));
    strata_world_free(w);
  }
  CHECK(lost);
}

int main(void) {
  test_basics();
  test_savepoints();
  test_reopen();
  test_out_of_memory();
  return check_summary("world_bymap");
}
