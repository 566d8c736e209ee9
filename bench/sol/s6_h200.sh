#!/bin/sh
# s6_h200.sh: session 6's first device call for issue 34 (one GPU-machine call on binaries built
# beforehand). From the repository root:  OUT=out BIN=build sh bench/sol/s6_h200.sh
#  1. dev_narrow (bench/sol/dev_narrow.cu, built into $BIN/dev/): 1048576x32 f32 / f64 with staggered
#     output rows, against memcpy and the product's narrow kernels -> $OUT/narrow.log
#  2. dev_tma (bench/sol/dev_tma.cu): whether the H200 takes a tensor copy whose box starts inside the
#     tensor at an inner offset that is not a multiple of 16 bytes (4097^2, super-row maps) -> $OUT/tma.log
#  3. reduce_ab_h200.sh: the reduce's two forms in the run of record's conditions, RUNS times
# Everything also in $OUT/s6.tgz.
. "$(dirname "$0")/h200_start.sh"
stamp "dev_narrow"
timeout 120 "$BIN/dev/dev_narrow" >"$OUT/narrow.log" 2>&1
echo "exit $?" >>"$OUT/narrow.log"
grep -E 'x memcpy|MISMATCH|exit' "$OUT/narrow.log"
stamp "dev_tma"
timeout 60 "$BIN/dev/dev_tma" --rounds 1 --reps 5 >"$OUT/tma.log" 2>&1
echo "exit $?" >>"$OUT/tma.log"
tail -5 "$OUT/tma.log"
stamp "reduce a/b"
OUT="$OUT/ab" sh "$(dirname "$0")/reduce_ab_h200.sh" | grep -v '^NVIDIA\|^name'
stamp "done"
(cd "$OUT" && tar czf s6.tgz --exclude=s6.tgz --exclude=ab/ab.tgz ./*.log ./*.txt ab 2>/dev/null)
exit 0
