/* worldgen_internal.h - what worldgen.c (making and checking templates) shares
** with worldgen_text.c (the template file and the drawing). */
#ifndef STRATA_WORLDGEN_INTERNAL_H
#define STRATA_WORLDGEN_INTERNAL_H

#include "strata/worldgen.h"

/* The template's own fields (sizes, options recorded). */
strata_status wg_validate_header(const strata_worldgen *t, strata_error *err);
/* Everything about floor z (1-based) alone, and its stairs lining up with
** the floor above. The parser calls it as each floor is read. */
strata_status wg_validate_floor(const strata_worldgen *t, int z, strata_error *err);

/* The arrival point of floor z of t (start or ascent) and its leaving point
** (exit or descent), with the tiles that mark them. */
void wg_floor_ends(const strata_worldgen *t, int z, strata_worldgen_point *arrive, int *arrive_tile,
                   strata_worldgen_point *leave, int *leave_tile);

/* The whole of the regular file at path, NUL-terminated, into *text (the
** caller's: strata_free); errors name the file. */

#endif
