#!/bin/sh
# build_blas.sh LLMC SGEMM_CUDA SGEMM_PRACTICE HGEMM HGEMV LIBSAMPLES [BIN]: builds the programs of
# blas.txt (programs nobody here wrote that check their own kernels against cuBLAS, and NVIDIA's
# cuBLAS examples) as the issue builds unseen programs: nvcc 13, -O3 -arch=sm_90 -lineinfo
# -cudart shared, -lcublas -lcublasLt, into BIN (default bin-blas/), one at a time. The same
# binaries run under `smemlab run` here and natively on the GPU (run_blas_device.sh). Sources (any
# checkout of these commits; their code is not in this repository):
#   LLMC            github.com/karpathy/llm.c              f1e2ace (dev/cuda)
#   SGEMM_CUDA      github.com/siboehm/SGEMM_CUDA          60cba6f
#   SGEMM_PRACTICE  github.com/wangzyon/NVIDIA_SGEMM_PRACTICE  d6068b1
#   HGEMM           github.com/Bruce-Lee-LY/cuda_hgemm     0d26c2e (need libgflags-dev; the GPU
#   HGEMV           github.com/Bruce-Lee-LY/cuda_hgemv     55eaca4  machine has no libgflags: the
#                   device script takes libgflags.so.2.2 and libgomp.so.1 from lib/ beside bin/)
#   LIBSAMPLES      github.com/NVIDIA/CUDALibrarySamples   3437729 (cuBLAS/: one example per routine,
#                   host code only: built with g++ against the toolkit's headers)
# One change, made on copies in BIN (the sources are not edited): SGEMM_CUDA checks each kernel
# against cuBLAS at 128, 256, ..., 4096 (and times 50 runs of each: hours of one GPU's work
# emulated), SGEMM_PRACTICE at 256, 512, ..., 6144: the copies keep the first two sizes
# (`SIZE = {128, 256, ...}` -> {128, 256}; `size_len = 24` -> 2); llmc_attention_forward_r10 is
# attention_forward.cu timing 10 runs a block size, not 100 (`repeat_times = 100` -> 10). HGEMM's and HGEMV's main.cu log
# cudaDeviceProp's clockRate and memoryClockRate, which CUDA 13 removed: the copies log 0 instead.
# Nothing else differs.
set -u
LLMC=$1; SC=$2; SP=$3; HG=$4; HV=$5; LS=$6; BIN=${7:-bin-blas}
mkdir -p "$BIN"
F="-O3 -arch=sm_90 -lineinfo -cudart shared"
CUDA=${CUDA_HOME:-/usr/local/cuda}
b() { # NAME SOURCES AND FLAGS...
  name=$1; shift
  [ -x "$BIN/$name" ] && return
  nvcc $F -o "$BIN/$name" "$@" -lcublas -lcublasLt > "$BIN/$name.log" 2>&1 < /dev/null \
    || echo "FAILED $name (see $BIN/$name.log)"
}
# llm.c dev/cuda, as bench/programs/run_llmc_device.sh builds it
for p in attention_forward attention_backward trimat_forward; do
  b llmc_$p --use_fast_math -std=c++17 -Xcompiler -fopenmp -I"$LLMC/dev/cuda" "$LLMC/dev/cuda/$p.cu"
done
# the same attention_forward timing 10 runs a block size instead of 100 (this machine's measurements
# of its cuBLAS time: the first 60 launches, which the H200 counted, are the same program's)
mkdir -p "$BIN/src/llmc"
sed -e 's/int repeat_times = 100;/int repeat_times = 10;/' "$LLMC/dev/cuda/attention_forward.cu" > "$BIN/src/llmc/attention_forward_r10.cu"
grep -q 'repeat_times = 10;' "$BIN/src/llmc/attention_forward_r10.cu" || echo "FAILED llmc_attention_forward_r10: repeat_times not found"
b llmc_attention_forward_r10 --use_fast_math -std=c++17 -Xcompiler -fopenmp -I"$LLMC/dev/cuda" "$BIN/src/llmc/attention_forward_r10.cu"
# siboehm/SGEMM_CUDA: sgemm.cu + src/runner.cu, sizes 128 and 256
mkdir -p "$BIN/src/sgemm_cuda"
sed -e 's/std::vector<int> SIZE = {128, 256, 512, 1024, 2048, 4096};/std::vector<int> SIZE = {128, 256};/' \
  "$SC/sgemm.cu" > "$BIN/src/sgemm_cuda/sgemm.cu"
grep -q 'SIZE = {128, 256};' "$BIN/src/sgemm_cuda/sgemm.cu" || echo "FAILED sgemm_cuda: SIZE not found"
b sgemm_cuda -std=c++17 -I"$SC/src" "$BIN/src/sgemm_cuda/sgemm.cu" "$SC/src/runner.cu"
# wangzyon/NVIDIA_SGEMM_PRACTICE: sgemm.cu + src/utils.cu, sizes 256 and 512
mkdir -p "$BIN/src/sgemm_practice"
sed -e 's/int size_len = 24;/int size_len = 2;/' "$SP/sgemm.cu" > "$BIN/src/sgemm_practice/sgemm.cu"
grep -q 'size_len = 2;' "$BIN/src/sgemm_practice/sgemm.cu" || echo "FAILED sgemm_practice: size_len not found"
b sgemm_practice -std=c++17 -I"$SP/src" "$BIN/src/sgemm_practice/sgemm.cu" "$SP/src/utils.cu"
# Bruce-Lee-LY's cuda_hgemm / cuda_hgemv, as their CMakeLists build them (all sources, gflags, OpenMP)
G="-std=c++17 -Xcompiler -fopenmp --expt-relaxed-constexpr --use_fast_math"
for r in hgemm:$HG hgemv:$HV; do
  n=${r%%:*}; d=${r#*:}; mkdir -p "$BIN/src/$n"
  sed -e 's/dev_prop\.clockRate/0/g' -e 's/dev_prop\.memoryClockRate/0/g' "$d/src/main.cu" > "$BIN/src/$n/main.cu"
  b $n $G -I"$d/src/common" "$BIN/src/$n/main.cu" $(find "$d/src" -name '*.cu' ! -path "$d/src/main.cu" | sort) \
    -lgflags -lgomp -lpthread
done
# NVIDIA's cuBLAS examples (host code: g++, the toolkit's headers, the shared runtime)
for d in "$LS"/cuBLAS/Level-1/* "$LS"/cuBLAS/Level-2/* "$LS"/cuBLAS/Level-3/* "$LS"/cuBLAS/Extensions/*; do
  src=$(ls "$d"/*.cu 2>/dev/null | head -1); [ -n "$src" ] || continue
  name=cls_$(basename "$(dirname "$d")" | tr -d -- -)_$(basename "$d")
  [ -x "$BIN/$name" ] && continue
  g++ -O2 -std=c++17 -x c++ -I"$CUDA/include" -I"$LS/cuBLAS/utils" "$src" -o "$BIN/$name" \
    -L"$CUDA/lib64" -lcudart -lcublas -lcublasLt > "$BIN/$name.log" 2>&1 || echo "FAILED $name (see $BIN/$name.log)"
done
