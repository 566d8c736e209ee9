#!/bin/sh
# CUTLASS's Hopper examples (bench/programs/cutlass.txt, issue 29's acceptance programs) under
# smemlab run, against the H200: each must exit 0 with its own verification ("Passed" in 48, 49
# and 54's output; the cute tutorials check nothing and must run to their end), and every launch's
# shared counters (ld, st, atom, ldmatrix, stmatrix, cp.async, wgmma; dshared where smemlab
# reports it) must equal Nsight Compute's in bench/programs/h200-2026-11-29-cutlass-ncu.csv (the
# tutorials: their first launches, as counted there). Needs the binaries, which CI does not build:
# SMEMLAB_PROGRAMS=DIR where bench/programs/build_cutlass.sh put them; skipped (77) otherwise, or
# without python3.
[ -n "${SMEMLAB_PROGRAMS:-}" ] && [ -x "$SMEMLAB_PROGRAMS/48_hopper_warp_specialized_gemm" ] \
  || { echo "skipped: SMEMLAB_PROGRAMS does not hold the CUTLASS examples (bench/programs/README.md)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skipped: no python3"; exit 77; }
. "$(dirname "$0")/lib.sh"
SMEMLAB=$1
P=bench/programs
H200=$P/h200-2026-11-29-cutlass-ncu.csv
t "run the list" env FORMAT=json sh $P/run_cpu.sh "$SMEMLAB" "$SMEMLAB_PROGRAMS" "$TMPD/o" $P/cutlass.txt
echo "$out"
while read name exe args; do
  line=$(printf '%s\n' "$out" | awk -v n="$name" '$1 == n')
  [ "$(echo "$line" | awk '{print $2}')" = 0 ] || fail "$name: exit status not 0: $line ($(head -c 400 "$TMPD/o/$name.err"))"
  case $name in
    wgmma*) grep -q 'CUTE_GEMM' "$TMPD/o/$name.out" || fail "$name: did not run to its end" ;;
    *) grep -q 'Passed' "$TMPD/o/$name.out" || fail "$name: no 'Passed' in its output" ;;
  esac
done < $P/cutlass.txt
t "tutorials = H200 (first launches)" python3 $P/compare.py --prefix $H200 "$TMPD/o" wgmma_sm90 wgmma_tma_sm90
echo "$out"; expect_rc 0
t "examples = H200 (every launch)" python3 $P/compare.py $H200 "$TMPD/o" 48_hopper_warp_specialized_gemm \
  49_collective_builder 54_hopper_fp8_warp_specialized_gemm
echo "$out"; expect_rc 0
finish
