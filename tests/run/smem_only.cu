// smem_only.cu: a program with no device memory at all (no cudaMalloc, no __device__ or
// __constant__ variable) whose kernel uses only shared memory, timed in a loop as
// Kobzol/hardware-effects-gpu's bank-conflicts benchmark does (bench/programs/unseen5.txt).
// tests/test_run.c: its repeats are proven like any other launch's (a launch that reads no byte
// of device memory repeats when its configuration and arguments do).
#include <cstdio>

__global__ void rmw(int offset)
{
    __shared__ unsigned s[1024];
    if (threadIdx.x == 0)
        for (int i = 0; i < 1024; i++)
            s[i] = 0;
    __syncthreads();
    unsigned index = threadIdx.x * offset;
    for (int i = 0; i < 100; i++) {
        s[index] += index * i;
        index = (index + 32) % 1024;
    }
}

int main()
{
    for (int r = 0; r < 30; r++)
        rmw<<<1, 32>>>(1);
    rmw<<<1, 32>>>(2); // another argument: runs
    rmw<<<1, 32>>>(1); // the first configuration again: still a repeat
    cudaError_t e = cudaDeviceSynchronize();
    printf("smem_only %s\n", e == cudaSuccess ? "PASS" : "FAIL");
    return e == cudaSuccess ? 0 : 1;
}
