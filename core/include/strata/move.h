/*
** move.h - actors moving: a step on a tile map (strata_move), through an
** exit of a room (strata_go), and walks over time (strata_walk), with the
** events base.before_move (cancellable) and base.moved.
**
** Every move goes the same way: the core checks the way, emits
** base.before_move on the actor (the chain starts from true; a handler
** answering false refuses, and the actor stays), moves it, and emits
** base.moved. Params on a tile map: { actor, map, from = { x, y }, to =
** { x, y } } (points carry [1], [2] and x, y); between rooms: { actor,
** from = room, to = room, exit } (exit absent when none was taken).
**
** A refusal is no error: the function returns STRATA_OK with out->refusal
** set and out->reason in words ("the way is blocked"); errors (a uid that is
** no live actor, a failing room generator, ENOMEM) leave the world as it was.
**
** Exits of procedural branches (branch.h) follow the branch's rules: a move
** out of a branch room counts as its branch acting (even a refused one),
** exits out of a room that is not clear refuse, and the first crossing of a
** start exit makes the branch (its archetype through the resolver's
** branch_archetype), its first room and its timers, all in one savepoint with
** the move. The branch timers are the core's own: base.branch_idle collapses
** a branch idle for max_idle, base.branch_reset unbinds its start exit with
** the archetype's chance (world stream "branch#<uid> reset").
**
** Walks are world data (saved, undone by savepoints) under the actor's
** bookkeeping: sys.walk = { x, y | room, i, every, timer, state } and, for a
** walk through rooms, sys.walk_route = { exit name, ... }. Their steps are
** run by the core's own base.walk_step timer (strata_advance runs it: no
** resolving). A tile walk steps along the cheapest 8-neighbour route at each
** step (A*, diagonal cost sqrt 2); a room walk takes the exits of its route
** in turn, stopping before an exit that crosses an interrupt link of a grid
** map and after entering a room on an interrupt node ("interrupted").
*/
#ifndef STRATA_MOVE_H
#define STRATA_MOVE_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_move_refusal {
  STRATA_MOVE_OK = 0,          /* moved */
  STRATA_MOVE_NOWHERE,         /* the actor is on no map / in no room */
  STRATA_MOVE_OFF_MAP,         /* the cell is off the map */
  STRATA_MOVE_BLOCKED,         /* an impassable cell, an exit that leads nowhere */
  STRATA_MOVE_NO_EXIT,         /* no exit of that name (or alias) in the actor's room */
  STRATA_MOVE_NOT_CLEAR,       /* out of a branch room that is not clear */
  STRATA_MOVE_REFUSED          /* a base.before_move handler answered false */
} strata_move_refusal;

typedef struct strata_move_outcome {
  strata_move_refusal refusal;
  char reason[128];            /* the refusal in words; "" when moved */
} strata_move_outcome;

/* The actor to cell (x, y) of its own map (any cell, not only a neighbour). */
STRATA_API strata_status strata_move(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y,
                                     strata_move_outcome *out, strata_error *err);

/* The actor through the exit of its room named dir (or with dir among its aliases). */
STRATA_API strata_status strata_go(strata_runtime *rt, uint64_t actor, const char *dir,
                                   strata_move_outcome *out, strata_error *err);

/* The actor into room, with the move events, through exit (0: none, as a
** fly, a dive or a branch collapsing does); no branch rules. EARG: the
** object stands on a tile map (an object is on a map or in a room, never
** both: take it off its map first). */
STRATA_API strata_status strata_move_to_room(strata_runtime *rt, uint64_t actor, uint64_t room,
                                             uint64_t exit, strata_move_outcome *out,
                                             strata_error *err);

/* ---- walks ---- */

typedef enum strata_walk_state {
  STRATA_WALK_NONE = 0,        /* the actor never walked */
  STRATA_WALK_WALKING,
  STRATA_WALK_ARRIVED,
  STRATA_WALK_BLOCKED,         /* no route, a step refused, an exit gone */
  STRATA_WALK_CANCELLED,
  STRATA_WALK_INTERRUPTED      /* a room walk stopped at an interrupt of a grid map */
} strata_walk_state;

/* "walking", "arrived", ...; NULL for STRATA_WALK_NONE. */
STRATA_API const char *strata_walk_state_name(strata_walk_state s);

/* A walk of the actor (on a map) to cell (x, y): a step every `every` world
** seconds (at least STRATA_TIMER_MIN_EVERY, world.h), the first `every` from
** now. Replaces the actor's last walk. A target off the map, or no route,
** ends the walk "blocked" at its next step. */
STRATA_API strata_status strata_walk(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y,
                                     double every, strata_error *err);
/* A walk of the actor (in a room) to room along route, the n exit names to
** take in turn (a grid route: strata_xygrid's directions, "n", "e", ...). */
STRATA_API strata_status strata_walk_rooms(strata_runtime *rt, uint64_t actor, uint64_t room,
                                           const char *const *route, size_t n, double every,
                                           strata_error *err);
/* Stops the actor's walk: *stopped (may be NULL) is 1 when it was walking. */
STRATA_API strata_status strata_walk_cancel(strata_runtime *rt, uint64_t actor, int *stopped,
                                            strata_error *err);
/* The state of the actor's last walk. */
STRATA_API strata_walk_state strata_walk_state_of(const strata_runtime *rt, uint64_t actor);

#ifdef __cplusplus
}
#endif
#endif
