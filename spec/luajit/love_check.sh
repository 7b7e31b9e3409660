#!/bin/sh
# The LÖVE example headless (CTest love/example): LÖVE under xvfb-run plays
# scripted keys (to the stairs, down, to the stairs up, save, a step, load), checks a
# screenshot's colours at a few cells (examples/love/main.lua) and exits 0;
# then the save it made opens in `strata play`, on the floor it was saved on.
# Exit 77 (CTest: skipped) when love or xvfb-run is missing.
#   love_check.sh STRATA_BIN LIBSTRATA   (from the source tree's root)
set -u
bin=$1 lib=$2
for tool in love xvfb-run; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "love/example skipped: $tool is not installed (Debian: love, xvfb)"
    exit 77
  fi
done
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
root=$(pwd)
out=$(STRATA_LOVE_SAVE="$dir/crypt.db" STRATA_LOVE_SCRIPT="g > g s l L" LUA_PATH="$root/lua/?.lua;;" \
      STRATA_FFI_LIB="$lib" HOME="$dir" timeout 120 xvfb-run -a love examples/love 2>&1)
status=$?
echo "$out"
[ "$status" -eq 0 ] || { echo "love/example: love exited $status"; exit 1; }
echo "$out" | grep -q "^love example: ok, .* floor 2 " || { echo "love/example: no verdict on floor 2"; exit 1; }
printf 'q' > "$dir/keys.txt"
play=$("$bin" play "$dir/crypt.db" --mod-path examples/love/mods --script "$dir/keys.txt" 2>&1)
status=$?
echo "$play" | tail -3
[ "$status" -eq 0 ] || { echo "love/example: strata play exited $status"; exit 1; }
# (the hero stepped after the save: L put him back where strata play finds him)
at=$(echo "$out" | sed -n 's/^love example: ok, .* floor 2 at (\([0-9]*, [0-9]*\)).*/\1/p')
echo "$play" | grep -q "love.crypt | floor 2 | ($at) " || { echo "love/example: strata play is not at ($at) on floor 2 of the crypt"; exit 1; }
