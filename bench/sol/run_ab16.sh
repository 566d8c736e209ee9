#!/bin/sh
# run_ab16.sh: issue 16, round 5: the product command `smemlab bench transpose --format json` on two
# trees in one GPU-machine call, interleaved (A B A B ...), so that a change of the shipped launch
# (kernels/ and src/gpu/sol.c together) is judged against the unchanged product on the same machine
# in the same minutes. From any directory:
#   A=tree-a.tgz B=tree-b.tgz OUT=out [RUNS=3] sh run_ab16.sh
# Each tree (a `git ls-files` tarball) is built (cmake, release), its GPU tests run (ctest -R
# test_sol), then RUNS product runs of each (B unset: tree A alone, RUNS runs: a run of record);
# bench/sol/check_targets.py checks every run. Clocks are
# sampled every 200 ms (nvidia-smi) throughout. Everything lands in $OUT/ab.tgz (a1.json .. bN.log,
# build and test logs, clocks.csv, smi.txt) and the targets' check is printed last.
set -u
OUT=${OUT:-out}
RUNS=${RUNS:-3}
TREES="a b"; [ -n "${B:-}" ] || TREES=a
mkdir -p "$OUT/ab"
D=$(cd "$OUT/ab" && pwd)
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-} PYTHONUNBUFFERED=1
{
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  date -u +%Y-%m-%dT%H:%M:%SZ
  nvcc --version | tail -1
} >"$D/smi.txt" 2>&1
cat "$D/smi.txt"
GEN=; command -v ninja >/dev/null 2>&1 && GEN='-G Ninja'
for v in $TREES; do
  eval "tgz=\${$(echo $v | tr ab AB)}"
  rm -rf "/tmp/ab-$v" && mkdir -p "/tmp/ab-$v" && tar xzf "$tgz" -C "/tmp/ab-$v" || exit 1
  # shellcheck disable=SC2086
  (cd "/tmp/ab-$v" && cmake -S . -B build $GEN -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build build -j 8 --target smemlab smemlab_cub test_sol test_sol_gpu) >"$D/build-$v.txt" 2>&1 &
done
wait
for v in $TREES; do
  [ -x "/tmp/ab-$v/build/smemlab" ] || { echo "tree $v did not build"; tail -20 "$D/build-$v.txt"; exit 1; }
  (cd "/tmp/ab-$v/build" && timeout 150 ctest -R test_sol --output-on-failure) >"$D/tests-$v.log" 2>&1
  echo "tree $v: ctest exit $?" | tee -a "$D/tests-$v.log"
done
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,clocks_event_reasons.active,power.draw,temperature.gpu,utilization.gpu \
  --format=csv -lms 200 >"$D/clocks.csv" 2>&1 &
SMI=$!
i=1
while [ "$i" -le "$RUNS" ]; do
  for v in $TREES; do
    echo "[$(date -u +%H:%M:%S)] run $v$i"
    (cd "/tmp/ab-$v" && timeout 240 build/smemlab bench transpose --format json >"$D/$v$i.json" 2>"$D/$v$i.log")
    echo "exit $?" >>"$D/$v$i.log"
  done
  i=$((i + 1))
done
kill "$SMI" 2>/dev/null
(cd "$OUT" && tar czf ab.tgz ab)
python3 "/tmp/ab-a/bench/sol/check_targets.py" "$D"/[ab]*.json
