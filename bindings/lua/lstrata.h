/*
** lstrata.h - what every binding file shares: turning strata_error values
** into Lua errors, checking option tables and coordinates, and the hook each
** file exports to add its part to the module table.
**
** Pattern (after luv): one file per wrapped type; each Lua function checks its
** arguments with a check_<type> helper, calls the core, and either returns
** results or raises through lstrata_raise().
*/
#ifndef LSTRATA_H
#define LSTRATA_H

#include <lauxlib.h>
#include <lua.h>

#include "strata/strata.h"

/* Errors name the public function a user called ("map:find_path: unknown
** option 'x' ...") at the caller's line, never "bad argument #3 to
** 'find_path'". The C functions users call directly are registered with
** their public names (lstrata_register_type, lstrata_add_functions,
** lstrata_add_methods, lstrata_name_functions); the raising helpers below
** name the running function by that. In functions only strata's own Lua
** calls (no public name) they raise the message alone, with no position:
** the Lua side (lua/strata/boundary.lua) puts its public function's name
** and its caller's line, and has nothing to strip. So bindings raise through
** these, never luaL_error, luaL_argerror, luaL_check* or luaL_opt* (which add
** positions inside strata or Lua's "bad argument" words; spec/binding_errors_spec.lua). */

/* The public name of the running C function ("map:set"), or NULL. */
const char *lstrata_public_name(lua_State *L);
/* Raises err as a Lua error, named by the running function's public name,
** else by prefix (may be NULL), at the caller's line (none when the caller
** is strata's own Lua: its public function gives its caller's line). */
int lstrata_raise(lua_State *L, const char *prefix, const strata_error *err);
/* The same with message in place of err's (a longer one: strata_runtime_failure_text). */
int lstrata_raise_text(lua_State *L, const char *prefix, const strata_error *err, const char *message);
/* "<public name>: <formatted message>" at the caller's line. */
int lstrata_error(lua_State *L, const char *fmt, ...);
/* An error about argument arg whose message says what is wrong (under no public
** name: the message alone). */
int lstrata_argerror(lua_State *L, int arg, const char *msg);
/* The same, saying which argument ("argument #2: ..."; arguments counted as
** the caller wrote them, a method's self not counted; under no public name:
** the message alone). */
int lstrata_argnerror(lua_State *L, int arg, const char *msg);
/* "argument #n: <tname> expected, got <type>" (under no public name:
** "<tname> expected, got <type>"). */
int lstrata_typeerror(lua_State *L, int arg, const char *tname);
lua_Integer lstrata_checkinteger(lua_State *L, int arg);
lua_Integer lstrata_optinteger(lua_State *L, int arg, lua_Integer def);
lua_Number lstrata_checknumber(lua_State *L, int arg);
const char *lstrata_checklstring(lua_State *L, int arg, size_t *len);
#define lstrata_checkstring(L, arg) lstrata_checklstring(L, (arg), NULL)
const char *lstrata_optlstring(lua_State *L, int arg, const char *def, size_t *len);
#define lstrata_optstring(L, arg, def) lstrata_optlstring(L, (arg), (def), NULL)
void lstrata_checktype(lua_State *L, int arg, int t);
void *lstrata_checkudata(lua_State *L, int arg, const char *tname);
#define lstrata_argcheck(L, cond, arg, msg) ((void)((cond) || lstrata_argerror(L, (arg), (msg))))
/* Room for n more stack slots, or an error saying what needed them. */
void lstrata_checkstack(lua_State *L, int n, const char *what);

/* Raises "<fn>: unknown option 'k' (nearest known: ...)" unless arg is a
** table whose keys are all in known (NULL-terminated). Absent/nil arg is
** accepted when optional is nonzero. */
void lstrata_check_options(lua_State *L, int arg, const char *const known[], int optional);
/* Pushes t[key] read raw (no metamethod runs: options and goals from mod code); its type. */
int lstrata_rawfield(lua_State *L, int t, const char *key);

/* Option fields of the table at index t: absent/nil gives def; a wrong type
** raises an argument error naming the field. */
lua_Integer lstrata_opt_int(lua_State *L, int t, const char *key, lua_Integer def);
lua_Number lstrata_opt_number(lua_State *L, int t, const char *key, lua_Number def);
int lstrata_opt_bool(lua_State *L, int t, const char *key, int def);
const char *lstrata_opt_string(lua_State *L, int t, const char *key, const char *def);

/* A point given as {x, y} or {x = , y = }; raises an argument error otherwise. */
/* 1 and *x, *y when the value at arg is a point {x, y} (or {x =, y =}) of integers; else 0. */
int lstrata_test_point(lua_State *L, int arg, lua_Integer *x, lua_Integer *y);
void lstrata_check_point(lua_State *L, int arg, lua_Integer *x, lua_Integer *y);
/* An integer argument that must fit an int. */
int lstrata_check_int(lua_State *L, int arg);
/* Pushes u[0..n) as a Lua sequence of integers (uids). */
void lstrata_push_uids(lua_State *L, const uint64_t *u, size_t n);

/* Registers the metatable `name` with the metamethods in meta and the
** methods in methods: as its __index table, or, when meta has its own
** __index function, as its "methods" field for that function to consult.
** The methods' public names are "<public_prefix>:<method>" (NULL: methods
** only strata's Lua calls). */
void lstrata_register_type(lua_State *L, const char *name, const char *public_prefix,
                           const luaL_Reg *meta, const luaL_Reg *methods);
/* Gives the functions in funcs the public names "<prefix><name>"
** ("strata.tilemap." .. "new", "map:" .. "to_svg"). */
void lstrata_name_functions(lua_State *L, const char *prefix, const luaL_Reg *funcs);
/* Sets the metatable at the top's __metatable to name (getmetatable gives
** the name; the table itself, with __gc, stays out of Lua's reach). */
void lstrata_protect_metatable(lua_State *L, const char *name);
/* Sets module[field] = a table of the functions in funcs (module at the
** top), named "strata.<field>.<name>" when is_public is nonzero. */
void lstrata_add_functions(lua_State *L, const char *field, int is_public, const luaL_Reg *funcs);

/* Adds the functions in funcs to the methods of the type registered as name,
** public names "<public_prefix>:<method>" (NULL: not public). */
void lstrata_add_methods(lua_State *L, const char *name, const char *public_prefix,
                         const luaL_Reg *funcs);
/* The world state (strata.world_state) at arg; raises if it is not one or was closed. */
strata_world *lstrata_check_world(lua_State *L, int arg);
/* The world state at idx, or NULL if it is not one or was closed. */
strata_world *lstrata_to_world(lua_State *L, int idx);
/* The XY map at arg; raises if it is not one or was closed. */
strata_xymap *lstrata_check_xymap(lua_State *L, int arg);

/* Each binding file adds its functions to the module table at the top of the
** stack. */
void lstrata_open_tokens(lua_State *L);
void lstrata_open_tilemap(lua_State *L);
void lstrata_open_tilepath(lua_State *L);
void lstrata_open_distmap(lua_State *L);
void lstrata_open_rng(lua_State *L);
void lstrata_open_noise(lua_State *L);
void lstrata_open_turns(lua_State *L);
void lstrata_open_stream(lua_State *L);
void lstrata_open_xymap(lua_State *L);
void lstrata_open_world(lua_State *L);
void lstrata_open_room(lua_State *L);
void lstrata_open_grid(lua_State *L);
void lstrata_open_branch(lua_State *L);
void lstrata_open_layout(lua_State *L);
void lstrata_open_picture(lua_State *L);
void lstrata_open_paths(lua_State *L);
void lstrata_open_worldgen(lua_State *L);
void lstrata_open_runtime(lua_State *L);
void lstrata_open_fov(lua_State *L);
void lstrata_open_json(lua_State *L);
void lstrata_open_lease(lua_State *L);
void lstrata_open_serve(lua_State *L);

/* strata.core's table, pushed: `require "strata.core"` in the module
** (module.c), and preloaded by the executable and libstrata_lua. */
int lstrata_open_core(lua_State *L);

#endif
