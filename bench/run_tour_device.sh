#!/bin/sh
# run_tour_device.sh: on a lent GPU machine, the release check of the whole tree: build, the gpu-labelled
# tests, then `smemlab tour` (every documents' kernel predicted, then measured: verified, timed,
# counted by Nsight Compute, with a match column). Output in $OUT (default bench/out).
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
mkdir -p "$OUT"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$OUT/steps.txt"; }
{ date -u; nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv; nvcc --version | tail -1; } > "$OUT/env.txt" 2>&1
make build JOBS=$(nproc) > "$OUT/build.log" 2>&1 || { stamp "build FAILED"; tail -30 "$OUT/build.log"; exit 1; }
stamp built
(cd build && ctest -L gpu --output-on-failure) > "$OUT/gpu-tests.log" 2>&1
stamp "gpu tests exit $?"
tail -6 "$OUT/gpu-tests.log"
timeout 420 build/smemlab tour > "$OUT/tour.txt" 2> "$OUT/tour.err"
stamp "tour exit $?"
tail -100 "$OUT/tour.txt"
