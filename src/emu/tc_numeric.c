/* tc_numeric.c: the H100's tensor-core sums (HMMA: mma.sync and wmma.mma on f16, bf16, tf32,
 * e4m3 / e5m2 operands), bit for bit. Pure; no I/O.
 *
 * One HMMA block (the products of a row of A and a column of B, and C):
 *  - every operand is split into a significand s (1 <= s < 2; a subnormal keeps s < 1 and its
 *    format's least exponent: no flush to zero) and an exponent e; a product's significand is
 *    the exact sa sb (1 <= sa sb < 4) with exponent ea + eb (the operands', not the normalized
 *    product's); a zero product or a zero C takes no part (it sets no exponent);
 *  - E = the largest exponent of the terms (the products and C); each term is aligned to E and
 *    cut toward zero (on its magnitude) to 25 fraction bits: trunc(s 2^(25 + e - E)) 2^-25;
 *  - the cut terms are summed exactly and the sum normalized once: to f32 toward zero
 *    (subnormals in units of 2^-149; past the largest f32 it is infinite), to f16 to nearest
 *    even; a zero sum is +0 (-0 + -0 too);
 *  - a NaN operand, inf - inf or inf x 0 gives the canonical NaN (0x7fffffff, 0x7fff); otherwise
 *    an infinite operand gives the infinity of its sign.
 * What ptxas makes of each instruction for sm_90 (tests/hw/mma/README.md, SASS): mma.sync f16 /
 * bf16 .m16n8k16 and .m16n8k8, tf32 .m16n8k8 and .m16n8k4 are one HMMA: one block of k, C in it;
 * wmma.mma f16 / bf16 (k 16) one HMMA.16816 per 16 x 8 of D; wmma tf32 .m16n16k8 two
 * HMMA.1684 chained (k 0-3 with C, then k 4-7 with the first's f32 result); mma.sync
 * e4m3 / e5m2 .m16n8k32 has no unit of its own: ptxas converts the operands to f16 (exact),
 * runs HMMA.16816.F32 on k = 0, 1 (mod 4) with C = 0, then on k = 2, 3 (mod 4) with the
 * first's result, and adds C with an FADD (f32, to nearest even).
 * 25 bits and the alignment to the operands' exponents are MMA-Sim's model of sm_90 (Xie et al.,
 * "MMA-Sim: Bit-Accurate Reference Model of Tensor Cores and Matrix Cores", arXiv:2511.10909,
 * 2025); its zero (exponent -126, which sets E for 0 x 2^127) is not the H100's: with it 545 of
 * the 16128 measured registers differ, with zeros left out none (tests/hw/h100-mma-fp.txt).
 * wgmma on e4m3 / e5m2 (QGMMA, sm_90a) is one block of its 32 products and C with 13 fraction
 * bits below the largest exponent instead of 25; an f32 sum is then cut toward zero to 13
 * fraction bits of its own (f16: rounded to nearest even, as above): tests/run/h200-wgmma.txt,
 * every register of an e4m3 x e5m2 f32 chain of four and an e4m3 f16 chain of two on an H200. */
#include "smemlab/emu/tc_numeric.h"

#include <stdint.h>

#define TC_BITS 25 /* the fraction bits kept below the largest exponent's unit (sm_90) */
#define QGMMA_BITS 13 /* wgmma e4m3 / e5m2 (QGMMA): the terms' and an f32 sum's fraction bits */

struct tc_val {
    int cls;      /* 0 finite (zero too), 1 inf, 2 NaN */
    int neg;
    uint64_t m;   /* significand as an integer: s = m 2^-f */
    int f;        /* fraction bits of m */
    int e;        /* exponent */
};

static int msb64(uint64_t x)
{
    int p = -1;
    while (x) {
        p++;
        x >>= 1;
    }
    return p;
}

uint32_t smem_tc_fp8_to_f16(uint32_t x, int e5m2)
{
    x &= 0xff;
    uint32_t s = (x & 0x80) << 8;
    if (e5m2)
        return x << 8; /* e5m2 is the high byte of an f16, infinities and NaNs included */
    uint32_t ex = x >> 3 & 15, m = x & 7;
    if (ex == 15 && m == 7)
        return s | 0x7fff; /* e4m3's only NaN (it has no infinity) */
    if (ex)
        return s | (ex + 8) << 10 | m << 7; /* bias 7 -> 15 */
    if (!m)
        return s;
    int p = msb64(m); /* m 2^-9 = 1.x 2^(p - 9) */
    return s | (uint32_t)(p + 6) << 10 | (m - (1u << p)) << (10 - p);
}

/* an operand's parts; bits in type t (e4m3 / e5m2 through their f16) */
static struct tc_val decode(unsigned t, uint32_t x)
{
    struct tc_val v = {0, 0, 0, 0, 0};
    uint32_t ex, fr;
    int fbits, bias, ebits;
    if (t == SMEM_TC_E4M3 || t == SMEM_TC_E5M2) {
        x = smem_tc_fp8_to_f16(x, t == SMEM_TC_E5M2);
        t = SMEM_TC_F16;
    }
    switch (t) {
    case SMEM_TC_F16: fbits = 10; ebits = 5; bias = 15; x &= 0xffff; break;
    case SMEM_TC_BF16: fbits = 7; ebits = 8; bias = 127; x &= 0xffff; break;
    case SMEM_TC_TF32: fbits = 10; ebits = 8; bias = 127; x >>= 13; break; /* its 19 bits */
    default: fbits = 23; ebits = 8; bias = 127; break;                     /* f32 */
    }
    v.neg = (int)(x >> (fbits + ebits) & 1);
    ex = x >> fbits & ((1u << ebits) - 1);
    fr = x & ((1u << fbits) - 1);
    v.f = fbits;
    if (ex == (1u << ebits) - 1) {
        v.cls = fr ? 2 : 1;
        return v;
    }
    if (ex == 0) {
        v.m = fr; /* zero: m = 0, left out of the sum by its caller */
        v.e = 1 - bias;
    } else {
        v.m = fr | 1u << fbits;
        v.e = (int)ex - bias;
    }
    return v;
}

/* the f32 bits of (-1)^neg mag 2^q, cut toward zero */
static uint32_t to_f32_rz(int neg, uint64_t mag, int q)
{
    uint32_t s = neg ? 0x80000000u : 0;
    if (!mag)
        return 0; /* a zero sum is +0 */
    int p = msb64(mag), x = p + q; /* value in [2^x, 2^(x+1)) */
    if (x > 127)
        return s | 0x7f800000u;
    int unit = x >= -126 ? x - 23 : -149, sh = unit - q;
    uint64_t m = sh <= 0 ? mag << -sh : sh >= 64 ? 0 : mag >> sh;
    if (x < -126)
        return s | (uint32_t)m;
    return s | (uint32_t)(x + 127) << 23 | ((uint32_t)m & 0x7fffffu);
}

/* the f16 bits of (-1)^neg mag 2^q, rounded to nearest even */
static uint32_t to_f16_rn(int neg, uint64_t mag, int q)
{
    uint32_t s = neg ? 0x8000u : 0;
    if (!mag)
        return 0;
    int p = msb64(mag), x = p + q;
    if (x > 15)
        return s | 0x7c00u;
    int unit = x >= -14 ? x - 10 : -24, sh = unit - q;
    uint64_t m;
    if (sh <= 0) {
        m = mag << -sh;
    } else if (sh > 62) {
        m = 0;
    } else {
        uint64_t rem = mag & ((1ull << sh) - 1), half = 1ull << (sh - 1);
        m = mag >> sh;
        if (rem > half || (rem == half && (m & 1)))
            m++;
    }
    uint32_t bits = x >= -14 ? (uint32_t)(x + 15) << 10 : 0;
    bits = x >= -14 ? bits + (uint32_t)m - 0x400u : (uint32_t)m; /* a carry moves the exponent */
    if (bits >= 0x7c00u)
        bits = 0x7c00u;
    return s | bits;
}

/* One block, the terms cut to `bits` fraction bits below the largest exponent; an f32 result
 * keeps `keep` fraction bits (cut toward zero; 23: all) */
static uint32_t block(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned n,
                      unsigned tc, uint32_t c, unsigned td, int bits, int keep)
{
    struct tc_val term[33];
    int nan = 0, pinf = 0, ninf = 0;
    unsigned nt = 0;
    if (n > 32)
        n = 32;
    for (unsigned k = 0; k < n; k++) {
        struct tc_val x = decode(ta, a[k]), y = decode(tb, b[k]);
        int neg = x.neg ^ y.neg;
        if (x.cls == 2 || y.cls == 2) {
            nan = 1;
        } else if (x.cls == 1 || y.cls == 1) {
            if ((x.cls == 0 && !x.m) || (y.cls == 0 && !y.m))
                nan = 1; /* inf x 0 */
            else if (neg)
                ninf = 1;
            else
                pinf = 1;
        } else if (x.m && y.m) {
            struct tc_val t = {0, neg, x.m * y.m, x.f + y.f, x.e + y.e};
            term[nt++] = t;
        }
    }
    struct tc_val cv = decode(tc, c);
    if (cv.cls == 2)
        nan = 1;
    else if (cv.cls == 1)
        *(cv.neg ? &ninf : &pinf) = 1;
    else if (cv.m)
        term[nt++] = cv;
    if (nan || (pinf && ninf))
        return td == SMEM_TC_F16 ? 0x7fffu : 0x7fffffffu;
    if (pinf || ninf)
        return td == SMEM_TC_F16 ? (ninf ? 0xfc00u : 0x7c00u) : (ninf ? 0xff800000u : 0x7f800000u);
    if (!nt)
        return 0; /* every term zero: +0 */
    int E = term[0].e;
    for (unsigned i = 1; i < nt; i++)
        if (term[i].e > E)
            E = term[i].e;
    int64_t sum = 0;
    for (unsigned i = 0; i < nt; i++) {
        int sh = bits + term[i].e - E - term[i].f; /* s 2^(bits + e - E) = m 2^sh */
        uint64_t t = sh >= 0 ? term[i].m << sh : -sh >= 64 ? 0 : term[i].m >> -sh;
        sum += term[i].neg ? -(int64_t)t : (int64_t)t;
    }
    int neg = sum < 0;
    uint64_t mag = neg ? (uint64_t)0 - (uint64_t)sum : (uint64_t)sum;
    int q = E - bits, p = msb64(mag);
    if (td != SMEM_TC_F16 && p > keep) { /* the sum's own fraction bits */
        mag >>= p - keep;
        q += p - keep;
    }
    return td == SMEM_TC_F16 ? to_f16_rn(neg, mag, q) : to_f32_rz(neg, mag, q);
}

uint32_t smem_tc_block(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned n,
                       unsigned tc, uint32_t c, unsigned td)
{
    return block(ta, a, tb, b, n, tc, c, td, TC_BITS, 23);
}

uint32_t smem_tc_block_qgmma(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned n,
                             unsigned tc, uint32_t c, unsigned td)
{
    return block(ta, a, tb, b, n, tc, c, td, QGMMA_BITS, QGMMA_BITS);
}

/* the f32 bits of x + y as FADD makes them (to nearest even, NaN canonical) */
static uint32_t fadd(uint32_t x, uint32_t y)
{
    union { uint32_t u; float f; } a = {x}, b = {y}, r;
    r.f = a.f + b.f;
    return r.f != r.f ? 0x7fffffffu : r.u;
}

uint32_t smem_tc_dot(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned k,
                     unsigned block, unsigned tc, uint32_t c, unsigned td)
{
    int fp8 = ta == SMEM_TC_E4M3 || ta == SMEM_TC_E5M2 || tb == SMEM_TC_E4M3 || tb == SMEM_TC_E5M2;
    if (k > 32)
        k = 32;
    if (fp8) { /* two HMMA.16816.F32 on f16, k = 0, 1 (mod 4) first, then FADD C */
        uint32_t a0[16], b0[16], a1[16], b1[16], p;
        unsigned n0 = 0, n1 = 0;
        for (unsigned i = 0; i < k; i++) {
            if (i % 4 < 2) {
                a0[n0] = a[i];
                b0[n0++] = b[i];
            } else {
                a1[n1] = a[i];
                b1[n1++] = b[i];
            }
        }
        p = smem_tc_block(ta, a0, tb, b0, n0, SMEM_TC_F32, 0, SMEM_TC_F32);
        p = smem_tc_block(ta, a1, tb, b1, n1, SMEM_TC_F32, p, SMEM_TC_F32);
        return fadd(c, p);
    }
    if (!block || block > k)
        block = k;
    uint32_t d = c;
    unsigned t = tc;
    for (unsigned k0 = 0; k0 < k; k0 += block) {
        unsigned n = k - k0 < block ? k - k0 : block;
        d = smem_tc_block(ta, a + k0, tb, b + k0, n, t, d, td);
        t = td;
    }
    return d;
}
