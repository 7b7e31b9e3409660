/*
** uidset.h - a set of uids (never 0): open addressing over a power-of-two
** array, for the world's record of what changed since the last save. An
** insert that cannot grow the array says so (0) and leaves the set as it
** was, so that the caller can fall back to "everything changed".
**
** uidmap: the same, with a value per uid (where each timer is in the world's
** heap).
*/
#ifndef STRATA_UIDSET_H
#define STRATA_UIDSET_H

#include <stddef.h>
#include <stdint.h>

typedef struct uidset {
  uint64_t *keys; /* 0: an empty slot */
  size_t n, cap;  /* cap: 0 or a power of two, at most half full */
} uidset;

/* 1 when uid is in the set afterwards, 0 when out of memory. */
int uidset_add(uidset *s, uint64_t uid);
int uidset_has(const uidset *s, uint64_t uid);
/* Empties the set; a large array is given back, a small one kept. */
void uidset_clear(uidset *s);
void uidset_free(uidset *s);

/* uid -> index. A removal moves the entries after it back (no tombstones) and
** the array never shrinks, so that putting back a uid taken out since the
** last put of a new one needs no memory (a savepoint's rollback). */
typedef struct uidmap_entry {
  uint64_t uid; /* 0: an empty slot */
  size_t at;
} uidmap_entry;

typedef struct uidmap {
  uidmap_entry *e;
  size_t n, cap;  /* cap: 0 or a power of two, at most half full */
} uidmap;

/* Room for n entries: 0 when out of memory (the map as it was). */
int uidmap_reserve(uidmap *m, size_t n);
/* Sets uid's value, adding uid (never 0) when absent: 0 when that needs
** memory there is none of (the map as it was). */
int uidmap_put(uidmap *m, uint64_t uid, size_t at);
/* uid's value, to read or change; NULL when absent. */
size_t *uidmap_get(const uidmap *m, uint64_t uid);
void uidmap_del(uidmap *m, uint64_t uid);
void uidmap_free(uidmap *m);

#endif
