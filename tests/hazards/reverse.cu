// reverse.cu: array reverse through shared memory (seed 001). Thread t writes s[t] and reads
// s[n-t-1], which another thread writes: the barrier between the two is what makes it correct.
// Expected: reverseNoSync race (write-read and read-write), reverseSync none.
// smemlab analyze reverse.cu --kernel reverseNoSync --block 64 --param n=64

__global__ void reverseNoSync(int *d, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x, tr = n - t - 1;
    s[t] = d[t];  // @rev-store
    d[t] = s[tr]; // @rev-load
}

__global__ void reverseSync(int *d, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x, tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *d = hz_buffer(64);
    HZ_RUN("reverseNoSync", reverseNoSync, 1, 64, 0, d, 64);
    HZ_RUN("reverseSync", reverseSync, 1, 64, 0, d, 64);
    return 2;
}
#endif
