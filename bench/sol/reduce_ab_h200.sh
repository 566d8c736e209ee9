#!/bin/sh
# reduce_ab_h200.sh: issue 34's open question for the reduce (session 5): which of ours' two forms is
# ahead of CUB in the product run's own conditions (every size in the default order, so the 1 GiB case's
# buffers come from the pieces the smaller cases freed; baselines and torch as in the run of record).
# One GPU-machine call on binaries built beforehand (smemlab, kernels/, libsmemlab_cub.so). From the
# repository root:  OUT=out BIN=build [RUNS=3] sh bench/sol/reduce_ab_h200.sh
# Runs `smemlab bench reduce --form register` and `--form bulk` in turn RUNS times (reduce-<form>-<i>.json,
# .log), then bench/sol/spread.py over each form's runs; everything also in $OUT/ab.tgz.
set -u
OUT=${OUT:-out}
BIN=${BIN:-build}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u +%Y-%m-%dT%H:%M:%SZ; } >"$OUT/smi.txt" 2>&1
cat "$OUT/smi.txt"
i=1
while [ "$i" -le "${RUNS:-3}" ]; do
  for f in register bulk; do
    "$BIN/smemlab" bench reduce --form "$f" --torch-script bench/sol/torch_ref.py --format json \
      >"$OUT/reduce-$f-$i.json" 2>"$OUT/reduce-$f-$i.log"
    echo "exit $?" >>"$OUT/reduce-$f-$i.log"
  done
  i=$((i + 1))
done
for f in register bulk; do
  echo "== --form $f"
  python3 "$(dirname "$0")/spread.py" "$OUT"/reduce-"$f"-*.json
done
(cd "$OUT" && tar czf ab.tgz --exclude=ab.tgz ./*.json ./*.log ./*.txt 2>/dev/null)
exit 0
