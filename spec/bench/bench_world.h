/*
** bench_world.h - the large world that bench_world.c (saves to a file, its
** journal modes) and bench_store.c (PostgreSQL beside SQLite) both time, so
** that their figures are of one workload: N objects, each an actor with a
** 3-entry property table and a position on one of MAPS maps of 80x80 cells,
** 1,000 timers and 1,000 subscriptions; and the change between two
** incremental saves, 100 objects' properties and 10 cells in 10 maps.
*/
#ifndef BENCH_WORLD_H
#define BENCH_WORLD_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "strata/tilemap.h"
#include "strata/tokens.h"
#include "strata/value.h"
#include "strata/world.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of the process: what a save costs apart from waiting for the disk. */
static double cpu(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what, const strata_error *err) {
  fprintf(stderr, "%s: %s\n", what, err->message);
  exit(1);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
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

/* The maps of w (nmaps, their uids into maps): floor, walls top and bottom, 40 coins. */
static void bench_world_maps(strata_world *w, int nmaps, uint64_t *maps) {
  strata_error err;
  strata_tokens *tk = strata_world_tokens(w);
  strata_token floor = strata_tokens_intern(tk, "floor", 5, NULL),
               wall = strata_tokens_intern(tk, "wall", 4, NULL),
               coin = strata_tokens_intern(tk, "coin", 4, NULL);
  for (int i = 0; i < nmaps; i++) {
    if (strata_world_create_map(w, 80, 80, "base.cave", &maps[i], &err)) die("map", &err);
    strata_tilemap *m = strata_world_tilemap(w, maps[i]);
    strata_tilemap_clear(m, floor, &err);
    strata_tilemap_fill_rect(m, 0, 0, 80, 1, wall, 0, &err);
    strata_tilemap_fill_rect(m, 0, 79, 80, 1, wall, 0, &err);
    for (int k = 0; k < 40; k++) strata_tilemap_set(m, (k * 37 + i) % 80, (k * 11) % 78 + 1, coin, &err);
  }
}

/* The objects of w (n actors, their uids into actors) on the maps, then the timers and subscriptions. */
static void bench_world_objects(strata_world *w, int n, uint64_t *actors, int nmaps, const uint64_t *maps) {
  strata_error err;
  for (int i = 0; i < n; i++) {
    uint64_t uid;
    if (strata_world_create(w, "actor", "base.goblin", &uid, &err)) die("create", &err);
    actors[i] = uid;
    strata_object_set_position(w, uid, maps[i % nmaps], i % 80, (i / 80) % 80, &err);
    strata_object *o = strata_world_object(w, uid);
    set_int(&o->props, "hp", 10 + i % 7);
    set_str(&o->props, "name", "goblin");
    set_int(&o->props, "gold", i);
  }
  for (int i = 0; i < 1000; i++) {
    strata_value args = strata_value_int(i);
    strata_world_schedule(w, i, i % 2 ? 5 : 0, "base.tick", &args, NULL, &err);
    strata_world_subscribe(w, maps[i % nmaps], "base.map_entered", "base.greet", &args, i, NULL, &err);
  }
}

/* The change before an incremental save, the round-th: 100 objects' "gold"
** (through strata_object_set) and one cell in each of 10 maps. */
static void bench_world_change(strata_world *w, const uint64_t *actors, int n, const uint64_t *maps, int nmaps,
                               int round) {
  strata_error err;
  strata_token door = strata_tokens_intern(strata_world_tokens(w), "door", 4, NULL);
  for (int i = 0; i < 100; i++) {
    uint64_t uid = actors[((uint64_t)round * 7919 + (uint64_t)i * 104729) % (uint64_t)n];
    strata_value key, v = strata_value_int(round);
    strata_value_string(&key, "gold", 4, NULL);
    if (strata_object_set(w, uid, &key, 1, &v, &err)) die("set", &err);
    strata_value_clear(&key);
  }
  for (int i = 0; i < 10; i++) {
    uint64_t m = maps[(round * 10 + i) % nmaps];
    if (strata_world_touch(w, m, &err)) die("touch", &err);
    if (strata_tilemap_set(strata_world_tilemap(w, m), (round + i) % 80, i, door, &err)) die("cell", &err);
  }
}

#endif
