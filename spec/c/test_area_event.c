/* test_area_event.c - events (global handlers, archetype events and
** subscriptions in one chain by (priority, name), results, "stop", failures
** undone and reported) and timers (strata_advance), through the C API. */
#include <stdlib.h>

#include "check.h"
#include "strata/strata.h"
#include "world_dump.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)

static strata_error err;
static char order[512];         /* who ran, in order */
static int failed_reports;       /* base.handler_failed handler calls */
static char last_report[512];    /* the params of the last one, as text */

static void ran(const char *who) {
  strncat(order, who, sizeof order - strlen(order) - 2);
  strcat(order, " ");
}

static int64_t int_of(const strata_value *v) { return v && v->type == STRATA_VINT ? v->u.i : -1; }

static const strata_value *field(const strata_value *t, const char *key) {
  return t && t->type == STRATA_VTABLE ? strata_vtable_get_str(t->u.t, key) : NULL;
}

/* "add": result + the n in its args (subscriptions) or in its data (others). */
static strata_status add(strata_call *c, void *data, strata_error *e) {
  (void)e;
  int64_t n = c->args ? int_of(field(c->args, "n")) : (int64_t)(intptr_t)data;
  char who[32];
  snprintf(who, sizeof who, "%s+%lld", c->id, (long long)n);
  ran(who);
  c->ret = strata_value_int((c->result->type == STRATA_VINT ? c->result->u.i : 0) + n);
  return STRATA_OK;
}

static strata_status keep(strata_call *c, void *data, strata_error *e) {
  (void)data; (void)e;
  ran("keep");
  (void)c; /* nil: the result stays */
  return STRATA_OK;
}

static strata_status stopper(strata_call *c, void *data, strata_error *e) {
  (void)e;
  ran("stop");
  if (data) c->ret = strata_value_int(100); /* with a result, through the flag */
  else { strata_value_string(&c->ret, "stop", 4, NULL); } /* as Lua's return "stop" */
  c->stop = data != NULL;
  return STRATA_OK;
}

/* Changes the world (a new object, a property of the source), then fails. */
static strata_status breaker(strata_call *c, void *data, strata_error *e) {
  (void)data;
  ran("break");
  uint64_t junk;
  strata_world_create(c->world, "junk", NULL, &junk, NULL);
  strata_value k = { 0 }, v = strata_value_int(666);
  strata_value_string(&k, "broken", 6, NULL);
  if (c->source) strata_object_set(c->world, c->source, &k, 1, &v, NULL);
  strata_value_clear(&k);
  return strata_error_set(e, STRATA_ESTATE, "the handler broke");
}

/* Leaves a savepoint open, and so fails. */
static strata_status leaker(strata_call *c, void *data, strata_error *e) {
  (void)data; (void)e;
  ran("leak");
  uint64_t junk;
  strata_world_begin(c->world, NULL);
  strata_world_create(c->world, "junk", NULL, &junk, NULL);
  return STRATA_OK;
}

static strata_status on_failed(strata_call *c, void *data, strata_error *e) {
  (void)data;
  failed_reports++;
  const strata_value *p = c->params;
  const strata_value *ev = field(p, "event"), *h = field(p, "handler"), *m = field(p, "mod"),
                     *msg = field(p, "message");
  snprintf(last_report, sizeof last_report, "event=%s handler=%s mod=%s sub=%lld timer=%lld message=%s",
           ev ? ev->u.str.s : "-", h ? h->u.str.s : "-", m ? m->u.str.s : "-",
           (long long)int_of(field(p, "subscription")), (long long)int_of(field(p, "timer")),
           msg ? msg->u.str.s : "-");
  /* a failing handler of base.handler_failed is not reported again */
  return strata_error_set(e, STRATA_ESTATE, "the failure handler fails too");
}

/* Timers: note who fell due, when. */
static strata_status tick(strata_call *c, void *data, strata_error *e) {
  (void)data; (void)e;
  char who[64];
  snprintf(who, sizeof who, "t%lld@%g", (long long)int_of(field(c->args, "n")), c->time);
  ran(who);
  return STRATA_OK;
}

/* Tries to advance and to save the world it runs in (issue 31): both are
** refused, whatever runs the handler (an emit of the host's here). */
static char reentered[1100];
static strata_status reenter(strata_call *c, void *data, strata_error *e) {
  (void)data; (void)e;
  strata_error a, s;
  strata_status sa = strata_advance(c->rt, 1e6, NULL, &a);
  strata_status ss = strata_world_save(c->world, "reenter-never-written.db", NULL, 0, &s);
  snprintf(reentered, sizeof reentered, "%d %s | %d %s", (int)sa, a.message, (int)ss, s.message);
  return STRATA_OK;
}

static strata_registry *registry(void) {
  strata_registry *r = strata_registry_new(&err);
  OK(strata_registry_add_event(r, "ev.ping", &err));
  OK(strata_registry_add_event(r, "base.handler_failed", &err));
  OK(strata_registry_add_map_archetype(r, &(strata_map_archetype){ .id = "ev.thing", .mod = "ev" }, &err));
  OK(strata_registry_add_archetype_event(r, "map", "ev.thing", "ev.ping", "arch", 5, add,
                                         (void *)(intptr_t)1000, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.add1", add, (void *)(intptr_t)1, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.add10", add, (void *)(intptr_t)10, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.keep", keep, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.stop", stopper, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.stop_flag", stopper, (void *)1, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.break", breaker, NULL, "evmod", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.leak", leaker, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.failed", on_failed, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_HANDLER, "ev.sub_add", add, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_HANDLER, "ev.tick", tick, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_EVENT, "ev.reenter", reenter, NULL, "ev", &err));
  OK(strata_registry_add_logic(r, STRATA_LOGIC_HANDLER, "ev.break", breaker, NULL, "evmod", &err));
  return r;
}

static strata_value args_n(int64_t n) {
  strata_value t, k, v = strata_value_int(n);
  strata_value_table(&t, NULL);
  strata_value_string(&k, "n", 1, NULL);
  strata_vtable_set(t.u.t, &k, &v, NULL);
  strata_value_clear(&k);
  return t;
}

static void test_chain(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  uint64_t m, sub;
  OK(strata_map_create(rt, 4, 4, "ev.thing", &m, &err));
  /* globals: b and a at 10 (a first: by name), archetype "arch" at 5, a subscription at 20 */
  OK(strata_event_on(rt, "ev.ping", "b", 10, "ev.add10", &err));
  OK(strata_event_on(rt, "ev.ping", "a", 10, "ev.add1", &err));
  OK(strata_event_on(rt, "ev.ping", "z keep", 15, "ev.keep", &err));
  strata_value args = args_n(100000);
  OK(strata_world_subscribe(w, m, "ev.ping", "ev.sub_add", &args, 20, &sub, &err));
  strata_value_clear(&args);
  strata_value dflt = strata_value_int(0), res;
  order[0] = '\0';
  OK(strata_emit(rt, m, "ev.ping", NULL, &dflt, &res, &err));
  CHECK_STR(order, "ev.thing+1000 ev.add1+1 ev.add10+10 keep ev.sub_add+100000 ");
  CHECK_EQ_INT(int_of(&res), 101011);
  strata_value_clear(&res);
  /* on the world: globals only */
  order[0] = '\0';
  OK(strata_emit(rt, 0, "ev.ping", NULL, NULL, &res, &err));
  CHECK_STR(order, "ev.add1+1 ev.add10+10 keep ");
  CHECK_EQ_INT(int_of(&res), 11);
  strata_value_clear(&res);
  /* "stop" as a result ends the chain and keeps the result before it */
  OK(strata_event_on(rt, "ev.ping", "c stop", 12, "ev.stop", &err));
  order[0] = '\0';
  OK(strata_emit(rt, m, "ev.ping", NULL, &dflt, &res, &err));
  CHECK_STR(order, "ev.thing+1000 ev.add1+1 ev.add10+10 stop ");
  CHECK_EQ_INT(int_of(&res), 1011);
  strata_value_clear(&res);
  /* the stop flag with a result */
  OK(strata_event_on(rt, "ev.ping", "c stop", 12, "ev.stop_flag", &err)); /* replaces it */
  order[0] = '\0';
  OK(strata_emit(rt, m, "ev.ping", NULL, &dflt, &res, &err));
  CHECK_STR(order, "ev.thing+1000 ev.add1+1 ev.add10+10 stop ");
  CHECK_EQ_INT(int_of(&res), 100);
  strata_value_clear(&res);
  CHECK_EQ_INT(strata_event_off(rt, "c stop"), 1);
  /* errors of the emit itself */
  CHECK_EQ_INT(strata_emit(rt, m, "ev.pong", NULL, NULL, &res, &err), STRATA_ENOTFOUND);
  CHECK_HAS(err.message, "unknown base.event 'ev.pong'");
  CHECK_EQ_INT(strata_emit(rt, 999, "ev.ping", NULL, NULL, &res, &err), STRATA_ENOTFOUND);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* The host is told of every savepoint the runtime opens and closes. */
static int savepoints[3];
static void count_savepoint(void *host, strata_savepoint_op op) {
  (void)host;
  savepoints[op]++;
}

static void test_failures(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_resolver hooked = *strata_registry_resolver(reg);
  hooked.savepoint = count_savepoint;
  strata_runtime *rt = strata_runtime_new(w, &hooked, &err);
  uint64_t m, sub, gone;
  OK(strata_map_create(rt, 4, 4, NULL, &m, &err));
  OK(strata_event_on(rt, "ev.ping", "a", 10, "ev.add1", &err));
  OK(strata_event_on(rt, "ev.ping", "b break", 11, "ev.break", &err));
  OK(strata_event_on(rt, "ev.ping", "c", 12, "ev.add10", &err));
  OK(strata_event_on(rt, "base.handler_failed", "report", 100, "ev.failed", &err));
  OK(strata_world_subscribe(w, m, "ev.ping", "ev.unknown", NULL, 50, &gone, &err));
  char *before = dump(w);
  strata_value res, dflt = strata_value_int(0);
  order[0] = '\0';
  failed_reports = 0;
  memset(savepoints, 0, sizeof savepoints);
  OK(strata_emit(rt, m, "ev.ping", NULL, &dflt, &res, &err));
  /* the broken handler is undone, the chain goes on */
  CHECK_STR(order, "ev.add1+1 break ev.add10+10 ");
  CHECK_EQ_INT(int_of(&res), 11);
  strata_value_clear(&res);
  char *after = dump(w);
  CHECK_STR(after, before);
  free(before);
  free(after);
  /* both failures reported, once each (the report handler's own failures are not) */
  CHECK_EQ_INT(failed_reports, 2);
  char want[256];
  snprintf(want, sizeof want, "event=ev.ping handler=ev.unknown mod=- sub=%llu timer=-1 message=unknown base.handler 'ev.unknown'",
           (unsigned long long)gone);
  CHECK_HAS(last_report, want);
  /* a, break, c and the two reports (ev.unknown fails before its savepoint) */
  CHECK_EQ_INT(savepoints[STRATA_SAVEPOINT_BEGIN], 5);
  CHECK_EQ_INT(savepoints[STRATA_SAVEPOINT_COMMIT], 2);
  CHECK_EQ_INT(savepoints[STRATA_SAVEPOINT_ROLLBACK], 3);
  /* a handler leaving a savepoint open fails and is undone */
  strata_event_off(rt, "b break");
  OK(strata_world_unsubscribe(w, gone, &err));
  OK(strata_event_on(rt, "ev.ping", "b leak", 11, "ev.leak", &err));
  before = dump(w);
  failed_reports = 0;
  OK(strata_emit(rt, m, "ev.ping", NULL, &dflt, &res, &err));
  strata_value_clear(&res);
  CHECK_EQ_INT(strata_world_depth(w), 0);
  after = dump(w);
  CHECK_STR(after, before);
  CHECK_EQ_INT(failed_reports, 1);
  CHECK_HAS(last_report, "handler=b leak mod=ev sub=-1 timer=-1 message=b leak left a savepoint open");
  free(before);
  free(after);
  (void)sub;
  strata_runtime_free(rt);
  strata_world_free(w);
}

static void test_advance(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  OK(strata_event_on(rt, "base.handler_failed", "report", 100, "ev.failed", &err));
  uint64_t t[6];
  strata_value a1 = args_n(1), a2 = args_n(2), a3 = args_n(3), a4 = args_n(4);
  OK(strata_world_schedule(w, 5, 0, "ev.tick", &a1, &t[0], &err));
  OK(strata_world_schedule(w, 5, 0, "ev.tick", &a2, &t[1], &err));
  OK(strata_world_schedule(w, 3, 0, "ev.tick", &a3, &t[2], &err));
  OK(strata_world_schedule(w, 10, 10, "ev.tick", &a4, &t[3], &err));
  OK(strata_world_schedule(w, 4, 0, "ev.break", NULL, &t[4], &err));
  OK(strata_world_schedule(w, 6, 0, "ev.nope", NULL, &t[5], &err));
  strata_value_clear(&a1); strata_value_clear(&a2); strata_value_clear(&a3); strata_value_clear(&a4);
  strata_failures f = { NULL, 0, 0 };
  order[0] = '\0';
  failed_reports = 0;
  OK(strata_advance(rt, 30, &f, &err));
  CHECK_STR(order, "t3@3 break t1@5 t2@5 t4@10 t4@20 t4@30 ");
  CHECK_EQ_INT(strata_world_time(w), 30);
  CHECK_EQ_INT(f.n, 2);
  if (f.n == 2) {
    CHECK_EQ_INT(f.items[0].timer, t[4]);
    CHECK_STR(f.items[0].handler, "ev.break");
    CHECK_STR(f.items[0].mod, "evmod");
    CHECK_STR(f.items[0].message, "the handler broke");
    CHECK_EQ_INT(f.items[1].timer, t[5]);
    CHECK_STR(f.items[1].handler, "ev.nope");
    CHECK(f.items[1].mod == NULL);
    CHECK_HAS(f.items[1].message, "unknown base.handler 'ev.nope'");
  }
  CHECK_EQ_INT(failed_reports, 2);
  char want[128];
  snprintf(want, sizeof want, "timer=%llu", (unsigned long long)t[5]);
  CHECK_HAS(last_report, want);
  /* the broken handler's changes were undone: no junk */
  size_t junk = 0;
  for (strata_object *o = strata_world_next_object(w, 0); o; o = strata_world_next_object(w, o->uid))
    junk += strcmp(o->kind, "junk") == 0;
  CHECK_EQ_INT(junk, 0);
  /* the repeating timer stays scheduled */
  CHECK_EQ_INT(strata_world_timer_count(w), 1);
  CHECK(strata_world_timer_at(w, 0)->uid == t[3] && strata_world_timer_at(w, 0)->due == 40);
  CHECK_EQ_INT(strata_advance(rt, -1, &f, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_advance(rt, 1.0 / 0.0, &f, &err), STRATA_EARG);
  strata_failures_clear(&f);
  strata_runtime_free(rt);
  strata_world_free(w);
}

/* The limits of one advance: a timer runs at most max_runs times (the rest
** of its runs up to the target dropped), and at most max_total handlers run
** in all (every timer still due skipped past the target or postponed to it). */
static void test_advance_limits(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  uint64_t fast, once;
  strata_value a1 = args_n(1), a2 = args_n(2);
  OK(strata_world_schedule(w, 0, 0.5, "ev.tick", &a1, &fast, &err));
  OK(strata_advance_limited(rt, 9.9, 5, 1000, NULL, &err)); /* runs at 0 .. 2: five */
  strata_failures f = { NULL, 0, 0 };
  OK(strata_advance_limited(rt, 10, 5, 1000, &f, &err));   /* from 9.9: due at 10 .. 19.5 */
  CHECK_EQ_INT(strata_world_time(w), 19.9);
  CHECK_EQ_INT(f.n, 1);
  if (f.n == 1) {
    CHECK(f.items[0].timer == fast && f.items[0].has_dropped);
    CHECK_NEAR(f.items[0].dropped, 15, 0);                 /* 10 .. 19.5 is 20 runs: 5 ran */
    CHECK_HAS(f.items[0].message, "ran 5 times in one advance: 15 more runs up to time 19.9 dropped");
    CHECK_STR(f.items[0].handler, "ev.tick");
  }
  strata_failures_clear(&f);
  CHECK(strata_world_timer_at(w, 0)->due > 19.9);
  /* all timers: past max_total, the one-shot waits at the target */
  OK(strata_world_schedule(w, 25, 0, "ev.tick", &a2, &once, &err));
  OK(strata_advance_limited(rt, 10, 1000, 3, &f, &err));
  CHECK_EQ_INT(f.n, 1);
  if (f.n == 1) {
    CHECK(f.items[0].timer == 0 && f.items[0].has_dropped);
    CHECK_NEAR(f.items[0].dropped, 2, 0);
    CHECK_HAS(f.items[0].message, "advance ran 3 timer handlers: 2 timers still due up to time 29.9");
  }
  CHECK_EQ_INT(strata_world_time(w), 29.9);
  int waiting = 0;
  for (size_t i = 0; i < strata_world_timer_count(w); i++)
    waiting += strata_world_timer_at(w, i)->uid == once && strata_world_timer_at(w, i)->due == 29.9;
  CHECK_EQ_INT(waiting, 1);
  strata_value_clear(&a1);
  strata_value_clear(&a2);
  strata_failures_clear(&f);
  strata_runtime_free(rt);
  strata_world_free(w);
}

static void test_no_reentry(strata_registry *reg) {
  strata_world *w = strata_world_new(1, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  OK(strata_event_on(rt, "ev.ping", "re", 1, "ev.reenter", &err));
  strata_value res;
  OK(strata_emit(rt, 0, "ev.ping", NULL, NULL, &res, &err));
  strata_value_clear(&res);
  CHECK(strstr(reentered, "cannot advance the world it runs in") != NULL);
  CHECK(strstr(reentered, "cannot save the world it runs in") != NULL);
  CHECK_EQ_INT(strata_world_time(w), 0);
  FILE *f = fopen("reenter-never-written.db", "rb");
  CHECK(f == NULL);
  if (f) fclose(f);
  /* outside the callback, both work again */
  OK(strata_advance(rt, 1, NULL, &err));
  strata_runtime_free(rt);
  strata_world_free(w);
}

int main(void) {
  strata_registry *reg = registry();
  test_no_reentry(reg);
  test_chain(reg);
  test_failures(reg);
  test_advance(reg);
  test_advance_limits(reg);
  strata_registry_free(reg);
  return check_summary("test_area_event");
}
