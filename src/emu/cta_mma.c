/* cta_mma.c: the mma.sync forms of sm_90 beyond cta_tensor.c's (f16/bf16, tf32, s8/u8 m16n8):
 * f64 .m8n8k4 / .m16n8k4 / .m16n8k8 / .m16n8k16, e4m3 / e5m2 .m16n8k32 (f32 accumulators),
 * s4 / u4 .m8n8k32 / .m16n8k32 / .m16n8k64, s8 / u8 .m8n8k16, b1 .m8n8k128 / .m16n8k128 /
 * .m16n8k256 (.xor.popc, .and.popc). Fragments as the PTX ISA lays them out, checked on the H100
 * (tests/hw/mma/: every form exact on exact inputs). Arithmetic: integers and b1 exact (s32 wraps,
 * or clamps with .satfinite); f64 a fused multiply-add a step, ascending k (bit for bit the
 * H100's on random inputs: tests/hw/h100-mma-more.txt); e4m3 / e5m2 as ptxas compiles them for
 * sm_90 (f16 operands, two HMMA.16816.F32 and an FADD of C) with the H100's HMMA sums
 * (emu/tc_numeric.c): bit for bit the H100's (tests/hw/h100-mma-more.txt, h100-mma-fp.txt). */
#include <math.h>

#include "families.h"
#include "lanes.h"
#include "smemlab/emu/tc_numeric.h"

enum { K_F64, K_FP8, K_INT, K_B1 };

struct mform {
    unsigned kind, bits;   /* element bits in a register: 64, 8, 4, 1 */
    unsigned M, N, K, na, nb, nc;
};

/* the form of in, or 0 when it is not one of these */
static int form_of(const struct smem_ptx_insn *in, struct mform *f)
{
    unsigned ta = in->type2, tb = in->type3, tc = in->type4, td = in->type;
    unsigned M = in->shape_m, N = in->shape_n, K = in->shape_k;
    if ((in->tflags & SMEM_TF_A_COL) || !(in->tflags & SMEM_TF_B_COL) || N != 8)
        return 0;
    f->M = M;
    f->N = N;
    f->K = K;
    if (ta == PT_F64 && tb == PT_F64 && tc == PT_F64 && td == PT_F64 &&
        ((M == 8 && K == 4) || (M == 16 && (K == 4 || K == 8 || K == 16)))) {
        f->kind = K_F64;
        f->bits = 64;
    } else if ((ta == PT_E4M3 || ta == PT_E5M2) && (tb == PT_E4M3 || tb == PT_E5M2) && tc == PT_F32 &&
               td == PT_F32 && M == 16 && K == 32) {
        f->kind = K_FP8;
        f->bits = 8;
    } else if ((ta == PT_S4 || ta == PT_U4) && (tb == PT_S4 || tb == PT_U4) && tc == PT_S32 && td == PT_S32 &&
               ((M == 8 && K == 32) || (M == 16 && (K == 32 || K == 64)))) {
        f->kind = K_INT;
        f->bits = 4;
    } else if ((ta == PT_S8 || ta == PT_U8) && (tb == PT_S8 || tb == PT_U8) && tc == PT_S32 && td == PT_S32 &&
               M == 8 && K == 16) {
        f->kind = K_INT;
        f->bits = 8;
    } else if (ta == PT_B1 && tb == PT_B1 && tc == PT_S32 && td == PT_S32 &&
               (in->tflags & (SMEM_TF_XOR_POPC | SMEM_TF_AND_POPC)) &&
               ((M == 8 && K == 128) || (M == 16 && (K == 128 || K == 256)))) {
        f->kind = K_B1;
        f->bits = 1;
    } else {
        return 0;
    }
    unsigned words = f->bits == 64 ? 1 : 0;
    f->na = words ? M * K / 32 : M * K * f->bits / 1024;
    f->nb = words ? K * N / 32 : K * N * f->bits / 1024;
    f->nc = M * N / 32;
    return 1;
}

/* element e of A register r of lane l: (row, col); of B: (k, n) (PTX ISA; g = l / 4, t = l % 4) */
static void a_pos(const struct mform *f, unsigned l, unsigned r, unsigned e, unsigned *row, unsigned *col)
{
    unsigned g = l / 4, t = l % 4, per = f->bits == 64 ? 1 : 32 / f->bits;
    if (f->kind == K_F64) {
        *row = f->M == 8 ? g : g + 8 * (r % 2);
        *col = f->M == 8 ? t : t + 4 * (r / 2);
    } else if (f->M == 8) {
        *row = g;
        *col = per * t + e;
    } else if (f->na == 2) {
        *row = g + 8 * r;
        *col = per * t + e;
    } else {
        *row = g + 8 * (r % 2);
        *col = per * t + e + 4 * per * (r / 2);
    }
}

static void b_pos(const struct mform *f, unsigned l, unsigned r, unsigned e, unsigned *k, unsigned *n)
{
    unsigned g = l / 4, t = l % 4, per = f->bits == 64 ? 1 : 32 / f->bits;
    *k = f->kind == K_F64 ? t + 4 * r : per * t + e + 4 * per * r;
    *n = g;
}

static double fp8_value(unsigned x, int e5m2)
{
    int neg = x >> 7 & 1;
    double v;
    if (e5m2) {
        unsigned ex = x >> 2 & 31, m = x & 3;
        if (ex == 31)
            v = m ? NAN : INFINITY;
        else
            v = ex ? ldexp(1.0 + m / 4.0, (int)ex - 15) : ldexp(m / 4.0, -14);
    } else {
        unsigned ex = x >> 3 & 15, m = x & 7;
        if (ex == 15 && m == 7)
            v = NAN;
        else
            v = ex ? ldexp(1.0 + m / 8.0, (int)ex - 7) : ldexp(m / 8.0, -6);
    }
    return neg ? -v : v;
}

/* the tensor-core model's type of an fp8 PTX type */
static unsigned tc_type(unsigned t)
{
    return t == PT_E5M2 ? SMEM_TC_E5M2 : SMEM_TC_E4M3;
}

/* an element's value: x its bits, t its PTX type */
static double elem(unsigned t, uint64_t x)
{
    switch (t) {
    case PT_F64: return f64_of(x);
    case PT_E4M3: return fp8_value((unsigned)x & 0xff, 0);
    case PT_E5M2: return fp8_value((unsigned)x & 0xff, 1);
    case PT_S4: return (double)((int32_t)((uint32_t)x << 28) >> 28);
    case PT_U4: return (double)(x & 15);
    case PT_S8: return (double)(int8_t)x;
    case PT_U8: return (double)(uint8_t)x;
    default: return (double)(x & 1); /* b1 */
    }
}

int emu_exec_mma_more(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex)
{
    struct mform f;
    if (!form_of(in, &f))
        return 0;
    if (emu_whole_warp(b, w, pc, ex, "mma.sync"))
        return -1;
    const struct smem_ptx_func *fn = b->p->func;
    const struct smem_ptx_operand *od = &in->ops[0], *oa = &in->ops[1], *ob = &in->ops[2], *oc = &in->ops[3];
    if (oa->count != f.na || ob->count != f.nb || oc->count != f.nc || od->count != f.nc)
        return emu_fail(b, pc, "mma.sync: the fragments have the wrong number of registers for "
                               "the shape and types");
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    int32_t ra[8], rb[4], rc[4], rd[4];
    int known = 1;
    for (unsigned r = 0; r < f.na; r++)
        known = known && (ra[r] = smem_ptx_vec_reg(fn, oa, r)) >= 0 && K[ra[r]] == 0xffffffffu;
    for (unsigned r = 0; r < f.nb; r++)
        known = known && (rb[r] = smem_ptx_vec_reg(fn, ob, r)) >= 0 && K[rb[r]] == 0xffffffffu;
    for (unsigned r = 0; r < f.nc; r++)
        known = known && (rc[r] = smem_ptx_vec_reg(fn, oc, r)) >= 0 && K[rc[r]] == 0xffffffffu;
    for (unsigned r = 0; r < f.nc; r++)
        rd[r] = smem_ptx_vec_reg(fn, od, r);
    /* A (16 x 256 at most), B (256 x 8), C (16 x 8) as doubles: exact for every type here */
    double A[16][256], B[256][8], C[16][8];
    uint32_t Abits[16][32], Bcol[8][32], Cbits[16][8]; /* e4m3 / e5m2 and C's bits (K 32) */
    unsigned per = f.bits == 64 ? 1 : 32 / f.bits;
    uint64_t emask = f.bits == 64 ? ~0ull : (1ull << f.bits) - 1;
    for (uint32_t l = 0; l < 32; l++) {
        for (unsigned r = 0; r < f.na; r++) {
            uint64_t x = ra[r] >= 0 ? R[(size_t)ra[r] * 32 + l] : 0;
            for (unsigned e = 0; e < per; e++) {
                unsigned row, col;
                a_pos(&f, l, r, e, &row, &col);
                A[row][col] = elem(in->type2, f.bits == 64 ? x : x >> (f.bits * e) & emask);
                if (f.kind == K_FP8)
                    Abits[row][col] = (uint32_t)(x >> (f.bits * e) & emask);
            }
        }
        for (unsigned r = 0; r < f.nb; r++) {
            uint64_t x = rb[r] >= 0 ? R[(size_t)rb[r] * 32 + l] : 0;
            for (unsigned e = 0; e < per; e++) {
                unsigned k, n;
                b_pos(&f, l, r, e, &k, &n);
                B[k][n] = elem(in->type3, f.bits == 64 ? x : x >> (f.bits * e) & emask);
                if (f.kind == K_FP8)
                    Bcol[n][k] = (uint32_t)(x >> (f.bits * e) & emask);
            }
        }
        for (unsigned i = 0; i < f.nc; i++) {
            uint64_t x = rc[i] >= 0 ? R[(size_t)rc[i] * 32 + l] : 0;
            unsigned row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + i % 2;
            Cbits[row][col] = (uint32_t)x;
            C[row][col] = f.kind == K_F64 ? f64_of(x) : f.kind == K_FP8 ? (double)f32_of(x)
                                                                        : (double)(int32_t)(uint32_t)x;
        }
    }
    int xor_popc = (in->tflags & SMEM_TF_XOR_POPC) != 0;
    for (uint32_t l = 0; l < 32; l++)
        for (unsigned i = 0; i < f.nc; i++) {
            unsigned row = l / 4 + 8 * (i / 2), col = 2 * (l % 4) + i % 2;
            uint64_t out;
            if (f.kind == K_F64) {
                double d = C[row][col];
                for (unsigned k = 0; k < f.K; k++)
                    d = fma(A[row][k], B[k][col], d);
                out = bits_f64(d);
            } else if (f.kind == K_FP8) {
                /* as the H100 sums them (emu/tc_numeric.c): two f16 blocks of 16 */
                out = smem_tc_dot(tc_type(in->type2), &Abits[row][0], tc_type(in->type3), Bcol[col],
                                  f.K, 0, SMEM_TC_F32, Cbits[row][col], SMEM_TC_F32);
            } else {
                int64_t s = (int64_t)C[row][col];
                for (unsigned k = 0; k < f.K; k++) {
                    int64_t x = (int64_t)A[row][k], y = (int64_t)B[k][col];
                    s += f.kind == K_B1 ? (xor_popc ? (x ^ y) : (x & y)) : x * y;
                }
                if (in->mods & SMEM_MOD_SATFINITE)
                    s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
                out = (uint32_t)s;
            }
            if (rd[i] >= 0)
                R[(size_t)rd[i] * 32 + l] = out & mask_bytes(TBYTES(fn->reg_type[rd[i]]));
        }
    for (unsigned i = 0; i < f.nc; i++)
        if (rd[i] >= 0)
            K[rd[i]] = known ? 0xffffffffu : 0; /* D mixes every lane's operands */
    return 1;
}
