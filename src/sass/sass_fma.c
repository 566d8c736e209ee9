/* sass_fma.c: the multiply-adds ptxas makes of floating-point arithmetic. PTX's mul.f32, add.f32
 * and sub.f32 without a rounding modifier "may be optimized aggressively by the code generator", and ptxas
 * does: nvcc leaves x - a * b (and a * b - x) as mul.f32 + sub.f32, and sm_90 runs one FFMA, whose
 * product is not rounded before the subtraction. The rule, from the H100 (tests/hw/fma/fma.cu,
 * tests/hw/h100-fma.txt; docs/analyzer.md "Floating-point contraction"):
 *   - a mul.f32 (no .rn/.rz/..., no .sat) whose every use is an add.f32 / sub.f32 (no rounding
 *     modifier, no .sat, the same .ftz) taking it as one source is folded into each of them (the
 *     FMUL disappears; with two such uses both become FFMAs);
 *   - a mul with any other use (a store, a mul, an add.rn, an fma) stays an FMUL and every add
 *     that takes it rounds the product first;
 *   - .ftz on one of the two and not the other: not fused; .rn on either: not fused;
 *   - an add of two such products folds in its first source's;
 *   - an add inside a loop that does not contain the mul, adding the product to a loop-carried
 *     value, keeps the product rounded (the H100: acc = acc + p in a loop, p = a * b computed
 *     before it), and so does every other use; adds in such a loop to values of the iteration
 *     are fused (cuda-samples' dxtc: its output is the H100's byte for byte only so); a mul inside
 *     a loop whose sources all come from outside it counts as outside (hoisted);
 *   - the same for f64 (DFMA), f16, f16x2 and bf16 (HFMA2; bf16x2 by the same instruction, not
 *     measured); not for a debug build (-G: ptxas -O0 fuses none).
 * Not seen through: a copy (mov) of the product is a use that keeps it (in the H100's run a copy
 * once kept it and once not: ptxas's value numbering decides, see tests/hw/fma/README.md).
 * Values must be the multiply's: the product is recomputed from the mul's sources at the add, so
 * those registers (and the product's) must each be written once in the function (PTX from nvcc is
 * in SSA form but for loop-carried values); otherwise nothing is fused there. */
#include "smemlab/sass/sass_fma.h"

#include <stdlib.h>

static int plain_fp(const struct smem_ptx_insn *in)
{
    return (in->type == PT_F32 || in->type == PT_F64 || in->type == PT_F16 ||
            in->type == PT_F16X2 || in->type == PT_BF16 || in->type == PT_BF16X2) &&
           in->nops == 3 && in->round == RND_NONE && !in->sat && !in->mods &&
           !in->in_recursion && in->ops[0].kind == OPK_REG && in->ops[0].reg[0] >= 0;
}

static int is_mul(const struct smem_ptx_insn *in)
{
    return in->op == PO_MUL && in->mode == MODE_NONE && plain_fp(in) && in->guard < 0;
}

static int is_addsub(const struct smem_ptx_insn *in)
{
    return (in->op == PO_ADD || in->op == PO_SUB) && plain_fp(in);
}

/* Calls fn(reg) for every register operand i of in (OPK_ADDR's base included). */
#define FOR_OPERAND_REGS(f, o, REG, BODY)                                                          \
    do {                                                                                           \
        unsigned n_ = (o)->kind == OPK_VECX ? (o)->count                                           \
                      : (o)->kind == OPK_VEC ? (o)->count                                          \
                      : (o)->kind == OPK_PAIR ? 2u                                                 \
                      : ((o)->kind == OPK_REG || (o)->kind == OPK_ADDR) ? 1u : 0u;                 \
        for (unsigned i_ = 0; i_ < n_ && i_ < ((o)->kind == OPK_VECX ? 8u : 4u); i_++) {           \
            int32_t REG = (o)->kind == OPK_VECX ? smem_ptx_vec_reg((f), (o), i_) : (o)->reg[i_];   \
            if (REG >= 0)                                                                          \
                BODY;                                                                              \
        }                                                                                          \
    } while (0)

/* The loops: a backward branch at e to h spans [h, e]. */
struct loops {
    uint32_t (*span)[2];
    uint32_t n;
};

static int find_loops(const struct smem_ptx_func *f, struct loops *L)
{
    L->n = 0;
    L->span = NULL;
    uint32_t cap = 0;
    for (uint32_t e = 0; e < f->ninsns; e++) {
        const struct smem_ptx_insn *br = &f->insns[e];
        if (br->op != PO_BRA || br->ops[0].kind != OPK_LABEL || br->ops[0].imm < 0 ||
            (uint64_t)br->ops[0].imm > e)
            continue;
        if (L->n == cap) {
            cap = cap ? 2 * cap : 16;
            uint32_t(*ns)[2] = realloc(L->span, cap * sizeof *ns);
            if (!ns)
                return -1;
            L->span = ns;
        }
        L->span[L->n][0] = (uint32_t)br->ops[0].imm;
        L->span[L->n++][1] = e;
    }
    return 0;
}

/* Is instruction k inside a loop that m is not in? */
static int apart(const struct loops *L, uint32_t m, uint32_t k)
{
    for (uint32_t i = 0; i < L->n; i++) {
        uint32_t h = L->span[i][0], e = L->span[i][1];
        if (h <= k && k <= e && (m < h || m > e))
            return 1;
    }
    return 0;
}

/* Is the other source of add / sub `in` (the product being source o) loop-carried: a register
 * written more than once (nvcc's PTX writes a loop's accumulator before the loop and in it)? */
static int carried(const struct smem_ptx_insn *in, unsigned o, const uint32_t *defs, uint32_t nregs)
{
    if (o < 1 || o > 2 || in->ops[3 - o].kind != OPK_REG)
        return 0;
    int32_t r = in->ops[3 - o].reg[0];
    return r >= 0 && (uint32_t)r < nregs && defs[r] > 1;
}

int smem_sass_fuse_fma(const struct smem_ptx_func *f, struct smem_sass_fma *fuse)
{
    for (uint32_t k = 0; k < f->ninsns; k++) {
        fuse[k].mul = -1;
        fuse[k].operand = 0;
    }
    uint32_t nregs = f->nregs;
    if (!nregs || !f->ninsns)
        return 0;
    /* writes of each register (every register of a first operand counts: a store's address
       register too, which only makes this more careful), the mul whose product a register holds
       (written once), and per mul whether it can fold */
    uint32_t *defs = calloc(nregs, sizeof *defs);
    int32_t *mul_of = malloc(nregs * sizeof *mul_of);
    uint8_t *ok = calloc(f->ninsns, 1);
    if (!defs || !mul_of || !ok) {
        free(defs);
        free(mul_of);
        free(ok);
        return -1;
    }
    for (uint32_t r = 0; r < nregs; r++)
        mul_of[r] = -1;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->nops)
            FOR_OPERAND_REGS(f, &in->ops[0], r, { if ((uint32_t)r < nregs) defs[r]++; });
    }
#define REG_OK(r) ((r) >= 0 && (uint32_t)(r) < nregs && defs[(r)] == 1)
    /* where each register is written (the one place, for those written once) */
    uint32_t *def_at = malloc(nregs * sizeof *def_at);
    struct loops L = {NULL, 0};
    if (!def_at || find_loops(f, &L)) {
        free(L.span);
        free(def_at);
        free(defs);
        free(mul_of);
        free(ok);
        return -1;
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->nops)
            FOR_OPERAND_REGS(f, &in->ops[0], r, { if ((uint32_t)r < nregs) def_at[r] = k; });
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (!is_mul(in) || !REG_OK(in->ops[0].reg[0]))
            continue;
        int fine = 1;
        for (unsigned o = 1; o < 3; o++)
            if (in->ops[o].kind == OPK_REG ? !REG_OK(in->ops[o].reg[0]) : in->ops[o].kind != OPK_IMM)
                fine = 0;
        /* a loop around the mul in which it is invariant (no source written inside [h, e]) */
        for (uint32_t i = 0; fine && i < L.n; i++) {
            uint32_t h = L.span[i][0], e = L.span[i][1];
            if (k < h || k > e)
                continue;
            int inside = 0;
            for (unsigned o = 1; o < 3; o++)
                if (in->ops[o].kind == OPK_REG && def_at[in->ops[o].reg[0]] >= h &&
                    def_at[in->ops[o].reg[0]] <= e)
                    inside = 1;
            if (!inside)
                fine = 0;
        }
        if (fine) {
            mul_of[in->ops[0].reg[0]] = (int32_t)k;
            ok[k] = 1;
        }
    }
    /* every use of a product must be an add / sub with the same .ftz taking it once */
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        for (unsigned o = 0; o < in->nops; o++) {
            const struct smem_ptx_operand *op = &in->ops[o];
            int dst = o == 0 && in->op != PO_ST && in->op != PO_RED;
            if (dst && (op->kind == OPK_REG || op->kind == OPK_PAIR || op->kind == OPK_VEC ||
                        op->kind == OPK_VECX))
                continue;
            FOR_OPERAND_REGS(f, op, r, {
                int32_t m = (uint32_t)r < nregs ? mul_of[r] : -1;
                if (m >= 0 && ok[m]) {
                    int32_t other = in->nops == 3 && (o == 1 || o == 2) &&
                                            in->ops[3 - o].kind == OPK_REG
                                        ? in->ops[3 - o].reg[0] : -1;
                    int once = o >= 1 && o <= 2 &&
                               (other < 0 || (uint32_t)other >= nregs || mul_of[other] != m);
                    if (!is_addsub(in) || op->kind != OPK_REG || in->ftz != f->insns[m].ftz ||
                        !once || (apart(&L, (uint32_t)m, k) && carried(in, o, defs, nregs)))
                        ok[m] = 0;
                }
            });
        }
    }
    /* an add of two products folds in its first source's: the second stays a product */
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (!is_addsub(in) || in->ops[1].kind != OPK_REG || in->ops[2].kind != OPK_REG)
            continue;
        int32_t a = in->ops[1].reg[0], b = in->ops[2].reg[0];
        int32_t ma = a >= 0 && (uint32_t)a < nregs ? mul_of[a] : -1;
        int32_t mb = b >= 0 && (uint32_t)b < nregs ? mul_of[b] : -1;
        if (ma >= 0 && mb >= 0 && ok[ma] && ok[mb])
            ok[mb] = 0;
    }
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (!is_addsub(in))
            continue;
        for (unsigned o = 1; o <= 2; o++) {
            int32_t r = in->ops[o].kind == OPK_REG ? in->ops[o].reg[0] : -1;
            int32_t m = r >= 0 && (uint32_t)r < nregs ? mul_of[r] : -1;
            if (m >= 0 && ok[m]) {
                fuse[k].mul = m;
                fuse[k].operand = (uint8_t)o;
                break;
            }
        }
    }
#undef REG_OK
    free(L.span);
    free(def_at);
    free(defs);
    free(mul_of);
    free(ok);
    return 0;
}
