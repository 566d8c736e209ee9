#!/bin/sh
# initcheck.sh SMEMLAB BIN OUT: `smemlab run --sanitizer-tool initcheck` on every acceptance program
# of programs.txt (binaries in BIN, built by build.sh), its ERROR SUMMARY beside compute-sanitizer
# --tool initcheck's on the H200 (h200-2026-11-29-initcheck.txt). Prints one line a program and
# exits 1 when any count differs. Logs and reports in OUT.
set -u
smemlab=${1:?usage: initcheck.sh SMEMLAB BIN OUT}
bin=${2:?usage: initcheck.sh SMEMLAB BIN OUT}
out=${3:?usage: initcheck.sh SMEMLAB BIN OUT}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
bad=0
grep -v '^#' "$here/programs.txt" | awk 'NF' | while read -r name exe args; do
    # shellcheck disable=SC2086 # ARGS are words
    "$smemlab" run --sanitizer-tool initcheck -o "$out/$name.txt" "$bin/$exe" $args \
        > "$out/$name.log" 2>&1
    rc=$?
    ours=$(grep -o 'ERROR SUMMARY: [0-9]* error' "$out/$name.txt" 2>/dev/null | grep -o '[0-9]*')
    theirs=$(awk -v n="=== $name" '$0 == n {on = 1; next} /^=== [^e]/ {on = 0} on' \
             "$here/h200-2026-11-29-initcheck.txt" | grep -o 'ERROR SUMMARY: [0-9]* error' |
             grep -o '[0-9]*')
    verdict=same
    [ "${ours:-?}" = "${theirs:-?}" ] || verdict=DIFFERS
    echo "$name: exit $rc, smemlab ${ours:-?} errors, compute-sanitizer ${theirs:-?}: $verdict"
    [ "$verdict" = same ] || echo x >> "$out/.differs"
done
[ -f "$out/.differs" ] && bad=1
rm -f "$out/.differs"
exit $bad
