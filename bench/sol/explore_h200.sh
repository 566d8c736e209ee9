#!/bin/sh
# explore_h200.sh: issue 34, session 4's first device call, on binaries built beforehand (BIN as in
# run_h200.sh: smemlab, kernels/sol_transpose.fatbin, libsmemlab_cub.so). From the repository root:
#   OUT=out BIN=dir sh bench/sol/explore_h200.sh
#   1. `smemlab bench transpose --tune again` at the shapes the H200 missed (4097^2, 1048576x32,
#      16384^2, 8192x4096; f32, f64 and f16 at 4097^2): every candidate measured on its kind's probe
#      (the log lists their times), then the rows against memcpy and cuBLAS -> tune.json, tune.log
#   2. Nsight Compute (--clock-control none) over one launch of each kernel in NCU (dtype shape kernel
#      triples): the bench run with a tuning cache that picks that kernel (the key from step 1's cache)
#      -> ncu-<kernel>.csv
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
cat "$OUT/smi.txt"
S=$BIN/smemlab
stamp "tune again"
timeout 150 "$S" bench transpose --tune again --tune-cache "$OUT/tune.tsv" --dtypes f32,f64 --no-torch --no-baselines \
  --sizes 4097x4097,1048576x32,16384x16384,8192x4096 --format json >"$OUT/tune.json" 2>"$OUT/tune.log"
echo "exit $?" >>"$OUT/tune.log"
timeout 60 "$S" bench transpose --tune again --tune-cache "$OUT/tune16.tsv" --dtypes f16 --no-torch --no-baselines \
  --sizes 4097x4097 --format json >"$OUT/tune16.json" 2>>"$OUT/tune.log"
echo "exit $?" >>"$OUT/tune.log"
grep -E 'tuning|exit|not exact' "$OUT/tune.log"
# the cached picks: 16384^2 f64 first in its process and after 8192^2 (the tuning probe measured it
# faster than the product's row); tall-skinny at strides off a power of two (4 MB output rows)
stamp "product checks"
for sz in 16384x16384 8192x8192,16384x16384; do
  timeout 60 "$S" bench transpose --tune-cache "$OUT/tune.tsv" --dtypes f64 --no-torch --no-baselines --no-cublas \
    --sizes "$sz" --format json >"$OUT/p-f64-$sz.json" 2>>"$OUT/product.log"
done
timeout 60 "$S" bench transpose --tune-cache "$OUT/tune.tsv" --dtypes f32,f64 --no-torch --no-baselines --no-cublas \
  --sizes 1048576x32,1048568x32,1048448x32,1000000x32 --format json >"$OUT/p-narrow.json" 2>>"$OUT/product.log"
grep -E ' (memcpy|smemlab) ' "$OUT/product.log"
KEY=$(head -1 "$OUT/tune.tsv" | cut -f1)
stamp "ncu (key $KEY)"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__grid_size,\
smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,\
smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,\
smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,\
lts__average_gcomp_input_sector_success_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
# dtype shape kind kernel
NCU=${NCU:-"f32 4097x4097 any sol_transpose_any_f32_raw
f64 4097x4097 any sol_transpose_any_f64_raw64x32
f64 16384x16384 large sol_transpose_large_f64_32x128"}
echo "$NCU" | while read -r dt shape kind k; do
  [ -n "$k" ] || continue
  printf '%s\t%s\t%s\t%s\t0\n' "$KEY" "$kind" "$dt" "$k" >"$OUT/pick.tsv"
  timeout 40 ncu --clock-control none -k "regex:^$k\$" -c 1 --metrics "$M" --csv \
    "$S" bench transpose --tune-cache "$OUT/pick.tsv" --dtypes "$dt" --sizes "$shape" --reps 1 --warmup 0 \
    --no-baselines --no-cublas --no-torch >"$OUT/ncu-$k-$shape.csv" 2>"$OUT/ncu-$k-$shape.err"
  echo "$k $shape exit $?"
done
stamp "end"
# one archive: the device call brings back a limited number of files
(cd "$OUT" && tar czf explore.tgz --exclude=explore.tgz ./*.csv ./*.err ./*.json ./*.log ./*.tsv ./*.txt 2>/dev/null &&
  find . -type f ! -name explore.tgz -delete)
exit 0
