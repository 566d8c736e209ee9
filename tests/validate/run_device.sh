#!/bin/sh
# run_device.sh: on a GPU machine: build launch.cu, count every kernel with Nsight Compute
# (--clock-control none), write the CSV to $OUT (or ./out). Used to make h100-validation.csv.
set -e
cd "$(dirname "$0")"
OUT=${OUT:-out}; mkdir -p "$OUT"
nvcc -arch=sm_90 -lineinfo -o "$OUT/launch" launch.cu
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
M=$M,smsp__inst_executed_op_shared_atom.sum
ncu --csv --clock-control none --metrics "$M" "$OUT/launch" > "$OUT/validation-ncu.csv" 2> "$OUT/ncu.err" || { cat "$OUT/ncu.err"; exit 1; }
cuobjdump -sass "$OUT/launch" | grep -E "Function|LDS|STS|ATOMS" > "$OUT/validation-sass.txt" || true
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
date -u >> "$OUT/device.txt"
wc -l "$OUT/validation-ncu.csv"
