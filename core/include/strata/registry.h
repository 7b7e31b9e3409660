/*
** registry.h - a resolver from tables: how a C game registers its logic and
** definitions by ID.
**
**   strata_registry *reg = strata_registry_new(&err);
**   strata_registry_add_logic(reg, STRATA_LOGIC_GENERATE_FLOOR, "cavern.caves", caves, NULL, "cavern", &err);
**   strata_registry_add_area_archetype(reg, &(strata_area_archetype){ .id = "cavern.deep",
**                                      .generator = "cavern.caves" }, &err);
**   strata_runtime *rt = strata_runtime_new(world, strata_registry_resolver(reg), &err);
**
** Definitions are copied in (strings, values, lists), so the caller's
** structs may be temporaries. Unknown IDs are errors naming the nearest known
** IDs. Unique areas are listed in the order of their IDs. Free the registry
** after every runtime using it.
*/
#ifndef STRATA_REGISTRY_H
#define STRATA_REGISTRY_H

#include "strata/api.h"

#include "strata/resolver.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_registry strata_registry;

STRATA_API strata_registry *strata_registry_new(strata_error *err);
STRATA_API void strata_registry_free(strata_registry *reg); /* NULL is accepted */

/* The resolver answering from reg: valid while reg is. */
STRATA_API const strata_resolver *strata_registry_resolver(const strata_registry *reg);

/* Registers fn as the `kind` logic of definition `id` (mod may be NULL).
** Registering a map archetype hook also declares the map archetype (with
** no data) if it is not declared yet, and likewise for area generators and
** handlers. Registering (kind, id) again replaces it. */
STRATA_API strata_status strata_registry_add_logic(strata_registry *reg, strata_logic kind, const char *id,
                                        strata_fn fn, void *data, const char *mod,
                                        strata_error *err);
/* Declares (or replaces) a definition. */
STRATA_API strata_status strata_registry_add_map_archetype(strata_registry *reg,
                                                const strata_map_archetype *def,
                                                strata_error *err);
STRATA_API strata_status strata_registry_add_area_archetype(strata_registry *reg,
                                                 const strata_area_archetype *def,
                                                 strata_error *err);
STRATA_API strata_status strata_registry_add_unique_area(strata_registry *reg, const strata_unique_def *def,
                                              strata_error *err);
/* Declares (or replaces) a branch archetype. */
STRATA_API strata_status strata_registry_add_branch_archetype(strata_registry *reg,
                                                   const strata_branch_def *def,
                                                   strata_error *err);
/* Declares an event ID (base.event). A registry with no events declared
** accepts every event. */
STRATA_API strata_status strata_registry_add_event(strata_registry *reg, const char *event,
                                        strata_error *err);
/* Appends a handler to the `events` list of archetype `archetype` of objects
** of kind `kind` ("map", "area", "actor"). name NULL: the archetype's ID. */
STRATA_API strata_status strata_registry_add_archetype_event(strata_registry *reg, const char *kind,
                                                  const char *archetype, const char *event,
                                                  const char *name, int64_t priority,
                                                  strata_fn fn, void *data, const char *mod,
                                                  strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
