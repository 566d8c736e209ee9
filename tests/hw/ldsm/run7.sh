#!/bin/bash
# run7.sh: a cp.async run on the H100 (the seventh: gen_patterns7.py; the eighth: RUN=8,
# gen_patterns8.py; RUN=9 LIMIT=200, RUN=10 LIMIT=170 likewise): build ldsm.cu, check every pattern's values (and print which lane's bytes land
# on a destination written twice: WIN lines), then count with Nsight Compute (--clock-control none,
# the counters of run.sh), each pattern file in its own ncu process. Seventh: patterns7r.txt twice
# (r1, r2: is the count the same in a fresh process?), patterns7.txt once (m); eighth:
# patterns8.txt twice (m, r1). Needs beside it: ldsm.cu and the patterns files. Writes
# $OUT/ldsm$RUN-results.tgz (device.txt, sass.txt, check.log, and per process a folder with
# ncu-raw.txt and launches.log, the input of parse.py).
# On this machine: parse.py RAW/m --patterns patterns7.json --out h100-ldsm7.csv and
# parse.py RAW/r1 RAW/r2 --patterns patterns7r.json --out h100-ldsm7r.csv (eighth: parse.py RAW/m
# --patterns patterns8.json --out h100-ldsm8.csv, RAW/r1 likewise to h100-ldsm8r.csv).
set -u; set -f
cd "$(dirname "$0")"
R=${OUT:-out}; O=$R/w; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-480}
el() { echo $(( $(date +%s) - T0 )); }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  ncu --version; nvcc --version | tail -2; date -u; uname -r; } > "$O/device.txt" 2>&1
nvcc -arch=sm_90 -O3 -lineinfo -o ldsm_dev ldsm.cu > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
cuobjdump -sass ldsm_dev | grep -E "Function|LDGSTS|LDGDEPBAR|DEPBAR" > "$O/sass.txt" 2>&1
echo "built at $(el)s"
ncu --query-metrics --chip gh100 > "$O/metrics-all.txt" 2>&1
CAND="smsp__sass_inst_executed_op_ldgsts smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts
l1tex__data_pipe_lsu_wavefronts_mem_shared
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts"
M=""
for c in $CAND; do grep -qE "^ *$c( |$)" "$O/metrics-all.txt" && M="$M,$c.sum"; done
M=${M#,}; echo "$M" | tr ',' '\n' > "$O/metrics-used.txt"; echo "metrics: $(wc -l < "$O/metrics-used.txt")"
rm -f "$O/metrics-all.txt"
RUN=${RUN:-7}
if [ "$RUN" = 7 ]; then RUNS="r1:patterns7r.txt m:patterns7.txt r2:patterns7r.txt"; CHECK="patterns7.txt patterns7r.txt"
else RUNS="m:patterns$RUN.txt r1:patterns$RUN.txt"; CHECK="patterns$RUN.txt"; fi
for f in $CHECK; do ./ldsm_dev $f all > "$O/check-$f.log" 2>&1; echo "check $f rc=$? $(grep -c PASS "$O/check-$f.log") pass, $(grep -c FAIL "$O/check-$f.log") fail at $(el)s"; done
for run in $RUNS; do
  d=$O/${run%%:*}; pat=${run#*:}; mkdir -p "$d"
  left=$(( LIMIT - $(el) )); [ $left -lt 20 ] && { echo "skipping $run: $left s left"; continue; }
  echo "### group cpasync*" > "$d/ncu-raw.txt"; echo "### group cpasync*" > "$d/launches.log"
  timeout $left ncu --clock-control none --csv --kernel-name regex:"cpasync_k" --metrics "$M" \
      --log-file "$d/ncu.tmp" ./ldsm_dev "$pat" "cpasync*" >> "$d/launches.log" 2>&1
  echo "rc=$? t=$(el)s" >> "$d/launches.log"
  cat "$d/ncu.tmp" >> "$d/ncu-raw.txt"; rm -f "$d/ncu.tmp"
  echo "$run: $(grep -c '^LAUNCH' "$d/launches.log") launches, at $(el)s"
done
tar czf "$R/ldsm$RUN-results.tgz" -C "$O" . && rm -rf "$O"; ls -la "$R"; echo "total $(el)s"
