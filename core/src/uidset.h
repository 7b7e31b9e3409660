/*
** uidset.h - a set of uids (never 0): open addressing over a power-of-two
** array, for the world's record of what changed since the last save. An
** insert that cannot grow the array says so (0) and leaves the set as it
** was, so that the caller can fall back to "everything changed".
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

#endif
