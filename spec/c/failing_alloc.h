/*
** failing_alloc.h - allocations that fail on purpose, for the tests that make
** every allocation of an operation fail in turn. A test including this header
** names __wrap_malloc, so CMake links it with the allocator wrapped
** (-Wl,--wrap=malloc,...). While `armed`, the fail_at-th allocation (counting
** from 1 in `allocations`) returns NULL.
*/
#ifndef STRATA_FAILING_ALLOC_H
#define STRATA_FAILING_ALLOC_H

#include <stddef.h>

static int armed;
static long allocations, fail_at;

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

static int fail_now(void) { return armed && ++allocations == fail_at; }
void *__wrap_malloc(size_t n) { return fail_now() ? NULL : __real_malloc(n); }
void *__wrap_calloc(size_t n, size_t size) { return fail_now() ? NULL : __real_calloc(n, size); }
void *__wrap_realloc(void *p, size_t n) { return fail_now() ? NULL : __real_realloc(p, n); }
void __wrap_free(void *p) { __real_free(p); }

#endif
