/*
** test_serve_two.c - issue 39's two-process spec (strata/serve.h) against the
** fixture pg_server's throw-away server.
**
** one_process: two serve handles in this process, one per area; an actor
** moved from one area's map to the other's is handed over by a save and
** taken by the other's poll, once, with its props.
**
** two_processes: a world of two areas A and B (one map each) and 1,000
** actors saved to the server; two children (this program run again:
** "child ...") serve "area:A" and "area:B" and move a random handful of
** their actors to the other area's map (strata_serve_move; one_process
** moves by strata_object_set_position) at each save, props.trips counting
** each trip (after each save a child's world must hold only actors on its
** own map), while the parent kills a child (SIGKILL) at random times and
** starts it again, for STRATA_SERVE_TWO_SECONDS (default 60). After each
** kill it checks the dead holder's lease reaches no further than its
** connections' end plus the ttl, that the next grant of the scope has a
** higher fence and comes after that expiry, and that the committed world (a
** read-only open) holds every actor once. A quarter of the times it pauses
** the child instead (stopped between two transactions), lets a successor
** take the scope, and lets the paused one go on: it must find its lease
** lost and end, writing nothing. At the end the children stop cleanly, and
** the world, its hand-over queue and a fresh process serving both scopes
** are checked: every actor exactly once, on A's map or B's, props intact,
** its map the one its number of trips says (an even number: where it
** began); in exactly one child's last world or in the queue; every lease
** released.
**
** No verdict depends on speed: how many trips happen is printed, not
** checked (beyond one); each wait is bounded far beyond a slow machine's
** need and fails only on a hang. Exit 77 (skipped) without libpq or without
** a server.
*/
#include <stdio.h>
#include <stdlib.h>

#ifndef STRATA_HAVE_LIBPQ
int main(void) {
  puts("skipped: built without libpq (Debian: libpq-dev; STRATA_WITH_POSTGRES)");
  return 77;
}
#else
#include <fcntl.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "area_fixture.h"
#include "check.h"
#include "pg_server.h"
#include "strata/lease.h"
#include "strata/serve.h"

#define ACTORS 1000
#define MAP_W 40
#define MAP_H 25
#define TTL 2.0         /* the children's leases: short, so a dead child's expire soon */
#define OPEN_WAIT 60.0  /* a child's open waits out a dead predecessor's lease (TTL) */
#define FAR_S 120.0     /* a bound on any wait: reached only by a hang */
#define FAR_MS 60000    /* a hand-over's bound in one_process */
#define MAX_MOVES 8     /* a child moves 1 to this many actors a save */
#define TOO_MANY 5      /* unexpected child exits after which the run stops */
#define LOST 6          /* a child's exit status when it found its lease lost (STRATA_ESTATE) */

/* ---- small helpers ---- */

static double mono(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_ms(int ms) {
  struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
  nanosleep(&t, NULL);
}

/* xorshift64*: the run's random choices (none is a verdict). */
static uint64_t next_rand(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

static double uniform(uint64_t *s, double lo, double hi) {
  return lo + (hi - lo) * (double)(next_rand(s) >> 11) / 9007199254740992.0;
}

static int64_t prop_int(strata_world *w, uint64_t uid, const char *key, int64_t absent) {
  const strata_value *v = fx_prop2(w, uid, "props", key);
  return v != NULL && v->type == STRATA_VINT ? v->u.i : absent;
}

/* The first value of the query text as a double (NAN when it failed). */
static double query_double(PGconn *c, const char *text) {
  PGresult *r = PQexec(c, text);
  double v = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == 1 ? strtod(PQgetvalue(r, 0, 0), NULL) : NAN;
  if (PQresultStatus(r) != PGRES_TUPLES_OK) fprintf(stderr, "%s: %s", text, PQerrorMessage(c));
  PQclear(r);
  return v;
}

static double db_now(PGconn *c) { return query_double(c, "SELECT extract(epoch FROM clock_timestamp())::float8"); }

/* ---- the world: two areas of one map each, n actors half on each ---- */

typedef struct two_world {
  char uri[700];
  char schema[64];
  uint64_t area[2], map[2];
  char scope[2][STRATA_LEASE_SCOPE_MAX];
  int actors;
} two_world;

/* Actor i: props { id = i, name = "actor-i", trips = 0 } on map[i % 2]. */
static strata_status make_actor(strata_world *w, const two_world *tw, int i, strata_error *err) {
  uint64_t uid;
  strata_status st = strata_world_create(w, "actor", NULL, &uid, err);
  if (st) return st;
  char name[32];
  snprintf(name, sizeof name, "actor-%d", i);
  st = fx_set2(w, uid, "props", "id", strata_value_int(i), err);
  if (!st) st = fx_set2(w, uid, "props", "name", fx_str(name), err);
  if (!st) st = fx_set2(w, uid, "props", "trips", strata_value_int(0), err);
  if (!st) st = strata_object_set_position(w, uid, tw->map[i % 2], i % MAP_W, (i / 2) % MAP_H, err);
  return st;
}

/* Makes the world through the runtime's area functions and saves it whole
** to tw->uri; the areas' and maps' uids into tw. */
static int make_world(two_world *tw, int actors) {
  strata_error err;
  strata_registry *reg = strata_registry_new(&err);
  strata_world *w = reg ? strata_world_new(39, &err) : NULL;
  strata_runtime *rt = w ? strata_runtime_new(w, strata_registry_resolver(reg), &err) : NULL;
  strata_status st = rt ? STRATA_OK : STRATA_ENOMEM;
  for (int k = 0; k < 2 && !st; k++) {
    st = strata_area_create(rt, STRATA_AREA_ONE_MAP, NULL, &tw->area[k], &err);
    if (!st) st = strata_world_create_map(w, MAP_W, MAP_H, NULL, &tw->map[k], &err);
    if (!st) st = strata_area_add_floor(rt, tw->area[k], tw->map[k], 1, &err);
    snprintf(tw->scope[k], sizeof tw->scope[k], "area:%llu", (unsigned long long)tw->area[k]);
  }
  for (int i = 0; i < actors && !st; i++) st = make_actor(w, tw, i, &err);
  if (!st) st = strata_world_save(w, tw->uri, NULL, 0, &err);
  if (st) fprintf(stderr, "making the world %s: %s\n", tw->uri, err.message);
  tw->actors = actors;
  strata_runtime_free(rt);
  strata_world_free(w);
  strata_registry_free(reg);
  return st == STRATA_OK;
}

/* Drops the world's schema once every check so far passed (else it stays to
** be looked at). */
static void drop_world(PGconn *pg, const two_world *tw) {
  char text[160];
  snprintf(text, sizeof text, "DROP SCHEMA %s CASCADE", tw->schema);
  if (check_failed == 0) CHECK(pg_sql(pg, text));
  else fprintf(stderr, "the world stays in the server for a look: %s\n", tw->uri);
}

/* The world PREFIX_PID on the server of uri (pg_test_start's, world= last). */
static void name_world(two_world *tw, const char *uri, const char *prefix) {
  const char *world = strstr(uri, "world=");
  snprintf(tw->schema, sizeof tw->schema, "strata_%s_%d", prefix, (int)getpid());
  snprintf(tw->uri, sizeof tw->uri, "%.*sworld=%s_%d", (int)(world ? world - uri : 0), uri, prefix, (int)getpid());
}

/* ---- what a committed world holds ---- */

typedef struct tally {
  int actors, on[2], bad;
  long trips;
  unsigned char seen[ACTORS];
} tally;

/* Checks one actor of w; counts it into t. A problem is told with when and
** the uid (the first few only). */
static void tally_actor(strata_world *w, const two_world *tw, const strata_object *o, const char *when, tally *t) {
  int64_t id = prop_int(w, o->uid, "id", -1), trips = prop_int(w, o->uid, "trips", -1);
  const strata_value *name = fx_prop2(w, o->uid, "props", "name");
  char want[32];
  snprintf(want, sizeof want, "actor-%lld", (long long)id);
  int side = o->has_pos && o->map == tw->map[0] ? 0 : o->has_pos && o->map == tw->map[1] ? 1 : -1;
  const char *why = id < 0 || id >= tw->actors ? "props.id missing or out of range"
                    : t->seen[id] ? "a second actor of this id"
                    : name == NULL || name->type != STRATA_VSTRING || strcmp(name->u.str.s, want) != 0 ? "props.name"
                    : trips < 0 ? "props.trips missing or negative"
                    : side < 0 ? "not on A's map nor B's"
                    : side != (int)((id + trips) % 2) ? "on the map its number of trips does not lead to"
                    : NULL;
  t->actors++;
  if (id >= 0 && id < tw->actors) t->seen[id]++;
  if (why != NULL) {
    if (t->bad++ < 10)
      fprintf(stderr, "%s: actor uid %llu (props.id %lld, trips %lld, map %llu): %s\n", when,
              (unsigned long long)o->uid, (long long)id, (long long)trips,
              (unsigned long long)(o->has_pos ? o->map : 0), why);
    return;
  }
  t->on[side]++;
  t->trips += trips;
}

/* Tallies every actor of w and checks them all there once. */
static void tally_world(strata_world *w, const two_world *tw, const char *when, tally *t) {
  memset(t, 0, sizeof *t);
  for (const strata_object *o = strata_world_next_object(w, 0); o != NULL; o = strata_world_next_object(w, o->uid))
    if (strcmp(o->kind, "actor") == 0) tally_actor(w, tw, o, when, t);
  int missing = 0;
  for (int i = 0; i < tw->actors; i++) missing += t->seen[i] == 0;
  if (t->actors != tw->actors || missing || t->bad)
    fprintf(stderr, "%s: %d actors (expected %d), %d ids missing, %d bad\n", when, t->actors, tw->actors, missing,
            t->bad);
  CHECK(t->actors == tw->actors && missing == 0 && t->bad == 0);
}

/* The last committed save, read-only (as a web front end opens it); NULL
** when it does not open, said with when. */
static strata_world *open_committed(const two_world *tw, const char *when) {
  strata_error err;
  strata_world *w = NULL;
  strata_mod_version *mods = NULL;
  size_t nmods = 0;
  strata_status st = strata_world_open(tw->uri, &w, &mods, &nmods, &err);
  if (st) fprintf(stderr, "%s: strata_world_open: %s\n", when, err.message);
  CHECK_EQ_INT(st, STRATA_OK);
  if (!st) strata_mod_versions_free(mods, nmods);
  return st ? NULL : w;
}

/* Opens the last committed save and tallies it; 0 when it does not open. */
static int committed(const two_world *tw, const char *when, tally *t) {
  strata_world *w = open_committed(tw, when);
  if (w == NULL) return 0;
  tally_world(w, tw, when, t);
  strata_world_free(w);
  return 1;
}

/* ---- one process, two serve handles ---- */

static strata_serve *serve(const two_world *tw, int k, const char *label, double wait) {
  strata_error err;
  const char *scopes[] = { tw->scope[k] };
  strata_serve_options opt = { .label = label, .ttl = TTL, .scopes = scopes, .nscopes = 1, .wait = wait };
  strata_serve *s = NULL;
  if (strata_serve_open(tw->uri, &opt, &s, NULL, NULL, &err)) {
    fprintf(stderr, "strata_serve_open(%s): %s\n", tw->scope[k], err.message);
    return NULL;
  }
  return s;
}

/* Adds a trip to the actor of s's world and moves it to map (where it
** stands): by strata_serve_move, or with raw by strata_object_set_position
** (the world's own setter: a save finds where it went either way). */
static strata_status travel(strata_serve *s, uint64_t uid, uint64_t map, int raw, strata_error *err) {
  strata_world *w = strata_serve_world(s);
  const strata_object *o = strata_world_get(w, uid);
  strata_status st = fx_set2(w, uid, "props", "trips", strata_value_int(prop_int(w, uid, "trips", 0) + 1), err);
  if (st) return st;
  return raw ? strata_object_set_position(w, uid, map, o->x, o->y, err)
             : strata_serve_move(s, uid, map, o->x, o->y, err);
}

static void one_process(PGconn *pg, const char *uri) {
  two_world tw;
  name_world(&tw, uri, "two1");
  CHECK(make_world(&tw, 4));
  strata_serve *a = serve(&tw, 0, "one-a", 0), *b = serve(&tw, 1, "one-b", 0);
  CHECK(a != NULL && b != NULL);
  if (a != NULL && b != NULL) {
    strata_world *wa = strata_serve_world(a), *wb = strata_serve_world(b);
    uint64_t on_a[4], on_b[4];
    CHECK_EQ_INT(strata_world_objects_on(wa, tw.map[0], "actor", on_a, 4), 2);
    CHECK_EQ_INT(strata_world_objects_on(wb, tw.map[1], "actor", on_b, 4), 2);
    CHECK(strata_world_get(wa, on_b[0]) == NULL && strata_world_get(wb, on_a[0]) == NULL);
    char scope[STRATA_LEASE_SCOPE_MAX];
    CHECK_STR(strata_serve_scope_of(a, on_a[0], scope), tw.scope[0]);
    strata_error err;
    size_t handed = 0, arrived = 0;
    CHECK_EQ_INT(travel(a, on_a[0], tw.map[1], 1, &err), STRATA_OK);
    CHECK_EQ_INT(strata_serve_save(a, NULL, 0, &handed, &err), STRATA_OK);
    CHECK_EQ_INT(handed, 1);
    CHECK(strata_world_get(wa, on_a[0]) == NULL);
    CHECK_EQ_INT(strata_serve_poll(b, FAR_MS, &arrived, &err), STRATA_OK);
    CHECK_EQ_INT(arrived, 1);
    const strata_object *o = strata_world_get(wb, on_a[0]);
    CHECK(o != NULL && o->has_pos && o->map == tw.map[1]);
    CHECK_EQ_INT(prop_int(wb, on_a[0], "trips", -1), 1);
    CHECK_EQ_INT(prop_int(wb, on_a[0], "id", -1), 0);
    CHECK_EQ_INT(strata_serve_poll(b, 0, &arrived, &err), STRATA_OK);
    CHECK_EQ_INT(arrived, 0);
    CHECK_EQ_INT(strata_serve_save(b, NULL, 0, &handed, &err), STRATA_OK);
    CHECK_EQ_INT(handed, 0);
  }
  strata_serve_close(a);
  strata_serve_close(b);
  tally t;
  if (committed(&tw, "one_process", &t)) CHECK(t.on[0] == 1 && t.on[1] == 3 && t.trips == 1);
  drop_world(pg, &tw);
}

/* ---- a child: serves one scope, moving actors to the other area ---- */

static int child_failed(const char *scope, const char *what, const strata_error *err) {
  int lost = err->status == STRATA_ESTATE;
  fprintf(stderr, "child %s pid %d%s: %s: %s\n", scope, (int)getpid(), lost ? " (a lease lost, as after a pause)" : "",
          what, err->message);
  return lost ? LOST : 3;
}

/* SIGUSR1 asks a child to stop itself (SIGSTOP) at the top of its loop,
** between two transactions: a process paused past its lease. */
static volatile sig_atomic_t pause_asked;
static void ask_pause(int sig) { (void)sig, pause_asked = 1; }

static void take_pause_requests(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = ask_pause;
  sa.sa_flags = SA_RESTART;
  sigaction(SIGUSR1, &sa, NULL);
  sigset_t usr1;
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_UNBLOCK, &usr1, NULL); /* blocked by the parent until now: none is lost */
}

/* Moves 1 to MAX_MOVES random actors of map mine to map other. */
static strata_status move_some(strata_serve *s, uint64_t mine, uint64_t other, uint64_t *rng, strata_error *err) {
  static uint64_t on[ACTORS];
  size_t n = strata_world_objects_on(strata_serve_world(s), mine, "actor", on, ACTORS);
  if (n > ACTORS) n = ACTORS;
  for (int moves = 1 + (int)(next_rand(rng) % MAX_MOVES); moves > 0 && n > 0; moves--) {
    size_t i = (size_t)(next_rand(rng) % n);
    strata_status st = travel(s, on[i], other, 0, err);
    if (st) return st;
    on[i] = on[--n];
  }
  return STRATA_OK;
}

/* Appends "handed arrived" to the side's figures (each line one write). */
static void tell(const char *path, size_t handed, size_t arrived) {
  char line[64];
  int n = snprintf(line, sizeof line, "%zu %zu\n", handed, arrived);
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0600);
  if (fd >= 0 && write(fd, line, (size_t)n) != n) fprintf(stderr, "%s: a short write\n", path);
  if (fd >= 0) close(fd);
}

/* An actor of w not on map mine (one a save should have handed over, or
** another process's); 0: none. */
static uint64_t stray(const strata_world *w, uint64_t mine) {
  for (const strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    if (strcmp(o->kind, "actor") == 0 && !(o->has_pos && o->map == mine)) return o->uid;
  return 0;
}

/* The props.id of every actor w holds, one a line, into path. */
static int write_held(const char *path, strata_world *w) {
  FILE *f = fopen(path, "w");
  for (const strata_object *o = strata_world_next_object(w, 0); o && f; o = strata_world_next_object(w, o->uid))
    if (strcmp(o->kind, "actor") == 0) fprintf(f, "%lld\n", (long long)prop_int(w, o->uid, "id", -1));
  return f != NULL && fclose(f) == 0;
}

/* The child's rounds on s until the stop file (argv as child_main's); its
** exit status. */
static int child_rounds(strata_serve *s, char **argv) {
  const char *scope = argv[3], *stop = argv[6], *figures = argv[7], *held = argv[8];
  uint64_t mine = strtoull(argv[4], NULL, 10), other = strtoull(argv[5], NULL, 10);
  uint64_t rng = ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL) ^ 0x9e3779b97f4a7c15ULL;
  pid_t parent = (pid_t)atol(argv[9]);
  strata_world *w = strata_serve_world(s);
  strata_error err;
  for (int round = 0, stopping = 0; !stopping; round++) {
    if (getppid() != parent) return child_failed(scope, "the test", &(strata_error){ .message = "gone" });
    if (pause_asked) pause_asked = 0, raise(SIGSTOP);
    stopping = round > 0 && access(stop, F_OK) == 0;
    size_t arrived = 0, handed = 0;
    if (strata_serve_poll(s, stopping ? 0 : 50, &arrived, &err)) return child_failed(scope, "strata_serve_poll", &err);
    if (!stopping && move_some(s, mine, other, &rng, &err)) return child_failed(scope, "a trip", &err);
    if (strata_serve_save(s, NULL, 0, &handed, &err)) return child_failed(scope, "strata_serve_save", &err);
    tell(figures, handed, arrived);
    uint64_t u = stray(w, mine);
    if (u) {
      const strata_object *o = strata_world_get(w, u);
      fprintf(stderr, "child %s pid %d: after a save its world holds actor uid %llu on map %llu, not %llu\n", scope,
              (int)getpid(), (unsigned long long)u, (unsigned long long)(o->has_pos ? o->map : 0),
              (unsigned long long)mine);
      return 4;
    }
  }
  return write_held(held, w) ? 0 : 5;
}

/* argv: child URI SCOPE MINE OTHER STOPFILE FIGURES HELD PARENT. Serves SCOPE
** until STOPFILE exists (its first round moves whatever the file says, so
** that a run shortened by hand still travels), then saves once more, writes
** the ids of the actors it holds into HELD and closes; 0 on a clean stop.
** A child whose parent died (a test killed by its timeout) stops at once. */
static int child_main(char **argv) {
  const char *scopes[] = { argv[3] };
  strata_serve_options opt = { .label = "two", .ttl = TTL, .scopes = scopes, .nscopes = 1, .wait = OPEN_WAIT };
  strata_serve *s = NULL;
  strata_error err;
  take_pause_requests();
  if (strata_serve_open(argv[2], &opt, &s, NULL, NULL, &err)) return child_failed(argv[3], "strata_serve_open", &err);
  int status = child_rounds(s, argv);
  strata_serve_close(s);
  return status;
}

/* ---- the parent's run ---- */

typedef struct side {
  int k;
  pid_t pid;
  int incarnation, kills, kills_holding; /* kills_holding: of a child holding the lease */
  int pauses;
  char app[64];         /* the running child's application_name: its connections */
  char figures[300], held[300];
  double next_kill;     /* mono() */
  int64_t fence;        /* the scope's lease as the last kill left it (0: none yet) */
  double expires;       /* its expiry, epoch seconds by the database's clock */
} side;

typedef struct run {
  two_world tw;
  const char *self;
  char dir[128], stop[160];
  PGconn *pg;
  side sides[2];
  uint64_t rng;
  int unexpected;
  double overhang;      /* the furthest a dead child's lease ran past its kill, seconds */
} run;

/* This program run again with args (args[0] its name, NULL-ended). */
static pid_t start_self(const char *self, char *const *args) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    execv(self, args);
    perror(self);
    _exit(127);
  }
  CHECK(pid > 0);
  return pid;
}

static void spawn(run *r, side *sd) {
  char uri[800], mine[24], other[24], parent[24];
  sd->incarnation++;
  snprintf(sd->app, sizeof sd->app, "strata_two_%d_%c%d", (int)getpid(), 'a' + sd->k, sd->incarnation);
  snprintf(uri, sizeof uri, "%s&application_name=%s", r->tw.uri, sd->app);
  snprintf(mine, sizeof mine, "%llu", (unsigned long long)r->tw.map[sd->k]);
  snprintf(other, sizeof other, "%llu", (unsigned long long)r->tw.map[1 - sd->k]);
  snprintf(parent, sizeof parent, "%d", (int)getpid());
  char *args[] = { (char *)r->self, "child", uri, r->tw.scope[sd->k], mine, other, r->stop, sd->figures, sd->held,
                   parent, NULL };
  sd->pid = start_self(r->self, args);
}

/* Waits (bounded) until no backend of the dead child is left: a statement
** it sent before it died has run by then. */
static void wait_gone(run *r, const side *sd) {
  char text[200];
  snprintf(text, sizeof text, "SELECT count(*) FROM pg_stat_activity WHERE application_name = '%s'", sd->app);
  double until = mono() + FAR_S;
  double n;
  while ((n = query_double(r->pg, text)) != 0 && mono() < until) sleep_ms(20);
  if (n != 0) fprintf(stderr, "the backends of %s (%s) still there after %.0f s\n", sd->app, r->tw.scope[sd->k], FAR_S);
  CHECK(n == 0);
}

/* The scope's lease row; 0 when there is none yet. */
static int lease_row(run *r, int k, char *holder, size_t size, int64_t *fence, double *expires, double *granted) {
  char text[400];
  snprintf(text, sizeof text,
           "SELECT coalesce(holder, ''), fence, extract(epoch FROM expires_at)::float8,"
           " extract(epoch FROM granted_at)::float8 FROM %s.leases WHERE scope = '%s'",
           r->tw.schema, r->tw.scope[k]);
  PGresult *res = PQexec(r->pg, text);
  int ok = PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1;
  if (ok) {
    snprintf(holder, size, "%s", PQgetvalue(res, 0, 0));
    *fence = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
    *expires = strtod(PQgetvalue(res, 0, 2), NULL);
    *granted = strtod(PQgetvalue(res, 0, 3), NULL);
  }
  PQclear(res);
  return ok;
}

/* A grant of the scope since the last kill came after the dead holder's
** expiry, with a higher fence. */
static void check_grant(const side *sd, const char *when, int64_t fence, double granted) {
  if (sd->fence == 0 || fence == sd->fence) return;
  if (fence <= sd->fence || granted < sd->expires)
    fprintf(stderr, "%s: the lease granted at %.3f with fence %lld; the dead holder's: fence %lld, until %.3f\n",
            when, granted, (long long)fence, (long long)sd->fence, sd->expires);
  CHECK(fence > sd->fence);
  CHECK(granted >= sd->expires);
}

/* Waits (bounded: else killed, a hang) for child pid, who is told in
** messages; true when it ended with exit status code. */
static int ended_with(pid_t pid, int code, const char *who) {
  int status = -1;
  double until = mono() + FAR_S;
  while (pid > 0 && waitpid(pid, &status, WNOHANG) == 0 && mono() < until) sleep_ms(20);
  if (pid > 0 && mono() >= until) {
    fprintf(stderr, "%s (pid %d) did not end in %.0f s: killed\n", who, (int)pid, FAR_S);
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  int well = pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == code;
  if (!well) fprintf(stderr, "%s (pid %d) ended with status %d\n", who, (int)pid, status);
  return well;
}

static void kill_one(run *r, side *sd) {
  char when[200], holder[STRATA_LEASE_HOLDER_MAX];
  snprintf(when, sizeof when, "kill %d of %s (pid %d)", sd->kills + 1, r->tw.scope[sd->k], (int)sd->pid);
  pid_t dead = sd->pid;
  kill(dead, SIGKILL);
  waitpid(dead, NULL, 0);
  double killed = db_now(r->pg);
  sd->pid = 0;
  sd->kills++;
  wait_gone(r, sd);
  double gone = db_now(r->pg), expires = 0, granted = 0;
  int64_t fence = 0;
  if (lease_row(r, sd->k, holder, sizeof holder, &fence, &expires, &granted)) {
    check_grant(sd, when, fence, granted);
    /* every holder of the scope is dead now: none may reach past its last
    ** connection's end plus the ttl */
    if (holder[0] != '\0' && expires > gone + TTL + 1e-3)
      fprintf(stderr, "%s: the dead holder %s's lease runs until %.3f, past %.3f + %.1f s\n", when, holder,
              expires, gone, TTL);
    CHECK(holder[0] == '\0' || expires <= gone + TTL + 1e-3);
    char pid[24];
    snprintf(pid, sizeof pid, ":%d:", (int)dead);
    sd->kills_holding += strstr(holder, pid) != NULL;
    if (holder[0] != '\0' && expires - killed > r->overhang) r->overhang = expires - killed;
    sd->fence = fence;
    sd->expires = expires;
  }
  tally t;
  committed(&r->tw, when, &t);
  spawn(r, sd);
}

/* Waits (bounded) until the child of pid holds the side's lease; its row into
** fence and granted. */
static int wait_grant(run *r, const side *sd, pid_t pid, int64_t *fence, double *granted) {
  char tag[24], holder[STRATA_LEASE_HOLDER_MAX];
  snprintf(tag, sizeof tag, ":%d:", (int)pid);
  double expires, until = mono() + FAR_S;
  for (;;) {
    if (lease_row(r, sd->k, holder, sizeof holder, fence, &expires, granted) && strstr(holder, tag)) return 1;
    if (mono() >= until || waitpid(pid, NULL, WNOHANG) != 0) break;
    sleep_ms(20);
  }
  fprintf(stderr, "%s: the child of pid %d never held its lease (%s)\n", r->tw.scope[sd->k], (int)pid, holder);
  return 0;
}

/* A process paused past its lease: the child stops itself between two
** transactions (SIGUSR1), its successor starts and takes the scope once the
** lease expires, then the paused one goes on (SIGCONT): it must find its
** lease lost and end (LOST) without writing (the tallies would see a write
** of what its successor has moved since). */
static void pause_one(run *r, side *sd) {
  char when[200], holder[STRATA_LEASE_HOLDER_MAX];
  pid_t old = sd->pid;
  snprintf(when, sizeof when, "pause %d of %s (pid %d)", sd->pauses + 1, r->tw.scope[sd->k], (int)old);
  kill(old, SIGUSR1);
  int status = 0;
  pid_t got = 0;
  for (double until = mono() + FAR_S; (got = waitpid(old, &status, WNOHANG | WUNTRACED)) == 0 && mono() < until;)
    sleep_ms(10);
  if (got != old || !WIFSTOPPED(status)) {
    fprintf(stderr, "%s: the child did not stop (%s)\n", when, got == old ? "it ended" : "a hang: killed");
    CHECK(0);
    if (got != old) kill(old, SIGKILL), waitpid(old, NULL, 0);
    spawn(r, sd);
    return;
  }
  sd->pauses++;
  int64_t fence = 0;
  double expires = 0, granted = 0;
  char tag[24];
  snprintf(tag, sizeof tag, ":%d:", (int)old);
  /* it stopped in its loop, so it had opened: the lease is its own */
  CHECK(lease_row(r, sd->k, holder, sizeof holder, &fence, &expires, &granted) && strstr(holder, tag));
  sd->fence = fence;
  sd->expires = expires;
  spawn(r, sd);
  CHECK(wait_grant(r, sd, sd->pid, &fence, &granted));
  check_grant(sd, when, fence, granted);
  kill(old, SIGCONT);
  char who[200];
  snprintf(who, sizeof who, "the paused child of %s", r->tw.scope[sd->k]);
  CHECK(ended_with(old, LOST, who));
  tally t;
  committed(&r->tw, when, &t);
}

/* A child that ended without being killed: told, counted, started again. */
static void reap_unexpected(run *r) {
  for (int k = 0; k < 2; k++) {
    side *sd = &r->sides[k];
    int status;
    if (sd->pid <= 0 || waitpid(sd->pid, &status, WNOHANG) != sd->pid) continue;
    fprintf(stderr, "the child serving %s (pid %d, %s) ended by itself: %s %d\n", r->tw.scope[k], (int)sd->pid,
            sd->app, WIFEXITED(status) ? "exit" : "signal", WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    CHECK(0);
    sd->pid = 0;
    r->unexpected++;
    spawn(r, sd);
  }
}

/* Touches the stop file and waits (bounded) for both children's clean ends. */
static void stop_children(run *r) {
  int fd = open(r->stop, O_WRONLY | O_CREAT, 0600);
  CHECK(fd >= 0);
  if (fd >= 0) close(fd);
  for (int k = 0; k < 2; k++) {
    char who[200];
    snprintf(who, sizeof who, "the child serving %s", r->tw.scope[k]);
    CHECK(ended_with(r->sides[k].pid, 0, who));
    r->sides[k].pid = 0;
  }
}

/* Sums a side's figures: hand-overs and arrivals its children told. */
static void sum_figures(const side *sd, long *handed, long *arrived) {
  FILE *f = fopen(sd->figures, "r");
  long h, a;
  while (f != NULL && fscanf(f, "%ld %ld", &h, &a) == 2) *handed += h, *arrived += a;
  if (f != NULL) fclose(f);
}

/* The hand-overs still queued: each for an actor already on the map of the
** scope it goes to. The count into *pending; each one's props.id counted
** into once[]. */
static void check_queue(run *r, int *pending, int *once) {
  char text[200];
  snprintf(text, sizeof text, "SELECT uid, to_scope FROM %s.handovers ORDER BY uid", r->tw.schema);
  PGresult *res = PQexec(r->pg, text);
  CHECK(PQresultStatus(res) == PGRES_TUPLES_OK);
  strata_world *w = open_committed(&r->tw, "the end");
  *pending = PQresultStatus(res) == PGRES_TUPLES_OK ? PQntuples(res) : 0;
  for (int i = 0; i < *pending && w != NULL; i++) {
    uint64_t uid = strtoull(PQgetvalue(res, i, 0), NULL, 10);
    const char *to = PQgetvalue(res, i, 1);
    int k = strcmp(to, r->tw.scope[0]) == 0 ? 0 : strcmp(to, r->tw.scope[1]) == 0 ? 1 : -1;
    const strata_object *o = strata_world_get(w, uid);
    int ok = k >= 0 && o != NULL && o->has_pos && o->map == r->tw.map[k];
    int64_t id = o != NULL ? prop_int(w, uid, "id", -1) : -1;
    if (id >= 0 && id < ACTORS) once[id]++;
    if (!ok) fprintf(stderr, "the end: hand-over of uid %llu to %s, and the world holds it elsewhere\n",
                     (unsigned long long)uid, to);
    CHECK(ok);
  }
  strata_world_free(w);
  PQclear(res);
}

/* argv: check URI SCOPE_A SCOPE_B MAP_A MAP_B. A fresh process serving
** both scopes takes what is queued and holds every actor: 0 when it does. */
static int checker_main(char **argv) {
  two_world tw = { .actors = ACTORS };
  snprintf(tw.uri, sizeof tw.uri, "%s", argv[2]);
  for (int k = 0; k < 2; k++) {
    snprintf(tw.scope[k], sizeof tw.scope[k], "%s", argv[3 + k]);
    tw.map[k] = strtoull(argv[5 + k], NULL, 10);
  }
  strata_error err;
  const char *scopes[] = { tw.scope[0], tw.scope[1] };
  strata_serve_options opt = { .label = "checker", .ttl = TTL, .scopes = scopes, .nscopes = 2, .wait = OPEN_WAIT };
  strata_serve *s = NULL;
  strata_status st = strata_serve_open(tw.uri, &opt, &s, NULL, NULL, &err);
  if (st) fprintf(stderr, "the checker: strata_serve_open: %s\n", err.message);
  CHECK_EQ_INT(st, STRATA_OK);
  if (st) return 1;
  size_t arrived = 0;
  CHECK_EQ_INT(strata_serve_poll(s, 0, &arrived, &err), STRATA_OK);
  tally t;
  tally_world(strata_serve_world(s), &tw, "the checker's world", &t);
  strata_serve_close(s);
  return check_failed ? 1 : 0;
}

static void check_fresh_server(run *r) {
  char maps[2][24];
  for (int k = 0; k < 2; k++) snprintf(maps[k], sizeof maps[k], "%llu", (unsigned long long)r->tw.map[k]);
  char *args[] = { (char *)r->self, "check", r->tw.uri, r->tw.scope[0], r->tw.scope[1], maps[0], maps[1], NULL };
  CHECK(ended_with(start_self(r->self, args), 0, "the checker"));
}

/* Every lease of the world as a lease client of its own lists it: released. */
static int released(void *ud, const strata_lease_info *lease) {
  (void)ud;
  if (lease->holder[0] != '\0') fprintf(stderr, "the end: %s still held by %s\n", lease->scope, lease->holder);
  CHECK(lease->holder[0] == '\0' && lease->expired);
  return 0;
}

static void check_leases_released(run *r) {
  strata_error err;
  strata_lease_client *c = strata_lease_open(r->tw.uri, "two-check", 0, &err);
  if (c == NULL) fprintf(stderr, "strata_lease_open: %s\n", err.message);
  CHECK(c != NULL);
  if (c != NULL) CHECK_EQ_INT(strata_lease_list(c, released, NULL, &err), STRATA_OK);
  strata_lease_close(c);
}

/* Each child's last world (the ids in its file) and the queue: every actor
** in exactly one of them. */
static void check_held(run *r, int *once) {
  for (int k = 0; k < 2; k++) {
    FILE *f = fopen(r->sides[k].held, "r");
    CHECK(f != NULL);
    long long id;
    while (f != NULL && fscanf(f, "%lld", &id) == 1)
      if (id >= 0 && id < ACTORS) once[id]++;
    if (f != NULL) fclose(f);
  }
  int bad = 0;
  for (int i = 0; i < ACTORS; i++)
    if (once[i] != 1 && bad++ < 10)
      fprintf(stderr, "the end: actor %d is in %d of the two children's last worlds and the queue\n", i, once[i]);
  CHECK(bad == 0);
}

static void the_end(run *r, double seconds) {
  stop_children(r);
  char holder[STRATA_LEASE_HOLDER_MAX];
  for (int k = 0; k < 2; k++) {
    int64_t fence;
    double expires, granted;
    CHECK(lease_row(r, k, holder, sizeof holder, &fence, &expires, &granted));
    check_grant(&r->sides[k], "the end", fence, granted);
  }
  check_leases_released(r);
  tally t;
  int pending = 0;
  long handed = 0, arrived = 0;
  static int once[ACTORS];
  CHECK(committed(&r->tw, "the end", &t));
  check_queue(r, &pending, once);
  check_held(r, once);
  check_fresh_server(r);
  tally after;
  CHECK(committed(&r->tw, "after the checker", &after));
  sum_figures(&r->sides[0], &handed, &arrived);
  sum_figures(&r->sides[1], &handed, &arrived);
  CHECK(t.trips > 0);
  CHECK(t.trips >= handed); /* every hand-over a child was told of was committed */
  printf("two_processes: %.0f s, kills %d + %d (%s, %s; %d + %d holding the lease, the rest waiting for it), "
         "pauses %d + %d (each ended by its lost lease), unexpected ends %d\n", seconds, r->sides[0].kills,
         r->sides[1].kills, r->tw.scope[0], r->tw.scope[1], r->sides[0].kills_holding, r->sides[1].kills_holding,
         r->sides[0].pauses, r->sides[1].pauses, r->unexpected);
  printf("two_processes: trips %ld (committed), hand-overs told %ld, arrivals told %ld, pending at the end %d\n",
         t.trips, handed, arrived, pending);
  printf("two_processes: actors on A %d, on B %d; a dead child's lease ran at most %.3f s past its kill (ttl %.1f)\n",
         t.on[0], t.on[1], r->overhang, TTL);
}

static void two_processes(PGconn *pg, const char *uri, const char *self) {
  static run r;
  name_world(&r.tw, uri, "two");
  r.self = self;
  r.rng = ((uint64_t)getpid() << 20) ^ (uint64_t)time(NULL);
  const char *env = getenv("STRATA_SERVE_TWO_SECONDS");
  double seconds = env != NULL && atof(env) > 0 ? atof(env) : 60;
  snprintf(r.dir, sizeof r.dir, "/tmp/strata-serve-two-XXXXXX");
  CHECK(mkdtemp(r.dir) != NULL);
  snprintf(r.stop, sizeof r.stop, "%s/stop", r.dir);
  r.pg = pg;
  if (!make_world(&r.tw, ACTORS)) return;
  sigset_t usr1; /* blocked until a child takes it (take_pause_requests) */
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  sigprocmask(SIG_BLOCK, &usr1, NULL);
  double start = mono();
  for (int k = 0; k < 2; k++) {
    r.sides[k].k = k;
    snprintf(r.sides[k].figures, sizeof r.sides[k].figures, "%s/figures-%c", r.dir, 'a' + k);
    snprintf(r.sides[k].held, sizeof r.sides[k].held, "%s/held-%c", r.dir, 'a' + k);
    r.sides[k].next_kill = start + uniform(&r.rng, 1, 6);
    spawn(&r, &r.sides[k]);
  }
  while (mono() - start < seconds && r.unexpected < TOO_MANY) {
    sleep_ms(50);
    reap_unexpected(&r);
    for (int k = 0; k < 2; k++)
      if (mono() >= r.sides[k].next_kill && mono() - start < seconds) {
        if (next_rand(&r.rng) % 4 == 0) pause_one(&r, &r.sides[k]); /* a quarter: a pause, not a kill */
        else kill_one(&r, &r.sides[k]);
        r.sides[k].next_kill = mono() + uniform(&r.rng, 1, 6);
      }
  }
  the_end(&r, mono() - start);
  drop_world(r.pg, &r.tw);
  unlink(r.stop);
  for (int k = 0; k < 2; k++) unlink(r.sides[k].figures), unlink(r.sides[k].held);
  rmdir(r.dir);
}

int main(int argc, char **argv) {
  if (argc == 10 && strcmp(argv[1], "child") == 0) return child_main(argv);
  if (argc == 7 && strcmp(argv[1], "check") == 0) return checker_main(argv);
  char uri[600];
  PGconn *pg;
  int start = pg_test_start("two", uri, sizeof uri, &pg);
  if (start != 0) return start;
  CHECK(pg_sql(pg, "SET client_min_messages = warning")); /* no DROP's notices */
  one_process(pg, uri);
  two_processes(pg, uri, argv[0]);
  PQfinish(pg);
  return check_summary("test_serve_two");
}
#endif
