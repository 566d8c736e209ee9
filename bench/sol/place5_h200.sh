#!/bin/sh
# place5_h200.sh: issue 34, session 5: 16384^2 f64 in the allocation history of the product run, each
# large f64 candidate in turn, on binaries built beforehand (BIN: smemlab, kernels/sol_transpose.fatbin).
# From the repository root:
#   OUT=out BIN=dir sh bench/sol/place5_h200.sh
#   1. `smemlab bench transpose --tune again` at the default sizes and dtypes (no baselines, no torch):
#      every kind's candidates measured, the cache written -> full.json, .log, .tsv
#   2. for each large f64 candidate (LARGE): the same run with that cache, the large f64 line naming the
#      candidate (every other pick as measured in 1), so 16384^2 f64 comes after the same cases as in the
#      product run -> prod-<kernel>.log; then 16384^2 f64 after 8192^2 f64 alone -> after-<kernel>.log
# LARGE's default names the candidates of commit 73ffb6d, withdrawn since: on another tree, set it to
# large f64 kernels its table has. Everything lands in $OUT/place5.tgz.
. "$(dirname "$0")/h200_start.sh"
stamp "tune again, default sizes"
timeout 150 "$S" bench transpose --tune again --tune-cache "$OUT/full.tsv" --no-torch --no-baselines --format json \
  >"$OUT/full.json" 2>"$OUT/full.log"
echo "exit $?" >>"$OUT/full.log"
grep -E 'tuning (narrow|large)|exit|not exact|(f64 16384x16384|1048576x32) (memcpy|smemlab|cublas)' "$OUT/full.log"
for k in ${LARGE:-sol_transpose_large_f64 sol_transpose_large_f64_32x128 sol_transpose_large_f64_cp2 sol_transpose_large_f64_cp4 sol_transpose_large_f64_cp8}; do
  awk -F'\t' -v OFS='\t' -v k="$k" '$2 == "large" && $3 == "f64" { $4 = k } { print }' "$OUT/full.tsv" >"$OUT/pick.tsv"
  stamp "$k: product history"
  timeout 100 "$S" bench transpose --tune-cache "$OUT/pick.tsv" --no-torch --no-baselines --format json \
    >/dev/null 2>"$OUT/prod-$k.log"
  grep -E 'f64 16384x16384 (memcpy|smemlab|cublas)' "$OUT/prod-$k.log"
  stamp "$k: after 8192^2"
  timeout 60 "$S" bench transpose --tune-cache "$OUT/pick.tsv" --dtypes f64 --no-torch --no-baselines \
    --sizes 8192x8192,16384x16384 --format json >/dev/null 2>"$OUT/after-$k.log"
  grep -E 'f64 16384x16384 (memcpy|smemlab|cublas)' "$OUT/after-$k.log"
done
stamp "end"
(cd "$OUT" && tar czf place5.tgz --exclude=place5.tgz ./*.json ./*.log ./*.tsv ./*.txt 2>/dev/null &&
  find . -type f ! -name place5.tgz -delete)
exit 0
