// wmma_tile.cu: a wmma GEMM tile read from unpadded 128-byte shared rows (8-way LDSM conflicts):
// advise must not propose a swizzle (wmma cannot address swizzled rows), only what it can verify.
#include <mma.h>
using namespace nvcuda;

__global__ void wmma_tile(const half *A, const half *B, float *C)
{
    __shared__ __align__(128) half sa[64][64];
    __shared__ __align__(128) half sb[64][64];
    for (int i = threadIdx.x; i < 64 * 64; i += 128) {
        sa[i / 64][i % 64] = A[i];
        sb[i / 64][i % 64] = B[i];
    }
    __syncthreads();
    int w = threadIdx.x / 32;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k = 0; k < 64; k += 16) {
        wmma::load_matrix_sync(a, &sa[16 * w][k], 64);
        wmma::load_matrix_sync(b, &sb[16 * w][k], 64);
        wmma::mma_sync(c, a, b, c);
    }
    wmma::store_matrix_sync(C + 16 * w, c, 64, wmma::mem_row_major);
}
