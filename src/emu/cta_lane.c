/* cta_lane.c: the per-thread semantics: one instruction for one lane, on that lane's register
 * row (emu_lane_in copies it out of the warp's rows, emu_lane_out back). What the opcode table
 * says of the opcode (opcodes.def, lane) decides: nothing, exit, a block barrier, a call, a trap,
 * a texture, a memory access (ld / st / atom / red / cp.async, below), or arithmetic (cta_alu.c).
 * The warp loop runs a lane here when no warp-level form took the instruction. */
#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"

#include <assert.h>
#include <string.h>

/* cp.async [shared], [global], cp-size{, src-size} with a global memory: the copy, done at once
 * (the wait that follows orders nothing else in a race-free program). */
static int exec_cp_async_global(struct block *b, uint32_t tid, uint32_t pc,
                                const struct smem_ptx_insn *in, const uint64_t *R, const uint8_t *K,
                                uint8_t *smem, uint8_t *skn, uint64_t soff, unsigned n)
{
    int k = 1;
    uint64_t ga = ea(b, R, K, &in->ops[1], &k);
    unsigned srcn = n;
    if (in->nops >= 4) {
        int k2 = 1;
        uint64_t v = op_src(b, tid, R, K, &in->ops[3], &k2);
        if (!k2)
            k = 0;
        srcn = v < n ? (unsigned)v : n;
    }
    if (!k) {
        memset(skn + soff, 0, n);
        return 0;
    }
    uint8_t *gm = NULL, *gk = NULL;
    uint64_t goff = 0;
    if (srcn && emu_resolve(b, tid, SP_GLOBAL, ga, srcn, &gm, &gk, &goff) != 4) {
        memset(skn + soff, 0, n);
        return emu_global_fault(b, tid, pc, in, SMEM_GFAULT_LOAD, ga, srcn);
    }
    if (srcn)
        emu_mark_global_at(b, tid, pc, PO_LD, goff, srcn);
    for (unsigned i = 0; i < n; i++) {
        smem[soff + i] = i < srcn ? gm[goff + i] : 0;
        skn[soff + i] = i < srcn ? (gk ? gk[goff + i] : 1) : 1;
    }
    return 0;
}

/* A 64-bit shared atomic min / max, which ptxas makes a loop on sm_90: each round the lanes still
 * waiting read their words (LDS); those whose value would still improve theirs try to swap it in
 * (ATOMS.CAST.SPIN.64, two passes of 16 lanes); in a pass, in each bank, the lowest lane trying
 * succeeds and the others find the bank busy (as for the other CAS loops, analysis/launch.c), and a
 * lane of the second pass whose word the first changed fails; a lane leaves when it succeeded or
 * its word holds a value as good as its own. The lanes of a request run here one after another in
 * lane order: each call replays the loop over the lanes so far (their operands, and the word each
 * found before any of them changed it) and stores every lane's rounds in a (loads in src_size[],
 * swaps tried in src[]: launch.c prices them). Measured: tests/run/h100-atomic64.csv (min64,
 * max64); held out in tests/run/h100-minmax64.csv (9 of 11 kernels; the two whose words share
 * banks fitted after it). */
static void minmax_rounds(struct block *b, struct smem_access *a, uint32_t lane, uint64_t v,
                          uint64_t old, int known, int is_min, int sg)
{
    uint32_t bit = 1u << lane, before = a->active & (bit - 1u);
    if (b->mm_req != a || b->mm_seen != before) { /* a new request (or one not seen whole) */
        b->mm_req = a;
        b->mm_seen = b->mm_unknown = 0;
    }
    b->mm_seen |= bit;
    b->mm_v[lane] = v;
    b->mm_old[lane] = old;
    if (!known)
        b->mm_unknown |= bit;
    if (b->mm_unknown) { /* the rounds depend on data the analysis cannot know */
        for (uint32_t l = 0; l < 32; l++)
            if (b->mm_seen >> l & 1u) {
                a->unknown |= 1u << l;
                a->src_size[l] = 1;
                a->src[l] = 1;
            }
        return;
    }
#define MM_BETTER(x, c) \
    (is_min ? (sg ? (int64_t)(x) < (int64_t)(c) : (x) < (c)) \
            : (sg ? (int64_t)(x) > (int64_t)(c) : (x) > (c)))
    uint64_t cur[32]; /* per lane: its word now (the first lane on a word keeps it) */
    uint32_t first[32], seen = b->mm_seen;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(seen >> l & 1u))
            continue;
        first[l] = l;
        for (uint32_t j = 0; j < l; j++)
            if ((seen >> j & 1u) && a->addr[j] == a->addr[l]) {
                first[l] = j;
                break;
            }
        if (first[l] == l)
            cur[l] = b->mm_old[l];
        a->src_size[l] = 0;
        a->src[l] = 0;
    }
    uint32_t pending = seen;
    for (unsigned round = 0; pending && round < 255; round++) {
        uint32_t trying = 0;
        for (uint32_t l = 0; l < 32; l++)
            if (pending >> l & 1u) {
                a->src_size[l]++;
                if (MM_BETTER(b->mm_v[l], cur[first[l]]))
                    trying |= 1u << l;
            }
        pending = trying;
        uint32_t done = 0, changed = 0; /* changed: words (their first lanes) swapped this round */
        for (uint32_t pass = 0; pass < 2; pass++) {
            uint32_t taken = 0;
            for (uint32_t l = pass * 16; l < pass * 16 + 16; l++) {
                if (!(trying >> l & 1u))
                    continue;
                a->src[l]++;
                uint32_t b0 = a->addr[l] / 4 % 32, banks = 1u << b0 | 1u << (b0 + 1) % 32;
                if (!(banks & taken) && !(changed >> first[l] & 1u)) {
                    done |= 1u << l;
                    changed |= 1u << first[l];
                    cur[first[l]] = b->mm_v[l];
                }
                taken |= banks;
            }
        }
        pending &= ~done;
    }
#undef MM_BETTER
}

/* ld / st / atom / red / cp.async for one thread. Returns 0, or -1 on a hard error. */
static int exec_mem(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t *R, uint8_t *K)
{
    unsigned esz = TBYTES(in->type);
    int op = in->op;
    assert(smem_op_mem_operand(op) >= 0); /* lane_exec's LK_MEM: the ld/st family, cp.async */
    const struct smem_ptx_operand *mo = &in->ops[smem_op_mem_operand(op)];
    if (op == PO_CP_ASYNC) {
        esz = in->nops >= 3 ? (unsigned)in->ops[2].imm : 4;
    }
    if (mo->kind != OPK_ADDR)
        return emu_failf(b, pc, "expected a memory operand");
    if (esz > 8 && op != PO_CP_ASYNC)
        return emu_failf(b, pc, "unsupported instruction: %u-byte scalar accesses (.b128) are not "
                          "modelled", esz);
    if (smem_op_is_atomic(op) && in->vec > 1)
        return emu_failf(b, pc, "unsupported instruction: vector atomics (.v2, .v4) are not "
                          "modelled");
    int aknown = 1;
    uint64_t a = ea(b, R, K, mo, &aknown);
    unsigned sp = in->space;
    unsigned total = esz * (smem_op_is_ldst(op) && !smem_op_is_atomic(op) ? in->vec : 1);
    if (op == PO_CP_ASYNC)
        total = esz;
    /* [reg+imm] in param space: an address taken of a kernel parameter (mov %rd, param; a
       __grid_constant__ struct indexed in a loop): read below like [param+imm] */
    if (sp == SP_PARAM && (mo->sym < 0 ? mo->reg[0] < 0 : (uint32_t)mo->sym >= b->p->func->nparams)) {
        /* call-sequence parameters: vprintf's two (for a printing caller), nothing else */
        if (op == PO_LD && in->ops[0].reg[0] >= 0) {
            K[in->ops[0].reg[0]] = 0;
            if (mo->sym >= 0 && b->gm && b->gm->dmalloc &&
                !strcmp(b->p->func->syms[mo->sym].name, "retval0")) { /* malloc's result */
                R[in->ops[0].reg[0]] = b->T[tid].callret;
                K[in->ops[0].reg[0]] = 1;
            }
        }
        if (op == PO_ST && mo->sym >= 0 && b->gm && (b->gm->print || b->gm->dmalloc)) {
            const char *nm = b->p->func->syms[mo->sym].name;
            size_t nl = strlen(nm);
            int k = 1;
            if (nl >= 6 && !strncmp(nm + nl - 6, "param", 5) && (nm[nl - 1] == '0' || nm[nl - 1] == '1'))
                b->T[tid].callarg[nm[nl - 1] - '0'] = op_src(b, tid, R, K, &in->ops[1], &k);
        }
        return 0;
    }
    uint32_t site = b->p->site_of_insn[pc];
    int shared = emu_is_shared_space(sp, a);
    if (sp == SP_GENERIC && !aknown) {
        emu_stop_unknown(b, pc, "generic address");
        return 0;
    }
    uint64_t soff = (sp == SP_GENERIC ? a - SHARED_GENERIC_BASE : a) - SHARED_WINDOW_BASE;
    int oob = 0;
    uint8_t *mem = NULL, *kn = NULL;
    uint64_t off = 0;
    int where = 0;
    int cluster = sp == SP_SHARED && (in->tflags & SMEM_TF_CLUSTER);
    if (aknown) {
        where = emu_resolve(b, tid, sp | (cluster ? EMU_SP_CLUSTER : 0u), a, total, &mem, &kn, &off);
        /* a run (faults reported, not stopping) reports what the GPU faults on as memcheck's
           findings and goes on past them, the access doing nothing (a load reads unknown data):
           a misaligned shared or local access, a local one outside the thread's frame */
        int local = sp == SP_LOCAL || (sp == SP_GENERIC && a >= LOCAL_GENERIC_BASE &&
                                       a - LOCAL_GENERIC_BASE < WINDOW_SIZE);
        unsigned align = total > 16 ? 16 : total;
        if (b->gm && b->gm->fault && !b->gm->faults_stop && op != PO_CP_ASYNC && !cluster &&
            (((where == 1 || where == 2) && off % align) || (where == -1 && local))) {
            unsigned fsp = where == 1 ? SP_SHARED : SP_LOCAL;
            uint64_t fa = where == 1 ? off + SHARED_WINDOW_BASE
                          : sp == SP_GENERIC ? a - LOCAL_GENERIC_BASE : a;
            emu_space_fault(b, tid, pc, in, where == -1 ? SMEM_GFAULT_LOAD : SMEM_GFAULT_MISALIGNED,
                            fsp, fa, total);
            mem = NULL;
            where = 0; /* nothing there */
            shared = 0;
        }
        if (where <= -3 || ((where == 5 || (where == 1 && (cluster || sp == SP_GENERIC))) &&
                            a % total))
            return emu_remote_fault(b, tid, pc, a, total, where);
        if (where == 1)
            soff = off; /* a shared::cluster address of the own CTA (mapa's, generic) */
        if ((where == 1 || where == 5) && b->cl->n > 1)
            emu_cluster_shadow(b, where == 5 ? b->remote : b, pc, (uint32_t)off, total,
                               smem_op_is_atomic(op) ? 2 : !smem_op_is_load(op));
        if (where == 5) { /* another CTA's: a dshared request, not one of the site */
            struct block *t = b->remote;
            shared = 0;
            t->rem_phase = b->cl->phase;
            t->rem_mb = t->mb_done;
            t->rem_pc = pc;
            t->rem_bid = b->bid;
            memcpy(t->rem_ctaid, b->ctaid, sizeof t->rem_ctaid);
            emu_dshared_lane(b, tid, smem_op_is_atomic(op) ? SMEM_DSH_ATOM
                                     : op == PO_ST ? SMEM_DSH_ST : SMEM_DSH_LD, total);
        }
        if (where == 4 && b->gm->regions[b->glast].heap && b->gm->heap_live &&
            !b->gm->heap_live(b->gm->heap_ctx, a, total)) {
            where = -2; /* the device heap outside every live block: a fault (below) */
            mem = NULL;
        }
        if (where == 4 && (a % (total > 16 ? 16 : total) ||
                           (b->gm->regions[b->glast].readonly &&
                            !smem_op_is_load(op)))) {
            /* misaligned, or a store to constant memory: the GPU faults */
            unsigned kind = a % (total > 16 ? 16 : total) ? SMEM_GFAULT_MISALIGNED
                                                          : SMEM_GFAULT_READONLY;
            mem = NULL;
            where = -2;
            if (emu_global_fault(b, tid, pc, in, kind, a, total))
                return -1;
        } else if (where == -2) {
            mem = NULL;
            if (emu_global_fault(b, tid, pc, in, SMEM_GFAULT_LOAD, a, total))
                return -1;
        }
        if (where < 0 && where != -2) {
            if (!shared)
                return emu_failf(b, pc, "%s access out of range", sp == SP_LOCAL ? "local" : "parameter");
            oob = 1;
        }
        if (where == 4 && mem)
            emu_mark_global_at(b, tid, pc, op, off, total);
    }
    if (shared && site != UINT32_MAX) {
        /* one request per SASS access this instruction becomes */
        for (uint32_t s = site; s < b->p->nsites && b->p->sites[s].insn == pc; s++) {
            if (aknown && (uint32_t)(soff + b->p->sites[s].offset) % b->p->sites[s].width &&
                op != PO_CP_ASYNC)
                return emu_failf(b, pc, "misaligned shared access (address %s)", "not a multiple of its width");
            if (emu_record(b, tid, s, (uint32_t)(soff + b->p->sites[s].offset), aknown, oob))
                return emu_failf(b, pc, "out of memory");
        }
    }
    if (shared && !aknown && !smem_op_is_load(op)) { /* st, atom, red, cp.async */
        /* a store to an unknown place: nothing in shared memory can be trusted any more */
        memset(b->smem_known, 0, b->smem_size);
    }
    switch (op) {
    case PO_LD: case PO_LDU: {
        const struct smem_ptx_operand *d = &in->ops[0];
        unsigned n = d->kind == OPK_VEC ? d->count : 1;
        for (unsigned c = 0; c < n; c++) {
            int32_t reg = d->kind == OPK_VEC ? d->reg[c] : d->reg[0];
            uint64_t v = 0;
            int known = aknown && mem && !oob;
            if (known)
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &v, &known);
            if (is_signed(in->type))
                v = (uint64_t)sext(v, esz);
            op_dst(R, K, reg, v, known, reg >= 0 ? TBYTES(b->p->func->reg_type[reg]) : 8);
        }
        return 0;
    }
    case PO_ST: {
        const struct smem_ptx_operand *s = &in->ops[1];
        unsigned n = s->kind == OPK_VEC ? s->count : 1;
        int same = shared && site != UINT32_MAX && mem && !oob && aknown;
        for (unsigned c = 0; c < n; c++) {
            int known = 1;
            uint64_t v;
            if (s->kind == OPK_VEC) {
                v = s->reg[c] >= 0 ? R[s->reg[c]] : 0;
                known = s->reg[c] >= 0 ? K[s->reg[c]] : 0;
            } else {
                v = op_src(b, tid, R, K, s, &known);
            }
            if (same) { /* does it store what is there already? */
                uint64_t old = 0;
                int ok = 1;
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &old, &ok);
                same = ok && known && ((old ^ v) & mask_bytes(esz)) == 0;
            }
            if (mem && !oob && aknown && where != 3)
                mem_write(mem, kn, off + (uint64_t)c * esz, esz, v, known);
        }
        for (uint32_t st = site; same && st < b->p->nsites && b->p->sites[st].insn == pc; st++) {
            struct smem_access *r = emu_request(b, st, *emu_kcount(b, tid, st) - 1,
                                                tid / 32);
            if (r)
                r->same |= 1u << (tid % 32);
        }
        return 0;
    }
    case PO_CP_ASYNC:
        if (mem && !oob && aknown) {
            if (b->gm)
                return exec_cp_async_global(b, tid, pc, in, R, K, mem, kn, off, esz);
            memset(kn + off, 0, esz); /* data comes from global memory: unknown */
        }
        return 0;
    default: break;
    }
    /* atomics: read-modify-write */
    int vknown = 1;
    unsigned vi = op == PO_ATOM ? 2 : 1;
    uint64_t v = in->nops > vi ? op_src(b, tid, R, K, &in->ops[vi], &vknown) : 0;
    uint64_t old = 0;
    int oknown = aknown && mem && !oob;
    if (oknown)
        mem_read(mem, kn, off, esz, &old, &oknown);
    uint64_t m = mask_bytes(esz), nv = old;
    int sg = is_signed(in->type);
    switch (in->mode) {
    case MODE_ATOM_ADD:
        if (is_fp(in->type))
            nv = emu_fp_atom_add(in->type, where == 1 || where == 5, old, v);
        else
            nv = old + v;
        break;
    case MODE_ATOM_INC: nv = (old & m) >= (v & m) ? 0 : old + 1; break;
    case MODE_ATOM_DEC: nv = ((old & m) == 0 || (old & m) > (v & m)) ? v : old - 1; break;
    case MODE_ATOM_MIN:
        nv = sg ? (sext(old, esz) < sext(v, esz) ? old : v) : ((old & m) < (v & m) ? old : v);
        break;
    case MODE_ATOM_MAX:
        nv = sg ? (sext(old, esz) > sext(v, esz) ? old : v) : ((old & m) > (v & m) ? old : v);
        break;
    case MODE_ATOM_AND: nv = old & v; break;
    case MODE_ATOM_OR: nv = old | v; break;
    case MODE_ATOM_XOR: nv = old ^ v; break;
    case MODE_ATOM_EXCH: nv = v; break;
    case MODE_ATOM_CAS: {
        int k2 = 1;
        uint64_t nw = in->nops > 3 ? op_src(b, tid, R, K, &in->ops[3], &k2) : 0;
        vknown = vknown && k2;
        nv = (old & m) == (v & m) ? nw : old;
        break;
    }
    default: return emu_failf(b, pc, "unsupported atomic operation");
    }
    /* an exchange's new value is its operand's, whatever the old one was (atomicExch(&s, 0)
       is how kernels commonly initialise a shared counter) */
    int nknown = in->mode == MODE_ATOM_EXCH ? vknown : oknown && vknown;
    if (mem && !oob && aknown)
        mem_write(mem, kn, off, esz, nv, nknown);
    if (shared && site != UINT32_MAX && b->p->sites[site].cas == 3 && esz == 8 &&
        (in->mode == MODE_ATOM_MIN || in->mode == MODE_ATOM_MAX)) {
        uint32_t *kc = emu_kcount(b, tid, site);
        struct smem_access *req = *kc ? emu_request(b, site, *kc - 1, tid / 32) : NULL;
        if (req)
            minmax_rounds(b, req, tid % 32, v, old, oknown && vknown, in->mode == MODE_ATOM_MIN, sg);
    }
    if (op == PO_ATOM)
        op_dst(R, K, in->ops[0].reg[0], sg ? (uint64_t)sext(old, esz) : old, oknown,
            in->ops[0].reg[0] >= 0 ? TBYTES(b->p->func->reg_type[in->ops[0].reg[0]]) : 8);
    return 0;
}

/* what the per-thread semantics do with each opcode (opcodes.def, lane) */
static const uint8_t lane_kind[256] = {
#define OP(id, mnemonic, cls, min_ops, mem_op, flags, fast32, lane, warp) [PO_##id] = lane,
#include "smemlab/ptx/opcodes.def"
#undef OP
};

/* One instruction (not a branch, not a warp collective) for lane l of warp w at pc, with the
 * per-thread semantics. It may leave the lane waiting at a barrier or exited. */
int emu_lane_exec(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                     const struct smem_ptx_insn *in)
{
    uint32_t tid = w * 32 + l;
    struct lane *T = &b->T[tid];
    uint64_t *R = b->sr;
    uint8_t *K = b->sk;
    int rc = 0;
    emu_lane_in(b, w, l, in);
    switch (lane_kind[in->op]) {
    case LK_NOTHING:
        return 0;
    case LK_EXIT:
        T->state = L_EXIT;
        return 0;
    case LK_CLUSTER: /* cta_cluster.c runs these for the warp */
        return emu_failf(b, pc, "unsupported instruction (a cluster instruction of this form)");
    case LK_TRAP:
        return emu_failf(b, pc, "%s", in->call_name ? in->call_name /* smemlab's own trap */
                                       : "the kernel executes trap (an assertion failed?)");
    case LK_TEX:
        if (b->gm) /* a real launch: the texture's or surface's memory is not emulated */
            return emu_failf(b, pc, "texture and surface instructions are not supported "
                                     "(the kernel reads or writes a texture or surface)");
        /* analyze: the fetched value is data the analysis cannot know */
        for (int r = 0; in->op == PO_TEX && r < 4; r++)
            if (in->ops[0].reg[r] >= 0 && (in->ops[0].kind == OPK_VEC || r == 0))
                K[in->ops[0].reg[r]] = 0;
        break;
    case LK_CALL:
        if (in->call_name && (!strcmp(in->call_name, "vprintf") ||
                              !strcmp(in->call_name, "__assertfail"))) {
            if (!strcmp(in->call_name, "__assertfail"))
                return emu_failf(b, pc, "the kernel's assert() fails");
            if (b->gm && b->gm->print) { /* vprintf(format, arguments) */
                uint64_t args = T->callarg[1];
                const uint8_t *ab = NULL;
                size_t an = 0;
                if (args >= LOCAL_GENERIC_BASE && args - LOCAL_GENERIC_BASE < b->local_size) {
                    uint64_t off = args - LOCAL_GENERIC_BASE;
                    ab = b->local + (size_t)tid * b->local_size + off;
                    an = (size_t)(b->local_size - off);
                }
                b->gm->print(b->gm->print_ctx, b->bid, tid, T->callarg[0], ab, an);
            }
            return 0;
        }
        if (in->call_name && b->gm && b->gm->dmalloc &&
            (!strcmp(in->call_name, "malloc") || !strcmp(in->call_name, "free"))) {
            if (in->call_name[0] == 'm') {
                T->callret = b->gm->dmalloc(b->gm->heap_ctx, pc, T->callarg[0]);
                return 0;
            }
            int fr = b->gm->dfree(b->gm->heap_ctx, T->callarg[0]);
            if (fr)
                return emu_space_fault(b, tid, pc, in, fr == 1 ? SMEM_GFAULT_BAD_FREE
                                                               : SMEM_GFAULT_DOUBLE_FREE,
                                       SP_GLOBAL, T->callarg[0], 0) ? -1 : 0;
            return 0;
        }
        return emu_failf(b, pc, "unsupported call to '%s' (device functions must be inlined)",
                          in->call_name ? in->call_name : "?");
    case LK_BAR: {
        int k = 1;
        uint64_t id = in->nops > 0 && in->op == PO_BAR ? op_src(b, tid, R, K, &in->ops[0], &k) : 0;
        uint64_t cnt = 0;
        if (in->op == PO_BAR && in->nops > 1)
            cnt = op_src(b, tid, R, K, &in->ops[1], &k);
        if (in->op == PO_BAR_RED) {
            /* bar.red.OP.TYPE d, a{, b}, {!}c: b, the number of threads */
            id = op_src(b, tid, R, K, &in->ops[1], &k);
            if (in->nops == 4)
                cnt = op_src(b, tid, R, K, &in->ops[2], &k);
            const struct smem_ptx_operand *po = &in->ops[in->nops - 1];
            int pk = 1;
            uint64_t pv = op_src(b, tid, R, K, po, &pk);
            if (!pk) {
                emu_stop_unknown(b, pc, "barrier reduction input");
                return 0;
            }
            T->bar_pred = (pv != 0) != (po->neg != 0);
        }
        if (!k) {
            emu_stop_unknown(b, pc, "barrier operand");
            return 0;
        }
        if (id > 15)
            return emu_failf(b, pc, "barrier id out of range (0..15)");
        T->bar_id = (uint32_t)id;
        T->bar_count = (uint32_t)cnt;
        T->state = L_BAR;
        T->pc = pc;
        return 0;
    }
    case LK_ARRIVE:
        return emu_failf(b, pc, "unsupported instruction 'bar.arrive'");
    case LK_MEM:
        /* (volatile accesses need nothing more: the warp's lanes do each access together, in
           lane order, as warp-synchronous code expects of a converged warp) */
        if ((in->space == SP_GLOBAL || in->space == SP_CONST) && !b->gm) {
            if (smem_op_writes_dst(in->op)) {
                const struct smem_ptx_operand *d = &in->ops[0];
                unsigned n = d->kind == OPK_VEC ? d->count : 1;
                for (unsigned c2 = 0; c2 < n; c2++) {
                    int32_t reg = d->kind == OPK_VEC ? d->reg[c2] : d->reg[0];
                    if (reg >= 0)
                        K[reg] = 0; /* global memory: unknown data */
                }
            }
            break;
        }
        rc = exec_mem(b, tid, pc, in, R, K);
        break;
    default: /* LK_ALU */
        if (emu_exec_alu(b, tid, in, R, K))
            return emu_failf(b, pc, "unsupported instruction (its type or a modifier is not "
                              "modelled)");
        break;
    }
    emu_lane_out(b, w, l, in);
    return rc;
}
