/*
** griddial.h - the fixed-point bucket queue of Dijkstra on padded class
** grids (Dial's buckets), shared by the pair search of gridflood.c and the
** distance maps of distmap.c.
**
** A cell's key is its distance in fixed point with 4 low bits of flags: the
** direction it was reached from (3 bits) and KEY_SETTLED. Walls hold 0 (no
** offer is below it), unseen cells KEY_UNSEEN. Buckets hold cells by their
** distance; an offer is written at its bucket's tail whether or not it is
** nearer, and the tail moves on only when it is (no branch: which
** neighbours improve looks random to the predictor).
*/
#ifndef STRATA_GRIDDIAL_H
#define STRATA_GRIDDIAL_H

#include <stdint.h>

#include "util.h"

#define KEY_SETTLED 8u
#define KEY_LOW 15u          /* the direction and KEY_SETTLED */
#define KEY_UNSEEN UINT64_MAX

/* The cells of one bucket. */
typedef struct cell_list {
  uint32_t *items;
  uint32_t len, cap;
} cell_list;

/* Room for n more cells in list l; 0 on ENOMEM. */
static inline int list_room(cell_list *l, uint32_t n) {
  return l->len + n <= l->cap || STRATA_GROW32(l->items, l->cap, (size_t)l->len + n);
}

/* Offers the cell at pv (index v) the key c (distance and direction): if
** its distance is less, c replaces the cell's key and v is written at its
** bucket's tail (written there anyway; the tail moves on only then). One
** compare: cl, c with its low bits set, is below the cell's key only if c's
** distance is. The item first and the length by the compare alone: gcc
** makes that a compare and an add with carry, no set-and-widen. */
static inline __attribute__((always_inline)) size_t relax(uint64_t *pv, uint32_t *items, size_t len,
                                                          uint32_t v, uint64_t c, uint64_t cl) {
  const uint64_t kv = *pv;
  items[len] = v;
  len += cl < kv;
  *pv = kv > cl ? c : kv;
  return len;
}

#endif
