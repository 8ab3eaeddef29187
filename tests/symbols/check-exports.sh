#!/bin/sh
# usage: check-exports.sh liblattice.a|liblattice.so lattice.h
# The library must define, as global symbols, exactly the functions lattice.h and the
# headers it includes from lattice/ declare with LAT_API: nothing of TinyCC's, nothing
# internal (lat__*), nothing missing.
set -eu
lib=$1 header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $lib in
    *.so*) nmflags="-D --defined-only" ;;
    *) nmflags="-g --defined-only" ;;
esac
# shellcheck disable=SC2086
nm $nmflags "$lib" | awk 'NF == 3 { print $3 }' | sort -u > "$tmp/exported"
included=$(sed -n 's/^#include "\(lattice\/[a-z0-9_]*\.h\)".*/\1/p' "$header")
headers="$header"
for h in $included; do headers="$headers $(dirname "$header")/$h"; done
sed -n 's/^LAT_API .*[ *]\(lat_[a-z0-9_]*\)(.*/\1/p' $headers | sort -u > "$tmp/declared"

status=0
if [ ! -s "$tmp/declared" ]; then
    echo "FAIL: found no LAT_API declarations in $header"
    exit 1
fi
extra=$(comm -23 "$tmp/exported" "$tmp/declared")
missing=$(comm -13 "$tmp/exported" "$tmp/declared")
if [ -n "$extra" ]; then
    echo "FAIL: $(basename "$lib") exports symbols that are not public API:"
    echo "$extra" | head -50 | sed 's/^/    /'
    status=1
fi
if [ -n "$missing" ]; then
    echo "FAIL: lattice.h declares functions $(basename "$lib") does not define:"
    echo "$missing" | sed 's/^/    /'
    status=1
fi
[ $status -eq 0 ] && echo "ok: $(wc -l < "$tmp/exported") symbols exported, all declared in lattice.h"
exit $status
