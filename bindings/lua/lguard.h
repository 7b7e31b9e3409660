/*
** lguard.h - the budget of a guarded call (a mod's callback), kept in C so
** that mod code can neither see nor reset it: instructions (a count hook on
** each of the call's threads), work inside C functions (lstrata_guard_charge)
** and memory (Lua's allocator and the C allocations of strata.core).
*/
#ifndef LGUARD_H
#define LGUARD_H

#include "lstrata.h"

/* VM instructions between two count hooks: one "period" of the budget. */
#define LSTRATA_GUARD_PERIOD 1000

/* Charges n periods of work done inside a C function to the running guarded
** call; raises "<what>: stopped, instruction budget exceeded" once the budget
** is spent. Does nothing outside a guarded call. */
void lstrata_guard_charge(lua_State *L, lua_Integer n);
/* Nonzero while a guarded call runs. */
int lstrata_guard_active(void);
/* Installs the counted pattern functions (guard_match.c) in `string`. */
void lstrata_guard_patterns(lua_State *L);
/* Installs the counting allocator and adds core.guard. */
void lstrata_open_guard(lua_State *L);

#endif
