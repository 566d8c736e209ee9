#!/bin/sh
# run_cutlass_device.sh: on the GPU machine (an H200), each program of $LIST (default cutlass.txt,
# binaries in bin/, built by build_cutlass.sh) natively (its own verification) and under
# `ncu --clock-control none`: run_device.sh's counters (shared ld/st/atom, ldmatrix, cp.async),
# stmatrix's, wgmma's shared reads (l1tex__lsuin_requests_op_gmma, ..._wavefronts_..._op_gmma,
# ..._bank_conflicts_..._op_gmma, as tests/run/h200-wgmma-ncu.csv was counted) and distributed
# shared memory's (smsp__sass_inst_executed_op_dshared*, the xbar bytes of mem_dshared), each name
# first checked against `ncu --query-metrics` (a name ncu does not know would stop it). Also each
# binary's SASS opcode census (cuobjdump -sass: opcode counts only). Everything goes into
# $OUT/cutlass.tar.gz (the device tool brings back 8 files at most): device.txt, metrics.txt,
# NAME.native.out, NAME.ncu.csv, NAME.ncu.err, NAME.sass.tsv, NAME.res.txt (ptxas's registers and
# shared memory per kernel: cuobjdump -res-usage).
# The cute tutorials time 100 more launches of their one kernel after the first: NCU_LAUNCHES
# (default 2) of them are counted (compare.py --prefix compares those).
cd "$(dirname "$0")"
OUT=${OUT:-out}; W=$(mktemp -d); mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$W/device.txt"
ncu --version | tail -1 >> "$W/device.txt"
date -u >> "$W/device.txt"
ncu --query-metrics --chip gh100 > "$W/metrics-all.txt" 2>&1
CAND="smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st
smsp__sass_inst_executed_op_shared_atom
smsp__sass_inst_executed_op_ldsm smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm
smsp__sass_inst_executed_op_ldgsts smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts
smsp__sass_inst_executed_op_shared_stsm smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm
l1tex__lsuin_requests_op_gmma l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma
smsp__sass_inst_executed_op_dshared smsp__sass_inst_executed_op_dshared_ld smsp__sass_inst_executed_op_dshared_st
smsp__sass_inst_executed_op_dshared_atom
l1tex__m_xbar2l1tex_read_bytes_mem_dshared l1tex__m_l1tex2xbar_write_bytes_mem_dshared"
M=""; : > "$W/metrics.txt"
for c in $CAND; do
  if grep -qE "^ *$c( |$)" "$W/metrics-all.txt"; then M="$M,$c.sum"; echo "$c yes" >> "$W/metrics.txt"
  else echo "$c NOT KNOWN" >> "$W/metrics.txt"; fi
done
grep -E "gmma|dshared" "$W/metrics-all.txt" >> "$W/metrics.txt"
M=${M#,}
start=$(date +%s)
while read name exe args; do
  [ -n "$name" ] || continue
  if [ $(( $(date +%s) - start )) -gt ${BUDGET:-240} ]; then echo "$name: skipped (time)"; continue; fi
  [ -x "bin/$exe" ] || { echo "$name: not built"; continue; }
  case $name in wgmma*) LC="--launch-count ${NCU_LAUNCHES:-2}" ;; *) LC="" ;; esac
  t0=$(date +%s.%N)
  ./bin/$exe $args > "$W/$name.native.out" 2>&1; rc=$?
  t1=$(date +%s.%N)
  timeout ${NCU_TIMEOUT:-150} ncu --csv --clock-control none $LC --metrics "$M" ./bin/$exe $args > "$W/$name.ncu.csv" 2> "$W/$name.ncu.err"; nrc=$?
  t2=$(date +%s.%N)
  cuobjdump -sass "bin/$exe" | awk '/Function :/ { f = $3; next }
    /^ +\/\*[0-9a-f]+\*\// { op = $2; if (op ~ /^@/) op = $3; sub(/;$/, "", op); n[op]++ }
    END { for (o in n) print o "\t" n[o] }' | sort > "$W/$name.sass.tsv"
  cuobjdump -res-usage "bin/$exe" 2>&1 | grep -E 'Function|REG' > "$W/$name.res.txt"
  echo "$name: native rc=$rc $(awk "BEGIN{print $t1 - $t0}") s, ncu rc=$nrc $(awk "BEGIN{print $t2 - $t1}") s, $(grep -c shared_ld.sum "$W/$name.ncu.csv") launches" | tee -a "$W/device.txt"
done < "${LIST:-cutlass.txt}"
tar czf "$OUT/cutlass.tar.gz" -C "$W" .
