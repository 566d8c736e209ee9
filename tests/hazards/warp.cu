// warp.cu: lanes of one warp exchanging values through shared memory. Since Volta the lanes of a
// warp are not in lockstep: only __syncwarp() orders their shared accesses (a shuffle does not).
// Expected: neighborNoSync race, neighborShfl race, neighborSyncwarp none, sameValueOneWarp none
// (every lane stores the value already there after the first: not a write-write race for
// racecheck), broadcastNoSync race. Racecheck reports the races between lanes of one warp as
// warnings, those between warps as errors.
// smemlab analyze warp.cu --kernel neighborNoSync --block 32

__global__ void neighborNoSync(int *out)
{
    volatile __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;        // @nb-store
    out[threadIdx.x] = s[threadIdx.x ^ 1]; // @nb-load
}

__global__ void neighborSyncwarp(int *out)
{
    volatile __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    __syncwarp();
    out[threadIdx.x] = s[threadIdx.x ^ 1];
}

__global__ void neighborShfl(int *out)
{
    volatile __shared__ int s[32];
    s[threadIdx.x] = threadIdx.x;
    int v = __shfl_sync(0xffffffffu, (int)threadIdx.x, 0);
    out[threadIdx.x] = s[threadIdx.x ^ 1] + v;
}

// Every lane stores the same value to one word, then one lane reads it after a __syncwarp().
__global__ void sameValueOneWarp(int *out)
{
    volatile __shared__ int s;
    s = 7; // @same-store
    __syncwarp();
    if (threadIdx.x == 0)
        out[0] = s;
}

// Thread 0 writes, every thread of the block reads with no barrier in between.
__global__ void broadcastNoSync(int *out)
{
    volatile __shared__ int s;
    if (threadIdx.x == 0)
        s = 42; // @bc-store
    out[threadIdx.x] = s; // @bc-load
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(64);
    HZ_RUN("neighborNoSync", neighborNoSync, 1, 32, 0, out);
    HZ_RUN("neighborSyncwarp", neighborSyncwarp, 1, 32, 0, out);
    HZ_RUN("neighborShfl", neighborShfl, 1, 32, 0, out);
    HZ_RUN("sameValueOneWarp", sameValueOneWarp, 1, 32, 0, out);
    HZ_RUN("broadcastNoSync", broadcastNoSync, 1, 64, 0, out);
    return 2;
}
#endif
