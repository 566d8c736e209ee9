// cublas_ex.cu: the GEMMs tutorial programs check their kernels against beyond S/D/H: int8 (s8 in,
// s32 or f32 out), complex (Cgemm, Zgemm, Cgemm3m, CgemmEx, GemmEx in c32 / c64, strided and
// pointer-array batches, conjugate transposes), grouped batches, and the statuses cuBLAS returns for
// bad arguments (tests/test_run_libs.c; the statuses were measured on an H200 with this program:
// tests/hw/cublas/README.md). Every product is compared with a plain CPU reference here; each bad
// call prints "status LABEL N"; rewrite: a kernel rewrites a GEMM's operand between identical
// calls, with the same values (a repeat proven by bytes: not computed again) or others (computed);
// a kernel scales the output in place between identical calls (dense: put back; with gaps: computed).
// routines: level-2/3 routines beyond the GEMMs (symv, trmv, gbmv, hemv, herk, symm, trmm out of
// place, trsm complex, dgmm, tpttr, DotEx in f16), each against a plain reference.
// argv[1]: int8 | complex | grouped | status | rewrite | routines. Prints PASS or FAIL.
#include <cublas_v2.h>
#include <cuComplex.h>
#include <cuda_fp16.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

static int failures;
#define EXPECT(cond, ...)                                                                      \
    do {                                                                                       \
        if (!(cond)) {                                                                         \
            printf("line %d: ", __LINE__);                                                     \
            printf(__VA_ARGS__);                                                               \
            printf("\n");                                                                      \
            failures++;                                                                        \
        }                                                                                      \
    } while (0)
#define OK(x) EXPECT((x) == CUBLAS_STATUS_SUCCESS, "%s failed", #x)

template <typename T> static T *dev(const std::vector<T> &h)
{
    T *d = nullptr;
    cudaMalloc(&d, h.size() * sizeof(T) + 1);
    cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
    return d;
}
template <typename T> static std::vector<T> host(const T *d, size_t n)
{
    std::vector<T> h(n);
    cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
    return h;
}
static int small(unsigned *s, int range) // a deterministic small integer in [-range, range]
{
    *s = *s * 1103515245u + 12345u;
    return (int)((*s >> 16) % (unsigned)(2 * range + 1)) - range;
}

// element (r, c) of op(X), X stored column-major with leading dimension ld
template <typename T> static T at(const T *x, char op, int r, int c, int ld)
{
    return op == 'N' ? x[r + c * ld] : x[c + r * ld];
}
static cublasOperation_t opc(char c)
{
    return c == 'N' ? CUBLAS_OP_N : c == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C;
}

// ---- int8 ----
static void int8_case(cublasHandle_t h, char ta, char tb, int m, int n, int k, int32_t alpha,
                      int32_t beta, int big)
{
    unsigned s = 7u + m * 31u + k;
    int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m, br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    // padded leading dimensions, multiples of 4: the H200's cuBLAS refuses s8 -> s32 otherwise
    int lda = (ar + 6) / 4 * 4, ldb = (br + 4) / 4 * 4, ldc = (m + 5) / 4 * 4;
    std::vector<int8_t> A((size_t)lda * ac), B((size_t)ldb * bc);
    std::vector<int32_t> C((size_t)ldc * n);
    for (auto &x : A) x = (int8_t)(big ? (small(&s, 1) < 0 ? -128 : 127) : small(&s, 9));
    for (auto &x : B) x = (int8_t)(big ? (small(&s, 1) < 0 ? -128 : 127) : small(&s, 9));
    for (auto &x : C) x = small(&s, 1000);
    int8_t *dA = dev(A), *dB = dev(B);
    int32_t *dC = dev(C);
    OK(cublasGemmEx(h, opc(ta), opc(tb), m, n, k, &alpha, dA, CUDA_R_8I, lda, dB, CUDA_R_8I, ldb,
                    &beta, dC, CUDA_R_32I, ldc, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    std::vector<int32_t> got = host(dC, C.size());
    int bad = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            uint32_t acc = 0; // int32 accumulation wraps
            for (int p = 0; p < k; p++)
                acc += (uint32_t)((int32_t)at(A.data(), ta, i, p, lda) * (int32_t)at(B.data(), tb, p, j, ldb));
            uint32_t want = (uint32_t)alpha * acc + (beta ? (uint32_t)beta * (uint32_t)C[i + j * ldc] : 0u);
            bad += (int32_t)want != got[i + j * ldc];
        }
    for (int j = 0; j < n; j++) // the padding rows are not written
        for (int i = m; i < ldc; i++)
            bad += got[i + j * ldc] != C[i + j * ldc];
    EXPECT(!bad, "int8 -> int32 %c%c %dx%dx%d alpha %d beta %d: %d wrong", ta, tb, m, n, k, alpha, beta, bad);
    // s8 in, f32 out (COMPUTE_32F): exact here (products and sums of small integers)
    std::vector<float> Cf((size_t)ldc * n, 1.5f);
    float *dCf = dev(Cf), af = 0.5f, bf = 2.0f;
    OK(cublasGemmEx(h, opc(ta), opc(tb), m, n, k, &af, dA, CUDA_R_8I, lda, dB, CUDA_R_8I, ldb, &bf,
                    dCf, CUDA_R_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    std::vector<float> gf = host(dCf, Cf.size());
    bad = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double acc = 0, mag = 0; // fp32 sums: within 1e-4 of the sum of |products|
            for (int p = 0; p < k; p++) {
                double t = (double)at(A.data(), ta, i, p, lda) * at(B.data(), tb, p, j, ldb);
                acc += t, mag += fabs(t);
            }
            bad += fabs(0.5 * acc + 3.0 - gf[i + j * ldc]) > 1e-4 * mag + 1e-6;
        }
    EXPECT(!bad, "int8 -> f32 %c%c %dx%dx%d: %d wrong", ta, tb, m, n, k, bad);
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(dCf);
}

static void int8_strided(cublasHandle_t h)
{
    const int m = 8, n = 12, k = 16, batch = 3;
    unsigned s = 99;
    std::vector<int8_t> A((size_t)k * m * batch), B((size_t)k * n * batch);
    for (auto &x : A) x = (int8_t)small(&s, 100);
    for (auto &x : B) x = (int8_t)small(&s, 100);
    std::vector<int32_t> C((size_t)m * n * batch, 7);
    int8_t *dA = dev(A), *dB = dev(B);
    int32_t *dC = dev(C), al = 1, be = 0;
    // A stored k x m (op T), B k x n (op N): the layout int8 tensor-core GEMMs favour
    OK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, k, &al, dA, CUDA_R_8I, k,
                                  (long long)k * m, dB, CUDA_R_8I, k, (long long)k * n, &be, dC,
                                  CUDA_R_32I, m, (long long)m * n, batch, CUBLAS_COMPUTE_32I,
                                  CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    std::vector<int32_t> got = host(dC, C.size());
    int bad = 0;
    for (int b = 0; b < batch; b++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                int32_t acc = 0;
                for (int p = 0; p < k; p++)
                    acc += A[b * k * m + p + i * k] * B[b * k * n + p + j * k];
                bad += acc != got[b * m * n + i + j * m];
            }
    EXPECT(!bad, "int8 strided batch: %d wrong", bad);
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

// ---- complex ----
struct cd { double re, im; };
static cd cmul(cd a, cd b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static cd opel(const cd *x, char op, int r, int c, int ld)
{
    cd v = at(x, op, r, c, ld);
    if (op == 'C')
        v.im = -v.im;
    return v;
}
// C = alpha op(A) op(B) + beta C in double complex
static std::vector<cd> ref_c(char ta, char tb, int m, int n, int k, cd alpha, const std::vector<cd> &A,
                             int lda, const std::vector<cd> &B, int ldb, cd beta, std::vector<cd> C, int ldc)
{
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            cd s = {0, 0};
            for (int p = 0; p < k; p++) {
                cd t = cmul(opel(A.data(), ta, i, p, lda), opel(B.data(), tb, p, j, ldb));
                s.re += t.re, s.im += t.im;
            }
            cd r = cmul(alpha, s), q = cmul(beta, C[i + j * ldc]);
            C[i + j * ldc] = {r.re + q.re, r.im + q.im};
        }
    return C;
}
static std::vector<cd> rnd_c(size_t n, unsigned seed)
{
    std::vector<cd> v(n);
    for (auto &x : v)
        x = {small(&seed, 16) / 8.0, small(&seed, 16) / 8.0};
    return v;
}
static double err_c(const std::vector<cd> &w, const std::vector<cd> &g)
{
    double e = 0, sc = 1e-30;
    for (size_t i = 0; i < w.size(); i++)
        e = fmax(e, fmax(fabs(w[i].re - g[i].re), fabs(w[i].im - g[i].im))),
        sc = fmax(sc, fmax(fabs(w[i].re), fabs(w[i].im)));
    return e / sc;
}
template <typename T> static std::vector<T> narrow(const std::vector<cd> &v)
{
    std::vector<T> o(v.size());
    for (size_t i = 0; i < v.size(); i++)
        o[i].x = v[i].re, o[i].y = v[i].im;
    return o;
}
template <typename T> static std::vector<cd> widen(const std::vector<T> &v)
{
    std::vector<cd> o(v.size());
    for (size_t i = 0; i < v.size(); i++)
        o[i] = {(double)v[i].x, (double)v[i].y};
    return o;
}

static void complex_case(cublasHandle_t h, char ta, char tb, int m, int n, int k, int which)
{
    int ar = ta == 'N' ? m : k, ac = ta == 'N' ? k : m, br = tb == 'N' ? k : n, bc = tb == 'N' ? n : k;
    int lda = ar + 1, ldb = br + 2, ldc = m + 1;
    std::vector<cd> A = rnd_c((size_t)lda * ac, 3 + m), B = rnd_c((size_t)ldb * bc, 5 + n),
                    C = rnd_c((size_t)ldc * n, 11 + k);
    cd alpha = {0.5, -1.0}, beta = which == 2 ? cd{0, 0} : cd{1.0, 0.25};
    std::vector<cd> want = ref_c(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
    const char *names[] = {"Cgemm", "Cgemm3m", "Cgemm beta 0", "GemmEx c32", "CgemmEx", "Zgemm", "Zgemm3m", "GemmEx c64"};
    double err;
    if (which < 5) {
        std::vector<cuComplex> hA = narrow<cuComplex>(A), hB = narrow<cuComplex>(B), hC = narrow<cuComplex>(C);
        if (which == 2)
            for (auto &x : hC) x = make_cuComplex(NAN, NAN); // beta 0: C is not read
        cuComplex *dA = dev(hA), *dB = dev(hB), *dC = dev(hC);
        cuComplex al = make_cuComplex((float)alpha.re, (float)alpha.im), be = make_cuComplex((float)beta.re, (float)beta.im);
        if (which == 0 || which == 2)
            OK(cublasCgemm(h, opc(ta), opc(tb), m, n, k, &al, dA, lda, dB, ldb, &be, dC, ldc));
        else if (which == 1)
            OK(cublasCgemm3m(h, opc(ta), opc(tb), m, n, k, &al, dA, lda, dB, ldb, &be, dC, ldc));
        else if (which == 3)
            OK(cublasGemmEx(h, opc(ta), opc(tb), m, n, k, &al, dA, CUDA_C_32F, lda, dB, CUDA_C_32F, ldb,
                            &be, dC, CUDA_C_32F, ldc, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
        else
            OK(cublasCgemmEx(h, opc(ta), opc(tb), m, n, k, &al, dA, CUDA_C_32F, lda, dB, CUDA_C_32F, ldb,
                             &be, dC, CUDA_C_32F, ldc));
        err = err_c(want, widen(host(dC, hC.size())));
        EXPECT(err < 1e-5, "%s %c%c %dx%dx%d: relative error %g", names[which], ta, tb, m, n, k, err);
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
    } else {
        std::vector<cuDoubleComplex> hA = narrow<cuDoubleComplex>(A), hB = narrow<cuDoubleComplex>(B),
                                     hC = narrow<cuDoubleComplex>(C);
        cuDoubleComplex *dA = dev(hA), *dB = dev(hB), *dC = dev(hC);
        cuDoubleComplex al = make_cuDoubleComplex(alpha.re, alpha.im), be = make_cuDoubleComplex(beta.re, beta.im);
        if (which == 5)
            OK(cublasZgemm(h, opc(ta), opc(tb), m, n, k, &al, dA, lda, dB, ldb, &be, dC, ldc));
        else if (which == 6)
            OK(cublasZgemm3m(h, opc(ta), opc(tb), m, n, k, &al, dA, lda, dB, ldb, &be, dC, ldc));
        else
            OK(cublasGemmEx(h, opc(ta), opc(tb), m, n, k, &al, dA, CUDA_C_64F, lda, dB, CUDA_C_64F, ldb,
                            &be, dC, CUDA_C_64F, ldc, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
        err = err_c(want, widen(host(dC, hC.size())));
        EXPECT(err < 1e-13, "%s %c%c %dx%dx%d: relative error %g", names[which], ta, tb, m, n, k, err);
        cudaFree(dA), cudaFree(dB), cudaFree(dC);
    }
}

static void complex_batches(cublasHandle_t h)
{
    const int m = 5, n = 4, k = 6, batch = 3;
    std::vector<cd> A = rnd_c((size_t)m * k * batch, 1), B = rnd_c((size_t)k * n * batch, 2),
                    C = rnd_c((size_t)m * n * batch, 4);
    cd alpha = {1, 1}, beta = {0, 1};
    std::vector<cd> want(C.size());
    for (int b = 0; b < batch; b++) {
        std::vector<cd> a(A.begin() + b * m * k, A.begin() + (b + 1) * m * k),
            bb(B.begin() + b * k * n, B.begin() + (b + 1) * k * n), c(C.begin() + b * m * n, C.begin() + (b + 1) * m * n);
        std::vector<cd> r = ref_c('N', 'N', m, n, k, alpha, a, m, bb, k, beta, c, m);
        std::copy(r.begin(), r.end(), want.begin() + b * m * n);
    }
    std::vector<cuComplex> hA = narrow<cuComplex>(A), hB = narrow<cuComplex>(B), hC = narrow<cuComplex>(C);
    cuComplex *dA = dev(hA), *dB = dev(hB), *dC = dev(hC);
    cuComplex al = make_cuComplex(1, 1), be = make_cuComplex(0, 1);
    OK(cublasCgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &al, dA, m, m * k, dB, k, k * n,
                                 &be, dC, m, m * n, batch));
    double err = err_c(want, widen(host(dC, hC.size())));
    EXPECT(err < 1e-5, "CgemmStridedBatched: relative error %g", err);
    // the same through arrays of pointers, in double complex
    std::vector<cuDoubleComplex> zA = narrow<cuDoubleComplex>(A), zB = narrow<cuDoubleComplex>(B), zC = narrow<cuDoubleComplex>(C);
    cuDoubleComplex *eA = dev(zA), *eB = dev(zB), *eC = dev(zC);
    std::vector<const cuDoubleComplex *> pa, pb;
    std::vector<cuDoubleComplex *> pc;
    for (int b = 0; b < batch; b++)
        pa.push_back(eA + b * m * k), pb.push_back(eB + b * k * n), pc.push_back(eC + b * m * n);
    const cuDoubleComplex **dpa = dev(pa), **dpb = dev(pb);
    cuDoubleComplex **dpc = dev(pc);
    cuDoubleComplex zal = make_cuDoubleComplex(1, 1), zbe = make_cuDoubleComplex(0, 1);
    OK(cublasZgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &zal, dpa, m, dpb, k, &zbe, dpc, m, batch));
    err = err_c(want, widen(host(eC, zC.size())));
    EXPECT(err < 1e-13, "ZgemmBatched: relative error %g", err);
    cudaFree(dA), cudaFree(dB), cudaFree(dC), cudaFree(eA), cudaFree(eB), cudaFree(eC);
}

// ---- grouped: two groups of different sizes ----
static void grouped(cublasHandle_t h)
{
    int m[2] = {3, 5}, n[2] = {4, 2}, k[2] = {2, 6}, sz[2] = {2, 1};
    cublasOperation_t ta[2] = {CUBLAS_OP_N, CUBLAS_OP_T}, tb[2] = {CUBLAS_OP_N, CUBLAS_OP_N};
    float alpha[2] = {1, 2}, beta[2] = {0, 1};
    int lda[2] = {3, 6}, ldb[2] = {2, 6}, ldc[2] = {3, 5};
    std::vector<float *> A, B, C;
    std::vector<std::vector<float>> hA, hB, hC;
    unsigned s = 5;
    for (int g = 0, i = 0; g < 2; g++)
        for (int b = 0; b < sz[g]; b++, i++) {
            hA.push_back(std::vector<float>((size_t)lda[g] * (ta[g] == CUBLAS_OP_N ? k[g] : m[g])));
            hB.push_back(std::vector<float>((size_t)ldb[g] * n[g]));
            hC.push_back(std::vector<float>((size_t)ldc[g] * n[g]));
            for (auto &x : hA[i]) x = (float)small(&s, 8);
            for (auto &x : hB[i]) x = (float)small(&s, 8);
            for (auto &x : hC[i]) x = (float)small(&s, 8);
            A.push_back(dev(hA[i])), B.push_back(dev(hB[i])), C.push_back(dev(hC[i]));
        }
    float **dA = dev(A), **dB = dev(B), **dC = dev(C);
    OK(cublasSgemmGroupedBatched(h, ta, tb, m, n, k, alpha, (const float *const *)dA, lda,
                                 (const float *const *)dB, ldb, beta, dC, ldc, 2, sz));
    int bad = 0;
    for (int g = 0, i = 0; g < 2; g++)
        for (int b = 0; b < sz[g]; b++, i++) {
            std::vector<float> got = host(C[i], hC[i].size());
            char oa = ta[g] == CUBLAS_OP_N ? 'N' : 'T';
            for (int j = 0; j < n[g]; j++)
                for (int r = 0; r < m[g]; r++) {
                    double acc = 0;
                    for (int p = 0; p < k[g]; p++)
                        acc += at(hA[i].data(), oa, r, p, lda[g]) * hB[i][p + j * ldb[g]];
                    double want = alpha[g] * acc + (beta[g] ? beta[g] * hC[i][r + j * ldc[g]] : 0);
                    bad += want != got[r + j * ldc[g]];
                }
        }
    EXPECT(!bad, "SgemmGroupedBatched: %d wrong", bad);
}

// ---- statuses of bad calls (each printed; compared with the H200's) ----
static void status(cublasHandle_t h)
{
    int8_t *a8;
    int32_t *c32;
    float *f;
    cuComplex *c;
    cudaMalloc(&a8, 4096), cudaMalloc(&c32, 4096 * 4), cudaMalloc(&f, 4096 * 4), cudaMalloc(&c, 4096 * 8);
    int32_t ia = 1, ib = 0;
    float fa = 1, fb = 0;
    cuComplex ca = make_cuComplex(1, 0), cb = make_cuComplex(0, 0);
#define ST(label, x) printf("status %s %d\n", label, (int)(x))
    ST("int8_ok", cublasGemmEx(h, CUBLAS_OP_T, CUBLAS_OP_N, 16, 16, 16, &ia, a8, CUDA_R_8I, 16, a8, CUDA_R_8I, 16, &ib, c32, CUDA_R_32I, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("int8_odd_sizes", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 5, 7, &ia, a8, CUDA_R_8I, 3, a8, CUDA_R_8I, 7, &ib, c32, CUDA_R_32I, 3, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("int8_to_8I_out", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ia, a8, CUDA_R_8I, 16, a8, CUDA_R_8I, 16, &ib, a8, CUDA_R_8I, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("int8_compute_16F", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &fa, a8, CUDA_R_8I, 16, a8, CUDA_R_8I, 16, &fb, c32, CUDA_R_32I, 16, CUBLAS_COMPUTE_16F, CUBLAS_GEMM_DEFAULT));
    ST("int8_f32_out", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &fa, a8, CUDA_R_8I, 16, a8, CUDA_R_8I, 16, &fb, f, CUDA_R_32F, 16, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    ST("int8_mixed_B_f32", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ia, a8, CUDA_R_8I, 16, f, CUDA_R_32F, 16, &ib, c32, CUDA_R_32I, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("f32_compute_32I", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ia, f, CUDA_R_32F, 16, f, CUDA_R_32F, 16, &ib, f, CUDA_R_32F, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("int8_lda_small", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ia, a8, CUDA_R_8I, 8, a8, CUDA_R_8I, 16, &ib, c32, CUDA_R_32I, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("int8_m_negative", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 16, 16, &ia, a8, CUDA_R_8I, 16, a8, CUDA_R_8I, 16, &ib, c32, CUDA_R_32I, 16, CUBLAS_COMPUTE_32I, CUBLAS_GEMM_DEFAULT));
    ST("gemmex_bad_compute", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &fa, f, CUDA_R_32F, 16, f, CUDA_R_32F, 16, &fb, f, CUDA_R_32F, 16, (cublasComputeType_t)1234, CUBLAS_GEMM_DEFAULT));
    ST("gemmex_bad_op", cublasGemmEx(h, (cublasOperation_t)7, CUBLAS_OP_N, 16, 16, 16, &fa, f, CUDA_R_32F, 16, f, CUDA_R_32F, 16, &fb, f, CUDA_R_32F, 16, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    ST("c32_ok", cublasGemmEx(h, CUBLAS_OP_C, CUBLAS_OP_N, 16, 16, 16, &ca, c, CUDA_C_32F, 16, c, CUDA_C_32F, 16, &cb, c, CUDA_C_32F, 16, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    ST("c32_compute_64F", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ca, c, CUDA_C_32F, 16, c, CUDA_C_32F, 16, &cb, c, CUDA_C_32F, 16, CUBLAS_COMPUTE_64F, CUBLAS_GEMM_DEFAULT));
    ST("c32_out_r32f", cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ca, c, CUDA_C_32F, 16, c, CUDA_C_32F, 16, &cb, f, CUDA_R_32F, 16, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    ST("cgemm_ldc_small", cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ca, c, 16, c, 16, &cb, c, 8));
    ST("cgemm_k_negative", cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, -2, &ca, c, 16, c, 16, &cb, c, 16));
    ST("cgemm_null_alpha", cublasCgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, nullptr, c, 16, c, 16, &cb, c, 16));
    ST("cgemmex_r32f", cublasCgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ca, f, CUDA_R_32F, 16, f, CUDA_R_32F, 16, &cb, c, CUDA_C_32F, 16));
    ST("cgemm_null_handle", cublasCgemm(nullptr, CUBLAS_OP_N, CUBLAS_OP_N, 16, 16, 16, &ca, c, 16, c, 16, &cb, c, 16));
    ST("strided_batch_negative", cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &fa, f, CUDA_R_32F, 4, 16, f, CUDA_R_32F, 4, 16, &fb, f, CUDA_R_32F, 4, 16, -1, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    ST("strided_batch_zero", cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &fa, f, CUDA_R_32F, 4, 16, f, CUDA_R_32F, 4, 16, &fb, f, CUDA_R_32F, 4, 16, 0, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    int gm[1] = {4}, gn[1] = {4}, gk[1] = {4}, gl[1] = {4}, gsz[1] = {-1};
    cublasOperation_t gt[1] = {CUBLAS_OP_N};
    ST("grouped_size_negative", cublasSgemmGroupedBatched(h, gt, gt, gm, gn, gk, &fa, (const float *const *)&f, gl, (const float *const *)&f, gl, &fb, &f, gl, 1, gsz));
    ST("grouped_count_negative", cublasSgemmGroupedBatched(h, gt, gt, gm, gn, gk, &fa, (const float *const *)&f, gl, (const float *const *)&f, gl, &fb, &f, gl, -1, gsz));
    ST("grouped_count_zero", cublasSgemmGroupedBatched(h, gt, gt, gm, gn, gk, &fa, (const float *const *)&f, gl, (const float *const *)&f, gl, &fb, &f, gl, 0, gsz));
    cudaDeviceSynchronize();
    cudaFree(a8), cudaFree(c32), cudaFree(f), cudaFree(c);
}

// ---- operands rewritten with the same bytes (llm.c's timing loops permute before each GEMM) ----
__global__ void fill(float *a, int n, int seed)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] = (float)((i * 7 + seed) % 13 - 6);
}

__global__ void twice(float *a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        a[i] *= 2.0f;
}

static void rewrite(cublasHandle_t h)
{
    const int n = 48; // C = A B, all n x n; B = identity + 1 on the first row
    std::vector<float> hb((size_t)n * n, 0.0f);
    for (int i = 0; i < n; i++)
        hb[i + i * n] = 1.0f, hb[i * n] += 1.0f;
    float *dA, *dB = dev(hb), *dC, one = 1, zero = 0;
    cudaMalloc(&dA, n * n * sizeof(float));
    cudaMalloc(&dC, n * n * sizeof(float));
    for (int round = 0; round < 4; round++) {
        // rounds 1 and 2 rewrite A with the same bytes (seeds equal modulo 13) by a launch that
        // differs (its argument), so it runs and A gets a new version; round 3 writes others
        int seed = round < 3 ? 1 + 13 * round : 2;
        fill<<<(n * n + 127) / 128, 128>>>(dA, n * n, seed);
        OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
        std::vector<float> c = host(dC, (size_t)n * n);
        int bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                float a_ij = (float)(((i + j * n) * 7 + seed) % 13 - 6), a_i0 = (float)((i * 7 + seed) % 13 - 6);
                bad += c[i + j * n] != a_ij + a_i0; // (A B)_ij = A_ij + A_i0
            }
        EXPECT(!bad, "round %d: %d wrong", round, bad);
    }
    // a kernel scales C in place, then the same call again (A and B unchanged): C, dense, gets
    // back what the call wrote (a repeat); with ldc 50 (gaps between columns) it is computed
    for (int ldc = n; ldc <= n + 2; ldc += 2) {
        float *dD;
        cudaMalloc(&dD, ldc * n * sizeof(float));
        cudaMemset(dD, 0, ldc * n * sizeof(float));
        for (int round = 0; round < 2; round++) {
            OK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dD, ldc));
            std::vector<float> c = host(dD, (size_t)ldc * n);
            int bad = 0;
            for (int j = 0; j < n; j++)
                for (int i = 0; i < ldc; i++) {
                    float want = i >= n ? (round ? 2.0f * 0.0f : 0.0f)
                                        : (float)(((i + j * n) * 7 + 2) % 13 - 6) + (float)((i * 7 + 2) % 13 - 6);
                    bad += c[i + j * ldc] != want;
                }
            EXPECT(!bad, "ldc %d round %d: %d wrong", ldc, round, bad);
            twice<<<(ldc * n + 127) / 128, 128>>>(dD, ldc * n);
        }
        cudaFree(dD);
    }
    cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

// ---- level-2/3 routines, each against a plain reference in double (complex) ----
static double dval(unsigned *s) { return small(s, 8) / 4.0; }
// element (i, j) of a symmetric / Hermitian matrix kept in triangle uplo of x (ld)
static cd herm_at(const std::vector<cd> &x, int ld, bool lower, int i, int j, bool herm)
{
    bool stored = lower ? i >= j : i <= j;
    cd v = stored ? x[i + j * ld] : x[j + i * ld];
    if (!stored && herm)
        v.im = -v.im;
    if (herm && i == j)
        v.im = 0;
    return v;
}
static void routines(cublasHandle_t h)
{
    unsigned s = 17;
    { // Dsymv, lower, lda 9, incx 2, beta 0.5
        const int n = 7, lda = 9;
        std::vector<double> A(lda * n), x(2 * n), y(n);
        for (auto &v : A) v = dval(&s);
        for (auto &v : x) v = dval(&s);
        for (auto &v : y) v = dval(&s);
        double *dA = dev(A), *dx = dev(x), *dy = dev(y), al = 1.5, be = 0.5;
        OK(cublasDsymv(h, CUBLAS_FILL_MODE_LOWER, n, &al, dA, lda, dx, 2, &be, dy, 1));
        std::vector<double> got = host(dy, n);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            double acc = 0;
            for (int j = 0; j < n; j++)
                acc += (i >= j ? A[i + j * lda] : A[j + i * lda]) * x[2 * j];
            bad += fabs(al * acc + be * y[i] - got[i]) > 1e-12;
        }
        EXPECT(!bad, "Dsymv: %d wrong", bad);
    }
    { // Ztrmv, upper, conjugate transpose, non-unit diagonal
        const int n = 6;
        std::vector<cd> A = rnd_c(n * n, 3), x = rnd_c(n, 4);
        std::vector<cuDoubleComplex> hA = narrow<cuDoubleComplex>(A), hx = narrow<cuDoubleComplex>(x);
        cuDoubleComplex *dA = dev(hA), *dx = dev(hx);
        OK(cublasZtrmv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT, n, dA, n, dx, 1));
        std::vector<cd> got = widen(host(dx, n)), want(n);
        for (int i = 0; i < n; i++) { // (A^H x)_i = sum_j conj(A_ji) x_j, A upper: j <= i
            cd acc = {0, 0};
            for (int j = 0; j <= i; j++) {
                cd t = cmul({A[j + i * n].re, -A[j + i * n].im}, x[j]);
                acc.re += t.re, acc.im += t.im;
            }
            want[i] = acc;
        }
        double err = err_c(want, got);
        EXPECT(err < 1e-14, "Ztrmv: relative error %g", err);
    }
    { // Dgbmv, kl 2, ku 1, transpose
        const int m = 7, n = 5, kl = 2, ku = 1, lda = kl + ku + 2;
        std::vector<double> AB(lda * n), x(m), y(n, NAN);
        for (auto &v : AB) v = dval(&s);
        for (auto &v : x) v = dval(&s);
        double *dA = dev(AB), *dx = dev(x), *dy = dev(y), al = 1, be = 0; // beta 0: y not read
        OK(cublasDgbmv(h, CUBLAS_OP_T, m, n, kl, ku, &al, dA, lda, dx, 1, &be, dy, 1));
        std::vector<double> got = host(dy, n);
        int bad = 0;
        for (int j = 0; j < n; j++) { // (A^T x)_j = sum_i A_ij x_i, A_ij = AB[ku + i - j + j lda]
            double acc = 0;
            for (int i = j - ku < 0 ? 0 : j - ku; i < m && i <= j + kl; i++)
                acc += AB[ku + i - j + j * lda] * x[i];
            bad += fabs(acc - got[j]) > 1e-12;
        }
        EXPECT(!bad, "Dgbmv: %d wrong", bad);
    }
    { // Chemv, lower
        const int n = 5;
        std::vector<cd> A = rnd_c(n * n, 6), x = rnd_c(n, 7), y = rnd_c(n, 8);
        std::vector<cuComplex> hA = narrow<cuComplex>(A), hx = narrow<cuComplex>(x), hy = narrow<cuComplex>(y);
        cuComplex *dA = dev(hA), *dx = dev(hx), *dy = dev(hy), al = make_cuComplex(1, -1), be = make_cuComplex(0.5, 0);
        OK(cublasChemv(h, CUBLAS_FILL_MODE_LOWER, n, &al, dA, n, dx, 1, &be, dy, 1));
        std::vector<cd> want(n);
        for (int i = 0; i < n; i++) {
            cd acc = {0, 0};
            for (int j = 0; j < n; j++) {
                cd t = cmul(herm_at(A, n, true, i, j, true), x[j]);
                acc.re += t.re, acc.im += t.im;
            }
            cd r = cmul({1, -1}, acc);
            want[i] = {r.re + 0.5 * y[i].re, r.im + 0.5 * y[i].im};
        }
        double err = err_c(want, widen(host(dy, n)));
        EXPECT(err < 1e-5, "Chemv: relative error %g", err);
    }
    { // Zherk, upper, op C: C = alpha A^H A + beta C on the upper triangle, real diagonal
        const int n = 4, k = 3;
        std::vector<cd> A = rnd_c(k * n, 9), C = rnd_c(n * n, 10);
        std::vector<cuDoubleComplex> hA = narrow<cuDoubleComplex>(A), hC = narrow<cuDoubleComplex>(C);
        cuDoubleComplex *dA = dev(hA), *dC = dev(hC);
        double al = 2, be = 1;
        OK(cublasZherk(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, n, k, &al, dA, k, &be, dC, n));
        std::vector<cd> got = widen(host(dC, n * n));
        int bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                cd want = C[i + j * n];
                if (i <= j) {
                    cd acc = {0, 0};
                    for (int l = 0; l < k; l++) {
                        cd t = cmul({A[l + i * k].re, -A[l + i * k].im}, A[l + j * k]);
                        acc.re += t.re, acc.im += t.im;
                    }
                    want = {al * acc.re + be * C[i + j * n].re, i == j ? 0 : al * acc.im + be * C[i + j * n].im};
                }
                bad += fabs(want.re - got[i + j * n].re) > 1e-12 || fabs(want.im - got[i + j * n].im) > 1e-12;
            }
        EXPECT(!bad, "Zherk: %d wrong", bad);
    }
    { // Dsymm side right (C = alpha B A + beta C, A upper), Strmm out of place (C = alpha op(A) B)
        const int m = 4, n = 3;
        std::vector<double> A(n * n), B(m * n), C(m * n);
        for (auto &v : A) v = dval(&s);
        for (auto &v : B) v = dval(&s);
        for (auto &v : C) v = dval(&s);
        double *dA = dev(A), *dB = dev(B), *dC = dev(C), al = 1, be = -1;
        OK(cublasDsymm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, m, n, &al, dA, n, dB, m, &be, dC, m));
        std::vector<double> got = host(dC, m * n);
        int bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                double acc = 0;
                for (int l = 0; l < n; l++)
                    acc += B[i + l * m] * (l <= j ? A[l + j * n] : A[j + l * n]);
                bad += fabs(acc - C[i + j * m] - got[i + j * m]) > 1e-12;
            }
        EXPECT(!bad, "Dsymm: %d wrong", bad);
        std::vector<float> fA(m * m), fB(m * n), fC(m * n, NAN);
        for (auto &v : fA) v = (float)dval(&s);
        for (auto &v : fB) v = (float)dval(&s);
        float *eA = dev(fA), *eB = dev(fB), *eC = dev(fC), one = 1;
        OK(cublasStrmm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_T, CUBLAS_DIAG_UNIT, m, n, &one,
                       eA, m, eB, m, eC, m));
        std::vector<float> gc = host(eC, m * n), gb = host(eB, m * n);
        bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) { // (A^T B)_ij, A lower unit: A^T upper unit
                double acc = fB[i + j * m];
                for (int l = i + 1; l < m; l++)
                    acc += fA[l + i * m] * fB[l + j * m];
                bad += fabs(acc - gc[i + j * m]) > 1e-5 || gb[i + j * m] != fB[i + j * m];
            }
        EXPECT(!bad, "Strmm out of place: %d wrong", bad);
    }
    { // Ddgmm left (C = diag(x) A), Dtpttr (packed lower to full)
        const int m = 5, n = 3;
        std::vector<double> A(m * n), x(m), P(m * (m + 1) / 2);
        for (auto &v : A) v = dval(&s);
        for (auto &v : x) v = dval(&s);
        for (size_t i = 0; i < P.size(); i++) P[i] = (double)i;
        double *dA = dev(A), *dx = dev(x), *dC, *dP = dev(P), *dF;
        cudaMalloc(&dC, m * n * sizeof(double));
        std::vector<double> F(m * m, -1);
        dF = dev(F);
        OK(cublasDdgmm(h, CUBLAS_SIDE_LEFT, m, n, dA, m, dx, 1, dC, m));
        OK(cublasDtpttr(h, CUBLAS_FILL_MODE_LOWER, m, dP, dF, m));
        std::vector<double> got = host(dC, m * n), gf = host(dF, m * m);
        int bad = 0;
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++)
                bad += got[i + j * m] != x[i] * A[i + j * m];
        for (int j = 0, p = 0; j < m; j++)
            for (int i = 0; i < m; i++)
                bad += gf[i + j * m] != (i >= j ? (double)p++ : -1.0);
        EXPECT(!bad, "Ddgmm / Dtpttr: %d wrong", bad);
    }
    { // Ztrsm left lower, no transpose: A X = alpha B; A X computed back from the result
        const int m = 4, n = 3;
        std::vector<cd> A = rnd_c(m * m, 12), B = rnd_c(m * n, 13);
        for (int i = 0; i < m; i++)
            A[i + i * m].re += 4; // well conditioned
        std::vector<cuDoubleComplex> hA = narrow<cuDoubleComplex>(A), hB = narrow<cuDoubleComplex>(B);
        cuDoubleComplex *dA = dev(hA), *dB = dev(hB), al = make_cuDoubleComplex(1, 1);
        OK(cublasZtrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, m, n, &al,
                       dA, m, dB, m));
        std::vector<cd> X = widen(host(dB, m * n)), ax(m * n), want(m * n);
        for (int j = 0; j < n; j++)
            for (int i = 0; i < m; i++) {
                cd acc = {0, 0};
                for (int l = 0; l <= i; l++) {
                    cd t = cmul(A[i + l * m], X[l + j * m]);
                    acc.re += t.re, acc.im += t.im;
                }
                ax[i + j * m] = acc, want[i + j * m] = cmul({1, 1}, B[i + j * m]);
            }
        double err = err_c(want, ax);
        EXPECT(err < 1e-13, "Ztrsm: relative error %g", err);
    }
    { // DotEx in f16 (f32 execution): small integers, exact
        const int n = 20;
        std::vector<__half> x(n), y(n);
        double want = 0;
        for (int i = 0; i < n; i++) {
            x[i] = __float2half((float)(i % 5 - 2)), y[i] = __float2half((float)(i % 3));
            want += (i % 5 - 2) * (i % 3);
        }
        __half *dx = dev(x), *dy = dev(y), r;
        OK(cublasDotEx(h, n, dx, CUDA_R_16F, 1, dy, CUDA_R_16F, 1, &r, CUDA_R_16F, CUDA_R_32F));
        EXPECT(__half2float(r) == (float)want, "DotEx f16: %g, want %g", __half2float(r), want);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    cublasHandle_t h;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
        printf("cublasCreate failed\nFAIL\n");
        return 1;
    }
    if (!strcmp(mode, "int8")) {
        int8_case(h, 'N', 'N', 7, 5, 9, 1, 0, 0);
        int8_case(h, 'T', 'N', 16, 24, 32, 3, -2, 0);
        int8_case(h, 'N', 'T', 4, 4, 64, 1, 1, 0);
        int8_case(h, 'T', 'T', 8, 8, 1 << 16, 2, 0, 1); // 2^16 * 2^14 products: the sum wraps
        int8_strided(h);
    } else if (!strcmp(mode, "complex")) {
        const char ops[] = "NTC";
        for (int w = 0; w < 8; w++)
            for (int a = 0; a < 3; a++)
                complex_case(h, ops[a], ops[(a + w) % 3], 5 + w, 3 + a, 4 + (w % 3), w);
        complex_batches(h);
    } else if (!strcmp(mode, "grouped")) {
        grouped(h);
    } else if (!strcmp(mode, "status")) {
        status(h);
    } else if (!strcmp(mode, "rewrite")) {
        rewrite(h);
    } else if (!strcmp(mode, "routines")) {
        routines(h);
    } else {
        printf("usage: cublas_ex int8|complex|grouped|status|rewrite|routines\n");
        return 2;
    }
    cublasDestroy(h);
    printf(failures ? "FAIL\n" : "PASS\n");
    return failures != 0;
}
