/*
** world_txn.c - savepoints: a journal of what changed in the world, undone
** by a rollback.
**
** Edits (world.c) call in here before they change anything, and only while
** a savepoint is open. Objects are copied on first touch: the first change
** of an object in a savepoint saves its fields (and, separately, its tile
** map), later changes cost nothing. Timers, subscriptions and creations are
** journaled per operation; the clock is kept per savepoint.
**
** A rollback never fails: undoing entries newest first brings each array
** back to the length it had when the entry was written, and arrays (and the
** timers' index by uid) never shrink their capacity, so putting a removed
** timer, subscription or object back needs no allocation.
*/
#include "tilemap_internal.h" /* tilemap_restore */
#include "world_internal.h"
#include "strata/alloc.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

typedef enum jkind {
  J_CREATED,       /* created: the objects made, uids first .. first + n - 1 (undo: free them) */
  J_DELETED,       /* deleted: the object and its subscriptions, kept */
  J_FIELDS,        /* fields: a copy of the object's archetype, position, tags, props */
  J_POSITION,      /* fields: the object's position alone (tags, props nil) */
  J_PATH,          /* path: a property key added (had 0) or its value replaced (had 1, old) */
  J_TILES,         /* tiles: a clone of the object's tile map (NULL: it had none) */
  J_TIMER_ADDED,   /* uid */
  J_TIMER_REMOVED, /* timer: as it was, cancelled or fired once */
  J_TIMER_MOVED,   /* moved: a repeating timer fired, and its due before */
  J_SUB_ADDED,     /* uid */
  J_SUB_REMOVED,   /* sub: as it was */
  J_STREAM_ADDED,  /* (the last stream) */
  J_STREAM_SET,    /* stream: its index and state before */
  J_LENT_SET       /* lent: the lent generator's id and state before */
} jkind;

struct journal_entry {
  jkind kind;
  union {
    uint64_t uid;
    struct {
      uint64_t first, n;
    } created;
    struct {
      object_rec *r;
      strata_subscription *subs;
      size_t nsubs;
    } deleted;
    struct {
      object_rec *r;
      char *archetype;
      int has_pos;
      uint64_t map;
      int64_t x, y;
      strata_value tags, props;
    } fields;
    struct {
      object_rec *r;
      strata_value *keys;  /* copies */
      size_t n;
      int had;             /* the key was there, holding `old` */
      strata_value old;
    } path;
    struct {
      object_rec *r;
      strata_tilemap *copy;
    } tiles;
    strata_timer timer;
    struct {
      uint64_t uid;
      double due;
    } moved;
    strata_subscription sub;
    struct {
      size_t index;
      strata_rng rng;
    } stream;
    struct {
      uint64_t id;
      strata_rng rng;
    } lent;
  } u;
};

static strata_status nomem(strata_error *err) {
  return strata_error_nomem(err, "saving the world for a rollback");
}

/* A free entry at the end of the journal, counted only by push(). */
static journal_entry *reserve(strata_world *w, strata_error *err) {
  if (!STRATA_GROW(w->journal, w->journal_cap, w->njournal + 1)) { nomem(err); return NULL; }
  return &w->journal[w->njournal];
}

static void push(strata_world *w) { w->njournal++; }

/* Frees what an entry holds, the change it records being kept (commit) or
** never made (txn_drop_last). */
static void discard(strata_world *w, journal_entry *e) {
  switch (e->kind) {
  case J_DELETED:
    for (size_t i = 0; i < e->u.deleted.nsubs; i++) world_sub_clear(&e->u.deleted.subs[i]);
    strata_free(e->u.deleted.subs);
    world_object_free(w, &e->u.deleted.r->o);
    break;
  case J_FIELDS:
    strata_value_clear(&e->u.fields.tags);
    strata_value_clear(&e->u.fields.props);
    break;
  case J_PATH:
    for (size_t i = 0; i < e->u.path.n; i++) strata_value_clear(&e->u.path.keys[i]);
    strata_free(e->u.path.keys);
    strata_value_clear(&e->u.path.old);
    break;
  case J_TILES: strata_tilemap_free(e->u.tiles.copy); break;
  case J_TIMER_REMOVED: strata_timer_clear(&e->u.timer); break;
  case J_SUB_REMOVED: world_sub_clear(&e->u.sub); break;
  default: break;
  }
}

/* Marks for the next save what an entry's undo puts back (world_dirty.c). */
static void mark(strata_world *w, const journal_entry *e) {
  switch (e->kind) {
  case J_CREATED:
    for (uint64_t i = 0; i < e->u.created.n; i++) world_mark(w, e->u.created.first + i);
    break;
  case J_TIMER_ADDED: case J_SUB_ADDED: world_mark(w, e->u.uid); break;
  case J_DELETED:
    world_mark(w, e->u.deleted.r->o.uid);
    for (size_t i = 0; i < e->u.deleted.nsubs; i++) world_mark(w, e->u.deleted.subs[i].uid);
    /* A save since may have dropped its tiles row: write it again. */
    if (e->u.deleted.r->o.tilemap) {
      e->u.deleted.r->o.tilemap->saved_id = 0;
      world_mark_map(w, e->u.deleted.r->o.uid);
    }
    break;
  case J_FIELDS: case J_POSITION: world_mark(w, e->u.fields.r->o.uid); break;
  case J_PATH: world_mark(w, e->u.path.r->o.uid); break;
  case J_TILES: world_mark_map(w, e->u.tiles.r->o.uid); break; /* its map or revision changes */
  case J_TIMER_REMOVED: world_mark(w, e->u.timer.uid); break;
  case J_TIMER_MOVED: world_mark(w, e->u.moved.uid); break;
  case J_SUB_REMOVED: world_mark(w, e->u.sub.uid); break;
  case J_STREAM_ADDED: case J_STREAM_SET: world_mark_streams(w); break;
  case J_LENT_SET: break; /* never saved */
  }
}

/* The position a J_FIELDS or J_POSITION entry recorded, put back. */
static void put_position(strata_world *w, const journal_entry *e) {
  strata_object *o = &e->u.fields.r->o;
  int moves = o->has_pos != e->u.fields.has_pos || o->map != e->u.fields.map;
  world_occupy(w, o, -1);
  if (moves && o->has_pos) world_bymap_remove(w, o);
  o->has_pos = e->u.fields.has_pos;
  o->map = e->u.fields.map;
  o->x = e->u.fields.x;
  o->y = e->u.fields.y;
  if (moves && o->has_pos) world_bymap_add(w, o);
  world_occupy(w, o, 1);
}

/* Puts back what an entry recorded, and frees the entry's leftovers. */
static void undo(strata_world *w, journal_entry *e) {
  mark(w, e);
  switch (e->kind) {
  case J_CREATED:
    for (uint64_t i = e->u.created.n; i-- > 0;) { /* newest first */
      uint64_t uid = e->u.created.first + i;
      strata_object *o = world_rec(w, uid);
      if (o) {
        world_slot_clear(w, uid, 0);
        w->count--;
        world_object_free(w, o);
      }
    }
    break;
  case J_DELETED: {
    strata_object *o = &e->u.deleted.r->o;
    world_slot_put(w, o); /* its page is there: pages are freed only outside savepoints */
    w->count++;
    for (size_t i = 0; i < e->u.deleted.nsubs; i++)
      if (world_add_sub(w, &e->u.deleted.subs[i], NULL)) world_sub_clear(&e->u.deleted.subs[i]);
    strata_free(e->u.deleted.subs);
    break;
  }
  case J_FIELDS: {
    strata_object *o = &e->u.fields.r->o;
    strata_value_clear(&o->tags);
    world_props_drop(o);
    o->archetype = e->u.fields.archetype;
    o->tags = e->u.fields.tags;
    o->props = e->u.fields.props;
    put_position(w, e);
    break;
  }
  case J_POSITION: put_position(w, e); break;
  case J_PATH: {
    /* Newer changes are undone already: the key is where the set left it
    ** (an added key is the last one, so removing it restores the order). */
    strata_value *t = &e->u.path.r->o.props;
    for (size_t i = 0; t && i + 1 < e->u.path.n; i++)
      t = t->type == STRATA_VTABLE ? strata_vtable_get(t->u.t, &e->u.path.keys[i]) : NULL;
    if (t && t->type == STRATA_VTABLE) {
      strata_value *v = strata_vtable_get(t->u.t, &e->u.path.keys[e->u.path.n - 1]);
      if (e->u.path.had && v) {
        strata_value_clear(v);
        *v = e->u.path.old;
        e->u.path.old = strata_value_nil();
      } else if (!e->u.path.had && v) {
        strata_value nil = strata_value_nil();
        strata_vtable_set(t->u.t, &e->u.path.keys[e->u.path.n - 1], &nil, NULL); /* a removal: no allocation */
      }
    }
    discard(w, e);
    break;
  }
  case J_TILES: {
    strata_object *o = &e->u.tiles.r->o;
    if (!e->u.tiles.copy) { /* a map attached inside the savepoint */
      strata_tilemap_free(o->tilemap);
      o->tilemap = NULL;
    } else if (o->tilemap) { /* in place: callers hold the pointer */
      tilemap_restore(o->tilemap, e->u.tiles.copy);
    } else {
      o->tilemap = e->u.tiles.copy;
      world_occupancy_count(w, o->uid);
    }
    break;
  }
  case J_TIMER_ADDED: {
    size_t i = world_find_timer(w, e->u.uid);
    if (i != (size_t)-1) {
      strata_timer_clear(&w->timers[i]);
      world_remove_timer(w, i);
    }
    break;
  }
  case J_TIMER_REMOVED:
    if (world_insert_timer(w, &e->u.timer, NULL)) strata_timer_clear(&e->u.timer);
    break;
  case J_TIMER_MOVED: {
    size_t i = world_find_timer(w, e->u.moved.uid);
    if (i != (size_t)-1) world_retime_timer(w, i, e->u.moved.due);
    break;
  }
  case J_SUB_ADDED: {
    size_t i = world_find_sub(w, e->u.uid);
    if (i != (size_t)-1) {
      world_sub_clear(&w->subs[i]);
      world_remove_sub(w, i);
    }
    break;
  }
  case J_SUB_REMOVED:
    if (world_add_sub(w, &e->u.sub, NULL)) world_sub_clear(&e->u.sub);
    break;
  case J_STREAM_ADDED: /* the newest stream: later ones were undone first */
    strata_free(w->streams[--w->nstreams].key);
    break;
  case J_STREAM_SET: w->streams[e->u.stream.index].rng = e->u.stream.rng; break;
  case J_LENT_SET: /* only while still lent: the lender's generator is gone after */
    for (size_t i = 0; i < w->nlent; i++)
      if (w->lent[i].id == e->u.lent.id) *w->lent[i].rng = e->u.lent.rng;
    break;
  }
}

/* The journal's memory when no savepoint is open: a small array is kept for
** the next one (a runtime opens one per handler), a large one given back. */
static void journal_reset(strata_world *w) {
  w->njournal = 0;
  if (w->journal_cap > 256) {
    strata_free(w->journal);
    w->journal = NULL;
    w->journal_cap = 0;
  }
}

/* ---- savepoints ---- */

strata_status strata_world_begin(strata_world *w, strata_error *err) {
  if (!STRATA_GROW(w->savepoints, w->savepoints_cap, (size_t)w->depth + 1)) return nomem(err);
  savepoint *s = &w->savepoints[w->depth++];
  s->mark = w->njournal;
  s->serial = ++w->serial;
  s->time = w->time;
  return STRATA_OK;
}

strata_status strata_world_commit(strata_world *w) {
  if (w->depth == 0) return STRATA_ESTATE;
  /* The entries stay: they now belong to the enclosing savepoint. */
  if (--w->depth == 0) {
    for (size_t i = 0; i < w->njournal; i++) discard(w, &w->journal[i]);
    journal_reset(w);
  }
  return STRATA_OK;
}

strata_status strata_world_rollback(strata_world *w) {
  if (w->depth == 0) return STRATA_ESTATE;
  const savepoint *s = &w->savepoints[--w->depth];
  while (w->njournal > s->mark) undo(w, &w->journal[--w->njournal]);
  w->time = s->time;
  if (w->depth == 0) journal_reset(w);
  return STRATA_OK;
}

int strata_world_depth(const strata_world *w) { return w->depth; }

void txn_free(strata_world *w) {
  for (size_t i = 0; i < w->njournal; i++) discard(w, &w->journal[i]);
  strata_free(w->journal);
  strata_free(w->savepoints);
  w->journal = NULL;
  w->savepoints = NULL;
  w->njournal = w->journal_cap = w->savepoints_cap = 0;
  w->depth = 0;
}

void txn_drop_last(strata_world *w) { discard(w, &w->journal[--w->njournal]); }

/* ---- entries, written by the edits in world.c ---- */

strata_status txn_save_fields(strata_world *w, object_rec *r, strata_error *err) {
  uint64_t serial = world_serial(w);
  if (r->fields_in == serial) return STRATA_OK;
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  const strata_object *o = &r->o;
  e->kind = J_FIELDS;
  e->u.fields.r = r;
  e->u.fields.has_pos = o->has_pos;
  e->u.fields.map = o->map;
  e->u.fields.x = o->x;
  e->u.fields.y = o->y;
  e->u.fields.archetype = o->archetype; /* the world's name: kept as long as the world */
  e->u.fields.tags = strata_value_nil();
  e->u.fields.props = strata_value_nil();
  if (strata_value_copy(&e->u.fields.tags, &o->tags, NULL) ||
      strata_value_copy(&e->u.fields.props, &o->props, NULL)) {
    discard(w, e);
    return nomem(err);
  }
  push(w);
  r->fields_in = serial;
  return STRATA_OK;
}

/* Keys journaled one by one per object and savepoint before its fields are
** saved whole. */
#define PATHS_MAX 8

/* Before a move: where the object stood, journaled alone (the position is
** all a journey or a step changes of an actor, whose properties may be large
** and are far from its record in a big world); counted with the keys
** journaled one by one (PATHS_MAX), past which the fields are saved whole. */
strata_status txn_save_position(strata_world *w, object_rec *r, strata_error *err) {
  uint64_t serial = world_serial(w);
  if (r->fields_in == serial) return STRATA_OK;
  if (r->paths_in != serial) r->paths_in = serial, r->paths = 0;
  if (++r->paths > PATHS_MAX) return txn_save_fields(w, r, err);
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  const strata_object *o = &r->o;
  e->kind = J_POSITION;
  e->u.fields.r = r;
  e->u.fields.has_pos = o->has_pos;
  e->u.fields.map = o->map;
  e->u.fields.x = o->x;
  e->u.fields.y = o->y;
  e->u.fields.archetype = o->archetype;
  e->u.fields.tags = strata_value_nil();
  e->u.fields.props = strata_value_nil();
  push(w);
  return STRATA_OK;
}

/* Before props[path] = val: a set that adds or replaces a key is journaled
** alone, with the value it replaces (an object's properties may be large: an
** area's floors grow by one key per floor generated, each in a savepoint; a
** walking actor holds its whole route, and copying it made half a walk
** step's time). A removal, or any set past PATHS_MAX, saves the fields, once
** per savepoint. The undo of an added key is a removal: no allocation. */

strata_status txn_set_path(strata_world *w, object_rec *r, const strata_value *path, size_t n,
                           const strata_value *val, strata_error *err) {
  uint64_t serial = world_serial(w);
  if (r->fields_in == serial) return STRATA_OK;
  const strata_value *t = &r->o.props;
  for (size_t i = 0; t && i + 1 < n; i++)
    t = t->type == STRATA_VTABLE ? strata_vtable_get(t->u.t, &path[i]) : NULL;
  if (n == 0 || !t || t->type != STRATA_VTABLE) return txn_save_fields(w, r, err);
  const strata_value *old = strata_vtable_get(t->u.t, &path[n - 1]);
  if (!old && val->type == STRATA_VNIL) return STRATA_OK; /* nothing changes */
  /* A removal changes the keys' order: the fields are saved whole. So are an
  ** object's after a few keys journaled one by one in this savepoint, which
  ** bounds the journal of a loop setting one key again and again. */
  if (r->paths_in != serial) r->paths_in = serial, r->paths = 0;
  if (val->type == STRATA_VNIL || ++r->paths > PATHS_MAX) return txn_save_fields(w, r, err);
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_PATH;
  e->u.path.r = r;
  e->u.path.n = 0;
  e->u.path.had = old != NULL;
  e->u.path.old = strata_value_nil();
  if (!(e->u.path.keys = strata_malloc(n * sizeof *e->u.path.keys))) return nomem(err);
  for (; e->u.path.n < n; e->u.path.n++)
    if (strata_value_copy(&e->u.path.keys[e->u.path.n], &path[e->u.path.n], NULL)) break;
  if (e->u.path.n < n || (old && strata_value_copy(&e->u.path.old, old, NULL))) {
    discard(w, e);
    return nomem(err);
  }
  push(w);
  return STRATA_OK;
}

strata_status txn_save_tiles(strata_world *w, object_rec *r, strata_error *err) {
  uint64_t serial = world_serial(w);
  /* an object without a map (given one now) journals each map it is given:
  ** only a map keeps the serial */
  if (r->o.tilemap && r->o.tilemap->tiles_in == serial) return STRATA_OK;
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_TILES;
  e->u.tiles.r = r;
  e->u.tiles.copy = NULL;
  if (r->o.tilemap && !(e->u.tiles.copy = strata_tilemap_clone(r->o.tilemap, err)))
    return err ? err->status : STRATA_ENOMEM;
  push(w);
  if (r->o.tilemap) r->o.tilemap->tiles_in = serial;
  return STRATA_OK;
}

/* The open savepoint's newest entry when it records creations. */
static journal_entry *last_created(strata_world *w) {
  if (w->njournal <= w->savepoints[w->depth - 1].mark) return NULL;
  journal_entry *e = &w->journal[w->njournal - 1];
  return e->kind == J_CREATED ? e : NULL;
}

strata_status txn_created(strata_world *w, object_rec *r, strata_error *err) {
  /* Objects made one after the other share an entry: a grid spawn makes a
  ** hundred thousand, whose entries would outweigh a tenth of them. */
  journal_entry *e = last_created(w);
  if (e && e->u.created.first + e->u.created.n == r->o.uid) {
    e->u.created.n++;
  } else {
    if (!(e = reserve(w, err))) return STRATA_ENOMEM;
    e->kind = J_CREATED;
    e->u.created.first = r->o.uid;
    e->u.created.n = 1;
    push(w);
  }
  r->fields_in = world_serial(w); /* a rollback frees it: no copy needed */
  return STRATA_OK;
}

void txn_drop_created(strata_world *w) {
  journal_entry *e = last_created(w);
  if (e && e->u.created.n > 1) e->u.created.n--;
  else txn_drop_last(w);
}

strata_status txn_deleted(strata_world *w, object_rec *r, strata_error *err) {
  uint64_t uid = r->o.uid;
  size_t n = 0;
  for (size_t i = 0; i < w->nsubs; i++) n += w->subs[i].object == uid;
  strata_subscription *subs = NULL;
  if (n && !(subs = strata_malloc(n * sizeof *subs))) return nomem(err);
  journal_entry *e = reserve(w, err);
  if (!e) { strata_free(subs); return STRATA_ENOMEM; }
  e->kind = J_DELETED;
  e->u.deleted.r = r;
  e->u.deleted.subs = subs;
  e->u.deleted.nsubs = world_take_subs(w, uid, subs);
  push(w);
  world_slot_clear(w, uid, 0);
  w->count--;
  return STRATA_OK;
}

strata_status txn_timer_added(strata_world *w, uint64_t uid, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_TIMER_ADDED;
  e->u.uid = uid;
  push(w);
  return STRATA_OK;
}

strata_status txn_timer_removed(strata_world *w, strata_timer *t, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_TIMER_REMOVED;
  e->u.timer = *t;
  t->handler = NULL;
  t->args = strata_value_nil();
  push(w);
  return STRATA_OK;
}

strata_status txn_timer_fired(strata_world *w, const strata_timer *t, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  if (t->every > 0) {
    e->kind = J_TIMER_MOVED;
    e->u.moved.uid = t->uid;
    e->u.moved.due = t->due;
  } else {
    e->kind = J_TIMER_REMOVED;
    e->u.timer = *t;
    e->u.timer.args = strata_value_nil();
    if (!(e->u.timer.handler = strata_strdup(t->handler)) ||
        strata_value_copy(&e->u.timer.args, &t->args, NULL)) {
      strata_timer_clear(&e->u.timer);
      return nomem(err);
    }
  }
  push(w);
  return STRATA_OK;
}

strata_status txn_sub_added(strata_world *w, uint64_t uid, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_SUB_ADDED;
  e->u.uid = uid;
  push(w);
  return STRATA_OK;
}

strata_status txn_sub_removed(strata_world *w, strata_subscription *s, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_SUB_REMOVED;
  e->u.sub = *s;
  s->event = s->handler = NULL;
  s->args = strata_value_nil();
  push(w);
  return STRATA_OK;
}

strata_status txn_stream_added(strata_world *w, strata_error *err) {
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_STREAM_ADDED;
  push(w);
  return STRATA_OK;
}

strata_status txn_stream_set(strata_world *w, size_t i, strata_error *err) {
  uint64_t serial = world_serial(w);
  if (w->streams[i].saved_in == serial) return STRATA_OK;
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_STREAM_SET;
  e->u.stream.index = i;
  e->u.stream.rng = w->streams[i].rng;
  push(w);
  w->streams[i].saved_in = serial;
  return STRATA_OK;
}

strata_status txn_lent_set(strata_world *w, lent_stream *l, strata_error *err) {
  uint64_t serial = world_serial(w);
  if (l->saved_in == serial) return STRATA_OK;
  journal_entry *e = reserve(w, err);
  if (!e) return STRATA_ENOMEM;
  e->kind = J_LENT_SET;
  e->u.lent.id = l->id;
  e->u.lent.rng = *l->rng;
  push(w);
  l->saved_in = serial;
  return STRATA_OK;
}
