#!/bin/sh
# install.sh BUILD: `cmake --install` into a temporary prefix and the .deb of `cpack -G DEB`
# unpacked (dpkg -x, no root, no network) work from where they lie: the CLI finds its runtime
# stand-ins and kernels in lib/smemlab/, `tour` and `run` work from another folder, a C program
# builds against the installed library through pkg-config and through find_package(smemlab).
set -e
build=$(cd "$1" && pwd)
src=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/p" >/dev/null
for f in bin/smemlab lib/smemlab/libcudart.so.13 lib/smemlab/libcublas.so.13 lib/libsmemlab.a \
         include/smemlab/model/banks.h lib/pkgconfig/smemlab.pc lib/cmake/smemlab/smemlabConfig.cmake \
         lib/cmake/smemlab/SmemlabCI.cmake; do
  [ -e "$tmp/p/$f" ] || fail "the install has no $f"
done
cd "$tmp"
"$tmp/p/bin/smemlab" tour >"$tmp/tour.txt" || fail "installed smemlab tour failed"
grep -q "32-way" "$tmp/tour.txt" || fail "installed tour printed no 32-way conflict"

# a C program against the installed library, flags from pkg-config
cat >"$tmp/cost.c" <<'C'
#include <stdio.h>
#include "smemlab/model/banks.h"
int main(void)
{
    struct smem_banks b = smem_banks_default();
    struct smem_request r = {.active = 0xffffffffu, .width = 4, .op = SMEM_LD};
    for (unsigned i = 0; i < 32; i++)
        r.addr[i] = i * 32 * 4; /* stride 32 words: one bank */
    printf("%u\n", smem_request_cost(&b, &r).wavefronts);
    return 0;
}
C
if command -v pkg-config >/dev/null 2>&1; then
  flags=$(PKG_CONFIG_PATH="$tmp/p/lib/pkgconfig" pkg-config --cflags --libs --static smemlab)
  # a sanitizer build's library (make test-asan) needs the sanitizers' runtimes at link time
  if nm "$tmp/p/lib/libsmemlab.a" 2>/dev/null | grep -q __asan_; then
    flags="$flags -fsanitize=address,undefined"
  fi
  cc -std=c11 "$tmp/cost.c" $flags -o "$tmp/cost" || fail "cannot build against the install"
  [ "$("$tmp/cost")" = 32 ] || fail "the installed library priced stride 32 as $("$tmp/cost")"
fi

# the same through the CMake package: find_package(smemlab), the target smemlab::smemlab
mkdir -p "$tmp/cm"
cp "$tmp/cost.c" "$tmp/cm/cost.c"
cat >"$tmp/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.20)
project(cost C)
find_package(smemlab 0.1 REQUIRED)
add_executable(cost cost.c)
target_link_libraries(cost PRIVATE smemlab::smemlab)
CM
san=""
nm "$tmp/p/lib/libsmemlab.a" 2>/dev/null | grep -q __asan_ && san="-fsanitize=address,undefined"
cmake -S "$tmp/cm" -B "$tmp/cm/b" -DCMAKE_PREFIX_PATH="$tmp/p" -DCMAKE_C_FLAGS="$san" \
  -DCMAKE_EXE_LINKER_FLAGS="$san" >"$tmp/cm.log" 2>&1 && cmake --build "$tmp/cm/b" >>"$tmp/cm.log" 2>&1 ||
  { cat "$tmp/cm.log"; fail "find_package(smemlab) does not build a program"; }
[ "$("$tmp/cm/b/cost")" = 32 ] || fail "smemlab::smemlab priced stride 32 as $("$tmp/cm/b/cost")"

# a CUDA program run from the install (needs nvcc to build it)
if command -v nvcc >/dev/null 2>&1; then
  "$tmp/p/bin/smemlab" run --format json -o "$tmp/run.json" "$src/tests/run/checks.cu" -- transpose \
    >"$tmp/run.out" 2>&1 || { cat "$tmp/run.out"; fail "installed smemlab run failed"; }
  grep -q PASS "$tmp/run.out" || fail "the program under the installed smemlab run did not pass"
  grep -q '"kernel": "transpose' "$tmp/run.json" || fail "no transpose launch in the report"
fi

# the Debian package: built by cpack, unpacked without dpkg's database, run from there
if command -v cpack >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
  (cd "$build" && cpack -G DEB -B "$tmp/deb" >/dev/null) || fail "cpack -G DEB failed"
  deb=$(ls "$tmp"/deb/smemlab_*.deb)
  dpkg-deb -f "$deb" Depends | grep -q '^libc6' || fail "the package depends on more than libc"
  dpkg-deb -x "$deb" "$tmp/root"
  "$tmp/root/usr/bin/smemlab" tour >/dev/null || fail "smemlab tour from the .deb failed"
  [ -e "$tmp/root/usr/lib/smemlab/libcudart.so.13" ] || fail "the .deb has no runtime stand-in"
  if command -v nvcc >/dev/null 2>&1; then
    "$tmp/root/usr/bin/smemlab" run "$src/tests/run/checks.cu" -- race >"$tmp/deb.out" 2>&1 ||
      { cat "$tmp/deb.out"; fail "smemlab run from the .deb failed"; }
    grep -q "race" "$tmp/deb.out" || fail "smemlab run from the .deb reported no race"
  fi
fi
echo "install: ok"
