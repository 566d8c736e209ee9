// Shared memory read before anything in the block wrote it (run --initcheck; compute-sanitizer's
// initcheck checks global memory only). Mode 0: every thread writes s[tid] first (clean); mode 1:
// only threads 0-63 do, and threads 0-63 read s[127 - tid]: 64 reads a block of bytes nothing
// wrote (line 12).
#include <cstdio>
__global__ void k(int mode, int *out)
{
    __shared__ int s[128];
    if (mode == 0 || threadIdx.x < 64)
        s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = s[127 - threadIdx.x];
}
int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0, *d;
    cudaMalloc(&d, 512);
    k<<<2, 128>>>(mode, d);
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
