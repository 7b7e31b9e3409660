/*
** value_internal.h - what the core asks of encoded values (value.c) without
** decoding them: the loader keeps an object's properties encoded until they
** are first read (world_props.c), and must know then that decoding cannot
** fail but for want of memory.
*/
#ifndef STRATA_VALUE_INTERNAL_H
#define STRATA_VALUE_INTERNAL_H

#include <stddef.h>

/* 1 when strata_value_decode of the n bytes at p gives a table whose tables
** (it and those inside it) have at most STRATA_VTABLE_INDEX_MIN pairs each,
** and can fail only for want of memory; 0 otherwise (malformed: decoding
** says what is wrong; or larger tables, decoded at once). Allocates nothing. */
int value_check_small(const unsigned char *p, size_t n);

#endif
