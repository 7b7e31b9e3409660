/*
** renew.c - restock and renew: due times kept in the map (sys.restock_due,
** sys.renew_due) from its archetype's intervals, applied when due with the
** number of intervals elapsed.
**
** Only the player's map has a stored timer (base.map_renew, sys.renew_timer)
** that applies them as they fall due; any other map catches up when it is
** entered, so a world with a thousand maps runs one timer, not a thousand.
*/
#include "runtime_internal.h"

#include <math.h>
#include <stdio.h>

static const char *const what_names[2] = { "restock", "renew" };

static double every_of(const strata_map_archetype *a, int what) {
  double e = !a ? 0 : what == 0 ? a->restock_every : a->renew_every;
  return e > 0 && isfinite(e) ? e : 0;
}

/* The dues counted from now: set from the archetype's intervals, or cleared. */
strata_status renew_init(strata_runtime *rt, uint64_t map, strata_error *err) {
  const strata_map_archetype *a = map_archetype_of(rt, map);
  double now = strata_world_time(rt->w);
  strata_status st = STRATA_OK;
  for (int what = 0; what < 2 && !st; what++) {
    double every = every_of(a, what);
    double due = now + every;
    st = map_set_due(rt, map, what, every > 0 ? &due : NULL, err);
  }
  return st;
}

/* Renew, then restock, when due: on_renew / on_restock with call->steps =
** the intervals elapsed, and the due moved past now. */
strata_status renew_apply(strata_runtime *rt, uint64_t map, strata_error *err) {
  const strata_map_archetype *a = map_archetype_of(rt, map);
  if (!a) return STRATA_OK;
  double now = strata_world_time(rt->w);
  for (int what = 1; what >= 0; what--) {
    double every = every_of(a, what), due;
    if (!(every > 0) || !map_due(rt, map, what, &due) || !(now >= due)) continue;
    int64_t steps = (int64_t)floor((now - due) / every) + 1;
    double next = due + (double)steps * every;
    strata_status st = map_set_due(rt, map, what, &next, err);
    if (st) return st;
    strata_call call;
    rt_call_init(&call, rt, what == 0 ? STRATA_LOGIC_ON_RESTOCK : STRATA_LOGIC_ON_RENEW, NULL);
    call.steps = steps;
    call.area = strata_map_area(rt, map, &call.floor);
    call.has_floor = call.area != 0;
    call.depth = call.floor;
    char key[64];
    snprintf(key, sizeof key, "map#%llu %s", (unsigned long long)map, what_names[what]);
    /* the stream is made only when there is a hook to draw from it */
    if ((st = rt_map_hook(rt, map, call.kind, &call, key, err))) return st;
  }
  return STRATA_OK;
}

strata_status renew_cancel_timer(strata_runtime *rt, uint64_t map, strata_error *err) {
  uint64_t t = map_renew_timer(rt, map);
  if (!t) return STRATA_OK;
  strata_world_cancel(rt->w, t, NULL); /* gone already: nothing to cancel */
  return map_set_renew_timer(rt, map, 0, err);
}

strata_status renew_schedule_timer(strata_runtime *rt, uint64_t map, strata_error *err) {
  strata_status st = renew_cancel_timer(rt, map, err);
  if (st) return st;
  double a, b, due, now = strata_world_time(rt->w);
  int has_a = map_due(rt, map, 0, &a);
  int has_b = map_due(rt, map, 1, &b);
  if (!has_a && !has_b) return STRATA_OK;
  due = has_a && has_b ? fmin(a, b) : has_a ? a : b;
  /* as world:schedule{ after = } computes it: now + after */
  strata_value args, k = K("map"), v = strata_value_int((int64_t)map);
  if ((st = strata_value_table(&args, err))) return st;
  uint64_t timer;
  if (!(st = strata_vtable_set(args.u.t, &k, &v, err)))
    st = strata_world_schedule(rt->w, now + fmax(0, due - now), 0, "base.map_renew", &args,
                               &timer, err);
  strata_value_clear(&args);
  if (!st) st = map_set_renew_timer(rt, map, timer, err);
  return st;
}

/* base.map_renew fell due: apply, and while the player is still there, schedule the next. */
static strata_status renew_fired(strata_runtime *rt, uint64_t map, strata_error *err) {
  if (!rt_object(rt, map, "map")) return STRATA_OK;
  strata_status st = map_set_renew_timer(rt, map, 0, err);
  if (!st) st = renew_apply(rt, map, err);
  if (!st && strata_current_map(rt) == map) st = renew_schedule_timer(rt, map, err);
  return st;
}

strata_status renew_timer_fired(strata_runtime *rt, const strata_value *args, strata_error *err) {
  return renew_fired(rt, args_uid(args, "map"), err);
}

strata_status strata_map_renew(strata_runtime *rt, uint64_t map, strata_error *err) {
  strata_status st = rt_begin(rt, err);
  if (st) return st;
  return rt_end(rt, renew_fired(rt, map, err));
}
