// wmma_gemm.cu: small GEMMs through shared memory with wmma, one launch per case (issue 15): every
// fragment type sm_90 has (f16 with f32 and f16 accumulators, bf16, tf32, s8, u8, f64), the
// three 16-bit shapes, row- and column-major tiles, unpadded (conflicts) and padded by 16 bytes.
// One block of 4 warps computes C (2M x 2N) = A (2M x 64..) B: the K loop copies a chunk of A and
// B into shared tiles, each warp loads its fragments from them, mma; then each warp stores its
// accumulator to a shared C tile, which is copied out. The inputs are small integers, so every
// type computes the product exactly: checked bit for bit against the CPU.
//   wmma_gemm [CASE...]   runs the named cases (all without arguments); exit 1 on a mismatch
#include <cuda_bf16.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

using namespace nvcuda;

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_));          \
            exit(1);                                                                            \
        }                                                                                       \
    } while (0)

typedef wmma::precision::tf32 tf32;

template <class T, class S, class Acc, int M, int N, int K, class LA, class LB, int CCOL, int SKEWB>
__global__ void gemm_k(const S *A, const S *B, Acc *C, int Kg)
{
    constexpr int TM = 2 * M, TN = 2 * N;
    constexpr bool acol = std::is_same<LA, wmma::col_major>::value;
    constexpr bool bcol = std::is_same<LB, wmma::col_major>::value;
    constexpr int lda = (acol ? TM : K) + SKEWB / (int)sizeof(S);
    constexpr int ldb = (bcol ? K : TN) + SKEWB / (int)sizeof(S);
    constexpr int ldc = (CCOL ? TM : TN) + SKEWB / (int)sizeof(Acc);
    __shared__ __align__(128) S sa[(acol ? K : TM) * lda];
    __shared__ __align__(128) S sb[(bcol ? TN : K) * ldb];
    __shared__ __align__(128) Acc sc[(CCOL ? TN : TM) * ldc];
    const int t = threadIdx.x, warp = t / 32, wy = warp / 2, wx = warp % 2;
    wmma::fragment<wmma::accumulator, M, N, K, Acc> c;
    wmma::fill_fragment(c, Acc(0));
    for (int k0 = 0; k0 < Kg; k0 += K) {
        for (int i = t; i < TM * K; i += 128) {
            int r = i / K, kk = i % K;
            sa[acol ? kk * lda + r : r * lda + kk] = A[r * Kg + k0 + kk];
        }
        for (int i = t; i < K * TN; i += 128) {
            int kk = i / TN, n = i % TN;
            sb[bcol ? n * ldb + kk : kk * ldb + n] = B[(k0 + kk) * TN + n];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, M, N, K, T, LA> a;
        wmma::fragment<wmma::matrix_b, M, N, K, T, LB> b;
        wmma::load_matrix_sync(a, sa + (acol ? wy * M : wy * M * lda), lda);
        wmma::load_matrix_sync(b, sb + (bcol ? wx * N * ldb : wx * N), ldb);
        wmma::mma_sync(c, a, b, c);
        __syncthreads();
    }
    wmma::store_matrix_sync(sc + (CCOL ? wx * N * ldc + wy * M : wy * M * ldc + wx * N), c, ldc,
                            CCOL ? wmma::mem_col_major : wmma::mem_row_major);
    __syncthreads();
    for (int i = t; i < TM * TN; i += 128) {
        int r = i / TN, n = i % TN;
        C[i] = sc[CCOL ? n * ldc + r : r * ldc + n];
    }
}

template <class S> static S mk(int v) { return (S)v; }
template <> half mk<half>(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 mk<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
static double dv(half h) { return __half2float(h); }
static double dv(float h) { return h; }
static double dv(double h) { return h; }
static double dv(int h) { return h; }

template <class T, class S, class Acc, int M, int N, int K, class LA, class LB, int CCOL, int SKEWB>
static int run_case(const char *name, int unsig)
{
    const int TM = 2 * M, TN = 2 * N, Kg = 4 * K;
    std::vector<S> a(TM * Kg), b(Kg * TN);
    std::vector<double> ad(TM * Kg), bd(Kg * TN);
    for (int i = 0; i < TM * Kg; i++) {
        int v = (i * 7 + 3) % 5 - (unsig ? 0 : 2);
        a[i] = mk<S>(v);
        ad[i] = v;
    }
    for (int i = 0; i < Kg * TN; i++) {
        int v = (i * 3 + 1) % 7 - (unsig ? 0 : 3);
        b[i] = mk<S>(v);
        bd[i] = v;
    }
    S *da, *db;
    Acc *dc;
    CK(cudaMalloc(&da, a.size() * sizeof(S)));
    CK(cudaMalloc(&db, b.size() * sizeof(S)));
    CK(cudaMalloc(&dc, TM * TN * sizeof(Acc)));
    CK(cudaMemcpy(da, a.data(), a.size() * sizeof(S), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(db, b.data(), b.size() * sizeof(S), cudaMemcpyHostToDevice));
    gemm_k<T, S, Acc, M, N, K, LA, LB, CCOL, SKEWB><<<1, 128>>>(da, db, dc, Kg);
    CK(cudaGetLastError());
    std::vector<Acc> c(TM * TN);
    CK(cudaMemcpy(c.data(), dc, c.size() * sizeof(Acc), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            double s = 0;
            for (int k = 0; k < Kg; k++)
                s += ad[i * Kg + k] * bd[k * TN + j];
            if (dv(c[i * TN + j]) != s && bad++ < 3)
                printf("  %s: C[%d][%d] = %g, expected %g\n", name, i, j, dv(c[i * TN + j]), s);
        }
    printf("%s %s\n", name, bad ? "FAIL" : "PASS");
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    return bad != 0;
}

typedef wmma::row_major R;
typedef wmma::col_major C;
struct test_case {
    const char *name;
    int (*run)(const char *, int);
    int unsig;
};
#define CASE(name, ...) {name, run_case<__VA_ARGS__>, 0}
#define UCASE(name, ...) {name, run_case<__VA_ARGS__>, 1}
static const test_case cases[] = {
    CASE("f16.m16n16k16.rc.f32row.skew0", half, half, float, 16, 16, 16, R, C, 0, 0),
    CASE("f16.m16n16k16.rc.f32row.skew16", half, half, float, 16, 16, 16, R, C, 0, 16),
    CASE("f16.m16n16k16.cr.f32col.skew0", half, half, float, 16, 16, 16, C, R, 1, 0),
    CASE("f16.m16n16k16.cr.f32col.skew16", half, half, float, 16, 16, 16, C, R, 1, 16),
    CASE("f16.m16n16k16.rc.f16row.skew16", half, half, half, 16, 16, 16, R, C, 0, 16),
    CASE("f16.m16n16k16.rc.f16col.skew0", half, half, half, 16, 16, 16, R, C, 1, 0),
    CASE("f16.m32n8k16.rc.f32row.skew0", half, half, float, 32, 8, 16, R, C, 0, 0),
    CASE("f16.m8n32k16.rc.f32col.skew16", half, half, float, 8, 32, 16, R, C, 1, 16),
    CASE("bf16.m16n16k16.rc.f32row.skew0", __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, R, C, 0, 0),
    CASE("bf16.m16n16k16.cr.f32row.skew16", __nv_bfloat16, __nv_bfloat16, float, 16, 16, 16, C, R, 0, 16),
    CASE("tf32.m16n16k8.rc.f32row.skew0", tf32, float, float, 16, 16, 8, R, C, 0, 0),
    CASE("tf32.m16n16k8.cr.f32col.skew16", tf32, float, float, 16, 16, 8, C, R, 1, 16),
    CASE("s8.m16n16k16.rc.s32row.skew0", signed char, signed char, int, 16, 16, 16, R, C, 0, 0),
    UCASE("u8.m32n8k16.cc.s32row.skew16", unsigned char, unsigned char, int, 32, 8, 16, C, C, 0, 16),
    CASE("f64.m8n8k4.rc.f64row.skew0", double, double, double, 8, 8, 4, R, C, 0, 0),
    CASE("f64.m8n8k4.cr.f64col.skew16", double, double, double, 8, 8, 4, C, R, 1, 16),
};

int main(int argc, char **argv)
{
    int bad = 0, ran = 0;
    for (const test_case &c : cases) {
        int want = argc < 2;
        for (int i = 1; i < argc; i++)
            want |= !strcmp(argv[i], c.name);
        if (!want)
            continue;
        bad += c.run(c.name, c.unsig);
        ran++;
    }
    printf("%d cases, %d failed\n", ran, bad);
    return bad ? 1 : 0;
}
