#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, with its seed corpus from
# fuzz/corpus/<name> and its dictionary fuzz/<name>.dict when there is one. New inputs go to
# BUILD/corpus/<name>; a crash leaves crash-* in the current directory and fails the run.
set -e
BUILD=${1:-build-fuzz}; SECONDS_EACH=${2:-60}
found=0
for f in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  found=1
  n=$(basename "$f")
  mkdir -p "$BUILD/corpus/$n"
  seeds="fuzz/corpus/$n"; [ -d "$seeds" ] || seeds=""
  dict=""; [ -f "fuzz/$n.dict" ] && dict="-dict=fuzz/$n.dict"
  echo "fuzz: $n for ${SECONDS_EACH}s" >&2
  "$f" -max_total_time="$SECONDS_EACH" -max_len=65536 $dict "$BUILD/corpus/$n" $seeds
done
[ "$found" = 1 ] || { echo "fuzz: no targets in $BUILD/fuzz (was it configured with SMEMLAB_FUZZ=ON?)" >&2; exit 1; }
