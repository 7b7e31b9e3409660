/*
** main.c - the `strata` host executable: Lua 5.4 with the strata module and
** luv built in. Everything it does is written in Lua (lua/strata/cli.lua);
** this file only makes the interpreter, finds the Lua files and hands over
** the command line.
*/
#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>
#include <luv/luv.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lstrata.h"

/* True when path names an existing file. */
static int exists(const char *path) { return access(path, R_OK) == 0; }

/* The directory of the Lua files: STRATA_LUA_DIR if set; the source tree
** when this executable is the one in a build tree (CMakeCache.txt beside
** it); the installed copy beside this executable (<bindir>/STRATA_BIN_TO_LUA,
** so that an install moved or made with `cmake --install --prefix DIR`
** finds its own files); the configured install directory otherwise.
** strata.paths then finds the built-in mods from where these files are. */
static const char *scripts_dir(void) {
  static char found[4096 + 64];
  const char *env = getenv("STRATA_LUA_DIR");
  if (env && *env) return env;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0 && (size_t)n < sizeof exe - 1) {
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash) {
      *slash = '\0';
      snprintf(found, sizeof found, "%s/CMakeCache.txt", exe);
      if (exists(found)) return STRATA_SOURCE_LUA;
      snprintf(found, sizeof found, "%s/%s/strata/cli.lua", exe, STRATA_BIN_TO_LUA);
      if (exists(found)) {
        snprintf(found, sizeof found, "%s/%s", exe, STRATA_BIN_TO_LUA);
        return found;
      }
    }
  }
  return STRATA_INSTALL_SCRIPTS;
}

static void preload(lua_State *L, const char *name, lua_CFunction open) {
  luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_PRELOAD_TABLE);
  lua_pushcfunction(L, open);
  lua_setfield(L, -2, name);
  lua_pop(L, 1);
}

static int traceback(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (msg == NULL) msg = luaL_tolstring(L, 1, NULL);
  if (getenv("STRATA_TRACEBACK")) luaL_traceback(L, L, msg, 1);
  else lua_pushstring(L, msg);
  return 1;
}

/* Runs require("strata.cli").main(args...) and returns its exit status. */
static int pmain(lua_State *L) {
  int argc = (int)lua_tointeger(L, 1);
  char **argv = lua_touserdata(L, 2);
  luaL_openlibs(L);
  preload(L, "strata.core", lstrata_open_core);
  preload(L, "luv", luaopen_luv);
  const char *dir = scripts_dir();
  lua_getglobal(L, "package");
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", dir, dir);
  lua_getfield(L, -2, "path");
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_pop(L, 1);
  lua_getglobal(L, "require");
  lua_pushliteral(L, "strata.cli");
  lua_call(L, 1, 1);
  lua_getfield(L, -1, "main");
  for (int i = 1; i < argc; i++) lua_pushstring(L, argv[i]);
  lua_call(L, argc - 1, 1);
  return 1;
}

int main(int argc, char **argv) {
  /* A write past the file size limit fails with EFBIG, which the writer
  ** reports (and cleans up after), instead of killing the process. */
  signal(SIGXFSZ, SIG_IGN);
  lua_State *L = luaL_newstate();
  if (L == NULL) {
    fputs("strata: cannot create a Lua state: out of memory\n", stderr);
    return 1;
  }
  lua_pushcfunction(L, traceback);
  lua_pushcfunction(L, pmain);
  lua_pushinteger(L, argc);
  lua_pushlightuserdata(L, argv);
  int status = lua_pcall(L, 2, 1, 1);
  int code = 0;
  if (status != LUA_OK) {
    fprintf(stderr, "strata: %s\n", lua_tostring(L, -1));
    code = 1;
  } else if (lua_isinteger(L, -1)) {
    code = (int)lua_tointeger(L, -1);
  }
  lua_close(L);
  /* The last line of defence for output printed without a check (a script's
  ** print): a write that failed, or the final flush, is not a success. The
  ** commands' own writes are checked where they happen (strata.cli). */
  errno = 0;
  if (code == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
    /* After a failed write, errno is long gone: say what is known. */
    const char *why = errno ? strerror(errno) : "a write failed";
    if (argc > 1) fprintf(stderr, "strata: %s: cannot write to standard output: %s\n", argv[1], why);
    else fprintf(stderr, "strata: cannot write to standard output: %s\n", why);
    code = 1;
  }
  return code;
}
