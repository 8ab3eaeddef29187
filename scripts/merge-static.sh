#!/bin/sh
# Builds liblattice.a as ONE relocatable object: our objects plus the libtcc.a members
# they use, with every global symbol localised except the public API (lat_ followed by a
# letter or digit). TinyCC exports generic names (next, file, tok...) that would
# otherwise collide with the user's program; internal lat__ names stay private too.
# usage: merge-static.sh OUTPUT.a OBJECTS.a LIBTCC.a
set -eu
out=$1 objs=$2 tcc=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ld -r -o "$tmp/lattice.o" --whole-archive "$objs" --no-whole-archive "$tcc"
nm -g --defined-only "$tmp/lattice.o" | awk '{ print $3 }' | grep -E '^lat_[a-z0-9]' > "$tmp/keep" || true
objcopy --keep-global-symbols="$tmp/keep" "$tmp/lattice.o"
rm -f "$out"
ar rcs "$out" "$tmp/lattice.o"
