/*
** picture.h - maps as pictures: SVG text and PNG images.
**
** A tile map is drawn one square per cell, coloured by the top token's
** traits (their colour name; without one, passable cells are light and
** impassable ones dark; empty cells black), a route drawn over it. An XY map
** is drawn as players see it (xy:display), one glyph per character cell, the
** cells of a route highlighted behind them. Both SVG and PNG are complete
** files in memory: *out belongs to the caller, who frees it with strata_free.
*/
#ifndef STRATA_PICTURE_H
#define STRATA_PICTURE_H

#include "strata/api.h"

#include <stddef.h>

#include "strata/error.h"
#include "strata/path.h"
#include "strata/tilemap.h"
#include "strata/xymap.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest side of a cell, in pixels, and of a whole picture. */
#define STRATA_PICTURE_CELL_MAX 64
#define STRATA_PICTURE_SIDE_MAX 16384

typedef struct strata_picture_options {
  int cell;                 /* pixels per cell side; 0 means 12 */
  const strata_path *path;  /* tile maps: cells (y * width + x) drawn over; may be NULL */
} strata_picture_options;

/* opt may be NULL. Fail with STRATA_EARG on a bad cell size or a path cell
** outside the map, STRATA_ELIMIT when the picture would exceed the side
** limit; nothing is allocated then. */
STRATA_API strata_status strata_tilemap_svg(const strata_tilemap *m, const strata_picture_options *opt,
                                 char **out, size_t *len, strata_error *err);
STRATA_API strata_status strata_tilemap_png(const strata_tilemap *m, const strata_picture_options *opt,
                                 unsigned char **out, size_t *len, strata_error *err);
/* route may be NULL; its steps are highlighted. */
STRATA_API strata_status strata_xymap_svg(const strata_xymap *m, const strata_xy_route *route,
                               const strata_picture_options *opt, char **out, size_t *len,
                               strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
