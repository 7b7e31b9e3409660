#!/bin/sh
# spec/stores.sh URI_FILE BUSTED: the PostgreSQL halves of the store specs
# (support.each_store's "in PostgreSQL" cases: worlds saved, reopened,
# copied, killed mid-save, rows changed behind strata's back) against a
# server: $STRATA_PG_URI, else the first line of URI_FILE (CTest's fixture
# pg_server writes it). Their SQLite halves run in the busted suite. Exit 77
# (skipped) with one line saying why when there is no server or this strata
# does not store worlds there yet.
set -eu
uri_file=$1
busted=$2
if [ -z "${STRATA_PG_URI:-}" ]; then
  if [ ! -s "$uri_file" ]; then
    echo "skipped: no PostgreSQL server (no $uri_file: scripts/pg skipped it, PostgreSQL not installed?)"
    exit 77
  fi
  STRATA_PG_URI=$(head -n 1 "$uri_file")
  export STRATA_PG_URI
fi
# the store's probe (spec/support.lua): a world saved there and opened again
why=$(lua5.4 -e 'for _, s in ipairs(require("support").stores()) do if s.skip then print(s.skip) end end')
if [ -n "$why" ]; then
  echo "skipped: $why"
  exit 77
fi
exec "$busted" --lua=lua5.4 -o utfTerminal --filter=PostgreSQL \
  spec/copy_spec.lua spec/world_save_spec.lua spec/world_json_spec.lua \
  spec/save_generation_spec.lua spec/save_crash_spec.lua spec/damaged_saves_spec.lua
