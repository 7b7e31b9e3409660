/* uidset.c - a set of uids by open addressing (see uidset.h). */
#include "uidset.h"

#include <stdlib.h>
#include <string.h>

static size_t slot_of(uint64_t uid, size_t cap) {
  return (size_t)((uid * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static void put(uint64_t *keys, size_t cap, uint64_t uid) {
  size_t i = slot_of(uid, cap);
  while (keys[i] && keys[i] != uid) i = (i + 1) & (cap - 1);
  keys[i] = uid;
}

int uidset_has(const uidset *s, uint64_t uid) {
  if (!s->cap || !uid) return 0;
  for (size_t i = slot_of(uid, s->cap);; i = (i + 1) & (s->cap - 1)) {
    if (s->keys[i] == uid) return 1;
    if (!s->keys[i]) return 0;
  }
}

int uidset_add(uidset *s, uint64_t uid) {
  if (uidset_has(s, uid)) return 1;
  if ((s->n + 1) * 2 > s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 64;
    uint64_t *keys = calloc(cap, sizeof *keys);
    if (!keys) return 0;
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) put(keys, cap, s->keys[i]);
    free(s->keys);
    s->keys = keys;
    s->cap = cap;
  }
  put(s->keys, s->cap, uid);
  s->n++;
  return 1;
}

void uidset_clear(uidset *s) {
  if (s->cap > 4096) {
    uidset_free(s);
    return;
  }
  if (s->n) memset(s->keys, 0, s->cap * sizeof *s->keys);
  s->n = 0;
}

void uidset_free(uidset *s) {
  free(s->keys);
  s->keys = NULL;
  s->n = s->cap = 0;
}
