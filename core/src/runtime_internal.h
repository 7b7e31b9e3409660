/*
** runtime_internal.h - what the runtime's files share: the runtime itself,
** the `sys` bookkeeping in object properties (sys.h), savepoints and calls
** into the host (runtime.c), and the pieces one concept lends another
** (maps, renewals, unique areas, events).
*/
#ifndef STRATA_RUNTIME_INTERNAL_H
#define STRATA_RUNTIME_INTERNAL_H

#include <string.h>

#include "strata/area.h"
#include "strata/clock.h"
#include "strata/event.h"
#include "strata/feature.h"
#include "strata/move.h"
#include "strata/resolver.h"
#include "strata/runtime.h"
#include "strata/travel.h"
#include "strata/unique.h"
#include "strata/world.h"

#include "sys.h" /* the bookkeeping schema */
#include "uidset.h"

typedef struct global_handler {
  char *event, *name, *handler;
  int64_t priority;
} global_handler;

/* world.c: adds delta to the count of w's callbacks running (rt_call), in
** which the world is neither advanced nor saved (world_not_in_callback). */
void world_callbacks(strata_world *w, int delta);

struct strata_runtime {
  strata_world *w;
  strata_resolver res;
  global_handler *handlers;
  size_t nhandlers, handlers_cap;
  /* Maps whose on_load ran in this process: one bit per uid. */
  unsigned char *loaded;
  size_t loaded_cap;
  /* The floor being generated: add_floor on it leaves the unique entrances to the generation. */
  int generating;
  uint64_t gen_area;
  int64_t gen_floor;
  int reporting;                 /* base.handler_failed is being emitted: do not report again */
  uint64_t turn_started;         /* the object whose turn the last timer run started (turns.c); 0: none */
  /* While a timer runs for strata_advance or next_turn: their caller's list
  ** (NULL: none), where a turn's failing handlers go too (turns.c), as the
  ** game loop that asked for the turn is who must hear of them. */
  strata_failures *timer_failures;
  /* The whole message of the host call that failed last, when its error's
  ** buffer cut it (strata_call.message); NULL otherwise. */
  char *failure_message;
  /* Caches of strata_map_area and strata_area_floor_map (sys.c): the
  ** answers asked for lately, each with the stamps it was read at (of the
  ** objects it was read from, world_object_stamp, or world_changes), so that
  ** an edit or undo it depends on drops it. Direct-mapped, MEMO_SLOTS each;
  ** NULL until used. */
  struct memo_slot {
    uint64_t key, stamp, uid; /* stamp: key's, or world_changes + 1 (0: empty) */
    uint64_t uid_stamp;       /* by == MEMO_BY_BOTH: the stamp of the object uid names */
    uint64_t kinds;           /* the maps' and areas' edits when it was last known valid */
    int64_t key_n, n;         /* (key, key_n) -> (uid, n) */
    int has, by;              /* has: the map has a floor; by: enum memo_by (sys.c) */
  } *map_areas, *floor_maps;
  /* The stairs and entrances on each map, in uid order (feature.c): an
  ** actor arriving by stairs or an entrance takes the first stairs leading
  ** back, found without reading every feature on the floor, and a journey
  ** through either reads where it leads without reading the feature's
  ** properties. Derived, never saved: built from the objects when first asked
  ** and again after any change to a feature but the runtime's own creations,
  ** which it takes in as it makes them. */
  struct stairs_index {
    struct stairs_on {
      uint64_t map;
      struct stair {
        uint64_t uid;
        int64_t delta;     /* stairs: their floor_delta (never 0); 0: an entrance */
        uint64_t area;     /* an entrance: the area it leads to, and its floor (has_floor) */
        int64_t floor;
        int has_floor;
      } *s;
      size_t n, cap;
    } *maps;
    size_t n, cap;
    uidmap at;             /* map uid -> its entry in maps */
    uint64_t stamp;        /* world_kind_edits of features + 1 it holds for; 0: none */
  } stairs;
};
#define MEMO_SLOTS 16384u

/* A borrowed string key (a literal, or a string that outlives it), never cleared. */
static inline strata_value K(const char *s) {
  strata_value v;
  memset(&v, 0, sizeof v);
  v.type = STRATA_VSTRING;
  v.u.str.s = (char *)s;
  v.u.str.len = strlen(s);
  return v;
}

/* ---- runtime.c ---- */
/* The live object uid when it is of kind `kind` (NULL: any), else NULL. */
strata_object *rt_object(const strata_runtime *rt, uint64_t uid, const char *kind);
/* "area#7" into buf (which it returns); "object#7" for what does not exist. */
const char *rt_label(const strata_runtime *rt, uint64_t uid, char buf[48]);
/* The world record: 0 when there is none; rt_record_make creates it. */
uint64_t rt_record(const strata_runtime *rt);
strata_status rt_record_make(strata_runtime *rt, uint64_t *uid, strata_error *err);
int rt_loaded(const strata_runtime *rt, uint64_t uid);
strata_status rt_set_loaded(strata_runtime *rt, uint64_t uid, int on, strata_error *err);
/* Savepoints opened by the runtime (the host is told). rt_end commits when
** st is STRATA_OK and rolls back otherwise, and returns st. */
strata_status rt_begin(strata_runtime *rt, strata_error *err);
strata_status rt_end(strata_runtime *rt, strata_status st);
/* Host lookups. The _opt forms answer NULL for an unknown ID (and no ID),
** as areas.lua treats an archetype that is not (or no longer) defined. */
strata_status rt_resolve(strata_runtime *rt, strata_logic kind, const char *id,
                         strata_callable *out, strata_error *err);
strata_status rt_map_archetype(strata_runtime *rt, const char *id,
                               const strata_map_archetype **out, strata_error *err);
strata_status rt_area_archetype(strata_runtime *rt, const char *id,
                                const strata_area_archetype **out, strata_error *err);
const strata_map_archetype *rt_map_archetype_opt(const strata_runtime *rt, const char *id);
const strata_area_archetype *rt_area_archetype_opt(const strata_runtime *rt, const char *id);
/* A call of `kind` to `id`, everything else zero. */
void rt_call_init(strata_call *c, strata_runtime *rt, strata_logic kind, const char *id);
/* Calls c->fn; a failure the callee left without a message gets one. Frees
** nothing in call (call->ret is the caller's). */
strata_status rt_call(strata_runtime *rt, const strata_callable *c, strata_call *call,
                      strata_error *err);
/* rt_call with rng lent to the world under key for the call (so that a host
** may draw from it by the key too: Lua's ctx.rng). */
strata_status rt_call_lent(strata_runtime *rt, const strata_callable *c, strata_call *call, const char *key,
                           strata_rng *rng, strata_error *err);
/* rt_call in a savepoint of its own, undone when it fails; `what` names the
** callee in the error about a savepoint it left open. */
strata_status rt_call_atomic(strata_runtime *rt, const strata_callable *c, strata_call *call,
                             const char *what, strata_error *err);
/* Calls the map archetype hook `kind` of map (if its archetype has one):
** call is filled by the caller (kind, id and map are set here); with a
** stream key, the call draws from that world stream (made only then). */
strata_status rt_map_hook(strata_runtime *rt, uint64_t map, strata_logic kind, strata_call *call,
                          const char *stream, strata_error *err);
/* Runs a call with a world stream as call->rng: the stream's state is read
** before and written back after a successful call. */
strata_status rt_call_with_stream(strata_runtime *rt, const strata_callable *c, strata_call *call,
                                  const char *key, strata_error *err);

/* ---- map.c ---- */
const strata_map_archetype *map_archetype_of(const strata_runtime *rt, uint64_t map);
/* Deletes map and what stands on it, as strata_map_delete, without a savepoint of its own. */
strata_status map_drop(strata_runtime *rt, uint64_t map, const char *what, strata_error *err);
/* A live area, else refused in the name of `what` (a C function's name). */
strata_status check_area(const strata_runtime *rt, uint64_t area, const char *what, strata_error *err);
strata_status map_check_cell(const strata_runtime *rt, uint64_t map, int64_t x, int64_t y,
                             const char *what, strata_error *err);

/* ---- feature.c: the stairs by map ---- */
/* The first stairs on map (by uid) whose floor_delta is delta; 0: none. */
uint64_t feature_stairs_on(const strata_runtime *rt, uint64_t map, int64_t delta);
/* Feature o's type, and in *at its floor_delta (0 but for stairs) or where it
** leads (an entrance): a feature standing on a map known from the index,
** without reading o's properties. */
strata_feature_type feature_type_at(const strata_runtime *rt, const strata_object *o, struct stair *at);
void feature_index_free(strata_runtime *rt);

/* ---- floor.c ---- */
/* Runs floor n's generator and attaches the map it makes at n (the floor
** must be free): *out, and what made it in who ("area generator 'x'").
** Neither on_spawn nor the floor's events run. */
#define FLOOR_WHO 300
strata_status floor_make(strata_runtime *rt, uint64_t area, int64_t n, uint64_t *out, char who[FLOOR_WHO],
                         strata_error *err);

/* ---- renew.c ---- */
strata_status renew_init(strata_runtime *rt, uint64_t map, strata_error *err);
strata_status renew_apply(strata_runtime *rt, uint64_t map, strata_error *err);
strata_status renew_cancel_timer(strata_runtime *rt, uint64_t map, strata_error *err);
strata_status renew_schedule_timer(strata_runtime *rt, uint64_t map, strata_error *err);
/* The base.map_renew timer's handler. */
strata_status renew_timer_fired(strata_runtime *rt, const strata_value *args, strata_error *err);

/* ---- area.c ---- */
/* Whether an area's entrance may stand at (x, y) of map m, one rule for
** unique areas and strata_area_create_at: a cell of the map, passable (an
** entrance on a wall could never be reached), no other entrance or stairs
** there (only one of them could ever be taken). Else EARG (ESTATE: m has no
** tiles) "<who>at (x, y)<given> is impassable on <floor> (map#M): ...", in
** the name of `what`. who: "" or a prefix ending in ": "; floor names m
** for the user ("floor 1 of area#3"). */
strata_status area_entrance_cell(const strata_runtime *rt, uint64_t m, int64_t x, int64_t y, const char *what,
                                 const char *who, const char *given, const char *floor, strata_error *err);

/* ---- unique.c ---- */
/* After floor n of area appears: the entrances of the unique areas declared on it. */
strata_status unique_place(strata_runtime *rt, uint64_t area, int64_t n, strata_error *err);

/* ---- event.c ---- */
/* strata_emit for the core's own events (declared by definition). */
strata_status event_emit(strata_runtime *rt, uint64_t source, const char *event,
                         const strata_value *params, const strata_value *dflt,
                         strata_value *result, strata_error *err);
/* event_emit whose handlers' failures are also appended to *also (NULL: not). */
strata_status event_emit_into(strata_runtime *rt, uint64_t source, const char *event,
                              const strata_value *params, strata_failures *also, strata_error *err);
/* Emits base.handler_failed for each failure (not while already doing so). */
void event_report(strata_runtime *rt, const strata_failures *f);
strata_status failures_push(strata_failures *f, uint64_t timer, uint64_t subscription,
                            const char *event, const char *handler, const char *mod,
                            const char *message);

/* ---- move.c, walk.c, branch_move.c: actors moving ----
** Where an actor's walk and its route and a branch's timers are kept: sys.h
** (record_get, record_put). */
/* A refusal into out (printf-style reason). */
void move_refuse(strata_move_outcome *out, strata_move_refusal r, const char *fmt, ...);
/* STRATA_OK when actor is a live actor; else an error in the name of `what`. */
strata_status move_check_actor(strata_runtime *rt, uint64_t actor, const char *what, strata_error *err);
/* A tile move of a live actor, the events around it; no savepoint of its own. */
strata_status move_on_map(strata_runtime *rt, uint64_t actor, int64_t x, int64_t y,
                          strata_move_outcome *out, strata_error *err);
/* obj from room here (0: none) into room to through exit (0: none), the
** events around it; no savepoint of its own. */
strata_status move_enter(strata_runtime *rt, uint64_t obj, uint64_t here, uint64_t to, uint64_t exit,
                         strata_move_outcome *out, strata_error *err);
/* world:go's part for branches: *handled 0 when exit is no start exit and
** here no branch room. */
strata_status branch_go(strata_runtime *rt, uint64_t actor, uint64_t here, uint64_t exit, int *handled,
                        strata_move_outcome *out, strata_error *err);
/* After actor went through an exit (strata_go): base.branch_message when it
** arrived in a branch room that is not clear or in a hub. */
strata_status branch_arrived(strata_runtime *rt, uint64_t actor, strata_error *err);
/* The core's own timer handlers: base.walk_step, base.branch_idle, base.branch_reset, base.turn. */
strata_status walk_step_fired(strata_call *call, void *data, strata_error *err);
strata_status branch_idle_fired(strata_call *call, void *data, strata_error *err);
strata_status branch_reset_fired(strata_call *call, void *data, strata_error *err);
strata_status turn_fired(strata_call *call, void *data, strata_error *err);
/* clock.c: runs the timers due up to target as strata_advance does, but
** stops right after one that started a turn (turn_fired): *turn its object,
** the clock at its time; *turn 0 and the clock at target when none did. */
strata_status clock_run_to(strata_runtime *rt, double target, uint64_t *turn, strata_failures *failures,
                           strata_error *err);
/* A uid stored in a timer's args under key (an integer or a reference); 0: none. */
uint64_t args_uid(const strata_value *args, const char *key);

/* ---- params tables for events ---- */
strata_status params_ref(strata_value *t, const char *key, uint64_t uid, strata_error *err); /* 0: skipped */
strata_status params_int(strata_value *t, const char *key, int64_t i, strata_error *err);
strata_status params_str(strata_value *t, const char *key, const char *s, strata_error *err); /* copied; NULL: skipped */
/* An event's params built where the emitter stands, allocating nothing: the
** keys are the emitter's string literals (borrowed), the values references
** and integers. A journey emits three events, and in a big world each block
** malloc hands out lies on a page of its own, far from the last (issue 30).
** A table to read only (event_emit passes it on as const): never set into,
** copied by whoever keeps it, never cleared. */
#define PARAMS_MAX 8
typedef struct event_params {
  strata_value v;       /* the table: what event_emit takes */
  strata_vtable t;
  strata_value keys[PARAMS_MAX], vals[PARAMS_MAX];
} event_params;
void params_start(event_params *p);
void params_put(event_params *p, const char *key, strata_value v); /* a reference 0: skipped */

#endif
