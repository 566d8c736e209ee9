#!/usr/bin/env bash
# corpus_sweep.sh: run `smemlab analyze FILE --format json` over every .cu file of one or more
# source trees and print one row per file, then one summary row per tree.
#
#   corpus_sweep.sh [-t SECONDS] [-j JOBS] [-o OUTDIR] SMEMLAB DIR [DIR...]
#
#   -t  per-file time limit (default 60; the row's exit is 124 when it is hit)
#   -j  files analysed at once (default 1)
#   -o  keep each file's JSON and stderr there (default: a temporary folder, removed)
#
# Rows (tab-separated): repo, file (relative to DIR), exit, kernels (in the JSON), complete
# (kernels with "complete": true), failed (kernels with an "error", smemlab builds that report a
# kernel's failure in place), parse / prepare / stopped (of those, by "error_stage": the PTX not
# read; not made ready to run; stopped while running or a launch beyond the limits), retry (-rdc
# when one was needed), first error line (the first
# stderr line that is not an "incomplete" notice; for nvcc failures its first error line).
# Needs only bash, coreutils (timeout), find, grep, sed, awk, xargs, the smemlab binary and the
# toolkit's nvcc that smemlab calls: no network, no GPU.
#
# Which files and which include flags (by the tree's layout, not its name):
#   * a tree with dev/cuda/ and llmc/ (llm.c): dev/cuda/*.cu, except those that include <mpi.h>;
#   * otherwise every *.cu under DIR (.git skipped);
#   * every file: -I its own folder, -I DIR, and -I each of include/ and inc/ beside the file or
#     one level up (cuda-samples' FDTD3d: src/ and inc/), DIR/Common, DIR/common, DIR/include,
#     DIR/Common/* ... that exists (cuda-samples' helper_*.h live in Common/);
#   * a file nvcc refuses for want of -rdc (dynamic parallelism) is retried once with -rdc=true
#     (column "retry"); EXTRA_NVCC in the environment adds flags to every file.
set -u

usage() { sed -n '2,10p' "$0" >&2; exit 2; }

# ---- worker: one file ----------------------------------------------------------------------
if [ "${1:-}" = "--one" ]; then
    # --one SMEMLAB TIMEOUT OUTDIR REPO ROOT FILE
    bin=$2 tmo=$3 out=$4 repo=$5 root=$6 file=$7
    rel=${file#"$root"/}
    key=$(printf '%s' "$repo/$rel" | tr -c 'A-Za-z0-9._-' '_')
    json="$out/$key.json" err="$out/$key.err"
    inc=(-I "$(dirname "$file")" -I "$root")
    dir=$(dirname "$file")
    for d in "$dir"/include "$dir"/inc "$dir"/../include "$dir"/../inc \
             "$root"/Common "$root"/common "$root"/include "$root"/Common/* "$root"/common/*; do
        [ -d "$d" ] && inc+=(-I "$d")
    done
    extra=() note=
    # shellcheck disable=SC2206
    [ -n "${EXTRA_NVCC:-}" ] && extra+=($EXTRA_NVCC)
    # Keep nvcc's temporaries per job (parallel jobs, read-only trees).
    tdir=$(mktemp -d "${TMPDIR:-/tmp}/sweep.XXXXXX")
    run() {
        TMPDIR=$tdir timeout -k 5 "$tmo" "$bin" analyze "$file" --format json "${inc[@]}" \
            -- ${extra[@]+"${extra[@]}"} "$@" >"$json" 2>"$err" </dev/null
    }
    run; rc=$?
    # Dynamic parallelism (a launch inside device code) needs relocatable device code: one retry.
    if [ "$rc" -ne 0 ] && grep -qs 'separate compilation mode\|-rdc=true' "$err"; then
        cp "$err" "$out/$key.err-nordc"
        run -rdc=true; rc=$?; note=-rdc
    fi
    rm -rf "$tdir"
    nk=$(grep -c '"symbol": ' "$json" 2>/dev/null) || nk=0
    nc=$(grep -c '"complete": true' "$json" 2>/dev/null) || nc=0
    ne=$(grep -c '"error": ' "$json" 2>/dev/null) || ne=0   # kernels the report says failed
    # ... and at which stage: the PTX not read, not made ready to run, stopped while running
    np=$(grep -o '"error_stage": "parse"' "$json" 2>/dev/null | wc -l)
    nq=$(grep -o '"error_stage": "prepare"' "$json" 2>/dev/null | wc -l)
    nr=$(grep -o '"error_stage": "\(run\|launch\)"' "$json" 2>/dev/null | wc -l)
    # First error line: smemlab's own line; for an nvcc failure its first "error" line instead.
    first=$(grep -v ': incomplete: ' "$err" | grep -m1 -v '^[[:space:]]*$')
    case $first in
        *"nvcc failed"*) e=$(grep -v 'nvcc failed' "$err" | grep -m1 -E 'error|fatal')
                         [ -n "$e" ] && first="nvcc: $e" ;;
    esac
    # Every kernel failed (no report): one failure at least, its stage told by the message.
    if [ "$rc" -eq 3 ] && [ "$nk" -eq 0 ]; then
        case $first in
            "nvcc: "*|*"no kernel (__global__ function)"*) ;;
            *"unsupported instruction"*|*"undeclared"*|*"unknown label"*|*"unexpected"*|\
            *"expected "*|*"unsupported state space"*|*"unsupported vector"*|*"not modelled"*)
                ne=1 np=1 ;;
            *"recursive call"*|*"too large"*) ne=1 nq=1 ;;
            *) ne=1 nr=1 ;;
        esac
    fi
    [ "$rc" -eq 124 ] && [ -z "$first" ] && first="timeout after ${tmo}s"
    [ "$rc" -eq 137 ] && [ -z "$first" ] && first="killed after ${tmo}s"
    first=$(printf '%s' "$first" | tr '\t\r' '  ' | sed "s#$root/##g" | cut -c1-300)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$repo" "$rel" "$rc" "$nk" "$nc" "$ne" \
        "$np" "$nq" "$nr" "$note" "$first"
    exit 0
fi

# ---- driver --------------------------------------------------------------------------------
tmo=60 jobs=1 outdir=
while getopts t:j:o:h opt; do
    case $opt in
        t) tmo=$OPTARG ;; j) jobs=$OPTARG ;; o) outdir=$OPTARG ;; *) usage ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || usage
bin=$1; shift
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac
[ -x "$bin" ] || { echo "corpus_sweep.sh: $bin is not executable" >&2; exit 2; }
command -v timeout >/dev/null || { echo "corpus_sweep.sh: needs timeout (coreutils)" >&2; exit 2; }
self=$0
case $self in /*) ;; *) self=$PWD/$self ;; esac

keep=1
if [ -z "$outdir" ]; then outdir=$(mktemp -d "${TMPDIR:-/tmp}/sweep-out.XXXXXX"); keep=0; fi
mkdir -p "$outdir" || exit 2
rows="$outdir/rows.tsv"
: >"$rows"

# List the files of one tree, NUL-separated (names with spaces or newlines survive).
list_files() {
    local root=$1
    if [ -d "$root/dev/cuda" ] && [ -d "$root/llmc" ]; then
        find "$root/dev/cuda" -maxdepth 1 -type f -name '*.cu' -print0 | sort -z |
            while IFS= read -r -d '' f; do
                grep -qs '#include[[:space:]]*<mpi.h>' "$f" || printf '%s\0' "$f"
            done
    else
        find "$root" -name .git -prune -o -type f -name '*.cu' -print0 | sort -z
    fi
}

printf 'repo\tfile\texit\tkernels\tcomplete\tfailed\tparse\tprepare\tstopped\tretry\tfirst_error\n'
for root in "$@"; do
    [ -d "$root" ] || { echo "corpus_sweep.sh: $root: not a folder" >&2; continue; }
    root=$(cd "$root" && pwd)
    repo=$(basename "$root")
    list_files "$root" |
        xargs -0 -r -n1 -P "$jobs" "$self" --one "$bin" "$tmo" "$outdir" "$repo" "$root" |
        sort -t"$(printf '\t')" -k2,2 | tee -a "$rows"
done

# Summary: files, files fully reported (exit 0 with JSON), files failing, kernels reported.
# nvcc_refused: files nvcc itself rejects (missing third-party headers, removed APIs): no PTX.
printf '\nrepo\tfiles\tfully_reported\tfailing\tpartial\tnvcc_refused\ttimeouts\tkernels\tkernels_complete\tkernels_failed\tparse_failed\tprepare_failed\tstopped\n'
awk -F'\t' '
    { r = $1; files[r]++; if ($3 == 0) ok[r]++; else bad[r]++
      if ($3 != 0 && $4 > 0) part[r]++   # failing, but the report covers some kernels
      if ($3 == 124 || $3 == 137) to[r]++
      if ($11 ~ /^nvcc: /) nv[r]++
      k[r] += $4; kc[r] += $5; kf[r] += $6; kp[r] += $7; kq[r] += $8; ks[r] += $9
      if (!(r in seen)) { seen[r] = 1; order[++n] = r } }
    END { for (i = 1; i <= n; i++) { r = order[i]
            printf "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", r, files[r], ok[r], bad[r], part[r], nv[r], to[r], k[r], kc[r], kf[r], kp[r], kq[r], ks[r]
            F += files[r]; O += ok[r]; B += bad[r]; P += part[r]; V += nv[r]; T += to[r]; K += k[r]; KC += kc[r]; KF += kf[r]; KP += kp[r]; KQ += kq[r]; KS += ks[r] }
          printf "TOTAL\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", F, O, B, P, V, T, K, KC, KF, KP, KQ, KS }' "$rows"
[ "$keep" -eq 1 ] || rm -rf "$outdir"
