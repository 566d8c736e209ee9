#!/bin/sh
# raw_h200.sh: issue 34, session 5 (the raw any kernels' store and bulk-copied rows at 4097x4097): one
# device call on binaries built beforehand (smemlab, kernels/*.fatbin, libsmemlab_cub.so,
# tests/test_sol_gpu). From the repository root:
#   OUT=out BIN=dir [NCU="dtype kernel ..."] sh bench/sol/raw_h200.sh
#   1. `smemlab bench transpose --tune again` at 4097x4097 f32 f16 f64 (every candidate of the any kind
#      timed: the log's `tuning` lines) -> tune-1.*
#   2. the product's rows three times with those picks (torch too) -> any-1..3.json, .log
#   3. test_sol_gpu (it finds the build folder it lies in; session 5's calls linked TEST_BUILD_DIR, the
#      folder it was compiled in, to BIN) -> tests.log
#   4. three more `--tune again` -> tune-2..4.*; Nsight Compute (--clock-control none, one launch) of
#      each kernel in NCU, picked through a tuning cache written for it -> ncu-<kernel>.csv
#   Everything in one archive, raw.tgz (the device call brings back a limited number of files).
. "$(dirname "$0")/h200_start.sh"
tune() {
  stamp "tune again $1"
  timeout 50 "$S" bench transpose --tune again --tune-cache "$OUT/tune-$1.tsv" --dtypes f32,f16,f64 --no-torch \
    --no-baselines --sizes 4097x4097 --format json >"$OUT/tune-$1.json" 2>"$OUT/tune-$1.log"
  echo "exit $?" >>"$OUT/tune-$1.log"
  grep -E 'tuning|exit|not exact' "$OUT/tune-$1.log"
}
tune 1
for i in 1 2 3; do
  stamp "product rows $i"
  timeout 40 "$S" bench transpose --tune-cache "$OUT/tune-1.tsv" --dtypes f32,f16,f64 --sizes 4097x4097 \
    --torch-script bench/sol/torch_ref.py --format json >"$OUT/any-$i.json" 2>"$OUT/any-$i.log"
  echo "exit $?" >>"$OUT/any-$i.log"
  grep -E 'exit|tuning' "$OUT/any-$i.log"
done
sol_test_gpu 60
for i in 2 3 4; do tune "$i"; done
sol_ncu_any 30
stamp "end"
(cd "$OUT" && find . -maxdepth 1 -type f ! -name raw.tgz | tar czf raw.tgz -T - && find . -type f ! -name raw.tgz -delete)
exit 0
