// wmma_noinline.cu: wmma fragments (8 registers each) in a __noinline__ device function, built -O3
// and -G (tests/test_run.c): smemlab inlines the function before the kernel runs, and each copy's
// fragment operands must name that copy's registers. Prints PASS when the 16x16x16 product is exact.
#include <cstdio>
#include <mma.h>
using namespace nvcuda;
__device__ __noinline__ void tile(const half *a, const half *b, float *c)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
__global__ void k(const half *ga, const half *gb, float *out)
{
    __shared__ half a[256], b[256];
    __shared__ float c[256];
    for (int i = threadIdx.x; i < 256; i += 32) { a[i] = ga[i]; b[i] = gb[i]; }
    __syncthreads();
    tile(a, b, c);
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += 32) out[i] = c[i];
}
int main()
{
    half ha[256], hb[256]; float hc[256], ref[256];
    for (int i = 0; i < 256; i++) { ha[i] = __float2half((i % 7) - 3); hb[i] = __float2half((i % 5) - 2); }
    for (int r = 0; r < 16; r++) for (int c = 0; c < 16; c++) { float s = 0; for (int k = 0; k < 16; k++) s += __half2float(ha[r*16+k]) * __half2float(hb[c*16+k]); ref[r*16+c] = s; }
    half *da, *db; float *dc;
    cudaMalloc(&da, 512); cudaMalloc(&db, 512); cudaMalloc(&dc, 1024);
    cudaMemcpy(da, ha, 512, cudaMemcpyHostToDevice); cudaMemcpy(db, hb, 512, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(da, db, dc);
    cudaMemcpy(hc, dc, 1024, cudaMemcpyDeviceToHost);
    int bad = 0; for (int i = 0; i < 256; i++) bad += hc[i] != ref[i];
    printf("%s (%d bad)\n", bad ? "FAIL" : "PASS", bad);
    return bad != 0;
}
