// tiles.cu: a loop that stages a tile in shared memory each iteration. The barrier after the
// store makes the reads safe; a second barrier after the reads keeps the next iteration's stores
// from overwriting what slower threads still read (write-after-read).
// Expected: tileLoop none, tileLoopOneSync race (read-write).
// smemlab analyze tiles.cu --kernel tileLoop --block 128 --param iters=4
#define N 128

__global__ void tileLoop(int *out, int iters)
{
    __shared__ int s[N];
    int acc = 0;
    for (int k = 0; k < iters; k++) {
        s[threadIdx.x] = threadIdx.x * k;
        __syncthreads();
        acc += s[(threadIdx.x + 37) % N];
        __syncthreads();
    }
    out[threadIdx.x] = acc;
}

__global__ void tileLoopOneSync(int *out, int iters)
{
    __shared__ int s[N];
    int acc = 0;
    for (int k = 0; k < iters; k++) {
        s[threadIdx.x] = threadIdx.x * k;  // @tl-store
        __syncthreads();
        acc += s[(threadIdx.x + 37) % N]; // @tl-load
    }
    out[threadIdx.x] = acc;
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int *out = hz_buffer(N);
    HZ_RUN("tileLoop", tileLoop, 2, N, 0, out, 4);
    HZ_RUN("tileLoopOneSync", tileLoopOneSync, 2, N, 0, out, 4);
    return 2;
}
#endif
