/* blas_lt.c: cublasLtMatmul on the CPU, as llm.c calls it: descriptors (compute and scale type,
 * transposes, pointer mode, epilogue, bias, auxiliary buffer), column-major layouts with leading
 * dimensions and strided batches, a preference and a heuristic that returns one algorithm (every
 * algorithm computes the same here), the workspace accepted and unused. D = epilogue(alpha op(A)
 * op(B) + beta C): inputs rounded as the tensor cores take them, products accumulated in fp32 by
 * OpenBLAS's sgemm, the epilogue in fp32, D rounded to its type. */
#include "blas.h"

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* cublasLtEpilogue_t */
enum {
    EPI_DEFAULT = 1, EPI_RELU = 2, EPI_BIAS = 4, EPI_BGRAD = 16, EPI_GELU = 32, EPI_DGELU = 64,
    EPI_AUX = 128, EPI_BGRADA = 256, EPI_BGRADB = 512
};

struct lt_desc {
    int compute, scale, pointer_mode, ta, tb, tc, epilogue, aux_type, bias_type;
    const void *bias, *aux;
    int64_t bias_stride, aux_ld, aux_stride;
};
struct lt_layout {
    int type, order, batch;
    uint64_t rows, cols;
    int64_t ld, stride;
};
struct lt_pref {
    uint64_t max_workspace;
};

#define LT_API CUBLAS_API
#define NEW(T, out, ...)                                                                        \
    do {                                                                                        \
        if (!(out))                                                                             \
            return STUB_INVALID_VALUE;                                                          \
        T *n_ = calloc(1, sizeof(T));                                                           \
        if (!n_)                                                                                \
            return STUB_ALLOC_FAILED;                                                           \
        *n_ = (T){__VA_ARGS__};                                                                 \
        *(out) = n_;                                                                            \
        return STUB_SUCCESS;                                                                    \
    } while (0)

LT_API int cublasLtMatmulDescCreate(struct lt_desc **d, int compute, int scale);
LT_API int cublasLtMatmulDescCreate(struct lt_desc **d, int compute, int scale)
{
    NEW(struct lt_desc, d, .compute = compute, .scale = scale, .epilogue = EPI_DEFAULT,
        .aux_type = -1, .bias_type = -1);
}
LT_API int cublasLtMatrixLayoutCreate(struct lt_layout **l, int type, uint64_t rows, uint64_t cols,
                                      int64_t ld);
LT_API int cublasLtMatrixLayoutCreate(struct lt_layout **l, int type, uint64_t rows, uint64_t cols,
                                      int64_t ld)
{
    NEW(struct lt_layout, l, .type = type, .rows = rows, .cols = cols, .ld = ld, .batch = 1);
}
LT_API int cublasLtMatmulPreferenceCreate(struct lt_pref **p);
LT_API int cublasLtMatmulPreferenceCreate(struct lt_pref **p)
{
    NEW(struct lt_pref, p, 0);
}
#define DESTROY(name, T)                                                                        \
    LT_API int name(T *x);                                                                      \
    LT_API int name(T *x)                                                                       \
    {                                                                                           \
        free(x);                                                                                \
        return STUB_SUCCESS;                                                                    \
    }
DESTROY(cublasLtMatmulDescDestroy, struct lt_desc)
DESTROY(cublasLtMatrixLayoutDestroy, struct lt_layout)
DESTROY(cublasLtMatmulPreferenceDestroy, struct lt_pref)

/* an attribute's bytes into (or out of) a field of its size */
static int attr_io(void *field, size_t want, void *buf, size_t size, size_t *written, int set)
{
    if (!set && written)
        *written = want;
    if (!set && !buf && !size) /* a query of the size */
        return written ? STUB_SUCCESS : STUB_INVALID_VALUE;
    if (!buf || size != want)
        return STUB_INVALID_VALUE;
    if (set)
        memcpy(field, buf, want);
    else
        memcpy(buf, field, want);
    return STUB_SUCCESS;
}

static int desc_attr(struct lt_desc *d, int attr, void *buf, size_t size, size_t *written, int set)
{
    if (!d)
        return STUB_INVALID_VALUE;
    switch (attr) {
    case 0: return attr_io(&d->compute, 4, buf, size, written, set);
    case 1: return attr_io(&d->scale, 4, buf, size, written, set);
    case 2: return attr_io(&d->pointer_mode, 4, buf, size, written, set);
    case 3: return attr_io(&d->ta, 4, buf, size, written, set);
    case 4: return attr_io(&d->tb, 4, buf, size, written, set);
    case 5: return attr_io(&d->tc, 4, buf, size, written, set);
    case 7: return attr_io(&d->epilogue, 4, buf, size, written, set);
    case 8: return attr_io(&d->bias, 8, buf, size, written, set);
    case 10: return attr_io(&d->bias_stride, 8, buf, size, written, set);
    case 11: return attr_io(&d->aux, 8, buf, size, written, set);
    case 12: return attr_io(&d->aux_ld, 8, buf, size, written, set);
    case 13: return attr_io(&d->aux_stride, 8, buf, size, written, set);
    case 22: return attr_io(&d->aux_type, 4, buf, size, written, set);
    case 26: return attr_io(&d->bias_type, 4, buf, size, written, set);
    case 15: { /* SM_COUNT_TARGET: a hint */
        int32_t v = 0;
        return attr_io(&v, 4, buf, size, written, set);
    }
    case 25: { /* FAST_ACCUM (fp8): nothing to change here */
        int8_t v = 0;
        return attr_io(&v, 1, buf, size, written, set);
    }
    default: {
        char why[200];
        snprintf(why, sizeof why, "matmul descriptor attribute %d (fp8 scales, emulation, fill "
                 "mode ...) is not computed by smemlab's cuBLASLt stand-in", attr);
        __cudaSmemlabUnsupported(set ? "cublasLtMatmulDescSetAttribute"
                                     : "cublasLtMatmulDescGetAttribute", why);
    }
    }
}
LT_API int cublasLtMatmulDescSetAttribute(struct lt_desc *d, int attr, const void *buf, size_t size);
LT_API int cublasLtMatmulDescSetAttribute(struct lt_desc *d, int attr, const void *buf, size_t size)
{
    return desc_attr(d, attr, (void *)buf, size, NULL, 1);
}
LT_API int cublasLtMatmulDescGetAttribute(struct lt_desc *d, int attr, void *buf, size_t size,
                                          size_t *written);
LT_API int cublasLtMatmulDescGetAttribute(struct lt_desc *d, int attr, void *buf, size_t size,
                                          size_t *written)
{
    return desc_attr(d, attr, buf, size, written, 0);
}

static int layout_attr(struct lt_layout *l, int attr, void *buf, size_t size, size_t *written,
                       int set)
{
    if (!l)
        return STUB_INVALID_VALUE;
    switch (attr) {
    case 0: return attr_io(&l->type, 4, buf, size, written, set);
    case 1: return attr_io(&l->order, 4, buf, size, written, set);
    case 2: return attr_io(&l->rows, 8, buf, size, written, set);
    case 3: return attr_io(&l->cols, 8, buf, size, written, set);
    case 4: return attr_io(&l->ld, 8, buf, size, written, set);
    case 5: return attr_io(&l->batch, 4, buf, size, written, set);
    case 6: return attr_io(&l->stride, 8, buf, size, written, set);
    default:
        __cudaSmemlabUnsupported(set ? "cublasLtMatrixLayoutSetAttribute"
                                     : "cublasLtMatrixLayoutGetAttribute",
                                 "planar complex and pointer-array batches are not computed by "
                                 "smemlab's cuBLASLt stand-in");
    }
}
LT_API int cublasLtMatrixLayoutSetAttribute(struct lt_layout *l, int attr, const void *buf,
                                            size_t size);
LT_API int cublasLtMatrixLayoutSetAttribute(struct lt_layout *l, int attr, const void *buf,
                                            size_t size)
{
    return layout_attr(l, attr, (void *)buf, size, NULL, 1);
}
LT_API int cublasLtMatrixLayoutGetAttribute(struct lt_layout *l, int attr, void *buf, size_t size,
                                            size_t *written);
LT_API int cublasLtMatrixLayoutGetAttribute(struct lt_layout *l, int attr, void *buf, size_t size,
                                            size_t *written)
{
    return layout_attr(l, attr, buf, size, written, 0);
}

LT_API int cublasLtMatmulPreferenceSetAttribute(struct lt_pref *p, int attr, const void *buf,
                                                size_t size);
LT_API int cublasLtMatmulPreferenceSetAttribute(struct lt_pref *p, int attr, const void *buf,
                                                size_t size)
{
    if (!p || !buf)
        return STUB_INVALID_VALUE;
    if (attr == 1) /* MAX_WORKSPACE_BYTES */
        return attr_io(&p->max_workspace, 8, (void *)buf, size, NULL, 1);
    return STUB_SUCCESS; /* search mode, alignments, waves, ...: every algorithm is the one here */
}

/* ---- the operation ---- */

struct lt_plan {
    int rnd, atype, ctype, dtype;
    int64_t m, n, k, batch;
    const char *how;
};

/* What the operation computes, or the status cuBLASLt gives it. */
static int plan(const struct lt_desc *d, const struct lt_layout *A, const struct lt_layout *B,
                const struct lt_layout *C, const struct lt_layout *D, struct lt_plan *p)
{
    if (!d || !A || !B || !C || !D)
        return STUB_INVALID_VALUE;
    if (d->ta < OP_N || d->ta > OP_C || d->tb < OP_N || d->tb > OP_C || d->tc != OP_N)
        return STUB_INVALID_VALUE;
    if (A->order || B->order || C->order || D->order)
        __cudaSmemlabUnsupported("cublasLtMatmul", "a layout other than CUBLASLT_ORDER_COL is "
                                 "not computed by smemlab's cuBLASLt stand-in");
    int64_t m = (int64_t)D->rows, n = (int64_t)D->cols;
    int64_t k = d->ta == OP_N ? (int64_t)A->cols : (int64_t)A->rows;
    int64_t am = d->ta == OP_N ? (int64_t)A->rows : (int64_t)A->cols;
    int64_t bk = d->tb == OP_N ? (int64_t)B->rows : (int64_t)B->cols;
    int64_t bn = d->tb == OP_N ? (int64_t)B->cols : (int64_t)B->rows;
    if (am != m || bk != k || bn != n || (int64_t)C->rows != m || (int64_t)C->cols != n)
        return STUB_INVALID_VALUE;
    if (A->ld < (int64_t)(A->rows ? A->rows : 1) || B->ld < (int64_t)(B->rows ? B->rows : 1) ||
        C->ld < (m ? m : 1) || D->ld < (m ? m : 1))
        return STUB_INVALID_VALUE;
    if (m > INT32_MAX || n > INT32_MAX || k > INT32_MAX)
        return STUB_NOT_SUPPORTED;
    int64_t batch = D->batch;
    if (batch < 1 || (A->batch != batch && A->batch != 1) ||
        (B->batch != batch && B->batch != 1) || C->batch != batch)
        return STUB_INVALID_VALUE;
    if (A->type != B->type || C->type != D->type)
        return STUB_NOT_SUPPORTED;
    int rnd = RND_NONE;
    const char *how;
    switch (d->compute) {
    case COMPUTE_32F:
    case COMPUTE_32F_PEDANTIC:
        if (d->scale != R_32F || !(A->type == R_32F || A->type == R_16F || A->type == R_16BF) ||
            !(D->type == R_32F || D->type == A->type))
            return STUB_NOT_SUPPORTED;
        how = A->type == R_32F ? "fp32" : "fp32 accumulate";
        break;
    case COMPUTE_32F_FAST_TF32:
    case COMPUTE_32F_FAST_16F:
    case COMPUTE_32F_FAST_16BF:
        if (d->scale != R_32F || A->type != R_32F || D->type != R_32F)
            return STUB_NOT_SUPPORTED;
        rnd = d->compute == COMPUTE_32F_FAST_TF32 ? RND_TF32
              : d->compute == COMPUTE_32F_FAST_16F ? RND_F16 : RND_BF16;
        how = rnd == RND_TF32 ? "tf32 in, fp32 accumulate" : rnd == RND_F16
              ? "f32 rounded to f16, fp32 accumulate" : "f32 rounded to bf16, fp32 accumulate";
        break;
    case COMPUTE_16F:
    case COMPUTE_16F_PEDANTIC:
        if (A->type != R_16F || D->type != R_16F || (d->scale != R_16F && d->scale != R_32F))
            return STUB_NOT_SUPPORTED;
        how = "f16 in, fp32 accumulate, f16 out";
        break;
    default:
        __cudaSmemlabUnsupported("cublasLtMatmul", "compute types other than 16F and 32F "
                                 "(and its FAST variants) are not computed by smemlab's "
                                 "cuBLASLt stand-in");
    }
    int e = d->epilogue;
    int known = e == EPI_DEFAULT || e == EPI_RELU || e == EPI_BIAS || e == (EPI_RELU | EPI_BIAS) ||
                e == EPI_GELU || e == (EPI_GELU | EPI_AUX) || e == (EPI_GELU | EPI_BIAS) ||
                e == (EPI_GELU | EPI_AUX | EPI_BIAS) || e == (EPI_DGELU | EPI_AUX) ||
                e == (EPI_DGELU | EPI_AUX | EPI_BGRAD) || e == EPI_BGRADA || e == EPI_BGRADB;
    if (!known)
        __cudaSmemlabUnsupported("cublasLtMatmul", "this epilogue (ReLU with a bit-mask "
                                 "auxiliary, dReLU) is not computed by smemlab's cuBLASLt "
                                 "stand-in; DEFAULT, RELU, BIAS, GELU(_AUX)(_BIAS), DGELU(_BGRAD), "
                                 "BGRADA and BGRADB are");
    if ((e & EPI_AUX) && (d->aux_ld < (m ? m : 1)))
        return STUB_INVALID_VALUE;
    *p = (struct lt_plan){rnd, A->type, C->type, D->type, m, n, k, batch, how};
    return STUB_SUCCESS;
}

LT_API int cublasLtMatmulAlgoGetHeuristic(void *lt, struct lt_desc *d, struct lt_layout *A,
                                          struct lt_layout *B, struct lt_layout *C,
                                          struct lt_layout *D, struct lt_pref *pref, int requested,
                                          void *results, int *returned);
LT_API int cublasLtMatmulAlgoGetHeuristic(void *lt, struct lt_desc *d, struct lt_layout *A,
                                          struct lt_layout *B, struct lt_layout *C,
                                          struct lt_layout *D, struct lt_pref *pref, int requested,
                                          void *results, int *returned)
{
    if (!lt)
        return STUB_NOT_INITIALIZED;
    if (!pref || requested <= 0 || !results || !returned)
        return STUB_INVALID_VALUE;
    struct lt_plan p;
    int s = plan(d, A, B, C, D, &p);
    *returned = 0;
    if (s)
        return s;
    /* cublasLtMatmulHeuristicResult_t: algo (8 uint64), workspaceSize, state, wavesCount,
       reserved[4]; one algorithm, needing no workspace */
    struct {
        uint64_t algo[8];
        size_t workspace;
        int state;
        float waves;
        int reserved[4];
    } r;
    memset(&r, 0, sizeof r);
    r.algo[0] = 1; /* not all zero: programs test algo for validity */
    r.waves = 1.0f;
    memcpy(results, &r, sizeof r);
    *returned = 1;
    return STUB_SUCCESS;
}

static float gelu(float x) /* the tanh approximation */
{
    const float s = 0.7978845608f; /* sqrt(2 / pi) */
    return 0.5f * x * (1.0f + tanhf(s * (x + 0.044715f * x * x * x)));
}
static float gelu_grad(float x)
{
    const float s = 0.7978845608f;
    float t = tanhf(s * (x + 0.044715f * x * x * x));
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * s * (1.0f + 3.0f * 0.044715f * x * x);
}

LT_API int cublasLtMatmul(void *lt, struct lt_desc *d, const void *alpha, const void *A,
                          struct lt_layout *Al, const void *B, struct lt_layout *Bl,
                          const void *beta, const void *C, struct lt_layout *Cl, void *D,
                          struct lt_layout *Dl, const void *algo, void *ws, size_t ws_size,
                          void *stream);
LT_API int cublasLtMatmul(void *lt, struct lt_desc *d, const void *alpha, const void *A,
                          struct lt_layout *Al, const void *B, struct lt_layout *Bl,
                          const void *beta, const void *C, struct lt_layout *Cl, void *D,
                          struct lt_layout *Dl, const void *algo, void *ws, size_t ws_size,
                          void *stream)
{
    (void)algo, (void)ws, (void)ws_size, (void)stream; /* in order, synchronous, no workspace */
    const char *call = "cublasLtMatmul";
    if (!lt)
        return STUB_NOT_INITIALIZED;
    if (!alpha || !beta)
        return STUB_INVALID_VALUE;
    struct lt_plan p;
    int s = plan(d, Al, Bl, Cl, Dl, &p);
    if (s)
        return s;
    if (d->pointer_mode != PTR_HOST && d->pointer_mode != PTR_DEVICE)
        __cudaSmemlabUnsupported(call, "vector pointer modes (alpha per row) are not computed by "
                                 "smemlab's cuBLASLt stand-in");
    double t0 = blas_start();
    struct stub_handle mode = {.pointer_mode = d->pointer_mode};
    unsigned char sa[8], sb[8];
    int st = d->scale == R_16F ? R_16F : R_32F;
    blas_scalar(call, "alpha", &mode, alpha, type_size(st), sa);
    blas_scalar(call, "beta", &mode, beta, type_size(st), sb);
    float al = (float)load_as(st, sa, 0), be = (float)load_as(st, sb, 0);
    int64_t m = p.m, n = p.n, k = p.k, e = d->epilogue;
    int64_t ar = (int64_t)Al->rows, ac = (int64_t)Al->cols, br = (int64_t)Bl->rows,
            bc = (int64_t)Bl->cols;
    int bias_t = d->bias_type >= 0 ? d->bias_type : p.dtype;
    int aux_t = d->aux_type >= 0 ? d->aux_type : p.dtype;
    if (!type_size(bias_t) || !type_size(aux_t))
        return STUB_NOT_SUPPORTED;
    int64_t blen = e == EPI_BGRADB ? n : m; /* the bias vector's length */
    static const char *const types[] = {"f32", "f64", "f16"};
    const char *tn = p.atype == R_16BF ? "bf16" : p.atype <= R_16F ? types[p.atype] : "?";
    const char *dn = p.dtype == R_16BF ? "bf16" : p.dtype <= R_16F ? types[p.dtype] : "?";
    char prec[160];
    snprintf(prec, sizeof prec, "%s x %s -> %s: %s", tn, tn, dn, p.how);
    const char *epi = e == EPI_DEFAULT ? "" : e == EPI_BIAS ? " +bias" : e == EPI_RELU ? " relu"
                      : e == (EPI_RELU | EPI_BIAS) ? " +bias relu" : e == EPI_GELU ? " gelu"
                      : e == (EPI_GELU | EPI_BIAS) ? " +bias gelu" : e == (EPI_GELU | EPI_AUX)
                      ? " gelu aux" : e == (EPI_GELU | EPI_AUX | EPI_BIAS) ? " +bias gelu aux"
                      : e == (EPI_DGELU | EPI_AUX) ? " dgelu" : e == EPI_BGRADA ? " bgradA"
                      : e == EPI_BGRADB ? " bgradB" : " dgelu bgrad";
#define RECORD(repeat)                                                                          \
    blas_record_call(call, t0, repeat, prec, "m=%lld n=%lld k=%lld op=%c%c batch=%lld%s",        \
                     (long long)m, (long long)n, (long long)k, "NTCC"[d->ta], "NTCC"[d->tb],    \
                     (long long)p.batch, epi)
    /* a proven repeat (blas.h): the same matmul over unchanged operands, C not read (beta 0) */
    uint64_t key[48];
    unsigned nk = 0;
    struct blas_operand ops[5];
    unsigned nops = 0;
    int memo = be == 0 && m && n && k && p.batch > 0;
    if (memo) {
        const struct lt_layout *ls[4] = {Al, Bl, Cl, Dl};
        uint64_t fixed[] = {(uint64_t)d->compute, (uint64_t)d->scale, (uint64_t)d->pointer_mode,
                            (uint64_t)d->ta, (uint64_t)d->tb, (uint64_t)e,
                            (uint64_t)bias_t, (uint64_t)aux_t, (uint64_t)(uintptr_t)d->bias,
                            (uint64_t)(uintptr_t)d->aux, (uint64_t)d->bias_stride,
                            (uint64_t)d->aux_ld, (uint64_t)d->aux_stride,
                            (uint64_t)(uintptr_t)A, (uint64_t)(uintptr_t)B,
                            (uint64_t)(uintptr_t)D};
        memcpy(key, fixed, sizeof fixed);
        nk = sizeof fixed / sizeof fixed[0];
        uint32_t ab;
        memcpy(&ab, &al, 4);
        key[nk++] = ab;
        for (int i = 0; i < 4; i++) {
            uint64_t f[] = {(uint64_t)ls[i]->type, (uint64_t)ls[i]->batch, ls[i]->rows,
                            ls[i]->cols, (uint64_t)ls[i]->ld, (uint64_t)ls[i]->stride};
            memcpy(key + nk, f, sizeof f);
            nk += 6;
        }
        /* each operand over its whole batch (a negative stride: not proven) */
#define SPAN(l, rows, cols, es)                                                                 \
    ((l)->stride < 0 ? 0 : (uint64_t)((l)->batch > 1 ? (l)->batch - 1 : 0) * (uint64_t)(l)->stride * (es) + \
                               blas_span(rows, cols, (l)->ld, es))
        unsigned es_a = type_size(p.atype), es_d = type_size(p.dtype);
        ops[nops++] = (struct blas_operand){A, SPAN(Al, ar, ac, es_a), 0};
        ops[nops++] = (struct blas_operand){B, SPAN(Bl, br, bc, es_a), 0};
        ops[nops++] = (struct blas_operand){D, SPAN(Dl, m, n, es_d), 1};
        if (e & (EPI_BIAS | EPI_BGRAD | EPI_BGRADA | EPI_BGRADB))
            ops[nops++] = (struct blas_operand){
                d->bias, (uint64_t)((p.batch - 1) * d->bias_stride + blen) * type_size(bias_t),
                (e & (EPI_BGRAD | EPI_BGRADA | EPI_BGRADB)) != 0};
        if (e & EPI_AUX)
            ops[nops++] = (struct blas_operand){
                d->aux, (uint64_t)(p.batch - 1) * (uint64_t)d->aux_stride * type_size(aux_t) +
                            blas_span(m, n, d->aux_ld, type_size(aux_t)),
                (e & EPI_GELU) != 0};
        for (unsigned i = 0; i < nops; i++)
            memo = memo && ops[i].n && ops[i].p;
        if (memo && blas_repeat(key, nk * sizeof *key, ops, nops)) {
            RECORD(1);
            return STUB_SUCCESS;
        }
    }
    for (int64_t b = 0; b < p.batch && m && n; b++) {
        unsigned es_a = type_size(p.atype), es_c = type_size(p.ctype), es_d = type_size(p.dtype);
        const void *ha = blas_in(call, "A", (const char *)A + (Al->batch > 1 ? b * Al->stride * es_a : 0),
                                    blas_span(ar, ac, Al->ld, es_a));
        const void *hb = blas_in(call, "B", (const char *)B + (Bl->batch > 1 ? b * Bl->stride * es_a : 0),
                                    blas_span(br, bc, Bl->ld, es_a));
        const void *hc = be != 0 ? blas_in(call, "C", (const char *)C + b * Cl->stride * es_c,
                                              blas_span(m, n, Cl->ld, es_c)) : NULL;
        void *hd = blas_bytes(call, "D", (char *)D + b * Dl->stride * es_d,
                              blas_span(m, n, Dl->ld, es_d));
        void *hbias = NULL, *haux = NULL;
        if (e & (EPI_BIAS | EPI_BGRAD | EPI_BGRADA | EPI_BGRADB)) {
            if (!d->bias)
                return STUB_INVALID_VALUE;
            const void *pb = (const char *)d->bias + b * d->bias_stride * type_size(bias_t);
            uint64_t nb = (uint64_t)blen * type_size(bias_t);
            hbias = e & (EPI_BGRAD | EPI_BGRADA | EPI_BGRADB) /* written, else only read */
                        ? blas_bytes(call, "the bias vector", pb, nb)
                        : (void *)blas_in(call, "the bias vector", pb, nb);
        }
        if (e & EPI_AUX) {
            if (!d->aux)
                return STUB_INVALID_VALUE;
            const void *px = (const char *)d->aux + b * d->aux_stride * type_size(aux_t);
            uint64_t nx = blas_span(m, n, d->aux_ld, type_size(aux_t));
            haux = e & EPI_GELU /* GELU writes the pre-GELU values, DGELU reads them */
                       ? blas_bytes(call, "the epilogue's auxiliary buffer", px, nx)
                       : (void *)blas_in(call, "the epilogue's auxiliary buffer", px, nx);
        }
        float *fa = blas_to_float(ha, p.atype, ar, ac, Al->ld, p.rnd);
        float *fb = blas_to_float(hb, p.atype, br, bc, Bl->ld, p.rnd);
        float *fd = calloc((size_t)(m * n), sizeof *fd);
        if (!fa || !fb || !fd) {
            free(fa), free(fb), free(fd);
            return STUB_ALLOC_FAILED;
        }
        if (hc)
            for (int64_t j = 0; j < n; j++)
                for (int64_t i = 0; i < m; i++)
                    fd[j * m + i] = (float)load_as(p.ctype, hc, j * Cl->ld + i);
        if (k > 0)
            cblas_sgemm(CblasColMajor, d->ta == OP_N ? CblasNoTrans : CblasTrans,
                        d->tb == OP_N ? CblasNoTrans : CblasTrans, (int)m, (int)n, (int)k, al, fa,
                        (int)ar, fb, (int)br, hc ? be : 0.0f, fd, (int)m);
        /* the epilogue, element by element */
        if (e == EPI_BGRADA || e == EPI_BGRADB) { /* op(A)'s row sums / op(B)'s column sums */
            for (int64_t v = 0; v < blen; v++) {
                double sum = 0;
                for (int64_t q = 0; q < k; q++)
                    sum += e == EPI_BGRADA ? fa[d->ta == OP_N ? v + q * ar : q + v * ar]
                                           : fb[d->tb == OP_N ? q + v * br : v + q * br];
                store_as(bias_t, hbias, v, (float)sum);
            }
        }
        for (int64_t j = 0; j < n; j++)
            for (int64_t i = 0; i < m; i++) {
                float v = fd[j * m + i];
                if ((e & EPI_BIAS) && !(e & EPI_BGRAD))
                    v += (float)load_as(bias_t, hbias, i);
                if (e & EPI_GELU) {
                    if (haux)
                        store_as(aux_t, haux, j * d->aux_ld + i, v);
                    v = gelu(v);
                } else if (e & EPI_DGELU) {
                    v *= gelu_grad((float)load_as(aux_t, haux, j * d->aux_ld + i));
                } else if (e & EPI_RELU) {
                    v = v > 0 ? v : 0;
                }
                fd[j * m + i] = v;
                store_as(p.dtype, hd, j * Dl->ld + i, v);
            }
        if (e & EPI_BGRAD) /* DGELU_BGRAD: the gradient's row sums */
            for (int64_t i = 0; i < m; i++) {
                double sum = 0;
                for (int64_t j = 0; j < n; j++)
                    sum += fd[j * m + i];
                store_as(bias_t, hbias, i, (float)sum);
            }
        free(fa), free(fb), free(fd);
    }
    if (memo)
        blas_remember(key, nk * sizeof *key, ops, nops);
    RECORD(0);
    return STUB_SUCCESS;
}
