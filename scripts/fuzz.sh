#!/bin/sh
# Runs every libFuzzer target in BUILD/fuzz for SECONDS each, with its seed corpus from fuzz/corpus/<name>.
set -e
BUILD=${1:-build-fuzz}; SECONDS_EACH=${2:-60}
for f in "$BUILD"/fuzz/fuzz_*; do
  [ -x "$f" ] || continue
  n=$(basename "$f")
  mkdir -p "$BUILD/corpus/$n"
  seeds="fuzz/corpus/$n"; [ -d "$seeds" ] || seeds=""
  echo "fuzz: $n for ${SECONDS_EACH}s" >&2
  "$f" -max_total_time="$SECONDS_EACH" -max_len=65536 "$BUILD/corpus/$n" $seeds
done
