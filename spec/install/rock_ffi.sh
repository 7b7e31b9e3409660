#!/bin/sh
# spec/install/rock_ffi.sh: the LuaRocks package of strata.ffi as a LuaJIT
# game gets it. A clone of the source tree (with what is not committed yet)
# in a scratch folder, `luarocks --lua-version=5.1 make` of
# rockspecs/ffi/strata-ffi-scm-1.rockspec there, then, with the tree's paths
# only (`luarocks path`), `require "strata.ffi"` from another folder finds
# libstrata in the tree and finds a route.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
command -v luarocks >/dev/null || { echo "spec/install/rock_ffi.sh: luarocks not found (scripts/deps installs it)" >&2; exit 1; }
command -v luajit >/dev/null || { echo "spec/install/rock_ffi.sh: luajit not found (scripts/deps installs it)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/src tree=$work/T
sh "$root/spec/install/clone.sh" "$root" "$src"

if ! (cd "$src" && CMAKE_BUILD_PARALLEL_LEVEL=${STRATA_JOBS:-$(nproc)} \
    luarocks --lua-version=5.1 make --tree "$tree" rockspecs/ffi/strata-ffi-scm-1.rockspec) >"$work/make.log" 2>&1; then
  tail -n 40 "$work/make.log" >&2
  echo "luarocks make (strata-ffi) failed" >&2
  exit 1
fi
echo "luarocks make strata-ffi: ok"
mkdir "$work/elsewhere"
paths=$(luarocks --lua-version=5.1 --tree "$tree" path)
(cd "$work/elsewhere" && eval "$paths" && env -u STRATA_FFI_LIB -u LD_LIBRARY_PATH luajit -e '
  local strata = require "strata.ffi"
  local m = strata.tilemap.new{ width = 20, height = 5, fill = "floor" }
  local p = assert(m:find_path({ 0, 0 }, { 19, 4 }, { connectivity = 8 }))
  print(#p, ("%.2f"):format(p.cost)))') | grep -qx "20	20.66" || { echo "require \"strata.ffi\" from the rock failed" >&2; exit 1; }
echo "require \"strata.ffi\" from the rock: ok"
