/*
** world_recs.c - the world's object records, and its pages of slots (the
** objects by uid), carved from large chunks.
**
** Why: a world of a million objects is a heap of gigabytes, and a call that
** reads a dozen records far apart paid a page walk for each (on 4 KB pages
** the time of a journey grew 1.6x from 1,000 to 100,000 areas while its
** instructions stayed the same). Records carved one after the other from
** chunks sit side by side in creation order (an area beside its floors), on
** few pages, and the big chunks ask the kernel for huge pages
** (strata_hugepages), so that the records of a big world are reached from a
** few hundred TLB entries.
**
** The chunks come from strata_malloc: a host's allocator (and the Lua
** sandbox's memory count) sees them as it sees every block. They double
** with the pool (the first is small: a world of a few objects takes a few
** KB), up to REC_CHUNK_MAX. A pool holds items of one size: a freed one
** goes to a free list and is reused first; the chunks are freed with the
** world. Under ASan the items not in use are poisoned, so that a read after
** free is still caught. The pages of slots, which every lookup by uid
** reads, have a pool of their own.
*/
#include "world_internal.h"
#include "prefault.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdint.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#define RECS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECS_ASAN 1
#endif
#endif
#ifdef RECS_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define REC_CHUNK_MIN ((size_t)32 * 1024)
/* 8 MB: at least three of its four 2 MB stretches are whole huge pages
** wherever the allocator puts it. */
#define REC_CHUNK_MAX ((size_t)8 << 20)

/* The chunk holding p, or NULL: a record allocated alone (a packed one). */
static const struct rec_chunk *chunk_of(const struct rec_pool *pool, const void *p) {
  size_t lo = 0, hi = pool->n;
  uintptr_t a = (uintptr_t)p;
  while (lo < hi) { /* the last chunk starting at or before p */
    size_t mid = lo + (hi - lo) / 2;
    if ((uintptr_t)pool->chunks[mid].at <= a) lo = mid + 1;
    else hi = mid;
  }
  if (lo == 0) return NULL;
  const struct rec_chunk *c = &pool->chunks[lo - 1];
  return a - (uintptr_t)c->at < c->bytes ? c : NULL;
}

/* A new chunk to carve into items of `size` bytes, kept in address order;
** 0: out of memory. */
static int add_chunk(struct rec_pool *pool, size_t size) {
  size_t bytes = pool->bytes < REC_CHUNK_MIN ? REC_CHUNK_MIN : pool->bytes;
  if (bytes > REC_CHUNK_MAX) bytes = REC_CHUNK_MAX;
  if (!STRATA_GROW(pool->chunks, pool->cap, pool->n + 1)) return 0;
  unsigned char *at = strata_malloc(bytes);
  if (!at) return 0;
  strata_hugepages(at, bytes);
  POISON(at, bytes);
  size_t i = pool->n;
  while (i > 0 && (uintptr_t)pool->chunks[i - 1].at > (uintptr_t)at) {
    pool->chunks[i] = pool->chunks[i - 1];
    i--;
  }
  pool->chunks[i].at = at;
  pool->chunks[i].bytes = bytes;
  pool->n++;
  pool->bytes += bytes;
  pool->next = at;
  pool->end = at + bytes / size * size;
  return 1;
}

void *world_pool_take(struct rec_pool *pool, size_t size) {
  unsigned char *p;
  if (pool->free) {
    p = pool->free;
    UNPOISON(p, size);
    memcpy(&pool->free, p, sizeof pool->free);
  } else {
    if ((size_t)(pool->end - pool->next) < size && !add_chunk(pool, size)) return NULL;
    p = pool->next;
    pool->next += size;
    UNPOISON(p, size);
  }
  memset(p, 0, size);
  return p;
}

void world_pool_give(struct rec_pool *pool, void *p, size_t size) {
  memcpy(p, &pool->free, sizeof pool->free);
  pool->free = p;
  POISON(p, size); /* the link too: it is read after UNPOISON */
}

void world_recs_put(strata_world *w, object_rec *r) {
  if (chunk_of(&w->recs, r)) world_pool_give(&w->recs, r, sizeof *r);
  else strata_free(r);
}

void world_pool_free(struct rec_pool *pool) {
  for (size_t i = 0; i < pool->n; i++) {
    UNPOISON(pool->chunks[i].at, pool->chunks[i].bytes);
    strata_free(pool->chunks[i].at);
  }
  strata_free(pool->chunks);
  memset(pool, 0, sizeof *pool);
}
