/* cta_cluster.c: thread-block clusters in the CTA emulator, a warp at a time (the CTAs of a cluster
 * run together in rounds: cta.c):
 *  - mapa{.shared::cluster}.u32 / mapa.u64 d, a, rank: the address of a's byte in CTA rank's
 *    shared memory (our numbers: block.h, CLUSTER_STEP; generic ones in the shared window);
 *    getctarank d, a: the rank whose memory a is in (a shared::cta address: the own CTA);
 *  - barrier.cluster.arrive{.release|.relaxed}{.aligned} / .wait{.acquire}{.aligned}: a thread's
 *    arrival in the cluster barrier's current phase, and its wait until every non-exited thread
 *    of every CTA of the cluster has arrived (L_CLUSTER; emu_cluster_release between rounds);
 *  - st.async / red.async [a], b, [mbar] (.shared::cluster, .mbarrier::complete_tx::bytes): the
 *    store or reduction into (usually) another CTA, done at once, its bytes completing on that
 *    CTA's mbarrier as a bulk copy's do; a dshared request of op stas / redas.
 * A located failure: a wait without an arrive, two arrivals without a wait, a rank outside the
 * cluster, an address of a CTA that exited (emu_remote_fault), a misaligned one. */
#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"

#include <string.h>

/* mapa / getctarank for lanes ex */
static int exec_map(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                    uint32_t ex)
{
    int generic = in->space == SP_GENERIC;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        int k = 1;
        uint64_t a = emu_lane_val(b, w, l, &in->ops[1], &k), x = a;
        if (generic) {
            if (k && (a < SHARED_GENERIC_BASE || a - SHARED_GENERIC_BASE >= WINDOW_SIZE))
                return emu_failf(b, pc, "%s: the generic address 0x%llx of lane %u is not in shared "
                                 "memory", in->op == PO_MAPA ? "mapa" : "getctarank",
                                 (unsigned long long)a, l);
            x = a - SHARED_GENERIC_BASE;
        }
        x &= 0xffffffffu;
        if (in->op == PO_GETCTARANK) {
            emu_lane_set(b, w, l, in->ops[0].reg[0], x >= CLUSTER_STEP ? x / CLUSTER_STEP - 1 : b->rank,
                         k);
            continue;
        }
        uint64_t r = emu_lane_val(b, w, l, &in->ops[2], &k);
        if (k && r >= b->cl->n)
            return emu_failf(b, pc, "mapa to rank %llu: the cluster of block (%u,%u,%u) has %u CTAs "
                             "(ranks 0 .. %u)", (unsigned long long)r, b->ctaid[0], b->ctaid[1],
                             b->ctaid[2], b->cl->n, b->cl->n - 1);
        uint64_t d = (r + 1) * CLUSTER_STEP + x % CLUSTER_STEP;
        emu_lane_set(b, w, l, in->ops[0].reg[0], generic ? SHARED_GENERIC_BASE + d : d, k);
    }
    return 1;
}

/* barrier.cluster.arrive / .wait for lanes ex */
static int exec_barrier(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                        uint32_t ex)
{
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        struct lane *T = &b->T[w * 32 + l];
        if (in->mode == MODE_CLUSTER_ARRIVE) {
            if (T->cl_arrived)
                return emu_failf(b, pc, "barrier.cluster.arrive: thread %u of block (%u,%u,%u) "
                                 "arrives again before its barrier.cluster.wait", w * 32 + l,
                                 b->ctaid[0], b->ctaid[1], b->ctaid[2]);
            T->cl_arrived = 1;
            T->cl_phase = b->cl->phase;
            continue;
        }
        if (!T->cl_arrived)
            return emu_failf(b, pc, "barrier.cluster.wait: thread %u of block (%u,%u,%u) waits "
                             "without a barrier.cluster.arrive before it", w * 32 + l, b->ctaid[0],
                             b->ctaid[1], b->ctaid[2]);
        if (b->cl->phase != T->cl_phase) { /* its phase has completed */
            T->cl_arrived = 0;
            if (T->cl_phase + 1 > b->waited_upto)
                b->waited_upto = T->cl_phase + 1;
            continue;
        }
        T->state = L_CLUSTER;
        T->pc = pc;
    }
    return 1;
}

/* st.async / red.async for lanes ex: the value into the (remote) word, its bytes completing on
 * the mbarrier of that CTA */
static int exec_async_store(struct block *b, uint32_t w, uint32_t pc,
                            const struct smem_ptx_insn *in, uint32_t ex)
{
    const char *name = in->op == PO_ST_ASYNC ? "st.async" : "red.async";
    unsigned esz = TBYTES(in->type), n = esz * (in->vec ? in->vec : 1);
    if (!esz || esz > 8 || in->nops < 3)
        return emu_failf(b, pc, "unsupported instruction: %s of this type or form", name);
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        struct block *t, *tb;
        uint32_t off, bar;
        int r = emu_lane_cluster(b, w, l, pc, &in->ops[0], n, &t, &off, name);
        if (r > 0)
            r = emu_lane_cluster(b, w, l, pc, &in->ops[2], 8, &tb, &bar, name);
        if (r <= 0) {
            if (r == 0)
                emu_stop_unknown(b, pc, "shared::cluster address");
            return r < 0 ? -1 : 1;
        }
        if (t != tb)
            return emu_failf(b, pc, "%s: lane %u's word and mbarrier are in two CTAs (ranks %u and "
                             "%u)", name, l, t->rank, tb->rank);
        const struct smem_ptx_operand *v = &in->ops[1];
        unsigned nc = v->kind == OPK_VEC ? v->count : 1;
        for (unsigned c = 0; c < nc; c++) {
            int k = 1;
            uint64_t x = v->kind == OPK_VEC
                             ? emu_lane_val(b, w, l, &(struct smem_ptx_operand){
                                                .kind = OPK_REG, .reg = {v->reg[c], -1, -1, -1},
                                                .sym = -1}, &k)
                             : emu_lane_val(b, w, l, v, &k);
            uint32_t o = off + c * esz;
            if (in->op == PO_RED_ASYNC) {
                uint64_t old = 0;
                int ok = 1;
                mem_read(t->smem, t->smem_known, o, esz, &old, &ok);
                uint64_t m = mask_bytes(esz);
                int sg = is_signed(in->type);
                switch (in->mode) {
                case MODE_ATOM_ADD: x = old + x; break;
                case MODE_ATOM_MIN:
                    x = sg ? (sext(old, esz) < sext(x, esz) ? old : x) : ((old & m) < (x & m) ? old : x);
                    break;
                case MODE_ATOM_MAX:
                    x = sg ? (sext(old, esz) > sext(x, esz) ? old : x) : ((old & m) > (x & m) ? old : x);
                    break;
                case MODE_ATOM_INC: x = (old & m) >= (x & m) ? 0 : old + 1; break;
                case MODE_ATOM_DEC: x = ((old & m) == 0 || (old & m) > (x & m)) ? x : old - 1; break;
                case MODE_ATOM_AND: x = old & x; break;
                case MODE_ATOM_OR: x = old | x; break;
                case MODE_ATOM_XOR: x = old ^ x; break;
                default:
                    return emu_failf(b, pc, "unsupported instruction: red.async of this operation");
                }
                k = k && ok;
            }
            mem_write(t->smem, t->smem_known, o, esz, x, k);
        }
        emu_tma_forget(t, off, n);
        if (t != b) {
            b->remote = t;
            emu_dshared_lane(b, w * 32 + l, in->op == PO_ST_ASYNC ? SMEM_DSH_STAS : SMEM_DSH_REDAS, n);
        }
        if ((r = emu_mbarrier_complete_tx(b, t, pc, bar, n, name)) <= 0)
            return r < 0 ? -1 : 1;
    }
    return 1;
}

int emu_exec_cluster(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                     uint32_t ex)
{
    switch (in->op) {
    case PO_MAPA: case PO_GETCTARANK: return exec_map(b, w, pc, in, ex);
    case PO_BAR_CLUSTER: return exec_barrier(b, w, pc, in, ex);
    default: return exec_async_store(b, w, pc, in, ex);
    }
}

int emu_cluster_release(struct emu_cluster *cl)
{
    for (uint32_t c = 0; c < cl->n; c++) {
        const struct block *b = &cl->cta[c];
        for (uint32_t t = 0; t < b->nthreads; t++) {
            const struct lane *T = &b->T[t];
            if (T->state != L_EXIT && !(T->cl_arrived && T->cl_phase == cl->phase))
                return 0; /* a live thread has not arrived in this phase yet */
        }
    }
    int woke = 0;
    cl->phase++;
    cl->sync++;
    for (uint32_t c = 0; c < cl->n; c++) {
        struct block *b = &cl->cta[c];
        b->interval++; /* for the hazards: the barrier orders what came before it */
        for (uint32_t t = 0; t < b->nthreads; t++) {
            struct lane *T = &b->T[t];
            if (T->state == L_CLUSTER) {
                b->waited_upto = cl->phase;
                T->state = L_RUN;
                T->cl_arrived = 0;
                T->pc++;
                woke = 1;
            }
        }
    }
    return woke;
}

int emu_cluster_stuck(struct emu_cluster *cl)
{
    uint32_t arrived = 0, live = 0;
    struct block *wb = NULL, *mb = NULL;
    uint32_t wt = 0, mt = 0;
    for (uint32_t c = 0; c < cl->n; c++) {
        struct block *b = &cl->cta[c];
        for (uint32_t t = 0; t < b->nthreads; t++) {
            const struct lane *T = &b->T[t];
            if (T->state == L_EXIT)
                continue;
            live++;
            if (T->cl_arrived && T->cl_phase == cl->phase)
                arrived++;
            else if (!mb) {
                mb = b;
                mt = t;
            }
            if (T->state == L_CLUSTER && !wb) {
                wb = b;
                wt = t;
            }
        }
    }
    if (!wb)
        return 0;
    const struct smem_ptx_insn *at = &mb->p->func->insns[mb->T[mt].pc];
    return emu_failf(wb, wb->T[wt].pc, "deadlock: threads of the cluster wait at barrier.cluster.wait "
                     "(thread %u of block (%u,%u,%u) here) for %u of its %u live threads that never "
                     "arrive (thread %u of block (%u,%u,%u), rank %u, waits at line %u)", wt,
                     wb->ctaid[0], wb->ctaid[1], wb->ctaid[2], live - arrived, live, mt,
                     mb->ctaid[0], mb->ctaid[1], mb->ctaid[2], mb->rank,
                     at->loc_line ? at->loc_line : at->src_line);
}
