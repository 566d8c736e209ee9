/* lanes.c: one lane of a warp as the warp-level instruction families see it: its operands and
 * registers in the warp's rows, its shared address checked, the warp's lanes, the requests its
 * lanes just joined. */
#include "lanes.h"
#include "memory.h"
#include "request.h"

#include <stdio.h>

/* ---- operands of one lane ----------------------------------------------------------------- */

uint64_t emu_lane_val(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_operand *o,
                         int *known)
{
    const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    const uint32_t *K = b->K + (size_t)w * b->nregs;
    if (o->kind == OPK_REG) {
        if (!(K[o->reg[0]] >> l & 1u))
            *known = 0;
        return R[(size_t)o->reg[0] * 32 + l];
    }
    if (o->kind == OPK_IMM)
        return (uint64_t)o->imm;
    if (o->kind == OPK_SYM)
        return emu_sym_addr(b, o->sym) + (uint64_t)o->imm;
    *known = 0;
    return 0;
}

void emu_lane_set(struct block *b, uint32_t w, uint32_t l, int32_t reg, uint64_t v, int known)
{
    if (reg < 0)
        return;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    R[(size_t)reg * 32 + l] = v & mask_bytes(TBYTES(b->p->func->reg_type[reg]));
    K[reg] = known ? K[reg] | 1u << l : K[reg] & ~(1u << l);
}

/* The shared offset of lane l's memory operand mo (n bytes). 1 ok, 0 the address is unknown,
 * -1 failed (located: not shared memory, out of range, misaligned to align). */
int emu_lane_shared(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                       const struct smem_ptx_insn *in, const struct smem_ptx_operand *mo,
                       unsigned n, unsigned align, uint32_t *off, const char *what)
{
    int known = 1;
    uint64_t a;
    if (mo->reg[0] >= 0) {
        const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
        const uint32_t *K = b->K + (size_t)w * b->nregs;
        known = (int)(K[mo->reg[0]] >> l & 1u);
        a = R[(size_t)mo->reg[0] * 32 + l];
    } else {
        a = emu_sym_addr(b, mo->sym);
    }
    a += (uint64_t)mo->imm;
    if (!known)
        return 0;
    char msg[200];
    if (in->space == SP_GENERIC) {
        if (a < SHARED_GENERIC_BASE || a - SHARED_GENERIC_BASE >= WINDOW_SIZE) {
            snprintf(msg, sizeof msg, "%s: the generic address 0x%llx of lane %u is not in shared "
                     "memory", what, (unsigned long long)a, l);
            return emu_fail(b, pc, msg);
        }
        a -= SHARED_GENERIC_BASE;
    }
    uint64_t o = a - SHARED_WINDOW_BASE;
    if (a < SHARED_WINDOW_BASE || o > b->smem_size || o + n > b->smem_size) {
        snprintf(msg, sizeof msg, "%s: lane %u's shared address 0x%llx is outside the block's %u "
                 "bytes of shared memory", what, l, (unsigned long long)a, b->smem_size);
        return emu_fail(b, pc, msg);
    }
    if (o % align) {
        snprintf(msg, sizeof msg, "%s: lane %u's shared address 0x%llx is not %u-byte aligned",
                 what, l, (unsigned long long)a, align);
        return emu_fail(b, pc, msg);
    }
    *off = (uint32_t)o;
    return 1;
}

/* The CTA *t of the cluster and the offset in its shared memory of lane l's shared::cluster (or
 * generic) address operand mo (n bytes, aligned to n). 1 ok, 0 the address is unknown, -1
 * failed (located: no such rank, a CTA that exited, outside its memory, misaligned). */
int emu_lane_cluster(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                     const struct smem_ptx_operand *mo, unsigned n, struct block **t,
                     uint32_t *off, const char *what)
{
    int known = 1;
    uint64_t a;
    if (mo->kind != OPK_ADDR) {
        a = emu_lane_val(b, w, l, mo, &known);
    } else if (mo->reg[0] >= 0) {
        known = (int)(b->K[(size_t)w * b->nregs + (uint32_t)mo->reg[0]] >> l & 1u);
        a = b->R[((size_t)w * b->nregs + (uint32_t)mo->reg[0]) * 32 + l] + (uint64_t)mo->imm;
    } else {
        a = emu_sym_addr(b, mo->sym) + (uint64_t)mo->imm;
    }
    if (!known)
        return 0;
    uint64_t x = a >= SHARED_GENERIC_BASE && a - SHARED_GENERIC_BASE < WINDOW_SIZE
                     ? a - SHARED_GENERIC_BASE : a;
    uint64_t o = 0;
    int r = emu_cluster_resolve(b, x, n, t, &o);
    if (r <= -3 || x % n)
        return emu_remote_fault(b, w * 32 + l, pc, a, n, r <= -3 ? r : 0);
    if (r < 0)
        return emu_failf(b, pc, "%s: lane %u's shared::cluster address 0x%llx is outside the %u "
                         "bytes of shared memory of block (%u,%u,%u)", what, l,
                         (unsigned long long)a, (*t)->smem_size, (*t)->ctaid[0], (*t)->ctaid[1],
                         (*t)->ctaid[2]);
    *off = (uint32_t)o;
    return 1;
}

/* the lanes of warp w that exist (a partial last warp has fewer) */
uint32_t emu_warp_lanes(const struct block *b, uint32_t w)
{
    uint32_t n = b->nthreads - w * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

int emu_whole_warp(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const char *what)
{
    if (ex == emu_warp_lanes(b, w))
        return 0;
    char msg[200];
    snprintf(msg, sizeof msg, "%s executed by some lanes of warp %u only (lanes 0x%08x): .sync."
             "aligned needs every lane of the warp, converged", what, w, ex);
    return emu_fail(b, pc, msg);
}

/* Every request lanes ex of warp w just joined at site s: f(a) for each. */
void emu_each_request(struct block *b, uint32_t w, uint32_t s, uint32_t ex,
                         void (*f)(struct smem_access *a, uint32_t l, void *ctx), void *ctx)
{
    uint32_t lastk = UINT32_MAX;
    struct smem_access *a = NULL;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        uint32_t kc = *emu_kcount(b, w * 32 + l, s);
        if (!kc)
            continue; /* the lane made no request here */
        uint32_t k = kc - 1;
        if (k != lastk || !a) {
            a = emu_request(b, s, k, w);
            lastk = k;
        }
        if (a)
            f(a, l, ctx);
    }
}
