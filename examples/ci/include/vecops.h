// vecops.h: a small CUDA library, the example of smemlab in a project's CI (examples/ci/README.md).
#pragma once

// out = in transposed; in and out are n x n floats in device memory, n a multiple of 32.
void vecops_transpose(const float *in, float *out, int n);
// The sum of n floats in device memory (n a multiple of 256), through per-block partial sums.
float vecops_sum(const float *in, int n);
