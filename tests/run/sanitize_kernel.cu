// sanitize_kernel.cu: a kernel that reads memory the program already freed (use after free,
// named with the host lines that made and freed it), and a clean control (argument "clean").
// Build with -g (host lines) and -lineinfo (device lines).
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>

__global__ void sum(const int *p, int *out, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += p[i]; // the read of freed memory
    *out = s;
}

int main(int argc, char **argv)
{
    int clean = argc > 1 && !strcmp(argv[1], "clean");
    int *p, *out, h = 0;
    cudaMalloc(&p, 256);
    cudaMalloc(&out, sizeof(int));
    cudaMemset(p, 0, 256);
    if (!clean)
        cudaFree(p); // freed before the launch
    sum<<<1, 1>>>(p, out, 64);
    cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
    if (clean)
        cudaFree(p);
    cudaFree(out);
    printf("sum %d\n", h);
    return 0;
}
