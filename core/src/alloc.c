/*
** alloc.c - strata_malloc & co.: every block strata allocates for itself.
**
** The allocator is the one deliberate process-wide setting of the library:
** a host that counts memory sets it once, before anything else, as SQLite's
** SQLITE_CONFIG_MALLOC is set. Allocation is hot (a search, a layout, a save
** all allocate), so a call costs a test of `set` and one relaxed load of
** `used`; `used` is written once, by the first allocation.
*/
#include "strata/alloc.h"
#include "util.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct {
  strata_allocator a;
  int set;          /* nonzero: a is the allocator, else the C library's */
  atomic_int used;  /* nonzero once anything was allocated: a may no longer change */
} alloc_state;

static inline void mark_used(void) {
  if (!atomic_load_explicit(&alloc_state.used, memory_order_relaxed))
    atomic_store_explicit(&alloc_state.used, 1, memory_order_relaxed);
}

strata_status strata_set_allocator(const strata_allocator *a, strata_error *err) {
  if (a && (!a->malloc || !a->realloc || !a->free))
    return strata_error_in(err, STRATA_EARG, "strata_set_allocator",
                           "malloc, realloc and free must all be set");
  int same = a ? alloc_state.set && !memcmp(&alloc_state.a, a, sizeof *a) : !alloc_state.set;
  if (same) return STRATA_OK;
  if (atomic_load_explicit(&alloc_state.used, memory_order_relaxed))
    return strata_error_in(err, STRATA_ESTATE, "strata_set_allocator",
                           "strata has allocated memory already: set the allocator before "
                           "any other strata function");
  if (a) alloc_state.a = *a;
  alloc_state.set = a != NULL;
  return STRATA_OK;
}

void *strata_malloc(size_t size) {
  mark_used();
  return alloc_state.set ? alloc_state.a.malloc(alloc_state.a.ud, size) : malloc(size);
}

void *strata_calloc(size_t n, size_t size) {
  if (!alloc_state.set) {
    mark_used();
    return calloc(n, size);
  }
  if (size && n > SIZE_MAX / size) return NULL;
  void *p = strata_malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

void *strata_realloc(void *ptr, size_t size) {
  mark_used();
  return alloc_state.set ? alloc_state.a.realloc(alloc_state.a.ud, ptr, size)
                         : realloc(ptr, size);
}

void strata_free(void *ptr) {
  if (alloc_state.set) alloc_state.a.free(alloc_state.a.ud, ptr);
  else free(ptr);
}

char *strata_strndup(const char *s, size_t n) {
  if (!s || n == SIZE_MAX) return NULL;
  char *p = strata_malloc(n + 1);
  if (!p) return NULL;
  memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

char *strata_strdup(const char *s) {
  return s ? strata_strndup(s, strlen(s)) : NULL;
}

/* The one body of strata_grow and strata_grow32: at most max elements. */
static int grow_upto(void *pp, size_t *cap, size_t need, size_t elem, size_t max) {
  if (need <= *cap) return 1;
  if (elem && max > SIZE_MAX / elem) max = SIZE_MAX / elem;
  if (need > max) return 0;
  size_t c = *cap ? *cap : 8;
  while (c < need) c = c > max / 2 ? need : c * 2; /* doubling past max: need alone */
  if (c > max) c = need;
  /* *pp is read and written as bytes: it may be a pointer of any object type. */
  void *old, *p;
  memcpy(&old, pp, sizeof old);
  if (!(p = strata_realloc(old, c * elem))) return 0;
  memcpy(pp, &p, sizeof p);
  *cap = c;
  return 1;
}

int strata_grow(void *pp, size_t *cap, size_t need, size_t elem) {
  return grow_upto(pp, cap, need, elem, SIZE_MAX);
}

int strata_grow32(void *pp, uint32_t *cap, size_t need, size_t elem) {
  size_t c = *cap;
  if (!grow_upto(pp, &c, need, elem, UINT32_MAX)) return 0;
  *cap = (uint32_t)c;
  return 1;
}
