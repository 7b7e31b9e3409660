/* tokens.c - the token table: interned names (open addressing) and traits. */
#include "strata/tokens.h"
#include "strata/alloc.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct token_entry {
  char *name;      /* NUL-terminated copy */
  size_t len;
  uint64_t hash;
  int defined;     /* traits were set explicitly */
  strata_token_traits traits;
} token_entry;

struct strata_tokens {
  int refs;
  uint64_t revision;
  token_entry *entries; /* entries[id - 1] */
  uint32_t count, cap;
  uint32_t *slots;      /* open-addressing index of ids; 0 = free */
  uint32_t slot_mask;
};

static uint64_t hash_name(const char *s, size_t len) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
  return h;
}

strata_tokens *strata_tokens_new(strata_error *err) {
  strata_tokens *t = strata_calloc(1, sizeof *t);
  if (t == NULL) goto nomem;
  t->refs = 1;
  t->slot_mask = 63;
  t->slots = strata_calloc(t->slot_mask + 1, sizeof *t->slots);
  if (t->slots == NULL) goto nomem;
  return t;
nomem:
  strata_free(t);
  strata_error_nomem(err, "creating a token table");
  return NULL;
}

strata_tokens *strata_tokens_clone(const strata_tokens *src, strata_error *err) {
  strata_tokens *t = strata_calloc(1, sizeof *t);
  if (t == NULL) goto nomem;
  t->refs = 1;
  t->revision = src->revision;
  t->slot_mask = src->slot_mask;
  t->slots = strata_malloc((size_t)(src->slot_mask + 1) * sizeof *t->slots);
  t->entries = strata_malloc((size_t)(src->cap ? src->cap : 1) * sizeof *t->entries);
  if (t->slots == NULL || t->entries == NULL) goto nomem;
  memcpy(t->slots, src->slots, (size_t)(src->slot_mask + 1) * sizeof *t->slots);
  t->cap = src->cap ? src->cap : 1;
  for (uint32_t i = 0; i < src->count; i++) {
    t->entries[i] = src->entries[i];
    t->entries[i].name = strata_strndup(src->entries[i].name, src->entries[i].len);
    if (t->entries[i].name == NULL) goto nomem;
    t->count = i + 1;
  }
  return t;
nomem:
  strata_tokens_release(t);
  strata_error_nomem(err, "copying a token table");
  return NULL;
}

void strata_tokens_retain(strata_tokens *t) { t->refs++; }

void strata_tokens_release(strata_tokens *t) {
  if (t == NULL || --t->refs > 0) return;
  for (uint32_t i = 0; i < t->count; i++) strata_free(t->entries[i].name);
  strata_free(t->entries);
  strata_free(t->slots);
  strata_free(t);
}

/* The slot where name is, or the free slot where it would go. */
static uint32_t *find_slot(const strata_tokens *t, const char *name, size_t len, uint64_t h) {
  uint32_t i = (uint32_t)h & t->slot_mask;
  for (;;) {
    uint32_t id = t->slots[i];
    if (id == 0) return &t->slots[i];
    const token_entry *e = &t->entries[id - 1];
    if (e->hash == h && e->len == len && memcmp(e->name, name, len) == 0) return &t->slots[i];
    i = (i + 1) & t->slot_mask;
  }
}

static int grow_slots(strata_tokens *t) {
  uint32_t mask = t->slot_mask * 2 + 1;
  uint32_t *slots = strata_calloc((size_t)mask + 1, sizeof *slots);
  if (slots == NULL) return 0;
  for (uint32_t id = 1; id <= t->count; id++) {
    uint32_t i = (uint32_t)t->entries[id - 1].hash & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = id;
  }
  strata_free(t->slots);
  t->slots = slots;
  t->slot_mask = mask;
  return 1;
}

strata_token strata_tokens_find(const strata_tokens *t, const char *name, size_t len) {
  if (t == NULL || name == NULL) return 0;
  return *find_slot(t, name, len, hash_name(name, len));
}

strata_token strata_tokens_intern(strata_tokens *t, const char *name, size_t len,
                                  strata_error *err) {
  if (name == NULL || len == 0) {
    strata_error_set(err, STRATA_EARG, "a token name cannot be empty");
    return 0;
  }
  if (len > STRATA_TOKEN_NAME_MAX) {
    strata_error_set(err, STRATA_EARG, "token name is %zu bytes long (at most %d)", len,
                     STRATA_TOKEN_NAME_MAX);
    return 0;
  }
  uint64_t h = hash_name(name, len);
  uint32_t *slot = find_slot(t, name, len, h);
  if (*slot != 0) return *slot;
  if (t->count >= STRATA_TOKENS_MAX) {
    strata_error_set(err, STRATA_ELIMIT, "token table is full (%u tokens)", t->count);
    return 0;
  }
  if (!STRATA_GROW32(t->entries, t->cap, (size_t)t->count + 1)) goto nomem;
  token_entry *e = &t->entries[t->count];
  e->name = strata_strndup(name, len);
  if (e->name == NULL) goto nomem;
  e->len = len;
  e->hash = h;
  e->defined = 0;
  strata_tokens_default_traits(name, len, &e->traits);
  *slot = ++t->count;
  /* Keep the load factor under one half so probes stay short. */
  if ((t->count + 1) * 2 > t->slot_mask + 1 && !grow_slots(t)) {
    /* The id is valid; the index is just fuller than we like. */
  }
  return t->count;
nomem:
  strata_error_nomem(err, "interning token '%.*s'", (int)len, name);
  return 0;
}

const char *strata_tokens_name(const strata_tokens *t, strata_token id, size_t *len) {
  if (t == NULL || id == 0 || id > t->count) return NULL;
  if (len) *len = t->entries[id - 1].len;
  return t->entries[id - 1].name;
}

uint32_t strata_tokens_count(const strata_tokens *t) { return t ? t->count : 0; }

uint64_t strata_tokens_revision(const strata_tokens *t) { return t->revision; }

/* Length of the UTF-8 sequence that starts with byte c (1 for stray bytes). */
static size_t utf8_len(unsigned char c) {
  if (c < 0x80) return 1;
  if ((c & 0xe0) == 0xc0) return 2;
  if ((c & 0xf0) == 0xe0) return 3;
  if ((c & 0xf8) == 0xf0) return 4;
  return 1;
}

void strata_tokens_default_traits(const char *name, size_t len, strata_token_traits *out) {
  memset(out, 0, sizeof *out);
  out->passable = 1;
  out->cost = 1.0;
  if (len > 0) {
    size_t n = utf8_len((unsigned char)name[0]);
    if (n > len) n = 1;
    memcpy(out->glyph, name, n);
  }
}

const strata_token_traits *strata_tokens_traits(const strata_tokens *t, strata_token id) {
  if (t == NULL || id == 0 || id > t->count) return NULL;
  return &t->entries[id - 1].traits;
}

strata_status strata_tokens_define(strata_tokens *t, const char *name, size_t len,
                                   const strata_token_traits *traits, strata_error *err) {
  if (!(traits->cost > 0) || !isfinite(traits->cost))
    return strata_error_set(err, STRATA_EARG,
                            "cost of token '%.*s' must be a positive finite number, got %g",
                            (int)len, name, traits->cost);
  size_t glen = strnlen(traits->glyph, sizeof traits->glyph);
  if (glen == sizeof traits->glyph || (glen > 0 && utf8_len((unsigned char)traits->glyph[0]) != glen))
    return strata_error_set(err, STRATA_EARG, "glyph of token '%.*s' must be one character",
                            (int)len, name);
  if (strnlen(traits->color, sizeof traits->color) == sizeof traits->color)
    return strata_error_set(err, STRATA_EARG, "colour name of token '%.*s' is too long",
                            (int)len, name);
  strata_token id = strata_tokens_intern(t, name, len, err);
  if (id == 0) return err ? err->status : STRATA_EARG;
  token_entry *e = &t->entries[id - 1];
  e->traits = *traits;
  if (glen == 0) { /* no glyph given: keep the name's first character */
    strata_token_traits d;
    strata_tokens_default_traits(name, len, &d);
    memcpy(e->traits.glyph, d.glyph, sizeof d.glyph);
  }
  e->defined = 1;
  t->revision++;
  return STRATA_OK;
}
