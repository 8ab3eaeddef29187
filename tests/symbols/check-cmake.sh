#!/bin/sh
# What a CMake user does after `meson install`: installs the build into a temporary
# directory, then builds tests/symbols/collide.c with a CMake project that knows lattice
# only through find_package(lattice) (the package config installed beside lattice.pc), and
# runs it on the emulator: lattice::lattice (the shared library: ldd must show it), then
# lattice::lattice_static (ldd must not). Exits 77 (skipped, with the reason) without cmake.
# usage: check-cmake.sh BUILDDIR SOURCE.c CC SANITIZE MESON (SANITIZE: meson's b_sanitize)
set -eu
builddir=$1 src=$2 cc=$3 sanitize=$4 meson=$5
if ! command -v cmake >/dev/null 2>&1; then
    echo "SKIP: cmake is not installed (apt-get install cmake): find_package(lattice) not checked"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
extra=""
[ "$sanitize" = none ] || extra="-fsanitize=$sanitize"

"$meson" install -C "$builddir" --no-rebuild --quiet --destdir "$tmp/root" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; echo "FAIL: meson install"; exit 1; }
config=$(find "$tmp/root" -name latticeConfig.cmake | head -n1)
[ -n "$config" ] || { echo "FAIL: no latticeConfig.cmake installed"; exit 1; }
pc=$(find "$tmp/root" -name lattice.pc | head -n1)
[ "$(dirname "$(dirname "$(dirname "$config")")")" = "$(dirname "$(dirname "$pc")")" ] ||
    { echo "FAIL: latticeConfig.cmake ($config) is not beside lattice.pc ($pc)"; exit 1; }
echo "latticeConfig.cmake installed in ${config#"$tmp/root"}"
# The installed tree, found the way a user points CMake at a prefix.
prefix=$(find "$tmp/root" -type d -name include | head -n1)
prefix=$(dirname "$prefix")

mkdir "$tmp/project"
cp "$src" "$tmp/project/prog.c"
cat > "$tmp/project/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(uses_lattice C)
find_package(lattice 0.1 REQUIRED)
add_executable(prog prog.c)
target_link_libraries(prog PRIVATE lattice::lattice)
add_executable(prog_static prog.c)
target_link_libraries(prog_static PRIVATE lattice::lattice_static)
CMAKE
cmake -S "$tmp/project" -B "$tmp/build" -DCMAKE_C_COMPILER="$cc" -DCMAKE_C_FLAGS="$extra" \
    -DCMAKE_EXE_LINKER_FLAGS="$extra" -DCMAKE_PREFIX_PATH="$prefix" > "$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log"; echo "FAIL: cmake could not configure a project with find_package(lattice)"; exit 1; }
cmake --build "$tmp/build" > "$tmp/build.log" 2>&1 ||
    { cat "$tmp/build.log"; echo "FAIL: the CMake project did not build"; exit 1; }
export LATTICE_BACKEND=emu
if ldd "$tmp/build/prog" | grep -q 'liblattice\.so'; then
    # CMake gives the imported library's directory as an rpath of the build tree's program.
    "$tmp/build/prog" || { echo "FAIL: the program linked with lattice::lattice"; exit 1; }
    echo "ok: lattice::lattice links liblattice.so"
elif [ -e "$(dirname "$pc")/../liblattice.so" ]; then
    echo "FAIL: lattice::lattice did not link liblattice.so, which is installed"; exit 1
else
    "$tmp/build/prog" || { echo "FAIL: the program linked with lattice::lattice"; exit 1; }
    echo "ok: lattice::lattice links liblattice.a (no shared library installed)"
fi
"$tmp/build/prog_static" || { echo "FAIL: the program linked with lattice::lattice_static"; exit 1; }
if ldd "$tmp/build/prog_static" | grep -q 'liblattice'; then
    echo "FAIL: the program linked with lattice::lattice_static needs liblattice.so"; exit 1
fi
echo "ok: lattice::lattice_static links liblattice.a"
