/*
** room_internal.h - what room.c and exit.c share: paths into an object's
** "sys" properties, where rooms, exits and who-is-where live (room.h).
*/
#ifndef STRATA_ROOM_INTERNAL_H
#define STRATA_ROOM_INTERNAL_H

#include <string.h>

#include "strata/room.h"
#include "strata/value.h"

/* A key for a lookup path: borrows s (never freed, never stored). */
static inline strata_value room_key(const char *s) {
  strata_value k = strata_value_nil();
  k.type = STRATA_VSTRING;
  k.u.str.s = (char *)s;
  k.u.str.len = strlen(s);
  return k;
}

/* sys.<rec> of uid when the object is of `kind` and has that table; else NULL. */
const strata_vtable *room_rec(const strata_world *w, uint64_t uid, const char *kind,
                              const char *rec);
/* A string field of a record ("" stays ""); NULL when absent. */
const char *room_str(const strata_vtable *t, const char *field);
/* Sets sys.<k1>[.<k2>] of uid to *val (taken over on success), making the
** sys table when the object has none. */
strata_status room_set(strata_world *w, uint64_t uid, const char *k1, const char *k2,
                       strata_value *val, strata_error *err);
/* Sets a string field sys.<rec>.<field>; `what` names it in errors. */
strata_status room_set_str(strata_world *w, uint64_t uid, const char *rec, const char *field,
                           const char *s, int may_be_empty, strata_error *err);
/* The error of a uid that is no live object of kind. */
strata_status room_not(strata_error *err, const char *kind, uint64_t uid);

#endif
