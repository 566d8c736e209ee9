// rmw.cu: read-modify-write (seed 002, "i++ does three things"). After a clean start at 0, every
// thread increments the shared i without an atomic: each load races with other threads' stores.
// Expected: race. smemlab analyze rmw.cu --kernel rmwIncrement --block 100

__global__ void rmwIncrement(int *result)
{
    __shared__ int i;
    if (threadIdx.x == 0)
        i = 0;
    __syncthreads();
    i++; // @rmw-inc
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
    int *r = hz_buffer(64);
    HZ_RUN("rmwIncrement", rmwIncrement, 4, 100, 0, r);
    return 2;
}
#endif
