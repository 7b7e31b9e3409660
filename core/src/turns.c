/*
** turns.c - the turn scheduler (turns.h): an object's turns are its
** bookkeeping, sys.turn = { speed, timer, started }, and one pending
** one-shot timer of the core's handler base.turn, due when the next turn
** starts. A timer for each turn (rather than one repeating timer) gives
** ties to the turn scheduled first, as timers run in (due, uid) order and
** uids only grow.
*/
#include "runtime_internal.h"
#include "strata/turns.h"
#include "world_internal.h" /* the timers by uid, world_not_in_callback */

#include <math.h>

#define TURN_HANDLER "base.turn"

static const strata_value *field(const strata_world *w, uint64_t uid, const char *k) {
  strata_value key = K(k);
  return record_get(w, uid, SYS_RECORD_TURN, &key);
}

static strata_status set_field(strata_world *w, uint64_t uid, const char *k, strata_value v, strata_error *err) {
  strata_value key = K(k);
  return record_put(w, uid, SYS_RECORD_TURN, &key, &v, err);
}

/* The pending timer of uid's turns, when uid is in the schedule; else NULL.
** The one rule of what is in it (whatever a file holds): a live object whose
** record names a base.turn timer that names it back. */
static const strata_timer *pending(const strata_world *w, uint64_t uid) {
  if (!world_rec(w, uid)) return NULL;
  uint64_t t = value_uid(field(w, uid, "timer"));
  size_t i = t ? world_find_timer(w, t) : (size_t)-1;
  if (i == (size_t)-1 || strcmp(w->timers[i].handler, TURN_HANDLER) != 0 ||
      args_uid(&w->timers[i].args, "actor") != uid)
    return NULL;
  return &w->timers[i];
}

/* The speed and the last turn's start as turns use them: what a file holds
** out of range reads as speed 1 and a start of now (the schedule goes on). */
static double speed_of(const strata_world *w, uint64_t uid) {
  double speed = 1;
  value_num(field(w, uid, "speed"), &speed);
  return speed > 0 && speed <= STRATA_TURNS_MAX_SPEED ? speed : 1;
}

static double started_of(const strata_world *w, uint64_t uid) {
  double now = strata_world_time(w), started = now;
  value_num(field(w, uid, "started"), &started);
  return isfinite(started) && started <= now ? started : now;
}

int strata_turn_of(const strata_world *w, uint64_t uid, strata_turn *out) {
  const strata_timer *t = pending(w, uid);
  if (!t) return 0;
  if (out) *out = (strata_turn){ speed_of(w, uid), t->due, started_of(w, uid) };
  return 1;
}

/* uid's next turn at due: the pending timer replaced by a new one. */
static strata_status reschedule(strata_world *w, uint64_t uid, double due, strata_error *err) {
  if (!(due <= TIMER_LAST_DUE)) /* (a tiny speed, a long delay or action, a world near its end of time) */
    return strata_error_set(err, STRATA_EARG, "%s#%llu's next turn would start at %g, past %g, the latest time "
                            "a timer can have", world_rec(w, uid)->kind, (unsigned long long)uid, due,
                            TIMER_LAST_DUE);
  const strata_timer *old = pending(w, uid);
  strata_status st = old ? strata_world_cancel(w, old->uid, err) : STRATA_OK;
  strata_value args;
  if (!st) st = strata_value_table(&args, err);
  if (st) return st;
  uint64_t timer = 0;
  if (!(st = params_int(&args, "actor", (int64_t)uid, err)))
    st = strata_world_schedule(w, due, 0, TURN_HANDLER, &args, &timer, err);
  strata_value_clear(&args);
  return st ? st : set_field(w, uid, "timer", strata_value_int((int64_t)timer), err);
}

/* Closes the savepoint a change of the schedule ran in: kept, or undone on an error. */
static strata_status settle(strata_world *w, strata_status st) {
  if (st) strata_world_rollback(w);
  else strata_world_commit(w);
  return st;
}

static int bad_number(double v, double lo) { return !(v >= lo) || isinf(v); }

strata_status strata_turns_add(strata_world *w, uint64_t uid, double speed, double delay, strata_error *err) {
  if (!(speed > 0) || speed > STRATA_TURNS_MAX_SPEED)
    return strata_error_in(err, STRATA_EARG, "strata_turns_add", "speed must be a number > 0 and at most %g, got %g",
                           STRATA_TURNS_MAX_SPEED, speed);
  if (isnan(delay) || isinf(delay))
    return strata_error_in(err, STRATA_EARG, "strata_turns_add", "delay must be a finite number >= 0, got %g", delay);
  if (!world_rec(w, uid))
    return strata_error_in(err, STRATA_ENOTFOUND, "strata_turns_add", "no object #%llu (deleted or never created)",
                           (unsigned long long)uid);
  double now = strata_world_time(w);
  int joins = !pending(w, uid);
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  st = set_field(w, uid, "speed", strata_value_float(speed), err);
  if (!st && joins) st = set_field(w, uid, "started", strata_value_float(now), err);
  if (!st && (joins || delay >= 0)) st = reschedule(w, uid, now + (delay >= 0 ? delay : 1 / speed), err);
  return settle(w, st);
}

strata_status strata_turns_remove(strata_world *w, uint64_t uid, int *removed, strata_error *err) {
  const strata_timer *t = pending(w, uid);
  if (removed) *removed = t != NULL;
  if (!record_get(w, uid, SYS_RECORD_TURN, NULL)) return STRATA_OK;
  strata_status st = strata_world_begin(w, err);
  if (st) return st;
  if (t) st = strata_world_cancel(w, t->uid, err);
  strata_value none = strata_value_nil();
  if (!st) st = record_put(w, uid, SYS_RECORD_TURN, NULL, &none, err);
  return settle(w, st);
}

strata_status strata_turn_took(strata_world *w, uint64_t uid, double duration, strata_error *err) {
  if (bad_number(duration, 0))
    return strata_error_in(err, STRATA_EARG, "strata_turn_took", "duration must be a finite number >= 0, got %g",
                           duration);
  strata_turn turn;
  if (!strata_turn_of(w, uid, &turn)) {
    const strata_object *o = world_rec(w, uid);
    return strata_error_in(err, STRATA_ESTATE, "strata_turn_took", "%s#%llu has no turns (it is not in the schedule)",
                           o ? o->kind : "object", (unsigned long long)uid);
  }
  double due = turn.started + duration, now = strata_world_time(w);
  strata_status st = strata_world_begin(w, err);
  return st ? st : settle(w, reschedule(w, uid, due < now ? now : due, err));
}

/* base.turn: uid's turn starts (a timer no longer its pending one, or of an
** object gone, does nothing): the next one scheduled, then base.turn_started. */
strata_status turn_fired(strata_call *call, void *data, strata_error *err) {
  (void)data;
  strata_runtime *rt = call->rt;
  strata_world *w = rt->w;
  uint64_t uid = args_uid(call->args, "actor");
  if (!world_rec(w, uid) || value_uid(field(w, uid, "timer")) != call->timer) return STRATA_OK;
  double now = strata_world_time(w);
  strata_status st = set_field(w, uid, "started", strata_value_float(now), err);
  if (!st) st = reschedule(w, uid, now + 1 / speed_of(w, uid), err);
  strata_value params;
  if (!st) st = strata_value_table(&params, err);
  if (st) return st;
  if (!(st = params_ref(&params, "actor", uid, err))) {
    strata_value k = K("time"), v = strata_value_float(now);
    st = strata_vtable_set(params.u.t, &k, &v, err);
  }
  /* (the list is this emit's alone: the emits its handlers make report as any) */
  strata_failures *also = rt->timer_failures;
  rt->timer_failures = NULL;
  if (!st) st = event_emit_into(rt, uid, "base.turn_started", &params, also, err);
  strata_value_clear(&params);
  if (!st) rt->turn_started = uid;
  return st;
}

/* The earliest pending turn of an object still there: its due time; 0 when none. */
static int earliest_turn(const strata_world *w, double *due) {
  int found = 0;
  uint64_t best = 0;
  for (size_t i = 0; i < w->ntimers; i++) {
    const strata_timer *t = &w->timers[i];
    if (strcmp(t->handler, TURN_HANDLER) != 0) continue;
    if (found && (t->due > *due || (t->due == *due && t->uid > best))) continue;
    if (pending(w, args_uid(&t->args, "actor")) != t) continue;
    found = 1, best = t->uid, *due = t->due;
  }
  return found;
}

/* Rounds of running to the earliest turn before giving up, when handlers
** keep taking every turn out of the schedule just before it starts. */
#define NEXT_TURN_ROUNDS 1000

strata_status strata_world_next_turn(strata_runtime *rt, uint64_t *actor, strata_failures *failures,
                                     strata_error *err) {
  *actor = 0;
  strata_status st = world_not_in_callback(rt->w, "strata_world_next_turn", "take a turn of", err);
  double due = 0;
  for (int round = 0; !st && !*actor && round < NEXT_TURN_ROUNDS && earliest_turn(rt->w, &due); round++)
    st = clock_run_to(rt, due, actor, failures, err);
  return st;
}
