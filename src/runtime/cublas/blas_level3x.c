/* blas_level3x.c: the rest of cuBLAS's level-3 routines NVIDIA's examples call, on the CPU
 * (OpenBLAS's cblas_*) over the program's device memory, with cuBLAS's argument checks: symm,
 * syr2k, syrkx, trmm (out of place, as cuBLAS's: C = alpha op(A) B), hemm, herk, her2k, herkx,
 * trsmBatched; trsm and syrk in complex precision (S and D are in blas_level3.c). The symmetric and
 * Hermitian ones are computed element by element in double (complex) precision (rare in programs,
 * small in NVIDIA's examples). A beta of 0 never reads C. */
#include "blas.h"

#include <cblas.h>
#include <stdlib.h>

typedef struct { float x, y; } cf32;
typedef struct { double x, y; } cf64;

enum { SIDE_LEFT = 0, SIDE_RIGHT = 1 };
enum { FILL_LOWER = 0, FILL_UPPER = 1 };
enum { DIAG_NON_UNIT = 0, DIAG_UNIT = 1 };

#define BAD_UPLO(u) ((u) != FILL_LOWER && (u) != FILL_UPPER)
#define BAD_SIDE(s) ((s) != SIDE_LEFT && (s) != SIDE_RIGHT)
#define BAD_OP(t) ((t) < OP_N || (t) > OP_C)
#define BAD_DIAG(d) ((d) != DIAG_NON_UNIT && (d) != DIAG_UNIT)
#define CB_UPLO(u) ((u) == FILL_LOWER ? CblasLower : CblasUpper)
#define CB_SIDE(s) ((s) == SIDE_LEFT ? CblasLeft : CblasRight)
#define CB_OP(t) ((t) == OP_N ? CblasNoTrans : (t) == OP_T ? CblasTrans : CblasConjTrans)
#define CB_DIAG(d) ((d) == DIAG_UNIT ? CblasUnit : CblasNonUnit)
#define V_s(x) (x)
#define V_d(x) (x)
#define V_c(x) (&(x))
#define V_z(x) (&(x))
#define MAX1(x) ((x) > 1 ? (x) : 1)


static int big(int64_t a, int64_t b, int64_t c, int64_t d)
{
    return a > INT32_MAX || b > INT32_MAX || c > INT32_MAX || d > INT32_MAX;
}
#define BIG(call) __cudaSmemlabUnsupported(call, "a size or leading dimension of 2^31 or more: " \
                                           "OpenBLAS's interface takes 32-bit sizes")
#define HEAD(NAME)                                                                              \
    const char *call = NAME;                                                                    \
    if (!h)                                                                                     \
        return STUB_NOT_INITIALIZED;

#define L3X(P, p, T, I, SUF, SUFX, PREC)                                                              \
    CUBLAS_API int cublas##P##trmm##SUF(struct stub_handle *h, int side, int uplo, int trans,   \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        const T *B, I ldb, T *C, I ldc);                        \
    CUBLAS_API int cublas##P##trmm##SUF(struct stub_handle *h, int side, int uplo, int trans,   \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        const T *B, I ldb, T *C, I ldc)                         \
    {                                                                                           \
        HEAD("cublas" #P "trmm" #SUF)                                                           \
        I ka = side == SIDE_LEFT ? m : n;                                                       \
        if (BAD_SIDE(side) || BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || m < 0 ||     \
            n < 0 || lda < MAX1(ka) || ldb < MAX1(m) || ldc < MAX1(m) || !alpha)                \
            return STUB_INVALID_VALUE;                                                          \
        if (big(m, n, lda, ldb) || big(ldc, 0, 0, 0))                                           \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (m > 0 && n > 0) {                                                                   \
            const T *hb = blas_in(call, "B", B, blas_span(m, n, ldb, sizeof(T)));               \
            T *hc = blas_bytes(call, "C", C, blas_span(m, n, ldc, sizeof(T)));                  \
            if (hc != hb) /* out of place: C = B first, then C = alpha op(A) C */               \
                for (I j = 0; j < n; j++)                                                       \
                    memmove(hc + j * ldc, hb + j * ldb, (size_t)m * sizeof(T));                \
            cblas_##p##trmm(CblasColMajor, CB_SIDE(side), CB_UPLO(uplo), CB_OP(trans),          \
                            CB_DIAG(diag), (int)m, (int)n, V_##p(a),                            \
                            blas_in(call, "A", A, blas_span(ka, ka, lda, sizeof(T))), (int)lda, \
                            hc, (int)ldc);                                                      \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld side=%c uplo=%c op=%c", (long long)m,        \
                    (long long)n, "LR"[side], "LU"[uplo], "NTC"[trans]);                        \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int cublas##P##trsmBatched##SUFX(struct stub_handle *h, int side, int uplo,       \
                                               int trans, int diag, I m, I n, const T *alpha,   \
                                               const T *const A[], I lda, T *const B[], I ldb,  \
                                               I batch);                                        \
    CUBLAS_API int cublas##P##trsmBatched##SUFX(struct stub_handle *h, int side, int uplo,       \
                                               int trans, int diag, I m, I n, const T *alpha,   \
                                               const T *const A[], I lda, T *const B[], I ldb,  \
                                               I batch)                                         \
    {                                                                                           \
        HEAD("cublas" #P "trsmBatched" #SUFX)                                                    \
        I ka = side == SIDE_LEFT ? m : n;                                                       \
        if (BAD_SIDE(side) || BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || m < 0 ||     \
            n < 0 || lda < MAX1(ka) || ldb < MAX1(m) || batch < 0 || !alpha)                    \
            return STUB_INVALID_VALUE;                                                          \
        if (big(m, n, lda, ldb))                                                                \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (m > 0 && n > 0 && batch > 0) {                                                      \
            const T *const *ha = blas_in(call, "A", A, (uint64_t)batch * sizeof(void *));       \
            T *const *hb = blas_in(call, "B", B, (uint64_t)batch * sizeof(void *));             \
            for (I b = 0; b < batch; b++)                                                       \
                cblas_##p##trsm(CblasColMajor, CB_SIDE(side), CB_UPLO(uplo), CB_OP(trans),      \
                                CB_DIAG(diag), (int)m, (int)n, V_##p(a),                        \
                                blas_in(call, "A[i]", ha[b], blas_span(ka, ka, lda, sizeof(T))), \
                                (int)lda, blas_bytes(call, "B[i]", hb[b], blas_span(m, n, ldb, sizeof(T))), \
                                (int)ldb);                                                      \
        }                                                                                       \
        blas_record(call, t0, PREC, "m=%lld n=%lld batch=%lld side=%c uplo=%c op=%c",           \
                    (long long)m, (long long)n, (long long)batch, "LR"[side], "LU"[uplo],       \
                    "NTC"[trans]);                                                              \
        return STUB_SUCCESS;                                                                    \
    }


L3X(S, s, float, int, _v2, , "fp32")
L3X(S, s, float, int64_t, _v2_64, _64, "fp32")
L3X(D, d, double, int, _v2, , "fp64")
L3X(D, d, double, int64_t, _v2_64, _64, "fp64")
L3X(C, c, cf32, int, _v2, , "complex fp32")
L3X(C, c, cf32, int64_t, _v2_64, _64, "complex fp32")
L3X(Z, z, cf64, int, _v2, , "complex fp64")
L3X(Z, z, cf64, int64_t, _v2_64, _64, "complex fp64")

/* ---- symmetric / Hermitian products and rank-k updates, element by element in double (complex)
   precision, rounded to the matrices' type: rare in programs, small in NVIDIA's examples ---- */
typedef struct { double re, im; } cd;
static cd cmul(cd a, cd b) { return (cd){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
static cd cadd(cd a, cd b) { return (cd){a.re + b.re, a.im + b.im}; }
static cd conj_if(cd a, int c) { return c ? (cd){a.re, -a.im} : a; }

/* element i of an array of type t (R_32F, R_64F, C_32F, C_64F) */
static cd get(int t, const void *p, int64_t i)
{
    switch (t) {
    case R_32F: return (cd){((const float *)p)[i], 0};
    case R_64F: return (cd){((const double *)p)[i], 0};
    case C_32F: return (cd){((const float *)p)[2 * i], ((const float *)p)[2 * i + 1]};
    default: return (cd){((const double *)p)[2 * i], ((const double *)p)[2 * i + 1]};
    }
}
static void put(int t, void *p, int64_t i, cd v)
{
    switch (t) {
    case R_32F: ((float *)p)[i] = (float)v.re; break;
    case R_64F: ((double *)p)[i] = v.re; break;
    case C_32F: ((float *)p)[2 * i] = (float)v.re, ((float *)p)[2 * i + 1] = (float)v.im; break;
    default: ((double *)p)[2 * i] = v.re, ((double *)p)[2 * i + 1] = v.im; break;
    }
}
static unsigned esize(int t) { return t == R_32F ? 4 : t == R_64F || t == C_32F ? 8 : 16; }
static const char *prec_of(int t)
{
    return t == R_32F ? "fp32" : t == R_64F ? "fp64" : t == C_32F ? "complex fp32" : "complex fp64";
}
/* a scalar of type t, or real (one element of the real type of t) */
static cd scalar(const char *call, const char *what, const struct stub_handle *h, const void *p,
                 int t, int real)
{
    unsigned char b[16];
    int rt = t == C_32F ? R_32F : t == C_64F ? R_64F : t;
    blas_scalar(call, what, h, p, esize(real ? rt : t), b);
    return get(real ? rt : t, b, 0);
}

/* symm / hemm: C = alpha A B + beta C (side left) or alpha B A + beta C; A's triangle uplo holds it */
static int xmm(const char *call, struct stub_handle *h, int t, int herm, int side, int uplo,
               int64_t m, int64_t n, const void *alpha, const void *A, int64_t lda, const void *B,
               int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    int64_t ka = side == SIDE_LEFT ? m : n;
    if (BAD_SIDE(side) || BAD_UPLO(uplo) || m < 0 || n < 0 || lda < MAX1(ka) || ldb < MAX1(m) ||
        ldc < MAX1(m) || !alpha || !beta)
        return STUB_INVALID_VALUE;
    double t0 = blas_start();
    cd a = scalar(call, "alpha", h, alpha, t, 0), b = scalar(call, "beta", h, beta, t, 0);
    if (m > 0 && n > 0) {
        unsigned es = esize(t);
        const void *ha = blas_in(call, "A", A, blas_span(ka, ka, lda, es));
        const void *hb = blas_in(call, "B", B, blas_span(m, n, ldb, es));
        void *hc = blas_bytes(call, "C", C, blas_span(m, n, ldc, es));
        cd *out = malloc((size_t)(m * n) * sizeof *out + 1);
        if (!out)
            return STUB_ALLOC_FAILED;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                cd s = {0, 0};
                for (int64_t l = 0; l < ka; l++) {
                    int64_t r = side == SIDE_LEFT ? i : l, c = side == SIDE_LEFT ? l : j;
                    /* A(r, c) from the stored triangle */
                    int stored = uplo == FILL_LOWER ? r >= c : r <= c;
                    cd av = stored ? get(t, ha, r + c * lda) : conj_if(get(t, ha, c + r * lda), herm);
                    if (herm && r == c)
                        av.im = 0;
                    cd bv = side == SIDE_LEFT ? get(t, hb, l + j * ldb) : get(t, hb, i + l * ldb);
                    s = cadd(s, side == SIDE_LEFT ? cmul(av, bv) : cmul(bv, av));
                }
                s = cmul(a, s);
                if (b.re != 0 || b.im != 0)
                    s = cadd(s, cmul(b, get(t, hc, i + j * ldc)));
                out[i + j * m] = s;
            }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++)
                put(t, hc, i + j * ldc, out[i + j * m]);
        free(out);
    }
    blas_record(call, t0, prec_of(t), "m=%lld n=%lld side=%c uplo=%c", (long long)m, (long long)n,
                "LR"[side], "LU"[uplo]);
    return STUB_SUCCESS;
}

/* rank-k updates on C's triangle uplo, op(X) = X (trans N) or X^T (symmetric) / X^H (Hermitian):
   K_RK  syrk / herk:   alpha op(A) op(A)' + beta C
   K_R2K syr2k / her2k: alpha op(A) op(B)' + alpha* op(B) op(A)' + beta C (alpha* = conj(alpha) for her2k)
   K_RKX syrkx / herkx: alpha op(A) op(B)' + beta C
   (' the transpose, or the conjugate transpose when herm); herk / herk's beta (and herk's alpha)
   are real, and a Hermitian result's diagonal is real */
enum { K_RK, K_R2K, K_RKX };
static int rk(const char *call, struct stub_handle *h, int t, int herm, int kind, int uplo,
              int trans, int64_t n, int64_t k, const void *alpha, const void *A, int64_t lda,
              const void *B, int64_t ldb, const void *beta, void *C, int64_t ldc)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    int cplx = t == C_32F || t == C_64F;
    int64_t ar = trans == OP_N ? n : k, ac = trans == OP_N ? k : n;
    if (BAD_UPLO(uplo) || BAD_OP(trans) || (cplx && trans == (herm ? OP_T : OP_C)) || n < 0 ||
        k < 0 || lda < MAX1(ar) || (kind != K_RK && ldb < MAX1(ar)) || ldc < MAX1(n) || !alpha ||
        !beta)
        return STUB_INVALID_VALUE;
    double t0 = blas_start();
    cd a = scalar(call, "alpha", h, alpha, t, herm && kind == K_RK);
    cd b = scalar(call, "beta", h, beta, t, herm);
    if (n > 0) {
        unsigned es = esize(t);
        const void *ha = k ? blas_in(call, "A", A, blas_span(ar, ac, lda, es)) : NULL;
        const void *hb = k && kind != K_RK ? blas_in(call, "B", B, blas_span(ar, ac, ldb, es)) : ha;
        void *hc = blas_bytes(call, "C", C, blas_span(n, n, ldc, es));
        cd a2 = conj_if(a, herm);
        int64_t ldx = kind == K_RK ? lda : ldb;
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = uplo == FILL_LOWER ? j : 0; i < (uplo == FILL_LOWER ? n : j + 1); i++) {
                cd s1 = {0, 0}, s2 = {0, 0};
                for (int64_t l = 0; l < k; l++) {
                    /* op(X)(r, l) */
#define OPX(x, ld, r) (trans == OP_N ? get(t, x, (r) + l * (ld)) : conj_if(get(t, x, l + (r) * (ld)), herm))
                    cd ai = OPX(ha, lda, i), bj = OPX(hb, ldx, j);
                    s1 = cadd(s1, cmul(ai, conj_if(bj, herm)));
                    if (kind == K_R2K) {
                        cd bi = OPX(hb, ldx, i), aj = OPX(ha, lda, j);
                        s2 = cadd(s2, cmul(bi, conj_if(aj, herm)));
                    }
#undef OPX
                }
                cd v = cmul(a, s1);
                if (kind == K_R2K)
                    v = cadd(v, cmul(a2, s2));
                if (b.re != 0 || b.im != 0)
                    v = cadd(v, cmul(b, get(t, hc, i + j * ldc)));
                if (herm && i == j)
                    v.im = 0;
                put(t, hc, i + j * ldc, v);
            }
    }
    blas_record(call, t0, prec_of(t), "n=%lld k=%lld uplo=%c op=%c", (long long)n, (long long)k,
                "LU"[uplo], "NTC"[trans]);
    return STUB_SUCCESS;
}

#define SYMM(P, R, T, I, SUF, NAME, HERM)                                                        \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int side, int uplo, I m, I n,    \
                                        const T *alpha, const T *A, I lda, const T *B, I ldb,   \
                                        const T *beta, T *C, I ldc);                            \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int side, int uplo, I m, I n,    \
                                        const T *alpha, const T *A, I lda, const T *B, I ldb,   \
                                        const T *beta, T *C, I ldc)                             \
    {                                                                                           \
        return xmm("cublas" #P #NAME #SUF, h, R, HERM, side, uplo, m, n, alpha, A, lda, B, ldb,  \
                   beta, C, ldc);                                                               \
    }
/* syr2k / syrkx / her2k / herkx: (A, B); SB: beta's type */
#define RK2(P, R, T, SA, SB, I, NAME, SUF, HERM, KIND)                                          \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,   \
                                        const SA *alpha, const T *A, I lda, const T *B, I ldb,  \
                                        const SB *beta, T *C, I ldc);                           \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,   \
                                        const SA *alpha, const T *A, I lda, const T *B, I ldb,  \
                                        const SB *beta, T *C, I ldc)                            \
    {                                                                                           \
        return rk("cublas" #P #NAME #SUF, h, R, HERM, KIND, uplo, trans, n, k, alpha, A, lda, B, \
                  ldb, beta, C, ldc);                                                           \
    }
/* syrk / herk: (A) only */
#define RK1(P, R, T, SA, I, NAME, SUF, HERM)                                                    \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,   \
                                        const SA *alpha, const T *A, I lda, const SA *beta,     \
                                        T *C, I ldc);                                           \
    CUBLAS_API int cublas##P##NAME##SUF(struct stub_handle *h, int uplo, int trans, I n, I k,   \
                                        const SA *alpha, const T *A, I lda, const SA *beta,     \
                                        T *C, I ldc)                                            \
    {                                                                                           \
        return rk("cublas" #P #NAME #SUF, h, R, HERM, K_RK, uplo, trans, n, k, alpha, A, lda,   \
                  NULL, 0, beta, C, ldc);                                                       \
    }
#define SYM3(P, R, T, I, SUF, SUFX)                                                             \
    SYMM(P, R, T, I, SUF, symm, 0)                                                              \
    RK2(P, R, T, T, T, I, syr2k, SUF, 0, K_R2K)                                                 \
    RK2(P, R, T, T, T, I, syrkx, SUFX, 0, K_RKX)
SYM3(S, R_32F, float, int, _v2, )
SYM3(S, R_32F, float, int64_t, _v2_64, _64)
SYM3(D, R_64F, double, int, _v2, )
SYM3(D, R_64F, double, int64_t, _v2_64, _64)
SYM3(C, C_32F, cf32, int, _v2, )
SYM3(C, C_32F, cf32, int64_t, _v2_64, _64)
SYM3(Z, C_64F, cf64, int, _v2, )
SYM3(Z, C_64F, cf64, int64_t, _v2_64, _64)
#define HER3(P, R, T, RT, I, SUF, SUFX)                                                         \
    SYMM(P, R, T, I, SUF, hemm, 1)                                                              \
    RK2(P, R, T, T, RT, I, her2k, SUF, 1, K_R2K)                                                \
    RK2(P, R, T, T, RT, I, herkx, SUFX, 1, K_RKX)                                               \
    RK1(P, R, T, RT, I, herk, SUF, 1)                                                           \
    RK1(P, R, T, T, I, syrk, SUF, 0)
HER3(C, C_32F, cf32, float, int, _v2, )
HER3(C, C_32F, cf32, float, int64_t, _v2_64, _64)
HER3(Z, C_64F, cf64, double, int, _v2, )
HER3(Z, C_64F, cf64, double, int64_t, _v2_64, _64)

/* CherkEx / Cherk3mEx / CsyrkEx / Csyrk3mEx: typed A and C; c32 computed (cs8 inputs: not here) */
#define RK_EX(NAME, SA, HERM)                                                                   \
    CUBLAS_API int NAME(struct stub_handle *h, int uplo, int trans, int n, int k, const SA *alpha, \
                        const void *A, int at, int lda, const SA *beta, void *C, int ct, int ldc); \
    CUBLAS_API int NAME(struct stub_handle *h, int uplo, int trans, int n, int k, const SA *alpha, \
                        const void *A, int at, int lda, const SA *beta, void *C, int ct, int ldc)  \
    {                                                                                           \
        if (h && ct == C_32F && at == C_8I)                                                     \
            __cudaSmemlabUnsupported(#NAME, "complex int8 inputs (CUDA_C_8I) are not computed " \
                                     "by smemlab's cuBLAS stand-in; CUDA_C_32F is");            \
        if (h && (at != C_32F || ct != C_32F))                                                  \
            return STUB_NOT_SUPPORTED;                                                          \
        return rk(#NAME, h, C_32F, HERM, K_RK, uplo, trans, n, k, alpha, A, lda, NULL, 0, beta, \
                  C, ldc);                                                                      \
    }
RK_EX(cublasCherkEx, float, 1)
RK_EX(cublasCherk3mEx, float, 1)
RK_EX(cublasCsyrkEx, cf32, 0)
RK_EX(cublasCsyrk3mEx, cf32, 0)

/* complex trsm (S and D are in blas_level3.c): op(A) X = alpha B or X op(A) = alpha B, X over B */
#define CTRSM(P, p, T, I, SUF)                                                                  \
    CUBLAS_API int cublas##P##trsm##SUF(struct stub_handle *h, int side, int uplo, int trans,   \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        T *B, I ldb);                                           \
    CUBLAS_API int cublas##P##trsm##SUF(struct stub_handle *h, int side, int uplo, int trans,   \
                                        int diag, I m, I n, const T *alpha, const T *A, I lda,  \
                                        T *B, I ldb)                                            \
    {                                                                                           \
        HEAD("cublas" #P "trsm" #SUF)                                                           \
        I ka = side == SIDE_LEFT ? m : n;                                                       \
        if (BAD_SIDE(side) || BAD_UPLO(uplo) || BAD_OP(trans) || BAD_DIAG(diag) || m < 0 ||     \
            n < 0 || lda < MAX1(ka) || ldb < MAX1(m) || !alpha)                                 \
            return STUB_INVALID_VALUE;                                                          \
        if (big(m, n, lda, ldb))                                                                \
            BIG(call);                                                                          \
        double t0 = blas_start();                                                               \
        T a;                                                                                    \
        blas_scalar(call, "alpha", h, alpha, sizeof a, &a);                                     \
        if (m > 0 && n > 0)                                                                     \
            cblas_##p##trsm(CblasColMajor, CB_SIDE(side), CB_UPLO(uplo), CB_OP(trans),          \
                            CB_DIAG(diag), (int)m, (int)n, &a,                                  \
                            blas_in(call, "A", A, blas_span(ka, ka, lda, sizeof(T))), (int)lda, \
                            blas_bytes(call, "B", B, blas_span(m, n, ldb, sizeof(T))), (int)ldb); \
        blas_record(call, t0, sizeof(T) == 8 ? "complex fp32" : "complex fp64",                 \
                    "m=%lld n=%lld side=%c uplo=%c op=%c", (long long)m, (long long)n,          \
                    "LR"[side], "LU"[uplo], "NTC"[trans]);                                      \
        return STUB_SUCCESS;                                                                    \
    }
CTRSM(C, c, cf32, int, _v2)
CTRSM(C, c, cf32, int64_t, _v2_64)
CTRSM(Z, z, cf64, int, _v2)
CTRSM(Z, z, cf64, int64_t, _v2_64)
