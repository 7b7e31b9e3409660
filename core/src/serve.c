/*
** serve.c - one process serving scopes of a world kept in PostgreSQL
** (strata/serve.h). The leases say what the process owns (lease.c), the
** rows are save.c's (a served save, serve_internal.h), the queue of
** hand-overs is handover.c's; this file keeps which scope a thing is in and
** the order of the steps. Three connections: the lease client's, the
** world's store (its saves and pick-ups, each one transaction fenced by the
** leases), and a listener that only waits for NOTIFY.
*/
#include "strata/serve.h"

#include "strata/alloc.h"
#include "world_internal.h"

#include <stdio.h>
#include <string.h>

#ifndef STRATA_HAVE_LIBPQ
static strata_status no_libpq(strata_error *err, const char *fn) {
  return strata_error_in(err, STRATA_ESTATE, fn, "strata was built without PostgreSQL (no libpq: STRATA_WITH_POSTGRES)");
}
strata_status strata_serve_open(const char *uri, const strata_serve_options *opt, strata_serve **out,
                                strata_mod_version **mods, size_t *nmods, strata_error *err) {
  (void)uri, (void)opt, (void)mods, (void)nmods;
  if (out) *out = NULL;
  return no_libpq(err, "strata_serve_open");
}
strata_world *strata_serve_world(strata_serve *s) { (void)s; return NULL; }
strata_lease_client *strata_serve_leases(strata_serve *s) { (void)s; return NULL; }
strata_status strata_serve_save(strata_serve *s, const strata_mod_version *mods, size_t nmods, size_t *handed,
                                strata_error *err) {
  (void)s, (void)mods, (void)nmods, (void)handed;
  return no_libpq(err, "strata_serve_save");
}
strata_status strata_serve_poll(strata_serve *s, int timeout_ms, size_t *arrived, strata_error *err) {
  (void)s, (void)timeout_ms, (void)arrived;
  return no_libpq(err, "strata_serve_poll");
}
const char *strata_serve_scope_of(strata_serve *s, uint64_t uid, char out[STRATA_LEASE_SCOPE_MAX]) {
  (void)s, (void)uid;
  *out = '\0';
  return out;
}
int strata_serve_owns(const strata_serve *s, const char *scope) { (void)s, (void)scope; return 0; }
strata_status strata_serve_move(strata_serve *s, uint64_t uid, uint64_t map, int64_t x, int64_t y, strata_error *err) {
  (void)s, (void)uid, (void)map, (void)x, (void)y;
  return no_libpq(err, "strata_serve_move");
}
void strata_serve_close(strata_serve *s) { (void)s; }
#else
#include <libpq-fe.h>
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "handover.h"
#include "lease_internal.h"
#include "pg_uri.h"
#include "serve_internal.h"
#include "store.h"
#include "sys.h"
#include "util.h"

#define SERVE_BLOCK ((uint64_t)1 << 16) /* uids reserved at a time */
#define SERVE_TAKE 256                   /* hand-overs taken per transaction */
#define SERVE_DEPTH 64                   /* positions followed to find a scope */

typedef struct served_scope {
  char name[STRATA_LEASE_SCOPE_MAX];
  int64_t fence;
} served_scope;

struct strata_serve {
  char *uri;
  strata_lease_client *leases;
  strata_world *w;
  PGconn *listener;
  char schema[STRATA_PG_SCHEMA_MAX];
  served_scope *scopes;
  const char **names;   /* scopes[i].name, as the queue's take wants them */
  size_t nscopes;
  int world;            /* serves "world" */
  double ttl, renewed;  /* the leases' ttl; when they were last renewed (CLOCK_MONOTONIC) */
  /* The areas and maps of the world as opened, whether held or not: an area
  ** to itself, a map to its area (0: in none). What is on a map another
  ** process holds still finds its scope. */
  uidmap dir;
  /* Without "world": what was in no area or map when s opened, kept to be
  ** read (the world record) and never written: another process serves it. */
  uidmap ro;
  serve_hooks hooks;
};

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- scopes ---- */

/* The scope an area or map (uid, of that kind) is in. */
static void scope_of_place(uint64_t uid, int is_area, uint64_t area, char out[STRATA_LEASE_SCOPE_MAX]) {
  if (is_area) snprintf(out, STRATA_LEASE_SCOPE_MAX, "area:%" PRIu64, uid);
  else if (area) snprintf(out, STRATA_LEASE_SCOPE_MAX, "area:%" PRIu64, area);
  else snprintf(out, STRATA_LEASE_SCOPE_MAX, "map:%" PRIu64, uid);
}

/* uid's scope into out: its own when an area or a map, else the one of
** what it is positioned on, else "world"; "" when the chain leads to a
** uid neither the world nor the directory knows. */
static void find_scope(const strata_serve *s, const strata_world *w, uint64_t uid, char out[STRATA_LEASE_SCOPE_MAX]) {
  for (int depth = 0; depth < SERVE_DEPTH; depth++) {
    const strata_object *o = strata_world_object(w, uid);
    if (!o) {
      const size_t *at = uidmap_get(&s->dir, uid);
      if (!at) break;
      scope_of_place(uid, *at == uid, *at, out);
      return;
    }
    if (!strcmp(o->kind, "area") || !strcmp(o->kind, "map")) {
      scope_of_place(uid, o->kind[0] == 'a', o->kind[0] == 'm' ? map_area_in(w, uid) : 0, out);
      return;
    }
    if (!o->has_pos) {
      snprintf(out, STRATA_LEASE_SCOPE_MAX, "world");
      return;
    }
    uid = o->map;
  }
  *out = '\0';
}

int strata_serve_owns(const strata_serve *s, const char *scope) {
  for (size_t i = 0; s && scope && i < s->nscopes; i++)
    if (!strcmp(s->scopes[i].name, scope)) return 1;
  return 0;
}

static int hook_owns(void *ud, const strata_world *w, uint64_t uid, char scope[STRATA_LEASE_SCOPE_MAX]) {
  const strata_serve *s = ud;
  if (uidmap_get(&s->ro, uid)) {
    snprintf(scope, STRATA_LEASE_SCOPE_MAX, "world"); /* wherever it was put since */
    return 0;
  }
  find_scope(s, w, uid, scope);
  return strata_serve_owns(s, scope);
}

const char *strata_serve_scope_of(strata_serve *s, uint64_t uid, char out[STRATA_LEASE_SCOPE_MAX]) {
  *out = '\0';
  if (s && strata_world_object(s->w, uid)) find_scope(s, s->w, uid, out);
  return out;
}

strata_status strata_serve_move(strata_serve *s, uint64_t uid, uint64_t map, int64_t x, int64_t y, strata_error *err) {
  static const char *const fn = "strata_serve_move";
  if (!s) return strata_error_in(err, STRATA_EARG, fn, "no serving process");
  if (!strata_world_object(s->w, map) && !uidmap_get(&s->dir, map))
    return strata_error_in(err, STRATA_ENOTFOUND, fn, "#%" PRIu64 " is neither in this world nor an area or map of "
                           "another scope", map);
  return strata_object_set_position(s->w, uid, map, x, y, err);
}

/* "area:N", "map:N" (N a uid, decimal, no sign or leading zero) or "world". */
static int scope_shape(const char *scope) {
  if (!strcmp(scope, "world")) return 1;
  const char *n = !strncmp(scope, "area:", 5) ? scope + 5 : !strncmp(scope, "map:", 4) ? scope + 4 : NULL;
  if (!n || !*n || *n == '0' || strlen(n) > 19) return 0;
  for (const char *p = n; *p; p++)
    if (*p < '0' || *p > '9') return 0;
  return 1;
}

/* ---- hooks of the served save ---- */

/* Every scope held, unexpired, with the fence it was granted at, read FOR
** SHARE in the store's transaction: the rows cannot change before it commits. */
static strata_status hook_fence(void *ud, store *st, strata_error *err) {
  strata_serve *s = ud;
  for (size_t i = 0; i < s->nscopes; i++) {
    strata_status r = strata_lease_check_conn(store_pg_conn(st), s->schema, s->scopes[i].name, s->scopes[i].fence, err);
    if (r) return r;
  }
  return STRATA_OK;
}

static strata_status hook_hand(void *ud, store *st, uint64_t uid, const char *to, strata_error *err) {
  strata_serve *s = ud;
  char from[STRATA_LEASE_SCOPE_MAX];
  /* The sender's first scope and fence: which process sent it, for serve-check. */
  snprintf(from, sizeof from, "%s", s->scopes[0].name);
  return handover_send(store_pg_conn(st), s->schema, uid, from, to, s->scopes[0].fence, err);
}

/* ---- the leases ---- */

static strata_status renew(strata_serve *s, strata_error *err) {
  strata_lease_info lost[4];
  size_t n = 0;
  strata_status st = strata_lease_renew(s->leases, lost, 4, &n, err);
  if (!st) s->renewed = now_s();
  return st;
}

static void nap(double seconds) {
  struct timespec t = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
  nanosleep(&t, NULL);
}

/* Every scope of opt acquired, waiting up to opt->wait for the ones
** another holder has; else an error naming the first one still held. */
static strata_status acquire_all(strata_serve *s, const strata_serve_options *opt, strata_error *err) {
  double until = now_s() + opt->wait;
  for (size_t i = 0; i < s->nscopes; i++) {
    strata_lease_info info;
    for (;;) {
      strata_status st = strata_lease_acquire(s->leases, s->scopes[i].name, &info, err);
      if (st) return st;
      if (info.mine) break;
      double left = until - now_s();
      if (left <= 0)
        return strata_error_in(err, STRATA_ESTATE, "strata_serve_open", "%s is held by %s until %s", info.scope,
                               info.holder, info.until);
      /* A holder's lease ends at its expiry (or its release): ask again then. */
      double step = info.remaining > 0 ? info.remaining : 0.05;
      nap(step < left ? (step < 0.05 ? 0.05 : step) : left);
    }
    s->scopes[i].fence = info.fence;
  }
  s->renewed = now_s();
  return STRATA_OK;
}

/* ---- opening ---- */

/* The world as opened, cut down to what s serves: the directory of areas
** and maps first (while every one is there), then what other processes
** serve let go. */
static strata_status keep_served(strata_serve *s, strata_error *err) {
  strata_world *w = s->w;
  uint64_t *drop = NULL;
  size_t n = 0, cap = 0;
  char scope[STRATA_LEASE_SCOPE_MAX];
  for (strata_object *o = world_next(w, 0); o; o = world_next(w, o->uid)) {
    int area = !strcmp(o->kind, "area");
    if ((area || !strcmp(o->kind, "map")) && !uidmap_put(&s->dir, o->uid, area ? o->uid : map_area_in(w, o->uid)))
      goto nomem;
  }
  for (strata_object *o = world_next(w, 0); o; o = world_next(w, o->uid)) {
    find_scope(s, w, o->uid, scope);
    /* What is in no area or map stays, read only without "world" (the
    ** world record: a runtime reads it); another's area or map goes. */
    if (strata_serve_owns(s, scope)) continue;
    if (!strcmp(scope, "world") || !*scope) {
      if (!uidmap_put(&s->ro, o->uid, 0)) goto nomem;
      continue;
    }
    if (!STRATA_GROW(drop, cap, n + 1)) goto nomem;
    drop[n++] = o->uid;
  }
  for (size_t i = 0; i < n; i++) world_forget(w, drop[i]);
  strata_free(drop);
  if (!s->world) world_forget_shared(w);
  /* The maps a save looks at: the ones kept. */
  uidset_clear(&w->maps);
  for (strata_object *o = world_next(w, 0); o; o = world_next(w, o->uid))
    if (o->tilemap) world_mark_map(w, o->uid);
  return STRATA_OK;
nomem:
  strata_free(drop);
  return strata_error_nomem(err, "strata_serve_open");
}

/* The listener's connection (and the world's schema, from the URI):
** LISTEN before the first take, so that no hand-over committed after it
** goes unnoticed. */
static strata_status listen_on(strata_serve *s, strata_error *err) {
  char world[STRATA_PG_WORLD_MAX];
  size_t size = strlen(s->uri) + 1;
  char *conninfo = strata_malloc(size);
  if (!conninfo) return strata_error_nomem(err, "strata_serve_open");
  strata_status st = strata_pg_uri_split(s->uri, conninfo, size, world, "strata_serve_open", err);
  if (!st) {
    strata_pg_schema(world, s->schema);
    s->listener = strata_pg_connect(conninfo, "strata serve listener");
    if (!s->listener || PQstatus(s->listener) != CONNECTION_OK) {
      char why[200];
      strata_pg_first_line(s->listener ? PQerrorMessage(s->listener) : "out of memory", why, sizeof why);
      st = strata_error_in(err, STRATA_EIO, "strata_serve_open", "cannot connect: %s", why);
    }
  }
  strata_free(conninfo);
  if (!st) st = handover_create(s->listener, s->schema, err);
  if (!st) st = handover_listen(s->listener, s->schema, err);
  return st;
}

static strata_status check_options(const strata_serve_options *opt, strata_error *err) {
  static const char *const fn = "strata_serve_open";
  if (!opt || !opt->scopes || !opt->nscopes) return strata_error_in(err, STRATA_EARG, fn, "no scope to serve");
  if (!(opt->ttl >= 0 && opt->ttl <= STRATA_LEASE_TTL_MAX) || !(opt->wait >= 0 && opt->wait <= STRATA_LEASE_TTL_MAX))
    return strata_error_in(err, STRATA_EARG, fn, "ttl and wait must be 0 to %g seconds", STRATA_LEASE_TTL_MAX);
  for (size_t i = 0; i < opt->nscopes; i++) {
    const char *sc = opt->scopes[i];
    if (!sc || strata_lease_check_scope(sc, fn, err) || !scope_shape(sc))
      return strata_error_in(err, STRATA_EARG, fn, "scope %zu: '%.64s' is not area:UID, map:UID or world", i + 1,
                             sc ? sc : "(null)");
    for (size_t j = 0; j < i; j++)
      if (!strcmp(opt->scopes[j], sc)) return strata_error_in(err, STRATA_EARG, fn, "scope %s given twice", sc);
  }
  return STRATA_OK;
}

static strata_status open_steps(strata_serve *s, const strata_serve_options *opt, strata_mod_version **mods,
                                size_t *nmods, strata_error *err) {
  strata_status st = listen_on(s, err);
  if (!st) st = acquire_all(s, opt, err);
  if (!st) st = strata_world_open(s->uri, &s->w, mods, nmods, err);
  if (!st) st = keep_served(s, err);
  if (st) return st;
  s->w->served = 1;
  s->hooks = (serve_hooks){ s, hook_owns, hook_fence, hook_hand, s->world, SERVE_BLOCK };
  size_t handed;
  /* The first save reserves the process's block of uids, under the fence. */
  if ((st = strata_serve_save(s, NULL, 0, &handed, err))) return st;
  return strata_serve_poll(s, 0, NULL, err);
}

strata_status strata_serve_open(const char *uri, const strata_serve_options *opt, strata_serve **out,
                                strata_mod_version **mods, size_t *nmods, strata_error *err) {
  static const char *const fn = "strata_serve_open";
  if (out) *out = NULL;
  if (!uri || !out) return strata_error_in(err, STRATA_EARG, fn, "no URI or no place for the result");
  strata_status st = check_options(opt, err);
  if (st) return st;
  strata_serve *s = strata_calloc(1, sizeof *s);
  if (!s || !(s->uri = strata_strdup(uri)) || !(s->scopes = strata_calloc(opt->nscopes, sizeof *s->scopes)) ||
      !(s->names = strata_calloc(opt->nscopes, sizeof *s->names))) {
    strata_serve_close(s);
    return strata_error_nomem(err, fn);
  }
  s->nscopes = opt->nscopes;
  for (size_t i = 0; i < opt->nscopes; i++) {
    snprintf(s->scopes[i].name, sizeof s->scopes[i].name, "%s", opt->scopes[i]);
    s->names[i] = s->scopes[i].name;
    s->world |= !strcmp(opt->scopes[i], "world");
  }
  s->ttl = opt->ttl > 0 ? opt->ttl : 30;
  s->leases = strata_lease_open(uri, opt->label ? opt->label : "strata", s->ttl, err);
  if (!s->leases) st = err ? err->status : STRATA_EIO;
  strata_mod_version *m = NULL;
  size_t nm = 0;
  if (!st) st = open_steps(s, opt, &m, &nm, err);
  if (st) {
    strata_mod_versions_free(m, nm);
    strata_serve_close(s);
    return st;
  }
  if (mods) *mods = m, *nmods = nm;
  else strata_mod_versions_free(m, nm);
  *out = s;
  return STRATA_OK;
}

strata_world *strata_serve_world(strata_serve *s) { return s ? s->w : NULL; }
strata_lease_client *strata_serve_leases(strata_serve *s) { return s ? s->leases : NULL; }

/* ---- saves and pick-ups ---- */

strata_status strata_serve_save(strata_serve *s, const strata_mod_version *mods, size_t nmods, size_t *handed,
                                strata_error *err) {
  if (handed) *handed = 0;
  if (!s) return strata_error_in(err, STRATA_EARG, "strata_serve_save", "no serving process");
  strata_status st = world_not_in_callback(s->w, "strata_serve_save", "save", err);
  if (!st && s->w->depth)
    st = strata_error_in(err, STRATA_ESTATE, "strata_serve_save", "a savepoint is open (commit or roll it back first)");
  if (!st) st = renew(s, err);
  uint64_t *gone = NULL;
  size_t n = 0;
  if (!st) st = save_served(s->w, s->uri, &s->hooks, mods, nmods, &gone, &n, err);
  if (st) return st;
  for (size_t i = 0; i < n; i++) world_forget(s->w, gone[i]);
  strata_free(gone);
  if (handed) *handed = n;
  return STRATA_OK;
}

/* One transaction of pick-ups on the world's connection, fenced as a save
** is (a process that lost a scope takes nothing for it): *n taken. */
static strata_status take_some(strata_serve *s, size_t *n, size_t *arrived, strata_error *err) {
  strata_world *w = s->w;
  if (!store_pg_idle(w->file.store)) {
    store_pg_free(w->file.store);
    if (!(w->file.store = store_pg_open(s->uri, "cannot open", err))) return err ? err->status : STRATA_EIO;
  }
  store *st = w->file.store;
  handover_item items[SERVE_TAKE];
  *n = 0;
  int rc = st->ops->begin(st, 0);
  strata_status res = rc ? st->ops->fail(st, rc, "cannot open", err) : hook_fence(s, st, err);
  if (!res) res = handover_take(store_pg_conn(st), s->schema, s->names, s->nscopes, SERVE_TAKE, items, n, err);
  for (size_t i = 0; i < *n && !res; i++) {
    int got = save_load_object(w, st, items[i].uid, err);
    if (got < 0) res = err ? err->status : STRATA_EPARSE;
    else if (arrived) *arrived += (size_t)got;
    uidmap_del(&s->ro, items[i].uid); /* (handed here: no longer the world's) */
  }
  /* Once all are in (a bag may come before who carries it): a row queued
  ** here that is not in these scopes is not kept. */
  char scope[STRATA_LEASE_SCOPE_MAX];
  for (size_t i = 0; i < *n && !res; i++)
    if (strata_world_object(w, items[i].uid) && (find_scope(s, w, items[i].uid, scope), !strata_serve_owns(s, scope))) {
      world_forget(w, items[i].uid);
      if (arrived) --*arrived;
    }
  if (!res && (rc = st->ops->commit(st))) res = st->ops->fail(st, rc, "cannot open", err);
  if (res) st->ops->rollback(st);
  return res;
}

strata_status strata_serve_poll(strata_serve *s, int timeout_ms, size_t *arrived, strata_error *err) {
  static const char *const fn = "strata_serve_poll";
  if (arrived) *arrived = 0;
  if (!s) return strata_error_in(err, STRATA_EARG, fn, "no serving process");
  if (s->w->depth || s->w->callbacks)
    return strata_error_in(err, STRATA_ESTATE, fn, "not inside a savepoint or a callback of the world");
  char scope[STRATA_LEASE_SCOPE_MAX];
  int notified = 0;
  strata_status st = handover_wait(s->listener, timeout_ms < 0 ? 0 : timeout_ms, scope, &notified, err);
  while (!st && notified) st = handover_wait(s->listener, 0, scope, &notified, err); /* the rest that came */
  /* The leases live on while nothing is saved. */
  if (!st && now_s() - s->renewed > s->ttl / 3) st = renew(s, err);
  size_t n = SERVE_TAKE;
  while (!st && n == SERVE_TAKE) st = take_some(s, &n, arrived, err);
  return st;
}

void strata_serve_close(strata_serve *s) {
  if (!s) return;
  if (s->leases) {
    strata_error e;
    strata_lease_release_all(s->leases, &e);
    strata_lease_close(s->leases);
  }
  if (s->w) s->w->served = 0;
  strata_world_free(s->w);
  if (s->listener) PQfinish(s->listener);
  uidmap_free(&s->dir);
  uidmap_free(&s->ro);
  strata_free(s->scopes);
  strata_free(s->names);
  strata_free(s->uri);
  strata_free(s);
}
#endif
