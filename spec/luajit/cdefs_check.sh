#!/bin/sh
# spec/luajit/cdefs_check.sh BUILD_DIR: lua/strata/ffi/cdefs.lua is what
# scripts/gen_ffi_cdefs makes of this tree's headers (core/include, and
# BUILD_DIR/include for strata/version.h); a header changed without the
# cdefs made again fails, saying how to make them.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
out=$(mktemp)
trap 'rm -f "$out"' EXIT
lua5.4 "$root/scripts/gen_ffi_cdefs" "$root/core/include" "$build/include" >"$out"
if ! diff -u "$root/lua/strata/ffi/cdefs.lua" "$out"; then
  echo "lua/strata/ffi/cdefs.lua is stale: run scripts/gen_ffi_cdefs -o lua/strata/ffi/cdefs.lua" >&2
  exit 1
fi
echo "strata.ffi cdefs: up to date"
