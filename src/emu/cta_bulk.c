/* cta_bulk.c: the bulk copies of sm_90 (cp.async.bulk, the TMA unit's non-tensor copies) in the
 * CTA emulator, a warp at a time:
 *  - global -> shared, completing transaction bytes on an mbarrier
 *    (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size,
 *    [mbar]): the copy is done at once and its bytes complete_tx on the barrier, so the phase
 *    that waited for them completes as on the GPU (expect_tx before or after, either way);
 *  - shared -> global (cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size): done at
 *    once; commit_group, wait_group{.read} and prefetch.L2 then have nothing left to do.
 * Cost: the H100 moves these bytes outside the LSU pipe: Nsight Compute counts no shared-memory
 * load, store or LDGSTS request for them (cuda-samples globalToShmemAsyncCopy -kernel=2, measured
 * 2026-11-24, tests/hw/h100-bulk.csv), so they make no request here either. For the hazards the
 * destination bytes of a global -> shared copy are a write by the issuing thread when it issues
 * (a site of op ldgsts that makes no request: `landed` events), and the phase completion that
 * publishes them closes the interval as every mbarrier phase does.
 *  - shared::cta -> shared::cluster ([dst], [src], size, [mbar]), into a CTA of the cluster:
 *    done at once, completing on that CTA's barrier; one dshared request of op tma_st (Nsight
 *    Compute's smsp__sass_inst_executed_op_dshared_tma_st: tests/run/h200-cluster-dsmem-ncu.csv).
 * A global -> shared copy's destination and barrier are shared::cluster addresses (another CTA's
 * too). The tensor forms (a tensor map describes the copy) are cta_tma.c's.
 * Not emulated, each stopping the kernel where it executes with one sentence: cp.reduce.async.bulk
 * (its tensor form is cta_tma.c's) and the non-tensor .multicast::cluster. */
#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"

#include <stdio.h>
#include <string.h>

/* The destination bytes of lane l's copy: a write of that lane, 16 bytes at a time. */
static void bulk_landed(struct block *b, uint32_t w, uint32_t l, uint32_t pc, uint32_t off,
                        uint32_t n)
{
    const struct smem_cta_program *p = b->p;
    uint32_t s = p->site_of_insn[pc];
    if (!b->h || !b->h->access || s >= p->nsites || p->sites[s].insn != pc)
        return;
    struct smem_access x;
    memset(&x, 0, sizeof x);
    x.site = s;
    x.block = b->bid;
    x.warp = w;
    x.width = 16;
    x.op = SMEM_ACC_CP_ASYNC;
    x.landed = 1;
    x.active = 1u << l;
    x.wsync[l] = b->T[w * 32 + l].wsync;
    for (uint32_t i = 0; i < n; i += 16) {
        x.interval = b->interval;
        x.addr[l] = off + i;
        b->h->access(b->h->ctx, &x);
    }
}

/* Lane l's copy size (ops[2]) in *n, and its global address operand (ops[gi]) in *ga (*gk:
 * known). 1 ok, 0 stopped (an unknown size), -1 failed (not a positive multiple of 16 within
 * the block's shared memory). */
static int bulk_operands(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                         const struct smem_ptx_insn *in, const char *name, unsigned gi,
                         uint32_t *n, uint64_t *ga, int *gk)
{
    int k = 1;
    uint64_t n64 = in->nops > 2 ? emu_lane_val(b, w, l, &in->ops[2], &k) : 0;
    if (!k) {
        emu_stop_unknown(b, pc, "bulk copy size");
        return 0;
    }
    if (n64 == 0 || n64 % 16 || n64 > b->smem_size) {
        char msg[240];
        snprintf(msg, sizeof msg, "%s: size %llu of lane %u is not a positive multiple of 16 "
                 "within the block's shared memory", name, (unsigned long long)n64, l);
        return emu_fail(b, pc, msg);
    }
    *n = (uint32_t)n64;
    const struct smem_ptx_operand *o = &in->ops[gi];
    *gk = 1;
    *ga = o->reg[0] >= 0 ? emu_lane_val(b, w, l, &(struct smem_ptx_operand){
                                            .kind = OPK_REG, .reg = {o->reg[0], -1, -1, -1},
                                            .sym = -1}, gk)
                         : emu_sym_addr(b, o->sym);
    *ga += (uint64_t)o->imm;
    return 1;
}

/* Lane l's global -> shared copy. 1 done, 0 stopped (unknown), -1 failed. */
static int bulk_g2s(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                    const struct smem_ptx_insn *in, const char *name)
{
    char msg[240];
    uint32_t n = 0;
    uint64_t ga = 0;
    int k = 0, r = bulk_operands(b, w, l, pc, in, name, 1, &n, &ga, &k);
    if (r <= 0)
        return r;
    /* the destination and its mbarrier: shared::cluster addresses (this CTA's or another's of
       its cluster; the copy's bytes complete on the barrier of the CTA they land in) */
    uint32_t dst, bar;
    struct block *t, *tb;
    r = emu_lane_cluster(b, w, l, pc, &in->ops[0], 16, &t, &dst, name);
    if (r > 0 && dst + (uint64_t)n > t->smem_size) {
        snprintf(msg, sizeof msg, "%s: the %u bytes at lane %u's destination are outside the "
                 "block's shared memory", name, n, l);
        return emu_fail(b, pc, msg);
    }
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "bulk copy destination");
        return r;
    }
    if (in->nops < 4 || in->ops[3].kind != OPK_ADDR)
        return emu_fail(b, pc, "cp.async.bulk: the mbarrier operand is missing");
    r = emu_lane_cluster(b, w, l, pc, &in->ops[3], 8, &tb, &bar, name);
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "mbarrier address");
        return r;
    }
    if (tb != t) {
        snprintf(msg, sizeof msg, "%s: lane %u's destination and mbarrier are in two CTAs (ranks "
                 "%u and %u)", name, l, t->rank, tb->rank);
        return emu_fail(b, pc, msg);
    }
    uint8_t *gm = NULL, *gk = NULL;
    int g = k ? emu_global_span(b, w * 32 + l, pc, in, ga, n, 0, &gm, &gk) : 0;
    if (g == -1)
        return -1;
    if (k && (ga & 15u)) {
        snprintf(msg, sizeof msg, "%s: the global source 0x%llx of lane %u is not 16-byte "
                 "aligned", name, (unsigned long long)ga, l);
        return emu_fail(b, pc, msg);
    }
    if (g == 1) {
        memcpy(t->smem + dst, gm, n);
        if (gk)
            memcpy(t->smem_known + dst, gk, n);
        else
            memset(t->smem_known + dst, 1, n);
    } else { /* analyze (global data is unknown), an unknown source, or a fault reported */
        memset(t->smem_known + dst, 0, n);
    }
    if (t == b)
        bulk_landed(b, w, l, pc, dst, n);
    emu_tma_forget(t, dst, n);
    emu_pf_async(t, dst, n);
    return emu_mbarrier_complete_tx(b, t, pc, bar, n, name);
}

/* Lane l's shared::cta -> shared::cluster copy ([dst], [src], size, [mbar]: the destination and
 * the barrier in one CTA of the cluster, usually another): done at once, its bytes completing on
 * that CTA's barrier; a dshared request (op tma_st) when the CTA is another. 1 done, 0 stopped,
 * -1 failed. */
static int bulk_s2s(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                    const struct smem_ptx_insn *in, const char *name)
{
    char msg[240];
    uint32_t n = 0, src = 0, dst = 0, bar = 0;
    uint64_t unused = 0;
    int k = 0, r = bulk_operands(b, w, l, pc, in, name, 1, &n, &unused, &k);
    if (r <= 0)
        return r;
    struct smem_ptx_insn sh = *in;
    sh.space = SP_SHARED;
    struct block *t, *tb;
    if ((r = emu_lane_shared(b, w, l, pc, &sh, &in->ops[1], n, 16, &src, name)) > 0 &&
        (r = emu_lane_cluster(b, w, l, pc, &in->ops[0], 16, &t, &dst, name)) > 0 &&
        in->nops >= 4 && in->ops[3].kind == OPK_ADDR)
        r = emu_lane_cluster(b, w, l, pc, &in->ops[3], 8, &tb, &bar, name);
    else if (r > 0)
        return emu_fail(b, pc, "cp.async.bulk: the mbarrier operand is missing");
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "bulk copy address");
        return r;
    }
    if (dst + (uint64_t)n > t->smem_size || tb != t) {
        snprintf(msg, sizeof msg, "%s: lane %u's %u bytes %s", name, l, n,
                 tb != t ? "and its mbarrier are in two CTAs"
                         : "at the destination are outside the block's shared memory");
        return emu_fail(b, pc, msg);
    }
    memmove(t->smem + dst, b->smem + src, n);
    memmove(t->smem_known + dst, b->smem_known + src, n);
    emu_tma_forget(t, dst, n);
    emu_pf_async(t, dst, n);
    if (t != b) {
        b->remote = t;
        emu_dshared_lane(b, w * 32 + l, SMEM_DSH_TMA_ST, n);
    }
    return emu_mbarrier_complete_tx(b, t, pc, bar, n, name);
}

/* Lane l's shared -> global copy. 1 done, 0 stopped, -1 failed. */
static int bulk_s2g(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                    const struct smem_ptx_insn *in, const char *name)
{
    char msg[240];
    uint32_t n;
    uint64_t ga;
    int k, r = bulk_operands(b, w, l, pc, in, name, 0, &n, &ga, &k);
    if (r <= 0)
        return r;
    struct smem_ptx_insn sh = *in;
    sh.space = SP_SHARED;
    uint32_t src;
    r = emu_lane_shared(b, w, l, pc, &sh, &in->ops[1], n, 16, &src, name);
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "bulk copy source");
        return r;
    }
    if (!k) {
        if (b->gm) {
            emu_stop_unknown(b, pc, "bulk copy destination");
            return 0;
        }
        return 1; /* analyze: global memory is not modelled */
    }
    if (ga & 15u) {
        snprintf(msg, sizeof msg, "%s: the global destination 0x%llx of lane %u is not 16-byte "
                 "aligned", name, (unsigned long long)ga, l);
        return emu_fail(b, pc, msg);
    }
    uint8_t *gm = NULL, *gk = NULL;
    int g = emu_global_span(b, w * 32 + l, pc, in, ga, n, 1, &gm, &gk);
    if (g == -1)
        return -1;
    if (g == 1) {
        memcpy(gm, b->smem + src, n);
        if (gk)
            memcpy(gk, b->smem_known + src, n);
    }
    return 1;
}

int emu_exec_bulk(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                  uint32_t ex)
{
    const char *name = smem_ptx_tensor_name(in);
    const char *why = NULL;
    switch (in->mode) {
    case MODE_BULK_COMMIT: case MODE_BULK_WAIT: case MODE_BULK_PREFETCH:
        return 1; /* the copies are done at once: nothing waits, nothing to fetch */
    case MODE_BULK_TENSOR: case MODE_BULK_TENSOR_G2S: case MODE_BULK_TENSOR_S2G:
    case MODE_BULK_TENSOR_PREFETCH:
        return emu_tma_exec(b, w, pc, in, ex);
    case MODE_BULK_REDUCE:
        why = "cp.reduce.async.bulk (bulk reductions are not emulated)";
        break;
    case MODE_BULK_MULTICAST:
        why = "cp.async.bulk .multicast::cluster (a non-tensor copy into several CTAs is not "
              "emulated)";
        break;
    default: break;
    }
    if (why) {
        char msg[240];
        snprintf(msg, sizeof msg, "unsupported instruction: %s", why);
        return emu_fail(b, pc, msg);
    }
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        int r = in->mode == MODE_BULK_G2S   ? bulk_g2s(b, w, l, pc, in, name)
                : in->mode == MODE_BULK_S2S ? bulk_s2s(b, w, l, pc, in, name)
                                            : bulk_s2g(b, w, l, pc, in, name);
        if (r <= 0)
            return r < 0 ? -1 : 1;
    }
    return 1;
}
