/* blas_level12.c: cuBLAS's level-1 and level-2 routines and geam, in single and double precision,
 * on the CPU (OpenBLAS's cblas_*) over the program's device memory, with cuBLAS's argument checks
 * and its conventions: scalars and results in host or device pointer mode, BLAS's negative
 * increments, 1-based indices from i?amax / i?amin. */
#include "blas.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>

/* the bytes a vector of n elements with increment inc spans */
static uint64_t vspan(int64_t n, int64_t inc, unsigned es)
{
    if (n <= 0)
        return 0;
    return ((uint64_t)(n - 1) * (uint64_t)(inc < 0 ? -inc : inc) + 1) * es;
}

/* a vector operand's host bytes (NULL when it spans nothing) */
#define VEC(call, what, p, n, inc, es) blas_bytes(call, what, p, vspan(n, inc, es))

/* writes a result in the handle's pointer mode */
static void put_result(const char *call, const struct stub_handle *h, void *res, const void *v,
                       unsigned size)
{
    if (h->pointer_mode == PTR_DEVICE)
        res = blas_bytes(call, "result", res, size);
    memcpy(res, v, size);
}

static int too_big(int64_t a, int64_t b) { return a > INT32_MAX || b > INT32_MAX || a < -INT32_MAX || b < -INT32_MAX; }

#define BIG(call) __cudaSmemlabUnsupported(call, "a size or increment of 2^31 or more: OpenBLAS's " \
                                           "interface takes 32-bit sizes")

/* ---- level 1 ---- */

#define LEVEL1(P, p, IP, T, I, SUF, PREC)                                                              \
    CUBLAS_API int cublas##P##axpy##SUF(struct stub_handle *h, I n, const T *alpha, const T *x,  \
                                        I incx, T *y, I incy);                                  \
    CUBLAS_API int cublas##P##axpy##SUF(struct stub_handle *h, I n, const T *alpha, const T *x,  \
                                        I incx, T *y, I incy)                                   \
    {                                                                                           \
        const char *call = "cublas" #P "axpy" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (!alpha)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(n, incx) || too_big(incy, 0))                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0) {                                                                            \
            const T *hx = VEC(call, "x", x, n, incx, sizeof(T));                                \
            T *hy = VEC(call, "y", y, n, incy, sizeof(T));                                      \
            cblas_##p##axpy((int)n, a, hx, (int)incx, hy, (int)incy);                           \
        }                                                                                       \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##scal##SUF(struct stub_handle *h, I n, const T *alpha, T *x, I incx); \
    CUBLAS_API int cublas##P##scal##SUF(struct stub_handle *h, I n, const T *alpha, T *x, I incx) \
    {                                                                                           \
        const char *call = "cublas" #P "scal" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (!alpha)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(n, incx))                                                                   \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0 && incx > 0)                                                                  \
            cblas_##p##scal((int)n, a, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);       \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##copy##SUF(struct stub_handle *h, I n, const T *x, I incx, T *y,    \
                                        I incy);                                                \
    CUBLAS_API int cublas##P##copy##SUF(struct stub_handle *h, I n, const T *x, I incx, T *y,    \
                                        I incy)                                                 \
    {                                                                                           \
        const char *call = "cublas" #P "copy" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (too_big(n, incx) || too_big(incy, 0))                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        if (n > 0)                                                                              \
            cblas_##p##copy((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,           \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);                  \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##swap##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy); \
    CUBLAS_API int cublas##P##swap##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy) \
    {                                                                                           \
        const char *call = "cublas" #P "swap" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (too_big(n, incx) || too_big(incy, 0))                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        if (n > 0)                                                                              \
            cblas_##p##swap((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,           \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);                  \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##dot##SUF(struct stub_handle *h, I n, const T *x, I incx,          \
                                       const T *y, I incy, T *result);                          \
    CUBLAS_API int cublas##P##dot##SUF(struct stub_handle *h, I n, const T *x, I incx,          \
                                       const T *y, I incy, T *result)                           \
    {                                                                                           \
        const char *call = "cublas" #P "dot" #SUF;                                              \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (!result)                                                                            \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(n, incx) || too_big(incy, 0))                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T r = 0;                                                                                \
        if (n > 0)                                                                              \
            r = cblas_##p##dot((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,        \
                               VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);               \
        put_result(call, h, result, &r, sizeof r);                                              \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    REDUCE(P, T, I, SUF, PREC, nrm2, T, nrm2, )                                                 \
    REDUCE(P, T, I, SUF, PREC, asum, T, asum, )                                                 \
    REDUCE(IP, T, I, SUF, PREC, amax, I, amax, +1)                                            \
    REDUCE(IP, T, I, SUF, PREC, amin, I, amin, +1)

/* nrm2, asum (result T) and i?amax, i?amin (result I: 1-based, 0 for n <= 0 or incx <= 0) */
#define REDUCE(NAME, T, I, SUF, PREC, OP, R, FN, ONE)                                           \
    CUBLAS_API int cublas##NAME##OP##SUF(struct stub_handle *h, I n, const T *x, I incx,        \
                                         R *result);                                            \
    CUBLAS_API int cublas##NAME##OP##SUF(struct stub_handle *h, I n, const T *x, I incx,        \
                                         R *result)                                             \
    {                                                                                           \
        const char *call = "cublas" #NAME #OP #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (!result)                                                                            \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(n, incx))                                                                   \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        R r = 0;                                                                                \
        if (n > 0 && incx > 0)                                                                  \
            r = (R)(FN##_of(x, sizeof(T), VEC(call, "x", x, n, incx, sizeof(T)), n, incx) ONE); \
        put_result(call, h, result, &r, sizeof r);                                              \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }

/* the reductions on host bytes hx (es: 4 float, 8 double) */
static double nrm2_of(const void *x, unsigned es, const void *hx, int64_t n, int64_t inc)
{
    (void)x;
    return es == 4 ? cblas_snrm2((int)n, hx, (int)inc) : cblas_dnrm2((int)n, hx, (int)inc);
}
static double asum_of(const void *x, unsigned es, const void *hx, int64_t n, int64_t inc)
{
    (void)x;
    return es == 4 ? cblas_sasum((int)n, hx, (int)inc) : cblas_dasum((int)n, hx, (int)inc);
}
/* 0-based index of the first element of largest (smallest) magnitude */
static int64_t extreme(const void *hx, unsigned es, int64_t n, int64_t inc, int smallest)
{
    int64_t best = 0;
    double bv = 0;
    for (int64_t i = 0; i < n; i++) {
        double v = es == 4 ? fabs((double)((const float *)hx)[i * inc])
                           : fabs(((const double *)hx)[i * inc]);
        if (i == 0 || (smallest ? v < bv : v > bv))
            best = i, bv = v;
    }
    return best;
}
static int64_t amax_of(const void *x, unsigned es, const void *hx, int64_t n, int64_t inc)
{
    (void)x;
    return extreme(hx, es, n, inc, 0);
}
static int64_t amin_of(const void *x, unsigned es, const void *hx, int64_t n, int64_t inc)
{
    (void)x;
    return extreme(hx, es, n, inc, 1);
}

LEVEL1(S, s, Is, float, int, _v2, "fp32")
LEVEL1(S, s, Is, float, int64_t, _v2_64, "fp32")
LEVEL1(D, d, Id, double, int, _v2, "fp64")
LEVEL1(D, d, Id, double, int64_t, _v2_64, "fp64")

/* ---- level 2: gemv, ger; geam ---- */

#define LEVEL2(P, p, T, I, SUF, GEAMSUF, PREC)                                                     \
    CUBLAS_API int cublas##P##gemv##SUF(struct stub_handle *h, int trans, I m, I n,             \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy);                           \
    CUBLAS_API int cublas##P##gemv##SUF(struct stub_handle *h, int trans, I m, I n,             \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy)                            \
    {                                                                                           \
        const char *call = "cublas" #P "gemv" #SUF;                                             \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (trans < OP_N || trans > OP_C || m < 0 || n < 0 || lda < (m > 1 ? m : 1) ||          \
            incx == 0 || incy == 0 || !alpha || !beta)                                          \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(m, n) || too_big(lda, incx) || too_big(incy, 0))                            \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        I lx = trans == OP_N ? n : m, ly = trans == OP_N ? m : n;                               \
        if (m > 0 && n > 0) {                                                                   \
            const T *ha = blas_bytes(call, "A", A, blas_span(m, n, lda, sizeof(T)));            \
            const T *hx = VEC(call, "x", x, lx, incx, sizeof(T));                               \
            T *hy = VEC(call, "y", y, ly, incy, sizeof(T));                                     \
            if (b == 0) /* y is not read */                                                     \
                for (I i = 0; i < ly; i++)                                                      \
                    hy[(incy > 0 ? i : ly - 1 - i) * (incy > 0 ? incy : -incy)] = 0;            \
            cblas_##p##gemv(CblasColMajor, trans == OP_N ? CblasNoTrans : CblasTrans, (int)m,   \
                            (int)n, a, ha, (int)lda, hx, (int)incx, b, hy, (int)incy);          \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld op=%c", (long long)m, (long long)n,          \
                    "NTC"[trans]);                                                              \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##ger##SUF(struct stub_handle *h, I m, I n, const T *alpha,         \
                                       const T *x, I incx, const T *y, I incy, T *A, I lda);    \
    CUBLAS_API int cublas##P##ger##SUF(struct stub_handle *h, I m, I n, const T *alpha,         \
                                       const T *x, I incx, const T *y, I incy, T *A, I lda)     \
    {                                                                                           \
        const char *call = "cublas" #P "ger" #SUF;                                              \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (m < 0 || n < 0 || incx == 0 || incy == 0 || lda < (m > 1 ? m : 1) || !alpha)        \
            return STUB_INVALID_VALUE;                                                          \
        if (too_big(m, n) || too_big(lda, incx) || too_big(incy, 0))                            \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                                 \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (m > 0 && n > 0)                                                                     \
            cblas_##p##ger(CblasColMajor, (int)m, (int)n, a, VEC(call, "x", x, m, incx, sizeof(T)), \
                           (int)incx, VEC(call, "y", y, n, incy, sizeof(T)), (int)incy,         \
                           blas_bytes(call, "A", A, blas_span(m, n, lda, sizeof(T))), (int)lda); \
        blas_record(call, t0, PREC, "m=%lld n=%lld", (long long)m, (long long)n);              \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##geam##GEAMSUF(struct stub_handle *h, int ta, int tb, I m, I n,    \
                                            const T *alpha, const T *A, I lda, const T *beta,   \
                                            const T *B, I ldb, T *C, I ldc);                    \
    CUBLAS_API int cublas##P##geam##GEAMSUF(struct stub_handle *h, int ta, int tb, I m, I n,    \
                                            const T *alpha, const T *A, I lda, const T *beta,   \
                                            const T *B, I ldb, T *C, I ldc)                     \
    {                                                                                           \
        const char *call = "cublas" #P "geam" #GEAMSUF;                                         \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        I ar = ta == OP_N ? m : n, br = tb == OP_N ? m : n;                                     \
        if (ta < OP_N || ta > OP_C || tb < OP_N || tb > OP_C || m < 0 || n < 0 ||               \
            lda < (ar > 1 ? ar : 1) || ldb < (br > 1 ? br : 1) || ldc < (m > 1 ? m : 1) ||      \
            !alpha || !beta)                                                                    \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                                 \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        if (m > 0 && n > 0) {                                                                   \
            I ac = ta == OP_N ? n : m, bc = tb == OP_N ? n : m;                                 \
            /* alpha 0: A is not read; beta 0: B is not read */                                 \
            const T *ha = a != 0 ? blas_bytes(call, "A", A, blas_span(ar, ac, lda, sizeof(T))) : NULL; \
            const T *hb = b != 0 ? blas_bytes(call, "B", B, blas_span(br, bc, ldb, sizeof(T))) : NULL; \
            T *hc = blas_bytes(call, "C", C, blas_span(m, n, ldc, sizeof(T)));                  \
            T *t = malloc((size_t)(m * n) * sizeof *t); /* C may be A or B (in place) */        \
            if (!t)                                                                             \
                return STUB_ALLOC_FAILED;                                                       \
            for (I j = 0; j < n; j++)                                                           \
                for (I i = 0; i < m; i++) {                                                     \
                    T v = 0;                                                                    \
                    if (ha)                                                                     \
                        v += a * ha[ta == OP_N ? i + j * lda : j + i * lda];                    \
                    if (hb)                                                                     \
                        v += b * hb[tb == OP_N ? i + j * ldb : j + i * ldb];                    \
                    t[i + j * m] = v;                                                           \
                }                                                                               \
            for (I j = 0; j < n; j++)                                                           \
                memcpy(hc + j * ldc, t + j * m, (size_t)m * sizeof *t);                         \
            free(t);                                                                            \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld op=%c%c", (long long)m, (long long)n,        \
                    "NTC"[ta], "NTC"[tb]);                                                      \
        return STUB_SUCCESS;                                                                    \
    }

LEVEL2(S, s, float, int, _v2, , "fp32")
LEVEL2(S, s, float, int64_t, _v2_64, _64, "fp32")
LEVEL2(D, d, double, int, _v2, , "fp64")
LEVEL2(D, d, double, int64_t, _v2_64, _64, "fp64")
