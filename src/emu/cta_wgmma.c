/* cta_wgmma.c: wgmma (sm_90a), the warpgroup's matrix product, in the CTA emulator (the handler
 * emu_exec_wgmma that opcodes.def names).
 *  - A warpgroup is warps 4k .. 4k+3 of the block; .sync.aligned: each of its warps, converged,
 *    reaches the same wgmma.mma_async. The first three to arrive wait there (L_WGMMA); the
 *    fourth computes the product for all four and lets them go on. The product is complete
 *    when the instruction is, so commit_group / wait_group have nothing left to wait for, and
 *    wgmma.fence nothing to order.
 *  - A and B are read from shared memory through their matrix descriptors as the hardware
 *    decodes them: start address bits 0-13 (x16, a shared::cta address), LBO bits 16-29, SBO
 *    bits 32-45 (x16), layout type bits 62-63 (0 none, 1 128B, 2 64B, 3 32B swizzle); element
 *    (r, k) of a K-major operand (r along M or N) at S + (r%8)*W + (r/8)*SBO + k*e (swizzled, W
 *    bytes), S + (r%8)*16 + (r/8)*SBO + (k*e)%16 + (k*e/16)*LBO (none); of an MN-major one
 *    (imm-trans 1) at S + (r*e)%W + (r*e/W)*LBO + (k%8)*W + (k/8)*SBO (swizzled), S + (r*e)%16 +
 *    (r*e/16)*SBO + (k%8)*16 + (k/8)*LBO (none); then the swizzle XORs address bits [7, 7+b)
 *    into [4, 4+b) (b = 3, 2, 1) of the absolute shared address, less the base offset (bits
 *    49-51): addr ^ ((((addr >> 7) - base_offset) & (2^b - 1)) << 4). A K-major swizzled
 *    operand's LBO is not used. A from registers: the PTX ISA's fragments. Evidence:
 *    tests/run/wgmma.cu on an H200, bit for bit (the base offset: two cases, 128B and 64B).
 *  - Its reads: a request a warp (op gmma: shared_gmma), and the 16-byte chunks read as
 *    `landed` reads for the hazards; commit_group a request a warp with none, unless it follows
 *    a wgmma.mma_async at once (after_mma).
 *  - The checks of what it reads: the layout check (check_layout: a TMA's swizzle other than the
 *    descriptor's) and the proxy-fence check (check_fence: bytes a generic-proxy write left with
 *    no fence.proxy.async of its thread since; request.c keeps the record).
 *  - Sums: f16 / bf16 / tf32 as one HMMA block of the K products and C (emu/tc_numeric.c);
 *    e4m3 / e5m2 (through their f16 values, exact) as one QGMMA block: 13 fraction bits, not 25
 *    (smem_tc_block_qgmma); s8 / u8 exactly (s32 wraps, or clamps with .satfinite). */
#include "families.h"
#include "lanes.h"
#include "request.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smemlab/emu/tc_numeric.h"
#include "smemlab/model/tensormap.h"

enum { WG_THREADS = 128 };

/* bytes of one element of type t, 0 for a type wgmma does not take */
static unsigned ebytes(unsigned t)
{
    switch (t) {
    case PT_F16: case PT_BF16: return 2;
    case PT_TF32: return 4;
    case PT_E4M3: case PT_E5M2: case PT_S8: case PT_U8: return 1;
    default: return 0;
    }
}

static int is_int8(unsigned t) { return t == PT_S8 || t == PT_U8; }
static int is_fp8(unsigned t) { return t == PT_E4M3 || t == PT_E5M2; }

/* The form's immediates: how many the PTX ISA writes after scale-d (SS form; RS has no
 * imm-trans-a). */
static unsigned nimm(unsigned ta, int rs)
{
    if (ta == PT_F16 || ta == PT_BF16)
        return rs ? 3 : 4;
    if (ta == PT_TF32 || is_fp8(ta))
        return 2;
    return 0;
}

/* NULL when the emulator runs this form, else why not */
static const char *unsupported(const struct smem_ptx_insn *in)
{
    unsigned td = in->type, ta = in->type2, tb = in->type3, N = in->shape_n, K = in->shape_k;
    if (ta == PT_B1 || (in->tflags & SMEM_TF_AND_POPC))
        return "the b1 form (.m64nNk256 .and.popc) is not modelled";
    int ok;
    if (ta == PT_F16 || ta == PT_BF16)
        ok = tb == ta && K == 16 && (td == PT_F32 || (td == PT_F16 && ta == PT_F16));
    else if (ta == PT_TF32)
        ok = tb == PT_TF32 && K == 8 && td == PT_F32;
    else if (is_fp8(ta))
        ok = is_fp8(tb) && K == 32 && (td == PT_F32 || td == PT_F16);
    else if (is_int8(ta))
        ok = is_int8(tb) && K == 32 && td == PT_S32 && (N <= 24 || N % 16 == 0);
    else
        ok = 0;
    if (!ok)
        return "no such shape / type combination in the PTX ISA (f16/bf16 k16 with f32 or f16 "
               "(f16 inputs) D, tf32 k8 f32, e4m3/e5m2 k32 f32 or f16, s8/u8 k32 s32)";
    if ((in->mods & SMEM_MOD_SATFINITE) && !is_int8(ta))
        return ".satfinite is an integer form's";
    return NULL;
}

/* A decoded matrix descriptor */
struct desc {
    uint32_t start, lbo, sbo, bo, W;
};

static struct desc decode(uint64_t d)
{
    static const uint32_t width[4] = {0, 128, 64, 32};
    struct desc x;
    x.start = (uint32_t)(d & 0x3fffu) << 4;
    x.lbo = (uint32_t)(d >> 16 & 0x3fffu) << 4;
    x.sbo = (uint32_t)(d >> 32 & 0x3fffu) << 4;
    x.bo = (uint32_t)(d >> 49 & 7u);
    x.W = width[d >> 62];
    return x;
}

/* the absolute shared address of element (r, k) (r along M or N) of the operand d describes */
static uint32_t elem_addr(const struct desc *d, int mn, uint32_t r, uint32_t k, uint32_t e)
{
    uint32_t pre;
    if (!mn) {
        uint32_t kb = k * e;
        pre = d->W ? d->start + (r % 8) * d->W + (r / 8) * d->sbo + kb
                   : d->start + (r % 8) * 16 + (r / 8) * d->sbo + kb % 16 + (kb / 16) * d->lbo;
    } else {
        uint32_t xb = r * e;
        pre = d->W ? d->start + xb % d->W + (xb / d->W) * d->lbo + (k % 8) * d->W + (k / 8) * d->sbo
                   : d->start + xb % 16 + (xb / 16) * d->sbo + (k % 8) * 16 + (k / 8) * d->lbo;
    }
    uint32_t mask = d->W == 128 ? 7 : d->W == 64 ? 3 : d->W == 32 ? 1 : 0;
    return pre ^ ((((pre >> 7) - d->bo) & mask) << 4);
}

/* The descriptor in register operand o, the same in every thread of warpgroup g: 1 ok, 0
 * unknown (stopped), -1 failed. */
static int group_desc(struct block *b, uint32_t g, uint32_t pc, const struct smem_ptx_operand *o,
                      const char *which, uint64_t *out)
{
    for (uint32_t t = 0; t < WG_THREADS; t++) {
        int known = 1;
        uint64_t v = emu_lane_val(b, 4 * g + t / 32, t % 32, o, &known);
        if (!known) {
            emu_stop_unknown(b, pc, "wgmma matrix descriptor");
            return 0;
        }
        if (t == 0)
            *out = v;
        else if (v != *out)
            return emu_failf(b, pc, "wgmma.mma_async: %s's matrix descriptor differs between threads "
                                     "of warpgroup %u (0x%016llx in thread %u, 0x%016llx in thread "
                                     "%u): the PTX ISA requires the same descriptor in all of them",
                             which, g, (unsigned long long)*out, 128 * g,
                             (unsigned long long)v, 128 * g + t);
    }
    return 1;
}

/* Reads an rows x K operand (type t) through descriptor d into x[r * K + k] (bits), known[0]
 * cleared where a byte was not written; 0 or -1 (an element outside the shared memory). */
static int read_operand(struct block *b, uint32_t pc, uint64_t raw, int mn, unsigned t, uint32_t rows,
                        uint32_t K, const char *which, uint32_t *x, int *known, uint8_t *chunks)
{
    struct desc d = decode(raw);
    uint32_t e = ebytes(t);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t k = 0; k < K; k++) {
            uint32_t a = elem_addr(&d, mn, r, k, e), v = 0;
            if (a < SHARED_WINDOW_BASE || (uint64_t)a - SHARED_WINDOW_BASE + e > b->smem_size)
                return emu_failf(b, pc, "wgmma.mma_async: %s's matrix descriptor 0x%016llx (start 0x%x, "
                                         "LBO %u, SBO %u, %s%s, %s-major) reads element (%u, %u) at "
                                         "shared address 0x%x, outside the block's shared memory "
                                         "(0x%x .. 0x%x)",
                                 which, (unsigned long long)raw, d.start, d.lbo, d.sbo,
                                 d.W ? (d.W == 128 ? "128" : d.W == 64 ? "64" : "32") : "no",
                                 d.W ? "-byte swizzle" : " swizzle", mn ? "MN" : "K", r, k, a,
                                 SHARED_WINDOW_BASE, SHARED_WINDOW_BASE + b->smem_size);
            uint32_t off = a - SHARED_WINDOW_BASE;
            if (chunks)
                chunks[off / 16] = 1;
            for (uint32_t i = 0; i < e; i++) {
                v |= (uint32_t)b->smem[off + i] << (8 * i);
                *known = *known && b->smem_known[off + i];
            }
            x[r * K + k] = v;
        }
    return 0;
}

/* The layout check: the first element of the operand descriptor raw describes whose 16-byte
 * chunk a TMA load wrote with another swizzle, where the two swizzles put the element's bytes
 * differently, reported (struct smem_cta_layout) once for the operand. A chunk whose bytes were
 * changed since by other means (st.shared, cp.async, a bulk copy) carries no record. */
static void check_layout(struct block *b, uint32_t pc, uint64_t raw, int mn, unsigned t, uint32_t rows,
                         uint32_t K, char which)
{
    if (!b->tma_sw || !b->h || !b->h->layout)
        return;
    struct desc d = decode(raw);
    unsigned rsw = smem_swizzle_from_wgmma((unsigned)(raw >> 62));
    uint32_t e = ebytes(t);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t k = 0; k < K; k++) {
            uint32_t a = elem_addr(&d, mn, r, k, e), off = a - SHARED_WINDOW_BASE;
            uint8_t w = b->tma_sw[off / 16];
            if (!w || w - 1u == rsw || smem_swizzle(a, w - 1u) == smem_swizzle(a, rsw) ||
                !emu_tma_current(b, off / 16))
                continue;
            struct smem_cta_layout ev = {b->bid, pc, b->tma_pc[off / 16], off & ~15u, which,
                                         (uint8_t)rsw, (uint8_t)mn, (uint8_t)(w - 1u)};
            b->h->layout(b->h->ctx, &ev);
            return;
        }
}

/* The proxy-fence check: the first byte of the operand (descriptor raw) whose last write was a
 * generic-proxy one its thread did not follow with fence.proxy.async (request.c's record),
 * reported (struct smem_cta_proxy_fence) once for the operand. */
static void check_fence(struct block *b, uint32_t pc, uint64_t raw, int mn, unsigned t, uint32_t rows,
                        uint32_t K, char which)
{
    if (!b->pf_pc || !b->h || !b->h->proxy_fence)
        return;
    struct desc d = decode(raw);
    uint32_t e = ebytes(t);
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t k = 0; k < K; k++) {
            uint32_t off = elem_addr(&d, mn, r, k, e) - SHARED_WINDOW_BASE, wpc, tid;
            for (uint32_t i = 0; i < e; i++)
                if (emu_pf_unfenced(b, off + i, &wpc, &tid)) {
                    struct smem_cta_proxy_fence ev = {b->bid, pc, wpc, tid, off + i, which};
                    b->h->proxy_fence(b->h->ctx, &ev);
                    return;
                }
        }
}

/* the sign bit of an element of type t */
static uint32_t sign_bit(unsigned t)
{
    return t == PT_TF32 ? 0x80000000u : ebytes(t) == 2 ? 0x8000u : 0x80u;
}

static unsigned tc_of(unsigned t)
{
    return t == PT_F16 ? SMEM_TC_F16 : t == PT_BF16 ? SMEM_TC_BF16 : t == PT_TF32 ? SMEM_TC_TF32
         : SMEM_TC_F32;
}

/* The 16-byte chunks (chunks[off / 16] set) a wgmma of warpgroup g read, for the hazards alone
 * (`landed` events: no request): 32 a warp, the warps of the group in turn, read where the
 * block's shared memory stood when the product was made. */
static void reads_landed(struct block *b, uint32_t g, uint32_t pc, const uint8_t *chunks)
{
    uint32_t s = b->p->site_of_insn[pc];
    if (s == UINT32_MAX)
        return;
    struct smem_access a;
    memset(&a, 0, sizeof a);
    unsigned n = 0, batch = 0;
    for (uint32_t c = 0; c <= b->smem_size / 16; c++) {
        if (chunks[c])
            a.addr[n++] = c * 16;
        if (n == 32 || (n && c == b->smem_size / 16)) {
            a.site = s;
            a.block = b->bid;
            a.warp = 4 * g + batch++ % 4;
            a.interval = b->interval;
            a.active = n == 32 ? 0xffffffffu : (1u << n) - 1;
            a.width = 16;
            a.op = SMEM_ACC_GMMA;
            a.landed = 1;
            b->h->access(b->h->ctx, &a);
            n = 0;
        }
    }
}

/* Warps 4g..4g+3 are all at pc: the product, their D registers written. */
static int run_product(struct block *b, uint32_t g, uint32_t pc, const struct smem_ptx_insn *in)
{
    const struct smem_ptx_func *f = b->p->func;
    unsigned td = in->type, ta = in->type2, tb = in->type3, N = in->shape_n, K = in->shape_k;
    const struct smem_ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2];
    int rs = oa->kind != OPK_REG, imm = 4;
    long sa = 1, sb = 1, tra = 0, trb = 0;
    if (ta == PT_F16 || ta == PT_BF16 || ta == PT_TF32 || is_fp8(ta)) {
        sa = (long)in->ops[imm++].imm;
        sb = (long)in->ops[imm++].imm;
    }
    if (ta == PT_F16 || ta == PT_BF16) {
        tra = rs ? 0 : (long)in->ops[imm++].imm;
        trb = (long)in->ops[imm++].imm;
    }
    unsigned e = ebytes(ta), dregs = td == PT_F16 ? N / 4 : N / 2;
    uint32_t *A = malloc(sizeof *A * 64 * K), *B = malloc(sizeof *B * N * K);
    uint32_t *out = malloc(sizeof *out * WG_THREADS * dregs);
    uint8_t *chunks = b->h && b->h->access ? calloc(b->smem_size / 16 + 1, 1) : NULL;
    int rc = -1, known = 1;
    if (!A || !B || !out || (b->h && b->h->access && !chunks)) {
        rc = emu_failf(b, pc, "out of memory");
        goto done;
    }
    /* scale-d: a predicate (or immediate), uniform over the warpgroup */
    int kd = 1;
    uint64_t scale_d = emu_lane_val(b, 4 * g, 0, &in->ops[3], &kd);
    known = known && kd;
    uint64_t da = 0, db;
    int r;
    if ((r = group_desc(b, g, pc, ob, "B", &db)) <= 0) {
        rc = r;
        goto done;
    }
    if (read_operand(b, pc, db, (int)trb, tb, N, K, "B", B, &known, chunks))
        goto done;
    check_layout(b, pc, db, (int)trb, tb, N, K, 'B');
    check_fence(b, pc, db, (int)trb, tb, N, K, 'B');
    if (!rs) {
        if ((r = group_desc(b, g, pc, oa, "A", &da)) <= 0) {
            rc = r;
            goto done;
        }
        if (read_operand(b, pc, da, (int)tra, ta, 64, K, "A", A, &known, chunks))
            goto done;
        check_layout(b, pc, da, (int)tra, ta, 64, K, 'A');
        check_fence(b, pc, da, (int)tra, ta, 64, K, 'A');
    } else { /* A's fragments: warp w of the group holds rows 16w .. 16w+15 */
        for (uint32_t t = 0; t < WG_THREADS; t++) {
            uint32_t w = t / 32, l = t % 32, wv = 4 * g + w;
            const uint64_t *R = b->R + (size_t)wv * b->nregs * 32;
            const uint32_t *Km = b->K + (size_t)wv * b->nregs;
            unsigned per = 4 / e; /* values a register */
            for (unsigned v = 0; v < 4 * per; v++) {
                int32_t reg = smem_ptx_vec_reg(f, oa, v / per);
                uint32_t x = reg >= 0 ? (uint32_t)R[(size_t)reg * 32 + l] : 0;
                known = known && reg >= 0 && (Km[reg] >> l & 1u);
                uint32_t m, k, val;
                if (e == 2) {
                    m = 16 * w + l / 4 + 8 * ((v / 2) % 2);
                    k = 2 * (l % 4) + v % 2 + 8 * (v / 4);
                    val = x >> (16 * (v % 2)) & 0xffffu;
                } else if (e == 4) {
                    m = 16 * w + l / 4 + 8 * (v % 2);
                    k = l % 4 + 4 * (v / 2);
                    val = x;
                } else {
                    m = 16 * w + l / 4 + 8 * ((v / 4) % 2);
                    k = 4 * (l % 4) + v % 4 + 16 * (v / 8);
                    val = x >> (8 * (v % 4)) & 0xffu;
                }
                A[m * K + k] = val;
            }
        }
    }
    /* C (the D registers as they are), every thread's, before any is written */
    for (uint32_t t = 0; t < WG_THREADS; t++) {
        uint32_t wv = 4 * g + t / 32, l = t % 32;
        const uint64_t *R = b->R + (size_t)wv * b->nregs * 32;
        const uint32_t *Km = b->K + (size_t)wv * b->nregs;
        for (unsigned i = 0; i < dregs; i++) {
            int32_t reg = smem_ptx_vec_reg(f, od, i);
            out[t * dregs + i] = reg >= 0 ? (uint32_t)R[(size_t)reg * 32 + l] : 0;
            if (scale_d)
                known = known && reg >= 0 && (Km[reg] >> l & 1u);
        }
    }
    if (sa < 0)
        for (uint32_t i = 0; i < 64 * K; i++)
            A[i] ^= sign_bit(ta);
    if (sb < 0)
        for (uint32_t i = 0; i < N * K; i++)
            B[i] ^= sign_bit(tb);
    if (is_fp8(ta)) /* through their f16 values, exactly */
        for (uint32_t i = 0; i < 64 * K; i++)
            A[i] = smem_tc_fp8_to_f16(A[i], ta == PT_E5M2);
    if (is_fp8(tb))
        for (uint32_t i = 0; i < N * K; i++)
            B[i] = smem_tc_fp8_to_f16(B[i], tb == PT_E5M2);
    unsigned tt = is_fp8(ta) ? SMEM_TC_F16 : tc_of(ta), ttd = tc_of(td);
    uint32_t col[32];
    for (uint32_t t = 0; t < WG_THREADS; t++) {
        uint32_t w = t / 32, l = t % 32;
        for (unsigned v = 0; v < N / 2; v++) { /* the thread's values */
            uint32_t m = 16 * w + l / 4 + 8 * ((v / 2) % 2), n = 8 * (v / 4) + 2 * (l % 4) + v % 2;
            unsigned reg = td == PT_F16 ? v / 2 : v, sh = td == PT_F16 ? 16 * (v % 2) : 0;
            uint32_t *slot = &out[t * dregs + reg];
            uint32_t c = td == PT_F16 ? *slot >> sh & 0xffffu : *slot, d;
            if (is_int8(ta)) {
                int64_t sum = scale_d ? (int32_t)c : 0;
                for (uint32_t k = 0; k < K; k++) {
                    int32_t x = ta == PT_S8 ? (int8_t)A[m * K + k] : (int32_t)A[m * K + k];
                    int32_t y = tb == PT_S8 ? (int8_t)B[n * K + k] : (int32_t)B[n * K + k];
                    sum += (int64_t)x * y;
                }
                if (in->mods & SMEM_MOD_SATFINITE)
                    sum = sum > INT32_MAX ? INT32_MAX : sum < INT32_MIN ? INT32_MIN : sum;
                d = (uint32_t)sum;
            } else {
                for (uint32_t k = 0; k < K; k++)
                    col[k] = B[n * K + k];
                d = is_fp8(ta) ? smem_tc_block_qgmma(tt, &A[m * K], tt, col, K, ttd, scale_d ? c : 0, ttd)
                               : smem_tc_block(tt, &A[m * K], tt, col, K, ttd, scale_d ? c : 0, ttd);
            }
            if (td == PT_F16)
                *slot = (*slot & ~(0xffffu << sh)) | d << sh;
            else
                *slot = d;
        }
    }
    for (uint32_t w = 0; w < 4; w++) {
        uint32_t wv = 4 * g + w;
        uint64_t *R = b->R + (size_t)wv * b->nregs * 32;
        uint32_t *Km = b->K + (size_t)wv * b->nregs;
        for (unsigned i = 0; i < dregs; i++) {
            int32_t reg = smem_ptx_vec_reg(f, od, i);
            if (reg < 0)
                continue;
            uint64_t msk = mask_bytes(TBYTES(f->reg_type[reg]));
            for (uint32_t l = 0; l < 32; l++)
                R[(size_t)reg * 32 + l] = out[(32 * w + l) * dregs + i] & msk;
            Km[reg] = known ? 0xffffffffu : 0;
        }
    }
    if (chunks) /* what it read, for the hazards */
        reads_landed(b, g, pc, chunks);
    rc = 1;
done:
    free(A);
    free(B);
    free(out);
    free(chunks);
    return rc;
}

/* Warp wv's request at pc's site (wgmma's reads, or commit_group's HGMMA): `wavefronts` of them.
 * Given to the hooks at once (one request a warp and execution, nothing for lanes to join). */
static void gmma_request(struct block *b, uint32_t wv, uint32_t pc, unsigned wavefronts)
{
    uint32_t s = b->p->site_of_insn[pc];
    if (s == UINT32_MAX || !b->h || !b->h->access)
        return;
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = s;
    a.block = b->bid;
    a.warp = wv;
    a.interval = b->interval;
    a.active = emu_warp_lanes(b, wv);
    a.width = b->p->sites[s].width;
    a.op = SMEM_ACC_GMMA;
    a.count = (uint8_t)wavefronts;
    b->h->access(b->h->ctx, &a);
}

/* 1 when the instruction before commit_group at pc is a wgmma.mma_async: ptxas then marks that
 * HGMMA as the group's end (gsb0) and makes no instruction of the commit (Triton's tl.dot on the
 * H200: a request a warp for each wgmma and none for its commits, tests/hw/triton/); after a loop
 * (tests/run/wgmma.cu) it makes an HGMMA without operands, a request a warp with no wavefronts
 * (tests/run/h200-wgmma-ncu.csv). */
static int after_mma(const struct block *b, uint32_t pc)
{
    const struct smem_ptx_insn *prev = pc ? &b->p->func->insns[pc - 1] : NULL;
    return prev && prev->op == PO_WGMMA && prev->mode == MODE_WGMMA_MMA;
}

int emu_exec_wgmma(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    const char *name = smem_ptx_tensor_name(in);
    if (emu_whole_warp(b, w, pc, ex, name))
        return -1;
    if (in->mode == MODE_WGMMA_COMMIT && !after_mma(b, pc))
        gmma_request(b, w, pc, 0);
    if (in->mode != MODE_WGMMA_MMA)
        return 1; /* fence, commit_group, wait_group: each product is complete when it is issued */
    const char *why = unsupported(in);
    if (why)
        return emu_failf(b, pc, "unsupported instruction: wgmma.mma_async .m%un%uk%u: %s", in->shape_m,
                         in->shape_n, in->shape_k, why);
    unsigned td = in->type, ta = in->type2, N = in->shape_n;
    const struct smem_ptx_operand *od = &in->ops[0], *oa = &in->ops[1];
    int rs = oa->kind != OPK_REG;
    unsigned dregs = td == PT_F16 ? N / 4 : N / 2, want = 4 + nimm(ta, rs);
    if (od->count != dregs || in->nops != want || (rs && oa->count != 4))
        return emu_failf(b, pc, "wgmma.mma_async .m64n%uk%u: %u accumulator registers and %u operands "
                                 "(the PTX ISA's form has %u and %u%s)",
                         N, in->shape_k, od->count, in->nops, dregs, want,
                         rs ? ", A as 4 registers" : "");
    for (unsigned i = 4; i < in->nops; i++) {
        int64_t v = in->ops[i].imm;
        int scale = ta != PT_S8 && ta != PT_U8 && i < 6;
        if (scale ? v != 1 && v != -1 : v != 0 && v != 1)
            return emu_failf(b, pc, "wgmma.mma_async: immediate operand %u is %lld (imm-scale is 1 or "
                                     "-1, imm-trans 0 or 1)", i + 1, (long long)v);
    }
    uint32_t g = w / 4;
    if ((4 * g + 4) * 32 > b->nthreads)
        return emu_failf(b, pc, "wgmma.mma_async in warp %u: its warpgroup is warps %u..%u, but the block "
                                 "has %u threads (a warpgroup is 128 threads, 4 whole warps)",
                         w, 4 * g, 4 * g + 3, b->nthreads);
    /* the others of the group: waiting here, or not yet come */
    int all = 1;
    for (uint32_t v = 4 * g; v < 4 * g + 4; v++) {
        if (v == w)
            continue;
        for (uint32_t l = 0; l < 32; l++) {
            const struct lane *T = &b->T[v * 32 + l];
            if (T->state != L_WGMMA)
                all = 0;
            else if (T->pc != pc)
                return emu_failf(b, pc, "wgmma.mma_async: warp %u reaches this one while warp %u of its "
                                         "warpgroup waits at another (PTX line %u): .sync.aligned needs "
                                         "all four at the same instruction",
                                 w, v, b->p->func->insns[T->pc].src_line);
        }
    }
    if (!all) { /* wait for the others */
        for (uint32_t l = 0; l < 32; l++) {
            b->T[w * 32 + l].state = L_WGMMA;
            b->T[w * 32 + l].pc = pc;
        }
        return 1;
    }
    int r = run_product(b, g, pc, in);
    if (r <= 0)
        return r;
    /* the reads' price (tests/run/h200-wgmma-ncu.csv): a request a warp; the wavefronts, 128
       bytes each, of A (64 x 32 bytes, from shared memory) and B (N x 32 bytes) on the first
       warp's, whatever the swizzle, major-ness and type (no bank conflict measured) */
    for (uint32_t v = 4 * g; v < 4 * g + 4; v++)
        gmma_request(b, v, pc, v == 4 * g ? (rs ? 0 : 16) + N / 4 : 0);
    for (uint32_t v = 4 * g; v < 4 * g + 4; v++)
        if (v != w)
            for (uint32_t l = 0; l < 32; l++) {
                b->T[v * 32 + l].state = L_RUN;
                b->T[v * 32 + l].pc = pc + 1;
            }
    return 1;
}

int emu_wgmma_stuck(struct block *b)
{
    for (uint32_t t = 0; t < b->nthreads; t++)
        if (b->T[t].state == L_WGMMA) {
            uint32_t g = t / 128, n = 0;
            for (uint32_t u = 128 * g; u < 128 * g + 128 && u < b->nthreads; u++)
                n += b->T[u].state == L_WGMMA;
            return emu_failf(b, b->T[t].pc,
                             "deadlock: %u threads of warpgroup %u (warps %u..%u) wait at this "
                             "wgmma.mma_async for the rest of their warpgroup, which never reaches it "
                             "(.sync.aligned: all four warps must execute it together)",
                             n, g, 4 * g, 4 * g + 3);
        }
    return 0;
}
