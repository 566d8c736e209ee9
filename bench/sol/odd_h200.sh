#!/bin/sh
# odd_h200.sh: issue 34, session 5 (odd shapes, the any kind at 4097x4097): one device call on binaries
# built beforehand (smemlab, kernels/*.fatbin, libsmemlab_cub.so, tests/test_sol_gpu: all need only
# libc and the driver). From the repository root:
#   OUT=out BIN=dir [TEST_BUILD_DIR=path] [TUNES=2] [RUNS=2] [NCU="dtype kernel ..."] sh bench/sol/odd_h200.sh
#   1. test_sol_gpu (every kernel and candidate on the device, every element checked); it finds smemlab
#      and the kernels in the build folder it was compiled in: TEST_BUILD_DIR names that folder, linked
#      to BIN where it does not exist -> tests.log
#   2. TUNES times `smemlab bench transpose --tune again` at 4097x4097, f32 f16 f64, without torch or
#      the textbook kernels: every candidate of the any kind measured (the log lists their times), then
#      the rows against memcpy and cuBLAS -> tune-i.json, tune-i.log, tune-i.tsv
#   3. RUNS times the product's rows at 4097x4097 (the any kind's only default size), f32 f16 f64, with
#      torch and the textbook kernels, the picks of tune-1.tsv -> any-i.json, any-i.log
#   4. Nsight Compute (--clock-control none) over one launch of each kernel in NCU (dtype kernel
#      pairs, at 4097x4097), picked through a tuning cache written for it -> ncu-<kernel>.csv
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
if [ -n "${TEST_BUILD_DIR:-}" ]; then
  stamp "test_sol_gpu"
  if [ ! -e "$TEST_BUILD_DIR" ]; then
    mkdir -p "$(dirname "$TEST_BUILD_DIR")" && ln -s "$(cd "$BIN" && pwd)" "$TEST_BUILD_DIR"
  fi
  (cd "$BIN" && timeout 200 tests/test_sol_gpu) >"$OUT/tests.log" 2>&1
  echo "exit $?" >>"$OUT/tests.log"
  tail -2 "$OUT/tests.log"
fi
i=1
while [ "$i" -le "${TUNES:-2}" ]; do
  stamp "tune again $i"
  timeout 90 "$S" bench transpose --tune again --tune-cache "$OUT/tune-$i.tsv" --dtypes f32,f16,f64 --no-torch \
    --no-baselines --sizes 4097x4097 --format json >"$OUT/tune-$i.json" 2>"$OUT/tune-$i.log"
  echo "exit $?" >>"$OUT/tune-$i.log"
  grep -E 'tuning|exit|not exact' "$OUT/tune-$i.log"
  i=$((i + 1))
done
i=1
while [ "$i" -le "${RUNS:-2}" ]; do
  stamp "product rows $i"
  timeout 120 "$S" bench transpose --tune-cache "$OUT/tune-1.tsv" --dtypes f32,f16,f64 --sizes 4097x4097 \
    --torch-script bench/sol/torch_ref.py --format json >"$OUT/any-$i.json" 2>"$OUT/any-$i.log"
  echo "exit $?" >>"$OUT/any-$i.log"
  grep -E 'exit|tuning' "$OUT/any-$i.log"
  i=$((i + 1))
done
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
  printf '%s\tany\t%s\t%s\t0\n' "$KEY" "$dt" "$k" >"$OUT/pick.tsv"
  timeout 40 ncu --clock-control none -k "regex:^$k\$" -c 1 --metrics "$M" --csv \
    "$S" bench transpose --tune-cache "$OUT/pick.tsv" --dtypes "$dt" --sizes 4097x4097 --reps 1 --warmup 0 \
    --no-baselines --no-cublas --no-torch >"$OUT/ncu-$k.csv" 2>"$OUT/ncu-$k.err"
  echo "$k exit $?"
done
stamp "end"
# one archive: the device call brings back a limited number of files
(cd "$OUT" && find . -maxdepth 1 -type f ! -name odd.tgz ! -name pick.tsv | tar czf odd.tgz -T - &&
  find . -type f ! -name odd.tgz -delete)
exit 0
