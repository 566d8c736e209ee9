/* pattern.c: runs one access expression over every thread of a block, builds one smem_request per
 * warp and costs it with the bank model (src/banks.c). */
#include "smemlab/model/pattern.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct smem_pattern smem_pattern_default(void)
{
    struct smem_pattern p;
    memset(&p, 0, sizeof p);
    p.block[0] = 32;
    p.block[1] = p.block[2] = 1;
    p.elem_bytes = 4;
    p.op = SMEM_LD;
    p.banks = smem_banks_default();
    return p;
}

const char *smem_pattern_check(const struct smem_pattern *p)
{
    static const unsigned max_dim[3] = {1024, 1024, 64};
    static const unsigned max_index[3] = {0x7fffffffu, 65535, 65535};
    for (int k = 0; k < 3; k++) {
        if (p->block[k] == 0)
            return "block dimensions must be at least 1";
        if (p->block[k] > max_dim[k])
            return "block dimensions are limited to 1024 x 1024 x 64 (CUDA)";
        if (p->block_index[k] > max_index[k])
            return "block index out of CUDA's range (x < 2^31, y and z < 65536)";
    }
    if ((uint64_t)p->block[0] * p->block[1] * p->block[2] > SMEM_MAX_BLOCK_THREADS)
        return "a block has at most 1024 threads (CUDA)";
    if (p->elem_bytes != 1 && p->elem_bytes != 2 && p->elem_bytes != 4 && p->elem_bytes != 8 &&
        p->elem_bytes != 16)
        return "element size must be 1, 2, 4, 8 or 16 bytes";
    if (!p->shape[0] != !p->shape[1])
        return "a shape needs both rows and columns";
    if ((uint64_t)p->shape[0] * p->shape[1] * p->elem_bytes > 0x100000000ull)
        return "the array does not fit a 32-bit address space";
    if (p->op != SMEM_LD && p->op != SMEM_ST && p->op != SMEM_ATOM)
        return "unknown operation";
    if ((p->kind == SMEM_PK_LDMATRIX || p->kind == SMEM_PK_STMATRIX) && p->matrices != 1 &&
        p->matrices != 2 && p->matrices != 4)
        return "ldmatrix/stmatrix take 1, 2 or 4 matrices (.x1, .x2, .x4)";
    if (p->kind == SMEM_PK_CP_ASYNC && p->copy_bytes != 4 && p->copy_bytes != 8 && p->copy_bytes != 16)
        return "cp.async copies 4, 8 or 16 bytes";
    if (p->kind == SMEM_PK_CP_ASYNC && p->bypass && p->copy_bytes != 16)
        return "cp.async.cg copies 16 bytes only";
    if (p->kind > SMEM_PK_CP_ASYNC)
        return "unknown instruction";
    const struct smem_layout *l = &p->layout;
    if (l->kind == SMEM_LAYOUT_SWIZZLE && (l->b > 8 || l->b + l->m + l->s > 31))
        return "a swizzle's bits must lie within a 32-bit offset";
    if (l->kind == SMEM_LAYOUT_PAD &&
        (uint64_t)p->shape[0] * ((uint64_t)p->shape[1] + l->pad) * p->elem_bytes > 0x100000000ull)
        return "the padded array does not fit a 32-bit address space";
    if (l->kind == SMEM_LAYOUT_TMA) {
        if (!p->shape[0])
            return "a swizzle mode needs the tile's shape (rows x cols: the TMA box)";
        if (l->tma > 3)
            return "the swizzle mode must be none, 32B, 64B or 128B";
        if (l->tma_base % 128 || l->tma_base >= 1024)
            return "the tile's offset in the swizzle pattern must be a multiple of 128 below 1024 "
                   "(a TMA destination is 128-byte aligned)";
        uint64_t rb = (uint64_t)p->shape[1] * p->elem_bytes;
        const char *why = l->tma && rb <= 0xffffffffu ? smem_layout_tma_fits((uint32_t)rb, l->tma)
                                                       : NULL;
        if (why)
            return why;
        if (l->tma && (uint64_t)p->shape[0] * (rb < (16u << l->tma) ? 16u << l->tma : rb) >
                          0xffffffffull)
            return "the swizzled tile does not fit a 32-bit address space";
    }
    if (l->kind > SMEM_LAYOUT_TMA)
        return "unknown layout";
    return smem_banks_check(&p->banks);
}

unsigned smem_pattern_threads(const struct smem_pattern *p)
{
    return p->block[0] * p->block[1] * p->block[2];
}

unsigned smem_pattern_warps(const struct smem_pattern *p)
{
    return (smem_pattern_threads(p) + SMEM_WARP - 1) / SMEM_WARP;
}

void smem_pattern_lanes(const struct smem_pattern *p, unsigned w, struct smem_lanes *L)
{
    unsigned nthreads = smem_pattern_threads(p), first = w * SMEM_WARP;
    unsigned n = nthreads - first < SMEM_WARP ? nthreads - first : SMEM_WARP;
    unsigned bdx = p->block[0], bdy = p->block[1];
    L->count = n;
    for (unsigned l = 0; l < n; l++) {
        unsigned t = first + l;
        L->var[SMEM_VAR_TX][l] = t % bdx;
        L->var[SMEM_VAR_TY][l] = t / bdx % bdy;
        L->var[SMEM_VAR_TZ][l] = t / (bdx * bdy);
        L->var[SMEM_VAR_BX][l] = p->block_index[0];
        L->var[SMEM_VAR_BY][l] = p->block_index[1];
        L->var[SMEM_VAR_BZ][l] = p->block_index[2];
        L->var[SMEM_VAR_BDX][l] = p->block[0];
        L->var[SMEM_VAR_BDY][l] = p->block[1];
        L->var[SMEM_VAR_BDZ][l] = p->block[2];
        L->var[SMEM_VAR_TID][l] = t;
        L->var[SMEM_VAR_LANE][l] = l;
        L->var[SMEM_VAR_WARP][l] = w;
    }
}

const char *smem_pattern_op_name(const struct smem_pattern *p, char *buf, unsigned n)
{
    switch (p->kind) {
    case SMEM_PK_LDMATRIX:
    case SMEM_PK_STMATRIX:
        snprintf(buf, n, "%s.x%u%s", p->kind == SMEM_PK_LDMATRIX ? "ldmatrix" : "stmatrix", p->matrices,
                 p->trans ? ".trans" : "");
        break;
    case SMEM_PK_CP_ASYNC:
        snprintf(buf, n, "cp.async.%s.%u", p->bypass ? "cg" : "ca", p->copy_bytes);
        break;
    default:
        snprintf(buf, n, "%s", p->op == SMEM_ST ? "st" : p->op == SMEM_ATOM ? "atom" : "ld");
    }
    return buf;
}

int smem_pattern_set_op(struct smem_pattern *p, const char *name, int set_elem)
{
    char s[64];
    size_t len = strlen(name);
    if (len >= sizeof s)
        return -1;
    memcpy(s, name, len + 1);
    if (len > 4 && !strcmp(s + len - 4, ".b16"))
        s[len -= 4] = 0;
    if (!strcmp(s, "ld") || !strcmp(s, "st")) {
        p->kind = SMEM_PK_PLAIN;
        p->op = s[0] == 's' ? SMEM_ST : SMEM_LD;
        return 0;
    }
    if (!strncmp(s, "ldmatrix.x", 10) || !strncmp(s, "stmatrix.x", 10)) {
        const char *rest = s + 11;
        unsigned x = (unsigned)(s[10] - '0');
        if ((x != 1 && x != 2 && x != 4) || (*rest && strcmp(rest, ".trans")))
            return -1;
        p->kind = s[0] == 'l' ? SMEM_PK_LDMATRIX : SMEM_PK_STMATRIX;
        p->op = s[0] == 'l' ? SMEM_LD : SMEM_ST;
        p->matrices = x;
        p->trans = *rest != 0;
        if (set_elem)
            p->elem_bytes = 2;
        return 0;
    }
    if (!strncmp(s, "cp.async.", 9)) {
        const char *q = s + 9;
        int cg = 0;
        if (!strncmp(q, "ca.", 3))
            q += 3;
        else if (!strncmp(q, "cg.", 3))
            q += 3, cg = 1;
        unsigned size = !strcmp(q, "4") ? 4 : !strcmp(q, "8") ? 8 : !strcmp(q, "16") ? 16 : 0;
        if (!size || (cg && size != 16))
            return -1;
        p->kind = SMEM_PK_CP_ASYNC;
        p->op = SMEM_ST;
        p->copy_bytes = size;
        p->bypass = cg;
        if (set_elem)
            p->elem_bytes = size;
        return 0;
    }
    return -1;
}

/* The bytes one lane's access spans: the alignment the instruction needs. */
static unsigned access_unit(const struct smem_pattern *p)
{
    return p->kind == SMEM_PK_LDMATRIX || p->kind == SMEM_PK_STMATRIX ? 16
           : p->kind == SMEM_PK_CP_ASYNC                            ? p->copy_bytes
                                                                    : p->elem_bytes;
}

/* Fills d with "column N: ..." (no prefix when column is 0, a setting rather than the text). */
#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static int fail(struct smem_diag *d, unsigned column, const char *fmt, ...)
{
    if (!d)
        return -1;
    va_list ap;
    d->column = column;
    int k = column ? snprintf(d->message, sizeof d->message, "column %u: ", column) : 0;
    va_start(ap, fmt);
    vsnprintf(d->message + k, sizeof d->message - (size_t)k, fmt, ap);
    va_end(ap);
    return -1;
}

/* ldmatrix / stmatrix / cp.async: wc->request holds each lane's byte address; prices it by the
 * instruction's rule and replaces the request by its picture (matrix.h). */
static int price_special(const struct smem_pattern *p, unsigned w, const struct smem_lanes *L,
                         struct smem_warp_cost *wc, struct smem_diag *diag)
{
    char name[32];
    smem_pattern_op_name(p, name, sizeof name);
    if (p->kind == SMEM_PK_LDMATRIX || p->kind == SMEM_PK_STMATRIX) {
        struct smem_matrix_request m;
        memset(&m, 0, sizeof m);
        m.count = p->matrices;
        m.trans = p->trans;
        m.op = p->kind == SMEM_PK_LDMATRIX ? SMEM_LD : SMEM_ST;
        if (L->count < SMEM_WARP)
            return fail(diag, 0, "%s is executed by a whole warp: warp %u has %u threads (give a block "
                                 "of whole warps)", name, w, L->count);
        for (unsigned l = 0; l < SMEM_WARP; l++) {
            m.row[l] = wc->request.addr[l];
            if ((smem_matrix_lanes(m.count) >> l & 1u) && m.row[l] % 16)
                return fail(diag, 0, "%s: row address %u of lane %u (thread (%u,%u,%u)) is not a "
                                     "multiple of 16 bytes", name, m.row[l], l, L->var[SMEM_VAR_TX][l],
                            L->var[SMEM_VAR_TY][l], L->var[SMEM_VAR_TZ][l]);
        }
        wc->cost = smem_matrix_cost(&p->banks, &m);
        smem_matrix_as_request(&m, &wc->request);
        wc->active_lanes = __builtin_popcount(wc->request.active);
        return 0;
    }
    struct smem_cp_async_request c;
    memset(&c, 0, sizeof c);
    c.active = wc->request.active;
    c.size = p->copy_bytes;
    c.bypass = p->bypass;
    uint32_t src[SMEM_WARP];
    if (p->src && smem_access_eval(p->src, 0, L, src, diag))
        return -1;
    for (unsigned l = 0; l < L->count; l++) {
        c.dst[l] = wc->request.addr[l];
        c.src[l] = (uint64_t)(p->src ? src[l] : L->var[SMEM_VAR_TID][l]) * p->copy_bytes;
        if (c.dst[l] % p->copy_bytes)
            return fail(diag, 0, "%s: destination %u of thread (%u,%u,%u) is not a multiple of %u bytes",
                        name, c.dst[l], L->var[SMEM_VAR_TX][l], L->var[SMEM_VAR_TY][l],
                        L->var[SMEM_VAR_TZ][l], p->copy_bytes);
    }
    wc->cost = smem_cp_async_cost(&p->banks, &c);
    wc->established = smem_cp_async_established(&c);
    smem_cp_async_as_request(&c, &wc->request);
    return 0;
}

int smem_pattern_eval(const struct smem_access *a, const struct smem_pattern *p,
                      struct smem_pattern_result *r, struct smem_diag *diag)
{
    memset(r, 0, sizeof *r);
    if (diag) {
        diag->column = 0;
        diag->message[0] = 0;
    }
    const char *why = smem_pattern_check(p);
    if (why)
        return fail(diag, 0, "%s", why);
    unsigned dims = smem_access_dims(a);
    if (dims == 2 && !p->shape[0])
        return fail(diag, 0, "'%s' is indexed in 2 dimensions: its shape (rows x cols) is needed",
                          smem_access_name(a));
    uint64_t rows = p->shape[0], cols = p->shape[1];
    unsigned nwarps = smem_pattern_warps(p), unit = access_unit(p);
    /* the layout: a pad moves the rows of a 2-D access only */
    struct smem_layout lay = p->layout;
    lay.row_elems = (uint32_t)cols;
    lay.elem_bytes = p->elem_bytes;
    lay.rows = (uint32_t)rows;
    if (lay.kind == SMEM_LAYOUT_PAD && dims != 2)
        lay.pad = 0;
    struct smem_lanes L;
    for (unsigned w = 0; w < nwarps; w++) {
        uint32_t idx[2][SMEM_WARP];
        smem_pattern_lanes(p, w, &L);
        for (unsigned d = 0; d < dims; d++)
            if (smem_access_eval(a, d, &L, idx[d], diag))
                return -1;
        struct smem_warp_cost *wc = &r->warp[w];
        wc->warp = w;
        wc->active_lanes = L.count;
        wc->request.active = L.count == 32 ? 0xffffffffu : (1u << L.count) - 1u;
        wc->request.width = p->elem_bytes;
        wc->request.op = p->op;
        for (unsigned l = 0; l < L.count; l++) {
            uint64_t elem;
            if (dims == 2) {
                if (idx[0][l] >= rows || idx[1][l] >= cols) {
                    int bad = idx[0][l] >= rows ? 0 : 1;
                    return fail(diag, smem_access_column(a, (unsigned)bad),
                                      "%s index %u is outside %s[%llu][%llu] in thread (%u,%u,%u)",
                                      bad ? "column" : "row", idx[bad][l], smem_access_name(a),
                                      (unsigned long long)rows, (unsigned long long)cols,
                                      L.var[SMEM_VAR_TX][l], L.var[SMEM_VAR_TY][l], L.var[SMEM_VAR_TZ][l]);
                }
                elem = idx[0][l] * cols + idx[1][l];
            } else {
                elem = idx[0][l];
                if (rows && elem >= rows * cols)
                    return fail(diag, smem_access_column(a, 0),
                                      "index %llu is outside %s's %llu elements in thread (%u,%u,%u)",
                                      (unsigned long long)elem, smem_access_name(a),
                                      (unsigned long long)(rows * cols), L.var[SMEM_VAR_TX][l],
                                      L.var[SMEM_VAR_TY][l], L.var[SMEM_VAR_TZ][l]);
            }
            uint64_t byte = elem * p->elem_bytes;
            if (byte + p->elem_bytes - 1 > 0xffffffffull)
                return fail(diag, smem_access_column(a, 0),
                                  "byte address %llu (element %llu x %u bytes) does not fit in 32 bits "
                                  "in thread (%u,%u,%u)",
                                  (unsigned long long)byte, (unsigned long long)elem, p->elem_bytes,
                                  L.var[SMEM_VAR_TX][l], L.var[SMEM_VAR_TY][l], L.var[SMEM_VAR_TZ][l]);
            /* in bounds: the (padded) array fits 32 bits (smem_pattern_check); a swizzle changes
               no bit above those it reads; a TMA tile stays within its boxes */
            wc->request.addr[l] = smem_layout_map(&lay, (uint32_t)byte);
            if ((uint64_t)wc->request.addr[l] + unit > r->extent)
                r->extent = (uint64_t)wc->request.addr[l] + unit;
        }
        wc->established = 1;
        if (p->kind != SMEM_PK_PLAIN && price_special(p, w, &L, wc, diag))
            return -1;
        if (p->kind == SMEM_PK_PLAIN)
            wc->cost = smem_request_cost(&p->banks, &wc->request);
        r->requests++;
        r->wavefronts += wc->cost.wavefronts;
        r->ideal += wc->cost.ideal;
        if (wc->cost.max_ways > r->max_ways)
            r->max_ways = wc->cost.max_ways;
        if (wc->cost.wavefronts > r->warp[r->worst].cost.wavefronts)
            r->worst = w;
    }
    return 0;
}

/* The total wavefronts of a under p, or -1 when it cannot be evaluated (an address the layout
 * misaligns, say). */
static int64_t total_wf(const struct smem_access *a, const struct smem_pattern *p, struct smem_pattern_result *r)
{
    struct smem_diag d;
    if (smem_pattern_eval(a, p, r, &d))
        return -1;
    return (int64_t)r->wavefronts;
}

int smem_pattern_advise(const struct smem_access *a, const struct smem_pattern *p, unsigned max_pad,
                        struct smem_pattern_advice *adv, struct smem_diag *diag)
{
    struct smem_pattern_result r; /* about 5 KB */
    memset(adv, 0, sizeof *adv);
    if (smem_pattern_eval(a, p, &r, diag))
        return -1;
    adv->wavefronts = r.wavefronts;
    adv->ideal = r.ideal;
    /* the array: the shape, else as far as the access reaches (a power of two) */
    struct smem_layout_space sp;
    memset(&sp, 0, sizeof sp);
    sp.elem_bytes = p->elem_bytes;
    sp.unit = access_unit(p);
    sp.max_pad = max_pad;
    sp.banks = p->banks;
    uint64_t n = (uint64_t)p->shape[0] * p->shape[1];
    if (!p->shape[0]) {
        uint64_t need = (r.extent + p->elem_bytes - 1) / p->elem_bytes;
        for (n = 1; n < need; n <<= 1)
            ;
    } else if (smem_access_dims(a) == 2) {
        sp.row_elems = p->shape[1];
        sp.rows = p->shape[0];
    }
    sp.elems = n > 0xffffffffu ? 0xffffffffu : (uint32_t)n;
    unsigned eshift = 0; /* log2 of the element size: element M to byte M */
    while ((1u << eshift) < p->elem_bytes)
        eshift++;
    struct smem_pattern q = *p;
    struct smem_layout_iter it;
    struct smem_layout l;
    smem_layout_iter_init(&it, SMEM_LAYOUT_PAD);
    while (smem_layout_next(&sp, &it, &l)) {
        if (smem_layout_onto(&sp, &l) || smem_layout_aligned(&sp, &l))
            continue;
        q.layout = l;
        int64_t wf = total_wf(a, &q, &r);
        if (wf < 0)
            continue;
        if (l.kind == SMEM_LAYOUT_TMA) {
            adv->tma_tried++;
            if (!adv->has_tma || (uint64_t)wf < adv->tma_wavefronts) {
                adv->has_tma = 1;
                adv->tma = l.tma;
                adv->tma_wavefronts = (uint64_t)wf;
            }
        } else if (l.kind == SMEM_LAYOUT_PAD) {
            adv->pads_tried++;
            if (!adv->has_pad || (uint64_t)wf < adv->pad_wavefronts) {
                adv->has_pad = 1;
                adv->pad = l.pad;
                adv->pad_wavefronts = (uint64_t)wf;
            }
        } else {
            adv->swizzles_tried++;
            if (!adv->has_swizzle || (uint64_t)wf < adv->swz_wavefronts) {
                adv->has_swizzle = 1;
                adv->b = l.b;
                adv->m = l.m + eshift;
                adv->s = l.s;
                adv->swz_wavefronts = (uint64_t)wf;
            }
        }
    }
    return 0;
}
