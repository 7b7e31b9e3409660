/* test_turns.c - the turn scheduler (turns.h): speeds honoured over many
** turns, ties in the order turns were scheduled, an action's duration, the
** order across a save and an open identical to one process's, savepoints
** rolled back, actors leaving the schedule, base.turn_started, and turns
** run by strata_advance; then the draws rng.h adds (normal, weighted) and
** the noise of noise.h. Every figure comes from a fixed seed: the verdicts
** never change from run to run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "strata/clock.h"
#include "strata/event.h"
#include "strata/noise.h"
#include "strata/registry.h"
#include "strata/rng.h"
#include "strata/runtime.h"
#include "strata/turns.h"
#include "strata/world.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)

static strata_error err;

/* What base.turn_started's handler saw. */
typedef struct seen {
  int n;
  uint64_t last_actor;
  double last_time;
} seen;

static strata_status on_turn(strata_call *c, void *data, strata_error *e) {
  (void)e;
  seen *s = data;
  s->n++;
  const strata_value *a = strata_vtable_get_str(c->params->u.t, "actor");
  const strata_value *t = strata_vtable_get_str(c->params->u.t, "time");
  s->last_actor = a && a->type == STRATA_VREF ? a->u.ref : 0;
  s->last_time = t && t->type == STRATA_VFLOAT ? t->u.f : -1;
  return STRATA_OK;
}

typedef struct fixture {
  strata_registry *reg;
  strata_world *w;
  strata_runtime *rt;
  seen s;
} fixture;

static void start(fixture *f, strata_world *w) {
  f->w = w;
  CHECK((f->rt = strata_runtime_new(w, strata_registry_resolver(f->reg), &err)) != NULL);
  OK(strata_event_on(f->rt, "base.turn_started", "log", 0, "t.turn", &err));
}

static void setup(fixture *f) {
  memset(f, 0, sizeof *f);
  CHECK((f->reg = strata_registry_new(&err)) != NULL);
  OK(strata_registry_add_logic(f->reg, STRATA_LOGIC_EVENT, "t.turn", on_turn, &f->s, "t", &err));
  start(f, strata_world_new(5, &err));
}

static void stop(fixture *f) {
  strata_runtime_free(f->rt);
  strata_world_free(f->w);
  f->rt = NULL;
  f->w = NULL;
}

static void teardown(fixture *f) {
  stop(f);
  strata_registry_free(f->reg);
}

static uint64_t actor(fixture *f) {
  uint64_t uid = 0;
  OK(strata_world_create(f->w, "actor", NULL, &uid, &err));
  return uid;
}

static uint64_t next(fixture *f) {
  uint64_t a = 0;
  OK(strata_world_next_turn(f->rt, &a, NULL, &err));
  return a;
}

/* Speeds 1, 2 and 3 over 1200 turns: 200, 400 and 600 (each within one:
** the last turn at a time they share may fall either side of the count). */
static void test_speeds(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f), b = actor(&f), c = actor(&f);
  OK(strata_turns_add(f.w, a, 1, -1, &err));
  OK(strata_turns_add(f.w, b, 2, -1, &err));
  OK(strata_turns_add(f.w, c, 3, -1, &err));
  int n[3] = { 0, 0, 0 };
  for (int i = 0; i < 1200; i++) {
    uint64_t x = next(&f);
    n[x == a ? 0 : x == b ? 1 : x == c ? 2 : 0] += x == a || x == b || x == c;
  }
  CHECK(abs(n[0] - 200) <= 1);
  CHECK(abs(n[1] - 400) <= 1);
  CHECK(abs(n[2] - 600) <= 1);
  CHECK_NEAR(strata_world_time(f.w), 200, 0.5);
  CHECK_EQ_INT(f.s.n, 1200); /* base.turn_started, once a turn */
  teardown(&f);
}

/* Equal speeds: the order they joined in, then the order each next turn was
** scheduled in (a turn is scheduled as the one before it starts). */
static void test_ties(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f), b = actor(&f), c = actor(&f);
  OK(strata_turns_add(f.w, c, 1, -1, &err));
  OK(strata_turns_add(f.w, a, 1, -1, &err));
  OK(strata_turns_add(f.w, b, 1, -1, &err));
  for (int round = 0; round < 5; round++) {
    CHECK_EQ_INT(next(&f), c);
    CHECK_EQ_INT(next(&f), a);
    CHECK_EQ_INT(next(&f), b);
  }
  CHECK_NEAR(strata_world_time(f.w), 5, 1e-12);
  teardown(&f);
}

/* The action scheduler: the turn's action says how long it took. */
static void test_took(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f), b = actor(&f);
  OK(strata_turns_add(f.w, a, 1, 0, &err));
  OK(strata_turns_add(f.w, b, 1, 0.5, &err));
  CHECK_EQ_INT(next(&f), a); /* at 0 */
  OK(strata_turn_took(f.w, a, 3, &err));
  strata_turn t;
  CHECK(strata_turn_of(f.w, a, &t));
  CHECK_NEAR(t.due, 3, 1e-12);
  CHECK_NEAR(t.started, 0, 1e-12);
  CHECK_NEAR(t.speed, 1, 0);
  CHECK_EQ_INT(next(&f), b); /* 0.5 */
  CHECK_EQ_INT(next(&f), b); /* 1.5 */
  CHECK_EQ_INT(next(&f), b); /* 2.5 */
  CHECK_EQ_INT(next(&f), a); /* 3 */
  CHECK_NEAR(strata_world_time(f.w), 3, 1e-12);
  CHECK_EQ_INT(f.s.last_actor, a);
  CHECK_NEAR(f.s.last_time, 3, 1e-12);
  /* a second add updates: the speed, and the next turn when a delay is given */
  OK(strata_turns_add(f.w, a, 4, -1, &err));
  CHECK(strata_turn_of(f.w, a, &t));
  CHECK_NEAR(t.speed, 4, 0);
  CHECK_NEAR(t.due, 4, 1e-12);
  OK(strata_turns_add(f.w, a, 4, 0.25, &err));
  CHECK(strata_turn_of(f.w, a, &t));
  CHECK_NEAR(t.due, 3.25, 1e-12);
  /* refusals */
  CHECK_EQ_INT(strata_turns_add(f.w, a, 0, -1, &err), STRATA_EARG);
  CHECK_STR(err.function, "strata_turns_add");
  CHECK_EQ_INT(strata_turns_add(f.w, a, NAN, -1, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_turns_add(f.w, a, INFINITY, -1, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_turns_add(f.w, a, 1e6, -1, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_turns_add(f.w, a, 1, INFINITY, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_turns_add(f.w, 9999, 1, -1, &err), STRATA_ENOTFOUND);
  CHECK_EQ_INT(strata_turn_took(f.w, a, -1, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_turn_took(f.w, a, NAN, &err), STRATA_EARG);
  uint64_t c = actor(&f);
  CHECK_EQ_INT(strata_turn_took(f.w, c, 1, &err), STRATA_ESTATE);
  CHECK(!strata_turn_of(f.w, c, &t));
  teardown(&f);
}

/* Removed and deleted actors leave the schedule; an empty one answers 0. */
static void test_leave(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f), b = actor(&f), c = actor(&f);
  OK(strata_turns_add(f.w, a, 1, -1, &err));
  OK(strata_turns_add(f.w, b, 2, -1, &err));
  OK(strata_turns_add(f.w, c, 3, -1, &err));
  int removed = 0;
  OK(strata_turns_remove(f.w, b, &removed, &err));
  CHECK_EQ_INT(removed, 1);
  OK(strata_turns_remove(f.w, b, &removed, &err));
  CHECK_EQ_INT(removed, 0);
  OK(strata_world_delete(f.w, c, &err));
  for (int i = 0; i < 20; i++) CHECK_EQ_INT(next(&f), a);
  OK(strata_turns_remove(f.w, a, &removed, &err));
  double t = strata_world_time(f.w);
  CHECK_EQ_INT(next(&f), 0);
  CHECK_NEAR(strata_world_time(f.w), t, 0); /* no turn: time stays */
  teardown(&f);
}

/* 300 turns of five actors in one process, against 100 of them, a save, an
** open, 100 more, a save into the same file (incremental), an open, and the
** last 100: the same actors at the same times. */
#define ORDER_TURNS 300
static void run_order(fixture *f, uint64_t *who, double *when, int from, int to) {
  for (int i = from; i < to; i++) {
    who[i] = next(f);
    when[i] = strata_world_time(f->w);
    /* the action scheduler too: every seventh turn took 2.5 */
    if (i % 7 == 3) OK(strata_turn_took(f->w, who[i], 2.5, &err));
  }
}

static void order_world(fixture *f) {
  static const double speeds[] = { 1, 1.5, 2.5, 0.75, 1 };
  for (int i = 0; i < 5; i++) OK(strata_turns_add(f->w, actor(f), speeds[i], -1, &err));
}

static void test_save_order(void) {
  uint64_t who1[ORDER_TURNS], who2[ORDER_TURNS];
  double when1[ORDER_TURNS], when2[ORDER_TURNS];
  fixture f;
  setup(&f);
  order_world(&f);
  run_order(&f, who1, when1, 0, ORDER_TURNS);
  stop(&f);
  start(&f, strata_world_new(5, &err));
  order_world(&f);
  run_order(&f, who2, when2, 0, 100);
  char path[] = "/tmp/strata_turns_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  close(fd);
  /* a full save at 100, an incremental one into the same file at 200 */
  for (int part = 1; part <= 2; part++) {
    OK(strata_world_save(f.w, path, NULL, 0, &err));
    stop(&f);
    strata_world *w = NULL;
    strata_mod_version *mods = NULL;
    size_t nmods = 0;
    OK(strata_world_open(path, &w, &mods, &nmods, &err));
    strata_mod_versions_free(mods, nmods);
    start(&f, w);
    run_order(&f, who2, when2, 100 * part, part == 1 ? 200 : ORDER_TURNS);
  }
  int same = 1;
  for (int i = 0; i < ORDER_TURNS; i++) same &= who1[i] == who2[i] && when1[i] == when2[i];
  CHECK(same);
  CHECK(who1[0] != 0);
  unlink(path);
  teardown(&f);
}

/* A savepoint rolled back puts the schedule back: the next turns are those
** that came before the rollback. */
static void test_rollback(void) {
  fixture f;
  setup(&f);
  order_world(&f);
  uint64_t before[40], after[40];
  double t0 = strata_world_time(f.w);
  OK(strata_world_begin(f.w, &err));
  for (int i = 0; i < 40; i++) {
    before[i] = next(&f);
    if (i == 5) OK(strata_turns_add(f.w, actor(&f), 7, -1, &err));
    if (i == 9) OK(strata_turns_remove(f.w, before[0], NULL, &err));
  }
  OK(strata_world_rollback(f.w));
  CHECK_NEAR(strata_world_time(f.w), t0, 0);
  int same = 1;
  for (int i = 0; i < 40; i++) after[i] = next(&f);
  for (int i = 0; i <= 5; i++) same &= before[i] == after[i];
  CHECK(same);
  int differ = 0; /* (without the newcomer and the removal, the rest differs) */
  for (int i = 6; i < 40; i++) differ |= before[i] != after[i];
  CHECK(differ);
  teardown(&f);
}

/* strata_advance runs the turns due in game time, with base.turn_started. */
static void test_advance(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f);
  OK(strata_turns_add(f.w, a, 2, -1, &err));
  OK(strata_advance(f.rt, 10, NULL, &err));
  CHECK_EQ_INT(f.s.n, 20); /* at 0.5, 1, ..., 10 */
  CHECK_NEAR(f.s.last_time, 10, 1e-12);
  strata_turn t;
  CHECK(strata_turn_of(f.w, a, &t));
  CHECK_NEAR(t.due, 10.5, 1e-12);
  teardown(&f);
}

/* What a file may hold in an object's turns (its bookkeeping is data like
** any): a speed or a start out of range reads as speed 1 and now, a timer
** naming another object or none leaves it out of the schedule; never a
** crash, and the schedule goes on. */
static void set_turn_field(fixture *f, uint64_t uid, const char *k, strata_value v) {
  strata_value path[3];
  OK(strata_value_string(&path[0], "sys", 3, &err));
  OK(strata_value_string(&path[1], "turn", 4, &err));
  OK(strata_value_string(&path[2], k, strlen(k), &err));
  OK(strata_object_set(f->w, uid, path, 3, &v, &err));
  for (int i = 0; i < 3; i++) strata_value_clear(&path[i]);
}

static void test_hostile(void) {
  fixture f;
  setup(&f);
  uint64_t a = actor(&f), b = actor(&f), c = actor(&f);
  OK(strata_turns_add(f.w, a, 2, -1, &err));
  OK(strata_turns_add(f.w, b, 2, -1, &err));
  OK(strata_turns_add(f.w, c, 2, -1, &err));
  strata_value s;
  OK(strata_value_string(&s, "fast", 4, &err));
  set_turn_field(&f, a, "speed", s);
  set_turn_field(&f, a, "started", strata_value_float(NAN));
  set_turn_field(&f, b, "speed", strata_value_float(-3));
  strata_turn t;
  CHECK(strata_turn_of(f.w, b, &t));
  CHECK_NEAR(t.speed, 1, 0);
  strata_turn_of(f.w, a, &t);
  CHECK_NEAR(t.started, 0, 0);
  OK(strata_turn_took(f.w, a, 1, &err));
  CHECK_NEAR(strata_turn_of(f.w, a, &t) ? t.due : -1, 1, 0);
  strata_turn_of(f.w, b, &t);
  set_turn_field(&f, c, "timer", strata_value_int((int64_t)0)); /* c: out */
  CHECK(!strata_turn_of(f.w, c, &t));
  int seen_c = 0;
  for (int i = 0; i < 20; i++) {
    uint64_t x = next(&f);
    seen_c |= x == c;
    CHECK(x == a || x == b);
  }
  CHECK(!seen_c);
  teardown(&f);
}

/* ---- rng.h: normal and weighted draws ---- */

static void test_normal(void) {
  strata_rng r, r2;
  strata_rng_seed(&r, 1234);
  strata_rng_seed(&r2, 1234);
  enum { N = 100000 };
  double sum = 0, sq = 0;
  int same = 1;
  for (int i = 0; i < N; i++) {
    double x = strata_rng_normal(&r, 10, 2);
    same &= x == strata_rng_normal(&r2, 10, 2);
    sum += x;
    sq += x * x;
  }
  double mean = sum / N, sd = sqrt(sq / N - mean * mean);
  /* the standard error of the mean is 2 / sqrt(N) = 0.0063: within 5 of them */
  CHECK(fabs(mean - 10) < 0.032);
  CHECK(fabs(sd - 2) < 0.02);
  CHECK(same);
  CHECK_NEAR(strata_rng_normal(&r, 3, 0), 3, 0);
}

static void test_weighted(void) {
  strata_rng r;
  strata_rng_seed(&r, 99);
  const double w[] = { 3, 0, 1, 6 };
  int n[4] = { 0 };
  enum { N = 100000 };
  for (int i = 0; i < N; i++) {
    size_t k = 99;
    OK(strata_rng_weighted(&r, w, 4, &k, &err));
    if (k < 4) n[k]++;
  }
  CHECK_EQ_INT(n[1], 0);
  CHECK(abs(n[0] - 30000) < 750); /* sd of each count under 160 */
  CHECK(abs(n[2] - 10000) < 750);
  CHECK(abs(n[3] - 60000) < 750);
  size_t k;
  const double bad1[] = { 1, -1 }, bad2[] = { 0, 0 }, bad3[] = { 1, NAN }, bad4[] = { INFINITY, 1 };
  CHECK_EQ_INT(strata_rng_weighted(&r, bad1, 2, &k, &err), STRATA_EARG);
  CHECK_STR(err.function, "strata_rng_weighted");
  CHECK_EQ_INT(strata_rng_weighted(&r, bad2, 2, &k, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_rng_weighted(&r, bad3, 2, &k, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_rng_weighted(&r, bad4, 2, &k, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_rng_weighted(&r, w, 0, &k, &err), STRATA_EARG);
  /* a sum past the largest double: drawn in the same proportions */
  const double huge[] = { 1e308, 0, 1e308, 1e308 };
  int drawn[4] = { 0 };
  for (int i = 0; i < 300; i++) {
    OK(strata_rng_weighted(&r, huge, 4, &k, &err));
    drawn[k]++;
  }
  CHECK(drawn[0] > 50 && drawn[1] == 0 && drawn[2] > 50 && drawn[3] > 50);
}

/* ---- noise.h ---- */

static void test_simplex(void) {
  strata_noise a, b, c;
  strata_noise_seed(&a, 7);
  strata_noise_seed(&b, 7);
  strata_noise_seed(&c, 8);
  double lo = 1, hi = -1, jump = 0;
  int same = 1, differ = 0;
  for (int i = 0; i < 200000; i++) {
    double x = (i % 500) * 0.0731 - 11, y = (i / 500) * 0.0917 + 3;
    double v = strata_noise_simplex(&a, x, y);
    same &= v == strata_noise_simplex(&b, x, y);
    differ |= v != strata_noise_simplex(&c, x, y);
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    double d = fabs(strata_noise_simplex(&a, x + 1e-4, y) - v);
    if (d > jump) jump = d;
  }
  CHECK(same);
  CHECK(differ);
  CHECK(lo >= -1 && hi <= 1);
  CHECK(lo < -0.6 && hi > 0.6); /* it spans most of its range */
  CHECK(jump < 0.01);           /* continuous: a step of 1e-4 moves it little */
  /* from a generator: its draws seed it, and it moves the generator on */
  strata_rng r1, r2;
  strata_rng_seed(&r1, 3);
  strata_rng_seed(&r2, 3);
  strata_noise_from_rng(&a, &r1);
  strata_noise_from_rng(&b, &r2);
  CHECK(strata_noise_simplex(&a, 0.3, 0.7) == strata_noise_simplex(&b, 0.3, 0.7));
  CHECK(r1.state == r2.state);
}

static void test_heights(void) {
  enum { W = 37, H = 23 };
  double h1[W * H], h2[W * H];
  strata_rng r1, r2;
  strata_rng_seed(&r1, 11);
  strata_rng_seed(&r2, 11);
  OK(strata_noise_heights(&r1, 0.5, W, H, h1, &err));
  OK(strata_noise_heights(&r2, 0.5, W, H, h2, &err));
  double lo = 2, hi = -1;
  for (int i = 0; i < W * H; i++) {
    if (h1[i] < lo) lo = h1[i];
    if (h1[i] > hi) hi = h1[i];
  }
  CHECK(memcmp(h1, h2, sizeof h1) == 0);
  CHECK_NEAR(lo, 0, 0);
  CHECK_NEAR(hi, 1, 0);
  CHECK_EQ_INT(strata_noise_heights(&r1, 0.5, 0, 5, h1, &err), STRATA_EARG);
  CHECK_EQ_INT(strata_noise_heights(&r1, NAN, 3, 5, h1, &err), STRATA_EARG);
}

int main(void) {
  test_speeds();
  test_ties();
  test_took();
  test_leave();
  test_save_order();
  test_rollback();
  test_advance();
  test_hostile();
  test_normal();
  test_weighted();
  test_simplex();
  test_heights();
  return check_summary("turns");
}
