#!/bin/sh
# odd_h200.sh: issue 34, session 5 (odd shapes, the any kind at 4097x4097): one device call on binaries
# built beforehand (smemlab, kernels/*.fatbin, libsmemlab_cub.so, tests/test_sol_gpu: all need only
# libc and the driver). From the repository root:
#   OUT=out BIN=dir [TESTS=1] [TUNES=2] [RUNS=2] [NCU="dtype kernel ..."] sh bench/sol/odd_h200.sh
#   1. (TESTS=1, default) test_sol_gpu (every kernel and candidate on the device, every element
#      checked) -> tests.log. (Session 5's calls passed TEST_BUILD_DIR, the folder test_sol_gpu was
#      built in, linked to BIN; test_sol_gpu now finds the folder it lies in.)
#   2. TUNES times `smemlab bench transpose --tune again` at 4097x4097, f32 f16 f64, without torch or
#      the textbook kernels: every candidate of the any kind measured (the log lists their times), then
#      the rows against memcpy and cuBLAS -> tune-i.json, tune-i.log, tune-i.tsv
#   3. RUNS times the product's rows at 4097x4097 (the any kind's only default size), f32 f16 f64, with
#      torch and the textbook kernels, the picks of tune-1.tsv -> any-i.json, any-i.log
#   4. Nsight Compute (--clock-control none) over one launch of each kernel in NCU (dtype kernel
#      pairs, at 4097x4097), picked through a tuning cache written for it -> ncu-<kernel>.csv
. "$(dirname "$0")/h200_start.sh"
[ "${TESTS:-1}" = 1 ] && sol_test_gpu 200
i=1
while [ "$i" -le "${TUNES:-2}" ]; do
  stamp "tune again $i"
  timeout 90 "$S" bench transpose --tune again --tune-cache "$OUT/tune-$i.tsv" --dtypes f32,f16,f64 --no-torch \
    --no-baselines --sizes 4097x4097 --format json >"$OUT/tune-$i.json" 2>"$OUT/tune-$i.log"
  echo "exit $?" >>"$OUT/tune-$i.log"
  grep -E 'tuning|exit|not exact' "$OUT/tune-$i.log"
  i=$((i + 1))
done
i=1
while [ "$i" -le "${RUNS:-2}" ]; do
  stamp "product rows $i"
  timeout 120 "$S" bench transpose --tune-cache "$OUT/tune-1.tsv" --dtypes f32,f16,f64 --sizes 4097x4097 \
    --torch-script bench/sol/torch_ref.py --format json >"$OUT/any-$i.json" 2>"$OUT/any-$i.log"
  echo "exit $?" >>"$OUT/any-$i.log"
  grep -E 'exit|tuning' "$OUT/any-$i.log"
  i=$((i + 1))
done
sol_ncu_any 40
stamp "end"
# one archive: the device call brings back a limited number of files
(cd "$OUT" && find . -maxdepth 1 -type f ! -name odd.tgz ! -name "pick-*.tsv" | tar czf odd.tgz -T - &&
  find . -type f ! -name odd.tgz -delete)
exit 0
