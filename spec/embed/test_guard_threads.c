/*
** test_guard_threads.c - four worlds on four threads, each in its own Lua
** state (strata_lua_new), each with the mod spec/embed/mods/tally: its honest
** timer handler ticks in every world while, in three of them, the same mod
** attacks (a loop that never ends, memory without end in Lua and in strata's
** C code, values nested without end). Each attack stops with its own world's
** error; every honest tick of every world runs and counts right. The budgets
** are the states' own: while the "loop" world's callback (50 ms) runs into
** its budget, a guarded call of the "steady" world (10 s) is open and stays
** open, then ends well. The memory attacks run with a budget of 10 s, far
** out of reach (which limit comes first must not depend on speed).
** ctest also runs this under Helgrind.
*/
#include <lauxlib.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <strata/lua.h>

#include "check.h"

/* What the host runs in each state: ... = role, mods folder, and the host's
** rendezvous functions (arrive, leave). */
static const char *const CHUNK =
    "local role, dir, arrive, leave = ...\n"
    "local strata = require 'strata'\n"
    "-- one limit each: the other far out of reach (which comes first would be a race)\n"
    "strata.mods.budget_ms = role == 'loop' and 50 or 10000\n"
    "strata.mods.memory_kb = 8 * 1024\n"
    "local ATTACKS = { loop = { loop = 'budget exceeded' },\n"
    "  memory = { bomb = 'memory', cbomb = 'memory' },\n"
    "  deep = { deep = 'memory', recurse = { 'memory', 'stack overflow' } }, steady = {} }\n"
    "local w = strata.world.new{ seed = 1, mods = { 'base', 'tally' }, mod_path = { dir } }\n"
    "local m = w:create_map{ width = 2, height = 2, fill = 'floor' }\n"
    "local c = w:create_actor{ map = m, x = 0, y = 0 }\n"
    "w:schedule{ after = 1, every = 1, handler = 'tally.tick', args = { counter = c } }\n"
    "local function expect(message, what)\n"
    "  if type(what) == 'string' then what = { what } end\n"
    "  for _, p in ipairs(what) do if message:find(p, 1, true) then return true end end\n"
    "end\n"
    "local ticks = 0\n"
    "local function attack(name)\n"
    "  w:schedule{ after = 0.5, handler = 'tally.' .. name }\n"
    "  local f = w:advance(1)\n"
    "  ticks = ticks + 1\n"
    "  if #f ~= 1 or f[1].handler ~= 'tally.' .. name then\n"
    "    error(role .. ': ' .. name .. ': ' .. #f .. ' failures, first: ' .. tostring(f[1] and f[1].message))\n"
    "  end\n"
    "  if not expect(f[1].message, ATTACKS[role][name]) then error(role .. ': ' .. name .. ': ' .. f[1].message) end\n"
    "end\n"
    "-- the steady world's guarded call stays open while the loop world's stops\n"
    "if role == 'steady' then\n"
    "  local ok, err = pcall(strata.mods.call, 'steady: waiting', arrive)\n"
    "  if not ok then error('steady: ' .. tostring(err)) end\n"
    "elseif role == 'loop' then\n"
    "  arrive()\n"
    "  local ok, err = pcall(attack, 'loop')\n"
    "  leave()\n"
    "  if not ok then error(err, 0) end\n"
    "end\n"
    "for round = 1, 3 do\n"
    "  local f = w:advance(5)\n"
    "  ticks = ticks + 5\n"
    "  if #f > 0 then error(role .. ': an honest tick failed: ' .. f[1].message) end\n"
    "  for name in pairs(ATTACKS[role]) do attack(name) end\n"
    "end\n"
    "local n = ticks\n"
    "if c.state.n ~= n or c.state.total ~= n * (n + 1) * (2 * n + 1) // 6 then\n"
    "  error(role .. ': the honest counter says ' .. tostring(c.state.n) .. ' ticks, ' .. tostring(c.state.total) .. ', after ' .. n)\n"
    "end\n"
    "return 'ok'\n";

/* The meeting of the "loop" and "steady" threads. */
typedef struct rendezvous {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int steady_inside; /* the steady world's guarded call is open */
  int loop_done;     /* the loop world's attack has ended */
  int timed_out;
} rendezvous;

typedef struct job {
  const char *role;
  const char *mods; /* the mods' folder */
  rendezvous *rv;
  pthread_t thread;
  char result[1024];
} job;

static const char *mods_dir(void) {
  static char buf[4096];
  const char *src = getenv("STRATA_SOURCE_DIR");
  snprintf(buf, sizeof buf, "%s/spec/embed/mods", src ? src : STRATA_SOURCE_DEFAULT);
  return buf;
}

/* Waits on rv until *flag (a long wait fails the test rather than hang it). */
static void wait_for(rendezvous *rv, int *flag) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  until.tv_sec += 600;
  while (!*flag && !rv->timed_out)
    if (pthread_cond_timedwait(&rv->cv, &rv->mu, &until) != 0) rv->timed_out = 1;
}

/* steady: says it is inside its guarded call, then waits (blocked, spending
** no CPU time) until the loop world's attack has ended. loop: waits until
** the steady world is inside. */
static int arrive(lua_State *L) {
  rendezvous *rv = lua_touserdata(L, lua_upvalueindex(1));
  const char *role = lua_tostring(L, lua_upvalueindex(2));
  pthread_mutex_lock(&rv->mu);
  if (strcmp(role, "steady") == 0) {
    rv->steady_inside = 1;
    pthread_cond_broadcast(&rv->cv);
    wait_for(rv, &rv->loop_done);
  } else {
    wait_for(rv, &rv->steady_inside);
  }
  pthread_mutex_unlock(&rv->mu);
  return 0;
}

static int leave(lua_State *L) {
  rendezvous *rv = lua_touserdata(L, lua_upvalueindex(1));
  pthread_mutex_lock(&rv->mu);
  rv->loop_done = 1;
  pthread_cond_broadcast(&rv->cv);
  pthread_mutex_unlock(&rv->mu);
  return 0;
}

static void *run(void *arg) {
  job *j = arg;
  strata_error err;
  lua_State *L = strata_lua_new(NULL, &err);
  if (!L) {
    snprintf(j->result, sizeof j->result, "strata_lua_new: %s", err.message);
    return NULL;
  }
  if (luaL_loadstring(L, CHUNK) != LUA_OK) {
    snprintf(j->result, sizeof j->result, "%s", lua_tostring(L, -1));
  } else {
    lua_pushstring(L, j->role);
    lua_pushstring(L, j->mods);
    lua_pushlightuserdata(L, j->rv);
    lua_pushstring(L, j->role);
    lua_pushcclosure(L, arrive, 2);
    lua_pushlightuserdata(L, j->rv);
    lua_pushcclosure(L, leave, 1);
    int st = lua_pcall(L, 4, 1, 0);
    const char *s = lua_tostring(L, -1);
    snprintf(j->result, sizeof j->result, "%s%s", st == LUA_OK ? "" : "error: ", s ? s : "(not a string)");
  }
  /* A world that failed early lets the other one of the pair go on. */
  pthread_mutex_lock(&j->rv->mu);
  if (strcmp(j->role, "steady") == 0) j->rv->steady_inside = 1;
  if (strcmp(j->role, "loop") == 0) j->rv->loop_done = 1;
  pthread_cond_broadcast(&j->rv->cv);
  pthread_mutex_unlock(&j->rv->mu);
  lua_close(L);
  return NULL;
}

int main(void) {
  rendezvous rv = {.steady_inside = 0};
  pthread_mutex_init(&rv.mu, NULL);
  pthread_cond_init(&rv.cv, NULL);
  job jobs[4] = {{.role = "loop"}, {.role = "memory"}, {.role = "deep"}, {.role = "steady"}};
  const char *mods = mods_dir(); /* once, before the threads: its buffer is static */
  for (int i = 0; i < 4; i++) {
    jobs[i].rv = &rv;
    jobs[i].mods = mods;
    CHECK_EQ_INT(pthread_create(&jobs[i].thread, NULL, run, &jobs[i]), 0);
  }
  for (int i = 0; i < 4; i++) pthread_join(jobs[i].thread, NULL);
  for (int i = 0; i < 4; i++) {
    if (strcmp(jobs[i].result, "ok") != 0) fprintf(stderr, "%s: %s\n", jobs[i].role, jobs[i].result);
    CHECK_STR(jobs[i].result, "ok");
  }
  CHECK(!rv.timed_out);
  pthread_cond_destroy(&rv.cv);
  pthread_mutex_destroy(&rv.mu);
  return check_summary("guard_threads");
}
