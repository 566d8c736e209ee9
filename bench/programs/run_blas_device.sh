#!/bin/sh
# run_blas_device.sh: on the GPU machine (an H200), beside blas.txt with the binaries of
# build_blas.sh in bin/ (and lib/: see build_blas.sh): each program of $LIST (default blas.txt)
# natively (its own verdict, wall seconds; BUDGET seconds in all, default 170) and under
# `ncu --clock-control none --launch-count NCU_LAUNCHES` (run_device.sh's shared-memory
# counters, ldmatrix and cp.async included); every NVIDIA cuBLAS example (bin/cls_*) and
# tests/run/cublas_ex.cu's modes (bin/cublas_ex) natively: their output, which the stand-in's must
# equal. Everything goes into $OUT/blas.tar.gz: device.txt, NAME.native.out, NAME.ncu.csv,
# NAME.ncu.err, cls_*.out, cublas_ex.MODE.out.
cd "$(dirname "$0")"
OUT=${OUT:-out}; W=$(mktemp -d); mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}:$PWD/lib # lib/: libgflags (hgemm, hgemv)
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; date -u; } > "$W/device.txt"
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum
M=$M,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
M=$M,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
for m in int8 complex grouped status; do ./bin/cublas_ex $m > "$W/cublas_ex.$m.out" 2>&1; echo "rc=$?" >> "$W/cublas_ex.$m.out"; done
for f in bin/cls_*; do n=$(basename $f); timeout 20 ./$f > "$W/$n.out" 2>&1; echo "rc=$?" >> "$W/$n.out"; done
start=$(date +%s)
grep -v "^#" "${LIST:-blas.txt}" | while read name exe lc args; do
  [ -n "$name" ] || continue
  if [ $(( $(date +%s) - start )) -gt ${BUDGET:-170} ]; then echo "$name: skipped (time)" >> "$W/device.txt"; continue; fi
  t0=$(date +%s.%N)
  timeout 60 ./bin/$exe $args > "$W/$name.native.out" 2>&1; rc=$?
  t1=$(date +%s.%N)
  timeout ${NCU_TIMEOUT:-60} ncu --csv --clock-control none --launch-count $lc --metrics "$M" ./bin/$exe $args > "$W/$name.ncu.csv" 2> "$W/$name.ncu.err"; nrc=$?
  t2=$(date +%s.%N)
  echo "$name: native rc=$rc $(awk "BEGIN{print $t1 - $t0}") s, ncu rc=$nrc $(awk "BEGIN{print $t2 - $t1}") s, $(grep -c shared_ld.sum "$W/$name.ncu.csv") launches" >> "$W/device.txt"
done
tar czf "$OUT/blas.tar.gz" -C "$W" .
