/* cta_tensor.c: the matrix instructions of the CTA emulator, a warp at a time (the handlers
 * emu_exec_matrix and emu_exec_mma that opcodes.def names; cp.async and mbarrier: cta_async.c):
 *  - ldmatrix / stmatrix .m8n8 .x1/.x2/.x4 {.trans} .b16: lanes 0 .. 8*count-1 give the rows'
 *    shared addresses, every lane receives (gives) its fragment as the PTX ISA lays it out
 *    (smem_matrix_element, model/matrix.h); one request a warp (op ldsm / stsm), priced by
 *    model/matrix.c;
 *  - mma.sync.aligned .m16n8k16 / .m16n8k8 f16 and bf16 (f32 or f16 accumulators), .m16n8k8 /
 *    .m16n8k4 tf32, .m16n8k32 / .m16n8k16 s8 / u8 (s32): the warp's fragments gathered into A, B
 *    and C, D computed, scattered back. Integers exactly (wrapping, or clamped with .satfinite).
 *    Floating point: each D element as the H100's HMMA sums it (emu/tc_numeric.c: one block of
 *    k products and C, aligned to the largest exponent, 25 bits, cut to f32 toward zero or
 *    rounded to f16), bit for bit the H100's (tests/hw/h100-mma-fp.txt); tf32 operands keep
 *    their 19 high bits; the other forms of sm_90 (f64, e4m3/e5m2, s4/u4, b1, .m8n8k16):
 *    cta_mma.c;
 *  - wmma: cta_wmma.c.
 * cp.async.bulk (TMA): cta_bulk.c. wgmma: cta_wgmma.c. */
#include "families.h"
#include "lanes.h"
#include "request.h"

#include <stdio.h>
#include <stdlib.h>

#include "smemlab/emu/tc_numeric.h"
#include "smemlab/model/matrix.h"

/* ---- ldmatrix / stmatrix ------------------------------------------------------------------ */

static void set_count(struct smem_access *a, uint32_t l, void *ctx)
{
    (void)l;
    a->count = (uint8_t)(uintptr_t)ctx;
}

int emu_exec_matrix(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                       uint32_t ex)
{
    const char *name = in->op == PO_LDMATRIX ? "ldmatrix" : "stmatrix";
    char msg[200];
    if (in->shape_m != 8 || in->shape_n != 8 || in->type != PT_B16) {
        snprintf(msg, sizeof msg, "unsupported instruction: %s .m%un%u .%s (the emulator runs "
                 ".m8n8 .b16)", name, in->shape_m, in->shape_n, in->type == PT_B8 ? "b8" : "?");
        return emu_fail(b, pc, msg);
    }
    if (emu_whole_warp(b, w, pc, ex, name))
        return -1;
    unsigned count = in->vec, rows = 8 * count;
    int trans = (in->tflags & SMEM_TF_TRANS) != 0;
    const struct smem_ptx_operand *mo = in->op == PO_LDMATRIX ? &in->ops[1] : &in->ops[0];
    const struct smem_ptx_operand *fr = in->op == PO_LDMATRIX ? &in->ops[0] : &in->ops[1];
    uint32_t off[32];
    for (uint32_t l = 0; l < 32 && l < rows; l++) {
        if (!(ex >> l & 1u))
            return emu_fail(b, pc, "ldmatrix/stmatrix: a lane that gives a row address is missing");
        int r = emu_lane_shared(b, w, l, pc, in, mo, 16, 16, &off[l], name);
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
        emu_each_request(b, w, b->p->site_of_insn[pc], ex, set_count, (void *)(uintptr_t)count);
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

/* the tensor-core model's type of a PTX floating-point type (emu/tc_numeric.h) */
static unsigned tc_type(unsigned t)
{
    return t == PT_F16 ? SMEM_TC_F16 : t == PT_BF16 ? SMEM_TC_BF16
         : t == PT_TF32 ? SMEM_TC_TF32 : SMEM_TC_F32;
}

int emu_exec_mma(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                    uint32_t ex)
{
    int more = emu_exec_mma_more(b, w, pc, in, ex); /* f64, fp8, s4/u4, b1, m8n8k16: cta_mma.c */
    if (more)
        return more;
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
                               "modelled (the emulator runs sm_90's .row.col forms: .m16n8k16 and "
                               ".m16n8k8 f16/bf16, .m16n8k8 and .m16n8k4 tf32, s8/u8, s4/u4, b1, "
                               "e4m3/e5m2, f64; not the sm_70 .m8n8k4 f16 form)");
    if (emu_whole_warp(b, w, pc, ex, "mma.sync"))
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
        /* A, B and C as bits, each D element summed as the H100's HMMA sums it (tc_numeric.c) */
        uint32_t A[16][16], B[8][16], C[16][8]; /* B by column */
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            for (unsigned r = 0; r < na; r++) {
                uint32_t x = ra[r] >= 0 ? (uint32_t)R[(size_t)ra[r] * 32 + l] : 0;
                for (unsigned e = 0; e < epr; e++)
                    A[g + 8 * (r & 1)][epr * t + e + step * (r >> 1)] =
                        eb == 32 ? x : x >> (16 * e) & 0xffffu;
            }
            for (unsigned r = 0; r < nb; r++) {
                uint32_t x = rb[r] >= 0 ? (uint32_t)R[(size_t)rb[r] * 32 + l] : 0;
                for (unsigned e = 0; e < epr; e++)
                    B[g][epr * t + e + step * r] = eb == 32 ? x : x >> (16 * e) & 0xffffu;
            }
            for (unsigned i = 0; i < 4; i++) { /* c0..c3: (g + 8 (i / 2), 2t + i % 2) */
                int32_t reg = rc[tc == PT_F16 ? i / 2 : i];
                uint64_t x = reg >= 0 ? R[(size_t)reg * 32 + l] : 0;
                C[g + 8 * (i >> 1)][2 * t + (i & 1)] =
                    tc == PT_F16 ? (uint32_t)(x >> (16 * (i & 1))) & 0xffffu : (uint32_t)x;
            }
        }
        unsigned tta = tc_type(ta), ttc = tc_type(tc), ttd = tc_type(td);
        for (uint32_t l = 0; l < 32; l++) {
            unsigned g = l >> 2, t = l & 3;
            out[0][l] = out[1][l] = 0;
            for (unsigned i = 0; i < 4; i++) {
                unsigned row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
                uint32_t d = smem_tc_dot(tta, A[row], tta, B[col], Kd, 0, ttc, C[row][col], ttd);
                if (td == PT_F16)
                    out[i / 2][l] |= (uint64_t)d << (16 * (i & 1));
                else
                    out[i][l] = d;
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
