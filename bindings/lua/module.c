/*
** module.c - the entry point of `require "strata.core"`, in the Lua module
** (core.so) alone. The binding's other files are compiled once, with hidden
** symbols, for the module, the executable and libstrata_lua (whose exports
** are strata_* only); this is the one symbol the module adds.
*/
#include "lstrata.h"

STRATA_API int luaopen_strata_core(lua_State *L);

int luaopen_strata_core(lua_State *L) { return lstrata_open_core(L); }
