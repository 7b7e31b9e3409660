/*
** sys.c - the bookkeeping schema (sys.h): the only code that spells the keys
** areas, maps, features and the world record keep under the reserved key
** `sys` of their properties (the stored layout: area.h).
**
** Reads walk the value tree directly. Writes go through strata_object_set,
** so that a savepoint sees them (it copies an object's properties on its
** first change, and only its properties: a map's tiles are not cloned for a
** change of its bookkeeping).
*/
#include "runtime_internal.h"
#include "strata/alloc.h"

#include <stdlib.h>

#include "strata/grid.h"
#include "strata/room.h"
#include "world_internal.h" /* world_changes: what a memo (below) is valid for */

/* sys and up to this many keys below it */
#define SYS_DEPTH 7

/* Keys are borrowed values (K: a string, I: an integer), never cleared.
** SYS(...) expands to the key array and its length. */
static inline strata_value I(int64_t i) { return strata_value_int(i); }
#define SYS(...) ((const strata_value[]){ __VA_ARGS__ }), \
  (sizeof((strata_value[]){ __VA_ARGS__ }) / sizeof(strata_value))

const strata_value *prop_get(const strata_world *w, uint64_t uid, const char *key) {
  strata_object *o = strata_world_object(w, uid);
  if (!o || o->props.type != STRATA_VTABLE) return NULL;
  return strata_vtable_get_str(o->props.u.t, key);
}

static const strata_value *sys_get(const strata_world *w, uint64_t uid, const strata_value *path,
                            size_t n) {
  const strata_value *v = prop_get(w, uid, "sys");
  for (size_t i = 0; v && i < n; i++)
    v = v->type == STRATA_VTABLE ? strata_vtable_get(v->u.t, &path[i]) : NULL;
  return v;
}

uint64_t value_uid(const strata_value *v) {
  if (!v) return 0;
  if (v->type == STRATA_VINT) return v->u.i > 0 ? (uint64_t)v->u.i : 0;
  if (v->type == STRATA_VREF) return v->u.ref;
  return 0;
}

int value_int(const strata_value *v, int64_t *out) {
  if (!v) return 0;
  if (v->type == STRATA_VINT) { *out = v->u.i; return 1; }
  /* an integral float: what Lua arithmetic may have stored */
  /* (in range before the cast, which is undefined past it and for NaN) */
  if (v->type == STRATA_VFLOAT && v->u.f >= -0x1p63 && v->u.f < 0x1p63 && v->u.f == (double)(int64_t)v->u.f) {
    *out = (int64_t)v->u.f;
    return 1;
  }
  return 0;
}

int value_num(const strata_value *v, double *out) {
  if (!v) return 0;
  if (v->type == STRATA_VFLOAT) { *out = v->u.f; return 1; }
  if (v->type == STRATA_VINT) { *out = (double)v->u.i; return 1; }
  return 0;
}

const char *value_str(const strata_value *v) {
  return v && v->type == STRATA_VSTRING ? v->u.str.s : NULL;
}

static uint64_t sys_uid(const strata_world *w, uint64_t uid, const strata_value *path, size_t n) {
  return value_uid(sys_get(w, uid, path, n));
}

static int sys_int(const strata_world *w, uint64_t uid, const strata_value *path, size_t n,
            int64_t *out) {
  return value_int(sys_get(w, uid, path, n), out);
}

static int sys_num(const strata_world *w, uint64_t uid, const strata_value *path, size_t n,
            double *out) {
  return value_num(sys_get(w, uid, path, n), out);
}

static const char *sys_str(const strata_world *w, uint64_t uid, const strata_value *path, size_t n) {
  return value_str(sys_get(w, uid, path, n));
}

int value_truthy(const strata_value *v) {
  return v && v->type != STRATA_VNIL && !(v->type == STRATA_VBOOL && !v->u.b);
}

static strata_status sys_set(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                      strata_value *val, strata_error *err) {
  strata_value full[SYS_DEPTH + 1];
  strata_status st = STRATA_OK;
  if (n > SYS_DEPTH) {
    strata_value_clear(val);
    return strata_error_set(err, STRATA_ELIMIT, "sys path too deep");
  }
  if (!strata_world_object(w, uid)) {
    strata_value_clear(val);
    return strata_error_set(err, STRATA_ENOTFOUND, "no object #%llu (deleted or never created)",
                            (unsigned long long)uid);
  }
  full[0] = K("sys");
  if (n) memcpy(full + 1, path, n * sizeof *path);
  /* The tables on the way: made when missing, unless there is nothing to
  ** set; sys itself always, as areas.lua's set_sys does. */
  for (size_t d = 1; d <= n && !st; d++) {
    const strata_value *t = strata_object_get(w, uid, full, d);
    if (t && t->type == STRATA_VTABLE) continue;
    if (val->type == STRATA_VNIL && d > 1) return STRATA_OK; /* removing what is not there */
    strata_value fresh = strata_value_nil();
    if (!(st = strata_value_table(&fresh, err))) {
      st = strata_object_set(w, uid, full, d, &fresh, err);
      strata_value_clear(&fresh);
    }
  }
  if (!st) st = strata_object_set(w, uid, full, n + 1, val, err);
  strata_value_clear(val); /* nil after a success; ours to free after a failure */
  return st;
}

static strata_status sys_set_int(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                          int64_t i, strata_error *err) {
  strata_value v = strata_value_int(i);
  return sys_set(w, uid, path, n, &v, err);
}

static strata_status sys_set_uid(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                          uint64_t u, strata_error *err) {
  strata_value v = u ? strata_value_int((int64_t)u) : strata_value_nil();
  return sys_set(w, uid, path, n, &v, err);
}

static strata_status sys_del(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                      strata_error *err) {
  strata_value v = strata_value_nil();
  return sys_set(w, uid, path, n, &v, err);
}

strata_status sys_init(strata_runtime *rt, uint64_t uid, strata_value *sys, strata_error *err) {
  return sys_set(rt->w, uid, NULL, 0, sys, err);
}

static const strata_vtable *sys_table(const strata_world *w, uint64_t uid, const strata_value *path,
                                      size_t n) {
  const strata_value *v = sys_get(w, uid, path, n);
  return v && v->type == STRATA_VTABLE ? v->u.t : NULL;
}

static strata_status sys_set_bool(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                                  int on, strata_error *err) {
  strata_value v = on ? strata_value_bool(1) : strata_value_nil();
  return sys_set(w, uid, path, n, &v, err);
}

static strata_status sys_set_str(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                                 const char *s, strata_error *err) {
  strata_value v = strata_value_nil();
  strata_status st = s ? strata_value_string(&v, s, strlen(s), err) : STRATA_OK;
  return st ? st : sys_set(w, uid, path, n, &v, err);
}

/* t[key] = v (v taken over, cleared on failure): the new tables below. */
static strata_status put(strata_value *t, const char *key, strata_value v, strata_error *err) {
  strata_value k = K(key);
  strata_status st = strata_vtable_set(t->u.t, &k, &v, err);
  if (st) strata_value_clear(&v);
  return st;
}

static strata_status put_table(strata_value *t, const char *key, strata_error *err) {
  strata_value v = strata_value_nil();
  strata_status st = strata_value_table(&v, err);
  return st ? st : put(t, key, v, err);
}

static strata_status put_str(strata_value *t, const char *key, const char *s, strata_error *err) {
  strata_value v = strata_value_nil();
  strata_status st = strata_value_string(&v, s, strlen(s), err);
  return st ? st : put(t, key, v, err);
}

/* ---- areas ---- */

uint64_t area_floor_uid(const strata_runtime *rt, uint64_t area, int64_t n) {
  return sys_uid(rt->w, area, SYS(K("floors"), I(n)));
}

const strata_vtable *area_floor_table(const strata_runtime *rt, uint64_t area) {
  return sys_table(rt->w, area, SYS(K("floors")));
}

const strata_vtable *area_children_table(const strata_runtime *rt, uint64_t area) {
  return sys_table(rt->w, area, SYS(K("children")));
}

uint64_t area_parent_uid(const strata_runtime *rt, uint64_t area) {
  return sys_uid(rt->w, area, SYS(K("parent")));
}

int area_own_starting_floor(const strata_runtime *rt, uint64_t area, int64_t *out) {
  return sys_int(rt->w, area, SYS(K("starting_floor")), out);
}

uint64_t area_entrance(const strata_runtime *rt, uint64_t area, int64_t *x, int64_t *y, int *has_xy) {
  *has_xy = sys_int(rt->w, area, SYS(K("entrance"), K("x")), x) &&
            sys_int(rt->w, area, SYS(K("entrance"), K("y")), y);
  return sys_uid(rt->w, area, SYS(K("entrance"), K("map")));
}

strata_status area_sys_new(strata_value *sys, uint64_t parent, strata_value *params, const char *gen,
                           int64_t starting, const int64_t *deepest, strata_error *err) {
  strata_status st = strata_value_table(sys, err);
  if (st) { strata_value_clear(params); return st; }
  if (parent) st = put(sys, "parent", strata_value_int((int64_t)parent), err);
  if (!st) st = put_table(sys, "floors", err);
  if (!st) st = put_table(sys, "children", err);
  if (!st) st = put(sys, "params", *params, err);
  else strata_value_clear(params);
  *params = strata_value_nil();
  if (!st && gen) st = put_str(sys, "generator", gen, err);
  if (!st) st = put(sys, "starting_floor", strata_value_int(starting), err);
  if (!st && deepest) st = put(sys, "deepest_floor", strata_value_int(*deepest), err);
  if (st) strata_value_clear(sys);
  return st;
}

strata_status area_set_floor(strata_runtime *rt, uint64_t area, int64_t n, uint64_t map, strata_error *err) {
  return sys_set_uid(rt->w, area, SYS(K("floors"), I(n)), map, err);
}

strata_status area_set_parent(strata_runtime *rt, uint64_t area, uint64_t parent, strata_error *err) {
  return sys_set_uid(rt->w, area, SYS(K("parent")), parent, err);
}

strata_status area_set_child(strata_runtime *rt, uint64_t area, uint64_t child, int on, strata_error *err) {
  return sys_set_bool(rt->w, area, SYS(K("children"), I((int64_t)child)), on, err);
}

strata_status area_set_entrance(strata_runtime *rt, uint64_t area, uint64_t map, int64_t x, int64_t y,
                                strata_error *err) {
  strata_value e = strata_value_nil();
  strata_status st = strata_value_table(&e, err);
  if (!st) st = put(&e, "map", strata_value_int((int64_t)map), err);
  if (!st) st = put(&e, "x", strata_value_int(x), err);
  if (!st) st = put(&e, "y", strata_value_int(y), err);
  if (!st) return sys_set(rt->w, area, SYS(K("entrance")), &e, err);
  strata_value_clear(&e);
  return st;
}

strata_status area_set_unique(strata_runtime *rt, uint64_t area, const char *id, strata_error *err) {
  return sys_set_str(rt->w, area, SYS(K("unique")), id, err);
}

strata_status area_set_conquered(strata_runtime *rt, uint64_t area, int on, strata_error *err) {
  strata_value v = strata_value_bool(on); /* false is stored, as areas.lua always did */
  return sys_set(rt->w, area, SYS(K("conquered")), &v, err);
}

strata_status area_set_starting(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err) {
  return sys_set_int(rt->w, area, SYS(K("starting_floor")), n, err);
}

strata_status area_set_deepest(strata_runtime *rt, uint64_t area, const int64_t *n, strata_error *err) {
  if (!n) return sys_del(rt->w, area, SYS(K("deepest_floor")), err);
  return sys_set_int(rt->w, area, SYS(K("deepest_floor")), *n, err);
}

strata_status area_set_deepest_visited(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err) {
  return sys_set_int(rt->w, area, SYS(K("deepest_visited")), n, err);
}

/* The public getters (area.h). */

/* strata_map_area and strata_area_floor_map are asked the same questions
** again and again (every area_of, area:floor, travel), and their answers sit
** in several small tables of the object's own (its properties, sys), which a
** big world scatters over its memory: each read missed the caches several
** times over. A memo keeps an answer in one slot. An answer read from a map
** or an area (the usual case) depends only on that object's fields (and on
** the map it names staying that map), so it stays valid until that object
** is edited (world_object_stamp): a journey that writes its area's deepest
** floor visited leaves every other answer. While no map or area at all is
** edited, a read compares one count and reads no object. Any other answer is
** valid only until the world next changes. The slot of (key, key_n) in *cache (made on
** first use; NULL when out of memory), and whether it holds the answer. */
enum memo_by { MEMO_BY_WORLD, MEMO_BY_KEY, MEMO_BY_BOTH };

/* Every map's and area's edits: while they stay the same, an answer read
** from maps and areas holds without reading its objects' stamps. */
static uint64_t memo_kinds(const strata_runtime *rt) {
  return world_kind_edits(rt->w, "map") + world_kind_edits(rt->w, "area"); /* each only grows */
}

static int memo_valid(const strata_runtime *rt, struct memo_slot *s) {
  if (s->by == MEMO_BY_WORLD) return s->stamp == 1 + world_changes(rt->w);
  uint64_t kinds = memo_kinds(rt);
  if (s->kinds == kinds) return 1;
  if (s->stamp != world_object_stamp(rt->w, s->key) ||
      (s->by == MEMO_BY_BOTH && s->uid_stamp != world_object_stamp(rt->w, s->uid)))
    return 0;
  s->kinds = kinds; /* valid now: the next read needs no stamps until a map or area is edited */
  return 1;
}

static struct memo_slot *memo(strata_runtime *rt, struct memo_slot **cache, uint64_t key, int64_t key_n,
                              int *hit) {
  *hit = 0;
  if (!*cache && !(*cache = strata_calloc(MEMO_SLOTS, sizeof **cache))) return NULL;
  uint64_t h = (key ^ (uint64_t)key_n * UINT64_C(0xBF58476D1CE4E5B9)) * UINT64_C(0x9E3779B97F4A7C15);
  struct memo_slot *s = &(*cache)[h >> 32 & (MEMO_SLOTS - 1)];
  if (s->key == key && s->key_n == key_n && s->stamp) *hit = memo_valid(rt, s);
  if (!*hit) *s = (struct memo_slot){ .key = key, .key_n = key_n };
  return s;
}

/* Stamps a slot just filled: by key's own stamp when the answer was read
** from an object of kind, and by the stamp of the uid it names, if any (0
** while no object has that uid: a map deleted, which a rollback may bring
** back). */
static void memo_fill(strata_runtime *rt, struct memo_slot *s, uint64_t key, const char *kind, uint64_t named) {
  const strata_object *o = strata_world_object(rt->w, key), *m = named ? strata_world_object(rt->w, named) : NULL;
  int own = o && strcmp(o->kind, kind) == 0 && (!m || strcmp(m->kind, "map") == 0);
  s->by = !own ? MEMO_BY_WORLD : named ? MEMO_BY_BOTH : MEMO_BY_KEY;
  s->stamp = own ? world_object_stamp(rt->w, key) : 1 + world_changes(rt->w);
  s->uid_stamp = named ? world_object_stamp(rt->w, named) : 0;
  s->kinds = memo_kinds(rt);
}

/* What the map_areas memo holds besides an area's floor maps, by key_n: a
** map's area and floor (0), its renew timer (1), an area's deepest floor
** visited (2; uids are distinct across kinds). A journey reads all three. */
enum { MEMO_AREA_OF, MEMO_RENEW_TIMER, MEMO_DEEPEST_VISITED };

/* sys[key] of uid (of kind), memo'd as `what`: a uid (as_uid) or an integer; 1 when there is one. */
static int memo_sys(const strata_runtime *crt, uint64_t uid, int what, const char *kind, const char *key,
                    int as_uid, int64_t *out) {
  strata_runtime *rt = (strata_runtime *)crt; /* the memo is not state */
  int hit;
  struct memo_slot *s = memo(rt, &rt->map_areas, uid, what, &hit);
  if (hit) {
    *out = s->n;
    return s->has;
  }
  const strata_value *v = sys_get(rt->w, uid, SYS(K(key)));
  int64_t n = 0;
  int has = as_uid ? (n = (int64_t)value_uid(v)) != 0 : value_int(v, &n);
  if (s) s->n = n, s->has = has, memo_fill(rt, s, uid, kind, 0);
  *out = n;
  return has;
}

uint64_t strata_area_floor_map(const strata_runtime *crt, uint64_t area, int64_t n) {
  strata_runtime *rt = (strata_runtime *)crt; /* the memo is not state */
  int hit;
  struct memo_slot *s = memo(rt, &rt->floor_maps, area, n, &hit);
  if (hit) return s->has ? s->uid : 0;
  /* the map named, kept in the slot while it is gone: its return undoes the answer 0 */
  uint64_t m = area_floor_uid(rt, area, n);
  int live = m && strata_world_object(rt->w, m);
  if (s) s->uid = m, s->has = live, memo_fill(rt, s, area, "area", m);
  return live ? m : 0;
}

uint64_t strata_area_parent(const strata_runtime *rt, uint64_t area) {
  uint64_t p = area_parent_uid(rt, area);
  return p && strata_world_object(rt->w, p) ? p : 0;
}

uint64_t strata_area_entrance(const strata_runtime *rt, uint64_t area, int64_t *x, int64_t *y) {
  int64_t ex = 0, ey = 0;
  int has_xy;
  uint64_t m = area_entrance(rt, area, &ex, &ey, &has_xy);
  if (!m || !strata_world_object(rt->w, m)) return 0;
  if (x) *x = ex;
  if (y) *y = ey;
  return m;
}

int64_t strata_area_starting_floor(const strata_runtime *rt, uint64_t area) {
  int64_t n;
  return area_own_starting_floor(rt, area, &n) ? n : 1;
}

int strata_area_deepest_floor(const strata_runtime *rt, uint64_t area, int64_t *out) {
  return sys_int(rt->w, area, SYS(K("deepest_floor")), out);
}

int strata_area_deepest_visited(const strata_runtime *rt, uint64_t area, int64_t *out) {
  int64_t n;
  int has = memo_sys(rt, area, MEMO_DEEPEST_VISITED, "area", "deepest_visited", 0, &n);
  if (has) *out = n;
  return has;
}

const strata_value *strata_area_params(const strata_runtime *rt, uint64_t area) {
  return sys_get(rt->w, area, SYS(K("params")));
}

const char *strata_area_generator(const strata_runtime *rt, uint64_t area) {
  return sys_str(rt->w, area, SYS(K("generator")));
}

const char *strata_area_unique_id(const strata_runtime *rt, uint64_t area) {
  return sys_str(rt->w, area, SYS(K("unique")));
}

int strata_area_is_conquered(const strata_runtime *rt, uint64_t area) {
  const strata_value *v = sys_get(rt->w, area, SYS(K("conquered")));
  return v && v->type == STRATA_VBOOL && v->u.b;
}

/* ---- maps ---- */

int map_floor(const strata_runtime *rt, uint64_t map, int64_t *out) {
  return sys_int(rt->w, map, SYS(K("floor")), out);
}

strata_status map_set_floor_of(strata_runtime *rt, uint64_t map, uint64_t area, int64_t n, strata_error *err) {
  strata_status st = sys_set_uid(rt->w, map, SYS(K("area")), area, err);
  if (!st) st = sys_set_int(rt->w, map, SYS(K("floor")), n, err);
  return st;
}

strata_status map_set_level(strata_runtime *rt, uint64_t map, int64_t level, strata_error *err) {
  return sys_set_int(rt->w, map, SYS(K("level")), level, err);
}

static strata_value due_key(int renew) { return K(renew ? "renew_due" : "restock_due"); }

int map_due(const strata_runtime *rt, uint64_t map, int renew, double *out) {
  return sys_num(rt->w, map, SYS(due_key(renew)), out);
}

strata_status map_set_due(strata_runtime *rt, uint64_t map, int renew, const double *due, strata_error *err) {
  strata_value v = due ? strata_value_float(*due) : strata_value_nil();
  return sys_set(rt->w, map, SYS(due_key(renew)), &v, err);
}

uint64_t map_renew_timer(const strata_runtime *rt, uint64_t map) {
  int64_t t;
  return memo_sys(rt, map, MEMO_RENEW_TIMER, "map", "renew_timer", 1, &t) ? (uint64_t)t : 0;
}

strata_status map_set_renew_timer(strata_runtime *rt, uint64_t map, uint64_t timer, strata_error *err) {
  return sys_set_uid(rt->w, map, SYS(K("renew_timer")), timer, err);
}

strata_status map_set_token(strata_runtime *rt, uint64_t map, const char *name, strata_value *traits,
                            strata_error *err) {
  return sys_set(rt->w, map, SYS(K("tokens"), K(name)), traits, err);
}

/* The public getters (area.h). */

const strata_value *strata_map_tokens(const strata_runtime *rt, uint64_t map) {
  const strata_value *t = sys_get(rt->w, map, SYS(K("tokens")));
  return t && t->type == STRATA_VTABLE ? t : NULL;
}

uint64_t map_area_in(const strata_world *w, uint64_t map) { return sys_uid(w, map, SYS(K("area"))); }

uint64_t map_area_floor(const strata_runtime *crt, uint64_t map, int64_t *floor, int *has_floor) {
  strata_runtime *rt = (strata_runtime *)crt; /* the memo is not state */
  int hit;
  struct memo_slot *s = memo(rt, &rt->map_areas, map, MEMO_AREA_OF, &hit);
  if (!hit) {
    uint64_t a = sys_uid(rt->w, map, SYS(K("area")));
    int64_t n = 0;
    int has = a && map_floor(rt, map, &n);
    if (!s) {
      if (floor) *floor = n;
      if (has_floor) *has_floor = has;
      return a;
    }
    s->uid = a, s->n = n, s->has = has;
    memo_fill(rt, s, map, "map", 0);
  }
  if (floor) *floor = s->n;
  if (has_floor) *has_floor = s->has;
  return s->uid;
}

uint64_t strata_map_area(const strata_runtime *rt, uint64_t map, int64_t *floor) {
  return map_area_floor(rt, map, floor, NULL);
}

int64_t strata_map_level(const strata_runtime *rt, uint64_t map) {
  int64_t n;
  if (sys_int(rt->w, map, SYS(K("level")), &n) || map_floor(rt, map, &n)) return n;
  return 1;
}

/* ---- features ---- */

uint64_t entrance_area(const strata_runtime *rt, uint64_t feature) {
  return sys_uid(rt->w, feature, SYS(K("area")));
}

int entrance_floor(const strata_runtime *rt, uint64_t feature, int64_t *out) {
  return sys_int(rt->w, feature, SYS(K("floor")), out);
}

strata_status entrance_sys_new(strata_value *sys, uint64_t area, const int64_t *floor, const char *image,
                               strata_error *err) {
  strata_status st = strata_value_table(sys, err);
  if (st) return st;
  st = put_str(sys, "type", "entrance", err);
  if (!st) st = put(sys, "area", strata_value_int((int64_t)area), err);
  if (!st && floor) st = put(sys, "floor", strata_value_int(*floor), err);
  if (!st && image) st = put_str(sys, "image", image, err);
  if (st) strata_value_clear(sys);
  return st;
}

strata_status stairs_sys_new(strata_value *sys, int64_t floor_delta, strata_error *err) {
  strata_status st = strata_value_table(sys, err);
  if (st) return st;
  st = put_str(sys, "type", "stairs", err);
  if (!st) st = put(sys, "floor_delta", strata_value_int(floor_delta), err);
  if (st) strata_value_clear(sys);
  return st;
}

/* The public getters (feature.h). */

strata_feature_type strata_feature_type_of(const strata_runtime *rt, uint64_t feature) {
  const char *t = sys_str(rt->w, feature, SYS(K("type")));
  if (!t || !rt_object(rt, feature, "feature")) return STRATA_FEATURE_NONE;
  if (strcmp(t, "entrance") == 0) return STRATA_FEATURE_ENTRANCE;
  if (strcmp(t, "stairs") == 0) return STRATA_FEATURE_STAIRS;
  return STRATA_FEATURE_NONE;
}

const char *strata_feature_image(const strata_runtime *rt, uint64_t feature) {
  if (strata_feature_type_of(rt, feature) != STRATA_FEATURE_ENTRANCE) return NULL;
  return sys_str(rt->w, feature, SYS(K("image")));
}

int64_t strata_feature_floor_delta(const strata_runtime *rt, uint64_t feature) {
  int64_t d;
  if (strata_feature_type_of(rt, feature) != STRATA_FEATURE_STAIRS) return 0;
  return sys_int(rt->w, feature, SYS(K("floor_delta")), &d) ? d : 0;
}

/* ---- the world record ---- */

strata_status record_sys_new(strata_value *sys, strata_error *err) {
  strata_status st = strata_value_table(sys, err);
  if (!st) st = put_table(sys, "uniques", err);
  if (!st) st = put_table(sys, "placed", err);
  if (!st) st = put_table(sys, "areas", err);
  if (st) strata_value_clear(sys);
  return st;
}

const strata_vtable *record_area_table(const strata_runtime *rt) {
  uint64_t rec = rt_record(rt);
  return rec ? sys_table(rt->w, rec, SYS(K("areas"))) : NULL;
}

strata_status record_unplace(strata_runtime *rt, uint64_t map, strata_error *err) {
  uint64_t rec = rt_record(rt);
  const strata_vtable *t;
  strata_status st = STRATA_OK;
  while (!st && rec && (t = sys_table(rt->w, rec, SYS(K("placed")))) != NULL) {
    size_t i = 0;
    while (i < t->n && !(t->vals[i].type == STRATA_VINT && t->vals[i].u.i == (int64_t)map)) i++;
    if (i == t->n) break;
    strata_value key = strata_value_nil();
    if ((st = strata_value_copy(&key, &t->keys[i], err))) break;
    st = sys_del(rt->w, rec, SYS(K("placed"), key), err);
    strata_value_clear(&key);
  }
  return st;
}

uint64_t record_placed(const strata_runtime *rt, const char *id) {
  uint64_t rec = rt_record(rt);
  return rec ? sys_uid(rt->w, rec, SYS(K("placed"), K(id))) : 0;
}

strata_status record_set_area(strata_runtime *rt, uint64_t area, int on, strata_error *err) {
  return sys_set_bool(rt->w, rt_record(rt), SYS(K("areas"), I((int64_t)area)), on, err);
}

strata_status record_set_unique(strata_runtime *rt, const char *id, uint64_t area, strata_error *err) {
  return sys_set_uid(rt->w, rt_record(rt), SYS(K("uniques"), K(id)), area, err);
}

strata_status record_set_placed(strata_runtime *rt, const char *id, uint64_t map, strata_error *err) {
  return sys_set_uid(rt->w, rt_record(rt), SYS(K("placed"), K(id)), map, err);
}

strata_status record_set_player(strata_runtime *rt, uint64_t actor, strata_error *err) {
  return sys_set_uid(rt->w, rt_record(rt), SYS(K("player")), actor, err);
}

/* The public getters (travel.h, unique.h). */

uint64_t strata_player(const strata_runtime *rt) {
  uint64_t rec = rt_record(rt);
  uint64_t p = rec ? sys_uid(rt->w, rec, SYS(K("player"))) : 0;
  return p && strata_world_object(rt->w, p) ? p : 0;
}

uint64_t strata_find_unique(const strata_runtime *rt, const char *id) {
  uint64_t rec = rt_record(rt);
  uint64_t a = rec && id ? sys_uid(rt->w, rec, SYS(K("uniques"), K(id))) : 0;
  return a && strata_world_object(rt->w, a) ? a : 0;
}

/* ---- the bookkeeping kinds ---- */

static const char *const bookkeeping_kinds[] = { SYS_KIND_RECORD, SYS_KIND_GRID_MAPS, SYS_KIND_BRANCH_INDEX,
                                                 SYS_KIND_BRANCH_CELLS };

int strata_kind_is_bookkeeping(const char *kind) {
  for (size_t i = 0; kind && i < sizeof bookkeeping_kinds / sizeof *bookkeeping_kinds; i++)
    if (strcmp(kind, bookkeeping_kinds[i]) == 0) return 1;
  return 0;
}

/* ---- the grid's maps (grid.h): sys.maps = { id, ... } of the one "grid_maps" object ---- */

static const strata_vtable *grid_map_list(const strata_world *w) {
  uint64_t rec = strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS);
  return rec ? sys_table(w, rec, SYS(K("maps"))) : NULL;
}

size_t strata_grid_map_ids(const strata_world *w, const char **out, size_t cap) {
  const strata_vtable *t = grid_map_list(w);
  for (size_t n = 0;; n++) {
    strata_value k = I((int64_t)n + 1);
    const strata_value *v = t ? strata_vtable_get(t, &k) : NULL;
    if (!v || v->type != STRATA_VSTRING) return n;
    if (out && n < cap) out[n] = v->u.str.s;
  }
}

strata_status strata_grid_set_map_ids(strata_world *w, const char *const *ids, size_t n, strata_error *err) {
  uint64_t rec = strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS);
  if (!rec && !n) return STRATA_OK;
  strata_value list = strata_value_nil();
  strata_status st = strata_value_table(&list, err);
  for (size_t i = 0; i < n && !st; i++) {
    strata_value k = I((int64_t)i + 1), v = strata_value_nil();
    if (!(st = strata_value_string(&v, ids[i], strlen(ids[i]), err)) && (st = strata_vtable_set(list.u.t, &k, &v, err)))
      strata_value_clear(&v);
  }
  if (st || (st = strata_world_begin(w, err))) { strata_value_clear(&list); return st; }
  if (!rec) st = strata_world_create(w, SYS_KIND_GRID_MAPS, NULL, &rec, err);
  if (!st) st = sys_set(w, rec, SYS(K("maps")), &list, err);
  else strata_value_clear(&list);
  if (st) strata_world_rollback(w);
  else strata_world_commit(w);
  return st;
}

uint64_t strata_grid_home(const strata_world *w) {
  uint64_t rec = strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS);
  const strata_value *v = rec ? sys_get(w, rec, SYS(K("home"))) : NULL;
  uint64_t home = v && v->type == STRATA_VINT && v->u.i > 0 ? (uint64_t)v->u.i : 0;
  return strata_is_room(w, home) ? home : 0;
}

strata_status strata_grid_set_home(strata_world *w, uint64_t room, strata_error *err) {
  if (room && !strata_is_room(w, room))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_grid_set_home", "room#%llu is no live room",
                           (unsigned long long)room);
  uint64_t rec = strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS);
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  if (!rec) st = strata_world_create(w, SYS_KIND_GRID_MAPS, NULL, &rec, err);
  strata_value v = room ? I((int64_t)room) : strata_value_nil();
  if (!st) st = sys_set(w, rec, SYS(K("home")), &v, err);
  if (st) strata_world_rollback(w);
  else strata_world_commit(w);
  return st;
}

/* ---- prototypes stored in the world (grid.h): sys.protos = { entry, ... } ---- */

static const strata_value *stored_proto(const strata_world *w, uint64_t rec, size_t i) {
  const strata_value *v = rec ? sys_get(w, rec, SYS(K("protos"), I((int64_t)i + 1))) : NULL;
  return v && v->type == STRATA_VTABLE ? v : NULL;
}

static const char *proto_id(const strata_value *entry) {
  const strata_value *id = entry ? strata_vtable_get_str(entry->u.t, "_id") : NULL;
  return id && id->type == STRATA_VSTRING ? id->u.str.s : NULL;
}

const strata_value *strata_grid_prototype(const strata_world *w, size_t i) {
  return stored_proto(w, strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS), i);
}

strata_status strata_grid_set_prototype(strata_world *w, const strata_value *entry, strata_error *err) {
  const char *id = entry && entry->type == STRATA_VTABLE ? proto_id(entry) : NULL;
  if (!id) return strata_error_in(err, STRATA_EARG, "strata_grid_set_prototype", "expected a table with a string _id");
  uint64_t rec = strata_world_first_of_kind(w, SYS_KIND_GRID_MAPS);
  size_t i = 0;
  for (const strata_value *e; (e = stored_proto(w, rec, i)); i++) {
    const char *eid = proto_id(e);
    if (eid && !strcmp(eid, id)) break;
  }
  strata_value copy = strata_value_nil();
  strata_status st = strata_value_copy(&copy, entry, err);
  if (st || (st = strata_world_begin(w, err))) { strata_value_clear(&copy); return st; }
  if (!rec) st = strata_world_create(w, SYS_KIND_GRID_MAPS, NULL, &rec, err);
  if (!st) st = sys_set(w, rec, SYS(K("protos"), I((int64_t)i + 1)), &copy, err);
  else strata_value_clear(&copy);
  if (st) strata_world_rollback(w);
  else strata_world_commit(w);
  return st;
}

/* ---- records kept whole by their own module ---- */

static const char *const record_keys[] = { "walk", "walk_route", "btimers", "turn" };

const strata_value *record_get(const strata_world *w, uint64_t uid, sys_record r, const strata_value *key) {
  if (!key) return sys_get(w, uid, SYS(K(record_keys[r])));
  return sys_get(w, uid, SYS(K(record_keys[r]), *key));
}

strata_status record_put(strata_world *w, uint64_t uid, sys_record r, const strata_value *key, strata_value *val,
                         strata_error *err) {
  if (!key) return sys_set(w, uid, SYS(K(record_keys[r])), val, err);
  return sys_set(w, uid, SYS(K(record_keys[r]), *key), val, err);
}
