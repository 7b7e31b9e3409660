/*
** tokens.h - interned token names and their traits.
**
** A token is a short name ("floor", "wall", "door") that tile maps stack in
** their cells. A strata_tokens table interns names into small integers
** (strata_token, never 0 for a real token) and stores each token's traits:
** whether it can be walked through, what entering it costs, how it is drawn.
** One table may be shared by many maps; it is reference-counted and freed
** when the last holder releases it. Ids never change once given out, so a
** clone of a table keeps every id valid.
*/
#ifndef STRATA_TOKENS_H
#define STRATA_TOKENS_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint32_t strata_token; /* 0 means "no token" */

/* Longest token name, in bytes. */
#define STRATA_TOKEN_NAME_MAX 255
/* Most tokens one table can hold (ids fit in 31 bits; see tilemap.h). */
#define STRATA_TOKENS_MAX 0x00ffffffu

typedef struct strata_token_traits {
  int passable;      /* nonzero: actors may enter a cell holding this token */
  double cost;       /* cost of entering such a cell; > 0 and finite */
  char glyph[8];     /* NUL-terminated UTF-8, one displayed character */
  char color[16];    /* colour name for previews ("" = default) */
  /* Nonzero: blocks light (field of view, fov.h). Last and "opaque" rather
  ** than "transparent" so that a struct zeroed, or filled in order up to
  ** color, lets light through. Lua's trait is `transparent` (not opaque),
  ** taking passable's value when a definition gives neither. */
  int opaque;
} strata_token_traits;

typedef struct strata_tokens strata_tokens;

/* A new empty table with one reference held by the caller; NULL on ENOMEM. */
STRATA_API strata_tokens *strata_tokens_new(strata_error *err);
/* A new table holding the same ids, names and traits as src. */
STRATA_API strata_tokens *strata_tokens_clone(const strata_tokens *src, strata_error *err);
STRATA_API void strata_tokens_retain(strata_tokens *t);
STRATA_API void strata_tokens_release(strata_tokens *t); /* NULL is accepted */

/* The id of name, interning it if new. Returns 0 and fills err when the name
** is empty, too long, or the table is full or out of memory. */
STRATA_API strata_token strata_tokens_intern(strata_tokens *t, const char *name, size_t len,
                                  strata_error *err);
/* The id of name, or 0 when the table has never seen it. */
STRATA_API strata_token strata_tokens_find(const strata_tokens *t, const char *name, size_t len);
/* The name of id (NUL-terminated, owned by the table), or NULL if unknown. */
STRATA_API const char *strata_tokens_name(const strata_tokens *t, strata_token id, size_t *len);
/* Number of interned tokens; valid ids are 1..count. */
STRATA_API uint32_t strata_tokens_count(const strata_tokens *t);

/* The traits of a token. Tokens never defined get the defaults: passable,
** cost 1, the first character of the name as glyph, no colour, transparent. */
STRATA_API const strata_token_traits *strata_tokens_traits(const strata_tokens *t, strata_token id);
/* Sets the traits of name (interning it). Fails on a cost that is not a
** positive finite number or a glyph that is not one UTF-8 character. */
STRATA_API strata_status strata_tokens_define(strata_tokens *t, const char *name, size_t len,
                                   const strata_token_traits *traits, strata_error *err);
/* Starts from the default traits of name (for editing one field). */
STRATA_API void strata_tokens_default_traits(const char *name, size_t len, strata_token_traits *out);

/* Bumped by every define, so that caches derived from traits can notice. */
STRATA_API uint64_t strata_tokens_revision(const strata_tokens *t);

#ifdef __cplusplus
}
#endif
#endif
