#!/bin/sh
# gen_sites.sh [N]: prints a .cu with N (default 300) shared-memory loads with bank conflicts, each on
# its own line, 100 to a kernel (sites0, sites1, ...), strides 2, 4, 8, 16 and 32 in turn: 2- to
# 32-way. Offsets are even, so ptxas never merges two neighbouring loads into one wider one. The
# input of the HTML report's test and of its size and time in docs/analyzer.md.
N=${1:-300}
awk -v n="$N" 'BEGIN {
    split("2 4 8 16 32", stride, " ")
    for (i = 0; i < n; i++) {
        if (i % 100 == 0) {
            printf "extern \"C\" __global__ void sites%d(float *out)\n{\n", i / 100
            printf "    __shared__ float s[32 * 36];\n"
            printf "    for (unsigned i = threadIdx.x; i < 32 * 36; i += blockDim.x)\n        s[i] = i;\n"
            printf "    __syncthreads();\n    float a = 0.f;\n"
        }
        printf "    a += s[threadIdx.x * %d + %d];\n", stride[i % 5 + 1], 2 * int((i % 100) / 5)
        if (i % 100 == 99 || i == n - 1)
            printf "    out[threadIdx.x] = a;\n}\n"
    }
}'
