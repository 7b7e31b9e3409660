/*
** travel.h - the player, and actors travelling between maps.
*/
#ifndef STRATA_TRAVEL_H
#define STRATA_TRAVEL_H

#include "strata/api.h"

#include <stdint.h>

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes actor the player (recorded in the world: sys.player of the world
** record, and state.player = true on the actor). The player's map is the
** current map; restock and renew run on it as they fall due. */
STRATA_API strata_status strata_set_player(strata_runtime *rt, uint64_t actor, strata_error *err);
STRATA_API uint64_t strata_player(const strata_runtime *rt);        /* 0: none */
STRATA_API uint64_t strata_current_map(const strata_runtime *rt);   /* 0: none */
/* The current map's area and floor (floor may be NULL); 0: none. */
STRATA_API uint64_t strata_current_area(const strata_runtime *rt, int64_t *floor);

typedef struct strata_travel_opts {
  int has_xy;                    /* arrive on (x, y) rather than by the rules */
  int64_t x, y;
} strata_travel_opts;

/* Moves actor through target: an entrance, stairs, or a map (opts may be NULL).
** In order: base.before_travel on the actor (params { actor, from, to, area,
** floor, feature }, default true: a result of false stops the journey:
** STRATA_OK with *map = 0, nothing changed); the floor reached (generated if
** needed); the arrival cell: explicit › the stairs leading back (the
** opposite floor_delta; through an entrance, the stairs up) › this area's
** entrance in the parent (going up from the starting floor) › the
** archetype's starting_pos › the centre; on_leave and base.map_left on the
** map left, which is deleted if its props.temporary is set and no other
** actor is on it; then on the map reached: on_load (once per map in this
** runtime), restock and renew that fell due, on_enter, base.map_entered;
** the area's deepest_visited. On an error nothing has changed. */
STRATA_API strata_status strata_travel(strata_runtime *rt, uint64_t actor, uint64_t target,
                            const strata_travel_opts *opts, uint64_t *map, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
