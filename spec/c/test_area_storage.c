/* test_area_storage.c - the C implementation of areas keeps the storage
** layout of lua/strata/areas.lua, so worlds move between the two.
**
** One scenario (a player, the unique overworld with its two unique areas,
** two floors of the deep cave walked down, time advanced past a restock, a
** conquered area, a map level, a town with params, an entrance and stairs)
** is built through the C API and saved. Always: its `sys` tables are checked
** against the documented layout (area.h). When the Lua module of this build
** and lua5.4 are at hand (a build with STRATA_WITH_LUA): the same scenario is
** built by spec/fixtures/area_storage.lua and the two saves are compared
** object by object (bookkeeping exactly; tiles, timers, subscriptions and
** random streams too); the Lua-made world is opened and played on in C, and
** the C-made one in Lua. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "area_fixture.h"
#include "check.h"
#include "world_dump.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)

static strata_error err;

static uint64_t stairs(strata_runtime *rt, uint64_t map, int64_t delta) {
  uint64_t list[64];
  size_t n = strata_map_objects(rt, map, "feature", list, 64);
  for (size_t i = 0; i < n && i < 64; i++)
    if (strata_feature_type_of(rt, list[i]) == STRATA_FEATURE_STAIRS &&
        strata_feature_floor_delta(rt, list[i]) == delta)
      return list[i];
  return 0;
}

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

static uint64_t go(strata_runtime *rt, uint64_t who, uint64_t target) {
  uint64_t m = 0;
  if (strata_travel(rt, who, target, NULL, &m, &err)) fprintf(stderr, "travel: %s\n", err.message);
  return m;
}

/* The scenario: keep in step with `make` in spec/fixtures/area_storage.lua. */
static void scenario(strata_runtime *rt) {
  strata_world *w = strata_runtime_world(rt);
  uint64_t hero, ow, f1, f2, town, tm, side;
  OK(strata_world_create(w, "actor", NULL, &hero, &err));
  OK(strata_set_player(rt, hero, &err));
  OK(strata_get_or_create_map(rt, "dungeon.world", NULL, &ow, &err));
  go(rt, hero, ow);
  f1 = go(rt, hero, entrance_to(rt, ow, "dungeon.deep_cave"));
  f2 = go(rt, hero, stairs(rt, f1, 1));
  strata_failures fails = { NULL, 0, 0 };
  OK(strata_advance(rt, 150, &fails, &err));
  CHECK_EQ_INT(fails.n, 0);
  strata_failures_clear(&fails);
  OK(strata_area_set_conquered(rt, strata_map_area(rt, f1, NULL), 1, &err));
  OK(strata_map_set_level(rt, f2, 7, &err));
  strata_value params, k = fx_str("theme"), v = fx_str("ice");
  strata_value_table(&params, NULL);
  strata_vtable_set(params.u.t, &k, &v, NULL);
  strata_value_clear(&k);
  OK(strata_area_create(rt, "dungeon.town", &(strata_area_opts){ .params = &params }, &town, &err));
  strata_value_clear(&params);
  OK(strata_map_create(rt, 6, 4, NULL, &tm, &err));
  OK(strata_tilemap_clear(strata_world_tilemap(w, tm), fx_tok(w, "floor"), &err));
  OK(strata_area_add_floor(rt, town, tm, 1, &err));
  OK(strata_area_create(rt, "dungeon.endless", NULL, &side, &err));
  OK(strata_entrance_create(rt, tm, 2, 2, side, &(int64_t){ 1 }, NULL, &err));
  OK(strata_stairs_create(rt, tm, 1, 1, 1, NULL, &err));
}

/* ---- the documented layout ---- */

typedef struct key_rule {
  const char *key;
  strata_vtype type;
  strata_vtype ktype, vtype; /* tables: their keys' and values' types (VNIL: any) */
} key_rule;

static const key_rule area_rules[] = {
  { "parent", STRATA_VINT, 0, 0 }, { "floors", STRATA_VTABLE, STRATA_VINT, STRATA_VINT },
  { "children", STRATA_VTABLE, STRATA_VINT, STRATA_VBOOL }, { "params", STRATA_VTABLE, 0, 0 },
  { "generator", STRATA_VSTRING, 0, 0 }, { "starting_floor", STRATA_VINT, 0, 0 },
  { "deepest_floor", STRATA_VINT, 0, 0 }, { "deepest_visited", STRATA_VINT, 0, 0 },
  { "entrance", STRATA_VTABLE, STRATA_VSTRING, STRATA_VINT }, { "unique", STRATA_VSTRING, 0, 0 },
  { "conquered", STRATA_VBOOL, 0, 0 }, { NULL, 0, 0, 0 } };
static const key_rule map_rules[] = {
  { "area", STRATA_VINT, 0, 0 }, { "floor", STRATA_VINT, 0, 0 }, { "level", STRATA_VINT, 0, 0 },
  { "restock_due", STRATA_VFLOAT, 0, 0 }, { "renew_due", STRATA_VFLOAT, 0, 0 },
  { "renew_timer", STRATA_VINT, 0, 0 }, { "tokens", STRATA_VTABLE, 0, 0 }, { NULL, 0, 0, 0 } };
static const key_rule feature_rules[] = {
  { "type", STRATA_VSTRING, 0, 0 }, { "area", STRATA_VINT, 0, 0 }, { "floor", STRATA_VINT, 0, 0 },
  { "image", STRATA_VSTRING, 0, 0 }, { "floor_delta", STRATA_VINT, 0, 0 }, { NULL, 0, 0, 0 } };
static const key_rule record_rules[] = {
  { "uniques", STRATA_VTABLE, STRATA_VSTRING, STRATA_VINT },
  { "placed", STRATA_VTABLE, STRATA_VSTRING, STRATA_VINT },
  { "areas", STRATA_VTABLE, STRATA_VINT, STRATA_VBOOL }, { "player", STRATA_VINT, 0, 0 },
  { NULL, 0, 0, 0 } };

static int shape_ok(const strata_object *o, const key_rule *rules, const char *const *required) {
  const strata_value *sys = strata_vtable_get_str(o->props.u.t, "sys");
  if (!sys || sys->type != STRATA_VTABLE) {
    fprintf(stderr, "%s#%llu: no sys table\n", o->kind, (unsigned long long)o->uid);
    return 0;
  }
  for (size_t i = 0; i < sys->u.t->n; i++) {
    const strata_value *k = &sys->u.t->keys[i], *v = &sys->u.t->vals[i];
    const key_rule *r = rules;
    while (r->key && !(k->type == STRATA_VSTRING && strcmp(r->key, k->u.str.s) == 0)) r++;
    if (!r->key || r->type != v->type) {
      fprintf(stderr, "%s#%llu: sys.%s unexpected (type %d)\n", o->kind, (unsigned long long)o->uid,
              k->type == STRATA_VSTRING ? k->u.str.s : "?", v->type);
      return 0;
    }
    for (size_t j = 0; r->ktype && j < v->u.t->n; j++)
      if (v->u.t->keys[j].type != r->ktype || v->u.t->vals[j].type != r->vtype) {
        fprintf(stderr, "%s#%llu: sys.%s holds a key or value of the wrong type\n", o->kind,
                (unsigned long long)o->uid, r->key);
        return 0;
      }
  }
  for (size_t i = 0; required && required[i]; i++)
    if (!strata_vtable_get_str(sys->u.t, required[i])) {
      fprintf(stderr, "%s#%llu: sys.%s missing\n", o->kind, (unsigned long long)o->uid, required[i]);
      return 0;
    }
  return 1;
}

static void check_layout(strata_world *w) {
  static const char *const area_req[] = { "floors", "children", "params", "starting_floor", NULL };
  static const char *const rec_req[] = { "uniques", "placed", "areas", "player", NULL };
  static const char *const feat_req[] = { "type", NULL };
  int areas = 0, maps = 0, features = 0, records = 0;
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    const strata_value *sys = strata_vtable_get_str(o->props.u.t, "sys");
    if (strcmp(o->kind, "area") == 0) { areas++; CHECK(shape_ok(o, area_rules, area_req)); }
    else if (strcmp(o->kind, "map") == 0 && sys) { maps++; CHECK(shape_ok(o, map_rules, NULL)); }
    else if (strcmp(o->kind, "feature") == 0) { features++; CHECK(shape_ok(o, feature_rules, feat_req)); }
    else if (strcmp(o->kind, "world_record") == 0) { records++; CHECK(shape_ok(o, record_rules, rec_req)); }
  }
  CHECK_EQ_INT(areas, 5);
  CHECK_EQ_INT(records, 1);
  CHECK(maps >= 4);
  CHECK(features >= 8);
}

/* ---- comparing two worlds ---- */

static char diff[512];

static int is_empty_table(const strata_value *v) {
  return !v || (v->type == STRATA_VTABLE && v->u.t->n == 0);
}

/* Equal, except that a missing key equals an empty table: Lua handles make
** props and state tables on first read. */
static int loose_equal(const strata_value *a, const strata_value *b) {
  if (a->type != STRATA_VTABLE || b->type != STRATA_VTABLE) return strata_value_equal(a, b);
  for (int side = 0; side < 2; side++) {
    const strata_value *x = side ? b : a, *y = side ? a : b;
    for (size_t i = 0; i < x->u.t->n; i++) {
      const strata_value *o = strata_vtable_get(y->u.t, &x->u.t->keys[i]);
      if (!o) { if (!is_empty_table(&x->u.t->vals[i])) return 0; }
      else if (!loose_equal(&x->u.t->vals[i], o)) return 0;
    }
  }
  return 1;
}

static char *tiles_text(strata_world *w, strata_tilemap *m) {
  text t = {0};
  put(&t, "-");
  if (m) put_tiles(&t, w, m);
  return t.s;
}

static int same_world(strata_world *a, strata_world *b) {
  if (strata_world_count(a) != strata_world_count(b)) {
    snprintf(diff, sizeof diff, "%zu objects against %zu", strata_world_count(a), strata_world_count(b));
    return 0;
  }
  if (strata_world_time(a) != strata_world_time(b)) { snprintf(diff, sizeof diff, "time"); return 0; }
  for (strata_object *o = strata_world_next_object(a, 0); o; o = strata_world_next_object(a, o->uid)) {
    strata_object *p = strata_world_object(b, o->uid);
    unsigned long long u = (unsigned long long)o->uid;
    if (!p || strcmp(o->kind, p->kind) != 0) { snprintf(diff, sizeof diff, "object #%llu: kind", u); return 0; }
    if ((o->archetype == NULL) != (p->archetype == NULL) ||
        (o->archetype && strcmp(o->archetype, p->archetype) != 0)) {
      snprintf(diff, sizeof diff, "%s#%llu: archetype", o->kind, u);
      return 0;
    }
    if (o->has_pos != p->has_pos || (o->has_pos && (o->map != p->map || o->x != p->x || o->y != p->y))) {
      snprintf(diff, sizeof diff, "%s#%llu: position", o->kind, u);
      return 0;
    }
    const strata_value *sa = strata_vtable_get_str(o->props.u.t, "sys");
    const strata_value *sb = strata_vtable_get_str(p->props.u.t, "sys");
    if ((sa == NULL) != (sb == NULL) || (sa && !strata_value_equal(sa, sb))) {
      snprintf(diff, sizeof diff, "%s#%llu: sys", o->kind, u);
      return 0;
    }
    if (!loose_equal(&o->props, &p->props)) { snprintf(diff, sizeof diff, "%s#%llu: props", o->kind, u); return 0; }
    if (!strata_value_equal(&o->tags, &p->tags)) { snprintf(diff, sizeof diff, "%s#%llu: tags", o->kind, u); return 0; }
    char *ta = tiles_text(a, o->tilemap), *tb = tiles_text(b, p->tilemap);
    int same = strcmp(ta, tb) == 0;
    free(ta);
    free(tb);
    if (!same) { snprintf(diff, sizeof diff, "%s#%llu: tiles", o->kind, u); return 0; }
  }
  if (strata_world_timer_count(a) != strata_world_timer_count(b)) { snprintf(diff, sizeof diff, "timers"); return 0; }
  for (size_t i = 0; i < strata_world_timer_count(a); i++) {
    const strata_timer *x = strata_world_timer_at(a, i), *y = strata_world_timer_at(b, i);
    if (x->uid != y->uid || x->due != y->due || x->every != y->every || strcmp(x->handler, y->handler) ||
        !strata_value_equal(&x->args, &y->args)) {
      snprintf(diff, sizeof diff, "timer #%llu", (unsigned long long)x->uid);
      return 0;
    }
  }
  if (strata_world_subscription_count(a) != strata_world_subscription_count(b)) {
    snprintf(diff, sizeof diff, "subscriptions");
    return 0;
  }
  size_t ns = strata_world_stream_count(a);
  if (ns != strata_world_stream_count(b)) {
    snprintf(diff, sizeof diff, "%zu streams against %zu", ns, strata_world_stream_count(b));
    return 0;
  }
  for (size_t i = 0; i < ns; i++) {
    strata_rng ra, rb;
    const char *key = strata_world_stream_at(a, i, &ra);
    int found = 0;
    for (size_t j = 0; j < ns && !found; j++) {
      const char *kb = strata_world_stream_at(b, j, &rb);
      found = strcmp(key, kb) == 0 && ra.state == rb.state && ra.inc == rb.inc;
    }
    if (!found) { snprintf(diff, sizeof diff, "stream '%s'", key); return 0; }
  }
  return 1;
}

static int cmp_line(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sorts the lines of s in place; returns s. */
static char *sort_lines(char *s) {
  size_t n = 0, len = strlen(s);
  for (size_t i = 0; i < len; i++) n += s[i] == '\n';
  char **lines = malloc((n + 1) * sizeof *lines), *copy = malloc(len + 1), *p = copy;
  memcpy(copy, s, len + 1);
  size_t k = 0;
  for (char *line = strtok(p, "\n"); line; line = strtok(NULL, "\n")) lines[k++] = line;
  qsort(lines, k, sizeof *lines, cmp_line);
  s[0] = '\0';
  for (size_t i = 0; i < k; i++) { strcat(s, lines[i]); strcat(s, "\n"); }
  free(lines);
  free(copy);
  return s;
}

/* ---- running the Lua half ---- */

static char lua_cmd[2048];

/* The shell prefix that runs spec/fixtures/area_storage.lua with this
** build's Lua module, or 0 when there is none. */
static int find_lua(void) {
  const char *src = getenv("STRATA_SOURCE_DIR");
  char cwd[1024], so[1100];
  struct stat sb;
  if (!src || !getcwd(cwd, sizeof cwd)) return 0;
  snprintf(so, sizeof so, "%s/lua/strata/core.so", cwd);
  if (stat(so, &sb) != 0) return 0;
  if (system("command -v lua5.4 >/dev/null 2>&1") != 0) return 0;
  snprintf(lua_cmd, sizeof lua_cmd,
           "cd '%s' && LUA_PATH='%s/lua/?.lua;%s/lua/?/init.lua;;' LUA_CPATH='%s/lua/?.so;;' "
           "lua5.4 spec/fixtures/area_storage.lua",
           src, src, src, cwd);
  return 1;
}

static char *run_lua(const char *mode, const char *path, int *ok) {
  char cmd[2400];
  snprintf(cmd, sizeof cmd, "%s %s '%s' 2>&1", lua_cmd, mode, path);
  FILE *f = popen(cmd, "r");
  text t = {0};
  put(&t, "");
  char buf[512];
  while (f && fgets(buf, sizeof buf, f)) put(&t, "%s", buf);
  *ok = f && pclose(f) == 0;
  return t.s;
}

static strata_world *open_world(const char *path) {
  strata_world *w = NULL;
  strata_mod_version *mods;
  size_t n;
  if (strata_world_open(path, &w, &mods, &n, &err)) {
    fprintf(stderr, "open %s: %s\n", path, err.message);
    return NULL;
  }
  strata_mod_versions_free(mods, n);
  return w;
}

int main(void) {
  char c_path[] = "/tmp/strata_area_c_XXXXXX", lua_path[] = "/tmp/strata_area_lua_XXXXXX";
  int fd = mkstemp(c_path);
  if (fd >= 0) close(fd);
  fd = mkstemp(lua_path);
  if (fd >= 0) close(fd);
  strata_registry *reg = dungeon_registry();
  CHECK(reg != NULL);
  if (!reg) return check_summary("test_area_storage");

  strata_world *w = strata_world_new(7, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  scenario(rt);
  check_layout(w);
  OK(strata_world_save(w, c_path, NULL, 0, &err));
  char *made = dump(w);
  strata_runtime_free(rt);
  strata_world_free(w);
  /* the save holds all of it */
  w = open_world(c_path);
  char *reopened = w ? dump(w) : NULL;
  /* (lines sorted: a save lists random streams by key, a world in creation order) */
  CHECK(reopened && strcmp(sort_lines(made), sort_lines(reopened)) == 0);
  free(made);
  free(reopened);
  strata_world_free(w);

  if (!find_lua()) {
    printf("test_area_storage: no Lua module in this build (or no lua5.4): checked against the documented layout only\n");
  } else {
    int ok;
    char *out = run_lua("make", lua_path, &ok);
    CHECK(ok);
    if (!ok) fprintf(stderr, "%s\n", out);
    free(out);
    strata_world *cw = open_world(c_path), *lw = open_world(lua_path);
    CHECK(cw && lw);
    if (cw && lw) {
      int same = same_world(cw, lw);
      CHECK(same);
      if (!same) fprintf(stderr, "C and Lua worlds differ: %s\n", diff);
    }
    /* the Lua-made world, played on in C */
    if (lw) {
      rt = dungeon_runtime(lw, reg);
      uint64_t f2 = strata_current_map(rt), f3, back;
      int64_t floor, dv;
      uint64_t cave = strata_current_area(rt, &floor);
      CHECK(cave == strata_find_unique(rt, "dungeon.deep_cave") && floor == 2);
      CHECK(strata_area_is_conquered(rt, cave));
      CHECK_EQ_INT(strata_map_level(rt, f2), 7);
      f3 = go(rt, strata_player(rt), stairs(rt, f2, 1));
      strata_map_area(rt, f3, &floor);
      CHECK_EQ_INT(floor, 3);
      CHECK(strata_area_deepest_visited(rt, cave, &dv) && dv == 3);
      back = go(rt, strata_player(rt), stairs(rt, f3, -1));
      CHECK(back == f2);
      strata_object *hero = strata_world_object(lw, strata_player(rt));
      CHECK(hero->x == 18 && hero->y == 8);
      uint64_t list[4];
      CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .archetype = "dungeon.endless" }, list, 4), 2);
      CHECK_STR(strata_area_unique_id(rt, list[0]), "dungeon.tower");
      uint64_t towns[2];
      CHECK_EQ_INT(strata_areas(rt, &(strata_area_filter){ .archetype = "dungeon.town" }, towns, 2), 1);
      CHECK(strata_area_parent(rt, list[1]) == towns[0]);
      strata_failures fails = { NULL, 0, 0 };
      OK(strata_advance(rt, 100, &fails, &err));
      CHECK_STR(fx_log_at(lw, f2, (int64_t)fx_log_len(lw, f2)), "restock 1");
      strata_failures_clear(&fails);
      strata_runtime_free(rt);
    }
    strata_world_free(cw);
    strata_world_free(lw);
    /* the C-made world, played on in Lua */
    out = run_lua("continue", c_path, &ok);
    CHECK(ok);
    CHECK_HAS(out, "conquered true");
    CHECK_HAS(out, "current floor 2 of area#");
    CHECK_HAS(out, "level 7 restock due 200");
    CHECK_HAS(out, "went down to floor 3 at 1,1");
    CHECK_HAS(out, "deepest visited 3");
    CHECK_HAS(out, "floor 2 at 18,8");
    CHECK_HAS(out, "unique dungeon.tower");
    CHECK_HAS(out, "overworld entrances 2");
    CHECK_HAS(out, "log spawn 2,load,enter,entered event,restock 1,leave,load,enter,entered event,restock 1");
    if (!ok || !strstr(out, "overworld entrances 2")) fprintf(stderr, "%s\n", out);
    free(out);
  }
  strata_registry_free(reg);
  unlink(c_path);
  unlink(lua_path);
  return check_summary("test_area_storage");
}
