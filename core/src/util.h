/*
** util.h - the core's one growth rule for arrays (as Lua's luaM_growvector).
** The other shared small things are public, the binding uses them too:
** strata_strdup (alloc.h), strata_error_nomem and strata_nearest (error.h).
*/
#ifndef STRATA_UTIL_H
#define STRATA_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Makes the array at *pp (a pointer to any object pointer; elements of elem
** bytes, *cap of them) hold at least need elements: when it holds fewer, it
** grows to twice its capacity, or to need when that is more (8 at the least).
** 1 on success; 0 when memory runs out or the bytes would overflow a size_t,
** the array and *cap then unchanged. */
int strata_grow(void *pp, size_t *cap, size_t need, size_t elem);

/* strata_grow for an array lvalue arr of any element type, cap its size_t
** capacity: `if (!STRATA_GROW(l->items, l->cap, l->n + 1)) return nomem;`. */
#define STRATA_GROW(arr, cap, need) strata_grow(&(arr), &(cap), (need), sizeof *(arr))

/* The same for a 32-bit capacity (the searches keep their state small): at
** most UINT32_MAX elements. */
int strata_grow32(void *pp, uint32_t *cap, size_t need, size_t elem);
#define STRATA_GROW32(arr, cap, need) strata_grow32(&(arr), &(cap), (need), sizeof *(arr))

#endif
