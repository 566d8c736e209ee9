#!/bin/sh
# build_rodinia.sh RODINIA [BIN]: builds the Rodinia programs of rodinia.txt (yuhc/gpu-rodinia,
# its cuda/ folder; measured at 9c10d3e) as the unseen programs are built (nvcc 13, -O3
# -arch=sm_90 -lineinfo -cudart shared; cudaThreadSynchronize, gone from CUDA 13, named
# cudaDeviceSynchronize) into BIN (default bin-rodinia/).
set -u
R=$1/cuda; BIN=${2:-bin-rodinia}
mkdir -p "$BIN"; BIN=$(cd "$BIN" && pwd)
F="-O3 -arch=sm_90 -lineinfo -cudart shared -w -DcudaThreadSynchronize=cudaDeviceSynchronize"
nvcc $F -o "$BIN/needle" "$R/nw/needle.cu" || echo "FAILED needle"
nvcc $F -o "$BIN/pathfinder" "$R/pathfinder/pathfinder.cu" || echo "FAILED pathfinder"
nvcc $F -o "$BIN/backprop" "$R/backprop/backprop.c" "$R/backprop/facetrain.c" \
  "$R/backprop/imagenet.c" "$R/backprop/backprop_cuda.cu" || echo "FAILED backprop"
(cd "$R/lud/cuda" && nvcc $F -I../common -o "$BIN/lud" lud.cu lud_kernel.cu \
  ../common/common.c) || echo "FAILED lud"
(cd "$R/srad/srad_v2" && nvcc $F -o "$BIN/srad" srad.cu) || echo "FAILED srad"
