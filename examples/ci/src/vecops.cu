// vecops.cu: the library's kernels: a tiled transpose through shared memory (padded: no bank
// conflict) and a block reduction (a barrier between the stores and the tree). Two planted
// regressions for the example's own check of its CI (tests/CMakeLists.txt, VECOPS_PLANTED):
// VECOPS_PLANT_CONFLICT drops the tile's padding, VECOPS_PLANT_RACE the reduction's first barrier.
#include "vecops.h"

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define TILE 32
#ifdef VECOPS_PLANT_CONFLICT
#define PAD 0
#else
#define PAD 1
#endif

static void check(cudaError_t e, const char *what)
{
    if (e != cudaSuccess) {
        fprintf(stderr, "vecops: %s: %s\n", what, cudaGetErrorString(e));
        exit(2);
    }
}

__global__ void transpose_tile(const float *in, float *out, int n)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8)
        out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // VECOPS-CONFLICT-SITE
}

__global__ void block_sum(const float *in, float *partial)
{
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t]; // VECOPS-RACE-STORE
#ifndef VECOPS_PLANT_RACE
    __syncthreads();
#endif
    for (unsigned stride = 128; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride]; // VECOPS-RACE-LOAD
        __syncthreads();
    }
    if (t == 0)
        partial[blockIdx.x] = s[0];
}

void vecops_transpose(const float *in, float *out, int n)
{
    transpose_tile<<<dim3(n / TILE, n / TILE), dim3(TILE, 8)>>>(in, out, n);
    check(cudaGetLastError(), "transpose_tile");
}

float vecops_sum(const float *in, int n)
{
    int blocks = n / 256;
    float *partial = nullptr;
    check(cudaMalloc(&partial, blocks * sizeof(float)), "cudaMalloc");
    block_sum<<<blocks, 256>>>(in, partial);
    check(cudaGetLastError(), "block_sum");
    float *host = (float *)malloc(blocks * sizeof(float));
    check(cudaMemcpy(host, partial, blocks * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    float sum = 0;
    for (int i = 0; i < blocks; i++)
        sum += host[i];
    free(host);
    check(cudaFree(partial), "cudaFree");
    return sum;
}
