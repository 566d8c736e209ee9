#!/bin/sh
# build_unseen5.sh CODE_SAMPLES HW_EFFECTS CCCL [BIN]: builds the programs of unseen5.txt (a fifth
# batch nobody tuned smemlab for) as the issue builds unseen programs (nvcc 13, -O3 -arch=sm_90
# -lineinfo -cudart shared) into BIN (default bin-unseen5/), one at a time. The sources:
#   CODE_SAMPLES  github.com/NVIDIA-developer-blog/code-samples  72d62ec46444
#   HW_EFFECTS    github.com/Kobzol/hardware-effects-gpu          1b03fa981600
#   CCCL          github.com/NVIDIA/cccl at tag v3.0.0 (e944297b0b51: the CUB of nvcc 13.0), for
#                 cub/examples, cub/test/test_util.h and c2h/include
# Left out: posts/parallel_reduction_with_shfl (its cub::DeviceReduce::Reduce call has no initial
# value, which CCCL 3 requires: it does not compile with nvcc 13 unchanged).
set -u
CS=$1; HW=$2; CCCL=$3; BIN=${4:-bin-unseen5}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BIN"
F="-O3 -arch=sm_90 -lineinfo -cudart shared"
b() { # NAME SOURCES AND FLAGS...
  name=$1; shift
  [ -x "$BIN/$name" ] && return
  nvcc $F -o "$BIN/$name" "$@" > "$BIN/$name.log" 2>&1 < /dev/null || echo "FAILED $name (see $BIN/$name.log)"
}
S=$CS/series/cuda-cpp
b cs_shared_memory $S/shared-memory/shared-memory.cu
b cs_transpose $S/transpose/transpose.cu
b cs_finite_difference $S/finite-difference/finite-difference.cu
b hwe_bank_conflicts $HW/bank-conflicts/init.cpp $HW/bank-conflicts/bank-conflicts.cu
b hwe_memory_coalescing $HW/memory-coalescing/init.cpp $HW/memory-coalescing/memory-coalescing.cu
E=$CCCL/cub/examples
C="-std=c++17 -I$CCCL/c2h/include"
for k in reduce reduce_dyn_smem scan radix_sort; do b cub_block_$k $C $E/block/example_block_$k.cu; done
for k in reduce scan radix_sort select_unique partition_if decoupled_look_back sort_find_non_trivial_runs; do
  b cub_device_$k $C $E/device/example_device_$k.cu
done
