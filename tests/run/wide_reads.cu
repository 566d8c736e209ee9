// wide_reads.cu: a block's warp aggregates read at fixed places as CUB's BlockScan
// (BLOCK_SCAN_WARP_SCANS, ApplyWarpAggregates) leaves them in its PTX: whole vectors some of whose
// components nothing uses, and scalar loads of words those vectors also read. ptxas makes three
// LDS.128 of these seven loads (its sm_90 SASS, read with src/sass: [UR4+0x0], [UR4+0x10],
// [UR4+0x20], one each, every warp); smemlab follows the program's own SASS there
// (emu/cta_sass.c), so a warp makes 3 requests of 2 wavefronts each, as the H100 counts them
// (tests/run/h100-fixed-reads.csv). The loads are written in PTX (NVVM would clean them up) in
// the order CUB's PTX has them.
#include <cstdio>

__shared__ int agg[32];

#define LD1(v, off) \
    asm volatile("ld.shared.u32 %0, [agg+" #off "];" : "=r"(v) : "l"(agg) : "memory")
#define LD4(a, b, c, d, off)                                                   \
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [agg+" #off "];"        \
                 : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(agg) : "memory")

__global__ void warp_aggregates(int *out, const int *in)
{
    int t = threadIdx.x, warp = t / 32, lane = t % 32;
    int v = in[blockIdx.x * blockDim.x + t], inc = v;
    for (int o = 1; o < 32; o *= 2) {
        int y = __shfl_up_sync(~0u, inc, o);
        if (lane >= o)
            inc += y;
    }
    if (lane == 31)
        agg[warp] = inc;
    __syncthreads();
    int a0, a1, a2, a3, b0, b1, b2, b3, c0, c1, c2, c3, x8, x16, x32, x40;
    LD4(a0, a1, a2, a3, 0);
    LD1(x8, 8);
    LD1(x16, 16);
    LD4(b0, b1, b2, b3, 16); // b0 unused: the scalar at 16 is read on its own
    LD1(x32, 32);
    LD4(c0, c1, c2, c3, 32); // c0, c2 unused
    LD1(x40, 40);
    (void)a2; (void)b0; (void)c0; (void)c2;
    int w[12] = {a0, a1, x8, a3, x16, b1, b2, b3, x32, c1, x40, c3};
    int block = 0, prefix = 0;
#pragma unroll
    for (int i = 0; i < 12; i++) {
        if (warp == i)
            prefix = block;
        block += w[i];
    }
    out[blockIdx.x * blockDim.x + t] = prefix + inc - v;
}

int main()
{
    const int blocks = 8, threads = 1024, n = blocks * threads;
    int *in, *out, h[n];
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    for (int i = 0; i < n; i++)
        h[i] = i % 7 + 1;
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    warp_aggregates<<<blocks, threads>>>(out, in);
    cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < blocks && !bad; b++) { // the exclusive scan of the first 12 warps' items
        int run = 0;
        for (int t = 0; t < 12 * 32; t++) {
            bad |= h[b * threads + t] != run;
            run += (b * threads + t) % 7 + 1;
        }
    }
    printf("wide_reads %s\n", bad ? "FAIL" : "PASS");
    return bad;
}
