#!/bin/sh
# advise_cli: the CLI's contract: exit codes, no conflict = no change, --apply compiles and leaves
# no conflict, JSON fields. $1 = the smemlab binary.
S=$1
D=tests/advise
T=$(mktemp -d /tmp/smemlab-advcli.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v nvcc >/dev/null 2>&1 || [ -n "$SMEMLAB_NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
fail=0
check() { # name, condition result
  if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; fail=1; fi
}
"$S" advise >/dev/null 2>&1; check "no file: exit 2" $([ $? -eq 2 ]; echo $?)
"$S" advise $D/rect.cu --bogus >/dev/null 2>&1; check "unknown option: exit 2" $([ $? -eq 2 ]; echo $?)
"$S" advise $D/rect.cu --kernel setRowReadCol --format csv >/dev/null 2>&1
check "--format csv: exit 2" $([ $? -eq 2 ]; echo $?)
"$S" advise $D/nonexistent.cu --kernel k >/dev/null 2>&1; check "missing file: exit 3" $([ $? -eq 3 ]; echo $?)
"$S" advise $D/rect.cu --block 32,16 >/dev/null 2>&1; check "several kernels, no --kernel: exit 2" $([ $? -eq 2 ]; echo $?)
"$S" advise $D/rect.cu --kernel nosuch --block 32,16 >/dev/null 2>&1; check "no such kernel: exit 2" $([ $? -eq 2 ]; echo $?)
"$S" advise $D/rect.cu --kernel setRowReadCol --block 32,16 --array nosuch >/dev/null 2>&1
check "no such array: exit 2" $([ $? -eq 2 ]; echo $?)
printf '__global__ void k(int* o) { __shared__ int t[32]; t[threadIdx.x] = 1; o[0] = t[0] }\n' > "$T/bad.cu"
"$S" advise "$T/bad.cu" --kernel k >/dev/null 2>"$T/err"; rc=$?
check "compile error: exit 3" $([ $rc -eq 3 ]; echo $?)

# no conflict: says so, exit 0, --apply writes nothing
"$S" advise $D/rect.cu --kernel setRowReadRow --block 32,16 --apply "$T/none.cu" > "$T/out"; rc=$?
check "no conflict: exit 0" $([ $rc -eq 0 ]; echo $?)
grep -q "no bank conflicts" "$T/out"; check "no conflict: says so" $?
check "no conflict: nothing written" $([ ! -e "$T/none.cu" ]; echo $?)
"$S" advise $D/rect.cu --kernel setRowReadRow --block 32,16 --format json > "$T/out"
grep -q '"arrays": \[\]' "$T/out"; check "no conflict: json arrays empty" $?

# the rectangle: best pad 2, applied, compiled, no conflict left
"$S" advise $D/rect.cu --kernel setRowReadCol --block 32,16 --format json > "$T/rect.json"; rc=$?
check "rect: exit 0" $([ $rc -eq 0 ]; echo $?)
grep -q '"best_pad": {"pad": 2,' "$T/rect.json"; check "rect: best_pad 2" $?
grep -q '"row_elems": 32' "$T/rect.json"; check "rect: row_elems 32" $?
"$S" advise $D/rect.cu --kernel setRowReadCol --block 32,16 --apply "$T/rect_fixed.cu" > "$T/out"; rc=$?
check "rect --apply: exit 0" $([ $rc -eq 0 ]; echo $?)
grep -q 'tile\[BDIMY\]\[BDIMX + 2\]' "$T/rect_fixed.cu"; check "rect --apply: declaration padded by 2" $?
grep -q "after: .* no bank conflict" "$T/out"; check "rect --apply: no conflict after" $?
"$S" analyze "$T/rect_fixed.cu" --kernel setRowReadCol --block 32,16 --fail-on-conflict >/dev/null
check "rect --apply: analyze --fail-on-conflict passes" $?

# the square: best pad 1
"$S" advise $D/square.cu --kernel setRowReadCol --block 32,32 --format json > "$T/sq.json"
grep -q '"best_pad": {"pad": 1,' "$T/sq.json"; check "square: best_pad 1" $?
"$S" advise $D/square.cu --kernel setRowReadCol --block 32,32 --apply "$T/sq_fixed.cu" >/dev/null
"$S" analyze "$T/sq_fixed.cu" --kernel setRowReadCol --block 32,32 --fail-on-conflict >/dev/null
check "square --apply: analyze --fail-on-conflict passes" $?

# extern array: --row, no apply
"$S" advise $D/rect.cu --kernel setRowReadColDyn --block 32,16 --dyn-smem 2048 --row 32 --format json > "$T/dyn.json"
grep -q '"best_pad": {"pad": 2,' "$T/dyn.json"; check "extern with --row 32: best_pad 2" $?

# a flat tile with a named pad: the declared shape, the change in the code's own terms
"$S" advise $D/extra_cols.cu --block 32,32 > "$T/extra.txt" 2>&1
check "named pad: exit 0" $?
grep -qF 'declared [BK][BN + extraCols] = [32][36], 4-byte elements; extraCols = 4 pads each row of 32' "$T/extra.txt"
check "named pad: the declared shape" $?
grep -qF 'now: 160 wavefronts (ideal 64), 4-way' "$T/extra.txt"; check "named pad: 4-way now" $?
grep -qF 'pad: extraCols = 1 (now 4), rows of 32 + 1: line 13 ld 4-way -> conflict-free' "$T/extra.txt"
check "named pad: extraCols = 1 proposed" $?
grep -qF 'write: const int extraCols = 1; (now 4): Bs[BK * (BN + extraCols)] and its indexing stay as written' "$T/extra.txt"
check "named pad: the constant's line rewritten" $?
grep -qF 'best: extraCols = 1 (64 wavefronts, +0 bytes)' "$T/extra.txt"; check "named pad: best" $?
! grep -q 'indexed Bs\[r \*' "$T/extra.txt"; check "named pad: no indexing the code lacks" $?
# Hopper: the swizzle mode for a staged tile, with its fields; a TMA-written tile not re-analysed
"$S" advise $D/hopper.cu --kernel stage_ldsm --block 128 --no-compile-check > "$T/hop.txt" 2>&1
check "hopper: exit 0" $?
grep -qF 'hopper: swizzle 128B, the tile as a TMA copy writes it: line 37 ldsm 8-way -> conflict-free' "$T/hop.txt"
check "hopper: 128B proposed" $?
grep -qF 'fields: CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 64}; wgmma descriptor: layout type 1 (128B), SBO 1024 B (field 64)' "$T/hop.txt"
check "hopper: the fields" $?
"$S" advise $D/hopper.cu --kernel stage_ldsm --block 128 --no-compile-check --format json > "$T/hop.json" 2>&1
grep -q '"best_tma": {"pad": 0, "extra_bytes": 0, "wavefronts": 128, "conflicts": 0,' "$T/hop.json"
check "hopper json: best_tma" $?
grep -q '"tensor_map_swizzle":"CU_TENSOR_MAP_SWIZZLE_128B"' "$T/hop.json"; check "hopper json: the map's swizzle" $?
"$S" advise $D/hopper.cu --kernel tma_ldsm --block 128 > "$T/tma.txt" 2>/dev/null
check "tma tile: exit 0" $?
grep -qF 'the analysis stopped there, so the reads of that tile were not' "$T/tma.txt"; check "tma tile: said" $?
"$S" advise $D/hopper.cu --kernel tma_ldsm --block 128 --format json 2>/dev/null | grep -q '"tma_stopped": true,'
check "tma tile json: tma_stopped" $?
exit $fail
