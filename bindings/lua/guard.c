/*
** guard.c - the budget of guarded calls (strata.mods runs every mod callback
** as one), kept where mod code cannot reach it.
**
** One budget per callback the host starts: guard.enter at the outermost call
** starts it, nested calls share it, and only the outermost guard.leave ends
** it. Instructions are counted by a C count hook on each thread the call
** runs (its coroutine and the coroutines it makes): once the budget is spent
** the hook fires on every instruction and raises each time, so a pcall in
** mod code can catch the error but never run another instruction after it.
**
** Memory is counted by an allocator wrapped around Lua's (lua_setallocf) and
** by the C allocations of strata.core (malloc, calloc, realloc and free are
** wrapped at link time, -Wl,--wrap): past the call's limit an allocation
** fails, which Lua reports as a memory error and strata's C functions as
** "out of memory". Both limits apply only while a guarded call is open.
**
** The state is process-wide: strata.core is loaded into one Lua state.
*/
#include "lguard.h"

#include <malloc.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static struct {
  int depth;              /* guarded calls open */
  lua_Integer periods;    /* hook periods used by this budget */
  lua_Integer limit;      /* periods allowed */
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
void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);

void *__wrap_malloc(size_t n) {
  if (over_limit(n)) { G.memory_refused = 1; return NULL; }
  void *p = __real_malloc(n);
  if (p) G.c_bytes += (int64_t)malloc_usable_size(p);
  return p;
}

void *__wrap_calloc(size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) return NULL;
  if (over_limit(n * size)) { G.memory_refused = 1; return NULL; }
  void *p = __real_calloc(n, size);
  if (p) G.c_bytes += (int64_t)malloc_usable_size(p);
  return p;
}

void *__wrap_realloc(void *p, size_t n) {
  size_t old = p ? malloc_usable_size(p) : 0;
  if (n > old && over_limit(n - old)) { G.memory_refused = 1; return NULL; }
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

/* ---- instructions ------------------------------------------------------------ */

static int spent(lua_State *L) {
  G.exhausted = 1;
  lua_pushfstring(L, "%s: stopped, instruction budget exceeded", G.what);
  return lua_error(L);
}

static void hook(lua_State *L, lua_Debug *ar) {
  (void)ar;
  if (G.depth == 0) return; /* a mod's coroutine resumed outside any call: nothing to count */
  if (G.exhausted) {
    /* Every instruction from now on raises: nothing after a pcall runs. */
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L);
  }
  if (++G.periods > G.limit) {
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L);
  }
}

void lstrata_guard_charge(lua_State *L, lua_Integer n) {
  if (G.depth == 0) return;
  G.periods += n;
  if (G.exhausted || G.periods > G.limit) {
    lua_sethook(L, hook, LUA_MASKCOUNT, 1);
    spent(L);
  }
}

/* Opens a guarded call; returns its level. At level 0 (the outermost) a new
** budget starts; nested calls share the open one and their limits are ignored. */
static int enter(const char *what, lua_Integer budget, lua_Integer memory) {
  int level = G.depth;
  if (level == 0) {
    G.periods = 0;
    G.limit = budget / LSTRATA_GUARD_PERIOD > 0 ? budget / LSTRATA_GUARD_PERIOD : 1;
    G.exhausted = 0;
    G.memory_refused = 0;
    G.memory_limit = memory > 0 ? G.lua_bytes + G.c_bytes + (int64_t)memory : 0;
    snprintf(G.what, sizeof G.what, "%s", what);
  }
  G.depth = level + 1;
  return level;
}

/* Closes the calls opened since enter returned level (an error may have
** skipped inner ones). At level 0 the budget ends and the limits are lifted. */
static void leave(int level) {
  G.depth = level;
  if (level == 0) G.memory_limit = 0;
}

/* guard.call(what, instructions, memory_bytes, fn, ...) ->
**   "ok", exhausted, memory_refused, results...
** | "error", exhausted, memory_refused, error value
** | "yield", exhausted, memory_refused
** Runs fn(...) in a new coroutine under the budget. Everything between
** opening and closing the guarded call happens here, in C, where neither the
** count hook nor a refused allocation can interrupt it: the call is always
** closed, whatever the callback did. Pending to-be-closed variables of a
** failed or yielded callback are closed before that, still under its budget. */
static int g_call(lua_State *L) {
  const char *what = luaL_checkstring(L, 1);
  lua_Integer budget = luaL_checkinteger(L, 2);
  lua_Integer memory = luaL_checkinteger(L, 3);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  int nargs = lua_gettop(L) - 4;
  luaL_checkstack(L, LUA_MINSTACK + 4, "guarded call");
  lua_State *co = lua_newthread(L); /* made before the limits apply */
  luaL_checkstack(co, nargs + 1 + LUA_MINSTACK, "too many arguments");
  lua_pushvalue(L, 4);
  for (int i = 5; i <= 4 + nargs; i++) lua_pushvalue(L, i);
  lua_xmove(L, co, nargs + 1);
  int level = enter(what, budget, memory);
  lua_sethook(co, hook, LUA_MASKCOUNT, G.exhausted ? 1 : LSTRATA_GUARD_PERIOD);
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
  int exhausted = G.exhausted, refused = G.memory_refused;
  leave(level);
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

/* guard.hook(co): counts co's instructions against the open budget. */
static int g_hook(lua_State *L) {
  lua_State *co = lua_tothread(L, 1);
  luaL_argcheck(L, co != NULL, 1, "expected a coroutine");
  lua_sethook(co, hook, LUA_MASKCOUNT, G.exhausted ? 1 : LSTRATA_GUARD_PERIOD);
  return 0;
}

/* guard.active() -> true while a guarded call runs */
static int g_active(lua_State *L) {
  lua_pushboolean(L, G.depth > 0);
  return 1;
}

/* guard.charge(periods): work done on the call's behalf outside the VM. */
static int g_charge(lua_State *L) {
  lstrata_guard_charge(L, luaL_checkinteger(L, 1));
  return 0;
}

/* guard.state() -> { depth, periods, limit, exhausted, lua_bytes, c_bytes, memory_limit } */
static int g_state(lua_State *L) {
  lua_createtable(L, 0, 7);
  lua_pushinteger(L, G.depth); lua_setfield(L, -2, "depth");
  lua_pushinteger(L, G.periods); lua_setfield(L, -2, "periods");
  lua_pushinteger(L, G.limit); lua_setfield(L, -2, "limit");
  lua_pushboolean(L, G.exhausted); lua_setfield(L, -2, "exhausted");
  lua_pushinteger(L, (lua_Integer)G.lua_bytes); lua_setfield(L, -2, "lua_bytes");
  lua_pushinteger(L, (lua_Integer)G.c_bytes); lua_setfield(L, -2, "c_bytes");
  lua_pushinteger(L, (lua_Integer)G.memory_limit); lua_setfield(L, -2, "memory_limit");
  return 1;
}

/* guard.userdata(n) -> an empty full userdata with n user values: an object
** with no fields at all (rawget, rawset and next do not apply to it). */
static int g_userdata(lua_State *L) {
  lua_newuserdatauv(L, 0, (int)luaL_optinteger(L, 1, 0));
  return 1;
}

void lstrata_open_guard(lua_State *L) {
  static int installed;
  if (!installed) {
    orig_alloc = lua_getallocf(L, &orig_ud);
    lua_setallocf(L, guard_alloc, NULL);
    installed = 1;
    lstrata_guard_patterns(L);
  }
  static const luaL_Reg fns[] = {
    {"call", g_call}, {"hook", g_hook}, {"charge", g_charge}, {"active", g_active},
    {"state", g_state}, {"userdata", g_userdata}, {NULL, NULL}};
  lstrata_add_functions(L, "guard", fns);
}
