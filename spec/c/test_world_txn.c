/* test_world_txn.c - savepoints: begin, commit, rollback, touch. */
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include <sqlite3.h>

#include "check.h"
#include "strata/world.h"
#include "world_dump.h"
#include "world_internal.h" /* njournal: copies are taken once per savepoint */

/* ---- helpers ---- */

static strata_value str(const char *s) {
  strata_value v;
  strata_value_string(&v, s, strlen(s), NULL);
  return v;
}

static void set_int(strata_world *w, uint64_t uid, const char *key, int64_t i) {
  strata_value k = str(key), v = strata_value_int(i);
  CHECK_EQ_INT(strata_object_set(w, uid, &k, 1, &v, NULL), STRATA_OK);
  strata_value_clear(&k);
}

static int64_t get_int(strata_world *w, uint64_t uid, const char *key) {
  strata_value k = str(key);
  const strata_value *v = strata_object_get(w, uid, &k, 1);
  strata_value_clear(&k);
  return v && v->type == STRATA_VINT ? v->u.i : -1;
}

static void tag(strata_world *w, uint64_t uid, const char *name, int on) {
  CHECK_EQ_INT(strata_object_set_tag(w, uid, name, strlen(name), on, NULL), STRATA_OK);
}

static int has_tag(strata_world *w, uint64_t uid, const char *name) {
  strata_object *o = strata_world_object(w, uid);
  return o && o->tags.type == STRATA_VTABLE && strata_vtable_get_str(o->tags.u.t, name) != NULL;
}

static strata_token tok(strata_tokens *t, const char *name) {
  return strata_tokens_intern(t, name, strlen(name), NULL);
}

/* A save's rows, as text, but for meta.next_uid (a rollback keeps the counter)
** and the checksums and sums, which cover the file's id (new per full save). */
static char *save_rows(strata_world *w) {
  char path[] = "/tmp/strata_test_txn_XXXXXX";
  close(mkstemp(path));
  strata_error err;
  strata_status st = strata_world_save(w, path, NULL, 0, &err);
  if (st) fprintf(stderr, "save to %s: %s\n", path, err.message);
  CHECK_EQ_INT(st, STRATA_OK);
  static const char *const tables[] = {"meta", "mods", "objects", "timers", "subscriptions", "rng", "tiles"};
  text t = {0};
  sqlite3 *db;
  sqlite3_open(path, &db);
  for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM %s ORDER BY 1", tables[k]);
    sqlite3_stmt *q;
    CHECK_EQ_INT(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
    put(&t, "%s:\n", tables[k]);
    while (sqlite3_step(q) == SQLITE_ROW) {
      const char *first = (const char *)sqlite3_column_text(q, 0);
      /* the uid counter moves on; the generation (file.id, save.*) is new per save */
      if (k == 0 && first && (!strcmp(first, "next_uid") || !strcmp(first, "file.id") || !strncmp(first, "save.", 5) ||
                              !strncmp(first, "sum.", 4)))
        continue;
      for (int c = 0; c < sqlite3_column_count(q) - 1; c++) { /* the last: the row's checksum */
        const unsigned char *b = sqlite3_column_blob(q, c);
        int n = sqlite3_column_bytes(q, c);
        put(&t, " %d:", sqlite3_column_type(q, c));
        for (int i = 0; i < n; i++) put(&t, "%02x", b[i]);
      }
      put(&t, "\n");
    }
    sqlite3_finalize(q);
  }
  sqlite3_close(db);
  unlink(path);
  return t.s;
}

/* ---- each kind of change ---- */

static void test_objects(void) {
  strata_error err;
  strata_world *w = strata_world_new(7, &err);
  uint64_t a, b, c;
  strata_world_create(w, "actor", "base.goblin", &a, &err);
  strata_world_create(w, "thing", NULL, &b, &err);
  strata_object_set_position(w, a, b, 3, 4, &err);
  set_int(w, a, "hp", 10);
  tag(w, a, "hostile", 1);
  char *before = dump(w);
  strata_object *pa = strata_world_object(w, a), *pb = strata_world_object(w, b);

  CHECK_EQ_INT(strata_world_depth(w), 0);
  CHECK_EQ_INT(strata_world_begin(w, &err), STRATA_OK);
  CHECK_EQ_INT(strata_world_depth(w), 1);
  set_int(w, a, "hp", 3);
  set_int(w, a, "mp", 9);
  tag(w, a, "hostile", 0);
  tag(w, a, "asleep", 1);
  strata_object_set_archetype(w, a, "base.orc", &err);
  strata_object_set_position(w, a, b, 5, 6, &err);
  strata_world_create(w, "thing", NULL, &c, &err);
  set_int(w, c, "n", 1);
  CHECK_EQ_INT(strata_world_delete(w, b, &err), STRATA_OK);
  CHECK(strata_world_object(w, b) == NULL);
  CHECK_EQ_INT(strata_world_count(w), 2);
  CHECK_EQ_INT(strata_world_rollback(w), STRATA_OK);
  CHECK_EQ_INT(strata_world_depth(w), 0);

  char *after = dump(w);
  CHECK_STR(after, before);
  CHECK(strata_world_object(w, a) == pa && strata_world_object(w, b) == pb);
  CHECK(strata_world_object(w, c) == NULL);
  CHECK_EQ_INT(get_int(w, a, "hp"), 10);
  CHECK_EQ_INT(get_int(w, a, "mp"), -1);
  CHECK(has_tag(w, a, "hostile") && !has_tag(w, a, "asleep"));
  CHECK_STR(pa->archetype, "base.goblin");
  CHECK(pa->x == 3 && pa->y == 4);
  /* The counter is not undone: uids are never reused. */
  uint64_t d;
  strata_world_create(w, "thing", NULL, &d, &err);
  CHECK(d > c);

  /* Replacing the whole property table, and archetype NULL <-> set. */
  strata_world_begin(w, &err);
  strata_value props;
  strata_value_table(&props, &err);
  CHECK_EQ_INT(strata_object_set(w, a, NULL, 0, &props, &err), STRATA_OK);
  strata_object_set_archetype(w, a, NULL, &err);
  strata_object_set_archetype(w, d, "base.rock", &err);
  CHECK_EQ_INT(get_int(w, a, "hp"), -1);
  strata_world_rollback(w);
  CHECK_EQ_INT(get_int(w, a, "hp"), 10);
  CHECK_STR(pa->archetype, "base.goblin");
  CHECK(strata_world_object(w, d)->archetype == NULL);

  /* Commit keeps everything. */
  strata_world_begin(w, &err);
  set_int(w, a, "hp", 1);
  strata_world_delete(w, d, &err);
  CHECK_EQ_INT(strata_world_commit(w), STRATA_OK);
  CHECK_EQ_INT(get_int(w, a, "hp"), 1);
  CHECK(strata_world_object(w, d) == NULL);
  CHECK_EQ_INT(w->njournal, 0);
  free(before);
  free(after);
  strata_world_free(w);
}

/* Copy on first touch: one entry per object per savepoint. */
static void test_first_touch(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, m;
  strata_world_create(w, "actor", NULL, &a, &err);
  strata_world_create_map(w, 8, 8, NULL, &m, &err);
  set_int(w, a, "hp", 1);
  CHECK_EQ_INT(w->njournal, 0); /* no savepoint: no journal */
  CHECK_EQ_INT(strata_world_touch(w, a, &err), STRATA_OK);
  CHECK_EQ_INT(w->njournal, 0);
  strata_world_begin(w, &err);
  set_int(w, a, "hp", 2); /* a key replaced: that key alone, with its old value */
  CHECK_EQ_INT(w->njournal, 1);
  set_int(w, a, "hp", 3);
  CHECK_EQ_INT(w->njournal, 2);
  tag(w, a, "x", 1); /* the tags: the fields saved whole */
  CHECK_EQ_INT(w->njournal, 3);
  strata_object_set_position(w, a, m, 1, 1, &err);
  strata_object_set_archetype(w, a, "base.x", &err);
  strata_world_touch(w, a, &err); /* fields saved already, no tile map: nothing more */
  CHECK_EQ_INT(w->njournal, 3);
  set_int(w, m, "seen", 1); /* a key added: that set alone, the map is not cloned */
  CHECK_EQ_INT(w->njournal, 4);
  strata_world_touch(w, m, &err); /* now the fields and the tiles */
  CHECK_EQ_INT(w->njournal, 6);
  strata_world_touch(w, m, &err);
  set_int(w, m, "seen", 2);
  set_int(w, m, "new", 2); /* fields saved already: nothing more */
  CHECK_EQ_INT(w->njournal, 6);
  /* An inner savepoint journals again (its rollback needs the state at its begin). */
  strata_world_begin(w, &err);
  set_int(w, a, "hp", 4);
  CHECK_EQ_INT(w->njournal, 7);
  /* What the savepoint made needs no copy. */
  uint64_t n;
  strata_world_create(w, "thing", NULL, &n, &err);
  set_int(w, n, "k", 1);
  CHECK_EQ_INT(w->njournal, 8);
  strata_world_commit(w);
  CHECK_EQ_INT(w->njournal, 8); /* the outer savepoint owns them now */
  strata_world_commit(w);
  CHECK_EQ_INT(w->njournal, 0);
  CHECK_EQ_INT(get_int(w, a, "hp"), 4);
  CHECK(strata_world_object(w, n) != NULL);
  strata_world_free(w);
}

/* A move journals the position alone (an actor's properties are not
** copied for it), a few times a savepoint before the fields are saved whole;
** a rollback puts the object back, on its map's list too. */
static void test_moves(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, m1, m2;
  strata_world_create(w, "actor", NULL, &a, &err);
  strata_world_create_map(w, 8, 8, NULL, &m1, &err);
  strata_world_create_map(w, 8, 8, NULL, &m2, &err);
  set_int(w, a, "hp", 1);
  strata_object_set_position(w, a, m1, 1, 1, &err);
  strata_world_begin(w, &err);
  strata_object_set_position(w, a, m2, 2, 2, &err);
  CHECK_EQ_INT(w->njournal, 1);
  set_int(w, a, "hp", 2); /* the fields were not saved by the move: this key alone */
  CHECK_EQ_INT(w->njournal, 2);
  strata_object_set_position(w, a, m2, 3, 3, &err);
  CHECK_EQ_INT(strata_world_rollback(w), STRATA_OK);
  const strata_object *o = strata_world_object(w, a);
  CHECK(o->map == m1 && o->x == 1 && o->y == 1 && get_int(w, a, "hp") == 1);
  CHECK(strata_world_next_on(w, m1, 0) == a && strata_world_next_on(w, m2, 0) == 0);
  /* many moves in one savepoint: a bounded journal, the first place back */
  strata_world_begin(w, &err);
  for (int i = 0; i < 50; i++) strata_object_set_position(w, a, i % 2 ? m1 : m2, i % 8, 0, &err);
  CHECK(w->njournal <= 9);
  set_int(w, a, "hp", 5);
  CHECK_EQ_INT(strata_world_rollback(w), STRATA_OK);
  CHECK(o->map == m1 && o->x == 1 && o->y == 1 && get_int(w, a, "hp") == 1);
  CHECK(strata_world_next_on(w, m1, 0) == a && strata_world_next_on(w, m2, 0) == 0);
  strata_world_free(w);
}

static void test_nested(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, b;
  strata_world_create(w, "actor", NULL, &a, &err);
  set_int(w, a, "x", 0);
  set_int(w, a, "y", 0);
  set_int(w, a, "z", 0);

  /* An inner rollback keeps the outer savepoint's changes. */
  strata_world_begin(w, &err);
  set_int(w, a, "x", 1);
  strata_world_begin(w, &err);
  CHECK_EQ_INT(strata_world_depth(w), 2);
  set_int(w, a, "x", 2);
  set_int(w, a, "y", 2);
  strata_world_create(w, "thing", NULL, &b, &err);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_world_depth(w), 1);
  CHECK_EQ_INT(get_int(w, a, "x"), 1);
  CHECK_EQ_INT(get_int(w, a, "y"), 0);
  CHECK(strata_world_object(w, b) == NULL);
  /* An inner commit, then the outer rollback, undoes both. */
  strata_world_begin(w, &err);
  set_int(w, a, "z", 3);
  set_int(w, a, "x", 3);
  strata_world_create(w, "thing", NULL, &b, &err);
  strata_world_commit(w);
  CHECK_EQ_INT(get_int(w, a, "z"), 3);
  set_int(w, a, "y", 4); /* the outer savepoint again, after the inner commit */
  set_int(w, b, "k", 4);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_world_depth(w), 0);
  CHECK_EQ_INT(get_int(w, a, "x"), 0);
  CHECK_EQ_INT(get_int(w, a, "y"), 0);
  CHECK_EQ_INT(get_int(w, a, "z"), 0);
  CHECK(strata_world_object(w, b) == NULL);
  CHECK_EQ_INT(strata_world_count(w), 1);
  /* Nothing open: commit and rollback refuse. */
  CHECK_EQ_INT(strata_world_commit(w), STRATA_ESTATE);
  CHECK_EQ_INT(strata_world_rollback(w), STRATA_ESTATE);
  CHECK_EQ_INT(strata_world_touch(w, 999, &err), STRATA_ENOTFOUND);
  /* Deep nesting. */
  for (int i = 0; i < 40; i++) {
    strata_world_begin(w, &err);
    set_int(w, a, "x", i + 1);
  }
  CHECK_EQ_INT(strata_world_depth(w), 40);
  for (int i = 0; i < 20; i++) strata_world_rollback(w);
  CHECK_EQ_INT(get_int(w, a, "x"), 20);
  for (int i = 0; i < 19; i++) strata_world_commit(w);
  CHECK_EQ_INT(get_int(w, a, "x"), 20);
  strata_world_rollback(w);
  CHECK_EQ_INT(get_int(w, a, "x"), 0);
  strata_world_free(w);
}

/* Objects made one after the other in a savepoint share one journal entry
** (a grid spawn makes a hundred thousand); a nested savepoint, a deletion or
** a skipped uid starts another, and each rollback frees what it made. */
static void test_created_run(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t first, u, inner;
  strata_world_begin(w, &err);
  strata_world_create(w, "thing", NULL, &first, &err);
  for (int i = 1; i < 1000; i++) strata_world_create(w, "thing", NULL, &u, &err);
  CHECK_EQ_INT(w->njournal, 1);
  strata_world_begin(w, &err);
  strata_world_create(w, "thing", NULL, &inner, &err);
  strata_world_create(w, "thing", NULL, &u, &err);
  CHECK_EQ_INT(w->njournal, 2);
  strata_world_rollback(w);
  CHECK(strata_world_object(w, inner) == NULL && strata_world_object(w, u) == NULL);
  CHECK_EQ_INT(strata_world_count(w), 1000);
  strata_world_create(w, "thing", NULL, &u, &err); /* the uids rolled back are not drawn again */
  CHECK(u > inner + 1);
  CHECK(strata_world_delete(w, first + 500, &err) == STRATA_OK);
  strata_world_create(w, "thing", NULL, &u, &err);
  CHECK_EQ_INT(w->njournal, 4);
  CHECK_EQ_INT(strata_world_count(w), 1001);
  strata_world_rollback(w);
  CHECK_EQ_INT(strata_world_count(w), 0);
  CHECK(strata_world_object(w, first) == NULL && strata_world_object(w, first + 500) == NULL);
  strata_world_free(w);
}

/* Rollback restores in place: pointers taken before stay valid. */
static void test_pointers(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t m;
  strata_world_create_map(w, 6, 4, "base.cave", &m, &err);
  strata_object *o = strata_world_object(w, m);
  strata_tilemap *tm = strata_world_tilemap(w, m);
  strata_tokens *t = strata_world_tokens(w);
  strata_token floor = tok(t, "floor"), wall = tok(t, "wall"), coin = tok(t, "coin");
  strata_tilemap_clear(tm, floor, &err);
  strata_tilemap_set(tm, 1, 1, coin, &err);
  strata_tilemap_set(tm, 1, 1, coin, &err);
  set_int(w, m, "depth", 1);
  char *before = dump(w);

  strata_world_begin(w, &err);
  CHECK_EQ_INT(strata_world_touch(w, m, &err), STRATA_OK);
  strata_tilemap_fill_rect(tm, 0, 0, 6, 1, wall, 0, &err);
  strata_tilemap_set(tm, 1, 1, wall, &err);
  strata_tilemap_remove(tm, 1, 1, coin, NULL, &err);
  for (int i = 0; i < 10; i++) strata_tilemap_add_front(tm, 4, 2, coin, &err);
  set_int(w, m, "depth", 2);
  strata_path p;
  strata_path_init(&p);
  strata_tilemap_find_path(tm, 0, 3, 5, 3, NULL, &p, &err); /* caches for the new contents */
  strata_world_rollback(w);

  CHECK(strata_world_object(w, m) == o);
  CHECK(strata_world_tilemap(w, m) == tm && o->tilemap == tm);
  CHECK_EQ_INT(strata_tilemap_top(tm, 0, 0), floor);
  CHECK_EQ_INT(strata_tilemap_stack(tm, 1, 1, NULL, 0), 3);
  CHECK_EQ_INT(strata_tilemap_stack(tm, 4, 2, NULL, 0), 1);
  CHECK(strata_tilemap_tokens(tm) == t);
  char *after = dump(w);
  CHECK_STR(after, before);
  /* The map works on after the rollback: edits and searches. */
  CHECK_EQ_INT(strata_tilemap_set(tm, 2, 2, wall, &err), STRATA_OK);
  CHECK_EQ_INT(strata_tilemap_find_path(tm, 0, 3, 5, 3, NULL, &p, &err), STRATA_OK);
  CHECK(p.len == 6);
  strata_path_free(&p);

  /* A map attached inside a savepoint is freed by the rollback; one
  ** replacing another has the old contents put into it. */
  uint64_t bare;
  strata_world_create(w, "map", NULL, &bare, &err);
  strata_world_begin(w, &err);
  CHECK_EQ_INT(strata_world_attach_tilemap(w, bare, strata_tilemap_new(2, 2, t, &err), &err), STRATA_OK);
  strata_tilemap *fresh = strata_tilemap_new(3, 3, t, &err);
  strata_world_attach_tilemap(w, m, fresh, &err);
  strata_world_rollback(w);
  CHECK(strata_world_tilemap(w, bare) == NULL);
  CHECK(strata_world_tilemap(w, m) == fresh);
  CHECK_EQ_INT(strata_tilemap_width(fresh), 6);
  CHECK_EQ_INT(strata_tilemap_stack(fresh, 1, 1, NULL, 0), 3);
  free(before);
  free(after);
  strata_world_free(w);
}

/* A deleted map comes back with its object, tile map and subscriptions. */
static void test_deleted_map(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t m, a, s1, s2, s3;
  strata_world_create_map(w, 4, 4, NULL, &m, &err);
  strata_world_create(w, "actor", NULL, &a, &err);
  strata_tilemap *tm = strata_world_tilemap(w, m);
  strata_object *o = strata_world_object(w, m);
  strata_token rock = tok(strata_world_tokens(w), "rock");
  strata_tilemap_clear(tm, rock, &err);
  strata_tilemap_set(tm, 2, 2, rock, &err);
  strata_value arg = str("payload");
  strata_world_subscribe(w, m, "base.enter", "base.on_enter", &arg, 5, &s1, &err);
  strata_world_subscribe(w, a, "base.hit", "base.on_hit", NULL, 1, &s2, &err);
  strata_world_subscribe(w, m, "base.leave", "base.on_leave", NULL, 7, &s3, &err);
  char *before = dump(w);

  for (int touched = 0; touched < 2; touched++) {
    strata_world_begin(w, &err);
    if (touched) {
      strata_world_touch(w, m, &err);
      strata_tilemap_clear(tm, 0, &err);
      set_int(w, m, "k", 1);
    }
    CHECK_EQ_INT(strata_world_delete(w, m, &err), STRATA_OK);
    CHECK_EQ_INT(strata_world_subscription_count(w), 1);
    CHECK(strata_world_tilemap(w, m) == NULL);
    CHECK_EQ_INT(strata_world_subscribe(w, m, "base.x", "base.y", NULL, 0, NULL, &err), STRATA_ENOTFOUND);
    strata_world_rollback(w);
    CHECK(strata_world_object(w, m) == o);
    CHECK(strata_world_tilemap(w, m) == tm);
    CHECK_EQ_INT(strata_tilemap_stack(tm, 2, 2, NULL, 0), 2);
    CHECK_EQ_INT(strata_world_subscription_count(w), 3);
    const strata_subscription *s = strata_world_subscription_at(w, 0);
    CHECK(s->uid == s1 && s->object == m && s->priority == 5 && strata_value_equal(&s->args, &arg));
    CHECK(strata_world_subscription_at(w, 1)->uid == s2);
    CHECK(strata_world_subscription_at(w, 2)->uid == s3);
    char *after = dump(w);
    CHECK_STR(after, before);
    free(after);
  }
  /* Deleted for good: committed, the journal frees the object. */
  strata_world_begin(w, &err);
  strata_world_delete(w, m, &err);
  strata_world_commit(w);
  CHECK(strata_world_object(w, m) == NULL);
  CHECK_EQ_INT(strata_world_subscription_count(w), 1);
  strata_value_clear(&arg);
  free(before);
  strata_world_free(w);
}

static void test_subscriptions(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, s1, s2, s3;
  strata_world_create(w, "actor", NULL, &a, &err);
  strata_value arg = str("x");
  strata_world_subscribe(w, a, "base.e1", "base.h1", &arg, 1, &s1, &err);
  strata_world_subscribe(w, a, "base.e2", "base.h2", NULL, 2, &s2, &err);
  char *before = dump(w);
  strata_world_begin(w, &err);
  strata_world_unsubscribe(w, s1, &err);
  strata_world_subscribe(w, a, "base.e3", "base.h3", &arg, 3, &s3, &err);
  strata_world_unsubscribe(w, s3, &err);
  strata_world_subscribe(w, a, "base.e4", "base.h4", NULL, 4, NULL, &err);
  CHECK_EQ_INT(strata_world_subscription_count(w), 2);
  strata_world_rollback(w);
  char *after = dump(w);
  CHECK_STR(after, before);
  strata_value_clear(&arg);
  free(before);
  free(after);
  strata_world_free(w);
}

static void test_streams_timers(void) {
  strata_error err;
  strata_world *w = strata_world_new(99, &err);
  strata_rng r;
  strata_world_stream(w, "loot", &r, &err);
  strata_rng_u32(&r);
  strata_world_set_stream(w, "loot", &r, &err);
  uint64_t rep, once, other;
  strata_value arg = str("a");
  strata_world_schedule(w, 5, 10, "base.tick", &arg, &rep, &err);
  strata_world_schedule(w, 7, 0, "base.once", &arg, &once, &err);
  strata_world_schedule(w, 50, 0, "base.later", NULL, &other, &err);
  strata_world_set_time(w, 1, &err);
  char *before = dump(w);

  strata_world_begin(w, &err);
  strata_world_set_time(w, 30, &err);
  strata_rng_u32(&r);
  strata_world_set_stream(w, "loot", &r, &err);
  strata_world_set_stream(w, "loot", &r, &err);
  strata_world_stream(w, "weather", &r, &err); /* created on first use */
  strata_world_set_stream(w, "quests", &r, &err); /* created by a set */
  CHECK_EQ_INT(strata_world_stream_count(w), 3);
  strata_timer out;
  CHECK_EQ_INT(strata_world_fire(w, rep, &out, &err), STRATA_OK); /* repeating: moves to 15 */
  strata_timer_clear(&out);
  CHECK_EQ_INT(strata_world_fire(w, once, &out, &err), STRATA_OK); /* one-shot: gone */
  CHECK_STR(out.handler, "base.once");
  strata_timer_clear(&out);
  CHECK_EQ_INT(strata_world_fire(w, rep, &out, &err), STRATA_OK); /* again: 25 */
  strata_timer_clear(&out);
  CHECK_EQ_INT(strata_world_cancel(w, other, &err), STRATA_OK);
  strata_world_schedule(w, 3, 1, "base.new", NULL, NULL, &err);
  CHECK_EQ_INT(strata_world_timer_count(w), 2);
  CHECK(strata_world_timer_at(w, 1)->uid == rep && strata_world_timer_at(w, 1)->due == 25);
  strata_world_rollback(w);

  char *after = dump(w);
  CHECK_STR(after, before);
  CHECK_EQ_INT(strata_world_timer_count(w), 3);
  CHECK(strata_world_next_due(w, 100)->uid == rep && strata_world_next_due(w, 100)->due == 5);
  CHECK_EQ_INT(strata_world_stream_count(w), 1);
  CHECK(strata_world_time(w) == 1);
  /* The time moves forward only, from where the rollback left it. */
  CHECK_EQ_INT(strata_world_set_time(w, 2, &err), STRATA_OK);
  strata_value_clear(&arg);
  free(before);
  free(after);
  strata_world_free(w);
}

/* A generator lent under a key (a branch room's cell stream): the stream
** functions reach it by the key while lent, a rollback during the lend puts
** it back, one after the lend ended leaves it alone; it is never one of the
** world's streams. */
static void test_lent_stream(void) {
  strata_error err;
  strata_world *w = strata_world_new(7, &err);
  strata_rng lent, r, start;
  strata_rng_stream(&lent, 7, "cell", 4);
  start = lent;
  CHECK_EQ_INT(strata_world_begin(w, &err), STRATA_OK); /* the operation's savepoint */
  CHECK_EQ_INT(strata_world_lend_stream(w, "cell", &lent, &err), STRATA_OK);
  strata_world_stream(w, "cell", &r, &err);
  CHECK(r.state == start.state && r.inc == start.inc);
  strata_rng_u32(&r);
  CHECK_EQ_INT(strata_world_set_stream(w, "cell", &r, &err), STRATA_OK);
  CHECK(lent.state == r.state); /* drawn through the key: the lender's generator moved */
  strata_rng drawn = lent;
  strata_world_begin(w, &err); /* a handler that draws, then fails */
  strata_rng_u32(&r);
  strata_world_set_stream(w, "cell", &r, &err);
  strata_rng_u32(&r);
  strata_world_set_stream(w, "cell", &r, &err);
  CHECK(lent.state != drawn.state);
  strata_world_rollback(w);
  CHECK(lent.state == drawn.state && lent.inc == drawn.inc);
  strata_world_lend_end(w);
  CHECK_EQ_INT(strata_world_stream_count(w), 0);
  strata_world_rollback(w); /* after the lend: the lender's generator is its own */
  CHECK(lent.state == drawn.state);
  /* no longer lent: the key names a world stream, from the seed */
  strata_world_stream(w, "cell", &r, &err);
  CHECK(r.state == start.state && r.inc == start.inc);
  CHECK_EQ_INT(strata_world_stream_count(w), 1);
  strata_world_free(w);
}

/* Traits defined on a map's private token table are restored; a map that
** took a private table inside the savepoint shares the world's again. */
static void test_private_tokens(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t a, b;
  strata_world_create_map(w, 3, 3, NULL, &a, &err);
  strata_world_create_map(w, 3, 3, NULL, &b, &err);
  strata_tilemap *ma = strata_world_tilemap(w, a), *mb = strata_world_tilemap(w, b);
  strata_token_traits mud = {1, 3, "~", "", 0}, deep = {0, 1, "~", "blue", 0};
  CHECK_EQ_INT(strata_tilemap_own_tokens(ma, &err), STRATA_OK);
  strata_tokens_define(strata_tilemap_tokens(ma), "mud", 3, &mud, &err);
  strata_token m_id = strata_tokens_find(strata_tilemap_tokens(ma), "mud", 3);
  strata_tilemap_clear(ma, m_id, &err);
  CHECK_NEAR(strata_tilemap_cost(ma, 1, 1), 3, 0);
  char *before = dump(w);

  strata_world_begin(w, &err);
  strata_world_touch(w, a, &err);
  strata_tokens_define(strata_tilemap_tokens(ma), "mud", 3, &deep, &err);
  CHECK(!strata_tilemap_passable(ma, 1, 1));
  strata_world_touch(w, b, &err);
  strata_tilemap_own_tokens(mb, &err);
  strata_tokens_define(strata_tilemap_tokens(mb), "ice", 3, &deep, &err);
  CHECK(strata_tilemap_has_private_tokens(mb));
  strata_world_rollback(w);

  CHECK(strata_world_tilemap(w, a) == ma);
  CHECK(strata_tilemap_has_private_tokens(ma));
  CHECK_NEAR(strata_tilemap_cost(ma, 1, 1), 3, 0);
  CHECK(!strata_tilemap_has_private_tokens(mb));
  CHECK(strata_tilemap_tokens(mb) == strata_world_tokens(w));
  char *after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  strata_world_free(w);
}

/* A save after a rollback holds what a save before the savepoint held (but
** for the uid counter, which moves on). */
static void test_save_after_rollback(void) {
  strata_error err;
  strata_world *w = strata_world_new(5, &err);
  uint64_t m, a, t1;
  strata_world_create_map(w, 5, 5, "base.cave", &m, &err);
  strata_world_create(w, "actor", "base.goblin", &a, &err);
  strata_tilemap *tm = strata_world_tilemap(w, m);
  strata_token floor = tok(strata_world_tokens(w), "floor");
  strata_tilemap_clear(tm, floor, &err);
  strata_object_set_position(w, a, m, 2, 2, &err);
  set_int(w, a, "hp", 8);
  tag(w, a, "player", 1);
  strata_world_schedule(w, 4, 2, "base.tick", NULL, &t1, &err);
  strata_world_subscribe(w, a, "base.hit", "base.h", NULL, 1, NULL, &err);
  strata_rng r;
  strata_world_stream(w, "loot", &r, &err);
  char *before = save_rows(w);
  uint64_t next = strata_world_next_uid(w);

  strata_world_begin(w, &err);
  uint64_t m2;
  strata_world_create_map(w, 2, 2, NULL, &m2, &err);
  strata_token lava = tok(strata_world_tokens(w), "lava"); /* interned for good */
  strata_world_touch(w, m, &err);
  strata_tilemap_set(tm, 0, 0, lava, &err);
  strata_tilemap_set(strata_world_tilemap(w, m2), 0, 0, lava, &err);
  strata_object_set_position(w, a, m2, 0, 0, &err);
  set_int(w, a, "hp", 1);
  strata_world_delete(w, m, &err);
  strata_timer out;
  strata_world_fire(w, t1, &out, &err);
  strata_timer_clear(&out);
  strata_world_set_time(w, 9, &err);
  strata_rng_u32(&r);
  strata_world_set_stream(w, "loot", &r, &err);
  strata_world_rollback(w);

  char *after = save_rows(w);
  CHECK_STR(after, before);
  CHECK(strata_world_next_uid(w) > next);
  free(before);
  free(after);
  strata_world_free(w);
}

/* Freeing a world with savepoints open frees the journal too (ASan/LSan). */
static void test_free_open(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  uint64_t m, a, t1, t2, s1;
  strata_world_create_map(w, 4, 4, NULL, &m, &err);
  strata_world_create(w, "actor", "base.x", &a, &err);
  strata_value arg = str("x");
  strata_world_schedule(w, 1, 0, "base.once", &arg, &t1, &err);
  strata_world_schedule(w, 2, 0, "base.cancelled", &arg, &t2, &err);
  strata_world_subscribe(w, a, "base.e", "base.h", &arg, 1, &s1, &err);
  strata_world_begin(w, &err);
  set_int(w, a, "hp", 1);
  strata_world_touch(w, m, &err);
  strata_tilemap_own_tokens(strata_world_tilemap(w, m), &err);
  strata_world_begin(w, &err);
  strata_world_unsubscribe(w, s1, &err);
  strata_world_subscribe(w, m, "base.e", "base.h", &arg, 1, NULL, &err);
  strata_world_delete(w, m, &err);
  strata_timer out;
  strata_world_fire(w, t1, &out, &err);
  strata_timer_clear(&out);
  strata_world_cancel(w, t2, &err);
  uint64_t c;
  strata_world_create(w, "thing", NULL, &c, &err);
  strata_world_delete(w, c, &err);
  strata_rng r;
  strata_world_stream(w, "new", &r, &err);
  CHECK_EQ_INT(strata_world_depth(w), 2);
  strata_value_clear(&arg);
  strata_world_free(w);
}

/* The loader's restore functions are not journaled, so they refuse. */
static void test_restore_refused(void) {
  strata_error err;
  strata_world *w = strata_world_new(1, &err);
  strata_world_begin(w, &err);
  strata_object o;
  memset(&o, 0, sizeof o);
  o.uid = 5;
  CHECK_EQ_INT(strata_world_restore_object(w, &o, &err), STRATA_ESTATE);
  strata_timer t;
  memset(&t, 0, sizeof t);
  t.uid = 6;
  t.handler = "base.x";
  CHECK_EQ_INT(strata_world_restore_timer(w, &t, &err), STRATA_ESTATE);
  strata_world_rollback(w);
  strata_world_free(w);
}

/* Random edits in random nested savepoints: every rollback brings back the
** world exactly as it was at its begin. */
static void test_random(void) {
  strata_error err;
  strata_rng g;
  strata_rng_seed(&g, 2024);
  int rollbacks = 0;
  for (int round = 0; round < 30; round++) {
    strata_world *w = strata_world_new((uint64_t)round, &err);
    strata_tokens *wt = strata_world_tokens(w);
    static const char *const names[] = {"floor", "wall", "door", "coin", "water"};
    char *stack[16];
    int depth = 0;
    for (int step = 0; step < 400; step++) {
      uint64_t next = strata_world_next_uid(w);
      uint64_t pick = 1 + strata_rng_below(&g, next > 1 ? next - 1 : 1);
      strata_object *o = strata_world_object(w, pick);
      int op = (int)strata_rng_below(&g, 20);
      strata_value k = str(names[strata_rng_below(&g, 5)]);
      switch (op) {
      case 0: strata_world_create(w, "thing", strata_rng_chance(&g, 0.5) ? "base.a" : NULL, NULL, &err); break;
      case 1: strata_world_create_map(w, 1 + (int)strata_rng_below(&g, 5), 1 + (int)strata_rng_below(&g, 5), NULL, NULL, &err); break;
      case 2: if (o) strata_world_delete(w, pick, &err); break;
      case 3: {
        strata_value v = strata_value_int((int64_t)strata_rng_below(&g, 100));
        strata_object_set(w, pick, &k, 1, &v, &err);
        break;
      }
      case 4: if (o) tag(w, pick, names[strata_rng_below(&g, 5)], strata_rng_chance(&g, 0.5)); break;
      case 5: strata_object_set_archetype(w, pick, strata_rng_chance(&g, 0.5) ? "base.b" : NULL, &err); break;
      case 6: strata_object_set_position(w, pick, 1, (int64_t)strata_rng_below(&g, 9), 2, &err); break;
      case 7: case 8: case 9:
        if (o && o->tilemap) {
          strata_tilemap *tm = o->tilemap;
          CHECK_EQ_INT(strata_world_touch(w, pick, &err), STRATA_OK);
          strata_token t = tok(strata_tilemap_tokens(tm), names[strata_rng_below(&g, 5)]);
          int x = (int)strata_rng_below(&g, (uint64_t)strata_tilemap_width(tm));
          int y = (int)strata_rng_below(&g, (uint64_t)strata_tilemap_height(tm));
          switch (strata_rng_below(&g, 6)) {
          case 0: case 1: strata_tilemap_set(tm, x, y, t, &err); break;
          case 2: strata_tilemap_add_front(tm, x, y, t, &err); break;
          case 3: strata_tilemap_remove(tm, x, y, t, NULL, &err); break;
          case 4: strata_tilemap_fill_rect(tm, x - 1, y - 1, 3, 3, t, strata_rng_chance(&g, 0.5), &err); break;
          case 5: strata_tilemap_clear(tm, strata_rng_chance(&g, 0.3) ? 0 : t, &err); break;
          }
        }
        break;
      case 10:
        if (o && o->tilemap) {
          strata_world_touch(w, pick, &err);
          strata_tilemap_own_tokens(o->tilemap, &err);
          strata_token_traits tr = {strata_rng_chance(&g, 0.5), 1 + (double)strata_rng_below(&g, 4), "x", "", 0};
          const char *name = names[strata_rng_below(&g, 5)];
          strata_tokens_define(strata_tilemap_tokens(o->tilemap), name, strlen(name), &tr, &err);
        }
        break;
      case 11: strata_world_schedule(w, (double)strata_rng_below(&g, 50), strata_rng_chance(&g, 0.5) ? 3 : 0, "base.t", &k, NULL, &err); break;
      case 12: strata_world_cancel(w, pick, &err); break;
      case 13: {
        const strata_timer *t = strata_world_next_due(w, 1e9);
        strata_timer out;
        if (t && strata_world_fire(w, t->uid, &out, &err) == STRATA_OK) strata_timer_clear(&out);
        break;
      }
      case 14: strata_world_subscribe(w, pick, "base.e", "base.h", &k, (int64_t)strata_rng_below(&g, 3), NULL, &err); break;
      case 15: strata_world_unsubscribe(w, pick, &err); break;
      case 16: {
        strata_rng r;
        char key[8];
        snprintf(key, sizeof key, "s%d", (int)strata_rng_below(&g, 6));
        if (strata_rng_chance(&g, 0.5)) {
          strata_world_stream(w, key, &r, &err);
        } else {
          strata_rng_seed(&r, strata_rng_u64(&g));
          strata_world_set_stream(w, key, &r, &err);
        }
        break;
      }
      case 17: strata_world_set_time(w, strata_world_time(w) + (double)strata_rng_below(&g, 3), &err); break;
      case 18:
        if (depth < 16) {
          stack[depth++] = dump(w);
          CHECK_EQ_INT(strata_world_begin(w, &err), STRATA_OK);
        }
        break;
      case 19:
        if (depth > 0) {
          char *was = stack[--depth];
          if (strata_rng_chance(&g, 0.5)) {
            strata_world_commit(w);
          } else {
            strata_world_rollback(w);
            char *now = dump(w);
            CHECK_STR(now, was);
            free(now);
            rollbacks++;
          }
          free(was);
        }
        break;
      }
      strata_value_clear(&k);
      CHECK_EQ_INT(strata_world_depth(w), depth);
    }
    (void)wt;
    /* Half the worlds are freed with their savepoints open. */
    while (depth > 0 && round % 2 == 0) {
      char *was = stack[--depth];
      strata_world_rollback(w);
      char *now = dump(w);
      CHECK_STR(now, was);
      free(now);
      free(was);
    }
    while (depth > 0) free(stack[--depth]);
    strata_world_free(w);
  }
  CHECK(rollbacks > 50);
}

/* The keys of uid's props, in their order, as "a,b,c". */
static void keys_of(strata_world *w, uint64_t uid, char *out, size_t cap) {
  const strata_value *p = strata_object_get(w, uid, NULL, 0);
  out[0] = '\0';
  for (size_t i = 0; p && p->type == STRATA_VTABLE && i < p->u.t->n; i++) {
    size_t len = strlen(out);
    snprintf(out + len, cap - len, "%s%.*s", i ? "," : "", (int)p->u.t->keys[i].u.str.len,
             p->u.t->keys[i].u.str.s);
  }
}

/* Keys added in a savepoint are journaled one by one (an area's floors grow
** by one per generation): a rollback takes them out again, leaving the other
** keys in their order, with other changes and nested savepoints mixed in. */
static void test_added_keys(void) {
  strata_error err;
  char keys[128];
  strata_world *w = strata_world_new(1, &err);
  uint64_t a;
  strata_world_create(w, "thing", NULL, &a, &err);
  set_int(w, a, "a", 1);
  set_int(w, a, "b", 2);
  strata_world_begin(w, &err);
  set_int(w, a, "c", 3);
  set_int(w, a, "d", 4);
  set_int(w, a, "b", 5); /* a change: the fields are saved */
  set_int(w, a, "e", 6);
  strata_world_begin(w, &err);
  set_int(w, a, "f", 7);
  keys_of(w, a, keys, sizeof keys);
  CHECK_STR(keys, "a,b,c,d,e,f");
  strata_world_rollback(w);
  keys_of(w, a, keys, sizeof keys);
  CHECK_STR(keys, "a,b,c,d,e");
  strata_world_rollback(w);
  keys_of(w, a, keys, sizeof keys);
  CHECK_STR(keys, "a,b");
  CHECK_EQ_INT(get_int(w, a, "b"), 2);
  /* committed: kept */
  strata_world_begin(w, &err);
  set_int(w, a, "g", 8);
  strata_world_begin(w, &err);
  set_int(w, a, "h", 9);
  strata_world_commit(w);
  strata_world_commit(w);
  keys_of(w, a, keys, sizeof keys);
  CHECK_STR(keys, "a,b,g,h");
  strata_world_free(w);
}

int main(void) {
  test_objects();
  test_added_keys();
  test_first_touch();
  test_moves();
  test_nested();
  test_created_run();
  test_pointers();
  test_deleted_map();
  test_subscriptions();
  test_streams_timers();
  test_lent_stream();
  test_private_tokens();
  test_save_after_rollback();
  test_free_open();
  test_restore_refused();
  test_random();
  return check_summary("world_txn");
}
