/*
** event.h - events: one ordered chain of handlers per emit.
**
** The chain of an emit on a source object is made of the global handlers of
** the event (registered here), the handlers in the `events` list of the
** source's archetype (from the resolver) and the source's persisted
** subscriptions (world.h), sorted by (priority, name), lower first; ties
** keep that order. Each handler runs in a savepoint of its own: one that
** fails is undone, reported (the event base.handler_failed, with params
** { event, handler, mod, subscription, message }; failures of that event's
** own handlers are not reported again) and the chain goes on. A handler
** returns a new result (nil keeps the previous one) and may stop the chain.
*/
#ifndef STRATA_EVENT_H
#define STRATA_EVENT_H

#include "strata/api.h"

#include <stdint.h>

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Registers a global handler of `event`: `name` (copied) orders it in the
** chain and names it in reports; `handler` (copied) is resolved with
** STRATA_LOGIC_EVENT at each emit. A name may hold one handler per event:
** registering it again replaces it. */
STRATA_API strata_status strata_event_on(strata_runtime *rt, const char *event, const char *name,
                              int64_t priority, const char *handler, strata_error *err);
/* Removes every global handler registered under `name`; returns how many. */
STRATA_API size_t strata_event_off(strata_runtime *rt, const char *name);

/* Emits `event` on `source` (0: the world itself, with no archetype and no
** subscriptions). params (NULL: none) reaches each handler as call->params,
** with object references as STRATA_VREF values. The chain
** starts from *dflt (NULL: nil); its final result is written into *result,
** which the caller clears (result may be NULL). Errors: ENOTFOUND for an
** undeclared event or a deleted source, ENOMEM; a failing handler is not an
** error of the emit. */
STRATA_API strata_status strata_emit(strata_runtime *rt, uint64_t source, const char *event,
                          const strata_value *params, const strata_value *dflt,
                          strata_value *result, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
