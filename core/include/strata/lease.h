/*
** lease.h - leases: which process owns which part of a world served by
** several (docs/postgresql.md, "Leases").
**
** A lease client holds its own libpq connection to the world's database and
** a holder id unique to it ("LABEL@HOST:PID:TOKEN", the token random). A
** lease is one row of the table leases in the world's schema (strata_NAME,
** made when absent): a scope (a text key, "area:123", "map:45", "branch:6"),
** its holder, an expiry by the database's clock (now() + ttl: the clocks of
** the processes never count) and a fence, a counter that grows at each new
** grant of the scope, so that a write of a holder that lost its lease can be
** refused by its older fence (strata_lease_check).
**
** The client is the caller's (strata_lease_close frees it); what it fills
** (strata_lease_info) is plain data in the caller's memory. Every call
** returns a strata_status and fills err: one line naming the function and
** what failed (the connection lost, a scope not held, held by whom until
** when). Once the connection is lost every call fails so: open another client.
** Built without libpq (STRATA_WITH_POSTGRES off) every call fails, saying so.
** A client is used by one thread at a time.
*/
#ifndef STRATA_LEASE_H
#define STRATA_LEASE_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRATA_LEASE_SCOPE_MAX 128  /* a scope's bytes, its NUL included */
#define STRATA_LEASE_HOLDER_MAX 160 /* a holder id's bytes, its NUL included */
#define STRATA_LEASE_LABEL_MAX 64   /* a holder label's bytes, its NUL not included */
#define STRATA_LEASE_TTL_MAX 86400.0 /* the longest ttl, in seconds */

typedef struct strata_lease_client strata_lease_client;

/* One lease as the database had it when the call ran. */
typedef struct strata_lease_info {
  char scope[STRATA_LEASE_SCOPE_MAX];
  char holder[STRATA_LEASE_HOLDER_MAX]; /* "" when released */
  char until[32];    /* the expiry, UTC, "2026-11-27T08:00:00.000Z" */
  int64_t fence;     /* grows at each new grant of the scope */
  double remaining;  /* seconds to the expiry by the database's clock; <= 0: expired */
  int expired;       /* nonzero when released or past its expiry: anyone may take it */
  int mine;          /* nonzero when its holder is this client (expired or not) */
} strata_lease_info;

/* Connects to uri ("postgresql://...?...&world=NAME": the world's name, of
** lowercase letters, digits and '_', default main, names the schema strata_NAME; the other
** parameters are libpq's) and makes the lease and hand-over tables if absent. label (1 to
** STRATA_LEASE_LABEL_MAX printable bytes, no '@') begins the holder id; ttl
** (0 to STRATA_LEASE_TTL_MAX seconds) is how long a grant or a renewal lasts.
** NULL on failure. */
STRATA_API strata_lease_client *strata_lease_open(const char *uri, const char *label, double ttl,
                                                  strata_error *err);
/* Closes the connection (the leases held stay until their expiry: release
** them first to hand them on at once) and frees c. NULL is accepted. */
STRATA_API void strata_lease_close(strata_lease_client *c);
/* The holder id ("LABEL@HOST:PID:TOKEN"), owned by c. */
STRATA_API const char *strata_lease_holder(const strata_lease_client *c);

/* Asks for scope (1 to STRATA_LEASE_SCOPE_MAX - 1 printable bytes). Granted
** (out->mine) when nobody holds it, it has expired, or c holds it already
** (then renewed, its fence kept); a new grant's fence is the last one plus 1.
** Else out says who holds it, until when. Both are STRATA_OK. */
STRATA_API strata_status strata_lease_acquire(strata_lease_client *c, const char *scope,
                                              strata_lease_info *out, strata_error *err);
/* Extends every lease c holds to now() + ttl, in one statement. A lease
** another holder took since (after its expiry) is lost: it is no longer c's,
** the first max of the lost go into lost[] (*n_lost says how many were lost)
** and the call fails with STRATA_ESTATE naming them ("lost area:1, now held
** by H until T"); lost[] is filled only then. lost may be NULL when max is
** 0; n_lost may be NULL. */
STRATA_API strata_status strata_lease_renew(strata_lease_client *c, strata_lease_info *lost, size_t max,
                                            size_t *n_lost, strata_error *err);
/* Gives scope up at once (another holder may take it; its fence is kept for
** the next grant). STRATA_ESTATE when c does not hold it. */
STRATA_API strata_status strata_lease_release(strata_lease_client *c, const char *scope, strata_error *err);
/* Gives up every lease c holds. */
STRATA_API strata_status strata_lease_release_all(strata_lease_client *c, strata_error *err);
/* STRATA_OK when scope's lease is held, unexpired, with this fence, by
** whoever: a writer's check of its own lease before it writes. Read with
** SELECT ... FOR SHARE, as the PostgreSQL store reads it inside a save's
** transaction on its own connection, where the row then cannot change before
** the save commits. STRATA_ESTATE otherwise, saying why (released, expired,
** a newer fence held by whom until when). */
STRATA_API strata_status strata_lease_check(strata_lease_client *c, const char *scope, int64_t fence,
                                            strata_error *err);

/* Calls each(ud, lease) for every lease of the world, held or not, by scope;
** each returning nonzero stops the walk. */
typedef int (*strata_lease_each)(void *ud, const strata_lease_info *lease);
STRATA_API strata_status strata_lease_list(strata_lease_client *c, strata_lease_each each, void *ud,
                                           strata_error *err);

/* The hand-over queue toward one scope (docs/postgresql.md, "Hand-over
** queue"): actors sent there and not taken yet. */
typedef struct strata_lease_handover_info {
  char scope[STRATA_LEASE_SCOPE_MAX]; /* where they go */
  int64_t queued;                     /* how many wait */
  double oldest;                      /* the oldest's age in seconds, by the database's clock */
} strata_lease_handover_info;

/* Calls each(ud, queue) for every scope that hand-overs wait for, by scope
** (none when nothing is queued); each returning nonzero stops the walk. The
** lag of the world's hand-overs, as strata serve-check shows it. */
typedef int (*strata_lease_handover_each)(void *ud, const strata_lease_handover_info *queue);
STRATA_API strata_status strata_lease_handovers(strata_lease_client *c, strata_lease_handover_each each, void *ud,
                                                strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
