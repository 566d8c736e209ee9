// devheap.cu: planted faults of device-side malloc / free for smemlab run's memcheck findings
// (docs/run.md, "Sanitizer findings"), one fault per mode, and clean controls. Build with -g and
// -lineinfo. compute-sanitizer's verdicts on the H200 (memcheck --leak-check full):
// tests/run/h200-devheap.txt. Modes:
//   clean        each thread mallocs 16 bytes, writes, reads and frees them
//   two_kernels  one kernel mallocs, a second frees (clean)
//   overrun      a thread writes one int past its 16-byte block
//   leak         blocks malloc'd by a kernel never freed
//   bad_free     free of a pointer 4 bytes into a block       double_free  free of a block twice
//   limit        cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 MB), then a 2 MB malloc: NULL
//   host_free    cudaFree of a pointer a kernel malloc'd
//   too_big      a 16 MB malloc from the default 8 MB heap: NULL
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void use(int *out, int fault)
{
    int *p = (int *)malloc(16);
    if (!p) {
        out[threadIdx.x] = -1;
        return;
    }
    for (int i = 0; i < 4; i++)
        p[i] = threadIdx.x + i;
    if (fault == 1 && threadIdx.x == 1)
        p[4] = 7; // WRITE past the block
    out[threadIdx.x] = p[0] + p[3];
    if (fault == 2)
        return; // LEAK
    if (fault == 3 && threadIdx.x == 1)
        p += 1; // FREE of an inner pointer
    free(p);
    if (fault == 4 && threadIdx.x == 1)
        free(p); // FREE twice
}

__global__ void keep(int **slots)
{
    int *p = (int *)malloc(32);
    if (p)
        p[0] = threadIdx.x;
    slots[threadIdx.x] = p;
}

__global__ void release(int **slots, int *out)
{
    int *p = slots[threadIdx.x];
    out[threadIdx.x] = p ? p[0] : -1;
    free(p);
}

__global__ void big(int *out, size_t n)
{
    char *p = (char *)malloc(n);
    out[0] = p != nullptr;
    free(p);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    int *out = nullptr, h[4] = {0, 0, 0, 0};
    int **slots = nullptr;
    size_t heap = 0;
    cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
    printf("heap limit %zu\n", heap);
    cudaMalloc(&out, 64);
    cudaMalloc(&slots, 4 * sizeof(int *));
    int fault = !strcmp(mode, "overrun") ? 1 : !strcmp(mode, "leak") ? 2
              : !strcmp(mode, "bad_free") ? 3 : !strcmp(mode, "double_free") ? 4 : 0;
    cudaError_t e = cudaSuccess;
    if (!strcmp(mode, "two_kernels") || !strcmp(mode, "host_free")) {
        keep<<<1, 4>>>(slots);
        e = cudaDeviceSynchronize();
        if (!strcmp(mode, "host_free")) {
            int *hp[4];
            cudaMemcpy(hp, slots, sizeof hp, cudaMemcpyDeviceToHost);
            e = cudaFree(hp[0]); // FREE from the host
            printf("cudaFree: %s\n", cudaGetErrorName(e));
        }
        release<<<1, 4>>>(slots, out);
    } else if (!strcmp(mode, "limit")) {
        e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);
        cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
        printf("set: %s, heap limit %zu\n", cudaGetErrorName(e), heap);
        big<<<1, 1>>>(out, 2 << 20);
    } else if (!strcmp(mode, "too_big")) {
        big<<<1, 1>>>(out, 16 << 20);
    } else {
        use<<<1, 4>>>(out, fault);
    }
    e = cudaDeviceSynchronize();
    printf("sync: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    printf("copy: %s %d %d %d %d\n", cudaGetErrorName(e), h[0], h[1], h[2], h[3]);
    cudaFree(out);
    cudaFree(slots);
    printf("%s done\n", mode);
    return 0;
}
