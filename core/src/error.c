/* error.c - filling strata_error values. */
#include "strata/error.h"

#include <stdio.h>
#include <string.h>

void strata_error_clear(strata_error *err) {
  if (err == NULL) return;
  memset(err, 0, sizeof *err);
}

strata_status strata_error_setv(strata_error *err, strata_status status,
                                const char *fmt, va_list ap) {
  if (err == NULL) return status;
  err->status = status;
  err->line = err->column = 0;
  err->has_coord = 0;
  err->function = NULL;
  err->refusal = STRATA_REFUSED_NONE;
  err->subject[0] = err->subject[1] = 0;
  vsnprintf(err->message, sizeof err->message, fmt, ap);
  return status;
}

/* The one body of strata_error_in and strata_error_refuse. */
static strata_status refusev(strata_error *err, strata_status status, const char *function,
                             strata_refusal refusal, uint64_t subject, const char *fmt, va_list ap) {
  strata_error_setv(err, status, fmt, ap);
  if (err) {
    err->function = function;
    err->refusal = refusal;
    err->subject[0] = subject;
  }
  return status;
}

strata_status strata_error_in(strata_error *err, strata_status status, const char *function,
                              const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  refusev(err, status, function, STRATA_REFUSED_NONE, 0, fmt, ap);
  va_end(ap);
  return status;
}

strata_status strata_error_refuse(strata_error *err, strata_status status, const char *function,
                                  strata_refusal refusal, uint64_t subject, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  refusev(err, status, function, refusal, subject, fmt, ap);
  va_end(ap);
  return status;
}

strata_status strata_error_nomem(strata_error *err, const char *fmt, ...) {
  strata_error_set(err, STRATA_ENOMEM, "%s", strata_status_name(STRATA_ENOMEM));
  if (err == NULL || fmt == NULL) return STRATA_ENOMEM;
  size_t used = strlen(err->message);
  if (used + 1 < sizeof err->message) {
    err->message[used++] = ' ';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + used, sizeof err->message - used, fmt, ap);
    va_end(ap);
  }
  return STRATA_ENOMEM;
}

const char *strata_refusal_name(strata_refusal refusal) {
  switch (refusal) {
    case STRATA_REFUSED_NONE: return "none";
    case STRATA_REFUSED_DELETED: return "deleted";
    case STRATA_REFUSED_KIND: return "wrong kind";
    case STRATA_REFUSED_OUTSIDE: return "outside the map";
    case STRATA_REFUSED_NO_TILES: return "no tiles";
    case STRATA_REFUSED_TAKEN: return "floor taken";
    case STRATA_REFUSED_ATTACHED: return "already a floor";
    case STRATA_REFUSED_DEEPEST: return "below the deepest floor";
    case STRATA_REFUSED_NO_AREA: return "not on an area's floor";
    case STRATA_REFUSED_NO_WAY_UP: return "no way up";
    case STRATA_REFUSED_PLAYER: return "the player is there";
    case STRATA_REFUSED_UNKNOWN_ID: return "unknown ID";
    case STRATA_REFUSED_HOST: return "host logic failed";
    case STRATA_REFUSED_BOOKKEEPING: return "bookkeeping";
  }
  return "unknown refusal";
}

strata_status strata_error_set(strata_error *err, strata_status status,
                               const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strata_error_setv(err, status, fmt, ap);
  va_end(ap);
  return status;
}

strata_status strata_error_at(strata_error *err, strata_status status,
                              int line, int column, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  strata_error_setv(err, status, fmt, ap);
  va_end(ap);
  if (err != NULL) {
    err->line = line;
    err->column = column;
  }
  return status;
}

const char *strata_status_name(strata_status status) {
  switch (status) {
    case STRATA_OK: return "ok";
    case STRATA_EARG: return "bad argument";
    case STRATA_ENOMEM: return "out of memory";
    case STRATA_EPARSE: return "parse error";
    case STRATA_ENOTFOUND: return "not found";
    case STRATA_ELIMIT: return "limit exceeded";
    case STRATA_EIO: return "i/o error";
    case STRATA_ESTATE: return "invalid state";
  }
  return "unknown error";
}
