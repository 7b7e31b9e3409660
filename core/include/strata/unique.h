/*
** unique.h - unique areas: the one area of a base.unique_area ID.
**
** A unique area is created on first need with its parents first; its
** entrance is placed at `at` on its parent's floor `on_floor` (default: the
** parent's starting floor) as soon as both exist, once: the world record
** remembers it (sys.placed), also across saves, and places it again only if
** that floor is forgotten and generated anew.
*/
#ifndef STRATA_UNIQUE_H
#define STRATA_UNIQUE_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The unique area `id`, created if needed (parents first; an eager one with
** its starting floor). ENOTFOUND: unknown ID; ELIMIT: parents in a cycle. */
STRATA_API strata_status strata_unique_area(strata_runtime *rt, const char *id, uint64_t *area,
                                 strata_error *err);
/* The unique area `id` if it exists; 0 otherwise. */
STRATA_API uint64_t strata_find_unique(const strata_runtime *rt, const char *id);
/* Floor *floor (NULL: the starting floor) of the unique area `id`, both made if needed. */
STRATA_API strata_status strata_get_or_create_map(strata_runtime *rt, const char *id, const int64_t *floor,
                                       uint64_t *map, strata_error *err);
/* The unique areas declared on this map's floor: created if missing, their
** entrances placed if missing. Writes up to cap of them into out (may be
** NULL) and their number into *n. */
STRATA_API strata_status strata_regenerate_child_maps(strata_runtime *rt, uint64_t map, uint64_t *out,
                                           size_t cap, size_t *n, strata_error *err);
/* Creates the eager unique areas under "root": once, on a new world. */
STRATA_API strata_status strata_unique_areas_init(strata_runtime *rt, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
