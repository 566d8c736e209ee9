/* flow.c: where code runs only in some warps, in a function's SASS and in its PTX, by the same
 * spans (a forward branch to its target, an exit to the end), so that the census and the
 * fixed-place match compare like with like; and which PTX instructions a branch reaches. */
#include "smemlab/sass/flow.h"

#include <stdlib.h>

/* Marks the instructions inside a branch: spans (from, to) exclusive, from a difference array. */
static void span(int *d, uint32_t n, uint32_t from, uint32_t to)
{
    if (from + 1 >= to || from >= n)
        return;
    d[from + 1]++;
    if (to < n)
        d[to]--;
}

int smem_sass_conditional(const struct smem_sass_func *sf, uint8_t *cond)
{
    uint32_t n = sf->ninsns;
    int *d = calloc(n + 1, sizeof *d);
    if (!d)
        return -1;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_sass_insn *s = &sf->insns[k];
        if (s->cls == SMEM_SASS_BRA && s->target > (int64_t)s->offset)
            span(d, n, k, (uint32_t)(s->target / 16 < (int64_t)n ? s->target / 16 : n));
        if (s->cls == SMEM_SASS_EXIT)
            span(d, n, k, n);
    }
    int run = 0;
    for (uint32_t k = 0; k < n; k++) {
        run += d[k];
        cond[k] = run > 0 || sf->insns[k].guard != SMEM_SASS_PT;
    }
    free(d);
    return 0;
}

uint8_t *smem_sass_ptx_conditional(const struct smem_ptx_func *f, int guards)
{
    uint32_t n = f->ninsns;
    int *d = calloc(n + 1, sizeof *d);
    uint8_t *c = calloc(n ? n : 1, 1);
    if (!d || !c) {
        free(d);
        free(c);
        return NULL;
    }
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->op == PO_BRA)
            for (unsigned o = 0; o < in->nops; o++)
                if (in->ops[o].kind == OPK_LABEL && in->ops[o].imm > (int64_t)k)
                    span(d, n, k, (uint32_t)(in->ops[o].imm < (int64_t)n ? in->ops[o].imm : n));
        if (in->op == PO_RET || in->op == PO_EXIT)
            span(d, n, k, n);
    }
    int run = 0;
    for (uint32_t k = 0; k < n; k++) {
        run += d[k];
        c[k] = run > 0 || (guards && f->insns[k].guard >= 0);
    }
    free(d);
    return c;
}

uint8_t *smem_sass_ptx_targets(const struct smem_ptx_func *f)
{
    uint32_t n = f->ninsns;
    uint8_t *target = calloc(n + 1, 1);
    if (!target)
        return NULL;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        for (unsigned o = 0; o < in->nops; o++)
            if (in->ops[o].kind == OPK_LABEL && in->ops[o].imm >= 0 && (uint64_t)in->ops[o].imm < n)
                target[in->ops[o].imm] = 1;
    }
    return target;
}
