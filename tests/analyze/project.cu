#include <cstdio>
#include <vector>
#include "tile.h"
template <typename T, unsigned BS>
__global__ void reduce4(const T *in, T *out)
{
    __shared__ T s[BS];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * BS + t];
    __syncthreads();
    for (unsigned i = BS / 2; i > 0; i >>= 1) {
        if (t < i) s[t] += s[t + i];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}
namespace lab {
__global__ void transpose(float *o, const float *in, int n)
{
    __shared__ float tile[TILE][TILE + PAD];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) if (x < n && y + j < n) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += 8) if (x < n && y + j < n) o[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
}
int main() {
  std::vector<int> h(1024);
  int *d; cudaMalloc(&d, 4096);
  reduce4<int, 256u><<<4, 256>>>(d, d);
  reduce4<float, 128u><<<4, 128>>>((float*)d, (float*)d);
  lab::transpose<<<dim3(2,2), dim3(32,8)>>>((float*)d, (float*)d, 64);
  printf("%d\n", h[0]);
}
