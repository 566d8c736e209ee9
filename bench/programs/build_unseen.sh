#!/bin/sh
# build_unseen.sh CUDA_SAMPLES [BIN]: builds the cuda-samples of unseen.txt (programs nobody tuned
# smemlab for: each line NAME DIR [ARGS]) as the issue builds unseen programs (nvcc 13, -O3
# -arch=sm_90 -lineinfo -cudart shared) into BIN (default bin-unseen/), one at a time.
set -u
CS=$1; BIN=${2:-bin-unseen}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BIN"
F="-O3 -arch=sm_90 -lineinfo -cudart shared"
while read name dir args; do
  d="$CS/Samples/$dir"
  [ -x "$BIN/$name" ] && continue
  nvcc $F -I"$CS/Common" -I"$d" -o "$BIN/$name" "$d"/*.cu $(ls "$d"/*.cpp 2>/dev/null) \
    > "$BIN/$name.log" 2>&1 < /dev/null || echo "FAILED $name (see $BIN/$name.log)"
done < "$HERE/unseen.txt"
