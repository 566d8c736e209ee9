#!/bin/sh
# build_unseen6.sh CUDA_BY_EXAMPLE LEETCUDA TC_HGEMM [BIN]: builds the programs of unseen6.txt (a sixth
# batch nobody tuned smemlab for) as the issue builds unseen programs (nvcc 13, -O3 -arch=sm_90
# -lineinfo -cudart shared) into BIN (default bin-unseen6/), one at a time. The sources (any checkout
# of these commits; their code is not in this repository):
#   CUDA_BY_EXAMPLE  github.com/CodedK/CUDA-by-Example-source-code-for-the-book-s-examples-  0824fae
#                    (the book's own sources: chapter05/dot.cu, chapter09/hist_gpu_*_atomics.cu,
#                    appendix_a/dot.cu with its lock.h; common/book.h)
#   LEETCUDA         github.com/xlite-dev/LeetCUDA  cb6a0497 (kernels/swizzle: ldmatrix, mma.sync,
#                    cp.async, XOR swizzles)
#   TC_HGEMM         github.com/nicolaswilde/cuda-tensorcore-hgemm  079d286
#                    (gemm-tc-f16f16-128x256-public/gemm.cu: wmma and cp.async, checked on the CPU)
# One change, made on a copy in BIN (the source is not edited): TC_HGEMM's main times each of its 5
# kernels at 64 sizes up to 16384^3, 10 times each (hours of GPU work emulated); the copy keeps its
# first size (256^3) and one repeat: `test_num = 64` -> 1, `outer_repeat = 10` -> 1. Every kernel
# still runs its own 256^3 error check (against its CPU GEMM) first. Its makefile links cuBLAS,
# which gemm.cu never calls: not linked here.
set -u
CBE=$1; LC=$2; TC=$3; BIN=${4:-bin-unseen6}
mkdir -p "$BIN"
F="-O3 -arch=sm_90 -lineinfo -cudart shared"
b() { # NAME SOURCES AND FLAGS...
  name=$1; shift
  [ -x "$BIN/$name" ] && return
  nvcc $F -o "$BIN/$name" "$@" > "$BIN/$name.log" 2>&1 < /dev/null || echo "FAILED $name (see $BIN/$name.log)"
}
b cbe_dot $CBE/chapter05/dot.cu
b cbe_dot_lock $CBE/appendix_a/dot.cu
b cbe_hist_shmem $CBE/chapter09/hist_gpu_shmem_atomics.cu
b cbe_hist_gmem $CBE/chapter09/hist_gpu_gmem_atomics.cu
b lc_mma_simple_swizzle -std=c++17 $LC/kernels/swizzle/mma_simple_swizzle.cu
b lc_mat_trans_swizzle -std=c++17 $LC/kernels/swizzle/mat_trans_swizzle.cu
b lc_hgemm_mma_swizzle -std=c++17 $LC/kernels/swizzle/hgemm_mma_swizzle.cu
sed -e 's/const int test_num = 64;/const int test_num = 1;/' \
    -e 's/const int outer_repeat = 10,/const int outer_repeat = 1,/' \
    "$TC/gemm-tc-f16f16-128x256-public/gemm.cu" > "$BIN/tc_hgemm_256.cu"
grep -q 'test_num = 1;' "$BIN/tc_hgemm_256.cu" && grep -q 'outer_repeat = 1,' "$BIN/tc_hgemm_256.cu" \
  || echo "FAILED tc_hgemm_256: the two constants were not found"
b tc_hgemm_256 "$BIN/tc_hgemm_256.cu"
