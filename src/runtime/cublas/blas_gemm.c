/* blas_gemm.c: cuBLAS's GEMM family on the CPU (OpenBLAS's sgemm / dgemm), column-major, over the
 * program's device memory: C = alpha op(A) op(B) + beta C, one matrix, a strided batch or an
 * array of pointers, in every precision programs use. Inputs are first rounded as the tensor
 * cores take them (tf32 in CUBLAS_TF32_TENSOR_OP_MATH or COMPUTE_32F_FAST_TF32, f16, bf16),
 * products accumulate in fp32 (fp64 for doubles), the result is rounded to C's type: the
 * precision of cuBLAS on an H200, not its bits (docs/run.md). */
#include "blas.h"

#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>

struct mat {
    const void *p;          /* one matrix, or the first of a strided batch */
    const void *const *arr; /* or an array of batch pointers (device memory) */
    int type;
    int64_t ld, stride;
};

static const char *type_name(int t)
{
    switch (t) {
    case R_32F: return "f32";
    case R_64F: return "f64";
    case R_16F: return "f16";
    case R_16BF: return "bf16";
    default: return "?";
    }
}

/* matrix b of m (rows x cols as stored) */
static const void *item(const char *call, const char *what, const struct mat *x,
                        const void *const *arr, int64_t b, int64_t rows, int64_t cols, int write)
{
    unsigned es = type_size(x->type);
    const void *p = arr ? arr[b] : (const char *)x->p + b * x->stride * (int64_t)es;
    uint64_t n = blas_span(rows, cols, x->ld, es);
    return write ? blas_bytes(call, what, p, n) : blas_in(call, what, p, n);
}

/* the bytes a strided batch spans (0: it cannot be said, a negative stride) */
static uint64_t batch_span(const struct mat *x, int64_t batch, int64_t rows, int64_t cols)
{
    uint64_t one = blas_span(rows, cols, x->ld, type_size(x->type));
    if (x->stride < 0 || !one)
        return 0;
    return (uint64_t)(batch - 1) * (uint64_t)x->stride * type_size(x->type) + one;
}

/* what decides a GEMM's result besides its operands' bytes (zeroed first: no stray padding) */
struct gemm_key {
    const char *call;
    int ta, tb, compute, rnd, atype, btype, ctype;
    int64_t m, n, k, batch, lda, ldb, ldc, sa, sb, sc;
    double alpha, beta;
    const void *a, *b, *c;
};
_Static_assert(sizeof(struct gemm_key) == 8 + 8 * 4 + 10 * 8 + 2 * 8 + 3 * 8,
               "gemm_key has no padding: it is compared byte for byte");

static int gemm(const char *call, struct stub_handle *h, int ta, int tb, int64_t m, int64_t n,
                int64_t k, const void *alpha, struct mat A, struct mat B, const void *beta,
                struct mat C, int64_t batch, int compute)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    if (ta < OP_N || ta > OP_C || tb < OP_N || tb > OP_C || m < 0 || n < 0 || k < 0 || batch < 0)
        return STUB_INVALID_VALUE;
    int64_t ar = ta == OP_N ? m : k, ac = ta == OP_N ? k : m;
    int64_t br = tb == OP_N ? k : n, bc = tb == OP_N ? n : k;
    if (A.ld < (ar > 1 ? ar : 1) || B.ld < (br > 1 ? br : 1) || C.ld < (m > 1 ? m : 1))
        return STUB_INVALID_VALUE;
    if (!alpha || !beta)
        return STUB_INVALID_VALUE;

    /* the precision: scalars' type, how inputs are rounded, the arithmetic */
    int scalar, rnd = RND_NONE, f64 = 0;
    int pedantic = (h->math_mode & 0xf) == MATH_PEDANTIC;
    const char *how;
    switch (compute) {
    case COMPUTE_16F:
    case COMPUTE_16F_PEDANTIC:
        if (A.type != R_16F || B.type != R_16F || C.type != R_16F)
            return STUB_NOT_SUPPORTED;
        scalar = R_16F;
        how = "f16 in, fp32 accumulate, f16 out";
        break;
    case COMPUTE_32F:
    case COMPUTE_32F_PEDANTIC:
        if (A.type != B.type || !(A.type == R_32F || A.type == R_16F || A.type == R_16BF) ||
            !(C.type == R_32F || C.type == A.type))
            return STUB_NOT_SUPPORTED;
        scalar = R_32F;
        /* the handle's math mode reaches single-precision GEMMs in COMPUTE_32F only: TF32,
           or the deprecated TENSOR_OP, which cublas_api.h defines as COMPUTE_32F_FAST_16F */
        if (A.type == R_32F && compute == COMPUTE_32F && !pedantic)
            rnd = (h->math_mode & 0xf) == MATH_TF32 ? RND_TF32
                  : (h->math_mode & 0xf) == MATH_TENSOR_OP ? RND_F16 : RND_NONE;
        how = rnd == RND_TF32 ? "tf32 (CUBLAS_TF32_TENSOR_OP_MATH), fp32 accumulate"
              : rnd == RND_F16 ? "f32 rounded to f16 (CUBLAS_TENSOR_OP_MATH), fp32 accumulate"
              : A.type == R_16F ? "f16 in, fp32 accumulate"
              : A.type == R_16BF ? "bf16 in, fp32 accumulate" : "fp32";
        break;
    case COMPUTE_32F_FAST_TF32:
    case COMPUTE_32F_FAST_16F:
    case COMPUTE_32F_FAST_16BF:
        if (A.type != R_32F || B.type != R_32F || C.type != R_32F)
            return STUB_NOT_SUPPORTED;
        scalar = R_32F;
        rnd = compute == COMPUTE_32F_FAST_TF32 ? RND_TF32
              : compute == COMPUTE_32F_FAST_16F ? RND_F16 : RND_BF16;
        how = rnd == RND_TF32 ? "tf32 in, fp32 accumulate" : rnd == RND_F16
              ? "f32 rounded to f16, fp32 accumulate" : "f32 rounded to bf16, fp32 accumulate";
        break;
    case COMPUTE_64F:
    case COMPUTE_64F_PEDANTIC:
        if (A.type != R_64F || B.type != R_64F || C.type != R_64F)
            return STUB_NOT_SUPPORTED;
        scalar = R_64F;
        f64 = 1;
        how = "fp64";
        break;
    case COMPUTE_32I:
    case COMPUTE_32I_PEDANTIC:
        __cudaSmemlabUnsupported(call, "integer GEMM (CUBLAS_COMPUTE_32I) is not computed by "
                                 "smemlab's cuBLAS stand-in; f16, bf16, f32, tf32 and f64 are");
    default:
        return STUB_INVALID_VALUE;
    }
    if (!type_size(A.type) || !type_size(C.type))
        return STUB_NOT_SUPPORTED;
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX || A.ld > INT32_MAX ||
        B.ld > INT32_MAX || C.ld > INT32_MAX)
        __cudaSmemlabUnsupported(call, "a dimension or leading dimension of 2^31 or more: "
                                 "OpenBLAS's interface takes 32-bit sizes");

    double t0 = blas_start();
    unsigned char sa[8], sb[8];
    blas_scalar(call, "alpha", h, alpha, type_size(scalar), sa);
    blas_scalar(call, "beta", h, beta, type_size(scalar), sb);
    double al = load_as(scalar, sa, 0), be = load_as(scalar, sb, 0);

    char prec[160];
    snprintf(prec, sizeof prec, "%s x %s -> %s: %s", type_name(A.type), type_name(B.type),
             type_name(C.type), how);
#define RECORD(repeat)                                                                          \
    blas_record_call(call, t0, repeat, prec, "m=%lld n=%lld k=%lld op=%c%c batch=%lld",          \
                     (long long)m, (long long)n, (long long)k, "NTCC"[ta], "NTCC"[tb],          \
                     (long long)batch)
    /* a repeat of the same call over unchanged operands, C only written (beta 0), is proven
       (blas.h): timing loops call the same GEMM many times */
    struct gemm_key key;
    struct blas_operand ops[3] = {{A.p, batch_span(&A, batch, ar, ac), 0},
                                  {B.p, batch_span(&B, batch, br, bc), 0},
                                  {C.p, batch_span(&C, batch, m, n), 1}};
    int memo = be == 0 && !A.arr && m && n && batch && k && al != 0 && ops[0].n && ops[1].n &&
               ops[2].n;
    if (memo) {
        memset(&key, 0, sizeof key);
        key = (struct gemm_key){call, ta, tb, compute, rnd, A.type, B.type, C.type, m, n, k, batch,
                                A.ld, B.ld, C.ld, A.stride, B.stride, C.stride, al, be, A.p, B.p,
                                C.p};
        if (blas_repeat(&key, sizeof key, ops, 3)) {
            RECORD(1);
            return STUB_SUCCESS;
        }
    }
    if (m && n && batch) {
        const void *const *aa = NULL, *const *ba = NULL, *const *ca = NULL;
        if (A.arr) { /* arrays of pointers, in device memory */
            aa = blas_in(call, "Aarray", A.arr, (uint64_t)batch * sizeof(void *));
            ba = blas_in(call, "Barray", B.arr, (uint64_t)batch * sizeof(void *));
            ca = blas_in(call, "Carray", C.arr, (uint64_t)batch * sizeof(void *));
        }
        int direct = !f64 && rnd == RND_NONE && A.type == R_32F && C.type == R_32F;
        enum CBLAS_TRANSPOSE oa = ta == OP_N ? CblasNoTrans : CblasTrans;
        enum CBLAS_TRANSPOSE ob = tb == OP_N ? CblasNoTrans : CblasTrans;
        for (int64_t b = 0; b < batch; b++) {
            const void *pa = item(call, "A", &A, aa, b, ar, ac, 0);
            const void *pb = item(call, "B", &B, ba, b, br, bc, 0);
            void *pc = (void *)item(call, "C", &C, ca, b, m, n, 1);
            int product = k > 0 && al != 0;
            if (f64 || direct) {
                size_t es = f64 ? 8 : 4;
                if (be == 0) /* beta 0: C is not read (it may hold NaN) */
                    for (int64_t j = 0; j < n; j++)
                        memset((char *)pc + (size_t)(j * C.ld) * es, 0, (size_t)m * es);
                if (f64 && product)
                    cblas_dgemm(CblasColMajor, oa, ob, (int)m, (int)n, (int)k, al, pa, (int)A.ld,
                                pb, (int)B.ld, be, pc, (int)C.ld);
                else if (product)
                    cblas_sgemm(CblasColMajor, oa, ob, (int)m, (int)n, (int)k, (float)al, pa,
                                (int)A.ld, pb, (int)B.ld, (float)be, pc, (int)C.ld);
                else if (be != 0 && be != 1)
                    for (int64_t j = 0; j < n; j++)
                        for (int64_t i = 0; i < m; i++)
                            store_as(C.type, pc, j * C.ld + i,
                                     be * load_as(C.type, pc, j * C.ld + i));
                continue;
            }
            /* narrow types or rounded inputs: dense float copies, sgemm, rounded back */
            float *fa = product ? blas_to_float(pa, A.type, ar, ac, A.ld, rnd) : NULL;
            float *fb = product ? blas_to_float(pb, B.type, br, bc, B.ld, rnd) : NULL;
            float *fc = calloc((size_t)(m * n), sizeof *fc);
            if ((product && (!fa || !fb)) || !fc) {
                free(fa), free(fb), free(fc);
                return STUB_ALLOC_FAILED;
            }
            if (be != 0)
                for (int64_t j = 0; j < n; j++)
                    for (int64_t i = 0; i < m; i++)
                        fc[j * m + i] = (float)load_as(C.type, pc, j * C.ld + i);
            if (product)
                cblas_sgemm(CblasColMajor, oa, ob, (int)m, (int)n, (int)k, (float)al, fa, (int)ar,
                            fb, (int)br, (float)be, fc, (int)m);
            else
                for (int64_t i = 0; i < m * n; i++)
                    fc[i] = (float)be * fc[i];
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++)
                    store_as(C.type, pc, j * C.ld + i, fc[j * m + i]);
            free(fa), free(fb), free(fc);
        }
    }
    if (memo)
        blas_remember(&key, sizeof key, ops, 3);
    RECORD(0);
    return STUB_SUCCESS;
}

/* cublas{S,D,H}gemm(_v2)(_64): I is int or int64_t */
#define TYPED_GEMM(name, T, I, R, CT)                                                         \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *A, I lda, const T *B, I ldb, const T *beta, T *C, I ldc);     \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *A, I lda, const T *B, I ldb, const T *beta, T *C, I ldc)      \
    {                                                                                          \
        struct mat a = {A, NULL, R, lda, 0}, b = {B, NULL, R, ldb, 0}, c = {C, NULL, R, ldc, 0}; \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, 1, CT);                   \
    }
TYPED_GEMM(cublasSgemm_v2, float, int, R_32F, COMPUTE_32F)
TYPED_GEMM(cublasSgemm_v2_64, float, int64_t, R_32F, COMPUTE_32F)
TYPED_GEMM(cublasDgemm_v2, double, int, R_64F, COMPUTE_64F)
TYPED_GEMM(cublasDgemm_v2_64, double, int64_t, R_64F, COMPUTE_64F)
TYPED_GEMM(cublasHgemm, uint16_t, int, R_16F, COMPUTE_16F)
TYPED_GEMM(cublasHgemm_64, uint16_t, int64_t, R_16F, COMPUTE_16F)

#define TYPED_STRIDED(name, T, I, R, CT)                                                      \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *A, I lda, long long sa, const T *B, I ldb, long long sb,      \
                        const T *beta, T *C, I ldc, long long sc, I batch);                    \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *A, I lda, long long sa, const T *B, I ldb, long long sb,      \
                        const T *beta, T *C, I ldc, long long sc, I batch)                     \
    {                                                                                          \
        struct mat a = {A, NULL, R, lda, sa}, b = {B, NULL, R, ldb, sb}, c = {C, NULL, R, ldc, sc}; \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, batch, CT);               \
    }
TYPED_STRIDED(cublasSgemmStridedBatched, float, int, R_32F, COMPUTE_32F)
TYPED_STRIDED(cublasSgemmStridedBatched_64, float, int64_t, R_32F, COMPUTE_32F)
TYPED_STRIDED(cublasDgemmStridedBatched, double, int, R_64F, COMPUTE_64F)
TYPED_STRIDED(cublasDgemmStridedBatched_64, double, int64_t, R_64F, COMPUTE_64F)
TYPED_STRIDED(cublasHgemmStridedBatched, uint16_t, int, R_16F, COMPUTE_16F)
TYPED_STRIDED(cublasHgemmStridedBatched_64, uint16_t, int64_t, R_16F, COMPUTE_16F)

#define TYPED_BATCHED(name, T, I, R, CT)                                                      \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *const A[], I lda, const T *const B[], I ldb, const T *beta,   \
                        T *const C[], I ldc, I batch);                                         \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const T *alpha,  \
                        const T *const A[], I lda, const T *const B[], I ldb, const T *beta,   \
                        T *const C[], I ldc, I batch)                                          \
    {                                                                                          \
        struct mat a = {NULL, (const void *const *)A, R, lda, 0},                               \
                   b = {NULL, (const void *const *)B, R, ldb, 0},                               \
                   c = {NULL, (const void *const *)C, R, ldc, 0};                               \
        if (batch > 0 && (!A || !B || !C))                                                     \
            return STUB_INVALID_VALUE;                                                         \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, batch, CT);               \
    }
TYPED_BATCHED(cublasSgemmBatched, float, int, R_32F, COMPUTE_32F)
TYPED_BATCHED(cublasSgemmBatched_64, float, int64_t, R_32F, COMPUTE_32F)
TYPED_BATCHED(cublasDgemmBatched, double, int, R_64F, COMPUTE_64F)
TYPED_BATCHED(cublasDgemmBatched_64, double, int64_t, R_64F, COMPUTE_64F)
TYPED_BATCHED(cublasHgemmBatched, uint16_t, int, R_16F, COMPUTE_16F)
TYPED_BATCHED(cublasHgemmBatched_64, uint16_t, int64_t, R_16F, COMPUTE_16F)

#define GEMM_EX(name, I)                                                                       \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const void *beta, void *C, int ct, I ldc, int compute, int algo);      \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const void *beta, void *C, int ct, I ldc, int compute, int algo)       \
    {                                                                                          \
        (void)algo; /* every algorithm computes the same product here */                      \
        struct mat a = {A, NULL, at, lda, 0}, b = {B, NULL, bt, ldb, 0}, c = {C, NULL, ct, ldc, 0}; \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, 1, compute);              \
    }
GEMM_EX(cublasGemmEx, int)
GEMM_EX(cublasGemmEx_64, int64_t)

/* cublasSgemmEx: typed inputs and output, float scalars, fp32 compute (the math mode applies) */
#define SGEMM_EX(name, I)                                                                      \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const float *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const float *beta, void *C, int ct, I ldc);                            \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const float *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const float *beta, void *C, int ct, I ldc)                             \
    {                                                                                          \
        struct mat a = {A, NULL, at, lda, 0}, b = {B, NULL, bt, ldb, 0}, c = {C, NULL, ct, ldc, 0}; \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, 1, COMPUTE_32F);          \
    }
SGEMM_EX(cublasSgemmEx, int)
SGEMM_EX(cublasSgemmEx_64, int64_t)

#define GEMM_STRIDED_EX(name, I)                                                               \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *A, int at, I lda, long long sa, const void *B, int bt,     \
                        I ldb, long long sb, const void *beta, void *C, int ct, I ldc,         \
                        long long sc, I batch, int compute, int algo);                         \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *A, int at, I lda, long long sa, const void *B, int bt,     \
                        I ldb, long long sb, const void *beta, void *C, int ct, I ldc,         \
                        long long sc, I batch, int compute, int algo)                          \
    {                                                                                          \
        (void)algo;                                                                            \
        struct mat a = {A, NULL, at, lda, sa}, b = {B, NULL, bt, ldb, sb},                      \
                   c = {C, NULL, ct, ldc, sc};                                                  \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, batch, compute);          \
    }
GEMM_STRIDED_EX(cublasGemmStridedBatchedEx, int)
GEMM_STRIDED_EX(cublasGemmStridedBatchedEx_64, int64_t)

#define GEMM_BATCHED_EX(name, I)                                                               \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *const A[], int at, I lda, const void *const B[], int bt,   \
                        I ldb, const void *beta, void *const C[], int ct, I ldc, I batch,      \
                        int compute, int algo);                                                \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const void *alpha, \
                        const void *const A[], int at, I lda, const void *const B[], int bt,   \
                        I ldb, const void *beta, void *const C[], int ct, I ldc, I batch,      \
                        int compute, int algo)                                                 \
    {                                                                                          \
        (void)algo;                                                                            \
        struct mat a = {NULL, A, at, lda, 0}, b = {NULL, B, bt, ldb, 0},                        \
                   c = {NULL, (const void *const *)C, ct, ldc, 0};                             \
        if (batch > 0 && (!A || !B || !C))                                                     \
            return STUB_INVALID_VALUE;                                                         \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, batch, compute);          \
    }
GEMM_BATCHED_EX(cublasGemmBatchedEx, int)
GEMM_BATCHED_EX(cublasGemmBatchedEx_64, int64_t)
