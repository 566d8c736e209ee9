// long_launch.cu: one launch that takes a few seconds under `smemlab run` (tests/test_run.c,
// test_progress_line: with --progress a line names it while it runs and is erased after it; without,
// when stderr is not a terminal, nothing is added to the program's stderr).
#include <cstdio>

__global__ void spin(unsigned *out, unsigned n)
{
    __shared__ unsigned s[32];
    unsigned x = threadIdx.x;
    for (unsigned i = 0; i < n; i++)
        x = x * 1664525u + 1013904223u;
    s[threadIdx.x] = x;
    __syncthreads();
    out[blockIdx.x * 32 + threadIdx.x] = s[31 - threadIdx.x];
}

int main()
{
    unsigned *out, h[16 * 32];
    cudaMalloc(&out, sizeof h);
    spin<<<16, 32>>>(out, 4000000); // 16 x 128 M thread-instructions: seconds here
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    unsigned x = 31;
    for (unsigned i = 0; i < 4000000; i++)
        x = x * 1664525u + 1013904223u;
    fprintf(stderr, "long_launch stderr\n");
    int ok = h[0] == x && h[15 * 32] == x;
    printf("long_launch %s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
