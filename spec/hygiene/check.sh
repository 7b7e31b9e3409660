#!/bin/sh
# spec/hygiene/check.sh [ROOT]: the build's hygiene (docs/c-api.md,
# "Platforms"), one line for each thing out of place:
# - the library's sources are listed in CMakeLists.txt, not globbed;
# - the binding's sources are compiled by one target (an OBJECT library);
# - no feature macro (_GNU_SOURCE, _DEFAULT_SOURCE, _BSD_SOURCE) is set for
#   the whole build, and a file that sets one says why in a comment just
#   above it (or beside it);
# - the core's headers hold no test hook outside #ifdef STRATA_TEST_HOOKS
#   (a field "set only by spec/..." in a production struct).
set -eu
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"
status=0
bad() { echo "$1" >&2; status=1; }

for l in $(grep -nE 'file\(GLOB[^)]*(core/src|bindings/lua)/\*\.c' CMakeLists.txt | cut -d: -f1); do
  bad "CMakeLists.txt:$l: sources found by file(GLOB); list them"
done

# The binding is compiled once (the OBJECT library strata_bindings) for the
# module, the executable and libstrata_lua, which link its objects.
n=$(grep -c '^[^#]*add_\(library\|executable\)([^)]*\${STRATA_BINDING_SOURCES}' CMakeLists.txt || true)
[ "$n" = 1 ] || bad "CMakeLists.txt: the binding sources are compiled by $n targets; compile them once and link the objects"

for l in $(grep -n '_GNU_SOURCE\|_DEFAULT_SOURCE\|_BSD_SOURCE' CMakeLists.txt | cut -d: -f1); do
  bad "CMakeLists.txt:$l: a feature macro for the whole build; set it in the file that needs it"
done

for f in $(grep -rlE '^#[[:space:]]*define[[:space:]]+_(GNU|DEFAULT|BSD)_SOURCE' core bindings spec/c spec/embed || true); do
  awk -v f="$f" '
    /^#[ \t]*define[ \t]+_(GNU|DEFAULT|BSD)_SOURCE/ {
      if ($0 !~ /\/\*/ && prev !~ /\*\/[ \t]*$/ && prev !~ /^[ \t]*\/\//)
        { print f ":" NR ": " $0 " without a comment above saying why"; bad = 1 }
    }
    !/^#[ \t]*(ifndef|endif)/ { prev = $0 }
    END { exit bad }' "$f" >&2 || status=1
done

for f in core/src/*.h; do
  awk -v f="$f" '
    /^#[ \t]*if/ { depth++; hooks[depth] = ($0 ~ /STRATA_TEST_HOOKS/) || hooks[depth - 1] }
    /^#[ \t]*endif/ { depth-- }
    /spec\/(bench|c|embed)\// && !hooks[depth] && /[Ss]et (only )?by/ {
      print f ":" NR ": a test hook in a production struct: " $0; bad = 1 }
    END { exit bad }' "$f" >&2 || status=1
done
exit $status
