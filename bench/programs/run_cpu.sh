#!/bin/sh
# run_cpu.sh SMEMLAB BIN [OUT]: every program of programs.txt under `smemlab run` on this machine:
# its exit status, launches, wall time and emulated thread-instructions per second (launches
# proven repeats are not emulated, so they count in the time but not in the instructions).
# Each report goes to OUT/NAME.csv (default /tmp/smemlab-programs).
set -u
SMEMLAB=$1; BIN=$2; OUT=${3:-/tmp/smemlab-programs}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
printf '%-22s %5s %9s %9s %9s %12s %10s\n' program exit launches repeats wall_s thread_insns Minsn/s
while read name exe args; do
  [ -x "$BIN/$exe" ] || { printf '%-22s (not built)\n' "$name"; continue; }
  s=$(date +%s.%N)
  "$SMEMLAB" run --format csv -o "$OUT/$name.csv" "$BIN/$exe" $args > "$OUT/$name.out" 2> "$OUT/$name.err"
  rc=$?
  e=$(date +%s.%N)
  awk -F, -v name="$name" -v rc="$rc" -v s="$s" -v e="$e" '
    NR > 1 { n++; if ($NF == 1) r++; else ins += $(NF - 3) }
    END { w = e - s; printf "%-22s %5d %9d %9d %9.1f %12.0f %10.1f\n", name, rc, n, r, w, ins, w > 0 ? ins / w / 1e6 : 0 }
  ' "$OUT/$name.csv"
done < "$HERE/programs.txt"
