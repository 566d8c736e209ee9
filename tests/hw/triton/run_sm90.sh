#!/bin/bash
# run_sm90.sh: on the H200 (the device tool; ships this folder and cubins/: Triton's cubins and PTX
# of the tutorial matmul for sm_90a, fp16 and tf32 (matmul_KIND.cubin), its inputs and smemlab's
# outputs (a_KIND.bin, b_KIND.bin, c_KIND.smemlab.bin), and the add / softmax / layer norm cubins
# of run.sh): triton_mm.c natively (results bit for bit against smemlab's), under Nsight Compute
# (shared ld / st / ldsm / LDGSTS / gmma requests and wavefronts), and compute-sanitizer's
# racecheck on triton_load (Triton's reductions: softmax, layer norm) and triton_mm. Writes
# $OUT/device.txt, drvlink.txt, mm-native.txt, c_*.h200.bin, mm-ncu.csv, racecheck.txt.
set -u
cd "$(dirname "$0")"
O=$(realpath -m "${OUT:-out}"); mkdir -p "$O"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; ncu --version | tail -1;
  compute-sanitizer --version | tail -1; date -u; } > "$O/device.txt" 2>&1
for p in triton_load triton_mm; do
  gcc -O2 -I/usr/local/cuda/include -o $p $p.c -L/usr/local/cuda/lib64/stubs -lcuda -lm > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
done
# tests/run/drvlink.c (carried beside this script): cuLink* with PTX, natively: the driver's answers
if [ -f drvlink.c ]; then gcc -O2 -I/usr/local/cuda/include -o drvlink drvlink.c -L/usr/local/cuda/lib64/stubs -lcuda && ./drvlink > "$O/drvlink.txt" 2>&1; echo "drvlink rc=$?"; fi
./triton_mm cubins "$O" > "$O/mm-native.txt" 2>&1; echo "mm native rc=$?"; cat "$O/mm-native.txt"
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum
M=$M,l1tex__lsuin_requests_op_gmma.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum
G=smsp__sass_inst_executed_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum
mkdir -p "$O/ncutmp"
timeout 90 ncu --clock-control none --csv --metrics "$M,$G" ./triton_mm cubins "$O/ncutmp" > "$O/mm-ncu.csv" 2> "$O/mm-ncu.err"; rc=$?; echo "ncu rc=$rc"
if [ $rc != 0 ]; then  # an unknown metric name stops ncu: again without the LDGSTS ones
  timeout 90 ncu --clock-control none --csv --metrics "$M" ./triton_mm cubins "$O/ncutmp" > "$O/mm-ncu.csv" 2>> "$O/mm-ncu.err"; echo "ncu (no ldgsts) rc=$?"
fi
rm -rf "$O/ncutmp"
grep -E "sum" "$O/mm-ncu.csv" | awk -F'","' '{print $5, $(NF-2), $NF}' | head -30
{ echo "== compute-sanitizer --tool racecheck --racecheck-detect-level info --racecheck-report all ./triton_load cubins"
  timeout 120 compute-sanitizer --tool racecheck --racecheck-detect-level info --racecheck-report all ./triton_load cubins; echo "rc=$?"
  echo "== compute-sanitizer --tool racecheck --racecheck-detect-level info --racecheck-report all ./triton_mm cubins ."
  mkdir -p rc_out; timeout 120 compute-sanitizer --tool racecheck --racecheck-detect-level info --racecheck-report all ./triton_mm cubins rc_out; echo "rc=$?"
} > "$O/racecheck.txt" 2>&1
cat "$O/racecheck.txt" | head -60
