// Warp- and block-synchronisation cases for compute-sanitizer --tool synccheck (one a mode; the
// H200's verdicts and outputs in tests/run/h200-warpsync.txt): which ones it reports, and what the
// program then sees.
#include <cstdio>
#include <cstring>
#include <cstdlib>

__global__ void k(int mode, int *out)
{
    int lane = threadIdx.x & 31;
    int v = threadIdx.x + 1;
    switch (mode) {
    case 0: // syncwarp by half the warp, full mask
        if (lane < 16)
            __syncwarp();
        break;
    case 1: // syncwarp by half the warp, its own mask: clean
        if (lane < 16)
            __syncwarp(0x0000ffffu);
        break;
    case 2: // shfl, full mask, half the warp
        if (lane < 16)
            v = __shfl_sync(0xffffffffu, v, 0);
        break;
    case 3: // shfl, own mask: clean
        if (lane < 16)
            v = __shfl_sync(0x0000ffffu, v, 0);
        break;
    case 4: // ballot, full mask, half the warp
        if (lane < 16)
            v = __ballot_sync(0xffffffffu, v & 1);
        break;
    case 5: // a mask naming a lane that is not there at all (the block has 16 threads)
        v = __shfl_sync(0xffffffffu, v, 0);
        break;
    case 6: // named barrier: 64 threads expected, 96 arrive (three warps)
        if (threadIdx.x < 96)
            asm volatile("bar.sync 1, 64;");
        break;
    case 7: // named barrier right: 64 threads, two warps
        if (threadIdx.x < 64)
            asm volatile("bar.sync 1, 64;");
        break;
    case 8: // syncwarp in both branches of a divergent if (full mask): clean on Volta+
        if (lane < 16) {
            v += 1;
            __syncwarp();
        } else {
            v += 2;
            __syncwarp();
        }
        break;
    case 9: // __syncthreads in a branch half of a warp takes
        if (lane < 16)
            __syncthreads();
        break;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    int threads = mode == 5 ? 16 : 128;
    int *d, h[128];
    cudaMalloc(&d, sizeof h);
    cudaMemset(d, 0, sizeof h);
    k<<<1, threads>>>(mode, d);
    cudaError_t e = cudaDeviceSynchronize();
    printf("mode %d: %s\n", mode, cudaGetErrorName(e));
    if (!e) {
        cudaMemcpy(h, d, threads * sizeof(int), cudaMemcpyDeviceToHost);
        printf("out");
        for (int i = 0; i < threads && i < 34; i++)
            printf(" %d", h[i]);
        printf("\n");
    }
    cudaFree(d);
    return 0;
}
