/*
** lua.h - strata for C hosts that also run Lua mods: libstrata_lua
** (find_package(strata): strata::strata_lua). It is the whole C API of
** libstrata plus the Lua layer: link it instead of libstrata, never both
** (two copies of the core in one process).
**
**   lua_State *L = strata_lua_new(NULL, &err);              // the one call
**   const char *mods[] = { "base", "cellar" };
**   strata_lua_world_new(L, 7, mods, 2, "game/mods", &err); // pushes the world
**   strata_world *w; strata_runtime *rt;
**   strata_lua_world(L, -1, &w, &rt, &err);                 // the C API on it
**
** The state has Lua's standard libraries, `require "strata"` working from the
** installed Lua files, and strata.core built in; mods load in strata's
** sandbox as they do under the `strata` executable: the same CPU and memory
** budget per callback. The library's C allocations go through the core's
** allocator, which the binding sets (strata/alloc.h), as strata.core's do:
** a mod's memory limit counts the C memory strata allocates on its behalf;
** the host's allocations are not touched. The
** budget belongs to the state: states on separate threads may run mods at
** the same time (docs/sandbox.md: the one real-time signal strata uses, and
** when its handler is installed). The host's C code is trusted: its functions run outside
** the sandbox. The world and runtime pointers are borrowed from the Lua
** world: valid while it is alive (keep it on the stack or in the registry);
** its logic is answered by its mods (the Lua resolver), after the host's own
** C functions when it has given some (strata_lua_world_set_host). Close the
** state with lua_close: it frees the worlds it holds.
*/
#ifndef STRATA_LUA_H
#define STRATA_LUA_H
#include <lua.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/api.h"
#include "strata/error.h"
#include "strata/runtime.h"
#ifdef __cplusplus
extern "C" {
#endif

typedef struct strata_lua_options {
  /* strata's Lua files (the folder holding strata/init.lua). NULL: the
  ** environment's STRATA_LUA_DIR, else the installed copy found from where
  ** libstrata_lua is (so a prefix made with `cmake --install --prefix DIR`
  ** works wherever DIR is). */
  const char *lua_dir;
} strata_lua_options;

/* A new Lua state set up for strata (opts may be NULL); NULL and err filled
** when it cannot be made (out of memory, no Lua files where they should be). */
STRATA_API lua_State *strata_lua_new(const strata_lua_options *opts, strata_error *err);
/* strata.world.new{ seed, mods, mod_path } (mod_path may be NULL: strata's own
** mods only): pushes the world, or pushes nothing and fills err with the
** message Lua gave (an unknown mod, a mod's error). */
STRATA_API strata_status strata_lua_world_new(lua_State *L, int64_t seed, const char *const *mods,
                                              size_t nmods, const char *mod_path, strata_error *err);
/* strata.world.open(path, { mod_path }): likewise, the mods the file names. */
STRATA_API strata_status strata_lua_world_open(lua_State *L, const char *path, const char *mod_path,
                                               strata_error *err);
/* The core world and runtime of the Lua world at idx (either may be NULL).
** EARG when the value is not a live strata world. */
STRATA_API strata_status strata_lua_world(lua_State *L, int idx, strata_world **w, strata_runtime **rt,
                                          strata_error *err);
/* Makes first (a C host's resolver, e.g. strata_registry_resolver) answer
** the Lua world's logic by ID before its mods: a callable first knows (an
** event handler registered with strata_event_on, a timer's handler, a
** generator) is the host's; an ID it does not know (STRATA_ENOTFOUND) goes
** to the mods. Definitions (archetypes, unique areas, declared events) stay
** the mods'. first is borrowed: keep it alive while the world is, or set
** NULL. The host's functions are trusted C: they run outside the sandbox. */
STRATA_API strata_status strata_lua_world_set_host(lua_State *L, int idx, const strata_resolver *first,
                                                   strata_error *err);
/* world:save(path) on the Lua world at idx (it records the mods' versions). */
STRATA_API strata_status strata_lua_world_save(lua_State *L, int idx, const char *path, strata_error *err);

#ifdef __cplusplus
}
#endif
#endif
