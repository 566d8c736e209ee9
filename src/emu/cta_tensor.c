/* cta_tensor.c: the tensor-core era instructions of the CTA emulator, a warp at a time:
 *  - ldmatrix / stmatrix .m8n8 .x1/.x2/.x4 {.trans} .b16: lanes 0 .. 8*count-1 give the rows'
 *    shared addresses, every lane receives (gives) its fragment as the PTX ISA lays it out
 *    (smem_matrix_element, model/matrix.h); one request a warp (op ldsm / stsm), priced by
 *    model/matrix.c;
 *  - mma.sync.aligned .m16n8k16 / .m16n8k8 f16 and bf16 (f32 or f16 accumulators), .m16n8k8 /
 *    .m16n8k4 tf32, .m16n8k32 / .m16n8k16 s8 / u8 (s32): the warp's fragments gathered into A, B
 *    and C, D computed, scattered back. Integers exactly (wrapping, or clamped with .satfinite).
 *    Floating point: every product is exact in double; D[i][j] = C[i][j] + the products in
 *    ascending k, summed in double, rounded once to the accumulator's type (to nearest even).
 *    The H100's tensor cores sum with less precision: results may differ from it in the last
 *    bits of an f32 (docs/emulator.md); tf32 operands keep their 19 high bits;
 *  - cp.async: the copy itself is the lane path's (exec_mem: done at once); here its request
 *    (op ldgsts) learns each lane's global source and .cg, which its cost depends on;
 *  - mbarrier init / inval / arrive / arrive_drop / expect_tx / complete_tx / test_wait /
 *    try_wait / pending_count and cp.async.mbarrier.arrive{.noinc}: the barrier is an 8-byte
 *    object in shared memory (the encoding below is ours: a program reads it only through these
 *    instructions); a thread whose wait finds its phase incomplete waits (L_MBAR) until the
 *    phase completes (emu_tensor_wake), so a spinning loop costs no steps, and a block whose
 *    live threads all wait on phases that cannot complete stops with a located message;
 *  - wmma: refused with its line (the emulator does not run it: use mma.sync).
 * TMA (cp.async.bulk) and wgmma never reach here: the parser refuses them per function. */
#include "cta_internal.h"

#include <stdio.h>
#include <stdlib.h>

#include "smemlab/model/matrix.h"

/* a thread's cp.async copy not yet waited for: where it lands, in which of its groups */
struct copy {
    uint32_t site, off, group;
    uint8_t width;
};
struct copies {
    struct copy *v;
    uint32_t n, cap;
    uint32_t committed; /* groups committed so far (a copy's group: the count when issued) */
};

struct emu_tensor {
    uint32_t n;
    uint32_t *wait_off; /* per thread in L_MBAR: the barrier's shared offset */
    uint8_t *wait_par;  /* ... and the parity of the phase it waits to see completed */
    int32_t *wait_pred; /* ... and the predicate its wait sets when it wakes */
    struct copies *cp;  /* per thread */
    struct copy *scratch; /* the copies that land at one wait of a warp */
    uint32_t cap_scratch;
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

static uint64_t lane_val(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_operand *o,
                         int *known);

static int tensor_state(struct block *b)
{
    if (b->tensor && b->tensor->n >= b->nthreads)
        return 0;
    emu_tensor_free(b);
    struct emu_tensor *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->wait_off = calloc(b->nthreads, sizeof *t->wait_off);
    t->wait_par = calloc(b->nthreads, 1);
    t->wait_pred = calloc(b->nthreads, sizeof *t->wait_pred);
    t->cp = calloc(b->nthreads, sizeof *t->cp);
    t->n = b->nthreads;
    b->tensor = t;
    return t->wait_off && t->wait_par && t->wait_pred && t->cp ? 0 : -1;
}

void emu_tensor_free(struct block *b)
{
    if (!b->tensor)
        return;
    free(b->tensor->wait_off);
    free(b->tensor->wait_par);
    free(b->tensor->wait_pred);
    for (uint32_t i = 0; b->tensor->cp && i < b->tensor->n; i++)
        free(b->tensor->cp[i].v);
    free(b->tensor->cp);
    free(b->tensor->scratch);
    free(b->tensor);
    b->tensor = NULL;
}

void emu_tensor_reset(struct block *b)
{
    /* the waits are per lane state (L_MBAR), cleared with it; the copies in flight: none */
    for (uint32_t i = 0; b->tensor && b->tensor->cp && i < b->tensor->n; i++)
        b->tensor->cp[i].n = b->tensor->cp[i].committed = 0;
}

/* ---- cp.async groups: a copy is done at once, but for the hazards its bytes land when its
 * thread waits for it (cp.async.wait_group / wait_all / cp.async.mbarrier.arrive): a write by
 * that thread then, in that barrier interval, so an access by another thread before the barrier
 * that publishes it is a race, as one before the wait is ---- */

static void copy_issued(struct block *b, uint32_t tid, uint32_t site, uint32_t off, uint8_t width)
{
    struct copies *q = &b->tensor->cp[tid];
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
    struct emu_tensor *t = b->tensor;
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
            else
                sp[nland[l]++] = q->v[i];
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
    if (tensor_state(b))
        return emu_fail(b, pc, "out of memory");
    uint32_t upto[32];
    for (uint32_t l = 0; l < 32; l++) {
        upto[l] = 0;
        if (!(ex >> l & 1u))
            continue;
        struct copies *q = &b->tensor->cp[w * 32 + l];
        if (in->mode == MODE_CPA_COMMIT) {
            q->committed++;
            ex &= ~(1u << l);
        } else if (in->mode == MODE_CPA_WAIT_ALL) {
            q->committed++;
            upto[l] = UINT32_MAX;
        } else { /* wait_group N: all but the N most recent committed groups */
            int known = 1;
            uint64_t n = in->nops ? lane_val(b, w, l, &in->ops[0], &known) : 0;
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

/* ---- operands of one lane ----------------------------------------------------------------- */

static uint64_t lane_val(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_operand *o,
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

static void lane_set(struct block *b, uint32_t w, uint32_t l, int32_t reg, uint64_t v, int known)
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
static int lane_shared(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
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

/* the lanes of warp w that exist (a partial last warp has fewer) */
static uint32_t warp_lanes(const struct block *b, uint32_t w)
{
    uint32_t n = b->nthreads - w * 32;
    return n >= 32 ? 0xffffffffu : (1u << n) - 1u;
}

static int whole_warp(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const char *what)
{
    if (ex == warp_lanes(b, w))
        return 0;
    char msg[200];
    snprintf(msg, sizeof msg, "%s executed by some lanes of warp %u only (lanes 0x%08x): .sync."
             "aligned needs every lane of the warp, converged", what, w, ex);
    return emu_fail(b, pc, msg);
}

/* Every request lanes ex of warp w just joined at site s: f(a) for each. */
static void each_request(struct block *b, uint32_t w, uint32_t s, uint32_t ex,
                         void (*f)(struct smem_access *a, uint32_t l, void *ctx), void *ctx)
{
    uint32_t ns = b->p->nsites, lastk = UINT32_MAX;
    struct smem_access *a = NULL;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        uint32_t kc = b->kcount[(size_t)(w * 32 + l) * ns + s];
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

/* ---- ldmatrix / stmatrix ------------------------------------------------------------------ */

static void set_count(struct smem_access *a, uint32_t l, void *ctx)
{
    (void)l;
    a->count = (uint8_t)(uintptr_t)ctx;
}

static int exec_matrix(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                       uint32_t ex)
{
    const char *name = in->op == PO_LDMATRIX ? "ldmatrix" : "stmatrix";
    char msg[200];
    if (in->shape_m != 8 || in->shape_n != 8 || in->type != PT_B16) {
        snprintf(msg, sizeof msg, "unsupported instruction: %s .m%un%u .%s (the emulator runs "
                 ".m8n8 .b16)", name, in->shape_m, in->shape_n, in->type == PT_B8 ? "b8" : "?");
        return emu_fail(b, pc, msg);
    }
    if (whole_warp(b, w, pc, ex, name))
        return -1;
    unsigned count = in->vec, rows = 8 * count;
    int trans = (in->tflags & SMEM_TF_TRANS) != 0;
    const struct smem_ptx_operand *mo = in->op == PO_LDMATRIX ? &in->ops[1] : &in->ops[0];
    const struct smem_ptx_operand *fr = in->op == PO_LDMATRIX ? &in->ops[0] : &in->ops[1];
    uint32_t off[32];
    for (uint32_t l = 0; l < 32 && l < rows; l++) {
        if (!(ex >> l & 1u))
            return emu_fail(b, pc, "ldmatrix/stmatrix: a lane that gives a row address is missing");
        int r = lane_shared(b, w, l, pc, in, mo, 16, 16, &off[l], name);
        if (r < 0)
            return -1;
        if (r == 0) {
            emu_stop_unknown(b, pc, "matrix row address");
            return 1;
        }
    }
    for (uint32_t l = rows; l < 32; l++)
        off[l] = off[l % rows]; /* their addresses are not used (measured): the rows again */
    if (b->p->site_of_insn[pc] != UINT32_MAX) {
        if (emu_warp_record(b, w, pc, ex, off))
            return -1;
        each_request(b, w, b->p->site_of_insn[pc], ex, set_count, (void *)(uintptr_t)count);
    }
    const struct smem_ptx_func *f = b->p->func;
    if (in->op == PO_LDMATRIX) {
        uint64_t val[4][32];
        uint32_t kn[4] = {0, 0, 0, 0};
        for (unsigned r = 0; r < count; r++)
            for (uint32_t l = 0; l < 32; l++) {
                if (!(ex >> l & 1u))
                    continue;
                uint32_t v = 0;
                int known = 1;
                for (unsigned h = 0; h < 2; h++) {
                    unsigned rl, byte;
                    smem_matrix_element(l, r, h, trans, &rl, &byte);
                    uint32_t at = off[rl] + byte;
                    v |= (uint32_t)(b->smem[at] | b->smem[at + 1] << 8) << (16 * h);
                    known = known && b->smem_known[at] && b->smem_known[at + 1];
                }
                val[r][l] = v;
                kn[r] |= (uint32_t)known << l;
            }
        uint64_t *R = b->R + (size_t)w * b->nregs * 32;
        uint32_t *K = b->K + (size_t)w * b->nregs;
        for (unsigned r = 0; r < count; r++) {
            int32_t reg = smem_ptx_vec_reg(f, fr, r);
            if (reg < 0)
                continue;
            uint64_t m = mask_bytes(TBYTES(f->reg_type[reg]));
            for (uint32_t l = 0; l < 32; l++)
                if (ex >> l & 1u)
                    R[(size_t)reg * 32 + l] = val[r][l] & m;
            K[reg] = (K[reg] & ~ex) | (kn[r] & ex);
        }
        return 1;
    }
    for (unsigned r = 0; r < count; r++) {
        int32_t reg = smem_ptx_vec_reg(f, fr, r);
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ex >> l & 1u))
                continue;
            const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
            const uint32_t *K = b->K + (size_t)w * b->nregs;
            uint64_t v = reg >= 0 ? R[(size_t)reg * 32 + l] : 0;
            int known = reg >= 0 && (K[reg] >> l & 1u);
            for (unsigned h = 0; h < 2; h++) {
                unsigned rl, byte;
                smem_matrix_element(l, r, h, trans, &rl, &byte);
                uint32_t at = off[rl] + byte;
                b->smem[at] = (uint8_t)(v >> (16 * h));
                b->smem[at + 1] = (uint8_t)(v >> (16 * h + 8));
                b->smem_known[at] = b->smem_known[at + 1] = (uint8_t)known;
            }
        }
    }
    return 1;
}

/* ---- mma.sync ----------------------------------------------------------------------------- */

/* bits of one element of type t */
static unsigned elem_bits(unsigned t)
{
    switch (t) {
    case PT_F16: case PT_BF16: return 16;
    case PT_TF32: return 32;
    case PT_S8: case PT_U8: return 8;
    default: return 0;
    }
}

static double elem_value(unsigned t, uint32_t x)
{
    switch (t) {
    case PT_F16: return (double)half_to_float((uint16_t)x);
    case PT_BF16: return (double)bf16_to_float((uint16_t)x);
    case PT_TF32: return (double)f32_of(x & 0xffffe000u); /* the 19 bits a tf32 has */
    case PT_S8: return (double)(int8_t)x;
    default: return (double)(uint8_t)x;
    }
}

static int exec_mma(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                    uint32_t ex)
{
    unsigned ta = in->type2, tb = in->type3, tc = in->type4, td = in->type;
    unsigned M = in->shape_m, N = in->shape_n, Kd = in->shape_k, eb = elem_bits(ta);
    int fp = ta == PT_F16 || ta == PT_BF16 || ta == PT_TF32;
    int ok = M == 16 && N == 8 && ta == tb && eb &&
             (fp ? (td == PT_F32 || (td == PT_F16 && ta == PT_F16)) &&
                       (tc == PT_F32 || (tc == PT_F16 && ta == PT_F16))
                 : td == PT_S32 && tc == PT_S32 && (tb == PT_S8 || tb == PT_U8)) &&
             !(in->tflags & SMEM_TF_A_COL) && (in->tflags & SMEM_TF_B_COL) &&
             (eb == 16 ? Kd == 16 || Kd == 8 : eb == 32 ? Kd == 8 || Kd == 4 : Kd == 32 || Kd == 16);
    /* integer forms may mix s8 and u8 */
    if (!ok && M == 16 && N == 8 && (ta == PT_S8 || ta == PT_U8) && (tb == PT_S8 || tb == PT_U8) &&
        td == PT_S32 && tc == PT_S32 && (Kd == 32 || Kd == 16) && !(in->tflags & SMEM_TF_A_COL) &&
        (in->tflags & SMEM_TF_B_COL))
        ok = 1;
    if (!ok)
        return emu_fail(b, pc, "unsupported instruction: this mma.sync shape / type / layout is not "
                               "modelled (the emulator runs .m16n8k16 and .m16n8k8 f16/bf16 with "
                               "f32 or f16 accumulators, .m16n8k8 and .m16n8k4 tf32, .m16n8k32 "
                               "and .m16n8k16 s8/u8 with s32, .row.col)");
    if (whole_warp(b, w, pc, ex, "mma.sync"))
        return -1;
    const struct smem_ptx_func *f = b->p->func;
    unsigned epr = 32 / eb;                 /* elements a register */
    unsigned na = Kd / (2 * epr), nb = Kd / (4 * epr), step = 4 * epr;
    unsigned cw = tc == PT_F16 ? 2 : 4, dw = td == PT_F16 ? 2 : 4; /* C, D registers a lane */
    const struct smem_ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2],
                                  *oc = &in->ops[3];
    if (oa->count != na || ob->count != nb || oc->count != cw || od->count != dw)
        return emu_fail(b, pc, "mma.sync: the fragments have the wrong number of registers for "
                               "the shape and types");
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    int32_t ra[8], rb[4], rc[4], rd[4];
    uint32_t kn = 0xffffffffu;
    for (unsigned r = 0; r < na; r++)
        if ((ra[r] = smem_ptx_vec_reg(f, oa, r)) >= 0)
            kn &= K[ra[r]];
    for (unsigned r = 0; r < nb; r++)
        if ((rb[r] = smem_ptx_vec_reg(f, ob, r)) >= 0)
            kn &= K[rb[r]];
    for (unsigned r = 0; r < cw; r++)
        if ((rc[r] = smem_ptx_vec_reg(f, oc, r)) >= 0)
            kn &= K[rc[r]];
    for (unsigned r = 0; r < dw; r++)
        rd[r] = smem_ptx_vec_reg(f, od, r);
    int known = kn == 0xffffffffu; /* D mixes every lane's operands: known only if all are */
    for (unsigned r = 0; r < na; r++)
        known = known && ra[r] >= 0;
    for (unsigned r = 0; r < nb; r++)
        known = known && rb[r] >= 0;
    for (unsigned r = 0; r < cw; r++)
        known = known && rc[r] >= 0;
    uint64_t out[4][32];
    if (fp) {
        /* A, B and C as doubles (exact), D = C + sum over k ascending, rounded once */
        double A[16][16], B[16][8], C[16][8];
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned r = 0; r < na; r++) {
                uint32_t x = ra[r] >= 0 ? (uint32_t)R[(size_t)ra[r] * 32 + l] : 0;
                for (unsigned e = 0; e < epr; e++)
                    A[g + 8 * (r & 1)][epr * t + e + step * (r >> 1)] =
                        elem_value(ta, eb == 32 ? x : x >> (16 * e) & 0xffffu);
            }
            for (unsigned r = 0; r < nb; r++) {
                uint32_t x = rb[r] >= 0 ? (uint32_t)R[(size_t)rb[r] * 32 + l] : 0;
                for (unsigned e = 0; e < epr; e++)
                    B[epr * t + e + step * r][g] = elem_value(tb, eb == 32 ? x : x >> (16 * e) & 0xffffu);
            }
            for (unsigned i = 0; i < 4; i++) { /* c0..c3: (g + 8 (i / 2), 2t + i % 2) */
                int32_t reg = rc[tc == PT_F16 ? i / 2 : i];
                uint64_t x = reg >= 0 ? R[(size_t)reg * 32 + l] : 0;
                C[g + 8 * (i >> 1)][2 * t + (i & 1)] =
                    tc == PT_F16 ? (double)half_to_float((uint16_t)(x >> (16 * (i & 1))))
                                 : (double)f32_of(x);
            }
        }
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            out[0][l] = out[1][l] = 0;
            for (unsigned i = 0; i < 4; i++) {
                unsigned row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
                double sum = 0;
                for (unsigned k = 0; k < Kd; k++)
                    sum += A[row][k] * B[k][col];
                sum += C[row][col];
                if (td == PT_F16) {
                    out[i / 2][l] |= (uint64_t)float_to_half((float)sum) << (16 * (i & 1));
                } else {
                    float r = (float)sum;
                    out[i][l] = r != r ? 0x7fffffffu : bits_f32(r);
                }
            }
        }
    } else {
        /* integers: exact, in 64 bits; the s32 result wraps, or clamps with .satfinite */
        int32_t A[16][32], B[32][8];
        int64_t C[16][8];
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned r = 0; r < na; r++) {
                uint32_t x = ra[r] >= 0 ? (uint32_t)R[(size_t)ra[r] * 32 + l] : 0;
                for (unsigned e = 0; e < 4; e++) {
                    uint32_t v = x >> (8 * e) & 0xffu;
                    A[g + 8 * (r & 1)][4 * t + e + 16 * (r >> 1)] = ta == PT_S8 ? (int8_t)v : (int32_t)v;
                }
            }
            for (unsigned r = 0; r < nb; r++) {
                uint32_t x = rb[r] >= 0 ? (uint32_t)R[(size_t)rb[r] * 32 + l] : 0;
                for (unsigned e = 0; e < 4; e++) {
                    uint32_t v = x >> (8 * e) & 0xffu;
                    B[4 * t + e + 16 * r][g] = tb == PT_S8 ? (int8_t)v : (int32_t)v;
                }
            }
            for (unsigned i = 0; i < 4; i++)
                C[g + 8 * (i >> 1)][2 * t + (i & 1)] =
                    rc[i] >= 0 ? (int32_t)(uint32_t)R[(size_t)rc[i] * 32 + l] : 0;
        }
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned i = 0; i < 4; i++) {
                unsigned row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
                int64_t sum = C[row][col];
                for (unsigned k = 0; k < Kd; k++)
                    sum += (int64_t)A[row][k] * B[k][col];
                if (in->mods & SMEM_MOD_SATFINITE)
                    sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
                out[i][l] = (uint32_t)sum;
            }
        }
    }
    for (unsigned r = 0; r < dw; r++) {
        if (rd[r] < 0)
            continue;
        uint64_t m = mask_bytes(TBYTES(f->reg_type[rd[r]]));
        for (uint32_t l = 0; l < 32; l++)
            R[(size_t)rd[r] * 32 + l] = out[r][l] & m;
        K[rd[r]] = known ? 0xffffffffu : 0;
    }
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
    if (!((a->unknown | a->oob) >> l & 1u))
        copy_issued(c->b, c->w * 32 + l, a->site, a->addr[l], a->width);
}

static int exec_cp_async(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                         uint32_t ex)
{
    if (tensor_state(b))
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
        each_request(b, w, s, ex, set_src, &c);
    }
    return 1;
}

/* ---- mbarrier ----------------------------------------------------------------------------- */

static int mbar_read(struct block *b, uint32_t pc, uint32_t off, uint64_t *s, const char *name)
{
    for (unsigned i = 0; i < 8; i++)
        if (!b->smem_known[off + i]) {
            emu_stop_unknown(b, pc, "mbarrier state");
            return 0;
        }
    memcpy(s, b->smem + off, 8);
    if (!(*s & MB_INIT)) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s on an mbarrier that is not initialised (shared offset 0x%x: "
                 "mbarrier.init first)", name, off);
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
    if ((old & MB_INIT) && (s & MB_INIT) && ((old ^ s) & MB_PHASE))
        b->interval++; /* a phase completed: for the hazards, as a barrier (docs/analyzer.md) */
}

static int exec_mbarrier(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                         uint32_t ex, int cp_arrive)
{
    const char *name = cp_arrive ? "cp.async.mbarrier.arrive" : smem_ptx_tensor_name(in);
    char msg[200];
    if (!cp_arrive && (in->tflags & SMEM_TF_CLUSTER)) {
        snprintf(msg, sizeof msg, "unsupported instruction: %s on another block's barrier "
                 "(.shared::cluster / .cluster: clusters are not emulated)", name);
        return emu_fail(b, pc, msg);
    }
    if (!cp_arrive && in->mode == MODE_MBAR_PENDING_COUNT) {
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u) {
                int k = 1;
                uint64_t st = lane_val(b, w, l, &in->ops[1], &k);
                lane_set(b, w, l, in->ops[0].reg[0], mb_pend(st), k);
            }
        return 1;
    }
    if (tensor_state(b))
        return emu_fail(b, pc, "out of memory");
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
        int r = lane_shared(b, w, l, pc, &sh, mo, 8, 8, &off, name);
        if (r < 0)
            return -1;
        if (r == 0) {
            emu_stop_unknown(b, pc, "mbarrier address");
            return 1;
        }
        uint64_t s = 0;
        int k = 1;
        if (!cp_arrive && in->mode == MODE_MBAR_INIT) {
            uint64_t cnt = lane_val(b, w, l, &in->ops[1], &k);
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
        if ((r = mbar_read(b, pc, off, &s, name)) <= 0) {
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
            mbar_write(b, off, mb_settle(mb_make(mb_pend(s) - 1, mb_exp(s), mb_tx(s),
                                                 s & (MB_INIT | MB_PHASE))));
            continue;
        }
        switch (in->mode) {
        case MODE_MBAR_EXPECT_TX: case MODE_MBAR_COMPLETE_TX: {
            uint64_t n = lane_val(b, w, l, &in->ops[1], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "mbarrier transaction count");
                return 1;
            }
            int32_t tx = mb_tx(s) + (in->mode == MODE_MBAR_EXPECT_TX ? (int32_t)n : -(int32_t)n);
            uint64_t ns = mb_make(mb_pend(s), mb_exp(s), tx, s & (MB_INIT | MB_PHASE));
            mbar_write(b, off, in->mode == MODE_MBAR_COMPLETE_TX ? mb_settle(ns) : ns);
            break;
        }
        case MODE_MBAR_ARRIVE: case MODE_MBAR_ARRIVE_DROP: {
            uint32_t cnt = 1;
            int32_t tx = mb_tx(s);
            if (in->nops >= 3) {
                uint64_t v = lane_val(b, w, l, &in->ops[2], &k);
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
            mbar_write(b, off, ns);
            /* the state: the phase arrived on (and the pending count after the arrival) */
            if (in->ops[0].kind == OPK_REG)
                lane_set(b, w, l, in->ops[0].reg[0], (s & MB_PHASE) | mb_pend(ns), 1);
            break;
        }
        case MODE_MBAR_TEST_WAIT: case MODE_MBAR_TRY_WAIT: {
            uint64_t v = lane_val(b, w, l, &in->ops[2], &k);
            if (!k) {
                emu_stop_unknown(b, pc, "mbarrier phase");
                return 1;
            }
            unsigned par = in->tflags & SMEM_TF_PARITY ? (unsigned)(v & 1u) : (unsigned)(v >> 63);
            unsigned cur = (unsigned)(s >> 63);
            if (cur != par) { /* the phase waited for has completed */
                lane_set(b, w, l, in->ops[0].reg[0], 1, 1);
            } else if (in->mode == MODE_MBAR_TRY_WAIT) {
                /* not yet: the thread is suspended here until it completes (emu_tensor_wake);
                   try_wait may suspend it so, the time limit never running out first */
                b->T[w * 32 + l].state = L_MBAR;
                b->T[w * 32 + l].pc = pc;
                b->tensor->wait_off[w * 32 + l] = off;
                b->tensor->wait_par[w * 32 + l] = (uint8_t)par;
                b->tensor->wait_pred[w * 32 + l] = in->ops[0].reg[0];
            } else {
                /* test_wait never blocks: false, and the thread lets the others run first (a
                   loop polling it then costs a round, not the whole step budget) */
                lane_set(b, w, l, in->ops[0].reg[0], 0, 1);
                b->T[w * 32 + l].state = L_MBAR;
                b->T[w * 32 + l].pc = pc + 1;
                b->tensor->wait_off[w * 32 + l] = off;
                b->tensor->wait_par[w * 32 + l] = WAIT_YIELD;
            }
            break;
        }
        default:
            return emu_fail(b, pc, "unsupported mbarrier operation");
        }
    }
    return 1;
}

int emu_tensor_wake(struct block *b)
{
    uint32_t woke = 0, waiting = 0, atbar = 0, first = UINT32_MAX;
    for (uint32_t t = 0; t < b->nthreads; t++) {
        struct lane *T = &b->T[t];
        if (T->state == L_BAR)
            atbar++;
        if (T->state != L_MBAR)
            continue;
        uint32_t off = b->tensor->wait_off[t];
        uint64_t s;
        memcpy(&s, b->smem + off, 8);
        if (b->tensor->wait_par[t] == WAIT_YIELD) {
            T->state = L_RUN; /* polled test_wait: it goes on */
            woke++;
        } else if ((s & MB_INIT) && (unsigned)(s >> 63) != b->tensor->wait_par[t]) {
            /* its phase completed: the wait returns true now (run again later, it could find
               the barrier a phase further, of the same parity) */
            T->state = L_RUN;
            lane_set(b, t / 32, t % 32, b->tensor->wait_pred[t], 1, 1);
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
    if (!waiting || atbar)
        return 0; /* a barrier may release (else release_barrier names the deadlock) */
    uint32_t off = b->tensor->wait_off[first];
    uint64_t s;
    memcpy(&s, b->smem + off, 8);
    char msg[300];
    snprintf(msg, sizeof msg, "deadlock: every live thread waits on an mbarrier phase that cannot "
             "complete (%u threads; thread %u waits on the barrier at shared offset 0x%x for the "
             "phase of parity %u, which still expects %u arrivals and %d transaction bytes)",
             waiting, first, off, b->tensor->wait_par[first], mb_pend(s), mb_tx(s));
    return emu_fail(b, b->T[first].pc, msg);
}

/* ---- dispatch ----------------------------------------------------------------------------- */

int emu_tensor_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                    uint32_t ex)
{
    switch (in->op) {
    case PO_LDMATRIX: case PO_STMATRIX:
        return exec_matrix(b, w, pc, in, ex);
    case PO_MMA:
        return exec_mma(b, w, pc, in, ex);
    case PO_MBARRIER:
        return exec_mbarrier(b, w, pc, in, ex, 0);
    case PO_CP_ASYNC:
        return exec_cp_async(b, w, pc, in, ex);
    case PO_CP_ASYNC_WAIT:
        if (in->mode == MODE_CPA_MBAR_ARRIVE)
            return exec_mbarrier(b, w, pc, in, ex, 1);
        return exec_groups(b, w, pc, in, ex); /* the copies are done already: they land */
    case PO_WMMA: {
        char msg[200];
        snprintf(msg, sizeof msg, "unsupported instruction: %s (the emulator does not run wmma; "
                 "mma.sync, ldmatrix and stmatrix it does)", smem_ptx_tensor_name(in));
        return emu_fail(b, pc, msg);
    }
    default:
        return 0;
    }
}
