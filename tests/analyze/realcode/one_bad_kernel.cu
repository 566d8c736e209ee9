// Three kernels: one with an instruction smemlab does not model (applypriority), one whose assert
// fails with the block given, one plain. The plain one is reported; the others say why.
#include <cassert>
__global__ void plain(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x * 2] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[63 - threadIdx.x];
}
__global__ void unmodelled(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 2.0f;
    asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(out));
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void asserts(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = 1.0f;
    assert(blockDim.x == 128);
    out[threadIdx.x] = s[threadIdx.x];
}
