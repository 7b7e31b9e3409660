/*
** serve_internal.h - what save.c does for a serving process (serve.c): its
** saves, which write only what its scopes hold and hand over what left
** them, and its pick-ups, which read an object's row into its world. The
** rows, checksums and sums stay save.c's; which scope a thing is in, the
** leases and the queue stay serve.c's, reached through these hooks.
*/
#ifndef STRATA_SERVE_INTERNAL_H
#define STRATA_SERVE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "store.h"
#include "strata/error.h"
#include "strata/lease.h"
#include "strata/world.h"

typedef struct serve_hooks {
  void *ud;
  /* The scope uid is in (w's objects) into scope ("" when none is known):
  ** 1 when the process serves it. */
  int (*owns)(void *ud, const strata_world *w, uint64_t uid, char scope[STRATA_LEASE_SCOPE_MAX]);
  /* Inside the save's transaction, before any row: the leases' fences. */
  strata_status (*fence)(void *ud, store *st, strata_error *err);
  /* Inside the save's transaction: uid queued for scope to. */
  strata_status (*hand)(void *ud, store *st, uint64_t uid, const char *to, strata_error *err);
  int world;       /* serves "world": timers, subscriptions, streams, mods */
  uint64_t block;  /* uids reserved at a time */
} serve_hooks;

/* A save of w (served: w->file.store its connection) as serve.h says.
** *handed / *nhanded: the uids handed over (the caller's to free with
** strata_free; NULL when none), which the caller takes out of w. */
strata_status save_served(strata_world *w, const char *uri, const serve_hooks *h, const strata_mod_version *mods,
                          size_t nmods, uint64_t **handed, size_t *nhanded, strata_error *err);

/* Reads object uid's row (its checksum checked) from st, inside the
** caller's transaction, into w in place of w's copy of uid: 1 read, 0 the
** row is gone (another process deleted it since), < 0 an error in err. */
int save_load_object(strata_world *w, store *st, uint64_t uid, strata_error *err);

#endif
