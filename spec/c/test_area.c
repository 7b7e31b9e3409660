/* test_area.c - areas, floors, stairs, travel, unique areas, restock and
** renew, through the C API alone (the scenarios of spec/areas_spec.lua),
** with generators and hooks registered by ID (area_fixture.h). */
#include <stdlib.h>
#include <unistd.h>

#include "area_fixture.h"
#include "check.h"
#include "world_dump.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)

static strata_error err;

/* A map of w x h filled with `fill`, no archetype. */
static uint64_t plain_map(strata_runtime *rt, int w, int h, const char *fill) {
  uint64_t m = 0;
  OK(strata_map_create(rt, w, h, NULL, &m, &err));
  if (fill) OK(strata_tilemap_clear(strata_world_tilemap(strata_runtime_world(rt), m),
                                    fx_tok(strata_runtime_world(rt), fill), &err));
  return m;
}

static uint64_t actor(strata_runtime *rt, uint64_t map, int64_t x, int64_t y, int player) {
  strata_world *w = strata_runtime_world(rt);
  uint64_t a = 0;
  OK(strata_world_create(w, "actor", NULL, &a, &err));
  if (map) OK(strata_object_set_position(w, a, map, x, y, &err));
  if (player) OK(strata_set_player(rt, a, &err));
  return a;
}

/* The first feature on map of that type (and floor_delta, for stairs). */
static uint64_t feature(strata_runtime *rt, uint64_t map, strata_feature_type type, int64_t delta) {
  uint64_t list[64];
  size_t n = strata_map_objects(rt, map, "feature", list, 64);
  for (size_t i = 0; i < n && i < 64; i++)
    if (strata_feature_type_of(rt, list[i]) == type &&
        (type != STRATA_FEATURE_STAIRS || strata_feature_floor_delta(rt, list[i]) == delta))
      return list[i];
  return 0;
}

static size_t count_features(strata_runtime *rt, uint64_t map, strata_feature_type type) {
  uint64_t list[64];
  size_t n = strata_map_objects(rt, map, "feature", list, 64), k = 0;
  for (size_t i = 0; i < n && i < 64; i++) k += strata_feature_type_of(rt, list[i]) == type;
  return k;
}

/* The entrance on map into the unique area `id`. */
static uint64_t entrance_to(strata_runtime *rt, uint64_t map, const char *id) {
  uint64_t list[64];
  size_t n = strata_map_objects(rt, map, "feature", list, 64);
  for (size_t i = 0; i < n && i < 64; i++) {
    if (strata_feature_type_of(rt, list[i]) != STRATA_FEATURE_ENTRANCE) continue;
    const char *u = strata_area_unique_id(rt, strata_feature_target(rt, list[i], NULL, NULL));
    if (u && strcmp(u, id) == 0) return list[i];
  }
  return 0;
}

static strata_object *obj(strata_runtime *rt, uint64_t uid) {
  return strata_world_object(strata_runtime_world(rt), uid);
}

static uint64_t travel(strata_runtime *rt, uint64_t who, uint64_t target) {
  uint64_t m = 0;
  if (strata_travel(rt, who, target, NULL, &m, &err)) fprintf(stderr, "travel: %s\n", err.message);
  return m;
}

/* ---- a ten-floor dungeon, lazily ---- */

static void test_ten_floors(strata_registry *reg) {
  strata_world *w = strata_world_new(5, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t top = plain_map(rt, 30, 20, "grass"), surface, cave, door, m = 0;
  OK(strata_area_create(rt, "dungeon.town", NULL, &surface, &err));
  OK(strata_area_add_floor(rt, surface, top, 1, &err));
  OK(strata_area_create(rt, "dungeon.cave", &(strata_area_opts){ .parent = surface }, &cave, &err));
  OK(strata_entrance_create(rt, top, 12, 7, cave, NULL, &door, &err));
  uint64_t hero = actor(rt, top, 0, 0, 1);
  CHECK_EQ_INT(strata_area_floors(rt, cave, NULL, NULL, 0), 0);
  m = travel(rt, hero, door);
  int64_t floor = 0, dv = 0;
  CHECK(strata_map_area(rt, m, &floor) == cave);
  CHECK_EQ_INT(floor, 1);
  CHECK_EQ_INT(obj(rt, hero)->x, 1); /* on the stairs leading back up */
  CHECK_EQ_INT(obj(rt, hero)->y, 1);
  for (int64_t n = 2; n <= 10; n++) {
    CHECK_EQ_INT(strata_area_floor_map(rt, cave, n), 0); /* not before someone goes there */
    m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, 1));
    strata_map_area(rt, m, &floor);
    CHECK_EQ_INT(floor, n);
    CHECK(strata_current_area(rt, &floor) == cave);
    CHECK_EQ_INT(floor, n);
    CHECK(strata_area_deepest_visited(rt, cave, &dv));
    CHECK_EQ_INT(dv, n);
  }
  CHECK_EQ_INT(feature(rt, m, STRATA_FEATURE_STAIRS, 1), 0); /* floor 10: no way further down */
  CHECK_EQ_INT(strata_stairs_create(rt, m, 2, 2, 1, NULL, &err), STRATA_EARG);
  char want[160];
  snprintf(want, sizeof want, "floor 10 of area#%llu is the deepest (10): no stairs lead below it",
           (unsigned long long)cave);
  CHECK_STR(err.message, want); /* the function is a field of its own */
  CHECK_STR(err.function, "strata_stairs_create");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_DEEPEST);
  CHECK(err.subject[0] == cave);
  CHECK_EQ_INT(strata_area_floor(rt, cave, 11, NULL, &err), STRATA_EARG);
  CHECK_HAS(err.message, "below the deepest floor (10)");
  for (int64_t n = 9; n >= 1; n--) {
    m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, -1));
    strata_map_area(rt, m, &floor);
    CHECK_EQ_INT(floor, n);
  }
  CHECK_EQ_INT(obj(rt, hero)->x, 18); /* arrived on floor 1's stairs down */
  CHECK_EQ_INT(obj(rt, hero)->y, 8);
  m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, -1));
  CHECK(m == top);
  CHECK_EQ_INT(obj(rt, hero)->x, 12);
  CHECK_EQ_INT(obj(rt, hero)->y, 7);
  CHECK(strata_current_area(rt, NULL) == surface);
  int64_t x, y;
  CHECK(strata_area_child_position(rt, surface, cave, &x, &y, &floor));
  CHECK(x == 12 && y == 7 && floor == 1);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- floors, fields and relations ---- */

static void test_fields(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  strata_value params, k = fx_str("theme"), v = fx_str("ice");
  strata_value_table(&params, NULL);
  strata_vtable_set(params.u.t, &k, &v, NULL);
  strata_value_clear(&k);
  uint64_t a, m, f2, again, child, other;
  OK(strata_area_create(rt, "dungeon.cave", &(strata_area_opts){ .params = &params }, &a, &err));
  strata_value_clear(&params);
  CHECK_STR(obj(rt, a)->archetype, "dungeon.cave");
  CHECK_EQ_INT(strata_area_starting_floor(rt, a), 1);
  int64_t n;
  CHECK(strata_area_deepest_floor(rt, a, &n) && n == 10);
  CHECK(!strata_area_deepest_visited(rt, a, &n));
  const strata_value *theme = strata_vtable_get_str(strata_area_params(rt, a)->u.t, "theme");
  CHECK(theme && strcmp(theme->u.str.s, "ice") == 0);
  const strata_value *boss = fx_prop2(w, a, "meta", "boss");
  CHECK(boss && strcmp(boss->u.str.s, "none") == 0);
  CHECK(!strata_area_is_conquered(rt, a));
  OK(strata_area_set_conquered(rt, a, 1, &err));
  CHECK(strata_area_is_conquered(rt, a));
  m = plain_map(rt, 4, 4, "floor");
  OK(strata_area_add_floor(rt, a, m, 3, &err));
  int64_t floor;
  CHECK(strata_map_area(rt, m, &floor) == a && floor == 3);
  CHECK_EQ_INT(strata_map_level(rt, m), 3); /* level defaults to the floor ... */
  OK(strata_map_set_level(rt, m, 40, &err));  /* ... and is separate from it */
  CHECK_EQ_INT(strata_map_level(rt, m), 40);
  strata_map_area(rt, m, &floor);
  CHECK_EQ_INT(floor, 3);
  uint64_t got = 0;
  OK(strata_area_floor(rt, a, 3, &got, &err));
  CHECK(got == m);
  OK(strata_area_floor(rt, a, 2, &f2, &err)); /* generated */
  const strata_value *indoor = fx_prop2(w, f2, "props", "indoor");
  CHECK(indoor && indoor->type == STRATA_VBOOL && indoor->u.b);
  CHECK_STR(fx_log_at(w, f2, 1), "spawn 2");
  int64_t fl[4];
  uint64_t ms[4];
  CHECK_EQ_INT(strata_area_floors(rt, a, fl, ms, 4), 2);
  CHECK(fl[0] == 2 && ms[0] == f2 && fl[1] == 3 && ms[1] == m);
  OK(strata_area_forget_floor(rt, a, 2, &err));
  CHECK(!strata_world_object(w, f2));
  CHECK_EQ_INT(strata_area_floor_map(rt, a, 2), 0);
  OK(strata_area_floor(rt, a, 2, &again, &err));
  CHECK(again != f2 && strata_world_object(w, again));
  OK(strata_area_create(rt, "dungeon.endless", &(strata_area_opts){ .parent = a }, &child, &err));
  OK(strata_area_create(rt, "dungeon.town", NULL, &other, &err));
  uint64_t list[8];
  CHECK_EQ_INT(strata_area_children(rt, a, list, 8), 1);
  CHECK(list[0] == child);
  CHECK(strata_area_parent(rt, child) == a);
  CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .type = "dungeon" }, list, 8), 2);
  CHECK(list[0] == a && list[1] == child);
  CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .type = "endless" }, list, 8), 1);
  CHECK(list[0] == child);
  CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .archetype = "dungeon.town" }, list, 8), 1);
  CHECK(list[0] == other);
  CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .parent = a }, list, 8), 1);
  CHECK(list[0] == child);
  CHECK_EQ_INT(strata_areas(rt, NULL, list, 1), 3); /* all counted, one written */
  CHECK(list[0] == a);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- deleting areas ---- */

static void test_delete(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t root, mid, leaf, thing, list[8];
  OK(strata_area_create(rt, "dungeon.town", NULL, &root, &err));
  OK(strata_area_create(rt, "dungeon.town", &(strata_area_opts){ .parent = root }, &mid, &err));
  OK(strata_area_create(rt, "dungeon.town", &(strata_area_opts){ .parent = mid }, &leaf, &err));
  uint64_t m = plain_map(rt, 3, 3, NULL);
  OK(strata_area_add_floor(rt, mid, m, 1, &err));
  OK(strata_world_create(w, "chest", NULL, &thing, &err));
  OK(strata_object_set_position(w, thing, m, 1, 1, &err));
  OK(strata_area_delete(rt, mid, 0, &err));
  CHECK(!strata_world_object(w, mid) && !strata_world_object(w, m) && !strata_world_object(w, thing));
  CHECK(strata_area_parent(rt, leaf) == root);
  CHECK(strata_area_children(rt, root, list, 8) == 1 && list[0] == leaf);
  CHECK(strata_areas(rt, NULL, list, 8) == 2 && list[0] == root && list[1] == leaf);
  OK(strata_area_delete(rt, root, 1, &err));
  CHECK(!strata_world_object(w, leaf));
  CHECK_EQ_INT(strata_areas(rt, NULL, list, 8), 0);
  /* the player's floor cannot go */
  uint64_t a, f;
  OK(strata_area_create(rt, "dungeon.cave", NULL, &a, &err));
  OK(strata_area_floor(rt, a, 1, &f, &err));
  uint64_t hero = actor(rt, 0, 0, 0, 1);
  travel(rt, hero, f);
  char *before = dump(w);
  CHECK_EQ_INT(strata_area_delete(rt, a, 0, &err), STRATA_ESTATE);
  CHECK_HAS(err.message, "the player is on floor 1");
  CHECK_EQ_INT(strata_area_forget_floor(rt, a, 1, &err), STRATA_ESTATE);
  char *after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- unique areas, saved and reopened ---- */

static void test_unique(strata_registry *reg) {
  char path[] = "/tmp/strata_test_area_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  strata_world *w = strata_world_new(3, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  OK(strata_unique_areas_init(rt, &err));
  CHECK_EQ_INT(strata_find_unique(rt, "dungeon.deep_cave"), 0);
  CHECK_EQ_INT(strata_find_unique(rt, "dungeon.tower"), 0); /* eager, but its parent is not "root" */
  uint64_t overworld, cave, tower, again, list[4];
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &overworld, &err));
  cave = strata_find_unique(rt, "dungeon.deep_cave");
  CHECK(cave != 0);
  CHECK(strata_area_parent(rt, cave) == strata_find_unique(rt, "dungeon.world"));
  uint64_t e = entrance_to(rt, overworld, "dungeon.deep_cave");
  CHECK(e && obj(rt, e)->x == 12 && obj(rt, e)->y == 7);
  CHECK_EQ_INT(count_features(rt, overworld, STRATA_FEATURE_ENTRANCE), 2); /* and the tower's */
  tower = strata_find_unique(rt, "dungeon.tower");
  CHECK(strata_area_floor_map(rt, tower, 2) != 0); /* eager: its starting floor exists */
  CHECK_EQ_INT(strata_area_floor_map(rt, tower, 1), 0);
  /* asking again changes nothing */
  OK(strata_unique_area(rt, "dungeon.deep_cave", &again, &err));
  CHECK(again == cave);
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &again, &err));
  CHECK(again == overworld);
  size_t n = 0;
  OK(strata_regenerate_child_maps(rt, overworld, list, 4, &n, &err));
  CHECK_EQ_INT(n, 2);
  CHECK(list[0] == cave && list[1] == tower);
  CHECK_EQ_INT(count_features(rt, overworld, STRATA_FEATURE_ENTRANCE), 2);
  OK(strata_world_save(w, path, NULL, 0, &err));
  strata_runtime_free(rt);
  strata_world_free(w);
  /* in a new runtime, from the file */
  strata_mod_version *mods;
  size_t nmods;
  OK(strata_world_open(path, &w, &mods, &nmods, &err));
  strata_mod_versions_free(mods, nmods);
  rt = dungeon_runtime(w, reg);
  uint64_t ow2;
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &ow2, &err));
  CHECK(ow2 == overworld);
  OK(strata_unique_area(rt, "dungeon.deep_cave", &again, &err));
  CHECK(again == cave);
  OK(strata_regenerate_child_maps(rt, ow2, NULL, 0, &n, &err));
  CHECK_EQ_INT(count_features(rt, ow2, STRATA_FEATURE_ENTRANCE), 2);
  /* the overworld floor forgotten and generated anew gets its entrances back, once */
  uint64_t hero = actor(rt, 0, 0, 0, 1);
  OK(strata_area_forget_floor(rt, strata_find_unique(rt, "dungeon.world"), 1, &err));
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &again, &err));
  uint64_t fresh = travel(rt, hero, again);
  CHECK(fresh && fresh != overworld);
  CHECK_EQ_INT(count_features(rt, fresh, STRATA_FEATURE_ENTRANCE), 2);
  e = entrance_to(rt, fresh, "dungeon.deep_cave");
  CHECK(e && obj(rt, e)->x == 12 && obj(rt, e)->y == 7);
  /* a cycle of parents, and an unknown ID, are errors */
  CHECK_EQ_INT(strata_unique_area(rt, "dungeon.deep_caev", &again, &err), STRATA_ENOTFOUND);
  CHECK_HAS(err.message, "unknown base.unique_area 'dungeon.deep_caev' (nearest known: dungeon.deep_cave");
  strata_runtime_free(rt);
  strata_world_free(w);
  unlink(path);
}

/* ---- restock and renew ---- */

static void test_restock(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t a, f1, f2;
  strata_failures fails = { NULL, 0, 0 };
  OK(strata_area_create(rt, "dungeon.cave", NULL, &a, &err));
  uint64_t hero = actor(rt, 0, 0, 0, 1);
  OK(strata_area_floor(rt, a, 1, &f1, &err));
  travel(rt, hero, f1);
  CHECK_EQ_INT(fx_log_len(w, f1), 4);
  CHECK_STR(fx_log_at(w, f1, 1), "spawn 1");
  CHECK_STR(fx_log_at(w, f1, 2), "load");
  CHECK_STR(fx_log_at(w, f1, 3), "enter");
  CHECK_STR(fx_log_at(w, f1, 4), "entered event");
  OK(strata_advance(rt, 99, &fails, &err));
  CHECK_EQ_INT(fx_log_len(w, f1), 4); /* not yet due */
  OK(strata_advance(rt, 1, &fails, &err)); /* due at 100: the timer */
  CHECK_STR(fx_log_at(w, f1, 5), "restock 1");
  OK(strata_advance(rt, 250, &fails, &err)); /* 200 and 300 */
  CHECK_STR(fx_log_at(w, f1, 6), "restock 1");
  CHECK_STR(fx_log_at(w, f1, 7), "restock 1");
  CHECK_EQ_INT(fx_log_len(w, f1), 7);
  /* away from the map nothing runs; on return, the intervals missed at once */
  f2 = travel(rt, hero, feature(rt, f1, STRATA_FEATURE_STAIRS, 1));
  CHECK_STR(fx_log_at(w, f1, 8), "leave");
  OK(strata_advance(rt, 720, &fails, &err)); /* time 1070 */
  CHECK_EQ_INT(fx_log_len(w, f1), 8);
  travel(rt, hero, feature(rt, f2, STRATA_FEATURE_STAIRS, -1));
  /* renew due at 1000 (1 interval), restock due at 400 .. 1000 (7 intervals), then enter */
  CHECK_STR(fx_log_at(w, f1, 9), "renew 1");
  CHECK_STR(fx_log_at(w, f1, 10), "restock 7");
  CHECK_STR(fx_log_at(w, f1, 11), "enter");
  CHECK_STR(fx_log_at(w, f1, 12), "entered event");
  CHECK_EQ_INT(fx_log_len(w, f1), 12);
  OK(strata_advance(rt, 29, &fails, &err)); /* 1099: nothing due */
  CHECK_EQ_INT(fx_log_len(w, f1), 12);
  OK(strata_advance(rt, 1, &fails, &err)); /* 1100 */
  CHECK_STR(fx_log_at(w, f1, 13), "restock 1");
  CHECK_EQ_INT(fails.n, 0);
  /* the dues and the timer as areas.lua stores them */
  double due;
  const strata_value *d = fx_prop2(w, f1, "sys", "restock_due");
  CHECK(d && d->type == STRATA_VFLOAT && (due = d->u.f) == 1200);
  const strata_value *t = fx_prop2(w, f1, "sys", "renew_timer");
  CHECK(t && t->type == STRATA_VINT);
  const strata_timer *tm = strata_world_timer_at(w, 0);
  CHECK(tm && t && (int64_t)tm->uid == t->u.i && strcmp(tm->handler, "base.map_renew") == 0 && tm->due == 1200);
  strata_failures_clear(&fails);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- spawn by crowding, renew regenerating the geometry ---- */

/* dungeon.nest on_spawn: one actor at a cell from the spawn stream. */
static strata_status nest_spawn(strata_call *c, void *d, strata_error *e) {
  (void)d;
  uint64_t a;
  TRY(strata_world_create(c->world, "actor", NULL, &a, e));
  return strata_object_set_position(c->world, a, c->map, strata_rng_int(c->rng, 0, 29),
                                    strata_rng_int(c->rng, 0, 19), e);
}

static void test_spawn_renew(strata_registry *reg) {
  /* keep_tags from a list that is gone once added: the registry keeps copies */
  char tag[8] = "shop";
  const char *tags[] = { tag };
  OK(strata_registry_add_map_archetype(reg, &(strata_map_archetype){ .id = "dungeon.fair", .mod = "dungeon",
    .renew_every = 100, .spawn_every = 10, .spawn_max = 3, .keep_tags = tags, .nkeep_tags = 1 }, &err));
  strcpy(tag, "gone");
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE, "dungeon.fair", overworld_generate, NULL, "dungeon", &err));
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_ON_SPAWN, "dungeon.fair", nest_spawn, NULL, "dungeon", &err));
  static const strata_floor_archetype floors[] = { { 1, "dungeon.fair" } };
  OK(strata_registry_add_area_archetype(reg, &(strata_area_archetype){ .id = "dungeon.fair", .mod = "dungeon",
    .floors = floors, .nfloors = 1 }, &err));
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  strata_failures fails = { NULL, 0, 0 };
  uint64_t a, m, shop, junk;
  OK(strata_area_create(rt, "dungeon.fair", NULL, &a, &err));
  OK(strata_area_floor(rt, a, 1, &m, &err));
  CHECK_EQ_INT(strata_map_objects(rt, m, "actor", NULL, 0), 1); /* at generation */
  uint64_t hero = actor(rt, 0, 0, 0, 1);
  travel(rt, hero, m);
  OK(strata_advance(rt, 10, &fails, &err)); /* 2 actors: one more */
  CHECK_EQ_INT(strata_map_objects(rt, m, "actor", NULL, 0), 3);
  OK(strata_advance(rt, 50, &fails, &err)); /* crowded */
  CHECK_EQ_INT(strata_map_objects(rt, m, "actor", NULL, 0), 3);
  OK(strata_world_create(w, "shopkeeper", NULL, &shop, &err));
  OK(strata_object_set_position(w, shop, m, 1, 1, &err));
  OK(strata_object_set_tag(w, shop, "shop", 4, 1, &err));
  OK(strata_world_create(w, "junk", NULL, &junk, &err));
  OK(strata_object_set_position(w, junk, m, 2, 2, &err));
  OK(strata_tilemap_reset(strata_world_tilemap(w, m), 0, 0, fx_tok(w, "rock"), &err));
  OK(strata_advance(rt, 40, &fails, &err)); /* 100: renewed */
  CHECK_EQ_INT(fails.n, 0);
  CHECK(strata_tilemap_top(strata_world_tilemap(w, m), 0, 0) == fx_tok(w, "grass"));
  CHECK(obj(rt, shop) && obj(rt, shop)->map == m);
  CHECK(!obj(rt, junk));
  CHECK_EQ_INT(strata_map_objects(rt, m, "actor", NULL, 0), 3);
  CHECK(strata_area_floor_map(rt, a, 1) == m);
  strata_failures_clear(&fails);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* A spawn period under a timer's shortest (the base schema refuses it): spawns
** at generation only, never a tick at every 0.0001 s. */
static void test_spawn_too_often(strata_registry *reg) {
  OK(strata_registry_add_map_archetype(reg, &(strata_map_archetype){ .id = "dungeon.swarm", .mod = "dungeon",
    .spawn_every = STRATA_TIMER_MIN_EVERY / 10, .spawn_max = INT64_MAX }, &err));
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE, "dungeon.swarm", overworld_generate, NULL, "dungeon", &err));
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_ON_SPAWN, "dungeon.swarm", nest_spawn, NULL, "dungeon", &err));
  static const strata_floor_archetype floors[] = { { 1, "dungeon.swarm" } };
  OK(strata_registry_add_area_archetype(reg, &(strata_area_archetype){ .id = "dungeon.swarm", .mod = "dungeon",
    .floors = floors, .nfloors = 1 }, &err));
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  strata_failures fails = { NULL, 0, 0 };
  uint64_t a, m;
  OK(strata_area_create(rt, "dungeon.swarm", NULL, &a, &err));
  OK(strata_area_floor(rt, a, 1, &m, &err));
  travel(rt, actor(rt, 0, 0, 0, 1), m);
  OK(strata_advance(rt, 1, &fails, &err));
  CHECK_EQ_INT(fails.n, 0);
  CHECK_EQ_INT(strata_map_objects(rt, m, "actor", NULL, 0), 2); /* the generation's and the player */
  strata_failures_clear(&fails);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- travel rules ---- */

static void test_travel_rules(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t town, m1, m2, got;
  OK(strata_area_create(rt, "dungeon.town", NULL, &town, &err));
  OK(strata_map_create(rt, 10, 10, "dungeon.plain", &m1, &err));
  m2 = plain_map(rt, 10, 10, "floor");
  OK(strata_area_add_floor(rt, town, m1, 1, &err));
  OK(strata_area_add_floor(rt, town, m2, 2, &err));
  uint64_t hero = actor(rt, 0, 0, 0, 1);
  CHECK(travel(rt, hero, m1) == m1);
  CHECK(obj(rt, hero)->x == 2 && obj(rt, hero)->y == 3); /* the archetype's starting_pos */
  CHECK(travel(rt, hero, m2) == m2);
  CHECK(obj(rt, hero)->x == 5 && obj(rt, hero)->y == 5); /* the centre */
  OK(strata_travel(rt, hero, m1, &(strata_travel_opts){ 1, 7, 8 }, &got, &err));
  CHECK(obj(rt, hero)->x == 7 && obj(rt, hero)->y == 8); /* explicit */
  CHECK_EQ_INT(strata_travel(rt, hero, m2, &(strata_travel_opts){ 1, 10, 0 }, &got, &err), STRATA_EARG);
  CHECK_HAS(err.message, "(10, 0) is outside");
  CHECK(obj(rt, hero)->map == m1);
  OK(fx_set2(w, hero, "state", "grounded", strata_value_bool(1), &err));
  char *before = dump(w);
  OK(strata_travel(rt, hero, m2, NULL, &got, &err));
  CHECK_EQ_INT(got, 0); /* stopped by before_travel */
  CHECK(obj(rt, hero)->map == m1);
  char *after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  OK(fx_set2(w, hero, "state", "grounded", strata_value_bool(0), &err));
  /* a map's archetype changes, and its events with it */
  OK(strata_map_set_archetype(rt, m2, "dungeon.plain", &err));
  travel(rt, hero, m2);
  CHECK_STR(fx_log_at(w, m2, 1), "plain event");
  OK(strata_map_set_archetype(rt, m2, NULL, &err));
  travel(rt, hero, m1);
  travel(rt, hero, m2);
  CHECK_EQ_INT(fx_log_len(w, m2), 1);
  /* temporary maps are forgotten on leaving and generated anew next time */
  uint64_t cave, f1, again;
  OK(strata_area_create(rt, "dungeon.endless", NULL, &cave, &err));
  OK(strata_area_floor(rt, cave, 1, &f1, &err));
  OK(fx_set2(w, f1, "props", "temporary", strata_value_bool(1), &err));
  travel(rt, hero, f1);
  travel(rt, hero, m1);
  CHECK(!strata_world_object(w, f1));
  CHECK_EQ_INT(strata_area_floor_map(rt, cave, 1), 0);
  OK(strata_area_floor(rt, cave, 1, &again, &err));
  CHECK(travel(rt, hero, again) == again && again != f1);
  int64_t floor;
  CHECK(strata_current_map(rt) == again);
  CHECK(strata_current_area(rt, &floor) == cave && floor == 1);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- errors change nothing ---- */

static void test_errors(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t a, r, older;
  char want[200];
  OK(strata_area_create(rt, "dungeon.hollow", NULL, &a, &err));
  char *before = dump(w), *after;
  CHECK_EQ_INT(strata_area_floor(rt, a, 1, NULL, &err), STRATA_EARG);
  snprintf(want, sizeof want, "area generator 'dungeon.nothing' returned nil for floor 1 of area#%llu: "
           "expected a map (world:create_map, strata_map_create)", (unsigned long long)a);
  CHECK_STR(err.message, want);
  after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  /* a generator failing after making things, to new objects and an older one */
  older = plain_map(rt, 3, 3, "floor");
  OK(strata_area_create(rt, "dungeon.rubble", NULL, &r, &err));
  fx_older = older;
  before = dump(w);
  size_t streams = strata_world_stream_count(w);
  CHECK_EQ_INT(strata_area_floor(rt, r, 1, NULL, &err), STRATA_ESTATE);
  CHECK_STR(err.message, "the cave collapsed");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_HOST); /* the generator's own message */
  CHECK_STR(strata_runtime_failure_text(rt, &err), "the cave collapsed");
  after = dump(w);
  CHECK_STR(after, before); /* no map, junk, timer, subscription, props change, stream */
  CHECK_EQ_INT(strata_world_stream_count(w), streams);
  CHECK_EQ_INT(strata_world_subscription_count(w), 0);
  free(before);
  free(after);
  fx_older = 0;
  /* unknown IDs, taken floors, travel to a deleted area */
  before = dump(w);
  CHECK_EQ_INT(strata_area_create(rt, "dungeon.caev", NULL, &a, &err), STRATA_ENOTFOUND);
  CHECK_HAS(err.message, "unknown base.area_archetype 'dungeon.caev' (nearest known: dungeon.cave");
  CHECK_EQ_INT(strata_map_create(rt, 3, 3, "dungeon.nope", NULL, &err), STRATA_ENOTFOUND);
  CHECK_EQ_INT(strata_area_create(rt, "dungeon.town", &(strata_area_opts){ .generator = "dungeon.cavee" }, &a, &err),
               STRATA_ENOTFOUND);
  CHECK_HAS(err.message, "unknown base.area_generator 'dungeon.cavee'");
  after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  uint64_t town, m1 = plain_map(rt, 3, 3, NULL), m2 = plain_map(rt, 3, 3, NULL);
  OK(strata_area_create(rt, "dungeon.town", NULL, &town, &err));
  OK(strata_area_add_floor(rt, town, m1, 1, &err));
  before = dump(w);
  CHECK_EQ_INT(strata_area_add_floor(rt, town, m2, 1, &err), STRATA_ESTATE);
  snprintf(want, sizeof want, "floor 1 of area#%llu is taken (map#%llu)", (unsigned long long)town,
           (unsigned long long)m1);
  CHECK_STR(err.message, want);
  CHECK_STR(err.function, "strata_area_add_floor");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_TAKEN);
  CHECK(err.subject[0] == town && err.subject[1] == m1);
  CHECK_EQ_INT(strata_area_add_floor(rt, town, m1, 2, &err), STRATA_ESTATE); /* already a floor */
  CHECK_HAS(err.message, "is already floor 1");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_ATTACHED);
  CHECK(err.subject[0] == m1 && err.subject[1] == town);
  /* a plain strata_error_set clears what an earlier refusal left */
  strata_error_set(&err, STRATA_EARG, "plain");
  CHECK(err.function == NULL && err.refusal == STRATA_REFUSED_NONE && err.subject[0] == 0 && err.subject[1] == 0);
  CHECK_STR(strata_refusal_name(STRATA_REFUSED_TAKEN), "floor taken");
  after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  uint64_t cave, door;
  OK(strata_area_create(rt, "dungeon.cave", NULL, &cave, &err));
  OK(strata_entrance_create(rt, m1, 1, 1, cave, NULL, &door, &err));
  uint64_t hero = actor(rt, m1, 0, 0, 1);
  OK(strata_area_delete(rt, cave, 0, &err));
  before = dump(w);
  uint64_t got;
  CHECK_EQ_INT(strata_travel(rt, hero, door, NULL, &got, &err), STRATA_ENOTFOUND);
  snprintf(want, sizeof want, "feature#%llu leads to area#%llu, which was deleted", (unsigned long long)door,
           (unsigned long long)cave);
  CHECK_HAS(err.message, want);
  CHECK_EQ_INT(strncmp(err.message, "strata_", 7) != 0, 1);
  CHECK_STR(err.function, "strata_travel");
  CHECK_EQ_INT(err.refusal, STRATA_REFUSED_DELETED);
  CHECK(err.subject[0] == cave);
  after = dump(w);
  CHECK_STR(after, before);
  CHECK(obj(rt, hero)->map == m1);
  free(before);
  free(after);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* ---- three floors, saved and reopened, then on ---- */

static char *floors_text(strata_runtime *rt, uint64_t area, int64_t upto) {
  text t = {0};
  strata_world *w = strata_runtime_world(rt);
  for (int64_t n = 1; n <= upto; n++) {
    uint64_t m = strata_area_floor_map(rt, area, n);
    strata_tilemap *tm = strata_world_tilemap(w, m);
    put(&t, "floor %lld map#%llu\n", (long long)n, (unsigned long long)m);
    if (tm) put_tiles(&t, w, tm);
    put(&t, "\n");
  }
  return t.s;
}

static void test_save_reopen(strata_registry *reg) {
  char path[] = "/tmp/strata_test_area_XXXXXX";
  int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  /* first: down three floors of the deep cave, save */
  strata_world *w = strata_world_new(99, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t hero = actor(rt, 0, 0, 0, 1), m, ow;
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &ow, &err));
  m = travel(rt, hero, ow);
  m = travel(rt, hero, entrance_to(rt, m, "dungeon.deep_cave"));
  m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, 1));
  m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, 1));
  uint64_t cave = strata_find_unique(rt, "dungeon.deep_cave");
  char *first = floors_text(rt, cave, 3);
  OK(strata_world_save(w, path, NULL, 0, &err));
  strata_runtime_free(rt);
  strata_world_free(w);
  /* second: opened, floors 1-3 as they were, floor 4 generated as if never saved */
  strata_mod_version *mods;
  size_t nmods;
  OK(strata_world_open(path, &w, &mods, &nmods, &err));
  strata_mod_versions_free(mods, nmods);
  rt = dungeon_runtime(w, reg);
  char *second = floors_text(rt, cave, 3);
  CHECK_STR(second, first);
  CHECK_EQ_INT(strata_area_floor_map(rt, cave, 4), 0);
  CHECK(strata_player(rt) == hero);
  m = travel(rt, strata_player(rt), feature(rt, strata_current_map(rt), STRATA_FEATURE_STAIRS, 1));
  char *second4 = floors_text(rt, cave, 4);
  strata_runtime_free(rt);
  strata_world_free(w);
  /* control: one runtime, no save */
  w = strata_world_new(99, &err);
  rt = dungeon_runtime(w, reg);
  hero = actor(rt, 0, 0, 0, 1);
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &ow, &err));
  m = travel(rt, hero, ow);
  m = travel(rt, hero, entrance_to(rt, m, "dungeon.deep_cave"));
  for (int i = 0; i < 3; i++) m = travel(rt, hero, feature(rt, m, STRATA_FEATURE_STAIRS, 1));
  char *control = floors_text(rt, cave, 4);
  CHECK_STR(second4, control);
  CHECK_HAS(control, "floor 4 map#");
  free(first);
  free(second);
  free(second4);
  free(control);
  strata_runtime_free(rt);
  strata_world_free(w);
  unlink(path);
}

/* A unique area's `at` off its parent's floor: that floor fails to generate,
** naming the unique area and `at`, and nothing of it is left. */
static void test_unique_at(void) {
  strata_registry *reg = dungeon_registry();
  OK(strata_registry_add_unique_area(reg, &(strata_unique_def){ .id = "dungeon.off", .area = "dungeon.cave",
    .parent = "dungeon.world", .has_on_floor = 1, .on_floor = 1, .has_at = 1, .at_x = 40, .at_y = 7 }, &err));
  strata_world *w = strata_world_new(3, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t world, m = 0;
  OK(strata_unique_area(rt, "dungeon.world", &world, &err));
  CHECK_EQ_INT(strata_get_or_create_map(rt, "dungeon.world", NULL, &m, &err), STRATA_EARG);
  CHECK_HAS(err.message, "unique area 'dungeon.off': at (40, 7) is outside floor 1 of unique area 'dungeon.world' (map#");
  CHECK_HAS(err.message, ", 30x20)");
  CHECK_EQ_INT(strata_area_floor_map(rt, world, 1), 0);
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
}

/* Entrances from C: the archetype's image copied in, a map as the target
** (a map of no area gets a base.one_map area, which this registry does not
** define), an area and its entrance in one call. */
static void test_entrances(strata_registry *reg) {
  strata_world *w = strata_world_new(5, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t town = plain_map(rt, 10, 8, "floor"), shop = plain_map(rt, 4, 4, "floor"), cave, e, e2, a, over;
  OK(strata_area_create(rt, "dungeon.cave", NULL, &cave, &err));
  OK(strata_entrance_create(rt, town, 1, 1, cave, NULL, &e, &err));
  CHECK_STR(strata_feature_image(rt, e), "dungeon.feat_cave");
  OK(strata_entrance_create(rt, town, 2, 1, shop, NULL, &e2, &err));
  int has;
  int64_t n;
  a = strata_feature_target(rt, e2, &has, &n);
  CHECK(a && has && n == 1 && strata_map_area(rt, shop, &n) == a && n == 1);
  CHECK_STR(obj(rt, a)->archetype, STRATA_AREA_ONE_MAP);
  CHECK(strata_feature_image(rt, e2) == NULL);
  OK(strata_area_create(rt, "dungeon.town", NULL, &over, &err));
  OK(strata_area_add_floor(rt, over, town, 1, &err));
  size_t before = strata_world_count(w);
  CHECK_EQ_INT(strata_area_create_at(rt, "dungeon.cave", &(strata_area_opts){ .parent = over }, 1, 40, 1, &a, &e,
                                     &err), STRATA_EARG);
  CHECK_EQ_INT(strata_world_count(w), before); /* neither made */
  OK(strata_area_create_at(rt, "dungeon.cave", &(strata_area_opts){ .parent = over }, 0, 3, 2, &a, &e, &err));
  int64_t x, y, f;
  CHECK(strata_area_child_position(rt, over, a, &x, &y, &f) && x == 3 && y == 2 && f == 1);
  CHECK(strata_feature_target(rt, e, NULL, NULL) == a);
  CHECK_EQ_INT(strata_area_create_at(rt, "dungeon.cave", NULL, 0, 3, 2, &a, &e, &err), STRATA_EARG);
  strata_runtime_free(rt);
  strata_world_free(w);
}

int main(void) {
  strata_registry *reg = dungeon_registry();
  CHECK(reg != NULL);
  if (!reg) return check_summary("test_area");
  test_ten_floors(reg);
  test_fields(reg);
  test_delete(reg);
  test_unique(reg);
  test_unique_at();
  test_restock(reg);
  test_spawn_renew(reg);
  test_spawn_too_often(reg);
  test_travel_rules(reg);
  test_errors(reg);
  test_save_reopen(reg);
  test_entrances(reg);
  strata_registry_free(reg);
  return check_summary("test_area");
}
