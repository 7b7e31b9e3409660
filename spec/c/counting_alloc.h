/*
** counting_alloc.h - an allocator (strata/alloc.h) for the tests that count
** what the core allocates: blocks live, new blocks, calls (new blocks and
** resizes), and a switch that makes every allocation fail. Each block
** carries a header, so that a block freed by the wrong allocator is caught.
**
**   counter c = {0, 0, 0, 0};
**   strata_allocator a = { count_malloc, count_realloc, count_free, &c };
*/
#ifndef STRATA_COUNTING_ALLOC_H
#define STRATA_COUNTING_ALLOC_H

#include <stdlib.h>

typedef struct counter {
  long live;   /* blocks allocated and not freed */
  long blocks; /* new blocks (malloc, and realloc of NULL) */
  long calls;  /* new blocks and resizes */
  int fail;    /* nonzero: every allocation fails */
} counter;
enum { COUNT_HEADER = 16 };

static void *count_malloc(void *ud, size_t size) {
  counter *c = ud;
  if (c->fail) return NULL;
  char *p = malloc(COUNT_HEADER + size);
  if (!p) return NULL;
  c->live++, c->blocks++, c->calls++;
  return p + COUNT_HEADER;
}
static void *count_realloc(void *ud, void *ptr, size_t size) {
  counter *c = ud;
  if (!ptr) return count_malloc(ud, size);
  if (c->fail) return NULL;
  c->calls++;
  char *p = realloc((char *)ptr - COUNT_HEADER, COUNT_HEADER + size);
  return p ? p + COUNT_HEADER : NULL;
}
static void count_free(void *ud, void *ptr) {
  counter *c = ud;
  if (!ptr) return;
  c->live--;
  free((char *)ptr - COUNT_HEADER);
}

#endif
