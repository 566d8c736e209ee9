#!/bin/sh
# snapshot.sh SMEMLAB OUT [PROGBIN]: every report this checkout's smemlab writes over the tree's own
# inputs, one file each under OUT, so that two builds (before and after a refactor) can be compared
# byte for byte with `diff -r OUT_BEFORE OUT_AFTER`.
#   - `tour`; `analyze` of every .cu of kernels/, tests/analyze/, tests/hazards/, tests/validate/,
#     docs/images/ (JSON, and the table for kernels/), `--html` for the showcase;
#   - `pattern` over the README's and docs/pattern.md's expressions, `advise` of the showcase;
#   - `run` of every tests/run/*.cu program (JSON and CSV, with the program's output and status):
#     the programs are built once into PROGBIN/run (default OUT/../snapshot-bin) and reused;
#   - SNAPSHOT_PROGRAMS=DIR: also bench/programs/programs.txt's programs built there by
#     bench/programs/build.sh (CSV, as run_cpu.sh writes them).
# Run it from the repository root (reports name files by the paths given). Exit statuses and stderr
# are kept beside each report (NAME.rc, NAME.err). Nothing here judges: diff does.
set -u
SMEMLAB=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
OUT=$2
PROGBIN=${3:-$OUT/../snapshot-bin}
mkdir -p "$OUT" "$PROGBIN/run"
# `run` reports device addresses, which the host's mmap places: without address-space
# randomisation (setarch -R) they are the same from run to run
NORAND=
setarch "$(uname -m)" -R true 2>/dev/null && NORAND="setarch $(uname -m) -R"
# one report: NAME then the command; stdout to NAME, stderr to NAME.err, status to NAME.rc
snap() {
    name=$1; shift
    mkdir -p "$(dirname "$OUT/$name")"
    "$@" > "$OUT/$name" 2> "$OUT/$name.err" < /dev/null
    echo $? > "$OUT/$name.rc"
}

snap tour.txt "$SMEMLAB" tour

for f in kernels/*.cu tests/analyze/*.cu tests/analyze/realcode/*.cu tests/hazards/*.cu \
         tests/validate/*.cu docs/images/*.cu; do
    [ -f "$f" ] || continue
    inc=; [ "$f" = tests/analyze/project.cu ] && inc="-I tests/analyze/inc"
    # shellcheck disable=SC2086
    snap "analyze/$f.json" "$SMEMLAB" analyze "$f" --format json --jobs 1 $inc
    case $f in kernels/*) snap "analyze/$f.txt" "$SMEMLAB" analyze "$f" --jobs 1 ;; esac
done
snap analyze/showcase.csv "$SMEMLAB" analyze docs/images/showcase.cu --block 32,8 --format csv
snap analyze/showcase.table "$SMEMLAB" analyze docs/images/showcase.cu --block 32,8 \
    --html "$OUT/analyze/showcase.html"

i=0
for e in 'arr[tid*129]|--elem 4' 'tile[tx][ty]|--shape 32x33 --block 32x32' \
         'tile[tx][ty]|--shape 32x32 --block 32x32' 'arr[tid*32]|' 'arr[tid*2]|--elem 8' \
         'arr[tid]|--elem 2' 'arr[tid/2]|' 'tile[ty][tx ^ ty]|--shape 32x32 --block 32x32' \
         'arr[tid*3]|--elem 1' 'arr[tid*4]|--format json'; do
    i=$((i + 1))
    ex=${e%%|*}; opts=${e#*|}
    # shellcheck disable=SC2086
    snap "pattern/$i.txt" "$SMEMLAB" pattern "$ex" $opts
done
snap pattern/svg.txt "$SMEMLAB" pattern 'arr[tid*32]' --svg "$OUT/pattern/map.svg"

for k in transpose stride2 histogram reverse; do
    snap "advise/showcase-$k.txt" "$SMEMLAB" advise docs/images/showcase.cu --kernel $k --block 32,8
    snap "advise/showcase-$k.json" "$SMEMLAB" advise docs/images/showcase.cu --kernel $k --block 32,8 \
        --format json
done
for k in setRowReadRow setRowReadCol setColReadCol setRowReadColPad; do
    snap "advise/rect-$k.txt" "$SMEMLAB" advise tests/advise/rect.cu --kernel $k --block 32,16
    snap "advise/square-$k.txt" "$SMEMLAB" advise tests/advise/square.cu --kernel $k --block 32,32
done
snap advise/rect-dyn.json "$SMEMLAB" advise tests/advise/rect.cu --kernel setRowReadColDyn --block 32,16 \
    --dyn-smem 2048 --row 32 --format json
snap advise/rect-apply.txt "$SMEMLAB" advise tests/advise/rect.cu --kernel setRowReadCol --block 32,16 \
    --apply "$OUT/advise/rect_fixed.cu"
for k in reduce_interleaved reduce_sequential; do
    snap "advise/reduce-$k.txt" "$SMEMLAB" advise kernels/reduce.cu --kernel $k
done

# tests/run's programs: PROGBIN/run/NAME (copy build/tests/run's, which test_run builds with the
# flags each needs, or let this build them plainly), with the modes test_run.c gives them
for f in tests/run/*.cu; do
    n=$(basename "$f" .cu)
    exe=$PROGBIN/run/$n
    [ -x "$exe" ] || nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -o "$exe" "$f" \
        > /dev/null 2>&1 || nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -o "$exe" "$f" -lcublas \
        > /dev/null 2>&1 || { echo "snapshot: $f does not build" >&2; continue; }
done
for pm in atomic64: bulk: bulk:race chained_flags: cublas:handle cublas:gemm fatomic: fixed_places: \
          fixed_places2: merge_calls: minmax64: occupancy_regs: raking: recursion: shared_counter: \
          smem_only: tiny: tiny_rdc: tiny_sass: tiny_static: unknown_store: unwritten_flag: \
          wide_reads: wmma_noinline: wmma_noinline_G: zfill: zfill:src8 long_launch:plain \
          checks:api checks:assert checks:crash checks:exit5 checks:histogram checks:oob \
          checks:printf checks:race checks:transpose checks:trap checks:unknown checks:unsupported \
          checks:diverge checks:templates checks:repeat; do
    n=${pm%%:*}; mode=${pm#*:}
    exe=$PROGBIN/run/$n
    [ -x "$exe" ] || continue
    t=$n${mode:+.$mode}
    # shellcheck disable=SC2086
    snap "run/$t.out" $NORAND "$SMEMLAB" run --jobs 1 --format json -o "$OUT/run/$t.json" "$exe" $mode
    # shellcheck disable=SC2086
    snap "run/$t.csv.out" $NORAND "$SMEMLAB" run --jobs 1 --format csv -o "$OUT/run/$t.csv" "$exe" $mode
    # shellcheck disable=SC2086
    snap "run/$t.table.out" $NORAND "$SMEMLAB" run --jobs 1 -o "$OUT/run/$t.table" "$exe" $mode
done
snap run/checks.transpose.html.out $NORAND "$SMEMLAB" run --jobs 1 --html "$OUT/run/checks.transpose.html" \
    -o "$OUT/run/checks.transpose.html.table" "$PROGBIN/run/checks" transpose

if [ -n "${SNAPSHOT_PROGRAMS:-}" ]; then
    while read -r name exe args; do
        [ -x "$SNAPSHOT_PROGRAMS/$exe" ] || continue
        mkdir -p "$OUT/programs"
        # shellcheck disable=SC2086
        (cd "$SNAPSHOT_PROGRAMS" && "$SMEMLAB" run --format csv -o "$OUT/programs/$name.csv" \
            "./$exe" $args > "$OUT/programs/$name.out" 2> "$OUT/programs/$name.err" < /dev/null)
        echo $? > "$OUT/programs/$name.rc"
    done < bench/programs/programs.txt
fi
# what differs from run to run is written T (the emulator's and the libraries' own time); where a report names OUT's
# own files, OUT is written as OUT: so that two snapshots compare
# the checkout's own path is written as nothing (analyze names sources by their full path), and so is
# the checkout that built PROGBIN's programs (their line tables name it)
ROOT=$(pwd)
find "$OUT" -type f ! -name DONE | while IFS= read -r f; do
    sed -E -e "s|$OUT|OUT|g" -e "s|$ROOT/||g" \
        -e 's#(/[A-Za-z0-9._+-]+)+/(tests|kernels|docs|src)/#\2/#g' -e 's/("(emulation_|library_)?seconds": )[0-9.e+-]+/\1T/g' \
        -e 's/(emulated in )[0-9.]+ s/\1T s/g' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done
echo "snapshot: $(find "$OUT" -type f | wc -l) files under $OUT"
