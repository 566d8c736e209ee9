// gemm.cu: CuTe-style half-precision GEMM kernels, written for smemlab (our own code): C = A * B^T
// with A (M x K) and B (N x K) row-major halves, C (M x N) row-major floats, fp32 accumulation.
// Block tile 64 x 64 x 32, four warps of 32 x 32; global -> shared with 16-byte cp.async, shared ->
// registers with ldmatrix.x4, mma.sync.m16n8k16.
//   gemm_plain:    shared tiles [64][32] halves (64-byte rows) as they are: every ldmatrix phase reads
//                  8 rows 64 bytes apart, on two bank groups: 4-way conflicts (4 wavefronts a matrix).
//   gemm_swizzled: the same with the 16-byte chunk index xor-ed with (row >> 1) & 3 (CuTe
//                  Swizzle<2,4,3> on byte offsets): conflict-free ldmatrix.
//   Both double-buffer with cp.async.commit_group / cp.async.wait_group 1.
//   gemm_mbarrier: swizzled, one stage, cp.async completion through cp.async.mbarrier.arrive.noinc
//                  and mbarrier.try_wait.parity (phases 0, 1, 0, ...), fence-free (no async proxy).
// The program checks each kernel's product against a double-precision reference of the same
// half inputs (relative Frobenius error < 1e-5; fp32 accumulation of K products) and prints
// PASS/FAIL; exit status 1 on a failure. Usage: gemm [M N K] (multiples of 64, 64, 32).
// Build: nvcc -arch=sm_90 -O3 -lineinfo [-cudart shared] -o gemm gemm.cu
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    fprintf(stderr, "CUDA %s at %s:%d: %s\n", #x, __FILE__, __LINE__, cudaGetErrorString(e_)); exit(2); } } while (0)

#define BM 64
#define BN 64
#define BK 32
#define ROWB (BK * 2) /* bytes per shared row: 64 */

template <int SWZ>
__device__ __forceinline__ unsigned tile_off(unsigned row, unsigned chunk)
{
    return row * ROWB + ((SWZ ? chunk ^ ((row >> 1) & 3) : chunk) << 4);
}

__device__ __forceinline__ unsigned saddr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

// 64 rows x 4 chunks of 16 bytes per operand tile: 256 chunks, two per thread.
template <int SWZ>
__device__ __forceinline__ void load_tile(unsigned s_base, const half *g, int ld, int tid)
{
    for (int i = 0; i < 2; i++) {
        int c = tid + i * 128, row = c >> 2, chunk = c & 3;
        const half *src = g + (size_t)row * ld + chunk * 8;
        unsigned dst = s_base + tile_off<SWZ>(row, chunk);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(src) : "memory");
    }
}

// One 32-wide k tile of a warp's 32 x 32 output: 2 m16 tiles x 4 n8 tiles, 2 k16 steps.
template <int SWZ>
__device__ __forceinline__ void mma_tile(unsigned sA, unsigned sB, int wm, int wn, int lane, float acc[2][4][4])
{
    for (int ks = 0; ks < 2; ks++) {
        unsigned a[2][4], b[4][2];
        for (int mi = 0; mi < 2; mi++) {
            unsigned row = wm * 32 + mi * 16 + (lane & 15), chunk = ks * 2 + (lane >> 4);
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(a[mi][0]), "=r"(a[mi][1]), "=r"(a[mi][2]), "=r"(a[mi][3])
                         : "r"(sA + tile_off<SWZ>(row, chunk)));
        }
        for (int nj = 0; nj < 2; nj++) {
            unsigned row = wn * 32 + nj * 16 + (lane & 7) + ((lane >> 4) << 3), chunk = ks * 2 + ((lane >> 3) & 1);
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(b[2 * nj][0]), "=r"(b[2 * nj][1]), "=r"(b[2 * nj + 1][0]), "=r"(b[2 * nj + 1][1])
                         : "r"(sB + tile_off<SWZ>(row, chunk)));
        }
        for (int mi = 0; mi < 2; mi++)
            for (int ni = 0; ni < 4; ni++)
                asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
                             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                             : "+f"(acc[mi][ni][0]), "+f"(acc[mi][ni][1]), "+f"(acc[mi][ni][2]), "+f"(acc[mi][ni][3])
                             : "r"(a[mi][0]), "r"(a[mi][1]), "r"(a[mi][2]), "r"(a[mi][3]),
                               "r"(b[ni][0]), "r"(b[ni][1]));
    }
}

__device__ __forceinline__ void store_c(float *C, int N, int m0, int n0, int wm, int wn, int lane, float acc[2][4][4])
{
    for (int mi = 0; mi < 2; mi++)
        for (int ni = 0; ni < 4; ni++) {
            int r = m0 + wm * 32 + mi * 16 + (lane >> 2), c = n0 + wn * 32 + ni * 8 + 2 * (lane & 3);
            C[(size_t)r * N + c] = acc[mi][ni][0];
            C[(size_t)r * N + c + 1] = acc[mi][ni][1];
            C[(size_t)(r + 8) * N + c] = acc[mi][ni][2];
            C[(size_t)(r + 8) * N + c + 1] = acc[mi][ni][3];
        }
}

template <int SWZ>
__device__ __forceinline__ void gemm_body(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(1024) half sA[2][BM * BK];
    __shared__ __align__(1024) half sB[2][BN * BK];
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 1, wn = warp & 1;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    float acc[2][4][4] = {};
    int kt = K / BK;
    load_tile<SWZ>(saddr(sA[0]), A + (size_t)m0 * K, K, tid);
    load_tile<SWZ>(saddr(sB[0]), B + (size_t)n0 * K, K, tid);
    asm volatile("cp.async.commit_group;" ::: "memory");
    for (int t = 0; t < kt; t++) {
        int cur = t & 1;
        if (t + 1 < kt) {
            load_tile<SWZ>(saddr(sA[cur ^ 1]), A + (size_t)m0 * K + (t + 1) * BK, K, tid);
            load_tile<SWZ>(saddr(sB[cur ^ 1]), B + (size_t)n0 * K + (t + 1) * BK, K, tid);
        }
        asm volatile("cp.async.commit_group;" ::: "memory");
        asm volatile("cp.async.wait_group 1;" ::: "memory");
        __syncthreads();
        mma_tile<SWZ>(saddr(sA[cur]), saddr(sB[cur]), wm, wn, lane, acc);
        __syncthreads();
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    store_c(C, N, m0, n0, wm, wn, lane, acc);
}

__global__ void __launch_bounds__(128) gemm_plain(const half *A, const half *B, float *C, int M, int N, int K)
{
    gemm_body<0>(A, B, C, M, N, K);
}

__global__ void __launch_bounds__(128) gemm_swizzled(const half *A, const half *B, float *C, int M, int N, int K)
{
    gemm_body<1>(A, B, C, M, N, K);
}

__global__ void __launch_bounds__(128) gemm_mbarrier(const half *A, const half *B, float *C, int M, int N, int K)
{
    __shared__ __align__(1024) half sA[BM * BK];
    __shared__ __align__(1024) half sB[BN * BK];
    __shared__ __align__(8) unsigned long long bar;
    int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5, wm = warp >> 1, wn = warp & 1;
    int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
    unsigned b = saddr(&bar);
    if (tid == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(b), "r"(128) : "memory");
    __syncthreads();
    float acc[2][4][4] = {};
    unsigned phase = 0;
    for (int t = 0; t < K / BK; t++) {
        load_tile<1>(saddr(sA), A + (size_t)m0 * K + t * BK, K, tid);
        load_tile<1>(saddr(sB), B + (size_t)n0 * K + t * BK, K, tid);
        asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" :: "r"(b) : "memory");
        unsigned done = 0;
        while (!done)
            asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
                         : "=r"(done) : "r"(b), "r"(phase) : "memory");
        phase ^= 1;
        mma_tile<1>(saddr(sA), saddr(sB), wm, wn, lane, acc);
        __syncthreads();
    }
    store_c(C, N, m0, n0, wm, wn, lane, acc);
}

static unsigned hashu(unsigned x)
{
    x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16;
    return x;
}

int main(int argc, char **argv)
{
    int M = argc > 3 ? atoi(argv[1]) : 128, N = argc > 3 ? atoi(argv[2]) : 128, K = argc > 3 ? atoi(argv[3]) : 64;
    if (M <= 0 || N <= 0 || K <= 0 || M % BM || N % BN || K % BK) {
        fprintf(stderr, "gemm: M, N, K must be positive multiples of %d, %d, %d\n", BM, BN, BK);
        return 2;
    }
    std::vector<half> hA((size_t)M * K), hB((size_t)N * K);
    std::vector<float> fA(hA.size()), fB(hB.size()), hC((size_t)M * N);
    unsigned seed = (unsigned)(argc > 4 ? atoi(argv[4]) : 1);
    for (size_t i = 0; i < hA.size(); i++) {
        hA[i] = __float2half((float)((int)(hashu((unsigned)i * 2654435761u + seed) % 2001) - 1000) / 1000.f);
        fA[i] = __half2float(hA[i]);
    }
    for (size_t i = 0; i < hB.size(); i++) {
        hB[i] = __float2half((float)((int)(hashu((unsigned)i * 40503u + 977u + seed) % 2001) - 1000) / 1000.f);
        fB[i] = __half2float(hB[i]);
    }
    std::vector<double> ref((size_t)M * N);
    double ref2 = 0;
    for (int i = 0; i < M; i++)
        for (int j = 0; j < N; j++) {
            double s = 0;
            for (int k = 0; k < K; k++) s += (double)fA[(size_t)i * K + k] * fB[(size_t)j * K + k];
            ref[(size_t)i * N + j] = s;
            ref2 += s * s;
        }
    half *dA, *dB;
    float *dC;
    CK(cudaMalloc(&dA, hA.size() * sizeof(half)));
    CK(cudaMalloc(&dB, hB.size() * sizeof(half)));
    CK(cudaMalloc(&dC, hC.size() * sizeof(float)));
    CK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(half), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(half), cudaMemcpyHostToDevice));
    const char *names[3] = {"gemm_plain", "gemm_swizzled", "gemm_mbarrier"};
    int fails = 0;
    for (int v = 0; v < 3; v++) {
        CK(cudaMemset(dC, 0xFF, hC.size() * sizeof(float))); // NaN: an unwritten element fails
        dim3 grid(N / BN, M / BM);
        if (v == 0) gemm_plain<<<grid, 128>>>(dA, dB, dC, M, N, K);
        if (v == 1) gemm_swizzled<<<grid, 128>>>(dA, dB, dC, M, N, K);
        if (v == 2) gemm_mbarrier<<<grid, 128>>>(dA, dB, dC, M, N, K);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(float), cudaMemcpyDeviceToHost));
        double err = 0;
        for (size_t i = 0; i < hC.size(); i++) err += (hC[i] - ref[i]) * (hC[i] - ref[i]);
        double rel = sqrt(err / ref2);
        int ok = rel < 1e-5; // NaN fails
        fails += !ok;
        printf("%s %dx%dx%d rel_err=%.3g %s\n", names[v], M, N, K, rel, ok ? "PASS" : "FAIL");
    }
    CK(cudaFree(dA));
    CK(cudaFree(dB));
    CK(cudaFree(dC));
    return fails ? 1 : 0;
}
