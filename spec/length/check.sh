#!/bin/sh
# spec/length/check.sh: no function in core/src runs over 120 lines (from the
# line of its name to its closing brace, as spec/length/functions.awk counts);
# a longer one is split into named steps. This lists each offender with its
# length, unless spec/length/allowed.txt names it with a reason, and fails on
# an entry there that is no longer over the limit.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
allowed="$root/spec/length/allowed.txt"
limit=120
cd "$root"
. "$root/spec/allowlist.sh"
lengths=$(awk -f spec/length/functions.awk core/src/*.c)
long=$(printf '%s\n' "$lengths" | awk -v limit="$limit" '$2 > limit')
# the allowlist's keys: "core/src/FILE.c:FUNCTION  # reason", the reason required
keys=$(allowlist_keys "$allowed")
status=0
allowlist_reasons "$allowed" || status=1
bad=$(printf '%s\n' "$long" | grep -v '^$' | while read -r fn n; do
  printf '%s\n' "$keys" | grep -qxF "$fn" || echo "$fn: $n lines"
done)
if [ -n "$bad" ]; then
  echo "functions in core/src over $limit lines (split them into named steps):" >&2
  printf '%s\n' "$bad" >&2
  status=1
fi
stale=$(printf '%s\n' "$keys" | grep -v '^$' | while read -r fn; do
  printf '%s\n' "$long" | awk -v fn="$fn" '$1 == fn { found = 1 } END { exit !found }' || echo "$fn"
done)
if [ -n "$stale" ]; then
  echo "spec/length/allowed.txt: entries no longer over $limit lines (remove them):" >&2
  printf '%s\n' "$stale" >&2
  status=1
fi
[ "$status" = 0 ] && echo "core/src: $(printf '%s\n' "$lengths" | grep -c .) functions, none over $limit lines but $(printf '%s\n' "$keys" | grep -c . || true) allowed"
exit $status
