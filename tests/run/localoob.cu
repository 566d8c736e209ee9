// localoob.cu: planted out-of-bounds indexes into a thread's local array (its stack), for smemlab
// run's memcheck findings (docs/run.md, "Sanitizer findings"), one fault per mode, and a clean
// control. Build with -g and -lineinfo. compute-sanitizer's verdicts on the H200 (memcheck):
// tests/run/h200-localoob.txt. Thread 1 writes a[idx] of its int a[64]. Modes:
//   clean  idx 63          past  idx 64 (just past the array)      stack  idx 512 (2 KB in)
//   far    idx 1 << 22     below idx -(1 << 22)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void stackwrite(int *out, int idx, int n)
{
    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i * n;
    if (threadIdx.x == 1)
        a[idx] = 7; // WRITE local
    out[threadIdx.x] = a[(threadIdx.x * n) & 63];
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    int idx = !strcmp(mode, "past") ? 64 : !strcmp(mode, "stack") ? 512
            : !strcmp(mode, "far") ? 1 << 22 : !strcmp(mode, "below") ? -(1 << 22) : 63;
    int *out = nullptr, h[4] = {0, 0, 0, 0};
    size_t stack = 0;
    cudaDeviceGetLimit(&stack, cudaLimitStackSize);
    printf("stack limit %zu\n", stack);
    cudaMalloc(&out, 64);
    stackwrite<<<1, 4>>>(out, idx, 3);
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy: %s %d %d %d %d\n", cudaGetErrorName(e), h[0], h[1], h[2], h[3]);
    cudaFree(out);
    printf("%s done\n", mode);
    return 0;
}
