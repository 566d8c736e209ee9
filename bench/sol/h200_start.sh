# h200_start.sh: what bench/sol's device scripts share, sourced first thing (`. "$(dirname "$0")/h200_start.sh"`):
#   OUT (default out; made) and BIN (default build), S=$BIN/smemlab; the toolkit's libraries on the
#   loader's path; `stamp MSG` (a line with the UTC time and the seconds since the start); $OUT/smi.txt
#   (device, driver, clocks, temperature, power, date, Nsight Compute's version), printed;
#   `sol_test_gpu SECONDS`: $BIN/tests/test_sol_gpu (it finds smemlab, the kernels and
#   libsmemlab_cub.so in the build folder it lies in) -> $OUT/tests.log;
#   SOL_NCU_ANY_METRICS and `sol_ncu_any SECONDS`: Nsight Compute (--clock-control none, one launch,
#   4097x4097) of each kernel in $NCU ("dtype kernel" pairs), each picked through a tuning cache written
#   for it (the key of $OUT/tune-1.tsv) -> $OUT/ncu-<kernel>.csv, .err.
set -u
OUT=${OUT:-out}
BIN=${BIN:-build}
S=$BIN/smemlab
mkdir -p "$OUT"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
export PYTHONUNBUFFERED=1
T0=$(date +%s)
stamp() { echo "[$(date -u +%H:%M:%S) +$(($(date +%s) - T0))s] $*"; }
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  ncu --version 2>/dev/null | tail -1
} >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"

SOL_NCU_ANY_METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,\
lts__t_sectors_op_write.sum,smsp__inst_executed.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,\
sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers,\
launch__occupancy_limit_shared_mem,launch__grid_size,\
smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,\
smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,\
smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum

sol_test_gpu() {
  stamp "test_sol_gpu"
  timeout "$1" "$BIN/tests/test_sol_gpu" >"$OUT/tests.log" 2>&1
  echo "exit $?" >>"$OUT/tests.log"
  tail -2 "$OUT/tests.log"
}

sol_ncu_any() {
  key=$(head -1 "$OUT/tune-1.tsv" | cut -f1)
  echo "${NCU:-}" | tr ' ' '\n' | paste - - | while read -r dt k; do
    [ -n "$k" ] || continue
    stamp "ncu $k"
    printf '%s\tany\t%s\t%s\t0\n' "$key" "$dt" "$k" >"$OUT/pick-$k.tsv"
    timeout "$1" ncu --clock-control none -k "regex:^$k\$" -c 1 --metrics "$SOL_NCU_ANY_METRICS" --csv \
      "$S" bench transpose --tune-cache "$OUT/pick-$k.tsv" --dtypes "$dt" --sizes 4097x4097 --reps 1 --warmup 0 \
      --no-baselines --no-cublas --no-torch >"$OUT/ncu-$k.csv" 2>"$OUT/ncu-$k.err"
    echo "$k exit $?"
  done
}
