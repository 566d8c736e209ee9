// test_sum.cu: vecops_sum of 1024 ones and twos, checked against the host's sum.
#include "vecops.h"

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main()
{
    const int n = 1024;
    std::vector<float> a(n);
    float want = 0;
    for (int i = 0; i < n; i++)
        want += a[i] = (float)(1 + i % 2);
    float *da;
    cudaMalloc(&da, n * sizeof(float));
    cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    float got = vecops_sum(da, n);
    cudaFree(da);
    printf("sum: %g (want %g): %s\n", got, want, got == want ? "PASS" : "FAIL");
    return got == want ? 0 : 1;
}
