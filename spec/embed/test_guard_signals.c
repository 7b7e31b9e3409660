/*
** test_guard_signals.c - what strata's sandbox does to a host's signals.
** Making a state and loading strata changes no signal's disposition; the
** first guarded call installs one handler, for one real-time signal, and
** closing the last state that ran one puts back what was there. A host with
** a profiling timer of its own (setitimer ITIMER_PROF, its SIGPROF handler)
** keeps receiving its signals while mods' callbacks run (one of them stopped
** by its budget) and after.
*/
#include <lauxlib.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <strata/lua.h>

#include "check.h"

static volatile sig_atomic_t profs;
static void on_prof(int sig) {
  (void)sig;
  profs = profs + 1;
}

typedef struct dispositions {
  void *handler[128];
  int siginfo[128];
} dispositions;

static void snapshot(dispositions *d) {
  memset(d, 0, sizeof *d);
  for (int s = 1; s <= SIGRTMAX && s < 128; s++) {
    struct sigaction sa;
    if (sigaction(s, NULL, &sa) != 0) continue;
    d->siginfo[s] = (sa.sa_flags & SA_SIGINFO) != 0;
    d->handler[s] = d->siginfo[s] ? (void *)sa.sa_sigaction : (void *)sa.sa_handler;
  }
}

/* The signals whose disposition differs between a and b: how many, and the last. */
static int differ(const dispositions *a, const dispositions *b, int *which) {
  int n = 0;
  for (int s = 1; s < 128; s++)
    if (a->handler[s] != b->handler[s] || a->siginfo[s] != b->siginfo[s]) {
      n++;
      *which = s;
    }
  return n;
}

static const char *mods_dir(void) {
  static char buf[4096];
  const char *src = getenv("STRATA_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/spec/embed/mods", src ? src : STRATA_SOURCE_DEFAULT);
  return buf;
}

/* Runs code with the mods folder as ...; returns its result or error (a copy). */
static char *run(lua_State *L, const char *code) {
  char *out = NULL;
  if (luaL_loadstring(L, code) == LUA_OK) {
    lua_pushstring(L, mods_dir());
    lua_pcall(L, 1, 1, 0);
  }
  const char *s = lua_tostring(L, -1);
  out = strdup(s ? s : "(not a string)");
  lua_pop(L, 1);
  return out;
}

static const char *const WORLD =
    "local strata = require 'strata'\n"
    "strata.mods.budget_ms = 50\n"
    "W = strata.world.new{ seed = 1, mods = { 'base', 'hog' }, mod_path = { ... } }\n"
    "W:create_area('hog.small'):floor(1)\n"
    "return 'ok'\n";
static const char *const SPIN =
    "local a = W:create_area('hog.spin')\n"
    "local ok, err = pcall(a.floor, a, 1)\n"
    "return ok and 'not stopped' or tostring(err)\n";

/* Burns the process's CPU time until the host's timer has fired n more times
** (at most 20 s of CPU time: a timer that stopped fails, it does not hang). */
static int host_profs_go_on(int n) {
  sig_atomic_t start = profs;
  clock_t until = clock() + 20 * CLOCKS_PER_SEC;
  volatile unsigned long x = 0;
  while (profs < start + n && clock() < until) x++;
  return profs >= start + n;
}

int main(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_prof;
  sa.sa_flags = SA_RESTART;
  sigemptyset(&sa.sa_mask);
  CHECK_EQ_INT(sigaction(SIGPROF, &sa, NULL), 0);
  struct itimerval it = {.it_interval = {0, 1000}, .it_value = {0, 1000}};
  CHECK_EQ_INT(setitimer(ITIMER_PROF, &it, NULL), 0);

  dispositions before, now;
  snapshot(&before);
  int which = 0;
  strata_error err;
  lua_State *L = strata_lua_new(NULL, &err);
  CHECK(L != NULL);
  if (!L) return check_summary("guard_signals");
  snapshot(&now);
  CHECK_EQ_INT(differ(&before, &now, &which), 0); /* loading strata installs nothing */

  char *r = run(L, WORLD); /* the mods' init.lua and a generator: guarded calls */
  CHECK_STR(r, "ok");
  free(r);
  snapshot(&now);
  CHECK_EQ_INT(differ(&before, &now, &which), 1);
  CHECK(which >= SIGRTMIN && which <= SIGRTMAX); /* one real-time signal, not SIGPROF */
  struct itimerval left;
  CHECK_EQ_INT(getitimer(ITIMER_PROF, &left), 0);
  CHECK_EQ_INT(left.it_interval.tv_usec, 1000); /* the host's timer, untouched */

  sig_atomic_t start = profs;
  r = run(L, SPIN); /* 50 ms of the process's CPU time at least: the host's 1 ms timer fires */
  CHECK(strstr(r, "budget exceeded") != NULL);
  free(r);
  CHECK(profs > start);
  CHECK(host_profs_go_on(5));

  /* A second state: the handler stays while either is open. */
  lua_State *L2 = strata_lua_new(NULL, &err);
  CHECK(L2 != NULL);
  if (L2) {
    r = run(L2, WORLD);
    CHECK_STR(r, "ok");
    free(r);
  }
  lua_close(L);
  snapshot(&now);
  CHECK_EQ_INT(differ(&before, &now, &which), 1);
  if (L2) lua_close(L2);
  snapshot(&now);
  CHECK_EQ_INT(differ(&before, &now, &which), 0); /* the last state closed: as it was */
  CHECK(host_profs_go_on(5));
  return check_summary("guard_signals");
}
