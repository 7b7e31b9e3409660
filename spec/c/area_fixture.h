/*
** area_fixture.h - the C twin of spec/fixtures/mods/dungeon (the areas
** spec's mod): the same generators, map archetypes that log their hooks,
** misbehaving generators and unique areas, registered by ID in a
** strata_registry. The cave generator draws exactly what the Lua one draws,
** so a world built through either has the same floors.
*/
#ifndef STRATA_AREA_FIXTURE_H
#define STRATA_AREA_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "strata/strata.h"

#define TRY(x) do { strata_status st_ = (x); if (st_) return st_; } while (0)

static inline strata_token fx_tok(strata_world *w, const char *name) {
  return strata_tokens_intern(strata_world_tokens(w), name, strlen(name), NULL);
}

/* A string value; nil when out of memory (the allocation tests make it so). */
static inline strata_value fx_str(const char *s) {
  strata_value v = strata_value_nil();
  strata_value_string(&v, s, strlen(s), NULL);
  return v;
}

/* props[key] of an object, or NULL. */
static inline const strata_value *fx_prop(strata_world *w, uint64_t uid, const char *key) {
  strata_value k = fx_str(key);
  const strata_value *v = strata_object_get(w, uid, &k, 1);
  strata_value_clear(&k);
  return v;
}

/* props[a][b] of an object, or NULL. */
static inline const strata_value *fx_prop2(strata_world *w, uint64_t uid, const char *a, const char *b) {
  strata_value k[2] = { fx_str(a), fx_str(b) };
  const strata_value *v = strata_object_get(w, uid, k, 2);
  strata_value_clear(&k[0]);
  strata_value_clear(&k[1]);
  return v;
}

/* Sets props[a][b] (making props[a] if needed); v taken over. */
static inline strata_status fx_set2(strata_world *w, uint64_t uid, const char *a, const char *b,
                             strata_value v, strata_error *err) {
  strata_value k[2] = { fx_str(a), fx_str(b) };
  strata_status st = STRATA_OK;
  if (k[0].type == STRATA_VNIL || k[1].type == STRATA_VNIL)
    st = strata_error_set(err, STRATA_ENOMEM, "out of memory");
  const strata_value *t = st ? NULL : strata_object_get(w, uid, k, 1);
  if (!st && (!t || t->type != STRATA_VTABLE)) {
    strata_value fresh = strata_value_nil();
    st = strata_value_table(&fresh, err);
    if (!st) st = strata_object_set(w, uid, k, 1, &fresh, err);
    strata_value_clear(&fresh);
  }
  if (!st) st = strata_object_set(w, uid, k, 2, &v, err);
  strata_value_clear(&v);
  strata_value_clear(&k[0]);
  strata_value_clear(&k[1]);
  return st;
}

/* Appends a line to props.log, as the Lua fixture's log(map, what). */
static inline strata_status fx_log(strata_world *w, uint64_t map, strata_error *err, const char *fmt, ...) {
  char line[128];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  const strata_value *log = fx_prop2(w, map, "props", "log");
  strata_value l;
  strata_status st = log && log->type == STRATA_VTABLE ? strata_value_copy(&l, log, err)
                                                       : strata_value_table(&l, err);
  if (st) return st;
  strata_value k = strata_value_int((int64_t)l.u.t->n + 1), v = fx_str(line);
  if (v.type == STRATA_VNIL || strata_vtable_set(l.u.t, &k, &v, err)) {
    strata_value_clear(&v);
    strata_value_clear(&l);
    return strata_error_set(err, STRATA_ENOMEM, "out of memory");
  }
  return fx_set2(w, map, "props", "log", l, err);
}

/* props.log[i] (1-based) of a map, or "". */
static inline const char *fx_log_at(strata_world *w, uint64_t map, int64_t i) {
  const strata_value *log = fx_prop2(w, map, "props", "log");
  if (!log || log->type != STRATA_VTABLE) return "";
  strata_value k = strata_value_int(i);
  const strata_value *v = strata_vtable_get(log->u.t, &k);
  return v && v->type == STRATA_VSTRING ? v->u.str.s : "";
}

static inline size_t fx_log_len(strata_world *w, uint64_t map) {
  const strata_value *log = fx_prop2(w, map, "props", "log");
  return log && log->type == STRATA_VTABLE ? log->u.t->n : 0;
}

/* ---- dungeon.cave: random rock on floor, stairs up at (1, 1), down at (18, 8) ---- */

static inline strata_status gen_cave(strata_call *c, void *data, strata_error *err) {
  (void)data;
  uint64_t m;
  TRY(strata_map_create(c->rt, 20, 10, "dungeon.cave_floor", &m, err));
  TRY(strata_world_touch(c->world, m, err));
  strata_tilemap *tm = strata_world_tilemap(c->world, m);
  strata_token floor = fx_tok(c->world, "floor"), rock = fx_tok(c->world, "rock");
  if (!floor || !rock) return strata_error_set(err, STRATA_ENOMEM, "out of memory"); /* the allocation tests */
  TRY(strata_tilemap_clear(tm, floor, err));
  for (int i = 0; i < 30; i++) {
    int x = (int)strata_rng_int(c->rng, 0, 19);
    int y = (int)strata_rng_int(c->rng, 0, 9);
    TRY(strata_tilemap_set(tm, x, y, rock, err));
  }
  TRY(strata_area_add_floor(c->rt, c->area, m, c->floor, err));
  TRY(strata_stairs_create(c->rt, m, 1, 1, -1, NULL, err));
  int64_t deepest;
  if (!strata_area_deepest_floor(c->rt, c->area, &deepest) || c->floor < deepest)
    TRY(strata_stairs_create(c->rt, m, 18, 8, 1, NULL, err));
  c->made = m;
  return STRATA_OK;
}

static inline strata_status gen_nothing(strata_call *c, void *data, strata_error *err) {
  (void)c; (void)data; (void)err;
  return STRATA_OK;
}

/* Makes things (also to an object older than the generation: a
** subscription on it and a change of its props), then fails: all undone. */
static uint64_t fx_older; /* set by the test before generating */
static inline strata_status gen_litter(strata_call *c, void *data, strata_error *err) {
  (void)data;
  uint64_t m, junk, t, sub;
  TRY(strata_map_create(c->rt, 5, 5, NULL, &m, err));
  TRY(strata_world_create(c->world, "junk", NULL, &junk, err));
  TRY(strata_world_schedule(c->world, strata_world_time(c->world) + 5, 0, "dungeon.noop", NULL, &t, err));
  strata_rng_int(c->rng, 1, 100);
  if (fx_older) {
    TRY(strata_world_subscribe(c->world, fx_older, "base.map_entered", "dungeon.noop", NULL, 5, &sub, err));
    TRY(fx_set2(c->world, fx_older, "props", "touched", strata_value_bool(1), err));
  }
  return strata_error_set(err, STRATA_ESTATE, "the cave collapsed");
}

static inline strata_status noop(strata_call *c, void *data, strata_error *err) {
  (void)c; (void)data; (void)err;
  return STRATA_OK;
}

/* ---- map archetype hooks: each logs ---- */

static inline strata_status on_spawn(strata_call *c, void *d, strata_error *err) {
  (void)d;
  return fx_log(c->world, c->map, err, "spawn %lld", (long long)c->floor);
}
static inline strata_status on_load(strata_call *c, void *d, strata_error *err) { (void)d; return fx_log(c->world, c->map, err, "load"); }
static inline strata_status on_enter(strata_call *c, void *d, strata_error *err) { (void)d; return fx_log(c->world, c->map, err, "enter"); }
static inline strata_status on_leave(strata_call *c, void *d, strata_error *err) { (void)d; return fx_log(c->world, c->map, err, "leave"); }
static inline strata_status on_restock(strata_call *c, void *d, strata_error *err) {
  (void)d;
  return fx_log(c->world, c->map, err, "restock %lld", (long long)c->steps);
}
static inline strata_status on_renew(strata_call *c, void *d, strata_error *err) {
  (void)d;
  return fx_log(c->world, c->map, err, "renew %lld", (long long)c->steps);
}
static inline strata_status cave_entered(strata_call *c, void *d, strata_error *err) {
  (void)d;
  return fx_log(c->world, c->source, err, "entered event");
}
static inline strata_status plain_entered(strata_call *c, void *d, strata_error *err) {
  (void)d;
  return fx_log(c->world, c->source, err, "plain event");
}
static inline strata_status plain_start(strata_call *c, void *d, strata_error *err) {
  (void)d; (void)err;
  c->has_pos = 1;
  c->x = 2;
  c->y = 3;
  return STRATA_OK;
}
static inline strata_status overworld_generate(strata_call *c, void *d, strata_error *err) {
  (void)d;
  uint64_t m;
  TRY(strata_map_create(c->rt, 30, 20, NULL, &m, err));
  TRY(strata_tilemap_clear(strata_world_tilemap(c->world, m), fx_tok(c->world, "grass"), err));
  c->made = m;
  return STRATA_OK;
}

/* dungeon: gate: a grounded actor does not travel. */
static inline strata_status gate(strata_call *c, void *d, strata_error *err) {
  (void)d; (void)err;
  const strata_value *g = fx_prop2(c->world, c->source, "state", "grounded");
  if (g && g->type == STRATA_VBOOL && g->u.b) {
    c->ret = strata_value_bool(0);
    c->stop = 1;
  }
  return STRATA_OK;
}

#define FX_CHECK(x) do { if ((x) != STRATA_OK) { fprintf(stderr, "fixture: %s\n", err.message); return NULL; } } while (0)

static inline strata_registry *dungeon_registry(void) {
  strata_error err;
  strata_registry *r = strata_registry_new(&err);
  if (!r) return NULL;
  /* generators and handlers */
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_GENERATE_FLOOR, "dungeon.cave", gen_cave, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_GENERATE_FLOOR, "dungeon.nothing", gen_nothing, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_GENERATE_FLOOR, "dungeon.litter", gen_litter, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_HANDLER, "dungeon.noop", noop, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "dungeon.gate", gate, NULL, "dungeon", &err));
  /* map archetypes */
  strata_value props, nested, k, v;
  strata_value_table(&props, NULL);
  strata_value_table(&nested, NULL);
  k = fx_str("a"); v = strata_value_int(1); strata_vtable_set(nested.u.t, &k, &v, NULL); strata_value_clear(&k);
  k = fx_str("indoor"); v = strata_value_bool(1); strata_vtable_set(props.u.t, &k, &v, NULL); strata_value_clear(&k);
  k = fx_str("nested"); strata_vtable_set(props.u.t, &k, &nested, NULL); strata_value_clear(&k);
  FX_CHECK(strata_registry_add_map_archetype(r, &(strata_map_archetype){ .id = "dungeon.cave_floor",
    .mod = "dungeon", .properties = &props, .restock_every = 100, .renew_every = 1000 }, &err));
  strata_value_clear(&props);
  static const struct { strata_logic kind; strata_fn fn; } hooks[] = {
    { STRATA_LOGIC_ON_SPAWN, on_spawn }, { STRATA_LOGIC_ON_LOAD, on_load },
    { STRATA_LOGIC_ON_ENTER, on_enter }, { STRATA_LOGIC_ON_LEAVE, on_leave },
    { STRATA_LOGIC_ON_RESTOCK, on_restock }, { STRATA_LOGIC_ON_RENEW, on_renew } };
  for (size_t i = 0; i < sizeof hooks / sizeof *hooks; i++)
    FX_CHECK(strata_registry_add_logic(r, hooks[i].kind, "dungeon.cave_floor", hooks[i].fn, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_archetype_event(r, "map", "dungeon.cave_floor", "base.map_entered",
                                               "cave: entered", 100, cave_entered, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_map_archetype(r, &(strata_map_archetype){ .id = "dungeon.plain", .mod = "dungeon" }, &err));
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_STARTING_POS, "dungeon.plain", plain_start, NULL, "dungeon", &err));
  FX_CHECK(strata_registry_add_archetype_event(r, "map", "dungeon.plain", "base.map_entered",
                                               "plain: entered", 100, plain_entered, NULL, "dungeon", &err));
  strata_value_table(&props, NULL);
  k = fx_str("outdoor"); v = strata_value_bool(1); strata_vtable_set(props.u.t, &k, &v, NULL); strata_value_clear(&k);
  FX_CHECK(strata_registry_add_map_archetype(r, &(strata_map_archetype){ .id = "dungeon.overworld",
    .mod = "dungeon", .properties = &props }, &err));
  strata_value_clear(&props);
  FX_CHECK(strata_registry_add_logic(r, STRATA_LOGIC_GENERATE, "dungeon.overworld", overworld_generate, NULL, "dungeon", &err));
  /* area archetypes */
  static const char *const dungeon[] = { "dungeon" }, *const endless[] = { "dungeon", "endless" },
                           *const world[] = { "world" };
  strata_value meta;
  strata_value_table(&meta, NULL);
  k = fx_str("boss"); v = fx_str("none"); strata_vtable_set(meta.u.t, &k, &v, NULL); strata_value_clear(&k);
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.cave", .mod = "dungeon",
    .types = dungeon, .ntypes = 1, .generator = "dungeon.cave", .has_deepest_floor = 1, .deepest_floor = 10,
    .meta = &meta, .image = "dungeon.feat_cave" }, &err));
  strata_value_clear(&meta);
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.endless", .mod = "dungeon",
    .types = endless, .ntypes = 2, .generator = "dungeon.cave" }, &err));
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.hollow",
    .generator = "dungeon.nothing" }, &err));
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.rubble",
    .generator = "dungeon.litter" }, &err));
  static const strata_floor_archetype world_floors[] = { { 1, "dungeon.overworld" } };
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.world", .types = world,
    .ntypes = 1, .floors = world_floors, .nfloors = 1, .has_deepest_floor = 1, .deepest_floor = 1 }, &err));
  FX_CHECK(strata_registry_add_area_archetype(r, &(strata_area_archetype){ .id = "dungeon.town" }, &err));
  /* unique areas */
  FX_CHECK(strata_registry_add_unique_area(r, &(strata_unique_def){ .id = "dungeon.world", .area = "dungeon.world",
    .parent = "root" }, &err));
  FX_CHECK(strata_registry_add_unique_area(r, &(strata_unique_def){ .id = "dungeon.deep_cave", .area = "dungeon.cave",
    .parent = "dungeon.world", .has_on_floor = 1, .on_floor = 1, .has_at = 1, .at_x = 12, .at_y = 7 }, &err));
  FX_CHECK(strata_registry_add_unique_area(r, &(strata_unique_def){ .id = "dungeon.tower", .area = "dungeon.endless",
    .parent = "dungeon.world", .has_on_floor = 1, .on_floor = 1, .has_at = 1, .at_x = 3, .at_y = 4,
    .has_starting_floor = 1, .starting_floor = 2, .eager = 1 }, &err));
  /* events */
  static const char *const events[] = { "base.map_entered", "base.map_left", "base.before_travel",
    "base.floor_generated", "base.object_created", "base.object_deleted", "base.handler_failed",
    "dungeon.blocked" };
  for (size_t i = 0; i < sizeof events / sizeof *events; i++) FX_CHECK(strata_registry_add_event(r, events[i], &err));
  return r;
}

/* A runtime over w with the fixture's global handler, as the mod registers it. */
static inline strata_runtime *dungeon_runtime(strata_world *w, strata_registry *r) {
  strata_error err;
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(r), &err);
  if (rt && strata_event_on(rt, "base.before_travel", "dungeon: gate", 100, "dungeon.gate", &err)) {
    strata_runtime_free(rt);
    return NULL;
  }
  return rt;
}

#endif
