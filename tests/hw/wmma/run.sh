#!/bin/bash
# run.sh: on the H100 (the device tool; ships the carry folder): build wmma.cu, measure every
# fragment layout and check wmma.mma, count one wmma load/store per launch with Nsight Compute
# (--clock-control none), dump the SASS, then run the cuda-samples wmma programs (bin/, built
# here with build.sh) natively and under ncu, every launch. Everything packed into
# $OUT/wmma-results.tgz (the device tool returns at most 8 files).
set -u
cd "$(dirname "$0")"
R=${OUT:-out}; O=$R/w; mkdir -p "$O"
T0=$(date +%s); LIMIT=${LIMIT:-430}
el() { echo $(( $(date +%s) - T0 )); }
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
  ncu --version; nvcc --version | tail -2; date -u; } > "$O/device.txt" 2>&1
nvcc -arch=sm_90 -O3 -lineinfo -o wmma_dev wmma.cu > "$O/build.txt" 2>&1 || { cat "$O/build.txt"; exit 1; }
SASSRE="Function|LDS|STS|LDSM|STSM|LDGSTS|HMMA|IMMA|DMMA| LD\.| ST\.|LD\.E|ST\.E|ULDC|CVTA|MOVM|PRMT"
cuobjdump -sass wmma_dev | grep -E "$SASSRE" | grep -vE "ULDC" > "$O/sass.txt" 2>&1
for p in bin/*; do echo "### $p"; cuobjdump -sass "$p" | grep -E "Function|LDS|STS|LDSM|STSM|LDGSTS|HMMA|IMMA|DMMA| LD\.| ST\."; done > "$O/samples-sass.txt" 2>&1
echo "built at $(el)s"
./wmma_dev layout "$O/layout.csv" > "$O/layout.log" 2>&1; echo "layout rc=$? $(grep -c ^PASS "$O/layout.log") pass, $(grep -c ^FAIL "$O/layout.log") fail"
grep -E "FAIL|ALL" "$O/layout.log" | head
ncu --query-metrics --chip gh100 > "$O/metrics-all.txt" 2>&1
CAND="smsp__sass_inst_executed_op_ldsm smsp__sass_inst_executed_op_stsm sm__inst_executed_op_shared_stsm
smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_inst_executed_op_generic_ld smsp__sass_inst_executed_op_generic_st
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm
smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st

l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
smsp__sass_inst_executed_op_global_ld"
M=""
for c in $CAND; do grep -qE "^ *$c( |$)" "$O/metrics-all.txt" && M="$M,$c.sum"; done
M=${M#,}; echo "$M" | tr ',' '\n' > "$O/metrics-used.txt"; echo "metrics: $(wc -l < "$O/metrics-used.txt")"
# the samples natively, then under ncu (every launch)
SM="$M,smsp__inst_executed_pipe_tensor.sum"
for spec in "cudaTensorCoreGemm" "immaTensorCoreGemm" "bf16TensorCoreGemm kernel=0" "bf16TensorCoreGemm kernel=1" \
            "bf16TensorCoreGemm kernel=2" "tf32TensorCoreGemm kernel=0" "tf32TensorCoreGemm kernel=1" \
            "tf32TensorCoreGemm kernel=2" "dmmaTensorCoreGemm kernel=0" "dmmaTensorCoreGemm kernel=1" \
            "dmmaTensorCoreGemm kernel=2" "dmmaTensorCoreGemm kernel=3"; do
  set -- $spec; p=$1; a=${2:-}; n=$p${a:+-${a#kernel=}}
  [ -x bin/$p ] || { echo "$n: no binary"; continue; }
  timeout 60 ./bin/$p ${a:+-$a} > "$O/$n.native.out" 2>&1; rc=$?
  timeout 90 ncu --clock-control none --csv --metrics "$SM" ./bin/$p ${a:+-$a} > "$O/$n.ncu.csv" 2> "$O/$n.ncu.err"; nrc=$?
  echo "$n: native rc=$rc, $(grep -c mismatch "$O/$n.native.out") mismatches, ncu rc=$nrc at $(el)s"
done
# one wmma per launch, counted
for g in f16 f32 tf32 bf16 s8 s32 f64 u8; do
  left=$(( LIMIT - $(el) )); [ $left -lt 20 ] && { echo "skipping $g: $left s left"; continue; }
  echo "### group $g" >> "$O/ncu-raw.txt"; echo "### group $g" >> "$O/launches.log"
  timeout $left ncu --clock-control none --csv --kernel-name regex:"ld_k|st_k" --metrics "$M" \
      --log-file "$O/ncu-$g.tmp" ./wmma_dev count "$g." >> "$O/launches.log" 2>&1
  echo "rc=$? t=$(el)s" >> "$O/launches.log"
  cat "$O/ncu-$g.tmp" >> "$O/ncu-raw.txt"; rm -f "$O/ncu-$g.tmp"
  echo "group $g: $(grep -c '^LAUNCH' "$O/launches.log") launches so far, at $(el)s"
done
tar czf "$R/wmma-results.tgz" -C "$O" . && rm -rf "$O"; ls -la "$R"; echo "total $(el)s"
