/*
** world.h - a world: its seed, clock, random streams, objects, timers and
** event subscriptions, all as plain data (IDs are strings; no callbacks).
**
** Objects have a uid from a monotonic counter (never reused, also across a
** save), a kind ("map", "area", "actor", ...), an optional archetype ID, an
** optional position (map uid, x, y), tags and a property table (a
** STRATA_VTABLE strata_value). Timers and subscriptions draw their uids from
** the same counter, so a uid names one thing in the world.
**
** The world owns one token table (strata_world_tokens), made with it; the
** maps it makes (strata_world_create_map, and every map a save brings back)
** share it, so token traits defined on it from the game's data hold on all of
** the world's maps. A map may still take a private copy (strata_tilemap_own_tokens).
**
** Ownership: the world owns every object, timer and subscription; pointers
** returned by the getters stay valid until that thing is deleted or the world
** is freed. Strings passed in are copied.
**
** Savepoints (strata_world_begin): code that may fail half-way (a mod's
** handler) runs inside one, and a rollback undoes everything it changed.
** The world's own edits (the functions below) are journaled by themselves.
** Edits made directly through pointers the world hands out (a tile map from
** strata_world_tilemap, an object's fields) are not seen by the world:
** call strata_world_touch(w, uid) before making them.
*/
#ifndef STRATA_WORLD_H
#define STRATA_WORLD_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/rng.h"
#include "strata/tilemap.h"
#include "strata/value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_world strata_world;

typedef struct strata_object {
  uint64_t uid;
  char *kind;           /* kind and archetype are the world's copies, shared by */
  char *archetype;      /* every object naming the same: read only; NULL: none */
  int has_pos;
  uint64_t map;         /* position, when has_pos */
  int64_t x, y;
  strata_value tags;    /* nil when none, else a table { [tag] = true } */
  strata_value props;   /* always a table */
  strata_tilemap *tilemap; /* the tiles of a map object, owned by the object; else NULL */
} strata_object;

typedef struct strata_timer {
  uint64_t uid;
  double due;
  double every;         /* > 0: repeats */
  char *handler;        /* base.handler ID */
  strata_value args;
} strata_timer;

typedef struct strata_subscription {
  uint64_t uid;
  uint64_t object;      /* the source the subscription listens on */
  char *event;          /* base.event ID */
  char *handler;        /* base.handler ID */
  strata_value args;
  int64_t priority;
} strata_subscription;

STRATA_API strata_world *strata_world_new(uint64_t seed, strata_error *err);
STRATA_API void strata_world_free(strata_world *w); /* NULL is accepted */

STRATA_API uint64_t strata_world_seed(const strata_world *w);
/* The world's token table: the world holds one reference, released by
** strata_world_free (retain it to keep it longer). */
STRATA_API strata_tokens *strata_world_tokens(const strata_world *w);
STRATA_API double strata_world_time(const strata_world *w);
/* Time only moves forward: a smaller t is an error. */
STRATA_API strata_status strata_world_set_time(strata_world *w, double t, strata_error *err);
/* The next uid the counter will hand out. */
STRATA_API uint64_t strata_world_next_uid(const strata_world *w);

/* ---- objects ---- */
STRATA_API strata_status strata_world_create(strata_world *w, const char *kind, const char *archetype,
                                  uint64_t *uid, strata_error *err);
/* The object of a uid; NULL: none (or, the first read of an opened object,
** out of memory to decode its properties, which stay as the file held them:
** docs/saves.md). The pointer is the world's own object,
** writable for the world's editors (the bindings, the loader) even from a
** const world: change its fields only through the strata_object_* setters
** below, which journal for savepoints and keep the indexes; a field written
** directly is not undone by a rollback. Readers take strata_world_get. */
STRATA_API strata_object *strata_world_object(const strata_world *w, uint64_t uid);
/* The same, read-only: what a const world promises. */
static inline const strata_object *strata_world_get(const strata_world *w, uint64_t uid) {
  return strata_world_object(w, uid);
}
/* Deletes the object. The world's own bookkeeping (the objects of the kinds
** strata_kind_is_bookkeeping names) is refused: STRATA_ESTATE,
** STRATA_REFUSED_BOOKKEEPING, subject[0] the uid; the core removes those
** itself, with what they keep (a branch's cell index as it collapses). */
STRATA_API strata_status strata_world_delete(strata_world *w, uint64_t uid, strata_error *err);
/* Whether objects of kind are the world's own bookkeeping, kept by the core
** (the world record, the grid's map list, a branch's cell index: area.h,
** grid.h, branch.h): never deleted by strata_world_delete, never listed by a
** binding's list of a world's objects. NULL: 0. */
STRATA_API int strata_kind_is_bookkeeping(const char *kind);
/* Live objects in uid order: start with uid 0, pass the last uid back. NULL at the end
** (or out of memory, as strata_world_object). Writable as strata_world_object's. */
STRATA_API strata_object *strata_world_next_object(const strata_world *w, uint64_t after);
STRATA_API size_t strata_world_count(const strata_world *w);
/* The live object of that kind with the lowest uid, 0: none. Constant time
** (an index by kind), except for one scan after that object was deleted
** while others of its kind remain: what a world's one record of a kind is
** found by. */
STRATA_API uint64_t strata_world_first_of_kind(const strata_world *w, const char *kind);
/* A number that changes whenever an object of that kind is made, deleted,
** moved or edited, or such a change is undone (and with nothing else): what a
** binding's cache of views of that kind's objects compares before checking
** them one by one. Constant time. */
STRATA_API uint64_t strata_world_kind_edits(const strata_world *w, const char *kind);
/* The objects positioned on map (of kind `kind`, or all with NULL), in uid
** order: writes up to cap of them to out, returns how many there are. An
** index by map that the world keeps: the time follows the objects on that
** map, not the world's. */
STRATA_API size_t strata_world_objects_on(const strata_world *w, uint64_t map, const char *kind,
                                          uint64_t *out, size_t cap);
/* The objects on map one by one, in uid order: start with 0, pass the last
** uid back; 0 at the end. The same index. */
STRATA_API uint64_t strata_world_next_on(const strata_world *w, uint64_t map, uint64_t after);
STRATA_API strata_status strata_object_set_position(strata_world *w, uint64_t uid, uint64_t map, int64_t x,
                                         int64_t y, strata_error *err);
/* Sets (on != 0) or clears tag, a string of len bytes, in the object's tags. */
STRATA_API strata_status strata_object_set_tag(strata_world *w, uint64_t uid, const char *tag, size_t len,
                                    int on, strata_error *err);
/* Gives the object another archetype ID (NULL: none); the old string is freed. */
STRATA_API strata_status strata_object_set_archetype(strata_world *w, uint64_t uid, const char *archetype,
                                          strata_error *err);
/* Replaces the value at path (n keys) under the object's properties; val is
** taken over (left nil) on success. Intermediate tables must exist. */
STRATA_API strata_status strata_object_set(strata_world *w, uint64_t uid, const strata_value *path, size_t n,
                                strata_value *val, strata_error *err);
/* The value at path, or NULL when absent. */
STRATA_API const strata_value *strata_object_get(const strata_world *w, uint64_t uid,
                                      const strata_value *path, size_t n);

/* Gives the object uid the tile map m (the object owns it from then on and
** frees any previous one). On failure m is not taken. A rollback of a
** savepoint that attached it frees m (the object had no map) or restores
** the previous contents into m. */
STRATA_API strata_status strata_world_attach_tilemap(strata_world *w, uint64_t uid, strata_tilemap *m,
                                          strata_error *err);
/* Creates an object of kind "map" (archetype may be NULL) owning a new
** width x height tile map on the world's token table. On failure nothing is
** left behind. */
STRATA_API strata_status strata_world_create_map(strata_world *w, int width, int height,
                                     const char *archetype, uint64_t *uid, strata_error *err);
/* The object's tile map or NULL; valid until the object is deleted (for a
** deletion inside a savepoint: until the outermost savepoint commits). */
STRATA_API strata_tilemap *strata_world_tilemap(const strata_world *w, uint64_t uid);

/* ---- random streams: key -> generator state ---- */
/* The stream named key: created from (seed, key) on first use. */
STRATA_API strata_status strata_world_stream(strata_world *w, const char *key, strata_rng *out,
                                  strata_error *err);
STRATA_API strata_status strata_world_set_stream(strata_world *w, const char *key, const strata_rng *r,
                                      strata_error *err);
/* A generator lent to host code for one call under the name key (a branch
** room's cell stream: made from the seed, used once, neither kept among the
** world's streams nor saved). Until strata_world_lend_end, the two functions
** above read and write *rng under key, journaled as a stream's, so that a
** savepoint rolled back during the call puts it back; a rollback after the
** lend ended leaves *rng alone. Lends nest (the innermost of a key wins);
** key and rng must stay valid until the lend ends. ENOMEM: nothing lent. */
STRATA_API strata_status strata_world_lend_stream(strata_world *w, const char *key, strata_rng *rng,
                                       strata_error *err);
/* Ends the innermost lend. */
STRATA_API void strata_world_lend_end(strata_world *w);
STRATA_API size_t strata_world_stream_count(const strata_world *w);
/* The i-th stream (0-based, in creation order). */
STRATA_API const char *strata_world_stream_at(const strata_world *w, size_t i, strata_rng *out);

/* ---- timers, ordered by (due, uid) ----
** Kept in a heap: scheduling, cancelling, firing and skipping cost
** O(log n) in the number of timers. */
/* The shortest period of a repeating timer (world seconds): a shorter one
** would leave time barely moving while one advance runs it. */
#define STRATA_TIMER_MIN_EVERY 0.001
STRATA_API strata_status strata_world_schedule(strata_world *w, double due, double every,
                                    const char *handler, const strata_value *args,
                                    uint64_t *uid, strata_error *err);
/* Removes a timer; STRATA_ENOTFOUND when there is none with that uid. */
STRATA_API strata_status strata_world_cancel(strata_world *w, uint64_t uid, strata_error *err);
/* The earliest timer if it is due at or before `until`, else NULL. */
STRATA_API const strata_timer *strata_world_next_due(const strata_world *w, double until);
/* Consumes the timer `uid` now firing: a repeating timer is moved to due +
** every (keeping its uid), a one-shot timer is removed and moved into *out
** (which the caller clears with strata_timer_clear). */
STRATA_API strata_status strata_world_fire(strata_world *w, uint64_t uid, strata_timer *out,
                                strata_error *err);
STRATA_API void strata_timer_clear(strata_timer *t);
/* Moves the repeating timer `uid`, due at or before `until`, to its first due
** time after `until`; *skipped (may be NULL) is the number of runs passed
** over. A one-shot timer due before `until` is postponed to `until`; a
** timer not due stays as it is. */
STRATA_API strata_status strata_world_timer_skip(strata_world *w, uint64_t uid, double until,
                                     uint64_t *skipped, strata_error *err);
STRATA_API size_t strata_world_timer_count(const strata_world *w);
/* The i-th timer in (due, uid) order (0-based), NULL past the last; valid
** until the timers next change. The first call after a change puts them in
** order (O(n log n)); the calls after it cost nothing until the next change. */
STRATA_API const strata_timer *strata_world_timer_at(const strata_world *w, size_t i);

/* ---- subscriptions ---- */
STRATA_API strata_status strata_world_subscribe(strata_world *w, uint64_t object, const char *event,
                                     const char *handler, const strata_value *args,
                                     int64_t priority, uint64_t *uid, strata_error *err);
STRATA_API strata_status strata_world_unsubscribe(strata_world *w, uint64_t uid, strata_error *err);
STRATA_API size_t strata_world_subscription_count(const strata_world *w);
STRATA_API const strata_subscription *strata_world_subscription_at(const strata_world *w, size_t i);

/* ---- savepoints (world_txn.c) ----
** begin opens a savepoint; they nest. commit closes the innermost one
** keeping its changes, which then belong to the enclosing savepoint (if any);
** rollback undoes everything changed since the innermost begin and closes it.
**
** A rollback undoes: objects created (freed again), objects deleted (back,
** with the same uid, the same strata_object and strata_tilemap pointers and
** their subscriptions), every change of an object's archetype, position,
** tags, properties and tile map (cells, stacks, and traits defined on a
** private token table), timers scheduled, cancelled or fired (a one-shot
** timer comes back, a repeating one moves back), subscriptions added and
** removed, random streams (set, and created by strata_world_stream) and the
** clock. It does not undo the uid counter (uids are never reused) nor names
** interned into the world's shared token table, nor traits defined on it.
**
** Objects are restored in place: pointers obtained before the rollback stay
** valid and show the old contents. Cost: the first change of an object in a
** savepoint copies its fields (properties, tags, archetype, position); its
** first strata_world_touch or strata_world_attach_tilemap also clones its
** tile map; later changes in the same savepoint cost nothing more. Other
** changes add a small journal entry each. With no savepoint open, an edit
** costs one test more. The journal is freed when the outermost savepoint
** commits or rolls back; strata_world_free frees it with savepoints open. */
STRATA_API strata_status strata_world_begin(strata_world *w, strata_error *err);
/* Both return STRATA_ESTATE, doing nothing, when no savepoint is open. */
STRATA_API strata_status strata_world_commit(strata_world *w);
STRATA_API strata_status strata_world_rollback(strata_world *w);
/* Open savepoints: 0 when none. */
STRATA_API int strata_world_depth(const strata_world *w);
/* Call before editing object uid other than through the functions above
** (its tile map, above all): inside a savepoint, saves a copy of the object
** and its tile map, once per savepoint, so that a rollback restores them. It
** does nothing when no savepoint is open. ENOTFOUND for no such object,
** ENOMEM (nothing saved: do not make the edit). */
STRATA_API strata_status strata_world_touch(strata_world *w, uint64_t uid, strata_error *err);

/* ---- saves (save.c) ---- */
typedef struct strata_mod_version {
  char *id;
  char *version;
} strata_mod_version;

/* Writes the world to path as one SQLite database. To the file the world was
** opened from or last saved to (while no one else changed it), only what
** changed since is written, in one transaction under a rollback journal;
** to any other path, everything, into a temporary file of its own beside
** path (path.XXXXXX.tmp), flushed to disk and renamed over path. Either way
** a process killed at any instant leaves the previous save or the new one.
** Saves of one path take turns (an advisory lock, path-lock, held for the
** save; past 2 s of waiting, an error). Into its own file, a world saves
** only over the save it opened or last made there: when another process
** saved there since, STRATA_EIO "PATH was saved by another process since
** this world opened it" (unless opt->overwrite). On an error (STRATA_EIO:
** disk full, read-only, a directory, busy, a WAL or another file's journal
** beside path) the world stays as dirty as it was: the next save writes it
** all again. Not const: the world records what it saved. */
typedef struct strata_save_options {
  int overwrite; /* save over another process's later save of the world's file */
} strata_save_options;

/* opt may be NULL (no option). */
STRATA_API strata_status strata_world_save_with(strata_world *w, const char *path, const strata_mod_version *mods,
                                                size_t nmods, const strata_save_options *opt, strata_error *err);
/* strata_world_save_with, no option. */
STRATA_API strata_status strata_world_save(strata_world *w, const char *path,
                                const strata_mod_version *mods, size_t nmods, strata_error *err);
/* Reads a world saved by strata_world_save. On success *out is a new world and
** *mods / *nmods the mod list (free with strata_mod_versions_free); path
** becomes the world's file (its next save there is incremental). On failure
** nothing is allocated and the error says what is wrong with the file. A
** save by another process in progress is waited for (2 s), then an error.
** An open never writes but to roll back the journal of an interrupted save
** of this file: a PATH-wal, or a PATH-journal of another file, beside it is
** refused (STRATA_EIO naming it) and nothing is touched. */
STRATA_API strata_status strata_world_open(const char *path, strata_world **out, strata_mod_version **mods,
                                size_t *nmods, strata_error *err);
STRATA_API void strata_mod_versions_free(strata_mod_version *mods, size_t n);


#ifdef __cplusplus
}
#endif
#endif
