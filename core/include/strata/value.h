/*
** value.h - the serializable value tree: everything world state may hold.
**
** A strata_value is nil, a boolean, an integer, a float, a string, a table
** (keys are strings or integers, values are values) or a reference to a
** world object by uid. Nothing else can be expressed, which is how the core
** guarantees that no function ever reaches a save.
**
** Ownership: a strata_value owns its string bytes and its table, which owns
** its keys and values. strata_value_clear frees them; copying is explicit
** (strata_value_copy). Values are plain structs, safe to move with memcpy.
*/
#ifndef STRATA_VALUE_H
#define STRATA_VALUE_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum strata_vtype {
  STRATA_VNIL = 0,
  STRATA_VBOOL,
  STRATA_VINT,
  STRATA_VFLOAT,
  STRATA_VSTRING,
  STRATA_VTABLE,
  STRATA_VREF
} strata_vtype;

typedef struct strata_vtable strata_vtable;

typedef struct strata_value {
  strata_vtype type;
  union {
    int b;
    int64_t i;
    double f;
    struct { char *s; size_t len; } str; /* NUL-terminated as well */
    strata_vtable *t;
    uint64_t ref;
  } u;
} strata_value;

struct strata_vtable {
  size_t n, cap;
  strata_value *keys; /* STRATA_VSTRING or STRATA_VINT only; read only: a world's
                      ** objects' tables of the same keys may share one array (a
                      ** grid spawn's rooms and exits: static ones, and their
                      ** tables one block, changed only through strata_object_set) */
  strata_value *vals; /* never STRATA_VNIL: setting nil removes the key */
  /* A hash index of the keys (slot: key index + 1, 0: empty), kept by
  ** value.c once the table holds more than STRATA_VTABLE_INDEX_MIN keys, so
  ** that a lookup costs the same in a table of ten or of a million (a
  ** world's list of areas, a branch's chunks). NULL below that. Tables are
  ** changed only through the functions below, which keep it. */
  size_t *slots;
  size_t nslots;      /* a power of two, at least twice cap */
};

/* Tables of up to this many keys are searched front to back. */
#define STRATA_VTABLE_INDEX_MIN 16

/* Nesting deeper than this is refused (by conversion, by setting a value
** at a path, by encoding and by decoding: one limit, so whatever saves
** opens), so that a hostile file or table cannot exhaust the C stack. The
** root of a stored value is level 0 and each table's keys and values one
** level deeper than the table; a value set at a path of n keys starts at
** level n. */
#define STRATA_VALUE_MAX_DEPTH 64

/* Constructors for scalars; they never fail. */
STRATA_API strata_value strata_value_nil(void);
STRATA_API strata_value strata_value_bool(int b);
STRATA_API strata_value strata_value_int(int64_t i);
STRATA_API strata_value strata_value_float(double f);
STRATA_API strata_value strata_value_ref(uint64_t uid);
/* Copies len bytes of s into a new string value. */
STRATA_API strata_status strata_value_string(strata_value *out, const char *s, size_t len, strata_error *err);
/* An empty table. */
STRATA_API strata_status strata_value_table(strata_value *out, strata_error *err);

/* Frees what v owns and leaves v nil. */
STRATA_API void strata_value_clear(strata_value *v);
/* Deep copy of src into *dst (dst is overwritten, not freed). */
STRATA_API strata_status strata_value_copy(strata_value *dst, const strata_value *src, strata_error *err);
/* Deep equality; integers and floats are different types. */
STRATA_API int strata_value_equal(const strata_value *a, const strata_value *b);
/* Bytes owned by v (the tree below it, not v itself): for budgets and benchmarks. */
STRATA_API size_t strata_value_size(const strata_value *v);

/* Table access. key must be a string or an integer value. get returns NULL when
** absent. set takes ownership of *val (left nil) on success; a nil val removes
** the key. On failure t and val are unchanged. */
STRATA_API strata_value *strata_vtable_get(const strata_vtable *t, const strata_value *key);
STRATA_API strata_value *strata_vtable_get_str(const strata_vtable *t, const char *key);
STRATA_API strata_status strata_vtable_set(strata_vtable *t, const strata_value *key, strata_value *val,
                                strata_error *err);

/* A growable byte buffer for the encoding. */
typedef struct strata_buffer {
  unsigned char *data;
  size_t len, cap;
} strata_buffer;
STRATA_API void strata_buffer_free(strata_buffer *b);

/* STRATA_EARG "tables nested deeper than 64 levels ..." unless every part of
** v, put `level` deep, is within STRATA_VALUE_MAX_DEPTH. */
STRATA_API strata_status strata_value_check_depth(const strata_value *v, size_t level, strata_error *err);

/* Compact binary encoding (one tag byte, varints, little-endian floats),
** appended to out; a value nested deeper than STRATA_VALUE_MAX_DEPTH is
** refused (STRATA_EARG), as decoding would refuse it. */
STRATA_API strata_status strata_value_encode(const strata_value *v, strata_buffer *out, strata_error *err);
/* Decodes exactly len bytes into *out; truncated, trailing or malformed input
** is an error (STRATA_EPARSE) and *out is left nil. */
STRATA_API strata_status strata_value_decode(strata_value *out, const unsigned char *data, size_t len,
                                  strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
