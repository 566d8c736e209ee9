#!/bin/sh
# diag_h200.sh: issue 34's second device call: why the H200 misses, on binaries built beforehand
# (BIN as in run_h200.sh). From the repository root:  OUT=out BIN=dir sh bench/sol/diag_h200.sh
#   1. dev16 at 4097^2 and its aligned neighbours 4096^2 (128-byte rows) and 4104^2 (16-byte rows):
#      is the miss the size (latency, tail) or the misalignment (the any path)? The copy kernel's
#      bytes in flight at 1 x 2^26; the f16 tiles at 4097^2 and 8191^2; f64's narrow tiles again.
#   2. Nsight Compute (--clock-control none) over the shipped kernels and cuBLAS at 4097^2 and
#      4096^2: DRAM bytes against the ideal, L2 sectors, instructions, duration.
#   3. the product at 16384^2 f64 alone (the first call's product run was 4.5 % slower than dev16's).
set -u
OUT=${OUT:-out}
BIN=${BIN:-build}
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
T0=$(date +%s)
stamp() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  ncu --version | tail -1
} >"$OUT/smi.txt" 2>&1
D="$BIN/dev16"
stamp "dev16"
timeout 60 "$D" --csv "$OUT/d-f32.csv" --dtypes f32 --shapes 4096x4096,4104x4104,4097x4097,1x67108864 --repeat 2 \
  --only 'ship,cublas,any_l16g16t256_m4_pf256_colmajor,any_l8g16t128_m8_pf256_colmajor,tile_l16g16t256,copy*' \
  >"$OUT/d-f32.log" 2>&1
timeout 60 "$D" --csv "$OUT/d-f16.csv" --dtypes f16 --shapes 4096x4096,4097x4097,8191x8191,1x67108864 --repeat 3 \
  --only 'ship,anym15r0_l8g16t256_m4_pf256_colmajor,anym15r0_l4g16t128_m8_pf256_colmajor,anym15r0_l4g32t256_m4_pf256_colmajor,anym15r0_l16g16t512_m2_pf256_colmajor,copy*' \
  >"$OUT/d-f16.log" 2>&1
timeout 90 "$D" --csv "$OUT/d-f64.csv" --dtypes f64 --shapes 4096x4096,4097x4097,1048576x32,1x67108864 --repeat 2 \
  --only 'ship,cublas,any_l16g16t256_m6_pf256_colmajor,any_l16g16t256_m8_pf256_colmajor,any_l8g16t128_m8_pf256_colmajor,tile_l64g16t1024,tile_l64g16t512,tile_l32g16t512,tile_l16g16t256,copy*' \
  >"$OUT/d-f64.log" 2>&1
stamp "ncu"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_red.sum,smsp__inst_executed.sum,smsp__issue_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size
for dt in f32 f16 f64; do
  timeout 60 ncu --clock-control none --metrics "$M" --csv "$D" --profile --dtypes $dt --shapes 4097x4097,4096x4096 \
    --only 'ship,cublas,any_l16g16t256_m4_pf256_colmajor,anym15r0_l8g16t256_m4_pf256_colmajor' >"$OUT/ncu-$dt.csv" 2>"$OUT/ncu-$dt.err"
done
stamp "product 16384^2 f64 alone"
timeout 60 "$BIN/smemlab" bench transpose --dtypes f64 --sizes 16384x16384,8192x8192 --no-torch --no-baselines \
  --format json >"$OUT/p-f64.json" 2>"$OUT/p-f64.log"
stamp "end"
(cd "$OUT" && tar czf diag.tgz --exclude=diag.tgz ./*.csv ./*.log ./*.err ./*.json ./smi.txt)
grep -h -E 'FAIL|MISMATCH' "$OUT"/d-*.log | head
for f in "$OUT"/d-*.log; do grep -v again "$f" | sed 's/  */ /g' | cut -c1-120; done
exit 0
