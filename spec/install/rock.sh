#!/bin/sh
# spec/install/rock.sh [--all]: the LuaRocks package as a Lua modder gets it.
# A clone of the source tree (with what is not committed yet) in a scratch
# folder, `luarocks make --tree T` there (rockspecs/: a packager's
# build, no tests, no executable), then, with T's paths only:
# `require "strata"` from another folder exits 0; the rock put strata.core
# alone in T's module tree, built without -z nodelete; and busted passes
# spec/packaging_spec.lua (a mod's C memory limit, the clean exit), or with
# --all every spec of spec/install/rock_specs.txt (a few minutes).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
all=${1:-}
command -v luarocks >/dev/null || { echo "spec/install/rock.sh: luarocks not found (scripts/deps installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src tree=$work/T
sh "$root/spec/install/clone.sh" "$root" "$src"

if ! (cd "$src" && CMAKE_BUILD_PARALLEL_LEVEL=${STRATA_JOBS:-$(nproc)} \
    luarocks --lua-version=5.4 make --tree "$tree") >"$work/make.log" 2>&1; then
  tail -n 40 "$work/make.log" >&2
  echo "luarocks make failed" >&2
  exit 1
fi
echo "luarocks make: ok"

lpath="$tree/share/lua/5.4/?.lua;$tree/share/lua/5.4/?/init.lua"
cpath="$tree/lib/lua/5.4/?.so"
mkdir "$work/elsewhere"
(cd "$work/elsewhere" && LUA_PATH="$lpath;;" LUA_CPATH="$cpath;;" lua5.4 -e 'require "strata"')
modules=$(cd "$tree/lib/lua/5.4" && find . -type f | sort)
[ "$modules" = "./strata/core.so" ] || { echo "the rock's module tree holds: $modules" >&2; exit 1; }
if readelf -d "$tree/lib/lua/5.4/strata/core.so" | grep -q NODELETE; then
  echo "strata.core is linked with -z nodelete: it must be safe to unload" >&2
  exit 1
fi
echo "require \"strata\" from the rock: ok"

if [ "$all" = --all ]; then
  specs=$(grep -v '^#' "$root/spec/install/rock_specs.txt")
else
  specs=spec/packaging_spec.lua
fi
# shellcheck disable=SC2086
(cd "$src" && LUA_PATH="$lpath;$src/spec/?.lua;;" LUA_CPATH="$cpath;;" STRATA_SOURCE_DIR="$src" NO_COLOR=1 \
  busted --lua=lua5.4 -o utfTerminal $specs)
