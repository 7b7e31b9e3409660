/* paths.c - what strata.paths (lua/strata/paths.lua) needs from C: where
** the build installs strata's own mods, and realpath(3).
**
**   core.paths.install_mods  absolute directory of the installed mods, for the
**                            prefix the build was configured with
**   core.paths.lua_to_mods   the same directory relative to the installed
**                            strata/ directory of Lua files, for a copy
**                            installed under another prefix
**   core.paths.realpath(p)   the absolute, resolved path, or nil, message
**   core.paths.file_in(dir, p) the resolved path of p when it is a regular
**                            file inside dir (links resolved), or nil, why
**   core.paths.kind(p [, follow]) what is at p ("a regular file", "a FIFO",
**                            ...; strata/file.h), or nil when nothing is
**   core.paths.check_read(p, what) true, or nil, "<what> '<p>': why" unless
**                            p is a regular file that can be read
**   core.paths.read(p, what, max, why) the text of the regular file p, or
**                            nil, message: strata_file_read, at most max bytes
**   core.paths.write(p, data) true, or nil, why: data written whole through
**                            p.tmp and renamed over p, only ever a regular file
*/
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lstrata.h"

#ifndef STRATA_INSTALL_MODS
#define STRATA_INSTALL_MODS ""
#endif
#ifndef STRATA_LUA_TO_MODS
#define STRATA_LUA_TO_MODS ""
#endif

static int l_realpath(lua_State *L) {
  const char *path = lstrata_checkstring(L, 1);
  char *real = realpath(path, NULL);
  if (real == NULL) {
    int e = errno;
    lua_pushnil(L);
    lua_pushfstring(L, "%s: %s", path, strerror(e));
    return 2;
  }
  lua_pushstring(L, real);
  free(real);
  return 1;
}

/* A mod's own file: links cannot lead out of its folder, and only regular
** files count (a FIFO would block the read, a device would never end). */
static int l_file_in(lua_State *L) {
  const char *dir = lstrata_checkstring(L, 1), *path = lstrata_checkstring(L, 2);
  char *rdir = realpath(dir, NULL), *rpath = realpath(path, NULL);
  const char *why = NULL;
  struct stat st;
  size_t n = rdir ? strlen(rdir) : 0;
  if (!rdir) why = "its folder cannot be resolved";
  else if (!rpath) why = "no such file";
  else if (strncmp(rpath, rdir, n) != 0 || rpath[n] != '/') why = "it leads outside the mod's folder";
  else if (stat(rpath, &st) != 0 || !S_ISREG(st.st_mode)) why = "not a regular file";
  if (why) lua_pushnil(L), lua_pushstring(L, why);
  else lua_pushstring(L, rpath), lua_pushnil(L);
  free(rdir);
  free(rpath);
  return 2;
}

static int l_kind(lua_State *L) {
  const char *kind = strata_file_kind(lstrata_checkstring(L, 1), lua_isnoneornil(L, 2) || lua_toboolean(L, 2));
  if (kind) lua_pushstring(L, kind);
  else lua_pushnil(L);
  return 1;
}

/* true, or nil and the error's message */
static int push_result(lua_State *L, strata_status st, const strata_error *err) {
  if (st == STRATA_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  lua_pushnil(L);
  lua_pushstring(L, err->message);
  return 2;
}

static int l_check_read(lua_State *L) {
  strata_error err;
  const char *path = lstrata_checkstring(L, 1), *what = lstrata_checkstring(L, 2);
  return push_result(L, strata_file_check_read(path, what, &err), &err);
}

static int l_read(lua_State *L) {
  strata_error err;
  const char *path = lstrata_checkstring(L, 1), *what = lstrata_checkstring(L, 2);
  lua_Integer max = lstrata_checkinteger(L, 3);
  const char *why = lstrata_checkstring(L, 4);
  char *text;
  size_t len;
  lstrata_argcheck(L, max >= 0, 3, "expected a size");
  if (strata_file_read(path, (size_t)max, what, why, &text, &len, &err) != STRATA_OK)
    return push_result(L, STRATA_EIO, &err);
  lua_pushlstring(L, text, len);
  strata_free(text);
  return 1;
}

static int l_write(lua_State *L) {
  size_t len;
  const char *path = lstrata_checkstring(L, 1), *data = lstrata_checklstring(L, 2, &len);
  strata_error err;
  return push_result(L, strata_file_write(path, data, len, &err), &err);
}

void lstrata_open_paths(lua_State *L) {
  static const luaL_Reg funcs[] = {
    {"realpath", l_realpath}, {"file_in", l_file_in}, {"kind", l_kind},
    {"check_read", l_check_read}, {"read", l_read}, {"write", l_write}, {NULL, NULL}};
  lstrata_add_functions(L, "paths", 0, funcs);
  static const char *const where[][2] = {
    {"install_mods", STRATA_INSTALL_MODS}, {"lua_to_mods", STRATA_LUA_TO_MODS}};
  lua_getfield(L, -1, "paths");
  for (size_t i = 0; i < sizeof where / sizeof where[0]; i++) {
    lua_pushstring(L, where[i][1]);
    lua_setfield(L, -2, where[i][0]);
  }
  lua_pop(L, 1);
}
