/*
** fov.h - field of view on tile maps: which cells are seen from a cell.
**
** Light leaves the centre of the start cell and stops at opaque cells: a
** cell is opaque when one of its tokens is (strata_token_traits.transparent;
** an empty cell is transparent). Cells outside the map are never seen.
**
** Algorithms:
**   STRATA_FOV_SYMMETRIC (default) - symmetric shadowcasting (Albert Ford,
**     2020): a transparent cell is seen when the light reaches its centre,
**     which makes sight symmetric: from transparent A, B is seen exactly when
**     A is seen from B. An opaque cell is seen when the light reaches any
**     part of it. Within the quadrant of B (rows away from the start along
**     the major axis of B - A), B is seen unless a row between stops the
**     segment from A's centre to B's centre: it crosses the row inside an
**     opaque cell (each cell the interval [c - 1/2, c + 1/2] of its row) or
**     between two, or on the edge of one when the segment moved a hair
**     towards the transparent side is stopped by an earlier row
**     (docs/tile-maps.md; spec/c/test_fov.c checks it). Exact integer
**     arithmetic: no rounding at ties.
**   STRATA_FOV_PERMISSIVE - the same sweep; a transparent cell is seen, like
**     an opaque one, when the light reaches any part of it: a superset of the
**     symmetric set, no longer symmetric.
**   STRATA_FOV_BASIC - simple ray casting: a Bresenham line (bresenham.h)
**     from the start to each cell of the border of the radius' square (the
**     map's border when unlimited), stopped by the first opaque cell.
**
** The start cell is always seen, and sight goes out from it whatever it
** holds (an actor in a wall still sees out).
**
** Memory and speed: a strata_fov is a workspace: a bitset of the map's
** transparency, by rows and by columns, cached against the map's identity
** and revision and its token table's revision (so a computation never
** reads token stacks), and scratch bits. A strata_fov_set is the result: one
** bit per cell of the map; a computation clears only the bits the last one
** set. Both grow to the largest map used and are reused: no allocation in the
** steady state. Quadrants sweep whole runs of cells a 64-bit word at a time.
**
** Threads: like searches (tilemap.h), one workspace serves one computation
** at a time; two workspaces may read one map at once while nothing edits it.
*/
#ifndef STRATA_FOV_H
#define STRATA_FOV_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/tilemap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_fov_algorithm {
  STRATA_FOV_SYMMETRIC = 0,
  STRATA_FOV_PERMISSIVE = 1,
  STRATA_FOV_BASIC = 2
} strata_fov_algorithm;

typedef struct strata_fov_options {
  int radius;                     /* 0: unlimited; else cells with dx*dx + dy*dy <= radius*radius */
  strata_fov_algorithm algorithm;
  int light_walls;                /* nonzero (default): opaque cells the light reaches are seen */
  int merge;                      /* nonzero: add to what the set holds (a light map of several
                                  ** sources) instead of replacing it */
} strata_fov_options;

/* Defaults: unlimited, symmetric, light_walls, no merge. */
STRATA_API void strata_fov_options_init(strata_fov_options *o);
/* "symmetric", "permissive", "basic": 1 and *out, or 0 for another name. */
STRATA_API int strata_fov_algorithm_parse(const char *name, strata_fov_algorithm *out);
STRATA_API const char *strata_fov_algorithm_name(strata_fov_algorithm a);

typedef struct strata_fov strata_fov;
typedef struct strata_fov_set strata_fov_set;

STRATA_API strata_fov *strata_fov_new(strata_error *err);
STRATA_API void strata_fov_free(strata_fov *f); /* NULL is accepted */
/* Bytes held by the workspace. */
STRATA_API size_t strata_fov_memory(const strata_fov *f);

/* An empty set (of no map yet). */
STRATA_API strata_fov_set *strata_fov_set_new(strata_error *err);
STRATA_API void strata_fov_set_free(strata_fov_set *s); /* NULL is accepted */

/* The cells seen from (x, y) on m into out (replacing its contents, or with
** o->merge adding to them). o may be NULL (defaults). Fails with STRATA_EARG
** (out unchanged) for a start outside the map, a negative radius, an unknown
** algorithm, or a merge into a set of a map of another size; STRATA_ENOMEM
** (out empty). */
STRATA_API strata_status strata_fov_compute(strata_fov *f, const strata_tilemap *m, int x, int y,
                                            const strata_fov_options *o, strata_fov_set *out,
                                            strata_error *err);
/* The same with a workspace the map keeps (made on the first call, freed
** with the map, counted by strata_tilemap_memory): one caller at a time. */
STRATA_API strata_status strata_tilemap_fov(strata_tilemap *m, int x, int y,
                                            const strata_fov_options *o, strata_fov_set *out,
                                            strata_error *err);

/* Nonzero when the set holds (x, y) (0 outside its map). */
STRATA_API int strata_fov_set_visible(const strata_fov_set *s, int x, int y);
/* How many cells the set holds. */
STRATA_API uint64_t strata_fov_set_count(const strata_fov_set *s);
/* The size of the map the set is of (0 before its first computation). */
STRATA_API int strata_fov_set_width(const strata_fov_set *s);
STRATA_API int strata_fov_set_height(const strata_fov_set *s);
/* Adds src's cells to dst (a light map). An empty dst takes src's map size;
** fails with STRATA_EARG (dst unchanged) for sets of maps of other sizes. */
STRATA_API strata_status strata_fov_set_add(strata_fov_set *dst, const strata_fov_set *src,
                                            strata_error *err);
/* Empties the set (it keeps its map size). */
STRATA_API void strata_fov_set_clear(strata_fov_set *s);
/* Iteration in row order: start with *cursor = 0; each call gives 1 and the
** next cell, or 0 at the end. */
STRATA_API int strata_fov_set_next(const strata_fov_set *s, uint64_t *cursor, int *x, int *y);
/* Bytes held by the set. */
STRATA_API size_t strata_fov_set_memory(const strata_fov_set *s);

#ifdef __cplusplus
}
#endif
#endif
