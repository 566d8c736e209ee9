#!/bin/sh
# circles_test.sh BUILD: no folder's files call each other in a circle (tests/layout/circles.py over
# the objects of the library, the runtime and the CLI in BUILD), and the checker catches planted
# circles of real compiled objects while it passes a planted stack.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=$1
check="$here/circles.py"
fail() { echo "FAIL: $*"; exit 1; }
command -v nm >/dev/null || fail "nm is missing (binutils)"
cc=${CC:-cc}

python3 "$check" --src="$here/../.." --rel="$build/CMakeFiles" "$build/CMakeFiles/smemlab_lib.dir/src" \
    "$build/CMakeFiles/smemlab_cudart.dir/src" "$build/CMakeFiles/smemlab.dir/tools" ||
    fail "a folder of the tree has a circle of files (above)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# plant FOLDER FILE 'CODE': one object of a planted folder
plant() { mkdir -p "$tmp/$1"; printf '%s\n' "$3" > "$tmp/$1/$2.c"; $cc -c -o "$tmp/$1/$2.c.o" "$tmp/$1/$2.c" || fail "cc $2"; }

# a stack of three files: loop -> family -> service; passes, with three floors
plant stack service 'int svc(int x); int svc(int x) { return x + 1; }'
plant stack family 'int svc(int); int fam(int x); int fam(int x) { return svc(x) * 2; }'
plant stack loop 'int fam(int); int loop(int x); int loop(int x) { return fam(x); }'
out=$(python3 "$check" "$tmp/stack") || fail "a planted stack: refused: $out"
echo "$out" | grep -q "3 floors (top first) | 3: loop.c | 2: family.c | 1: service.c" ||
    fail "a planted stack: wrong floors: $out"
echo "ok: a planted stack passes: $out" | head -1

# the service calling back into the loop: a circle of three files, each tie named
plant circle3 service 'int loop(int); int svc(int x); int svc(int x) { return x ? loop(x - 1) : 0; }'
plant circle3 family 'int svc(int); int fam(int x); int fam(int x) { return svc(x) * 2; }'
plant circle3 loop 'int fam(int); int loop(int x); int loop(int x) { return fam(x); }'
out=$(python3 "$check" "$tmp/circle3") && fail "a service calling the loop: not caught"
echo "$out" | grep -q "a circle of 3 files: family.c, loop.c, service.c" ||
    fail "a circle of three: caught, but not named: $out"
echo "$out" | grep -q "service.c -> loop.c: loop" || fail "a circle of three: the tie is not named: $out"
echo "ok: a service calling the loop caught: $(echo "$out" | head -1)"

# two families using each other's data (not a call): caught too
plant circle2 tensor 'extern int async_state; int tensor_state = 1; int t(void); int t(void) { return async_state; }'
plant circle2 async 'extern int tensor_state; int async_state = 2; int a(void); int a(void) { return tensor_state; }'
out=$(python3 "$check" "$tmp/circle2") && fail "two files sharing data both ways: not caught"
echo "$out" | grep -q "a circle of 2 files: async.c, tensor.c" || fail "a circle of two: $out"
echo "ok: two files using each other's data caught"

# a circle in one folder does not hide behind a clean one, and two folders are told apart
out=$(python3 "$check" "$tmp/stack" "$tmp/circle2") && fail "a circle beside a clean folder: not caught"
echo "$out" | grep -q "stack: 3 files" || fail "the clean folder is not reported: $out"
echo "circles_test: passed"
