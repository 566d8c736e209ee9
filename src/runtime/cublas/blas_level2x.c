/* blas_level2x.c: the rest of cuBLAS's level-1 and level-2 routines NVIDIA's examples and tutorial
 * programs call, on the CPU (OpenBLAS's cblas_*) over the program's device memory, with cuBLAS's
 * argument checks: complex axpy / scal / copy / swap / dotu / dotc / nrm2 / asum / amax / amin,
 * rot / rotg / rotm / rotmg; triangular (trmv, trsv), banded (gbmv, sbmv, tbmv, tbsv, hbmv),
 * packed (spmv, spr, spr2, tpmv, tpsv, hpmv, hpr, hpr2), symmetric (symv, syr, syr2: S and D) and
 * Hermitian (hemv, her, her2) matrices; dgmm. Scalars and results in either pointer mode. The S/D
 * level-1/2 routines llm.c and the cuda-samples use are in blas_level12.c. */
#include "blas.h"

#include <cblas.h>
#include <stdlib.h>

typedef struct { float x, y; } cf32;
typedef struct { double x, y; } cf64;

/* cublasFillMode_t, cublasDiagType_t, cublasSideMode_t */
enum { FILL_LOWER = 0, FILL_UPPER = 1 };
enum { DIAG_NON_UNIT = 0, DIAG_UNIT = 1 };
enum { SIDE_LEFT = 0, SIDE_RIGHT = 1 };

static uint64_t vspan(int64_t n, int64_t inc, unsigned es)
{
    if (n <= 0)
        return 0;
    return ((uint64_t)(n - 1) * (uint64_t)(inc < 0 ? -inc : inc) + 1) * es;
}
#define VEC(call, what, p, n, inc, es) blas_bytes(call, what, p, vspan(n, inc, es))
#define PACKED(n) ((uint64_t)(n) * (uint64_t)((n) + 1) / 2)

static void put_result(const char *call, const struct stub_handle *h, void *res, const void *v,
                       unsigned size)
{
    if (h->pointer_mode == PTR_DEVICE)
        res = blas_bytes(call, "result", res, size);
    memcpy(res, v, size);
}

static int big(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a > INT32_MAX || b > INT32_MAX || c > INT32_MAX || d > INT32_MAX || a < -INT32_MAX ||
           b < -INT32_MAX || c < -INT32_MAX || d < -INT32_MAX;
}
#define BIG(call) __cudaSmemlabUnsupported(call, "a size or increment of 2^31 or more: OpenBLAS's " \
                                           "interface takes 32-bit sizes")
#define BAD_UPLO(u) ((u) != FILL_LOWER && (u) != FILL_UPPER)
#define BAD_OP(t) ((t) < OP_N || (t) > OP_C)
#define BAD_DIAG(d) ((d) != DIAG_NON_UNIT && (d) != DIAG_UNIT)
#define CB_UPLO(u) ((u) == FILL_LOWER ? CblasLower : CblasUpper)
#define CB_OP(t) ((t) == OP_N ? CblasNoTrans : (t) == OP_T ? CblasTrans : CblasConjTrans)
#define CB_DIAG(d) ((d) == DIAG_UNIT ? CblasUnit : CblasNonUnit)
/* cblas takes real scalars by value, complex ones by pointer */
#define V_s(x) (x)
#define V_d(x) (x)
#define V_c(x) (&(x))
#define V_z(x) (&(x))
/* beta 0: y is not read (cuBLAS: it may hold NaN) */
#define ZERO_IF(beta_zero, y, n, inc, T)                                                        \
    do {                                                                                        \
        if (beta_zero)                                                                          \
            for (int64_t i_ = 0; i_ < (n); i_++)                                                \
                memset((T *)(y) + i_ * ((inc) < 0 ? -(inc) : (inc)), 0, sizeof(T));             \
    } while (0)
static int zero_s(float v) { return v == 0; }
static int zero_d(double v) { return v == 0; }
static int zero_c(cf32 v) { return v.x == 0 && v.y == 0; }
static int zero_z(cf64 v) { return v.x == 0 && v.y == 0; }

#define HEAD(NAME)                                                                              \
    const char *call = NAME;                                                                    \
    if (!h)                                                                                     \
        return STUB_NOT_INITIALIZED;

/* ---- level 1, complex ---- */
#define CLEVEL1(P, p, T, R, PR, IP, I, SUF, PREC)                                                     \
    CUBLAS_API int cublas##P##axpy##SUF(struct stub_handle *h, I n, const T *alpha, const T *x,  \
                                        I incx, T *y, I incy);                                  \
    CUBLAS_API int cublas##P##axpy##SUF(struct stub_handle *h, I n, const T *alpha, const T *x,  \
                                        I incx, T *y, I incy)                                   \
    {                                                                                           \
        HEAD("cublas" #P "axpy" #SUF)                                                           \
        if (!alpha)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0)                                                                              \
            cblas_##p##axpy((int)n, &a, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,       \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);                  \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##scal##SUF(struct stub_handle *h, I n, const T *alpha, T *x, I incx); \
    CUBLAS_API int cublas##P##scal##SUF(struct stub_handle *h, I n, const T *alpha, T *x, I incx) \
    {                                                                                           \
        HEAD("cublas" #P "scal" #SUF)                                                           \
        if (!alpha)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, 0, 0))                                                                 \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0 && incx > 0)                                                                  \
            cblas_##p##scal((int)n, &a, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);      \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##PR##scal##SUF(struct stub_handle *h, I n, const R *alpha, T *x,    \
                                            I incx);                                            \
    CUBLAS_API int cublas##P##PR##scal##SUF(struct stub_handle *h, I n, const R *alpha, T *x,    \
                                            I incx)                                             \
    {                                                                                           \
        HEAD("cublas" #P #PR "scal" #SUF)                                                       \
        if (!alpha)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, 0, 0))                                                                 \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        R a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0 && incx > 0)                                                                  \
            cblas_##p##PR##scal((int)n, a, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);   \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##copy##SUF(struct stub_handle *h, I n, const T *x, I incx, T *y,    \
                                        I incy);                                                \
    CUBLAS_API int cublas##P##copy##SUF(struct stub_handle *h, I n, const T *x, I incx, T *y,    \
                                        I incy)                                                 \
    {                                                                                           \
        HEAD("cublas" #P "copy" #SUF)                                                           \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0)                                                                              \
            cblas_##p##copy((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,           \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);                  \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##swap##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy); \
    CUBLAS_API int cublas##P##swap##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy) \
    {                                                                                           \
        HEAD("cublas" #P "swap" #SUF)                                                           \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0)                                                                              \
            cblas_##p##swap((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,           \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy);                  \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CDOT(P, p, T, I, SUF, PREC, u)                                                              \
    CDOT(P, p, T, I, SUF, PREC, c)                                                              \
    CREDUCE(IP, P, T, R, I, SUF, PREC)

#define CDOT(P, p, T, I, SUF, PREC, UC)                                                         \
    CUBLAS_API int cublas##P##dot##UC##SUF(struct stub_handle *h, I n, const T *x, I incx,      \
                                           const T *y, I incy, T *result);                      \
    CUBLAS_API int cublas##P##dot##UC##SUF(struct stub_handle *h, I n, const T *x, I incx,      \
                                           const T *y, I incy, T *result)                       \
    {                                                                                           \
        HEAD("cublas" #P "dot" #UC #SUF)                                                        \
        if (!result)                                                                            \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T r = {0, 0};                                                                           \
        if (n > 0)                                                                              \
            cblas_##p##dot##UC##_sub((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,  \
                                     VEC(call, "y", y, n, incy, sizeof(T)), (int)incy, &r);     \
        put_result(call, h, result, &r, sizeof r);                                              \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }

/* cublasScnrm2 / Scasum (result R: OpenBLAS's sc / dz NAME), Icamax / Icamin (1-based: |re| +
 * |im| as BLAS's i?amax) */
#define CREAL1(IP, T, R, I, SUF, PREC, NAME)                                                    \
    CUBLAS_API int cublas##IP##NAME##SUF(struct stub_handle *h, I n, const T *x, I incx, R *result); \
    CUBLAS_API int cublas##IP##NAME##SUF(struct stub_handle *h, I n, const T *x, I incx, R *result) \
    {                                                                                           \
        HEAD("cublas" #IP #NAME #SUF)                                                           \
        if (!result)                                                                            \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        R r = 0;                                                                                \
        if (n > 0 && incx > 0)                                                                  \
            r = (R)(sizeof(R) == 4 ? cblas_sc##NAME((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx) \
                                   : cblas_dz##NAME((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx)); \
        put_result(call, h, result, &r, sizeof r);                                              \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }

#define CREDUCE(IP, P, T, R, I, SUF, PREC)                                                      \
    CREAL1(IP, T, R, I, SUF, PREC, nrm2)                                                        \
    CREAL1(IP, T, R, I, SUF, PREC, asum)                                                        \
    CAMAX(P, T, I, SUF, PREC, amax, >)                                                          \
    CAMAX(P, T, I, SUF, PREC, amin, <)

#define CAMAX(P, T, I, SUF, PREC, OP, CMP)                                                      \
    CUBLAS_API int cublasI##P##OP##SUF(struct stub_handle *h, I n, const T *x, I incx, I *result); \
    CUBLAS_API int cublasI##P##OP##SUF(struct stub_handle *h, I n, const T *x, I incx, I *result) \
    {                                                                                           \
        HEAD("cublasI" #P #OP #SUF)                                                             \
        if (!result)                                                                            \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        I r = 0;                                                                                \
        if (n > 0 && incx > 0) {                                                                \
            const T *hx = VEC(call, "x", x, n, incx, sizeof(T));                                \
            double best = 0;                                                                    \
            for (I i = 0; i < n; i++) {                                                         \
                T v = hx[i * incx];                                                             \
                double m = (v.x < 0 ? -(double)v.x : (double)v.x) + (v.y < 0 ? -(double)v.y : (double)v.y); \
                if (i == 0 || m CMP best)                                                       \
                    best = m, r = i + 1;                                                        \
            }                                                                                   \
        }                                                                                       \
        put_result(call, h, result, &r, sizeof r);                                              \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }

CLEVEL1(C, c, cf32, float, s, Sc, int, _v2, "complex fp32")
CLEVEL1(C, c, cf32, float, s, Sc, int64_t, _v2_64, "complex fp32")
CLEVEL1(Z, z, cf64, double, d, Dz, int, _v2, "complex fp64")
CLEVEL1(Z, z, cf64, double, d, Dz, int64_t, _v2_64, "complex fp64")

/* ---- plane rotations (S, D; Csrot / Zdrot: real c and s on complex vectors) ---- */
#define ROT(NAME, cb, T, R, I, SUF, PREC)                                                       \
    CUBLAS_API int NAME##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy, const R *c, \
                             const R *s);                                                       \
    CUBLAS_API int NAME##SUF(struct stub_handle *h, I n, T *x, I incx, T *y, I incy, const R *c, \
                             const R *s)                                                        \
    {                                                                                           \
        HEAD(#NAME #SUF)                                                                        \
        if (!c || !s)                                                                           \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        R cv, sv;                                                                               \
        blas_scalar(call, "c", h, c, sizeof cv, &cv);                                           \
        blas_scalar(call, "s", h, s, sizeof sv, &sv);                                           \
        if (n > 0)                                                                              \
            cb((int)n, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,                        \
               VEC(call, "y", y, n, incy, sizeof(T)), (int)incy, cv, sv);                       \
        blas_record(call, t0, PREC, "n=%lld", (long long)n);                                    \
        return STUB_SUCCESS;                                                                    \
    }
ROT(cublasSrot, cblas_srot, float, float, int, _v2, "fp32")
ROT(cublasSrot, cblas_srot, float, float, int64_t, _v2_64, "fp32")
ROT(cublasDrot, cblas_drot, double, double, int, _v2, "fp64")
ROT(cublasDrot, cblas_drot, double, double, int64_t, _v2_64, "fp64")
ROT(cublasCsrot, cblas_csrot, cf32, float, int, _v2, "complex fp32")
ROT(cublasCsrot, cblas_csrot, cf32, float, int64_t, _v2_64, "complex fp32")
ROT(cublasZdrot, cblas_zdrot, cf64, double, int, _v2, "complex fp64")
ROT(cublasZdrot, cblas_zdrot, cf64, double, int64_t, _v2_64, "complex fp64")

/* a scalar argument that the call reads and writes, in the handle's pointer mode */
static void *inout(const char *call, const char *what, const struct stub_handle *h, void *p,
                   unsigned size)
{
    return h->pointer_mode == PTR_DEVICE ? blas_bytes(call, what, p, size) : p;
}

#define ROTG(P, p, T)                                                                           \
    CUBLAS_API int cublas##P##rotg_v2(struct stub_handle *h, T *a, T *b, T *c, T *s);           \
    CUBLAS_API int cublas##P##rotg_v2(struct stub_handle *h, T *a, T *b, T *c, T *s)            \
    {                                                                                           \
        HEAD("cublas" #P "rotg_v2")                                                             \
        if (!a || !b || !c || !s)                                                               \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        cblas_##p##rotg(inout(call, "a", h, a, sizeof(T)), inout(call, "b", h, b, sizeof(T)),   \
                        inout(call, "c", h, c, sizeof(T)), inout(call, "s", h, s, sizeof(T)));  \
        blas_record(call, t0, sizeof(T) == 4 ? "fp32" : "fp64", "n=1");                                                         \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##rotm_v2(struct stub_handle *h, int n, T *x, int incx, T *y,       \
                                      int incy, const T *param);                                \
    CUBLAS_API int cublas##P##rotm_v2(struct stub_handle *h, int n, T *x, int incx, T *y,       \
                                      int incy, const T *param)                                 \
    {                                                                                           \
        HEAD("cublas" #P "rotm_v2")                                                             \
        if (!param)                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        T prm[5];                                                                               \
        memcpy(prm, inout(call, "param", h, (void *)param, sizeof prm), sizeof prm);            \
        if (n > 0)                                                                              \
            cblas_##p##rotm(n, VEC(call, "x", x, n, incx, sizeof(T)), incx,                     \
                            VEC(call, "y", y, n, incy, sizeof(T)), incy, prm);                  \
        blas_record(call, t0, sizeof(T) == 4 ? "fp32" : "fp64", "n=%d", n);                                                   \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##rotmg_v2(struct stub_handle *h, T *d1, T *d2, T *x1, const T *y1, \
                                       T *param);                                               \
    CUBLAS_API int cublas##P##rotmg_v2(struct stub_handle *h, T *d1, T *d2, T *x1, const T *y1, \
                                       T *param)                                                \
    {                                                                                           \
        HEAD("cublas" #P "rotmg_v2")                                                            \
        if (!d1 || !d2 || !x1 || !y1 || !param)                                                 \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        T yv;                                                                                   \
        blas_scalar(call, "y1", h, y1, sizeof yv, &yv);                                         \
        cblas_##p##rotmg(inout(call, "d1", h, d1, sizeof(T)), inout(call, "d2", h, d2, sizeof(T)), \
                         inout(call, "x1", h, x1, sizeof(T)), yv,                               \
                         inout(call, "param", h, param, 5 * sizeof(T)));                        \
        blas_record(call, t0, sizeof(T) == 4 ? "fp32" : "fp64", "n=1");                                                         \
        return STUB_SUCCESS;                                                                    \
    }
ROTG(S, s, float)
ROTG(D, d, double)

/* ---- level 2: triangular, banded, packed ---- */
#define TRI2(P, p, T, I, SUF, PREC)                                                             \
    TRXV(P, p, T, I, SUF, PREC, trmv)                                                           \
    TRXV(P, p, T, I, SUF, PREC, trsv)                                                           \
    TBXV(P, p, T, I, SUF, PREC, tbmv)                                                           \
    TBXV(P, p, T, I, SUF, PREC, tbsv)                                                           \
    TPXV(P, p, T, I, SUF, PREC, tpmv)                                                           \
    TPXV(P, p, T, I, SUF, PREC, tpsv)                                                           \
    GBMV(P, p, T, I, SUF, PREC)

#define TRXV(P, p, T, I, SUF, PREC, OP)                                                         \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      const T *A, I lda, T *x, I incx);                         \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      const T *A, I lda, T *x, I incx)                          \
    {                                                                                           \
        HEAD("cublas" #P #OP #SUF)                                                              \
        if (BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || n < 0 ||                       \
            lda < (n > 1 ? n : 1) || incx == 0)                                                 \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, lda, incx, 0))                                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0)                                                                              \
            cblas_##p##OP(CblasColMajor, CB_UPLO(uplo), CB_OP(trans), CB_DIAG(diag), (int)n,    \
                          blas_in(call, "A", A, blas_span(n, n, lda, sizeof(T))), (int)lda,     \
                          VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);                    \
        blas_record(call, t0, PREC, "n=%lld uplo=%c op=%c", (long long)n, "LU"[uplo], "NTC"[trans]); \
        return STUB_SUCCESS;                                                                    \
    }
#define TBXV(P, p, T, I, SUF, PREC, OP)                                                         \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      I k, const T *A, I lda, T *x, I incx);                    \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      I k, const T *A, I lda, T *x, I incx)                     \
    {                                                                                           \
        HEAD("cublas" #P #OP #SUF)                                                              \
        if (BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || n < 0 || k < 0 ||              \
            lda < k + 1 || incx == 0)                                                           \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, k, lda, incx))                                                               \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0)                                                                              \
            cblas_##p##OP(CblasColMajor, CB_UPLO(uplo), CB_OP(trans), CB_DIAG(diag), (int)n,    \
                          (int)k, blas_in(call, "A", A, blas_span(k + 1, n, lda, sizeof(T))),   \
                          (int)lda, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);          \
        blas_record(call, t0, PREC, "n=%lld k=%lld uplo=%c op=%c", (long long)n, (long long)k,  \
                    "LU"[uplo], "NTC"[trans]);                                                  \
        return STUB_SUCCESS;                                                                    \
    }
#define TPXV(P, p, T, I, SUF, PREC, OP)                                                         \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      const T *AP, T *x, I incx);                               \
    CUBLAS_API int cublas##P##OP##SUF(struct stub_handle *h, int uplo, int trans, int diag, I n, \
                                      const T *AP, T *x, I incx)                                \
    {                                                                                           \
        HEAD("cublas" #P #OP #SUF)                                                              \
        if (BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || n < 0 || incx == 0)            \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, 0, 0))                                                                 \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0)                                                                              \
            cblas_##p##OP(CblasColMajor, CB_UPLO(uplo), CB_OP(trans), CB_DIAG(diag), (int)n,    \
                          blas_in(call, "AP", AP, PACKED(n) * sizeof(T)),                       \
                          VEC(call, "x", x, n, incx, sizeof(T)), (int)incx);                    \
        blas_record(call, t0, PREC, "n=%lld uplo=%c op=%c", (long long)n, "LU"[uplo], "NTC"[trans]); \
        return STUB_SUCCESS;                                                                    \
    }
#define GBMV(P, p, T, I, SUF, PREC)                                                             \
    CUBLAS_API int cublas##P##gbmv##SUF(struct stub_handle *h, int trans, I m, I n, I kl, I ku,  \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy);                           \
    CUBLAS_API int cublas##P##gbmv##SUF(struct stub_handle *h, int trans, I m, I n, I kl, I ku,  \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy)                            \
    {                                                                                           \
        HEAD("cublas" #P "gbmv" #SUF)                                                           \
        if (BAD_OP(trans) || m < 0 || n < 0 || kl < 0 || ku < 0 || lda < kl + ku + 1 ||         \
            incx == 0 || incy == 0 || !alpha || !beta)                                          \
            return STUB_INVALID_VALUE;                                                          \
        if (big(m, n, lda, incx) || big(incy, kl, ku, 0))                                       \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        I lx = trans == OP_N ? n : m, ly = trans == OP_N ? m : n;                               \
        if (m > 0 && n > 0) {                                                                   \
            T *hy = VEC(call, "y", y, ly, incy, sizeof(T));                                     \
            ZERO_IF(zero_##p(b), hy, ly, incy, T);                                              \
            cblas_##p##gbmv(CblasColMajor, CB_OP(trans), (int)m, (int)n, (int)kl, (int)ku,      \
                            V_##p(a), blas_in(call, "A", A, blas_span(kl + ku + 1, n, lda, sizeof(T))), \
                            (int)lda, VEC(call, "x", x, lx, incx, sizeof(T)), (int)incx,        \
                            V_##p(b), hy, (int)incy);                                           \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld kl=%lld ku=%lld op=%c", (long long)m,        \
                    (long long)n, (long long)kl, (long long)ku, "NTC"[trans]);                  \
        return STUB_SUCCESS;                                                                    \
    }

TRI2(S, s, float, int, _v2, "fp32")
TRI2(S, s, float, int64_t, _v2_64, "fp32")
TRI2(D, d, double, int, _v2, "fp64")
TRI2(D, d, double, int64_t, _v2_64, "fp64")
TRI2(C, c, cf32, int, _v2, "complex fp32")
TRI2(C, c, cf32, int64_t, _v2_64, "complex fp32")
TRI2(Z, z, cf64, int, _v2, "complex fp64")
TRI2(Z, z, cf64, int64_t, _v2_64, "complex fp64")

/* ---- level 2: symmetric (real) and Hermitian (complex): y = alpha A x + beta y, rank updates ---- */
/* NAME: symv / hemv (full), sbmv / hbmv (banded), spmv / hpmv (packed) */
#define XMV(P, p, T, I, SUF, PREC, NAME)                                                        \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *A, I lda, const T *x, I incx, const T *beta,   \
                                        T *y, I incy);                                          \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *A, I lda, const T *x, I incx, const T *beta,   \
                                        T *y, I incy)                                           \
    {                                                                                           \
        HEAD("cublas" #P #NAME #SUF)                                                            \
        if (BAD_UPLO(uplo) || n < 0 || lda < (n > 1 ? n : 1) || incx == 0 || incy == 0 ||       \
            !alpha || !beta)                                                                    \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, lda, incx, incy))                                                            \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        if (n > 0) {                                                                            \
            T *hy = VEC(call, "y", y, n, incy, sizeof(T));                                      \
            ZERO_IF(zero_##p(b), hy, n, incy, T);                                               \
            cblas_##p##NAME(CblasColMajor, CB_UPLO(uplo), (int)n, V_##p(a),                     \
                            blas_in(call, "A", A, blas_span(n, n, lda, sizeof(T))), (int)lda,   \
                            VEC(call, "x", x, n, incx, sizeof(T)), (int)incx, V_##p(b), hy,     \
                            (int)incy);                                                         \
        }                                                                                       \
        blas_record(call, t0, PREC, "n=%lld uplo=%c", (long long)n, "LU"[uplo]);                \
        return STUB_SUCCESS;                                                                    \
    }
#define XBMV(P, p, T, I, SUF, PREC, NAME)                                                       \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, I k,              \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy);                           \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, I k,              \
                                        const T *alpha, const T *A, I lda, const T *x, I incx,  \
                                        const T *beta, T *y, I incy)                            \
    {                                                                                           \
        HEAD("cublas" #P #NAME #SUF)                                                            \
        if (BAD_UPLO(uplo) || n < 0 || k < 0 || lda < k + 1 || incx == 0 || incy == 0 ||        \
            !alpha || !beta)                                                                    \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, lda, incx, incy) || big(k, 0, 0, 0))                                         \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        if (n > 0) {                                                                            \
            T *hy = VEC(call, "y", y, n, incy, sizeof(T));                                      \
            ZERO_IF(zero_##p(b), hy, n, incy, T);                                               \
            cblas_##p##NAME(CblasColMajor, CB_UPLO(uplo), (int)n, (int)k, V_##p(a),             \
                            blas_in(call, "A", A, blas_span(k + 1, n, lda, sizeof(T))),         \
                            (int)lda, VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,         \
                            V_##p(b), hy, (int)incy);                                           \
        }                                                                                       \
        blas_record(call, t0, PREC, "n=%lld k=%lld uplo=%c", (long long)n, (long long)k,        \
                    "LU"[uplo]);                                                                \
        return STUB_SUCCESS;                                                                    \
    }
#define XPMV(P, p, T, I, SUF, PREC, NAME)                                                       \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *AP, const T *x, I incx, const T *beta, T *y,   \
                                        I incy);                                                \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *AP, const T *x, I incx, const T *beta, T *y,   \
                                        I incy)                                                 \
    {                                                                                           \
        HEAD("cublas" #P #NAME #SUF)                                                            \
        if (BAD_UPLO(uplo) || n < 0 || incx == 0 || incy == 0 || !alpha || !beta)               \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a, b;                                                                                 \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        blas_scalar(call, "beta", h, beta, sizeof b, &b);                                       \
        if (n > 0) {                                                                            \
            T *hy = VEC(call, "y", y, n, incy, sizeof(T));                                      \
            ZERO_IF(zero_##p(b), hy, n, incy, T);                                               \
            cblas_##p##NAME(CblasColMajor, CB_UPLO(uplo), (int)n, V_##p(a),                     \
                            blas_in(call, "AP", AP, PACKED(n) * sizeof(T)),                     \
                            VEC(call, "x", x, n, incx, sizeof(T)), (int)incx, V_##p(b), hy,     \
                            (int)incy);                                                         \
        }                                                                                       \
        blas_record(call, t0, PREC, "n=%lld uplo=%c", (long long)n, "LU"[uplo]);                \
        return STUB_SUCCESS;                                                                    \
    }
/* rank-1 updates: syr / her (alpha R), spr / hpr (packed); rank-2: syr2 / her2, spr2 / hpr2 */
#define XR(P, p, T, R, I, SUF, PREC, NAME, PACK, VA)                                            \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const R *alpha,   \
                                        const T *x, I incx, T *A PACK_ARGS_##PACK(I));          \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const R *alpha,   \
                                        const T *x, I incx, T *A PACK_ARGS_##PACK(I))           \
    {                                                                                           \
        HEAD("cublas" #P #NAME #SUF)                                                            \
        if (BAD_UPLO(uplo) || n < 0 || incx == 0 || !alpha || PACK_BAD_##PACK(n))               \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, 0, 0))                                                                 \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        R a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0)                                                                              \
            cblas_##p##NAME(CblasColMajor, CB_UPLO(uplo), (int)n, VA(a),                        \
                            VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,                   \
                            blas_bytes(call, "A", A, PACK_SPAN_##PACK(n, sizeof(T)))            \
                                PACK_PASS_##PACK);                                              \
        blas_record(call, t0, PREC, "n=%lld uplo=%c", (long long)n, "LU"[uplo]);                \
        return STUB_SUCCESS;                                                                    \
    }
#define XR2(P, p, T, I, SUF, PREC, NAME, PACK)                                                  \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *x, I incx, const T *y, I incy,                 \
                                        T *A PACK_ARGS_##PACK(I));                              \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, I n, const T *alpha,   \
                                        const T *x, I incx, const T *y, I incy,                 \
                                        T *A PACK_ARGS_##PACK(I))                               \
    {                                                                                           \
        HEAD("cublas" #P #NAME #SUF)                                                            \
        if (BAD_UPLO(uplo) || n < 0 || incx == 0 || incy == 0 || !alpha || PACK_BAD_##PACK(n))  \
            return STUB_INVALID_VALUE;                                                          \
        if (big(n, incx, incy, 0))                                                              \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (n > 0)                                                                              \
            cblas_##p##NAME(CblasColMajor, CB_UPLO(uplo), (int)n, V_##p(a),                     \
                            VEC(call, "x", x, n, incx, sizeof(T)), (int)incx,                   \
                            VEC(call, "y", y, n, incy, sizeof(T)), (int)incy,                   \
                            blas_bytes(call, "A", A, PACK_SPAN_##PACK(n, sizeof(T)))            \
                                PACK_PASS_##PACK);                                              \
        blas_record(call, t0, PREC, "n=%lld uplo=%c", (long long)n, "LU"[uplo]);                \
        return STUB_SUCCESS;                                                                    \
    }
/* full storage (A, lda) or packed (AP) */
#define PACK_ARGS_full(I) , I lda
#define PACK_ARGS_packed(I)
#define PACK_BAD_full(n) (lda < ((n) > 1 ? (n) : 1))
#define PACK_BAD_packed(n) 0
#define PACK_SPAN_full(n, es) blas_span(n, n, lda, es)
#define PACK_SPAN_packed(n, es) (PACKED(n) * (es))
#define PACK_PASS_full , (int)lda
#define PACK_PASS_packed
#define BYVAL(x) (x)

#define REAL2(P, p, T, I, SUF, PREC)                                                            \
    XMV(P, p, T, I, SUF, PREC, symv)                                                            \
    XBMV(P, p, T, I, SUF, PREC, sbmv)                                                           \
    XPMV(P, p, T, I, SUF, PREC, spmv)                                                           \
    XR(P, p, T, T, I, SUF, PREC, syr, full, BYVAL)                                              \
    XR(P, p, T, T, I, SUF, PREC, spr, packed, BYVAL)                                            \
    XR2(P, p, T, I, SUF, PREC, syr2, full)                                                      \
    XR2(P, p, T, I, SUF, PREC, spr2, packed)
#define HERM2(P, p, T, R, I, SUF, PREC)                                                         \
    XMV(P, p, T, I, SUF, PREC, hemv)                                                            \
    XBMV(P, p, T, I, SUF, PREC, hbmv)                                                           \
    XPMV(P, p, T, I, SUF, PREC, hpmv)                                                           \
    XR(P, p, T, R, I, SUF, PREC, her, full, BYVAL)                                              \
    XR(P, p, T, R, I, SUF, PREC, hpr, packed, BYVAL)                                            \
    XR2(P, p, T, I, SUF, PREC, her2, full)                                                      \
    XR2(P, p, T, I, SUF, PREC, hpr2, packed)

REAL2(S, s, float, int, _v2, "fp32")
REAL2(S, s, float, int64_t, _v2_64, "fp32")
REAL2(D, d, double, int, _v2, "fp64")
REAL2(D, d, double, int64_t, _v2_64, "fp64")
HERM2(C, c, cf32, float, int, _v2, "complex fp32")
HERM2(C, c, cf32, float, int64_t, _v2_64, "complex fp32")
HERM2(Z, z, cf64, double, int, _v2, "complex fp64")
HERM2(Z, z, cf64, double, int64_t, _v2_64, "complex fp64")

/* ---- dgmm: C = A diag(x) (side right) or diag(x) A (side left) ---- */
static void mul_s(void *c, const void *a, const void *x) { *(float *)c = *(const float *)a * *(const float *)x; }
static void mul_d(void *c, const void *a, const void *x) { *(double *)c = *(const double *)a * *(const double *)x; }
static void mul_c(void *c, const void *a, const void *x)
{
    cf32 p = *(const cf32 *)a, q = *(const cf32 *)x;
    *(cf32 *)c = (cf32){p.x * q.x - p.y * q.y, p.x * q.y + p.y * q.x};
}
static void mul_z(void *c, const void *a, const void *x)
{
    cf64 p = *(const cf64 *)a, q = *(const cf64 *)x;
    *(cf64 *)c = (cf64){p.x * q.x - p.y * q.y, p.x * q.y + p.y * q.x};
}
#define DGMM(P, p, T, I, SUF, PREC)                                                             \
    CUBLAS_API int cublas##P##dgmm##SUF(struct stub_handle *h, int side, I m, I n, const T *A,  \
                                        I lda, const T *x, I incx, T *C, I ldc);                \
    CUBLAS_API int cublas##P##dgmm##SUF(struct stub_handle *h, int side, I m, I n, const T *A,  \
                                        I lda, const T *x, I incx, T *C, I ldc)                 \
    {                                                                                           \
        HEAD("cublas" #P "dgmm" #SUF)                                                           \
        if ((side != SIDE_LEFT && side != SIDE_RIGHT) || m < 0 || n < 0 ||                      \
            lda < (m > 1 ? m : 1) || ldc < (m > 1 ? m : 1))                                     \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        if (m > 0 && n > 0) {                                                                   \
            I lx = side == SIDE_LEFT ? m : n, inc = incx < 0 ? -incx : incx;                    \
            const T *ha = blas_in(call, "A", A, blas_span(m, n, lda, sizeof(T)));               \
            /* incx 0: every element is x[0]; a negative increment starts at the end */         \
            const T *hx = blas_in(call, "x", x, inc ? vspan(lx, inc, sizeof(T)) : sizeof(T));   \
            T *hc = blas_bytes(call, "C", C, blas_span(m, n, ldc, sizeof(T)));                  \
            for (I j = 0; j < n; j++)                                                           \
                for (I i = 0; i < m; i++) {                                                     \
                    I e = side == SIDE_LEFT ? i : j;                                            \
                    I xi = incx == 0 ? 0 : incx > 0 ? e * incx : (lx - 1 - e) * inc;            \
                    T v;                                                                        \
                    mul_##p(&v, ha + i + j * lda, hx + xi);                                     \
                    hc[i + j * ldc] = v;                                                        \
                }                                                                               \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld side=%c", (long long)m, (long long)n,        \
                    "LR"[side]);                                                                \
        return STUB_SUCCESS;                                                                    \
    }
DGMM(S, s, float, int, , "fp32")
DGMM(S, s, float, int64_t, _64, "fp32")
DGMM(D, d, double, int, , "fp64")
DGMM(D, d, double, int64_t, _64, "fp64")
DGMM(C, c, cf32, int, , "complex fp32")
DGMM(C, c, cf32, int64_t, _64, "complex fp32")
DGMM(Z, z, cf64, int, , "complex fp64")
DGMM(Z, z, cf64, int64_t, _64, "complex fp64")

/* ---- tpttr / trttp: a triangle between packed (AP) and full (A, lda) storage ---- */
/* the packed index of (i, j) in triangle uplo of an n x n matrix (column-major packing) */
static uint64_t packed_at(int uplo, int64_t n, int64_t i, int64_t j)
{
    return uplo == FILL_LOWER ? (uint64_t)(j * (2 * n - j + 1) / 2 + (i - j))
                              : (uint64_t)(i + j * (j + 1) / 2);
}
#define PACK(P, T, I, SUF)                                                                      \
    CUBLAS_API int cublas##P##tpttr##SUF(struct stub_handle *h, int uplo, I n, const T *AP, T *A, \
                                         I lda);                                                \
    CUBLAS_API int cublas##P##tpttr##SUF(struct stub_handle *h, int uplo, I n, const T *AP, T *A, \
                                         I lda)                                                 \
    {                                                                                           \
        HEAD("cublas" #P "tpttr" #SUF)                                                          \
        if (BAD_UPLO(uplo) || n < 0 || lda < (n > 1 ? n : 1))                                   \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0) {                                                                            \
            const T *hp = blas_in(call, "AP", AP, PACKED(n) * sizeof(T));                       \
            T *ha = blas_bytes(call, "A", A, blas_span(n, n, lda, sizeof(T)));                  \
            for (I j = 0; j < n; j++)                                                           \
                for (I i = uplo == FILL_LOWER ? j : 0; i < (uplo == FILL_LOWER ? n : j + 1); i++) \
                    ha[i + j * lda] = hp[packed_at(uplo, n, i, j)];                             \
        }                                                                                       \
        blas_record(call, t0, sizeof(T) == 4 ? "fp32" : "fp64", "n=%lld uplo=%c", (long long)n, "LU"[uplo]); \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##trttp##SUF(struct stub_handle *h, int uplo, I n, const T *A, I lda, \
                                         T *AP);                                                \
    CUBLAS_API int cublas##P##trttp##SUF(struct stub_handle *h, int uplo, I n, const T *A, I lda, \
                                         T *AP)                                                 \
    {                                                                                           \
        HEAD("cublas" #P "trttp" #SUF)                                                          \
        if (BAD_UPLO(uplo) || n < 0 || lda < (n > 1 ? n : 1))                                   \
            return STUB_INVALID_VALUE;                                                          \
        double t0 = blas_start();                                                               \
        if (n > 0) {                                                                            \
            const T *ha = blas_in(call, "A", A, blas_span(n, n, lda, sizeof(T)));               \
            T *hp = blas_bytes(call, "AP", AP, PACKED(n) * sizeof(T));                          \
            for (I j = 0; j < n; j++)                                                           \
                for (I i = uplo == FILL_LOWER ? j : 0; i < (uplo == FILL_LOWER ? n : j + 1); i++) \
                    hp[packed_at(uplo, n, i, j)] = ha[i + j * lda];                             \
        }                                                                                       \
        blas_record(call, t0, sizeof(T) == 4 ? "fp32" : "fp64", "n=%lld uplo=%c", (long long)n, "LU"[uplo]); \
        return STUB_SUCCESS;                                                                    \
    }
PACK(S, float, int, )
PACK(D, double, int, )
PACK(C, cf32, int, )
PACK(Z, cf64, int, )
