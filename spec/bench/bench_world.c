/* bench_world.c - save and open of a world of 100,000 objects, each with a
** small property table (3 entries), plus 1,000 timers and subscriptions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "strata/value.h"
#include "strata/world.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set_str(strata_value *t, const char *k, const char *s) {
  strata_value key, v;
  strata_value_string(&key, k, strlen(k), NULL);
  strata_value_string(&v, s, strlen(s), NULL);
  strata_vtable_set(t->u.t, &key, &v, NULL);
  strata_value_clear(&key);
}

static void set_int(strata_value *t, const char *k, int64_t i) {
  strata_value key, v = strata_value_int(i);
  strata_value_string(&key, k, strlen(k), NULL);
  strata_vtable_set(t->u.t, &key, &v, NULL);
  strata_value_clear(&key);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 100000;
  const char *path = "/tmp/strata_bench_world.db";
  strata_error err;
  strata_world *w = strata_world_new(42, &err);
  uint64_t map;
  strata_world_create(w, "map", "base.cave", &map, &err);
  for (int i = 0; i < n; i++) {
    uint64_t uid;
    strata_world_create(w, "actor", "base.goblin", &uid, &err);
    strata_object_set_position(w, uid, map, i % 200, i / 200, &err);
    strata_object *o = strata_world_object(w, uid);
    set_int(&o->props, "hp", 10 + i % 7);
    set_str(&o->props, "name", "goblin");
    set_int(&o->props, "gold", i);
  }
  for (int i = 0; i < 1000; i++) {
    strata_value args = strata_value_int(i);
    strata_world_schedule(w, i, 0, "base.tick", &args, NULL, &err);
    strata_world_subscribe(w, map, "base.map_entered", "base.greet", &args, i, NULL, &err);
  }
  strata_mod_version mods[1] = { { "base", "0.1.0" } };
  double best_save = 1e9, best_open = 1e9;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = now();
    if (strata_world_save(w, path, mods, 1, &err)) { fprintf(stderr, "save: %s\n", err.message); return 1; }
    double t1 = now();
    strata_world *w2;
    strata_mod_version *mv;
    size_t nm;
    if (strata_world_open(path, &w2, &mv, &nm, &err)) { fprintf(stderr, "open: %s\n", err.message); return 1; }
    double t2 = now();
    if (strata_world_count(w2) != strata_world_count(w)) { fprintf(stderr, "count mismatch\n"); return 1; }
    strata_world_free(w2);
    strata_mod_versions_free(mv, nm);
    if (t1 - t0 < best_save) best_save = t1 - t0;
    if (t2 - t1 < best_open) best_open = t2 - t1;
  }
  struct stat st;
  stat(path, &st);
  printf("%-34s %10s %10s %10s\n", "world save/open (best of 3)", "objects", "ms", "target");
  printf("%-34s %10d %10.1f %10s\n", "save (one transaction + rename)", n, best_save * 1e3, "<= 200");
  printf("%-34s %10d %10.1f %10s\n", "open (validate + rebuild)", n, best_open * 1e3, "<= 200");
  printf("file size: %.1f MB\n", (double)st.st_size / 1e6);
  unlink(path);
  strata_world_free(w);
  return 0;
}
