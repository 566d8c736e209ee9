#!/bin/bash
# run.sh: on the H100 (the device tool): mma_more.cu's exact checks and its dump of every D
# register on random inputs (mma-check.txt, mma-dump.txt), then the third cp.async run
# (../ldsm/gen_patterns3.py; ../ldsm/run.sh with PAT=patterns3.txt). Needs, in the carry folder
# beside this script: mma_more.cu, and ../ (the ldsm folder: ldsm.cu, gemm.cu, run.sh, patterns3.txt).
set -u
cd "$(dirname "$0")"
R=${OUT:-out}; mkdir -p "$R/m"
export LD_LIBRARY_PATH=/usr/local/cuda/lib64:${LD_LIBRARY_PATH:-}
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -1; date -u; } > "$R/m/device.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o mma_more mma_more.cu > "$R/m/build.txt" 2>&1 || { cat "$R/m/build.txt"; exit 1; }
cuobjdump -sass mma_more | grep -E "HMMA|IMMA|DMMA|QMMA|BMMA" | sed 's/ *\/\*[0-9a-f]*\*\/ *$//' | sort | uniq -c > "$R/m/sass.txt"
./mma_more check > "$R/m/mma-check.txt" 2>&1; echo "check rc=$?"; tail -1 "$R/m/mma-check.txt"; grep FAIL "$R/m/mma-check.txt" | head
./mma_more dump > "$R/m/mma-dump.txt" 2>&1; echo "dump rc=$? $(wc -l < "$R/m/mma-dump.txt") lines"
tar czf "$R/mma-results.tgz" -C "$R/m" . && rm -rf "$R/m"
cd ..
PAT=patterns3.txt SKIP_GEMM=1 GROUPS_TO_RUN="cpasync*" LIMIT=300 OUT="$R" bash run.sh 2>&1 | tail -8
ls -la "$R"
