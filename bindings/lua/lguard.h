/*
** lguard.h - the budget of a guarded call (a mod's callback), kept in C so
** that mod code can neither see nor reset it, one per Lua state: CPU time (a
** timer on the calling thread's CPU clock, then a count hook on each of the
** call's threads), work inside C functions
** (lstrata_guard_charge) and memory (Lua's allocator and the C allocations
** of strata.core).
*/
#ifndef LGUARD_H
#define LGUARD_H

#include "lstrata.h"

/* Called by C functions every so often while they work (n: how much, for
** the record): raises "<what>: stopped, budget exceeded" once the running
** guarded call's budget is spent. Does nothing outside a guarded call. */
void lstrata_guard_charge(lua_State *L, lua_Integer n);
/* Nonzero while a guarded call runs on the calling thread (in any state). */
int lstrata_guard_active(void);
/* Pushes a table of the counted pattern functions (guard_match.c): find,
** match, gmatch, gsub. */
void lstrata_guard_patterns(lua_State *L);
/* Adds core.guard (the counting allocator and the budget's signal handler
** come with the state's first guarded call, bindings/lua/guard.c). */
void lstrata_open_guard(lua_State *L);

#endif
