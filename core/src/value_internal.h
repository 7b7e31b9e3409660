/*
** value_internal.h - what the core asks of encoded values (value.c) without
** decoding them: the loader keeps an object's properties encoded until they
** are first read (world_props.c), and must know then that decoding cannot
** fail but for want of memory.
*/
#ifndef STRATA_VALUE_INTERNAL_H
#define STRATA_VALUE_INTERNAL_H

#include <stddef.h>

#include "strata/value.h"

/* 1 when strata_value_decode of the n bytes at p gives a table whose tables
** (it and those inside it) have at most STRATA_VTABLE_INDEX_MIN pairs each,
** and can fail only for want of memory; 0 otherwise (malformed: decoding
** says what is wrong; or larger tables, decoded at once). Allocates nothing. */
int value_check_small(const unsigned char *p, size_t n);

/* Arrays of keys that small tables share (value_share_keys): a world reads
** a million objects' properties of a few shapes ({hp, name, gold}), and a
** table's keys are two thirds of its block. Owned by whoever owns the
** tables (a world), freed after them (value_shapes_free). */
typedef struct value_shape {
  strata_value *keys;
  size_t n;
} value_shape;
typedef struct value_shapes {
  value_shape *v;
  size_t n, cap;
} value_shapes;
/* At most this many shapes are kept: past them, tables keep their own keys. */
#define VALUE_SHAPES_MAX 64

/* Makes the table *v, as strata_value_decode made it (of at most
** STRATA_VTABLE_INDEX_MIN pairs), hold only its values, its keys those of
** shapes of the same keys in the same order (added there when new). Its
** values stay where they were; the table stays a table to every function
** of value.h (a table with shared keys copies them for itself when a key
** is added or removed). Out of memory or shapes full: v is left as it was. */
void value_share_keys(strata_value *v, value_shapes *shapes);
void value_shapes_free(value_shapes *shapes);

/* A packed tree: tables and strings laid out in one block that is freed as
** one (a world's packed object, world_internal.h): a spawned grid room or
** exit costs one allocation instead of twenty-five. Its keys are borrowed
** (static arrays that outlive it), never copied; tables hold at most
** STRATA_VTABLE_INDEX_MIN pairs (no index). It is never changed in place:
** whoever would change it copies it first (strata_value_copy makes ordinary
** tables). Built twice by the same code: measuring (block NULL: the tables
** handed out are scratch) gives the size, then filling a block of it. */
typedef struct value_pack {
  unsigned char *block;    /* NULL: measuring */
  size_t used;
  strata_vtable scratch;
  strata_value scratch_vals[STRATA_VTABLE_INDEX_MIN], scratch_keys[STRATA_VTABLE_INDEX_MIN];
} value_pack;
/* A table of the n keys at keys (borrowed), its values to be set by the
** caller (each of them, never nil); n <= STRATA_VTABLE_INDEX_MIN. */
strata_value value_pack_table(value_pack *p, const strata_value *keys, size_t n);
/* A copy of the len bytes at s. */
strata_value value_pack_string(value_pack *p, const char *s, size_t len);
/* 1 when v can be copied into a packed tree: each table in it holds at most
** STRATA_VTABLE_INDEX_MIN pairs. */
int value_packable(const strata_value *v);
/* A copy of v (value_packable), its tables' keys copied too. */
strata_value value_pack_copy(value_pack *p, const strata_value *v);

#endif
