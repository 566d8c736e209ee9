#!/bin/sh
# run_device.sh: one run on a lent GPU machine: build (kernels by nvcc), the full bench as JSON (verify,
# time, count with Nsight Compute), then the test suite with the gpu tests. Everything goes to $OUT
# (default bench/out): env.txt, steps.txt, build.log, sass-scale.txt, bench-table.txt, bench.json,
# bench.log, test.log.
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
# The at-scale kernels' loads, as ptxas emitted them (LDS, LDS.64, LDS.128 per kernel).
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass -arch sm_90 build/kernels/scale.fatbin | awk '/Function :/ {f=$3} /LDS|STS/ {match($0, /(LDS|STS)[.A-Z0-9]*/); n[f" "substr($0, RSTART, RLENGTH)]++}
    END {for (k in n) print k, n[k]}' | sort > "$OUT/sass-scale.txt" 2>&1
fi

# First a table without counters (a result even if Nsight Compute misbehaves), then the full run.
timeout 100 build/smemlab bench --format table --no-counters > "$OUT/bench-table.txt" 2> "$OUT/bench.log"
stamp "bench --no-counters exit $?"
timeout 200 build/smemlab bench --format json > "$OUT/bench.json" 2>> "$OUT/bench.log"
stamp "bench exit $?"
tail -5 "$OUT/bench.log"

(cd build && timeout 130 ctest -V -j "$JOBS") > "$OUT/test.log" 2>&1
stamp "ctest exit $?"
tail -15 "$OUT/test.log"
