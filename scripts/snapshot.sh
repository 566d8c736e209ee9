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
    snap "analyze/$f.json" "$SMEMLAB" analyze "$f" --format json --jobs 1
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

snap advise/showcase.txt "$SMEMLAB" advise docs/images/showcase.cu --block 32,8
snap advise/showcase.json "$SMEMLAB" advise docs/images/showcase.cu --block 32,8 --format json
for k in kernels/square.cu kernels/rect.cu kernels/reduce.cu; do
    snap "advise/$k.txt" "$SMEMLAB" advise "$k"
done

for f in tests/run/*.cu; do
    n=$(basename "$f" .cu)
    exe=$PROGBIN/run/$n
    [ -x "$exe" ] || nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -o "$exe" "$f" -lcublas \
        > /dev/null 2>&1 || nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -o "$exe" "$f" \
        > /dev/null 2>&1 || { echo "snapshot: $f does not build" >&2; continue; }
    snap "run/$n.out" "$SMEMLAB" run --jobs 1 --format json -o "$OUT/run/$n.json" "$exe"
    snap "run/$n.csv.out" "$SMEMLAB" run --jobs 1 --format csv -o "$OUT/run/$n.csv" "$exe"
    snap "run/$n.table.out" "$SMEMLAB" run --jobs 1 -o "$OUT/run/$n.table" "$exe"
done

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
echo "snapshot: $(find "$OUT" -type f | wc -l) files under $OUT"
