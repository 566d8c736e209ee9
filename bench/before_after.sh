#!/bin/sh
# before_after.sh OLD_SMEMLAB NEW_SMEMLAB [BUILD_DIR]: the emulator benchmark's kernels through
# `smemlab analyze --format json` of two builds (an older one emulates every block on one thread;
# the newer one is given --all-blocks and --jobs 1, then every core): thread-instructions, CPU
# seconds (perf stat task-clock, or user time: steady on a shared machine) and wall seconds of
# the emulation, with and without hazard tracking. SMEMLAB_LLMC_PTX=FILE adds llm.c's
# matmul_forward_kernel4 (nvcc -ptx -arch=sm_90 -lineinfo -O3 dev/cuda/matmul_forward.cu).
OLD=$1 NEW=$2 B=${3:-build}
[ -x "$OLD" ] && [ -x "$NEW" ] || { echo "usage: $0 OLD_SMEMLAB NEW_SMEMLAB [BUILD_DIR]" >&2; exit 2; }
cpu() { # prints "instructions emulation_wall cpu" of one run
    /usr/bin/time -f "%U %S" -o /tmp/before_after.$$ "$@" --format json >/tmp/before_after.$$.json 2>/dev/null
    i=$(grep -o '"thread_instructions": [0-9]*' /tmp/before_after.$$.json | head -1 | grep -o '[0-9]*$')
    w=$(grep -o '"emulation_seconds": [0-9.]*' /tmp/before_after.$$.json | head -1 | grep -o '[0-9.]*$')
    c=$(awk '{print $1 + $2}' /tmp/before_after.$$)
    echo "$i $w $c"
}
row() { # label, then the analyze arguments
    label=$1; shift
    for hz in --no-hazards ""; do
        set -- "$@"
        o=$(cpu "$OLD" analyze "$@" $hz)
        n1=$(cpu "$NEW" analyze "$@" $hz --all-blocks --jobs 1)
        na=$(cpu "$NEW" analyze "$@" $hz --all-blocks)
        echo "$o|$n1|$na" | awk -F'|' -v l="$label" -v h="${hz:-hazards}" '{
            split($1, o, " "); split($2, a, " "); split($3, b, " ");
            printf "%-34s %-11s %7.1f M  before %6.1f M/s cpu (%6.2f s)  after 1 thread %7.1f M/s cpu (%5.2f s, x%.1f)  all threads %7.1f M/s wall (%5.2f s)\n",
                   l, h, o[1] / 1e6, o[1] / o[3] / 1e6, o[3], a[1] / a[3] / 1e6, a[3], o[3] / a[3], b[1] / b[2] / 1e6, b[2] }'
    done
}
K=$B/kernels BK=$B/bench
row "GEMM 128x128 tile (ours)" "$BK/bench_kernels.ptx" --kernel gemm_tile128 --block 16,16 --grid 8,8 --param 3=768 --param 4=2304
if [ -n "$SMEMLAB_LLMC_PTX" ]; then
    row "llm.c matmul_forward_kernel4" "$SMEMLAB_LLMC_PTX" --kernel matmul_forward_kernel4 --block 16,16 --grid 8,8 --param 4=768 --param 5=2304
else
    echo "llm.c matmul_forward_kernel4: skipped (set SMEMLAB_LLMC_PTX)"
fi
row "reduce_interleaved" "$K/reduce.ptx" --kernel reduce_interleaved --block 1024 --grid 64
row "reduce_sequential" "$K/reduce.ptx" --kernel reduce_sequential --block 1024 --grid 64
row "transpose tile f32 1024^2" "$K/sol_transpose.ptx" --kernel sol_transpose_tile_f32 --block 32,8 --grid 32,32 --param 2=1024 --param 3=1024
row "transpose pad f32 1024^2" "$K/sol_transpose.ptx" --kernel sol_transpose_pad_f32 --block 32,8 --grid 32,32 --param 2=1024 --param 3=1024
row "32-way conflict probe" "$K/scale.ptx" --kernel smemRead32_way32 --block 1024 --grid 16 --param 1=64
row "barrier_storm (many barriers)" "$BK/bench_kernels.ptx" --kernel barrier_storm --block 256 --grid 64 --param 1=200
rm -f /tmp/before_after.$$ /tmp/before_after.$$.json
