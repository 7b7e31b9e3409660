# spec/allowlist.sh: sourced by the checks that let listed exceptions pass
# (spec/alloc/check.sh, spec/length/check.sh). Their lists hold one entry a
# line, "KEY  # why", the reason required; lines opening with # are comments.

# allowlist_keys FILE: the entries' keys, one a line.
allowlist_keys() {
  grep -v '^[[:space:]]*\(#\|$\)' "$1" | sed 's/[[:space:]]*#.*//' || true
}

# allowlist_reasons FILE: fails, naming them, on entries without a reason.
allowlist_reasons() {
  noreason=$(grep -v '^[[:space:]]*\(#\|$\)' "$1" | grep -v '#[[:space:]]*[^[:space:]]' || true)
  [ -z "$noreason" ] && return 0
  echo "${1#"$root"/}: entries without a reason (\"  # why\"):" >&2
  printf '%s\n' "$noreason" >&2
  return 1
}
