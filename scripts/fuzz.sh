#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, with its seed corpus from
# fuzz/corpus/<name> and its dictionary fuzz/<name>.dict when there is one. New inputs go to
# BUILD/corpus/<name>; a crash leaves crash-* in the current directory and fails the run.
# FUZZ_LOGS=DIR (make fuzz-smoke): each target's output goes to DIR/<name>.log, one line says how
# it went, and the log's end is shown when it fails. FUZZ_FLAGS: more libFuzzer flags (-seed=1).
set -e
BUILD=${1:-build-fuzz}; SECONDS_EACH=${2:-60}
found=0
[ -z "$FUZZ_LOGS" ] || mkdir -p "$FUZZ_LOGS"
for f in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  found=1
  n=$(basename "$f")
  mkdir -p "$BUILD/corpus/$n"
  seeds="fuzz/corpus/$n"; [ -d "$seeds" ] || seeds=""
  dict=""; [ -f "fuzz/$n.dict" ] && dict="-dict=fuzz/$n.dict"
  echo "fuzz: $n for ${SECONDS_EACH}s" >&2
  if [ -z "$FUZZ_LOGS" ]; then
    "$f" -max_total_time="$SECONDS_EACH" -max_len=65536 $FUZZ_FLAGS $dict "$BUILD/corpus/$n" $seeds
  elif "$f" -max_total_time="$SECONDS_EACH" -max_len=65536 $FUZZ_FLAGS $dict "$BUILD/corpus/$n" $seeds \
         >"$FUZZ_LOGS/$n.log" 2>&1; then
    echo "fuzz: $n: $(grep '^Done ' "$FUZZ_LOGS/$n.log" | tail -n 1)" >&2
  else
    tail -n 60 "$FUZZ_LOGS/$n.log" >&2
    echo "fuzz: $n FAILED (the whole output: $FUZZ_LOGS/$n.log)" >&2
    exit 1
  fi
done
[ "$found" = 1 ] || { echo "fuzz: no targets in $BUILD/fuzz (was it configured with SMEMLAB_FUZZ=ON?)" >&2; exit 1; }
