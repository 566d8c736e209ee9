// reverse.cu: array reverse through shared memory (seed 001; EXPERIMENTS row 8). One block of n = 64
// threads: thread t stores d[t] to s[t], syncs, and writes back s[n - t - 1]. Both accesses are a
// permutation of 32 consecutive words per warp: conflict-free, 1 wavefront a request.

// Static array: its size (64 ints) is fixed at compile time. Launch: grid 1, block n, no dynamic smem.
extern "C" __global__ void staticReverse(int *d, int n)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}

// Dynamic array: its size comes from the launch's third argument (n * sizeof(int) bytes).
extern "C" __global__ void dynamicReverse(int *d, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    int tr = n - t - 1;
    s[t] = d[t];
    __syncthreads();
    d[t] = s[tr];
}
