// Template kernels nobody instantiates in this file (as a template library's header has them):
// `smemlab analyze` lists them and instantiates the one --kernel names with its arguments.
#pragma once
template <int BM, int BN, int BK>
__global__ void sgemmTiled(const float *A, const float *B, float *C)
{
    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];
    int t = threadIdx.x;
    As[t % (BM * BK)] = A[t];
    Bs[t % (BK * BN)] = B[t]; // consecutive words: conflict-free
    __syncthreads();
    float acc = 0;
    for (int k = 0; k < BK; k++)
        acc += As[(t / BN) * BK + k] * Bs[k * BN + t % BN];
    C[t] = acc;
}

namespace lab {
template <typename T, int N = 4>
__global__ void scaleTile(T *x)
{
    __shared__ T s[N * 32];
    s[threadIdx.x] = x[threadIdx.x];
    __syncthreads();
    x[threadIdx.x] = s[(threadIdx.x * 2) % (N * 32)]; // stride 2 words: 2-way for 4-byte T
}
} // namespace lab
