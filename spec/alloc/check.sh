#!/bin/sh
# spec/alloc/check.sh: the core allocates its own memory through strata_malloc
# & co. (core/src/alloc.c), so that a host's allocator (strata_set_allocator)
# sees every block. This fails on any call of the C library's malloc, calloc,
# realloc, free, strdup or strndup left in core/src outside alloc.c, unless
# spec/alloc/allowed.txt lists it (memory the C library or SQLite made and
# expects back, each with its reason), and on an entry there no longer used.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
allowed="$root/spec/alloc/allowed.txt"
cd "$root"
. "$root/spec/allowlist.sh"
# "file: code" for each call, comments left out (a line that opens with /*,
# ** or //, and the text after /* or // on a line of code).
calls=$(for f in core/src/*.c core/src/*.h; do
  [ "$f" = core/src/alloc.c ] && continue
  sed -e 's|/\*.*||' -e 's|//.*||' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' "$f" |
    grep -E '(^|[^A-Za-z0-9_.>])(malloc|calloc|realloc|free|strdup|strndup|reallocarray)[[:space:]]*\(' |
    sed "s|^|$f: |" || true
done)
# the allowlist's keys: "file: code  # reason", the reason required
keys=$(allowlist_keys "$allowed")
status=0
allowlist_reasons "$allowed" || status=1
bad=$(printf '%s\n' "$calls" | grep -v '^$' | grep -vxF "$keys" || true)
if [ -n "$bad" ]; then
  echo "the C library's allocator called in core/src (use strata_malloc & co., strata/alloc.h):" >&2
  printf '%s\n' "$bad" >&2
  status=1
fi
stale=$(printf '%s\n' "$keys" | grep -v '^$' | grep -vxF "$calls" || true)
if [ -n "$stale" ]; then
  echo "spec/alloc/allowed.txt: entries that match no call any more:" >&2
  printf '%s\n' "$stale" >&2
  status=1
fi
[ "$status" = 0 ] && echo "core/src allocates through strata_malloc & co.; $(printf '%s\n' "$keys" | grep -c . || true) allowed C library calls"
exit $status
