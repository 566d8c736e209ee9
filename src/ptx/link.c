/* link.c: a kernel with the calls to its module's own functions inlined (smem_ptx_flatten).
 *
 * PTX passes parameters through the .param space: the caller declares call-sequence parameters
 * (param0, retval0) in a scope, stores the arguments to them, calls, and loads the result; the
 * callee reads its own parameters and stores to its return parameter. Inlined, the callee's
 * parameter and return-parameter symbols become the caller's call-sequence symbols, and every
 * access to those goes to local memory: ptxas does the same when it inlines.
 *
 * Recursion (a function that reaches itself through its calls) cannot be inlined to the end. Its
 * first copy becomes the body of every activation: a recursive call saves the activation (the
 * registers of the copy, its local variables and parameters) on a per-thread call stack in
 * local memory (a local symbol of the kernel, `__smemlab_callstack`), passes the arguments in
 * the copy's parameters and jumps to the copy's start; the copy's `ret` goes to a dispatcher
 * that returns to the outer caller when the stack is back where the outermost call found it,
 * and otherwise pops the frame, whose return-site number says which call continues. All of it
 * is ordinary PTX (ld/st.local, add, setp, bra), so the emulator needs nothing new; a stack
 * overflow is a located trap. This is what ptxas's ABI does with callee-saved registers. */
#include "smemlab/ptx/link.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 32
#define STACK_FRAMES 128          /* frames of the largest recursive function */
#define STACK_MAX (256u << 10)    /* bytes a thread, at most */
#define STACK_MIN (16u << 10)

static const char stack_overflow_msg[] =
    "recursive calls nest deeper than smemlab's call stack (128 frames of the largest recursive "
    "function, at most 256 KB a thread)";
static const char bad_return_msg[] = "smemlab's call stack is corrupt (a return without its call)";

/* A call that re-enters a copy still running (recursion). */
struct rsite {
    uint32_t bra;       /* the branch to its push stub */
    uint32_t cont;      /* the instruction after the call */
    int32_t args[16];   /* the call's argument symbols (flat) */
    int32_t res[4];     /* its result symbols */
};

/* The copy of a recursive function that every activation runs. */
struct rbody {
    int active;
    uint32_t entry;           /* its first instruction */
    uint32_t reg_lo, sym_lo;  /* its registers and symbols start there */
    int32_t params[16], rets[4];
    uint32_t nparams, nrets;
    int32_t base_reg;         /* %sp when the outermost call entered it */
    struct rsite *sites;
    uint32_t nsites, cap_sites;
    const struct smem_ptx_insn *call; /* the outermost call, for locations */
};

struct flat {
    const struct smem_ptx_module *m;
    struct smem_ptx_func *f;      /* being built */
    uint32_t cap_insns, cap_syms, cap_regs, cap_vregs;
    uint8_t *converted;           /* per symbol of f: accessed as local memory */
    const struct smem_ptx_func *stack[MAX_DEPTH];
    struct rbody body[MAX_DEPTH];
    int8_t *recursive;            /* per module function: reaches itself (-1 not yet known) */
    int32_t sp_reg, sp0_reg;      /* the call stack's pointer and its start; -1: no recursion */
    int32_t stack_sym;
    uint32_t max_frame;           /* the largest frame + results */
    uint32_t *limit_insns;        /* overflow checks: their immediate is the stack size - frame */
    uint32_t *limit_frames;
    uint32_t nlimits, cap_limits;
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

/* ---- recursion ------------------------------------------------------------------------------ */

static uint32_t func_index(const struct smem_ptx_module *m, const struct smem_ptx_func *g)
{
    return (uint32_t)(g - m->funcs);
}

/* Whether g reaches target through calls the flattening follows (depth-first, marks in seen). */
static int reaches(const struct smem_ptx_module *m, const struct smem_ptx_func *g,
                   const struct smem_ptx_func *target, uint8_t *seen)
{
    for (uint32_t i = 0; i < g->ninsns; i++) {
        const struct smem_ptx_func *h = callee_of(m, &g->insns[i]);
        if (!h || !call_fits(&g->insns[i], h))
            continue;
        if (h == target)
            return 1;
        uint32_t hi = func_index(m, h);
        if (seen[hi])
            continue;
        seen[hi] = 1;
        if (reaches(m, h, target, seen))
            return 1;
    }
    return 0;
}

static int is_recursive(struct flat *fl, const struct smem_ptx_func *h)
{
    uint32_t hi = func_index(fl->m, h);
    if (fl->recursive[hi] < 0) {
        uint8_t *seen = calloc(fl->m->nfuncs ? fl->m->nfuncs : 1, 1);
        if (!seen)
            return -1;
        fl->recursive[hi] = (int8_t)reaches(fl->m, h, h, seen);
        free(seen);
    }
    return fl->recursive[hi];
}

static int new_reg(struct flat *fl, uint8_t type, int32_t *r)
{
    struct smem_ptx_func *f = fl->f;
    if (grow((void **)&f->reg_type, &fl->cap_regs, f->nregs + 1, 1))
        return -1;
    f->reg_type[f->nregs] = type;
    *r = (int32_t)f->nregs++;
    return 0;
}

/* A synthetic instruction located at `at` (the call it implements) and reported at top. */
static struct smem_ptx_insn synth(unsigned op, unsigned type, const struct smem_ptx_insn *at,
                                  const struct smem_ptx_insn *top)
{
    struct smem_ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint8_t)op;
    in.type = (uint8_t)type;
    in.vec = 1;
    in.guard = -1;
    for (unsigned o = 0; o < SMEM_PTX_MAX_OPS; o++) {
        in.ops[o].sym = -1;
        for (int r = 0; r < 4; r++)
            in.ops[o].reg[r] = -1;
    }
    in.src_line = at->src_line;
    in.loc_file = at->loc_file;
    in.loc_line = at->loc_line;
    in.loc_col = at->loc_col;
    in.chain = SMEM_PTX_NO_FRAME;
    in.top_file = top->top_file;
    in.top_line = top->top_line;
    in.top_col = top->top_col;
    return in;
}

static void op_reg(struct smem_ptx_operand *o, int32_t r)
{
    o->kind = OPK_REG;
    o->reg[0] = r;
}

static void op_imm(struct smem_ptx_operand *o, int64_t v)
{
    o->kind = OPK_IMM;
    o->imm = v;
}

/* [reg + imm] or [sym + imm] */
static void op_addr(struct smem_ptx_operand *o, int32_t reg, int32_t sym, int64_t imm)
{
    o->kind = OPK_ADDR;
    o->reg[0] = reg;
    o->sym = sym;
    o->imm = imm;
}

static void op_label(struct smem_ptx_operand *o, uint32_t target)
{
    o->kind = OPK_LABEL;
    o->imm = target;
}

/* Context of the stubs being written for one recursive body. */
struct stubs {
    struct flat *fl;
    const struct smem_ptx_insn *at, *top;
    int32_t t16, t32, t64, p;
    int failed;
};

static uint32_t put(struct stubs *S, const struct smem_ptx_insn *in)
{
    uint32_t idx = 0;
    if (!S->failed && add_insn(S->fl, in, &idx))
        S->failed = 1;
    return idx;
}

/* ld/st.local of `bytes` (1, 2, 4 or 8) between register r and [reg/sym + off] */
static void put_ldst(struct stubs *S, int store, unsigned bytes, int32_t r, int32_t areg,
                     int32_t asym, int64_t off)
{
    static const uint8_t ty[9] = {0, PT_U8, PT_B16, 0, PT_B32, 0, 0, 0, PT_B64};
    struct smem_ptx_insn in = synth(store ? PO_ST : PO_LD, ty[bytes], S->at, S->top);
    in.space = SP_LOCAL;
    in.nops = 2;
    op_addr(&in.ops[store ? 0 : 1], areg, asym, off);
    op_reg(&in.ops[store ? 1 : 0], r);
    put(S, &in);
}

static void put_arith(struct stubs *S, unsigned op, unsigned type, int32_t d, int32_t a, int64_t imm)
{
    struct smem_ptx_insn in = synth(op, type, S->at, S->top);
    in.nops = 3;
    op_reg(&in.ops[0], d);
    op_reg(&in.ops[1], a);
    op_imm(&in.ops[2], imm);
    put(S, &in);
}

/* @p bra target (target patched later when 0); returns the branch's index */
static uint32_t put_bra(struct stubs *S, int32_t guard, int neg, uint32_t target)
{
    struct smem_ptx_insn in = synth(PO_BRA, PT_NONE, S->at, S->top);
    in.nops = 1;
    in.guard = guard;
    in.guard_neg = (uint8_t)neg;
    op_label(&in.ops[0], target);
    return put(S, &in);
}

static void put_trap(struct stubs *S, int32_t guard, const char *msg)
{
    struct smem_ptx_insn in = synth(PO_TRAP, PT_NONE, S->at, S->top);
    in.guard = guard;
    in.call_name = msg; /* the emulator's message for this trap */
    put(S, &in);
}

/* setp.<cmp>.<type> %p, a, b (b an immediate when breg < 0) */
static void put_setp(struct stubs *S, unsigned cmp, unsigned type, int32_t a, int32_t breg,
                     int64_t imm)
{
    struct smem_ptx_insn in = synth(PO_SETP, type, S->at, S->top);
    in.cmp = (uint8_t)cmp;
    in.nops = 3;
    op_reg(&in.ops[0], S->p);
    op_reg(&in.ops[1], a);
    if (breg >= 0)
        op_reg(&in.ops[2], breg);
    else
        op_imm(&in.ops[2], imm);
    put(S, &in);
}

/* Copies n bytes between local [asym + aoff] / [areg + aoff] and [bsym/breg + boff]. */
static void put_copy(struct stubs *S, int32_t areg, int32_t asym, int64_t aoff, int32_t breg,
                     int32_t bsym, int64_t boff, uint64_t n, unsigned align)
{
    uint64_t i = 0;
    for (; align >= 4 && i + 4 <= n; i += 4) {
        put_ldst(S, 0, 4, S->t32, areg, asym, aoff + (int64_t)i);
        put_ldst(S, 1, 4, S->t32, breg, bsym, boff + (int64_t)i);
    }
    for (; i < n; i++) {
        put_ldst(S, 0, 1, S->t16, areg, asym, aoff + (int64_t)i);
        put_ldst(S, 1, 1, S->t16, breg, bsym, boff + (int64_t)i);
    }
}

/* What a frame of body B holds: registers [reg_lo, reg_hi), then the local symbols. */
struct frame_item {
    int32_t reg, sym;   /* one of them */
    uint32_t off, bytes;
};

static int body_symbol(const struct flat *fl, const struct rbody *B, uint32_t s)
{
    const struct smem_ptx_symbol *y = &fl->f->syms[s];
    if (!y->size)
        return 0;
    if (s >= B->sym_lo && (y->kind == SYM_LOCAL || fl->converted[s]))
        return 1;
    for (uint32_t i = 0; i < B->nparams; i++)
        if (B->params[i] == (int32_t)s)
            return 1;
    return 0;
}

/* Writes the dispatcher and the push/pop stubs of body B after its copy (at the current end);
 * returns the dispatcher's index in *disp and patches the sites' branches. */
static int put_stubs(struct flat *fl, struct rbody *B, const struct smem_ptx_insn *top,
                     uint32_t *disp)
{
    struct smem_ptx_func *f = fl->f;
    uint32_t reg_hi = f->nregs, sym_hi = f->nsyms;
    struct stubs S = {fl, B->call, top, -1, -1, -1, -1, 0};
    if (new_reg(fl, PT_U16, &S.t16) || new_reg(fl, PT_B32, &S.t32) ||
        new_reg(fl, PT_U64, &S.t64) || new_reg(fl, PT_PRED, &S.p))
        return oom(fl);
    /* the frame's layout */
    uint32_t nitems = (reg_hi - B->reg_lo) + (sym_hi > B->sym_lo ? sym_hi : 0) + B->nparams + 1;
    struct frame_item *it = malloc(nitems * sizeof *it);
    if (!it)
        return oom(fl);
    uint32_t n = 0, off = 0;
    for (uint32_t r = B->reg_lo; r < reg_hi; r++) {
        unsigned t = f->reg_type[r], by = t == PT_PRED ? 4 : smem_ptx_type_bytes(t);
        if (by == 16 || by == 0) {
            free(it);
            smem_error_set(fl->err, NULL, B->call->src_line, 0,
                           "recursive call (PTX line %u): a register of type %s cannot be saved "
                           "on smemlab's call stack", B->call->src_line,
                           by ? ".b128" : "(unknown)");
            return -1;
        }
        if (by == 1)
            by = 2;
        off = (off + by - 1) / by * by;
        it[n++] = (struct frame_item){(int32_t)r, -1, off, by};
        off += by;
    }
    for (uint32_t s = 0; s < sym_hi; s++)
        if (body_symbol(fl, B, s)) {
            off = (off + 7u) & ~7u;
            it[n++] = (struct frame_item){-1, (int32_t)s, off, (uint32_t)f->syms[s].size};
            off += (uint32_t)f->syms[s].size;
        }
    off = (off + 3u) & ~3u;
    uint32_t rid_off = off;
    uint32_t frame = (off + 4u + 7u) & ~7u, resbytes = 0;
    for (uint32_t r = 0; r < B->nrets; r++)
        resbytes += ((uint32_t)f->syms[B->rets[r]].size + 7u) & ~7u;
    if (frame + resbytes > fl->max_frame)
        fl->max_frame = frame + resbytes;

    /* the dispatcher: back to the outermost caller, or to the site whose number is on the stack */
    *disp = f->ninsns;
    put_setp(&S, CMP_EQ, PT_U64, fl->sp_reg, B->base_reg, 0);
    uint32_t to_end = put_bra(&S, S.p, 0, 0);
    put_ldst(&S, 0, 4, S.t32, fl->sp_reg, -1, (int64_t)rid_off - (int64_t)frame);
    uint32_t *to_pop = calloc(B->nsites ? B->nsites : 1, sizeof *to_pop);
    if (!to_pop) {
        free(it);
        return oom(fl);
    }
    for (uint32_t k = 0; k < B->nsites; k++) {
        put_setp(&S, CMP_EQ, PT_U32, S.t32, -1, k);
        to_pop[k] = put_bra(&S, S.p, 0, 0);
    }
    put_trap(&S, -1, bad_return_msg);

    for (uint32_t k = 0; k < B->nsites && !S.failed; k++) {
        struct rsite *c = &B->sites[k];
        /* push: room for the frame and the results (size patched when the stack's is known) */
        f->insns[c->bra].ops[0].imm = f->ninsns;
        put_arith(&S, PO_SUB, PT_U64, S.t64, fl->sp_reg, 0);
        f->insns[f->ninsns - 1].ops[2].kind = OPK_REG;
        f->insns[f->ninsns - 1].ops[2].reg[0] = fl->sp0_reg;
        put_setp(&S, CMP_GT, PT_U64, S.t64, -1, 0);
        if (!S.failed) {
            if (grow((void **)&fl->limit_insns, &fl->cap_limits, fl->nlimits + 1,
                     sizeof *fl->limit_insns)) {
                S.failed = 1;
                break;
            }
            uint32_t cap = fl->cap_limits;
            uint32_t *lf = realloc(fl->limit_frames, cap * sizeof *lf);
            if (!lf) {
                S.failed = 1;
                break;
            }
            fl->limit_frames = lf;
            fl->limit_insns[fl->nlimits] = f->ninsns - 1;
            fl->limit_frames[fl->nlimits++] = frame + resbytes;
        }
        put_trap(&S, S.p, stack_overflow_msg);
        for (uint32_t i = 0; i < n; i++) {
            if (it[i].reg >= 0) {
                int32_t r = it[i].reg;
                if (f->reg_type[r] == PT_PRED) {
                    struct smem_ptx_insn in = synth(PO_SELP, PT_B32, S.at, S.top);
                    in.nops = 4;
                    op_reg(&in.ops[0], S.t32);
                    op_imm(&in.ops[1], 1);
                    op_imm(&in.ops[2], 0);
                    op_reg(&in.ops[3], r);
                    put(&S, &in);
                    put_ldst(&S, 1, 4, S.t32, fl->sp_reg, -1, it[i].off);
                } else {
                    put_ldst(&S, 1, it[i].bytes, r, fl->sp_reg, -1, it[i].off);
                }
            } else {
                put_copy(&S, -1, it[i].sym, 0, fl->sp_reg, -1, it[i].off, it[i].bytes,
                         f->syms[it[i].sym].align);
            }
        }
        struct smem_ptx_insn mv = synth(PO_MOV, PT_B32, S.at, S.top);
        mv.nops = 2;
        op_reg(&mv.ops[0], S.t32);
        op_imm(&mv.ops[1], k);
        put(&S, &mv);
        put_ldst(&S, 1, 4, S.t32, fl->sp_reg, -1, rid_off);
        put_arith(&S, PO_ADD, PT_U64, fl->sp_reg, fl->sp_reg, frame);
        /* the arguments become the body's parameters */
        for (uint32_t i = 0; i < B->nparams; i++) {
            const struct smem_ptx_symbol *y = &f->syms[B->params[i]];
            put_copy(&S, -1, c->args[i], 0, -1, B->params[i], 0, y->size, y->align);
        }
        put_bra(&S, -1, 0, B->entry);

        /* pop: the results to the scratch above the frame, the frame back, then the results */
        uint32_t pop = f->ninsns;
        f->insns[to_pop[k]].ops[0].imm = pop;
        put_arith(&S, PO_SUB, PT_U64, fl->sp_reg, fl->sp_reg, frame);
        uint32_t ro = frame;
        for (uint32_t r = 0; r < B->nrets; r++) {
            const struct smem_ptx_symbol *y = &f->syms[B->rets[r]];
            put_copy(&S, -1, B->rets[r], 0, fl->sp_reg, -1, ro, y->size, y->align);
            ro += ((uint32_t)y->size + 7u) & ~7u;
        }
        for (uint32_t i = 0; i < n; i++) {
            if (it[i].reg >= 0) {
                int32_t r = it[i].reg;
                if (f->reg_type[r] == PT_PRED) {
                    put_ldst(&S, 0, 4, S.t32, fl->sp_reg, -1, it[i].off);
                    struct smem_ptx_insn in = synth(PO_SETP, PT_B32, S.at, S.top);
                    in.cmp = CMP_NE;
                    in.nops = 3;
                    op_reg(&in.ops[0], r);
                    op_reg(&in.ops[1], S.t32);
                    op_imm(&in.ops[2], 0);
                    put(&S, &in);
                } else {
                    put_ldst(&S, 0, it[i].bytes, r, fl->sp_reg, -1, it[i].off);
                }
            } else {
                put_copy(&S, fl->sp_reg, -1, it[i].off, -1, it[i].sym, 0, it[i].bytes,
                         f->syms[it[i].sym].align);
            }
        }
        ro = frame;
        for (uint32_t r = 0; r < B->nrets; r++) {
            const struct smem_ptx_symbol *y = &f->syms[c->res[r]];
            put_copy(&S, fl->sp_reg, -1, ro, -1, c->res[r], 0, y->size, y->align);
            ro += ((uint32_t)y->size + 7u) & ~7u;
        }
        put_bra(&S, -1, 0, c->cont);
    }
    free(it);
    free(to_pop);
    if (S.failed)
        return oom(fl);
    f->insns[to_end].ops[0].imm = f->ninsns; /* past the stubs: the outermost call's end */
    return 0;
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
                if (fl->stack[d] == h && fl->body[d].active) { /* recursion: a push stub */
                    struct rbody *B = &fl->body[d];
                    if (grow((void **)&B->sites, &B->cap_sites, B->nsites + 1, sizeof *B->sites)) {
                        oom(fl);
                        goto out;
                    }
                    struct rsite *c = &B->sites[B->nsites];
                    memset(c, 0, sizeof *c);
                    unsigned nr = src->ops[0].count;
                    for (uint32_t i = 0; i < h->nparams; i++)
                        fl->converted[c->args[i] = map[src->ops[1 + nr + i].sym]] = 1;
                    for (uint32_t r = 0; r < h->nrets; r++)
                        fl->converted[c->res[r] = map[src->ops[1 + r].sym]] = 1;
                    struct smem_ptx_insn b = *src;
                    memset(b.ops, 0, sizeof b.ops);
                    b.op = PO_BRA;
                    b.call_name = NULL;
                    b.call_target = -1;
                    b.nops = 1;
                    for (unsigned o = 0; o < SMEM_PTX_MAX_OPS; o++) {
                        b.ops[o].sym = -1;
                        for (int r = 0; r < 4; r++)
                            b.ops[o].reg[r] = -1;
                    }
                    b.ops[0].kind = OPK_LABEL;
                    if (b.guard >= 0)
                        b.guard += (int32_t)reg_base;
                    if (top) {
                        b.chain = SMEM_PTX_NO_FRAME;
                        b.top_file = top->top_file;
                        b.top_line = top->top_line;
                        b.top_col = top->top_col;
                    }
                    if (add_insn(fl, &b, &c->bra)) {
                        oom(fl);
                        goto out;
                    }
                    c->cont = f->ninsns;
                    B->nsites++;
                    goto next;
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
            uint32_t sym_lo = f->nsyms;
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
            int rec = is_recursive(fl, h);
            struct rbody *B = &fl->body[depth + 1];
            memset(B, 0, sizeof *B);
            if (rec < 0) {
                free(hm);
                oom(fl);
                goto out;
            }
            if (rec) { /* every activation runs this copy: remember where it starts */
                if (h->nparams > 16 || h->nrets > 4 || fl->sp_reg < 0) {
                    free(hm);
                    smem_error_set(fl->err, NULL, src->src_line, 0,
                                   "recursive function '%s' (PTX line %u): more than 16 "
                                   "parameters or 4 results are not supported", h->name,
                                   src->src_line);
                    goto out;
                }
                B->active = 1;
                B->call = src;
                B->sym_lo = sym_lo;
                B->nparams = h->nparams;
                B->nrets = h->nrets;
                for (uint32_t i = 0; i < h->nparams; i++)
                    B->params[i] = hm[i];
                for (uint32_t r = 0; r < h->nrets; r++)
                    B->rets[r] = hm[h->ret_sym[r]];
                if (new_reg(fl, PT_U64, &B->base_reg)) {
                    free(hm);
                    oom(fl);
                    goto out;
                }
                struct stubs S0 = {fl, src, outer, -1, -1, -1, -1, 0};
                struct smem_ptx_insn mv = synth(PO_MOV, PT_U64, src, outer);
                mv.nops = 2;
                op_reg(&mv.ops[0], B->base_reg);
                op_reg(&mv.ops[1], fl->sp_reg);
                put(&S0, &mv);
                if (S0.failed) {
                    free(hm);
                    oom(fl);
                    goto out;
                }
            }
            uint32_t base = f->nregs;
            B->reg_lo = base;
            B->entry = f->ninsns;
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
            free(B->sites);
            memset(B, 0, sizeof *B);
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
            if (op->kind == OPK_VECX) { /* 5-8 registers: a copy of the list, this copy's */
                if (grow((void **)&fl->f->vregs, &fl->cap_vregs, fl->f->nvregs + op->count,
                         sizeof *fl->f->vregs)) {
                    oom(fl);
                    goto out;
                }
                for (unsigned r = 0; r < op->count; r++) {
                    int32_t v = smem_ptx_vec_reg(g, op, r);
                    fl->f->vregs[fl->f->nvregs + r] = v >= 0 ? v + (int32_t)reg_base : -1;
                }
                op->imm = fl->f->nvregs;
                fl->f->nvregs += op->count;
                for (int r = 0; r < 4; r++)
                    if (op->reg[r] >= 0)
                        op->reg[r] += (int32_t)reg_base;
                continue;
            }
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
        for (unsigned d = 1; d <= depth; d++)
            if (fl->body[d].active)
                in.in_recursion = 1;
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
    next:;
    }
    uint32_t end = f->ninsns;
    if (depth > 0 && fl->body[depth].active && fl->body[depth].nsites) {
        /* recursive: returns go to the dispatcher, written after the copy */
        if (put_stubs(fl, &fl->body[depth], top, &end))
            goto out;
    }
    at[g->ninsns] = end;
    for (uint32_t k = 0; k < nfx; k++) {
        if (fx[k].old == UINT32_MAX - 2)
            continue;
        uint32_t t = fx[k].old == UINT32_MAX ? end
                     : fx[k].old <= g->ninsns ? at[fx[k].old] : end;
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
    f->vregs = NULL; /* its own list: each copy's fragments name that copy's registers */
    f->nvregs = 0;
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
    fl.sp_reg = fl.sp0_reg = fl.stack_sym = -1;
    fl.recursive = malloc(m->nfuncs ? m->nfuncs : 1);
    if (!rc && !fl.recursive)
        rc = oom(&fl);
    if (fl.recursive)
        memset(fl.recursive, -1, m->nfuncs ? m->nfuncs : 1);
    if (!rc) { /* a recursive function within reach: the call stack, set up first */
        uint8_t *seen = calloc(m->nfuncs ? m->nfuncs : 1, 1);
        int any_rec = 0;
        if (!seen)
            rc = oom(&fl);
        else
            reaches(m, k, k, seen); /* marks what k reaches (k itself is an entry) */
        for (uint32_t i = 0; !rc && i < m->nfuncs && !any_rec; i++)
            if (seen[i]) {
                int r = is_recursive(&fl, &m->funcs[i]);
                if (r < 0)
                    rc = oom(&fl);
                any_rec = r > 0;
            }
        free(seen);
        if (!rc && any_rec) {
            struct smem_ptx_symbol st;
            memset(&st, 0, sizeof st);
            st.name = (char *)"__smemlab_callstack";
            st.kind = SYM_LOCAL;
            st.type = PT_B8;
            st.align = 8;
            st.size = STACK_MIN;
            const struct smem_ptx_insn *at0 = k->ninsns ? &k->insns[0] : NULL;
            if (add_sym(&fl, &st, &fl.stack_sym) || new_reg(&fl, PT_U64, &fl.sp0_reg) ||
                new_reg(&fl, PT_U64, &fl.sp_reg))
                rc = oom(&fl);
            else if (at0) {
                struct stubs S0 = {&fl, at0, at0, -1, -1, -1, -1, 0};
                struct smem_ptx_insn mv = synth(PO_MOV, PT_U64, at0, at0);
                mv.nops = 2;
                op_reg(&mv.ops[0], fl.sp0_reg);
                mv.ops[1].kind = OPK_SYM;
                mv.ops[1].sym = fl.stack_sym;
                put(&S0, &mv);
                mv.ops[0].reg[0] = fl.sp_reg;
                op_reg(&mv.ops[1], fl.sp0_reg);
                mv.ops[1].sym = -1;
                put(&S0, &mv);
                if (S0.failed)
                    rc = oom(&fl);
            }
        }
    }
    if (!rc)
        rc = emit(&fl, k, 0, map, 0, NULL);
    free(map);
    if (!rc && fl.stack_sym >= 0) { /* the stack's size: STACK_FRAMES of the largest frame */
        uint64_t size = (uint64_t)fl.max_frame * STACK_FRAMES;
        if (size < STACK_MIN)
            size = STACK_MIN;
        if (size > STACK_MAX)
            size = STACK_MAX;
        if (size < 2ull * fl.max_frame)
            size = 2ull * fl.max_frame;
        f->syms[fl.stack_sym].size = size;
        for (uint32_t i = 0; i < fl.nlimits; i++)
            f->insns[fl.limit_insns[i]].ops[2].imm =
                size > fl.limit_frames[i] ? (int64_t)(size - fl.limit_frames[i]) : -1;
    }
    free(fl.recursive);
    free(fl.limit_insns);
    free(fl.limit_frames);
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
        for (uint32_t s = 0; s < f->nsyms; s++) /* the call stack copies some that no ld/st.param reads */
            if (fl.converted[s])
                f->syms[s].kind = SYM_LOCAL;
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
    free(f->vregs);
    free(f);
}
