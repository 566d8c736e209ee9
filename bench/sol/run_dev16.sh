#!/bin/sh
# run_dev16.sh: one GPU-machine call for issue 16 (transpose at every shape). From a tree whose build/
# holds smemlab, its kernels and tests (built here or carried), and build/dev16 (bench/sol/dev16.cu):
#   1. BENCH   build/smemlab bench transpose $BENCH --format json -> $OUT/transpose.json, .log
#              (BENCH_AGAIN=1: a second run -> transpose-again.json, .log)
#   2. SWEEP   build/dev16 $SWEEP           -> $OUT/sweep.csv, sweep.log   (unset: skipped)
#   3. NCU     Nsight Compute over build/dev16 --profile $NCU -> $OUT/ncu.txt (unset: skipped)
#   4. TESTS=1 ctest -R test_sol (the product path on the GPU)  -> the end of $OUT/sweep.log
# (at most 8 files come back from the device machine: these are 8)
# Every step has its own time limit; what finished is in $OUT either way.
# Usage (repository root): OUT=out SWEEP='--reps 60' NCU='--dtypes f32 ...' sh bench/sol/run_dev16.sh
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
T0=$(date +%s)
stamp() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvcc --version | tail -1
  ncu --version | tail -1
} >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
if [ ! -x build/dev16 ]; then
  stamp "building build/dev16"
  nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -I include -o build/dev16 bench/sol/dev16.cu src/gpu/sol.c -lcublas \
    >"$OUT/dev16-build.txt" 2>&1 || { tail "$OUT/dev16-build.txt"; exit 1; }
fi
run_bench() { # $1: output name
  stamp "build/smemlab bench transpose ${BENCH:-} --format json -> $1.json"
  # shellcheck disable=SC2086
  timeout "${BENCH_LIMIT:-300}" build/smemlab bench transpose ${BENCH:-} --format json >"$OUT/$1.json" 2>"$OUT/$1.log"
  echo "exit $?" >>"$OUT/$1.log"
  grep -E ' smemlab | memcpy | cublas | torch |exit|FAIL|NO' "$OUT/$1.log" | tail -${BENCH_TAIL:-30}
}
if [ -n "${BENCH+x}" ]; then
  run_bench transpose
  [ "${BENCH_AGAIN:-0}" = 1 ] && run_bench transpose-again
fi
if [ -n "${SWEEP:-}" ]; then
  stamp "sweep: build/dev16 $SWEEP"
  # shellcheck disable=SC2086
  timeout "${SWEEP_LIMIT:-240}" build/dev16 --csv "$OUT/sweep.csv" $SWEEP >"$OUT/sweep.log" 2>&1
  echo "sweep exit $?" >>"$OUT/sweep.log"
  grep -E 'FAIL|MISMATCH|exit|error' "$OUT/sweep.log" | tail -5
fi
if [ -n "${NCU:-}" ]; then
  stamp "ncu: build/dev16 --profile $NCU"
  # shellcheck disable=SC2086
  timeout "${NCU_LIMIT:-200}" ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section LaunchStats --section WarpStateStats --print-details all \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    build/dev16 --profile $NCU >"$OUT/ncu.txt" 2>&1
  echo "ncu exit $?" >>"$OUT/ncu.txt"
  tail -2 "$OUT/ncu.txt"
fi
if [ "${TESTS:-0}" = 1 ]; then
  stamp "ctest -R test_sol"
  (cd build && timeout 120 ctest -R 'test_sol' --output-on-failure) >>"$OUT/sweep.log" 2>&1
  echo "ctest exit $?" >>"$OUT/sweep.log"
  tail -4 "$OUT/sweep.log"
fi
stamp end
