/*
** feature.h - entrances and stairs: objects of kind "feature" on a map that
** lead somewhere. Their bookkeeping (area.h) is sys = { type = "entrance",
** area, floor, image } or sys = { type = "stairs", floor_delta }.
*/
#ifndef STRATA_FEATURE_H
#define STRATA_FEATURE_H

#include "strata/api.h"

#include <stdint.h>

#include "strata/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_feature_type {
  STRATA_FEATURE_NONE = 0,       /* not a feature, or none of the kinds below */
  STRATA_FEATURE_ENTRANCE,
  STRATA_FEATURE_STAIRS
} strata_feature_type;

/* An entrance on map at (x, y) into floor *floor of area (floor NULL: the
** area's starting floor when used). When map is not a floor of that area,
** the entrance becomes the way back out of the area (travel up from its
** starting floor arrives on it), and an area without a parent becomes a
** child of the area the map belongs to, unless that would make a cycle.
** The entrance carries the image of the area's archetype (its copy:
** strata_feature_image). `area` may be a map instead: the area it is a
** floor of, at that floor (unless floor is given); a map of no area first
** becomes floor 1 of a new area of archetype base.one_map (one floor, known
** to every runtime, its resolver's or not). One savepoint. */
STRATA_API strata_status strata_entrance_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                     uint64_t area, const int64_t *floor, uint64_t *feature,
                                     strata_error *err);
/* Stairs on map at (x, y) to the floor floor_delta (nonzero) away from the
** map's own. The floor is resolved when the stairs are used, so a generator
** may place stairs on the map it is making. EARG: below the area's deepest floor. */
STRATA_API strata_status strata_stairs_create(strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                                   int64_t floor_delta, uint64_t *feature, strata_error *err);

STRATA_API strata_feature_type strata_feature_type_of(const strata_runtime *rt, uint64_t feature);
/* An entrance's image (its area archetype's when it was made); NULL: none,
** or no entrance. Lent until the feature next changes. */
STRATA_API const char *strata_feature_image(const strata_runtime *rt, uint64_t feature);
/* Stairs: their floor_delta; anything else: 0. */
STRATA_API int64_t strata_feature_floor_delta(const strata_runtime *rt, uint64_t feature);
/* Where the feature leads: the area (0: none, or a map of no area) and, when
** known (has_floor), the floor. Entrances without a floor lead to the area's
** starting floor. */
STRATA_API uint64_t strata_feature_target(const strata_runtime *rt, uint64_t feature, int *has_floor,
                               int64_t *floor);

#ifdef __cplusplus
}
#endif
#endif
