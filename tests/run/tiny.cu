// tiny.cu: the smallest CUDA program, built the ways smemlab run must refuse (tests/test_run.c):
// with the static runtime (nvcc's default) and with SASS only.
#include <cstdio>

__global__ void one(int *p)
{
    p[threadIdx.x] = threadIdx.x;
}

int main()
{
    int *d;
    cudaMalloc(&d, 32 * sizeof(int));
    one<<<1, 32>>>(d);
    int h[32];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("tiny %s\n", h[31] == 31 ? "PASS" : "FAIL");
    return 0;
}
