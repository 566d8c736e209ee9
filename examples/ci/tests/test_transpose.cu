// test_transpose.cu: vecops_transpose on a 64x64 matrix, checked element by element on the host.
#include "vecops.h"

#include <cstdio>
#include <cuda_runtime.h>
#include <vector>

int main()
{
    const int n = 64;
    std::vector<float> a(n * n), b(n * n);
    for (int i = 0; i < n * n; i++)
        a[i] = (float)i;
    float *da, *db;
    cudaMalloc(&da, n * n * sizeof(float));
    cudaMalloc(&db, n * n * sizeof(float));
    cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
    vecops_transpose(da, db, n);
    cudaMemcpy(b.data(), db, n * n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            bad += b[c * n + r] != a[r * n + c];
    cudaFree(da);
    cudaFree(db);
    printf("transpose: %s\n", bad ? "FAIL" : "PASS");
    return bad ? 1 : 0;
}
