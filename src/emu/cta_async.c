/* cta_async.c: cp.async's groups and mbarrier in the CTA emulator, a warp at a time:
 *  - cp.async: the copy itself is the lane path's (cta_lane.c, exec_mem: done at once); here its
 *    request (op ldgsts) learns each lane's global source and .cg, which its cost depends on,
 *    and for the hazards its bytes land when its thread waits for them (wait_group, wait_all,
 *    cp.async.mbarrier.arrive);
 *  - mbarrier init / inval / arrive / arrive_drop / expect_tx / complete_tx / test_wait /
 *    try_wait / pending_count and cp.async.mbarrier.arrive{.noinc}: the barrier is an 8-byte
 *    object in shared memory (the encoding below is ours: a program reads it only through these
 *    instructions); a thread whose try_wait finds its phase incomplete waits (L_MBAR) until the
 *    phase completes (emu_async_wake), so a spinning loop costs no steps, and a block whose
 *    live threads all wait on phases that cannot complete stops with a located message;
 *  - fence.proxy.async for the proxy-fence record (block.h, pf_*; request.c): in a kernel with a wgmma, which shared bytes were
 *    last written through the generic proxy by a thread that has not run fence.proxy.async since
 *    (docs/analyzer.md, "The proxy-fence check"; cta_wgmma.c reports a wgmma reading them). */
#include "families.h"
#include "global_race.h"
#include "lanes.h"
#include "request.h"

#include <stdio.h>
#include <stdlib.h>

struct copy {
    uint32_t site, off, group;
    uint8_t width;
};
struct copies {
    struct copy *v;
    uint32_t n, cap;
    uint32_t committed; /* groups committed so far (a copy's group: the count when issued) */
};

struct emu_async {
    uint32_t n;
    uint32_t *wait_off; /* per thread in L_MBAR: the barrier's shared offset */
    uint8_t *wait_par;  /* ... and the parity of the phase it waits to see completed */
    int32_t *wait_pred; /* ... and the predicate its wait sets when it wakes */
    struct copies *cp;  /* per thread */
    struct copy *scratch; /* the copies that land at one wait of a warp */
    uint32_t cap_scratch;
    /* bulk copies' transaction bytes not yet completed on their barrier (cta_bulk.c): they
       complete at the end of the scheduling round or at the next wait on a barrier, so that the
       threads' accesses before that are in the interval of the copy's bytes (a read of them
       before the wait is a race, as on the GPU where the copy is still in flight) */
    struct pending_tx { uint32_t off, n, pc; } *tx;
    uint32_t ntx, cap_tx;
};

/* ---- the mbarrier object (8 bytes): pending arrivals (bits 0-19), expected arrivals (20-39),
 * transaction count (40-60, signed), initialised (62), the current phase's parity (63) ---- */
#define MB_INIT (1ull << 62)
#define WAIT_YIELD 2 /* wait_par of a thread that polled test_wait: it runs again next round */
#define MB_PHASE (1ull << 63)

static uint32_t mb_pend(uint64_t s) { return (uint32_t)(s & 0xfffffu); }
static uint32_t mb_exp(uint64_t s) { return (uint32_t)(s >> 20 & 0xfffffu); }
static int32_t mb_tx(uint64_t s)
{
    uint32_t t = (uint32_t)(s >> 40 & 0x1fffffu);
    return (int32_t)(t << 11) >> 11;
}
static uint64_t mb_make(uint32_t pend, uint32_t exp, int32_t tx, uint64_t flags)
{
    return (uint64_t)(pend & 0xfffffu) | (uint64_t)(exp & 0xfffffu) << 20 |
           (uint64_t)((uint32_t)tx & 0x1fffffu) << 40 | flags;
}
/* the phase completes when no arrival and no transaction is pending */
static uint64_t mb_settle(uint64_t s)
{
    if (mb_pend(s) == 0 && mb_tx(s) == 0)
        return mb_make(mb_exp(s), mb_exp(s), 0, (s & MB_INIT) | ((s & MB_PHASE) ^ MB_PHASE));
    return s;
}

static int async_state(struct block *b)
{
    if (b->async && b->async->n >= b->nthreads)
        return 0;
    emu_async_free(b);
    struct emu_async *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->wait_off = calloc(b->nthreads, sizeof *t->wait_off);
    t->wait_par = calloc(b->nthreads, 1);
    t->wait_pred = calloc(b->nthreads, sizeof *t->wait_pred);
    t->cp = calloc(b->nthreads, sizeof *t->cp);
    t->n = b->nthreads;
    b->async = t;
    return t->wait_off && t->wait_par && t->wait_pred && t->cp ? 0 : -1;
}

void emu_async_free(struct block *b)
{
    if (!b->async)
        return;
    free(b->async->wait_off);
    free(b->async->wait_par);
    free(b->async->wait_pred);
    for (uint32_t i = 0; b->async->cp && i < b->async->n; i++)
        free(b->async->cp[i].v);
    free(b->async->cp);
    free(b->async->scratch);
    free(b->async->tx);
    free(b->async);
    b->async = NULL;
}

void emu_async_reset(struct block *b)
{
    /* the waits are per lane state (L_MBAR), cleared with it; the copies in flight: none */
    for (uint32_t i = 0; b->async && b->async->cp && i < b->async->n; i++)
        b->async->cp[i].n = b->async->cp[i].committed = 0;
    if (b->async)
        b->async->ntx = 0;
}

/* ---- cp.async groups: a copy is done at once, but for the hazards its bytes land when its
 * thread waits for it (cp.async.wait_group / wait_all / cp.async.mbarrier.arrive): a write by
 * that thread then, in that barrier interval, so an access by another thread before the barrier
 * that publishes it is a race, as one before the wait is ---- */

static void copy_issued(struct block *b, uint32_t tid, uint32_t site, uint32_t off, uint8_t width)
{
    struct copies *q = &b->async->cp[tid];
    if (q->n == q->cap) {
        uint32_t nc = q->cap ? 2 * q->cap : 8;
        struct copy *nv = realloc(q->v, nc * sizeof *nv);
        if (!nv)
            return; /* out of memory: the copy only counts where it was issued */
        q->v = nv;
        q->cap = nc;
    }
    q->v[q->n++] = (struct copy){site, off, q->committed, width};
}

/* The copies of lanes `ex` of warp w of groups before upto[l] (UINT32_MAX: every one) land: one
 * warp-level event for the j-th landing copy of the lanes (per site, in program order). */
static void copies_land(struct block *b, uint32_t w, uint32_t ex, const uint32_t *upto)
{
    struct emu_async *t = b->async;
    struct copy *land[32];
    uint32_t nland[32], most = 0, total = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (ex >> l & 1u)
            total += t->cp[w * 32 + l].n;
    if (!total)
        return;
    if (total > t->cap_scratch) {
        struct copy *ns = realloc(t->scratch, total * sizeof *ns);
        if (!ns)
            return; /* out of memory: the copies only count where they were issued */
        t->scratch = ns;
        t->cap_scratch = total;
    }
    struct copy *sp = t->scratch;
    for (uint32_t l = 0; l < 32; l++) {
        nland[l] = 0;
        land[l] = sp;
        if (!(ex >> l & 1u))
            continue;
        struct copies *q = &t->cp[w * 32 + l];
        uint32_t kept = 0;
        for (uint32_t i = 0; i < q->n; i++) {
            if (upto[l] != UINT32_MAX && q->v[i].group >= upto[l])
                q->v[kept++] = q->v[i];
            else {
                sp[nland[l]++] = q->v[i]; /* its bytes land: a generic-proxy write */
                emu_pf_generic(b, w * 32 + l, b->p->sites[q->v[i].site].insn, q->v[i].off,
                               q->v[i].width);
            }
        }
        q->n = kept;
        sp += nland[l];
        most = nland[l] > most ? nland[l] : most;
    }
    if (!b->h || !b->h->access)
        return;
    struct smem_access x;
    for (uint32_t j = 0; j < most; j++) {
        uint32_t left = 0;
        for (uint32_t l = 0; l < 32; l++)
            if ((ex >> l & 1u) && j < nland[l])
                left |= 1u << l;
        while (left) {
            const struct copy *c0 = &land[__builtin_ctz(left)][j];
            memset(&x, 0, sizeof x);
            x.site = c0->site;
            x.block = b->bid;
            x.warp = w;
            x.interval = b->interval;
            x.width = c0->width;
            x.op = SMEM_ACC_CP_ASYNC;
            x.landed = 1;
            for (uint32_t l = 0; l < 32; l++)
                if ((left >> l & 1u) && land[l][j].site == c0->site && land[l][j].width == c0->width) {
                    x.active |= 1u << l;
                    x.addr[l] = land[l][j].off;
                    x.wsync[l] = b->T[w * 32 + l].wsync;
                }
            left &= ~x.active;
            b->h->access(b->h->ctx, &x);
        }
    }
}

static int exec_groups(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                       uint32_t ex)
{
    if (async_state(b))
        return emu_fail(b, pc, "out of memory");
    uint32_t upto[32];
    for (uint32_t l = 0; l < 32; l++) {
        upto[l] = 0;
        if (!(ex >> l & 1u))
            continue;
        struct copies *q = &b->async->cp[w * 32 + l];
        if (in->mode == MODE_CPA_COMMIT) {
            q->committed++;
            ex &= ~(1u << l);
        } else if (in->mode == MODE_CPA_WAIT_ALL) {
            q->committed++;
            upto[l] = UINT32_MAX;
        } else { /* wait_group N: all but the N most recent committed groups */
            int known = 1;
            uint64_t n = in->nops ? emu_lane_val(b, w, l, &in->ops[0], &known) : 0;
            if (!known) {
                emu_stop_unknown(b, pc, "cp.async.wait_group count");
                return 1;
            }
            upto[l] = n >= q->committed ? 0 : q->committed - (uint32_t)n;
        }
    }
    copies_land(b, w, ex, upto);
    return 1;
}

/* ---- cp.async ----------------------------------------------------------------------------- */

struct cp_src {
    struct block *b;
    uint32_t w;
    const struct smem_ptx_insn *in;
};

static void set_src(struct smem_access *a, uint32_t l, void *ctx)
{
    struct cp_src *c = ctx;
    const struct smem_ptx_operand *o = &c->in->ops[1];
    uint64_t ga = 0;
    if (o->reg[0] >= 0)
        ga = c->b->R[((size_t)c->w * c->b->nregs + (uint32_t)o->reg[0]) * 32 + l];
    else if (o->sym >= 0)
        ga = emu_sym_addr(c->b, o->sym);
    a->src[l] = (uint32_t)(ga + (uint64_t)o->imm);
    a->count = c->in->mode == MODE_CPA_CG;
    if (c->in->nops >= 4) { /* src-size: a register or an immediate; unknown: the whole copy */
        const struct smem_ptx_operand *z = &c->in->ops[3];
        uint64_t n = a->width;
        if (z->kind == OPK_IMM)
            n = (uint64_t)z->imm;
        else if (z->kind == OPK_REG && z->reg[0] >= 0 &&
                 (c->b->K[(size_t)c->w * c->b->nregs + (uint32_t)z->reg[0]] >> l & 1u))
            n = c->b->R[((size_t)c->w * c->b->nregs + (uint32_t)z->reg[0]) * 32 + l];
        if (n < a->width) {
            a->partial |= 1u << l;
            a->src_size[l] = (uint8_t)n;
        }
    }
    if (!((a->unknown | a->oob) >> l & 1u))
        copy_issued(c->b, c->w * 32 + l, a->site, a->addr[l], a->width);
}

int emu_exec_cp_async(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                         uint32_t ex)
{
    if (async_state(b))
        return emu_fail(b, pc, "out of memory");
    /* the copy and its request: the lane path (exec_mem), as before */
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        if (emu_lane_exec(b, w, l, pc, in))
            return -1;
        if (b->stopped)
            return 1;
    }
    uint32_t s = b->p->site_of_insn[pc];
    if (s != UINT32_MAX && in->nops >= 2 && in->ops[1].kind == OPK_ADDR) {
        struct cp_src c = {b, w, in};
        emu_each_request(b, w, s, ex, set_src, &c);
    }
    return 1;
}

/* ---- mbarrier ----------------------------------------------------------------------------- */

/* The state of the mbarrier at shared offset off of CTA t (b's own or another of its cluster):
 * 1, 0 unknown (a stop), -1 failed (located at b's pc). */
static int mbar_read(struct block *b, struct block *t, uint32_t pc, uint32_t off, uint64_t *s,
                     const char *name)
{
    for (unsigned i = 0; i < 8; i++)
        if (!t->smem_known[off + i]) {
            emu_stop_unknown(b, pc, "mbarrier state");
            return 0;
        }
    memcpy(s, t->smem + off, 8);
    if (!(*s & MB_INIT)) {
        char msg[200];
        if (t != b)
            snprintf(msg, sizeof msg, "%s on an mbarrier that is not initialised (shared offset "
                     "0x%x of block (%u,%u,%u), rank %u of the cluster: mbarrier.init, "
                     "fence.mbarrier_init and barrier.cluster first)", name, off, t->ctaid[0],
                     t->ctaid[1], t->ctaid[2], t->rank);
        else
            snprintf(msg, sizeof msg, "%s on an mbarrier that is not initialised (shared offset "
                     "0x%x: mbarrier.init first)", name, off);
        return emu_fail(b, pc, msg);
    }
    return 1;
}

static void mbar_raw(struct block *b, uint32_t off, uint64_t s)
{
    memcpy(b->smem + off, &s, 8);
    memset(b->smem_known + off, 1, 8);
}

static void mbar_write(struct block *b, uint32_t off, uint64_t s)
{
    uint64_t old;
    memcpy(&old, b->smem + off, 8);
    memcpy(b->smem + off, &s, 8);
    memset(b->smem_known + off, 1, 8);
    if ((old & MB_INIT) && (s & MB_INIT) && ((old ^ s) & MB_PHASE)) {
        b->interval++; /* a phase completed: for the hazards, as a barrier (docs/analyzer.md) */
        b->cl->sync++; /* ... and between the CTAs of the cluster */
        b->mb_done++;   /* (a remote access before it is ordered before the CTA's exit) */
    }
}

int emu_mbarrier_complete_tx(struct block *b, struct block *t, uint32_t pc, uint32_t off,
                             uint32_t n, const char *name)
{
    uint64_t s;
    int r = mbar_read(b, t, pc, off, &s, name);
    if (r <= 0)
        return r;
    if (async_state(t))
        return emu_fail(b, pc, "out of memory");
    struct emu_async *a = t->async;
    if (a->ntx == a->cap_tx) {
        uint32_t nc = a->cap_tx ? 2 * a->cap_tx : 16;
        struct pending_tx *nt = realloc(a->tx, nc * sizeof *nt);
        if (!nt)
            return emu_fail(b, pc, "out of memory");
        a->tx = nt;
        a->cap_tx = nc;
    }
    a->tx[a->ntx++] = (struct pending_tx){off, n, pc};
    return 1;
}

/* The bulk copies' transaction bytes complete on their barriers (all of them). */
static int complete_pending_tx(struct block *b)
{
    struct emu_async *t = b->async;
    for (uint32_t i = 0; t && i < t->ntx; i++) {
        uint64_t s;
        int r = mbar_read(b, b, t->tx[i].pc, t->tx[i].off, &s, "cp.async.bulk");
        if (r <= 0) {
            t->ntx = 0;
            return r < 0 ? -1 : 0;
        }
        mbar_write(b, t->tx[i].off, mb_settle(mb_make(mb_pend(s), mb_exp(s),
                                                      mb_tx(s) - (int32_t)t->tx[i].n,
                                                      s & (MB_INIT | MB_PHASE))));
    }
    if (t)
        t->ntx = 0;
    return 0;
}

static int exec_mbarrier(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                         uint32_t ex, int cp_arrive)
{
    const char *name = cp_arrive ? "cp.async.mbarrier.arrive" : smem_ptx_tensor_name(in);
    char msg[200];
    int remote = !cp_arrive && (in->tflags & SMEM_TF_CLUSTER);
    if (remote && in->mode != MODE_MBAR_ARRIVE && in->mode != MODE_MBAR_EXPECT_TX &&
        in->mode != MODE_MBAR_COMPLETE_TX) {
        snprintf(msg, sizeof msg, "%s on a .shared::cluster address: the PTX ISA has arrive, "
                 "expect_tx and complete_tx on another CTA's mbarrier, not this", name);
        return emu_fail(b, pc, msg);
    }
    if (!cp_arrive && in->mode == MODE_MBAR_PENDING_COUNT) {
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u) {
                int k = 1;
                uint64_t st = emu_lane_val(b, w, l, &in->ops[1], &k);
                emu_lane_set(b, w, l, in->ops[0].reg[0], mb_pend(st), k);
            }
        return 1;
    }
    if (async_state(b))
        return emu_fail(b, pc, "out of memory");
    if (!cp_arrive && (in->mode == MODE_MBAR_TEST_WAIT || in->mode == MODE_MBAR_TRY_WAIT) &&
        complete_pending_tx(b) < 0)
        return -1;
    const struct smem_ptx_operand *mo = cp_arrive ? &in->ops[0]
        : (in->mode == MODE_MBAR_ARRIVE || in->mode == MODE_MBAR_ARRIVE_DROP ||
           in->mode == MODE_MBAR_TEST_WAIT || in->mode == MODE_MBAR_TRY_WAIT) ? &in->ops[1]
                                                                               : &in->ops[0];
    struct smem_ptx_insn sh = *in;
    if (cp_arrive) {
        sh.space = in->space == SP_GENERIC ? SP_GENERIC : SP_SHARED;
        uint32_t all[32];
        for (unsigned i = 0; i < 32; i++)
            all[i] = UINT32_MAX;
        copies_land(b, w, ex, all); /* every earlier copy of the threads lands first */
    }
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        uint32_t off;
        struct block *t = b; /* the CTA whose barrier it is */
        int r = remote ? emu_lane_cluster(b, w, l, pc, mo, 8, &t, &off, name)
                       : emu_lane_shared(b, w, l, pc, &sh, mo, 8, 8, &off, name);
        if (r < 0)
            return -1;
        if (r == 0) {
            emu_stop_unknown(b, pc, "mbarrier address");
            return 1;
        }
        uint64_t s = 0;
        int k = 1;
        if (!cp_arrive && in->mode == MODE_MBAR_INIT) {
            uint64_t cnt = emu_lane_val(b, w, l, &in->ops[1], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "mbarrier count");
                return 1;
            }
            if (cnt < 1 || cnt > 0xfffff) {
                snprintf(msg, sizeof msg, "mbarrier.init: count %llu out of range (1 .. 2^20-1)",
                         (unsigned long long)cnt);
                return emu_fail(b, pc, msg);
            }
            mbar_raw(b, off, mb_make((uint32_t)cnt, (uint32_t)cnt, 0, MB_INIT));
            continue;
        }
        if (!cp_arrive && in->mode == MODE_MBAR_INVAL) {
            mbar_raw(b, off, 0);
            continue;
        }
        if ((r = mbar_read(b, t, pc, off, &s, name)) <= 0) {
            if (r < 0)
                return -1;
            return 1;
        }
        if (cp_arrive) {
            /* the copies before it are done (at once): without .noinc the pending count went up
               by one and the arrive brings it down again; with .noinc it is one of the arrivals */
            if (!(in->tflags & SMEM_TF_NOINC))
                continue;
            if (mb_pend(s) == 0)
                return emu_fail(b, pc, "cp.async.mbarrier.arrive.noinc: more arrivals than the "
                                       "phase expects");
            mbar_write(t, off, mb_settle(mb_make(mb_pend(s) - 1, mb_exp(s), mb_tx(s),
                                                 s & (MB_INIT | MB_PHASE))));
            continue;
        }
        switch (in->mode) {
        case MODE_MBAR_EXPECT_TX: case MODE_MBAR_COMPLETE_TX: {
            uint64_t n = emu_lane_val(b, w, l, &in->ops[1], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "mbarrier transaction count");
                return 1;
            }
            int32_t tx = mb_tx(s) + (in->mode == MODE_MBAR_EXPECT_TX ? (int32_t)n : -(int32_t)n);
            uint64_t ns = mb_make(mb_pend(s), mb_exp(s), tx, s & (MB_INIT | MB_PHASE));
            mbar_write(t, off, in->mode == MODE_MBAR_COMPLETE_TX ? mb_settle(ns) : ns);
            break;
        }
        case MODE_MBAR_ARRIVE: case MODE_MBAR_ARRIVE_DROP: {
            uint32_t cnt = 1;
            int32_t tx = mb_tx(s);
            if (in->nops >= 3) {
                uint64_t v = emu_lane_val(b, w, l, &in->ops[2], &k);
                if (!k) {
                    emu_stop_unknown(b, pc, "mbarrier arrival count");
                    return 1;
                }
                if (in->tflags & SMEM_TF_EXPECT_TX)
                    tx += (int32_t)v;
                else
                    cnt = (uint32_t)v;
            }
            if (cnt > mb_pend(s)) {
                snprintf(msg, sizeof msg, "%s: %u arrivals where the phase expects %u more", name,
                         cnt, mb_pend(s));
                return emu_fail(b, pc, msg);
            }
            uint32_t exp = mb_exp(s);
            if (in->mode == MODE_MBAR_ARRIVE_DROP)
                exp = exp >= cnt ? exp - cnt : 0;
            uint64_t ns = mb_make(mb_pend(s) - cnt, exp, tx, s & (MB_INIT | MB_PHASE));
            if (!(in->tflags & SMEM_TF_NOCOMPLETE))
                ns = mb_settle(ns);
            mbar_write(t, off, ns);
            /* the state: the phase arrived on (and the pending count after the arrival) */
            if (in->ops[0].kind == OPK_REG)
                emu_lane_set(b, w, l, in->ops[0].reg[0], (s & MB_PHASE) | mb_pend(ns), 1);
            break;
        }
        case MODE_MBAR_TEST_WAIT: case MODE_MBAR_TRY_WAIT: {
            uint64_t v = emu_lane_val(b, w, l, &in->ops[2], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "mbarrier phase");
                return 1;
            }
            unsigned par = in->tflags & SMEM_TF_PARITY ? (unsigned)(v & 1u) : (unsigned)(v >> 63);
            unsigned cur = (unsigned)(s >> 63);
            if (cur != par) { /* the phase waited for has completed */
                emu_lane_set(b, w, l, in->ops[0].reg[0], 1, 1);
            } else if (in->mode == MODE_MBAR_TRY_WAIT) {
                /* not yet: the thread is suspended here until it completes (emu_async_wake);
                   try_wait may suspend it so, the time limit never running out first */
                b->T[w * 32 + l].state = L_MBAR;
                b->T[w * 32 + l].pc = pc;
                b->async->wait_off[w * 32 + l] = off;
                b->async->wait_par[w * 32 + l] = (uint8_t)par;
                b->async->wait_pred[w * 32 + l] = in->ops[0].reg[0];
            } else {
                /* test_wait never blocks: false, and the thread lets the others run first (a
                   loop polling it then costs a round, not the whole step budget) */
                emu_lane_set(b, w, l, in->ops[0].reg[0], 0, 1);
                b->T[w * 32 + l].state = L_MBAR;
                b->T[w * 32 + l].pc = pc + 1;
                b->async->wait_off[w * 32 + l] = off;
                b->async->wait_par[w * 32 + l] = WAIT_YIELD;
            }
            break;
        }
        default:
            return emu_fail(b, pc, "unsupported mbarrier operation");
        }
    }
    return 1;
}

/* the handlers of the warp loop (opcodes.def): mbarrier; cp.async's group operations and
 * cp.async.mbarrier.arrive (the copies are done already: they land) */
int emu_exec_mbarrier_op(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                         uint32_t ex)
{
    return exec_mbarrier(b, w, pc, in, ex, 0);
}

int emu_exec_cp_async_wait(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                           uint32_t ex)
{
    if (in->mode == MODE_CPA_MBAR_ARRIVE)
        return exec_mbarrier(b, w, pc, in, ex, 1);
    return exec_groups(b, w, pc, in, ex);
}

int emu_async_wake(struct block *b)
{
    uint32_t woke = 0, waiting = 0, atbar = 0, first = UINT32_MAX;
    if (b->async && b->async->ntx && complete_pending_tx(b) < 0)
        return -1;
    for (uint32_t t = 0; t < b->nthreads; t++) {
        struct lane *T = &b->T[t];
        if (T->state == L_BAR || T->state == L_CLUSTER)
            atbar++;
        if (T->state != L_MBAR)
            continue;
        uint32_t off = b->async->wait_off[t];
        uint64_t s;
        memcpy(&s, b->smem + off, 8);
        if (b->async->wait_par[t] == WAIT_YIELD) {
            T->state = L_RUN; /* polled test_wait: it goes on */
            woke++;
        } else if ((s & MB_INIT) && (unsigned)(s >> 63) != b->async->wait_par[t]) {
            /* its phase completed: the wait returns true now (run again later, it could find
               the barrier a phase further, of the same parity) */
            T->state = L_RUN;
            emu_lane_set(b, t / 32, t % 32, b->async->wait_pred[t], 1, 1);
            T->pc++;
            woke++;
        } else {
            waiting++;
            if (first == UINT32_MAX)
                first = t;
        }
    }
    if (woke)
        return 1;
    if (!waiting || atbar || !b->cl->final)
        return 0; /* a barrier may release (else release_barrier names the deadlock), another
                     CTA of the cluster may arrive (else the cluster's last round names it) */
    uint32_t off = b->async->wait_off[first];
    uint64_t s;
    memcpy(&s, b->smem + off, 8);
    char msg[400]; /* the sentence below with where (80) and six numbers: under 400 */
    char where[80] = "";
    if (b->cl->n > 1)
        snprintf(where, sizeof where, " of block (%u,%u,%u), rank %u of its cluster,", b->ctaid[0],
                 b->ctaid[1], b->ctaid[2], b->rank);
    snprintf(msg, sizeof msg, "deadlock: every live thread%s waits on an mbarrier phase that cannot "
             "complete (%u threads; thread %u waits on the barrier at shared offset 0x%x for the "
             "phase of parity %u, which still expects %u arrivals and %d transaction bytes)",
             where, waiting, first, off, b->async->wait_par[first], mb_pend(s), mb_tx(s));
    return emu_fail(b, b->T[first].pc, msg);
}


/* ---- fence.proxy.async: the proxy-fence record (request.c) ---- */

int emu_exec_fence(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    (void)pc;
    if (b->gr && !(in->tflags & (SMEM_TF_PROXY_ASYNC | SMEM_TF_SCOPE_CTA))) /* a GPU-wide fence */
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u)
                emu_grace_fence(b, w * 32 + l);
    if (!(in->tflags & SMEM_TF_PROXY_ASYNC) || in->space == SP_GLOBAL)
        return 0;
    for (uint32_t l = 0; l < 32; l++)
        if (ex >> l & 1u)
            emu_pf_fence(b, w * 32 + l);
    return 0;
}
