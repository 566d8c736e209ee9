#!/bin/sh
# explore5_h200.sh: issue 34, session 5's exploratory device call (tall-skinny 1048576x32 and 16384^2
# f64), on binaries built beforehand (BIN: smemlab and kernels/sol_transpose.fatbin). From the
# repository root:
#   OUT=out BIN=dir sh bench/sol/explore5_h200.sh
#   1. `smemlab bench transpose --tune again` twice at 1048576x32 and 16384x16384, f32 and f64: every
#      candidate of the narrow and large kinds measured on its probe (the logs list their times), then
#      the rows against memcpy and cuBLAS -> tune-<i>.json, .log, .tsv
#   2. placement: each large f64 candidate (LARGE), picked through a tuning cache written for it, at
#      16384^2 f64 first in its process, after 8192^2 f64 and after the f32 cases of both (whose buffers
#      the process allocates and frees first), memcpy and cuBLAS beside it -> place.log (the device
#      addresses are in each case's line); the narrow picks at 1048576x32 and at two row counts whose
#      output rows are not a power of two apart -> p-narrow.json, .log
#   3. Nsight Compute (--clock-control none) over one launch of each kernel in NCU, with and without the
#      placement, and the spread of the DRAM and L2 counters over their instances
#      -> ncuM-<kernel>-<when>.csv, ncuB-<kernel>-<when>.csv
# (Session 5's first call ran this script as of commit abe5d9e: two histories, no spread counters. The
# default LARGE and NCU lists name candidates of commit 3e369be, withdrawn since: on another tree, set
# LARGE and NCU to kernels its table has.)
# Everything lands in $OUT/explore5.tgz (a device call brings back few files).
. "$(dirname "$0")/h200_start.sh"
for i in 1 2; do
  stamp "tune again $i"
  timeout 120 "$S" bench transpose --tune again --tune-cache "$OUT/tune-$i.tsv" --dtypes f32,f64 --no-torch \
    --no-baselines --sizes 1048576x32,16384x16384 --format json >"$OUT/tune-$i.json" 2>"$OUT/tune-$i.log"
  echo "exit $?" >>"$OUT/tune-$i.log"
  grep -E 'tuning (narrow|large)|exit|not exact| (memcpy|smemlab|cublas) ' "$OUT/tune-$i.log"
done
KEY=$(head -1 "$OUT/tune-1.tsv" | cut -f1)
# the picks against three allocation histories (16384^2 f64 alone; after 8192^2 f64; after the f32
# cases of both sizes and 8192^2 f64), cuBLAS beside them
stamp "placement (key $KEY)"
for k in ${LARGE:-sol_transpose_large_f64 sol_transpose_large_f64_sh4 sol_transpose_large_f64_sh16 sol_transpose_large_f64_sh64}; do
  printf '%s\tlarge\tf64\t%s\t0\n' "$KEY" "$k" >"$OUT/pick.tsv"
  for h in "f64 16384x16384" "f64 8192x8192,16384x16384" "f32,f64 8192x8192,16384x16384"; do
    set -- $h
    echo "== $k $1 $2" >>"$OUT/place.log"
    timeout 60 "$S" bench transpose --tune-cache "$OUT/pick.tsv" --dtypes "$1" --no-torch --no-baselines \
      --sizes "$2" --format json >/dev/null 2>>"$OUT/place.log"
  done
done
grep -E '^==|f64 16384x16384 (memcpy|smemlab|cublas)' "$OUT/place.log"
# tall-skinny off a power of two (output rows 4 MB - 512 bytes and 4,000,000 bytes apart) with the picks
stamp "narrow strides"
timeout 60 "$S" bench transpose --tune-cache "$OUT/tune-1.tsv" --dtypes f32,f64 --no-torch --no-baselines --no-cublas \
  --sizes 1048576x32,1048448x32,1000000x32 --format json >"$OUT/p-narrow.json" 2>"$OUT/p-narrow.log"
grep -E ' (memcpy|smemlab) ' "$OUT/p-narrow.log"
M=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,\
lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sector_hit_rate.pct,smsp__inst_executed.sum,\
dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,\
launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__grid_size,\
smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,\
smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct,smsp__warp_issue_stalled_drain_per_warp_active.pct,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_sectors_srcunit_tex.sum
# the spread over DRAM channels and L2 slices (rollups of the same counters over their instances)
B=dram__bytes_read.max,dram__bytes_read.min,dram__bytes_read.avg,dram__bytes_write.max,dram__bytes_write.min,\
dram__bytes_write.avg,dram__throughput.max.pct_of_peak_sustained_elapsed,dram__throughput.min.pct_of_peak_sustained_elapsed,\
lts__t_sectors.max,lts__t_sectors.min,lts__t_sectors.avg
stamp "ncu"
# dtype sizes kind kernel launches-to-skip tag (8192^2 first: its case launches the kernel twice)
NCU=${NCU:-"f64 16384x16384 large sol_transpose_large_f64 0 first
f64 8192x8192,16384x16384 large sol_transpose_large_f64 2 after
f64 8192x8192,16384x16384 large sol_transpose_large_f64_sh16 2 after
f32 1048576x32 narrow sol_transpose_narrow_f32 0 first
f32 1048576x32 narrow sol_transpose_narrow_f32_sh2_3 0 first"}
echo "$NCU" | while read -r dt sz kind k skip tag; do
  [ -n "$k" ] || continue
  printf '%s\t%s\t%s\t%s\t0\n' "$KEY" "$kind" "$dt" "$k" >"$OUT/pick.tsv"
  for set in M B; do
    eval "mets=\$$set"
    timeout 60 ncu --clock-control none -k "regex:^$k\$" --launch-skip "$skip" -c 1 --metrics "$mets" --csv \
      "$S" bench transpose --tune-cache "$OUT/pick.tsv" --dtypes "$dt" --sizes "$sz" --reps 1 --warmup 0 \
      --no-baselines --no-cublas --no-torch >"$OUT/ncu$set-$k-$tag.csv" 2>"$OUT/ncu$set-$k-$tag.err"
    echo "$k $tag $set exit $?"
  done
  python3 -c 'import csv,sys
for f in sys.argv[1:]:
    for r in csv.reader(open(f)):
        if len(r) > 14 and r[-3].startswith(("gpu__time", "dram__throughput", "dram__bytes")):
            print("   ", r[-3], r[-1])' "$OUT"/ncu?-"$k-$tag".csv
done
stamp "end"
(cd "$OUT" && tar czf explore5.tgz --exclude=explore5.tgz ./*.csv ./*.err ./*.json ./*.log ./*.tsv ./*.txt 2>/dev/null &&
  find . -type f ! -name explore5.tgz -delete)
exit 0
