#!/bin/bash
# run.sh: on the H100: build ldsm.cu and ../../ldsm/gemm.cu, check every pattern's values, then
# count every pattern and the GEMM kernels with Nsight Compute (--clock-control none).
# Writes to $OUT: device.txt, metrics.txt (the ncu metrics naming ldsm/stsm/ldgsts/shared),
# sass.txt, check.log (values), ncu-raw.txt + launches.log (per group), gemm-ncu.txt; all of it packed
# into $OUT/ldsm-results.tgz at the end (the device tool returns at most 8 files).
set -u; set -f  # group names such as cpasync* are prefixes, not file globs
cd "$(dirname "$0")"
R=${OUT:-out}; O=$R/w; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-470}
el() { echo $(( $(date +%s) - T0 )); }
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
  ncu --version; nvcc --version | tail -2; date -u; uname -r; } > "$O/device.txt" 2>&1
GEMM=${GEMM:-gemm.cu}; PAT=${PAT:-patterns.txt}
nvcc -arch=sm_90 -O3 -lineinfo -o ldsm_dev ldsm.cu > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
nvcc -arch=sm_90 -O3 -lineinfo -o gemm_dev "$GEMM" >> "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
{ cuobjdump -sass ldsm_dev | grep -E "Function|LDSM|STSM|LDGSTS|LDGDEPBAR|DEPBAR|ARRIVES"
  echo "### gemm"; cuobjdump -sass gemm_dev | grep -E "Function|LDSM|STSM|LDGSTS|HMMA|DEPBAR|SYNCS|ARRIVES|BAR"; } > "$O/sass.txt" 2>&1
echo "built at $(el)s"
# which counters exist
ncu --query-metrics --chip gh100 > "$O/metrics-all.txt" 2>&1
grep -iE "ldsm|stsm|ldgsts|mem_shared|hmma|mbar|sync" "$O/metrics-all.txt" > "$O/metrics.txt"
CAND="smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_stsm smsp__sass_inst_executed_op_ldgsts
smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldsm l1tex__data_pipe_lsu_wavefronts_mem_shared_op_stsm
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_stsm
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared smsp__inst_executed_op_ldsm smsp__inst_executed_op_stsm smsp__inst_executed_op_ldgsts
l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts
l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write"
M=""
for c in $CAND; do grep -qE "^ *$c( |$)" "$O/metrics-all.txt" && M="$M,$c.sum"; done
for c in $(grep -oE "^ *[a-z0-9_]*(ldsm|stsm|ldgsts)[a-z0-9_]*" "$O/metrics-all.txt" | tr -d ' ' | sort -u); do
  case ",$M," in *",$c.sum,"*) ;; *) [ $(echo "$M" | tr ',' '\n' | wc -l) -lt 40 ] && M="$M,$c.sum";; esac; done
M=${M#,}; echo "$M" | tr ',' '\n' > "$O/metrics-used.txt"; echo "metrics: $(wc -l < "$O/metrics-used.txt")"
[ -n "$M" ] || M=smsp__sass_inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
# values first, without ncu
./ldsm_dev "$PAT" all "$O/dump.txt" > "$O/check.log" 2>&1; echo "check rc=$? $(grep -c PASS "$O/check.log") pass, $(grep -c FAIL "$O/check.log") fail at $(el)s"
./gemm_dev > "$O/gemm-check.log" 2>&1; echo "gemm rc=$?"; cat "$O/gemm-check.log"
./gemm_dev 256 192 512 7 >> "$O/gemm-check.log" 2>&1; echo "gemm big rc=$?"
# the GEMM kernels under ncu
GM="$M,smsp__inst_executed_pipe_tensor.sum,sm__inst_executed_pipe_tensor_op_hmma.sum,smsp__sass_inst_executed_op_global_ld.sum"
GM2=""; for m in $(echo "$GM" | tr ',' ' '); do b=${m%.sum}; grep -qE "^ *$b( |$)" "$O/metrics-all.txt" && GM2="$GM2,$m"; done
[ -n "${SKIP_GEMM:-}" ] || timeout 120 ncu --clock-control none --csv --metrics "${GM2#,}" --log-file "$O/gemm-ncu.txt" ./gemm_dev > "$O/gemm-ncu.log" 2>&1
echo "gemm ncu rc=$? at $(el)s"
for g in ${GROUPS_TO_RUN:-ldsm.x4 stsm.x4 ldsm.x1 ldsm.x2 stsm.x1 stsm.x2 cpasync* ldsm.x4.trans ldsm.x2.trans ldsm.x1.trans stsm.x4.trans stsm.x2.trans stsm.x1.trans}; do
  left=$(( LIMIT - $(el) )); [ $left -lt 20 ] && { echo "skipping $g: $left s left"; continue; }
  echo "### group $g" >> "$O/ncu-raw.txt"; echo "### group $g" >> "$O/launches.log"
  timeout $left ncu --clock-control none --csv --kernel-name regex:"ldsm_k|stsm_k|cpasync_k" --metrics "$M" \
      --log-file "$O/ncu-${g%\*}.tmp" ./ldsm_dev "$PAT" "$g" >> "$O/launches.log" 2>&1
  echo "rc=$? t=$(el)s" >> "$O/launches.log"
  cat "$O/ncu-${g%\*}.tmp" >> "$O/ncu-raw.txt"; rm -f "$O/ncu-${g%\*}.tmp"
  echo "group $g: $(grep -c '^LAUNCH' "$O/launches.log") launches so far, at $(el)s"
done
grep -E "FAIL|DONE|rc=" "$O/launches.log" | head -40
tar czf "$R/ldsm-results.tgz" -C "$O" . && rm -rf "$O"; ls -la "$R"; echo "total $(el)s"
