/* blas_level3.c: cuBLAS's triangular solve (trsm) and symmetric rank-k update (syrk) in single
 * and double precision, on the CPU (OpenBLAS), over the program's device memory, with cuBLAS's
 * argument checks; the GEMMs are in blas_gemm.c. */
#include "blas.h"

#include <cblas.h>

/* cublasSideMode_t, cublasFillMode_t, cublasDiagType_t */
enum { SIDE_LEFT = 0, SIDE_RIGHT = 1 };
enum { FILL_LOWER = 0, FILL_UPPER = 1 };
enum { DIAG_NON_UNIT = 0, DIAG_UNIT = 1 };

static int big(int64_t a, int64_t b, int64_t c)
{
    return a > INT32_MAX || b > INT32_MAX || c > INT32_MAX;
}
#define BIG(call) __cudaSmemlabUnsupported(call, "a size or leading dimension of 2^31 or more: " \
                                           "OpenBLAS's interface takes 32-bit sizes")

#define LEVEL3(P, p, T, I, SUF, PREC)                                                           \
    CUBLAS_API int cublas##P##trsm##SUF(struct stub_handle *h, int side, int uplo, int trans,    \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        T *B, I ldb);                                           \
    CUBLAS_API int cublas##P##trsm##SUF(struct stub_handle *h, int side, int uplo, int trans,    \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        T *B, I ldb)                                            \
    {                                                                                           \
        const char *call = "cublas" #P "trsm" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        I ka = side == SIDE_LEFT ? m : n; /* A is ka x ka */                                     \
        if ((side != SIDE_LEFT && side != SIDE_RIGHT) ||                                        \
            (uplo != FILL_LOWER && uplo != FILL_UPPER) || trans < OP_N || trans > OP_C ||       \
            (diag != DIAG_NON_UNIT && diag != DIAG_UNIT) || m < 0 || n < 0 ||                  \
            lda < (ka > 1 ? ka : 1) || ldb < (m > 1 ? m : 1) || !alpha)                         \
            return STUB_INVALID_VALUE;                                                          \
        if (big(m, n, lda) || big(ldb, 0, 0))                                                   \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (m > 0 && n > 0)                                                                     \
            cblas_##p##trsm(CblasColMajor, side == SIDE_LEFT ? CblasLeft : CblasRight,          \
                            uplo == FILL_LOWER ? CblasLower : CblasUpper,                       \
                            trans == OP_N ? CblasNoTrans : CblasTrans,                          \
                            diag == DIAG_UNIT ? CblasUnit : CblasNonUnit, (int)m, (int)n, a,    \
                            blas_in(call, "A", A, blas_span(ka, ka, lda, sizeof(T))), (int)lda, \
                            blas_bytes(call, "B", B, blas_span(m, n, ldb, sizeof(T))), \
                            (int)ldb);                                                          \
        blas_record(call, t0, PREC, "m=%lld n=%lld side=%c uplo=%c op=%c", (long long)m,        \
                    (long long)n, "LR"[side], "LU"[uplo], "NTC"[trans]);                        \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##syrk##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,    \
                                        const T *alpha, const T *A, I lda, const T *beta, T *C, \
                                        I ldc);                                                 \
    CUBLAS_API int cublas##P##syrk##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,    \
                                        const T *alpha, const T *A, I lda, const T *beta, T *C, \
                                        I ldc)                                                  \
    {                                                                                           \
        const char *call = "cublas" #P "syrk" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        I ar = trans == OP_N ? n : k, ac = trans == OP_N ? k : n;                               \
        if ((uplo != FILL_LOWER && uplo != FILL_UPPER) || trans < OP_N || trans > OP_C ||       \
            n < 0 || k < 0 || lda < (ar > 1 ? ar : 1) || ldc < (n > 1 ? n : 1) || !alpha ||     \
            !beta)                                                                              \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, k, lda) || big(ldc, 0, 0))                                                   \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        if (n > 0) {                                                                            \
            T *hc = blas_bytes(call, "C", C, blas_span(n, n, ldc, sizeof(T)));                  \
            if (b == 0) /* C is not read: its triangle is zeroed first (it may hold NaN) */     \
                for (I j = 0; j < n; j++)                                                       \
                    for (I i = uplo == FILL_LOWER ? j : 0; i < (uplo == FILL_LOWER ? n : j + 1); i++) \
                        hc[i + j * ldc] = 0;                                                    \
            cblas_##p##syrk(CblasColMajor, uplo == FILL_LOWER ? CblasLower : CblasUpper,        \
                            trans == OP_N ? CblasNoTrans : CblasTrans, (int)n, (int)k, a,       \
                            k > 0 ? blas_in(call, "A", A, blas_span(ar, ac, lda, sizeof(T)))    \
                                  : NULL,                                                       \
                            (int)lda, b, hc, (int)ldc);                                         \
        }                                                                                       \
        blas_record(call, t0, PREC, "n=%lld k=%lld uplo=%c op=%c", (long long)n, (long long)k,  \
                    "LU"[uplo], "NTC"[trans]);                                                  \
        return STUB_SUCCESS;                                                                    \
    }

LEVEL3(S, s, float, int, _v2, "fp32")
LEVEL3(S, s, float, int64_t, _v2_64, "fp32")
LEVEL3(D, d, double, int, _v2, "fp64")
LEVEL3(D, d, double, int64_t, _v2_64, "fp64")
