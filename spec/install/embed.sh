#!/bin/sh
# spec/install/embed.sh BUILD_DIR [asan]: installs BUILD_DIR into a scratch
# prefix, builds examples/embed (the cellar, a C game running C logic and a
# Lua mod) from that prefix alone, runs it from a folder outside the source
# tree and compares its turns with examples/embed/expected.txt. With `asan`
# the example is built with AddressSanitizer + UndefinedBehaviorSanitizer
# (scripts/test passes its ASan build, so the library is instrumented too)
# and run with leak detection. The C world's part moves through the core
# alone (strata_move, strata_go through grid and branch exits, a stored walk).
set -eu
build=$(cd "$1" && pwd)
mode=${2:-plain}
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(ls -d "$prefix"/lib*/ | head -n 1)
# The game's sources and mod, copied: the build sees the prefix, not the tree.
cp -R "$root/examples/embed" "$prefix/cellar-src"
set -- -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Debug
if [ "$mode" = asan ]; then
  set -- "$@" "-DCMAKE_C_FLAGS=-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
    -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined
fi
cmake -S "$prefix/cellar-src" -B "$prefix/cellar-build" "$@" >/dev/null
cmake --build "$prefix/cellar-build" >/dev/null
mkdir "$prefix/run"
(cd "$prefix/run" && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 LD_LIBRARY_PATH="$libdir" \
  "$prefix/cellar-build/cellar" "$prefix/cellar-src/mods" .) >"$prefix/out.txt"
if ! diff -u "$root/examples/embed/expected.txt" "$prefix/out.txt"; then
  echo "examples/embed ($mode): the turns differ from examples/embed/expected.txt" >&2
  exit 1
fi
# The moves are the core's: C callbacks saw them, refused one, and a stored walk went on after the reopen.
for line in '[C callback] base.before_move: refused' '[C callback] base.moved: into Cave, depth 1' 'the walk: arrived'; do
  grep -qF "$line" "$prefix/out.txt" || { echo "examples/embed ($mode): no line '$line'" >&2; exit 1; }
done
echo "examples/embed ($mode): $(grep -c '^turn ' "$prefix/out.txt") turns as expected"
