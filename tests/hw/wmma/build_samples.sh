#!/bin/sh
# build_samples.sh CUDA_SAMPLES OUT: the five cuda-samples wmma GEMMs at 256 x 256 x 256 (their
# M_TILES / N_TILES / K_TILES edited), with their CPU check on (-DCPU_DEBUG=1), built as the issue
# builds programs: nvcc -O3 -arch=sm_90 -lineinfo -cudart shared. README.md says why.
set -e
CS=$1; OUT=$2
[ -d "$CS/Samples/3_CUDA_Features" ] && [ -n "$OUT" ] || { echo "usage: build_samples.sh CUDA_SAMPLES OUT" >&2; exit 2; }
mkdir -p "$OUT/src"
for spec in "cudaTensorCoreGemm 16 16 16" "bf16TensorCoreGemm 16 16 16" "tf32TensorCoreGemm 16 16 32" \
            "immaTensorCoreGemm 16 16 16" "dmmaTensorCoreGemm 32 32 64"; do
  set -- $spec
  sed -e "s/^#define M_TILES .*/#define M_TILES $2/" -e "s/^#define N_TILES .*/#define N_TILES $3/" \
      -e "s/^#define K_TILES .*/#define K_TILES $4/" "$CS/Samples/3_CUDA_Features/$1/$1.cu" > "$OUT/src/$1.cu"
  nvcc -O3 -arch=sm_90 -lineinfo -cudart shared -DCPU_DEBUG=1 -I"$CS/Common" -o "$OUT/$1" "$OUT/src/$1.cu"
done
