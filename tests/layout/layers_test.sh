#!/bin/sh
# The layering rule holds on this tree, and the checker catches each kind of offence on a copy.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
check="$here/layers.sh"
fail() { echo "FAIL: $*"; exit 1; }

sh "$check" "$root" || fail "the tree breaks the layering (above)"

tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
copy() { rm -rf "$tmp/t"; mkdir -p "$tmp/t/include"; cp -R "$root/src" "$tmp/t/src"; cp -R "$root/include/smemlab" "$tmp/t/include/smemlab"; }
expect_offence() { # what, file, line to append, expected words
    copy
    printf '%s\n' "$3" >> "$tmp/t/$2"
    out=$(sh "$check" "$tmp/t" 2>&1) && fail "$1: not caught"
    echo "$out" | grep -q "$4" || fail "$1: caught, but the message lacks '$4': $out"
    echo "ok: $1 caught: $(echo "$out" | head -1)"
}
expect_offence "the model including the emulator" src/model/banks.c '#include "smemlab/emu/cta.h"' "layer 'model' includes"
expect_offence "a public model header including analysis" include/smemlab/model/expr.h '#include "smemlab/analysis/analyze.h"' "layer 'model' includes"
expect_offence "the emulator including a report's private header" src/emu/hazards.c '#include "report/x.h"' "layer 'emu' includes"
expect_offence "the library including the CLI" src/analysis/analyze.c '#include "cli.h"' "not in its folder"
expect_offence "gpu including the emulator" src/gpu/gpu.c '#include "smemlab/emu/cta.h"' "layer 'gpu' includes"
copy; mkdir "$tmp/t/src/misc"; echo '/* x */' > "$tmp/t/src/misc/x.c"
out=$(sh "$check" "$tmp/t" 2>&1) && fail "a folder that is no layer: not caught"
echo "ok: an unknown folder caught: $(echo "$out" | head -1)"
copy; echo '/* x */' > "$tmp/t/src/loose.c"
sh "$check" "$tmp/t" >/dev/null 2>&1 && fail "a file loose in src/: not caught"
echo "ok: a loose file caught"
copy
sh "$check" "$tmp/t" >/dev/null || fail "an untouched copy fails"
echo "layers_test: passed"
