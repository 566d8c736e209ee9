// hazards.cu: races, barriers and atomics (seeds 001 and 002; EXPERIMENTS rows 16-18). Some of
// these kernels are wrong on purpose: the analyzer must report them; the bench checks only what
// the hardware guarantees (a range of results, not one value).

// Listing 6.5 (seed 002): every thread writes its own index to the one shared int i (a write-write
// race on shared memory) and then copies i to result[0] (a write-write race on global memory,
// across every block). The result is some thread index in [0, blockDim.x), which one is unknown.
// Launch: grid 1024, block 1024 (as in the listing). `volatile`: without it nvcc forwards
// threadIdx.x straight to the global store and shared memory is never touched (nothing to race on).
extern "C" __global__ void Racey(int *result)
{
    volatile __shared__ int i;
    i = threadIdx.x;
    result[0] = i;
}

// Read-modify-write (seed 002, "i++ does three things"): after a clean start at 0, every thread
// increments the shared i without an atomic. Lanes of a warp load the same value and store the same
// value + 1, and warps interleave: the result lies in [1, blockDim.x], rarely blockDim.x.
// Launch: grid 32, block 100 (the seed's 100 threads), one result per block.
extern "C" __global__ void rmwIncrement(int *result)
{
    __shared__ int i;
    if (threadIdx.x == 0)
        i = 0;
    __syncthreads();
    i++;
    __syncthreads();
    if (threadIdx.x == 0)
        result[blockIdx.x] = i;
}

// Listing 6.6: every thread sets i = 0 (all write the same value), then thread 0 and, after a
// barrier, thread 1 increment it: with the barriers in between the result is always 2.
// Launch: grid 4, block 128, one result per block.
extern "C" __global__ void syncIncrement(int *result)
{
    __shared__ int i;
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

// A barrier in divergent code (seeds 001 and 002: "never"): only the even threads reach the
// __syncthreads(). Undefined behaviour (it may hang), so it is analysed, never run by the bench.
// Launch (for the analyzer): grid 1, block 64.
extern "C" __global__ void divergentBarrier(const int *in, int *out)
{
    __shared__ int s[64];
    unsigned int t = threadIdx.x;
    s[t] = in[t];
    if (t % 2 == 0)
        __syncthreads();
    out[t] = s[63 - t];
}

// Listing 6.7: 2048 threads (64 blocks of 32) each atomically add 1 to result[0]: always 2048.
extern "C" __global__ void AtomicAdd(int *result)
{
    atomicAdd(&result[0], 1);
}

// The same count through a shared-memory atomic (shared atomics exist since compute 2.0): each
// block counts its threads in a shared int, thread 0 adds the block's count to result[0].
// Launch: grid 2, block 1024: result 2048.
extern "C" __global__ void sharedAtomicAdd(int *result)
{
    __shared__ int count;
    if (threadIdx.x == 0)
        count = 0;
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    if (threadIdx.x == 0)
        atomicAdd(&result[0], count);
}
