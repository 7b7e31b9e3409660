/*
** area.h - areas, their floors, and the maps that are floors.
**
** A world is a tree of areas; an area is a stack of numbered floors; each
** floor is a map, generated on first need by logic found by ID (resolver.h):
** floors[n]'s map archetype `generate`, else the area generator's
** `generate_floor`. Areas, maps and features are world objects (kinds
** "area", "map", "feature"); their bookkeeping lives in their properties
** under the reserved key `sys`, laid out as below (the layout the Lua API
** has always saved), so a world is saved and reopened with it, and a world
** made by a C game opens under the Lua API and the other way round:
**
**   area  sys = { parent, floors = { [n] = map }, children = { [area] = true },
**                 params, generator, starting_floor, deepest_floor,
**                 deepest_visited, entrance = { map, x, y }, unique, conquered }
**   map   sys = { area, floor, level, restock_due, renew_due, renew_timer,
**                 tokens = { [name] = traits } }
**   one object of kind "world_record":
**         sys = { uniques = { [id] = area }, placed = { [id] = map },
**                 areas = { [area] = true }, player }
**
** (uids as integers, dues as floats; core/src/sys.c is the only code that
** spells these keys.) The world record is bookkeeping
** (strata_kind_is_bookkeeping): strata_world_delete refuses it. Functions that change the world
** change nothing when they fail: each runs as one savepoint. Functions
** that return a pointer into an object's properties lend it until that
** object next changes.
*/
#ifndef STRATA_AREA_H
#define STRATA_AREA_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- areas ---- */

/* The archetype of the area strata_entrance_create makes around a map of no
** area: one floor, nothing else. Every runtime knows it (its resolver's
** definition if it has one). */
#define STRATA_AREA_ONE_MAP "base.one_map"

typedef struct strata_area_opts {
  uint64_t parent;               /* an area; 0: none */
  const strata_value *params;    /* a table whose keys override the archetype's params */
  const char *generator;         /* base.area_generator ID; NULL: the archetype's */
  int has_starting_floor;
  int64_t starting_floor;        /* else the archetype's, else 1 */
  int has_deepest_floor;
  int64_t deepest_floor;         /* else the archetype's, else open-ended */
} strata_area_opts;

/* A new area of archetype `archetype` (opts may be NULL). ENOTFOUND: unknown
** archetype or generator; EARG: a bad parent or params. */
STRATA_API strata_status strata_area_create(strata_runtime *rt, const char *archetype,
                                 const strata_area_opts *opts, uint64_t *area, strata_error *err);
/* strata_area_create and its entrance (strata_entrance_create) at (x, y) on
** floor on_floor of opts->parent (required; on_floor 0: the parent's
** starting floor, generated now if need be): one savepoint, so a cell off
** that floor or any failure makes neither. entrance may be NULL. */
STRATA_API strata_status strata_area_create_at(strata_runtime *rt, const char *archetype,
                                               const strata_area_opts *opts, int64_t on_floor, int64_t x,
                                               int64_t y, uint64_t *area, uint64_t *entrance, strata_error *err);
/* Deletes the area with its floors (and what stands on them). Its children
** go to its parent, or with delete_children are deleted likewise.
** ESTATE when the player is on one of the floors that would go. */
STRATA_API strata_status strata_area_delete(strata_runtime *rt, uint64_t area, int delete_children,
                                 strata_error *err);

/* Floor n of the area: the map already there, or one generated now (in a
** savepoint: a failed generation changes nothing, uids it drew stay used).
** Generation: floors[n]'s map archetype, else the area's generator, with
** call->area, floor, depth, params and rng (the stream "area#<uid> floor <n>",
** so a floor is the same whether made before or after a save); the map it
** makes becomes floor n (unless the generator attached it already); its
** props become the archetype's properties under what the generator set; its
** restock and renew fall due from now; on_spawn; base.floor_generated (params
** { area, floor, map }, source the map); the entrances of the unique areas
** declared on that floor. A generator may place stairs on the map it makes. */
STRATA_API strata_status strata_area_floor(strata_runtime *rt, uint64_t area, int64_t n, uint64_t *map,
                                strata_error *err);
/* Makes map floor n of the area. Errors: the floor is taken, below the
** deepest floor, or the map is a floor of some area already. */
STRATA_API strata_status strata_area_add_floor(strata_runtime *rt, uint64_t area, uint64_t map, int64_t n,
                                    strata_error *err);
/* Deletes floor n's map (with what stands on it) if there is one: it is
** generated anew next time. ESTATE when the player is on it. */
STRATA_API strata_status strata_area_forget_floor(strata_runtime *rt, uint64_t area, int64_t n,
                                       strata_error *err);
/* The map of floor n, or 0 when there is none yet. */
STRATA_API uint64_t strata_area_floor_map(const strata_runtime *rt, uint64_t area, int64_t n);
/* The floors there are, in increasing order: writes up to cap of them
** (floors and maps may be NULL) and returns how many there are. */
STRATA_API size_t strata_area_floors(const strata_runtime *rt, uint64_t area, int64_t *floors,
                          uint64_t *maps, size_t cap);

/* Fields; an area that does not exist reads as empty (0, NULL). */
STRATA_API uint64_t strata_area_parent(const strata_runtime *rt, uint64_t area);
/* The children in uid order: writes up to cap, returns how many. */
STRATA_API size_t strata_area_children(const strata_runtime *rt, uint64_t area, uint64_t *out, size_t cap);
/* Where child's entrance stands in `area`: 1 and x, y, floor; 0 when it has none there. */
STRATA_API int strata_area_child_position(const strata_runtime *rt, uint64_t area, uint64_t child,
                               int64_t *x, int64_t *y, int64_t *floor);
/* The live map the area's entrance stands on (the way back up out of it),
** and where (x, y may be NULL); 0: none. */
STRATA_API uint64_t strata_area_entrance(const strata_runtime *rt, uint64_t area, int64_t *x, int64_t *y);
STRATA_API int64_t strata_area_starting_floor(const strata_runtime *rt, uint64_t area);
/* 1 and *out, or 0: open-ended / not visited yet. */
STRATA_API int strata_area_deepest_floor(const strata_runtime *rt, uint64_t area, int64_t *out);
STRATA_API int strata_area_deepest_visited(const strata_runtime *rt, uint64_t area, int64_t *out);
STRATA_API const strata_value *strata_area_params(const strata_runtime *rt, uint64_t area); /* NULL: none */
STRATA_API const char *strata_area_generator(const strata_runtime *rt, uint64_t area);     /* NULL: none */
STRATA_API const char *strata_area_unique_id(const strata_runtime *rt, uint64_t area);     /* NULL: not unique */
STRATA_API int strata_area_is_conquered(const strata_runtime *rt, uint64_t area);
STRATA_API strata_status strata_area_set_conquered(strata_runtime *rt, uint64_t area, int conquered,
                                        strata_error *err);
STRATA_API strata_status strata_area_set_starting_floor(strata_runtime *rt, uint64_t area, int64_t n,
                                             strata_error *err);
/* deepest NULL: open-ended. */
STRATA_API strata_status strata_area_set_deepest_floor(strata_runtime *rt, uint64_t area,
                                            const int64_t *deepest, strata_error *err);

typedef struct strata_area_filter {
  const char *archetype;         /* NULL: any */
  const char *type;              /* one of the archetype's types; NULL: any */
  uint64_t parent;               /* 0: any */
} strata_area_filter;

/* The world's areas in uid order (filter may be NULL): writes up to cap,
** returns how many match. */
STRATA_API size_t strata_areas(const strata_runtime *rt, const strata_area_filter *filter, uint64_t *out,
                    size_t cap);

/* ---- maps ---- */

/* A new width x height map object (archetype may be NULL): its props are a
** copy of the archetype's properties and its restock and renew fall due
** from now. */
STRATA_API strata_status strata_map_create(strata_runtime *rt, int width, int height, const char *archetype,
                                uint64_t *map, strata_error *err);
/* Deletes the map with what stands on it (features, actors), after taking it
** out of its area and of the unique-entrance records. ESTATE: the player is on it. */
STRATA_API strata_status strata_map_delete(strata_runtime *rt, uint64_t map, strata_error *err);
/* Gives the map another archetype (NULL: none; ENOTFOUND: unknown); its
** restock and renew fall due anew from now. */
STRATA_API strata_status strata_map_set_archetype(strata_runtime *rt, uint64_t map, const char *archetype,
                                       strata_error *err);
/* What the base.map_renew timer does (strata_advance runs it itself; a host
** running timers of its own calls this): restock and renew that fell due on
** map, and the timer again while the player is on it. A map that is gone is
** no error. */
STRATA_API strata_status strata_map_renew(strata_runtime *rt, uint64_t map, strata_error *err);
/* The area the map is a floor of, and which floor (floor may be NULL); 0: none. */
STRATA_API uint64_t strata_map_area(const strata_runtime *rt, uint64_t map, int64_t *floor);
/* The map's level (difficulty): its own, else its floor, else 1. */
STRATA_API int64_t strata_map_level(const strata_runtime *rt, uint64_t map);
STRATA_API strata_status strata_map_set_level(strata_runtime *rt, uint64_t map, int64_t level,
                                   strata_error *err);
/* The map's own token traits (map:define_token in Lua), kept with it so
** that they are defined on its tile map again when the world is opened:
** a table { [name] = traits }, NULL when it has none (lent as the area.h
** header says). Setting one replaces the traits of that name (traits taken
** over; EARG: not a table). The tile map's own definition is the caller's
** (strata_tokens_define on strata_tilemap_tokens). */
STRATA_API const strata_value *strata_map_tokens(const strata_runtime *rt, uint64_t map);
STRATA_API strata_status strata_map_set_token(strata_runtime *rt, uint64_t map, const char *name,
                                   strata_value *traits, strata_error *err);
/* The objects on the map (of kind `kind`, or all with NULL) in uid order:
** writes up to cap, returns how many (strata_world_objects_on: the world's
** index by map, no scan). */
STRATA_API size_t strata_map_objects(const strata_runtime *rt, uint64_t map, const char *kind,
                          uint64_t *out, size_t cap);

#ifdef __cplusplus
}
#endif
#endif
