#!/bin/bash
# run_lean.sh [N]: cp.async run N on the H100 (gen_patternsN.py; 12 when not given), run7.sh made lean for a short
# device budget: ldsm_dev may come prebuilt beside it (nvcc -arch=sm_90 -O3 -lineinfo -o ldsm_dev
# ldsm.cu, CUDA 13.0, here: no build on the device), the counters are run7.sh's list as the H100's
# ncu 2025.3.1 has them (metrics-used.txt of the eleventh run; no --query-metrics), one ncu process (m) and a second (r1) only when at
# least 40 s of LIMIT are left. Needs beside it: ldsm.cu or ldsm_dev, patterns${N}.txt. Writes
# $OUT/ldsm${N}-results.tgz (device.txt, sass.txt, check log, m/ and r1/ with ncu-raw.txt and
# launches.log). Here: parse.py RAW/m --patterns patterns${N}.json --out h100-ldsm${N}.csv.
set -u; set -f
N=${1:-12}
cd "$(dirname "$0")"
R=${OUT:-out}; O=$R/w; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-100}
el() { echo $(( $(date +%s) - T0 )); }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  ncu --version; nvcc --version | tail -2; date -u; uname -r; } > "$O/device.txt" 2>&1
if [ ! -x ldsm_dev ]; then
  nvcc -arch=sm_90 -O3 -lineinfo -o ldsm_dev ldsm.cu > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
fi
cuobjdump -sass ldsm_dev | grep -E "Function|LDGSTS|LDGDEPBAR|DEPBAR" > "$O/sass.txt" 2>&1
echo "ready at $(el)s"
M="smsp__sass_inst_executed_op_ldgsts.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum"
M="$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"
M="$M,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
M="$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
M="$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
./ldsm_dev patterns${N}.txt all > "$O/check-patterns${N}.txt.log" 2>&1
echo "check rc=$? $(grep -c PASS "$O/check-patterns${N}.txt.log") pass, $(grep -c FAIL "$O/check-patterns${N}.txt.log") fail at $(el)s"
for run in m r1; do
  d=$O/$run; left=$(( LIMIT - $(el) ))
  if [ $run = r1 ] && [ $left -lt 40 ]; then echo "skipping r1: $left s left"; continue; fi
  mkdir -p "$d"
  echo "### group cpasync*" > "$d/ncu-raw.txt"; echo "### group cpasync*" > "$d/launches.log"
  timeout $left ncu --clock-control none --csv --kernel-name regex:"cpasync_k" --metrics "$M" \
      --log-file "$d/ncu.tmp" ./ldsm_dev patterns${N}.txt "cpasync*" >> "$d/launches.log" 2>&1
  echo "rc=$? t=$(el)s" >> "$d/launches.log"
  cat "$d/ncu.tmp" >> "$d/ncu-raw.txt"; rm -f "$d/ncu.tmp"
  echo "$run: $(grep -c '^LAUNCH' "$d/launches.log") launches, at $(el)s"
done
tar czf "$R/ldsm${N}-results.tgz" -C "$O" . && rm -rf "$O"; ls -la "$R"; echo "total $(el)s"
