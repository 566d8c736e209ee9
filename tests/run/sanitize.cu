// sanitize.cu: planted host-side faults for smemlab run's sanitizer checks (docs/run.md,
// "Sanitizer findings"), one fault per mode, and clean controls. Build with -g (host lines).
// Each fault's line is marked FAULT; compute-sanitizer's verdicts on the H200 are
// tests/run/h200-sanitize.txt. Modes:
//   clean          every allocation freed, no call fails
//   leak_malloc    a cudaMalloc never freed             leak_pitch   cudaMallocPitch never freed
//   leak_managed   cudaMallocManaged never freed        leak_async   cudaMallocAsync never freed
//   leak_host      cudaMallocHost never freed           leak_hostalloc  cudaHostAlloc never freed
//   double_free    cudaFree twice (the error ignored)   bad_free     cudaFree of a host pointer
//   uaf_memcpy     cudaMemcpy from freed memory          uaf_memset   cudaMemset of freed memory
//   oob_memcpy     cudaMemcpy past an allocation's end   checked_error an error the program checks (still reported: every failing call is)
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = i;
}

static int clean(void)
{
    int *d = nullptr, *h = nullptr;
    cudaMalloc(&d, 256);
    cudaMallocHost(&h, 256);
    fill<<<1, 64>>>(d, 64);
    cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost);
    int ok = h[63] == 63;
    cudaFree(d);
    cudaFreeHost(h);
    void *m = nullptr, *a = nullptr, *p = nullptr;
    size_t pitch = 0;
    cudaMallocManaged(&m, 512);
    cudaMallocAsync(&a, 1024, 0);
    cudaMallocPitch(&p, &pitch, 100, 4);
    cudaFree(m);
    cudaFreeAsync(a, 0);
    cudaFree(p);
    cudaDeviceSynchronize();
    printf("clean %s\n", ok ? "PASS" : "FAIL");
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    if (!strcmp(mode, "clean"))
        return clean();
    if (!strcmp(mode, "leak_malloc")) {
        int *d;
        cudaMalloc(&d, 256); // FAULT leak_malloc
        fill<<<1, 64>>>(d, 64);
    } else if (!strcmp(mode, "leak_pitch")) {
        void *p;
        size_t pitch;
        cudaMallocPitch(&p, &pitch, 100, 4); // FAULT leak_pitch
    } else if (!strcmp(mode, "leak_managed")) {
        void *m;
        cudaMallocManaged(&m, 512); // FAULT leak_managed
    } else if (!strcmp(mode, "leak_async")) {
        void *a;
        cudaMallocAsync(&a, 1024, 0); // FAULT leak_async
    } else if (!strcmp(mode, "leak_host")) {
        void *h;
        cudaMallocHost(&h, 4096); // FAULT leak_host
    } else if (!strcmp(mode, "leak_hostalloc")) {
        void *h;
        cudaHostAlloc(&h, 2048, cudaHostAllocMapped); // FAULT leak_hostalloc
    } else if (!strcmp(mode, "double_free")) {
        int *d;
        cudaMalloc(&d, 256);
        cudaFree(d);
        cudaFree(d); // FAULT double_free
    } else if (!strcmp(mode, "bad_free")) {
        static int host[64];
        cudaFree(host); // FAULT bad_free
    } else if (!strcmp(mode, "uaf_memcpy")) {
        int *d, h[64];
        cudaMalloc(&d, 256);
        cudaFree(d);
        cudaMemcpy(h, d, 256, cudaMemcpyDeviceToHost); // FAULT uaf_memcpy
    } else if (!strcmp(mode, "uaf_memset")) {
        int *d;
        cudaMalloc(&d, 256);
        cudaFree(d);
        cudaMemset(d, 0, 256); // FAULT uaf_memset
    } else if (!strcmp(mode, "oob_memcpy")) {
        int *d, h[128];
        cudaMalloc(&d, 256);
        cudaMemcpy(h, d, 512, cudaMemcpyDeviceToHost); // FAULT oob_memcpy
        cudaFree(d);
    } else if (!strcmp(mode, "checked_error")) {
        void *d;
        cudaError_t e = cudaMalloc(&d, (size_t)1 << 50); // too much: the program checks it
        printf("checked %s\n", cudaGetErrorName(e));
        cudaGetLastError();
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    cudaDeviceSynchronize();
    printf("%s done\n", mode);
    return 0;
}
