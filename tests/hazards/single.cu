// single.cu: listing 6.6 of seed 002. Between two barriers only one thread increments the shared i,
// so the result is always 2. syncIncrement is the listing as printed: every thread first stores
// i = 0 (the same value) in one barrier interval. singleThreadIncrement lets thread 0 alone clear it.
// Expected: none for both. In syncIncrement every thread stores the same 0: racecheck does not count a
// store that leaves the value as it was as a second write (H100: no hazard), nor does smemlab.
// smemlab analyze single.cu --kernel singleThreadIncrement --block 128

__global__ void syncIncrement(int *result)
{
    __shared__ int i;
    i = 0; // @single-clear-all
    __syncthreads();
    if (threadIdx.x == 0)
        i++;
    __syncthreads();
    if (threadIdx.x == 1)
        i++;
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = i;
}

__global__ void singleThreadIncrement(int *result)
{
    __shared__ int i;
    if (threadIdx.x == 0)
        i = 0;
    __syncthreads();
    if (threadIdx.x == 0)
        i++;
    __syncthreads();
    if (threadIdx.x == 1)
        i++;
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = i;
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *r = hz_buffer(4);
    HZ_RUN("syncIncrement", syncIncrement, 4, 128, 0, r);
    HZ_RUN("singleThreadIncrement", singleThreadIncrement, 4, 128, 0, r);
    return 2;
}
#endif
