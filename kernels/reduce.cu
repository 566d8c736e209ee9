// reduce.cu: block sums of 1024 ints in shared memory (seed 001; EXPERIMENTS row 13), as measured
// on the H100 (tests/hw section D: 1024 blocks of 1024 threads, one block per 1024 ints).
// Each block writes its sum to out[blockIdx.x]. Launch: grid n/1024, block 1024.

// Seed 001's interleaved addressing: index = 2*i*tid, cache[index] += cache[index + i]. At step i
// the active lanes are 2*i words apart: 2-way, 4-way, ... conflicts (stride 2i), and the active
// threads are packed into the first warps.
extern "C" __global__ void reduce_interleaved(const int *__restrict__ in, int *__restrict__ out)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    cache[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int i = 1; i < blockDim.x; i *= 2) {
        unsigned int index = 2 * i * tid;
        if (index < blockDim.x)
            cache[index] += cache[index + i];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = cache[0];
}

// The divergent form (Harris's reduction #1, extra): tid % (2*i) == 0 picks the active threads, so
// the addresses are the same words as above but every warp stays busy with few active lanes: few
// conflicts, many requests.
extern "C" __global__ void reduce_interleaved_divergent(const int *__restrict__ in,
                                                        int *__restrict__ out)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    cache[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int i = 1; i < blockDim.x; i *= 2) {
        if (tid % (2 * i) == 0)
            cache[tid] += cache[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = cache[0];
}

// Seed 001's sequential addressing: cache[tid] += cache[tid + i] for i = 512, 256, ..., 1.
// Consecutive lanes touch consecutive words: conflict-free at every step.
extern "C" __global__ void reduce_sequential(const int *__restrict__ in, int *__restrict__ out)
{
    __shared__ int cache[1024];
    unsigned int tid = threadIdx.x;
    cache[tid] = in[blockIdx.x * blockDim.x + tid];
    __syncthreads();
    for (unsigned int i = blockDim.x / 2; i > 0; i >>= 1) {
        if (tid < i)
            cache[tid] += cache[tid + i];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = cache[0];
}
