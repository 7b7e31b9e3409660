/*
** handover.c - the hand-over queue (handover.h): one row per actor in the
** table handovers of the world's schema, sent and taken inside the caller's
** transaction, so that PostgreSQL's own rules give the guarantees: a row and
** its NOTIFY exist only once the sender commits; FOR UPDATE SKIP LOCKED hands
** each row to one open taker; a taker's DELETE undone by its rollback (or
** its death: the server rolls a lost client's transaction back) leaves the
** row queued for the next. Nothing is kept here between calls.
*/
#include "handover.h"

#ifdef STRATA_HAVE_LIBPQ
#include <errno.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lease_internal.h"
#include "pg_uri.h"
#include "strata/alloc.h"

/* '@' in the statements stands for the world's schema. The server's notices
** ("already exists, skipping") are silenced for the statement only: the
** connection and its notice processor are the caller's. */
static const char SQL_CREATE[] =
  "SELECT set_config('client_min_messages', 'warning', true);"
  " SELECT pg_advisory_xact_lock(hashtext('strata handover @'));"
  " CREATE SCHEMA IF NOT EXISTS @;"
  " CREATE TABLE IF NOT EXISTS @.handovers (uid bigint PRIMARY KEY, from_scope text NOT NULL,"
  " to_scope text NOT NULL, fence bigint NOT NULL, queued_at timestamptz NOT NULL DEFAULT now())";
/* The notification only for a row inserted: none for a uid already queued. */
static const char SQL_SEND[] =
  "WITH i AS (INSERT INTO @.handovers (uid, from_scope, to_scope, fence) VALUES ($1::bigint, $2, $3, $4::bigint)"
  " ON CONFLICT (uid) DO NOTHING RETURNING uid)"
  " SELECT uid, pg_notify('@_handover', $3) FROM i";
/* The scopes one string, '\n' between them (no scope holds one). */
static const char SQL_TAKE[] =
  "WITH t AS (DELETE FROM @.handovers WHERE uid IN (SELECT uid FROM @.handovers"
  " WHERE to_scope = ANY(string_to_array($1, E'\\n')) ORDER BY queued_at, uid LIMIT $2::bigint"
  " FOR UPDATE SKIP LOCKED) RETURNING uid, fence, from_scope, to_scope, queued_at)"
  " SELECT uid, fence, from_scope, to_scope FROM t ORDER BY queued_at, uid";
static const char SQL_LISTEN[] = "LISTEN @_handover";
static const char SQL_LAG[] =
  "SELECT to_scope, count(*), greatest(0, extract(epoch FROM now() - min(queued_at)))::float8"
  " FROM @.handovers GROUP BY to_scope ORDER BY to_scope";

/* The error for a connection libpq calls broken, or for what the server
** refused. */
static strata_status failed(PGconn *conn, PGresult *r, const char *fn, strata_error *err) {
  char why[200];
  strata_pg_first_line(r != NULL ? PQresultErrorMessage(r) : PQerrorMessage(conn), why, sizeof why);
  if (PQstatus(conn) == CONNECTION_BAD) return strata_error_in(err, STRATA_EIO, fn, "connection lost: %s", why);
  return strata_error_in(err, STRATA_EIO, fn, "the database refused: %s", why);
}

/* Runs tmpl (its '@' the schema) with params into *out (for PQclear). */
static strata_status run(PGconn *conn, const char *schema, const char *fn, const char *tmpl, int n,
                         const char *const *params, PGresult **out, strata_error *err) {
  *out = NULL;
  if (conn == NULL || schema == NULL) return strata_error_in(err, STRATA_EARG, fn, "no connection or no schema");
  char text[1024]; /* the longest statement, its schema in, is under 600 bytes */
  strata_pg_with_schema(tmpl, schema, text, sizeof text);
  PGresult *r = n > 0 ? PQexecParams(conn, text, n, NULL, params, NULL, NULL, 0) : PQexec(conn, text);
  ExecStatusType st = PQresultStatus(r);
  if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK) {
    *out = r;
    return STRATA_OK;
  }
  strata_status status = failed(conn, r, fn, err);
  PQclear(r);
  return status;
}

/* Runs tmpl for its effect only. */
static strata_status run_only(PGconn *conn, const char *schema, const char *fn, const char *tmpl,
                              strata_error *err) {
  PGresult *r;
  strata_status st = run(conn, schema, fn, tmpl, 0, NULL, &r, err);
  PQclear(r);
  return st;
}

strata_status handover_create(PGconn *conn, const char *schema, strata_error *err) {
  return run_only(conn, schema, "handover_create", SQL_CREATE, err);
}

strata_status handover_listen(PGconn *conn, const char *schema, strata_error *err) {
  return run_only(conn, schema, "handover_listen", SQL_LISTEN, err);
}

strata_status handover_send(PGconn *conn, const char *schema, uint64_t uid, const char *from_scope,
                            const char *to_scope, int64_t fence, strata_error *err) {
  static const char *const fn = "handover_send";
  if (uid == 0 || uid > INT64_MAX) return strata_error_in(err, STRATA_EARG, fn, "uid %llu is no object's",
                                                          (unsigned long long)uid);
  strata_status st = strata_lease_check_scope(from_scope, fn, err);
  if (st == STRATA_OK) st = strata_lease_check_scope(to_scope, fn, err);
  if (st != STRATA_OK) return st;
  char uid_text[24], fence_text[24];
  snprintf(uid_text, sizeof uid_text, "%llu", (unsigned long long)uid);
  snprintf(fence_text, sizeof fence_text, "%lld", (long long)fence);
  const char *params[] = { uid_text, from_scope, to_scope, fence_text };
  PGresult *r;
  if ((st = run(conn, schema, fn, SQL_SEND, 4, params, &r, err)) != STRATA_OK) return st;
  int sent = PQntuples(r) == 1;
  PQclear(r);
  if (!sent) return strata_error_in(err, STRATA_ESTATE, fn, "uid %s is already queued", uid_text);
  return STRATA_OK;
}

/* scopes[0..n) joined by '\n' (each checked), strata_malloc'd into *out. */
static strata_status joined(const char *const *scopes, size_t n, char **out, strata_error *err) {
  static const char *const fn = "handover_take";
  size_t size = 1;
  for (size_t i = 0; i < n; i++) {
    strata_status st = strata_lease_check_scope(scopes[i], fn, err);
    if (st != STRATA_OK) return st;
    size += strlen(scopes[i]) + 1;
  }
  char *p = *out = strata_malloc(size);
  if (p == NULL) return strata_error_nomem(err, "taking hand-overs");
  for (size_t i = 0; i < n; i++) p += sprintf(p, "%s%s", i > 0 ? "\n" : "", scopes[i]);
  *p = '\0';
  return STRATA_OK;
}

strata_status handover_take(PGconn *conn, const char *schema, const char *const *scopes, size_t nscopes,
                            size_t max, handover_item *out, size_t *n, strata_error *err) {
  static const char *const fn = "handover_take";
  *n = 0;
  if (nscopes == 0 || max == 0) return STRATA_OK;
  if (scopes == NULL || out == NULL) return strata_error_in(err, STRATA_EARG, fn, "no scopes or no room");
  char *list = NULL, limit[24];
  strata_status st = joined(scopes, nscopes, &list, err);
  if (st != STRATA_OK) return st;
  snprintf(limit, sizeof limit, "%zu", max);
  const char *params[] = { list, limit };
  PGresult *r;
  st = run(conn, schema, fn, SQL_TAKE, 2, params, &r, err);
  strata_free(list);
  if (st != STRATA_OK) return st;
  for (int row = 0; row < PQntuples(r) && (size_t)row < max; row++) {
    handover_item *it = &out[row];
    it->uid = strtoull(PQgetvalue(r, row, 0), NULL, 10);
    it->fence = strtoll(PQgetvalue(r, row, 1), NULL, 10);
    snprintf(it->from, sizeof it->from, "%s", PQgetvalue(r, row, 2));
    snprintf(it->to, sizeof it->to, "%s", PQgetvalue(r, row, 3));
    (*n)++;
  }
  PQclear(r);
  return STRATA_OK;
}

static long long now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

strata_status handover_wait(PGconn *conn, int timeout_ms, char scope[STRATA_LEASE_SCOPE_MAX], int *notified,
                            strata_error *err) {
  static const char *const fn = "handover_wait";
  *notified = 0;
  if (conn == NULL || timeout_ms < 0) return strata_error_in(err, STRATA_EARG, fn, "no connection or a negative timeout");
  long long until = now_ms() + timeout_ms;
  for (;;) {
    if (PQconsumeInput(conn) == 0 || PQstatus(conn) == CONNECTION_BAD) return failed(conn, NULL, fn, err);
    PGnotify *note = PQnotifies(conn);
    if (note != NULL) {
      snprintf(scope, STRATA_LEASE_SCOPE_MAX, "%s", note->extra);
      PQfreemem(note);
      *notified = 1;
      return STRATA_OK;
    }
    long long left = until - now_ms();
    if (left <= 0) return STRATA_OK;
    struct pollfd p = { PQsocket(conn), POLLIN, 0 };
    if (p.fd < 0) return failed(conn, NULL, fn, err);
    if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
      return strata_error_in(err, STRATA_EIO, fn, "waiting on the connection: %s", strerror(errno));
  }
}

strata_status handover_lag(PGconn *conn, const char *schema, handover_lag_row *out, size_t max, size_t *n,
                           strata_error *err) {
  PGresult *r;
  *n = 0;
  strata_status st = run(conn, schema, "handover_lag", SQL_LAG, 0, NULL, &r, err);
  if (st != STRATA_OK) return st;
  *n = (size_t)PQntuples(r);
  for (size_t row = 0; row < *n && row < max && out != NULL; row++) {
    snprintf(out[row].to, sizeof out[row].to, "%s", PQgetvalue(r, (int)row, 0));
    out[row].count = strtoll(PQgetvalue(r, (int)row, 1), NULL, 10);
    out[row].oldest = strtod(PQgetvalue(r, (int)row, 2), NULL);
  }
  PQclear(r);
  return STRATA_OK;
}
#endif
