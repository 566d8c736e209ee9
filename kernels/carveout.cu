// carveout.cu: the L1 / shared-memory split (seed 002's cudaFuncSetCacheConfig; EXPERIMENTS row 15)
// on today's API: the preferred shared-memory carveout (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_
// CARVEOUT, percent of the SM's maximum). A kernel that needs 32 KB of shared memory per block fits
// as many blocks on an SM as the carveout leaves room for, and as it is latency-bound (a chain of
// dependent shared loads) its time follows the number of resident blocks.
//
// Launch: grid 1584 (12 per SM on an H100, more than fit at once), block 256, dynamic shared
// memory 32768 bytes, reps 256.
// in: 8192 ints (any values); out: one int per thread; occ: 2 ints per SM (current, maximum
// resident blocks, zeroed before the launch), so the bench can report the occupancy it observed.

#define CHASE_ROWS 256 // 256 rows of 32 words = 32 KB

extern "C" __global__ void carveoutChase(const int *in, int *out, int *occ, int reps)
{
    extern __shared__ int buf[];
    unsigned int tid = threadIdx.x, lane = tid & 31;
    unsigned int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    if (tid == 0) {
        int now = atomicAdd(&occ[2 * smid], 1) + 1;
        atomicMax(&occ[2 * smid + 1], now);
    }
    for (unsigned int i = tid; i < CHASE_ROWS * 32; i += blockDim.x)
        buf[i] = in[i];
    __syncthreads();
    // Each lane follows its own column: the next row is the word it just read (mod 256). The lanes
    // of a warp read one row, 32 different banks: conflict-free, and every load waits on the last.
    unsigned int row = (blockIdx.x + tid / 32) % CHASE_ROWS;
    for (int r = 0; r < reps; ++r)
        row = (unsigned int)buf[row * 32 + lane] % CHASE_ROWS;
    out[blockIdx.x * blockDim.x + tid] = (int)row;
    __syncthreads();
    if (tid == 0)
        atomicSub(&occ[2 * smid], 1);
}
