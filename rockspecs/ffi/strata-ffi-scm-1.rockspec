-- The LuaRocks package of strata.ffi, strata for LuaJIT (docs/luajit.md):
-- the Lua files of strata.ffi and libstrata itself, no Lua 5.4 and no C
-- module. `luarocks --lua-version=5.1 make rockspecs/ffi/strata-ffi-scm-1.rockspec`
-- (in a clone) builds the library with CMake, as a packager would (no tests,
-- no -Werror), and puts it in the tree's C module folder (lib/lua/5.1/),
-- where strata.ffi finds it on package.cpath; the Lua files go to the
-- tree's Lua folder. CMAKE_BUILD_PARALLEL_LEVEL=N builds on N cores.
rockspec_format = "3.0"
package = "strata-ffi"
version = "scm-1"
-- No public address yet: `luarocks make` builds the clone it runs in.
source = { url = "git+file://." }
description = {
  summary = "strata for LuaJIT: tile maps, paths, fields of view, layouts, XY maps through the FFI",
  detailed = [[
strata.ffi is libstrata (a C game-world runtime: tile maps, the pathfinder,
fields of view, distance maps, layouts, XY maps, world templates) for LuaJIT
programs such as LÖVE games, through LuaJIT's FFI: require "strata.ffi".]],
  license = "MIT",
  labels = { "game", "roguelike", "pathfinding", "luajit", "love" },
}
dependencies = { "lua == 5.1" } -- LuaJIT (its FFI: the module checks for it)
-- Debian: libsqlite3-dev, zlib1g-dev, cmake, pkg-config.
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
    STRATA_WITH_LUA = "OFF",
    -- What LuaRocks deploys: a plain libstrata.so into its C module tree,
    -- the Lua files into its Lua tree; the libraries as CMake installs them
    -- (with their .so.0 links), headers and documentation stay in the rock's
    -- own directory (clib/, include/, share/), where LuaRocks leaves them.
    CMAKE_INSTALL_LIBDIR = "clib",
    STRATA_FFI_LIB_DIR = "$(LIBDIR)",
    STRATA_FFI_LUA_DIR = "$(LUADIR)",
  },
}
