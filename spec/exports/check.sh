#!/bin/sh
# spec/exports/check.sh LIBRARY: libstrata exports strata_* functions only.
# The library is built with -fvisibility=hidden and the public headers mark
# their declarations STRATA_API (strata/api.h); this fails on any other
# symbol the shared library defines, and on a public function that is not
# exported (a declaration that lost its STRATA_API).
set -eu
lib=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
syms=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | sed 's/@.*//' | sort -u)
bad=$(printf '%s\n' "$syms" | grep -v '^strata_' || true)
if [ -n "$bad" ]; then
  echo "libstrata exports symbols without the strata_ prefix:" >&2
  printf '%s\n' "$bad" >&2
  exit 1
fi
# every function the public headers declare is marked, and exported
unmarked=$(grep -nE '^(const |unsigned )?[A-Za-z_0-9]+( \*+| )\*?strata_[a-z0-9_]+\(' \
  $(ls "$root"/core/include/strata/*.h | grep -v '/api.h$') | grep -vE ':(typedef|static|STRATA_API)' || true)
if [ -n "$unmarked" ]; then
  echo "public declarations without STRATA_API (hidden from the shared library):" >&2
  printf '%s\n' "$unmarked" >&2
  exit 1
fi
declared=$(grep -h '^STRATA_API ' $(ls "$root"/core/include/strata/*.h | grep -v '/api.h$') | grep -o '^[^(]*(' | sed -E 's/.*[ *](strata_[a-z0-9_]+)\($/\1/' | sort -u)
missing=$(printf '%s\n' "$declared" | while read -r f; do printf '%s\n' "$syms" | grep -qx "$f" || echo "$f"; done)
if [ -n "$missing" ]; then
  echo "declared STRATA_API but not exported:" >&2
  printf '%s\n' "$missing" >&2
  exit 1
fi
echo "libstrata exports $(printf '%s\n' "$syms" | wc -l) symbols, all strata_*; every STRATA_API declaration among them"
