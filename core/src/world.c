/*
** world.c - world state: objects by uid, clock, random streams, timers,
** subscriptions. While a savepoint is open each edit first tells the journal
** (world_txn.c) what it is about to change: one test of w->depth otherwise.
*/
#include "world_internal.h"
#include "strata/alloc.h"
#include "util.h"
#include "runtime_internal.h" /* world_callbacks */
#include "tilemap_internal.h" /* a new map's tiles_in */

#include <stdlib.h>
#include <math.h>
#include <string.h>

/* FNV-1a of a name: where it goes in w->names. */
static size_t name_hash(const char *s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
  return (size_t)(h ^ (h >> 32));
}

char *world_name(strata_world *w, const char *s) {
  if (!s) return NULL;
  size_t mask = w->names_cap - 1, i = w->names_cap ? name_hash(s) & mask : 0;
  if (w->names_cap)
    for (; w->names[i]; i = (i + 1) & mask)
      if (strcmp(w->names[i], s) == 0) return w->names[i];
  if (2 * (w->nnames + 1) > w->names_cap) {
    size_t cap = w->names_cap ? 2 * w->names_cap : 16;
    char **t = strata_calloc(cap, sizeof *t);
    if (!t) return NULL;
    for (size_t k = 0; k < w->names_cap; k++)
      if (w->names[k]) {
        size_t j = name_hash(w->names[k]) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = w->names[k];
      }
    strata_free(w->names);
    w->names = t;
    w->names_cap = cap;
    for (i = name_hash(s) & (cap - 1); t[i]; i = (i + 1) & (cap - 1)) {}
  }
  char *copy = strata_strdup(s);
  if (!copy) return NULL;
  w->nnames++;
  return w->names[i] = copy;
}

strata_world *strata_world_new(uint64_t seed, strata_error *err) {
  strata_world *w = strata_calloc(1, sizeof *w);
  if (!w) { strata_error_nomem(err, NULL); return NULL; }
  if (!(w->tokens = strata_tokens_new(err))) { strata_free(w); return NULL; }
  w->seed = seed;
  w->next_uid = 1;
  w->timers_sorted = 1;
  return w;
}

void world_props_drop(strata_object *o) {
  object_rec *r = rec_of(o);
  if (r->packed == PACKED_BLOCK) strata_free(o->props.u.t);
  else if (r->packed == PACKED_NO) strata_value_clear(&o->props);
  r->packed = PACKED_NO;
  o->props = strata_value_nil();
}

/* Makes a packed object's props ordinary tables, before they change. */
static strata_status props_unpack(strata_object *o, strata_error *err) {
  if (rec_of(o)->packed == PACKED_NO) return STRATA_OK;
  strata_value copy;
  if (strata_value_copy(&copy, &o->props, NULL)) return strata_error_nomem(err, NULL);
  world_props_drop(o);
  o->props = copy;
  return STRATA_OK;
}

void world_object_free(strata_world *w, strata_object *o) {
  if (!o) return;
  strata_value_clear(&o->tags);
  world_props_drop(o);
  strata_tilemap_free(o->tilemap);
  world_recs_put(w, rec_of(o));
}

void strata_timer_clear(strata_timer *t) {
  strata_free(t->handler);
  t->handler = NULL;
  strata_value_clear(&t->args);
}

void world_sub_clear(strata_subscription *s) {
  strata_free(s->event);
  strata_free(s->handler);
  strata_value_clear(&s->args);
}

void strata_world_free(strata_world *w) {
  if (!w) return;
  txn_free(w); /* first: it may hold deleted objects and copies */
  world_dirty_free(w);
  world_bymap_free(w);
  grid_room_index_free(w);
  for (size_t i = 0; i < w->npages; i++) {
    for (size_t j = 0; j < WORLD_PAGE_SLOTS; j++) world_object_free(w, w->pages[i]->slot[j]);
  }
  strata_free(w->pages);
  strata_free(w->page_hash);
  world_props_free(w); /* after the objects and the journal, whose props may point into it */
  world_pool_free(&w->recs); /* after the objects and the journal, whose records are there */
  world_pool_free(&w->page_pool);
  strata_free(w->kinds);
  for (size_t i = 0; i < w->names_cap; i++) strata_free(w->names[i]);
  strata_free(w->names);
  for (size_t i = 0; i < w->nstreams; i++) strata_free(w->streams[i].key);
  strata_free(w->streams);
  strata_free(w->stream_slots);
  strata_free(w->lent);
  for (size_t i = 0; i < w->ntimers; i++) strata_timer_clear(&w->timers[i]);
  strata_free(w->timers);
  uidmap_free(&w->timer_at);
  for (size_t i = 0; i < w->nsubs; i++) world_sub_clear(&w->subs[i]);
  strata_free(w->subs);
  strata_tokens_release(w->tokens);
  strata_free(w);
}

uint64_t strata_world_seed(const strata_world *w) { return w->seed; }
strata_tokens *strata_world_tokens(const strata_world *w) { return w->tokens; }
double strata_world_time(const strata_world *w) { return w->time; }
uint64_t strata_world_next_uid(const strata_world *w) { return w->next_uid; }
size_t strata_world_count(const strata_world *w) { return w->count; }

strata_status strata_world_set_time(strata_world *w, double t, strata_error *err) {
  if (!(t >= w->time))
    return strata_error_set(err, STRATA_EARG, "time cannot move backwards (%g < %g)", t, w->time);
  w->time = t;
  return STRATA_OK;
}

void strata_world_restore_clock(strata_world *w, double time, uint64_t next_uid) {
  w->time = time;
  if (next_uid > w->next_uid) w->next_uid = next_uid;
}

/* ---- objects ---- */

static size_t page_hash_of(uint64_t no, size_t cap) {
  return (size_t)((no * 0x9E3779B97F4A7C15ull) >> 17) & (cap - 1);
}

static obj_page *find_page(const strata_world *w, uint64_t no) {
  if (!w->hash_cap) return NULL;
  for (size_t i = page_hash_of(no, w->hash_cap);; i = (i + 1) & (w->hash_cap - 1)) {
    obj_page *p = w->page_hash[i];
    if (!p || p->no == no) return p;
  }
}

/* Rebuilds the hash with room for the pages (load at most 1/2). */
static int rehash(strata_world *w, size_t want) {
  size_t cap = 16;
  while (cap < want * 2) cap *= 2;
  obj_page **h = strata_calloc(cap, sizeof *h);
  if (!h) return 0;
  for (size_t k = 0; k < w->npages; k++) {
    size_t i = page_hash_of(w->pages[k]->no, cap);
    while (h[i]) i = (i + 1) & (cap - 1);
    h[i] = w->pages[k];
  }
  strata_free(w->page_hash);
  w->page_hash = h;
  w->hash_cap = cap;
  return 1;
}

/* The first page whose number is >= no, as an index into w->pages. */
static size_t page_index(const strata_world *w, uint64_t no) {
  size_t lo = 0, hi = w->npages;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (w->pages[mid]->no < no) lo = mid + 1; else hi = mid;
  }
  return lo;
}

strata_object **world_slot(const strata_world *w, uint64_t uid) {
  obj_page *p = find_page(w, uid >> WORLD_PAGE_BITS);
  return p ? &p->slot[uid & (WORLD_PAGE_SLOTS - 1)] : NULL;
}

/* The slot of uid, making its page; NULL when out of memory. */
static strata_object **make_slot(strata_world *w, uint64_t uid) {
  uint64_t no = uid >> WORLD_PAGE_BITS;
  obj_page *p = find_page(w, no);
  if (!p) {
    if (!STRATA_GROW(w->pages, w->pages_cap, w->npages + 1)) return NULL;
    if ((w->npages + 1) * 2 > w->hash_cap && !rehash(w, w->npages + 1)) return NULL;
    if (!(p = world_pool_take(&w->page_pool, sizeof *p))) return NULL;
    p->no = no;
    size_t at = page_index(w, no);
    memmove(w->pages + at + 1, w->pages + at, (w->npages - at) * sizeof *w->pages);
    w->pages[at] = p;
    w->npages++;
    size_t i = page_hash_of(no, w->hash_cap);
    while (w->page_hash[i]) i = (i + 1) & (w->hash_cap - 1);
    w->page_hash[i] = p;
  }
  return &p->slot[uid & (WORLD_PAGE_SLOTS - 1)];
}

/* ---- the index by kind ---- */

static struct kind_entry *find_kind(const strata_world *w, const char *kind) {
  /* By the world's copy first (an object's kind is one): no strcmp per other kind */
  for (size_t i = 0; i < w->nkinds; i++)
    if (w->kinds[i].kind == kind) return &w->kinds[i];
  for (size_t i = 0; i < w->nkinds; i++) /* (a literal: world_kind_edits, asked by every memo) */
    if (w->kinds[i].kind[0] == kind[0] && strcmp(w->kinds[i].kind, kind) == 0) return &w->kinds[i];
  return NULL;
}

/* The entry of kind, made when missing; NULL: out of memory. */
static struct kind_entry *make_kind(strata_world *w, const char *kind) {
  struct kind_entry *e = find_kind(w, kind);
  if (e) return e;
  if (!STRATA_GROW(w->kinds, w->kinds_cap, w->nkinds + 1)) return NULL;
  const char *k = world_name(w, kind);
  if (!k) return NULL;
  e = &w->kinds[w->nkinds++];
  e->kind = k;
  e->count = 0;
  e->first = 0;
  e->edits = 0;
  return e;
}

/* The entry of an object's kind: its name is the entry's (both interned by
** world_name), so pointers compare, no strcmp per kind (a spawn adds
** thousands of objects); by name only if that ever fails. */
static struct kind_entry *object_kind(const strata_world *w, const strata_object *o) {
  for (size_t i = 0; i < w->nkinds; i++)
    if (w->kinds[i].kind == o->kind) return &w->kinds[i];
  return find_kind(w, o->kind);
}

void world_kind_edited(strata_world *w, const strata_object *o) {
  struct kind_entry *e = object_kind(w, o);
  if (e) e->edits++;
}

uint64_t world_kind_edits(const strata_world *w, const char *kind) {
  const struct kind_entry *e = find_kind(w, kind);
  return e ? e->edits : 0;
}

uint64_t strata_world_kind_edits(const strata_world *w, const char *kind) {
  return w && kind ? world_kind_edits(w, kind) : 0;
}

size_t world_kind_count(const strata_world *w, const char *kind) {
  const struct kind_entry *e = find_kind(w, kind);
  return e ? e->count : 0;
}

/* o came into its slot (its kind's entry exists). */
static void kind_added(strata_world *w, const strata_object *o) {
  struct kind_entry *e = object_kind(w, o);
  e->edits++;
  if ((e->count++ == 0 || e->first) && (!e->first || o->uid < e->first)) e->first = o->uid;
}

static void kind_removed(strata_world *w, const strata_object *o) {
  struct kind_entry *e = object_kind(w, o);
  e->count--;
  e->edits++;
  if (e->first == o->uid) e->first = 0; /* with others left: found again by a scan when asked */
}

uint64_t strata_world_first_of_kind(const strata_world *cw, const char *kind) {
  strata_world *w = (strata_world *)cw; /* first is a cache, not state */
  struct kind_entry *e = kind ? find_kind(w, kind) : NULL;
  if (!e || !e->count) return 0;
  for (strata_object *o = world_next(w, 0); !e->first && o; o = world_next(w, o->uid))
    if (strcmp(o->kind, kind) == 0) e->first = o->uid;
  return e->first;
}

void world_slot_put(strata_world *w, strata_object *o) {
  obj_page *p = find_page(w, o->uid >> WORLD_PAGE_BITS);
  p->slot[o->uid & (WORLD_PAGE_SLOTS - 1)] = o;
  p->live++;
  kind_added(w, o);
  if (o->has_pos) world_bymap_add(w, o);
  world_occupy(w, o, 1);
}

void world_slot_clear(strata_world *w, uint64_t uid, int may_free) {
  uint64_t no = uid >> WORLD_PAGE_BITS;
  obj_page *p = find_page(w, no);
  if (!p) return;
  strata_object **slot = &p->slot[uid & (WORLD_PAGE_SLOTS - 1)];
  if (*slot) {
    kind_removed(w, *slot);
    world_occupy(w, *slot, -1);
    if ((*slot)->has_pos) world_bymap_remove(w, *slot);
  }
  *slot = NULL;
  if (--p->live || !may_free || w->depth) return;
  size_t at = page_index(w, no);
  memmove(w->pages + at, w->pages + at + 1, (w->npages - at - 1) * sizeof *w->pages);
  w->npages--;
  world_pool_give(&w->page_pool, p, sizeof *p);
  /* Rebuilt in place, at the same size: nothing to allocate, nothing to fail. */
  size_t cap = w->hash_cap;
  memset(w->page_hash, 0, cap * sizeof *w->page_hash);
  for (size_t k = 0; k < w->npages; k++) {
    size_t i = page_hash_of(w->pages[k]->no, cap);
    while (w->page_hash[i]) i = (i + 1) & (cap - 1);
    w->page_hash[i] = w->pages[k];
  }
}

static obj_page *rec_page(const strata_world *w, uint64_t uid) {
  return find_page(w, uid >> WORLD_PAGE_BITS);
}

static strata_status place_object(strata_world *w, strata_object *o, strata_error *err) {
  if (o->uid == 0 || o->uid > (uint64_t)1 << 40)
    return strata_error_set(err, STRATA_EARG, "object uid %llu out of range",
                            (unsigned long long)o->uid);
  strata_object **slot = make_slot(w, o->uid);
  if (!slot || !make_kind(w, o->kind)) return strata_error_nomem(err, NULL);
  if (*slot)
    return strata_error_set(err, STRATA_ESTATE, "object uid %llu already exists",
                            (unsigned long long)o->uid);
  *slot = o;
  rec_page(w, o->uid)->live++;
  kind_added(w, o);
  if (o->has_pos) world_bymap_add(w, o);
  world_occupy(w, o, 1);
  w->count++;
  if (o->uid >= w->next_uid && (!w->uid_limit || o->uid < w->uid_limit)) w->next_uid = o->uid + 1;
  return STRATA_OK;
}

/* A new uid for object, timer or subscription: refused past a served
** world's block (its next save reserves another). */
static strata_status uid_room(const strata_world *w, strata_error *err) {
  if (!w->uid_limit || w->next_uid < w->uid_limit) return STRATA_OK;
  return strata_error_set(err, STRATA_ESTATE, "this process's block of uids is used up (strata_serve_save "
                          "reserves the next)");
}

void world_forget(strata_world *w, uint64_t uid) {
  strata_object *o = world_rec(w, uid);
  if (!o || w->depth) return;
  world_take_subs(w, uid, NULL);
  world_slot_clear(w, uid, 1);
  w->count--;
  world_object_free(w, o);
}

void world_forget_shared(strata_world *w) {
  for (size_t i = 0; i < w->ntimers; i++) strata_timer_clear(&w->timers[i]);
  w->ntimers = 0;
  uidmap_free(&w->timer_at);
  for (size_t i = 0; i < w->nsubs; i++) world_sub_clear(&w->subs[i]);
  w->nsubs = 0;
  for (size_t i = 0; i < w->nstreams; i++) strata_free(w->streams[i].key);
  w->nstreams = 0;
  strata_free(w->stream_slots); /* the index names streams gone: made again at the next */
  w->stream_slots = NULL;
  w->stream_slots_cap = w->streams_indexed = 0;
}

void world_set_uid_block(strata_world *w, uint64_t next, uint64_t limit) {
  w->next_uid = next;
  w->uid_limit = limit;
}

static strata_status no_object(strata_error *err, uint64_t uid);

/* Places the new record r (its props made when nil) as the next uid. */
static strata_status create(strata_world *w, object_rec *r, const char *kind, const char *archetype,
                            uint64_t *uid, strata_error *err) {
  strata_object *o = &r->o;
  strata_status room = uid_room(w, err);
  if (room) { world_object_free(w, o); return room; }
  o->uid = w->next_uid;
  o->kind = world_name(w, kind);
  o->archetype = world_name(w, archetype);
  strata_status st = STRATA_OK;
  if (!o->kind || (archetype && !o->archetype)) st = strata_error_nomem(err, NULL);
  if (!st && o->props.type != STRATA_VTABLE) st = strata_value_table(&o->props, err); /* tags stay nil until the first */
  if (!st && w->depth) st = txn_created(w, r, err);
  if (!st && (st = place_object(w, o, err)) && w->depth) txn_drop_created(w);
  if (st) { world_object_free(w, o); return st; }
  world_mark_object(w, o);
  if (uid) *uid = o->uid;
  return STRATA_OK;
}

strata_status strata_world_create(strata_world *w, const char *kind, const char *archetype,
                                  uint64_t *uid, strata_error *err) {
  if (!kind || !*kind) return strata_error_set(err, STRATA_EARG, "an object needs a kind");
  object_rec *r = world_recs_new(w);
  if (!r) return strata_error_nomem(err, NULL);
  return create(w, r, kind, archetype, uid, err);
}

/* A first, measuring pass. */
size_t world_pack_size(world_pack_fn build, const void *ctx) {
  value_pack p;
  strata_value v;
  p.block = NULL;
  p.used = 0;
  build(ctx, &p, &v);
  return p.used;
}

strata_status world_create_packed(strata_world *w, const char *kind, world_pack_fn build, const void *ctx,
                                  size_t reserve, uint64_t *uid, strata_error *err) {
  size_t bytes = world_pack_size(build, ctx);
  if (bytes < reserve) bytes = reserve;
  bytes = (bytes + 7) & ~(size_t)7;
  if (bytes > UINT32_MAX) return strata_error_nomem(err, NULL);
  object_rec *r = strata_calloc(1, sizeof *r + bytes);
  if (!r) return strata_error_nomem(err, NULL);
  value_pack p;
  p.block = (unsigned char *)(r + 1);
  p.used = 0;
  build(ctx, &p, &r->o.props);
  r->packed = (uint32_t)bytes;
  return create(w, r, kind, NULL, uid, err);
}

strata_status world_repack(strata_world *w, uint64_t uid, world_pack_fn build, const void *ctx,
                           strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  object_rec *r = rec_of(o);
  size_t bytes = world_pack_size(build, ctx);
  uint32_t tail = r->packed > PACKED_BLOCK ? r->packed : 0;
  value_pack p;
  p.block = bytes <= tail ? (unsigned char *)(r + 1) : strata_malloc(bytes);
  p.used = 0;
  if (!p.block) return strata_error_nomem(err, NULL);
  strata_status st;
  if (w->depth && (st = txn_save_fields(w, r, err))) {
    if (bytes > tail) strata_free(p.block);
    return st;
  }
  world_mark(w, uid);
  world_props_drop(o);
  build(ctx, &p, &o->props);
  r->packed = bytes <= tail ? tail : PACKED_BLOCK;
  return STRATA_OK;
}

/* The restore functions are the loader's, on a world it is building: they
** are not journaled, so they refuse to run inside a savepoint. */
static strata_status not_in_savepoint(strata_error *err) {
  return strata_error_set(err, STRATA_ESTATE, "cannot restore into a world with a savepoint open");
}

strata_status strata_world_restore_object(strata_world *w, strata_object *o, strata_error *err) {
  if (w->depth) return not_in_savepoint(err);
  object_rec *r = world_recs_new(w);
  if (!r) return strata_error_nomem(err, NULL);
  r->o = *o;
  if (o->tags.type == STRATA_VTABLE && !o->tags.u.t->n) strata_value_clear(&r->o.tags); /* none: nil */
  r->o.kind = world_name(w, o->kind);
  r->o.archetype = world_name(w, o->archetype);
  strata_status st = !r->o.kind || (o->archetype && !r->o.archetype) ? strata_error_nomem(err, NULL) : place_object(w, &r->o, err);
  if (st) { world_recs_put(w, r); return st; }
  memset(o, 0, sizeof *o);
  return STRATA_OK;
}

/* What readers get: o with its props decoded; NULL when that ran out of
** memory (the object is left as it was, to be decoded by a later read).
** The world's shapes change as it is read (a cache): w is const to callers. */
static strata_object *readable(const strata_world *w, strata_object *o) {
  return o && world_props_ready((strata_world *)w, o, NULL) ? NULL : o;
}

strata_object *strata_world_object(const strata_world *w, uint64_t uid) { return readable(w, world_rec(w, uid)); }

strata_object *world_next(const strata_world *w, uint64_t after) {
  if (after == UINT64_MAX) return NULL;
  uint64_t from = after + 1;
  for (size_t k = page_index(w, from >> WORLD_PAGE_BITS); k < w->npages; k++) {
    const obj_page *p = w->pages[k];
    size_t j = p->no == from >> WORLD_PAGE_BITS ? (size_t)(from & (WORLD_PAGE_SLOTS - 1)) : 0;
    if (p->live)
      for (; j < WORLD_PAGE_SLOTS; j++)
        if (p->slot[j]) return p->slot[j];
  }
  return NULL;
}

strata_object *strata_world_next_object(const strata_world *w, uint64_t after) {
  return readable(w, world_next(w, after));
}

static strata_status no_object(strata_error *err, uint64_t uid) {
  return strata_error_set(err, STRATA_ENOTFOUND, "no object #%llu (deleted or never created)",
                          (unsigned long long)uid);
}

size_t world_take_subs(strata_world *w, uint64_t uid, strata_subscription *into) {
  size_t j = 0, n = 0;
  for (size_t i = 0; i < w->nsubs; i++) {
    if (w->subs[i].object != uid) w->subs[j++] = w->subs[i];
    else if (into) into[n++] = w->subs[i];
    else world_sub_clear(&w->subs[i]), n++;
  }
  w->nsubs = j;
  return n;
}

strata_status strata_world_delete(strata_world *w, uint64_t uid, strata_error *err) {
  const strata_object *o = world_rec(w, uid);
  if (o && strata_kind_is_bookkeeping(o->kind))
    return strata_error_refuse(err, STRATA_ESTATE, "strata_world_delete", STRATA_REFUSED_BOOKKEEPING, uid,
                               "%.24s#%llu is the world's own bookkeeping: it cannot be deleted", o->kind,
                               (unsigned long long)uid);
  return world_delete(w, uid, err);
}

/* A map whose tiles a search with a cost callback reads (the callback may
** try to delete it or replace them): refused until the search ends. */
static strata_status not_searched(const strata_object *o, const char *function, strata_error *err) {
  if (!o->tilemap || !o->tilemap->searching) return STRATA_OK;
  return strata_error_in(err, STRATA_ESTATE, function,
                         "map#%llu is being searched (a search's cost callback cannot delete it or replace its tiles)",
                         (unsigned long long)o->uid);
}

strata_status world_delete(strata_world *w, uint64_t uid, strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  strata_status busy = not_searched(o, "strata_world_delete", err);
  if (busy) return busy;
  world_mark_object(w, o);
  for (size_t i = 0; i < w->nsubs; i++)
    if (w->subs[i].object == uid) world_mark_uid(w, w->subs[i].uid);
  /* Inside a savepoint the journal keeps the object, to put it back. */
  if (w->depth) return txn_deleted(w, rec_of(o), err);
  /* Subscriptions on the object go with it: nothing can emit on it any more. */
  world_take_subs(w, uid, NULL);
  world_slot_clear(w, uid, 1);
  w->count--;
  world_object_free(w, o);
  return STRATA_OK;
}

strata_status strata_object_set_archetype(strata_world *w, uint64_t uid, const char *archetype,
                                          strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  world_mark_object(w, o);
  strata_status st;
  if (w->depth && (st = txn_save_fields(w, rec_of(o), err))) return st;
  char *name = world_name(w, archetype);
  if (archetype && !name) return strata_error_nomem(err, NULL);
  o->archetype = name;
  return STRATA_OK;
}

strata_status strata_object_set_position(strata_world *w, uint64_t uid, uint64_t map, int64_t x,
                                         int64_t y, strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  world_mark_object(w, o);
  strata_status st;
  if (w->depth && (st = txn_save_position(w, rec_of(o), err))) return st;
  int moves = !o->has_pos || o->map != map;
  world_occupy(w, o, -1);
  if (moves && o->has_pos) world_bymap_remove(w, o);
  o->has_pos = 1;
  o->map = map;
  o->x = x;
  o->y = y;
  if (moves) world_bymap_add(w, o);
  world_occupy(w, o, 1);
  return STRATA_OK;
}

void world_callbacks(strata_world *w, int delta) { w->callbacks += delta; }

strata_status world_not_in_callback(const strata_world *w, const char *function, const char *what,
                                    strata_error *err) {
  if (!w->callbacks) return STRATA_OK;
  return strata_error_in(err, STRATA_ESTATE, function,
                         "cannot %s the world it runs in (inside a callback: a handler, generator or hook)", what);
}

const strata_value *strata_object_get(const strata_world *w, uint64_t uid,
                                      const strata_value *path, size_t n) {
  strata_object *o = strata_world_object(w, uid);
  if (!o) return NULL;
  const strata_value *v = &o->props;
  for (size_t i = 0; i < n; i++) {
    if (v->type != STRATA_VTABLE) return NULL;
    v = strata_vtable_get(v->u.t, &path[i]);
    if (!v) return NULL;
  }
  return v;
}

strata_status strata_object_set(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                                strata_value *val, strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  /* path and value together: a value set deep in a deep table saves, and opens */
  strata_status st = strata_value_check_depth(val, n, err);
  if (!st) st = world_props_ready(w, o, err);
  if (!st) st = props_unpack(o, err);
  if (st) return st;
  world_mark_object(w, o);
  if (w->depth && (st = n ? txn_set_path(w, rec_of(o), path, n, val, err)
                          : txn_save_fields(w, rec_of(o), err)))
    return st;
  if (n == 0) {
    if (val->type != STRATA_VTABLE)
      return strata_error_set(err, STRATA_EARG, "properties must be a table");
    strata_value_clear(&o->props);
    o->props = *val;
    *val = strata_value_nil();
    return STRATA_OK;
  }
  strata_value *t = &o->props;
  for (size_t i = 0; i + 1 < n; i++) {
    t = strata_vtable_get(t->u.t, &path[i]);
    if (!t || t->type != STRATA_VTABLE)
      return strata_error_set(err, STRATA_ENOTFOUND, "key %zu of the path is not a table", i + 1);
  }
  return strata_vtable_set(t->u.t, &path[n - 1], val, err);
}

strata_status strata_world_attach_tilemap(strata_world *w, uint64_t uid, strata_tilemap *m,
                                          strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  if (!m) return strata_error_set(err, STRATA_EARG, "no tile map given");
  if (o->tilemap == m) return STRATA_OK;
  strata_status st = not_searched(o, "strata_world_attach_tilemap", err);
  if (st) return st;
  if (w->depth && (st = txn_save_tiles(w, rec_of(o), err))) return st;
  strata_tilemap_free(o->tilemap);
  o->tilemap = m;
  world_mark_map(w, uid);
  world_occupancy_count(w, uid);
  return STRATA_OK;
}

strata_status strata_object_set_tag(strata_world *w, uint64_t uid, const char *tag, size_t len,
                                    int on, strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  world_mark_object(w, o);
  if (!tag || len == 0) return strata_error_set(err, STRATA_EARG, "a tag must be a non-empty string");
  strata_value key, val = on ? strata_value_bool(1) : strata_value_nil();
  strata_status st;
  if (w->depth && (st = txn_save_fields(w, rec_of(o), err))) return st;
  /* Most objects have no tags: theirs stay nil (an empty table costs 64
  ** bytes an object), and the last tag removed makes them nil again. */
  if (o->tags.type != STRATA_VTABLE && !on) return STRATA_OK;
  if (o->tags.type != STRATA_VTABLE && (st = strata_value_table(&o->tags, err))) return st;
  if ((st = strata_value_string(&key, tag, len, err))) return st;
  st = strata_vtable_set(o->tags.u.t, &key, &val, err);
  strata_value_clear(&key);
  if (!o->tags.u.t->n) strata_value_clear(&o->tags);
  return st;
}

strata_status strata_world_touch(strata_world *w, uint64_t uid, strata_error *err) {
  strata_object *o = world_rec(w, uid);
  if (!o) return no_object(err, uid);
  world_mark_object(w, o);
  strata_status st = STRATA_OK;
  if (w->depth && !(st = txn_save_fields(w, rec_of(o), err)) && o->tilemap)
    st = txn_save_tiles(w, rec_of(o), err);
  return st;
}

strata_status strata_world_create_map(strata_world *w, int width, int height,
                                     const char *archetype, uint64_t *uid, strata_error *err) {
  strata_tilemap *m = strata_tilemap_new(width, height, w->tokens, err);
  if (!m) return err ? err->status : STRATA_ENOMEM;
  uint64_t u;
  strata_status st = strata_world_create(w, "map", archetype, &u, err);
  if (st) { strata_tilemap_free(m); return st; }
  world_rec(w, u)->tilemap = m; /* a new object: nothing to free or save */
  if (w->depth) m->tiles_in = world_serial(w); /* nor to copy: a rollback frees it with the object */
  world_mark_map(w, u);
  if (uid) *uid = u;
  return STRATA_OK;
}

strata_tilemap *strata_world_tilemap(const strata_world *w, uint64_t uid) {
  strata_object *o = world_rec(w, uid);
  return o ? o->tilemap : NULL;
}

/* ---- random streams ---- */

static size_t key_hash(const char *key) {
  uint64_t h = 1469598103934665603u; /* FNV-1a */
  for (const unsigned char *p = (const unsigned char *)key; *p; p++) h = (h ^ *p) * 1099511628211u;
  return (size_t)(h ^ (h >> 29));
}

static void index_put(strata_world *w, size_t i) {
  size_t mask = w->stream_slots_cap - 1, j = key_hash(w->streams[i].key) & mask;
  while (w->stream_slots[j]) j = (j + 1) & mask;
  w->stream_slots[j] = i + 1;
}

/* Brings the index up to the streams there are: appends, or a rebuild when a
** rollback removed some (or the table must grow). 0: out of memory. */
static int index_streams(strata_world *w) {
  size_t need = 16;
  while (need < 2 * w->nstreams) need *= 2;
  if (w->streams_indexed > w->nstreams || need > w->stream_slots_cap) {
    size_t *slots = strata_calloc(need, sizeof *slots);
    if (!slots) return 0;
    strata_free(w->stream_slots);
    w->stream_slots = slots;
    w->stream_slots_cap = need;
    w->streams_indexed = 0;
  }
  while (w->streams_indexed < w->nstreams) index_put(w, w->streams_indexed++);
  return 1;
}

static stream *find_stream(const strata_world *cw, const char *key) {
  strata_world *w = (strata_world *)cw; /* the index is a cache, not state */
  if (!index_streams(w)) {
    for (size_t i = 0; i < w->nstreams; i++)
      if (strcmp(w->streams[i].key, key) == 0) return &w->streams[i];
    return NULL;
  }
  size_t mask = w->stream_slots_cap - 1;
  for (size_t j = key_hash(key) & mask; w->stream_slots[j]; j = (j + 1) & mask) {
    stream *s = &w->streams[w->stream_slots[j] - 1];
    if (strcmp(s->key, key) == 0) return s;
  }
  return NULL;
}

static stream *add_stream(strata_world *w, const char *key, strata_error *err) {
  if (w->depth && txn_stream_added(w, err)) return NULL;
  char *k = NULL;
  if (!STRATA_GROW(w->streams, w->streams_cap, w->nstreams + 1) ||
      !(k = strata_strdup(key))) {
    if (w->depth) txn_drop_last(w);
    strata_error_nomem(err, NULL);
    return NULL;
  }
  stream *s = &w->streams[w->nstreams++];
  world_mark_streams(w);
  s->key = k;
  s->saved_in = w->depth ? world_serial(w) : 0; /* new: a rollback drops it whole */
  strata_rng_stream(&s->rng, w->seed, key, strlen(key));
  return s;
}

/* The innermost generator lent under key, or NULL. */
static lent_stream *find_lent(strata_world *w, const char *key) {
  for (size_t i = w->nlent; i-- > 0;)
    if (strcmp(w->lent[i].key, key) == 0) return &w->lent[i];
  return NULL;
}

strata_status strata_world_lend_stream(strata_world *w, const char *key, strata_rng *rng,
                                       strata_error *err) {
  if (!STRATA_GROW(w->lent, w->lent_cap, w->nlent + 1)) return strata_error_nomem(err, NULL);
  w->lent[w->nlent++] = (lent_stream){ key, rng, ++w->lent_ids, 0 };
  return STRATA_OK;
}

void strata_world_lend_end(strata_world *w) {
  if (w->nlent) w->nlent--;
}

strata_status strata_world_stream(strata_world *w, const char *key, strata_rng *out,
                                  strata_error *err) {
  lent_stream *l = w->nlent ? find_lent(w, key) : NULL;
  if (l) {
    *out = *l->rng;
    return STRATA_OK;
  }
  stream *s = find_stream(w, key);
  if (!s && !(s = add_stream(w, key, err))) return err ? err->status : STRATA_ENOMEM;
  *out = s->rng;
  return STRATA_OK;
}

strata_status strata_world_set_stream(strata_world *w, const char *key, const strata_rng *r,
                                      strata_error *err) {
  strata_status st;
  lent_stream *l = w->nlent ? find_lent(w, key) : NULL;
  if (l) {
    if (w->depth && (st = txn_lent_set(w, l, err))) return st;
    *l->rng = *r;
    return STRATA_OK;
  }
  stream *s = find_stream(w, key);
  if (!s && !(s = add_stream(w, key, err))) return err ? err->status : STRATA_ENOMEM;
  /* The Lua side sets every stream before each save: an unmoved one is no change. */
  if (s->rng.state == r->state && s->rng.inc == r->inc) return STRATA_OK;
  if (w->depth && (st = txn_stream_set(w, (size_t)(s - w->streams), err))) return st;
  s->rng = *r;
  world_mark_streams(w);
  return STRATA_OK;
}

size_t strata_world_stream_count(const strata_world *w) { return w->nstreams; }

const char *strata_world_stream_at(const strata_world *w, size_t i, strata_rng *out) {
  if (i >= w->nstreams) return NULL;
  if (out) *out = w->streams[i].rng;
  return w->streams[i].key;
}

/* ---- timers ----
** A binary heap by (due, uid): scheduling, firing, cancelling and skipping
** cost O(log n) whatever the number of timers (a sorted array cost a memmove
** of the whole array per change: quadratic at the 100,000 runs one advance
** allows). uids are unique, so (due, uid) orders all timers and the heap
** gives them in exactly a sorted list's order. */

static int timer_before(const strata_timer *a, const strata_timer *b) {
  return a->due < b->due || (a->due == b->due && a->uid < b->uid);
}

/* Puts t (whose uid is in the index) at i. */
static void timer_put(strata_world *w, size_t i, const strata_timer *t) {
  w->timers[i] = *t;
  *uidmap_get(&w->timer_at, t->uid) = i;
}

/* Fills the hole at i (< ntimers) with t: up toward the root while t comes
** before its parent, else down while a child comes before t. */
static void timer_sift(strata_world *w, size_t i, strata_timer t) {
  while (i > 0 && timer_before(&t, &w->timers[(i - 1) / 2])) {
    timer_put(w, i, &w->timers[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  for (size_t c; (c = 2 * i + 1) < w->ntimers; i = c) {
    if (c + 1 < w->ntimers && timer_before(&w->timers[c + 1], &w->timers[c])) c++;
    if (!timer_before(&w->timers[c], &t)) break;
    timer_put(w, i, &w->timers[c]);
  }
  timer_put(w, i, &t);
}

strata_status world_insert_timer(strata_world *w, strata_timer *t, strata_error *err) {
  if (!STRATA_GROW(w->timers, w->timers_cap, w->ntimers + 1) ||
      !uidmap_put(&w->timer_at, t->uid, w->ntimers))
    return strata_error_nomem(err, NULL);
  /* In order after the last (an open reads them so): the array stays sorted. */
  w->timers_sorted = w->timers_sorted && (!w->ntimers || timer_before(&w->timers[w->ntimers - 1], t));
  timer_sift(w, w->ntimers++, *t);
  memset(t, 0, sizeof *t);
  return STRATA_OK;
}

void world_retime_timer(strata_world *w, size_t i, double due) {
  strata_timer t = w->timers[i];
  t.due = due;
  timer_sift(w, i, t);
  w->timers_sorted = 0;
}

static strata_status check_timer(const strata_timer *t, strata_error *err) {
  if (!(t->due == t->due) || !(t->every >= 0) || t->every != t->every || t->every > 1e300 ||
      t->due > TIMER_LAST_DUE || t->due < -TIMER_LAST_DUE)
    return strata_error_set(err, STRATA_EARG, "timer times must be finite and 'every' >= 0");
  /* A period so short that time barely moves would make one advance run a
  ** timer without end (every = 1e-300): a repeating timer needs a minimum. */
  if (t->every > 0 && t->every < STRATA_TIMER_MIN_EVERY)
    return strata_error_set(err, STRATA_EARG, "'every' must be 0 (once) or at least %g",
                            STRATA_TIMER_MIN_EVERY);
  if (!t->handler || !*t->handler)
    return strata_error_set(err, STRATA_EARG, "a timer needs a handler ID");
  return STRATA_OK;
}

strata_status strata_world_schedule(strata_world *w, double due, double every,
                                    const char *handler, const strata_value *args,
                                    uint64_t *uid, strata_error *err) {
  strata_timer t;
  memset(&t, 0, sizeof t);
  t.due = due;
  t.every = every;
  t.handler = (char *)handler;
  strata_status st = check_timer(&t, err);
  if (st) return st;
  t.handler = strata_strdup(handler);
  if (!t.handler) return strata_error_nomem(err, NULL);
  if (args && (st = strata_value_copy(&t.args, args, err))) { strata_free(t.handler); return st; }
  if ((st = uid_room(w, err))) { strata_timer_clear(&t); return st; }
  t.uid = w->next_uid;
  if (w->depth && (st = txn_timer_added(w, t.uid, err))) { strata_timer_clear(&t); return st; }
  if ((st = world_insert_timer(w, &t, err))) {
    if (w->depth) txn_drop_last(w);
    strata_timer_clear(&t);
    return st;
  }
  w->next_uid++;
  world_mark_uid(w, w->next_uid - 1);
  if (uid) *uid = w->next_uid - 1;
  return STRATA_OK;
}

strata_status strata_world_restore_timer(strata_world *w, strata_timer *t, strata_error *err) {
  if (w->depth) return not_in_savepoint(err);
  strata_status st = check_timer(t, err);
  if (st) return st;
  if (t->uid == 0) return strata_error_set(err, STRATA_EARG, "timer uid 0");
  /* Uids are unique in a save (its primary key): no scan per timer here,
  ** which would make opening n timers cost n^2. */
  uint64_t uid = t->uid;
  if ((st = world_insert_timer(w, t, err))) return st;
  if (uid >= w->next_uid) w->next_uid = uid + 1;
  return STRATA_OK;
}

size_t world_find_timer(const strata_world *w, uint64_t uid) {
  const size_t *i = uidmap_get(&w->timer_at, uid);
  return i ? *i : (size_t)-1;
}

/* The last timer fills the hole. */
void world_remove_timer(strata_world *w, size_t i) {
  uidmap_del(&w->timer_at, w->timers[i].uid);
  if (i == --w->ntimers) return;
  timer_sift(w, i, w->timers[w->ntimers]);
  w->timers_sorted = 0;
}

strata_status strata_world_cancel(strata_world *w, uint64_t uid, strata_error *err) {
  size_t i = world_find_timer(w, uid);
  if (i == (size_t)-1)
    return strata_error_set(err, STRATA_ENOTFOUND, "no timer #%llu", (unsigned long long)uid);
  strata_status st;
  world_mark_uid(w, uid);
  if (w->depth && (st = txn_timer_removed(w, &w->timers[i], err))) return st;
  strata_timer_clear(&w->timers[i]);
  world_remove_timer(w, i);
  return STRATA_OK;
}

const strata_timer *strata_world_next_due(const strata_world *w, double until) {
  if (w->ntimers == 0 || w->timers[0].due > until) return NULL;
  return &w->timers[0];
}

strata_status strata_world_fire(strata_world *w, uint64_t uid, strata_timer *out,
                                strata_error *err) {
  size_t i = world_find_timer(w, uid);
  if (i == (size_t)-1)
    return strata_error_set(err, STRATA_ENOTFOUND, "no timer #%llu", (unsigned long long)uid);
  strata_status st;
  world_mark_uid(w, uid);
  if (w->depth && (st = txn_timer_fired(w, &w->timers[i], err))) return st;
  const strata_timer *t = &w->timers[i];
  if (t->every > 0) {
    /* The caller gets a copy; the timer stays, moved on. */
    strata_timer copy;
    memset(&copy, 0, sizeof copy);
    copy.uid = t->uid;
    copy.due = t->due;
    copy.every = t->every;
    copy.handler = strata_strdup(t->handler);
    st = copy.handler ? strata_value_copy(&copy.args, &t->args, err) : strata_error_nomem(err, NULL);
    if (st) {
      strata_free(copy.handler);
      if (w->depth) txn_drop_last(w);
      return st;
    }
    world_retime_timer(w, i, t->due + t->every);
    *out = copy;
  } else {
    *out = *t;
    world_remove_timer(w, i);
  }
  return STRATA_OK;
}

strata_status strata_world_timer_skip(strata_world *w, uint64_t uid, double until,
                                     uint64_t *skipped, strata_error *err) {
  size_t i = world_find_timer(w, uid);
  if (i == (size_t)-1)
    return strata_error_set(err, STRATA_ENOTFOUND, "no timer #%llu", (unsigned long long)uid);
  strata_timer *t = &w->timers[i];
  uint64_t k = 0;
  world_mark_uid(w, uid);
  if (t->every == 0 && t->due < until) {
    /* A one-shot timer is postponed to until, never dropped. */
    strata_status st;
    if (w->depth && (st = txn_timer_fired(w, t, err))) return st;
    world_retime_timer(w, i, until);
  } else if (t->every > 0 && t->due <= until) {
    strata_status st;
    if (w->depth && (st = txn_timer_fired(w, t, err))) return st;
    double n = floor((until - t->due) / t->every) + 1;
    double due = t->due + n * t->every;
    /* Rounding may leave it at or before until: it must end up after. */
    if (!(due > until)) due = nextafter(until, INFINITY);
    k = n > 1.8e19 ? UINT64_MAX : (uint64_t)n;
    world_retime_timer(w, i, due);
  }
  if (skipped) *skipped = k;
  return STRATA_OK;
}

static int timer_cmp(const void *a, const void *b) {
  return timer_before(a, b) ? -1 : timer_before(b, a);
}

size_t strata_world_timer_count(const strata_world *w) { return w->ntimers; }

/* A sorted array is a heap: sorting it in place lists the timers in order
** and leaves the heap valid, once per change however many are read. */
const strata_timer *strata_world_timer_at(const strata_world *cw, size_t i) {
  if (i >= cw->ntimers) return NULL;
  if (!cw->timers_sorted) {
    strata_world *w = (strata_world *)cw; /* the order is a cache, not state */
    qsort(w->timers, w->ntimers, sizeof *w->timers, timer_cmp);
    for (size_t j = 0; j < w->ntimers; j++) *uidmap_get(&w->timer_at, w->timers[j].uid) = j;
    w->timers_sorted = 1;
  }
  return &cw->timers[i];
}

/* ---- subscriptions ---- */

strata_status world_add_sub(strata_world *w, strata_subscription *s, strata_error *err) {
  if (!STRATA_GROW(w->subs, w->subs_cap, w->nsubs + 1)) return strata_error_nomem(err, NULL);
  /* Keep uid order, which a restore may not follow. */
  size_t i = w->nsubs;
  while (i > 0 && w->subs[i - 1].uid > s->uid) i--;
  memmove(w->subs + i + 1, w->subs + i, (w->nsubs - i) * sizeof *w->subs);
  w->subs[i] = *s;
  w->nsubs++;
  memset(s, 0, sizeof *s);
  return STRATA_OK;
}

strata_status strata_world_subscribe(strata_world *w, uint64_t object, const char *event,
                                     const char *handler, const strata_value *args,
                                     int64_t priority, uint64_t *uid, strata_error *err) {
  if (!world_rec(w, object)) return no_object(err, object);
  if (!event || !*event || !handler || !*handler)
    return strata_error_set(err, STRATA_EARG, "a subscription needs an event and a handler ID");
  strata_subscription s;
  memset(&s, 0, sizeof s);
  s.uid = w->next_uid;
  s.object = object;
  s.priority = priority;
  s.event = strata_strdup(event);
  s.handler = strata_strdup(handler);
  strata_status st = (!s.event || !s.handler) ? strata_error_nomem(err, NULL) : uid_room(w, err);
  if (!st && args) st = strata_value_copy(&s.args, args, err);
  if (!st && w->depth && (st = txn_sub_added(w, s.uid, err))) { world_sub_clear(&s); return st; }
  if (!st && (st = world_add_sub(w, &s, err)) && w->depth) txn_drop_last(w);
  if (st) { world_sub_clear(&s); return st; }
  world_mark_uid(w, w->next_uid);
  w->next_uid++;
  if (uid) *uid = w->next_uid - 1;
  return STRATA_OK;
}

strata_status strata_world_restore_subscription(strata_world *w, strata_subscription *s,
                                                strata_error *err) {
  if (w->depth) return not_in_savepoint(err);
  if (!world_rec(w, s->object)) return no_object(err, s->object);
  if (s->uid == 0 || !s->event || !s->handler)
    return strata_error_set(err, STRATA_EARG, "incomplete subscription");
  uint64_t uid = s->uid;
  strata_status st = world_add_sub(w, s, err);
  if (!st && uid >= w->next_uid) w->next_uid = uid + 1;
  return st;
}

size_t world_find_sub(const strata_world *w, uint64_t uid) {
  for (size_t i = 0; i < w->nsubs; i++)
    if (w->subs[i].uid == uid) return i;
  return (size_t)-1;
}

void world_remove_sub(strata_world *w, size_t i) {
  memmove(w->subs + i, w->subs + i + 1, (w->nsubs - i - 1) * sizeof *w->subs);
  w->nsubs--;
}

strata_status strata_world_unsubscribe(strata_world *w, uint64_t uid, strata_error *err) {
  size_t i = world_find_sub(w, uid);
  if (i == (size_t)-1)
    return strata_error_set(err, STRATA_ENOTFOUND, "no subscription #%llu",
                            (unsigned long long)uid);
  strata_status st;
  world_mark_uid(w, uid);
  if (w->depth && (st = txn_sub_removed(w, &w->subs[i], err))) return st;
  world_sub_clear(&w->subs[i]);
  world_remove_sub(w, i);
  return STRATA_OK;
}

size_t strata_world_subscription_count(const strata_world *w) { return w->nsubs; }
const strata_subscription *strata_world_subscription_at(const strata_world *w, size_t i) {
  return i < w->nsubs ? &w->subs[i] : NULL;
}
