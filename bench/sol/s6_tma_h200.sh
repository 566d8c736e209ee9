#!/bin/sh
# s6_tma_h200.sh: session 6's aligned-box TMA transposes at 4097^2 (bench/sol/dev_tma.cu, built into
# $BIN/dev/ beforehand), three processes in a row, against memcpy and the product's any kernels in each.
# From the repository root:  OUT=out BIN=build sh bench/sol/s6_tma_h200.sh   -> $OUT/tma-<i>.log, tma.tgz
. "$(dirname "$0")/h200_start.sh"
for i in 1 2 3; do
  stamp "dev_tma $i"
  timeout 120 "$BIN/dev/dev_tma" --sizes 4097x4097 --dtypes f32,f16 >"$OUT/tma-$i.log" 2>&1
  echo "exit $?" >>"$OUT/tma-$i.log"
  grep -E 'x memcpy|MISMATCH|exit|aligned' "$OUT/tma-$i.log"
done
if [ -n "${NCU_K:-}" ]; then
  stamp "ncu"
  timeout 120 ncu --clock-control none -k "regex:${NCU_K}" -c 4 --metrics "$SOL_NCU_ANY_METRICS" --csv \
    "$BIN/dev/dev_tma" --sizes 4097x4097 --dtypes f32,f16 --rounds 1 --reps 1 >"$OUT/ncu.csv" 2>"$OUT/ncu.err"
  echo "ncu exit $?"
fi
(cd "$OUT" && tar czf tma.tgz --exclude=tma.tgz ./*.log ./*.txt ./*.csv ./*.err 2>/dev/null)
exit 0
