/*
** clock.h - moving a world's time forward and running its due timers.
*/
#ifndef STRATA_CLOCK_H
#define STRATA_CLOCK_H

#include "strata/api.h"

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moves the world's time to time + dt (dt finite, >= 0), running the timers
** due by then in (due, uid) order, the clock set to each one's due time.
** A handler is its timer's handler ID resolved with STRATA_LOGIC_HANDLER (the
** core's own base.map_renew needs no resolving), called with call->time,
** call->timer and call->args, in a savepoint of its own. One that fails (or
** is unknown) is undone, reported (base.handler_failed with params { timer,
** handler, mod, message }) and appended to *failures (may be NULL); the
** others still run, and a repeating timer stays scheduled. The time reaches
** time + dt. The status is not OK only for a bad dt (nothing done) or when
** memory runs out between handlers (what ran stays run, the clock stays at
** the last due time). */
STRATA_API strata_status strata_advance(strata_runtime *rt, double dt, strata_failures *failures,
                             strata_error *err);

/* strata_advance with limits (strata_advance: 1000 and 100,000): one advance
** runs a timer at most max_runs times and at most max_total handlers in all,
** so that a handler scheduling a timer due now on every run cannot keep time
** from moving. Past either, the runs due up to the target are dropped for
** repeating timers (moved to their first due time after it) and postponed
** to it for one-shot timers (they run first in the next advance), and a
** failure says so (has_dropped: for one timer, the runs dropped; past
** max_total, timer 0 and the number of timers). */
STRATA_API strata_status strata_advance_limited(strata_runtime *rt, double dt, uint64_t max_runs,
                                                uint64_t max_total, strata_failures *failures,
                                                strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
