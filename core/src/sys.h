/*
** sys.h - the bookkeeping schema: typed reads and writes of what areas,
** maps, features and the world record keep under the reserved key `sys` of
** their properties (the stored layout: area.h). sys.c is the only code that
** spells those keys; the rest of the core, and the Lua bindings through the
** public getters, go through these.
**
** Reads of a missing field answer 0 / NULL (0 for "none" where a uid or a
** presence flag is answered). Writes run in the caller's savepoint (they go
** through strata_object_set, journaled); a uid of 0, a NULL number or a
** NULL string removes the field. The public getters of area.h, feature.h,
** travel.h and unique.h (strata_area_parent, strata_map_area, ...) are
** defined in sys.c too.
*/
#ifndef STRATA_SYS_H
#define STRATA_SYS_H

#include "strata/runtime.h"
#include "strata/value.h"

/* ---- the bookkeeping kinds ---- */
/* The kinds of the objects that are the world's own, not a game's: one
** record or index each, found by kind and kept up by the core. These are
** strata_kind_is_bookkeeping's list (sys.c): public deletes refuse them. */
#define SYS_KIND_RECORD "world_record"        /* the world record (area.h) */
#define SYS_KIND_GRID_MAPS "grid_maps"        /* the grid's map list (grid.h) */
#define SYS_KIND_BRANCH_INDEX "branch_index"  /* a branch's chunk index (branch.h) */
#define SYS_KIND_BRANCH_CELLS "branch_cells"  /* one chunk of a branch's cells */
/* strata_world_delete without its refusal of bookkeeping (world.c): the
** core's own removals (a branch's cell index as it collapses, a half-made
** record). */
strata_status world_delete(strata_world *w, uint64_t uid, strata_error *err);

/* ---- areas ---- */
/* The stored map of floor n (live or not); 0: none. */
uint64_t area_floor_uid(const strata_runtime *rt, uint64_t area, int64_t n);
/* { [n] = map } and { [child] = true }; NULL: none. */
const strata_vtable *area_floor_table(const strata_runtime *rt, uint64_t area);
const strata_vtable *area_children_table(const strata_runtime *rt, uint64_t area);
/* The stored parent (live or not); 0: none. */
uint64_t area_parent_uid(const strata_runtime *rt, uint64_t area);
/* 1 and *out when the area stores a starting floor of its own. */
int area_own_starting_floor(const strata_runtime *rt, uint64_t area, int64_t *out);
/* Where the area's entrance stands: its map (0: none), x and y (*has_xy 0
** when either is missing). */
uint64_t area_entrance(const strata_runtime *rt, uint64_t area, int64_t *x, int64_t *y, int *has_xy);

/* A new area's sys table into *sys: params taken over (cleared on failure). */
strata_status area_sys_new(strata_value *sys, uint64_t parent, strata_value *params, const char *gen,
                           int64_t starting, const int64_t *deepest, strata_error *err);
strata_status area_set_floor(strata_runtime *rt, uint64_t area, int64_t n, uint64_t map, strata_error *err);
strata_status area_set_parent(strata_runtime *rt, uint64_t area, uint64_t parent, strata_error *err);
strata_status area_set_child(strata_runtime *rt, uint64_t area, uint64_t child, int on, strata_error *err);
strata_status area_set_entrance(strata_runtime *rt, uint64_t area, uint64_t map, int64_t x, int64_t y,
                                strata_error *err);
strata_status area_set_unique(strata_runtime *rt, uint64_t area, const char *id, strata_error *err);
strata_status area_set_conquered(strata_runtime *rt, uint64_t area, int on, strata_error *err);
strata_status area_set_starting(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err);
strata_status area_set_deepest(strata_runtime *rt, uint64_t area, const int64_t *n, strata_error *err);
strata_status area_set_deepest_visited(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err);

/* ---- maps ---- */
/* The map's own floor (1 and *out), without the area's (strata_map_area). */
int map_floor(const strata_runtime *rt, uint64_t map, int64_t *out);
/* strata_map_area, memo'd (sys.c), with whether the map has a floor of its own. */
uint64_t map_area_floor(const strata_runtime *rt, uint64_t map, int64_t *floor, int *has_floor);
/* The area a map's sys names (0: none), read from the world alone (no
** runtime, no memo): a serving process's scopes (serve.c). */
uint64_t map_area_in(const strata_world *w, uint64_t map);
strata_status map_set_floor_of(strata_runtime *rt, uint64_t map, uint64_t area, int64_t n, strata_error *err);
strata_status map_set_level(strata_runtime *rt, uint64_t map, int64_t level, strata_error *err);
/* The restock (renew 0) or renew (renew 1) due time: 1 and *out. */
int map_due(const strata_runtime *rt, uint64_t map, int renew, double *out);
strata_status map_set_due(strata_runtime *rt, uint64_t map, int renew, const double *due, strata_error *err);
uint64_t map_renew_timer(const strata_runtime *rt, uint64_t map);
strata_status map_set_renew_timer(strata_runtime *rt, uint64_t map, uint64_t timer, strata_error *err);
/* tokens[name] = traits (taken over; nil removes). */
strata_status map_set_token(strata_runtime *rt, uint64_t map, const char *name, strata_value *traits,
                            strata_error *err);

/* ---- features ---- */
/* An entrance's area (0: none) and floor (1 and *out when it names one). */
uint64_t entrance_area(const strata_runtime *rt, uint64_t feature);
int entrance_floor(const strata_runtime *rt, uint64_t feature, int64_t *out);
/* The sys tables of a new entrance (floor NULL: the area's starting floor
** when used; image NULL: none) and of new stairs. */
strata_status entrance_sys_new(strata_value *sys, uint64_t area, const int64_t *floor, const char *image,
                               strata_error *err);
strata_status stairs_sys_new(strata_value *sys, int64_t floor_delta, strata_error *err);

/* ---- records kept whole by their own module ----
** A walk's plan (walk.c), the route of a walk through rooms, a branch's
** timers (branch_move.c) and an object's turns (turns.c) are tables whose
** fields their module spells; sys.c spells only where each lives. key NULL: the record itself; a nil *val
** removes (the record or its field). */
typedef enum sys_record { SYS_RECORD_WALK, SYS_RECORD_WALK_ROUTE, SYS_RECORD_BRANCH_TIMERS, SYS_RECORD_TURN } sys_record;
const strata_value *record_get(const strata_world *w, uint64_t uid, sys_record r, const strata_value *key);
strata_status record_put(strata_world *w, uint64_t uid, sys_record r, const strata_value *key, strata_value *val,
                         strata_error *err);
/* A field read as a uid (0: none), an integer or a number (1 and *out), a string (NULL: none). */
uint64_t value_uid(const strata_value *v);
int value_int(const strata_value *v, int64_t *out);
int value_num(const strata_value *v, double *out);
const char *value_str(const strata_value *v);

/* ---- the world record (rt_record; the setters need it made) ---- */
strata_status record_sys_new(strata_value *sys, strata_error *err);
/* { [area] = true }; NULL: none. */
const strata_vtable *record_area_table(const strata_runtime *rt);
/* The map the unique area's entrance was placed on; 0: not placed. */
uint64_t record_placed(const strata_runtime *rt, const char *id);
strata_status record_set_area(strata_runtime *rt, uint64_t area, int on, strata_error *err);
strata_status record_set_unique(strata_runtime *rt, const char *id, uint64_t area, strata_error *err);
strata_status record_set_placed(strata_runtime *rt, const char *id, uint64_t map, strata_error *err);
/* Forgets every entrance placed on map (they are placed anew). */
strata_status record_unplace(strata_runtime *rt, uint64_t map, strata_error *err);
strata_status record_set_player(strata_runtime *rt, uint64_t actor, strata_error *err);

/* A new object's whole sys table (one of the *_sys_new above), taken over. */
strata_status sys_init(strata_runtime *rt, uint64_t uid, strata_value *sys, strata_error *err);

/* ---- what every file uses ---- */
/* A top-level property (props[key]), or NULL. */
const strata_value *prop_get(const strata_world *w, uint64_t uid, const char *key);
/* Lua's truthiness: present and not false. */
int value_truthy(const strata_value *v);

#endif
