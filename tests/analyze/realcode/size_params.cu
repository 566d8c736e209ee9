// 64-bit scalar parameters used in 64-bit arithmetic are not pointers: n - 1 is add.s64 in PTX,
// as a pointer offset would be. Unset, n must make the kernel incomplete (named); set, it counts.
#include <stddef.h>

__global__ void guarded(float *out, size_t n)
{
    __shared__ float s[256];
    if (threadIdx.x < n - 1)
        s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

extern "C" __global__ void guarded_c(float *out, unsigned long long n)
{
    __shared__ float s[256];
    if (threadIdx.x < n - 1)
        s[threadIdx.x * 2 % 256] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
