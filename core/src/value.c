/* value.c - the serializable value tree: copy, equality, tables, encoding. */
#include "strata/value.h"
#include "strata/alloc.h"
#include "value_internal.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

strata_value strata_value_nil(void) { strata_value v; memset(&v, 0, sizeof v); return v; }
strata_value strata_value_bool(int b) { strata_value v = strata_value_nil(); v.type = STRATA_VBOOL; v.u.b = b != 0; return v; }
strata_value strata_value_int(int64_t i) { strata_value v = strata_value_nil(); v.type = STRATA_VINT; v.u.i = i; return v; }
strata_value strata_value_float(double f) { strata_value v = strata_value_nil(); v.type = STRATA_VFLOAT; v.u.f = f; return v; }
strata_value strata_value_ref(uint64_t uid) { strata_value v = strata_value_nil(); v.type = STRATA_VREF; v.u.ref = uid; return v; }

static int index_build(strata_vtable *t, size_t cap);


/* One limit for what is set, encoded and decoded: whatever saves opens. */
static strata_status too_deep(strata_error *err) {
  return strata_error_set(err, STRATA_EARG, "tables nested deeper than %d levels (the limit of a saved value)",
                          STRATA_VALUE_MAX_DEPTH);
}

strata_status strata_value_string(strata_value *out, const char *s, size_t len, strata_error *err) {
  char *p = strata_strndup(len ? s : "", len);
  if (!p) return strata_error_nomem(err, NULL);
  *out = strata_value_nil();
  out->type = STRATA_VSTRING;
  out->u.str.s = p;
  out->u.str.len = len;
  return STRATA_OK;
}

/* A table made with room for n pairs (decoding, copying: n known) holds its
** arrays in its own block, after the header: one allocation instead of
** three (an opened world's object has a table of a few properties). It
** moves them out when it outgrows them (strata_vtable_set), leaving that
** room unused until the table is freed (strata_value_size no longer counts
** it: a table decoded and then grown is rare). A table decoded or copied
** holds its string keys' bytes there too, after the arrays (`text` bytes):
** a key inside the block is not freed alone. Keys never leave their table
** (readers only read them), so such a key lives as long as the block. */
typedef struct table_block {
  strata_vtable t;
  size_t bytes;            /* the whole block */
} table_block;

static strata_value *inline_keys(const strata_vtable *t) {
  return (strata_value *)((const table_block *)t + 1);
}
static int arrays_inline(const strata_vtable *t) { return t->keys == inline_keys(t); }

static int key_in_block(const strata_vtable *t, const strata_value *k) {
  const char *b = (const char *)t;
  return k->type == STRATA_VSTRING && k->u.str.s > b && k->u.str.s < b + ((const table_block *)t)->bytes;
}
static void key_clear(const strata_vtable *t, strata_value *k) {
  if (key_in_block(t, k)) *k = strata_value_nil();
  else strata_value_clear(k);
}

/* A table whose keys are shared (value_share_keys) is a bare strata_vtable
** followed by its values, its keys those of a shape: no table_block puts
** its values there (the arrays of one start after its `bytes`; arrays
** moved out are blocks of their own). It copies the keys for itself before
** a key is added or removed (unshare). */
static int keys_shared(const strata_vtable *t) { return t->vals == (const strata_value *)(t + 1); }

/* Gives t keys and values arrays of its own (room for twice its pairs); 0:
** out of memory, and t as it was. The values' room in t's block is left
** unused, its first bytes made the table_block's `bytes` (the block's size),
** so that no key is taken for one in the block. */
static int unshare(strata_vtable *t) {
  size_t cap = t->n * 2 < 4 ? 4 : t->n * 2, i;
  strata_value *k = strata_malloc(cap * sizeof *k), *v = strata_malloc(cap * sizeof *v);
  for (i = 0; k && v && i < t->n; i++)
    if (strata_value_copy(&k[i], &t->keys[i], NULL)) break;
  if (!k || !v || i < t->n) {
    while (k && i > 0) strata_value_clear(&k[--i]);
    strata_free(k);
    strata_free(v);
    return 0;
  }
  memcpy(v, t->vals, t->n * sizeof *v);
  ((table_block *)t)->bytes = sizeof *t + t->n * sizeof *t->vals; /* n >= 1: past the header */
  t->keys = k;
  t->vals = v;
  t->cap = cap;
  return 1;
}

/* Where a table made by table_sized(n, text) keeps its keys' bytes. */
typedef struct key_room { char *at, *end; } key_room;

static key_room block_room(strata_vtable *t, size_t n) {
  key_room r = { (char *)(inline_keys(t) + 2 * n), (char *)t + ((table_block *)t)->bytes };
  return r;
}
/* Makes *k the string s (len bytes) in the block's room; 0 when it does not fit. */
static int key_place(key_room *room, strata_value *k, const char *s, size_t len) {
  if ((size_t)(room->end - room->at) <= len) return 0;
  memcpy(room->at, s, len);
  room->at[len] = '\0';
  *k = strata_value_nil();
  k->type = STRATA_VSTRING;
  k->u.str.s = room->at;
  k->u.str.len = len;
  room->at += len + 1;
  return 1;
}

static strata_status table_sized(strata_value *out, size_t n, size_t text, strata_error *err) {
  size_t bytes = sizeof(table_block) + 2 * n * sizeof(strata_value) + text;
  table_block *b = strata_calloc(1, bytes);
  if (!b) return strata_error_nomem(err, NULL);
  strata_vtable *t = &b->t;
  b->bytes = bytes;
  if (n) {
    t->keys = inline_keys(t);
    t->vals = t->keys + n;
    t->cap = n;
  }
  *out = strata_value_nil();
  out->type = STRATA_VTABLE;
  out->u.t = t;
  return STRATA_OK;
}

strata_status strata_value_table(strata_value *out, strata_error *err) { return table_sized(out, 0, 0, err); }

void strata_value_clear(strata_value *v) {
  if (!v) return;
  if (v->type == STRATA_VSTRING) {
    strata_free(v->u.str.s);
  } else if (v->type == STRATA_VTABLE) {
    strata_vtable *t = v->u.t;
    int shared = keys_shared(t);
    for (size_t i = 0; i < t->n; i++) {
      if (!shared) key_clear(t, &t->keys[i]);
      strata_value_clear(&t->vals[i]);
    }
    if (!arrays_inline(t) && !shared) {
      strata_free(t->keys);
      strata_free(t->vals);
    }
    strata_free(t->slots);
    strata_free(t);
  }
  *v = strata_value_nil();
}

strata_status strata_value_copy(strata_value *dst, const strata_value *src, strata_error *err) {
  if (src->type == STRATA_VSTRING) return strata_value_string(dst, src->u.str.s, src->u.str.len, err);
  if (src->type != STRATA_VTABLE) { *dst = *src; return STRATA_OK; }
  strata_value out;
  const strata_vtable *s = src->u.t;
  size_t text = 0;
  for (size_t i = 0; i < s->n; i++)
    if (s->keys[i].type == STRATA_VSTRING) text += s->keys[i].u.str.len + 1;
  if (table_sized(&out, s->n, text, err)) return err ? err->status : STRATA_ENOMEM;
  strata_vtable *t = out.u.t;
  key_room room = block_room(t, s->n);
  for (size_t i = 0; i < s->n; i++) {
    const strata_value *k = &s->keys[i];
    strata_status st = STRATA_OK;
    if (k->type != STRATA_VSTRING || !key_place(&room, &t->keys[i], k->u.str.s, k->u.str.len))
      st = strata_value_copy(&t->keys[i], k, err);
    if (st == STRATA_OK) {
      st = strata_value_copy(&t->vals[i], &s->vals[i], err);
      if (st) key_clear(t, &t->keys[i]);
    }
    if (st) { strata_value_clear(&out); return st; }
    t->n++;
  }
  if (t->n > STRATA_VTABLE_INDEX_MIN && !index_build(t, t->cap)) { strata_value_clear(&out); return strata_error_nomem(err, NULL); }
  *dst = out;
  return STRATA_OK;
}

static int key_equal(const strata_value *a, const strata_value *b) {
  if (a->type != b->type) return 0;
  if (a->type == STRATA_VINT) return a->u.i == b->u.i;
  return a->u.str.len == b->u.str.len && memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
}

/* ---- the hash index of a large table (value.h) ----
** Open addressing with linear probing; a removal shifts the entries after
** it back (no tombstones), so it needs no allocation: a rollback removes
** keys and must not fail. */

static size_t key_hash(const strata_value *k) {
  uint64_t h;
  if (k->type == STRATA_VINT) {
    h = (uint64_t)k->u.i * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  } else {
    h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < k->u.str.len; i++) h = (h ^ (unsigned char)k->u.str.s[i]) * 1099511628211ull;
    h ^= h >> 31;
  }
  return (size_t)h;
}

/* The slot holding key index i (which is indexed). */
static size_t slot_of(const strata_vtable *t, size_t i) {
  size_t mask = t->nslots - 1, s = key_hash(&t->keys[i]) & mask;
  while (t->slots[s] != i + 1) s = (s + 1) & mask;
  return s;
}

static void index_put(strata_vtable *t, size_t i) {
  size_t mask = t->nslots - 1, s = key_hash(&t->keys[i]) & mask;
  while (t->slots[s]) s = (s + 1) & mask;
  t->slots[s] = i + 1;
}

/* An index with room for `cap` keys, of the keys there are. 0: out of
** memory, and t as it was. */
static int index_build(strata_vtable *t, size_t cap) {
  size_t n = 16; /* a power of two, for the mask */
  while (n < 2 * cap || n < 2 * (STRATA_VTABLE_INDEX_MIN + 1)) n *= 2;
  size_t *slots = strata_calloc(n, sizeof *slots);
  if (!slots) return 0;
  strata_free(t->slots);
  t->slots = slots;
  t->nslots = n;
  for (size_t i = 0; i < t->n; i++) index_put(t, i);
  return 1;
}

/* Takes key index i out of the index: its slot emptied, the run after it
** shifted back where their probes allow. */
static void index_remove(strata_vtable *t, size_t i) {
  size_t mask = t->nslots - 1, hole = slot_of(t, i), j = hole;
  t->slots[hole] = 0;
  for (j = (j + 1) & mask; t->slots[j]; j = (j + 1) & mask) {
    size_t home = key_hash(&t->keys[t->slots[j] - 1]) & mask;
    /* stays when its home is cyclically in (hole, j] */
    if (hole <= j ? (hole < home && home <= j) : (hole < home || home <= j)) continue;
    t->slots[hole] = t->slots[j];
    t->slots[j] = 0;
    hole = j;
  }
}

/* The index of key in t, or (size_t)-1. */
/* Inlined into its two callers: a call of its own cost a fifth of a small
** table's lookup (a grid's respawn, spec/bench/bench_grid_world.lua). */
static inline __attribute__((always_inline)) size_t find_key(const strata_vtable *t,
                                                              const strata_value *key) {
  if (t->slots) {
    size_t mask = t->nslots - 1;
    for (size_t s = key_hash(key) & mask; t->slots[s]; s = (s + 1) & mask)
      if (key_equal(&t->keys[t->slots[s] - 1], key)) return t->slots[s] - 1;
    return (size_t)-1;
  }
  /* A small table, searched front to back: the key's type and length
  ** tested once, not per key (most lookups are of small tables: props). */
  if (key->type == STRATA_VINT) {
    for (size_t i = 0; i < t->n; i++)
      if (t->keys[i].type == STRATA_VINT && t->keys[i].u.i == key->u.i) return i;
    return (size_t)-1;
  }
  const char *s = key->u.str.s;
  size_t len = key->u.str.len;
  for (size_t i = 0; i < t->n; i++) {
    const strata_value *k = &t->keys[i];
    if (k->type == STRATA_VSTRING && k->u.str.len == len && memcmp(k->u.str.s, s, len) == 0) return i;
  }
  return (size_t)-1;
}

strata_value *strata_vtable_get(const strata_vtable *t, const strata_value *key) {
  if (key->type != STRATA_VSTRING && key->type != STRATA_VINT) return NULL;
  size_t i = find_key(t, key);
  return i == (size_t)-1 ? NULL : &t->vals[i];
}

strata_value *strata_vtable_get_str(const strata_vtable *t, const char *key) {
  strata_value k = strata_value_nil();
  k.type = STRATA_VSTRING;
  k.u.str.s = (char *)key;
  k.u.str.len = strlen(key);
  return strata_vtable_get(t, &k);
}

int strata_value_equal(const strata_value *a, const strata_value *b) {
  if (a->type != b->type) return 0;
  switch (a->type) {
  case STRATA_VNIL: return 1;
  case STRATA_VBOOL: return a->u.b == b->u.b;
  case STRATA_VINT: return a->u.i == b->u.i;
  case STRATA_VFLOAT: return a->u.f == b->u.f || (a->u.f != a->u.f && b->u.f != b->u.f);
  case STRATA_VREF: return a->u.ref == b->u.ref;
  case STRATA_VSTRING: return key_equal(a, b);
  case STRATA_VTABLE:
    if (a->u.t->n != b->u.t->n) return 0;
    for (size_t i = 0; i < a->u.t->n; i++) {
      const strata_value *o = strata_vtable_get(b->u.t, &a->u.t->keys[i]);
      if (!o || !strata_value_equal(&a->u.t->vals[i], o)) return 0;
    }
    return 1;
  }
  return 0;
}

size_t strata_value_size(const strata_value *v) {
  if (v->type == STRATA_VSTRING) return v->u.str.len + 1;
  if (v->type != STRATA_VTABLE) return 0;
  size_t n = sizeof(strata_vtable) + v->u.t->cap * 2 * sizeof(strata_value) + v->u.t->nslots * sizeof(size_t);
  for (size_t i = 0; i < v->u.t->n; i++)
    n += strata_value_size(&v->u.t->keys[i]) + strata_value_size(&v->u.t->vals[i]);
  return n;
}

strata_status strata_vtable_set(strata_vtable *t, const strata_value *key, strata_value *val,
                                strata_error *err) {
  if (key->type != STRATA_VSTRING && key->type != STRATA_VINT)
    return strata_error_set(err, STRATA_EARG, "table keys must be strings or integers");
  size_t i = find_key(t, key);
  /* keys added or removed: first the table's own */
  if (keys_shared(t) && (i == (size_t)-1) != (val->type == STRATA_VNIL) && !unshare(t))
    return strata_error_nomem(err, NULL);
  if (i != (size_t)-1) {
    strata_value_clear(&t->vals[i]);
    if (val->type == STRATA_VNIL) {
      size_t last = t->n - 1;
      if (t->slots) {
        index_remove(t, i);
        if (i != last) t->slots[slot_of(t, last)] = i + 1;
      }
      key_clear(t, &t->keys[i]);
      t->keys[i] = t->keys[last];
      t->vals[i] = t->vals[last];
      t->n--;
    } else {
      t->vals[i] = *val;
      *val = strata_value_nil();
    }
    return STRATA_OK;
  }
  if (val->type == STRATA_VNIL) return STRATA_OK;
  if (t->n == t->cap) {
    size_t cap = t->cap ? t->cap * 2 : 4;
    if (arrays_inline(t)) { /* out of the header's block, which keeps its room unused */
      strata_value *k = strata_malloc(cap * sizeof *k), *v = strata_malloc(cap * sizeof *v);
      if (!k || !v) { strata_free(k); strata_free(v); return strata_error_nomem(err, NULL); }
      memcpy(k, t->keys, t->n * sizeof *k);
      memcpy(v, t->vals, t->n * sizeof *v);
      t->keys = k;
      t->vals = v;
    } else {
      strata_value *k = strata_realloc(t->keys, cap * sizeof *k);
      if (!k) return strata_error_nomem(err, NULL);
      t->keys = k;
      strata_value *v = strata_realloc(t->vals, cap * sizeof *v);
      if (!v) return strata_error_nomem(err, NULL);
      t->vals = v;
    }
    t->cap = cap;
  }
  /* the index, made or grown before anything is added: a failure leaves t as it was */
  if (t->n + 1 > STRATA_VTABLE_INDEX_MIN && t->nslots < 2 * t->cap && !index_build(t, t->cap))
    return strata_error_nomem(err, NULL);
  strata_value kc;
  strata_status st = strata_value_copy(&kc, key, err);
  if (st) return st;
  t->keys[t->n] = kc;
  t->vals[t->n] = *val;
  if (t->slots) index_put(t, t->n);
  t->n++;
  *val = strata_value_nil();
  return STRATA_OK;
}

/* ---- encoding --------------------------------------------------------------- */

void strata_buffer_free(strata_buffer *b) {
  strata_free(b->data);
  b->data = NULL;
  b->len = b->cap = 0;
}

static int put(strata_buffer *b, const void *p, size_t n) {
  /* (a first block of 64 bytes: most encoded values fit) */
  if (b->len + n > b->cap && (n > SIZE_MAX - b->len ||
      !STRATA_GROW(b->data, b->cap, b->len + n < 64 ? 64 : b->len + n)))
    return 0;
  memcpy(b->data + b->len, p, n);
  b->len += n;
  return 1;
}

static int put_varint(strata_buffer *b, uint64_t v) {
  unsigned char tmp[10];
  size_t n = 0;
  do {
    unsigned char c = v & 0x7f;
    v >>= 7;
    tmp[n++] = c | (v ? 0x80 : 0);
  } while (v);
  return put(b, tmp, n);
}

/* Tags: 0 nil, 1 false, 2 true, 3 int (zigzag varint), 4 float (8 bytes LE),
** 5 string (varint length + bytes), 6 table (varint count + key/value pairs),
** 7 reference (varint uid). */
static int encode(const strata_value *v, strata_buffer *b, int level) {
  unsigned char tag;
  if (level > STRATA_VALUE_MAX_DEPTH) return -1; /* it would not decode */
  switch (v->type) {
  case STRATA_VNIL: tag = 0; return put(b, &tag, 1);
  case STRATA_VBOOL: tag = v->u.b ? 2 : 1; return put(b, &tag, 1);
  case STRATA_VINT: {
    tag = 3;
    /* zigzag: small magnitudes of either sign take few bytes; the sign is
    ** spread from the unsigned value (a signed right shift is the
    ** compiler's choice) */
    const uint64_t u = (uint64_t)v->u.i;
    uint64_t z = (u << 1) ^ (0 - (u >> 63));
    return put(b, &tag, 1) && put_varint(b, z);
  }
  case STRATA_VFLOAT: {
    tag = 4;
    uint64_t bits;
    memcpy(&bits, &v->u.f, 8);
    unsigned char le[8];
    for (int i = 0; i < 8; i++) le[i] = (unsigned char)(bits >> (8 * i));
    return put(b, &tag, 1) && put(b, le, 8);
  }
  case STRATA_VSTRING:
    tag = 5;
    return put(b, &tag, 1) && put_varint(b, v->u.str.len) && put(b, v->u.str.s, v->u.str.len);
  case STRATA_VTABLE:
    tag = 6;
    if (!put(b, &tag, 1) || !put_varint(b, v->u.t->n)) return 0;
    for (size_t i = 0; i < v->u.t->n; i++) {
      int ok = encode(&v->u.t->keys[i], b, level + 1);
      if (ok > 0) ok = encode(&v->u.t->vals[i], b, level + 1);
      if (ok <= 0) return ok;
    }
    return 1;
  case STRATA_VREF:
    tag = 7;
    return put(b, &tag, 1) && put_varint(b, v->u.ref);
  }
  return 0;
}

strata_status strata_value_encode(const strata_value *v, strata_buffer *out, strata_error *err) {
  size_t mark = out->len;
  int ok = encode(v, out, 0);
  if (ok <= 0) out->len = mark;
  if (ok < 0) return too_deep(err);
  if (ok == 0) return strata_error_nomem(err, NULL);
  return STRATA_OK;
}

/* Whether v, put `level` deep, is at most STRATA_VALUE_MAX_DEPTH deep
** everywhere (the walk stops there: it is bounded by the limit).
** Keys are strings or integers (strata_vtable_set): only values that are
** tables are walked (a call per leaf was 1 % of a grid's spawn). */
static int fits(const strata_value *v, size_t level) {
  if (level > STRATA_VALUE_MAX_DEPTH) return 0;
  if (v->type != STRATA_VTABLE) return 1;
  if (level == STRATA_VALUE_MAX_DEPTH) return v->u.t->n == 0;
  for (size_t i = 0; i < v->u.t->n; i++)
    if (v->u.t->vals[i].type == STRATA_VTABLE && !fits(&v->u.t->vals[i], level + 1)) return 0;
  return 1;
}

strata_status strata_value_check_depth(const strata_value *v, size_t level, strata_error *err) {
  return fits(v, level) ? STRATA_OK : too_deep(err);
}

typedef struct reader {
  const unsigned char *p, *end;
  strata_error *err;
} reader;

static strata_status bad(reader *r, const char *what) {
  return strata_error_set(r->err, STRATA_EPARSE, "malformed value: %s", what);
}

static strata_status get_varint_long(reader *r, uint64_t *out) {
  uint64_t v = 0;
  for (int shift = 0; shift < 64; shift += 7) {
    if (r->p >= r->end) return bad(r, "truncated integer");
    unsigned char c = *r->p++;
    v |= (uint64_t)(c & 0x7f) << shift;
    if (!(c & 0x80)) { *out = v; return STRATA_OK; }
  }
  return bad(r, "integer too long");
}

/* A varint; one byte (most lengths, counts and small integers) inline. */
static inline strata_status get_varint(reader *r, uint64_t *out) {
  if (r->p < r->end && !(*r->p & 0x80)) {
    *out = *r->p++;
    return STRATA_OK;
  }
  return get_varint_long(r, out);
}

/* Orders keys: integers before strings, integers by value, strings by bytes. */
static int key_cmp(const void *pa, const void *pb) {
  const strata_value *a = *(const strata_value *const *)pa, *b = *(const strata_value *const *)pb;
  if (a->type != b->type) return a->type == STRATA_VINT ? -1 : 1;
  if (a->type == STRATA_VINT) return (a->u.i > b->u.i) - (a->u.i < b->u.i);
  size_t n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
  int c = n ? memcmp(a->u.str.s, b->u.str.s, n) : 0;
  if (c) return c;
  return (a->u.str.len > b->u.str.len) - (a->u.str.len < b->u.str.len);
}

/* 1 when two keys of t are equal (or when out of memory to tell). */
static int has_duplicate_key(const strata_vtable *t) {
  /* A small table (an object's few properties) is compared pair by pair:
  ** the sort's allocation and calls were 3 % of opening a large world. */
  if (t->n <= STRATA_VTABLE_INDEX_MIN) {
    for (size_t i = 1; i < t->n; i++)
      for (size_t j = 0; j < i; j++)
        if (key_equal(&t->keys[i], &t->keys[j])) return 1;
    return 0;
  }
  const strata_value **order = strata_malloc(t->n * sizeof *order);
  if (!order) return 1;
  for (size_t i = 0; i < t->n; i++) order[i] = &t->keys[i];
  qsort(order, t->n, sizeof *order, key_cmp);
  int dup = 0;
  for (size_t i = 1; i < t->n && !dup; i++) dup = key_cmp(&order[i - 1], &order[i]) == 0;
  strata_free(order);
  return dup;
}

/* Steps over one encoded value, checking only its bounds (for key_text). */
static int skip(reader *r, int depth) {
  uint64_t n = 0;
  if (depth > STRATA_VALUE_MAX_DEPTH || r->p >= r->end) return 0;
  switch (*r->p++) {
  case 0: case 1: case 2: return 1;
  case 3: case 7: return get_varint(r, &n) == STRATA_OK;
  case 4:
    if (r->end - r->p < 8) return 0;
    r->p += 8;
    return 1;
  case 5:
    if (get_varint(r, &n) || (uint64_t)(r->end - r->p) < n) return 0;
    r->p += n;
    return 1;
  case 6:
    if (get_varint(r, &n) || n > (uint64_t)(r->end - r->p) / 2) return 0;
    for (uint64_t i = 0; i < 2 * n; i++)
      if (!skip(r, depth + 1)) return 0;
    return 1;
  default: return 0;
  }
}

/* The bytes the string keys of a table of n pairs at r take (each with its
** NUL), read ahead on a copy of r that reports nothing: as far as the data
** is well formed (decode then says what is not). */
static size_t key_text(reader r, uint64_t n, int depth) {
  size_t text = 0;
  uint64_t len = 0;
  r.err = NULL;
  for (uint64_t i = 0; i < n; i++) {
    if (r.p < r.end && *r.p == 5) {
      r.p++;
      if (get_varint(&r, &len) || (uint64_t)(r.end - r.p) < len) break;
      text += (size_t)len + 1;
      r.p += len;
    } else if (!skip(&r, depth + 1)) {
      break;
    }
    if (!skip(&r, depth + 1)) break;
  }
  return text;
}

static strata_status decode(reader *r, strata_value *out, int depth);

/* A table's key, a string going into the table's room while it fits. */
static strata_status decode_key(reader *r, strata_value *k, int depth, key_room *room) {
  const unsigned char *at = r->p;
  uint64_t len = 0;
  if (r->p < r->end && *r->p == 5) {
    r->p++;
    if (get_varint(r, &len) == STRATA_OK && (uint64_t)(r->end - r->p) >= len &&
        key_place(room, k, (const char *)r->p, (size_t)len)) {
      r->p += len;
      return STRATA_OK;
    }
    r->p = at; /* decoded as any string, which says what is wrong */
  }
  return decode(r, k, depth);
}

static strata_status decode(reader *r, strata_value *out, int depth) {
  *out = strata_value_nil();
  if (depth > STRATA_VALUE_MAX_DEPTH) return bad(r, "nested too deeply");
  if (r->p >= r->end) return bad(r, "truncated");
  unsigned char tag = *r->p++;
  uint64_t n = 0; /* set by get_varint before use; -O3 cannot see it */
  strata_status st;
  switch (tag) {
  case 0: return STRATA_OK;
  case 1: case 2: *out = strata_value_bool(tag == 2); return STRATA_OK;
  case 3:
    if ((st = get_varint(r, &n))) return st;
    *out = strata_value_int((int64_t)((n >> 1) ^ (~(n & 1) + 1)));
    return STRATA_OK;
  case 4: {
    if (r->end - r->p < 8) return bad(r, "truncated float");
    uint64_t bits = 0;
    for (int i = 0; i < 8; i++) bits |= (uint64_t)r->p[i] << (8 * i);
    r->p += 8;
    double f;
    memcpy(&f, &bits, 8);
    *out = strata_value_float(f);
    return STRATA_OK;
  }
  case 5:
    if ((st = get_varint(r, &n))) return st;
    if ((uint64_t)(r->end - r->p) < n) return bad(r, "truncated string");
    if ((st = strata_value_string(out, (const char *)r->p, (size_t)n, r->err))) return st;
    r->p += n;
    return STRATA_OK;
  case 6: {
    if ((st = get_varint(r, &n))) return st;
    /* Each pair takes at least two bytes: a count beyond that is a lie. */
    if (n > (uint64_t)(r->end - r->p) / 2) return bad(r, "table count exceeds data");
    strata_value t;
    if ((st = table_sized(&t, (size_t)n, key_text(*r, n, depth), r->err))) return st;
    /* The pairs go straight into the arrays, and duplicates are found by
    ** sorting afterwards: a table of n entries decodes in O(n log n), where
    ** a lookup per entry would make a large table in a save cost O(n^2). */
    strata_vtable *tt = t.u.t;
    key_room room = block_room(tt, (size_t)n);
    for (uint64_t i = 0; i < n; i++) {
      strata_value k, v;
      if ((st = decode_key(r, &k, depth + 1, &room))) { strata_value_clear(&t); return st; }
      if (k.type != STRATA_VSTRING && k.type != STRATA_VINT) {
        strata_value_clear(&k);
        strata_value_clear(&t);
        return bad(r, "table key is not a string or integer");
      }
      if ((st = decode(r, &v, depth + 1))) { key_clear(tt, &k); strata_value_clear(&t); return st; }
      tt->keys[tt->n] = k;
      tt->vals[tt->n] = v;
      tt->n++;
      if (v.type == STRATA_VNIL) { strata_value_clear(&t); return bad(r, "nil or duplicate table entry"); }
    }
    if (tt->n > 1 && has_duplicate_key(tt)) {
      strata_value_clear(&t);
      return bad(r, "nil or duplicate table entry");
    }
    if (tt->n > STRATA_VTABLE_INDEX_MIN && !index_build(tt, tt->cap)) { strata_value_clear(&t); return strata_error_nomem(r->err, NULL); }
    *out = t;
    return STRATA_OK;
  }
  case 7:
    if ((st = get_varint(r, &n))) return st;
    *out = strata_value_ref(n);
    return STRATA_OK;
  default:
    return bad(r, "unknown tag");
  }
}

/* ---- checking without decoding (value_internal.h) ----
** What decode accepts, by the same reads: a key is a string or an integer,
** a value is never nil, no key twice (integers compared by their varint,
** which zigzag maps one to one), nesting within the limit. */
typedef struct small_key { int is_int; uint64_t i; const unsigned char *s; uint64_t len; } small_key;

static int check_small(reader *r, int depth, int table_only) {
  uint64_t n = 0;
  if (depth > STRATA_VALUE_MAX_DEPTH || r->p >= r->end) return 0;
  unsigned char tag = *r->p;
  if (table_only && tag != 6) return 0;
  if (tag != 6) return skip(r, depth) && tag != 0;
  r->p++;
  if (get_varint(r, &n) || n > (uint64_t)(r->end - r->p) / 2 || n > STRATA_VTABLE_INDEX_MIN) return 0;
  if (n && depth + 1 > STRATA_VALUE_MAX_DEPTH) return 0; /* decode refuses its keys */
  small_key keys[STRATA_VTABLE_INDEX_MIN];
  for (uint64_t i = 0; i < n; i++) {
    small_key *k = &keys[i];
    if (r->p >= r->end || (*r->p != 3 && *r->p != 5)) return 0;
    k->is_int = *r->p++ == 3;
    if (get_varint(r, k->is_int ? &k->i : &k->len)) return 0;
    if (!k->is_int) {
      if ((uint64_t)(r->end - r->p) < k->len) return 0;
      k->s = r->p;
      r->p += k->len;
    }
    for (uint64_t j = 0; j < i; j++)
      if (keys[j].is_int == k->is_int &&
          (k->is_int ? keys[j].i == k->i : keys[j].len == k->len && !memcmp(keys[j].s, k->s, (size_t)k->len)))
        return 0;
    if (!check_small(r, depth + 1, 0)) return 0;
  }
  return 1;
}

int value_check_small(const unsigned char *p, size_t n) {
  reader r = { p, p + n, NULL };
  return check_small(&r, 0, 1) && r.p == r.end;
}

strata_status strata_value_decode(strata_value *out, const unsigned char *data, size_t len,
                                  strata_error *err) {
  reader r = { data, data + len, err };
  strata_status st = decode(&r, out, 0);
  if (st == STRATA_OK && r.p != r.end) {
    strata_value_clear(out);
    st = bad(&r, "trailing bytes");
  }
  return st;
}

/* ---- keys shared by small tables (value_internal.h) ---- */

static int same_keys(const value_shape *sh, const strata_vtable *t) {
  if (sh->n != t->n) return 0;
  for (size_t i = 0; i < t->n; i++)
    if (!key_equal(&sh->keys[i], &t->keys[i])) return 0;
  return 1;
}

/* The shape of t's keys, added when new; NULL: full or out of memory. */
static value_shape *shape_of(value_shapes *shapes, const strata_vtable *t) {
  for (size_t i = 0; i < shapes->n; i++)
    if (same_keys(&shapes->v[i], t)) return &shapes->v[i];
  if (shapes->n == VALUE_SHAPES_MAX || !STRATA_GROW(shapes->v, shapes->cap, shapes->n + 1)) return NULL;
  value_shape sh = { strata_malloc(t->n * sizeof *sh.keys), 0 };
  if (!sh.keys) return NULL;
  for (; sh.n < t->n; sh.n++)
    if (strata_value_copy(&sh.keys[sh.n], &t->keys[sh.n], NULL)) {
      while (sh.n) strata_value_clear(&sh.keys[--sh.n]);
      strata_free(sh.keys);
      return NULL;
    }
  shapes->v[shapes->n] = sh;
  return &shapes->v[shapes->n++];
}

void value_share_keys(strata_value *v, value_shapes *shapes) {
  strata_vtable *t = v->type == STRATA_VTABLE ? v->u.t : NULL;
  if (!t || !t->n || t->slots || !arrays_inline(t)) return;
  value_shape *sh = shape_of(shapes, t);
  strata_vtable *nt = sh ? strata_malloc(sizeof *nt + t->n * sizeof *nt->vals) : NULL;
  if (!nt) return;
  *nt = *t;
  nt->keys = sh->keys;
  nt->vals = (strata_value *)(nt + 1);
  nt->cap = t->n;
  memcpy(nt->vals, t->vals, t->n * sizeof *nt->vals);
  for (size_t i = 0; i < t->n; i++) key_clear(t, &t->keys[i]);
  strata_free(t);
  v->u.t = nt;
}

/* ---- packed trees (value_internal.h) ---- */

/* Parts are 8-byte aligned: tables and values follow strings. */
static unsigned char *pack_take(value_pack *p, size_t bytes) {
  unsigned char *at = p->block ? p->block + p->used : NULL;
  p->used += (bytes + 7) & ~(size_t)7;
  return at;
}

strata_value value_pack_table(value_pack *p, const strata_value *keys, size_t n) {
  unsigned char *at = pack_take(p, sizeof(strata_vtable) + n * sizeof(strata_value));
  strata_vtable *t = at ? (strata_vtable *)(void *)at : &p->scratch;
  t->n = t->cap = n;
  t->keys = (strata_value *)keys; /* read only, as every table's keys */
  t->vals = at ? (strata_value *)(t + 1) : p->scratch_vals;
  t->slots = NULL;
  t->nslots = 0;
  strata_value v = strata_value_nil();
  v.type = STRATA_VTABLE;
  v.u.t = t;
  return v;
}

strata_value value_pack_string(value_pack *p, const char *s, size_t len) {
  unsigned char *at = pack_take(p, len + 1);
  strata_value v = strata_value_nil();
  v.type = STRATA_VSTRING;
  v.u.str.len = len;
  v.u.str.s = at ? (char *)at : (char *)s;
  if (at) {
    memcpy(at, s, len);
    at[len] = '\0';
  }
  return v;
}

int value_packable(const strata_value *v) {
  if (v->type != STRATA_VTABLE) return 1;
  if (v->u.t->n > STRATA_VTABLE_INDEX_MIN) return 0;
  for (size_t i = 0; i < v->u.t->n; i++)
    if (!value_packable(&v->u.t->vals[i])) return 0;
  return 1;
}

strata_value value_pack_copy(value_pack *p, const strata_value *v) {
  if (v->type == STRATA_VSTRING) return value_pack_string(p, v->u.str.s, v->u.str.len);
  if (v->type != STRATA_VTABLE) return *v;
  const strata_vtable *src = v->u.t;
  strata_value out = value_pack_table(p, NULL, src->n);
  strata_vtable *t = out.u.t; /* while measuring, the scratch, whatever copies below make of it */
  unsigned char *at = pack_take(p, src->n * sizeof(strata_value));
  strata_value *keys = at ? (strata_value *)(void *)at : p->scratch_keys;
  strata_value *vals = t->vals;
  t->keys = keys;
  for (size_t i = 0; i < src->n; i++) {
    keys[i] = value_pack_copy(p, &src->keys[i]);
    vals[i] = value_pack_copy(p, &src->vals[i]);
  }
  return out;
}

void value_shapes_free(value_shapes *shapes) {
  for (size_t i = 0; i < shapes->n; i++) {
    for (size_t j = 0; j < shapes->v[i].n; j++) strata_value_clear(&shapes->v[i].keys[j]);
    strata_free(shapes->v[i].keys);
  }
  strata_free(shapes->v);
  memset(shapes, 0, sizeof *shapes);
}
