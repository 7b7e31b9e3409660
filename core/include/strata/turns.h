/*
** turns.h - the turn scheduler: objects (actors, mostly) taking turns in
** world time, as rot.js's Speed and Action schedulers do.
**
** An object in the schedule has a speed (turns per unit of world time: one
** of speed 2 acts twice as often as one of speed 1) and a next turn. When a
** turn starts, the next one is scheduled 1 / speed later; an action that
** says how long it took (strata_turn_took) moves it to the turn's start plus
** that duration instead. Ties go to the turn scheduled first (a turn is
** scheduled as the one before it starts, or as its object joins): objects of
** equal speed take turns in the order they joined, round after round.
**
** The schedule is the world's: each scheduled object keeps its speed and its
** last turn's start in its bookkeeping (sys.turn, as a walk keeps its plan),
** and its next turn is a one-shot timer of the core's own handler base.turn,
** due when the turn starts. So it is saved and opened with the world, undone
** with a savepoint like any timer, and run by strata_advance in time order
** with the other timers. A turn that starts emits base.turn_started on its
** object, params { actor = <ref>, time = <the turn's start> }. An object
** deleted leaves the schedule (its pending timer fires as nothing).
*/
#ifndef STRATA_TURNS_H
#define STRATA_TURNS_H

#include "strata/api.h"

#include <stdint.h>

#include "strata/error.h"
#include "strata/runtime.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest speed: a turn every STRATA_TIMER_MIN_EVERY at least. */
#define STRATA_TURNS_MAX_SPEED (1.0 / STRATA_TIMER_MIN_EVERY)

typedef struct strata_turn {
  double speed;   /* turns per unit of world time */
  double due;     /* when its next turn starts */
  double started; /* when its last turn started (before its first: when it joined) */
} strata_turn;

/* Puts object uid in the schedule with speed (finite, > 0, at most
** STRATA_TURNS_MAX_SPEED), its next turn at now + delay (delay finite and >=
** 0; < 0: 1 / speed). An object already there is updated: its speed, and
** its next turn only when delay >= 0. STRATA_EARG for a bad number,
** STRATA_ENOTFOUND for no such object; nothing changes on an error. */
STRATA_API strata_status strata_turns_add(strata_world *w, uint64_t uid, double speed, double delay,
                                          strata_error *err);
/* Takes uid out of the schedule; *removed (may be NULL) says whether it was in. */
STRATA_API strata_status strata_turns_remove(strata_world *w, uint64_t uid, int *removed, strata_error *err);
/* The action scheduler: uid's turn took duration (finite, >= 0), so its next
** turn starts at its last turn's start + duration (now, when that is past).
** STRATA_ESTATE when uid is not in the schedule. */
STRATA_API strata_status strata_turn_took(strata_world *w, uint64_t uid, double duration, strata_error *err);
/* 1 and *out when uid is in the schedule; 0 otherwise. */
STRATA_API int strata_turn_of(const strata_world *w, uint64_t uid, strata_turn *out);

/* Runs the world to the next turn and starts it: the timers due before it
** run as strata_advance runs them (their failures appended to *failures,
** which may be NULL), the clock moves to the turn's time, the turn starts
** (base.turn_started) and *actor is its object; the turn's handlers that
** failed are appended to *failures too (their event and subscription set,
** as strata_advance's list has them for the turns it starts). With no object in the
** schedule, *actor is 0 and nothing runs. Refused (STRATA_ESTATE) inside a
** callback, as strata_advance is. */
STRATA_API strata_status strata_world_next_turn(strata_runtime *rt, uint64_t *actor, strata_failures *failures,
                                                strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
