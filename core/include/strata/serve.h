/*
** serve.h - one process serving part of a world kept in PostgreSQL
** (docs/postgresql.md, "Serving a world from several processes").
**
** A world in a database may be served by several processes at once, each
** owning some of its scopes through leases (lease.h): "area:U" (an area:
** the area object, its maps, and everything positioned on them, on what is
** on them, and so on), "map:U" (a map object in no area, and what is on
** it), and "world" (everything else: the objects in no area or map, so
** also text worlds' rooms, exits, grid maps and branches, placed by their
** sys records rather than by position; the timers, the subscriptions, the
** random streams, the mod list, the clock).
** strata_serve_scope_of says which scope a thing is in.
**
** A serving process holds in its world only what its scopes hold (plus what
** it makes). Its saves (strata_serve_save) write only that, in one
** transaction fenced by its leases (a lease lost to another process refuses
** the save, and nothing is written), keeping the world's per-table counts
** and sums by adding what changed to what the database holds. An object
** that moved into a scope another process serves (or none does) is handed
** over in the same transaction: its row (and the rows of what it carries)
** written as it is now, a row queued for the new scope, a notification
** sent at commit; the object leaves this process's world once the save
** commits. The owner of the scope takes it (strata_serve_poll) from the
** database, exactly once: a process killed before its save commits hands
** nothing over (its save never happened); one killed after finds the object
** gone from its world when it serves again. New uids come from a block
** reserved in the database for this process (its saves reserve the next
** block when half of one is used), so that two processes never make one uid.
**
** The serve handle owns its world and its lease client; one thread at a
** time. Errors are one line naming the function.
*/
#ifndef STRATA_SERVE_H
#define STRATA_SERVE_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/lease.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_serve strata_serve;

typedef struct strata_serve_options {
  const char *label;          /* the leases' holder label (lease.h); NULL: "strata" */
  double ttl;                 /* the leases' time to live in seconds; 0: 30 */
  const char *const *scopes;  /* the scopes to serve: "area:U", "map:U", "world" */
  size_t nscopes;             /* at least 1 */
  double wait;                /* seconds to wait for a scope another holder has (it may
                              ** expire meanwhile); 0: refuse at once */
} strata_serve_options;

/* Acquires every scope of opt (all or none: a scope held by another past
** opt->wait is STRATA_ESTATE naming its holder and expiry, and the ones
** acquired are released), opens the world at uri (the last committed
** save), keeps in it only what the scopes hold, takes the hand-overs
** queued for them, reserves a block of uids and listens for hand-overs. On
** success *out is the serving process and *mods / *nmods the world's mod
** list (strata_mod_versions_free; mods and nmods may be NULL). */
STRATA_API strata_status strata_serve_open(const char *uri, const strata_serve_options *opt, strata_serve **out,
                                           strata_mod_version **mods, size_t *nmods, strata_error *err);

/* The world served, owned by s. Edit it as any world; do not free it or
** save it with strata_world_save (STRATA_ESTATE: its saves are s's). */
STRATA_API strata_world *strata_serve_world(strata_serve *s);

/* The lease client s holds its scopes with (serve-check, renewals of
** one's own), owned by s. */
STRATA_API strata_lease_client *strata_serve_leases(strata_serve *s);

/* Saves what changed in s's scopes, in one transaction fenced by its
** leases (the leases are renewed first). Objects now in a scope s does not
** serve are handed over: *handed (may be NULL) counts them; they leave s's
** world once the save commits. mods: the mod list as the world's record
** (written only by the holder of "world"). On an error nothing is written
** and the world stays as it was: the next save tries again. A lease lost
** is STRATA_ESTATE naming it: the process no longer owns that scope and
** should close (what it did there since its last save is lost). */
STRATA_API strata_status strata_serve_save(strata_serve *s, const strata_mod_version *mods, size_t nmods,
                                           size_t *handed, strata_error *err);

/* Waits up to timeout_ms (0: does not wait) for a hand-over toward s's
** scopes, then takes every one queued: each object (with what it carries)
** read from the database as its sender's save left it and put into s's
** world. *arrived (may be NULL) counts the objects taken. The world must
** have no savepoint open. */
STRATA_API strata_status strata_serve_poll(strata_serve *s, int timeout_ms, size_t *arrived, strata_error *err);

/* Puts object uid (in s's world) on map at (x, y), as
** strata_object_set_position does, where map may also be an area or a map
** s's world does not hold but knew when it opened (another scope's): the
** next save then hands uid over to that scope. STRATA_ENOTFOUND when map
** is neither. */
STRATA_API strata_status strata_serve_move(strata_serve *s, uint64_t uid, uint64_t map, int64_t x, int64_t y,
                                           strata_error *err);

/* The scope uid is in, as s's world holds it now, into out; "" when the
** world holds no uid. */
STRATA_API const char *strata_serve_scope_of(strata_serve *s, uint64_t uid, char out[STRATA_LEASE_SCOPE_MAX]);

/* Whether s serves scope. */
STRATA_API int strata_serve_owns(const strata_serve *s, const char *scope);

/* Releases s's leases (others may serve its scopes at once; what changed
** since its last save is not saved), closes its connections, frees its
** world. NULL is accepted. */
STRATA_API void strata_serve_close(strata_serve *s);

#ifdef __cplusplus
}
#endif
#endif
