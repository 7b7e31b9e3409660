/* test_timer_order.c - the world's timers fire in (due, uid) order, checked
** against a reference kept here: a list sorted by (due, uid), the way the
** world kept its timers before they went into a heap (issue 32).
**
** 10,000 random timers: due times on a half-second grid (many ties), one in
** four repeating, cancels, skips and schedules between advances and from
** inside handlers, handlers that fail after scheduling and cancelling (their
** savepoint undone), advances inside a savepoint rolled back whole, then a
** save and an open. Every handler call must be the reference's next timer
** (uid, due, args); after each step the world's whole list
** (strata_world_timer_at) must be the reference, in order. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "strata/strata.h"
#include "uidset.h"

#define OK(x) CHECK_EQ_INT((x), STRATA_OK)
#define TIMERS 10000

static strata_error err;

/* ---- the reference: an array sorted by (due, uid) ---- */
typedef struct ref_timer {
  uint64_t uid;
  double due, every;
  int handler; /* 0: "to.a", 1: "to.b" */
  int64_t n;   /* its args */
} ref_timer;

typedef struct ref_list {
  ref_timer *t;
  size_t n, cap;
} ref_list;

static ref_list ref;
static const char *const handlers[] = { "to.a", "to.b" };

static int ref_before(const ref_timer *a, const ref_timer *b) {
  return a->due < b->due || (a->due == b->due && a->uid < b->uid);
}

static void ref_insert(ref_timer t) {
  if (ref.n == ref.cap) {
    ref.cap = ref.cap ? 2 * ref.cap : 256;
    ref.t = realloc(ref.t, ref.cap * sizeof *ref.t);
    if (!ref.t) abort();
  }
  size_t i = ref.n;
  while (i > 0 && ref_before(&t, &ref.t[i - 1])) i--;
  memmove(ref.t + i + 1, ref.t + i, (ref.n - i) * sizeof *ref.t);
  ref.t[i] = t;
  ref.n++;
}

static ref_timer ref_take(size_t i) {
  ref_timer t = ref.t[i];
  memmove(ref.t + i, ref.t + i + 1, (ref.n - i - 1) * sizeof *ref.t);
  ref.n--;
  return t;
}

static size_t ref_find(uint64_t uid) {
  for (size_t i = 0; i < ref.n; i++)
    if (ref.t[i].uid == uid) return i;
  return (size_t)-1;
}

/* What the world does when a timer fires: a repeating one moves on. */
static void ref_fire(size_t i) {
  ref_timer t = ref_take(i);
  if (t.every > 0) {
    t.due += t.every;
    ref_insert(t);
  }
}

/* strata_world_timer_skip's arithmetic, as world.h states it. */
static void ref_skip(size_t i, double until) {
  ref_timer t = ref.t[i];
  if (t.every == 0 && t.due < until) t.due = until;
  else if (t.every > 0 && t.due <= until) {
    double n = floor((until - t.due) / t.every) + 1, due = t.due + n * t.every;
    t.due = due > until ? due : nextafter(until, INFINITY);
  } else return;
  ref_take(i);
  ref_insert(t);
}

/* ---- a deterministic random stream (xorshift64*) ---- */
static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t)((rng_state * 0x2545F4914F6CDD1Du) >> 33) % n;
}

static size_t scheduled;         /* timers made, in the world (kept or undone) */
static double target;            /* the time the running advance goes to */
static long fired, mismatches, failed_on_purpose;

static strata_value args_of(int64_t n) { return strata_value_int(n); }

/* Schedules a random timer at now + a grid step in [lo, hi) half-seconds:
** in the reference too unless `world_only` (a handler about to fail). */
static void schedule_random(strata_world *w, double now, int lo, int hi, int world_only) {
  static const double periods[] = { 0.5, 1, 2.5 };
  ref_timer t;
  t.due = now + 0.5 * (lo + (int)rnd((uint32_t)(hi - lo)));
  t.every = rnd(4) == 0 ? periods[rnd(3)] : 0;
  t.handler = (int)rnd(2);
  t.n = (int64_t)scheduled;
  strata_value a = args_of(t.n);
  OK(strata_world_schedule(w, t.due, t.every, handlers[t.handler], &a, &t.uid, &err));
  scheduled++;
  if (!world_only) ref_insert(t);
}

static void cancel_random(strata_world *w, int world_only) {
  if (!ref.n) return;
  size_t i = rnd((uint32_t)ref.n);
  OK(strata_world_cancel(w, ref.t[i].uid, &err));
  if (!world_only) ref_take(i);
}

/* Every handler call: the reference's next timer, fired in the reference;
** then, at random, schedules (some due now) and a cancel; one in ten fails
** after doing so, and only the world sees those (its savepoint undoes them). */
static strata_status on_timer(strata_call *c, void *data, strata_error *e) {
  (void)data;
  fired++;
  if (!ref.n || ref.t[0].due > target || ref.t[0].uid != c->timer || ref.t[0].due != c->time ||
      !c->args || c->args->type != STRATA_VINT || c->args->u.i != ref.t[0].n ||
      strcmp(c->id, handlers[ref.t[0].handler]) != 0) {
    if (!mismatches++)
      fprintf(stderr, "fired timer #%llu at %g; the reference's next: #%llu at %g\n",
              (unsigned long long)c->timer, c->time, ref.n ? (unsigned long long)ref.t[0].uid : 0ull,
              ref.n ? ref.t[0].due : -1.0);
    size_t i = ref_find(c->timer);
    if (i != (size_t)-1) ref_fire(i);
    return STRATA_OK;
  }
  ref_fire(0);
  int fail = rnd(10) == 0;
  if (scheduled < TIMERS && rnd(5) == 0) schedule_random(c->world, c->time, 0, 8, fail);
  if (rnd(25) == 0) cancel_random(c->world, fail);
  if (!fail) return STRATA_OK;
  failed_on_purpose++;
  return strata_error_set(e, STRATA_ESTATE, "failing on purpose");
}

/* The world's whole list against the reference, in order. */
static int same_as_ref(const strata_world *w, const char *when) {
  size_t n = strata_world_timer_count(w);
  if (n != ref.n) {
    fprintf(stderr, "%s: %zu timers, the reference has %zu\n", when, n, ref.n);
    return 0;
  }
  for (size_t i = 0; i < n; i++) {
    const strata_timer *t = strata_world_timer_at(w, i);
    const ref_timer *r = &ref.t[i];
    if (!t || t->uid != r->uid || t->due != r->due || t->every != r->every ||
        strcmp(t->handler, handlers[r->handler]) != 0 || t->args.type != STRATA_VINT ||
        t->args.u.i != r->n) {
      fprintf(stderr, "%s: timer %zu is #%llu at %g, the reference's #%llu at %g\n", when, i,
              t ? (unsigned long long)t->uid : 0ull, t ? t->due : -1.0,
              (unsigned long long)r->uid, r->due);
      return 0;
    }
  }
  const strata_timer *next = strata_world_next_due(w, INFINITY);
  return n == 0 ? next == NULL : next == strata_world_timer_at(w, 0);
}

static int advance(strata_runtime *rt, double dt) {
  target = strata_world_time(strata_runtime_world(rt)) + dt;
  strata_status st = strata_advance(rt, dt, NULL, &err);
  if (st && !mismatches++) fprintf(stderr, "strata_advance: %s\n", err.message);
  return st == STRATA_OK;
}

static void test_random_timers(strata_registry *reg) {
  strata_world *w = strata_world_new(7, &err);
  strata_runtime *rt = strata_runtime_new(w, strata_registry_resolver(reg), &err);
  int rounds = 0, rolled_back = 0, skips = 0, ok = 1;
  while (scheduled < TIMERS && ok) {
    double now = strata_world_time(w);
    /* between advances: new timers (some due now), cancels, skips */
    for (int k = (int)rnd(30); k > 0 && scheduled < TIMERS; k--) schedule_random(w, now, 0, 400, 0);
    for (int k = (int)rnd(6); k > 0; k--) cancel_random(w, 0);
    if (ref.n && rnd(4) == 0) {
      size_t i = rnd((uint32_t)ref.n);
      double until = now + 0.5 * rnd(12);
      OK(strata_world_timer_skip(w, ref.t[i].uid, until, NULL, &err));
      ref_skip(i, until);
      skips++;
    }
    ok = same_as_ref(w, "after scheduling");
    double dt = 0.5 * rnd(8);
    if (rnd(8) == 0) {
      /* an advance in a savepoint rolled back: every timer as it was */
      ref_list kept = { malloc((ref.n ? ref.n : 1) * sizeof *ref.t), ref.n, ref.n ? ref.n : 1 };
      memcpy(kept.t, ref.t, ref.n * sizeof *ref.t);
      OK(strata_world_begin(w, &err));
      ok = advance(rt, dt) && ok && same_as_ref(w, "in the savepoint");
      OK(strata_world_rollback(w));
      free(ref.t);
      ref = kept;
      rolled_back++;
      ok = ok && same_as_ref(w, "after the rollback");
    } else {
      ok = advance(rt, dt) && ok && same_as_ref(w, "after the advance");
    }
    rounds++;
  }
  CHECK(ok);
  CHECK_EQ_INT(mismatches, 0);
  CHECK(scheduled >= TIMERS);
  CHECK(fired > TIMERS && failed_on_purpose > 100 && rolled_back >= 5 && skips >= 5);
  printf("%zu timers scheduled, %ld handler calls (%ld failed on purpose) in %d advances "
         "(%d rolled back), %d skips, %zu timers left\n",
         scheduled, fired, failed_on_purpose, rounds, rolled_back, skips, ref.n);

  /* a save and an open: the same timers, in the same order, firing the same way */
  char path[] = "/tmp/strata_test_timer_order_XXXXXX";
  int fd = mkstemp(path);
  close(fd);
  OK(strata_world_save(w, path, NULL, 0, &err));
  strata_world *w2 = NULL;
  strata_mod_version *mv = NULL;
  size_t nm = 0;
  OK(strata_world_open(path, &w2, &mv, &nm, &err));
  if (w2) {
    CHECK(same_as_ref(w2, "after the open"));
    strata_runtime *rt2 = strata_runtime_new(w2, strata_registry_resolver(reg), &err);
    for (int i = 0; i < 20; i++) {
      CHECK(advance(rt2, 0.5 * rnd(8)) && same_as_ref(w2, "advancing the opened world"));
    }
    CHECK_EQ_INT(mismatches, 0);
    strata_runtime_free(rt2);
    strata_world_free(w2);
    strata_mod_versions_free(mv, nm);
  }
  unlink(path);
  strata_runtime_free(rt);
  strata_world_free(w);
  free(ref.t);
  ref = (ref_list){ NULL, 0, 0 };
}

/* The heap's index by uid (uidmap): puts, changes and removals at random
** over few uids in a small table (long runs that wrap around its end),
** against a plain array. */
static void test_uidmap(void) {
  enum { KEYS = 300 };
  size_t val[KEYS + 1];
  int has[KEYS + 1] = { 0 };
  uidmap m = { NULL, 0, 0 };
  int ok = 1;
  for (int op = 0; op < 200000 && ok; op++) {
    uint64_t uid = 1 + rnd(KEYS);
    if (rnd(3) == 0) {
      uidmap_del(&m, uid);
      has[uid] = 0;
    } else {
      val[uid] = rnd(1000000);
      ok = uidmap_put(&m, uid, val[uid]);
      has[uid] = 1;
    }
    if (op % 97 == 0)
      for (uint64_t k = 1; k <= KEYS && ok; k++) {
        const size_t *v = uidmap_get(&m, k);
        ok = has[k] ? v && *v == val[k] : v == NULL;
      }
  }
  size_t n = 0;
  for (int k = 1; k <= KEYS; k++) n += (size_t)has[k];
  CHECK(ok);
  CHECK_EQ_INT(m.n, n);
  uidmap_free(&m);
}

int main(void) {
  strata_registry *reg = strata_registry_new(&err);
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_HANDLER, "to.a", on_timer, NULL, "to", &err));
  OK(strata_registry_add_logic(reg, STRATA_LOGIC_HANDLER, "to.b", on_timer, NULL, "to", &err));
  test_random_timers(reg);
  test_uidmap();
  strata_registry_free(reg);
  return check_summary("timer order");
}
