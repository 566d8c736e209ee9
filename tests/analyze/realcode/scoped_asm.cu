// Inline PTX with a scoped block, as libraries write it: the register p lives in { } only, and the
// block is used twice (two scopes, one name). r = (a != 0), so the store is s[2*tid + r].
__device__ unsigned nonzero(unsigned a)
{
    unsigned r;
    asm("{ .reg .pred p; setp.ne.b32 p, %1, 0; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "r"(a));
    return r;
}
__global__ void scoped(int *out, unsigned a)
{
    __shared__ int s[64];
    s[threadIdx.x * 2 + nonzero(a)] = 1;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x + nonzero(a + 1) * 32];
}
