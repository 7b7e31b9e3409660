/*
** lease.c - leases in PostgreSQL (strata/lease.h): one row per scope in the
** table leases of the world's schema, each change one statement, so that two
** clients asking at once are ordered by the database's row lock and every
** expiry is read on the database's clock. The client keeps the scopes it was
** granted, with their fences, only to tell a renewal's losses. The
** hand-over queue's lag is read through handover.c, on the same connection.
*/
#include "strata/lease.h"

#ifdef STRATA_HAVE_LIBPQ
#include <libpq-fe.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file_internal.h"
#include "handover.h"
#include "lease_internal.h"
#include "pg_uri.h"
#include "strata/alloc.h"

typedef struct held {
  char *scope;
  int64_t fence;
} held;

struct strata_lease_client {
  PGconn *conn;
  char schema[STRATA_PG_SCHEMA_MAX];
  char holder[STRATA_LEASE_HOLDER_MAX];
  char ttl[32];       /* seconds, as the statements take it */
  char broken[200];   /* why the connection was lost; "" while it is not */
  held *held;
  size_t n_held, cap_held;
};

/* A lease's columns as info_of reads them. */
#define INFO_COLS                                                                        \
  "scope, coalesce(holder, ''), fence, "                                                 \
  "to_char(expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'), "       \
  "extract(epoch FROM expires_at - now())::float8, holder IS NULL OR expires_at <= now()"

/* '@' in the statements stands for the world's schema. */
static const char SQL_CREATE[] =
  "BEGIN; SELECT pg_advisory_xact_lock(hashtext('strata lease @'));"
  " CREATE SCHEMA IF NOT EXISTS @;"
  " CREATE TABLE IF NOT EXISTS @.leases (scope text PRIMARY KEY, holder text, fence bigint NOT NULL,"
  " expires_at timestamptz NOT NULL, granted_at timestamptz NOT NULL); COMMIT";
/* Granted when free, expired or the caller's already (then its fence kept). */
static const char SQL_ACQUIRE[] =
  "INSERT INTO @.leases AS l (scope, holder, fence, expires_at, granted_at)"
  " VALUES ($1, $2, 1, now() + $3::float8 * interval '1 second', now())"
  " ON CONFLICT (scope) DO UPDATE SET"
  " fence = CASE WHEN l.holder = EXCLUDED.holder THEN l.fence ELSE l.fence + 1 END,"
  " granted_at = CASE WHEN l.holder = EXCLUDED.holder THEN l.granted_at ELSE now() END,"
  " holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at"
  " WHERE l.holder IS NULL OR l.holder = EXCLUDED.holder OR l.expires_at <= now()"
  " RETURNING " INFO_COLS;
static const char SQL_ONE[] = "SELECT " INFO_COLS " FROM @.leases WHERE scope = $1";
static const char SQL_CHECK[] = "SELECT " INFO_COLS " FROM @.leases WHERE scope = $1 FOR SHARE";
static const char SQL_SOME[] = "SELECT " INFO_COLS " FROM @.leases WHERE scope = ANY($1::text[]) ORDER BY scope";
static const char SQL_ALL[] = "SELECT " INFO_COLS " FROM @.leases ORDER BY scope";
static const char SQL_RENEW[] =
  "UPDATE @.leases AS l SET expires_at = now() + $2::float8 * interval '1 second'"
  " FROM unnest($3::text[], $4::bigint[]) AS h(scope, fence)"
  " WHERE l.scope = h.scope AND l.fence = h.fence AND l.holder = $1 RETURNING l.scope";
static const char SQL_RELEASE[] =
  "UPDATE @.leases SET holder = NULL, expires_at = now() WHERE scope = $2 AND holder = $1 AND fence = $3::bigint";
static const char SQL_RELEASE_ALL[] = "UPDATE @.leases SET holder = NULL, expires_at = now() WHERE holder = $1";

/* The error of every call once the connection is lost. */
static strata_status still_lost(const strata_lease_client *c, const char *function, strata_error *err) {
  return strata_error_in(err, STRATA_EIO, function, "connection lost: %s", c->broken);
}

/* A failure of the hand-over queue (e, in handover.c's name) as function's;
** a connection lost on the way is lost for every later call, as in run. */
static strata_status queue_failed(strata_lease_client *c, const char *function, const strata_error *e,
                                  strata_error *err) {
  static const char lost[] = "connection lost: ";
  if (PQstatus(c->conn) == CONNECTION_BAD && c->broken[0] == '\0')
    snprintf(c->broken, sizeof c->broken, "%.*s", (int)sizeof c->broken - 1,
             strncmp(e->message, lost, sizeof lost - 1) == 0 ? e->message + sizeof lost - 1 : e->message);
  return strata_error_in(err, e->status, function, "%s", e->message);
}

/* Runs the statement tmpl (its '@' the schema) with params into *out (for
** PQclear); else fails with err set: "connection lost: ..." (and every
** later call says so) or what the server refused. */
static strata_status run(strata_lease_client *c, const char *function, const char *tmpl, int n,
                         const char *const *params, PGresult **out, strata_error *err) {
  *out = NULL;
  if (c->broken[0] != '\0') return still_lost(c, function, err);
  char text[2048]; /* the longest statement, its schema in, is under 800 bytes */
  strata_pg_with_schema(tmpl, c->schema, text, sizeof text);
  PGresult *r = n > 0 ? PQexecParams(c->conn, text, n, NULL, params, NULL, NULL, 0) : PQexec(c->conn, text);
  ExecStatusType st = PQresultStatus(r);
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
    *out = r;
    return STRATA_OK;
  }
  char why[200];
  strata_pg_first_line(r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(c->conn), why, sizeof why);
  PQclear(r);
  if (PQstatus(c->conn) != CONNECTION_BAD)
    return strata_error_in(err, STRATA_EIO, function, "the database refused: %s", why);
  snprintf(c->broken, sizeof c->broken, "%s", why);
  return strata_error_in(err, STRATA_EIO, function, "connection lost: %s", why);
}

static void info_of(const char *holder, PGresult *r, int row, strata_lease_info *out) {
  memset(out, 0, sizeof *out);
  snprintf(out->scope, sizeof out->scope, "%s", PQgetvalue(r, row, 0));
  snprintf(out->holder, sizeof out->holder, "%s", PQgetvalue(r, row, 1));
  out->fence = strtoll(PQgetvalue(r, row, 2), NULL, 10);
  snprintf(out->until, sizeof out->until, "%s", PQgetvalue(r, row, 3));
  out->remaining = strtod(PQgetvalue(r, row, 4), NULL);
  out->expired = PQgetvalue(r, row, 5)[0] == 't';
  out->mine = holder != NULL && strcmp(out->holder, holder) == 0;
}

/* A scope or a label: 1 to max - 1 printable ASCII bytes (no '@' in a label). */
static int printable(const char *s, size_t max, int label) {
  size_t n = 0;
  for (; s[n] != '\0'; n++) {
    if (n + 1 >= max || s[n] < 0x20 || s[n] > 0x7e || (label && s[n] == '@')) return 0;
  }
  return n > 0;
}

strata_status strata_lease_check_scope(const char *scope, const char *function, strata_error *err) {
  if (scope == NULL || !printable(scope, STRATA_LEASE_SCOPE_MAX, 0))
    return strata_error_in(err, STRATA_EARG, function, "a scope is 1 to %d printable ASCII bytes",
                           STRATA_LEASE_SCOPE_MAX - 1);
  return STRATA_OK;
}

static ptrdiff_t held_index(const strata_lease_client *c, const char *scope) {
  for (size_t i = 0; i < c->n_held; i++)
    if (strcmp(c->held[i].scope, scope) == 0) return (ptrdiff_t)i;
  return -1;
}

static void held_drop(strata_lease_client *c, const char *scope) {
  ptrdiff_t i = held_index(c, scope);
  if (i < 0) return;
  strata_free(c->held[i].scope);
  c->held[i] = c->held[--c->n_held];
}

/* Records scope as held with fence; STRATA_ENOMEM leaves c as it was. */
static strata_status held_put(strata_lease_client *c, const char *scope, int64_t fence, strata_error *err) {
  ptrdiff_t i = held_index(c, scope);
  if (i >= 0) {
    c->held[i].fence = fence;
    return STRATA_OK;
  }
  if (c->n_held == c->cap_held) {
    size_t cap = c->cap_held ? c->cap_held * 2 : 8;
    held *h = strata_realloc(c->held, cap * sizeof *h);
    if (h == NULL) return strata_error_nomem(err, "keeping a lease");
    c->held = h;
    c->cap_held = cap;
  }
  char *copy = strata_strdup(scope);
  if (copy == NULL) return strata_error_nomem(err, "keeping a lease");
  c->held[c->n_held++] = (held){ copy, fence };
  return STRATA_OK;
}

/* The holder id: LABEL@HOST:PID:TOKEN, the token 64 random bits. */
static void make_holder(strata_lease_client *c, const char *label) {
  char host[65] = "";
  if (gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "unknown");
  host[64] = '\0';
  snprintf(c->holder, sizeof c->holder, "%s@%s:%ld:%016llx", label, host, (long)getpid(),
           (unsigned long long)file_random64());
}

/* The server's notices ("schema ... already exists, skipping") are no
** errors: libpq would print them on stderr. */
static void quiet(void *ud, const char *message) { (void)ud, (void)message; }

static strata_status connect_to(strata_lease_client *c, const char *uri, const char *label, strata_error *err) {
  static const char *const fn = "strata_lease_open";
  char world[STRATA_PG_WORLD_MAX];
  size_t size = strlen(uri) + 1;
  char *conninfo = strata_malloc(size);
  if (conninfo == NULL) return strata_error_nomem(err, "opening a lease client");
  strata_status st = strata_pg_uri_split(uri, conninfo, size, world, fn, err);
  if (st == STRATA_OK) {
    strata_pg_schema(world, c->schema);
    char app[STRATA_LEASE_LABEL_MAX + 16];
    snprintf(app, sizeof app, "strata lease %s", label);
    c->conn = strata_pg_connect(conninfo, app);
    if (c->conn == NULL || PQstatus(c->conn) != CONNECTION_OK) {
      char why[200];
      strata_pg_first_line(c->conn != NULL ? PQerrorMessage(c->conn) : "out of memory", why, sizeof why);
      st = strata_error_in(err, STRATA_EIO, fn, "cannot connect: %s", why);
    }
  }
  strata_free(conninfo);
  if (st != STRATA_OK) return st;
  PQsetNoticeProcessor(c->conn, quiet, NULL);
  PGresult *r;
  if ((st = run(c, fn, SQL_CREATE, 0, NULL, &r, err)) != STRATA_OK) return st;
  PQclear(r);
  strata_error e;
  if (handover_create(c->conn, c->schema, &e) != STRATA_OK) return queue_failed(c, fn, &e, err);
  return STRATA_OK;
}

strata_lease_client *strata_lease_open(const char *uri, const char *label, double ttl, strata_error *err) {
  static const char *const fn = "strata_lease_open";
  if (uri == NULL) {
    strata_error_in(err, STRATA_EARG, fn, "no URI");
    return NULL;
  }
  if (label == NULL || !printable(label, STRATA_LEASE_LABEL_MAX + 1, 1)) {
    strata_error_in(err, STRATA_EARG, fn, "a holder label is 1 to %d printable ASCII bytes, no '@'",
                    STRATA_LEASE_LABEL_MAX);
    return NULL;
  }
  if (!(ttl >= 0 && ttl <= STRATA_LEASE_TTL_MAX)) {
    strata_error_in(err, STRATA_EARG, fn, "ttl must be 0 to %g seconds, got %g", STRATA_LEASE_TTL_MAX, ttl);
    return NULL;
  }
  strata_lease_client *c = strata_calloc(1, sizeof *c);
  if (c == NULL) {
    strata_error_nomem(err, "opening a lease client");
    return NULL;
  }
  snprintf(c->ttl, sizeof c->ttl, "%.6f", ttl);
  make_holder(c, label);
  if (connect_to(c, uri, label, err) != STRATA_OK) {
    strata_lease_close(c);
    return NULL;
  }
  return c;
}

void strata_lease_close(strata_lease_client *c) {
  if (c == NULL) return;
  if (c->conn != NULL) PQfinish(c->conn);
  for (size_t i = 0; i < c->n_held; i++) strata_free(c->held[i].scope);
  strata_free(c->held);
  strata_free(c);
}

const char *strata_lease_holder(const strata_lease_client *c) { return c->holder; }

/* scope's lease as the database has it; *found 0 when it has no row. */
static strata_status read_one(strata_lease_client *c, const char *fn, const char *tmpl, const char *scope,
                              strata_lease_info *out, int *found, strata_error *err) {
  const char *params[] = { scope };
  PGresult *r;
  strata_status st = run(c, fn, tmpl, 1, params, &r, err);
  if (st != STRATA_OK) return st;
  *found = PQntuples(r) == 1;
  if (*found) info_of(c->holder, r, 0, out);
  PQclear(r);
  return STRATA_OK;
}

strata_status strata_lease_acquire(strata_lease_client *c, const char *scope, strata_lease_info *out,
                                   strata_error *err) {
  static const char *const fn = "strata_lease_acquire";
  strata_status st = strata_lease_check_scope(scope, fn, err);
  if (st != STRATA_OK) return st;
  const char *params[] = { scope, c->holder, c->ttl };
  /* Refused, then read free: the holder gave it up between the two
  ** statements. Asked again, a few times at most. */
  for (int attempt = 0; attempt < 4; attempt++) {
    PGresult *r;
    if ((st = run(c, fn, SQL_ACQUIRE, 3, params, &r, err)) != STRATA_OK) return st;
    int granted = PQntuples(r) == 1;
    if (granted) info_of(c->holder, r, 0, out);
    PQclear(r);
    if (granted) return held_put(c, scope, out->fence, err);
    int found = 0;
    st = read_one(c, fn, SQL_ONE, scope, out, &found, err);
    if (st != STRATA_OK) return st;
    if (found && !out->expired) break;
  }
  held_drop(c, scope);
  return STRATA_OK;
}

/* "{a,b}": the scopes (quoted) or the fences of h[0..n) as a PostgreSQL
** array literal, strata_malloc'd; NULL when memory runs out. */
static char *held_array(const held *h, size_t n, int fences) {
  size_t size = 3;
  for (size_t i = 0; i < n; i++) size += (fences ? 24 : 2 * strlen(h[i].scope) + 3);
  char *out = strata_malloc(size), *p = out;
  if (out == NULL) return NULL;
  *p++ = '{';
  for (size_t i = 0; i < n; i++) {
    if (i > 0) *p++ = ',';
    if (fences) {
      p += sprintf(p, "%lld", (long long)h[i].fence);
      continue;
    }
    *p++ = '"';
    for (const char *s = h[i].scope; *s != '\0'; s++) {
      if (*s == '"' || *s == '\\') *p++ = '\\';
      *p++ = *s;
    }
    *p++ = '"';
  }
  *p++ = '}';
  *p = '\0';
  return out;
}

/* Whether row of r (a renewal's scopes) names scope. */
static int renewed(PGresult *r, const char *scope) {
  for (int row = 0; row < PQntuples(r); row++)
    if (strcmp(PQgetvalue(r, row, 0), scope) == 0) return 1;
  return 0;
}

/* After a renewal that returned r: the held scopes it did not renew are
** lost; they leave c and go into lost[0..max) as the database has them now
** (one whose row is gone, as released). */
static strata_status take_losses(strata_lease_client *c, PGresult *r, strata_lease_info *lost, size_t max,
                                 size_t *n_lost, strata_error *err) {
  static const char *const fn = "strata_lease_renew";
  size_t kept = 0; /* the renewed first, the lost after them */
  for (size_t i = 0; i < c->n_held; i++) {
    if (!renewed(r, c->held[i].scope)) continue;
    held h = c->held[kept];
    c->held[kept++] = c->held[i];
    c->held[i] = h;
  }
  size_t n = c->n_held - kept;
  if (n_lost != NULL) *n_lost = n;
  if (n == 0) return STRATA_OK;
  strata_lease_info first;
  memset(&first, 0, sizeof first);
  snprintf(first.scope, sizeof first.scope, "%s", c->held[kept].scope);
  first.fence = c->held[kept].fence;
  first.expired = 1;
  for (size_t i = 0; i < n && i < max && lost != NULL; i++) {
    lost[i] = first;
    snprintf(lost[i].scope, sizeof lost[i].scope, "%s", c->held[kept + i].scope);
    lost[i].fence = c->held[kept + i].fence;
  }
  char *scopes = held_array(c->held + kept, n, 0);
  for (size_t i = kept; i < c->n_held; i++) strata_free(c->held[i].scope);
  c->n_held = kept;
  if (scopes == NULL) return strata_error_nomem(err, "reading lost leases");
  const char *params[] = { scopes };
  PGresult *now;
  strata_status st = run(c, fn, SQL_SOME, 1, params, &now, err);
  strata_free(scopes);
  if (st != STRATA_OK) return st;
  for (int row = 0; row < PQntuples(now); row++) {
    strata_lease_info info;
    info_of(c->holder, now, row, &info);
    if (strcmp(info.scope, first.scope) == 0) first = info;
    for (size_t i = 0; i < n && i < max && lost != NULL; i++)
      if (strcmp(lost[i].scope, info.scope) == 0) lost[i] = info;
  }
  PQclear(now);
  const char *more = n > 1 ? " (and more)" : "";
  if (first.holder[0] != '\0')
    return strata_error_in(err, STRATA_ESTATE, fn, "lost %s, now held by %s until %s%s", first.scope, first.holder,
                           first.until, more);
  return strata_error_in(err, STRATA_ESTATE, fn, "lost %s, released%s", first.scope, more);
}

strata_status strata_lease_renew(strata_lease_client *c, strata_lease_info *lost, size_t max, size_t *n_lost,
                                 strata_error *err) {
  static const char *const fn = "strata_lease_renew";
  if (n_lost != NULL) *n_lost = 0;
  char *scopes = held_array(c->held, c->n_held, 0), *fences = held_array(c->held, c->n_held, 1);
  if (scopes == NULL || fences == NULL) {
    strata_free(scopes);
    strata_free(fences);
    return strata_error_nomem(err, "renewing leases");
  }
  const char *params[] = { c->holder, c->ttl, scopes, fences };
  PGresult *r;
  strata_status st = run(c, fn, SQL_RENEW, 4, params, &r, err);
  strata_free(scopes);
  strata_free(fences);
  if (st != STRATA_OK) return st;
  st = take_losses(c, r, lost, max, n_lost, err);
  PQclear(r);
  return st;
}

strata_status strata_lease_release(strata_lease_client *c, const char *scope, strata_error *err) {
  static const char *const fn = "strata_lease_release";
  strata_status st = strata_lease_check_scope(scope, fn, err);
  if (st != STRATA_OK) return st;
  ptrdiff_t i = held_index(c, scope);
  if (i < 0) return strata_error_in(err, STRATA_ESTATE, fn, "%s is not held by this client", scope);
  char fence[24];
  snprintf(fence, sizeof fence, "%lld", (long long)c->held[i].fence);
  const char *params[] = { c->holder, scope, fence };
  PGresult *r;
  if ((st = run(c, fn, SQL_RELEASE, 3, params, &r, err)) != STRATA_OK) return st;
  int released = strcmp(PQcmdTuples(r), "1") == 0;
  PQclear(r);
  held_drop(c, scope);
  if (!released) return strata_error_in(err, STRATA_ESTATE, fn, "%s is not held by this client (lost)", scope);
  return STRATA_OK;
}

strata_status strata_lease_release_all(strata_lease_client *c, strata_error *err) {
  const char *params[] = { c->holder };
  PGresult *r;
  strata_status st = run(c, "strata_lease_release_all", SQL_RELEASE_ALL, 1, params, &r, err);
  if (st != STRATA_OK) return st;
  PQclear(r);
  while (c->n_held > 0) held_drop(c, c->held[0].scope);
  return STRATA_OK;
}

/* Whether info (read FOR SHARE) is a lease in force with fence. */
static strata_status fenced(const strata_lease_info *info, int found, const char *scope, int64_t fence,
                            const char *fn, strata_error *err) {
  if (!found) return strata_error_in(err, STRATA_ESTATE, fn, "%s: no lease", scope);
  if (info->fence != fence) {
    if (info->holder[0] == '\0' || info->expired)
      return strata_error_in(err, STRATA_ESTATE, fn, "%s: fence %lld is stale (now %lld, not held)", scope,
                             (long long)fence, (long long)info->fence);
    return strata_error_in(err, STRATA_ESTATE, fn, "%s: fence %lld is stale (now %lld, held by %s until %s)", scope,
                           (long long)fence, (long long)info->fence, info->holder, info->until);
  }
  if (info->holder[0] == '\0') return strata_error_in(err, STRATA_ESTATE, fn, "%s: released", scope);
  if (info->expired) return strata_error_in(err, STRATA_ESTATE, fn, "%s: expired at %s", scope, info->until);
  return STRATA_OK;
}

strata_status strata_lease_check(strata_lease_client *c, const char *scope, int64_t fence, strata_error *err) {
  static const char *const fn = "strata_lease_check";
  strata_status st = strata_lease_check_scope(scope, fn, err);
  if (st != STRATA_OK) return st;
  strata_lease_info info;
  int found = 0;
  st = read_one(c, fn, SQL_CHECK, scope, &info, &found, err);
  return st != STRATA_OK ? st : fenced(&info, found, scope, fence, fn, err);
}

strata_status strata_lease_check_conn(struct pg_conn *conn, const char *schema, const char *scope, int64_t fence,
                                      strata_error *err) {
  strata_lease_client view; /* no holder, nothing held: only the connection and the schema */
  memset(&view, 0, sizeof view);
  view.conn = conn;
  snprintf(view.schema, sizeof view.schema, "%s", schema);
  return strata_lease_check(&view, scope, fence, err);
}

strata_status strata_lease_list(strata_lease_client *c, strata_lease_each each, void *ud, strata_error *err) {
  PGresult *r;
  strata_status st = run(c, "strata_lease_list", SQL_ALL, 0, NULL, &r, err);
  if (st != STRATA_OK) return st;
  for (int row = 0; row < PQntuples(r); row++) {
    strata_lease_info info;
    info_of(c->holder, r, row, &info);
    if (each(ud, &info) != 0) break;
  }
  PQclear(r);
  return STRATA_OK;
}

strata_status strata_lease_handovers(strata_lease_client *c, strata_lease_handover_each each, void *ud,
                                     strata_error *err) {
  static const char *const fn = "strata_lease_handovers";
  if (each == NULL) return strata_error_in(err, STRATA_EARG, fn, "no function to call");
  if (c->broken[0] != '\0') return still_lost(c, fn, err);
  /* A read into room for 32 scopes; more queued (*n says how many), read
  ** again into room for them all (and some that may come meanwhile). */
  handover_lag_row some[32], *rows = some;
  size_t cap = sizeof some / sizeof some[0], n = 0;
  strata_error e;
  strata_status st;
  while ((st = handover_lag(c->conn, c->schema, rows, cap, &n, &e)) == STRATA_OK && n > cap) {
    if (rows != some) strata_free(rows);
    cap = n + n / 2;
    if ((rows = strata_malloc(cap * sizeof *rows)) == NULL) return strata_error_nomem(err, "reading hand-overs");
  }
  for (size_t i = 0; st == STRATA_OK && i < n; i++) {
    strata_lease_handover_info info;
    memset(&info, 0, sizeof info);
    memcpy(info.scope, rows[i].to, sizeof info.scope); /* both STRATA_LEASE_SCOPE_MAX, NUL-ended */
    info.queued = rows[i].count;
    info.oldest = rows[i].oldest;
    if (each(ud, &info) != 0) break;
  }
  if (rows != some) strata_free(rows);
  return st == STRATA_OK ? STRATA_OK : queue_failed(c, fn, &e, err);
}

#else
/* Built without libpq: every call says so. */
static strata_status off(const char *fn, strata_error *err) {
  return strata_error_in(err, STRATA_ESTATE, fn, "strata was built without PostgreSQL (STRATA_WITH_POSTGRES)");
}

strata_lease_client *strata_lease_open(const char *uri, const char *label, double ttl, strata_error *err) {
  (void)uri, (void)label, (void)ttl;
  off("strata_lease_open", err);
  return NULL;
}
void strata_lease_close(strata_lease_client *c) { (void)c; }
const char *strata_lease_holder(const strata_lease_client *c) { return (void)c, ""; }
strata_status strata_lease_acquire(strata_lease_client *c, const char *scope, strata_lease_info *out,
                                   strata_error *err) {
  (void)c, (void)scope, (void)out;
  return off("strata_lease_acquire", err);
}
strata_status strata_lease_renew(strata_lease_client *c, strata_lease_info *lost, size_t max, size_t *n_lost,
                                 strata_error *err) {
  (void)c, (void)lost, (void)max;
  if (n_lost != NULL) *n_lost = 0;
  return off("strata_lease_renew", err);
}
strata_status strata_lease_release(strata_lease_client *c, const char *scope, strata_error *err) {
  (void)c, (void)scope;
  return off("strata_lease_release", err);
}
strata_status strata_lease_release_all(strata_lease_client *c, strata_error *err) {
  (void)c;
  return off("strata_lease_release_all", err);
}
strata_status strata_lease_check(strata_lease_client *c, const char *scope, int64_t fence, strata_error *err) {
  (void)c, (void)scope, (void)fence;
  return off("strata_lease_check", err);
}
strata_status strata_lease_list(strata_lease_client *c, strata_lease_each each, void *ud, strata_error *err) {
  (void)c, (void)each, (void)ud;
  return off("strata_lease_list", err);
}
strata_status strata_lease_handovers(strata_lease_client *c, strata_lease_handover_each each, void *ud,
                                     strata_error *err) {
  (void)c, (void)each, (void)ud;
  return off("strata_lease_handovers", err);
}
#endif
