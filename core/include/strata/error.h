/*
** error.h - errors as values.
**
** Every fallible function in libstrata returns a strata_status and, when it
** fails, fills the caller's strata_error (which may be NULL when the caller
** does not care why). The error is plain data owned by the caller: no
** allocation, no global "last error".
*/
#ifndef STRATA_ERROR_H
#define STRATA_ERROR_H

#include "strata/api.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_status {
  STRATA_OK = 0,
  STRATA_EARG,      /* a bad argument: out of range, wrong kind, NULL */
  STRATA_ENOMEM,    /* an allocation failed; the object is unchanged */
  STRATA_EPARSE,    /* malformed text input; line/column (and coordinate) set */
  STRATA_ENOTFOUND, /* a named thing does not exist */
  STRATA_ELIMIT,    /* a documented limit was exceeded */
  STRATA_EIO,       /* a file could not be read or written */
  STRATA_ESTATE     /* the operation does not fit the object's current state */
} strata_status;

/* Which refusal, finer than the status where a caller may act on it (the
** Lua binding, a C game): the subjects say whom it is about. */
typedef enum strata_refusal {
  STRATA_REFUSED_NONE = 0,   /* no code: the status and the message say it all */
  STRATA_REFUSED_DELETED,    /* subject[0] was deleted (or never made) */
  STRATA_REFUSED_KIND,       /* subject[0] is not of the kind the operation needs */
  STRATA_REFUSED_OUTSIDE,    /* a cell outside map subject[0] */
  STRATA_REFUSED_NO_TILES,   /* map subject[0] has no tiles */
  STRATA_REFUSED_TAKEN,      /* the floor of area subject[0] is taken by map subject[1] */
  STRATA_REFUSED_ATTACHED,   /* map subject[0] is already a floor of area subject[1] */
  STRATA_REFUSED_DEEPEST,    /* below the deepest floor of area subject[0] */
  STRATA_REFUSED_NO_AREA,    /* stairs subject[0] stand on map subject[1], no area's floor */
  STRATA_REFUSED_NO_WAY_UP,  /* stairs subject[0] lead up out of area subject[1], no entrance */
  STRATA_REFUSED_PLAYER,     /* the player stands where the operation would remove */
  STRATA_REFUSED_UNKNOWN_ID, /* an ID the resolver does not know */
  STRATA_REFUSED_HOST,       /* host logic (a mod's function) failed: the message is its own */
  STRATA_REFUSED_BOOKKEEPING /* subject[0] is the world's own bookkeeping (strata_kind_is_bookkeeping) */
} strata_refusal;

#define STRATA_ERROR_MESSAGE_MAX 512

/* The caller allocates it, so it grows only at its end (docs/c-api.md,
** "Errors": from 1.0 on, with a new SONAME). */
typedef struct strata_error {
  strata_status status;
  int line, column;       /* 1-based position in a text input; 0 when none */
  int has_coord;          /* nonzero when coord_x/coord_y name a map coordinate */
  double coord_x, coord_y;
  char message[STRATA_ERROR_MESSAGE_MAX]; /* what, without the function's name */
  const char *function;   /* the C function that refused ("strata_area_floor"), a
                          ** static string; NULL when not recorded */
  strata_refusal refusal;
  uint64_t subject[2];    /* the uids the refusal is about (see strata_refusal); 0: none */
} strata_error;

/* Resets err to "no error". NULL is accepted. */
STRATA_API void strata_error_clear(strata_error *err);

/* Fills err (if not NULL) with a printf-style message and returns status, so
** that a failing function can end with `return strata_error_set(...)`. */
STRATA_API strata_status strata_error_set(strata_error *err, strata_status status,
                               const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 3, 4)))
#endif
  ;

/* As strata_error_set, also recording a 1-based line and column. */
STRATA_API strata_status strata_error_at(strata_error *err, strata_status status,
                              int line, int column, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 5, 6)))
#endif
  ;

STRATA_API strata_status strata_error_setv(strata_error *err, strata_status status,
                                const char *fmt, va_list ap);

/* As strata_error_set, naming the C function that refused (a static
** string: the message says what, the function who). */
STRATA_API strata_status strata_error_in(strata_error *err, strata_status status, const char *function,
                              const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 4, 5)))
#endif
  ;

/* As strata_error_in, with a refusal code and its first subject (a uid, 0:
** none); a second subject is err->subject[1], set after. */
STRATA_API strata_status strata_error_refuse(strata_error *err, strata_status status, const char *function,
                                  strata_refusal refusal, uint64_t subject, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 6, 7)))
#endif
  ;

/* Fills err with STRATA_ENOMEM and "out of memory", followed by a space and
** the printf-style fmt when fmt is not NULL ("out of memory reading a
** layout"); returns STRATA_ENOMEM. */
STRATA_API strata_status strata_error_nomem(strata_error *err, const char *fmt, ...)
#if defined(__GNUC__)
  __attribute__((format(printf, 2, 3)))
#endif
  ;

/* The edit distance (Levenshtein, byte by byte) of two strings, exact while
** the product of their lengths is at most 4,194,304 (two 2,048-byte names);
** past that, the longer length (the bound every distance keeps), so that no
** call costs more than a few milliseconds. */
STRATA_API size_t strata_edit_distance(const char *a, const char *b);

/* For "unknown 'x' (nearest known: ...)" messages: the (up to max, at most 8)
** names of known[0..n) nearest to name, nearest first, into near (and their
** distances into dist, when not NULL); returns how many. Nearness is the
** edit distance, a dotted name also compared by its part after the first
** dot ("crypt.gobiln" finds "crypt.goblin"); ties go in strcmp order. One
** call computes at most 16,777,216 cells of distances in all, the rest by
** the bound above: a long list of long names costs milliseconds. */
STRATA_API size_t strata_nearest(const char *name, const char *const *known, size_t n,
                                 const char **near, size_t *dist, size_t max);

/* A short constant name for a refusal ("deleted", "taken", ...). */
STRATA_API const char *strata_refusal_name(strata_refusal refusal);

/* A short constant name for a status ("bad argument", "out of memory", ...). */
STRATA_API const char *strata_status_name(strata_status status);

#ifdef __cplusplus
}
#endif
#endif
