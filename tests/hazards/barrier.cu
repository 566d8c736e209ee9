// barrier.cu: __syncthreads() in divergent code (seed 002: "never in divergent code"). The CUDA
// programming guide makes a __syncthreads() that not every thread of the block reaches undefined
// behaviour, whether the condition splits a warp or only the warps of a block.
// Expected: every kernel here barrier, none race. (synccheck on an H100 reported barrierLaneDivergent
// and barrierTwoSites, and stayed silent on barrierWarpUniform.)
// smemlab analyze barrier.cu --kernel barrierLaneDivergent --block 64

// Lanes 0-15 of warp 0 wait; lanes 16-31 and warp 1 exit without reaching the barrier.
__global__ void barrierLaneDivergent(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16)
        __syncthreads(); // @bar-lane
    out[threadIdx.x] = s[threadIdx.x];
}

// Warp 0 waits, warp 1 exits: the condition is uniform within each warp, not within the block.
__global__ void barrierWarpUniform(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 32)
        __syncthreads(); // @bar-warp
    out[threadIdx.x] = s[threadIdx.x];
}

// Warp 0 waits at one barrier, warp 1 at a later one: two different __syncthreads() meet.
__global__ void barrierTwoSites(int *out)
{
    __shared__ int s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 32)
        __syncthreads(); // @bar-first
    out[threadIdx.x] = s[threadIdx.x];
    __syncthreads(); // @bar-second
    out[64 + threadIdx.x] = s[63 - threadIdx.x];
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(128);
    HZ_RUN("barrierLaneDivergent", barrierLaneDivergent, 1, 64, 0, out);
    HZ_RUN("barrierWarpUniform", barrierWarpUniform, 1, 64, 0, out);
    HZ_RUN("barrierTwoSites", barrierTwoSites, 1, 64, 0, out);
    return 2;
}
#endif
