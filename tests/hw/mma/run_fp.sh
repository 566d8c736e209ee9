#!/bin/bash
# run_fp.sh: on the H100 (the device tool, with mma_fp.cu beside it in the carry folder):
# mma_fp.cu built for sm_90, its SASS (HMMA, F2FP, FADD lines: sass.txt), its exact check
# (check.txt) and its dump of every case (dump.txt = ../h100-mma-fp.txt), dumped twice to show
# that the results do not vary from run to run.
set -u
cd "$(dirname "$0")"
R=${OUT:-out}; mkdir -p "$R"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; date -u; } > "$R/device.txt"
cat "$R/device.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o mma_fp mma_fp.cu > "$R/build.txt" 2>&1 || { cat "$R/build.txt"; exit 1; }
cuobjdump -sass mma_fp | grep -E "Function|HMMA|FADD|F2FP" | sed 's/ *\/\*[0-9a-f]*\*\/ *$//' > "$R/sass.txt"
./mma_fp check > "$R/check.txt" 2>&1; echo "check rc=$?"; tail -1 "$R/check.txt"; grep FAIL "$R/check.txt" | head
./mma_fp dump > "$R/dump.txt" 2>&1; echo "dump rc=$? $(wc -l < "$R/dump.txt") lines"
./mma_fp dump > "$R/dump2.txt" 2>&1; cmp "$R/dump.txt" "$R/dump2.txt" && echo "second dump identical" && rm "$R/dump2.txt"
ls -la "$R"
