/*
** lease_internal.h - the lease check on another connection (lease.c): the
** PostgreSQL store fences a save with it, inside the save's own transaction,
** so that the lease row read FOR SHARE cannot change before the save commits.
*/
#ifndef STRATA_LEASE_INTERNAL_H
#define STRATA_LEASE_INTERNAL_H

#include <stdint.h>

#include "strata/error.h"

struct pg_conn; /* libpq's PGconn */

/* strata_lease_check on conn, the lease table in schema ("strata_NAME"). */
strata_status strata_lease_check_conn(struct pg_conn *conn, const char *schema, const char *scope, int64_t fence,
                                      strata_error *err);

/* STRATA_OK for a scope (1 to STRATA_LEASE_SCOPE_MAX - 1 printable ASCII
** bytes); else STRATA_EARG in function's name. The hand-over queue's scopes
** are the leases'. */
strata_status strata_lease_check_scope(const char *scope, const char *function, strata_error *err);

#endif
