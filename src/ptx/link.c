/* link.c: a kernel with the calls to its module's own functions inlined (smem_ptx_flatten).
 *
 * PTX passes parameters through the .param space: the caller declares call-sequence parameters
 * (param0, retval0) in a scope, stores the arguments to them, calls, and loads the result; the
 * callee reads its own parameters and stores to its return parameter. Inlined, the callee's
 * parameter and return-parameter symbols become the caller's call-sequence symbols, and every
 * access to those goes to local memory: ptxas does the same when it inlines. */
#include "smemlab/ptx/link.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32

struct flat {
    const struct smem_ptx_module *m;
    struct smem_ptx_func *f;      /* being built */
    uint32_t cap_insns, cap_syms, cap_regs;
    uint8_t *converted;           /* per symbol of f: accessed as local memory */
    const struct smem_ptx_func *stack[MAX_DEPTH];
    struct smem_error *err;
};

static int grow(void **p, uint32_t *cap, uint32_t need, size_t each)
{
    if (need <= *cap)
        return 0;
    uint32_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, (size_t)nc * each);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static const struct smem_ptx_func *callee_of(const struct smem_ptx_module *m,
                                             const struct smem_ptx_insn *in)
{
    if (in->op != PO_CALL || !in->call_name || in->ops[0].imm == -1)
        return NULL;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        const struct smem_ptx_func *g = &m->funcs[i];
        if (!g->is_entry && g->ninsns && !g->error && !strcmp(g->name, in->call_name))
            return g;
    }
    return NULL;
}

/* The call matches its callee: as many arguments as parameters, as many results. */
static int call_fits(const struct smem_ptx_insn *in, const struct smem_ptx_func *g)
{
    unsigned nr = in->ops[0].count, na = in->nops > nr + 1u ? in->nops - 1u - nr : 0;
    return nr == g->nrets && na == g->nparams;
}

static int add_sym(struct flat *fl, const struct smem_ptx_symbol *s, int32_t *idx)
{
    struct smem_ptx_func *f = fl->f;
    uint32_t cap = fl->cap_syms;
    if (grow((void **)&f->syms, &fl->cap_syms, f->nsyms + 1, sizeof *f->syms))
        return -1;
    if (fl->cap_syms != cap) {
        uint8_t *c = realloc(fl->converted, fl->cap_syms);
        if (!c)
            return -1;
        memset(c + cap, 0, fl->cap_syms - cap);
        fl->converted = c;
    }
    f->syms[f->nsyms] = *s;
    f->syms[f->nsyms].init = NULL;
    f->syms[f->nsyms].relocs = NULL;
    f->syms[f->nsyms].nrelocs = 0;
    *idx = (int32_t)f->nsyms++;
    return 0;
}

static int add_insn(struct flat *fl, const struct smem_ptx_insn *in, uint32_t *idx)
{
    struct smem_ptx_func *f = fl->f;
    if (grow((void **)&f->insns, &fl->cap_insns, f->ninsns + 1, sizeof *f->insns))
        return -1;
    f->insns[f->ninsns] = *in;
    *idx = f->ninsns++;
    return 0;
}

/* A branch in the flat function to be pointed at `target` once it is known. */
struct fix {
    uint32_t insn;
    uint32_t old; /* the source function's instruction index; UINT32_MAX: the copy's end */
};

static int oom(struct flat *fl)
{
    smem_error_set(fl->err, NULL, 0, 0, "out of memory");
    return -1;
}

/* Appends g's body: registers from reg_base, symbols through map (g's index -> the flat one),
 * at inlining depth (0: the kernel itself). top: the outermost call (NULL at depth 0). */
static int emit(struct flat *fl, const struct smem_ptx_func *g, uint32_t reg_base,
                const int32_t *map, unsigned depth, const struct smem_ptx_insn *top)
{
    struct smem_ptx_func *f = fl->f;
    uint32_t *at = malloc(((size_t)g->ninsns + 1) * sizeof *at);
    struct fix *fx = NULL;
    uint32_t nfx = 0, cap_fx = 0;
    if (!at)
        return oom(fl);
    int rc = -1;
    for (uint32_t j = 0; j < g->ninsns; j++) {
        const struct smem_ptx_insn *src = &g->insns[j];
        at[j] = f->ninsns;
        const struct smem_ptx_func *h = depth + 1 < MAX_DEPTH ? callee_of(fl->m, src) : NULL;
        if (h && call_fits(src, h)) {
            for (unsigned d = 0; d <= depth; d++)
                if (fl->stack[d] == h) {
                    const char *file = src->loc_file < fl->m->nfiles
                                           ? fl->m->files[src->loc_file] : NULL;
                    smem_error_set(fl->err, file, file ? src->loc_line : src->src_line,
                                   file ? src->loc_col : 0,
                                   "recursive call to '%s' (PTX line %u): recursion is not "
                                   "supported", h->name, src->src_line);
                    goto out;
                }
            const struct smem_ptx_insn *outer = top ? top : src;
            if (src->guard >= 0) { /* @p call: skip the copy when p is false */
                struct smem_ptx_insn b;
                memset(&b, 0, sizeof b);
                b.op = PO_BRA;
                b.guard = (int32_t)(src->guard + (int32_t)reg_base);
                b.guard_neg = !src->guard_neg;
                b.ops[0].kind = OPK_LABEL;
                b.ops[0].sym = -1;
                for (int r = 0; r < 4; r++)
                    b.ops[0].reg[r] = -1;
                b.nops = 1;
                b.src_line = src->src_line;
                b.loc_file = src->loc_file;
                b.loc_line = src->loc_line;
                b.chain = SMEM_PTX_NO_FRAME;
                b.top_file = outer->top_file;
                b.top_line = outer->top_line;
                b.top_col = outer->top_col;
                uint32_t bi;
                if (add_insn(fl, &b, &bi) ||
                    grow((void **)&fx, &cap_fx, nfx + 1, sizeof *fx)) {
                    oom(fl);
                    goto out;
                }
                fx[nfx++] = (struct fix){bi, UINT32_MAX - 1}; /* to the copy's end, below */
            }
            /* the callee's symbols: parameters and results are the call's, module-level ones
             * the kernel's own (one shared variable is one), the rest copies */
            int32_t *hm = malloc((h->nsyms ? h->nsyms : 1) * sizeof *hm);
            if (!hm) {
                oom(fl);
                goto out;
            }
            unsigned nr = src->ops[0].count;
            for (uint32_t i = 0; i < h->nsyms; i++) {
                hm[i] = -1;
                if (i < h->nparams)
                    hm[i] = map[src->ops[1 + nr + i].sym];
                for (uint32_t r = 0; r < h->nrets; r++)
                    if (h->ret_sym[r] == (int32_t)i)
                        hm[i] = map[src->ops[1 + r].sym];
                if (hm[i] >= 0) {
                    fl->converted[hm[i]] = 1;
                    continue;
                }
                if (h->syms[i].module_level)
                    for (uint32_t k = 0; k < f->nsyms && hm[i] < 0; k++)
                        if (f->syms[k].module_level && !strcmp(f->syms[k].name, h->syms[i].name))
                            hm[i] = (int32_t)k;
                if (hm[i] < 0 && add_sym(fl, &h->syms[i], &hm[i])) {
                    free(hm);
                    oom(fl);
                    goto out;
                }
            }
            uint32_t base = f->nregs;
            if (grow((void **)&f->reg_type, &fl->cap_regs, f->nregs + h->nregs, 1)) {
                free(hm);
                oom(fl);
                goto out;
            }
            memcpy(f->reg_type + f->nregs, h->reg_type, h->nregs);
            f->nregs += h->nregs;
            fl->stack[depth + 1] = h;
            int e = emit(fl, h, base, hm, depth + 1, outer);
            free(hm);
            if (e)
                goto out;
            for (uint32_t k = 0; k < nfx; k++) /* the guard's branch: past the copy */
                if (fx[k].old == UINT32_MAX - 1) {
                    f->insns[fx[k].insn].ops[0].imm = f->ninsns;
                    fx[k].old = UINT32_MAX - 2; /* done */
                }
            continue;
        }
        struct smem_ptx_insn in = *src;
        if (in.guard >= 0)
            in.guard += (int32_t)reg_base;
        for (unsigned o = 0; o < in.nops; o++) {
            struct smem_ptx_operand *op = &in.ops[o];
            for (int r = 0; r < 4; r++)
                if (op->reg[r] >= 0 && (op->kind == OPK_REG || op->kind == OPK_PAIR ||
                                        op->kind == OPK_ADDR || op->kind == OPK_VEC))
                    op->reg[r] += (int32_t)reg_base;
            if (op->sym >= 0 && (uint32_t)op->sym < g->nsyms)
                op->sym = map[op->sym];
        }
        if (in.op == PO_CALL && in.ops[0].sym >= 0)
            in.ops[0].sym = map[src->ops[0].sym];
        if (top) { /* reported at the kernel's line of the outermost call */
            in.chain = SMEM_PTX_NO_FRAME;
            in.top_file = top->top_file;
            in.top_line = top->top_line;
            in.top_col = top->top_col;
        }
        int is_ret = depth > 0 && in.op == PO_RET;
        if (is_ret) { /* return: past the copy */
            in.op = PO_BRA;
            in.nops = 1;
            memset(&in.ops[0], 0, sizeof in.ops[0]);
            in.ops[0].kind = OPK_LABEL;
            in.ops[0].sym = -1;
            for (int r = 0; r < 4; r++)
                in.ops[0].reg[r] = -1;
        }
        uint32_t idx;
        if (add_insn(fl, &in, &idx)) {
            oom(fl);
            goto out;
        }
        if (is_ret || (in.op == PO_BRA && in.ops[0].kind == OPK_LABEL)) {
            if (grow((void **)&fx, &cap_fx, nfx + 1, sizeof *fx)) {
                oom(fl);
                goto out;
            }
            fx[nfx++] = (struct fix){idx, is_ret ? UINT32_MAX : (uint32_t)in.ops[0].imm};
        }
    }
    at[g->ninsns] = f->ninsns;
    for (uint32_t k = 0; k < nfx; k++) {
        if (fx[k].old == UINT32_MAX - 2)
            continue;
        uint32_t t = fx[k].old == UINT32_MAX ? f->ninsns
                     : fx[k].old <= g->ninsns ? at[fx[k].old] : f->ninsns;
        f->insns[fx[k].insn].ops[0].imm = t;
    }
    rc = 0;
out:
    free(at);
    free(fx);
    return rc;
}

int smem_ptx_flatten(const struct smem_ptx_module *m, const struct smem_ptx_func *k,
                     struct smem_ptx_func **out, struct smem_error *err)
{
    *out = NULL;
    int any = 0;
    for (uint32_t i = 0; i < k->ninsns && !any; i++) {
        const struct smem_ptx_func *g = callee_of(m, &k->insns[i]);
        any = g && call_fits(&k->insns[i], g);
    }
    if (!any)
        return 0;
    struct flat fl;
    memset(&fl, 0, sizeof fl);
    fl.m = m;
    fl.err = err;
    fl.f = calloc(1, sizeof *fl.f);
    if (!fl.f)
        return oom(&fl);
    struct smem_ptx_func *f = fl.f;
    *f = *k;
    f->syms = NULL;
    f->nsyms = 0;
    f->insns = NULL;
    f->ninsns = 0;
    f->reg_type = NULL;
    f->nregs = 0;
    f->error = NULL;
    int32_t *map = malloc((k->nsyms ? k->nsyms : 1) * sizeof *map);
    if (!map || grow((void **)&f->reg_type, &fl.cap_regs, k->nregs ? k->nregs : 1, 1)) {
        free(map);
        free(f->reg_type);
        free(f);
        return oom(&fl);
    }
    memcpy(f->reg_type, k->reg_type, k->nregs);
    f->nregs = k->nregs;
    int rc = 0;
    for (uint32_t i = 0; i < k->nsyms && !rc; i++)
        rc = add_sym(&fl, &k->syms[i], &map[i]);
    if (rc)
        oom(&fl);
    fl.stack[0] = k;
    if (!rc)
        rc = emit(&fl, k, 0, map, 0, NULL);
    free(map);
    if (!rc) {
        /* accesses to the call-sequence parameters of inlined calls: local memory */
        for (uint32_t i = 0; i < f->ninsns; i++) {
            struct smem_ptx_insn *in = &f->insns[i];
            if (in->space != SP_PARAM || (in->op != PO_LD && in->op != PO_ST))
                continue;
            const struct smem_ptx_operand *mo = &in->ops[in->op == PO_LD ? 1 : 0];
            if (mo->kind == OPK_ADDR && mo->sym >= 0 && fl.converted[mo->sym]) {
                in->space = SP_LOCAL;
                f->syms[mo->sym].kind = SYM_LOCAL;
            }
        }
    }
    free(fl.converted);
    if (rc) {
        smem_ptx_flat_free(f);
        return -1;
    }
    *out = f;
    return 0;
}

void smem_ptx_flat_free(struct smem_ptx_func *f)
{
    if (!f)
        return;
    free(f->syms);
    free(f->insns);
    free(f->reg_type);
    free(f);
}
