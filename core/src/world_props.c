/*
** world_props.c - an opened object's properties, kept encoded until first
** read. Most objects of a large world are not read between an open and the
** next save: their properties stay the bytes of the file (tens of bytes in
** place of a decoded table's hundreds), the open skips decoding them, and a
** save writes those bytes back as they were.
**
** Such an object's props is nil with u.str pointing at its bytes in the
** world's arena (a property table is never nil otherwise; a copy of the
** value, as the journal makes, points at the same bytes, which stay until
** the world is freed). The loader keeps only bytes that value_check_small
** accepts, so that decoding them later fails only for want of memory.
** Every way to an object's fields for its readers (strata_world_object,
** strata_world_next_object) decodes first: they see tables, as before.
*/
#include "world_internal.h"
#include "value_internal.h"
#include "strata/alloc.h"

#include <string.h>

/* The arena: blocks of PROPS_BLOCK bytes, filled one after the other, never
** moved or freed before the world; a value larger than a quarter block gets
** a block of its own. */
#define PROPS_BLOCK 65536

static unsigned char *add_block(struct props_arena *a, size_t size) {
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 16;
    unsigned char **b = strata_realloc(a->blocks, cap * sizeof *b);
    if (!b) return NULL;
    a->blocks = b;
    a->cap = cap;
  }
  unsigned char *block = strata_malloc(size);
  if (block) a->blocks[a->n++] = block;
  return block;
}

static unsigned char *arena_copy(strata_world *w, const unsigned char *p, size_t n) {
  struct props_arena *a = &w->props_arena;
  unsigned char *at;
  if (n > PROPS_BLOCK / 4) {
    at = add_block(a, n);
  } else {
    if (!a->cur || a->used + n > PROPS_BLOCK) {
      if (!(a->cur = add_block(a, PROPS_BLOCK))) return NULL;
      a->used = 0;
    }
    at = a->cur + a->used;
    a->used += n;
  }
  if (at) memcpy(at, p, n);
  return at;
}

strata_status world_props_load(strata_world *w, strata_value *props, const unsigned char *p, size_t n,
                               strata_error *err) {
  if (!value_check_small(p, n)) return strata_value_decode(props, p, n, err);
  unsigned char *at = arena_copy(w, p, n);
  if (!at) return strata_error_set(err, STRATA_ENOMEM, "out of memory");
  *props = strata_value_nil();
  props->u.str.s = (char *)at;
  props->u.str.len = n;
  return STRATA_OK;
}

strata_status world_props_ready(strata_world *w, strata_object *o, strata_error *err) {
  if (!world_props_lazy(o)) return STRATA_OK;
  strata_value t;
  strata_status st = strata_value_decode(&t, (const unsigned char *)o->props.u.str.s, o->props.u.str.len, err);
  if (st) return st;
  value_share_keys(&t, &w->props_shapes); /* a table of values alone when its keys are common */
  o->props = t;
  return STRATA_OK;
}

void world_props_free(strata_world *w) {
  for (size_t i = 0; i < w->props_arena.n; i++) strata_free(w->props_arena.blocks[i]);
  strata_free(w->props_arena.blocks);
  memset(&w->props_arena, 0, sizeof w->props_arena);
  value_shapes_free(&w->props_shapes);
}
