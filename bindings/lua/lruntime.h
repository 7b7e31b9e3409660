/*
** lruntime.h - the Lua binding's runtime as its two files share it: the
** resolver (resolver.c: questions to the Lua dispatcher, the definition
** cache, calls) and the "strata.runtime" userdata (runtime.c).
**
** What the runtime keeps on the Lua side is one table, a uservalue of its
** userdata (so it lives exactly as long as the runtime): [T_STATE] the world
** state, [T_DISPATCH] the dispatcher, [T_SLOTS] the functions of the cached
** callables, by slot. The thread finds it through a table with weak values
** in the registry, keyed by the runtime (not slots of the thread's stack:
** the thread may be busy in a call below, and indices count from its
** current frame; nothing in the registry holds it strongly: mod functions
** reach their world, which holds the runtime).
*/
#ifndef LRUNTIME_H
#define LRUNTIME_H

#include "lstrata.h"
#include "strata/runtime.h"

#define T_STATE 1
#define T_DISPATCH 2
#define T_SLOTS 3

typedef struct callable_entry callable_entry;
typedef struct map_def map_def;
typedef struct area_def area_def;
typedef struct unique_entry unique_entry;
typedef struct branch_def branch_def;

typedef struct lruntime {
  strata_runtime *rt;
  strata_world *w;
  strata_world *const *alive;      /* where the world's state keeps w: NULL once closed (lworld.h) */
  lua_State *T;                    /* the thread every question runs on */
  callable_entry *callables;       /* the cache: callables by (kind, ID), definitions by ID */
  int nslots;
  map_def *maps;
  area_def *areas;
  unique_entry *uniques;
  branch_def *branches;
  const strata_unique_def **order; /* unique_at: by the registry's order */
  size_t norder;
  int order_known;
  /* A C host's resolver asked first for callables (strata_lua_world_set_host):
  ** the host's logic by ID, then the mods'. Borrowed; NULL: none. */
  const strata_resolver *first;
} lruntime;

/* The key of the registry's table of runtimes (weak values): lr -> its table. */
extern const char lstrata_runtimes;
/* Pushes the runtime's table (see above). */
void lstrata_runtime_table(lua_State *L, const lruntime *lr);
/* The resolver answering through lr's dispatcher. */
strata_resolver lstrata_lua_resolver(lruntime *lr);
/* The runtime of the "strata.runtime" userdata at arg; raises if closed. */
lruntime *lstrata_check_runtime(lua_State *L, int arg);
/* Pushes the failures of an advance as a list ({ timer =, handler =, mod =,
** dropped =, message = } each) and clears f. */
void lstrata_push_failures(lua_State *L, strata_failures *f);
/* Forgets every definition and callable: they are asked for again (a reload). */
void lstrata_runtime_drop_cache(lruntime *lr);

#endif
