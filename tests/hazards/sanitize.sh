#!/usr/bin/env bash
# sanitize.sh: compute-sanitizer's verdict (racecheck, memcheck, synccheck) on every case of
# cases.txt, on a GPU. Builds each kernel file with its host harness (-DHAZARD_MAIN) and runs each
# case under the three tools. Usage: tests/hazards/sanitize.sh OUTDIR  (needs nvcc, a GPU and
# compute-sanitizer; writes OUTDIR/verdicts.tsv and one log per case and tool).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: sanitize.sh OUTDIR}
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
mkdir -p "$out/log"
arch=${ARCH:-sm_90}
for f in "$here"/*.cu; do
    n=$(basename "$f" .cu)
    ( nvcc -arch="$arch" -lineinfo -DHAZARD_MAIN -o "$bin/$n" "$f" > "$out/log/build-$n.txt" 2>&1 ||
      echo "build of $n failed" ) &
done
wait
run_case() { # file harness-name
    n=$(basename "$1" .cu); h=$2
    for tool in racecheck memcheck synccheck; do
        log="$out/log/$h.$tool.txt"
        t0=$(date +%s%N)
        timeout 40 compute-sanitizer --tool "$tool" "$bin/$n" "$h" > "$log" 2>&1
        rc=$?
        t1=$(date +%s%N)
        echo "exit $rc ms $(( (t1 - t0) / 1000000 ))" >> "$log"
    done
}
grep -v '^#' "$here/cases.txt" | awk 'NF' | while read -r f k h rest; do
    echo "$f $h"
done > "$out/list.txt"
# four cases at a time: the tools are mostly host-bound
while read -r f h; do
    run_case "$here/$f" "$h" &
    while [ "$(jobs -rp | wc -l)" -ge 4 ]; do wait -n; done
done < "$out/list.txt"
wait
printf 'case\tracecheck\tmemcheck\tsynccheck\tsanitizer_verdict\n' > "$out/verdicts.tsv"
while read -r f h; do
    rc=$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard[s]* displayed ([0-9]* error[s]*, [0-9]* warning[s]*)' "$out/log/$h.racecheck.txt" | head -1)
    mc=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/log/$h.memcheck.txt" | head -1)
    sc=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/log/$h.synccheck.txt" | head -1)
    v=""
    case "$rc" in *"SUMMARY: 0 hazards"*|"") ;; *) v="race" ;; esac
    case "$mc" in *"SUMMARY: 0 error"*|"") ;; *) v="${v:+$v,}oob" ;; esac
    case "$sc" in *"SUMMARY: 0 error"*|"") ;; *) v="${v:+$v,}barrier" ;; esac
    printf '%s\t%s\t%s\t%s\t%s\n' "$h" "${rc:-?}" "${mc:-?}" "${sc:-?}" "${v:-none}" >> "$out/verdicts.tsv"
done < "$out/list.txt"
cat "$out/verdicts.tsv"
