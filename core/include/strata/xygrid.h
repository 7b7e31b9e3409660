/*
** xygrid.h - several XY maps keyed by Z, joined by their transition nodes.
**
** A transition node (`T`, or a custom legend entry of kind transition) stands
** for the node at its target (X, Y, Z) on another map: an exit leading into
** it arrives there. A grid routes across maps through such exits, which
** Evennia's XYZGrid cannot do. The grid borrows its maps: they must outlive
** it (the Lua binding keeps them alive).
*/
#ifndef STRATA_XYGRID_H
#define STRATA_XYGRID_H

#include "strata/api.h"

#include "strata/xymap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_xygrid strata_xygrid;

STRATA_API strata_xygrid *strata_xygrid_new(strata_error *err);
STRATA_API void strata_xygrid_free(strata_xygrid *g); /* NULL is accepted; the maps are not freed */

/* Adds a map under its Z (strata_xymap_z); a Z already present is an error. */
STRATA_API strata_status strata_xygrid_add(strata_xygrid *g, const strata_xymap *m, strata_error *err);
STRATA_API size_t strata_xygrid_map_count(const strata_xygrid *g);
STRATA_API const strata_xymap *strata_xygrid_map(const strata_xygrid *g, const char *z);

/* A cell of a cross-map route. */
typedef struct strata_xygrid_step {
  strata_xy_step cell;
  const char *z;
} strata_xygrid_step;

typedef struct strata_xygrid_route {
  const char **names;
  size_t hop_count;
  strata_xygrid_step *steps;
  size_t step_count;
  double cost;
} strata_xygrid_route;

/* Shortest route from (x1, y1) on map z1 to (x2, y2) on map z2, crossing
** transitions. No node at either end, or no route: hop_count == 0. An unknown
** Z is STRATA_ENOTFOUND. Free the route with strata_xygrid_route_free. */
STRATA_API strata_status strata_xygrid_shortest_path(strata_xygrid *g, const char *z1, int x1, int y1,
                                          const char *z2, int x2, int y2,
                                          strata_xygrid_route *out, strata_error *err);
STRATA_API void strata_xygrid_route_free(strata_xygrid_route *r);

#ifdef __cplusplus
}
#endif
#endif
