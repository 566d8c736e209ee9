#!/bin/sh
# run_dev.sh: one GPU-machine call for issue 7's kernel tuning: build the dev harness, check and time
# every variant (bench/sol/dev.cu), count shared-memory wavefronts and DRAM bytes with Nsight Compute,
# and keep the compiler's resource report and SASS. Writes everything under $OUT (default ./out).
# Usage (repository root): sh bench/sol/run_dev.sh
set -u
OUT=${OUT:-out}
mkdir -p "$OUT"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw \
  --format=csv >"$OUT/smi.txt" 2>&1
date -u +%Y-%m-%dT%H:%M:%SZ >>"$OUT/smi.txt"
nvcc --version | tail -1 >>"$OUT/smi.txt"
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)' >>"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
nvcc -arch=sm_90 -cubin -Xptxas -v -o /tmp/sol_t.cubin kernels/sol_transpose.cu >"$OUT/ptxas.txt" 2>&1
nvcc -arch=sm_90 -cubin -Xptxas -v -o /tmp/sol_r.cubin kernels/sol_reduce.cu >>"$OUT/ptxas.txt" 2>&1
for k in sol_transpose_f32 sol_transpose_f16 sol_transpose_f64; do
  cuobjdump -sass -fun $k /tmp/sol_t.cubin | grep -E 'Function|LDG|STG|LDS|STS|BAR' >>"$OUT/sass.txt" 2>&1
done
cuobjdump -sass -fun sol_reduce_f32 /tmp/sol_r.cubin | grep -E 'Function|LDG|STG|LDS|STS|BAR|ATOM' >>"$OUT/sass.txt" 2>&1
echo "== build dev harness"
nvcc -O3 -arch=sm_90 -std=c++17 -lineinfo -Xcompiler -fopenmp -I include -o /tmp/sol_dev bench/sol/dev.cu src/gpu/sol.c -lcublas || exit 1
echo "== run"
timeout 270 /tmp/sol_dev --csv "$OUT/dev.csv" --reps "${REPS:-100}" >"$OUT/dev.log" 2>&1
echo "dev exit $?" >>"$OUT/dev.log"
echo "== ncu"
timeout 150 ncu --clock-control none -k 'regex:^sol_(transpose|reduce)|DeviceReduce' --metrics \
smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,\
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem \
  /tmp/sol_dev --profile >"$OUT/ncu.txt" 2>&1
echo "ncu exit $?" >>"$OUT/ncu.txt"
grep -E 'transpose|reduce|PASS|FAIL|MISMATCH|torch|device' "$OUT/dev.log" | grep -v cfg_ | tail -150
