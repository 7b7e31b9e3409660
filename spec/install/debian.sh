#!/bin/sh
# spec/install/debian.sh: a packager's configure, `cmake -DBUILD_TESTING=OFF`
# with none of the tools the tests need and without luv and libuv (hidden:
# pkg-config sees only sqlite3, zlib and lua5.4), succeeds and plans to build
# the libraries and the Lua module alone: no executable, no test, no
# benchmark, busted never looked for, no -Werror. Configure only: the rock
# check (spec/install/rock.sh) builds such a configuration.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/pc"
for pc in sqlite3 zlib lua5.4; do
  ln -s "$(pkg-config --variable=pcfiledir $pc)/$pc.pc" "$work/pc/"
done
if ! PKG_CONFIG_LIBDIR="$work/pc" PKG_CONFIG_PATH= cmake -S "$root" -B "$work/build" -DBUILD_TESTING=OFF \
    >"$work/configure.log" 2>&1; then
  cat "$work/configure.log" >&2
  echo "a configure with BUILD_TESTING=OFF, without luv, failed" >&2
  exit 1
fi
cache=$work/build/CMakeCache.txt
fail() { echo "BUILD_TESTING=OFF, no luv: $1" >&2; exit 1; }
grep -q '^BUSTED:' "$cache" && fail "busted was looked for"
grep -q '^STRATA_DEV:BOOL=OFF$' "$cache" || fail "STRATA_DEV is not off by default"
grep -q "the strata executable is not built" "$work/configure.log" || fail "no word that the executable is left out"
targets=$(cmake --build "$work/build" --target help | sed -n 's/^\.\.\. \([^ ]*\).*/\1/p')
for t in strata_shared strata_static strata_lua strata_embed; do
  printf '%s\n' "$targets" | grep -qx "$t" || fail "no target $t"
done
for t in strata_host strata_man c_tests test_world bench_grid strata_hooked; do
  printf '%s\n' "$targets" | grep -qx "$t" && fail "a target $t"
done
[ -f "$work/build/CTestTestfile.cmake" ] && fail "tests registered"
echo "BUILD_TESTING=OFF without luv or busted: configures the libraries and the module alone"
