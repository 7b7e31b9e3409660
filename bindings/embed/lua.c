/*
** lua.c - strata_lua_new and friends (strata/lua.h): the Lua state a C host
** gets to run Lua mods, and the way from a Lua world to the C API.
** Everything that may raise runs under lua_pcall, so the host gets errors
** as strata_error values and its own stack stays as it was.
*/
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* dladdr */
#endif
#include <dlfcn.h>
#include <lauxlib.h>
#include <lualib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lruntime.h"
#include "lstrata.h"
#include "lworld.h"
#include "strata/lua.h"

/* Copies the Lua error at the top into err and pops it. */
static strata_status lua_failure(lua_State *L, strata_status status, strata_error *err) {
  const char *msg = lua_tostring(L, -1);
  strata_error_set(err, status, "%s", msg ? msg : "(an error that is not a string)");
  lua_pop(L, 1);
  return status;
}

static int exists(const char *path) { return access(path, R_OK) == 0; }

/* The Lua files: STRATA_LUA_DIR, else beside this library (<libdir>/
** STRATA_LIB_TO_LUA), else the source tree when this library is a build
** tree's (CMakeCache.txt beside it), else the configured install folder. */
static const char *lua_dir(char *buf, size_t size) {
  const char *env = getenv("STRATA_LUA_DIR");
  if (env && *env) return env;
  Dl_info info;
  if (dladdr((void *)strata_lua_new, &info) && info.dli_fname) {
    const char *slash = strrchr(info.dli_fname, '/');
    int n = slash ? (int)(slash - info.dli_fname) : 0;
    snprintf(buf, size, "%.*s/%s/strata/init.lua", n, info.dli_fname, STRATA_LIB_TO_LUA);
    if (slash && exists(buf)) {
      snprintf(buf, size, "%.*s/%s", n, info.dli_fname, STRATA_LIB_TO_LUA);
      return buf;
    }
    snprintf(buf, size, "%.*s/CMakeCache.txt", n, info.dli_fname);
    if (slash && exists(buf)) return STRATA_SOURCE_LUA;
  }
  return STRATA_INSTALL_SCRIPTS;
}

/* [-0, +0] sets up the state: libraries, strata.core, package.path. */
static int setup(lua_State *L) {
  const char *dir = lua_touserdata(L, 1);
  luaL_openlibs(L);
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, lstrata_open_core);
  lua_setfield(L, -2, "strata.core");
  lua_pop(L, 1);
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", dir, dir);
  lua_getfield(L, -2, "path");
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  lua_getglobal(L, "require"); /* a missing or broken copy fails here, not later */
  lua_pushliteral(L, "strata");
  lua_call(L, 1, 0);
  return 0;
}

lua_State *strata_lua_new(const strata_lua_options *opts, strata_error *err) {
  char buf[4096 + 64];
  const char *dir = opts && opts->lua_dir ? opts->lua_dir : lua_dir(buf, sizeof buf);
  lua_State *L = luaL_newstate();
  if (!L) {
    strata_error_in(err, STRATA_ENOMEM, "strata_lua_new", "cannot create a Lua state: out of memory");
    return NULL;
  }
  lua_pushcfunction(L, setup);
  lua_pushlightuserdata(L, (void *)dir);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    strata_error_in(err, STRATA_EIO, "strata_lua_new", "cannot load strata's Lua files from %s: %s", dir,
                    msg ? msg : "?");
    lua_close(L);
    return NULL;
  }
  return L;
}

/* [-0, +1] require("strata").world[field] */
static void push_world_fn(lua_State *L, const char *field) {
  lua_getglobal(L, "require");
  lua_pushliteral(L, "strata");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "world");
  lua_getfield(L, -1, field);
  lua_replace(L, -3);
  lua_pop(L, 1);
}

typedef struct new_args {
  int64_t seed;
  const char *const *mods;
  size_t nmods;
  const char *mod_path;
  const char *path; /* open: the file */
} new_args;

static int world_new(lua_State *L) {
  const new_args *a = lua_touserdata(L, 1);
  push_world_fn(L, a->path ? "open" : "new");
  if (a->path) lua_pushstring(L, a->path);
  lua_createtable(L, 0, 3);
  if (!a->path) {
    lua_pushinteger(L, (lua_Integer)a->seed);
    lua_setfield(L, -2, "seed");
    if (a->mods) {
      lua_createtable(L, (int)a->nmods, 0);
      for (size_t i = 0; i < a->nmods; i++) {
        lua_pushstring(L, a->mods[i]);
        lua_rawseti(L, -2, (lua_Integer)i + 1);
      }
      lua_setfield(L, -2, "mods");
    }
  }
  if (a->mod_path) {
    lua_pushstring(L, a->mod_path);
    lua_setfield(L, -2, "mod_path");
  }
  lua_call(L, a->path ? 2 : 1, 1);
  return 1;
}

static strata_status run_new(lua_State *L, const new_args *a, strata_error *err) {
  lua_pushcfunction(L, world_new);
  lua_pushlightuserdata(L, (void *)a);
  if (lua_pcall(L, 1, 1, 0) != LUA_OK) return lua_failure(L, STRATA_EARG, err);
  return STRATA_OK;
}

strata_status strata_lua_world_new(lua_State *L, int64_t seed, const char *const *mods, size_t nmods,
                                   const char *mod_path, strata_error *err) {
  new_args a = {seed, mods, nmods, mod_path, NULL};
  return run_new(L, &a, err);
}

strata_status strata_lua_world_open(lua_State *L, const char *path, const char *mod_path,
                                    strata_error *err) {
  if (!path) return strata_error_in(err, STRATA_EARG, "strata_lua_world_open", "path is NULL");
  new_args a = {0, NULL, 0, mod_path, path};
  return run_new(L, &a, err);
}

/* [-0, +2] the world's state and runtime userdata, checked (raises otherwise). */
static int world_parts(lua_State *L) {
  if (!lua_istable(L, 1)) return luaL_error(L, "not a strata world (a %s)", luaL_typename(L, 1));
  lua_getfield(L, 1, "_s");
  lua_getfield(L, 1, "_rt");
  if (!luaL_testudata(L, 2, "strata.world_state") || !luaL_testudata(L, 3, "strata.runtime"))
    return luaL_error(L, "not a strata world made by the host (a mod's view, or another table)");
  strata_world **w = lua_touserdata(L, lua_upvalueindex(1));
  lruntime **lr = lua_touserdata(L, lua_upvalueindex(2));
  *w = lstrata_check_world(L, 2);
  *lr = lstrata_check_runtime(L, 3);
  return 0;
}

/* The parts of the Lua world at idx, or EARG. */
static strata_status parts(lua_State *L, int idx, strata_world **w, lruntime **lr, const char *fn,
                           strata_error *err) {
  idx = lua_absindex(L, idx);
  lua_pushlightuserdata(L, w);
  lua_pushlightuserdata(L, lr);
  lua_pushcclosure(L, world_parts, 2);
  lua_pushvalue(L, idx);
  if (lua_pcall(L, 1, 0, 0) != LUA_OK) {
    const char *msg = lua_tostring(L, -1);
    strata_error_set(err, STRATA_EARG, "%s: %s", fn, msg ? msg : "?");
    lua_pop(L, 1);
    return STRATA_EARG;
  }
  return STRATA_OK;
}

strata_status strata_lua_world(lua_State *L, int idx, strata_world **w, strata_runtime **rt,
                               strata_error *err) {
  strata_world *cw = NULL;
  lruntime *lr = NULL;
  strata_status st = parts(L, idx, &cw, &lr, "strata_lua_world", err);
  if (st) return st;
  if (w) *w = cw;
  if (rt) *rt = lr->rt;
  return STRATA_OK;
}

strata_status strata_lua_world_set_host(lua_State *L, int idx, const strata_resolver *first,
                                        strata_error *err) {
  strata_world *cw = NULL;
  lruntime *lr = NULL;
  strata_status st = parts(L, idx, &cw, &lr, "strata_lua_world_set_host", err);
  if (st) return st;
  lr->first = first;
  lstrata_runtime_drop_cache(lr); /* callables the mods answered may be the host's now */
  return STRATA_OK;
}

static int world_save(lua_State *L) {
  lua_getfield(L, 1, "save");
  lua_pushvalue(L, 1);
  lua_pushvalue(L, 2);
  lua_call(L, 2, 0);
  return 0;
}

strata_status strata_lua_world_save(lua_State *L, int idx, const char *path, strata_error *err) {
  idx = lua_absindex(L, idx);
  lua_pushcfunction(L, world_save);
  lua_pushvalue(L, idx);
  lua_pushstring(L, path ? path : "");
  if (lua_pcall(L, 2, 0, 0) != LUA_OK) return lua_failure(L, STRATA_EIO, err);
  return STRATA_OK;
}
