#!/bin/sh
# The install test: `cmake --install` into a scratch prefix, then a C game
# builds against it with find_package and with pkg-config, and Lua 5.4
# requires the installed module and runs the installed host. The installed
# versions (strata_version(), STRATA_VERSION, strata.version, strata
# --version and -V, the .pc files) are project()'s; strata.1 renders without
# a warning; the documentation and the licence are in the doc directory.
set -eu
build=$1
src=$(cd "$(dirname "$0")" && pwd)
version=$(sed -n 's/^project(strata VERSION \([0-9.]*\).*/\1/p' "$src/../../CMakeLists.txt")
[ -n "$version" ] || { echo "no project(strata VERSION ...) in CMakeLists.txt" >&2; exit 1; }
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/ | head -n 1)

cmake -S "$src" -B "$prefix/consumer" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$prefix/consumer" >/dev/null
LD_LIBRARY_PATH="$libdir" "$prefix/consumer/consumer" "$prefix/game.db" | grep -q "20 cells, cost 22.31"
echo "find_package(strata): ok"

PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$prefix/consumer_pc" "$src/consumer.c" \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs strata)
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_pc" "$prefix/game2.db" >"$prefix/consumer.out"
grep -q "reopened: 1 object(s), map 20x5" "$prefix/consumer.out"
grep -qx "strata $version (headers $version)" "$prefix/consumer.out" ||
  { echo "strata_version(), STRATA_VERSION: not $version: $(tail -n 1 "$prefix/consumer.out")" >&2; exit 1; }
for pc in strata strata_lua; do
  got=$(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --modversion $pc)
  [ "$got" = "$version" ] || { echo "pkg-config $pc: version $got, not $version" >&2; exit 1; }
done
echo "pkg-config strata: ok ($version)"

# A C host running Lua mods finds libstrata_lua through strata_lua.pc.
PKG_CONFIG_PATH="$libdir/pkgconfig" cc -o "$prefix/host_pc" -x c - \
  $(PKG_CONFIG_PATH="$libdir/pkgconfig" pkg-config --cflags --libs strata_lua) <<'EOF'
#include <lua.h>
#include <stdio.h>
#include <strata/lua.h>
#include <strata/strata.h>
int main(void) {
  strata_error err;
  lua_State *L = strata_lua_new(NULL, &err);
  if (L == NULL) { fprintf(stderr, "%s\n", err.message); return 1; }
  printf("strata_lua %s\n", strata_version());
  lua_close(L);
  return 0;
}
EOF
LD_LIBRARY_PATH="$libdir" "$prefix/host_pc" | grep -qx "strata_lua $version"
echo "pkg-config strata_lua: ok"

# The manual page renders, without a warning, with a section per command.
MANWIDTH=80 man --warnings -l "$prefix/share/man/man1/strata.1" >"$prefix/man.txt" 2>"$prefix/man.err"
if [ -s "$prefix/man.err" ]; then echo "man -l strata.1 warns:" >&2; cat "$prefix/man.err" >&2; exit 1; fi
for cmd in run layout render play worldgen grid; do
  grep -q "usage: strata $cmd" "$prefix/man.txt" || { echo "strata.1 has no section for $cmd" >&2; exit 1; }
done
echo "man strata: ok"

# The documentation and the licence, under the doc directory.
for f in LICENSE README.md CHANGELOG.md docs/lua-api.md docs/c-api.md docs/embedding.md; do
  [ -f "$prefix/share/doc/strata/$f" ] || { echo "not installed: share/doc/strata/$f" >&2; exit 1; }
done
echo "docs, LICENSE: ok"

# Lua finds the module and the Lua files in the prefix's standard 5.4 layout.
LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
LUA_CPATH="$libdir/lua/5.4/?.so;;" \
  lua5.4 -e 'local s = require "strata"; assert(s.tilemap.new{ width = 2, height = 2 }); print(s.version)' |
  grep -qx "$version"
for flag in --version -V; do
  STRATA_LUA_DIR="$prefix/share/lua/5.4" "$prefix/bin/strata" $flag | grep -q "^strata $version " ||
    { echo "strata $flag does not say $version" >&2; exit 1; }
done
echo "installed host: ok"

# LuaJIT finds strata.ffi on its own path (share/lua/5.1) and libstrata
# beside it in the prefix, with nothing set (docs/luajit.md); 5.4's path has
# no copy of it.
if command -v luajit >/dev/null 2>&1; then
  env -u STRATA_FFI_LIB LUA_PATH="$prefix/share/lua/5.1/?.lua;;" LUA_CPATH=";;" luajit -e \
    'local s = require "strata.ffi"; assert(s.tilemap.new{ width = 2, height = 2 }); print(s.version)' |
    grep -qx "$version" || { echo "luajit: require \"strata.ffi\" from the prefix failed" >&2; exit 1; }
  [ ! -e "$prefix/share/lua/5.4/strata/ffi.lua" ] || { echo "strata.ffi is on 5.4's path" >&2; exit 1; }
  echo "luajit, strata.ffi: ok"
fi

# The installed host finds its Lua files beside itself (the prefix is not the
# configured one), and both it and plain Lua find the installed base mod from
# a directory without a mods folder.
mods=$(realpath "$prefix/share/strata/mods")
work=$prefix/work
mkdir "$work"
cat >"$work/world.lua" <<'EOF'
local strata = require "strata"
local want = ...
assert(strata.paths.builtin_mods() == want, strata.paths.builtin_mods() .. " is not " .. want)
local w = strata.world.new{ seed = 1 }        -- no mod_path: strata's own mods are found
assert(w.time == 0)
assert(w:create_map{ width = 2, height = 1, fill = "wall" }:render() == "##\n")
print("base found")
EOF
(cd "$work" && "$prefix/bin/strata" run world.lua "$mods") | grep -q "^base found$"
echo "installed host, moved prefix, base mod: ok"
# The layouts strata ships (the installed examples mod) preview from there too.
(cd "$work" && NO_COLOR=1 "$prefix/bin/strata" layout examples.cave) | grep -q "<" ||
  { echo "strata layout examples.cave: no preview from the installed examples mod" >&2; exit 1; }
echo "installed host, shipped layouts: ok"
(cd "$work" && LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
  LUA_CPATH="$libdir/lua/5.4/?.so;;" lua5.4 world.lua "$mods") | grep -q "^base found$"
echo "lua5.4, base mod: ok"
