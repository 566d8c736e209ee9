// report_table.cu: what `smemlab run`'s table shows a reader (issue 35): a template kernel whose
// name is longer than any column, launched 1,000 times alike in a timing loop (one row, the
// repeats proven), and a shared-memory swap written in libcu++'s header, inlined through a helper
// of this file into the kernel (the chain: this file's frame first, the toolkit's folded).
#include <cuda/std/utility>
#include <cstdio>

template <int BM, int BN, int BK>
__device__ __forceinline__ void exchange(float *tile, int i, int j)
{
    cuda::std::swap(tile[i], tile[j]); // the shared loads and stores are libcu++'s lines
}

template <int BM, int BN, int BK>
__global__ void sgemmLikeTimingLoopKernelWithALongName(float *out)
{
    __shared__ float tile[BM * BK];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    if (threadIdx.x < 16)
        exchange<BM, BN, BK>(tile, threadIdx.x * 2, threadIdx.x * 2 + 32);
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

int main()
{
    float *d;
    cudaMalloc(&d, 64 * sizeof(float));
    for (int i = 0; i < 1000; i++)
        sgemmLikeTimingLoopKernelWithALongName<8, 128, 8><<<1, 64>>>(d);
    if (cudaDeviceSynchronize() != cudaSuccess)
        return 1;
    float h[64];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("report_table: %g %g\n", h[0], h[32]); // 32 0: swapped
    return h[0] == 32 && h[32] == 0 ? 0 : 1;
}
