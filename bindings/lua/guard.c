/*
** guard.c - the budget of guarded calls (strata.mods runs every mod callback
** as one), kept where mod code cannot reach it.
**
** One budget per callback the host starts: the outermost guarded call
** starts it, nested calls share it, and only the outermost one ends it. The
** budget is CPU time: a POSIX timer on the CPU clock of the thread running
** the call (timer_create, CLOCK_THREAD_CPUTIME_ID, SIGEV_THREAD_ID to that
** thread, the real-time signal GUARD_SIGNAL) fires when it is spent, and its
** handler sets a count hook on every thread the call runs (its coroutine and
** the coroutines it makes or resumes). The hook raises on every instruction
** from then on, so a pcall in mod code can catch the error but never run
** another instruction after it; C functions that may work long (pattern
** matching) ask lstrata_guard_charge, which raises too. Until the budget is
** spent no hook is set at all: a count hook makes Lua 5.4 trap every
** instruction, which cost 75% on a tight loop.
**
** Memory is counted by an allocator wrapped around the state's own
** (lua_setallocf) and by the allocator of strata's core (strata/alloc.h,
** set when this code is loaded, before the core runs): past the call's
** limit an allocation fails, which Lua reports as a memory error and
** strata's C functions as "out of memory". Both limits apply only while a
** guarded call is open.
**
** Everything belongs to the Lua state: its guard (a full userdata in the
** registry) is made by the first guarded call, which also installs the
** counting allocator and, if no other state has, the signal handler. The
** guard's finalizer deletes the timer, gives the state its allocator back
** and, for the last state, puts back the handler that was there before. The
** guard is made after `package` (which requires this module), so Lua runs
** that finalizer before the one that unloads the module. Several states may
** run guarded calls at the same time, each on its own thread: the only
** process-wide things are the handler's installation record and the serial
** numbers of threads (under one mutex), and the guard of the call running on
** each thread (thread-local, for the C allocations and the handler).
*/
/* gettid and sigevent's sigev_notify_thread_id (the timer aimed at one
** thread) are Linux's, declared by glibc for _GNU_SOURCE only. */
#define _GNU_SOURCE
#if !defined(__linux__)
#error "bindings/lua/guard.c: the mods' CPU budget needs Linux's per-thread CPU-time timers (timer_create with SIGEV_THREAD_ID); docs/c-api.md, Platforms"
#endif
#include "lguard.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The budget's signal: real-time (never SIGPROF, which profilers and hosts
** use), high but below SIGRTMAX (valgrind keeps that one). docs/sandbox.md. */
#define GUARD_SIGNAL (SIGRTMAX - 3)
#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

/* The threads of the running call, for the signal handler. They are also
** kept alive (the guard's user value) until the outermost call ends, so no
** pointer here outlives its thread. */
#define MAX_THREADS 1024

typedef struct guard {
  /* Read and written by the signal handler, which runs on the thread of
  ** the call (the timer signals that thread only). */
  volatile sig_atomic_t depth;    /* guarded calls open */
  volatile sig_atomic_t spent;    /* the budget is spent */
  volatile sig_atomic_t nthreads;
  lua_State *threads[MAX_THREADS];
  struct guard *outer;    /* the guard of another state's call open on this thread, if any */
  lua_Integer budget_ms;  /* CPU time allowed */
  int exhausted;          /* the budget is spent: every hook raises */
  int memory_refused;     /* an allocation was refused */
  int closed;             /* the finalizer ran */
  int uses_handler;       /* counted in handler_users */
  int64_t memory_limit;   /* lua_bytes + c_bytes allowed; 0: none */
  int64_t lua_bytes;      /* the state's, through its allocator */
  int64_t c_bytes;        /* strata.core's C allocations in this state's calls */
  char what[200];         /* names the callback in the errors */
  lua_Alloc orig_alloc;   /* the state's allocator before the guard's */
  void *orig_ud;
  timer_t timer;
  int has_timer;
  uint64_t timer_thread;  /* the serial of the thread whose CPU clock it reads */
} guard;

static const char GUARD = 'g';

/* The innermost guard with a call open on this thread. Every allocation of
** the core reads it (c_charge): initial-exec, a load from the thread pointer,
** instead of the general model's call of __tls_get_addr in a loaded module
** (2 % of a grid's spawn; glibc keeps static TLS room for such a variable). */
static _Thread_local guard *running __attribute__((tls_model("initial-exec")));

/* ---- process-wide: the handler's installation, threads' serials ----------- */

static pthread_mutex_t process_mu = PTHREAD_MUTEX_INITIALIZER;
static int handler_users;             /* guards that may arm a timer */
static struct sigaction handler_prev; /* what GUARD_SIGNAL had before */
static uint64_t thread_serials;

/* A number for the calling thread, never reused (thread ids are, once a
** thread ends; a timer on a dead thread's clock would never fire). */
static uint64_t thread_serial(void) {
  static _Thread_local uint64_t serial;
  if (serial == 0) {
    pthread_mutex_lock(&process_mu);
    serial = ++thread_serials;
    pthread_mutex_unlock(&process_mu);
  }
  return serial;
}

static void hook(lua_State *L, lua_Debug *ar);

/* GUARD_SIGNAL: a guard's timer (its address in si_value) fired on the
** thread of its call; the budget is spent (and again every 10 ms after, for
** threads made since). lua_sethook may be called from a signal handler.
** Any other signal goes to the handler that was there before. */
static void on_signal(int sig, siginfo_t *info, void *ctx) {
  if (info && info->si_code == SI_TIMER) {
    for (guard *g = running; g; g = g->outer) {
      if (g != info->si_value.sival_ptr) continue;
      if (g->depth > 0) {
        g->spent = 1;
        for (int i = 0; i < g->nthreads; i++) lua_sethook(g->threads[i], hook, LUA_MASKCOUNT, 1);
      }
      return;
    }
  }
  if (handler_prev.sa_flags & SA_SIGINFO) handler_prev.sa_sigaction(sig, info, ctx);
  else if (handler_prev.sa_handler != SIG_DFL && handler_prev.sa_handler != SIG_IGN) handler_prev.sa_handler(sig);
}

static int handler_use(void) {
  int ok = 1;
  pthread_mutex_lock(&process_mu);
  if (handler_users == 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    ok = sigaction(GUARD_SIGNAL, &sa, &handler_prev) == 0;
  }
  if (ok) handler_users++;
  pthread_mutex_unlock(&process_mu);
  return ok;
}

/* The last user puts back what was there, unless someone replaced ours. */
static void handler_release(void) {
  pthread_mutex_lock(&process_mu);
  if (--handler_users == 0) {
    struct sigaction now;
    if (sigaction(GUARD_SIGNAL, NULL, &now) == 0 && (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_signal)
      sigaction(GUARD_SIGNAL, &handler_prev, NULL);
  }
  pthread_mutex_unlock(&process_mu);
}

/* ---- the state's guard ------------------------------------------------------ */

/* The state's guard, or NULL before its first guarded call. */
static guard *state_guard(lua_State *L) {
  guard *g = NULL;
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &GUARD) == LUA_TUSERDATA) g = lua_touserdata(L, -1);
  lua_pop(L, 1);
  return g;
}

int lstrata_guard_active(void) { return running != NULL; }

static int over_limit(guard *g, size_t more) {
  return g->depth > 0 && g->memory_limit > 0 &&
         g->lua_bytes + g->c_bytes + (int64_t)more > g->memory_limit;
}

/* ---- memory ---------------------------------------------------------------- */

static void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  guard *g = ud;
  size_t old = ptr ? osize : 0; /* with ptr NULL, osize is a type tag */
  if (nsize == 0) {
    g->lua_bytes -= (int64_t)old;
    return g->orig_alloc(g->orig_ud, ptr, osize, 0);
  }
  if (nsize > old && over_limit(g, nsize - old)) {
    g->memory_refused = 1;
    return NULL; /* Lua collects and retries, then raises a memory error */
  }
  void *p = g->orig_alloc(g->orig_ud, ptr, osize, nsize);
  if (p) g->lua_bytes += (int64_t)nsize - (int64_t)old;
  return p;
}

/* The one place strata's C memory meets the guard: charges the guarded call
** running on this thread, if any, with delta bytes (negative: given back).
** Growth is refused (0, nothing charged) once the call's budget is spent (a
** C loop that allocates, such as a macro expansion that never ends, stops
** there with "out of memory" instead of running on) or past its limit. The
** core's allocator below calls it. */
static int c_charge(int64_t delta) {
  guard *g = running;
  if (!g) return 1;
  if (delta > 0 && g->depth > 0 && (g->spent || over_limit(g, (size_t)delta))) {
    g->memory_refused = 1;
    return 0;
  }
  g->c_bytes += delta;
  return 1;
}

/* strata's C memory, counted: the core allocates through this allocator
** (strata/alloc.h), set for this copy of the core before anything runs (a
** constructor: the module, the executable and libstrata_lua each carry their
** own copy of the core, or are the only one in the process). Each block
** carries its size in front of it, so that freeing it charges back what was
** charged; HEAD keeps the block aligned as malloc's are. */
#define HEAD 16

static void *count_malloc(void *ud, size_t n) {
  (void)ud;
  if (n > SIZE_MAX - HEAD || n > INT64_MAX || !c_charge((int64_t)n)) return NULL;
  size_t *p = malloc(n + HEAD);
  if (!p) { c_charge(-(int64_t)n); return NULL; }
  *p = n;
  return (char *)p + HEAD;
}

static void count_free(void *ud, void *ptr) {
  (void)ud;
  if (!ptr) return;
  size_t *p = (size_t *)(void *)((char *)ptr - HEAD);
  c_charge(-(int64_t)*p);
  free(p);
}

/* realloc(p, 0) gives a block of no bytes (C leaves that case to the
** implementation; strata treats NULL as failure with p kept). */
static void *count_realloc(void *ud, void *ptr, size_t n) {
  if (!ptr) return count_malloc(ud, n);
  if (n > SIZE_MAX - HEAD || n > INT64_MAX) return NULL;
  size_t *p = (size_t *)(void *)((char *)ptr - HEAD);
  size_t old = *p;
  if (n > old && !c_charge((int64_t)(n - old))) return NULL; /* asked first: ptr stays */
  size_t *q = realloc(p, n + HEAD);
  if (!q) {
    if (n > old) c_charge(-(int64_t)(n - old));
    return NULL;
  }
  if (n < old) c_charge(-(int64_t)(old - n));
  *q = n;
  return (char *)q + HEAD;
}

static int c_counted; /* the allocator above is the core's (set at load) */

__attribute__((constructor)) static void count_c_memory(void) {
  static const strata_allocator counting = {count_malloc, count_realloc, count_free, NULL};
  strata_error err;
  c_counted = strata_set_allocator(&counting, &err) == STRATA_OK;
}

/* ---- the budget ------------------------------------------------------------------ */

static int spent(lua_State *L, guard *g) {
  g->exhausted = 1;
  lua_pushfstring(L, "%s: stopped, budget exceeded (%d ms of CPU time)", g->what, (int)g->budget_ms);
  return lua_error(L);
}

static void hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  guard *g = state_guard(L);
  if (g && g->depth > 0 && g->spent) {
    /* Every instruction from now on raises: nothing after a pcall runs. */
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L, g);
  }
  lua_sethook(L, NULL, 0, 0); /* a thread hooked for an earlier call */
}

void lstrata_guard_charge(lua_State *L, lua_Integer n) {
  (void)n;
  if (!running) return; /* no guarded call on this thread: nothing to look up */
  guard *g = state_guard(L);
  if (g && g->depth > 0 && g->spent) {
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L, g);
  }
}

/* The timer on the calling thread's CPU clock, made again when the state's
** calls move to another thread. Raises when none can be made: without it a
** loop would never stop. */
static void need_timer(lua_State *L, guard *g) {
  uint64_t me = thread_serial();
  if (g->has_timer && g->timer_thread == me) return;
  if (g->has_timer) timer_delete(g->timer);
  g->has_timer = 0;
  struct sigevent sev;
  memset(&sev, 0, sizeof sev);
  sev.sigev_notify = SIGEV_THREAD_ID;
  sev.sigev_signo = GUARD_SIGNAL;
  sev.sigev_value.sival_ptr = g;
  sev.sigev_notify_thread_id = gettid();
  if (timer_create(CLOCK_THREAD_CPUTIME_ID, &sev, &g->timer) != 0)
    lstrata_error(L, "cannot start a callback's CPU budget: %s", strerror(errno));
  g->has_timer = 1;
  g->timer_thread = me;
}

static void arm(guard *g, lua_Integer ms) {
  struct itimerspec it;
  memset(&it, 0, sizeof it);
  if (ms > 0) {
    it.it_value.tv_sec = (time_t)(ms / 1000);
    it.it_value.tv_nsec = (long)(ms % 1000) * 1000000;
    it.it_interval.tv_nsec = 10000000;
  }
  timer_settime(g->timer, 0, &it, NULL);
}

/* The guard's finalizer (run by lua_close, before the module can be
** unloaded): no timer, the state's own allocator, the handler released. */
static int guard_gc(lua_State *L) {
  guard *g = lua_touserdata(L, 1);
  if (g->closed) return 0;
  g->closed = 1;
  if (g->has_timer) timer_delete(g->timer);
  g->has_timer = 0;
  void *ud;
  if (lua_getallocf(L, &ud) == guard_alloc && ud == g) lua_setallocf(L, g->orig_alloc, g->orig_ud);
  if (g->uses_handler) handler_release();
  g->uses_handler = 0;
  return 0;
}

/* The state's guard, made by its first guarded call: the counting allocator
** goes in and the signal handler is installed (if no other state has). */
static guard *need_guard(lua_State *L) {
  guard *g = state_guard(L);
  if (g) {
    if (g->closed) lstrata_error(L, "a guarded call while the Lua state closes");
    return g;
  }
  g = lua_newuserdatauv(L, sizeof *g, 1);
  memset(g, 0, sizeof *g);
  lua_newtable(L);
  lua_setiuservalue(L, -2, 1);
  lua_createtable(L, 0, 2);
  lua_pushcfunction(L, guard_gc);
  lua_setfield(L, -2, "__gc");
  lua_pushliteral(L, "strata.guard");
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &GUARD);
  if (!handler_use()) lstrata_error(L, "cannot install the CPU budget's signal handler: %s", strerror(errno));
  g->uses_handler = 1; /* released by the finalizer */
  g->orig_alloc = lua_getallocf(L, &g->orig_ud);
  g->lua_bytes = (int64_t)lua_gc(L, LUA_GCCOUNT, 0) * 1024 + lua_gc(L, LUA_GCCOUNTB, 0);
  lua_setallocf(L, guard_alloc, g);
  return g;
}

/* Adds co to the threads of the call open or about to open (kept alive
** until the outermost call ends). May raise: g_call calls it before enter. */
static void add_thread(lua_State *L, guard *g, lua_State *co, int co_index) {
  for (int i = 0; i < g->nthreads; i++) if (g->threads[i] == co) return;
  if (g->nthreads >= MAX_THREADS) lstrata_error(L, "too many coroutines in one callback (at most %d)", MAX_THREADS);
  co_index = lua_absindex(L, co_index);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &GUARD);
  lua_getiuservalue(L, -1, 1);
  lua_pushvalue(L, co_index);
  lua_rawseti(L, -2, (lua_Integer)g->nthreads + 1);
  lua_pop(L, 2);
  g->threads[g->nthreads] = co;
  g->nthreads = g->nthreads + 1;
  if (g->spent) lua_sethook(co, hook, LUA_MASKCOUNT, 1);
}

/* Opens a guarded call; returns its level. At level 0 (the outermost) a new
** budget starts; nested calls share the open one and their limits are ignored.
** This and leave are the only places a guarded call starts and ends. */
static int enter(guard *g, const char *what, lua_Integer budget_ms, lua_Integer memory) {
  int level = g->depth;
  if (level == 0) {
    g->budget_ms = budget_ms > 0 ? budget_ms : 1;
    g->exhausted = 0;
    g->spent = 0;
    g->memory_refused = 0;
    g->memory_limit = memory > 0 ? g->lua_bytes + g->c_bytes + (int64_t)memory : 0;
    snprintf(g->what, sizeof g->what, "%s", what);
    g->outer = running;
    running = g;
  }
  g->depth = level + 1;
  if (level == 0) arm(g, g->budget_ms);
  return level;
}

/* Closes the calls opened since enter returned level (an error may have
** skipped inner ones). At level 0 the budget ends and the limits are lifted:
** the timer is stopped first, so a signal it had sent arrives while the
** call is still open. */
static void leave(lua_State *L, guard *g, int level) {
  if (level == 0) arm(g, 0);
  g->depth = level;
  if (level == 0) {
    running = g->outer;
    g->outer = NULL;
    g->memory_limit = 0;
    g->nthreads = 0;
    g->spent = 0;
    lua_rawgetp(L, LUA_REGISTRYINDEX, &GUARD);
    lua_newtable(L); /* the call's threads may go now */
    lua_setiuservalue(L, -2, 1);
    lua_pop(L, 1);
  }
}

/* ---- the string library mod code sees ------------------------------------------ */
/* For the whole outermost guarded call the string metatable's __index is the
** mod-safe library strata.mods registered (guard.strings: no dump, counted
** matching), and the host's comes back when the call ends: ("").dump in mod
** code finds nothing, the host's string functions stay its own. Both tables
** are in this state's registry. Neither step raises once guard.strings has
** made the registry's slots (only rawget and rawset of existing keys). */
static const char SAFE_STRINGS = 's', HOST_STRINGS = 'h';

/* Swaps the safe library in; returns 1 when it did (then strings_for_host
** must follow), 0 when there is none or no string metatable. */
static int strings_for_mods(lua_State *L) {
  if (!lua_checkstack(L, 4)) return 0;
  lua_pushliteral(L, "");
  if (!lua_getmetatable(L, -1)) { lua_pop(L, 1); return 0; }
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &SAFE_STRINGS) != LUA_TTABLE) { lua_pop(L, 3); return 0; }
  lua_pushliteral(L, "__index");
  lua_rawget(L, -3);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &HOST_STRINGS); /* "", mt, safe */
  lua_pushliteral(L, "__index");
  lua_insert(L, -2);
  lua_rawset(L, -3);
  lua_pop(L, 2);
  return 1;
}

static void strings_for_host(lua_State *L) {
  lua_pushliteral(L, "");
  if (!lua_getmetatable(L, -1)) { lua_pop(L, 1); return; }
  lua_pushliteral(L, "__index");
  lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_STRINGS);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* guard.strings(lib): lib is the string library mod code sees (strata.mods). */
static int g_strings(lua_State *L) {
  lstrata_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 1);
  lua_rawsetp(L, LUA_REGISTRYINDEX, &SAFE_STRINGS);
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &HOST_STRINGS) == LUA_TNIL) {
    lua_pushboolean(L, 0); /* the slot strings_for_mods keeps the host's __index in */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &HOST_STRINGS);
  }
  return 0;
}

/* guard.call(what, budget_ms, memory_bytes, fn, ...) ->
**   "ok", exhausted, memory_refused, results...
** | "error", exhausted, memory_refused, error value
** | "yield", exhausted, memory_refused
** Runs fn(...) in a new coroutine under the budget. Everything between
** opening and closing the guarded call happens here, in C, where neither the
** count hook nor a refused allocation can interrupt it: the call is always
** closed, whatever the callback did. Pending to-be-closed variables of a
** failed or yielded callback are closed before that, still under its budget. */
static int g_call(lua_State *L) {
  const char *what = lstrata_checkstring(L, 1);
  lua_Integer budget = lstrata_checkinteger(L, 2);
  lua_Integer memory = lstrata_checkinteger(L, 3);
  lstrata_checktype(L, 4, LUA_TFUNCTION);
  int nargs = lua_gettop(L) - 4;
  lstrata_checkstack(L, LUA_MINSTACK + 4, "guarded call");
  lua_State *co = lua_newthread(L); /* made before the limits apply */
  int co_index = lua_gettop(L);
  lstrata_checkstack(co, nargs + 1 + LUA_MINSTACK, "too many arguments");
  lua_pushvalue(L, 4);
  for (int i = 5; i <= 4 + nargs; i++) lua_pushvalue(L, i);
  lua_xmove(L, co, nargs + 1);
  guard *g = need_guard(L);
  if (g->depth == 0) need_timer(L, g);
  add_thread(L, g, co, co_index);
  int swapped = g->depth == 0 && strings_for_mods(L);
  int level = enter(g, what, budget, memory);
  int nres = 0;
  int status = lua_resume(co, L, nargs, &nres);
  if (status == LUA_YIELD) {
    lua_pop(co, nres);
    lua_resetthread(co);
    nres = 0;
  } else if (status != LUA_OK) {
    lua_xmove(co, L, 1); /* the error value: the slot was reserved above */
    lua_resetthread(co);
  }
  int exhausted = g->exhausted || g->spent, refused = g->memory_refused;
  leave(L, g, level);
  if (swapped) strings_for_host(L);
  if (status == LUA_OK) {
    if (!lua_checkstack(L, nres + 4)) {
      lua_pushliteral(L, "error");
      lua_pushboolean(L, exhausted);
      lua_pushboolean(L, refused);
      lua_pushliteral(L, "too many results");
      return 4;
    }
    lua_pushliteral(L, "ok");
    lua_pushboolean(L, exhausted);
    lua_pushboolean(L, refused);
    lua_xmove(co, L, nres);
    return 3 + nres;
  }
  int err = lua_gettop(L);
  lua_pushstring(L, status == LUA_YIELD ? "yield" : "error");
  lua_pushboolean(L, exhausted);
  lua_pushboolean(L, refused);
  if (status == LUA_YIELD) return 3;
  lua_pushvalue(L, err);
  return 4;
}

/* guard.hook(co): co runs under the open budget (a mod's coroutine, when it
** is made and whenever it is resumed). */
static int g_hook(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  lstrata_argcheck(L, co != NULL, 1, "expected a coroutine");
  guard *g = state_guard(L);
  if (g && g->depth > 0) add_thread(L, g, co, 1);
  return 0;
}

/* guard.active() -> true while a guarded call runs */
static int g_active(lua_State *L) {
  guard *g = state_guard(L);
  lua_pushboolean(L, g && g->depth > 0);
  return 1;
}

/* guard.charge(n): raises when the budget is spent (for work in C). */
static int g_charge(lua_State *L) {
  lstrata_guard_charge(L, lstrata_checkinteger(L, 1));
  return 0;
}

/* guard.state() -> { depth, budget_ms, exhausted, lua_bytes, c_bytes, memory_limit }
** (zeros before the state's first guarded call) */
static int g_state(lua_State *L) {
  guard none, *g = state_guard(L);
  if (!g) {
    memset(&none, 0, sizeof none);
    g = &none;
  }
  lua_createtable(L, 0, 8);
  lua_pushinteger(L, g->depth); lua_setfield(L, -2, "depth");
  lua_pushboolean(L, c_counted); lua_setfield(L, -2, "c_counted");
  lua_pushinteger(L, g->budget_ms); lua_setfield(L, -2, "budget_ms");
  lua_pushboolean(L, g->exhausted); lua_setfield(L, -2, "exhausted");
  lua_pushinteger(L, (lua_Integer)g->lua_bytes); lua_setfield(L, -2, "lua_bytes");
  lua_pushinteger(L, (lua_Integer)g->c_bytes); lua_setfield(L, -2, "c_bytes");
  lua_pushinteger(L, (lua_Integer)g->memory_limit); lua_setfield(L, -2, "memory_limit");
  return 1;
}

/* guard.userdata(n) -> an empty full userdata with n user values: an object
** with no fields at all (rawget, rawset and next do not apply to it). */
static int g_userdata(lua_State *L) {
  lua_newuserdatauv(L, 0, (int)lstrata_optinteger(L, 1, 0));
  return 1;
}

/* Adds core.guard. Nothing else happens until the first guarded call: no
** allocator, no signal handler, no timer. */
void lstrata_open_guard(lua_State *L) {
  static const luaL_Reg fns[] = {
    {"call", g_call}, {"hook", g_hook}, {"charge", g_charge}, {"active", g_active},
    {"state", g_state}, {"userdata", g_userdata}, {"strings", g_strings}, {NULL, NULL}};
  lstrata_add_functions(L, "guard", 0, fns);
  lua_getfield(L, -1, "guard");
  lstrata_guard_patterns(L);
  lua_setfield(L, -2, "patterns");
  lua_pop(L, 1);
}
