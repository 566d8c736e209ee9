#!/bin/sh
# steady5_h200.sh: issue 34, session 5: tall-skinny against a square transpose of the same bytes in the
# bench's steady state, on binaries built beforehand (BIN: smemlab, kernels/sol_transpose.fatbin). From
# the repository root:
#   OUT=out BIN=dir sh bench/sol/steady5_h200.sh
# The bench times launches back to back, each one writing back the lines the one before left dirty in
# L2; Nsight Compute's default (--cache-control all) flushes the caches before the launch it profiles,
# so that launch pays no write-backs but its own. Here: the picks measured (`--tune again`), then the
# 11th-13th launches of ours at 1048576x32 and at the square shape of the same bytes (8192x4096 f32,
# 8192x4096 f64), with the caches flushed (all) and as the previous launch left them (none)
# -> ncu-<dtype>-<shape>-<all|none>.csv, tune.log, .tsv; all in $OUT/steady5.tgz.
. "$(dirname "$0")/h200_start.sh"
timeout 60 "$S" bench transpose --tune again --tune-cache "$OUT/tune.tsv" --dtypes f32,f64 --no-torch --no-baselines \
  --no-cublas --sizes 1048576x32,8192x4096 --format json >"$OUT/tune.json" 2>"$OUT/tune.log"
grep -E 'tuning|(memcpy|smemlab) ' "$OUT/tune.log"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for c in "f32 1048576x32" "f32 8192x4096" "f64 1048576x32" "f64 8192x4096"; do
  set -- $c
  for cc in all none; do
    timeout 60 ncu --clock-control none --cache-control "$cc" -k "regex:^sol_transpose_(narrow_)?$1" --launch-skip 10 \
      -c 3 --metrics "$M" --csv "$S" bench transpose --tune-cache "$OUT/tune.tsv" --dtypes "$1" --sizes "$2" \
      --reps 20 --warmup 5 --no-baselines --no-cublas --no-torch >"$OUT/ncu-$1-$2-$cc.csv" 2>"$OUT/ncu-$1-$2-$cc.err"
    python3 -c 'import csv,sys
v = {}
for r in csv.reader(open(sys.argv[1])):
    if len(r) > 14 and r[-3] != "Metric Name":
        v.setdefault(r[-3], []).append(r[-1])
print(sys.argv[2], {k.split(".")[0]: v[k] for k in sorted(v)})' "$OUT/ncu-$1-$2-$cc.csv" "$1 $2 $cc"
  done
done
(cd "$OUT" && tar czf steady5.tgz --exclude=steady5.tgz ./*.csv ./*.err ./*.json ./*.log ./*.tsv ./*.txt 2>/dev/null &&
  find . -type f ! -name steady5.tgz -delete)
exit 0
