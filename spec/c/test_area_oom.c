/* test_area_oom.c - every allocation of an area operation fails in turn
** (generation, unique areas, travel, deletion, features, events, time): an
** operation that then fails has changed nothing, and nothing leaks or
** crashes (run under ASan). */
#include <stdlib.h>

#include "area_fixture.h"
#include "check.h"
#include "world_dump.h"

#include "failing_alloc.h" /* __wrap_malloc & co.: CMake wraps this test's allocator */

static strata_registry *reg;

typedef struct scene {
  strata_world *w;
  strata_runtime *rt;
  uint64_t hero, cave, f1, child, overworld, door;
} scene;

/* with_world: the unique overworld (and its unique areas) made, the hero on it. */
static void setup(scene *s, int with_world) {
  strata_error err;
  memset(s, 0, sizeof *s);
  s->w = strata_world_new(3, &err);
  s->rt = dungeon_runtime(s->w, reg);
  strata_world_create(s->w, "actor", NULL, &s->hero, &err);
  strata_set_player(s->rt, s->hero, &err);
  strata_area_create(s->rt, "dungeon.cave", NULL, &s->cave, &err);
  strata_area_create(s->rt, "dungeon.endless", &(strata_area_opts){ .parent = s->cave }, &s->child, &err);
  strata_area_floor(s->rt, s->cave, 1, &s->f1, &err);
  strata_world_subscribe(s->w, s->f1, "base.map_entered", "dungeon.noop", NULL, 3, NULL, &err);
  if (with_world) {
    strata_get_or_create_map(s->rt, "dungeon.world", NULL, &s->overworld, &err);
    strata_travel(s->rt, s->hero, s->overworld, NULL, NULL, &err);
    uint64_t list[16];
    size_t n = strata_map_objects(s->rt, s->overworld, "feature", list, 16);
    for (size_t i = 0; i < n; i++)
      if (strcmp(strata_area_unique_id(s->rt, strata_feature_target(s->rt, list[i], NULL, NULL)),
                 "dungeon.deep_cave") == 0)
        s->door = list[i];
  } else {
    strata_travel(s->rt, s->hero, s->f1, NULL, NULL, &err);
  }
}

static void teardown(scene *s) {
  strata_runtime_free(s->rt);
  strata_world_free(s->w);
}

/* ---- the operations ---- */

static strata_status op_create_area(scene *s, strata_error *err) {
  strata_value params = strata_value_nil(), k = fx_str("theme"), v = fx_str("ice");
  strata_status st = strata_value_table(&params, err);
  if (!st && k.type != STRATA_VNIL && v.type != STRATA_VNIL) strata_vtable_set(params.u.t, &k, &v, NULL);
  strata_value_clear(&k);
  strata_value_clear(&v);
  uint64_t a;
  if (!st) st = strata_area_create(s->rt, "dungeon.cave", &(strata_area_opts){ .parent = s->cave, .params = &params }, &a, err);
  strata_value_clear(&params);
  return st;
}

static strata_status op_floor(scene *s, strata_error *err) {
  uint64_t m;
  return strata_area_floor(s->rt, s->cave, 2, &m, err);
}

static strata_status op_unique(scene *s, strata_error *err) {
  uint64_t m;
  return strata_get_or_create_map(s->rt, "dungeon.world", NULL, &m, err);
}

static strata_status op_travel_entrance(scene *s, strata_error *err) {
  uint64_t m;
  return strata_travel(s->rt, s->hero, s->door, NULL, &m, err);
}

static strata_status op_travel_stairs(scene *s, strata_error *err) {
  uint64_t list[16], m;
  size_t n = strata_map_objects(s->rt, s->f1, "feature", list, 16);
  for (size_t i = 0; i < n; i++)
    if (strata_feature_floor_delta(s->rt, list[i]) == 1) return strata_travel(s->rt, s->hero, list[i], NULL, &m, err);
  return STRATA_ENOTFOUND;
}

static strata_status op_delete(scene *s, strata_error *err) {
  return strata_area_delete(s->rt, s->cave, 1, err);
}

static strata_status op_features(scene *s, strata_error *err) {
  uint64_t f;
  strata_status st = strata_entrance_create(s->rt, s->f1, 5, 5, s->child, &(int64_t){ 2 }, &f, err);
  if (!st) st = strata_stairs_create(s->rt, s->f1, 6, 6, 1, &f, err);
  return st;
}

static strata_status op_forget(scene *s, strata_error *err) {
  return strata_area_forget_floor(s->rt, s->cave, 1, err);
}

static strata_status op_set_archetype(scene *s, strata_error *err) {
  return strata_map_set_archetype(s->rt, s->f1, "dungeon.plain", err);
}

static strata_status op_emit(scene *s, strata_error *err) {
  strata_value res = strata_value_nil(), yes = strata_value_bool(1);
  strata_status st = strata_emit(s->rt, s->hero, "base.before_travel", NULL, &yes, &res, err);
  strata_value_clear(&res);
  return st;
}

static strata_status op_advance(scene *s, strata_error *err) {
  strata_failures f = { NULL, 0, 0 };
  strata_status st = strata_advance(s->rt, 250, &f, err);
  strata_failures_clear(&f);
  return st;
}

typedef struct op {
  const char *name;
  strata_status (*fn)(scene *, strata_error *);
  int with_world;
  int atomic; /* 1: a failure changes nothing; 2: and it never fails (failures are reported) */
} op;

static const op ops[] = {
  { "create_area", op_create_area, 0, 1 }, { "floor", op_floor, 0, 1 },
  { "unique", op_unique, 0, 1 }, { "travel_entrance", op_travel_entrance, 1, 1 },
  { "travel_stairs", op_travel_stairs, 0, 1 }, { "delete", op_delete, 1, 1 },
  { "features", op_features, 0, 0 }, { "forget", op_forget, 1, 1 },
  { "set_archetype", op_set_archetype, 0, 1 }, { "emit", op_emit, 0, 1 },
  { "advance", op_advance, 0, 2 },
};

static void run(const op *o) {
  scene s;
  strata_error err;
  /* the allocations of a clean run */
  setup(&s, o->with_world);
  armed = 1;
  allocations = 0;
  fail_at = -1;
  CHECK_EQ_INT(o->fn(&s, &err), STRATA_OK);
  armed = 0;
  long total = allocations;
  teardown(&s);
  int failures = 0, mismatches = 0;
  for (long k = 1; k <= total; k++) {
    setup(&s, o->with_world);
    char *before = dump(s.w);
    armed = 1;
    allocations = 0;
    fail_at = k;
    strata_status st = o->fn(&s, &err);
    armed = 0;
    if (st) {
      failures++;
      char *after = dump(s.w);
      if (o->atomic && strcmp(before, after) != 0) {
        if (!mismatches) fprintf(stderr, "%s: allocation %ld failed (%s) and the world changed\n", o->name, k, err.message);
        mismatches++;
      }
      free(after);
    }
    CHECK_EQ_INT(strata_world_depth(s.w), 0);
    free(before);
    teardown(&s);
  }
  CHECK_EQ_INT(mismatches, 0);
  if (o->atomic == 2) CHECK_EQ_INT(failures, 0); /* handlers' failures are reported, not returned */
  else CHECK(failures > 0);
  printf("%s: %ld allocations, %d failing runs\n", o->name, total, failures);
}

int main(void) {
  reg = dungeon_registry();
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) run(&ops[i]);
  strata_registry_free(reg);
  return check_summary("test_area_oom");
}
