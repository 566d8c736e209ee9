/* blas_ex.c: cuBLAS's typed level-1 routines (AxpyEx, ScalEx, DotEx, DotcEx, Nrm2Ex, AsumEx,
 * RotEx, CopyEx, SwapEx, IamaxEx, IaminEx, and their _64 forms) over f16, bf16, f32, f64, c32 and
 * c64 operands, element by element in double (complex) precision, each result rounded to its type
 * (the GPU computes in the execution type, f32 for the narrow ones: the last bits may differ); the
 * type combinations cuBLAS documents for each, NOT_SUPPORTED for the others. */
#include "blas.h"

#include <math.h>

typedef struct { double re, im; } cd;

static int known(int t)
{
    return t == R_16F || t == R_16BF || t == R_32F || t == R_64F || t == C_32F || t == C_64F;
}
static int cplx(int t) { return t == C_32F || t == C_64F; }
static unsigned size_of(int t) { return t == C_64F ? 16 : t == R_64F || t == C_32F ? 8 : t == R_32F ? 4 : 2; }
/* the execution type cuBLAS requires for data of type t: f32 for f16 / bf16 / f32, else t itself */
static int exec_for(int t) { return t == R_16F || t == R_16BF ? R_32F : t; }

static cd ld(int t, const void *p, int64_t i)
{
    switch (t) {
    case C_32F: return (cd){((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]};
    case C_64F: return (cd){((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]};
    default: return (cd){load_as(t, p, i), 0};
    }
}
static void st(int t, void *p, int64_t i, cd v)
{
    switch (t) {
    case C_32F: ((float *)p)[2 * i] = (float)v.re, ((float *)p)[2 * i + 1] = (float)v.im; break;
    case C_64F: ((double *)p)[2 * i] = v.re, ((double *)p)[2 * i + 1] = v.im; break;
    default: store_as(t, p, i, v.re); break;
    }
}
static cd mul(cd a, cd b) { return (cd){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

static uint64_t vspan(int64_t n, int64_t inc, unsigned es)
{
    return n <= 0 ? 0 : ((uint64_t)(n - 1) * (uint64_t)(inc < 0 ? -inc : inc) + 1) * es;
}
/* index of element i of a vector with increment inc (BLAS: a negative one runs backwards) */
static int64_t at(int64_t i, int64_t n, int64_t inc) { return inc >= 0 ? i * inc : (n - 1 - i) * -inc; }

static cd scalar(const char *call, const char *what, const struct stub_handle *h, const void *p, int t)
{
    unsigned char b[16];
    blas_scalar(call, what, h, p, size_of(t), b);
    return ld(t, b, 0);
}
static void result(const char *call, const struct stub_handle *h, void *res, int t, cd v)
{
    unsigned char b[16];
    st(t, b, 0, v);
    void *dst = h->pointer_mode == PTR_DEVICE ? blas_bytes(call, "result", res, size_of(t)) : res;
    memcpy(dst, b, size_of(t));
}
static const char *prec(int t)
{
    switch (t) {
    case R_16F: return "f16 (computed in fp64)";
    case R_16BF: return "bf16 (computed in fp64)";
    case R_32F: return "fp32 (computed in fp64)";
    case R_64F: return "fp64";
    case C_32F: return "complex fp32 (computed in fp64)";
    default: return "complex fp64";
    }
}

#define START(NAME)                                                                             \
    const char *call = NAME;                                                                    \
    if (!h)                                                                                     \
        return STUB_NOT_INITIALIZED;

static int axpy(const char *call, struct stub_handle *h, int64_t n, const void *alpha, int at_,
                const void *x, int xt, int64_t incx, void *y, int yt, int64_t incy, int et)
{
    if (!alpha)
        return STUB_INVALID_VALUE;
    if (!known(xt) || xt != yt || at_ != et || et != exec_for(xt))
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    cd a = scalar(call, "alpha", h, alpha, at_);
    if (n > 0) {
        const void *hx = blas_in(call, "x", x, vspan(n, incx, size_of(xt)));
        void *hy = blas_bytes(call, "y", y, vspan(n, incy, size_of(yt)));
        for (int64_t i = 0; i < n; i++) {
            cd v = mul(a, ld(xt, hx, at(i, n, incx))), w = ld(yt, hy, at(i, n, incy));
            st(yt, hy, at(i, n, incy), (cd){v.re + w.re, v.im + w.im});
        }
    }
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

static int scal(const char *call, struct stub_handle *h, int64_t n, const void *alpha, int at_,
                void *x, int xt, int64_t incx, int et)
{
    if (!alpha)
        return STUB_INVALID_VALUE;
    /* a real alpha may scale a complex vector (Csscal's case) */
    if (!known(xt) || et != exec_for(xt) || !(at_ == et || (cplx(xt) && at_ == (xt == C_32F ? R_32F : R_64F))))
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    cd a = scalar(call, "alpha", h, alpha, at_);
    if (n > 0 && incx > 0) {
        void *hx = blas_bytes(call, "x", x, vspan(n, incx, size_of(xt)));
        for (int64_t i = 0; i < n; i++)
            st(xt, hx, i * incx, mul(a, ld(xt, hx, i * incx)));
    }
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

static int dot(const char *call, struct stub_handle *h, int64_t n, const void *x, int xt,
               int64_t incx, const void *y, int yt, int64_t incy, void *res, int rt, int et, int conj)
{
    if (!res)
        return STUB_INVALID_VALUE;
    if (!known(xt) || xt != yt || rt != xt || et != exec_for(xt))
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    cd s = {0, 0};
    if (n > 0) {
        const void *hx = blas_in(call, "x", x, vspan(n, incx, size_of(xt)));
        const void *hy = blas_in(call, "y", y, vspan(n, incy, size_of(yt)));
        for (int64_t i = 0; i < n; i++) {
            cd a = ld(xt, hx, at(i, n, incx)), b = ld(yt, hy, at(i, n, incy));
            if (conj)
                a.im = -a.im;
            cd p = mul(a, b);
            s.re += p.re, s.im += p.im;
        }
    }
    result(call, h, res, rt, s);
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

/* nrm2 (what 0), asum (1: |re| + |im|, BLAS's), iamax (2), iamin (3) */
static int reduce(const char *call, struct stub_handle *h, int64_t n, const void *x, int xt,
                  int64_t incx, void *res, int rt, int et, int what)
{
    if (!res)
        return STUB_INVALID_VALUE;
    int real_of = xt == C_32F ? R_32F : xt == C_64F ? R_64F : xt;
    if (!known(xt) || (what < 2 && (rt != real_of || et != exec_for(xt))))
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    double acc = 0, best = 0;
    int64_t idx = 0;
    if (n > 0 && incx > 0) {
        const void *hx = blas_in(call, "x", x, vspan(n, incx, size_of(xt)));
        for (int64_t i = 0; i < n; i++) {
            cd v = ld(xt, hx, i * incx);
            double m = fabs(v.re) + fabs(v.im);
            if (what == 0)
                acc += v.re * v.re + v.im * v.im;
            else if (what == 1)
                acc += m;
            else if (i == 0 || (what == 2 ? m > best : m < best))
                best = m, idx = i + 1;
        }
    }
    if (what < 2)
        result(call, h, res, rt, (cd){what == 0 ? sqrt(acc) : acc, 0});
    else if (rt == 1) /* cublasIamaxEx_64: an int64_t */
        memcpy(h->pointer_mode == PTR_DEVICE ? blas_bytes(call, "result", res, 8) : res, &idx, 8);
    else {
        int r = (int)idx;
        memcpy(h->pointer_mode == PTR_DEVICE ? blas_bytes(call, "result", res, 4) : res, &r, 4);
    }
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

static int rot(const char *call, struct stub_handle *h, int64_t n, void *x, int xt, int64_t incx,
               void *y, int yt, int64_t incy, const void *c, const void *s, int cst, int et)
{
    if (!c || !s)
        return STUB_INVALID_VALUE;
    if (!known(xt) || xt != yt || et != exec_for(xt))
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    int real_of = xt == C_32F ? R_32F : xt == C_64F ? R_64F : exec_for(xt);
    cd cv = scalar(call, "c", h, c, real_of), sv = scalar(call, "s", h, s, cst);
    if (n > 0) {
        void *hx = blas_bytes(call, "x", x, vspan(n, incx, size_of(xt)));
        void *hy = blas_bytes(call, "y", y, vspan(n, incy, size_of(yt)));
        for (int64_t i = 0; i < n; i++) {
            int64_t ix = at(i, n, incx), iy = at(i, n, incy);
            cd a = ld(xt, hx, ix), b = ld(yt, hy, iy);
            cd sb = mul(sv, b), sa = mul((cd){sv.re, -sv.im}, a); /* x = c x + s y; y = c y - conj(s) x */
            st(xt, hx, ix, (cd){cv.re * a.re + sb.re, cv.re * a.im + sb.im});
            st(yt, hy, iy, (cd){cv.re * b.re - sa.re, cv.re * b.im - sa.im});
        }
    }
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

static int copy_swap(const char *call, struct stub_handle *h, int64_t n, void *x, int xt,
                     int64_t incx, void *y, int yt, int64_t incy, int swap)
{
    (void)h; /* no scalar, no result */
    if (!known(xt) || xt != yt)
        return STUB_NOT_SUPPORTED;
    double t0 = blas_start();
    if (n > 0) {
        unsigned es = size_of(xt);
        char *hx = swap ? blas_bytes(call, "x", x, vspan(n, incx, es)) : (char *)blas_in(call, "x", x, vspan(n, incx, es));
        char *hy = blas_bytes(call, "y", y, vspan(n, incy, es));
        for (int64_t i = 0; i < n; i++) {
            char t[16];
            int64_t ix = at(i, n, incx) * es, iy = at(i, n, incy) * es;
            memcpy(t, hy + iy, es);
            memcpy(hy + iy, hx + ix, es);
            if (swap)
                memcpy(hx + ix, t, es);
        }
    }
    blas_record(call, t0, prec(xt), "n=%lld", (long long)n);
    return STUB_SUCCESS;
}

#define EX(I, SUF)                                                                              \
    CUBLAS_API int cublasAxpyEx##SUF(struct stub_handle *h, I n, const void *alpha, int at_,    \
                                     const void *x, int xt, I incx, void *y, int yt, I incy,    \
                                     int et);                                                   \
    CUBLAS_API int cublasAxpyEx##SUF(struct stub_handle *h, I n, const void *alpha, int at_,    \
                                     const void *x, int xt, I incx, void *y, int yt, I incy,    \
                                     int et)                                                    \
    {                                                                                           \
        START("cublasAxpyEx" #SUF)                                                              \
        return axpy(call, h, n, alpha, at_, x, xt, incx, y, yt, incy, et);                      \
    }                                                                                           \
    CUBLAS_API int cublasScalEx##SUF(struct stub_handle *h, I n, const void *alpha, int at_,    \
                                     void *x, int xt, I incx, int et);                          \
    CUBLAS_API int cublasScalEx##SUF(struct stub_handle *h, I n, const void *alpha, int at_,    \
                                     void *x, int xt, I incx, int et)                           \
    {                                                                                           \
        START("cublasScalEx" #SUF)                                                              \
        return scal(call, h, n, alpha, at_, x, xt, incx, et);                                   \
    }                                                                                           \
    CUBLAS_API int cublasDotEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx,  \
                                    const void *y, int yt, I incy, void *res, int rt, int et);  \
    CUBLAS_API int cublasDotEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx,  \
                                    const void *y, int yt, I incy, void *res, int rt, int et)   \
    {                                                                                           \
        START("cublasDotEx" #SUF)                                                               \
        return dot(call, h, n, x, xt, incx, y, yt, incy, res, rt, et, 0);                       \
    }                                                                                           \
    CUBLAS_API int cublasDotcEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     const void *y, int yt, I incy, void *res, int rt, int et); \
    CUBLAS_API int cublasDotcEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     const void *y, int yt, I incy, void *res, int rt, int et)  \
    {                                                                                           \
        START("cublasDotcEx" #SUF)                                                              \
        return dot(call, h, n, x, xt, incx, y, yt, incy, res, rt, et, 1);                       \
    }                                                                                           \
    CUBLAS_API int cublasNrm2Ex##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *res, int rt, int et);                                \
    CUBLAS_API int cublasNrm2Ex##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *res, int rt, int et)                                 \
    {                                                                                           \
        START("cublasNrm2Ex" #SUF)                                                              \
        return reduce(call, h, n, x, xt, incx, res, rt, et, 0);                                 \
    }                                                                                           \
    CUBLAS_API int cublasAsumEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *res, int rt, int et);                                \
    CUBLAS_API int cublasAsumEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *res, int rt, int et)                                 \
    {                                                                                           \
        START("cublasAsumEx" #SUF)                                                              \
        return reduce(call, h, n, x, xt, incx, res, rt, et, 1);                                 \
    }                                                                                           \
    CUBLAS_API int cublasIamaxEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                      I *res);                                                  \
    CUBLAS_API int cublasIamaxEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                      I *res)                                                   \
    {                                                                                           \
        START("cublasIamaxEx" #SUF)                                                             \
        return reduce(call, h, n, x, xt, incx, res, sizeof(I) == 8, 0, 2);                      \
    }                                                                                           \
    CUBLAS_API int cublasIaminEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                      I *res);                                                  \
    CUBLAS_API int cublasIaminEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                      I *res)                                                   \
    {                                                                                           \
        START("cublasIaminEx" #SUF)                                                             \
        return reduce(call, h, n, x, xt, incx, res, sizeof(I) == 8, 0, 3);                      \
    }                                                                                           \
    CUBLAS_API int cublasRotEx##SUF(struct stub_handle *h, I n, void *x, int xt, I incx,        \
                                    void *y, int yt, I incy, const void *c, const void *s,      \
                                    int cst, int et);                                           \
    CUBLAS_API int cublasRotEx##SUF(struct stub_handle *h, I n, void *x, int xt, I incx,        \
                                    void *y, int yt, I incy, const void *c, const void *s,      \
                                    int cst, int et)                                            \
    {                                                                                           \
        START("cublasRotEx" #SUF)                                                               \
        return rot(call, h, n, x, xt, incx, y, yt, incy, c, s, cst, et);                        \
    }                                                                                           \
    CUBLAS_API int cublasCopyEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *y, int yt, I incy);                                  \
    CUBLAS_API int cublasCopyEx##SUF(struct stub_handle *h, I n, const void *x, int xt, I incx, \
                                     void *y, int yt, I incy)                                   \
    {                                                                                           \
        START("cublasCopyEx" #SUF)                                                              \
        return copy_swap(call, h, n, (void *)x, xt, incx, y, yt, incy, 0);                      \
    }                                                                                           \
    CUBLAS_API int cublasSwapEx##SUF(struct stub_handle *h, I n, void *x, int xt, I incx,       \
                                     void *y, int yt, I incy);                                  \
    CUBLAS_API int cublasSwapEx##SUF(struct stub_handle *h, I n, void *x, int xt, I incx,       \
                                     void *y, int yt, I incy)                                   \
    {                                                                                           \
        START("cublasSwapEx" #SUF)                                                              \
        return copy_swap(call, h, n, x, xt, incx, y, yt, incy, 1);                              \
    }
EX(int, )
EX(int64_t, _64)
