/*
** world_internal.h - the world's representation, shared by world.c (the
** state and its edits) and world_txn.c (savepoints: the journal that undoes
** those edits).
*/
#ifndef STRATA_WORLD_INTERNAL_H
#define STRATA_WORLD_INTERNAL_H

/* The latest time a timer can be due (world.c's check_timer; turns.c says
** so of a turn that would start later). */
#define TIMER_LAST_DUE 1e300

#include "strata/world.h"
#include "uidset.h"
#include "value_internal.h"

/* Used by the loader (save.c): restores the counter and time and inserts an
** object or timer with a given uid (the world takes over the values in *o /
** *t, except an object's kind and archetype, which it looks up among its
** names: the caller's strings are only read). They are not journaled:
** STRATA_ESTATE inside a savepoint. Internal: not exported from the library. */
strata_status strata_world_restore_object(strata_world *w, strata_object *o, strata_error *err);
strata_status strata_world_restore_timer(strata_world *w, strata_timer *t, strata_error *err);
strata_status strata_world_restore_subscription(strata_world *w, strata_subscription *s,
                                                strata_error *err);
void strata_world_restore_clock(strata_world *w, double time, uint64_t next_uid);
/* Takes object uid (and the subscriptions on it) out of the world as if it
** had never been read, with no record of a change: a served world lets go
** of what another process owns (serve.c). Not inside a savepoint. */
void world_forget(strata_world *w, uint64_t uid);
/* Drops every timer, subscription and random stream, unrecorded (a
** served world without the scope "world"). */
void world_forget_shared(strata_world *w);
/* The uids [next, limit) are this world's to hand out (a served world's
** block); a restored object outside it moves the counter no more. */
void world_set_uid_block(strata_world *w, uint64_t next, uint64_t limit);

typedef struct stream {
  char *key;
  strata_rng rng;
  uint64_t saved_in;       /* serial of the savepoint that last saved it */
} stream;

/* A generator lent under a key for one call (strata_world_lend_stream). */
typedef struct lent_stream {
  const char *key;         /* the lender's: valid while lent */
  strata_rng *rng;
  uint64_t id;             /* what the journal names it by (ids are never reused) */
  uint64_t saved_in;       /* as stream's */
} lent_stream;

/* An object as the world allocates it: the public part first, so that a
** strata_object * is an object_rec *, then which savepoints have saved it.
** A savepoint's first change of an object saves a copy (copy on first
** touch); the serials tell whether the open savepoint has one already. */
typedef struct object_rec {
  strata_object o;
  uint64_t fields_in;      /* serial of the savepoint that saved the fields last */
  uint64_t paths_in;       /* serial of the savepoint that journaled keys of it one by one */
  uint32_t paths;          /* ... how many (past a few, the fields are saved whole) */
  uint32_t packed;         /* PACKED_NO, PACKED_BLOCK, or the bytes of a packed tail */
  uint64_t changed;        /* w->changes at its last edit or undo (world_mark): world_object_stamp */
  /* What only a map's object needs (the savepoint that saved its tiles, the
  ** map the file holds for it) is its tile map's (tilemap_internal.h): a
  ** record of 144 bytes, carved from the world's chunks (world_recs.c). */
} object_rec;

static inline object_rec *rec_of(strata_object *o) { return (object_rec *)o; }

/* Packed objects: props as a packed tree (value_internal.h), one block for
** every table and string of them: a grid spawn's rooms and exits, a hundred
** thousand of them, at one allocation each rather than twenty-five. The tree
** lies in a block of its own at props.u.t (packed == PACKED_BLOCK) or after
** the record, in its allocation, a tail of `packed` bytes (a multiple of 8).
** Readers see ordinary tables; a change of props (strata_object_set) first
** makes them ordinary, and freeing them frees the block, not its parts
** (world_props_drop). */
enum { PACKED_NO = 0, PACKED_BLOCK = 1 };
/* Lays out a packed tree into p (called twice: measuring, then filling). */
typedef void (*world_pack_fn)(const void *ctx, value_pack *p, strata_value *out);
/* A new object of kind (no archetype) whose props build lays out after its
** record, in a tail of at least `reserve` bytes (room for a later
** world_repack); otherwise as strata_world_create. */
strata_status world_create_packed(strata_world *w, const char *kind, world_pack_fn build, const void *ctx,
                                  size_t reserve, uint64_t *uid, strata_error *err);
/* The bytes of the tree build lays out. */
size_t world_pack_size(world_pack_fn build, const void *ctx);
/* Replaces uid's props by the packed tree build lays out, in its tail when
** it fits there (a change of its fields, journaled as any). */
strata_status world_repack(strata_world *w, uint64_t uid, world_pack_fn build, const void *ctx,
                           strata_error *err);
/* Frees o's props (packed or not) and leaves them nil. */
void world_props_drop(strata_object *o);

/* An open savepoint: where its journal begins, its serial (never reused, so
** a stale saved_in never matches) and the clock when it began (the clock is
** restored whole rather than journaled). */
typedef struct savepoint {
  size_t mark;
  uint64_t serial;
  double time;
} savepoint;

typedef struct journal_entry journal_entry; /* world_txn.c */

/* Objects by uid, in pages of 256 slots that exist only where objects are:
** memory follows the number of objects, not the largest uid (a save that
** claims uid 10^12 costs one page). Pages are found through a hash of their
** numbers and walked in order through a sorted list of them. */
#define WORLD_PAGE_BITS 8
#define WORLD_PAGE_SLOTS (1u << WORLD_PAGE_BITS)
typedef struct obj_page {
  uint64_t no;                              /* uid >> WORLD_PAGE_BITS */
  uint32_t live;                            /* slots in use */
  strata_object *slot[WORLD_PAGE_SLOTS];
} obj_page;

/* A save's generation, as its meta rows hold it (save.c): the file's
** identity (drawn by each full save), this save's id, the id it followed,
** and the count of saves. */
typedef struct save_gen {
  uint64_t file_id, save_id, prev, count;
} save_gen;

struct strata_world {
  uint64_t seed;
  strata_tokens *tokens;   /* shared by the world's maps */
  double time;
  uint64_t next_uid;       /* the counter: uids start at 1 */
  uint64_t uid_limit;      /* served (serve.c): the end of this process's block of uids; 0: none */
  int served;              /* saved only by its serving process (strata_serve_save) */
  obj_page **page_hash;    /* open addressing by page number; NULL: empty */
  size_t hash_cap;         /* a power of two (0 before the first page) */
  obj_page **pages;        /* the pages, by number */
  size_t npages, pages_cap;
  size_t count;            /* live objects */
  /* The kinds there have been, each with its live objects' count and lowest
  ** uid: a world's one record of a kind (world_record, grid_maps) is found
  ** without a scan (strata_world_first_of_kind). Entries stay once made, so
  ** a rollback putting an object back allocates nothing. */
  struct kind_entry {
    const char *kind;      /* one of names */
    size_t count;
    uint64_t first;        /* 0 with count > 0: to be found again (it was deleted) */
    uint64_t edits;        /* world_kind_edits */
  } *kinds;
  size_t nkinds, kinds_cap;
  /* The kinds and archetypes objects name, one copy of each (world_name):
  ** a world has a few of them and may have millions of objects. Open
  ** addressing, at most half full; kept until the world is freed. */
  char **names;
  size_t nnames, names_cap;
  /* The objects positioned on each map (world_bymap.c): an entry a map,
  ** found by map uid through bymap_at, each the uids on that map in order. A
  ** cache of the objects' positions, kept by every edit and undo; when it
  ** cannot grow (out of memory) it is `bymap_lost` and built again by the
  ** next query. */
  struct bymap_entry {
    uint64_t map;
    uint64_t *uids;
    size_t n, cap;
  } *bymap;              /* bymap_n entries in any order, room for bymap_cap */
  size_t bymap_n, bymap_cap;
  uidmap bymap_at;       /* map uid -> its entry's index in bymap */
  int bymap_lost;
  /* Grid rooms by place, for strata_grid_room (grid.c): a cache, valid
  ** while no room is made, deleted, moved or edited (world_kind_edits). */
  struct grid_room_index *grid_rooms;
  stream *streams;
  size_t nstreams, streams_cap;
  /* A cache: streams by key hash (open addressing, index + 1; 0: empty),
  ** holding streams [0, streams_indexed). A world has one stream per floor
  ** generated, so a scan per lookup grew with the world. */
  size_t *stream_slots, stream_slots_cap, streams_indexed;
  lent_stream *lent;       /* lent generators, innermost last */
  size_t nlent, lent_cap;
  uint64_t lent_ids;
  /* Timers: a binary min-heap by (due, uid) (timers[i] before timers[2i+1]
  ** and timers[2i+2]; the earliest at 0), and where each is in it, by uid.
  ** timers_sorted: the array is in (due, uid) order as well, as
  ** strata_world_timer_at leaves it (a cache: any change may clear it). */
  strata_timer *timers;
  size_t ntimers, timers_cap;
  uidmap timer_at;
  int timers_sorted;
  strata_subscription *subs; /* in creation (uid) order */
  size_t nsubs, subs_cap;
  savepoint *savepoints;   /* open ones, outermost first */
  int depth;
  size_t savepoints_cap;
  /* Callbacks running (rt_call: a handler, generator or hook of a mod or a
  ** C game): the world is not advanced or saved from inside one of them. */
  int callbacks;
  uint64_t serial;         /* the last savepoint serial handed out */
  journal_entry *journal;  /* what the open savepoints changed, oldest first */
  size_t njournal, journal_cap;
  /* What changed since the file the world was opened from or last saved to
  ** (world_dirty.c; save.c writes only that into that same file). */
  uidset dirty;            /* uids of objects, timers and subscriptions made, changed or gone */
  uidset maps;             /* uids given a tile map since the last full save (a superset) */
  int dirty_all;           /* a mark was lost (out of memory): the next save writes everything */
  uint64_t changes;        /* counts world_mark's calls: every edit and undo (caches compare it) */
  int streams_dirty;       /* a random stream was made or moved */
  struct world_file {      /* the file that holds the rest, as the last save left it */
    char *path;            /* NULL: none (a new world, or a save that failed) */
    uint64_t dev, ino, size;
    int64_t mtime_ns;
    save_gen gen;          /* the save it held then (save.c); zeros: a file older than these */
    struct store *store;   /* a database's: the connection, kept between saves (store_pg.c) */
  } file;
  /* The bytes of properties kept encoded (world_props.c). */
  struct props_arena {
    unsigned char **blocks; /* every block, to free */
    size_t n, cap;
    unsigned char *cur;     /* the block being filled, and its bytes taken */
    size_t used;
  } props_arena;
  value_shapes props_shapes; /* the keys the decoded ones share (value_share_keys) */
  /* The objects' records and the pages of slots (world_recs.c). */
  struct rec_pool {
    struct rec_chunk {
      unsigned char *at;
      size_t bytes;
    } *chunks;              /* in address order */
    size_t n, cap;
    unsigned char *next, *end; /* the newest chunk's room not carved yet */
    void *free;             /* records freed, each holding the next one */
    size_t bytes;           /* in all chunks */
  } recs, page_pool;
#ifdef STRATA_TEST_HOOKS
  /* The PRAGMAs an incremental save runs first; NULL: a rollback journal,
  ** synchronous=FULL. Set only by spec/bench/bench_world.c to measure WAL;
  ** only in the core it links (strata_hooked in CMakeLists.txt). */
  const char *save_journal;
#endif
};

/* STRATA_ESTATE from `function` ("strata_advance", "strata_world_save")
** while one of w's callbacks runs; STRATA_OK otherwise. */
strata_status world_not_in_callback(const strata_world *w, const char *function, const char *what,
                                    strata_error *err);

/* The serial of the innermost open savepoint (depth > 0). */
static inline uint64_t world_serial(const strata_world *w) {
  return w->savepoints[w->depth - 1].serial;
}

/* ---- world.c, for the journal ---- */
/* The slot of uid, or NULL when its page does not exist. */
strata_object **world_slot(const strata_world *w, uint64_t uid);
/* The object of uid or NULL, its props as they are (maybe still encoded,
** world_props.c): for what reads or edits its other fields. */
static inline strata_object *world_rec(const strata_world *w, uint64_t uid) {
  strata_object **slot = world_slot(w, uid);
  return slot ? *slot : NULL;
}
/* Empties uid's slot (which holds an object). With may_free, outside
** savepoints, a page left empty is freed; the journal never frees one (a
** rollback may put objects back in it). */
void world_slot_clear(strata_world *w, uint64_t uid, int may_free);
/* Puts o back in its empty slot, whose page exists (a rollback). */
void world_slot_put(strata_world *w, strata_object *o);
/* The world's copy of name s (an object's kind or archetype), made when
** missing; NULL for NULL or on ENOMEM. Valid while the world is. */
char *world_name(strata_world *w, const char *s);
/* Frees o, its props, tags and tiles (its record to w's pool). */
void world_object_free(strata_world *w, strata_object *o);
/* A zeroed item of `size` bytes (the same for every item of the pool) from
** its chunks (world_recs.c); NULL: out of memory. world_pool_give takes
** one back; world_pool_free frees the chunks, after every item. */
void *world_pool_take(struct rec_pool *pool, size_t size);
void world_pool_give(struct rec_pool *pool, void *p, size_t size);
void world_pool_free(struct rec_pool *pool);
/* A new object's record (zeroed; NULL: out of memory), from w->recs;
** world_recs_put takes back one of them, or a record strata_malloc gave (a
** packed object's, with its tail). */
static inline object_rec *world_recs_new(strata_world *w) { return world_pool_take(&w->recs, sizeof(object_rec)); }
void world_recs_put(strata_world *w, object_rec *r);
void world_sub_clear(strata_subscription *s);
/* Inserts t into the timers, taking over its contents (*t is zeroed). Needs
** no memory when as many timers were there before (neither the heap nor its
** index shrinks). */
strata_status world_insert_timer(strata_world *w, strata_timer *t, strata_error *err);
/* Where timer uid is in w->timers, (size_t)-1: none; valid until the next change. */
size_t world_find_timer(const strata_world *w, uint64_t uid);
void world_remove_timer(strata_world *w, size_t i);           /* without clearing it */
/* Moves the timer at i to due (never fails). */
void world_retime_timer(strata_world *w, size_t i, double due);
/* Inserts s in uid order, taking over its contents (*s is zeroed). */
strata_status world_add_sub(strata_world *w, strata_subscription *s, strata_error *err);
size_t world_find_sub(const strata_world *w, uint64_t uid);   /* (size_t)-1: none */
void world_remove_sub(strata_world *w, size_t i);             /* without clearing it */
/* Takes the subscriptions on object uid out of the list, in order: moved
** into `into` (room for all of them), or cleared when into is NULL. Returns
** how many there were. */
size_t world_take_subs(strata_world *w, uint64_t uid, strata_subscription *into);

/* ---- grid.c: the grid rooms by place ---- */
void grid_room_index_free(strata_world *w);

/* ---- world_bymap.c: the objects by map ----
** Called for an object with a position (has_pos) as it comes into its slot
** or onto a map, and as it leaves them. Never fail: an addition that cannot
** allocate marks the index lost, to be rebuilt when next read. */
void world_bymap_add(strata_world *w, const strata_object *o);
void world_bymap_remove(strata_world *w, const strata_object *o);
void world_bymap_free(strata_world *w);
/* The cells actors hold (strata_tilemap_occupied): o leaves its cell
** (delta -1, before it moves or goes) or arrives (+1, once placed); any
** other object is no matter. Never fail: a count that cannot grow is lost
** and counted again at the map's next change. */
void world_occupy(strata_world *w, const strata_object *o, int delta);
/* Counts again the actors on map's tile map (given new tiles). */
void world_occupancy_count(strata_world *w, uint64_t map);

/* ---- world_props.c: properties kept encoded until first read ----
** An object whose props are still its file's bytes (props nil, u.str the
** bytes): readers never see one, as strata_world_object and
** strata_world_next_object decode first; save.c writes the bytes back. */
static inline int world_props_lazy(const strata_object *o) {
  return o->props.type == STRATA_VNIL && o->props.u.str.s;
}
/* The n bytes at p (an objects row's props) into *props: kept encoded when
** they can only decode to tables, else decoded (an error as decoding's). */
strata_status world_props_load(strata_world *w, strata_value *props, const unsigned char *p, size_t n,
                               strata_error *err);
/* Decodes o's props if still encoded; ENOMEM leaves them so. */
strata_status world_props_ready(strata_world *w, strata_object *o, strata_error *err);
void world_props_free(strata_world *w);
/* As strata_world_next_object, without decoding properties (what walks
** every object for other fields: saves, indexes). */
strata_object *world_next(const strata_world *w, uint64_t after);

/* ---- world_dirty.c: what the next save writes ----
** Marks never fail: a mark that cannot be recorded (out of memory) makes the
** next save write everything. Edits mark what they change, and a rollback
** marks what it puts back, so that the record stays a superset of what
** differs from the file, whatever savepoints did in between. */
void world_mark(strata_world *w, uint64_t uid);
/* The same for a live object at hand (no lookup), or for a timer or a
** subscription (no kind edited): an edit marks as often as it changes. */
void world_mark_object(strata_world *w, const strata_object *o);
void world_mark_uid(strata_world *w, uint64_t uid);
/* What the core's caches of derived state are valid for: it changes with
** every edit and undo of the world (world_mark). */
static inline uint64_t world_changes(const strata_world *w) { return w->changes; }
/* What a cache of an answer read from uid's own fields compares: 0 when
** there is no such object, and otherwise a number that changes with every
** edit or undo of it and is never the same for another object that had
** that uid (a creation rolled back) -- w->changes at its last one, plus 1. */
static inline uint64_t world_object_stamp(const strata_world *w, uint64_t uid) {
  strata_object *o = world_rec(w, uid);
  return o ? rec_of(o)->changed + 1 : 0;
}
/* The same for the objects of one kind: it changes whenever one of them is
** made, deleted, moved or edited, or such a change undone, or one restored
** by an open, and with nothing else (a cache of what the world's features
** are stays valid while actors travel). world_mark counts an edit of a live
** object; the slots count arrivals and departures. */
uint64_t world_kind_edits(const strata_world *w, const char *kind);
size_t world_kind_count(const strata_world *w, const char *kind); /* the live objects of kind */
void world_kind_edited(strata_world *w, const strata_object *o);
void world_mark_map(strata_world *w, uint64_t uid); /* uid now owns a tile map */
static inline void world_mark_streams(strata_world *w) { w->streams_dirty = 1; }
/* After a save that wrote everything (or an open that read everything):
** nothing is dirty; the file is the world. */
void world_dirty_reset(strata_world *w);
void world_dirty_free(strata_world *w);

/* ---- world_txn.c: the journal ----
** Each is called by an edit only while a savepoint is open (w->depth > 0)
** and before the edit changes anything; a failure (ENOMEM) leaves the world
** and the journal unchanged, and the edit returns it. */

/* Copy on first touch: saves the object's archetype, position, tags and
** properties / its tile map, once per savepoint. */
strata_status txn_save_fields(strata_world *w, object_rec *r, strata_error *err);
strata_status txn_save_tiles(strata_world *w, object_rec *r, strata_error *err);
/* Before r moves: its position, as txn_set_path journals a key. */
strata_status txn_save_position(strata_world *w, object_rec *r, strata_error *err);
/* Before setting props[path] (n >= 1) to val: journals that one set when it
** can be undone alone, else saves the fields as txn_save_fields. */
strata_status txn_set_path(strata_world *w, object_rec *r, const strata_value *path, size_t n,
                           const strata_value *val, strata_error *err);
/* r is about to be placed: a rollback frees it again. Marks it saved. */
strata_status txn_created(strata_world *w, object_rec *r, strata_error *err);
/* Forgets the last txn_created, whose object could not be placed. */
void txn_drop_created(strata_world *w);
/* Deletes r: takes it out of its slot with its subscriptions and keeps them
** in the journal, which frees them when the outermost savepoint commits. */
strata_status txn_deleted(strata_world *w, object_rec *r, strata_error *err);
strata_status txn_timer_added(strata_world *w, uint64_t uid, strata_error *err);
/* t is about to be cancelled: its contents move into the journal (*t keeps
** only uid and times, so clearing it after frees nothing). */
strata_status txn_timer_removed(strata_world *w, strata_timer *t, strata_error *err);
/* t is about to fire: a repeating timer's due is noted, a one-shot timer is
** copied (the caller gets the original). */
strata_status txn_timer_fired(strata_world *w, const strata_timer *t, strata_error *err);
strata_status txn_sub_added(strata_world *w, uint64_t uid, strata_error *err);
/* As txn_timer_removed, for a subscription. */
strata_status txn_sub_removed(strata_world *w, strata_subscription *s, strata_error *err);
strata_status txn_stream_added(strata_world *w, strata_error *err);
/* Saves stream i's state unless this savepoint has already. */
strata_status txn_stream_set(strata_world *w, size_t i, strata_error *err);
/* Saves lent generator l's state unless this savepoint has already. */
strata_status txn_lent_set(strata_world *w, lent_stream *l, strata_error *err);
/* Forgets the last entry, noted for an edit that then failed. */
void txn_drop_last(strata_world *w);
/* Frees the journal and the savepoints (strata_world_free). */
void txn_free(strata_world *w);

#endif
