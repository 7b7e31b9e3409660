/*
** test_serve_pg.c - processes serving scopes of one world (strata/serve.h)
** against the fixture pg_server's throw-away server, two serving handles in
** one process: each holds only its area; an actor moved onto the other's map
** is handed over by the save and picked up by the other's poll, once, with
** its props and what it carries; new uids never collide; the world opens
** whole (every row and sum checked) after each step; a process whose lease
** another took cannot save (nothing written); plain saves of a served world
** and malformed scopes are refused. Exit 77 without libpq or a server.
*/
#include <stdio.h>
#include <stdlib.h>

#ifndef STRATA_HAVE_LIBPQ
int main(void) {
  puts("skipped: built without libpq (Debian: libpq-dev; STRATA_WITH_POSTGRES)");
  return 77;
}
#else
#include <libpq-fe.h>
#include <string.h>

#include "check.h"
#include "pg_server.h"
#include "strata/serve.h"
#include "strata/world.h"

#define SCHEMA "strata_servetest_c"
static char uri[600];
static uint64_t area_a, area_b, map_a, map_b, first, bag, note;

static void set_uid(strata_world *w, uint64_t uid, const char *k1, const char *k2, strata_value v) {
  strata_error err;
  strata_value path[2];
  strata_value_string(&path[0], k1, strlen(k1), &err);
  size_t n = 1;
  if (k2) strata_value_string(&path[n++], k2, strlen(k2), &err);
  CHECK_EQ_INT(strata_object_set(w, uid, path, n, &v, &err), STRATA_OK);
  for (size_t i = 0; i < n; i++) strata_value_clear(&path[i]);
}

static int64_t get_int(strata_world *w, uint64_t uid, const char *key) {
  strata_value path;
  strata_error err;
  strata_value_string(&path, key, strlen(key), &err);
  const strata_value *v = strata_object_get(w, uid, &path, 1);
  strata_value_clear(&path);
  return v && v->type == STRATA_VINT ? v->u.i : -1;
}

static uint64_t make(strata_world *w, const char *kind) {
  uint64_t uid = 0;
  strata_error err;
  CHECK_EQ_INT(strata_world_create(w, kind, NULL, &uid, &err), STRATA_OK);
  return uid;
}

/* Two areas with a map each; ten actors on A's map, the first carrying a
** bag; saved whole. */
static void make_world(void) {
  strata_error err;
  strata_world *w = strata_world_new(7, &err);
  area_a = make(w, "area"), area_b = make(w, "area");
  map_a = make(w, "map"), map_b = make(w, "map");
  strata_value sys;
  strata_value_table(&sys, &err);
  set_uid(w, map_a, "sys", NULL, sys);
  strata_value_table(&sys, &err);
  set_uid(w, map_b, "sys", NULL, sys);
  set_uid(w, map_a, "sys", "area", strata_value_int((int64_t)area_a));
  set_uid(w, map_b, "sys", "area", strata_value_int((int64_t)area_b));
  for (int i = 0; i < 10; i++) {
    uint64_t a = make(w, "actor");
    if (!i) first = a;
    set_uid(w, a, "id", NULL, strata_value_int(i));
    CHECK_EQ_INT(strata_object_set_position(w, a, map_a, i, 0, &err), STRATA_OK);
  }
  bag = make(w, "item");
  CHECK_EQ_INT(strata_object_set_position(w, bag, first, 0, 0, &err), STRATA_OK); /* carried by the first actor */
  note = make(w, "note"); /* in no area: the scope world's */
  CHECK_EQ_INT(strata_world_save(w, uri, NULL, 0, &err), STRATA_OK);
  strata_world_free(w);
}

static size_t count_kind(strata_world *w, const char *kind) {
  size_t n = 0;
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    n += !strcmp(o->kind, kind);
  return n;
}

/* The world as a plain opener sees it: whole, or the error printed. */
static strata_world *open_plain(void) {
  strata_world *w = NULL;
  strata_mod_version *mods = NULL;
  size_t n = 0;
  strata_error err;
  if (strata_world_open(uri, &w, &mods, &n, &err) != STRATA_OK) fprintf(stderr, "open: %s\n", err.message);
  strata_mod_versions_free(mods, n);
  return w;
}

static strata_serve *serve(const char *scope, double ttl) {
  const char *scopes[1] = { scope };
  strata_serve_options opt = { "t", ttl, scopes, 1, 0 };
  strata_serve *s = NULL;
  strata_error err;
  if (strata_serve_open(uri, &opt, &s, NULL, NULL, &err) != STRATA_OK)
    fprintf(stderr, "serve %s: %s\n", scope, err.message);
  return s;
}

static void hand_over(strata_serve *sa, strata_serve *sb) {
  strata_world *wa = strata_serve_world(sa), *wb = strata_serve_world(sb);
  strata_error err;
  uint64_t actor = first;
  CHECK_EQ_INT((int)count_kind(wa, "actor"), 10);
  CHECK_EQ_INT((int)count_kind(wb, "actor"), 0);
  CHECK(strata_world_object(wb, area_a) == NULL && strata_world_object(wb, area_b) != NULL);
  char scope[STRATA_LEASE_SCOPE_MAX];
  CHECK_HAS(strata_serve_scope_of(sa, bag, scope), "area:");
  set_uid(wa, actor, "trips", NULL, strata_value_int(1));
  CHECK_EQ_INT(strata_serve_move(sa, actor, 999999, 5, 5, &err), STRATA_ENOTFOUND);
  CHECK_EQ_INT(strata_serve_move(sa, actor, map_b, 5, 5, &err), STRATA_OK); /* a map sa does not hold */
  size_t handed = 0, arrived = 0;
  CHECK_EQ_INT(strata_serve_save(sa, NULL, 0, &handed, &err), STRATA_OK);
  CHECK_EQ_INT((int)handed, 2); /* the actor and its bag */
  CHECK(strata_world_object(wa, actor) == NULL && strata_world_object(wa, bag) == NULL);
  CHECK_EQ_INT(strata_serve_poll(sb, 5000, &arrived, &err), STRATA_OK);
  CHECK_EQ_INT((int)arrived, 2);
  CHECK(strata_world_object(wb, actor) != NULL);
  CHECK_EQ_INT((int)get_int(wb, actor, "trips"), 1);
  CHECK_EQ_INT((int)get_int(wb, actor, "id"), 0);
  CHECK_EQ_INT(strata_serve_poll(sb, 0, &arrived, &err), STRATA_OK);
  CHECK_EQ_INT((int)arrived, 0); /* once */
  strata_world *w = open_plain();
  CHECK(w != NULL);
  if (w) {
    CHECK_EQ_INT((int)count_kind(w, "actor"), 10);
    CHECK(strata_world_object(w, actor)->map == map_b);
    strata_world_free(w);
  }
}

static void new_uids(strata_serve *sa, strata_serve *sb) {
  strata_error err;
  uint64_t a = make(strata_serve_world(sa), "actor"), b = make(strata_serve_world(sb), "actor");
  CHECK(a != b && a && b);
  CHECK_EQ_INT(strata_object_set_position(strata_serve_world(sa), a, map_a, 0, 1, &err), STRATA_OK);
  CHECK_EQ_INT(strata_object_set_position(strata_serve_world(sb), b, map_b, 0, 1, &err), STRATA_OK);
  CHECK_EQ_INT(strata_serve_save(sb, NULL, 0, NULL, &err), STRATA_OK);
  CHECK_EQ_INT(strata_serve_save(sa, NULL, 0, NULL, &err), STRATA_OK);
  strata_world *w = open_plain();
  CHECK(w != NULL);
  if (w) {
    CHECK_EQ_INT((int)count_kind(w, "actor"), 12);
    CHECK(strata_world_object(w, a) && strata_world_object(w, b));
    strata_world_free(w);
  }
}

/* sc serves an area, not "world": it reads what is in no area but never
** writes it, even once put on its map; timers are the world's. The process
** serving "world" writes it. */
static void world_scope(strata_serve *sc) {
  strata_error err;
  strata_world *w = strata_serve_world(sc);
  CHECK(strata_world_object(w, note) != NULL);
  char scope[STRATA_LEASE_SCOPE_MAX];
  CHECK_STR(strata_serve_scope_of(sc, note, scope), "world");
  CHECK_EQ_INT(strata_object_set_position(w, note, map_a, 1, 1, &err), STRATA_OK);
  CHECK_EQ_INT(strata_serve_save(sc, NULL, 0, NULL, &err), STRATA_ESTATE);
  CHECK_HAS(err.message, "belongs to the scope world");
  strata_serve *sw = serve("world", 30);
  CHECK(sw != NULL);
  if (!sw) return;
  strata_world *ww = strata_serve_world(sw);
  CHECK(strata_world_object(ww, note) != NULL && strata_world_object(ww, first + 1) == NULL);
  set_uid(ww, note, "text", NULL, strata_value_int(5));
  uint64_t timer = 0;
  CHECK_EQ_INT(strata_world_schedule(ww, 10, 0, "base.tick", NULL, &timer, &err), STRATA_OK);
  CHECK_EQ_INT(strata_serve_save(sw, NULL, 0, NULL, &err), STRATA_OK);
  strata_serve_close(sw);
  strata_world *plain = open_plain();
  CHECK(plain != NULL);
  if (plain) {
    CHECK_EQ_INT((int)get_int(plain, note, "text"), 5);
    CHECK(!strata_world_object(plain, note)->has_pos); /* sc's move was never written */
    CHECK_EQ_INT((int)strata_world_timer_count(plain), 1);
    strata_world_free(plain);
  }
}

static void refusals(PGconn *admin, strata_serve *sa) {
  strata_error err;
  strata_world *wa = strata_serve_world(sa);
  CHECK_EQ_INT(strata_world_save(wa, uri, NULL, 0, &err), STRATA_ESTATE);
  CHECK_HAS(err.message, "strata_serve_save");
  const char *bad[1] = { "area:x" };
  strata_serve_options opt = { "t", 30, bad, 1, 0 };
  strata_serve *s = NULL;
  CHECK_EQ_INT(strata_serve_open(uri, &opt, &s, NULL, NULL, &err), STRATA_EARG);
  CHECK(s == NULL);
  /* Held by sa: refused at once, naming the holder. */
  s = serve("area:0", 30);
  CHECK(s == NULL);
  char scope[32];
  snprintf(scope, sizeof scope, "area:%llu", (unsigned long long)area_a);
  const char *mine[1] = { scope };
  opt.scopes = mine;
  CHECK_EQ_INT(strata_serve_open(uri, &opt, &s, NULL, NULL, &err), STRATA_ESTATE);
  CHECK_HAS(err.message, "held by");
  /* sa's lease expires and another process takes the area: sa's save is
  ** refused, and nothing of it is written. */
  char sql[256];
  snprintf(sql, sizeof sql, "UPDATE " SCHEMA ".leases SET expires_at = now() - interval '1 second' WHERE scope = '%s'",
           scope);
  CHECK(pg_sql(admin, sql));
  strata_serve *sc = serve(scope, 30);
  CHECK(sc != NULL);
  uint64_t actor = first + 1;
  set_uid(wa, actor, "trips", NULL, strata_value_int(99));
  CHECK_EQ_INT(strata_serve_save(sa, NULL, 0, NULL, &err), STRATA_ESTATE);
  CHECK_HAS(err.message, scope);
  CHECK_HAS(err.message, "lost");
  strata_world *w = open_plain();
  CHECK(w != NULL);
  if (w) {
    CHECK_EQ_INT((int)get_int(w, actor, "trips"), -1);
    strata_world_free(w);
  }
  world_scope(sc);
  strata_serve_close(sc);
}

int main(void) {
  PGconn *admin;
  int ready = pg_test_start("servetest_c", uri, sizeof uri, &admin);
  if (ready) return ready;
  CHECK(pg_sql(admin, "DROP SCHEMA IF EXISTS " SCHEMA " CASCADE"));
  make_world();
  char a[32], b[32];
  snprintf(a, sizeof a, "area:%llu", (unsigned long long)area_a);
  snprintf(b, sizeof b, "area:%llu", (unsigned long long)area_b);
  strata_serve *sa = serve(a, 30), *sb = serve(b, 30);
  CHECK(sa != NULL && sb != NULL);
  if (sa && sb) {
    hand_over(sa, sb);
    new_uids(sa, sb);
    refusals(admin, sa);
  }
  strata_serve_close(sa);
  strata_serve_close(sb);
  CHECK(pg_sql(admin, "DROP SCHEMA " SCHEMA " CASCADE"));
  PQfinish(admin);
  return check_summary("serve_pg");
}
#endif
