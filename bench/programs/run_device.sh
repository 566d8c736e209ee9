#!/bin/sh
# run_device.sh [FIRST [LAST]]: on the GPU machine, each program of $LIST (default programs.txt; lines FIRST..LAST)
# natively (its output, to compare with smemlab run's) and under Nsight Compute (every launch's
# shared-memory requests and wavefronts, ldmatrix's and cp.async's too). Writes $OUT/NAME.native.out and $OUT/NAME.ncu.csv.
cd "$(dirname "$0")"
OUT=${OUT:-out}; mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum
# ldmatrix (LDSM, also wmma's loads) and cp.async (LDGSTS): op_shared_ld/st leave them out
# (docs/bank-model.md); the names tests/hw/wmma/run_gemm.sh measured on the H100. MATRIX=0 leaves them out.
[ "${MATRIX:-1}" = 0 ] || M=$M,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$OUT/device.txt"
ncu --version | tail -1 >> "$OUT/device.txt"
date -u >> "$OUT/device.txt"
start=$(date +%s)
FIRST=${1:-1}; LAST=${2:-999}
n=0
while read name exe args; do
  n=$((n + 1))
  [ $n -lt $FIRST ] || [ $n -gt $LAST ] && continue
  if [ $(( $(date +%s) - start )) -gt ${BUDGET:-500} ]; then echo "$name: skipped (time)"; continue; fi
  t0=$(date +%s.%N)
  ./bin/$exe $args > "$OUT/$name.native.out" 2>&1; rc=$?
  t1=$(date +%s.%N)
  timeout ${NCU_TIMEOUT:-400} ncu --csv --clock-control none --metrics "$M" ./bin/$exe $args > "$OUT/$name.ncu.csv" 2> "$OUT/$name.ncu.err"; nrc=$?
  t2=$(date +%s.%N)
  echo "$name: native rc=$rc $(awk "BEGIN{print $t1 - $t0}") s, ncu rc=$nrc $(awk "BEGIN{print $t2 - $t1}") s, $(grep -c shared_ld.sum "$OUT/$name.ncu.csv") launches"
done < "${LIST:-programs.txt}"
