/*
** clock.c - time moves forward: due timers run in (due, uid) order, each
** handler in a savepoint of its own, failures undone and reported.
**
** A timer is fired (a one-shot one removed, a repeating one moved on)
** before its handler runs and outside the handler's savepoint, so a failing
** handler cannot leave its timer due for ever.
*/
#include "runtime_internal.h"

#include <math.h>
#include <stdio.h>

/* The core's own handler: restock and renew of the map in args.map. */
static strata_status map_renew(strata_call *call, void *data, strata_error *err) {
  (void)data;
  return renew_timer_fired(call->rt, call->args, err);
}

static strata_status run_timer(strata_runtime *rt, const strata_timer *t, const char **mod,
                               strata_error *err) {
  strata_callable c;
  strata_status st;
  *mod = NULL;
  if (strcmp(t->handler, "base.map_renew") == 0) {
    c = (strata_callable){ map_renew, NULL, "base" };
  } else {
    if ((st = rt_resolve(rt, STRATA_LOGIC_HANDLER, t->handler, &c, err))) return st;
    if (!c.fn)
      return strata_error_set(err, STRATA_ENOTFOUND, "base.handler '%s' has no run function",
                              t->handler);
  }
  *mod = c.mod;
  strata_call call;
  rt_call_init(&call, rt, STRATA_LOGIC_HANDLER, t->handler);
  call.time = t->due;
  call.timer = t->uid;
  call.args = &t->args;
  st = rt_call_atomic(rt, &c, &call, t->handler, err);
  strata_value_clear(&call.ret);
  return st;
}

strata_status strata_advance(strata_runtime *rt, double dt, strata_failures *failures,
                             strata_error *err) {
  if (!(dt >= 0) || isinf(dt))
    return strata_error_set(err, STRATA_EARG, "strata_advance: dt must be a finite number >= 0, got %g", dt);
  strata_world *w = rt->w;
  double target = strata_world_time(w) + dt;
  strata_failures local = { NULL, 0, 0 };
  strata_status st = STRATA_OK;
  const strata_timer *due;
  while (!st && (due = strata_world_next_due(w, target)) != NULL) {
    uint64_t uid = due->uid;
    strata_timer fired;
    if ((st = strata_world_set_time(w, due->due, err))) break;
    if ((st = strata_world_fire(w, uid, &fired, err))) break;
    strata_error herr;
    strata_error_clear(&herr);
    const char *mod;
    if (run_timer(rt, &fired, &mod, &herr) != STRATA_OK &&
        failures_push(&local, uid, 0, NULL, fired.handler, mod, herr.message))
      st = strata_error_set(err, STRATA_ENOMEM, "out of memory");
    strata_timer_clear(&fired);
  }
  if (!st) st = strata_world_set_time(w, target, err);
  event_report(rt, &local);
  for (size_t i = 0; i < local.n; i++) {
    strata_failure *x = &local.items[i];
    if (!failures || failures_push(failures, x->timer, 0, NULL, x->handler, x->mod, x->message)) {
      if (failures && !st) st = strata_error_set(err, STRATA_ENOMEM, "out of memory");
    }
  }
  strata_failures_clear(&local);
  return st;
}
