#!/bin/sh
# run_device.sh: one run on a lent GPU machine: build (kernels by nvcc), the full bench as JSON (verify,
# time, count with Nsight Compute), then the test suite with the gpu tests. Everything goes to $OUT
# (default bench/out): env.txt, build.log, bench.json, bench.log, test.log, sass-scale.txt.
# Usage: bench/run_device.sh   (from the repository root; JOBS=N for the build)
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-bench/out}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
mkdir -p "$OUT"
start=$(date +%s)
stamp() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$OUT/steps.txt"; }

{
  date -u +"date %Y-%m-%dT%H:%M:%SZ"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,memory.total --format=csv
  nvidia-smi -q -d CLOCK | sed -n '1,40p'
  nvcc --version | tail -2
  ncu --version | tail -1
  uname -a
} > "$OUT/env.txt" 2>&1
stamp "environment recorded"

if ! make build JOBS="$JOBS" > "$OUT/build.log" 2>&1; then
  stamp "build FAILED"; tail -40 "$OUT/build.log"; exit 1
fi
stamp "built"
command -v cuobjdump >/dev/null && cuobjdump -sass build/kernels/scale.fatbin > "$OUT/sass-scale.txt" 2>&1

timeout 240 build/smemlab bench --format json > "$OUT/bench.json" 2> "$OUT/bench.log"
stamp "bench exit $?"
tail -5 "$OUT/bench.log"

(cd build && timeout 150 ctest --output-on-failure -j "$JOBS") > "$OUT/test.log" 2>&1
stamp "ctest exit $?"
tail -15 "$OUT/test.log"
