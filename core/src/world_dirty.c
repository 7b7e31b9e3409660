/*
** world_dirty.c - the world's record of what changed since its file was
** written (world_internal.h), which lets a save to that file write only
** that. The record may hold more than what changed (a rolled-back creation,
** an object changed and changed back): writing a row as it is now is always
** right. Losing a mark is not, so a mark that cannot be stored turns into
** "write everything" rather than an error for the edit.
*/
#include "world_internal.h"
#include "store.h" /* store_pg_free: the connection a world keeps */
#include "strata/alloc.h"

#include <stdlib.h>

/* A world without a file (new, or its saves failed) is saved whole: no record
** is kept until a save or an open gives it one. */
void world_mark_uid(strata_world *w, uint64_t uid) {
  w->changes++;
  if (!w->file.path) return;
  if (!w->dirty_all && !uidset_add(&w->dirty, uid)) {
    w->dirty_all = 1;
    uidset_clear(&w->dirty); /* everything is written: the list no longer matters */
  }
}

void world_mark(strata_world *w, uint64_t uid) {
  strata_object *o = world_rec(w, uid);
  if (o) world_mark_object(w, o);
  else world_mark_uid(w, uid);
}

void world_mark_object(strata_world *w, const strata_object *o) {
  world_kind_edited(w, o);
  world_mark_uid(w, o->uid);
  rec_of((strata_object *)o)->changed = w->changes; /* the world's record of it: writable */
}

void world_mark_map(strata_world *w, uint64_t uid) {
  /* The maps set is kept even with dirty_all: only a full save rebuilds it,
  ** and a failed insert here makes that full save happen. */
  if (w->file.path && !uidset_add(&w->maps, uid)) w->dirty_all = 1;
}

void world_dirty_reset(strata_world *w) {
  uidset_clear(&w->dirty);
  w->dirty_all = 0;
  w->streams_dirty = 0;
}

void world_dirty_free(strata_world *w) {
  uidset_free(&w->dirty);
  uidset_free(&w->maps);
  strata_free(w->file.path);
  w->file.path = NULL;
  store_pg_free(w->file.store);
  w->file.store = NULL;
}
