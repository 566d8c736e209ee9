// run_showcase.cu: the program behind docs/images/run-html.png (docs/run.md): a tiled transpose
// timed over 100 launches with an unpadded tile, then once padded; and a swap through libcu++.
#include <cuda/std/utility>
#include <cstdio>

template <int TILE, int PAD>
__global__ void transposeTiled(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    out[y * n + x] = tile[threadIdx.x][threadIdx.y]; // column reads: 32-way without the pad
}

__device__ __forceinline__ void exchange(float *s, int i, int j) { cuda::std::swap(s[i], s[j]); }

__global__ void pairSwap(float *data)
{
    __shared__ float s[64];
    s[threadIdx.x] = data[threadIdx.x];
    __syncthreads();
    if (threadIdx.x < 32)
        exchange(s, threadIdx.x, threadIdx.x * 2 % 64);
    __syncthreads();
    data[threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 64, reps = argc > 2 ? atoi(argv[2]) : 100;
    float *in, *out;
    cudaMalloc(&in, n * n * sizeof(float));
    cudaMalloc(&out, n * n * sizeof(float));
    cudaMemset(in, 0, n * n * sizeof(float));
    dim3 grid(n / 32, n / 32), block(32, 32);
    for (int i = 0; i < reps; i++)
        transposeTiled<32, 0><<<grid, block>>>(in, out, n);
    transposeTiled<32, 1><<<grid, block>>>(in, out, n);
    pairSwap<<<1, 64>>>(out);
    printf("run_showcase: %s\n", cudaDeviceSynchronize() == cudaSuccess ? "done" : "failed");
    return 0;
}
