#!/bin/sh
# run_cpu.sh SMEMLAB BIN [OUT] [LIST]: every program of LIST (default programs.txt: NAME EXE ARGS;
# unseen.txt works too)
# under `smemlab run` on this machine: its exit status, launches, proven repeats, wall time, CPU
# time (user+sys, all threads: steadier than wall time on a shared machine) and emulated
# thread-instructions per wall second (launches proven repeats are not emulated, so they count in
# the time but not in the instructions). Each report goes to OUT/NAME.csv (default
# /tmp/smemlab-programs), the program's output to OUT/NAME.out and .err. FORMAT=json writes
# OUT/NAME.json instead (the report that carries wgmma's shared_gmma: cutlass.txt's programs).
# RUN_OPTS: more options of `smemlab run` (RUN_OPTS=--global-races: races on global memory too).
set -u
SMEMLAB=$1; BIN=$2; OUT=${3:-/tmp/smemlab-programs}
HERE=$(cd "$(dirname "$0")" && pwd)
LIST=${4:-$HERE/programs.txt}
mkdir -p "$OUT"
printf '%-22s %5s %9s %9s %8s %8s %12s %10s\n' program exit launches repeats wall_s cpu_s thread_insns Minsn/s
while read name exe args; do
  exe=$(basename "$exe") # unseen.txt names the sample's folder: its program has its name
  [ -x "$BIN/$exe" ] || { printf '%-22s (not built)\n' "$name"; continue; }
  rm -f "$OUT/$name.csv" "$OUT/$name.json"
  F=${FORMAT:-csv}
  /usr/bin/time -f '%e %U %S' -o "$OUT/$name.time" \
    "$SMEMLAB" run ${RUN_OPTS:-} --format $F -o "$OUT/$name.$F" "$BIN/$exe" $args \
    > "$OUT/$name.out" 2> "$OUT/$name.err" < /dev/null
  rc=$?
  read wall usr sys <<T
$(tail -n 1 "$OUT/$name.time")
T
  if [ "$F" = json ]; then
    python3 - "$OUT/$name.json" "$name" "$rc" "$wall" "$usr" "$sys" <<'PY'
import json, sys
p, name, rc, w, u, s = sys.argv[1:]
try:
    ls = json.load(open(p))['launches']
except (OSError, ValueError, KeyError):
    ls = []
r = sum(1 for l in ls if l.get('repeat'))
ins = sum(l.get('thread_instructions', 0) for l in ls if not l.get('repeat'))
w = float(w)
print('%-22s %5d %9d %9d %8.1f %8.1f %12.0f %10.1f' % (name, int(rc), len(ls), r, w,
      float(u) + float(s), ins, ins / w / 1e6 if w > 0 else 0))
PY
    continue
  fi
  [ -f "$OUT/$name.csv" ] || echo "launch" > "$OUT/$name.csv"
  awk -F, -v name="$name" -v rc="$rc" -v w="$wall" -v u="$usr" -v s="$sys" '
    # columns by name, counted from the end (a kernel name may hold commas; the CSV grows)
    NR == 1 { for (i = 1; i <= NF; i++) back[$i] = NF - i; next }
    { n++; if ($(NF - back["repeat"]) == 1) r++; else ins += $(NF - back["thread_instructions"]) }
    END { cpu = u + s
          printf "%-22s %5d %9d %9d %8.1f %8.1f %12.0f %10.1f\n", name, rc, n, r, w, cpu, ins,
                 (w > 0 ? ins / w / 1e6 : 0) }
  ' "$OUT/$name.csv"
done < "$LIST"
