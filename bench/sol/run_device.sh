#!/bin/sh
# run_device.sh: one GPU-machine call for issue 7: build smemlab (kernels, CUB wrapper), run the sol
# tests, the dev harness's transpose sweep (bench/sol/dev.cu), pick our transpose schedule from it
# (bench/sol/pick_kernel.py), then the product benchmarks once each:
#   build/smemlab bench transpose --kernel <pick> --format json
#   build/smemlab bench reduce --format json
# and, time permitting, Nsight Compute's DRAM / shared-memory counters. Everything lands in $OUT.
# Usage (repository root): OUT=out sh bench/sol/run_device.sh
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
T0=$(date +%s)
elapsed() { echo $(($(date +%s) - T0)); } # POSIX sh has no $SECONDS
stamp() { echo "[$(date -u +%H:%M:%S) +$(elapsed)s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvcc --version | tail -1
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
} >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
J=$(nproc)
(nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -Xcompiler -fopenmp -I include -o /tmp/sol_dev bench/sol/dev.cu src/gpu/sol.c -lcublas \
  >/tmp/devbuild.txt 2>&1; echo "dev build exit $?" >>/tmp/devbuild.txt) &
DEVBUILD=$!
stamp build
make JOBS=$J >/tmp/build.log 2>&1 || { echo "build failed"; tail -40 /tmp/build.log; cp /tmp/build.log "$OUT/"; exit 1; }
stamp tests
{ stamp "ctest -R test_sol"; (cd build && timeout 120 ctest -R 'test_sol' --output-on-failure); echo "ctest exit $?"; } \
  >"$OUT/product.log" 2>&1
tail -4 "$OUT/product.log"
wait $DEVBUILD
cat /tmp/devbuild.txt
stamp "dev sweep"
timeout 140 /tmp/sol_dev --only transpose --csv "$OUT/dev.csv" --reps 60 --no-torch >"$OUT/dev.log" 2>&1
echo "dev exit $?" >>"$OUT/dev.log"
KERNEL=$(python3 bench/sol/pick_kernel.py "$OUT/dev.csv" 2>"$OUT/choice.txt")
[ -n "$KERNEL" ] || KERNEL=tiled
echo "kernel $KERNEL" >>"$OUT/choice.txt"
cat "$OUT/choice.txt"
stamp product
{ stamp "build/smemlab bench transpose --kernel $KERNEL --format json"
  timeout 150 build/smemlab bench transpose --kernel "$KERNEL" --format json >"$OUT/transpose.json"
  echo "exit $?"
  stamp "build/smemlab bench reduce --format json"
  timeout 100 build/smemlab bench reduce --format json >"$OUT/reduce.json"
  echo "exit $?"; stamp done; } 2>>"$OUT/product.log" >>"$OUT/product.log"
grep -E ' smemlab | memcpy | cublas | cub | torch |exit|FAIL|NO' "$OUT/product.log" | tail -70
if [ "$(elapsed)" -lt 300 ]; then
  stamp ncu
  timeout $((390 - $(elapsed))) ncu --clock-control none -k 'regex:^sol_transpose_(pipelined_)?f32|^sol_transpose_pad_f32|geam|transpose_' --metrics \
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
launch__registers_per_thread,launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active \
    /tmp/sol_dev --profile --only transpose --no-torch >"$OUT/ncu.txt" 2>&1
  echo "ncu exit $?" >>"$OUT/ncu.txt"
fi
stamp end
