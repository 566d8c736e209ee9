#!/bin/sh
# build_cutlass.sh CUTLASS_DIR [BIN] [NAME...]: builds CUTLASS's Hopper examples of cutlass.txt
# (issue 29's acceptance programs) into BIN (default bin/), one at a time, as the issue builds
# unseen programs: nvcc 13, -O3 -std=c++17 -gencode arch=compute_90a,code=[sm_90a,compute_90a]
# -lineinfo -cudart shared (the PTX beside the SASS: smemlab run emulates the PTX), plus the
# flags CUTLASS's own CMake gives every example (--expt-relaxed-constexpr,
# -ftemplate-backtrace-limit=0, -DCUTLASS_ENABLE_TENSOR_CORE_MMA=1, its include folders).
#   CUTLASS_DIR: a checkout of github.com/NVIDIA/cutlass (measured: 7107b0553); not part of this
#   repository. NAMEs (default: all) pick some of: wgmma_sm90 wgmma_tma_sm90 48 49 54.
# JOBS (default 1) compiles that many at once. Exit status: the number of programs that failed.
set -u
CUT=$1; BIN=${2:-bin}; shift; [ $# -gt 0 ] && shift
mkdir -p "$BIN"
F="-O3 -std=c++17 -gencode arch=compute_90a,code=[sm_90a,compute_90a] -lineinfo -cudart shared
   --expt-relaxed-constexpr -ftemplate-backtrace-limit=0 -DCUTLASS_ENABLE_TENSOR_CORE_MMA=1
   -I$CUT/include -I$CUT/tools/util/include -I$CUT/examples/common"
src() {
  case $1 in
    wgmma_sm90)     echo "$CUT/examples/cute/tutorial/hopper/wgmma_sm90.cu" ;;
    wgmma_tma_sm90) echo "$CUT/examples/cute/tutorial/hopper/wgmma_tma_sm90.cu" ;;
    48) echo "$CUT/examples/48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu" ;;
    49) echo "$CUT/examples/49_hopper_gemm_with_collective_builder/49_collective_builder.cu" ;;
    54) echo "$CUT/examples/54_hopper_fp8_warp_specialized_gemm/54_hopper_fp8_warp_specialized_gemm.cu" ;;
  esac
}
exe() {
  case $1 in
    wgmma_sm90|wgmma_tma_sm90) echo "cute_tutorial_$1" ;;
    *) basename "$(src "$1")" .cu ;;
  esac
}
NAMES=${*:-wgmma_sm90 wgmma_tma_sm90 48 49 54}
fail=0; pids=""; n=0
for p in $NAMES; do
  s=$(src "$p"); [ -n "$s" ] || { echo "build_cutlass.sh: unknown program '$p'" >&2; fail=$((fail+1)); continue; }
  # 54 calls the driver API itself (cuMemsetD32Async, cuGetErrorString): linked with libcuda as
  # CUTLASS's CMake links every example (the toolkit's stub; smemlab run brings its own libcuda.so.1)
  L=""; [ "$p" = 54 ] && L="-L$(dirname "$(command -v nvcc)")/../lib64/stubs -lcuda"
  ( nvcc $F -o "$BIN/$(exe "$p")" "$s" $L || { echo "FAILED $p" >&2; exit 1; } ) &
  pids="$pids $!"; n=$((n+1))
  if [ "$n" -ge "${JOBS:-1}" ]; then
    for q in $pids; do wait "$q" || fail=$((fail+1)); done; pids=""; n=0
  fi
done
for q in $pids; do wait "$q" || fail=$((fail+1)); done
exit $fail
