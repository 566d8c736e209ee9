// alloc.cu: static and dynamic allocation sizes (seed 002, listings 6.1 and 6.2; EXPERIMENTS row 14).

// Listing 6.1: `int i` and `float f_array[10]` are 4 + 40 = 44 bytes of static shared memory per
// block; every block of the grid gets its own copy (25 blocks = 25 copies). Thread 0 sets i to the
// block index, threads 0-9 fill f_array from in, and write back f_array reversed plus i.
// Launch: grid 25, block 32.
extern "C" __global__ void MyKernel(const float *in, float *out)
{
    __shared__ int i;
    __shared__ float f_array[10];
    unsigned int t = threadIdx.x;
    if (t == 0)
        i = blockIdx.x;
    if (t < 10)
        f_array[t] = in[blockIdx.x * 10 + t];
    __syncthreads();
    if (t < 10)
        out[blockIdx.x * 10 + t] = f_array[9 - t] + (float)i;
}

// Listing 6.2: `extern __shared__ char sharedbuffer[]` sized by the launch's third argument
// (SomeKernel<<<10, 23, 32>>>: 32 bytes per block, 23 threads). Each thread stores one char and
// reads its mirror (a partial warp of byte accesses: one word holds four lanes' data).
extern "C" __global__ void SomeKernel(const char *in, char *out)
{
    extern __shared__ char sharedbuffer[];
    unsigned int t = threadIdx.x;
    unsigned int n = blockDim.x;
    sharedbuffer[t] = in[blockIdx.x * n + t];
    __syncthreads();
    out[blockIdx.x * n + t] = sharedbuffer[n - 1 - t];
}
