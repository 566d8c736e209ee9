#!/bin/sh
# reduce_ab_h200.sh: issue 34's open question for the reduce (session 5): which of ours' two forms is
# ahead of CUB in the product run's own conditions (every size in the default order, so the 1 GiB case's
# buffers come from the pieces the smaller cases freed; baselines and torch as in the run of record).
# One GPU-machine call on binaries built beforehand (smemlab, kernels/, libsmemlab_cub.so). From the
# repository root:  OUT=out BIN=build [RUNS=3] sh bench/sol/reduce_ab_h200.sh
# Runs `smemlab bench reduce --form register` and `--form bulk` in turn RUNS times (reduce-<form>-<i>.json,
# .log), then bench/sol/spread.py over each form's runs; everything also in $OUT/ab.tgz.
. "$(dirname "$0")/h200_start.sh"
i=1
while [ "$i" -le "${RUNS:-3}" ]; do
  for f in register bulk; do
    "$S" bench reduce --form "$f" --torch-script bench/sol/torch_ref.py --format json \
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
