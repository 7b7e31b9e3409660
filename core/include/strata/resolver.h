/*
** resolver.h - logic by ID: how the core reaches the host's code and data.
**
** A world stores IDs only ("cavern.caves", "cavern.cave_floor"). Whatever
** must run when a floor is generated, a map is entered, an event is emitted
** or a timer falls due is found through a strata_resolver: a struct of
** function pointers the host fills. A C game answers from its own tables
** (registry.h is a ready-made one); the Lua binding answers from its data
** registry and runs the functions in its sandbox. The core asks each time
** it needs something and keeps nothing it was given past the call into the
** core that asked, so the host may rebuild its definitions between calls
** (a mod reload), never during one.
**
** Ownership: callables, definitions and every string and value in them
** belong to the host.
*/
#ifndef STRATA_RESOLVER_H
#define STRATA_RESOLVER_H

#include "strata/api.h"

#include <stddef.h>
#include <stdint.h>

#include "strata/error.h"
#include "strata/rng.h"
#include "strata/value.h"
#include "strata/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_runtime strata_runtime; /* runtime.h */

/* What a callable is for: the ID it is resolved by names a definition of the
** type in brackets. */
typedef enum strata_logic {
  STRATA_LOGIC_GENERATE_FLOOR, /* [base.area_generator] generate_floor(area, floor, ctx) -> map */
  STRATA_LOGIC_GENERATE,       /* [base.map_archetype] generate(ctx) -> map */
  STRATA_LOGIC_ON_SPAWN,       /* [base.map_archetype] on_spawn(map, ctx) */
  STRATA_LOGIC_ON_LOAD,        /* [base.map_archetype] on_load(map, ctx) */
  STRATA_LOGIC_ON_ENTER,       /* [base.map_archetype] on_enter(map, ctx) */
  STRATA_LOGIC_ON_LEAVE,       /* [base.map_archetype] on_leave(map, ctx) */
  STRATA_LOGIC_ON_RESTOCK,     /* [base.map_archetype] on_restock(map, ctx) */
  STRATA_LOGIC_ON_RENEW,       /* [base.map_archetype] on_renew(map, ctx) */
  STRATA_LOGIC_STARTING_POS,   /* [base.map_archetype] starting_pos(map, ctx) -> x, y */
  STRATA_LOGIC_EVENT,          /* a global event handler, by the ID given to strata_event_on */
  STRATA_LOGIC_HANDLER,        /* [base.handler] run(source, params, args): timers, subscriptions */
  STRATA_LOGIC_GENERATE_ROOM,  /* [base.room_generator] generate(ctx) -> room spec (branch.h) */
  STRATA_LOGIC_COUNT
} strata_logic;

/* "generate_floor", "on_spawn", ...: for messages. */
STRATA_API const char *strata_logic_name(strata_logic kind);

/* One call of host logic: what it is about in, its answers out. Fields that do
** not apply to the call are 0 / NULL. Pointers in it are valid during the
** call only. The core runs every call that may change the world inside a
** savepoint of its own, or inside the one of the operation that made it. */
typedef struct strata_call {
  strata_runtime *rt;
  strata_world *world;
  strata_logic kind;
  const char *id;               /* the ID it was resolved by (archetype events: the archetype) */
  /* what it is about */
  uint64_t source;              /* events, handlers: the source object (0: the world) */
  uint64_t area;                /* generation: the area; restock / renew: the map's area */
  int has_floor;
  int64_t floor, depth;         /* generation: the floor (depth == floor); restock / renew */
  uint64_t map;                 /* map hooks: the map */
  uint64_t actor, from, to;     /* travel hooks: who travels, the map left, the map reached */
  int64_t steps;                /* on_restock / on_renew: the intervals elapsed */
  double time;                  /* timers: when it fell due */
  uint64_t timer;               /* timers: the timer's uid */
  const char *event;            /* events: the event ID */
  const strata_value *params;   /* generation: the area's params (a copy); events: the params */
  const strata_value *args;     /* timers and subscriptions: the args stored with them */
  const strata_value *result;   /* events: the result of the chain so far (nil: none) */
  strata_rng *rng;              /* a stream of its own, saved after the call; NULL: none */
  const char *rng_key;          /* that stream's key, e.g. "area#7 floor 3": lent to the world
                                ** for the call (strata_world_lend_stream), so the host may
                                ** draw from it by the key as well (the Lua host does) */
  /* answers */
  uint64_t made;                /* generate / generate_floor: the map made (0: none) */
  int has_pos;                  /* starting_pos: nonzero when x, y are set */
  int64_t x, y;                 /* starting_pos: the answer; generate_room: the room's cell (in) */
  strata_value ret;             /* events: the new result; nil keeps the previous. generate_room:
                                ** the room spec { name, desc, clear, props }. The core frees it */
  int stop;                     /* events: nonzero ends the chain (as does ret == "stop") */
  char *message;                /* a failing fn whose message is longer than err holds: the whole
                                ** of it (from strata_malloc; the core frees it), kept in failure records and
                                ** given by strata_runtime_failure_text; NULL: err's is whole */
} strata_call;

/* A piece of host logic. fn returns STRATA_OK, or a status and err (never
** NULL) filled with what went wrong: a message of its own, which the core
** passes on as it is (it makes one up only if fn left err empty). */
typedef strata_status (*strata_fn)(strata_call *call, void *data, strata_error *err);

typedef struct strata_callable {
  strata_fn fn;                 /* NULL: the definition has no such function */
  void *data;                   /* handed back to fn */
  const char *mod;              /* who defined it, for failure reports; may be NULL */
} strata_callable;

/* ---- definitions: data the core reads ---- */

typedef struct strata_map_archetype {
  const char *id;
  const char *mod;
  const strata_value *properties; /* a table deep-copied into map props; NULL: none */
  double restock_every;           /* renew = { restock_every, renew_every }: > 0, seconds */
  double renew_every;
  int has_starting_pos;           /* a fixed starting_pos { x, y } (a function: STARTING_POS) */
  int64_t start_x, start_y;
  /* spawn = { every, max }: while the player is on the map, on_spawn runs
  ** at every multiple of `every` seconds of world time at which fewer than
  ** `max` actors stand on it (Lua's default: no limit; INT64_MAX: none,
  ** and the actors are not counted). every below STRATA_TIMER_MIN_EVERY
  ** (0 included): only at generation. */
  double spawn_every;
  int64_t spawn_max;
  /* renew = { regenerate = false, keep = { actors =, tags = } }: a renewal
  ** makes the map's geometry anew from its generator, keeping the actors
  ** (unless renew_drops_actors) and the objects with one of keep_tags. */
  int renew_keeps_geometry;       /* regenerate = false: on_renew only */
  int renew_drops_actors;         /* keep.actors = false */
  const char *const *keep_tags;
  size_t nkeep_tags;
} strata_map_archetype;

typedef struct strata_floor_archetype {
  int64_t floor;
  const char *map_archetype;      /* floors[floor]: generated by that map archetype's generate */
} strata_floor_archetype;

typedef struct strata_area_archetype {
  const char *id;
  const char *mod;
  const char *const *types;       /* world:areas{ type = } filters on these */
  size_t ntypes;
  const strata_floor_archetype *floors;
  size_t nfloors;
  const char *generator;          /* base.area_generator ID; NULL: none */
  int has_starting_floor;
  int64_t starting_floor;         /* default 1 */
  int has_deepest_floor;
  int64_t deepest_floor;          /* absent: open-ended */
  const strata_value *params;     /* a table, merged under the area's own; NULL: none */
  const strata_value *meta;       /* a table copied into the area's meta; NULL: none */
  const char *image;              /* the picture of its entrances (copied into each); NULL: none */
} strata_area_archetype;

typedef struct strata_unique_def {
  const char *id;
  const char *area;               /* base.area_archetype ID (required) */
  const char *parent;             /* base.unique_area ID, "root" or NULL */
  int has_on_floor;
  int64_t on_floor;               /* the parent's floor the entrance stands on (default: its starting floor) */
  int has_at;                     /* at_x, at_y: where on it (default 0, 0); a cell that is off */
  int64_t at_x, at_y;             /* that floor or impassable makes the floor fail to generate */
  int has_starting_floor;
  int64_t starting_floor;
  int eager;                      /* its starting floor is generated with it */
} strata_unique_def;

/* A branch archetype (branch.h, move.h): the rules of its branches and
** their timers. */
typedef struct strata_branch_def {
  const char *id;
  const char *mod;
  const char *const *dirs;        /* the directions new exits take; NULL: north, east, south, west */
  size_t ndirs;
  int64_t max_unexplored;         /* the budget of unexplored exits; 0: 4 */
  int64_t max_new;                /* new exits per room at most; 0: 2 */
  const char *room_generator;     /* base.room_generator ID; NULL: none */
  double max_idle;                /* > 0: the branch collapses after that long with no member
                                  ** acting (base.branch_idle); 0: never */
  double reset_every;             /* > 0: every so often the start exit is unbound with
                                  ** reset_chance (base.branch_reset); 0: never */
  double reset_chance;            /* 0..1 (give 1 for every time) */
} strata_branch_def;

/* A handler from an archetype's `events` list. */
typedef struct strata_event_handler {
  const char *name;               /* orders the chain with the priority; default: the archetype's ID */
  int64_t priority;               /* lower first; default 100 */
  strata_callable handler;
} strata_event_handler;

/* How savepoints the core opens and closes are told to the host (for state
** of its own that must follow a rollback, such as cached views). */
typedef enum strata_savepoint_op {
  STRATA_SAVEPOINT_BEGIN,
  STRATA_SAVEPOINT_COMMIT,
  STRATA_SAVEPOINT_ROLLBACK
} strata_savepoint_op;

/* The host's side. Every lookup answers STRATA_ENOTFOUND for an unknown ID,
** with a message naming it (and, if the host can, the nearest known IDs);
** other failures (ENOMEM) are passed on as they are. */
typedef struct strata_resolver {
  void *host;
  /* The callable for `kind` of the definition `id`. A known definition without
  ** that function answers STRATA_OK with out->fn NULL (hooks are optional). */
  strata_status (*resolve)(void *host, strata_logic kind, const char *id, strata_callable *out,
                           strata_error *err);
  strata_status (*map_archetype)(void *host, const char *id, const strata_map_archetype **out,
                                 strata_error *err);
  strata_status (*area_archetype)(void *host, const char *id, const strata_area_archetype **out,
                                  strata_error *err);
  strata_status (*unique_area)(void *host, const char *id, const strata_unique_def **out,
                               strata_error *err);
  /* The i-th unique area in the host's order (Lua: by (_ordering, _id)); NULL past the end. */
  const strata_unique_def *(*unique_at)(void *host, size_t i);
  /* The i-th handler of `event` in the `events` list of the archetype `archetype`
  ** of an object of kind `kind` ("map", "area", "actor", ...): 1 and *out filled,
  ** or 0 past the end (and for an unknown archetype). May be NULL: none. */
  int (*archetype_event)(void *host, const char *kind, const char *archetype, const char *event,
                         size_t i, strata_event_handler *out);
  /* Nonzero when `event` is declared (base.event). May be NULL: every event is.
  ** The events the core emits itself (base.map_entered, ...) need no declaring. */
  int (*event_declared)(void *host, const char *event);
  /* Told of each savepoint the core opens and closes. May be NULL. */
  void (*savepoint)(void *host, strata_savepoint_op op);
  /* The branch archetype `id` (crossing a start exit, the branch timers).
  ** May be NULL: no branch archetype is known. */
  strata_status (*branch_archetype)(void *host, const char *id, const strata_branch_def **out,
                                    strata_error *err);
} strata_resolver;

#ifdef __cplusplus
}
#endif
#endif
