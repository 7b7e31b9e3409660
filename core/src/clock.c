/*
** clock.c - time moves forward: due timers run in (due, uid) order, each
** handler in a savepoint of its own, failures undone and reported.
**
** A timer is fired (a one-shot one removed, a repeating one moved on)
** before its handler runs and outside the handler's savepoint, so a failing
** handler cannot leave its timer due for ever.
*/
#include "runtime_internal.h"
#include "strata/alloc.h"
#include "world_internal.h" /* world_not_in_callback */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* base.map_renew: restock and renew of the map in args.map. */
static strata_status map_renew(strata_call *call, void *data, strata_error *err) {
  (void)data;
  return renew_timer_fired(call->rt, call->args, err);
}

/* The handlers that are the core's own: run without resolving, whatever
** the host defines under their IDs. */
static const struct { const char *id; strata_fn fn; } core_handlers[] = {
  { "base.map_renew", map_renew }, { "base.walk_step", walk_step_fired },
  { "base.branch_idle", branch_idle_fired }, { "base.branch_reset", branch_reset_fired },
  { "base.turn", turn_fired } };

static int core_handler(const char *id, strata_callable *c) {
  for (size_t i = 0; i < sizeof core_handlers / sizeof *core_handlers; i++)
    if (strcmp(id, core_handlers[i].id) == 0) {
      *c = (strata_callable){ core_handlers[i].fn, NULL, "base" };
      return 1;
    }
  return 0;
}

static strata_status run_timer(strata_runtime *rt, const strata_timer *t, const char **mod,
                               strata_error *err) {
  strata_callable c;
  strata_status st;
  *mod = NULL;
  if (!core_handler(t->handler, &c)) {
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

/* Runs per timer in one advance: uid -> count, open addressing. */
typedef struct run_count {
  uint64_t *uid;
  uint64_t *n;
  size_t cap, used;
} run_count;

/* The count of uid, incremented; 0 when out of memory (a run not counted). */
static uint64_t count_run(run_count *c, uint64_t uid) {
  if (2 * (c->used + 1) > c->cap) {
    size_t cap = c->cap ? c->cap * 2 : 64;
    uint64_t *u = strata_calloc(cap, sizeof *u), *n = strata_calloc(cap, sizeof *n);
    if (!u || !n) { strata_free(u); strata_free(n); return 0; }
    for (size_t i = 0; i < c->cap; i++) {
      if (!c->uid[i]) continue;
      size_t j = (size_t)(c->uid[i] * 0x9E3779B97F4A7C15u) & (cap - 1);
      while (u[j]) j = (j + 1) & (cap - 1);
      u[j] = c->uid[i];
      n[j] = c->n[i];
    }
    strata_free(c->uid);
    strata_free(c->n);
    c->uid = u;
    c->n = n;
    c->cap = cap;
  }
  size_t j = (size_t)(uid * 0x9E3779B97F4A7C15u) & (c->cap - 1);
  while (c->uid[j] && c->uid[j] != uid) j = (j + 1) & (c->cap - 1);
  if (!c->uid[j]) { c->uid[j] = uid; c->used++; }
  return ++c->n[j];
}

static strata_status push_dropped(strata_failures *f, uint64_t timer, const char *handler,
                                  double dropped, const char *message) {
  if (failures_push(f, timer, 0, NULL, handler, NULL, message)) return STRATA_ENOMEM;
  f->items[f->n - 1].has_dropped = 1;
  f->items[f->n - 1].dropped = dropped;
  return STRATA_OK;
}

strata_status strata_advance(strata_runtime *rt, double dt, strata_failures *failures,
                             strata_error *err) {
  return strata_advance_limited(rt, dt, 1000, 100000, failures, err);
}

/* Runs the timers due up to target and moves the clock there; with turn,
** stops instead right after a timer that started a turn (turns.c), *turn
** its object (0: none started, the clock at target). */
static strata_status run_to(strata_runtime *rt, double target, uint64_t max_runs, uint64_t max_total,
                            uint64_t *turn, strata_failures *failures, strata_error *err) {
  strata_world *w = rt->w;
  strata_failures local = { NULL, 0, 0 };
  run_count runs = { NULL, NULL, 0, 0 };
  uint64_t total = 0;
  strata_status st = STRATA_OK;
  const strata_timer *due;
  char msg[256];
  while (!st && (due = strata_world_next_due(w, target)) != NULL) {
    /* Only a repeating timer can run twice in one advance (a one-shot one is
    ** gone once fired): one-shot runs are not counted, which kept a table of
    ** every timer run. (Out of memory for the count: this run is not
    ** counted; max_total still bounds the advance.) */
    uint64_t uid = due->uid, n = due->every > 0 ? count_run(&runs, uid) : 1;
    if (++total > max_total) {
      /* every timer still due: skipped past the target (repeating) or postponed to it */
      /* (uids first: a skip moves its timer within the world's ordered list) */
      uint64_t count = 0;
      size_t nt = strata_world_timer_count(w);
      uint64_t *uids = strata_malloc((nt ? nt : 1) * sizeof *uids);
      if (!uids) { st = strata_error_nomem(err, NULL); break; }
      for (size_t i = 0; i < nt; i++)
        if (strata_world_timer_at(w, i)->due <= target) uids[count++] = strata_world_timer_at(w, i)->uid;
      for (size_t i = 0; !st && i < count; i++) st = strata_world_timer_skip(w, uids[i], target, NULL, err);
      strata_free(uids);
      snprintf(msg, sizeof msg, "advance ran %llu timer handlers: %llu timers still due up to time %g "
               "were dropped (repeating) or postponed to it (one-shot)",
               (unsigned long long)max_total, (unsigned long long)count, target);
      if (!st && push_dropped(&local, 0, NULL, (double)count, msg))
        st = strata_error_nomem(err, NULL);
      break;
    }
    if (n > max_runs) {
      uint64_t skipped = 0;
      char *handler = strata_strdup(due->handler);
      if (!handler) { st = strata_error_nomem(err, NULL); break; }
      if (!(st = strata_world_timer_skip(w, uid, target, &skipped, err))) {
        snprintf(msg, sizeof msg, "timer #%llu ran %llu times in one advance: %.0f more runs up to time %g dropped",
                 (unsigned long long)uid, (unsigned long long)max_runs, (double)skipped, target);
        if (push_dropped(&local, uid, handler, (double)skipped, msg))
          st = strata_error_nomem(err, NULL);
      }
      strata_free(handler);
      continue;
    }
    strata_timer fired;
    if ((st = strata_world_set_time(w, due->due, err))) break;
    if ((st = strata_world_fire(w, uid, &fired, err))) break;
    strata_error herr;
    strata_error_clear(&herr);
    const char *mod;
    rt->turn_started = 0;
    rt->timer_failures = failures;
    strata_status ran = run_timer(rt, &fired, &mod, &herr);
    rt->timer_failures = NULL;
    if (ran && failures_push(&local, uid, 0, NULL, fired.handler, mod, strata_runtime_failure_text(rt, &herr)))
      st = strata_error_nomem(err, NULL);
    strata_timer_clear(&fired);
    if (turn && !ran && rt->turn_started) {
      *turn = rt->turn_started;
      break;
    }
  }
  strata_free(runs.uid);
  strata_free(runs.n);
  if (!st && !(turn && *turn)) st = strata_world_set_time(w, target, err);
  event_report(rt, &local);
  for (size_t i = 0; i < local.n; i++) {
    strata_failure *x = &local.items[i];
    if (!failures || failures_push(failures, x->timer, 0, NULL, x->handler, x->mod, x->message)) {
      if (failures && !st) st = strata_error_nomem(err, NULL);
      continue;
    }
    failures->items[failures->n - 1].has_dropped = x->has_dropped;
    failures->items[failures->n - 1].dropped = x->dropped;
  }
  strata_failures_clear(&local);
  return st;
}

strata_status strata_advance_limited(strata_runtime *rt, double dt, uint64_t max_runs,
                                     uint64_t max_total, strata_failures *failures,
                                     strata_error *err) {
  if (!(dt >= 0) || isinf(dt))
    return strata_error_in(err, STRATA_EARG, "strata_advance", "dt must be a finite number >= 0, got %g", dt);
  strata_status in = world_not_in_callback(rt->w, "strata_advance", "advance", err);
  if (in) return in;
  return run_to(rt, strata_world_time(rt->w) + dt, max_runs, max_total, NULL, failures, err);
}

strata_status clock_run_to(strata_runtime *rt, double target, uint64_t *turn, strata_failures *failures,
                           strata_error *err) {
  return run_to(rt, target, 1000, 100000, turn, failures, err);
}
