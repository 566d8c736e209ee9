// sanitize_more.cu: more planted faults for smemlab run's sanitizer checks (docs/run.md,
// "Sanitizer findings"), beside sanitize.cu (whose lines its golden file names): invalid pointers
// given to memsets, pinned memory freed twice or by the wrong call, a kernel reading past an
// allocation's end. Build with -g (host lines) and -lineinfo (device lines). compute-sanitizer's
// verdicts on the H200 (memcheck --leak-check full): tests/run/h200-sanitize-more.txt. Modes:
//   clean            pinned and device memory used and freed by the right calls
//   memset_oob       cudaMemset past an allocation's end     memset_host  cudaMemset of a host pointer
//   freehost_double  cudaFreeHost twice                      freehost_dev cudaFreeHost of device memory
//   free_pinned      cudaFree of cudaMallocHost's memory     leak_both    pinned and managed leaked
//   kernel_oob       a kernel reads one int past the end of a 256-byte allocation
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

__global__ void tail(const int *p, int *out, int n)
{
    int i = threadIdx.x;
    out[i] = p[i + n - 1]; // READ: thread 1 reads p[n]
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    int *d = nullptr, *h = nullptr, *out = nullptr;
    if (!strcmp(mode, "clean")) {
        cudaMallocHost(&h, 256);
        cudaMalloc(&d, 256);
        cudaMemset(d, 0, 256);
        cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
        cudaFreeHost(h);
        cudaFree(d);
    } else if (!strcmp(mode, "memset_oob")) {
        cudaMalloc(&d, 256);
        cudaMemset(d, 0, 512); // FAULT
        cudaFree(d);
    } else if (!strcmp(mode, "memset_host")) {
        h = (int *)malloc(256);
        cudaMemset(h, 0, 256); // FAULT
        free(h);
    } else if (!strcmp(mode, "freehost_double")) {
        cudaMallocHost(&h, 256);
        cudaFreeHost(h);
        cudaFreeHost(h); // FAULT
    } else if (!strcmp(mode, "freehost_dev")) {
        cudaMalloc(&d, 256);
        cudaFreeHost(d); // FAULT
        cudaFree(d);
    } else if (!strcmp(mode, "free_pinned")) {
        cudaMallocHost(&h, 256);
        cudaFree(h); // FAULT
        cudaFreeHost(h);
    } else if (!strcmp(mode, "leak_both")) {
        cudaMallocHost(&h, 1024); // FAULT
        cudaMallocManaged(&d, 2048); // FAULT
    } else if (!strcmp(mode, "kernel_oob")) {
        cudaMalloc(&d, 256);
        cudaMalloc(&out, 2 * sizeof(int));
        cudaMemset(d, 0, 256);
        tail<<<1, 2>>>(d, out, 64);
        cudaDeviceSynchronize();
        cudaFree(d);
        cudaFree(out);
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    printf("%s done\n", mode);
    return 0;
}
