/*
** guard.c - the budget of guarded calls (strata.mods runs every mod callback
** as one), kept where mod code cannot reach it.
**
** One budget per callback the host starts: the outermost guarded call
** starts it, nested calls share it, and only the outermost one ends it. The
** budget is CPU time: a profiling timer (setitimer ITIMER_PROF, SIGPROF)
** fires when it is spent, and its handler sets a count hook on every thread
** the call runs (its coroutine and the coroutines it makes or resumes). The
** hook raises on every instruction from then on, so a pcall in mod code can
** catch the error but never run another instruction after it; C functions
** that may work long (pattern matching) ask lstrata_guard_charge, which
** raises too. Until the budget is spent no hook is set at all: a count hook
** makes Lua 5.4 trap every instruction, which cost 75% on a tight loop.
**
** Memory is counted by an allocator wrapped around Lua's (lua_setallocf) and
** by the C allocations of strata.core (malloc, calloc, realloc and free are
** wrapped at link time, -Wl,--wrap): past the call's limit an allocation
** fails, which Lua reports as a memory error and strata's C functions as
** "out of memory". Both limits apply only while a guarded call is open.
**
** The state is process-wide: one guarded call at a time in the process, in
** whichever Lua state loaded strata.core (a C host may make several).
*/
#include "lguard.h"

#include <malloc.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>
#include <stdlib.h>
#include <string.h>

/* The threads of the running call, for the signal handler. They are also
** kept alive (uservalues of the registry table THREADS) until the outermost
** call ends, so no pointer here outlives its thread. */
#define MAX_THREADS 1024
static lua_State *threads[MAX_THREADS];
static volatile sig_atomic_t nthreads;
static volatile sig_atomic_t depth_now; /* G.depth, for the signal handler */
static volatile sig_atomic_t spent_now; /* the budget is spent */
static const char THREADS = 't';

static struct {
  int depth;              /* guarded calls open */
  lua_Integer budget_ms;  /* CPU time allowed */
  int exhausted;          /* the budget is spent: every hook raises */
  int memory_refused;     /* an allocation was refused */
  int64_t memory_limit;   /* lua_bytes + c_bytes allowed; 0: none */
  int64_t lua_bytes;      /* through Lua's allocator (since strata.core loaded) */
  int64_t c_bytes;        /* strata.core's own C allocations */
  char what[200];         /* names the callback in the errors */
} G;

static lua_Alloc orig_alloc;
static void *orig_ud;

int lstrata_guard_active(void) { return G.depth > 0; }

static int over_limit(size_t more) {
  return G.depth > 0 && G.memory_limit > 0 &&
         G.lua_bytes + G.c_bytes + (int64_t)more > G.memory_limit;
}

/* ---- memory ---------------------------------------------------------------- */

static void *guard_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  size_t old = ptr ? osize : 0; /* with ptr NULL, osize is a type tag */
  if (nsize == 0) {
    G.lua_bytes -= (int64_t)old;
    return orig_alloc(orig_ud, ptr, osize, 0);
  }
  if (nsize > old && over_limit(nsize - old)) {
    G.memory_refused = 1;
    return NULL; /* Lua collects and retries, then raises a memory error */
  }
  void *p = orig_alloc(orig_ud, ptr, osize, nsize);
  if (p) G.lua_bytes += (int64_t)nsize - (int64_t)old;
  return p;
}

#ifdef STRATA_WRAP_MALLOC
/* strata's C code asks for memory as it works: once the budget is spent,
** it gets none (a C loop that allocates, such as a macro expansion that
** never ends, stops there with "out of memory" instead of running on). */
static int c_refused(size_t more) {
  if (depth_now > 0 && spent_now) return 1;
  return over_limit(more);
}

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

void *__wrap_malloc(size_t n) {
  if (c_refused(n)) { G.memory_refused = 1; return NULL; }
  void *p = __real_malloc(n);
  if (p) G.c_bytes += (int64_t)malloc_usable_size(p);
  return p;
}

void *__wrap_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  if (c_refused(n * size)) { G.memory_refused = 1; return NULL; }
  void *p = __real_calloc(n, size);
  if (p) G.c_bytes += (int64_t)malloc_usable_size(p);
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  size_t old = p ? malloc_usable_size(p) : 0;
  if (n > old && c_refused(n - old)) { G.memory_refused = 1; return NULL; }
  void *q = __real_realloc(p, n);
  if (q) G.c_bytes += (int64_t)malloc_usable_size(q) - (int64_t)old;
  else if (n == 0) G.c_bytes -= (int64_t)old;
  return q;
}

void __wrap_free(void *p) {
  if (p) G.c_bytes -= (int64_t)malloc_usable_size(p);
  __real_free(p);
}
#endif

/* ---- the budget ------------------------------------------------------------------ */

static int spent(lua_State *L) {
  G.exhausted = 1;
  lua_pushfstring(L, "%s: stopped, budget exceeded (%d ms of CPU time)", G.what, (int)G.budget_ms);
  return lua_error(L);
}

static void hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  if (depth_now > 0 && spent_now) {
    /* Every instruction from now on raises: nothing after a pcall runs. */
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L);
  }
  lua_sethook(L, NULL, 0, 0); /* a thread hooked for an earlier call */
}

/* SIGPROF: the budget is spent (and again every 10 ms after, for threads
** made since). lua_sethook may be called from a signal handler. */
static void on_prof(int sig) {
  (void)sig;
  if (depth_now <= 0) return;
  spent_now = 1;
  for (int i = 0; i < nthreads; i++) lua_sethook(threads[i], hook, LUA_MASKCOUNT, 1);
}

static void arm(lua_Integer ms) {
  struct itimerval it;
  memset(&it, 0, sizeof it);
  if (ms > 0) {
    it.it_value.tv_sec = (time_t)(ms / 1000);
    it.it_value.tv_usec = (suseconds_t)(ms % 1000) * 1000;
    it.it_interval.tv_usec = 10000;
  }
  setitimer(ITIMER_PROF, &it, NULL);
}

void lstrata_guard_charge(lua_State *L, lua_Integer n) {
  (void)n;
  if (depth_now > 0 && spent_now) {
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L);
  }
}

/* Adds co to the running call's threads (kept alive until it ends). */
static void add_thread(lua_State *L, lua_State *co, int co_index) {
  if (depth_now <= 0) return;
  for (int i = 0; i < nthreads; i++) if (threads[i] == co) return;
  if (nthreads >= MAX_THREADS) lstrata_error(L, "too many coroutines in one callback (at most %d)", MAX_THREADS);
  lua_rawgetp(L, LUA_REGISTRYINDEX, &THREADS);
  lua_pushvalue(L, co_index);
  lua_rawseti(L, -2, (lua_Integer)nthreads + 1);
  lua_pop(L, 1);
  threads[nthreads] = co;
  nthreads = nthreads + 1;
  if (spent_now) lua_sethook(co, hook, LUA_MASKCOUNT, 1);
}

/* Opens a guarded call; returns its level. At level 0 (the outermost) a new
** budget starts; nested calls share the open one and their limits are ignored. */
static int enter(const char *what, lua_Integer budget_ms, lua_Integer memory) {
  int level = G.depth;
  if (level == 0) {
    G.budget_ms = budget_ms > 0 ? budget_ms : 1;
    G.exhausted = 0;
    spent_now = 0;
    nthreads = 0;
    G.memory_refused = 0;
    G.memory_limit = memory > 0 ? G.lua_bytes + G.c_bytes + (int64_t)memory : 0;
    snprintf(G.what, sizeof G.what, "%s", what);
  }
  G.depth = level + 1;
  depth_now = G.depth;
  if (level == 0) arm(G.budget_ms);
  return level;
}

/* Closes the calls opened since enter returned level (an error may have
** skipped inner ones). At level 0 the budget ends and the limits are lifted. */
static void leave(lua_State *L, int level) {
  G.depth = level;
  depth_now = level;
  if (level == 0) {
    arm(0);
    G.memory_limit = 0;
    nthreads = 0;
    spent_now = 0;
    lua_newtable(L); /* the call's threads may go now */
    lua_rawsetp(L, LUA_REGISTRYINDEX, &THREADS);
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
  int swapped = !lstrata_guard_active() && strings_for_mods(L);
  int level = enter(what, budget, memory);
  add_thread(L, co, co_index);
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
  int exhausted = G.exhausted || spent_now, refused = G.memory_refused;
  leave(L, level);
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
  add_thread(L, co, 1);
  return 0;
}

/* guard.active() -> true while a guarded call runs */
static int g_active(lua_State *L) {
  lua_pushboolean(L, G.depth > 0);
  return 1;
}

/* guard.charge(n): raises when the budget is spent (for work in C). */
static int g_charge(lua_State *L) {
  lstrata_guard_charge(L, lstrata_checkinteger(L, 1));
  return 0;
}

/* guard.state() -> { depth, budget_ms, exhausted, lua_bytes, c_bytes, memory_limit } */
static int g_state(lua_State *L) {
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, G.depth); lua_setfield(L, -2, "depth");
  lua_pushinteger(L, G.budget_ms); lua_setfield(L, -2, "budget_ms");
  lua_pushboolean(L, G.exhausted); lua_setfield(L, -2, "exhausted");
  lua_pushinteger(L, (lua_Integer)G.lua_bytes); lua_setfield(L, -2, "lua_bytes");
  lua_pushinteger(L, (lua_Integer)G.c_bytes); lua_setfield(L, -2, "c_bytes");
  lua_pushinteger(L, (lua_Integer)G.memory_limit); lua_setfield(L, -2, "memory_limit");
  return 1;
}

/* guard.userdata(n) -> an empty full userdata with n user values: an object
** with no fields at all (rawget, rawset and next do not apply to it). */
static int g_userdata(lua_State *L) {
  lua_newuserdatauv(L, 0, (int)lstrata_optinteger(L, 1, 0));
  return 1;
}

void lstrata_open_guard(lua_State *L) {
  static int installed; /* the SIGPROF handler: once per process */
  if (!installed) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_prof;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPROF, &sa, NULL);
    installed = 1;
  }
  /* Once per state: a C host may make several, one after another
  ** (strata_lua_new), and each needs its allocator guarded. */
  if (lua_rawgetp(L, LUA_REGISTRYINDEX, &THREADS) == LUA_TNIL) {
    void *ud;
    lua_Alloc f = lua_getallocf(L, &ud);
    if (orig_alloc && (f != orig_alloc || ud != orig_ud))
      lstrata_error(L, "strata.core: every Lua state loading it must use the same allocator");
    orig_alloc = f;
    orig_ud = ud;
    lua_setallocf(L, guard_alloc, NULL);
    lua_newtable(L);
    lua_rawsetp(L, LUA_REGISTRYINDEX, &THREADS);
  }
  lua_pop(L, 1);
  static const luaL_Reg fns[] = {
    {"call", g_call}, {"hook", g_hook}, {"charge", g_charge}, {"active", g_active},
    {"state", g_state}, {"userdata", g_userdata}, {"strings", g_strings}, {NULL, NULL}};
  lstrata_add_functions(L, "guard", 0, fns);
  lua_getfield(L, -1, "guard");
  lstrata_guard_patterns(L);
  lua_setfield(L, -2, "patterns");
  lua_pop(L, 1);
}
