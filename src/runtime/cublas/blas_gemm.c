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
    case R_8I: return "s8";
    case R_32I: return "s32";
    case C_32F: return "c32";
    case C_64F: return "c64";
    case C_8I: return "cs8";
    default: return "?";
    }
}

/* bytes of one element: the real types of blas.h, int8 / int32 and the complex ones */
static unsigned esize(int t)
{
    switch (t) {
    case R_8I: return 1;
    case C_8I: return 2;
    case R_32I: return 4;
    case C_32F: return 8;
    case C_64F: return 16;
    default: return type_size(t);
    }
}

/* matrix b of m (rows x cols as stored) */
static const void *item(const char *call, const char *what, const struct mat *x,
                        const void *const *arr, int64_t b, int64_t rows, int64_t cols, int write)
{
    unsigned es = esize(x->type);
    const void *p = arr ? arr[b] : (const char *)x->p + b * x->stride * (int64_t)es;
    uint64_t n = blas_span(rows, cols, x->ld, es);
    return write ? blas_bytes(call, what, p, n) : blas_in(call, what, p, n);
}

/* the bytes a strided batch spans (0: it cannot be said, a negative stride) */
static uint64_t batch_span(const struct mat *x, int64_t batch, int64_t rows, int64_t cols)
{
    uint64_t one = blas_span(rows, cols, x->ld, esize(x->type));
    if (x->stride < 0 || !one)
        return 0;
    return (uint64_t)(batch - 1) * (uint64_t)x->stride * esize(x->type) + one;
}

/* C as an operand: 2 when the call writes every byte of its span (no gaps between columns or
   batch items: the proven-repeat memo may then put a rewritten C back, blas.h), else 1 */
static int whole(const struct mat *c, int64_t batch, int64_t m, int64_t n)
{
    return c->ld == m && (batch == 1 || c->stride == m * n) ? 2 : 1;
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

#define RECORD(repeat)                                                                          \
    blas_record_call(call, t0, repeat, prec, "m=%lld n=%lld k=%lld op=%c%c batch=%lld",          \
                     (long long)m, (long long)n, (long long)k, "NTCC"[ta], "NTCC"[tb],          \
                     (long long)batch)

/* ---- integer and complex GEMMs ----
 * int8 in, int32 out (CUBLAS_COMPUTE_32I, int32 scalars): exact, modulo 2^32 as the tensor cores'
 * int32 accumulators wrap; int8 in, f32 out (COMPUTE_32F): exact products, fp32 sums. Complex
 * c32 (and cs8 in, c32 out) in fp32, tf32-rounded inputs where the math mode or compute type
 * asks; c64 in fp64. Each matrix is first copied dense (ld = rows) in the arithmetic's type. */
enum { K_I32, K_F32, K_C32, K_C64 };

/* element (i, j) of stored matrix p (type t, leading dimension ld) as re/im doubles */
static void load_c(int t, const void *p, int64_t i, double *re, double *im)
{
    switch (t) {
    case R_8I: *re = ((const int8_t *)p)[i], *im = 0; break;
    case C_8I: *re = ((const int8_t *)p)[2 * i], *im = ((const int8_t *)p)[2 * i + 1]; break;
    case C_32F: *re = ((const float *)p)[2 * i], *im = ((const float *)p)[2 * i + 1]; break;
    case C_64F: *re = ((const double *)p)[2 * i], *im = ((const double *)p)[2 * i + 1]; break;
    case R_32I: *re = ((const int32_t *)p)[i], *im = 0; break;
    default: *re = load_as(t, p, i), *im = 0; break;
    }
}

/* a rows x cols stored matrix as a dense array of the arithmetic's elements (int32, float,
   float pairs or double pairs), inputs rounded (rnd) */
static void *dense(int kind, const void *p, int t, int64_t rows, int64_t cols, int64_t ld, int rnd)
{
    size_t es = kind == K_C64 ? 16 : kind == K_C32 ? 8 : 4;
    char *d = malloc((size_t)(rows * cols) * es + 1);
    if (!d)
        return NULL;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++) {
            double re, im;
            int64_t o = j * rows + i;
            load_c(t, p, j * ld + i, &re, &im);
            if (kind == K_I32)
                ((int32_t *)d)[o] = (int32_t)re;
            else if (kind == K_F32)
                ((float *)d)[o] = round_input((float)re, rnd);
            else if (kind == K_C32)
                ((float *)d)[2 * o] = round_input((float)re, rnd),
                ((float *)d)[2 * o + 1] = round_input((float)im, rnd);
            else
                ((double *)d)[2 * o] = re, ((double *)d)[2 * o + 1] = im;
        }
    return d;
}

static int gemm_other(const char *call, struct stub_handle *h, int ta, int tb, int64_t m, int64_t n,
                      int64_t k, const void *alpha, struct mat A, struct mat B, const void *beta,
                      struct mat C, int64_t batch, int compute)
{
    int kind, rnd = RND_NONE, pedantic = (h->math_mode & 0xf) == MATH_PEDANTIC;
    const char *how;
    unsigned scalar; /* bytes of alpha and beta */
    if (A.type != B.type)
        return STUB_NOT_SUPPORTED;
    switch (compute) {
    case COMPUTE_32I:
    case COMPUTE_32I_PEDANTIC:
        if (A.type != R_8I || C.type != R_32I)
            return STUB_NOT_SUPPORTED;
        /* the H200's cuBLAS 13.1 refuses s8 x s8 -> s32 unless every leading dimension is a
           multiple of 4 (measured, lda/ldb/ldc: 16/16/16 and 16/16/8 computed; 3/7/3
           NOT_SUPPORTED; 10/10/9, 35/33/18, 7/5/6 and 65539/9/10 an error whose value that run
           did not print; tests/hw/cublas/README.md) */
        if (A.ld % 4 || B.ld % 4 || C.ld % 4)
            return STUB_NOT_SUPPORTED;
        kind = K_I32, scalar = 4, how = "s8 in, s32 accumulate (exact, modulo 2^32)";
        break;
    case COMPUTE_32F:
    case COMPUTE_32F_PEDANTIC:
    case COMPUTE_32F_FAST_TF32:
    case COMPUTE_32F_FAST_16F:
    case COMPUTE_32F_FAST_16BF:
        if (A.type == R_8I && C.type == R_32F && (compute == COMPUTE_32F || compute == COMPUTE_32F_PEDANTIC)) {
            kind = K_F32, scalar = 4, how = "s8 in, fp32 accumulate";
            break;
        }
        if (!((A.type == C_32F || A.type == C_8I) && C.type == C_32F))
            return STUB_NOT_SUPPORTED;
        kind = K_C32, scalar = 8;
        if (A.type == C_32F && !pedantic && compute != COMPUTE_32F_PEDANTIC)
            rnd = compute == COMPUTE_32F_FAST_TF32 ? RND_TF32
                  : compute == COMPUTE_32F_FAST_16F ? RND_F16
                  : compute == COMPUTE_32F_FAST_16BF ? RND_BF16
                  : compute != COMPUTE_32F ? RND_NONE
                  : (h->math_mode & 0xf) == MATH_TF32 ? RND_TF32
                  : (h->math_mode & 0xf) == MATH_TENSOR_OP ? RND_F16 : RND_NONE;
        how = rnd == RND_TF32 ? "complex, tf32 in, fp32 accumulate"
              : rnd == RND_F16 ? "complex, rounded to f16, fp32 accumulate"
              : rnd == RND_BF16 ? "complex, rounded to bf16, fp32 accumulate"
              : A.type == C_8I ? "complex s8 in, fp32 accumulate" : "complex fp32";
        break;
    case COMPUTE_64F:
    case COMPUTE_64F_PEDANTIC:
        if (A.type != C_64F || C.type != C_64F)
            return STUB_NOT_SUPPORTED;
        kind = K_C64, scalar = 16, how = "complex fp64";
        break;
    default: /* COMPUTE_16F, or not a compute type at all: the H200 says NOT_SUPPORTED */
        return STUB_NOT_SUPPORTED;
    }
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
        __cudaSmemlabUnsupported(call, "a dimension of 2^31 or more: OpenBLAS's interface takes "
                                 "32-bit sizes");
    int64_t ar = ta == OP_N ? m : k, ac = ta == OP_N ? k : m;
    int64_t br = tb == OP_N ? k : n, bc = tb == OP_N ? n : k;
    double t0 = blas_start();
    unsigned char sa[16], sb[16];
    blas_scalar(call, "alpha", h, alpha, scalar, sa);
    blas_scalar(call, "beta", h, beta, scalar, sb);
    int beta_zero = 1;
    if (kind == K_I32) {
        int32_t bi;
        memcpy(&bi, sb, 4);
        beta_zero = bi == 0;
    } else if (kind == K_F32 || kind == K_C32) {
        float f[2] = {0, 0};
        memcpy(f, sb, scalar);
        beta_zero = f[0] == 0 && f[1] == 0;
    } else if (kind == K_C64) {
        double d[2];
        memcpy(d, sb, 16);
        beta_zero = d[0] == 0 && d[1] == 0;
    }
    char prec[160];
    snprintf(prec, sizeof prec, "%s x %s -> %s: %s", type_name(A.type), type_name(B.type),
             type_name(C.type), how);
    struct gemm_key key;
    struct blas_operand ops[3] = {{A.p, batch_span(&A, batch, ar, ac), 0},
                                  {B.p, batch_span(&B, batch, br, bc), 0},
                                  {C.p, batch_span(&C, batch, m, n), whole(&C, batch, m, n)}};
    int memo = beta_zero && !A.arr && m && n && batch && k && ops[0].n && ops[1].n && ops[2].n;
    if (memo) {
        double al = 0, be = 0; /* the key holds the scalars' bytes (beta is 0 here) */
        memcpy(&al, sa, scalar < 8 ? scalar : 8);
        memcpy(&be, scalar > 8 ? sa + 8 : sb, 8);
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
        if (A.arr) {
            aa = blas_in(call, "Aarray", A.arr, (uint64_t)batch * sizeof(void *));
            ba = blas_in(call, "Barray", B.arr, (uint64_t)batch * sizeof(void *));
            ca = blas_in(call, "Carray", C.arr, (uint64_t)batch * sizeof(void *));
        }
        size_t es = kind == K_C64 ? 16 : kind == K_C32 ? 8 : 4;
        for (int64_t b = 0; b < batch; b++) {
            const void *pa = k ? item(call, "A", &A, aa, b, ar, ac, 0) : NULL;
            const void *pb = k ? item(call, "B", &B, ba, b, br, bc, 0) : NULL;
            void *pc = (void *)item(call, "C", &C, ca, b, m, n, 1);
            void *fa = k ? dense(kind, pa, A.type, ar, ac, A.ld, rnd) : NULL;
            void *fb = k ? dense(kind, pb, B.type, br, bc, B.ld, rnd) : NULL;
            void *fc = calloc((size_t)(m * n), es); /* op(A) op(B) */
            if ((k && (!fa || !fb)) || !fc) {
                free(fa), free(fb), free(fc);
                return STUB_ALLOC_FAILED;
            }
            static const float one_f[2] = {1, 0}, zero_f[2] = {0, 0};
            static const double one_d[2] = {1, 0}, zero_d[2] = {0, 0};
            enum CBLAS_TRANSPOSE oa = ta == OP_N ? CblasNoTrans : ta == OP_T ? CblasTrans : CblasConjTrans;
            enum CBLAS_TRANSPOSE ob = tb == OP_N ? CblasNoTrans : tb == OP_T ? CblasTrans : CblasConjTrans;
            if (k && kind == K_C32)
                cblas_cgemm(CblasColMajor, oa, ob, (int)m, (int)n, (int)k, one_f, fa, (int)ar, fb,
                            (int)br, zero_f, fc, (int)m);
            else if (k && kind == K_C64)
                cblas_zgemm(CblasColMajor, oa, ob, (int)m, (int)n, (int)k, one_d, fa, (int)ar, fb,
                            (int)br, zero_d, fc, (int)m);
            else if (k && kind == K_F32)
                cblas_sgemm(CblasColMajor, oa == CblasConjTrans ? CblasTrans : oa,
                            ob == CblasConjTrans ? CblasTrans : ob, (int)m, (int)n, (int)k, 1.0f,
                            fa, (int)ar, fb, (int)br, 0.0f, fc, (int)m);
            else if (k) /* int32, wrapping: summed in uint32 */
                for (int64_t j = 0; j < n; j++)
                    for (int64_t l = 0; l < k; l++) {
                        uint32_t bv = (uint32_t)((const int32_t *)fb)[tb == OP_N ? l + j * br : j + l * br];
                        for (int64_t i = 0; i < m; i++)
                            ((uint32_t *)fc)[i + j * m] +=
                                (uint32_t)((const int32_t *)fa)[ta == OP_N ? i + l * ar : l + i * ar] * bv;
                    }
            /* C = alpha op(A)op(B) + beta C, in the scalars' type; beta 0: C is not read */
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++) {
                    int64_t o = i + j * m, c = j * C.ld + i;
                    if (kind == K_I32) {
                        int32_t al, be, *pc32 = (int32_t *)pc;
                        memcpy(&al, sa, 4), memcpy(&be, sb, 4);
                        uint32_t v = (uint32_t)al * ((uint32_t *)fc)[o];
                        if (be)
                            v += (uint32_t)be * (uint32_t)pc32[c];
                        pc32[c] = (int32_t)v;
                    } else if (kind == K_F32) {
                        float al, be, v = ((float *)fc)[o];
                        memcpy(&al, sa, 4), memcpy(&be, sb, 4);
                        ((float *)pc)[c] = beta_zero ? al * v : al * v + be * ((float *)pc)[c];
                    } else if (kind == K_C32) {
                        float al[2], be[2], *v = (float *)fc + 2 * o, *pcf = (float *)pc + 2 * c;
                        memcpy(al, sa, 8), memcpy(be, sb, 8);
                        float re = al[0] * v[0] - al[1] * v[1], im = al[0] * v[1] + al[1] * v[0];
                        if (!beta_zero)
                            re += be[0] * pcf[0] - be[1] * pcf[1],
                            im += be[0] * pcf[1] + be[1] * pcf[0];
                        pcf[0] = re, pcf[1] = im;
                    } else {
                        double al[2], be[2], *v = (double *)fc + 2 * o, *pcd = (double *)pc + 2 * c;
                        memcpy(al, sa, 16), memcpy(be, sb, 16);
                        double re = al[0] * v[0] - al[1] * v[1], im = al[0] * v[1] + al[1] * v[0];
                        if (!beta_zero)
                            re += be[0] * pcd[0] - be[1] * pcd[1],
                            im += be[0] * pcd[1] + be[1] * pcd[0];
                        pcd[0] = re, pcd[1] = im;
                    }
                }
            free(fa), free(fb), free(fc);
        }
    }
    if (memo)
        blas_remember(&key, sizeof key, ops, 3);
    RECORD(0);
    return STUB_SUCCESS;
}

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
    if (A.type == R_8I || A.type == C_8I || A.type == C_32F || A.type == C_64F ||
        compute == COMPUTE_32I || compute == COMPUTE_32I_PEDANTIC)
        return gemm_other(call, h, ta, tb, m, n, k, alpha, A, B, beta, C, batch, compute);

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
    default: /* not a compute type (the H200's GemmEx: NOT_SUPPORTED) */
        return STUB_NOT_SUPPORTED;
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

    /* a repeat of the same call over unchanged operands, C only written (beta 0), is proven
       (blas.h): timing loops call the same GEMM many times */
    struct gemm_key key;
    struct blas_operand ops[3] = {{A.p, batch_span(&A, batch, ar, ac), 0},
                                  {B.p, batch_span(&B, batch, br, bc), 0},
                                  {C.p, batch_span(&C, batch, m, n), whole(&C, batch, m, n)}};
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
        if (h && batch < 0) /* the H200's cuBLAS 13.1 (measured): EXECUTION_FAILED */          \
            return STUB_EXECUTION_FAILED;                                                      \
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

/* ---- complex ---- */
typedef struct { float x, y; } cf32;
typedef struct { double x, y; } cf64;
TYPED_GEMM(cublasCgemm_v2, cf32, int, C_32F, COMPUTE_32F)
TYPED_GEMM(cublasCgemm_v2_64, cf32, int64_t, C_32F, COMPUTE_32F)
TYPED_GEMM(cublasZgemm_v2, cf64, int, C_64F, COMPUTE_64F)
TYPED_GEMM(cublasZgemm_v2_64, cf64, int64_t, C_64F, COMPUTE_64F)
/* the 3m forms (Gauss's three real products) compute the same product: the bits may differ */
TYPED_GEMM(cublasCgemm3m, cf32, int, C_32F, COMPUTE_32F)
TYPED_GEMM(cublasCgemm3m_64, cf32, int64_t, C_32F, COMPUTE_32F)
TYPED_GEMM(cublasZgemm3m, cf64, int, C_64F, COMPUTE_64F)
TYPED_GEMM(cublasZgemm3m_64, cf64, int64_t, C_64F, COMPUTE_64F)
TYPED_STRIDED(cublasCgemmStridedBatched, cf32, int, C_32F, COMPUTE_32F)
TYPED_STRIDED(cublasCgemmStridedBatched_64, cf32, int64_t, C_32F, COMPUTE_32F)
TYPED_STRIDED(cublasZgemmStridedBatched, cf64, int, C_64F, COMPUTE_64F)
TYPED_STRIDED(cublasZgemmStridedBatched_64, cf64, int64_t, C_64F, COMPUTE_64F)
TYPED_STRIDED(cublasCgemm3mStridedBatched, cf32, int, C_32F, COMPUTE_32F)
TYPED_STRIDED(cublasCgemm3mStridedBatched_64, cf32, int64_t, C_32F, COMPUTE_32F)
TYPED_BATCHED(cublasCgemmBatched, cf32, int, C_32F, COMPUTE_32F)
TYPED_BATCHED(cublasCgemmBatched_64, cf32, int64_t, C_32F, COMPUTE_32F)
TYPED_BATCHED(cublasZgemmBatched, cf64, int, C_64F, COMPUTE_64F)
TYPED_BATCHED(cublasZgemmBatched_64, cf64, int64_t, C_64F, COMPUTE_64F)
TYPED_BATCHED(cublasCgemm3mBatched, cf32, int, C_32F, COMPUTE_32F)
TYPED_BATCHED(cublasCgemm3mBatched_64, cf32, int64_t, C_32F, COMPUTE_32F)

/* cublasCgemmEx / Cgemm3mEx: typed inputs (c32 or cs8), c32 output, complex float scalars */
#define CGEMM_EX(name, I)                                                                      \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const cf32 *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const cf32 *beta, void *C, int ct, I ldc);                             \
    CUBLAS_API int name(struct stub_handle *h, int ta, int tb, I m, I n, I k, const cf32 *alpha, \
                        const void *A, int at, I lda, const void *B, int bt, I ldb,            \
                        const cf32 *beta, void *C, int ct, I ldc)                              \
    {                                                                                          \
        struct mat a = {A, NULL, at, lda, 0}, b = {B, NULL, bt, ldb, 0}, c = {C, NULL, ct, ldc, 0}; \
        if (ct != C_32F || (at != C_32F && at != C_8I))                                        \
            return h ? STUB_NOT_SUPPORTED : STUB_NOT_INITIALIZED;                              \
        return gemm(#name, h, ta, tb, m, n, k, alpha, a, b, beta, c, 1, COMPUTE_32F);          \
    }
CGEMM_EX(cublasCgemmEx, int)
CGEMM_EX(cublasCgemmEx_64, int64_t)
CGEMM_EX(cublasCgemm3mEx, int)
CGEMM_EX(cublasCgemm3mEx_64, int64_t)

/* ---- grouped batches: group g has its own sizes, scalars and group_size[g] pointer triples ---- */
static int grouped(const char *call, struct stub_handle *h, const int *ta, const int *tb,
                   const void *m, const void *n, const void *k, int wide, const void *alpha,
                   unsigned scalar, const void *const *A, int at, const void *lda,
                   const void *const *B, int bt, const void *ldb, const void *beta,
                   void *const *C, int ct, const void *ldc, int64_t groups,
                   const void *group_size, int compute)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    if (groups < 0)
        return STUB_INVALID_VALUE;
    if (!groups)
        return STUB_SUCCESS;
    if (!ta || !tb || !m || !n || !k || !alpha || !lda || !ldb || !beta || !ldc || !group_size ||
        !A || !B || !C)
        return STUB_INVALID_VALUE;
#define G(arr, g) (wide ? ((const int64_t *)(arr))[g] : (int64_t)((const int *)(arr))[g])
    /* the pointer arrays are in device memory; sizes, scalars and types on the host */
    int64_t total = 0;
    for (int64_t g = 0; g < groups; g++) {
        if (G(group_size, g) < 0)
            return STUB_INVALID_VALUE;
        total += G(group_size, g);
    }
    const void *const *ha = total ? blas_in(call, "Aarray", A, (uint64_t)total * sizeof(void *)) : NULL;
    const void *const *hb = total ? blas_in(call, "Barray", B, (uint64_t)total * sizeof(void *)) : NULL;
    void *const *hc = total ? blas_in(call, "Carray", C, (uint64_t)total * sizeof(void *)) : NULL;
    struct stub_handle hh = *h;
    hh.pointer_mode = PTR_HOST; /* the scalars of a grouped call are host arrays */
    int64_t first = 0;
    for (int64_t g = 0; g < groups; g++) {
        int64_t gs = G(group_size, g);
        for (int64_t i = 0; i < gs; i++) {
            struct mat ma = {ha[first + i], NULL, at, G(lda, g), 0},
                       mb = {hb[first + i], NULL, bt, G(ldb, g), 0},
                       mc = {hc[first + i], NULL, ct, G(ldc, g), 0};
            int st = gemm(call, &hh, ta[g], tb[g], G(m, g), G(n, g), G(k, g),
                          (const char *)alpha + g * scalar, ma, mb, (const char *)beta + g * scalar,
                          mc, 1, compute);
            if (st != STUB_SUCCESS)
                return st;
        }
        first += gs;
    }
#undef G
    return STUB_SUCCESS;
}

#define TYPED_GROUPED(name, T, I, R, WIDE)                                                     \
    CUBLAS_API int name(struct stub_handle *h, const int ta[], const int tb[], const I m[],    \
                        const I n[], const I k[], const T alpha[], const T *const A[],         \
                        const I lda[], const T *const B[], const I ldb[], const T beta[],      \
                        T *const C[], const I ldc[], I groups, const I group_size[]);          \
    CUBLAS_API int name(struct stub_handle *h, const int ta[], const int tb[], const I m[],    \
                        const I n[], const I k[], const T alpha[], const T *const A[],         \
                        const I lda[], const T *const B[], const I ldb[], const T beta[],      \
                        T *const C[], const I ldc[], I groups, const I group_size[])           \
    {                                                                                          \
        return grouped(#name, h, ta, tb, m, n, k, WIDE, alpha, sizeof(T),                      \
                       (const void *const *)A, R, lda, (const void *const *)B, R, ldb, beta,   \
                       (void *const *)C, R, ldc, groups, group_size,                           \
                       R == R_64F ? COMPUTE_64F : COMPUTE_32F);                                \
    }
TYPED_GROUPED(cublasSgemmGroupedBatched, float, int, R_32F, 0)
TYPED_GROUPED(cublasSgemmGroupedBatched_64, float, int64_t, R_32F, 1)
TYPED_GROUPED(cublasDgemmGroupedBatched, double, int, R_64F, 0)
TYPED_GROUPED(cublasDgemmGroupedBatched_64, double, int64_t, R_64F, 1)

/* the scalars' bytes of a compute type (cublasGemmGroupedBatchedEx: the scale type is the
   compute type's) */
static unsigned scale_bytes(int compute, int ctype)
{
    switch (compute) {
    case COMPUTE_16F: case COMPUTE_16F_PEDANTIC: return 2;
    case COMPUTE_32I: case COMPUTE_32I_PEDANTIC: return 4;
    case COMPUTE_64F: case COMPUTE_64F_PEDANTIC: return ctype == C_64F ? 16 : 8;
    default: return ctype == C_32F ? 8 : 4;
    }
}

#define GROUPED_EX(name, I, WIDE)                                                              \
    CUBLAS_API int name(struct stub_handle *h, const int ta[], const int tb[], const I m[],    \
                        const I n[], const I k[], const void *alpha, const void *const A[],    \
                        int at, const I lda[], const void *const B[], int bt, const I ldb[],   \
                        const void *beta, void *const C[], int ct, const I ldc[], I groups,    \
                        const I group_size[], int compute);                                    \
    CUBLAS_API int name(struct stub_handle *h, const int ta[], const int tb[], const I m[],    \
                        const I n[], const I k[], const void *alpha, const void *const A[],    \
                        int at, const I lda[], const void *const B[], int bt, const I ldb[],   \
                        const void *beta, void *const C[], int ct, const I ldc[], I groups,    \
                        const I group_size[], int compute)                                     \
    {                                                                                          \
        return grouped(#name, h, ta, tb, m, n, k, WIDE, alpha, scale_bytes(compute, ct), A, at, \
                       lda, B, bt, ldb, beta, C, ct, ldc, groups, group_size, compute);        \
    }
GROUPED_EX(cublasGemmGroupedBatchedEx, int, 0)
GROUPED_EX(cublasGemmGroupedBatchedEx_64, int64_t, 1)
