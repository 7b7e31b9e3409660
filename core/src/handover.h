/*
** handover.h - the hand-over queue (internal, libpq only): an actor leaving
** a scope another process owns is queued in the world's table handovers and
** announced on the channel "strata_NAME_handover" (the payload: the scope it
** goes to). Send and take run inside a transaction the caller owns on its own
** connection, so that a save and the queue commit (or roll back) together:
** the notification goes out at commit, never for a rolled-back send; a taken
** row is gone at the taker's commit and back in the queue when the taker
** rolls back or dies. Errors carry the function's name; no state is kept.
*/
#ifndef STRATA_HANDOVER_H
#define STRATA_HANDOVER_H

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/lease.h"

#ifdef STRATA_HAVE_LIBPQ
struct pg_conn; /* libpq's PGconn */

/* One queued hand-over: the actor, where from and to, the sender's fence. */
typedef struct handover_item {
  uint64_t uid;
  int64_t fence;
  char from[STRATA_LEASE_SCOPE_MAX];
  char to[STRATA_LEASE_SCOPE_MAX];
} handover_item;

/* The queue toward one scope: how many wait, the oldest's age in seconds
** (the database's clock). */
typedef struct handover_lag_row {
  char to[STRATA_LEASE_SCOPE_MAX];
  int64_t count;
  double oldest;
} handover_lag_row;

/* The schema and table handovers, made if absent (under an advisory lock:
** two processes making them at once do not collide). Inside or outside the
** caller's transaction. */
strata_status handover_create(struct pg_conn *conn, const char *schema, strata_error *err);

/* Queues uid from from_scope to to_scope with the sender's fence and
** notifies to_scope's channel at commit. A uid already queued is an error
** naming it (STRATA_ESTATE) that leaves the caller's transaction usable. */
strata_status handover_send(struct pg_conn *conn, const char *schema, uint64_t uid, const char *from_scope,
                            const char *to_scope, int64_t fence, strata_error *err);

/* Takes (deletes) up to max queued rows toward any of scopes[0..nscopes),
** oldest first, skipping rows another open transaction holds: two takers
** never take one row. Fills out[0..*n). */
strata_status handover_take(struct pg_conn *conn, const char *schema, const char *const *scopes, size_t nscopes,
                            size_t max, handover_item *out, size_t *n, strata_error *err);

/* LISTEN on the schema's hand-over channel (outside a transaction: a
** LISTEN takes effect at commit). */
strata_status handover_listen(struct pg_conn *conn, const char *schema, strata_error *err);

/* Waits up to timeout_ms (0: only what has arrived) for a notification:
** *notified 1 and its scope in scope, or *notified 0 at the timeout. A lost
** connection is an error (STRATA_EIO). */
strata_status handover_wait(struct pg_conn *conn, int timeout_ms, char scope[STRATA_LEASE_SCOPE_MAX], int *notified,
                            strata_error *err);

/* Per to_scope (in order): the queued count and the oldest's age, into
** out[0..max); *n the number of scopes with rows (may exceed max). */
strata_status handover_lag(struct pg_conn *conn, const char *schema, handover_lag_row *out, size_t max, size_t *n,
                           strata_error *err);
#endif

#endif
