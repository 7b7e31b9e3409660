/*
** alloc.h - the memory strata allocates, and the allocator it comes from.
**
** Every block strata allocates for itself, and every block it hands a caller
** to free (rendered text, pictures), comes from strata_malloc & co., which
** call the allocator set here or, by default, the C library's. A host that
** counts or limits memory (the Lua sandbox does, per mod) sets one allocator
** first; a block strata hands out is then freed with strata_free, never
** free(). Blocks a host hands strata to free (strata_call.message, the nodes
** of a strata_path it fills itself) come from strata_malloc too.
**
** Not through it: the memory of SQLite (saves) and zlib (PNG compression),
** which they allocate and free themselves.
**
** A world's object records come from chunks of this allocator's (doubling
** up to 8 MB, kept until the world is freed), and on Linux strata asks the
** kernel for transparent huge pages for the whole 2 MB pages inside each
** (madvise(MADV_HUGEPAGE)): a big world's records then sit on few pages.
**
** The allocator is process-wide, like SQLite's SQLITE_CONFIG_MALLOC: set it
** once, before any other strata function, and do not change it while strata
** may be running on another thread.
*/
#ifndef STRATA_ALLOC_H
#define STRATA_ALLOC_H

#include "strata/api.h"

#include <stddef.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The functions strata allocates with. Each is called as C's would be
** (malloc(0) and realloc(p, 0) included) and may be called from any thread
** strata runs on; ud is handed back to each. */
typedef struct strata_allocator {
  void *(*malloc)(void *ud, size_t size);             /* NULL when it cannot */
  void *(*realloc)(void *ud, void *ptr, size_t size); /* ptr NULL: as malloc; NULL when it
                                                      ** cannot, ptr then unchanged */
  void (*free)(void *ud, void *ptr);                  /* ptr may be NULL */
  void *ud;
} strata_allocator;

/* Every block strata allocates from now on goes through a (copied; all three
** functions set, else STRATA_EARG); NULL restores the C library's. Call it
** before any other strata function: once strata has allocated anything, it
** refuses with STRATA_ESTATE (setting the allocator already set is fine). */
STRATA_API strata_status strata_set_allocator(const strata_allocator *a, strata_error *err);

/* As C's malloc, calloc, realloc and free, through the allocator set above:
** NULL when memory runs out (or n * size overflows). */
STRATA_API void *strata_malloc(size_t size);
STRATA_API void *strata_calloc(size_t n, size_t size);
STRATA_API void *strata_realloc(void *ptr, size_t size);
STRATA_API void strata_free(void *ptr); /* NULL is accepted */

/* A copy of s (NUL-terminated), or of the n bytes at s plus a NUL (all n
** are copied, NULs included), freed with strata_free; NULL for NULL or when
** memory runs out. */
STRATA_API char *strata_strdup(const char *s);
STRATA_API char *strata_strndup(const char *s, size_t n);

#ifdef __cplusplus
}
#endif
#endif
