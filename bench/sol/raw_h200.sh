#!/bin/sh
# raw_h200.sh: issue 34, session 5 (the raw any kernels' store and bulk-copied rows at 4097x4097): one
# device call on binaries built beforehand (smemlab, kernels/*.fatbin, libsmemlab_cub.so,
# tests/test_sol_gpu). From the repository root:
#   OUT=out BIN=dir TEST_BUILD_DIR=path [NCU="dtype kernel ..."] sh bench/sol/raw_h200.sh
#   1. `smemlab bench transpose --tune again` at 4097x4097 f32 f16 f64 (every candidate of the any kind
#      timed: the log's `tuning` lines) -> tune-1.*
#   2. the product's rows three times with those picks (torch too) -> any-1..3.json, .log
#   3. test_sol_gpu (found in TEST_BUILD_DIR, the folder it was compiled in, linked to BIN) -> tests.log
#   4. three more `--tune again` -> tune-2..4.*; Nsight Compute (--clock-control none, one launch) of
#      each kernel in NCU, picked through a tuning cache written for it -> ncu-<kernel>.csv
#   Everything in one archive, raw.tgz (the device call brings back a limited number of files).
set -u
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
T0=$(date +%s)
stamp() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*"; }
S=$BIN/smemlab
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv; date -u +%Y-%m-%dT%H:%M:%SZ; ncu --version | tail -1; } >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
tune() {
  stamp "tune again $1"
  timeout 50 "$S" bench transpose --tune again --tune-cache "$OUT/tune-$1.tsv" --dtypes f32,f16,f64 --no-torch \
    --no-baselines --sizes 4097x4097 --format json >"$OUT/tune-$1.json" 2>"$OUT/tune-$1.log"
  echo "exit $?" >>"$OUT/tune-$1.log"
  grep -E 'tuning|exit|not exact' "$OUT/tune-$1.log"
}
tune 1
for i in 1 2 3; do
  stamp "product rows $i"
  timeout 40 "$S" bench transpose --tune-cache "$OUT/tune-1.tsv" --dtypes f32,f16,f64 --sizes 4097x4097 \
    --torch-script bench/sol/torch_ref.py --format json >"$OUT/any-$i.json" 2>"$OUT/any-$i.log"
  echo "exit $?" >>"$OUT/any-$i.log"
  grep -E 'exit|tuning' "$OUT/any-$i.log"
done
stamp "test_sol_gpu"
if [ ! -e "$TEST_BUILD_DIR" ]; then mkdir -p "$(dirname "$TEST_BUILD_DIR")" && ln -s "$(cd "$BIN" && pwd)" "$TEST_BUILD_DIR"; fi
(cd "$BIN" && timeout 60 tests/test_sol_gpu) >"$OUT/tests.log" 2>&1
echo "exit $?" >>"$OUT/tests.log"
tail -2 "$OUT/tests.log"
for i in 2 3 4; do tune "$i"; done
KEY=$(head -1 "$OUT/tune-1.tsv" | cut -f1)
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,launch__grid_size,\
smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,\
smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,\
smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
echo "${NCU:-}" | tr ' ' '\n' | paste - - | while read -r dt k; do
  [ -n "$k" ] || continue
  stamp "ncu $k"
  printf '%s\tany\t%s\t%s\t0\n' "$KEY" "$dt" "$k" >"$OUT/pick-$k.tsv"
  timeout 30 ncu --clock-control none -k "regex:^$k\$" -c 1 --metrics "$M" --csv \
    "$S" bench transpose --tune-cache "$OUT/pick-$k.tsv" --dtypes "$dt" --sizes 4097x4097 --reps 1 --warmup 0 \
    --no-baselines --no-cublas --no-torch >"$OUT/ncu-$k.csv" 2>"$OUT/ncu-$k.err"
  echo "$k exit $?"
done
stamp "end"
(cd "$OUT" && find . -maxdepth 1 -type f ! -name raw.tgz | tar czf raw.tgz -T - && find . -type f ! -name raw.tgz -delete)
exit 0
