/*
** test_store_pg.c - worlds in PostgreSQL (store_pg.c) against the throw-away
** server of scripts/pg (the CTest fixture pg_server; STRATA_PG_URI names
** another): a world with every kind of state round-trips as it does through
** a SQLite file (strata_world_to_json equal); an incremental save rewrites
** only the rows of what changed; a second world object saving after another
** saved since is refused; a row changed behind strata's back is refused at
** open naming its table and key; a save whose backend is terminated in the
** middle of its transaction leaves the previous save opening whole; columns
** altered behind strata's back are one clear error at open; a server that
** never answers is an error after the connection's timeout.
** Exit 77 (skipped) without libpq or without a server.
*/
#include <stdio.h>
#include <stdlib.h>

#ifndef STRATA_HAVE_LIBPQ
#include "strata/world.h"
#include "check.h"

/* Without libpq a URI is refused in one line saying so. */
int main(void) {
  strata_world *w = NULL;
  strata_mod_version *mods = NULL;
  size_t n = 0;
  strata_error err;
  CHECK(strata_world_open("postgresql:///strata?world=x", &w, &mods, &n, &err) == STRATA_EARG);
  CHECK(strstr(err.message, "built without PostgreSQL") != NULL);
  if (check_failed) return check_summary("store_pg");
  puts("skipped: built without libpq (Debian: libpq-dev; STRATA_WITH_POSTGRES)");
  return 77;
}
#else
#include <arpa/inet.h>
#include <libpq-fe.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "pg_server.h"
#include "strata/json.h"
#include "strata/world.h"

static char server[512];

/* The server's URI with strata's world=NAME added. */
static const char *world_uri(const char *name) {
  static char buf[640];
  snprintf(buf, sizeof buf, "%s%cworld=%s", server, strchr(server, '?') ? '&' : '?', name);
  return buf;
}

static PGconn *sql_conn(void) {
  PGconn *c = PQconnectdb(server);
  if (PQstatus(c) != CONNECTION_OK) {
    fprintf(stderr, "%s: %s", server, PQerrorMessage(c));
    exit(1);
  }
  PQclear(PQexec(c, "SET client_min_messages = warning"));
  return c;
}

/* The first column of the first row of sql, as text (a copy), or NULL. */
static char *one(PGconn *c, const char *sql) {
  PGresult *r = PQexec(c, sql);
  char *s = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0 ? strdup(PQgetvalue(r, 0, 0)) : NULL;
  if (!s) fprintf(stderr, "%s: %s", sql, PQerrorMessage(c));
  PQclear(r);
  return s;
}

static strata_value str(const char *s) {
  strata_value v;
  strata_value_string(&v, s, strlen(s), NULL);
  return v;
}

static strata_token tok(strata_world *w, const char *name) {
  return strata_tokens_intern(strata_world_tokens(w), name, strlen(name), NULL);
}

static void set_prop(strata_world *w, uint64_t uid, const char *key, strata_value v) {
  strata_value k = str(key);
  strata_object_set(w, uid, &k, 1, &v, NULL);
  strata_value_clear(&k);
}

/* A world with every kind of state: objects with properties (a table, a
** string with a zero byte, a float), tags, positions, timers, subscriptions,
** random streams, a tile map of six chunks with stacks. */
static strata_world *scene(uint64_t *actor) {
  strata_world *w = strata_world_new(77, NULL);
  uint64_t map, chest, small;
  strata_world_create_map(w, 130, 70, "base.cave", &map, NULL); /* 3 x 2 chunks */
  strata_tilemap *m = strata_world_tilemap(w, map);
  strata_tilemap_clear(m, tok(w, "floor"), NULL);
  for (int i = 0; i < 3; i++) strata_tilemap_set(m, 100, 66, tok(w, "coin"), NULL);
  strata_tilemap_set(m, 5, 5, tok(w, "wall"), NULL);
  strata_world_create_map(w, 3, 2, NULL, &small, NULL);
  strata_world_create(w, "actor", "base.goblin", actor, NULL);
  strata_world_create(w, "thing", NULL, &chest, NULL);
  strata_value bag;
  strata_value_table(&bag, NULL);
  strata_value one = strata_value_int(1), sword = str("sword");
  strata_vtable_set(bag.u.t, &one, &sword, NULL);
  set_prop(w, *actor, "bag", bag);
  strata_value zero;
  strata_value_string(&zero, "a\0b\xff", 4, NULL);
  set_prop(w, chest, "bytes", zero);
  set_prop(w, chest, "weight", strata_value_float(2.5));
  strata_object_set_tag(w, *actor, "hostile", 7, 1, NULL);
  strata_object_set_position(w, *actor, map, 100, 66, NULL);
  strata_value arg = str("arg");
  strata_world_schedule(w, 5, 3, "base.tick", &arg, NULL, NULL);
  strata_world_schedule(w, 9, 0, "base.once", &arg, NULL, NULL);
  strata_world_subscribe(w, map, "base.enter", "base.h", &arg, 1, NULL, NULL);
  strata_world_subscribe(w, *actor, "base.hit", "base.h", &arg, -2, NULL, NULL);
  strata_value_clear(&arg);
  strata_rng r;
  strata_world_stream(w, "a.loot", &r, NULL);
  strata_rng_u64(&r);
  strata_world_set_stream(w, "a.loot", &r, NULL);
  strata_world_stream(w, "b.weather", &r, NULL);
  return w;
}

static const strata_mod_version mods[] = { { "base", "0.1.0" }, { "extra", "1.2.3" } };

/* The world as JSON (a copy). */
static char *json(const strata_world *w, const strata_mod_version *m, size_t n) {
  strata_buffer b = { 0 };
  strata_world_to_json(w, m, n, &b, NULL);
  char *s = malloc(b.len + 1);
  memcpy(s, b.data, b.len);
  s[b.len] = '\0';
  strata_buffer_free(&b);
  return s;
}

/* The JSON of what opens from uri; NULL (the error printed) when it does not. */
static char *opened_json(const char *uri, strata_error *err) {
  strata_world *w = NULL;
  strata_mod_version *m = NULL;
  size_t n = 0;
  if (strata_world_open(uri, &w, &m, &n, err)) return NULL;
  char *s = json(w, m, n);
  strata_world_free(w);
  strata_mod_versions_free(m, n);
  return s;
}

/* Whether what opens from uri is the world w (with its n mods), as JSON. */
static int opens_as(const strata_world *w, size_t n, const char *uri) {
  strata_error err;
  char *want = json(w, mods, n), *got = opened_json(uri, &err);
  if (!got) fprintf(stderr, "%s\n", err.message);
  int same = got && !strcmp(got, want);
  free(want);
  free(got);
  return same;
}

static strata_world *open_ok(const char *uri) {
  strata_world *w = NULL;
  strata_mod_version *m = NULL;
  size_t n = 0;
  strata_error err;
  if (strata_world_open(uri, &w, &m, &n, &err)) fprintf(stderr, "open %s: %s\n", uri, err.message);
  strata_mod_versions_free(m, n);
  return w;
}

static void round_trip(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  char *want = json(w, mods, 2);
  char path[] = "/tmp/strata-store-pg-XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  strata_error err;
  CHECK(strata_world_save(w, path, mods, 2, &err) == STRATA_OK);
  char *lite = opened_json(path, &err);
  CHECK(lite && !strcmp(lite, want));
  CHECK(strata_world_save(w, world_uri("trip"), mods, 2, &err) == STRATA_OK);
  char *pg = opened_json(world_uri("trip"), &err);
  if (!pg) fprintf(stderr, "round trip: %s\n", err.message);
  CHECK(pg && lite && !strcmp(pg, lite));
  /* postgres:// too, and a world saved from PostgreSQL to a file is the same */
  char alt[640];
  snprintf(alt, sizeof alt, "postgres://%s", world_uri("trip") + strlen("postgresql://"));
  strata_world *again = open_ok(alt);
  CHECK(again != NULL);
  if (again) {
    CHECK(strata_world_save(again, path, mods, 2, &err) == STRATA_OK);
    char *back = opened_json(path, &err);
    CHECK(back && !strcmp(back, want));
    free(back);
    strata_world_free(again);
  }
  /* Unknown world: one line naming it. */
  CHECK(opened_json(world_uri("nosuch"), &err) == NULL);
  CHECK(strstr(err.message, "nosuch") != NULL);
  CHECK(opened_json(world_uri("bad-name"), &err) == NULL);
  CHECK(strstr(err.message, "world=") != NULL);
  /* No server there: one line naming the store, a password never shown. */
  CHECK(opened_json("postgresql://strata:secret@/strata?host=/nonexistent&password=hidden&world=x", &err) == NULL);
  CHECK(strstr(err.message, "PostgreSQL: ") != NULL && !strchr(err.message, '\n'));
  CHECK(!strstr(err.message, "secret") && !strstr(err.message, "hidden") && strstr(err.message, "strata:***@"));
  unlink(path);
  free(want);
  free(lite);
  free(pg);
  strata_world_free(w);
}

/* The objects' and tiles' rows with their xmin (the transaction that wrote them). */
static char *versions(PGconn *c, const char *schema) {
  char sql[512];
  snprintf(sql, sizeof sql,
           "SELECT string_agg(k || ':' || x, ',' ORDER BY k) FROM (SELECT 'o' || uid AS k, xmin::text AS x FROM"
           " %s.objects UNION ALL SELECT 't' || id, xmin::text FROM %s.tiles) AS v", schema, schema);
  return one(c, sql);
}

/* The rows of versions() list b that are new or of another xmin than in
** list a, their keys into which (a space after each); their count. */
static int changed(const char *a, const char *b, char *which, size_t size) {
  int n = 0;
  which[0] = '\0';
  char *y = strdup(b), *sy, find[64];
  for (char *q = strtok_r(y, ",", &sy); q; q = strtok_r(NULL, ",", &sy)) {
    snprintf(find, sizeof find, ",%s,", q);
    char *x = malloc(strlen(a) + 3);
    sprintf(x, ",%s,", a);
    if (!strstr(x, find)) {
      n++;
      size_t k = strcspn(q, ":");
      if (strlen(which) + k + 2 < size) {
        strncat(which, q, k);
        strcat(which, " ");
      }
    }
    free(x);
  }
  free(y);
  return n;
}

static void incremental(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  PGconn *c = sql_conn();
  CHECK(strata_world_save(w, world_uri("inc"), mods, 2, &err) == STRATA_OK);
  strata_world_free(w);
  w = open_ok(world_uri("inc"));
  if (!w) return;
  char *before = versions(c, "strata_inc");
  set_prop(w, actor, "hp", strata_value_int(3));
  strata_tilemap_set(strata_world_tilemap(w, 1), 0, 0, tok(w, "wall"), NULL); /* chunk 0 of map #1 */
  CHECK(strata_world_save(w, world_uri("inc"), mods, 2, &err) == STRATA_OK);
  char *after = versions(c, "strata_inc"), which[256];
  CHECK(before && after);
  if (before && after) {
    int n = changed(before, after, which, sizeof which);
    char want[64];
    snprintf(want, sizeof want, "o%llu t1 ", (unsigned long long)actor);
    CHECK_EQ_INT(n, 2);
    CHECK_STR(which, want);
  }
  CHECK(opens_as(w, 2, world_uri("inc")));
  /* every kind of change, saved into the world's own store, opens as the world */
  uint64_t map, timer;
  strata_world_delete(w, actor, NULL);          /* its subscription goes with it */
  strata_world_create_map(w, 65, 3, NULL, &map, NULL);  /* a new map, appended */
  strata_world_schedule(w, 12, 0, "base.later", NULL, &timer, NULL);
  strata_world_cancel(w, timer, NULL);
  strata_world_schedule(w, 13, 1, "base.kept", NULL, NULL, NULL);
  strata_rng r;
  strata_world_stream(w, "c.new", &r, NULL);
  free(before);
  before = after;
  CHECK(strata_world_save(w, world_uri("inc"), mods, 1, &err) == STRATA_OK);
  after = versions(c, "strata_inc");
  /* still incremental (no fallback to a whole save): the chest's row and the
  ** first map's chunks are the ones the save before wrote */
  CHECK(after && changed(before, after, which, sizeof which) >= 1 && !strstr(which, "o4 ") && !strstr(which, "t2 "));
  CHECK(opens_as(w, 1, world_uri("inc")));
  free(before);
  free(after);
  strata_world_free(w);
  PQfinish(c);
}

static void two_writers(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  CHECK(strata_world_save(w, world_uri("two"), mods, 2, &err) == STRATA_OK);
  strata_world_free(w);
  strata_world *a = open_ok(world_uri("two")), *b = open_ok(world_uri("two"));
  if (!a || !b) return;
  set_prop(a, actor, "hp", strata_value_int(1));
  CHECK(strata_world_save(a, world_uri("two"), mods, 2, &err) == STRATA_OK);
  set_prop(b, actor, "hp", strata_value_int(2));
  CHECK(strata_world_save(b, world_uri("two"), mods, 2, &err) == STRATA_EIO);
  CHECK(strstr(err.message, "saved by another process since this world opened it") != NULL);
  CHECK(opens_as(a, 2, world_uri("two")));
  /* with overwrite, b's save replaces a's */
  strata_save_options opt = { 1 };
  CHECK(strata_world_save_with(b, world_uri("two"), mods, 2, &opt, &err) == STRATA_OK);
  CHECK(opens_as(b, 2, world_uri("two")));
  strata_world_free(a);
  strata_world_free(b);
}

/* A world keeps its connection between saves; one the server closed
** meanwhile is replaced, and the save goes through. */
static void reconnect(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  char uri[640];
  snprintf(uri, sizeof uri, "%s%capplication_name=strata_idle_test&world=idle", server, strchr(server, '?') ? '&' : '?');
  CHECK(strata_world_save(w, uri, mods, 2, &err) == STRATA_OK);
  PGconn *c = sql_conn();
  char *n = one(c, "SELECT count(pg_terminate_backend(pid, 60000)) FROM pg_stat_activity"
                   " WHERE application_name = 'strata_idle_test'");
  CHECK(n && !strcmp(n, "1"));
  set_prop(w, actor, "hp", strata_value_int(5));
  CHECK(strata_world_save(w, uri, mods, 2, &err) == STRATA_OK);
  CHECK(opens_as(w, 2, uri));
  free(n);
  PQfinish(c);
  strata_world_free(w);
}

static void damage(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  PGconn *c = sql_conn();
  CHECK(strata_world_save(w, world_uri("dmg"), mods, 2, &err) == STRATA_OK);
  char sql[256];
  snprintf(sql, sizeof sql, "UPDATE strata_dmg.objects SET x = x + 1 WHERE uid = %llu", (unsigned long long)actor);
  CHECK(pg_sql(c, sql));
  CHECK(opened_json(world_uri("dmg"), &err) == NULL);
  char want[64];
  snprintf(want, sizeof want, "a row of objects (#%llu)", (unsigned long long)actor);
  CHECK(strstr(err.message, want) != NULL);
  /* a row gone: the table no longer adds up */
  CHECK(strata_world_save(w, world_uri("dmg2"), mods, 2, &err) == STRATA_OK);
  CHECK(pg_sql(c, "DELETE FROM strata_dmg2.timers WHERE uid = (SELECT min(uid) FROM strata_dmg2.timers)"));
  CHECK(opened_json(world_uri("dmg2"), &err) == NULL);
  CHECK(strstr(err.message, "timers") != NULL);
  strata_world_free(w);
  PQfinish(c);
}

/* Whether opening uri fails in one line naming want. */
static int refused(const char *uri, const char *want) {
  strata_error err;
  char *got = opened_json(uri, &err);
  int ok = !got && strstr(err.message, want) && !strchr(err.message, '\n');
  if (!ok) fprintf(stderr, "open %s: %s\n", uri, got ? "opened" : err.message);
  free(got);
  return ok;
}

/* Columns changed behind strata's back (another type, gone, another
** encoding): the rows the server streams are not the ones strata wrote,
** and the open is one clear error, never a crash or a world. */
static void garbled(void) {
  static const char *const alter[][3] = {
    { "garb1", "ALTER TABLE strata_garb1.objects ALTER COLUMN x TYPE integer", "objects" },
    { "garb2", "ALTER TABLE strata_garb2.timers ALTER COLUMN due TYPE real", "timers" },
    { "garb3", "ALTER TABLE strata_garb3.subscriptions DROP COLUMN args", "subscriptions" },
    { "garb4", "ALTER TABLE strata_garb4.meta ALTER COLUMN value TYPE text USING encode(value, 'escape')", "corrupt" },
    { "garb5", "ALTER TABLE strata_garb5.tiles ALTER COLUMN cells TYPE text USING encode(cells, 'hex')", "tiles" },
  };
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  PGconn *c = sql_conn();
  for (size_t i = 0; i < sizeof alter / sizeof alter[0]; i++) {
    CHECK(strata_world_save(w, world_uri(alter[i][0]), mods, 2, &err) == STRATA_OK);
    CHECK(pg_sql(c, alter[i][1]));
    CHECK(refused(world_uri(alter[i][0]), alter[i][2]));
    CHECK(refused(world_uri(alter[i][0]), "corrupt save")); /* the tables' fault, not the server's */
  }
  strata_world_free(w);
  PQfinish(c);
}

/* A server that takes the connection but never answers: the open is an
** error after the store's connect_timeout (10 s), not a hang (libpq's
** default waits for ever). */
static void unanswered(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
  socklen_t len = sizeof a;
  CHECK(fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof a) && !listen(fd, 4) &&
        !getsockname(fd, (struct sockaddr *)&a, &len));
  char uri[128];
  snprintf(uri, sizeof uri, "postgresql://strata@127.0.0.1:%d/strata?world=silent", ntohs(a.sin_port));
  strata_world *w = NULL;
  strata_mod_version *m = NULL;
  size_t n = 0;
  strata_error err;
  CHECK(strata_world_open(uri, &w, &m, &n, &err) == STRATA_EIO);
  CHECK(strstr(err.message, "timeout") != NULL);
  close(fd);
}

/* The save of a world, run on a thread of its own. */
typedef struct saver {
  strata_world *w;
  const char *uri;
  strata_status st;
  strata_error err;
  strata_save_options opt; /* overwrite: a world of another store's saved whole over it */
} saver;

static void *save_thread(void *p) {
  saver *s = p;
  s->st = strata_world_save_with(s->w, s->uri, mods, 2, &s->opt, &s->err);
  return NULL;
}

/* The client backend of application_name app waiting on a lock (a state,
** not a time), once there is one: its pid (a copy), or NULL. By name: the
** other tests of the fixture's server and autovacuum wait on locks too. */
static char *waiting_pid(PGconn *watch, const char *app) {
  char *pid = NULL;
  const char *params[1] = { app };
  for (int i = 0; i < 600000 && !pid; i++) {
    PGresult *r = PQexecParams(watch, "SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                               " AND pid <> pg_backend_pid() AND datname = current_database()"
                               " AND backend_type = 'client backend' AND application_name = $1",
                               1, NULL, params, NULL, NULL, 0);
    if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1) pid = strdup(PQgetvalue(r, 0, 0));
    PQclear(r);
    if (!pid) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
  }
  return pid;
}

static void killed(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  /* The saver's connection named, so that the test terminates its backend
  ** only (other tests' backends wait on locks in this database too). */
  char uri[700];
  snprintf(uri, sizeof uri, "%s&application_name=strata_killed_save", world_uri("kill"));
  CHECK(strata_world_save(w, uri, mods, 2, &err) == STRATA_OK);
  char *want = json(w, mods, 2);
  strata_world_free(w);
  w = open_ok(uri);
  if (!w) return;
  set_prop(w, actor, "hp", strata_value_int(9));
  strata_tilemap_set(strata_world_tilemap(w, 1), 1, 1, tok(w, "wall"), NULL);
  /* The test holds meta's sum.meta row: the save writes its rows, then waits
  ** for that lock before it can write its sums, mid-transaction. */
  PGconn *c = sql_conn();
  CHECK(pg_sql(c, "BEGIN"));
  CHECK(pg_sql(c, "SELECT 1 FROM strata_kill.meta WHERE key = 'sum.meta'::bytea FOR UPDATE"));
  saver s = { w, strdup(uri), STRATA_OK, { 0 }, { 0 } };
  pthread_t t;
  pthread_create(&t, NULL, save_thread, &s);
  /* Until the save waits on our lock (a state, not a time), then its backend
  ** is terminated. */
  PGconn *watch = sql_conn();
  char *pid = waiting_pid(watch, "strata_killed_save");
  CHECK(pid != NULL);
  if (pid) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%s)", pid);
    CHECK(pg_sql(watch, sql));
  }
  pthread_join(t, NULL);
  CHECK(pg_sql(c, "ROLLBACK"));
  CHECK(s.st == STRATA_EIO);
  CHECK(strstr(s.err.message, "PostgreSQL") != NULL);
  char *pg = opened_json(world_uri("kill"), &err);
  if (!pg) fprintf(stderr, "after the kill: %s\n", err.message);
  CHECK(pg && !strcmp(pg, want));
  /* and the world's next save writes it all */
  CHECK(strata_world_save(w, s.uri, mods, 2, &err) == STRATA_OK);
  CHECK(opens_as(w, 2, world_uri("kill")));
  free(pg);
  free(pid);
  free(want);
  free((char *)s.uri);
  strata_world_free(w);
  PQfinish(watch);
  PQfinish(c);
}

/* Many maps (their chunks past one read window of the tiles table), then
** maps deleted and made again, so that their chunks' rows are no longer in
** the order of the maps: each map opens with its own chunks, every time. */
static void many_maps(void) {
  strata_world *w = strata_world_new(5, NULL);
  uint64_t uids[120];
  for (int i = 0; i < 120; i++) {
    strata_world_create_map(w, 64 * (1 + i % 3), 64 + i, NULL, &uids[i], NULL);
    strata_tilemap_set(strata_world_tilemap(w, uids[i]), i % 64, i % 64, tok(w, "wall"), NULL);
  }
  const char *uri = world_uri("many");
  CHECK_EQ_INT(strata_world_save(w, uri, mods, 1, NULL), STRATA_OK);
  CHECK(opens_as(w, 1, uri));
  for (int i = 0; i < 120; i += 7) CHECK_EQ_INT(strata_world_delete(w, uids[i], NULL), STRATA_OK);
  for (int i = 0; i < 30; i++) {
    uint64_t u;
    strata_world_create_map(w, 70, 130, NULL, &u, NULL);
    strata_tilemap_set(strata_world_tilemap(w, u), 69, i, tok(w, "coin"), NULL);
  }
  strata_tilemap_set(strata_world_tilemap(w, uids[3]), 1, 1, tok(w, "coin"), NULL);
  CHECK_EQ_INT(strata_world_save(w, uri, mods, 1, NULL), STRATA_OK);
  CHECK(opens_as(w, 1, uri));
  strata_world_free(w);
}

/* The URI of world name on a session whose lock waits end after 2 s in an
** error: a wait on a reader (or a save) fails the test instead of hanging
** it. The timeout decides only the failing direction. */
static const char *waitless_uri(const char *name) {
  static char buf[700];
  snprintf(buf, sizeof buf, "%s%coptions=-c%%20lock_timeout%%3D2s&world=%s", server, strchr(server, '?') ? '&' : '?',
           name);
  return buf;
}

/* The world's objects as the connection's transaction sees them. */
static long object_rows(PGconn *c, const char *schema) {
  char sql[128];
  snprintf(sql, sizeof sql, "SELECT count(*) FROM %s.objects", schema);
  char *n = one(c, sql);
  long v = n ? atol(n) : -1;
  free(n);
  return v;
}

/* A reader holding an open's snapshot (REPEATABLE READ, read only, every
** table read: as an open in progress) makes neither an incremental save nor
** a whole one wait; both commit while it reads, and it still sees the save
** it began with. */
static void readers_stay(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  char uri[700];
  snprintf(uri, sizeof uri, "%s", waitless_uri("rdr"));
  CHECK(strata_world_save(w, uri, mods, 2, &err) == STRATA_OK);
  strata_world_free(w);
  w = open_ok(uri);
  if (!w) return;
  PGconn *r = sql_conn();
  CHECK(pg_sql(r, "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"));
  CHECK(pg_sql(r, "SELECT (SELECT count(*) FROM strata_rdr.meta) + (SELECT count(*) FROM strata_rdr.mods)"
               " + (SELECT count(*) FROM strata_rdr.objects) + (SELECT count(*) FROM strata_rdr.timers)"
               " + (SELECT count(*) FROM strata_rdr.subscriptions) + (SELECT count(*) FROM strata_rdr.rng)"
               " + (SELECT count(*) FROM strata_rdr.maps) + (SELECT count(*) FROM strata_rdr.tiles)"));
  long before = object_rows(r, "strata_rdr");
  set_prop(w, actor, "hp", strata_value_int(4));
  strata_status st = strata_world_save(w, uri, mods, 2, &err); /* incremental */
  if (st) fprintf(stderr, "incremental save beside a reader: %s\n", err.message);
  CHECK(st == STRATA_OK);
  uint64_t extra;
  strata_save_options whole = { 1 };
  strata_world *fresh = scene(&actor);
  strata_world_create(fresh, "thing", NULL, &extra, NULL);
  strata_world_create(fresh, "thing", NULL, &extra, NULL);
  st = strata_world_save_with(fresh, uri, mods, 2, &whole, &err); /* whole */
  if (st) fprintf(stderr, "whole save beside a reader: %s\n", err.message);
  CHECK(st == STRATA_OK);
  CHECK_EQ_INT(object_rows(r, "strata_rdr"), before);
  CHECK(pg_sql(r, "COMMIT"));
  CHECK_EQ_INT(object_rows(r, "strata_rdr"), before + 2);
  CHECK(opens_as(fresh, 2, uri));
  strata_world_free(fresh);
  strata_world_free(w);
  PQfinish(r);
}

/* An open while a whole save's transaction is open (it has begun changing
** the world's rows, then waits on a row lock the test holds) sees the last
** committed save whole, without waiting (its session's lock timeout would
** fail it); the save then commits. */
static void open_beside_save(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  strata_error err;
  char uri[700];
  snprintf(uri, sizeof uri, "%s", waitless_uri("rdr2"));
  CHECK(strata_world_save(w, uri, mods, 2, &err) == STRATA_OK);
  char *want = json(w, mods, 2);
  uint64_t extra;
  strata_world *fresh = scene(&actor);
  strata_world_create(fresh, "thing", NULL, &extra, NULL);
  PGconn *c = sql_conn(), *watch = sql_conn();
  CHECK(pg_sql(c, "BEGIN"));
  CHECK(pg_sql(c, "SELECT 1 FROM strata_rdr2.meta WHERE key = 'sum.meta'::bytea FOR UPDATE"));
  /* the save waits on the test's lock as long as it holds it: no timeout */
  char named[700];
  snprintf(named, sizeof named, "%s&application_name=strata_beside_save", world_uri("rdr2"));
  saver s = { fresh, strdup(named), STRATA_OK, { 0 }, { 1 } };
  pthread_t t;
  pthread_create(&t, NULL, save_thread, &s);
  char *pid = waiting_pid(watch, "strata_beside_save");
  CHECK(pid != NULL);
  char *got = opened_json(uri, &err);
  if (!got) fprintf(stderr, "open beside a save: %s\n", err.message);
  CHECK(got && !strcmp(got, want));
  CHECK(pg_sql(c, "ROLLBACK"));
  pthread_join(t, NULL);
  if (s.st) fprintf(stderr, "the save beside an open: %s\n", s.err.message);
  CHECK(s.st == STRATA_OK);
  CHECK(opens_as(fresh, 2, uri));
  free(pid);
  free((char *)s.uri);
  strata_world_free(fresh);
  PQfinish(watch);
  free(got);
  free(want);
  strata_world_free(w);
  PQfinish(c);
}

/* An open that cannot read (a table locked by another session past the
** open's lock timeout) names the statement that failed, not a later one
** that found the transaction aborted: its first error is the one told. */
static void first_error(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  CHECK_EQ_INT(strata_world_save(w, world_uri("first"), mods, 1, NULL), STRATA_OK);
  strata_world_free(w);
  PGconn *c = sql_conn();
  const char *tables[] = { "tiles", "maps" };
  for (int i = 0; i < 2; i++) {
    char sql[128];
    snprintf(sql, sizeof sql, "BEGIN; LOCK TABLE strata_first.%s IN ACCESS EXCLUSIVE MODE", tables[i]);
    CHECK(pg_sql(c, sql));
    CHECK(refused(waitless_uri("first"), "lock timeout"));
    CHECK(pg_sql(c, "ROLLBACK"));
  }
  PQfinish(c);
}

/* An open refused by the server or the connection, not by what the world's
** tables hold: STRATA_EIO, "PostgreSQL: " and want in one line, never
** "corrupt". */
static int unavailable(const char *uri, const char *want) {
  strata_error err;
  char *got = opened_json(uri, &err);
  int ok = !got && err.status == STRATA_EIO && strstr(err.message, "PostgreSQL: ") && strstr(err.message, want) &&
           !strstr(err.message, "corrupt") && !strchr(err.message, '\n');
  if (!ok) fprintf(stderr, "open %s: %s (status %d)\n", uri, got ? "opened" : err.message, (int)err.status);
  free(got);
  return ok;
}

/* An open on a thread of its own, its outcome in s. */
static void *open_thread(void *p) {
  saver *s = p;
  strata_world *w = NULL;
  strata_mod_version *m = NULL;
  size_t n = 0;
  s->st = strata_world_open(s->uri, &w, &m, &n, &s->err);
  strata_world_free(w);
  strata_mod_versions_free(m, n);
  return NULL;
}

/* A read that the server stops is the server's failure, not a damaged
** save: a lock timeout on objects (another connection holds it ACCESS
** EXCLUSIVE), and the opener's backend terminated while it waits on that
** lock (a state the test waits for, never a time). */
static void transient(void) {
  uint64_t actor;
  strata_world *w = scene(&actor);
  CHECK_EQ_INT(strata_world_save(w, world_uri("busy"), mods, 1, NULL), STRATA_OK);
  strata_world_free(w);
  PGconn *c = sql_conn();
  CHECK(pg_sql(c, "BEGIN; LOCK TABLE strata_busy.objects IN ACCESS EXCLUSIVE MODE"));
  CHECK(unavailable(waitless_uri("busy"), "lock"));
  char uri[700];
  /* It waits until terminated (its lock_timeout, far out of reach, only
  ** ends a wait the test failed to end). Its own application_name: an
  ** autovacuum worker or an earlier open's backend may wait there too. */
  snprintf(uri, sizeof uri, "%s&application_name=strata_transient_open&options=-c%%20lock_timeout%%3D300s",
           world_uri("busy"));
  saver s = { NULL, uri, STRATA_OK, { 0 }, { 0 } };
  pthread_t t;
  pthread_create(&t, NULL, open_thread, &s);
  PGconn *watch = sql_conn();
  char *pid = waiting_pid(watch, "strata_transient_open");
  CHECK(pid != NULL);
  if (pid) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT pg_terminate_backend(%s)", pid);
    CHECK(pg_sql(watch, sql));
  } else {
    CHECK(pg_sql(c, "ROLLBACK")); /* the open goes on: no hang */
  }
  pthread_join(t, NULL);
  if (pid) CHECK(pg_sql(c, "ROLLBACK"));
  CHECK_EQ_INT(s.st, STRATA_EIO);
  CHECK(strstr(s.err.message, "PostgreSQL: ") != NULL && strstr(s.err.message, "corrupt") == NULL);
  CHECK(strchr(s.err.message, '\n') == NULL);
  /* Terminated, not timed out: a wrong backend terminated ends the wait by
  ** the URI's lock_timeout (a failure here, never a hang). */
  CHECK(strstr(s.err.message, "lock timeout") == NULL);
  if (s.st != STRATA_EIO || strstr(s.err.message, "corrupt") || strstr(s.err.message, "lock timeout"))
    fprintf(stderr, "terminated open: %s\n", s.err.message);
  /* and the world opens whole after */
  char *again = opened_json(world_uri("busy"), &s.err);
  CHECK(again != NULL);
  free(again);
  free(pid);
  PQfinish(watch);
  PQfinish(c);
}

int main(void) {
  if (!server_uri(server, sizeof server)) {
    puts("skipped: no server (no STRATA_PG_URI, no URI file: PostgreSQL not installed?)");
    return 77;
  }
  PGconn *c = sql_conn();
  CHECK(pg_sql(c, "DROP SCHEMA IF EXISTS strata_trip, strata_inc, strata_two, strata_idle, strata_dmg, strata_dmg2,"
               " strata_kill, strata_rdr, strata_rdr2, strata_garb1, strata_garb2, strata_garb3, strata_garb4, strata_garb5,"
               " strata_many, strata_first, strata_busy CASCADE"));
  PQfinish(c);
  round_trip();
  incremental();
  many_maps();
  two_writers();
  reconnect();
  damage();
  killed();
  readers_stay();
  open_beside_save();
  first_error();
  transient();
  garbled();
  unanswered();
  return check_summary("store_pg");
}
#endif
