#!/bin/sh
# The SASS through the CLI: loads from fixed places counted as the kernel's SASS has them ("sass_placed",
# and a line under the table), the census's "ptxas_differs" nowhere on a plain kernel, and without
# ptxas "SASS not checked" once.
smemlab="$1"
. "$(dirname "$0")/lib.sh"
P="--block 128 --param a0=0 --param b0=0 --param la=100 --param lb=60"
t "mergeparam json" "$smemlab" analyze tests/sass/mergeparam.cu $P --format json
expect_rc 0
# ptxas reads lines 22 to 25's lengths as one LDS.128 before the first branch: counted so, and said
expect_out '"line": 22, "op": "ld", "bytes": 16, "requests": 4,'
expect_out '"sass_placed": "one LDS.128 at a fixed place with lines 23, 24, 25'"'"'s loads"'
printf '%s' "$out" | grep -q '"ptxas_differs"' && fail "mergeparam json: a line flagged"
printf '%s' "$out" | grep -q '"sass_not_checked"' && fail "mergeparam json: says not checked"
t "mergeparam table" "$smemlab" analyze tests/sass/mergeparam.cu $P
expect_rc 0
expect_out "line 22: counted as ptxas's SASS has it: one LDS.128 at a fixed place with lines 23, 24, 25's loads"
t "mergeparam without the SASS" env SMEMLAB_NO_SASS=1 "$smemlab" analyze tests/sass/mergeparam.cu $P --format json
expect_rc 0
printf '%s' "$out" | grep -q '"sass_placed"' && fail "mergeparam without the SASS: placed"
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
grep -qF '"sass_placed": "one LDS.64 at a fixed place with line 29'"'"'s loads"' "$TMPD/r.json" ||
  fail "run: line 27 not placed from the SASS"
grep -q '"ptxas_differs": "ptxas keeps no LDS on this line for its 1 load: merged' "$TMPD/r.json" &&
  fail "run: line 29 still flagged"
grep -q '"sass_not_checked"' "$TMPD/r.json" && fail "run: not checked"
finish
