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
    unsigned nwarps = smem_pattern_warps(p);
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
            wc->request.addr[l] = (uint32_t)byte;
        }
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
