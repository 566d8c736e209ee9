// values.cu: conflicting accesses that store the value already there. Racecheck (H100) reports the
// read against such a store (sameValueWAR) but not a second store of the same value
// (sameValueTwoWarps). Expected: sameValueWAR race, sameValueTwoWarps none.
// smemlab analyze values.cu --kernel sameValueWAR --block 64

// After a barrier, thread 0 stores 1 into s[40] (already 1) while thread 40 reads it.
__global__ void sameValueWAR(int *out)
{
    volatile __shared__ int s[64];
    s[threadIdx.x] = 1;
    __syncthreads();
    if (threadIdx.x == 0)
        s[40] = 1;                     // @sv-store
    out[threadIdx.x] = s[threadIdx.x]; // @sv-load
}

// Two threads of two warps store the same value to one word.
__global__ void sameValueTwoWarps(int *out)
{
    volatile __shared__ int s;
    if (threadIdx.x == 0 || threadIdx.x == 32)
        s = 5; // @sv2-store
    __syncthreads();
    out[threadIdx.x] = s;
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(64);
    HZ_RUN("sameValueWAR", sameValueWAR, 1, 64, 0, out);
    HZ_RUN("sameValueTwoWarps", sameValueTwoWarps, 1, 64, 0, out);
    return 2;
}
#endif
