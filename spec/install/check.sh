#!/bin/sh
# The install test: `cmake --install` into a scratch prefix, then a C game
# builds against it with find_package and with pkg-config, and Lua 5.4
# requires the installed module and runs the installed host.
set -eu
build=$1
src=$(cd "$(dirname "$0")" && pwd)
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
LD_LIBRARY_PATH="$libdir" "$prefix/consumer_pc" "$prefix/game2.db" | grep -q "reopened: 1 object(s), map 20x5"
echo "pkg-config strata: ok"

# Lua finds the module and the Lua files in the prefix's standard 5.4 layout.
LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
LUA_CPATH="$libdir/lua/5.4/?.so;;" \
  lua5.4 -e 'local s = require "strata"; assert(s.tilemap.new{ width = 2, height = 2 }); print("require strata: ok " .. s.version)'
STRATA_LUA_DIR="$prefix/share/lua/5.4" "$prefix/bin/strata" --version | grep -q "^strata "
echo "installed host: ok"

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
(cd "$work" && LUA_PATH="$prefix/share/lua/5.4/?.lua;$prefix/share/lua/5.4/?/init.lua;;" \
  LUA_CPATH="$libdir/lua/5.4/?.so;;" lua5.4 world.lua "$mods") | grep -q "^base found$"
echo "lua5.4, base mod: ok"
