// mergelike.cu: the end of cuda-samples' mergeSort kernel, written again (tests/sass). After the last
// barrier, two neighbouring __shared__ words are read one before and one after a branch that
// neither writes shared memory nor waits: ptxas moves the second read above the branch and merges
// the pair into one LDS.64 that every warp executes (the PTX makes two requests a warp). Before
// it, a block guarded by `threadIdx.x < lenA` reads startA: ptxas if-converts the block and reads
// startA in every warp, where the PTX reads it only in warps that enter the block.
typedef unsigned int uint;

__global__ void merge_tail(uint *dst, const uint *src, const uint *lim)
{
    __shared__ uint s_key[256];
    __shared__ uint startA, startB, lenA, lenB, startDA, startDB;
    if (threadIdx.x == 0) {
        startA = lim[4 * blockIdx.x + 0];
        startB = lim[4 * blockIdx.x + 1];
        lenA = lim[4 * blockIdx.x + 2];
        lenB = lim[4 * blockIdx.x + 3];
        startDA = startA + startB;
        startDB = startDA + lenA;
    }
    __syncthreads();
    if (threadIdx.x < lenA)
        s_key[threadIdx.x] = src[startA + threadIdx.x];
    if (threadIdx.x < lenB)
        s_key[threadIdx.x + 128] = src[1024 + startB + threadIdx.x];
    __syncthreads();
    if (threadIdx.x < lenA)
        dst[startDA + threadIdx.x] = s_key[threadIdx.x];
    if (threadIdx.x < lenB)
        dst[startDB + threadIdx.x] = s_key[lenA + threadIdx.x];
}

// The same reads with a barrier between the two branches: nothing can move across it.
__global__ void merge_fenced(uint *dst, const uint *lim)
{
    __shared__ uint s_key[256];
    __shared__ uint lenA, lenB;
    if (threadIdx.x == 0) {
        lenA = lim[2 * blockIdx.x];
        lenB = lim[2 * blockIdx.x + 1];
    }
    s_key[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < lenA)
        dst[blockIdx.x * 256 + threadIdx.x] = s_key[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < lenB)
        dst[blockIdx.x * 256 + 128 + threadIdx.x] = s_key[lenA + threadIdx.x];
}
