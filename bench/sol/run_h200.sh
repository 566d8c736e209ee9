#!/bin/sh
# run_h200.sh: one GPU-machine call for issue 34 (speed of light on the H200), on binaries built
# beforehand (smemlab, its kernels, libsmemlab_cub.so and, for the sweep, dev16: all need only libc
# and the driver, so they are built on the CPU machine and carried). From the repository root:
#   OUT=out BIN=dir [SWEEP=1] [TESTS=1] [RUNS=N] sh bench/sol/run_h200.sh
#   BIN      holds smemlab, kernels/sol_transpose.fatbin, kernels/sol_reduce.fatbin, libsmemlab_cub.so
#            (and dev16, test_sol_gpu where SWEEP / TESTS ask for them)
#   SWEEP=1  bench/sol/dev16.cu's candidates at the cases the H200 missed (4097^2 f32 f16 f64,
#            16384^2 and 8192^2 f64, 1048576x32 f32 f64), twice each -> sweep-*.csv, .log
#   TESTS=1  test_sol_gpu (the product's launch on the GPU, every element checked) -> tests.log
#   RUNS=N   N product runs of `smemlab bench transpose` and of `smemlab bench reduce`, interleaved
#            (--format json) -> transpose-i.json, reduce-i.json, .log; the targets checked last
#            (bench/sol/check_targets.py, bench/sol/spread.py). The transposes' configuration cache is
#            $OUT/sol-tune.tsv, empty at the start: run 1 measures the candidates, the others read it.
#   OTHER_FORM=register|bulk  after each reduce run, `smemlab bench reduce --form OTHER_FORM` in the same
#            conditions -> reduce-form-<form>-i.json, .log (both reduce forms in the run of record)
#   OFF=1    after run 1, `smemlab bench transpose --tune off` (the H100's picks on this device)
#            -> transpose-off.json, .log
# nvidia-smi samples the clocks every 200 ms throughout (clocks.csv). Everything lands in
# $OUT/h200.tgz as well as in $OUT.
set -u
OUT=${OUT:-out}
BIN=${BIN:-build}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
T0=$(date +%s)
stamp() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,temperature.gpu,power.draw,memory.total --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvcc --version | tail -1
} >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,clocks_event_reasons.active,power.draw,temperature.gpu,utilization.gpu \
  --format=csv -lms 200 >"$OUT/clocks.csv" 2>&1 &
SMI=$!
if [ "${SWEEP:-0}" = 1 ]; then
  stamp "sweep"
  timeout 100 "$BIN/dev16" --csv "$OUT/sweep-f32.csv" --dtypes f32 --shapes 4097x4097,1048576x32 --repeat 2 \
    --only 'ship,cublas,any*,tile*' >"$OUT/sweep-f32.log" 2>&1
  echo "exit $?" >>"$OUT/sweep-f32.log"
  timeout 60 "$BIN/dev16" --csv "$OUT/sweep-f16.csv" --dtypes f16 --shapes 4097x4097 --repeat 2 \
    --only 'ship,anym*' >"$OUT/sweep-f16.log" 2>&1
  echo "exit $?" >>"$OUT/sweep-f16.log"
  timeout 150 "$BIN/dev16" --csv "$OUT/sweep-f64.csv" --dtypes f64 --shapes 4097x4097,16384x16384,8192x8192,1048576x32 \
    --repeat 2 --only 'ship,cublas,any*,tile*,dyn*' >"$OUT/sweep-f64.log" 2>&1
  echo "exit $?" >>"$OUT/sweep-f64.log"
  grep -h -E 'device|FAIL|MISMATCH|exit|error' "$OUT"/sweep-*.log | sort | uniq -c | head
fi
if [ "${TESTS:-0}" = 1 ]; then
  # test_sol_gpu finds smemlab, the kernels and libsmemlab_cub.so in the build folder it lies in
  stamp "test_sol_gpu"
  (cd "${BUILD_DIR:-$BIN}" && timeout 150 tests/test_sol_gpu) >"$OUT/tests.log" 2>&1
  echo "exit $?" >>"$OUT/tests.log"
  tail -3 "$OUT/tests.log"
fi
export SMEMLAB_TUNE_CACHE="$(cd "$OUT" && pwd)/sol-tune.tsv"
rm -f "$SMEMLAB_TUNE_CACHE"
i=1
while [ "$i" -le "${RUNS:-0}" ]; do
  stamp "run $i: smemlab bench transpose"
  timeout 200 "$BIN/smemlab" bench transpose --format json --torch-script bench/sol/torch_ref.py \
    >"$OUT/transpose-$i.json" 2>"$OUT/transpose-$i.log"
  echo "exit $?" >>"$OUT/transpose-$i.log"
  if [ "$i" = 1 ] && [ "${OFF:-0}" = 1 ]; then
    stamp "smemlab bench transpose --tune off"
    timeout 200 "$BIN/smemlab" bench transpose --format json --torch-script bench/sol/torch_ref.py --tune off \
      >"$OUT/transpose-off.json" 2>"$OUT/transpose-off.log"
    echo "exit $?" >>"$OUT/transpose-off.log"
  fi
  stamp "run $i: smemlab bench reduce"
  timeout 100 "$BIN/smemlab" bench reduce --format json --torch-script bench/sol/torch_ref.py \
    >"$OUT/reduce-$i.json" 2>"$OUT/reduce-$i.log"
  echo "exit $?" >>"$OUT/reduce-$i.log"
  if [ -n "${OTHER_FORM:-}" ]; then
    stamp "run $i: smemlab bench reduce --form $OTHER_FORM"
    timeout 100 "$BIN/smemlab" bench reduce --format json --torch-script bench/sol/torch_ref.py --form "$OTHER_FORM" \
      >"$OUT/reduce-form-$OTHER_FORM-$i.json" 2>"$OUT/reduce-form-$OTHER_FORM-$i.log"
    echo "exit $?" >>"$OUT/reduce-form-$OTHER_FORM-$i.log"
  fi
  i=$((i + 1))
done
kill "$SMI" 2>/dev/null
stamp "end"
(cd "$OUT" && tar czf h200.tgz --exclude=h200.tgz ./*.json ./*.log ./*.csv ./*.txt ./*.tsv 2>/dev/null)
if [ "${RUNS:-0}" -gt 0 ]; then
  H=$(dirname "$0")
  grep -h "tuning" "$OUT"/transpose-1.log
  python3 "$H/check_targets.py" "$OUT"/transpose-[0-9]*.json
  python3 "$H/spread.py" "$OUT"/transpose-[0-9]*.json "$OUT"/reduce-[0-9]*.json
  [ -n "${OTHER_FORM:-}" ] && { echo "reduce --form $OTHER_FORM:"; python3 "$H/spread.py" "$OUT"/reduce-form-*.json; }
  [ -f "$OUT/transpose-off.json" ] && { echo "--tune off:"; python3 "$H/spread.py" "$OUT/transpose-off.json"; }
fi
# the device call brings back a limited number of files: h200.tgz holds them all
[ "${KEEP:-0}" = 1 ] || (cd "$OUT" && find . -type f ! -name h200.tgz -delete)
exit 0
