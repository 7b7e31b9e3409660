#!/bin/sh
# spec/install/clone.sh ROOT DEST: a clone of the repository at ROOT in DEST
# with what is not committed yet copied over (changed and added files; the
# removed ones removed): the tree as it is now, for the packaging checks
# that build a copy (rock.sh, rock_ffi.sh).
set -eu
root=$1 src=$2
git clone -q "$root" "$src"
(cd "$root" && git ls-files -mo --exclude-standard) | while read -r f; do
  if [ -e "$root/$f" ]; then printf '%s\n' "$f"; else rm -f "$src/$f"; fi
done | (cd "$root" && tar -cf - -T -) | tar -xf - -C "$src"
