#!/bin/sh
# run_device.sh: one GPU-machine call for issue 7: build smemlab (kernels, CUB wrapper), run the sol
# tests, the product benchmarks (`smemlab bench transpose|reduce --format json`), the dev harness's
# configuration sweep and Nsight Compute's DRAM/shared-memory counters. Everything lands in $OUT.
# Usage (repository root): OUT=out sh bench/sol/run_device.sh
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvcc --version | tail -1
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  git log -1 --format='commit %H' 2>/dev/null || true
} >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
J=$(nproc)
(nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -Xcompiler -fopenmp -o /tmp/sol_dev bench/sol/dev.cu -lcublas \
  >"$OUT/devbuild.txt" 2>&1; echo "dev build exit $?" >>"$OUT/devbuild.txt") &
DEVBUILD=$!
echo "== build"
make JOBS=$J >"$OUT/build.log" 2>&1 || { echo "build failed"; tail -30 "$OUT/build.log"; exit 1; }
echo "== tests"
(cd build && timeout 150 ctest -R 'test_sol' --output-on-failure) >"$OUT/product.log" 2>&1
echo "ctest exit $?" >>"$OUT/product.log"
tail -5 "$OUT/product.log"
echo "== product"
for b in transpose reduce; do
  echo "\$ build/smemlab bench $b --format json" >>"$OUT/product.log"
  timeout 200 build/smemlab bench $b --format json >"$OUT/$b.json" 2>>"$OUT/product.log"
  echo "exit $?" >>"$OUT/product.log"
done
grep -E 'smemlab|memcpy|cublas|cub |torch|exit|FAIL' "$OUT/product.log" | grep -v -E 'naive|tile |pad |swizzle|interleaved|sequential' | tail -60
wait $DEVBUILD
cat "$OUT/devbuild.txt"
echo "== dev sweep"
timeout 200 /tmp/sol_dev --csv "$OUT/dev.csv" --reps 100 --no-torch >"$OUT/dev.log" 2>&1
echo "dev exit $?" >>"$OUT/dev.log"
echo "== ncu"
timeout 100 ncu --clock-control none -k 'regex:^sol_(transpose|reduce)_(f|i)|geam|DeviceReduce' --metrics \
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,\
launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
  /tmp/sol_dev --profile --no-torch >>"$OUT/dev.log" 2>&1
echo "ncu exit $?" >>"$OUT/dev.log"
grep -E 'cfg_|smemlab|cub |cublas|memcpy' "$OUT/dev.log" | grep -E 'x 8192 |x 7000 |x 16384|268435456|67108864' | head -80
