#!/bin/bash
# run.sh: on the H200 (the device tool; ships this folder and cubins/, Triton's cubins of the three
# kernels): triton_load.c built and run natively, then under Nsight Compute (every launch: shared
# ld / st / ldsm requests and wavefronts). Writes $OUT/device.txt, native.txt, ncu.csv.
set -u
cd "$(dirname "$0")"
O=$(realpath -m "${OUT:-out}"); mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; date -u; } > "$O/device.txt" 2>&1
gcc -O2 -I/usr/local/cuda/include -o triton_load triton_load.c -L/usr/local/cuda/lib64/stubs -lcuda -lm > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
./triton_load cubins > "$O/native.txt" 2>&1; echo "native rc=$?"; cat "$O/native.txt"
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
timeout 60 ncu --clock-control none --csv --metrics "$M" ./triton_load cubins > "$O/ncu.csv" 2> "$O/ncu.err"; echo "ncu rc=$?"
grep -E "smsp" "$O/ncu.csv" | cut -d, -f5,13- | head -30
# cuda-samples' driver programs (built beforehand with nvcc 13: docs/run.md's commands, carried in
# samples/ with their fatbinaries), natively
if [ -d samples ]; then cd samples && for p in vectorAddDrv matrixMulDrv; do timeout 20 ./$p > "$O/$p.txt" 2>&1; echo "$p rc=$?"; grep -E "PASS|FAIL|Device" "$O/$p.txt"; done; fi
