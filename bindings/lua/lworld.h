/* lworld.h - the world state userdata (world.c) as seen by the other binding files. */
#ifndef LWORLD_H
#define LWORLD_H

#include "lstrata.h"

/* The strata_world of the "strata.world_state" userdata at arg; raises if closed. */
strata_world *lstrata_check_world(lua_State *L, int arg);
/* Converts the Lua value at idx into *out (raises naming `label` when it
** cannot be stored: functions, cycles, foreign metatables). */
void lstrata_check_value(lua_State *L, strata_world *w, int idx, const char *label, strata_value *out);
/* Pushes v; references become handles through the ref maker of the world
** state userdata at world_idx. */
void lstrata_push_value(lua_State *L, int world_idx, const strata_value *v);

#endif
