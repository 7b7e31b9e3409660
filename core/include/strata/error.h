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

#define STRATA_ERROR_MESSAGE_MAX 512

typedef struct strata_error {
  strata_status status;
  int line, column;       /* 1-based position in a text input; 0 when none */
  int has_coord;          /* nonzero when coord_x/coord_y name a map coordinate */
  double coord_x, coord_y;
  char message[STRATA_ERROR_MESSAGE_MAX];
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

/* A short constant name for a status ("bad argument", "out of memory", ...). */
STRATA_API const char *strata_status_name(strata_status status);

#ifdef __cplusplus
}
#endif
#endif
