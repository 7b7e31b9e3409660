/*
** world_dump.h - a world as text, for the savepoint and save tests:
** everything a rollback restores (not the uid counter), so that two states
** compare as strings; file_dump, the same of a saved file.
*/
#ifndef STRATA_WORLD_DUMP_H
#define STRATA_WORLD_DUMP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strata/world.h"

/* A text that grows. */
typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put(text *t, const char *fmt, ...) {
  va_list ap;
  for (;;) {
    va_start(ap, fmt);
    int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
    va_end(ap);
    if (t->s && t->len + (size_t)n < t->cap) {
      t->len += (size_t)n;
      return;
    }
    t->cap = (t->cap + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
  }
}

static void put_value(text *t, const strata_value *v) {
  strata_buffer b = {0};
  strata_value_encode(v, &b, NULL);
  for (size_t i = 0; i < b.len; i++) put(t, "%02x", b.data[i]);
  strata_buffer_free(&b);
}

static void put_tiles(text *t, const strata_world *w, const strata_tilemap *m) {
  strata_tokens *tk = strata_tilemap_tokens(m);
  put(t, " tiles %dx%d %s", strata_tilemap_width(m), strata_tilemap_height(m),
      strata_tilemap_has_private_tokens(m) ? "private" : tk == strata_world_tokens(w) ? "world" : "other");
  strata_token st[64];
  for (int y = 0; y < strata_tilemap_height(m); y++)
    for (int x = 0; x < strata_tilemap_width(m); x++) {
      size_t n = strata_tilemap_stack(m, x, y, st, 64);
      put(t, " [");
      for (size_t i = 0; i < n && i < 64; i++) put(t, "%s,", strata_tokens_name(tk, st[i], NULL));
      put(t, "]");
    }
  if (strata_tilemap_has_private_tokens(m))
    for (uint32_t id = 1; id <= strata_tokens_count(tk); id++) {
      const strata_token_traits *tr = strata_tokens_traits(tk, id);
      put(t, " %s=%d/%g/%s/%s", strata_tokens_name(tk, id, NULL), tr->passable, tr->cost, tr->glyph,
          tr->color);
    }
}

/* Everything a rollback restores, as text (not the uid counter). */
static char *dump(const strata_world *w) {
  text t = {0};
  put(&t, "time %.17g objects %zu\n", strata_world_time(w), strata_world_count(w));
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid)) {
    put(&t, "#%llu %s %s", (unsigned long long)o->uid, o->kind, o->archetype ? o->archetype : "-");
    if (o->has_pos) put(&t, " at %llu:%lld,%lld", (unsigned long long)o->map, (long long)o->x, (long long)o->y);
    put(&t, " tags ");
    put_value(&t, &o->tags);
    put(&t, " props ");
    put_value(&t, &o->props);
    if (o->tilemap) put_tiles(&t, w, o->tilemap);
    put(&t, "\n");
  }
  for (size_t i = 0; i < strata_world_timer_count(w); i++) {
    const strata_timer *tm = strata_world_timer_at(w, i);
    put(&t, "timer %llu %.17g %.17g %s ", (unsigned long long)tm->uid, tm->due, tm->every, tm->handler);
    put_value(&t, &tm->args);
    put(&t, "\n");
  }
  for (size_t i = 0; i < strata_world_subscription_count(w); i++) {
    const strata_subscription *s = strata_world_subscription_at(w, i);
    put(&t, "sub %llu on %llu %s %s %lld ", (unsigned long long)s->uid, (unsigned long long)s->object,
        s->event, s->handler, (long long)s->priority);
    put_value(&t, &s->args);
    put(&t, "\n");
  }
  for (size_t i = 0; i < strata_world_stream_count(w); i++) {
    strata_rng r;
    char state[STRATA_RNG_STATE_CHARS];
    const char *key = strata_world_stream_at(w, i, &r);
    strata_rng_format(&r, state);
    put(&t, "stream %s %s\n", key, state);
  }
  return t.s;
}

/* The world saved at p, dumped; NULL, with a line on stderr, when it does
** not open. A test with failing_alloc.h included before this header holds
** its failing allocator off meanwhile (opening is not what it tests). */
static inline char *file_dump(const char *p) {
#ifdef STRATA_FAILING_ALLOC_H
  int was = armed;
  armed = 0;
#endif
  strata_world *w;
  strata_mod_version *mods;
  size_t n;
  strata_error err;
  char *d = NULL;
  if (strata_world_open(p, &w, &mods, &n, &err) == STRATA_OK) {
    d = dump(w);
    strata_world_free(w);
    strata_mod_versions_free(mods, n);
  } else {
    fprintf(stderr, "open %s: %s\n", p, err.message);
  }
#ifdef STRATA_FAILING_ALLOC_H
  armed = was;
#endif
  return d;
}

#endif
