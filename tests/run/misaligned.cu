// misaligned.cu: planted misaligned accesses for smemlab run's memcheck findings (docs/run.md,
// "Sanitizer findings"): one fault per mode, thread 1 of the block the only one misaligned, and a
// clean control. Build with -g (host lines) and -lineinfo (device lines). compute-sanitizer's
// verdicts on the H200 (memcheck): tests/run/h200-misaligned.txt. The program prints the error
// the next synchronizing call and a later copy return (a GPU's context is lost after the fault).
// Modes:
//   clean   shared, global and local accesses all aligned
//   shared  a 4-byte shared read 2 bytes off      global  a 4-byte global write 2 bytes off
//   local   a 4-byte local read 2 bytes off (ptxas keeps this small array in registers: the
//           H200 runs no local access)                wide    an 8-byte global read 4 bytes off
//   local_mem  a 4-byte local read 2 bytes off an array a store at a variable index keeps in
//           local memory
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void shared_mis(int *out, int off)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    __syncthreads();
    const int *p = (const int *)((const char *)s + (threadIdx.x == 1 ? off : 0));
    out[threadIdx.x] = p[threadIdx.x]; // READ shared
}

__global__ void global_mis(int *p, int off)
{
    int *q = (int *)((char *)p + (threadIdx.x == 1 ? off : 0));
    q[threadIdx.x] = threadIdx.x; // WRITE global
}

__global__ void local_mis(int *out, int off, int n)
{
    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i * n;
    const int *p = (const int *)((const char *)a + (threadIdx.x == 1 ? off : 0));
    out[threadIdx.x] = p[(threadIdx.x * n) & 31]; // READ local
}

__global__ void wide_mis(const long long *p, long long *out, int off)
{
    const long long *q = (const long long *)((const char *)p + (threadIdx.x == 1 ? off : 0));
    out[threadIdx.x] = q[threadIdx.x]; // READ global 8
}

__global__ void local_mem_mis(int *out, int off, int idx, int n)
{
    int a[64];
    for (int i = 0; i < 64; i++)
        a[i] = i * n;
    a[idx & 63] = 7; // a store at a variable index: the array stays in local memory
    const int *p = (const int *)((const char *)a + (threadIdx.x == 1 ? off : 0));
    out[threadIdx.x] = p[(threadIdx.x * n) & 31]; // READ local memory
}

static void report(const char *what)
{
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s sync: %s\n", what, cudaGetErrorName(e));
    e = cudaGetLastError();
    printf("%s last: %s\n", what, cudaGetErrorName(e));
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    int off = !strcmp(mode, "clean") ? 0 : !strcmp(mode, "wide") ? 4 : 2;
    int *d = nullptr, *out = nullptr;
    long long *w = nullptr, *wo = nullptr;
    cudaMalloc(&d, 1024);
    cudaMalloc(&out, 1024);
    cudaMalloc(&w, 1024);
    cudaMalloc(&wo, 1024);
    cudaMemset(d, 0, 1024);
    cudaMemset(w, 0, 1024);
    if (!strcmp(mode, "clean") || !strcmp(mode, "shared")) {
        shared_mis<<<1, 4>>>(out, off);
        report("shared");
    }
    if (!strcmp(mode, "clean") || !strcmp(mode, "global")) {
        global_mis<<<1, 4>>>(d, off);
        report("global");
    }
    if (!strcmp(mode, "clean") || !strcmp(mode, "local")) {
        local_mis<<<1, 4>>>(out, off, 3);
        report("local");
    }
    if (!strcmp(mode, "clean") || !strcmp(mode, "local_mem")) {
        local_mem_mis<<<1, 4>>>(out, off, 5, 3);
        report("local_mem");
    }
    if (!strcmp(mode, "clean") || !strcmp(mode, "wide")) {
        wide_mis<<<1, 4>>>(w, wo, off);
        report("wide");
    }
    int h[4] = {0, 0, 0, 0};
    cudaError_t e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy: %s\n", cudaGetErrorName(e));
    cudaFree(d);
    cudaFree(out);
    cudaFree(w);
    cudaFree(wo);
    printf("%s done\n", mode);
    return 0;
}
