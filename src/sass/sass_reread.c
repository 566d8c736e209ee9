/* sass_reread.c: shared loads that re-read what an earlier load of their line read, which ptxas
 * serves from that load's registers (issue 14, cause 1a), counted as the kernel's own SASS shows.
 *
 * CUB's raking scan reads a lane's segment in the upsweep and again in the downsweep (the same
 * line, the same base register, a warp scan between); ptxas keeps the upsweep's values and drops the downsweep's LDS, but not
 * always: in a kernel of ours written alike it drops 2 of 32. So nothing is assumed: the line's
 * SASS says, offset by offset, how many LDS read [Ra + imm], and where it has fewer than the PTX
 * has loads of [Rb + imm], the later ones are the re-reads it dropped, each believed only where
 * an earlier load of that address reaches it by straight code (no label between) with no barrier,
 * fence, atomic, call or store that may write its bytes between and its base register unchanged.
 * Such a load makes no request (merge[k].leader = the earlier load; placed[earlier] = 3).
 * Checked against the H100: tests/run/raking.cu (tests/run/h100-fixed-reads.csv). */
#include "smemlab/sass/sass_reread.h"

#include <stdint.h>
#include <stdlib.h>

#include "smemlab/base/text.h"
#include "smemlab/sass/flow.h"

#define REREAD_MAX 1024 /* loads on one line looked at */

/* 1 when instruction q writes register r (its destination operand), or may. */
static int writes_reg(const struct smem_ptx_insn *in, int32_t r)
{
    switch (in->op) {
    case PO_ST: case PO_RED: case PO_BRA: case PO_BAR: case PO_BAR_ARRIVE: case PO_BAR_WARP:
    case PO_MEMBAR: case PO_RET: case PO_EXIT:
        return 0;
    default:
        break;
    }
    if (in->op == PO_CALL)
        return 1;
    if (!in->nops)
        return 0;
    const struct smem_ptx_operand *o = &in->ops[0];
    switch (o->kind) {
    case OPK_REG: return o->reg[0] == r;
    case OPK_PAIR: return o->reg[0] == r || o->reg[1] == r;
    case OPK_VEC:
        for (unsigned c = 0; c < o->count && c < 4; c++)
            if (o->reg[c] == r)
                return 1;
        return 0;
    case OPK_VECX: return 1;
    default: return 0;
    }
}

/* A load of [base + imm] (bytes w) at b re-reads what the load at a read: see above. */
static int reread_clean(const struct smem_ptx_func *f, const uint8_t *target, uint32_t a,
                        uint32_t b, int32_t base, int64_t imm, unsigned w)
{
    for (uint32_t q = a + 1; q <= b; q++) {
        if (target[q])
            return 0; /* reached from elsewhere too */
        if (q == b)
            break;
        const struct smem_ptx_insn *in = &f->insns[q];
        if (writes_reg(in, base))
            return 0;
        if (in->op == PO_ST && in->space == SP_SHARED && in->nops >= 1 &&
            in->ops[0].kind == OPK_ADDR && in->ops[0].reg[0] == base && in->ops[0].sym < 0) {
            int64_t at = in->ops[0].imm;
            unsigned sw = smem_ptx_type_bytes(in->type) * (in->vec > 1 ? in->vec : 1);
            if (at + (int64_t)sw <= imm || imm + (int64_t)w <= at)
                continue; /* other bytes of the same segment */
            return 0;
        }
        if (smem_sass_ptx_clobbers(in))
            return 0;
    }
    return 1;
}

/* A load this rule looks at: an unguarded scalar ld.shared of [reg + imm], not grouped. */
static int reg_load(const struct smem_ptx_insn *in, const struct smem_sass_merge *merge,
                    uint32_t k)
{
    return (in->op == PO_LD || in->op == PO_LDU) && in->space == SP_SHARED && in->nops == 2 &&
           in->guard < 0 && in->vec <= 1 && in->ops[1].kind == OPK_ADDR && in->ops[1].reg[0] >= 0 &&
           in->ops[1].sym < 0 && merge[k].leader < 0;
}

int smem_sass_rereads(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                      const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                      struct smem_sass_merge *merge, uint8_t *placed)
{
    uint32_t n = f->ninsns;
    if (!sf || !sm->has_lines || !n)
        return 0;
    for (uint32_t k = 0; k < sf->ninsns; k++)
        if (sf->insns[k].cls == SMEM_SASS_UNKNOWN)
            return 0;
    uint8_t *target = smem_sass_ptx_targets(f), *done = calloc(n, 1);
    uint32_t *ld = malloc(REREAD_MAX * sizeof *ld), *drop = malloc(REREAD_MAX * sizeof *drop);
    int64_t *soff = malloc(REREAD_MAX * sizeof *soff);
    int rc = -1;
    if (!target || !done || !ld || !drop || !soff)
        goto out;
    for (uint32_t k0 = 0; k0 < n; k0++) {
        if (done[k0] || !reg_load(&f->insns[k0], merge, k0))
            continue;
        const char *path;
        uint32_t line;
        smem_sass_ptx_line(m, &f->insns[k0], &path, &line);
        if (!line)
            continue;
        /* the PTX's shared loads of the line: all of this form, one base, one width */
        int32_t base = f->insns[k0].ops[1].reg[0];
        unsigned w = smem_ptx_type_bytes(f->insns[k0].type), nl = 0, ok = 1;
        for (uint32_t k = 0; k < n; k++) {
            const struct smem_ptx_insn *in = &f->insns[k];
            if ((in->op != PO_LD && in->op != PO_LDU) || in->space != SP_SHARED)
                continue;
            const char *pk;
            uint32_t lk;
            smem_sass_ptx_line(m, in, &pk, &lk);
            if (lk != line || pk != path)
                continue;
            done[k] = 1;
            if (!reg_load(in, merge, k) || in->ops[1].reg[0] != base ||
                smem_ptx_type_bytes(in->type) != w || nl == REREAD_MAX)
                ok = 0;
            else
                ld[nl++] = k;
        }
        /* the SASS's LDS of the line: one register base, that width, unguarded */
        unsigned ns = 0;
        int ra = -1;
        for (uint32_t s = 0; s < sf->ninsns && ok; s++) {
            const struct smem_sass_insn *x = &sf->insns[s];
            if (x->line != line || x->file >= sm->nfiles ||
                !smem_same_source(path, sm->files[x->file]))
                continue;
            if (x->cls != SMEM_SASS_LDS)
                continue;
            if (x->ra == 255 || x->ra_fixed || x->width != w || x->guard != SMEM_SASS_PT ||
                (ra >= 0 && x->ra != ra) || ns == REREAD_MAX) {
                ok = 0;
                break;
            }
            ra = x->ra;
            soff[ns++] = x->imm;
        }
        if (!ok || !ns || ns >= nl)
            continue; /* no evidence: as many LDS as loads (or more: ptxas's copies) */
        /* the SASS's offsets are the PTX's moved by one constant (ptxas may fold one into Ra) */
        int64_t pmin = INT64_MAX, smin = INT64_MAX;
        for (unsigned i = 0; i < nl; i++)
            if (f->insns[ld[i]].ops[1].imm < pmin)
                pmin = f->insns[ld[i]].ops[1].imm;
        for (unsigned i = 0; i < ns; i++)
            if (soff[i] < smin)
                smin = soff[i];
        int64_t shift = smin - pmin;
        /* offset by offset: as many or fewer LDS than loads, every LDS some load's offset */
        unsigned ndrop = 0;
        for (unsigned i = 0; i < ns && ok; i++) {
            unsigned have = 0;
            for (unsigned j = 0; j < nl; j++)
                have += f->insns[ld[j]].ops[1].imm + shift == soff[i];
            ok = have > 0;
        }
        for (unsigned i = 0; i < nl && ok; i++) {
            int64_t imm = f->insns[ld[i]].ops[1].imm;
            int first = 1, np = 0, nsa = 0;
            for (unsigned j = 0; j < nl; j++) {
                if (f->insns[ld[j]].ops[1].imm != imm)
                    continue;
                first &= j >= i;
                np++;
            }
            if (!first)
                continue; /* each offset once */
            for (unsigned j = 0; j < ns; j++)
                nsa += soff[j] == imm + shift;
            if (nsa > np) {
                ok = 0;
                break;
            }
            /* the last np - nsa loads of this offset are the ones dropped */
            int skip = nsa;
            for (unsigned j = 0; j < nl; j++) {
                if (f->insns[ld[j]].ops[1].imm != imm)
                    continue;
                if (skip-- > 0)
                    continue;
                drop[ndrop++] = j;
            }
        }
        if (!ok)
            continue;
        for (unsigned d = 0; d < ndrop; d++) {
            uint32_t b = ld[drop[d]];
            int64_t imm = f->insns[b].ops[1].imm;
            /* the nearest earlier load of the address that makes its request */
            int32_t a = -1;
            for (unsigned j = drop[d]; j-- > 0;)
                if (f->insns[ld[j]].ops[1].imm == imm && merge[ld[j]].leader < 0) {
                    a = (int32_t)ld[j];
                    break;
                }
            if (a < 0 || !reread_clean(f, target, (uint32_t)a, b, base, imm, w))
                continue;
            merge[b].leader = a;
            if (!placed[a])
                placed[a] = 3;
        }
    }
    rc = 0;
out:
    free(target);
    free(done);
    free(ld);
    free(drop);
    free(soff);
    return rc;
}
