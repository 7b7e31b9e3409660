/*
** layout.h - layouts: KeeperRL's map generator language (UMG) over tile maps.
**
** A layout file is read once into a strata_layout_file: its macros are
** expanded and every named layout becomes a tree of generators and
** predicates. Running a generator writes tokens into a tile map, taking all
** its randomness from the generator passed in, and returns success, a soft
** failure (the layout could not be placed this time: the caller retries on
** a fresh map) or a configuration error naming the place in the text.
**
** Ownership: the file owns every generator in it; a strata_layout_gen
** pointer stays valid until strata_layout_file_free. Running caches the
** interned tokens in the tree, so one file must not run on two threads at
** once (separate files may).
*/
#ifndef STRATA_LAYOUT_H
#define STRATA_LAYOUT_H

#include "strata/api.h"

#include <stddef.h>

#include "strata/error.h"
#include "strata/rng.h"
#include "strata/tilemap.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_layout_file strata_layout_file;
typedef struct strata_layout_gen strata_layout_gen;

/* Reads a layout file: `"name" generator` entries, `Def ... End` macros.
** name (may be NULL) names the text in messages. NULL and err filled (with
** line:column and what was expected) on any error. */
STRATA_API strata_layout_file *strata_layout_file_parse(const char *text, size_t len, const char *name,
                                             strata_error *err);
/* Reads a single generator (macros allowed before it). */
STRATA_API strata_layout_file *strata_layout_parse_generator(const char *text, size_t len,
                                                  const char *name, strata_error *err);
STRATA_API void strata_layout_file_free(strata_layout_file *f); /* NULL is accepted */

STRATA_API size_t strata_layout_count(const strata_layout_file *f);
STRATA_API const char *strata_layout_name(const strata_layout_file *f, size_t i);
STRATA_API const strata_layout_gen *strata_layout_at(const strata_layout_file *f, size_t i);
STRATA_API const strata_layout_gen *strata_layout_find(const strata_layout_file *f, const char *name);

typedef enum strata_layout_result {
  STRATA_LAYOUT_OK = 0,
  STRATA_LAYOUT_FAILED = 1 /* a soft failure: *why says which generator */
} strata_layout_result;

/* Runs g once on the whole of m. Returns STRATA_OK with *result set, or an
** error status for a configuration error (err says where). On a soft
** failure why (cap bytes, may be NULL) names the failing generator. */
STRATA_API strata_status strata_layout_run(const strata_layout_gen *g, strata_tilemap *m, strata_rng *rng,
                                strata_layout_result *result, char *why, size_t cap,
                                strata_error *err);

#ifdef __cplusplus
}
#endif

#endif
