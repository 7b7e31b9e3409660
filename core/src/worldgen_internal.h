/* worldgen_internal.h - what worldgen.c (making and checking templates) shares
** with worldgen_text.c (the template file and the drawing). */
#ifndef STRATA_WORLDGEN_INTERNAL_H
#define STRATA_WORLDGEN_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

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

/* A template or configuration file's refusal: STRATA_EPARSE at line, the
** message prefixed "name:line: " (one form for both files). */
strata_status wg_failv(strata_error *err, const char *name, int line, const char *fmt, va_list ap);
/* s (n bytes) as quoted in a message: at most 40 bytes, printable, "..." when cut. */
const char *wg_shown(const char *s, size_t n, char out[48]);

#endif
