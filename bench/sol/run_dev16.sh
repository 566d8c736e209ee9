#!/bin/sh
# run_dev16.sh: one GPU-machine call for issue 16 (transpose at every shape). From the repository root
# of a tree (build/ is made if it has no build/smemlab: cmake, release, the targets used here):
#   0. build   smemlab, its kernels, libsmemlab_cub, test_sol(_gpu), build/dev16 -> $OUT/build.txt
#              (with the registers and spills of every transpose kernel, from cuobjdump)
#   1. SWEEP   build/dev16 $SWEEP           -> $OUT/sweep.csv, sweep.log   (unset: skipped)
#   2. PICK=1  the any kernels' -D flags from the sweep (bench/sol/pick_any.py; PICK_SHAPES: its
#              shapes, the first deciding), the product's
#              sol_transpose.fatbin rebuilt with them (the flags: sweep.log and build.txt)
#   3. TESTS=1 ctest -R test_sol (the product path on the GPU, before anything is timed) -> $OUT/tests.log
#   4. BENCH   build/smemlab bench transpose $BENCH --format json -> $OUT/transpose.json, .log
#              (BENCH_AGAIN=1: a second run -> transpose-again.json, .log; 2: a third too -> transpose-third.*)
#   5. NCU     Nsight Compute over build/dev16 --profile $NCU -> $OUT/ncu.txt.gz (unset: skipped)
# (at most 8 files come back from the device machine: smi, build, tests, two bench files, two sweep
# files and ncu are 8; BENCH_AGAIN adds two, so leave SWEEP or NCU out with it)
# Every step has its own time limit; what finished is in $OUT either way.
# Usage (repository root): OUT=out BENCH='' SWEEP='--reps 60' NCU='--dtypes f32 ...' TESTS=1 sh bench/sol/run_dev16.sh
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
: >"$OUT/build.txt"
if [ ! -x build/smemlab ]; then
  stamp "building smemlab (cmake, release) and build/dev16"
  mkdir -p build
  nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -I include -o build/dev16 bench/sol/dev16.cu src/gpu/sol.c -lcublas \
    >build/dev16-build.txt 2>&1 &
  DEV16=$!
  GEN=; command -v ninja >/dev/null 2>&1 && GEN='-G Ninja'
  # shellcheck disable=SC2086
  { cmake -S . -B build $GEN -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j "$(nproc)" --target smemlab smemlab_cub test_sol test_sol_gpu; } >>"$OUT/build.txt" 2>&1 ||
    { tail -20 "$OUT/build.txt"; exit 1; }
  wait $DEV16 || { cat build/dev16-build.txt; exit 1; }
elif [ ! -x build/dev16 ]; then
  stamp "building build/dev16"
  nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -I include -o build/dev16 bench/sol/dev16.cu src/gpu/sol.c -lcublas \
    >build/dev16-build.txt 2>&1 || { cat build/dev16-build.txt; exit 1; }
fi
cat build/dev16-build.txt >>"$OUT/build.txt" 2>/dev/null
# registers, spills and shared memory of every shipped transpose kernel, as built
cuobjdump -res-usage build/kernels/sol_transpose.fatbin 2>&1 | grep -A1 'Function sol_transpose_' >>"$OUT/build.txt"
stamp "built"
if [ -n "${SWEEP:-}" ]; then
  stamp "sweep: build/dev16 $SWEEP"
  # shellcheck disable=SC2086
  timeout "${SWEEP_LIMIT:-240}" build/dev16 --csv "$OUT/sweep.csv" $SWEEP >"$OUT/sweep.log" 2>&1
  echo "sweep exit $?" >>"$OUT/sweep.log"
  grep -E 'FAIL|MISMATCH|exit|error' "$OUT/sweep.log" | tail -5
fi
if [ "${PICK:-0}" = 1 ]; then
  # the any kernels' -D flags from the sweep (bench/sol/pick_any.py); the product's fatbin rebuilt with
  # them, with cmake's nvcc flags, before the tests and the bench use it
  FLAGS=$(python3 bench/sol/pick_any.py "$OUT/sweep.csv" ${PICK_SHAPES:-} 2>>"$OUT/sweep.log")
  stamp "picked: $FLAGS"
  echo "picked: $FLAGS" >>"$OUT/sweep.log"
  # shellcheck disable=SC2086
  nvcc -fatbin -lineinfo -Werror all-warnings -gencode arch=compute_90,code=sm_90 \
    -gencode arch=compute_90,code=compute_90 -gencode arch=compute_80,code=sm_80 $FLAGS \
    -o build/kernels/sol_transpose.fatbin kernels/sol_transpose.cu >>"$OUT/build.txt" 2>&1 ||
    { echo "rebuild failed"; tail "$OUT/build.txt"; exit 1; }
  echo "rebuilt build/kernels/sol_transpose.fatbin with: $FLAGS" >>"$OUT/build.txt"
  cuobjdump -res-usage build/kernels/sol_transpose.fatbin 2>&1 | grep -A1 'Function sol_transpose_any' >>"$OUT/build.txt"
fi
if [ "${TESTS:-0}" = 1 ]; then
  stamp "ctest -R test_sol"
  (cd build && timeout 150 ctest -R 'test_sol' --output-on-failure) >"$OUT/tests.log" 2>&1
  echo "ctest exit $?" >>"$OUT/tests.log"
  tail -4 "$OUT/tests.log"
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
  [ "${BENCH_AGAIN:-0}" -ge 1 ] && run_bench transpose-again
  [ "${BENCH_AGAIN:-0}" -ge 2 ] && run_bench transpose-third
fi
if [ -n "${NCU:-}" ]; then
  stamp "ncu: build/dev16 --profile $NCU"
  # shellcheck disable=SC2086
  timeout "${NCU_LIMIT:-200}" ncu --clock-control none --section SpeedOfLight --section MemoryWorkloadAnalysis_Tables \
    --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
    --section InstructionStats --print-details all \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum \
    build/dev16 --profile $NCU >"$OUT/ncu.txt" 2>&1
  echo "ncu exit $?" >>"$OUT/ncu.txt"
  tail -2 "$OUT/ncu.txt"
  # one line per kernel: duration, DRAM and L2 throughput, issue activity, occupancy, instructions
  awk '/\)x\(/{k=$0; sub(/^ +(void )?/, "", k); sub(/\((T1|cublas).*/, "", k); sub(/ \([0-9]+, [0-9]+, [0-9]+\)x.*/, "", k)}
       /Duration|DRAM Throughput|L2 Cache Throughput|Issue Active|Achieved Occupancy|smsp__inst_executed.sum |Registers Per Thread/ {
         l=$0; gsub(/  +/, " ", l); if (!seen[k l]++) printf "%s |%s\n", k, l }' "$OUT/ncu.txt" | head -90
  gzip -f "$OUT/ncu.txt"
fi
stamp end
