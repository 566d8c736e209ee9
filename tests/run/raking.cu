// raking.cu: a raking scan as CUB's BlockScan (BLOCK_SCAN_RAKING) does it: the first warp's lanes
// each sum a 32-word segment of the block's shared grid (the upsweep), scan the sums across the
// warp with shuffles, then read the segment again and write its exclusive scan back (the
// downsweep). Both reads go through one inlined function, so they are one source line. ptxas may
// serve the downsweep's reads from the upsweep's registers, as it likes: where the downsweep reads
// the whole segment before writing it (CUB's order, raking_cub) it drops the re-reads; where it
// reads and writes word by word (raking_interleaved) it drops only some. smemlab counts what the
// program's own SASS shows, offset by offset (emu/cta_sass.c, emu_sass_rereads). The program checks
// its results; tests/test_run.c its counts.
#include <cstdio>

#define SEG 32
#define PAD (SEG + 1)

__device__ __forceinline__ int seg_read(const int *seg, int i) { return seg[i]; }

__device__ __forceinline__ int warp_inclusive(int x, int lane)
{
    for (int o = 1; o < 32; o *= 2) {
        int y = __shfl_up_sync(~0u, x, o);
        if (lane >= o)
            x += y;
    }
    return x;
}

__global__ void raking_cub(int *out, const int *in)
{
    __shared__ int grid[32 * PAD];
    int t = threadIdx.x;
    grid[t / SEG * PAD + t % SEG] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t < 32) {
        int *seg = grid + t * PAD;
        int v[SEG], sum = 0;
#pragma unroll
        for (int i = 0; i < SEG; i++)
            sum += seg_read(seg, i);
        int ex = warp_inclusive(sum, t) - sum;
#pragma unroll
        for (int i = 0; i < SEG; i++)
            v[i] = seg_read(seg, i);
#pragma unroll
        for (int i = 0; i < SEG; i++) {
            seg[i] = ex;
            ex += v[i];
        }
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = grid[t / SEG * PAD + t % SEG];
}

__global__ void raking_interleaved(int *out, const int *in)
{
    __shared__ int grid[32 * PAD];
    int t = threadIdx.x;
    grid[t / SEG * PAD + t % SEG] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if (t < 32) {
        int *seg = grid + t * PAD;
        int sum = 0;
#pragma unroll
        for (int i = 0; i < SEG; i++)
            sum += seg_read(seg, i);
        int ex = warp_inclusive(sum, t) - sum;
#pragma unroll
        for (int i = 0; i < SEG; i++) {
            int x = seg_read(seg, i);
            seg[i] = ex;
            ex += x;
        }
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = grid[t / SEG * PAD + t % SEG];
}

int main()
{
    const int blocks = 4, threads = 1024, n = blocks * threads;
    int *in, *out, h[n];
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = i % 5 + 1;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    int bad = 0;
    for (int k = 0; k < 2; k++) {
        if (k == 0)
            raking_cub<<<blocks, threads>>>(out, in);
        else
            raking_interleaved<<<blocks, threads>>>(out, in);
        cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
        for (int b = 0; b < blocks; b++) { // an exclusive scan of the block's items
            int run = 0;
            for (int t = 0; t < threads; t++) {
                bad |= h[b * threads + t] != run;
                run += (b * threads + t) % 5 + 1;
            }
        }
    }
    printf("raking %s\n", bad ? "FAIL" : "PASS");
    return bad;
}
