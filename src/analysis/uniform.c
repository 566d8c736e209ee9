/* uniform.c: whether every block of a launch does the same shared-memory work (uniform.h). */
#include "smemlab/analysis/uniform.h"

#include <stdio.h>
#include <stdlib.h>

/* special registers whose value may differ between blocks (or that the emulator cannot know) */
static int sreg_varies(unsigned sr)
{
    switch (sr) {
    case SR_TID_X: case SR_TID_Y: case SR_TID_Z: case SR_NTID_X: case SR_NTID_Y: case SR_NTID_Z:
    case SR_NCTAID_X: case SR_NCTAID_Y: case SR_NCTAID_Z: case SR_LANEID: case SR_WARPID:
    case SR_NWARPID: case SR_LANEMASK_EQ: case SR_LANEMASK_LT: case SR_LANEMASK_LE:
    case SR_LANEMASK_GT: case SR_LANEMASK_GE: case SR_DYN_SMEM: case SR_TOTAL_SMEM:
    case SR_CLUSTER_NCTARANK: /* %cluster_ctarank and the cluster ids vary (default) */
        return 0;
    default: /* %ctaid, %clock, %smid, %gridid, ... */
        return 1;
    }
}

/* the ld/st family and cp.async: an address operand (opcodes.def, mem_op) */
static int is_mem(unsigned op) { return smem_op_mem_operand(op) >= 0; }

/* Taint: V, a value that may differ between blocks (it may be known: %ctaid, a clock, ...); D,
 * loaded data (unknown to analyze: global and constant memory, textures, atomics). Shared and
 * local memory hold D, and V once a V value is stored there. */
enum { TV = 1, TD = 2 };

/* the taint operand o reads */
static unsigned op_taint(const struct smem_ptx_operand *o, const uint8_t *t)
{
    unsigned r = 0;
    if (o->kind == OPK_SREG)
        return sreg_varies((unsigned)o->imm) ? TV : 0;
    if (o->kind == OPK_REG || o->kind == OPK_ADDR || o->kind == OPK_VEC || o->kind == OPK_PAIR)
        for (int i = 0; i < 4; i++)
            if (o->reg[i] >= 0)
                r |= t[o->reg[i]];
    return r;
}

/* the taint of a fragment {r0, ..., r7} of mma / wmma / ldmatrix / stmatrix (5 or more registers
 * live in f->vregs) */
static unsigned frag_taint(const struct smem_ptx_func *f, const struct smem_ptx_operand *o,
                           const uint8_t *t)
{
    if (o->kind != OPK_VECX)
        return op_taint(o, t);
    unsigned r = 0;
    for (unsigned i = 0; i < o->count; i++) {
        int32_t reg = smem_ptx_vec_reg(f, o, i);
        if (reg >= 0)
            r |= t[reg];
    }
    return r;
}

static int op_tainted(const struct smem_ptx_operand *o, const uint8_t *t)
{
    return op_taint(o, t) != 0;
}

static int fail(const struct smem_ptx_insn *in, char *why, size_t n, const char *what)
{
    snprintf(why, n, "%s at PTX line %u depends on %%ctaid or on loaded data", what, in->src_line);
    return 0;
}

/* the operand a store-like instruction writes to memory (the value), or NULL */
static const struct smem_ptx_operand *stored_value(const struct smem_ptx_insn *in)
{
    if (in->op == PO_ST && in->nops > 1)
        return &in->ops[1];
    if ((in->op == PO_ATOM && in->nops > 2) || (in->op == PO_RED && in->nops > 1))
        return &in->ops[in->op == PO_ATOM ? 2 : 1];
    return NULL;
}

int smem_blocks_uniform(const struct smem_ptx_func *f, char *why, size_t n)
{
    uint8_t *t = calloc(f->nregs ? f->nregs : 1, 1);
    if (!t)
        return -1;
    /* taint, to a fixed point */
    unsigned smem = TD, local = TD; /* what shared and local memory may hold */
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t i = 0; i < f->ninsns; i++) {
            const struct smem_ptx_insn *in = &f->insns[i];
            const struct smem_ptx_operand *sv = stored_value(in);
            if (sv && in->space != SP_GLOBAL && in->space != SP_CONST && in->space != SP_PARAM) {
                unsigned v = op_taint(sv, t) & TV; /* a V value stored to shared or local memory */
                if (v && (in->space == SP_SHARED || in->space == SP_GENERIC) && !(smem & TV)) {
                    smem |= TV;
                    changed = 1;
                }
                if (v && (in->space == SP_LOCAL || in->space == SP_GENERIC) && !(local & TV)) {
                    local |= TV;
                    changed = 1;
                }
            }
            if ((in->op == PO_STMATRIX || (in->op == PO_WMMA && in->mode == MODE_WMMA_STORE_D &&
                                            in->space != SP_GLOBAL)) &&
                in->nops > 1 && (frag_taint(f, &in->ops[1], t) & TV) &&
                !(smem & TV)) { /* stmatrix and wmma.store store their fragments to memory */
                smem |= TV;
                changed = 1;
            }
            if (!smem_op_writes_dst(in->op) || in->nops == 0 || in->op == PO_STMATRIX ||
                (in->op == PO_MBARRIER && in->ops[0].kind != OPK_REG) ||
                (in->op == PO_WMMA && in->mode == MODE_WMMA_STORE_D))
                continue;
            unsigned src = in->guard >= 0 ? t[in->guard] : 0; /* written or not: its choice */
            if (in->op == PO_LDMATRIX || in->op == PO_MBARRIER) {
                src |= smem; /* what shared memory holds (an mbarrier's state, its phase) */
            } else if (in->op == PO_MMA || in->op == PO_WMMA) {
                src |= TD; /* wmma.load reads any memory; mma: conservatively data */
                for (unsigned o = 1; o < in->nops; o++)
                    src |= frag_taint(f, &in->ops[o], t);
            } else if (is_mem(in->op) && in->space != SP_PARAM) {
                /* what the memory holds (an address that varies is refused below; global data
                   is unknown to analyze wherever it is read) */
                src |= in->space == SP_SHARED ? smem : in->space == SP_LOCAL ? local
                       : in->space == SP_GENERIC ? (smem | local | TD) : TD;
            } else if (in->op == PO_TEX) {
                src |= TD;
            } else {
                for (unsigned o = 1; o < in->nops; o++)
                    src |= op_taint(&in->ops[o], t);
            }
            if (!src)
                continue;
            const struct smem_ptx_operand *d = &in->ops[0];
            for (int r = 0; r < 4; r++)
                if (d->reg[r] >= 0 && (t[d->reg[r]] | src) != t[d->reg[r]]) {
                    t[d->reg[r]] |= (uint8_t)src;
                    changed = 1;
                }
            for (unsigned r = 4; d->kind == OPK_VECX && r < d->count; r++) {
                int32_t reg = smem_ptx_vec_reg(f, d, r);
                if (reg >= 0 && (t[reg] | src) != t[reg]) {
                    t[reg] |= (uint8_t)src;
                    changed = 1;
                }
            }
        }
    }
    int ok = 1;
    for (uint32_t i = 0; i < f->ninsns && ok; i++) {
        const struct smem_ptx_insn *in = &f->insns[i];
        int g = in->guard >= 0 && t[in->guard];
        switch (in->op) {
        case PO_BRA:
            if (g)
                ok = fail(in, why, n, "a branch");
            break;
        case PO_CALL:
            snprintf(why, n, "the kernel makes a call (PTX line %u)", in->src_line);
            ok = 0;
            break;
        case PO_RET: case PO_EXIT: case PO_TRAP:
            if (g)
                ok = fail(in, why, n, "an exit");
            break;
        case PO_BAR: case PO_BAR_RED: case PO_BAR_ARRIVE: case PO_BAR_WARP: case PO_SHFL:
        case PO_VOTE: case PO_MATCH: case PO_REDUX: case PO_ACTIVEMASK: {
            int bad = g;
            /* barrier ids and counts, shuffle lanes and masks (not the values shuffled, voted) */
            unsigned from = in->op == PO_SHFL ? 2 : in->op == PO_BAR_RED ? 1
                          : in->op == PO_BAR || in->op == PO_BAR_ARRIVE || in->op == PO_BAR_WARP ? 0
                                                                                       : in->nops;
            for (unsigned o = from; o < in->nops && !bad; o++)
                bad = op_tainted(&in->ops[o], t);
            if (bad)
                ok = fail(in, why, n, "a barrier or warp collective");
            break;
        }
        case PO_LDMATRIX: case PO_STMATRIX: case PO_MBARRIER: case PO_CP_ASYNC_WAIT: case PO_MMA:
        case PO_WMMA: case PO_CP_BULK: {
            /* the shared address of a matrix or an mbarrier; warp-collective ones under a
               varying predicate */
            int bad = g;
            for (unsigned o = 0; o < in->nops && !bad; o++)
                bad = in->ops[o].kind == OPK_ADDR && op_tainted(&in->ops[o], t);
            if (bad)
                ok = fail(in, why, n, "a matrix or mbarrier access");
            break;
        }
        default:
            if (is_mem(in->op) && in->space != SP_GLOBAL && in->space != SP_CONST) {
                /* shared, generic, local, parameter: the address (a bad one fails the run); the
                   predicate of a shared or generic one */
                const struct smem_ptx_operand *mo = &in->ops[smem_op_mem_operand(in->op)];
                int sh = in->space == SP_SHARED || in->space == SP_GENERIC;
                const struct smem_ptx_operand *sv = stored_value(in);
                if ((sh && g) || op_tainted(mo, t)) {
                    ok = fail(in, why, n, in->space == SP_SHARED ? "a shared access"
                                          : in->space == SP_GENERIC ? "a generic access"
                                                                    : "a local or parameter address");
                } else if (sh && sv && (op_taint(sv, t) & TV)) {
                    /* racecheck's verdict on a store looks at the value it stores */
                    snprintf(why, n, "a value stored to shared memory at PTX line %u depends on "
                             "%%ctaid", in->src_line);
                    ok = 0;
                }
            }
            break;
        }
    }
    if (ok)
        snprintf(why, n, "shared addresses and control flow depend neither on %%ctaid nor on "
                         "loaded data (dataflow proof over the PTX)");
    free(t);
    return ok;
}
