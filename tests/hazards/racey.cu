// racey.cu: listing 6.5 of seed 002 (CUDA Succinctly, ch. 6). Every thread writes its own index to
// the one shared int i: a write-write race on shared memory (the global one on result[0] is not
// ours to find). As printed, nvcc 13 forwards threadIdx.x to the global store and drops i: no
// shared access is left, and neither smemlab nor racecheck finds a shared race (Racey: none).
// With i volatile the race is there (RaceyVolatile, RaceyOneWarp: race).
// smemlab analyze racey.cu --kernel RaceyVolatile --block 1024

__global__ void Racey(int *result)
{
    __shared__ int i;

    // Race condition 1, shared memory
    i = threadIdx.x; // @racey-store

    // Race condition 2, global memory
    result[0] = i;
}

// The same with i volatile: nvcc must then load i back, so threads also read what others wrote.
__global__ void RaceyVolatile(int *result)
{
    volatile __shared__ int i;
    i = threadIdx.x; // @racey-vstore
    result[0] = i;   // @racey-vload
}

// One warp only: every lane stores a different value to i in one instruction. Lanes of a warp are
// not in lockstep (Volta and later), so this is a write-write race too.
__global__ void RaceyOneWarp(int *result)
{
    volatile __shared__ int i;
    i = threadIdx.x; // @racey-warp-store
    result[threadIdx.x] = i;
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *r = hz_buffer(1024);
    HZ_RUN("Racey", Racey, 8, 1024, 0, r);
    HZ_RUN("RaceyVolatile", RaceyVolatile, 8, 1024, 0, r);
    HZ_RUN("RaceyOneWarp", RaceyOneWarp, 1, 32, 0, r);
    return 2;
}
#endif
