/* test_schema.c - the bookkeeping schema (core/src/sys.h) and what makes it
** scale: the typed accessors read and write the stored layout of area.h (the
** same `sys` paths a save holds); tables above STRATA_VTABLE_INDEX_MIN keys
** keep a hash index through sets, removals, copies, decoding, rollbacks and
** failed allocations; a world finds the first object of a kind
** (strata_world_first_of_kind, the world record's lookup) through creation,
** deletion, rollback and reopening. */
#include <stdlib.h>
#include <unistd.h>

#include "area_fixture.h"
#include "check.h"
#include "failing_alloc.h" /* __wrap_malloc: CMake links this test with the allocator wrapped */
#include "runtime_internal.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)

static strata_error err;

static strata_value key_of(size_t i) {
  char b[32];
  if (i % 2) return strata_value_int((int64_t)i * 7919);
  snprintf(b, sizeof b, "key %zu", i);
  return fx_str(b);
}

/* Every key below n is there (with its value i) exactly when present(i). */
static int table_holds(const strata_vtable *t, size_t n, int (*present)(size_t)) {
  size_t count = 0;
  for (size_t i = 0; i < n; i++) {
    strata_value k = key_of(i);
    const strata_value *v = strata_vtable_get(t, &k);
    strata_value_clear(&k);
    if (present(i) != (v != NULL)) return 0;
    if (v && !(v->type == STRATA_VINT && v->u.i == (int64_t)i)) return 0;
    count += v != NULL;
  }
  return count == t->n;
}

static int all(size_t i) { (void)i; return 1; }
static int odd_or_small(size_t i) { return i % 2 || i < 40; }

static void test_index(void) {
  strata_value tv;
  OK(strata_value_table(&tv, &err));
  strata_vtable *t = tv.u.t;
  for (size_t i = 0; i < STRATA_VTABLE_INDEX_MIN; i++) {
    strata_value k = key_of(i), v = strata_value_int((int64_t)i);
    OK(strata_vtable_set(t, &k, &v, &err));
    strata_value_clear(&k);
  }
  CHECK(t->slots == NULL); /* small tables are searched front to back */
  CHECK(table_holds(t, STRATA_VTABLE_INDEX_MIN, all));
  for (size_t i = STRATA_VTABLE_INDEX_MIN; i < 5000; i++) {
    strata_value k = key_of(i), v = strata_value_int((int64_t)i);
    OK(strata_vtable_set(t, &k, &v, &err));
    strata_value_clear(&k);
  }
  CHECK(t->slots != NULL);
  CHECK(t->nslots >= 2 * t->cap);
  CHECK(table_holds(t, 5000, all));
  /* removals move the last key into the hole: the index follows */
  for (size_t i = 40; i < 5000; i += 2) {
    strata_value k = key_of(i), nil = strata_value_nil();
    OK(strata_vtable_set(t, &k, &nil, &err));
    strata_value_clear(&k);
  }
  CHECK(table_holds(t, 5000, odd_or_small));
  /* a replacement keeps one entry */
  strata_value k1 = key_of(1), v1 = strata_value_int(1);
  size_t n = t->n;
  OK(strata_vtable_set(t, &k1, &v1, &err));
  CHECK_EQ_INT(t->n, n);
  strata_value_clear(&k1);

  /* copies and decoded tables are indexed, and equal */
  strata_value copy, back;
  strata_buffer buf = { NULL, 0, 0 };
  OK(strata_value_copy(&copy, &tv, &err));
  CHECK(copy.u.t->slots != NULL && table_holds(copy.u.t, 5000, odd_or_small));
  OK(strata_value_encode(&tv, &buf, &err));
  OK(strata_value_decode(&back, buf.data, buf.len, &err));
  CHECK(back.u.t->slots != NULL && table_holds(back.u.t, 5000, odd_or_small));
  CHECK(strata_value_equal(&tv, &back) && strata_value_equal(&copy, &tv));
  /* the stored order is the table's own: the same bytes again */
  strata_buffer again = { NULL, 0, 0 };
  OK(strata_value_encode(&back, &again, &err));
  CHECK(again.len == buf.len && memcmp(again.data, buf.data, buf.len) == 0);
  strata_buffer_free(&buf);
  strata_buffer_free(&again);
  strata_value_clear(&back);
  strata_value_clear(&copy);

  /* a removal allocates nothing (a rollback relies on it) */
  armed = 1, allocations = 0, fail_at = 1;
  for (size_t i = 1; i < 5000; i += 2) {
    strata_value k = strata_value_int((int64_t)i * 7919), nil = strata_value_nil();
    CHECK_EQ_INT(strata_vtable_set(t, &k, &nil, NULL), STRATA_OK);
  }
  armed = 0;
  CHECK_EQ_INT(t->n, 20); /* the strings below 40 */
  strata_value_clear(&tv);
}

/* Adding the key that makes a table indexed, with each allocation failing in
** turn: a failure leaves the table as it was. */
static void test_index_oom(void) {
  int done = 0;
  for (long at = 1; !done && at < 50; at++) {
    strata_value tv;
    OK(strata_value_table(&tv, &err));
    for (size_t i = 0; i < STRATA_VTABLE_INDEX_MIN; i++) {
      strata_value k = key_of(i), v = strata_value_int((int64_t)i);
      OK(strata_vtable_set(tv.u.t, &k, &v, &err));
      strata_value_clear(&k);
    }
    strata_value k = key_of(STRATA_VTABLE_INDEX_MIN), v = strata_value_int(STRATA_VTABLE_INDEX_MIN);
    armed = 1, allocations = 0, fail_at = at;
    strata_status st = strata_vtable_set(tv.u.t, &k, &v, NULL);
    armed = 0;
    if (st == STRATA_OK) {
      done = 1;
      CHECK(tv.u.t->slots != NULL && table_holds(tv.u.t, STRATA_VTABLE_INDEX_MIN + 1, all));
    } else {
      CHECK_EQ_INT(st, STRATA_ENOMEM);
      CHECK(table_holds(tv.u.t, STRATA_VTABLE_INDEX_MIN, all));
      strata_value_clear(&v);
    }
    strata_value_clear(&k);
    strata_value_clear(&tv);
  }
  CHECK(done);
}

static void test_first_of_kind(void) {
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, b, c;
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), 0);
  OK(strata_world_create(w, "thing", NULL, &a, &err));
  OK(strata_world_create(w, "record", NULL, &b, &err));
  OK(strata_world_create(w, "record", NULL, &c, &err));
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), b);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "thing"), a);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "nothing"), 0);
  CHECK_EQ_INT(strata_world_first_of_kind(w, NULL), 0);
  /* the first deleted: the next one */
  OK(strata_world_delete(w, b, &err));
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), c);
  /* a savepoint: deleted and made, then rolled back */
  OK(strata_world_begin(w, &err));
  uint64_t d;
  OK(strata_world_delete(w, c, &err));
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), 0);
  OK(strata_world_create(w, "record", NULL, &d, &err));
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), d);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "record"), c);
  CHECK(strata_world_object(w, d) == NULL);
  /* reopened from a save */
  char path[] = "/tmp/strata_test_schema_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  OK(strata_world_save(w, path, NULL, 0, &err));
  strata_world *r = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  OK(strata_world_open(path, &r, &mods, &nmods, &err));
  strata_mod_versions_free(mods, nmods);
  if (r) {
    CHECK_EQ_INT(strata_world_first_of_kind(r, "record"), c);
    CHECK_EQ_INT(strata_world_first_of_kind(r, "thing"), a);
    strata_world_free(r);
  }
  unlink(path);
  strata_world_free(w);
}

/* props.sys[a][b] as a save stores it. */
static const strata_value *stored(strata_world *w, uint64_t uid, const char *a, const strata_value *b) {
  strata_value k[3] = { fx_str("sys"), fx_str(a), b ? *b : strata_value_nil() };
  const strata_value *v = strata_object_get(w, uid, k, b ? 3 : 2);
  strata_value_clear(&k[0]);
  strata_value_clear(&k[1]);
  return v;
}

static int stored_int(strata_world *w, uint64_t uid, const char *a, const strata_value *b, int64_t want) {
  const strata_value *v = stored(w, uid, a, b);
  return v && v->type == STRATA_VINT && v->u.i == want;
}

static void test_accessors(void) {
  strata_registry *reg = dungeon_registry();
  strata_world *w = strata_world_new(7, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t area, child, map, m2, rec;
  OK(strata_area_create(rt, "dungeon.endless", NULL, &area, &err));
  OK(strata_area_create(rt, "dungeon.endless", &(strata_area_opts){ .parent = area }, &child, &err));
  rec = rt_record(rt);
  CHECK(rec != 0);
  CHECK_EQ_INT(strata_world_first_of_kind(w, "world_record"), rec);
  /* the record lists the areas, the parent its child */
  strata_value ka = strata_value_int((int64_t)area), kc = strata_value_int((int64_t)child);
  CHECK(stored(w, rec, "areas", &ka) && stored(w, rec, "areas", &kc));
  CHECK(record_area_table(rt) && record_area_table(rt)->n == 2);
  CHECK(stored(w, area, "children", &kc) && area_children_table(rt, area)->n == 1);
  CHECK_EQ_INT(area_parent_uid(rt, child), area);
  CHECK(stored_int(w, child, "parent", NULL, (int64_t)area));

  /* floors: the accessor and the stored path agree, both ways */
  OK(strata_area_floor(rt, area, 3, &map, &err));
  strata_value k3 = strata_value_int(3);
  CHECK_EQ_INT(area_floor_uid(rt, area, 3), map);
  CHECK(stored_int(w, area, "floors", &k3, (int64_t)map));
  int64_t f = 0;
  CHECK_EQ_INT(strata_map_area(rt, map, &f), area);
  CHECK_EQ_INT(f, 3);
  CHECK(stored_int(w, map, "area", NULL, (int64_t)area) && stored_int(w, map, "floor", NULL, 3));
  OK(strata_map_create(rt, 4, 4, NULL, &m2, &err));
  OK(strata_world_begin(w, &err));
  OK(map_set_floor_of(rt, m2, child, 9, &err));
  OK(area_set_floor(rt, child, 9, m2, &err));
  CHECK_EQ_INT(strata_area_floor_map(rt, child, 9), m2);
  strata_world_rollback(w); /* the accessors' writes are journaled */
  CHECK_EQ_INT(strata_area_floor_map(rt, child, 9), 0);
  CHECK_EQ_INT(strata_map_area(rt, m2, NULL), 0);

  /* fields: set through the accessors, read back through the stored layout */
  OK(strata_world_begin(w, &err));
  int64_t deep = 12;
  OK(area_set_deepest(rt, area, &deep, &err));
  OK(area_set_starting(rt, area, 2, &err));
  OK(area_set_deepest_visited(rt, area, 3, &err));
  OK(area_set_conquered(rt, area, 1, &err));
  OK(area_set_entrance(rt, child, map, 1, 2, &err));
  OK(map_set_level(rt, map, 5, &err));
  double due = 42.5;
  OK(map_set_due(rt, map, 1, &due, &err));
  OK(map_set_renew_timer(rt, map, 77, &err));
  OK(record_set_placed(rt, "x.y", map, &err));
  strata_world_commit(w);
  CHECK(stored_int(w, area, "deepest_floor", NULL, 12) && stored_int(w, area, "starting_floor", NULL, 2));
  CHECK(stored_int(w, area, "deepest_visited", NULL, 3) && strata_area_is_conquered(rt, area));
  CHECK(stored_int(w, map, "level", NULL, 5) && strata_map_level(rt, map) == 5);
  int64_t x = 0, y = 0;
  int has_xy = 0;
  CHECK_EQ_INT(area_entrance(rt, child, &x, &y, &has_xy), map);
  CHECK(has_xy && x == 1 && y == 2);
  strata_value km = fx_str("map");
  CHECK(stored_int(w, child, "entrance", &km, (int64_t)map));
  strata_value_clear(&km);
  double d = 0;
  CHECK(map_due(rt, map, 1, &d) && d == 42.5);
  CHECK_EQ_INT(map_renew_timer(rt, map), 77);
  CHECK_EQ_INT(record_placed(rt, "x.y"), map);
  OK(strata_world_begin(w, &err));
  OK(record_unplace(rt, map, &err));
  OK(area_set_deepest(rt, area, NULL, &err));
  strata_world_commit(w);
  CHECK_EQ_INT(record_placed(rt, "x.y"), 0);
  CHECK(stored(w, area, "deepest_floor", NULL) == NULL);

  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
}

/* strata_map_area's cache (sys.c) answers as the stored layout does after
** every kind of change: a write, its rollback, a deletion, another map in
** the same slot. */
static void test_map_area_cache(void) {
  strata_registry *reg = dungeon_registry();
  strata_world *w = strata_world_new(7, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t area, m[40];
  int64_t f = 0;
  OK(strata_area_create(rt, "dungeon.endless", NULL, &area, &err));
  for (int i = 0; i < 40; i++) OK(strata_map_create(rt, 4, 4, NULL, &m[i], &err));
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), 0);
  OK(strata_world_begin(w, &err));
  OK(map_set_floor_of(rt, m[0], area, 4, &err));
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), area); /* read, and cached, inside the savepoint */
  CHECK_EQ_INT(f, 4);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), 0);
  CHECK_EQ_INT(f, 0);
  OK(map_set_floor_of(rt, m[0], area, 5, &err));
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), area);
  CHECK_EQ_INT(f, 5);
  OK(map_set_floor_of(rt, m[0], area, 6, &err));
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), area);
  CHECK_EQ_INT(f, 6);
  /* maps of other floors, read in turn: each its own answer */
  for (int i = 1; i < 40; i++) OK(map_set_floor_of(rt, m[i], area, 10 + i, &err));
  for (int round = 0; round < 2; round++)
    for (int i = 1; i < 40; i++) {
      CHECK_EQ_INT(strata_map_area(rt, m[i], &f), area);
      CHECK_EQ_INT(f, 10 + i);
    }
  OK(strata_world_delete(w, m[0], &err));
  CHECK_EQ_INT(strata_map_area(rt, m[0], &f), 0);
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
}

/* The slot of (key, key_n) in a memo that holds an answer, or NULL. */
static struct memo_slot *memo_slot_of(struct memo_slot *c, uint64_t key, int64_t key_n) {
  for (size_t i = 0; c && i < MEMO_SLOTS; i++)
    if (c[i].key == key && c[i].key_n == key_n && c[i].stamp) return &c[i];
  return NULL;
}

/* A memo'd answer stays while other maps and areas change (a journey
** writes its area's deepest floor visited: the other areas' and maps'
** answers are kept) and goes when its own object, or the map it names,
** changes or goes. Whether a read was answered from the memo shows by an
** answer altered in its slot coming back. */
static void test_memo_per_object(void) {
  strata_registry *reg = dungeon_registry();
  strata_world *w = strata_world_new(7, &err);
  strata_runtime *rt = dungeon_runtime(w, reg);
  uint64_t a, b, ma, mb;
  int64_t f = 0, dv = 0;
  OK(strata_area_create(rt, "dungeon.endless", NULL, &a, &err));
  OK(strata_area_create(rt, "dungeon.endless", NULL, &b, &err));
  OK(strata_area_floor(rt, a, 1, &ma, &err));
  OK(strata_area_floor(rt, b, 1, &mb, &err));
  CHECK_EQ_INT(strata_map_area(rt, ma, &f), a);
  OK(area_set_deepest_visited(rt, a, 1, &err));
  CHECK(strata_area_deepest_visited(rt, a, &dv) && dv == 1);
  struct memo_slot *s = memo_slot_of(rt->map_areas, ma, 0), *d = memo_slot_of(rt->map_areas, a, 2);
  CHECK(s && d);
  if (!s || !d) return;
  s->n = 99;
  d->n = 77;
  /* other objects edited: both kept */
  OK(area_set_deepest_visited(rt, b, 5, &err));
  OK(map_set_level(rt, mb, 3, &err));
  CHECK_EQ_INT(strata_map_area(rt, ma, &f), a);
  CHECK_EQ_INT(f, 99);
  CHECK(strata_area_deepest_visited(rt, a, &dv) && dv == 77);
  /* their own objects edited: dropped */
  OK(map_set_level(rt, ma, 2, &err));
  OK(area_set_deepest_visited(rt, a, 1, &err));
  CHECK_EQ_INT(strata_map_area(rt, ma, &f), a);
  CHECK_EQ_INT(f, 1);
  CHECK(strata_area_deepest_visited(rt, a, &dv) && dv == 1);
  /* an area's floor: dropped when its map goes, or the area changes */
  CHECK_EQ_INT(strata_area_floor_map(rt, a, 1), ma);
  OK(strata_world_begin(w, &err));
  OK(strata_world_delete(w, ma, &err));
  CHECK_EQ_INT(strata_area_floor_map(rt, a, 1), 0);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_area_floor_map(rt, a, 1), ma);
  OK(area_set_floor(rt, a, 1, mb, &err));
  CHECK_EQ_INT(strata_area_floor_map(rt, a, 1), mb);
  /* a creation rolled back, and another object made with its uid: no answer of the first */
  uint64_t m1, m2;
  OK(strata_world_begin(w, &err));
  OK(strata_map_create(rt, 4, 4, NULL, &m1, &err));
  OK(map_set_floor_of(rt, m1, a, 7, &err));
  CHECK_EQ_INT(strata_map_area(rt, m1, &f), a);
  strata_world_rollback(w);
  OK(strata_map_create(rt, 4, 4, NULL, &m2, &err));
  if (m2 == m1) CHECK_EQ_INT(strata_map_area(rt, m2, &f), 0);
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
}

int main(void) {
  test_memo_per_object();
  test_map_area_cache();
  test_index();
  test_index_oom();
  test_first_of_kind();
  test_accessors();
  return check_summary("test_schema");
}
