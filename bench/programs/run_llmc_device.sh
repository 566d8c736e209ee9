#!/bin/sh
# run_llmc_device.sh (copy beside list.txt and src/ = llm.c/dev/cuda in the carry folder): on the GPU machine, each llm.c dev/cuda program (default arguments): built as
# smemlab's users build (nvcc 13 -O3 --use_fast_math -arch=sm_90 -lineinfo -cudart shared), run
# natively, then under Nsight Compute for its first 40 launches (shared ld/st/atom requests and
# wavefronts). $OUT/NAME.native.out, $OUT/NAME.ncu.csv, $OUT/summary.txt.
cd "$(dirname "$0")"
OUT=${OUT:-out}; mkdir -p "$OUT/r" bin
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; date -u; } > "$OUT/r/device.txt"
for p in $(cat list.txt); do
  nvcc -O3 --use_fast_math -arch=sm_90 -lineinfo -cudart shared -std=c++17 -Isrc src/$p.cu -lcublas -lcublasLt -o bin/$p > "$OUT/r/$p.build.txt" 2>&1 &
done
wait
start=$(date +%s)
for p in $(cat list.txt); do
  if [ $(( $(date +%s) - start )) -gt ${BUDGET:-300} ]; then echo "$p: skipped (time)" >> "$OUT/r/summary.txt"; continue; fi
  t0=$(date +%s.%N)
  rc=-; [ "${NATIVE:-1}" = 1 ] && { timeout 60 ./bin/$p > "$OUT/r/$p.native.out" 2>&1; rc=$?; }
  t1=$(date +%s.%N)
  timeout ${NCU_TIMEOUT:-120} ncu --csv --clock-control none --launch-count 40 --metrics "$M" ./bin/$p > "$OUT/r/$p.ncu.csv" 2> "$OUT/r/$p.ncu.err"; nrc=$?
  t2=$(date +%s.%N)
  echo "$p: native rc=$rc $(awk "BEGIN{print $t1 - $t0}") s, ncu rc=$nrc $(awk "BEGIN{print $t2 - $t1}") s, $(grep -c shared_ld.sum "$OUT/r/$p.ncu.csv") launches" >> "$OUT/r/summary.txt"
done
tar czf "$OUT/llmc.tgz" -C "$OUT" r
