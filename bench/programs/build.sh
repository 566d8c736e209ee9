#!/bin/sh
# build.sh BOOK CUDA_SAMPLES [BIN]: builds the programs of programs.txt as the issue builds unseen
# programs (nvcc 13, -O3 -arch=sm_90 -lineinfo -cudart shared) into BIN (default bin/).
#   BOOK: CodeSamples/chapter05 of github.com/chansonZ/professional_cuda_c_programming
#   CUDA_SAMPLES: a checkout of github.com/NVIDIA/cuda-samples (its Samples/ and Common/)
# The book predates the _sync shuffles nvcc 13 requires: its two shuffle programs are built with
# -include legacy_shfl.h (the old names mapped onto the full-warp _sync forms); nothing else is
# changed. Neither tree is part of this repository.
set -u
BOOK=$1; CS=$2; BIN=${3:-bin}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$BIN"
F="-O3 -arch=sm_90 -lineinfo -cudart shared"
for p in checkSmemSquare checkSmemRectangle reduceInteger transposeRectangle constantReadOnly constantStencil; do
  nvcc $F -o "$BIN/$p" "$BOOK/$p.cu" || echo "FAILED $p"
done
for p in reduceIntegerShfl simpleShfl; do
  nvcc $F -include "$HERE/legacy_shfl.h" -o "$BIN/$p" "$BOOK/$p.cu" || echo "FAILED $p"
done
for d in 0_Introduction/matrixMul 0_Introduction/simpleTemplates 6_Performance/transpose \
         2_Concepts_and_Techniques/reduction 2_Concepts_and_Techniques/histogram \
         2_Concepts_and_Techniques/scan 2_Concepts_and_Techniques/sortingNetworks \
         2_Concepts_and_Techniques/convolutionSeparable 5_Domain_Specific/fastWalshTransform \
         2_Concepts_and_Techniques/shfl_scan 2_Concepts_and_Techniques/threadFenceReduction; do
  n=$(basename $d)
  nvcc $F -I"$CS/Common" -o "$BIN/$n" "$CS/Samples/$d"/*.cu $(ls "$CS/Samples/$d"/*.cpp 2>/dev/null) || echo "FAILED $n"
done
