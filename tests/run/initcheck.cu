// initcheck.cu: planted reads of device memory never written, for smemlab run --initcheck
// (docs/run.md, "Sanitizer findings"), one fault per mode, and clean controls. Build with -g
// (host lines) and -lineinfo (device lines). compute-sanitizer --tool initcheck's verdicts on the
// H200: tests/run/h200-initcheck.txt. Modes:
//   clean        written by a copy, a memset and a kernel before every read
//   malloc       a kernel reads a cudaMalloc never written (64 threads, 4 bytes each)
//   partial      a memset of the first half, a kernel reads all of it
//   pitch        cudaMallocPitch, the first row written by cudaMemcpy2D, the second read
//   async        cudaMallocAsync never written, read
//   plus         out[i] += in[i] on an out never written (read then write)
//   two_kernels  one kernel writes, a second reads: clean
//   copy_out     cudaMemcpy of memory never written to the host (no kernel)
//   d2d          cudaMemcpy device to device of memory never written, then a kernel reads the copy
//   managed      cudaMallocManaged never written, read     managed_host  written by the host, read
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void sum(const int *p, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = p[i] + 1; // READ
}

__global__ void accumulate(int *out, const int *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += in[i]; // READ of out
}

__global__ void fill(int *p, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = 2 * i;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "clean";
    int n = 64, h[64] = {0};
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&out, n * sizeof(int));
    cudaMemset(out, 0, n * sizeof(int));
    if (!strcmp(mode, "clean")) {
        cudaMalloc(&in, n * sizeof(int));
        cudaMemcpy(in, h, n * sizeof(int), cudaMemcpyHostToDevice);
        sum<<<1, n>>>(in, out, n);
        fill<<<1, n>>>(in, n);
        sum<<<1, n>>>(in, out, n);
    } else if (!strcmp(mode, "malloc")) {
        cudaMalloc(&in, n * sizeof(int)); // ALLOC
        sum<<<1, n>>>(in, out, n);
    } else if (!strcmp(mode, "partial")) {
        cudaMalloc(&in, n * sizeof(int));
        cudaMemset(in, 0, n * sizeof(int) / 2);
        sum<<<1, n>>>(in, out, n);
    } else if (!strcmp(mode, "pitch")) {
        size_t pitch = 0;
        cudaMallocPitch(&in, &pitch, n * sizeof(int), 2);
        cudaMemcpy2D(in, pitch, h, n * sizeof(int), n * sizeof(int), 1, cudaMemcpyHostToDevice);
        sum<<<1, n>>>((const int *)((char *)in + pitch), out, n);
    } else if (!strcmp(mode, "async")) {
        cudaMallocAsync(&in, n * sizeof(int), 0);
        sum<<<1, n>>>(in, out, n);
        cudaDeviceSynchronize();
    } else if (!strcmp(mode, "plus")) {
        int *acc = nullptr;
        cudaMalloc(&in, n * sizeof(int));
        cudaMalloc(&acc, n * sizeof(int));
        cudaMemset(in, 0, n * sizeof(int));
        accumulate<<<1, n>>>(acc, in, n);
        cudaFree(acc);
    } else if (!strcmp(mode, "two_kernels")) {
        cudaMalloc(&in, n * sizeof(int));
        fill<<<1, n>>>(in, n);
        sum<<<1, n>>>(in, out, n);
    } else if (!strcmp(mode, "copy_out")) {
        cudaMalloc(&in, n * sizeof(int));
        cudaMemcpy(h, in, n * sizeof(int), cudaMemcpyDeviceToHost);
    } else if (!strcmp(mode, "d2d")) {
        int *src = nullptr;
        cudaMalloc(&src, n * sizeof(int));
        cudaMalloc(&in, n * sizeof(int));
        cudaMemcpy(in, src, n * sizeof(int), cudaMemcpyDeviceToDevice);
        sum<<<1, n>>>(in, out, n);
        cudaFree(src);
    } else if (!strcmp(mode, "managed")) {
        cudaMallocManaged(&in, n * sizeof(int));
        sum<<<1, n>>>(in, out, n);
    } else if (!strcmp(mode, "managed_host")) {
        cudaMallocManaged(&in, n * sizeof(int));
        for (int i = 0; i < n; i++)
            in[i] = i;
        sum<<<1, n>>>(in, out, n);
    } else {
        fprintf(stderr, "unknown mode %s\n", mode);
        return 2;
    }
    cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    cudaDeviceSynchronize();
    printf("%s done\n", mode);
    return 0;
}
