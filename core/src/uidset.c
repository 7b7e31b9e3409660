/* uidset.c - a set of uids, and a map from uids, by open addressing (see uidset.h). */
#include "uidset.h"
#include "strata/alloc.h"

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
    uint64_t *keys = strata_calloc(cap, sizeof *keys);
    if (!keys) return 0;
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) put(keys, cap, s->keys[i]);
    strata_free(s->keys);
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
  strata_free(s->keys);
  s->keys = NULL;
  s->n = s->cap = 0;
}

/* ---- uidmap ---- */

/* uid's slot, or (size_t)-1. */
static size_t map_slot(const uidmap *m, uint64_t uid) {
  if (!m->cap || !uid) return (size_t)-1;
  for (size_t i = slot_of(uid, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->e[i].uid == uid) return i;
    if (!m->e[i].uid) return (size_t)-1;
  }
}

size_t *uidmap_get(const uidmap *m, uint64_t uid) {
  size_t i = map_slot(m, uid);
  return i == (size_t)-1 ? NULL : &m->e[i].at;
}

static void map_put(uidmap_entry *e, size_t cap, uidmap_entry x) {
  size_t i = slot_of(x.uid, cap);
  while (e[i].uid && e[i].uid != x.uid) i = (i + 1) & (cap - 1);
  e[i] = x;
}

int uidmap_reserve(uidmap *m, size_t n) {
  if (n * 2 <= m->cap) return 1;
  size_t cap = m->cap ? m->cap : 64;
  while (n * 2 > cap) cap *= 2;
  uidmap_entry *e = strata_calloc(cap, sizeof *e);
  if (!e) return 0;
  for (size_t i = 0; i < m->cap; i++)
    if (m->e[i].uid) map_put(e, cap, m->e[i]);
  strata_free(m->e);
  m->e = e;
  m->cap = cap;
  return 1;
}

int uidmap_put(uidmap *m, uint64_t uid, size_t at) {
  size_t *v = uidmap_get(m, uid);
  if (!v) {
    if (!uidmap_reserve(m, m->n + 1)) return 0;
    map_put(m->e, m->cap, (uidmap_entry){ uid, at });
    m->n++;
  } else {
    *v = at;
  }
  return 1;
}

/* Linear probing's deletion: each later entry of the run moves into the gap
** unless its own slot lies cyclically in (gap, it]. */
void uidmap_del(uidmap *m, uint64_t uid) {
  size_t gap = map_slot(m, uid), mask = m->cap - 1;
  if (gap == (size_t)-1) return;
  for (size_t j = (gap + 1) & mask; m->e[j].uid; j = (j + 1) & mask) {
    size_t home = slot_of(m->e[j].uid, m->cap);
    if (((j - home) & mask) >= ((j - gap) & mask)) {
      m->e[gap] = m->e[j];
      gap = j;
    }
  }
  m->e[gap].uid = 0;
  m->n--;
}

void uidmap_free(uidmap *m) {
  strata_free(m->e);
  m->e = NULL;
  m->n = m->cap = 0;
}
