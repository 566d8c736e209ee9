/* cta_prepare.c: a kernel's PTX made ready to run: shared sites (with what ptxas keeps of them, via
 * the SASS model), the shared and local layout, fast-path kinds per instruction; and the launch
 * checked against the GPU's limits. */
#include "families.h" /* the block's fast kinds, the wmma fragments */
#include "smemlab/ptx/link.h"

#include "smemlab/sass/sass_fixed.h"
#include "smemlab/sass/sass_fma.h"
#include "smemlab/sass/sass_model.h"
#include "smemlab/sass/sass_reread.h"

#include <stdlib.h>
#include <string.h>

/* ---- preparation ------------------------------------------------------------------------ */


static int fast_operand(const struct smem_ptx_operand *o)
{
    return o->kind == OPK_REG || o->kind == OPK_IMM;
}

/* Memory instructions the warp loop runs for all lanes at once (cta_warp.c, emu_warp_mem). */
static uint8_t fast_mem_kind(const struct smem_ptx_insn *in)
{
    unsigned esz = TBYTES(in->type);
    int ld = in->op == PO_LD, st = in->op == PO_ST;
    if (in->space == SP_GLOBAL || in->space == SP_CONST)
        return smem_op_is_ldst(in->op) ? F_GLOBAL : F_NONE;
    if ((!ld && !st) || in->space != SP_SHARED || in->mods || esz == 0 || esz > 8 ||
        (in->vec != 1 && in->vec != 2 && in->vec != 4) || in->nops != 2)
        return F_NONE;
    const struct smem_ptx_operand *mo = &in->ops[ld ? 1 : 0], *v = &in->ops[ld ? 0 : 1];
    if (mo->kind != OPK_ADDR || (mo->reg[0] < 0 && mo->sym < 0))
        return F_NONE;
    if (v->kind == OPK_VEC ? v->count != in->vec
                           : in->vec != 1 || !(v->kind == OPK_REG || (st && v->kind == OPK_IMM)))
        return F_NONE;
    return ld ? F_LDS : F_STS;
}

/* the fast kind of each opcode's plain 32-bit integer form (opcodes.def, fast32) */
static const uint8_t fast32_of[256] = {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) [PO_##id] = fast32,
#include "smemlab/ptx/opcodes.def"
#undef OP
};

/* Instructions simple enough for the fast path: integer ops on registers and immediates. */
static uint8_t fast_kind_of(const struct smem_ptx_func *f, const struct smem_ptx_insn *in)
{
    unsigned t = in->type;
    if (in->op == PO_LD && in->space == SP_PARAM && in->nops == 2 &&
        in->ops[1].kind == OPK_ADDR && in->ops[1].reg[0] < 0 && in->ops[1].sym >= 0 &&
        (uint32_t)in->ops[1].sym < f->nparams && f->syms[in->ops[1].sym].kind == SYM_PARAM &&
        (in->ops[0].kind == OPK_REG || (in->ops[0].kind == OPK_VEC && in->ops[0].count == in->vec)))
        return F_WARP; /* a kernel parameter by name: the same for every lane */
    if (smem_op_is_ldst(in->op))
        return fast_mem_kind(in);
    if (in->op == PO_RET || in->op == PO_EXIT)
        return F_WARP;
    if (in->op == PO_BAR && in->nops <= 2 && (in->nops < 1 || fast_operand(&in->ops[0])) &&
        (in->nops < 2 || fast_operand(&in->ops[1])))
        return F_WARP;
    if (in->op == PO_SELP && in->nops == 4 && !in->mods && !in->sat &&
        TBYTES(t) >= 1 && TBYTES(t) <= 8 && in->ops[0].kind == OPK_REG && in->ops[0].reg[0] >= 0 &&
        fast_operand(&in->ops[1]) && !in->ops[1].neg && fast_operand(&in->ops[2]) &&
        !in->ops[2].neg && fast_operand(&in->ops[3]))
        return F_WARP;
    int i32 = t == PT_U32 || t == PT_S32 || t == PT_B32;
    int i64 = t == PT_U64 || t == PT_S64 || t == PT_B64;
    if (in->op == PO_BRA)
        return F_BRA;
    if (in->sat || in->nops < 2 || in->ops[0].kind != OPK_REG || in->ops[0].reg[0] < 0)
        return F_NONE;
    unsigned db = smem_ptx_type_bytes(f->reg_type[in->ops[0].reg[0]]);
    if (in->op == PO_MOV && in->nops == 2 && !in->mods && db == TBYTES(t) &&
        (in->ops[1].kind == OPK_SREG || in->ops[1].kind == OPK_SYM))
        return F_MOVX;
    for (unsigned o = 1; o < in->nops; o++)
        if (!fast_operand(&in->ops[o]) || in->ops[o].neg)
            return F_NONE;
    if (in->op == PO_SETP && i32 && in->nops == 3 && !in->boolop &&
        f->reg_type[in->ops[0].reg[0]] == PT_PRED &&
        (in->cmp == CMP_EQ || in->cmp == CMP_NE || in->cmp == CMP_LT || in->cmp == CMP_LE ||
         in->cmp == CMP_GT || in->cmp == CMP_GE || in->cmp == CMP_LO || in->cmp == CMP_LS ||
         in->cmp == CMP_HI || in->cmp == CMP_HS))
        return t == PT_S32 ? F_SETP_S32 : F_SETP_U32;
    if (in->op == PO_MUL && in->mode == MODE_WIDE && (t == PT_U32 || t == PT_S32) && db == 8 &&
        in->nops == 3)
        return t == PT_U32 ? F_MULWIDE_U32 : F_MULWIDE_S32;
    if (in->op == PO_ADD && i64 && db == 8 && in->nops == 3)
        return F_ADD64;
    if (in->op == PO_MOV && (i64 || t == PT_F64) && db == 8 && in->nops == 2 && !in->mods)
        return F_MOV64;
    /* cvta (.to).global: the generic address is the global one */
    if (in->op == PO_CVTA && in->space == SP_GLOBAL && (t == PT_U64 || t == PT_B64) && db == 8 &&
        in->nops == 2 && !in->mods)
        return F_MOV64;
    if (in->op == PO_SHL && i64 && db == 8 && in->nops == 3)
        return F_SHL64;
    if (in->op == PO_MUL && i64 && db == 8 && in->nops == 3 && in->mode == MODE_LO && !in->mods)
        return F_MUL64;
    if (in->op == PO_MAD && i64 && db == 8 && in->nops == 4 && in->mode == MODE_LO && !in->mods)
        return F_MAD64;
    if (t == PT_PRED && db == 1 && in->nops == 3 && !in->mods)
        return in->op == PO_AND ? F_ANDP : in->op == PO_OR ? F_ORP : in->op == PO_XOR ? F_XORP
                                                                                : F_NONE;
    if (t == PT_PRED && db == 1 && in->nops == 2 && !in->mods && (in->op == PO_NOT || in->op == PO_MOV))
        return in->op == PO_NOT ? F_NOTP : F_MOVP;
    if (in->op == PO_ADD && (t == PT_S16 || t == PT_U16 || t == PT_B16) && db == 2 && in->nops == 3 &&
        !in->mods)
        return F_ADD16;
    /* an integer to a 32-bit integer from 32 or 64 bits (no .sat): its low 32 bits */
    if (in->op == PO_CVT && db == 4 && in->nops == 2 && !in->mods && !in->ftz && !in->round &&
        (t == PT_U32 || t == PT_S32 || t == PT_B32) &&
        (in->type2 == PT_U64 || in->type2 == PT_S64 || in->type2 == PT_B64 ||
         in->type2 == PT_U32 || in->type2 == PT_S32 || in->type2 == PT_B32))
        return F_CVT_U32;
    if (in->op == PO_CVT && db == 8 && in->nops == 2 && !in->mods && !in->ftz && !in->round) {
        if ((t == PT_U64 || t == PT_B64) && in->type2 == PT_U32)
            return F_CVT_U64_U32;
        if (t == PT_S64 && in->type2 == PT_S32)
            return F_CVT_S64_S32;
    }
    /* the same with .ftz: subnormal operands and results are signed zeros (cta_warp.c) */
    if (t == PT_F32 && db == 4 && in->ftz && !in->mods && (!in->round || in->round == RND_RN)) {
        if (in->op == PO_FMA && in->nops == 4)
            return F_FMA_F32Z;
        if (in->op == PO_ADD && in->nops == 3)
            return F_ADD_F32Z;
        if (in->op == PO_SUB && in->nops == 3)
            return F_SUB_F32Z;
        if (in->op == PO_MUL && in->nops == 3 && in->mode == MODE_NONE)
            return F_MUL_F32Z;
    }
    /* f32 arithmetic rounded to nearest, nothing else (no .ftz, .sat, .relu, ...): the IEEE
     * operation of the host, a NaN made the canonical one (cta_fp.c gives the same bits) */
    if (t == PT_F32 && db == 4 && !in->ftz && !in->mods && (!in->round || in->round == RND_RN)) {
        if (in->op == PO_FMA && in->nops == 4)
            return F_FMA_F32;
        if (in->op == PO_ADD && in->nops == 3)
            return F_ADD_F32;
        if (in->op == PO_SUB && in->nops == 3)
            return F_SUB_F32;
        if (in->op == PO_MUL && in->nops == 3 && in->mode == MODE_NONE)
            return F_MUL_F32;
        if (in->op == PO_MOV && in->nops == 2)
            return F_MOV32;
    }
    /* any other floating-point arithmetic emu_exec_alu gives to cta_fp.c (rounding modes, .ftz,
     * .approx, f16 / bf16 and their pairs, f64; not .sat, refused above): that function over the
     * lanes, without each lane's operand handling */
    if (db == TBYTES(t) && !(in->mods & SMEM_MOD_OOB) && emu_fp_form(in))
        return F_FP;
    /* 32-bit integers: the opcode's fast kind, with exactly its fewest operands */
    uint8_t k = fast32_of[in->op];
    if (!i32 || db != 4 || k == F_NONE || in->nops != smem_ptx_ops[in->op].min_ops)
        return F_NONE;
    switch (k) {
    case F_MUL32: case F_MAD32: return in->mode == MODE_LO ? k : F_NONE;
    case F_SHRU32: return t == PT_S32 ? F_SHRS32 : k;
    case F_DIV_U32: case F_REM_U32: /* the signed forms: F_DIV_S32, F_REM_S32 */
        if (in->mods || t == PT_B32)
            return F_NONE;
        return t == PT_S32 ? (k == F_DIV_U32 ? F_DIV_S32 : F_REM_S32) : k;
    default: return k;
    }
}

/* The one instruction writing register r (-1: none, or several). */
static int32_t single_def(const struct smem_ptx_func *f, int32_t r)
{
    int32_t def = -1;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->nops && !smem_op_is_store(in->op) &&
            (in->ops[0].kind == OPK_REG || in->ops[0].kind == OPK_VEC ||
             in->ops[0].kind == OPK_PAIR))
            for (int i = 0; i < 4; i++)
                if (in->ops[0].reg[i] == r) {
                    if (def >= 0)
                        return -1;
                    def = (int32_t)k;
                }
    }
    return def;
}

/* A generic address that ptxas can see is a shared one: its register comes, through adds and
 * moves, from cvta.shared (what cuda_fp16.h's atomicAdd on a __shared__ __half2 gives); ptxas then
 * emits the shared form (ATOMS.CAST.SPIN: tests/run/h100-atomic64.csv, half2add). */
static int shared_generic(const struct smem_ptx_func *f, int32_t r, unsigned depth)
{
    if (r < 0 || depth > 8)
        return 0;
    int32_t k = single_def(f, r);
    if (k < 0)
        return 0;
    const struct smem_ptx_insn *d = &f->insns[k];
    if (d->op == PO_CVTA)
        return d->space == SP_SHARED && !d->to;
    if ((d->op == PO_ADD || d->op == PO_SUB || d->op == PO_MOV) && d->guard < 0)
        for (unsigned o = 1; o < d->nops && o < 3; o++)
            if (d->ops[o].kind == OPK_REG && shared_generic(f, d->ops[o].reg[0], depth + 1))
                return 1;
    return 0;
}

/* A memory operand at a fixed place: [symbol + imm], or [r + imm] with r written once, by a mov
 * of a symbol's address (how nvcc writes &s[0]). */
static int fixed_address(const struct smem_ptx_func *f, const struct smem_ptx_operand *o)
{
    if (o->kind != OPK_ADDR)
        return 0;
    if (o->reg[0] < 0)
        return o->sym >= 0;
    int32_t def = single_def(f, o->reg[0]);
    if (def < 0)
        return 0;
    const struct smem_ptx_insn *d = &f->insns[def];
    return d->op == PO_MOV && d->nops == 2 && d->ops[1].kind == OPK_SYM && d->guard < 0;
}

/* The add.f32 / sub.f32 that ptxas folds the product of a mul.f32 into (sass/sass_fma.c): each
 * becomes an fma of the mul's sources and the add's other one, run by its fused kind. */
static int fuse_fma(struct smem_cta_program *p, const struct smem_ptx_func *f)
{
    /* a debug build (nvcc -G: ".target sm_90, debug") is compiled by ptxas -O0, which fuses
       nothing (tests/hw/h100-fma.txt) */
    if (p->module && p->module->target && strstr(p->module->target, "debug"))
        return 0;
    struct smem_sass_fma *fz = malloc((f->ninsns ? f->ninsns : 1) * sizeof *fz);
    if (!fz || smem_sass_fuse_fma(f, fz)) {
        free(fz);
        return -1;
    }
    uint32_t n = 0;
    for (uint32_t k = 0; k < f->ninsns; k++)
        n += fz[k].mul >= 0;
    if (n) {
        p->fused = calloc(n, sizeof *p->fused);
        p->fused_at = calloc(f->ninsns, sizeof *p->fused_at);
        if (!p->fused || !p->fused_at) {
            free(fz);
            return -1;
        }
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        if (fz[k].mul < 0)
            continue;
        const struct smem_ptx_insn *add = &f->insns[k], *mul = &f->insns[fz[k].mul];
        struct smem_ptx_insn *q = &p->fused[p->nfused++];
        *q = *add;
        q->op = PO_FMA;
        q->nops = 4;
        q->ops[1] = mul->ops[1];
        q->ops[2] = mul->ops[2];
        q->ops[3] = add->ops[fz[k].operand == 1 ? 2 : 1];
        q->round = RND_RN;
        for (unsigned i = 1; i < 4; i++)
            q->ops[i].neg = 0;
        /* add: a*b + c; sub with the product first: a*b - c (c negated); second: c - a*b (a) */
        if (add->op == PO_SUB)
            q->ops[fz[k].operand == 1 ? 3 : 1].neg = 1;
        p->fast[k] = F_FUSED;
        p->fused_at[k] = q;
    }
    free(fz);
    return 0;
}

static int sym_referenced(const struct smem_ptx_func *f, uint32_t sym)
{
    for (uint32_t k = 0; k < f->ninsns; k++)
        for (unsigned o = 0; o < f->insns[k].nops; o++)
            if (f->insns[k].ops[o].sym == (int32_t)sym)
                return 1;
    return 0;
}

static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

static int add_site(struct smem_cta_program *p, uint32_t insn, uint32_t offset, unsigned width,
                    unsigned op, int generic)
{
    struct smem_cta_site *ns = realloc(p->sites, (p->nsites + 1) * sizeof *ns);
    if (!ns)
        return -1;
    p->sites = ns;
    const struct smem_ptx_insn *in = &p->func->insns[insn];
    struct smem_cta_site *s = &p->sites[p->nsites];
    memset(s, 0, sizeof *s);
    s->insn = insn;
    s->src_insn = insn;
    s->offset = offset;
    s->width = (uint8_t)width;
    s->op = (uint8_t)op;
    s->generic = (uint8_t)generic;
    s->file = in->loc_file < p->module->nfiles ? p->module->files[in->loc_file] : NULL;
    s->line = in->loc_line;
    s->col = in->loc_col;
    s->ptx_line = in->src_line;
    if (p->site_of_insn[insn] == UINT32_MAX)
        p->site_of_insn[insn] = p->nsites;
    p->nsites++;
    return 0;
}

/* The SASS accesses one vector load becomes: naturally aligned runs of the kept components. */
static int add_vector_sites(struct smem_cta_program *p, uint32_t k, const struct smem_ptx_insn *in,
                            unsigned op, int generic)
{
    unsigned esz = smem_ptx_type_bytes(in->type), n = in->vec;
    uint32_t keep = in->keep & ((1u << n) - 1u);
    if (op != SMEM_ACC_LD || keep == (1u << n) - 1u)
        return add_site(p, k, 0, esz * n, op, generic);
    for (unsigned c = 0; c < n;) {
        if (!(keep >> c & 1u)) {
            c++;
            continue;
        }
        unsigned run = 1;
        /* widest aligned power-of-two group of kept components starting at c */
        for (unsigned w = n; w > 1; w /= 2)
            if (c % w == 0 && ((keep >> c) & ((1u << w) - 1u)) == (1u << w) - 1u) {
                run = w;
                break;
            }
        if (add_site(p, k, c * esz, esz * run, op, generic))
            return -1;
        c += run;
    }
    return 0;
}

int smem_cta_prepare(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                     uint32_t dyn_smem, struct smem_cta_program **out, struct smem_error *err)
{
    return smem_cta_prepare_sass(m, f, dyn_smem, NULL, out, err);
}

/* The bytes of a SASS-placed group's access (leader lead, from offset `start` in the window,
 * width bytes) that its PTX loads read: a bit each. */
static uint16_t used_bytes(const struct smem_cta_program *p, const struct smem_sass_merge *merge,
                           uint32_t lead, int64_t start, unsigned width)
{
    const struct smem_ptx_func *f = p->func;
    uint32_t mask = 0;
    for (uint32_t k = lead; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (merge[k].leader != (int32_t)lead || in->ops[1].sym < 0)
            continue;
        int64_t at = (int64_t)p->local_offset[in->ops[1].sym] + in->ops[1].imm - start;
        unsigned w = smem_ptx_type_bytes(in->type) * (in->vec ? in->vec : 1);
        for (unsigned b = 0; b < w; b++)
            if (at + b >= 0 && at + b < (int64_t)width && at + b < 16)
                mask |= 1u << (at + b);
    }
    return (uint16_t)(mask == (width >= 16 ? 0xffffu : (1u << width) - 1u) ? 0 : mask);
}

/* The site of a fixed-place load whose request ptxas makes before the branch over it: made at
 * the branch (insn), for the load `src` (its lines), at window offset `at`. */
static int add_hoisted_site(struct smem_cta_program *p, uint32_t insn, uint32_t src, uint32_t at,
                            unsigned width)
{
    if (add_site(p, insn, 0, width, SMEM_ACC_LD, 0))
        return -1;
    const struct smem_ptx_insn *in = &p->func->insns[src];
    struct smem_cta_site *s = &p->sites[p->nsites - 1];
    s->src_insn = src;
    s->sass_placed = 2;
    s->at = at;
    s->file = in->loc_file < p->module->nfiles ? p->module->files[in->loc_file] : NULL;
    s->line = in->loc_line;
    s->col = in->loc_col;
    s->ptx_line = in->src_line;
    return 0;
}

int smem_cta_prepare_sass(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                          uint32_t dyn_smem, const struct smem_sass_module *sass,
                          struct smem_cta_program **out, struct smem_error *err)
{
    struct smem_cta_program *p = calloc(1, sizeof *p);
    *out = NULL;
    if (!p)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    p->module = m;
    /* calls to the module's own functions (__noinline__, -G builds): inlined */
    if (smem_ptx_flatten(m, f, &p->flat, err)) {
        free(p);
        return -1;
    }
    if (p->flat)
        f = p->flat;
    p->func = f;
    p->site_of_insn = malloc((f->ninsns ? f->ninsns : 1) * sizeof *p->site_of_insn);
    p->vars = calloc(f->nsyms ? f->nsyms : 1, sizeof *p->vars);
    p->param_is_ptr = calloc(f->nparams ? f->nparams : 1, 1);
    p->local_offset = calloc(f->nsyms ? f->nsyms : 1, sizeof *p->local_offset);
    if (!p->site_of_insn || !p->vars || !p->param_is_ptr || !p->local_offset)
        goto oom;
    /* local symbols (stack depots, call-sequence parameters): offsets in the thread's window */
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_LOCAL) {
            if (f->syms[i].size > (1u << 20)) {
                smem_error_set(err, NULL, f->syms[i].decl_line, 0, "local variable '%s' too large",
                               f->syms[i].name);
                goto fail;
            }
            p->local_size = align_up(p->local_size, f->syms[i].align ? f->syms[i].align : 1);
            p->local_offset[i] = p->local_size;
            p->local_size += (uint32_t)f->syms[i].size;
        }
    p->fast = calloc(f->ninsns ? f->ninsns : 1, 1);
    if (!p->fast)
        goto oom;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        p->site_of_insn[k] = UINT32_MAX;
        p->fast[k] = fast_kind_of(f, &f->insns[k]);
    }
    if (fuse_fma(p, f))
        goto oom;
    /* shared layout as ptxas makes it (tests/diff, "layout"): the variables the kernel uses, those
     * declared in the function first and then the module's, each in declaration order; then the
     * dynamic allocation, aligned to 16 or to the largest alignment of an extern array declared
     * before the kernel */
    uint32_t off = 0, max_dyn_align = 16;
    for (uint32_t pass = 0; pass < 2; pass++) {
        for (uint32_t i = 0; i < f->nsyms; i++) {
            const struct smem_ptx_symbol *s = &f->syms[i];
            if (s->kind != SYM_SHARED || (uint32_t)(s->module_level != 0) != pass ||
                !sym_referenced(f, i))
                continue;
            if (s->size > SMEM_MAX_SMEM_PER_BLOCK * 4ull) {
                smem_error_set(err, NULL, s->decl_line, 0, "shared variable '%s' is %llu bytes",
                               s->name, (unsigned long long)s->size);
                goto fail;
            }
            off = align_up(off, s->align);
            p->vars[p->nvars].name = s->name;
            p->vars[p->nvars].offset = off;
            p->vars[p->nvars].size = (uint32_t)s->size;
            p->nvars++;
            off += (uint32_t)s->size;
        }
    }
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_SHARED_EXTERN && f->syms[i].align > max_dyn_align)
            max_dyn_align = f->syms[i].align;
    p->static_smem = off;
    p->dyn_offset = align_up(off, max_dyn_align);
    for (uint32_t i = 0; i < f->nsyms; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        if (s->kind != SYM_SHARED_EXTERN || (s->module_level && !sym_referenced(f, i)))
            continue;
        p->vars[p->nvars].name = s->name;
        p->vars[p->nvars].offset = p->dyn_offset;
        p->vars[p->nvars].size = dyn_smem;
        p->vars[p->nvars].dynamic = 1;
        p->nvars++;
    }
    /* shared symbols: their offsets in the window, looked up once */
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_SHARED || f->syms[i].kind == SYM_SHARED_EXTERN)
            for (uint32_t v = 0; v < p->nvars; v++)
                if (!strcmp(p->vars[v].name, f->syms[i].name))
                    p->local_offset[i] = p->vars[v].offset;
    /* what ptxas merges: neighbouring scalar loads become one wider access */
    struct smem_sass_merge *merge = calloc(f->ninsns ? f->ninsns : 1, sizeof *merge);
    int32_t *hoist = malloc((f->ninsns ? f->ninsns : 1) * sizeof *hoist);
    uint8_t *placed = malloc(f->ninsns ? f->ninsns : 1);
    int32_t *sass_of = malloc((f->ninsns ? f->ninsns : 1) * sizeof *sass_of);
    p->merged_into = malloc((f->ninsns ? f->ninsns : 1) * sizeof *p->merged_into);
    if (!merge || !hoist || !placed || !sass_of || !p->merged_into ||
        smem_sass_merge_loads(f, p->local_offset, merge) ||
        smem_sass_fixed_places(m, f, p->local_offset, sass,
                               sass && !p->flat ? smem_sass_find(sass, f->name) : NULL, merge,
                               hoist, placed, sass_of) ||
        smem_sass_rereads(m, f, sass, sass && !p->flat ? smem_sass_find(sass, f->name) : NULL,
                          merge, placed)) {
        free(merge);
        free(hoist);
        free(placed);
        free(sass_of);
        goto oom;
    }
    int any_hoist = 0;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        p->merged_into[k] = merge[k].leader;
        any_hoist |= hoist[k] >= 0;
    }
    /* access sites */
    int rc = 0;
    for (uint32_t k = 0; k < f->ninsns && !rc; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (any_hoist && in->op == PO_BRA) /* the fixed-place loads ptxas runs before it */
            for (uint32_t h = k + 1; h < f->ninsns && !rc; h++)
                if (hoist[h] == (int32_t)k) {
                    int64_t at = (int64_t)p->local_offset[f->insns[h].ops[1].sym] +
                                 f->insns[h].ops[1].imm + merge[h].offset;
                    rc = add_hoisted_site(p, k, h, (uint32_t)at, merge[h].width);
                    if (!rc)
                        p->sites[p->nsites - 1].used = used_bytes(p, merge, h, at, merge[h].width);
                }
        if (rc)
            break;
        if (in->op == PO_WGMMA && (in->mode == MODE_WGMMA_MMA || in->mode == MODE_WGMMA_COMMIT)) {
            /* wgmma's operand reads (HGMMA), and the HGMMA without operands ptxas made of
               commit_group (emu/cta_wgmma.c): a request a warp */
            if ((rc = add_site(p, k, 0, 16, SMEM_ACC_GMMA, 0)))
                break;
            continue;
        }
        int generic = in->space == SP_GENERIC;
        int shared = in->space == SP_SHARED;
        if (!shared && !generic)
            continue;
        if (merge[k].leader >= 0) {
            /* the group's leader carries the merged access; the others make no request */
            if (merge[k].leader == (int32_t)k && hoist[k] < 0) {
                rc = add_site(p, k, (uint32_t)merge[k].offset, merge[k].width,
                              in->op == PO_ST ? SMEM_ACC_ST : SMEM_ACC_LD, 0);
                if (!rc && placed[k]) {
                    struct smem_cta_site *st = &p->sites[p->nsites - 1];
                    st->sass_placed = placed[k];
                    st->used = used_bytes(p, merge, k,
                                          (int64_t)p->local_offset[in->ops[1].sym] + in->ops[1].imm +
                                              merge[k].offset, merge[k].width);
                }
            }
            if (rc)
                break;
            continue;
        }
        switch (in->op) {
        case PO_LD: case PO_LDU: rc = add_vector_sites(p, k, in, SMEM_ACC_LD, generic); break;
        case PO_ST: rc = add_vector_sites(p, k, in, SMEM_ACC_ST, generic); break;
        case PO_ATOM: case PO_RED: /* OPF_ATOMIC */
            rc = add_site(p, k, 0, smem_ptx_type_bytes(in->type), SMEM_ACC_ATOM, generic);
            /* measured: tests/run/h100-fatomic.csv, h100-atomic64.csv */
            if (!rc && (!generic || (in->ops[1].kind == OPK_ADDR &&
                                     shared_generic(f, in->ops[1].reg[0], 0)))) {
                unsigned t = in->type;
                int w64 = t == PT_U64 || t == PT_S64 || t == PT_B64;
                if (in->mode == MODE_ATOM_ADD && w64 && fixed_address(f, &in->ops[1]))
                    p->sites[p->nsites - 1].cas = 2;
                else if ((in->mode == MODE_ATOM_ADD &&
                          (t == PT_F32 || t == PT_F64 || t == PT_F16X2 || t == PT_BF16X2 || w64)) ||
                         (w64 && (in->mode == MODE_ATOM_AND || in->mode == MODE_ATOM_OR ||
                                  in->mode == MODE_ATOM_XOR)))
                    p->sites[p->nsites - 1].cas = 1;
                else if (w64 && (in->mode == MODE_ATOM_MIN || in->mode == MODE_ATOM_MAX))
                    p->sites[p->nsites - 1].cas = 3; /* rounds from the values (cta_lane.c) */
            }
            break;
        case PO_LDMATRIX: case PO_STMATRIX: /* one LDSM / STSM: the rows' 16 bytes a lane */
            rc = add_site(p, k, 0, 16, in->op == PO_LDMATRIX ? SMEM_ACC_LDSM : SMEM_ACC_STSM,
                          generic);
            break;
        case PO_WMMA: { /* the SASS requests of a wmma load / store (model/wmma.h) */
            struct smem_wmma_frag wf;
            struct smem_wmma_part parts[SMEM_WMMA_MAX_PARTS];
            if (in->mode == MODE_WMMA_MMA || emu_wmma_load_store_frag(in, &wf))
                break;
            unsigned np = smem_wmma_parts(&wf, parts);
            for (unsigned i = 0; i < np && !rc; i++)
                rc = add_site(p, k, 0, parts[i].width,
                              parts[i].ldsm ? SMEM_ACC_LDSM
                              : in->mode == MODE_WMMA_STORE_D ? SMEM_ACC_ST : SMEM_ACC_LD, generic);
            break;
        }
        case PO_CP_ASYNC:
            if (in->nops >= 3 && in->ops[2].kind == OPK_IMM)
                rc = add_site(p, k, 0, (unsigned)in->ops[2].imm, SMEM_ACC_CP_ASYNC, 0);
            break;
        case PO_CP_BULK: /* no request (not the LSU's): where its bytes land, for the hazards */
            if (in->mode == MODE_BULK_G2S || in->mode == MODE_BULK_TENSOR_G2S)
                rc = add_site(p, k, 0, 16, SMEM_ACC_CP_ASYNC, 0);
            break;
        default: break;
        }
        if (rc)
            break;
    }
    /* loads whose addresses a load ptxas dropped reads again (smem_sass_rereads) */
    for (uint32_t i = 0; !rc && i < p->nsites; i++)
        if (placed[p->sites[i].src_insn] == 3 && p->sites[i].op == SMEM_ACC_LD)
            p->sites[i].sass_placed = 3;
    /* the sites counted as a SASS LDS (the census leaves them out) */
    for (uint32_t i = 0; !rc && i < p->nsites; i++) {
        int32_t so = sass_of[p->sites[i].src_insn];
        if (so >= 0 && p->sites[i].op == SMEM_ACC_LD)
            p->sites[i].sass_insn = (uint32_t)so + 1;
    }
    free(merge);
    free(hoist);
    free(placed);
    free(sass_of);
    if (rc)
        goto oom;
    /* pointer parameters (when the C types are not known; analyze overrides this from them):
     * ld.param whose value reaches an address or a cvta, directly or through 64-bit mov/add/sub
     * (a pointer moved or offset before its use). An add alone proves nothing: for size_t n,
     * n - 1 is add.s64 %rd4, %rd3, -1, and n is no pointer. */
    uint8_t *from = calloc(f->nregs ? f->nregs : 1, 1);
    if (!from)
        goto oom;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->op != PO_LD || in->space != SP_PARAM || in->nops < 2 || in->ops[1].sym < 0)
            continue;
        int32_t sym = in->ops[1].sym, reg = in->ops[0].reg[0];
        if (sym >= (int32_t)f->nparams || reg < 0 || (uint32_t)reg >= f->nregs ||
            smem_ptx_type_bytes(in->type) != 8 || p->param_is_ptr[sym])
            continue;
        memset(from, 0, f->nregs);
        from[reg] = 1;
        for (int changed = 1, pass = 0; changed && pass < 16; pass++) {
            changed = 0;
            for (uint32_t j = 0; j < f->ninsns; j++) {
                const struct smem_ptx_insn *u = &f->insns[j];
                int32_t d = u->nops ? u->ops[0].reg[0] : -1;
                if ((u->op != PO_ADD && u->op != PO_SUB && u->op != PO_MOV) || d < 0 ||
                    (uint32_t)d >= f->nregs || from[d] || smem_ptx_type_bytes(u->type) != 8 ||
                    u->ops[0].kind != OPK_REG)
                    continue;
                for (unsigned o = 1; o < u->nops && o < 3; o++)
                    if (u->ops[o].kind == OPK_REG && u->ops[o].reg[0] >= 0 &&
                        (uint32_t)u->ops[o].reg[0] < f->nregs && from[u->ops[o].reg[0]]) {
                        from[d] = 1;
                        changed = 1;
                    }
            }
        }
        for (uint32_t j = 0; j < f->ninsns && !p->param_is_ptr[sym]; j++) {
            const struct smem_ptx_insn *u = &f->insns[j];
            for (unsigned o = 0; o < u->nops; o++) {
                int32_t r = u->ops[o].reg[0];
                if (r >= 0 && (uint32_t)r < f->nregs && from[r] &&
                    ((u->op == PO_CVTA && o == 1) || u->ops[o].kind == OPK_ADDR))
                    p->param_is_ptr[sym] = 1;
            }
        }
    }
    free(from);
    *out = p;
    return 0;
oom:
    smem_error_set(err, NULL, 0, 0, "out of memory");
fail:
    smem_cta_program_free(p);
    return -1;
}

void smem_cta_program_free(struct smem_cta_program *p)
{
    if (!p)
        return;
    free(p->sites);
    free(p->site_of_insn);
    free(p->vars);
    free(p->param_is_ptr);
    free(p->local_offset);
    free(p->fast);
    free(p->fused_at);
    free(p->fused);
    free(p->merged_into);
    smem_ptx_flat_free(p->flat);
    free(p);
}

int smem_cta_check_launch(const struct smem_cta_program *p, const struct smem_launch *l,
                          struct smem_error *err)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!l->block[0] || !l->block[1] || !l->block[2] || !l->grid[0] || !l->grid[1] || !l->grid[2])
        return smem_error_set(err, NULL, 0, 0, "block and grid dimensions must be at least 1");
    if (threads > SMEM_MAX_THREADS)
        return smem_error_set(err, NULL, 0, 0,
                              "a block of %llu threads: a GPU runs at most 1024 threads per block",
                              (unsigned long long)threads);
    if (l->block[2] > 64)
        return smem_error_set(err, NULL, 0, 0, "block z dimension %u exceeds the limit of 64",
                              l->block[2]);
    if (l->grid[1] > 65535 || l->grid[2] > 65535)
        return smem_error_set(err, NULL, 0, 0, "grid y and z dimensions are limited to 65535");
    uint64_t smem = (uint64_t)p->dyn_offset + l->dyn_smem;
    if (!l->dyn_smem)
        smem = p->static_smem;
    if (smem > SMEM_MAX_SMEM_PER_BLOCK)
        return smem_error_set(err, NULL, 0, 0,
                              "the kernel needs %llu bytes of shared memory per block; an H100 "
                              "gives at most %u (227 KB)",
                              (unsigned long long)smem, SMEM_MAX_SMEM_PER_BLOCK);
    const struct smem_ptx_func *f = p->func;
    if (f->reqntid[0] && (f->reqntid[0] != l->block[0] || (f->reqntid[1] && f->reqntid[1] != l->block[1])))
        return smem_error_set(err, NULL, f->decl_line, 0,
                              "the kernel requires a block of %u x %u x %u threads (.reqntid)",
                              f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                              f->reqntid[2] ? f->reqntid[2] : 1);
    if (f->maxntid[0]) {
        uint64_t maxt = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                        (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > maxt)
            return smem_error_set(err, NULL, f->decl_line, 0,
                                  "a block of %llu threads exceeds the kernel's __launch_bounds__ "
                                  "of %llu", (unsigned long long)threads, (unsigned long long)maxt);
    }
    /* the cluster (the launch's, else __cluster_dims__): as the H200 refuses one
       (tests/run/h200-cluster.txt: a zero dimension, more than 16 blocks, a grid it does not
       divide: cudaErrorInvalidClusterSize) */
    const unsigned *c = l->cluster[0] ? l->cluster : f->reqnctapercluster[0] ? f->reqnctapercluster : NULL;
    if (c) {
        unsigned d[3] = {c[0], c[1] ? c[1] : 1, c[2] ? c[2] : 1};
        if (l->cluster[0] && f->reqnctapercluster[0] &&
            (d[0] != f->reqnctapercluster[0] || d[1] != (f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1) ||
             d[2] != (f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1)))
            return smem_error_set(err, NULL, f->decl_line, 0,
                                  "a cluster of %u x %u x %u blocks for a kernel whose "
                                  "__cluster_dims__ are %u x %u x %u", d[0], d[1], d[2],
                                  f->reqnctapercluster[0], f->reqnctapercluster[1],
                                  f->reqnctapercluster[2]);
        uint64_t n = (uint64_t)d[0] * d[1] * d[2];
        if (n > 16)
            return smem_error_set(err, NULL, f->decl_line, 0,
                                  "a cluster of %u x %u x %u blocks: the GPU runs at most 16 (8 "
                                  "portable)", d[0], d[1], d[2]);
        if (l->grid[0] % d[0] || l->grid[1] % d[1] || l->grid[2] % d[2])
            return smem_error_set(err, NULL, f->decl_line, 0,
                                  "a grid of %u x %u x %u blocks does not divide into clusters "
                                  "of %u x %u x %u", l->grid[0], l->grid[1], l->grid[2], d[0],
                                  d[1], d[2]);
    }
    return 0;
}
