/* lworld.h - the world state userdata (world.c) as seen by the other binding files. */
#ifndef LWORLD_H
#define LWORLD_H

#include "lstrata.h"

/* The strata_world of the "strata.world_state" userdata at arg; raises if closed. */
strata_world *lstrata_check_world(lua_State *L, int arg);
/* The mod list { {id, version}, ... } at arg, as the core takes it (in a
** userdata pushed; the strings stay alive while the list table does); its
** length into *n. */
strata_mod_version *lstrata_check_mods(lua_State *L, int arg, size_t *n);
/* Pushes a mod list as lstrata_check_mods reads it, and frees mods. */
void lstrata_push_mods(lua_State *L, strata_mod_version *mods, size_t n);

/* A served world (serve.c): its state userdata is owned by the serve
** userdata at owner (kept alive by it, uservalue 2), which frees the world
** when closed, then calls lstrata_world_gone on the state, whose every use
** is then this error. */
#define LSTRATA_WORLD_CLOSED "the world was closed with its serve handle (serve:close())"
void lstrata_push_served_world(lua_State *L, strata_world *w, int owner);
void lstrata_world_gone(lua_State *L, int idx);
/* Where the state userdata at idx keeps its world (NULL once closed), or
** NULL when idx is no state: valid while that userdata lives, so that a
** value kept beside it (a map's view, a runtime) sees the world closed. */
strata_world *const *lstrata_world_slot(lua_State *L, int idx);

/* Converts the Lua value at idx into *out (raises naming `label` when it
** cannot be stored: functions, cycles, foreign metatables). */
void lstrata_check_value(lua_State *L, strata_world *w, int idx, const char *label, strata_value *out);
/* Pushes v; references become handles through the ref maker of the world
** state userdata at world_idx. */
void lstrata_push_value(lua_State *L, int world_idx, const strata_value *v);

#endif
