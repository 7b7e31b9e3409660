-- The LuaRocks package of strata: the module strata.core, the Lua files of
-- strata, and strata's own mods. `luarocks make` (in a clone; LuaRocks finds
-- this file under rockspecs/) builds it with CMake, as a packager would:
-- no tests (BUILD_TESTING off), no -Werror, no executable (the `strata`
-- command comes with `cmake --install`). CMAKE_BUILD_PARALLEL_LEVEL=N in the
-- environment builds on N cores.
rockspec_format = "3.0"
package = "strata"
version = "scm-1"
-- No public address yet: `luarocks make` builds the clone it runs in.
source = { url = "git+file://." }
description = {
  summary = "A game-world runtime for text and tile games: maps, areas, objects, time, paths, mods",
  detailed = [[
A C core owns tile maps, XY maps, areas and floors, the world's objects,
timers and saves, the pathfinder and a map generator language; the Lua 5.4
module (require "strata") lets sandboxed mods register their logic by ID.]],
  license = "MIT",
  labels = { "game", "roguelike", "pathfinding", "procedural-generation" },
}
dependencies = { "lua >= 5.4, < 5.5" }
-- Debian: liblua5.4-dev, libsqlite3-dev, zlib1g-dev, cmake, pkg-config.
external_dependencies = {
  SQLITE3 = { header = "sqlite3.h" },
  ZLIB = { header = "zlib.h" },
}
build = {
  type = "cmake",
  variables = {
    CMAKE_BUILD_TYPE = "RelWithDebInfo",
    CMAKE_INSTALL_PREFIX = "$(PREFIX)",
    BUILD_TESTING = "OFF",
    STRATA_WITH_HOST = "OFF",
    -- What LuaRocks deploys: the module into its lib tree, the Lua files
    -- into its Lua tree. The mods stay in the rock's own directory (strata
    -- finds them there: the path is compiled into strata.core); the C
    -- libraries, headers and documentation too, under clib/, include/, share/,
    -- where LuaRocks leaves them alone (it deploys only lua/, lib/ and bin/).
    STRATA_LUA_CMOD_DIR = "$(LIBDIR)",
    STRATA_LUA_DIR = "$(LUADIR)",
    STRATA_MODS_DIR = "$(PREFIX)/mods",
    CMAKE_INSTALL_LIBDIR = "clib",
  },
}
