#!/bin/sh
# The SASS census through the CLI: `analyze` JSON carries "ptxas_differs" on the sites ptxas changed
# and nowhere else, the table says why under the table, and without ptxas "SASS not checked" once.
smemlab="$1"
. "$(dirname "$0")/lib.sh"
P="--block 128 --param a0=0 --param b0=0 --param la=100 --param lb=60"
t "mergeparam json" "$smemlab" analyze tests/sass/mergeparam.cu $P --format json
expect_rc 0
expect_out '"ptxas_differs": "ptxas made one LDS.128 of this line'
expect_out '"ptxas_differs": "ptxas keeps no LDS on this line for its 1 load: merged into line 22'
n=$(printf '%s' "$out" | grep -c '"ptxas_differs"')
[ "$n" -eq 4 ] || fail "mergeparam json: $n sites flagged, expected 4 (lines 22 to 25)"
printf '%s' "$out" | grep -q '"sass_not_checked"' && fail "mergeparam json: says not checked"
t "mergeparam table" "$smemlab" analyze tests/sass/mergeparam.cu $P
expect_rc 0
expect_out "line 24: ptxas keeps no LDS on this line for its 1 load: merged into line 22's LDS.128; this line's count is the PTX's, the H100's may differ"
T="--block 32,32 --grid 2,2 --param width=64 --param height=64"
t "transpose json" "$smemlab" analyze tests/hazards/transpose.cu $T --format json
expect_rc 0
expect_out '"line": 21, "op": "ld"'
printf '%s' "$out" | grep -q 'ptxas_differs\|sass_not_checked' && fail "transpose: flagged"
t "no ptxas" env SMEMLAB_PTXAS=/nonexistent/ptxas "$smemlab" analyze tests/hazards/transpose.cu $T
expect_rc 0
n=$(printf '%s' "$out" | grep -c "SASS not checked: no ptxas found")
k=$(printf '%s' "$out" | grep -c "block 32x32x1 grid 2x2x1")
[ "$n" -eq "$k" ] && [ "$n" -gt 0 ] || fail "no ptxas: $n 'SASS not checked' lines for $k kernels"
t "calls" "$smemlab" analyze tests/analyze/realcode/calls.cu
expect_out "SASS not checked: the kernel calls functions that are not inlined"
# smemlab run: the census reads the program's own sm_90 code (no ptxas needed: none is found)
t "run" env SMEMLAB_PTXAS=/nonexistent/ptxas "$smemlab" run --format json -o "$TMPD/r.json" tests/sass/mergeprog.cu
expect_rc 0
expect_out "PASS"
grep -qF '"ptxas_differs": "ptxas made one LDS.64 of this line'"'"'s 4-byte load and line 29'"'"'s"' "$TMPD/r.json" ||
  fail "run: line 27 not flagged"
grep -qF '"ptxas_differs": "ptxas keeps no LDS on this line for its 1 load: merged into line 27'"'"'s LDS.64"' "$TMPD/r.json" ||
  fail "run: line 29 not flagged"
grep -q '"sass_not_checked"' "$TMPD/r.json" && fail "run: not checked"
finish
