#!/bin/bash
# run.sh: on the H100: count every pattern of wide.cu with Nsight Compute (--clock-control none).
# Writes to $OUT: device.txt, sass.txt, ncu-raw.txt (the ncu CSVs of every group, in order),
# launches.log (the program's own output: launch order and PASS/FAIL of each value check).
set -u
cd "$(dirname "$0")"
O=${OUT:-out}; mkdir -p "$O"
T0=$(date +%s)
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  ncu --version; nvcc --version | tail -2; date -u; uname -r; } > "$O/device.txt" 2>&1
BIN=${BIN:-./wide}; PF=${PF:-patterns.h}
if ! $BIN none > /dev/null 2>&1; then echo "carried binary failed; rebuilding" | tee -a "$O/device.txt"
  LLMC=; [ -f llmc_kernel4.cuh ] && LLMC=-DWITH_LLMC
  nvcc -arch=sm_90 -O3 -lineinfo $LLMC -DPATFILE="\"$PF\"" -o wide_dev wide.cu && BIN=./wide_dev; fi
cuobjdump -sass $BIN | grep -E "Function|LDS|STS|LDL|STL" > "$O/sass.txt" 2>&1
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum
for g in ${GROUPS_TO_RUN:-llmc ld8 ld16 st8 st16 same}; do
  echo "### group $g" >> "$O/ncu-raw.txt"; echo "### group $g" >> "$O/launches.log"
  timeout ${GT:-150} ncu --clock-control none --csv --kernel-name regex:"wide|matmul" --metrics "$M" \
      --log-file "$O/ncu-$g.tmp" $BIN $g >> "$O/launches.log" 2>&1
  echo "rc=$? t=$(( $(date +%s) - T0 ))s" >> "$O/launches.log"
  cat "$O/ncu-$g.tmp" >> "$O/ncu-raw.txt"; rm -f "$O/ncu-$g.tmp"
  echo "group $g done at $(( $(date +%s) - T0 ))s"
done
grep -c '"smsp__sass_inst_executed_op_shared_ld.sum"' "$O/ncu-raw.txt"
grep -E "FAIL|DONE|rc=" "$O/launches.log" | head -40
