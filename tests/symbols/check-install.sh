#!/bin/sh
# What a user does after `meson install`: installs the build into a temporary directory,
# then builds tests/symbols/collide.c (a program defining its own `next`, `file` and `tok`,
# TinyCC's generic names) with nothing but pkg-config's flags, and runs it on the emulator:
#   1. `pkg-config --cflags --libs lattice`: links liblattice.so (ldd must show it), and
#      liblattice.so exports nothing but lat_* (nm -D);
#   2. `pkg-config --static`, both libraries installed: still links and runs;
#   3. `pkg-config --static` where only liblattice.a is installed: a static link of lattice
#      (ldd must not show liblattice.so).
# usage: check-install.sh BUILDDIR SOURCE.c CC SANITIZE MESON (SANITIZE: meson's b_sanitize)
set -eu
builddir=$1 src=$2 cc=$3 sanitize=$4 meson=$5
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=""
[ "$sanitize" = none ] || extra="-fsanitize=$sanitize"

"$meson" install -C "$builddir" --no-rebuild --quiet --destdir "$tmp/root" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }
pc=$(find "$tmp/root" -name lattice.pc | head -n1)
[ -n "$pc" ] || { echo "FAIL: no lattice.pc installed"; exit 1; }
echo "lattice.pc installed in ${pc#"$tmp/root"}"
# The prefix inside the .pc is the real one; the sysroot maps it into the temporary root.
export PKG_CONFIG_SYSROOT_DIR="$tmp/root" PKG_CONFIG_PATH="$(dirname "$pc")" PKG_CONFIG_LIBDIR=""
libdir=$(dirname "$(dirname "$pc")")
export LD_LIBRARY_PATH="$libdir" LATTICE_BACKEND=emu

# 1. Shared.
if [ -e "$libdir/liblattice.so" ]; then
    flags=$(pkg-config --cflags --libs lattice)
    echo "shared: cc collide.c $flags"
    # shellcheck disable=SC2086
    $cc $extra -o "$tmp/shared" "$src" $flags || { echo "FAIL: shared link"; exit 1; }
    "$tmp/shared" || { echo "FAIL: the shared program"; exit 1; }
    ldd "$tmp/shared" | grep -q 'liblattice\.so' || { echo "FAIL: ldd does not show liblattice.so"; exit 1; }
    other=$(nm -D --defined-only "$libdir/liblattice.so" | awk 'NF == 3 && $3 !~ /^lat_[a-z0-9]/ { print $3 }')
    [ -z "$other" ] || { echo "FAIL: liblattice.so exports more than lat_*:"; echo "$other" | head; exit 1; }
    echo "ok: ldd shows liblattice.so; nm -D: $(nm -D --defined-only "$libdir/liblattice.so" | wc -l) symbols, all lat_*"

    # 2. --static with both installed.
    flags=$(pkg-config --cflags --libs --static lattice)
    # shellcheck disable=SC2086
    $cc $extra -o "$tmp/both" "$src" $flags || { echo "FAIL: --static link"; exit 1; }
    "$tmp/both" || { echo "FAIL: the --static program"; exit 1; }
else
    echo "no liblattice.so installed (a static-only build): shared link not checked"
fi

# 3. Only the static library.
rm -f "$libdir"/liblattice.so*
flags=$(pkg-config --cflags --libs --static lattice)
echo "static: cc collide.c $flags"
# shellcheck disable=SC2086
$cc $extra -o "$tmp/static" "$src" $flags || { echo "FAIL: static link"; exit 1; }
"$tmp/static" || { echo "FAIL: the static program"; exit 1; }
if ldd "$tmp/static" | grep -q 'liblattice'; then
    echo "FAIL: the static program needs liblattice.so"; exit 1
fi
echo "ok: static link; shared $(stat -c %s "$tmp/shared" 2>/dev/null || echo -) bytes, static $(stat -c %s "$tmp/static") bytes"
