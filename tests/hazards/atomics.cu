// atomics.cu: atomicAdd on shared memory (seed 002: atomics avoid the lost updates of i++).
// Expected: none for all four. atomicVsStore (a plain store and atomics on one word in one barrier
// interval) and atomicThenRead (a plain load of a word others update atomically) are data races by
// the PTX memory model, but compute-sanitizer's racecheck ignores atomics (H100, 2025.3.1: no
// hazard) and smemlab follows it (docs/hazards.md).
// smemlab analyze atomics.cu --kernel sharedAtomicCount --block 256

__global__ void sharedAtomicCount(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

__global__ void sharedHistogram(int *out)
{
    __shared__ int bins[16];
    if (threadIdx.x < 16)
        bins[threadIdx.x] = 0;
    __syncthreads();
    atomicAdd(&bins[threadIdx.x * 7 % 16], 1);
    __syncthreads();
    if (threadIdx.x < 16)
        out[blockIdx.x * 16 + threadIdx.x] = bins[threadIdx.x];
}

__global__ void atomicVsStore(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 40)
        count = 5;        // @av-store
    atomicAdd(&count, 1); // @av-atomic
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = count;
}

// Every thread counts itself atomically, then thread 0 reads the count with no barrier between.
__global__ void atomicThenRead(int *out)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1); // @atr-atomic
    if (threadIdx.x == 0)
        out[blockIdx.x] = count; // @atr-load
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(4 * 16);
    HZ_RUN("sharedAtomicCount", sharedAtomicCount, 4, 256, 0, out);
    HZ_RUN("sharedHistogram", sharedHistogram, 4, 256, 0, out);
    HZ_RUN("atomicVsStore", atomicVsStore, 4, 256, 0, out);
    HZ_RUN("atomicThenRead", atomicThenRead, 4, 256, 0, out);
    return 2;
}
#endif
