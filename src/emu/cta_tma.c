/* cta_tma.c: the TMA unit's tensor copies of sm_90 (cp.async.bulk.tensor, tiled) in the CTA
 * emulator, a lane at a time:
 *  - global -> shared (cp.async.bulk.tensor.Nd.shared::cluster.global.tile.mbarrier::
 *    complete_tx::bytes [dst], [map, {c..}], [mbar]): the box the 128-byte tensor map describes
 *    (smemlab/model/tensormap.h: our encoding, written by the driver stand-in) whose origin is
 *    the coordinates, each element read from global memory and written where the map's swizzle
 *    puts it (the XOR on the absolute shared address), elements outside the tensor filled with
 *    zeros (or a NaN, oobFill NAN_REQUEST_ZERO_FMA: the type's all-ones NaN, 0x7fff / 0x7fffffff,
 *    not measured); done at once, the box's bytes complete_tx on the mbarrier as the plain bulk
 *    copies do (cta_bulk.c). The destination and its barrier are shared::cluster addresses
 *    (another CTA's too); .multicast::cluster writes the box at the same offset of every CTA of
 *    ctaMask, each CTA's barrier completing the box's bytes, each CTA's layout record its own
 *    (measured: tests/run/cluster_dsmem.cu tma_multicast; Nsight Compute counts no dshared
 *    traffic for it, the TMA's own counters only: h200-cluster-dsmem-ncu.csv).
 *  - shared -> global (cp.async.bulk.tensor.Nd.global.shared::cta.tile.bulk_group [map, {c..}],
 *    [src]): every element inside the tensor written back from where the swizzle put it; the
 *    rest skipped. Done at once (commit_group / wait_group have nothing left to wait for).
 *  - cp.reduce.async.bulk.tensor.Nd.global.shared::cta.<op>{.tile}.bulk_group [map, {c..}], [src]:
 *    as the store, each element inside the tensor combined into global memory with op (add, min,
 *    max, inc, dec, and, or, xor) on the map's element type, atomically (at once); the PTX ISA's
 *    table of operations per type enforced (red_allowed), f32 add rounding to nearest even
 *    (measured: tests/run/h200-tma-reduce.txt, whose f32 sums are exact, so the rounding is not;
 *    f16 / bf16 / 64-bit types not measured).
 *  - cp.async.bulk.prefetch.tensor: nothing (a hint to L2).
 * The map is read at its generic address: a __grid_constant__ parameter (cvta.param), global
 * memory (a map copied there), or a parameter symbol named directly. A map the driver would
 * refuse (smem_tensormap_check), a layout not modelled (im2col, interleave, packed types), a
 * dimension other than the map's rank, a destination not 128-byte aligned, a box outside the
 * block's shared memory, and an inner coordinate that is not a multiple of 16 bytes stop the kernel
 * with a located message (the last as the H200 stops it: every such box of
 * tests/hw/tma/tma_layout.cu, at columns -3 and 250 of 16-bit elements, which also ran past the
 * tensor's inner edge, and a box wholly inside the tensor at a 4-byte offset, where the same box at a
 * 16-byte offset runs (bench/sol/dev_tma.cu --probe, bench/results/h200-2026-11-29-s6-probe/): "an
 * illegal instruction was encountered"; a 16-byte-aligned box past the inner edge is filled, as the
 * PTX ISA says, unmeasured).
 * Shared layout (smemlab/model/tensormap.h, measured on the H200): rows of the swizzle's span
 * (32, 64, 128 bytes) whatever the inner box, the XOR on the absolute address; dense rows
 * without a swizzle.
 * The layout record: every 16-byte chunk a TMA load writes remembers the map's swizzle and the
 * load and a hash of its bytes (b->tma_sw, tma_pc, tma_sum), which wgmma (cta_wgmma.c) compares
 * with its descriptors while the bytes are still the load's (emu_tma_current: st.shared, cp.async
 * or anything else that changed them since makes the record stale); a bulk copy forgets it
 * (emu_tma_forget).
 * Hazards: the destination chunks are a `landed` write of the issuing thread, as for cp.async.bulk.
 * Cost: none in the LSU counters (the TMA is not the LSU; as cta_bulk.c). */
#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"
#include "values.h"

#include "smemlab/model/tensormap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The destination chunk at shared offset off: a write of lane l (hazards). */
static void tma_landed(struct block *b, uint32_t w, uint32_t l, uint32_t pc, uint32_t off)
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
    x.interval = b->interval;
    x.addr[l] = off;
    b->h->access(b->h->ctx, &x);
}

/* FNV-1a of the 16 bytes (and their known marks) at shared offset off */
static uint32_t chunk_sum(const struct block *b, uint32_t off)
{
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < 16; i++)
        h = (h ^ (b->smem[off + i] | (uint32_t)b->smem_known[off + i] << 8)) * 16777619u;
    return h;
}

int emu_tma_current(const struct block *b, uint32_t chunk)
{
    return b->tma_sw && b->tma_sw[chunk] && b->tma_sum[chunk] == chunk_sum(b, chunk * 16);
}

void emu_tma_forget(struct block *b, uint32_t off, uint32_t n)
{
    if (!b->tma_sw || !n)
        return;
    for (uint32_t c = off / 16; c <= (off + n - 1) / 16 && c <= b->smem_size / 16; c++)
        b->tma_sw[c] = 0;
}

/* The 128 bytes of the tensor map operand o of lane l into map: 1 read, 0 stopped (unknown), -1
 * failed. */
static int read_map(struct block *b, uint32_t w, uint32_t l, uint32_t pc, const struct smem_ptx_insn *in,
                    const struct smem_ptx_operand *o, const char *name, uint8_t map[SMEM_TMAP_BYTES])
{
    uint8_t kn[SMEM_TMAP_BYTES];
    int k = 1;
    uint64_t a;
    int param = 0;
    if (o->reg[0] >= 0) {
        a = emu_lane_val(b, w, l, &(struct smem_ptx_operand){.kind = OPK_REG,
                                                             .reg = {o->reg[0], -1, -1, -1},
                                                             .sym = -1}, &k);
    } else {
        a = emu_sym_addr(b, o->sym);
        param = b->p->func->syms[o->sym].kind == SYM_PARAM;
    }
    a += (uint64_t)o->imm;
    if (!k) {
        emu_stop_unknown(b, pc, "tensor map address");
        return 0;
    }
    int global = !param && b->gm && emu_region_of(b, a, SMEM_TMAP_BYTES);
    if (!param && !global && a >= PARAM_GENERIC_BASE && a - PARAM_GENERIC_BASE < WINDOW_SIZE) {
        param = 1;
        a -= PARAM_GENERIC_BASE;
    }
    if (a % 64)
        return emu_failf(b, pc, "%s: the tensor map at 0x%llx is not 64-byte aligned", name,
                         (unsigned long long)a);
    if (param) {
        if (a + SMEM_TMAP_BYTES > b->param_size)
            return emu_failf(b, pc, "%s: the tensor map at parameter offset %llu is outside the "
                                    "kernel's %llu bytes of parameters", name,
                             (unsigned long long)a, (unsigned long long)b->param_size);
        memcpy(map, b->param + a, SMEM_TMAP_BYTES);
        memcpy(kn, b->param_known + a, SMEM_TMAP_BYTES);
    } else {
        /* a global allocation first: the runtime's device addresses may fall in a window */
        unsigned sp = global ? SP_GLOBAL : SP_GENERIC;
        if (sp == SP_GENERIC && emu_is_shared_space(SP_GENERIC, a))
            return emu_failf(b, pc, "%s: the tensor map at 0x%llx is in shared memory (the map "
                                    "must be in parameter, constant or global memory)", name,
                             (unsigned long long)a);
        int r = emu_mem_bytes(b, w * 32 + l, pc, in, sp, a, SMEM_TMAP_BYTES, map, kn, 0);
        if (r < 0)
            return -1;
        if (r == 1) {
            emu_stop_unknown(b, pc, "tensor map (global memory not given)");
            return 0;
        }
    }
    for (unsigned i = 0; i < SMEM_TMAP_BYTES; i++)
        if (!kn[i]) {
            emu_stop_unknown(b, pc, "tensor map");
            return 0;
        }
    return 1;
}

/* The decoded map and the box's origin of lane l: 1 ok, 0 stopped, -1 failed. */
static int tma_setup(struct block *b, uint32_t w, uint32_t l, uint32_t pc, const struct smem_ptx_insn *in,
                     unsigned mo, const char *name, struct smem_tensormap *t, int32_t c[SMEM_TMAP_MAX_RANK])
{
    uint8_t map[SMEM_TMAP_BYTES];
    char why[240];
    int r = read_map(b, w, l, pc, in, &in->ops[mo], name, map);
    if (r <= 0)
        return r;
    smem_tensormap_decode(map, t);
    if (smem_tensormap_check(t, 1, why, sizeof why))
        return emu_failf(b, pc, "%s: the tensor map is not one the driver accepts (%s)", name, why);
    const char *um = smem_tmap_unmodelled(t);
    if (um)
        return emu_failf(b, pc, "unsupported instruction: %s with this map: %s", name, um);
    if (t->rank != in->shape_m)
        return emu_failf(b, pc, "%s.%ud: the tensor map has rank %u (the PTX ISA requires the "
                                "instruction's dimension to be the map's rank)", name, in->shape_m, t->rank);
    memset(c, 0, sizeof(int32_t) * SMEM_TMAP_MAX_RANK);
    for (unsigned d = 0; d < t->rank; d++) {
        int k = 1;
        c[d] = (int32_t)emu_lane_val(b, w, l, &in->ops[mo + 1 + d], &k);
        if (!k) {
            emu_stop_unknown(b, pc, "tensor copy coordinates");
            return 0;
        }
    }
    int64_t inner = (int64_t)c[0] * smem_tmap_elem_bytes(t->dtype);
    if (inner % 16) /* measured: tests/run/h200-tma-layout.txt */
        return emu_failf(b, pc, "%s: the box's inner coordinate %d is %lld bytes into the tensor, "
                                "not a multiple of 16 (the H200 stops such copies: \"an illegal "
                                "instruction was encountered\")", name, c[0], (long long)inner);
    return 1;
}

/* Calls f for every element of the box, innermost first: its index e, 1 inside the tensor, its
 * global address. Stops at f's first non-1. */
typedef int elem_fn(void *ctx, const uint32_t e[SMEM_TMAP_MAX_RANK], int inside, uint64_t ga);
static int each_elem(const struct smem_tensormap *t, const int32_t c[SMEM_TMAP_MAX_RANK], elem_fn *f,
                     void *ctx)
{
    uint32_t n[SMEM_TMAP_MAX_RANK], e[SMEM_TMAP_MAX_RANK] = {0};
    for (unsigned d = 0; d < SMEM_TMAP_MAX_RANK; d++)
        n[d] = smem_tmap_box_elems(t, d);
    for (;;) {
        uint64_t ga;
        int in = smem_tmap_element(t, c, e, &ga);
        int r = f(ctx, e, in, ga);
        if (r != 1)
            return r;
        unsigned d = 0;
        while (d < SMEM_TMAP_MAX_RANK && ++e[d] == n[d])
            e[d++] = 0;
        if (d == SMEM_TMAP_MAX_RANK)
            return 1;
    }
}

struct copy {
    struct block *b;
    struct block *to;  /* the CTA the box lands in (b's own or another of its cluster) */
    uint32_t w, l, pc;
    const struct smem_ptx_insn *in;
    const struct smem_tensormap *t;
    uint64_t dst; /* absolute shared address of the box */
    unsigned eb;
};

static int load_elem(void *ctx, const uint32_t e[SMEM_TMAP_MAX_RANK], int inside, uint64_t ga)
{
    struct copy *x = ctx;
    struct block *b = x->b, *to = x->to;
    uint8_t v[8], kn[8];
    uint32_t off = (uint32_t)(smem_tmap_smem_addr(x->t, x->dst, e) - SHARED_WINDOW_BASE);
    if (inside) {
        int r = b->gm ? emu_mem_bytes(b, x->w * 32 + x->l, x->pc, x->in, SP_GLOBAL, ga, x->eb, v, kn, 0) : 1;
        if (r < 0)
            return -1;
        if (r == 1)
            memset(kn, 0, sizeof kn);
    } else {
        memset(v, 0, sizeof v);
        memset(kn, 1, sizeof kn);
        if (x->t->oobfill) { /* NAN_REQUEST_ZERO_FMA: the all-ones NaN of the type (not measured) */
            if (x->eb == 2) {
                v[0] = 0xff;
                v[1] = 0x7f;
            } else {
                memset(v, 0xff, x->eb);
                v[x->eb - 1] = 0x7f;
            }
        }
    }
    memcpy(to->smem + off, v, x->eb);
    memcpy(to->smem_known + off, kn, x->eb);
    emu_pf_async(to, off, x->eb); /* the async proxy's write: no fence owed */
    if ((e[0] * x->eb) % 16 == 0) { /* the first element of a 16-byte chunk: its record */
        to->tma_sw[off / 16] = (uint8_t)(x->t->swizzle + 1);
        to->tma_pc[off / 16] = x->pc;
        if (to == b)
            tma_landed(b, x->w, x->l, x->pc, off & ~15u);
    }
    if (((e[0] + 1) * x->eb) % 16 == 0) /* its last (rows are 16-byte multiples): the bytes */
        to->tma_sum[off / 16] = chunk_sum(to, off & ~15u);
    return 1;
}

/* cp.reduce.async.bulk.tensor's operations on each tensor type (the PTX ISA's table): add on
 * u32 s32 u64 f32 f16 bf16; min, max on u32 s32 u64 s64 f16 bf16; inc, dec on u32; and, or, xor
 * on u32 s32 u64 s64. 1 allowed. */
static int red_allowed(unsigned op, unsigned dt)
{
    int i32 = dt == SMEM_TMAP_UINT32 || dt == SMEM_TMAP_INT32;
    int i64 = dt == SMEM_TMAP_UINT64 || dt == SMEM_TMAP_INT64;
    int h = dt == SMEM_TMAP_FLOAT16 || dt == SMEM_TMAP_BFLOAT16;
    switch (op) {
    case MODE_ATOM_ADD: return i32 || dt == SMEM_TMAP_UINT64 || dt == SMEM_TMAP_FLOAT32 || h;
    case MODE_ATOM_MIN: case MODE_ATOM_MAX: return i32 || i64 || h;
    case MODE_ATOM_INC: case MODE_ATOM_DEC: return dt == SMEM_TMAP_UINT32;
    default: return i32 || i64; /* and, or, xor */
    }
}

static const char *red_name(unsigned op)
{
    switch (op) {
    case MODE_ATOM_ADD: return "add";
    case MODE_ATOM_MIN: return "min";
    case MODE_ATOM_MAX: return "max";
    case MODE_ATOM_INC: return "inc";
    case MODE_ATOM_DEC: return "dec";
    case MODE_ATOM_AND: return "and";
    case MODE_ATOM_OR: return "or";
    default: return "xor";
    }
}

/* g = g op v for an element of type dt (little-endian bytes): floats added in float, rounded to
 * nearest even (f16 / bf16: the float sum rounded once more, exact for them), subnormals kept (not
 * measured); min / max of halves by value; inc / dec as atom's (wrapping at v). */
static void red_combine(unsigned op, unsigned dt, uint8_t *g, const uint8_t *v, unsigned eb)
{
    uint64_t a = 0, c = 0;
    memcpy(&a, g, eb);
    memcpy(&c, v, eb);
    int sgn = dt == SMEM_TMAP_INT32 || dt == SMEM_TMAP_INT64;
    int64_t sa = eb == 4 ? (int64_t)(int32_t)(uint32_t)a : (int64_t)a;
    int64_t sc = eb == 4 ? (int64_t)(int32_t)(uint32_t)c : (int64_t)c;
    uint64_t r = a;
    if (dt == SMEM_TMAP_FLOAT32 || dt == SMEM_TMAP_FLOAT16 || dt == SMEM_TMAP_BFLOAT16) {
        float fa, fc, fr;
        if (dt == SMEM_TMAP_FLOAT32) {
            memcpy(&fa, &a, 4);
            memcpy(&fc, &c, 4);
        } else {
            fa = dt == SMEM_TMAP_FLOAT16 ? half_to_float((uint16_t)a) : bf16_to_float((uint16_t)a);
            fc = dt == SMEM_TMAP_FLOAT16 ? half_to_float((uint16_t)c) : bf16_to_float((uint16_t)c);
        }
        fr = op == MODE_ATOM_ADD ? fa + fc : op == MODE_ATOM_MIN ? (fc < fa ? fc : fa) : (fc > fa ? fc : fa);
        if (op != MODE_ATOM_ADD) /* min / max: one of the two, unchanged */
            r = (op == MODE_ATOM_MIN ? fc < fa : fc > fa) ? c : a;
        else if (dt == SMEM_TMAP_FLOAT32)
            memcpy(&r, &fr, 4);
        else
            r = dt == SMEM_TMAP_FLOAT16 ? float_to_half(fr) : float_to_bf16(fr);
    } else {
        switch (op) {
        case MODE_ATOM_ADD: r = a + c; break;
        case MODE_ATOM_MIN: r = sgn ? (sc < sa ? c : a) : (c < a ? c : a); break;
        case MODE_ATOM_MAX: r = sgn ? (sc > sa ? c : a) : (c > a ? c : a); break;
        case MODE_ATOM_INC: r = (uint32_t)a >= (uint32_t)c ? 0 : a + 1; break;
        case MODE_ATOM_DEC: r = (uint32_t)a == 0 || (uint32_t)a > (uint32_t)c ? c : a - 1; break;
        case MODE_ATOM_AND: r = a & c; break;
        case MODE_ATOM_OR: r = a | c; break;
        default: r = a ^ c; break;
        }
    }
    memcpy(g, &r, eb);
}

static int store_elem(void *ctx, const uint32_t e[SMEM_TMAP_MAX_RANK], int inside, uint64_t ga)
{
    struct copy *x = ctx;
    struct block *b = x->b;
    if (!inside)
        return 1;
    uint32_t off = (uint32_t)(smem_tmap_smem_addr(x->t, x->dst, e) - SHARED_WINDOW_BASE);
    uint32_t tid = x->w * 32 + x->l;
    if (!(x->in->tflags & SMEM_TF_REDUCE)) {
        int r = emu_mem_bytes(b, tid, x->pc, x->in, SP_GLOBAL, ga, x->eb, b->smem + off,
                              b->smem_known + off, 1);
        return r < 0 ? -1 : 1;
    }
    /* the reduction: the element read, combined, written back (one thread at a time: atomic) */
    uint8_t g[8], kn[8];
    int r = emu_mem_bytes(b, tid, x->pc, x->in, SP_GLOBAL, ga, x->eb, g, kn, 0);
    if (r < 0)
        return -1;
    if (r == 1)
        memset(kn, 0, sizeof kn);
    int known = 1;
    for (unsigned i = 0; i < x->eb; i++)
        known &= kn[i] && b->smem_known[off + i];
    red_combine(x->in->redop, x->t->dtype, g, b->smem + off, x->eb);
    memset(kn, known, sizeof kn);
    r = emu_mem_bytes(b, tid, x->pc, x->in, SP_GLOBAL, ga, x->eb, g, kn, 1);
    return r < 0 ? -1 : 1;
}

/* The box's shared bytes [dst, dst + bytes) (absolute) within the block's memory, dst 128-byte
 * aligned: 1, or -1 failed. The swizzle keeps every byte in its 128-byte line, so a box whose
 * lines are inside is inside. */
static int box_inside(struct block *b, uint32_t pc, const char *name, uint64_t dst, uint64_t bytes,
                      const char *what)
{
    if (dst % 128)
        return emu_failf(b, pc, "%s: the shared %s 0x%llx is not 128-byte aligned", name, what,
                         (unsigned long long)dst);
    uint64_t end = (dst + bytes + 127) / 128 * 128;
    if (dst < SHARED_WINDOW_BASE || end - SHARED_WINDOW_BASE > b->smem_size)
        return emu_failf(b, pc, "%s: the box's %llu bytes at shared address 0x%llx are outside the "
                                "block's shared memory (0x%x .. 0x%x)", name, (unsigned long long)bytes,
                         (unsigned long long)dst, SHARED_WINDOW_BASE, SHARED_WINDOW_BASE + b->smem_size);
    return 1;
}

/* Lane l's load. 1 done, 0 stopped, -1 failed. */
static int tma_g2s(struct block *b, uint32_t w, uint32_t l, uint32_t pc, const struct smem_ptx_insn *in,
                   const char *name)
{
    struct smem_tensormap t;
    int32_t c[SMEM_TMAP_MAX_RANK];
    int r = tma_setup(b, w, l, pc, in, 1, name, &t, c);
    if (r <= 0)
        return r;
    uint64_t bytes = smem_tmap_box_bytes(&t);
    /* the destination and its mbarrier: shared::cluster addresses; .multicast::cluster: the same
       offsets in every CTA of ctaMask (the operand after the barrier), each barrier completing
       the box's bytes */
    uint32_t dst, bar, mask = 0;
    struct block *to, *tb;
    r = emu_lane_cluster(b, w, l, pc, &in->ops[0], 1, &to, &dst, name);
    if (r > 0)
        r = emu_lane_cluster(b, w, l, pc, &in->ops[2 + t.rank], 8, &tb, &bar, name);
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "tensor copy destination");
        return r;
    }
    if (tb != to)
        return emu_failf(b, pc, "%s: the destination and the mbarrier are in two CTAs (ranks %u "
                         "and %u)", name, to->rank, tb->rank);
    if (in->tflags & SMEM_TF_MULTICAST) {
        int k = 1;
        if (in->nops < 4 + t.rank)
            return emu_failf(b, pc, "%s.multicast::cluster: the ctaMask operand is missing", name);
        uint64_t m = emu_lane_val(b, w, l, &in->ops[3 + t.rank], &k);
        if (!k) {
            emu_stop_unknown(b, pc, "multicast ctaMask");
            return 0;
        }
        mask = (uint32_t)(m & 0xffffu);
        if (mask >> b->cl->n)
            return emu_failf(b, pc, "%s.multicast::cluster: ctaMask 0x%x names a rank outside the "
                             "cluster (%u block%s)", name, mask, b->cl->n, b->cl->n == 1 ? "" : "s");
    } else {
        mask = 1u << to->rank;
    }
    uint64_t adst = (uint64_t)dst + SHARED_WINDOW_BASE;
    for (uint32_t rk = 0; rk < b->cl->n; rk++) {
        if (!(mask >> rk & 1u))
            continue;
        to = &b->cl->cta[rk];
        if (to->gone)
            return emu_remote_fault(b, w * 32 + l, pc, (uint64_t)(rk + 1) * CLUSTER_STEP + adst,
                                    1, -4);
        if (box_inside(to, pc, name, adst, smem_tmap_box_footprint(&t), "destination") < 0)
            return -1;
        if (!to->tma_sw) {
            to->tma_sw = calloc(to->smem_size / 16 + 1, 1);
            to->tma_pc = calloc(to->smem_size / 16 + 1, sizeof *to->tma_pc);
            to->tma_sum = calloc(to->smem_size / 16 + 1, sizeof *to->tma_sum);
            if (!to->tma_sw || !to->tma_pc || !to->tma_sum)
                return emu_fail(b, pc, "out of memory");
        }
        struct copy x = {b, to, w, l, pc, in, &t, adst, smem_tmap_elem_bytes(t.dtype)};
        if (each_elem(&t, c, load_elem, &x) < 0)
            return -1;
        if ((r = emu_mbarrier_complete_tx(b, to, pc, bar, (uint32_t)bytes, name)) <= 0)
            return r;
    }
    return 1;
}

/* Lane l's store. 1 done, 0 stopped, -1 failed. */
static int tma_s2g(struct block *b, uint32_t w, uint32_t l, uint32_t pc, const struct smem_ptx_insn *in,
                   const char *name)
{
    struct smem_tensormap t;
    int32_t c[SMEM_TMAP_MAX_RANK];
    int r = tma_setup(b, w, l, pc, in, 0, name, &t, c);
    if (r <= 0)
        return r;
    if ((in->tflags & SMEM_TF_REDUCE) && !red_allowed(in->redop, t.dtype))
        return emu_failf(b, pc, "%s.%s: the tensor map's element type %s has no .%s (the PTX ISA: "
                         "add on u32 s32 u64 f32 f16 bf16; min, max on u32 s32 u64 s64 f16 bf16; "
                         "inc, dec on u32; and, or, xor on 32- and 64-bit integers)", name,
                         red_name(in->redop), smem_tmap_dtype_name(t.dtype), red_name(in->redop));
    struct smem_ptx_insn sh = *in;
    sh.space = SP_SHARED;
    uint32_t src;
    r = emu_lane_shared(b, w, l, pc, &sh, &in->ops[1 + t.rank], 1, 1, &src, name);
    if (r <= 0) {
        if (r == 0)
            emu_stop_unknown(b, pc, "tensor copy source");
        return r;
    }
    uint64_t asrc = (uint64_t)src + SHARED_WINDOW_BASE;
    if (box_inside(b, pc, name, asrc, smem_tmap_box_footprint(&t), "source") < 0)
        return -1;
    if (!b->gm)
        return 1; /* analyze: global memory is not modelled */
    struct copy x = {b, b, w, l, pc, in, &t, asrc, smem_tmap_elem_bytes(t.dtype)};
    return each_elem(&t, c, store_elem, &x) < 0 ? -1 : 1;
}

int emu_tma_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    const char *name = smem_ptx_tensor_name(in);
    if (in->tflags & SMEM_TF_IM2COL)
        return emu_failf(b, pc, "unsupported instruction: %s.im2col (im2col tensor copies are "
                         "not emulated)", name);
    if (in->mode == MODE_BULK_TENSOR)
        return emu_failf(b, pc, "unsupported instruction: %s in this direction (only global -> "
                                "shared::cluster and shared::cta -> global exist)", name);
    if (in->mode == MODE_BULK_TENSOR_PREFETCH)
        return 1; /* a hint to L2: nothing */
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        int r = in->mode == MODE_BULK_TENSOR_G2S ? tma_g2s(b, w, l, pc, in, name)
                                                 : tma_s2g(b, w, l, pc, in, name);
        if (r <= 0)
            return r < 0 ? -1 : 1;
    }
    return 1;
}
