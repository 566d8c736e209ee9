/* cta_wmma.c: wmma.load, wmma.store and wmma.mma of the CTA emulator, a warp at a time, with the
 * fragments of sm_90 as the H100 lays them out (model/wmma.h, measured: tests/hw/wmma/):
 *  - wmma.load / wmma.store of shared, global or generic memory: every lane's elements read or
 *    written at base + (row, col) with the leading dimension given (or the matrix's own); in
 *    shared memory each becomes the SASS requests ptxas makes of it (LDSM, LDS, STS; a generic
 *    LD / ST that reaches shared memory), priced by the measured rules;
 *  - wmma.mma: the warp's fragments gathered into A, B and C, D computed as the H100 computes
 *    it (f16 / bf16 / tf32: the HMMA sums of emu/tc_numeric.c, bit for bit: tests/hw/mma/;
 *    integers exact, wrapping or .satfinite; f64 a chain of fused multiply-adds in ascending k),
 *    scattered back. Sub-byte (s4, u4, b1) fragments are refused with their line. */
#include <math.h>
#include <stdio.h>

#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"
#include "smemlab/emu/tc_numeric.h"
#include "smemlab/model/wmma.h"

static int wmma_type(unsigned pt)
{
    switch (pt) {
    case PT_F16: return SMEM_WMMA_F16;
    case PT_BF16: return SMEM_WMMA_BF16;
    case PT_TF32: return SMEM_WMMA_TF32;
    case PT_S8: return SMEM_WMMA_S8;
    case PT_U8: return SMEM_WMMA_U8;
    case PT_F32: return SMEM_WMMA_F32;
    case PT_S32: return SMEM_WMMA_S32;
    case PT_F64: return SMEM_WMMA_F64;
    default: return -1;
    }
}

int emu_wmma_frag(const struct smem_ptx_insn *in, unsigned use, unsigned ptype, struct smem_wmma_frag *f)
{
    int t = wmma_type(ptype);
    f->use = (uint8_t)use;
    f->type = (uint8_t)(t < 0 ? 255 : t);
    f->m = in->shape_m;
    f->n = in->shape_n;
    f->k = (uint8_t)in->shape_k;
    f->col = (in->tflags & SMEM_TF_A_COL) != 0; /* load / store: their one layout */
    return t < 0 || smem_wmma_check(f) ? -1 : 0;
}

int emu_wmma_load_store_frag(const struct smem_ptx_insn *in, struct smem_wmma_frag *f)
{
    unsigned use = in->mode == MODE_WMMA_LOAD_A ? SMEM_WMMA_A : in->mode == MODE_WMMA_LOAD_B ? SMEM_WMMA_B
                                                                                           : SMEM_WMMA_C;
    if (in->op != PO_WMMA || in->mode == MODE_WMMA_MMA)
        return -1;
    return emu_wmma_frag(in, use, in->type, f);
}

static int refuse(struct block *b, uint32_t pc, const struct smem_ptx_insn *in)
{
    char msg[300];
    snprintf(msg, sizeof msg, "unsupported instruction: %s .m%un%uk%u of these types (the emulator "
             "runs sm_90's f16, bf16, tf32, s8, u8 and f64 fragments; sub-byte s4, u4 and b1 it does "
             "not)", smem_ptx_tensor_name(in), in->shape_m, in->shape_n, in->shape_k);
    return emu_fail(b, pc, msg);
}

/* ---- wmma.load / wmma.store ------------------------------------------------------------- */

/* The requests of the shared-memory access at offset soff (lanes ex of warp w), one per part. */
static int record_parts(struct block *b, uint32_t w, uint32_t pc, uint32_t ex,
                        const struct smem_wmma_frag *f, uint32_t soff, uint64_t ldm)
{
    const struct smem_cta_program *p = b->p;
    uint32_t s0 = p->site_of_insn[pc], ns = p->nsites;
    if (s0 == UINT32_MAX)
        return 0;
    struct smem_wmma_part parts[SMEM_WMMA_MAX_PARTS];
    unsigned np = smem_wmma_parts(f, parts);
    for (unsigned i = 0; i < np && s0 + i < ns && p->sites[s0 + i].insn == pc; i++) {
        uint32_t s = s0 + i, l0 = (uint32_t)__builtin_ctz(ex);
        uint64_t off[32];
        smem_wmma_part_addrs(f, i, ldm, off);
        uint32_t k0 = *emu_kcount(b, w * 32 + l0, s);
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ex >> l & 1u))
                continue;
            if (*emu_kcount(b, w * 32 + l, s) != k0)
                return emu_fail(b, pc, "wmma: the lanes of the warp have executed it a different "
                                       "number of times (.aligned needs them converged)");
            if ((soff + off[l]) % parts[i].width) {
                char msg[200];
                snprintf(msg, sizeof msg, "wmma: lane %u's shared access at 0x%llx is not %u-byte "
                         "aligned (the base or the leading dimension is misaligned)", l,
                         (unsigned long long)(soff + off[l]), parts[i].width);
                return emu_fail(b, pc, msg);
            }
        }
        struct smem_access *a = emu_request(b, s, k0, w);
        if (!a)
            return emu_fail(b, pc, "out of memory");
        a->active |= ex;
        if (parts[i].ldsm)
            a->count = parts[i].count;
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u) {
                (*emu_kcount(b, w * 32 + l, s))++;
                a->addr[l] = soff + (uint32_t)off[l];
                a->wsync[l] = b->T[w * 32 + l].wsync;
            }
    }
    return 0;
}

/* The warp's base address (*a) and leading dimension (*ldm, elements): 1 ok, 0 unknown (stopped),
 * -1 failed. The PTX ISA wants both the same for every lane. */
static int base_and_ldm(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                        const struct smem_ptx_operand *mo, uint32_t ex, unsigned minor, uint64_t *a,
                        uint64_t *ldm)
{
    const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    const uint32_t *K = b->K + (size_t)w * b->nregs;
    int first = 1;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        int known = 1;
        uint64_t v = mo->reg[0] >= 0 ? R[(size_t)mo->reg[0] * 32 + l] : emu_sym_addr(b, mo->sym);
        if (mo->reg[0] >= 0 && !(K[mo->reg[0]] >> l & 1u))
            known = 0;
        v += (uint64_t)mo->imm;
        uint64_t s = minor;
        if (in->nops == 3) {
            s = emu_lane_val(b, w, l, &in->ops[2], &known);
            s &= 0xffffffffu;
        }
        if (!known) {
            emu_stop_unknown(b, pc, "wmma address or leading dimension");
            return 0;
        }
        if (first) {
            *a = v;
            *ldm = s;
            first = 0;
        } else if (v != *a || s != *ldm) {
            return emu_fail(b, pc, "wmma: the lanes of the warp give different addresses or leading "
                                   "dimensions (the PTX ISA wants them the same)");
        }
    }
    if (*ldm < minor) {
        char msg[160];
        snprintf(msg, sizeof msg, "wmma: leading dimension %llu is less than the matrix's %u",
                 (unsigned long long)*ldm, minor);
        return emu_fail(b, pc, msg);
    }
    return 1;
}

static int exec_load_store(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                           uint32_t ex)
{
    struct smem_wmma_frag f;
    if (emu_wmma_load_store_frag(in, &f))
        return refuse(b, pc, in);
    const char *name = smem_ptx_tensor_name(in);
    if (emu_whole_warp(b, w, pc, ex, name))
        return -1;
    int store = in->mode == MODE_WMMA_STORE_D;
    const struct smem_ptx_operand *mo = store ? &in->ops[0] : &in->ops[1];
    const struct smem_ptx_operand *fr = store ? &in->ops[1] : &in->ops[0];
    unsigned rows, cols, es = smem_wmma_elem_bytes(&f), ne = smem_wmma_elements(&f);
    unsigned nreg = smem_wmma_registers(&f), per = es >= 4 ? 1 : 4 / es;
    smem_wmma_dims(&f, &rows, &cols);
    if (fr->count != nreg) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: the fragment has %u registers, this one needs %u", name,
                 fr->count, nreg);
        return emu_fail(b, pc, msg);
    }
    uint64_t a = 0, ldm = 0;
    int r = base_and_ldm(b, w, pc, in, mo, ex, f.col ? rows : cols, &a, &ldm);
    if (r <= 0)
        return r < 0 ? -1 : 1;
    uint64_t span = smem_wmma_offset(&f, rows - 1, cols - 1, ldm) + es;
    /* shared memory: the requests */
    int shared = in->space == SP_SHARED ||
                 (in->space == SP_GENERIC && a >= SHARED_GENERIC_BASE && a - SHARED_GENERIC_BASE < WINDOW_SIZE);
    if (shared) {
        uint64_t sa = in->space == SP_GENERIC ? a - SHARED_GENERIC_BASE : a;
        uint64_t soff = sa - SHARED_WINDOW_BASE;
        if (sa < SHARED_WINDOW_BASE || soff > b->smem_size || span > b->smem_size - soff) {
            char msg[200];
            snprintf(msg, sizeof msg, "%s: the matrix at shared 0x%llx (%llu bytes) is outside the "
                     "block's %u bytes of shared memory", name, (unsigned long long)sa,
                     (unsigned long long)span, b->smem_size);
            return emu_fail(b, pc, msg);
        }
        if (record_parts(b, w, pc, ex, &f, (uint32_t)soff, ldm))
            return -1;
    }
    const struct smem_ptx_func *fn = b->p->func;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    int32_t reg[16];
    for (unsigned i = 0; i < nreg; i++)
        reg[i] = smem_ptx_vec_reg(fn, fr, i);
    for (uint32_t l = 0; l < 32; l++) {
        uint64_t val[16] = {0};
        uint32_t kn = (1u << nreg) - 1u;
        for (unsigned e = 0; e < ne; e++) {
            unsigned row, col, ri = e / per, sh = 8 * es * (e % per);
            smem_wmma_element(&f, l, e, &row, &col);
            uint64_t ea = a + smem_wmma_offset(&f, row, col, ldm);
            uint8_t buf[8], k8[8];
            if (store) {
                uint64_t v = reg[ri] >= 0 ? R[(size_t)reg[ri] * 32 + l] >> sh : 0;
                int known = reg[ri] >= 0 && (K[reg[ri]] >> l & 1u);
                for (unsigned i = 0; i < es; i++) {
                    buf[i] = (uint8_t)(v >> (8 * i));
                    k8[i] = (uint8_t)known;
                }
            }
            if (!shared && ea % es) {
                char msg[200];
                snprintf(msg, sizeof msg, "%s: lane %u's element at 0x%llx is not %u-byte aligned",
                         name, l, (unsigned long long)ea, es);
                return emu_fail(b, pc, msg);
            }
            int rc = emu_mem_bytes(b, w * 32 + l, pc, in, in->space, ea, es, buf, k8, store);
            if (rc < 0)
                return -1;
            if (store)
                continue;
            if (rc > 0) {            /* global memory under analyze: unknown data */
                kn &= ~(1u << ri);
                continue;
            }
            uint64_t v = 0;
            for (unsigned i = 0; i < es; i++) {
                v |= (uint64_t)buf[i] << (8 * i);
                if (!k8[i])
                    kn &= ~(1u << ri);
            }
            val[ri] |= v << sh;
        }
        if (store)
            continue;
        for (unsigned i = 0; i < nreg; i++) {
            if (reg[i] < 0)
                continue;
            R[(size_t)reg[i] * 32 + l] = val[i] & mask_bytes(TBYTES(fn->reg_type[reg[i]]));
            K[reg[i]] = (kn >> i & 1u) ? K[reg[i]] | 1u << l : K[reg[i]] & ~(1u << l);
        }
    }
    return 1;
}

/* ---- wmma.mma ----------------------------------------------------------------------------- */

/* element e of lane l of fragment f (registers reg) as raw bits; *known cleared if unknown */
static uint64_t frag_bits(struct block *b, uint32_t w, const struct smem_wmma_frag *f, const int32_t *reg,
                          uint32_t l, unsigned e, int *known)
{
    const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    const uint32_t *K = b->K + (size_t)w * b->nregs;
    unsigned es = smem_wmma_elem_bytes(f), per = es >= 4 ? 1 : 4 / es, ri = e / per;
    if (reg[ri] < 0) {
        *known = 0;
        return 0;
    }
    if (!(K[reg[ri]] >> l & 1u))
        *known = 0;
    return (R[(size_t)reg[ri] * 32 + l] >> (8 * es * (e % per))) & mask_bytes(es);
}

/* an integer fragment element's value */
static int64_t frag_value(unsigned t, uint64_t x)
{
    return t == SMEM_WMMA_S8 ? (int8_t)x : t == SMEM_WMMA_U8 ? (uint8_t)x : (int32_t)(uint32_t)x;
}

/* the tensor-core model's type of a floating-point fragment type (emu/tc_numeric.h) */
static unsigned tc_type(unsigned t)
{
    return t == SMEM_WMMA_F16 ? SMEM_TC_F16 : t == SMEM_WMMA_BF16 ? SMEM_TC_BF16
         : t == SMEM_WMMA_TF32 ? SMEM_TC_TF32 : SMEM_TC_F32;
}

static int exec_mma(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    struct smem_wmma_frag fa, fb, fc, fd;
    if (emu_wmma_frag(in, SMEM_WMMA_A, in->type2, &fa) || emu_wmma_frag(in, SMEM_WMMA_B, in->type3, &fb) ||
        emu_wmma_frag(in, SMEM_WMMA_C, in->type4, &fc) || emu_wmma_frag(in, SMEM_WMMA_C, in->type, &fd))
        return refuse(b, pc, in);
    unsigned ta = fa.type, tc = fc.type, td = fd.type;
    int fp = ta == SMEM_WMMA_F16 || ta == SMEM_WMMA_BF16 || ta == SMEM_WMMA_TF32;
    int ok = fa.type == fb.type &&
             (fp ? (tc == SMEM_WMMA_F32 || (tc == SMEM_WMMA_F16 && ta == SMEM_WMMA_F16)) &&
                       (td == SMEM_WMMA_F32 || (td == SMEM_WMMA_F16 && ta == SMEM_WMMA_F16))
              : ta == SMEM_WMMA_F64 ? tc == SMEM_WMMA_F64 && td == SMEM_WMMA_F64
                                    : tc == SMEM_WMMA_S32 && td == SMEM_WMMA_S32);
    if (!ok)
        return refuse(b, pc, in);
    if (emu_whole_warp(b, w, pc, ex, "wmma.mma"))
        return -1;
    const struct smem_ptx_func *fn = b->p->func;
    const struct smem_wmma_frag *fr[4] = {&fd, &fa, &fb, &fc};
    int32_t reg[4][16];
    int known = 1;
    for (unsigned o = 0; o < 4; o++) {
        unsigned n = smem_wmma_registers(fr[o]);
        if (in->ops[o].count != n) {
            char msg[200];
            snprintf(msg, sizeof msg, "wmma.mma: operand %u has %u registers, this shape and type "
                     "needs %u", o, in->ops[o].count, n);
            return emu_fail(b, pc, msg);
        }
        for (unsigned i = 0; i < n; i++)
            reg[o][i] = smem_ptx_vec_reg(fn, &in->ops[o], i);
    }
    unsigned M = fa.m, N = fa.n, Kd = fa.k;
    /* the elements' bits, B by column; 24 KB: blocks run in parallel threads */
    uint64_t A[32][32], B[32][32], C[32][32];
    for (uint32_t l = 0; l < 32; l++)
        for (unsigned o = 1; o < 4; o++) {
            const struct smem_wmma_frag *f = fr[o];
            for (unsigned e = 0, ne = smem_wmma_elements(f); e < ne; e++) {
                unsigned r, c;
                smem_wmma_element(f, l, e, &r, &c);
                uint64_t x = frag_bits(b, w, f, reg[o], l, e, &known);
                if (o == 1)
                    A[r][c] = x;
                else if (o == 2)
                    B[c][r] = x;
                else
                    C[r][c] = x;
            }
        }
    /* D as bits of its type: f16 / bf16 / tf32 as the H100's HMMA sums them (tc_numeric.c; wmma
     * tf32 .m16n16k8 is two HMMA.1684 chained: blocks of 4; the SASS of sm_90), f64 a chain of
     * fused multiply-adds in ascending k (DMMA), integers exact (wrapping, or .satfinite) */
    uint64_t D[32][32];
    for (unsigned i = 0; i < M; i++)
        for (unsigned j = 0; j < N; j++) {
            if (ta == SMEM_WMMA_F64) {
                double d = f64_of(C[i][j]);
                for (unsigned k = 0; k < Kd; k++)
                    d = fma(f64_of(A[i][k]), f64_of(B[j][k]), d);
                D[i][j] = bits_f64(d);
            } else if (fp) {
                uint32_t a[32], bc[32];
                for (unsigned k = 0; k < Kd; k++) {
                    a[k] = (uint32_t)A[i][k];
                    bc[k] = (uint32_t)B[j][k];
                }
                /* f32 C, f16 D: ptxas runs HMMA.F32 and rounds to f16 after (F2FP.F16.F32) */
                int f2fp = td == SMEM_WMMA_F16 && tc == SMEM_WMMA_F32;
                uint32_t d = smem_tc_dot(tc_type(ta), a, tc_type(ta), bc, Kd,
                                         ta == SMEM_WMMA_TF32 ? 4 : 0, tc_type(tc), (uint32_t)C[i][j],
                                         f2fp ? SMEM_TC_F32 : tc_type(td));
                D[i][j] = !f2fp ? d : f32_of(d) != f32_of(d) ? 0x7fffu : float_to_half(f32_of(d));
            } else {
                int64_t s = (int32_t)(uint32_t)C[i][j];
                for (unsigned k = 0; k < Kd; k++)
                    s += (int64_t)frag_value(ta, A[i][k]) * (int64_t)frag_value(ta, B[j][k]);
                if (in->mods & SMEM_MOD_SATFINITE)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                D[i][j] = (uint32_t)s;
            }
        }
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    unsigned nd = smem_wmma_registers(&fd), ne = smem_wmma_elements(&fd);
    unsigned es = smem_wmma_elem_bytes(&fd), per = es >= 4 ? 1 : 4 / es;
    for (uint32_t l = 0; l < 32; l++) {
        uint64_t out[16] = {0};
        for (unsigned e = 0; e < ne; e++) {
            unsigned r, c;
            smem_wmma_element(&fd, l, e, &r, &c);
            uint64_t bits = D[r][c];
            out[e / per] |= bits << (8 * es * (e % per));
        }
        for (unsigned i = 0; i < nd; i++)
            if (reg[0][i] >= 0)
                R[(size_t)reg[0][i] * 32 + l] = out[i] & mask_bytes(TBYTES(fn->reg_type[reg[0][i]]));
    }
    for (unsigned i = 0; i < nd; i++)
        if (reg[0][i] >= 0)
            K[reg[0][i]] = known ? 0xffffffffu : 0; /* D mixes every lane's operands */
    return 1;
}

int emu_exec_wmma(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    if (in->mode == MODE_WMMA_MMA)
        return exec_mma(b, w, pc, in, ex);
    return exec_load_store(b, w, pc, in, ex);
}
