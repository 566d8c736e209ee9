#!/bin/bash
# run_gemm.sh: on the H100 (the device tool; ships the carry folder with wmma_gemm.cu and bin/):
# tests/wmma/wmma_gemm.cu natively (its own check) and under Nsight Compute, every launch
# (shared ld/st/ldsm/ldgsts requests and wavefronts); the cuda-samples wmma programs of bin/
# again with the LDGSTS counters too. Results packed into $OUT/wmma-gemm.tgz.
set -u
cd "$(dirname "$0")"
R=${OUT:-out}; O=$R/g; mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1; date -u; } > "$O/device.txt" 2>&1
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
M=$M,smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum
nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -o wmma_gemm wmma_gemm.cu > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
cuobjdump -sass wmma_gemm | grep -E "Function|LDSM|LDS|STS|MOVM| LD\.| ST\." > "$O/gemm-sass.txt"
./wmma_gemm > "$O/gemm.native.out" 2>&1; echo "wmma_gemm native rc=$?"; tail -1 "$O/gemm.native.out"
timeout 120 ncu --clock-control none --csv --metrics "$M" ./wmma_gemm > "$O/gemm.ncu.csv" 2> "$O/gemm.ncu.err"; echo "ncu rc=$?"
for spec in "cudaTensorCoreGemm" "immaTensorCoreGemm" "bf16TensorCoreGemm kernel=0" "bf16TensorCoreGemm kernel=1" \
            "bf16TensorCoreGemm kernel=2" "tf32TensorCoreGemm kernel=0" "tf32TensorCoreGemm kernel=1" \
            "tf32TensorCoreGemm kernel=2" "dmmaTensorCoreGemm kernel=0" "dmmaTensorCoreGemm kernel=1" \
            "dmmaTensorCoreGemm kernel=2" "dmmaTensorCoreGemm kernel=3"; do
  set -- $spec; p=$1; a=${2:-}; n=$p${a:+-${a#kernel=}}
  timeout 90 ncu --clock-control none --csv --metrics "$M" ./bin/$p ${a:+-$a} > "$O/$n.ncu.csv" 2> "$O/$n.ncu.err"; nrc=$?
  echo "$n: ncu rc=$nrc, $(grep -c mismatch "$O/$n.ncu.csv") mismatches"
done
tar czf "$R/wmma-gemm.tgz" -C "$O" . && rm -rf "$O"; ls -la "$R"
