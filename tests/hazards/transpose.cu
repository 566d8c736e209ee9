// transpose.cu: the textbook tiled transpose with __syncthreads() inside its bounds check. When the
// grid covers the matrix exactly every thread passes the check and reaches the barrier (no hazard);
// when it does not, the threads of the edge blocks outside the matrix exit while the others wait
// at the barrier: a barrier that not every thread of the block reaches (undefined behaviour).
// Expected: width=height=64 on a 2x2 grid none; width=height=40 on a 2x2 grid barrier.
// smemlab analyze transpose.cu --kernel transposeBoundsSync --block 32,32 --grid 2,2 \
//     --param width=40 --param height=40
#define TILE 32

__global__ void transposeBoundsSync(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height) {
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
        __syncthreads(); // @tr-sync
        int tx = blockIdx.y * TILE + threadIdx.x;
        int ty = blockIdx.x * TILE + threadIdx.y;
        if (tx < height && ty < width)
            out[ty * height + tx] = tile[threadIdx.x][threadIdx.y];
    }
}

// The fix: every thread reaches the barrier; only the loads and stores are guarded.
__global__ void transposeSyncOutside(float *out, const float *in, int width, int height)
{
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    if (x < width && y < height)
        tile[threadIdx.y][threadIdx.x] = in[y * width + x];
    __syncthreads();
    int tx = blockIdx.y * TILE + threadIdx.x;
    int ty = blockIdx.x * TILE + threadIdx.y;
    if (tx < height && ty < width)
        out[ty * height + tx] = tile[threadIdx.x][threadIdx.y];
}

#ifdef HAZARD_MAIN
#include "harness.cuh"
int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    float *in = (float *)hz_buffer(64 * 64), *out = (float *)hz_buffer(64 * 64);
    dim3 b(TILE, TILE), g(2, 2);
    HZ_RUN("transposeBoundsSync64", transposeBoundsSync, g, b, 0, out, in, 64, 64);
    HZ_RUN("transposeBoundsSync40", transposeBoundsSync, g, b, 0, out, in, 40, 40);
    HZ_RUN("transposeSyncOutside40", transposeSyncOutside, g, b, 0, out, in, 40, 40);
    return 2;
}
#endif
