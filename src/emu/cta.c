/* cta.c: the CTA emulator's top (the module of smemlab/emu/cta.h): the warp loop and the dispatch.
 * Warps run in lockstep up to the next barrier, one warp after the other (values flow through
 * shared memory as in a race-free program): the lanes at the lowest pc execute each instruction
 * together, the common ones in their warp-level forms (cta_warp.c, by the fast kind cta_prepare.c
 * gave them), the tensor-era families through the handler the opcode table names (opcodes.def,
 * warp), the rest lane by lane through the per-thread semantics (cta_lane.c). A lane's k-th
 * execution of a shared instruction joins the warp's k-th request of it (request.c). Then barriers
 * are released and mbarrier waits woken (cta_async.c). The CTAs of a thread-block cluster run
 * together, a round each in rank order, the cluster barrier released between them
 * (cta_cluster.c), until every one has exited; then the next cluster runs (a launch without
 * clusters: clusters of one). */
#include "smemlab/emu/cta.h"

#include "families.h"
#include "global_race.h"
#include "memory.h"
#include "request.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- the warp loop ------------------------------------------------------------------------ */

/* Registers live per warp with the lanes side by side: register r of lane l of warp w is
 * R[((size_t)w * nregs + r) * 32 + l], and bit l of K[w * nregs + r] says whether it is known.
 * A warp runs in lockstep: the lanes at the lowest pc execute each instruction together (the
 * fast kinds of cta_prepare.c as loops over the lanes, everything else lane by lane through the
 * per-thread semantics of cta_lane.c). A request is still a lane's k-th execution of a site
 * (emu_record, request.c), so what the warp's lanes form does not depend on the order they run
 * in. */

/* Writes back where lanes `act` of warp w stand: at pc, those still running. */
static void park(struct block *b, uint32_t w, uint32_t act, uint32_t pc)
{
    for (uint32_t l = 0; l < 32; l++)
        if ((act >> l & 1u) && b->T[w * 32 + l].state == L_RUN)
            b->T[w * 32 + l].pc = pc;
}

/* The fixed-place loads ptxas runs before the branch at pc (src/sass/sass_fixed.c): every lane
 * reaching the branch, guarded or not, reads there. */
static int record_hoisted(struct block *b, uint32_t w, uint32_t pc, uint32_t act)
{
    const struct smem_cta_program *p = b->p;
    for (uint32_t s = p->site_of_insn[pc]; s < p->nsites && p->sites[s].insn == pc; s++) {
        uint32_t at = p->sites[s].at;
        int oob = (uint64_t)at + p->sites[s].width > b->smem_size;
        for (uint32_t l = 0; l < 32; l++)
            if ((act >> l & 1u) && emu_record(b, w * 32 + l, s, at, 1, oob))
                return emu_failf(b, pc, "out of memory");
    }
    return 0;
}

/* the warp-level handler of each opcode's family (opcodes.def, warp) */
static emu_warp_fn *const warp_exec[256] = {
#define emu_exec_none NULL /* the rows with no warp-level handler */
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) [PO_##id] = emu_exec_##warp,
#include "smemlab/ptx/opcodes.def"
#undef OP
#undef emu_exec_none
};

/* Runs lanes `act` of warp w, all at pc, in lockstep: until they part, wait or exit when `act`
 * is every running lane of the warp (`alone`); else while their pc stays below `until`, the
 * lowest pc of the warp's other running lanes (the scheduler would pick them again, one
 * instruction at a time: it then merges the groups or picks the lanes to run next), and no
 * more than `cap` requests are pending. Leaves each lane's pc and state as they are then. */
static int run_group(struct block *b, uint32_t w, uint32_t pc, uint32_t act, int alone,
                     uint32_t until, uint32_t cap)
{
    assert(act != 0 && pc == b->T[w * 32 + (uint32_t)__builtin_ctz(act)].pc);
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_insn *insns = f->insns;
    const uint8_t *fast = b->p->fast;
    const uint32_t ninsns = f->ninsns;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    for (;;) {
        if (pc >= ninsns) { /* fell off the end */
            for (uint32_t l = 0; l < 32; l++)
                if (act >> l & 1u)
                    b->T[w * 32 + l].state = L_EXIT;
            return 0;
        }
        uint32_t n = (uint32_t)__builtin_popcount(act);
        if (__builtin_expect(b->steps + n > b->max_steps, 0)) {
            park(b, w, act, pc);
            return emu_failf(b, pc,
                              "step budget of %llu thread-instructions exhausted in block %u (a "
                              "runaway loop? raise it with --max-steps)",
                              (unsigned long long)b->max_steps, b->bid);
        }
        b->steps += n;
        const struct smem_ptx_insn *in = &insns[pc];
        if (__builtin_expect(fast[pc] == F_BRA && b->p->site_of_insn[pc] != UINT32_MAX, 0) &&
            record_hoisted(b, w, pc, act))
            return -1;
        uint32_t ex = act;
        if (in->guard >= 0) {
            uint32_t unk = act & ~K[in->guard];
            if (unk) {
                if (in->op == PO_BRA)
                    emu_stop_unknown(b, pc, "branch");
                else if (b->p->site_of_insn[pc] != UINT32_MAX)
                    emu_stop_unknown(b, pc, "predicate of a shared access");
                else if (smem_op_flags(in->op) & (OPF_SYNC | OPF_COLL))
                    emu_stop_unknown(b, pc, "predicate of a barrier or exit");
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
                /* an ordinary instruction under an unknown predicate: its result is unknown */
                if (!smem_op_is_store(in->op) && in->nops > 0)
                    for (int r = 0; r < 4; r++)
                        if (in->ops[0].reg[r] >= 0)
                            K[in->ops[0].reg[r]] &= ~unk;
                ex &= ~unk;
            }
            const uint64_t *g = R + (size_t)in->guard * 32;
            uint32_t t = 0;
            for (uint32_t l = 0; l < 32; l++)
                t |= (uint32_t)(g[l] != 0) << l;
            ex &= in->guard_neg ? ~t : t;
        }
        uint32_t next = pc + 1;
        uint8_t fk = fast[pc];
        if (!ex) {
            /* every lane predicated off */
        } else if (fk == F_BRA) {
            uint32_t tgt = (uint32_t)in->ops[0].imm;
            if (ex == act) {
                next = tgt;
            } else { /* the lanes part */
                for (uint32_t l = 0; l < 32; l++)
                    if (act >> l & 1u)
                        b->T[w * 32 + l].pc = (ex >> l & 1u) ? tgt : pc + 1;
                return 0;
            }
        } else if (F_IS_ALU(fk)) {
            emu_warp_alu(b, w, fk == F_FUSED ? b->p->fused_at[pc] : in, fk, ex);
        } else if (fk == F_MOVX) { /* a special register or a symbol's address, lane by lane */
            int32_t d = in->ops[0].reg[0];
            uint64_t m = mask_bytes(TBYTES(f->reg_type[d]));
            uint32_t kk = 0;
            for (uint32_t l = 0; l < 32; l++)
                if (ex >> l & 1u) {
                    int k = 1;
                    R[(size_t)d * 32 + l] = op_src(b, w * 32 + l, NULL, NULL, &in->ops[1], &k) & m;
                    kk |= (uint32_t)k << l;
                }
            K[d] = (K[d] & ~ex) | kk;
        } else if (smem_op_is_collective(in->op)) {
            if (emu_exec_collective(b, w, pc, ex))
                return -1;
            if (b->stopped) {
                park(b, w, act, pc);
                return 0;
            }
        } else {
            int done = 0;
            if (fk >= F_LDS && (done = emu_warp_mem(b, w, pc, in, ex, fk)) < 0)
                return -1;
            if (fk == F_WARP && (done = emu_warp_exec(b, w, pc, in, ex)) < 0)
                return -1;
            if (!done && warp_exec[in->op]) { /* the instruction's family, at the warp level */
                if ((done = warp_exec[in->op](b, w, pc, in, ex)) < 0)
                    return -1;
                assert(done <= 1);
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
            }
            for (uint32_t l = 0; l < 32 && !done; l++) {
                if (!(ex >> l & 1u))
                    continue;
                if (emu_lane_exec(b, w, l, pc, in))
                    return -1;
                if (b->stopped) {
                    park(b, w, act, pc);
                    return 0;
                }
            }
            emu_dshared_flush(b, w, pc); /* the lanes' accesses to other CTAs: one request */
            if (smem_op_flags(in->op) & (OPF_SYNC | OPF_SUSPEND)) { /* lanes may wait or exit */
                uint32_t still = 0;
                for (uint32_t l = 0; l < 32; l++)
                    if ((act >> l & 1u) && b->T[w * 32 + l].state == L_RUN)
                        still |= 1u << l;
                act = still;
                if (!act)
                    return 0;
            }
            if (b->yield) { /* many requests pending: the scheduler reports those complete */
                park(b, w, act, next);
                return 0;
            }
        }
        pc = next;
        if (!alone && (pc >= until || b->nreqs >= cap || smem_op_is_collective(in->op) ||
                       warp_exec[in->op])) {
            park(b, w, act, pc);
            return 0;
        }
    }
}

/* Runs every lane of a warp until all wait at a block barrier or have exited: the lanes at the
 * lowest pc first, together (reconverging where the others wait). When many requests stay
 * pending because lanes parked elsewhere could still join them, those lanes run ahead first
 * (the highest pc), so the memory of a run does not grow with a loop's trip count. */
static int run_warp(struct block *b, uint32_t w)
{
    uint32_t first = w * 32, last = first + 32 < b->nthreads ? first + 32 : b->nthreads;
    uint32_t cap = PENDING_SOFT_CAP;
    int ahead = 0;
    while (!b->stopped) {
        uint32_t run = 0, lo = UINT32_MAX, hi = 0;
        for (uint32_t t = first; t < last; t++)
            if (b->T[t].state == L_RUN) {
                run |= 1u << (t - first);
                lo = b->T[t].pc < lo ? b->T[t].pc : lo;
                hi = b->T[t].pc > hi ? b->T[t].pc : hi;
            }
        if (!run)
            break;
        uint32_t pick = ahead ? hi : lo, act = 0, until = UINT32_MAX;
        for (uint32_t t = first; t < last; t++)
            if ((run >> (t - first) & 1u) && b->T[t].pc == pick)
                act |= 1u << (t - first);
            else if ((run >> (t - first) & 1u) && b->T[t].pc < until)
                until = b->T[t].pc;
        if (ahead)
            until = 0; /* one instruction, then the highest pc again */
        if (run_group(b, w, pick, act, act == run, until, cap))
            return -1;
        if (b->yield || b->nreqs >= cap) {
            b->yield = 0;
            emu_flush_complete(b, w);
            ahead = b->nreqs >= PENDING_SOFT_CAP / 2;
            cap = b->nreqs + PENDING_SOFT_CAP;
        }
    }
    emu_flush_requests(b);
    /* every lane waits at the barrier (or has exited) and every request is reported: the warp
       leaves the barrier converged, so its lanes' next executions of a site are one request
       again, whichever lanes executed it how often before (a branch inside a loop) */
    uint32_t ns = b->p->nsites;
    if (b->ntouched * 4 < ns) { /* a few sites: only their counts */
        for (uint32_t i = 0; i < b->ntouched; i++)
            memset(emu_kcount(b, first, b->touched[i]), 0, (last - first) * sizeof *b->kcount);
    } else {
        for (uint32_t s = 0; s < ns; s++)
            memset(emu_kcount(b, first, s), 0, (last - first) * sizeof *b->kcount);
    }
    for (uint32_t i = 0; i < b->ntouched; i++)
        b->tmark[b->touched[i]] = 0;
    b->ntouched = 0;
    return 0;
}

/* All threads wait or have exited: release a barrier (1), or find none can be (0; in the
 * cluster's last round, b->cl->final, say why: -1). *done: every thread has exited. */
static int release_barrier(struct block *b, int *done)
{
    uint32_t waiting[16] = {0}, exited = 0, insn_a[16], insn_b[16], cnt[16] = {0};
    int div[16] = {0};
    *done = 0;
    for (uint32_t t = 0; t < b->nthreads; t++) {
        struct lane *T = &b->T[t];
        if (T->state == L_EXIT) {
            exited++;
        } else if (T->state == L_BAR) {
            uint32_t id = T->bar_id;
            assert(id < 16); /* the lane path refuses another id */
            if (!waiting[id]) {
                insn_a[id] = insn_b[id] = T->pc;
                cnt[id] = T->bar_count;
            } else if (T->pc != insn_a[id]) {
                insn_b[id] = T->pc;
                div[id] = 1;
            }
            waiting[id]++;
        }
    }
    if (exited == b->nthreads) {
        *done = 1;
        return 0;
    }
    for (uint32_t id = 0; id < 16; id++) {
        if (!waiting[id])
            continue;
        uint32_t expected = cnt[id] ? cnt[id] : b->nthreads;
        uint32_t live = b->nthreads - exited;
        /* others may still come (another barrier id first). Threads that have exited count as
           arrived at a barrier of the whole block, not at one of an explicit count: a
           `bar.sync 1, 64` that a third warp reaches after the first two went through waits
           for 64 more (it hangs the H200: tests/run/warpsync.cu mode 6) */
        if (waiting[id] < expected && (cnt[id] || waiting[id] < live))
            continue;
        /* an explicit count releases that many, in thread order; the others wait on */
        uint32_t release = cnt[id] && waiting[id] > expected ? expected : waiting[id];
        struct smem_cta_barrier ev;
        memset(&ev, 0, sizeof ev);
        ev.block = b->bid;
        ev.interval = b->interval;
        ev.id = id;
        ev.insn_a = insn_a[id];
        ev.insn_b = insn_b[id];
        ev.arrived = release;
        ev.expected = expected;
        ev.exited = exited;
        ev.divergent = div[id];
        if (b->h && b->h->barrier)
            b->h->barrier(b->h->ctx, &ev);
        b->interval++;
        /* bar.red: the reduction over the threads this barrier releases */
        uint32_t popc = 0, all = 1, any = 0, seen = 0;
        for (uint32_t u = 0; u < b->nthreads && seen < release; u++)
            if (b->T[u].state == L_BAR && b->T[u].bar_id == id) {
                seen++;
                popc += (uint32_t)b->T[u].bar_pred;
                all &= (uint32_t)b->T[u].bar_pred;
                any |= (uint32_t)b->T[u].bar_pred;
            }
        seen = 0;
        for (uint32_t t = 0; t < b->nthreads && seen < release; t++) {
            struct lane *T = &b->T[t];
            if (T->state == L_BAR && T->bar_id == id) {
                seen++;
                T->state = L_RUN;
                const struct smem_ptx_insn *in = &b->p->func->insns[T->pc];
                if (in->op == PO_BAR_RED) {
                    uint64_t r = in->mode == MODE_ATOM_ADD ? popc : in->mode == MODE_ATOM_AND ? all : any;
                    int32_t d = in->ops[0].reg[0];
                    if (d >= 0) {
                        size_t row = (size_t)(t / 32) * b->nregs + (uint32_t)d;
                        b->R[row * 32 + t % 32] = r & mask_bytes(TBYTES(b->p->func->reg_type[d]));
                        b->K[row] |= 1u << (t % 32);
                    }
                }
                T->pc++;
            }
        }
        return 1;
    }
    /* nobody can move: the barrier waits for threads that never come (unless another CTA of
       the cluster can still move: its arrivals, its barrier.cluster) */
    if (!b->cl->final)
        return 0;
    if (emu_wgmma_stuck(b))
        return -1;
    for (uint32_t id = 0; id < 16; id++) {
        if (waiting[id] && cnt[id])
            return emu_failf(b, insn_a[id],
                              "deadlock: %u threads wait at barrier %u for %u (its count); no "
                              "other thread can come (threads that exited do not count toward "
                              "an explicit count): a GPU hangs here",
                              waiting[id], id, cnt[id]);
        if (waiting[id])
            return emu_failf(b, insn_a[id],
                              "deadlock: threads wait at a barrier that %s never reach",
                              "the other threads");
    }
    return 0; /* only barrier.cluster waits: the cluster says why (emu_cluster_stuck) */
}

/* A block before its first round: every thread at the start, nothing known in its memories. */
static void block_reset(struct block *b)
{
    memset(b->T, 0, b->nthreads * sizeof *b->T);
    memset(b->K, 0, (size_t)b->nwarps * b->nregs * sizeof *b->K);
    memset(b->kcount, 0, (size_t)b->nthreads * b->p->nsites * sizeof *b->kcount);
    memset(b->tmark, 0, b->p->nsites ? b->p->nsites : 1);
    b->ntouched = 0;
    memset(b->smem_known, 0, b->smem_size);
    if (b->tma_sw)
        memset(b->tma_sw, 0, b->smem_size / 16 + 1);
    emu_pf_reset(b);
    emu_grace_block_reset(b);
    if (b->local_size)
        memset(b->local_known, 0, (size_t)b->nthreads * b->local_size);
    b->interval = 0;
    b->steps = 0;
    b->gone = 0;
    b->gone_pc = 0;
    b->rem_pc = UINT32_MAX;
    b->waited_upto = 0;
    b->mb_done = 0;
    memset(&b->dsh, 0, sizeof b->dsh);
    emu_async_reset(b);
}

/* One round of block b: every warp runs until its threads wait or exit; then mbarrier waits
 * whose phase completed are woken, else a barrier is released. 1 something moved, 0 nothing can
 * move now (its threads wait for another CTA of the cluster, or for nothing: the cluster's last
 * round says which), 2 every thread has exited (or a stop on unknown data), -1 failed. */
static int block_round(struct block *b)
{
    uint64_t steps = b->steps;
    for (uint32_t w = 0; w < b->nwarps; w++)
        if (run_warp(b, w))
            return -1;
    if (b->stopped)
        return 2;
    int done, woke = emu_async_wake(b); /* mbarrier waits whose phase completed */
    for (uint32_t t = 0; t < b->nthreads && !woke; t++)
        woke = b->T[t].state == L_RUN; /* warps a wgmma let go after their round */
    if (woke < 0)
        return -1;
    if (woke)
        return 1;
    int r = release_barrier(b, &done);
    if (r < 0)
        return -1;
    if (done)
        return 2;
    return r > 0 || b->steps != steps;
}

/* Runs the CTAs of cluster cl together: a round of each in rank order, then the cluster barrier,
 * until every one has exited; a round in which nothing moves anywhere is a deadlock, named by
 * its last round (cl->final). 0, or -1 failed. */
static int run_cluster(struct emu_cluster *cl)
{
    uint8_t done[CLUSTER_MAX] = {0};
    uint32_t left = cl->n;
    cl->phase = 0;
    cl->final = 0;
    cl->sync = 0;
    for (uint32_t c = 0; c < cl->n; c++) {
        block_reset(&cl->cta[c]);
        if (cl->cta[c].csh)
            memset(cl->cta[c].csh, 0, cl->cta[c].smem_size * sizeof *cl->cta[c].csh);
    }
    while (left) {
        int moved = 0;
        for (uint32_t c = 0; c < cl->n; c++) {
            if (done[c])
                continue;
            struct block *b = &cl->cta[c];
            int r = block_round(b);
            if (r < 0)
                return -1;
            if (b->stopped)
                return 0;
            if (r == 2) {
                done[c] = 1;
                left--;
                b->gone = 1; /* its shared memory is gone for the others */
                for (uint32_t t = 0; t < b->nthreads; t++)
                    b->gone_pc = b->T[t].pc > b->gone_pc ? b->T[t].pc : b->gone_pc;
                if (b->rem_pc != UINT32_MAX && b->rem_phase + 1 > b->waited_upto &&
                    b->mb_done == b->rem_mb) {
                    /* another CTA accessed its memory and no barrier.cluster it waited at, no
                       phase of its own mbarriers since, orders that before it exits */
                    const struct smem_ptx_insn *e = &b->p->func->insns[b->gone_pc];
                    return emu_failf(b, b->rem_pc, "block (%u,%u,%u), rank %u of its cluster, "
                                     "exits (line %u) while block (%u,%u,%u) may still access its "
                                     "shared memory here: no barrier.cluster or mbarrier phase "
                                     "orders the access before the exit (the PTX ISA leaves this "
                                     "undefined)",
                                     b->ctaid[0], b->ctaid[1], b->ctaid[2], b->rank,
                                     e->loc_line ? e->loc_line : e->src_line, b->rem_ctaid[0],
                                     b->rem_ctaid[1], b->rem_ctaid[2]);
                }
            }
            moved |= r != 0;
            if (emu_cluster_release(cl))
                moved = 1;
        }
        if (moved || !left)
            continue;
        cl->final = 1; /* nothing moved: each CTA says why it cannot, then the cluster */
        for (uint32_t c = 0; c < cl->n; c++)
            if (!done[c] && block_round(&cl->cta[c]) < 0)
                return -1;
        if (emu_cluster_stuck(cl))
            return -1;
        for (uint32_t c = 0; c < cl->n; c++)
            if (!done[c])
                return emu_failf(&cl->cta[c], 0, "deadlock");
    }
    return 0;
}

/* The state of one block of a launch (its memories, registers, pending requests): 0, or -1 out
 * of memory. */
static int block_open(struct block *b, const struct smem_cta_program *p, const struct smem_launch *l,
                      const struct smem_cta_hooks *hooks, struct smem_error *err)
{
    memset(b, 0, sizeof *b);
    b->p = p;
    b->l = l;
    b->h = hooks;
    b->err = err;
    b->nthreads = l->block[0] * l->block[1] * l->block[2];
    b->nwarps = (b->nthreads + 31) / 32;
    b->nregs = p->func->nregs ? p->func->nregs : 1;
    b->max_steps = l->max_steps ? l->max_steps : DEFAULT_MAX_STEPS;
    b->smem_size = l->dyn_smem ? p->dyn_offset + l->dyn_smem : p->static_smem;
    b->local_size = p->local_size;
    b->R = malloc((size_t)b->nwarps * b->nregs * 32 * sizeof *b->R);
    b->K = malloc((size_t)b->nwarps * b->nregs * sizeof *b->K);
    b->sr = calloc(b->nregs, sizeof *b->sr);
    b->sk = calloc(b->nregs, 1);
    b->T = malloc(b->nthreads * sizeof *b->T);
    b->kcount = malloc((size_t)b->nthreads * (p->nsites ? p->nsites : 1) * sizeof *b->kcount);
    b->touched = malloc((p->nsites ? p->nsites : 1) * sizeof *b->touched);
    b->tmark = calloc(p->nsites ? p->nsites : 1, 1);
    b->smem = calloc(b->smem_size ? b->smem_size : 1, 1);
    b->smem_known = calloc(b->smem_size ? b->smem_size : 1, 1);
    if (b->local_size) {
        b->local = calloc((size_t)b->nthreads * b->local_size, 1);
        b->local_known = calloc((size_t)b->nthreads * b->local_size, 1);
    }
    if (!b->R || !b->K || !b->sr || !b->sk || !b->T || !b->kcount || !b->touched || !b->tmark ||
        !b->smem || !b->smem_known || (b->local_size && (!b->local || !b->local_known)) ||
        emu_params_fill(b) || emu_global_setup(b))
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    return 0;
}

static void block_close(struct block *b)
{
    free(b->R);
    free(b->K);
    free(b->sr);
    free(b->sk);
    free(b->T);
    free(b->kcount);
    free(b->touched);
    free(b->tmark);
    free(b->smem);
    free(b->smem_known);
    free(b->tma_sw);
    free(b->tma_pc);
    free(b->tma_sum);
    free(b->pf_pc);
    free(b->pf_stamp);
    free(b->pf_fences);
    free(b->local);
    free(b->local_known);
    free(b->param);
    free(b->param_known);
    free(b->reqs);
    free(b->rkey);
    free(b->tab);
    free(b->gorder);
    free(b->gsym);
    free(b->csh);
    emu_grace_block_free(b);
    emu_async_free(b);
}

/* whether the kernel forms another CTA's address (mapa): then races between its CTAs are
 * looked for */
static int forms_remote(const struct smem_cta_program *p)
{
    for (uint32_t i = 0; i < p->func->ninsns; i++)
        if (p->func->insns[i].op == PO_MAPA)
            return 1;
    return 0;
}

/* The cluster dimensions of a launch: its own, else the kernel's .reqnctapercluster, else 1 1 1
 * (clusters of one); *explicit_cluster: one was given. */
static void cluster_dims(const struct smem_cta_program *p, const struct smem_launch *l,
                         unsigned dim[3], int *explicit_cluster)
{
    const unsigned *c = l->cluster[0] ? l->cluster : p->func->reqnctapercluster[0]
                                                         ? p->func->reqnctapercluster : NULL;
    for (int d = 0; d < 3; d++)
        dim[d] = c && c[d] ? c[d] : 1;
    *explicit_cluster = c != NULL;
}

int smem_cta_run(const struct smem_cta_program *p, const struct smem_launch *l,
                 const struct smem_cta_hooks *hooks, struct smem_cta_result *res,
                 struct smem_error *err)
{
    memset(res, 0, sizeof *res);
    if (smem_cta_check_launch(p, l, err))
        return -1;
    struct emu_cluster cl;
    memset(&cl, 0, sizeof cl);
    cluster_dims(p, l, cl.dim, &cl.explicit_cluster);
    cl.n = cl.dim[0] * cl.dim[1] * cl.dim[2]; /* checked: <= CLUSTER_MAX, dividing the grid */
    struct block blocks[CLUSTER_MAX];
    cl.cta = blocks;
    int rc = -1;
    uint32_t opened = 0;
    struct emu_grace *gr = NULL;
    if (l->global && l->global->races && !(gr = emu_grace_new()))
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    for (; opened < cl.n; opened++) {
        if (block_open(&blocks[opened], p, l, hooks, err)) {
            opened++;
            goto out;
        }
        blocks[opened].gr = gr;
        blocks[opened].cl = &cl;
        blocks[opened].rank = opened;
        if (cl.n > 1 && forms_remote(p) &&
            !(blocks[opened].csh = calloc(blocks[opened].smem_size ? blocks[opened].smem_size : 1,
                                          sizeof *blocks[opened].csh))) {
            smem_error_set(err, NULL, 0, 0, "out of memory");
            opened++;
            goto out;
        }
    }
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], C = cl.n;
    uint64_t nclusters = total / C;
    /* a sample is of whole clusters; a slice runs the clusters whose first block it holds (the
       blocks counted cluster by cluster: cta.h) */
    uint64_t nsample = l->sample_blocks && l->sample_blocks < total
                           ? ((uint64_t)l->sample_blocks + C - 1) / C : nclusters;
    uint64_t first = 0, end = nsample;
    if (l->block_count) {
        uint64_t bf = l->block_first, bl = l->block_first + l->block_count;
        first = (bf + C - 1) / C;
        end = (bl + C - 1) / C;
        first = first < nsample ? first : nsample;
        end = end < nsample ? end : nsample;
    }
    unsigned ncl[3] = {l->grid[0] / cl.dim[0], l->grid[1] / cl.dim[1], l->grid[2] / cl.dim[2]};
    res->blocks_total = total;
    res->complete = 1;
    for (uint64_t i = first; i < end; i++) {
        /* sampled clusters are spread evenly over the grid, first and last included */
        uint64_t cid = nsample == nclusters ? i
                                            : (nsample > 1 ? i * (nclusters - 1) / (nsample - 1) : 0);
        unsigned cc[3] = {(unsigned)(cid % ncl[0]), (unsigned)(cid / ncl[0] % ncl[1]),
                          (unsigned)(cid / ((uint64_t)ncl[0] * ncl[1]))};
        for (uint32_t r = 0; r < cl.n; r++) {
            struct block *b = &blocks[r];
            unsigned rc3[3] = {r % cl.dim[0], r / cl.dim[0] % cl.dim[1], r / (cl.dim[0] * cl.dim[1])};
            for (int d = 0; d < 3; d++) {
                b->cl_id[d] = cc[d];
                b->cl_ctaid[d] = rc3[d];
                b->ctaid[d] = cc[d] * cl.dim[d] + rc3[d];
            }
            b->bid = b->ctaid[0] + l->grid[0] * (b->ctaid[1] + l->grid[1] * b->ctaid[2]);
        }
        if (run_cluster(&cl))
            goto out;
        for (uint32_t r = 0; r < cl.n; r++) {
            struct block *b = &blocks[r];
            res->steps += b->steps;
            res->blocks_run++;
            if (b->stopped && res->complete) {
                res->complete = 0;
                res->unknown = b->unknown;
                res->unknown_block = b->bid;
            }
            if (b->stopped || !res->complete)
                emu_flush_requests(b);
        }
        if (!res->complete)
            break;
    }
    rc = 0;
out:
    for (uint32_t r = 0; r < opened; r++)
        block_close(&blocks[r]);
    emu_grace_free(gr);
    return rc;
}
