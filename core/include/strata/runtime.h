/*
** runtime.h - a world at work: a world, the host's resolver, and what one
** process knows about them that is not saved.
**
** Areas, floors, travel, events and timers (area.h, travel.h, event.h,
** clock.h) take a runtime. Everything they change is state of the world, so
** it is saved and reopened with it; the runtime itself holds only
** what belongs to this process: the global event handlers registered with
** strata_event_on, which maps have had their on_load hook run, where the
** world's record object is. Make a runtime for a world after creating or
** opening it; free it before the world.
**
** Ownership: the runtime borrows the world (the caller frees it, after the
** runtime) and copies the resolver struct (not what it points to).
*/
#ifndef STRATA_RUNTIME_H
#define STRATA_RUNTIME_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/resolver.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

STRATA_API strata_runtime *strata_runtime_new(strata_world *w, const strata_resolver *r, strata_error *err);
STRATA_API void strata_runtime_free(strata_runtime *rt); /* NULL is accepted */
STRATA_API strata_world *strata_runtime_world(const strata_runtime *rt);
STRATA_API const strata_resolver *strata_runtime_resolver(const strata_runtime *rt);

/* err's message; when err says host logic failed (STRATA_REFUSED_HOST) and
** that logic's message was longer than err holds (strata_call.message), the
** whole message. Valid until the next host call of rt fails. */
STRATA_API const char *strata_runtime_failure_text(const strata_runtime *rt, const strata_error *err);

/* A handler that failed: undone, and reported (base.handler_failed, and to
** the caller of strata_advance). Strings are owned by the list. */
typedef struct strata_failure {
  uint64_t timer;               /* a timer's handler: its uid; else 0 */
  uint64_t subscription;        /* an event handler that was a subscription: its uid; else 0 */
  char *event;                  /* an event handler: the event; else NULL */
  char *handler;                /* the handler's ID (events: its name) */
  char *mod;                    /* who defined it; NULL when unknown */
  char *message;
  int has_dropped;              /* a limit of strata_advance_limited: runs dropped or postponed */
  double dropped;               /* how many (with timer 0: how many timers) */
} strata_failure;

typedef struct strata_failures {
  strata_failure *items;
  size_t n, cap;
} strata_failures;

/* Frees what the list holds and leaves it empty (it may be reused). */
STRATA_API void strata_failures_clear(strata_failures *f);

#ifdef __cplusplus
}
#endif
#endif
