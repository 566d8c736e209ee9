#!/bin/bash
# run.sh: on the H200 (the device tool; ships this folder and ptx/, the PTX that
# tests/run/numba_shared.py and cudacore_shared.py wrote with PTX_DIR=ptx under `smemlab run`):
# pyload.c built and run natively, then under Nsight Compute (every launch: shared ld / st
# requests and wavefronts). Writes $OUT/device.txt, native.txt, ncu.csv.
set -u
cd "$(dirname "$0")"
O=$(realpath -m "${OUT:-out}"); mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; date -u; } > "$O/device.txt" 2>&1
gcc -O2 -I/usr/local/cuda/include -o pyload pyload.c -L/usr/local/cuda/lib64/stubs -lcuda > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
./pyload ptx > "$O/native.txt" 2>&1; echo "native rc=$?"; cat "$O/native.txt"
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
timeout 40 ncu --clock-control none --csv --metrics "$M" ./pyload ptx > "$O/ncu.csv" 2> "$O/ncu.err"; echo "ncu rc=$?"
grep -E "smsp" "$O/ncu.csv" | cut -d, -f5,13- | head -20
