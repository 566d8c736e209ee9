/* cta_fp.c: floating-point instructions bit for bit as an H100 computes them (tests/diff checks
 * each against the GPU): every rounding mode, .ftz, .sat, .relu, NaN results (canonical for f16,
 * bf16 and f32; the last NaN operand, quieted, for f64), -0 below +0 in min and max, f16x2 and
 * bf16x2 lane by lane. Approximate instructions (rcp.approx, ex2, sin, ...) give the correctly
 * rounded value, which the GPU's approximation matches within the PTX ISA's stated error.
 *
 * f16, bf16 and f32 results are computed in double rounded to odd (the exact result's truncation
 * with its last bit set when inexact, from error-free transformations), then rounded once to the
 * format in the instruction's mode: no double rounding. f64 results in a directed mode use the
 * host's rounding modes (fenv.h). */
#include "families.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

/* ---- formats --------------------------------------------------------------------------------- */

enum { FF16 = 0, FBF16 = 1, FF32 = 2, FF64 = 3 };

struct fdesc {
    int p;       /* precision, hidden bit included */
    int w;       /* width in bits */
    int emin, emax;
};

static const struct fdesc fd[4] = {
    {11, 16, -14, 15}, {8, 16, -126, 127}, {24, 32, -126, 127}, {53, 64, -1022, 1023},
};

static int fmt_of(unsigned t)
{
    switch (t) {
    case PT_F16: case PT_F16X2: return FF16;
    case PT_BF16: case PT_BF16X2: return FBF16;
    case PT_F64: return FF64;
    default: return FF32;
    }
}

static uint64_t sign_bit(int f) { return 1ull << (fd[f].w - 1); }
static int mbits(int f) { return fd[f].p - 1; }
static uint64_t exp_mask(int f) { return ((1ull << (fd[f].w - fd[f].p)) - 1) << mbits(f); }
static uint64_t man_mask(int f) { return (1ull << mbits(f)) - 1; }

static int is_nan(uint64_t v, int f) { return (v & exp_mask(f)) == exp_mask(f) && (v & man_mask(f)); }
static int is_inf(uint64_t v, int f) { return (v & exp_mask(f)) == exp_mask(f) && !(v & man_mask(f)); }
static int is_sub(uint64_t v, int f) { return !(v & exp_mask(f)) && (v & man_mask(f)); }
static uint64_t quiet(uint64_t v, int f) { return v | 1ull << (mbits(f) - 1); }

/* The NaN an H100 gives for an invalid f16, bf16 or f32 operation, and for f64 (x86's too). */
static uint64_t canon_nan(int f)
{
    switch (f) {
    case FF16: case FBF16: return 0x7fff;
    case FF32: return 0x7fffffff;
    default: return 0xfff8000000000000ull;
    }
}

static uint64_t flush(uint64_t v, int f) { return is_sub(v, f) ? v & sign_bit(f) : v; }

static double to_d(uint64_t v, int f)
{
    switch (f) {
    case FF16: return (double)half_to_float((uint16_t)v);
    case FBF16: return (double)bf16_to_float((uint16_t)v);
    case FF32: return (double)f32_of(v);
    default: return f64_of(v);
    }
}

static int bitlen(uint64_t m)
{
    int n = 0;
    while (m) {
        n++;
        m >>= 1;
    }
    return n;
}

/* Rounds x (exact, or rounded to odd in double) to format f (f16, bf16, f32) in mode rnd. */
static uint64_t round_to(double x, int f, unsigned rnd)
{
    if (f == FF32 && rnd == RND_RN) { /* the common case: the host's conversion, in the normal
                                         range (no subnormal: the host may flush those) */
        double ax = fabs(x);
        if (ax >= 0x1p-126 && ax < 0x1p128)
            return bits_f32((float)x);
    }
    uint64_t xb = bits_f64(x), sg = xb >> 63 ? sign_bit(f) : 0;
    if (isnan(x))
        return canon_nan(f);
    if (isinf(x))
        return sg | exp_mask(f);
    if (x == 0)
        return sg;
    int ex = (int)((xb >> 52) & 0x7ff);
    uint64_t m = xb & ((1ull << 52) - 1);
    int e;
    if (ex) {
        m |= 1ull << 52;
        e = ex - 1075;
    } else {
        e = -1074;
    }
    int xe = e + bitlen(m) - 1, p = fd[f].p;
    int q = xe - (p - 1);
    if (q < fd[f].emin - (p - 1))
        q = fd[f].emin - (p - 1);
    int sh = q - e;
    uint64_t M, rem = 0, half = 0;
    int above_half = 0, at_half = 0, inexact = 0;
    if (sh <= 0) {
        M = m << -sh;
    } else if (sh > 63) {
        M = 0;
        inexact = 1; /* far below half a unit */
    } else {
        M = m >> sh;
        rem = m & ((1ull << sh) - 1);
        half = 1ull << (sh - 1);
        inexact = rem != 0;
        above_half = rem > half;
        at_half = rem == half;
    }
    int neg = sg != 0, up = 0;
    switch (rnd) {
    case RND_RZ: case RND_RZI: break;
    case RND_RM: case RND_RMI: up = inexact && neg; break;
    case RND_RP: case RND_RPI: up = inexact && !neg; break;
    default: up = above_half || (at_half && (M & 1)); break;
    }
    M += (uint64_t)up;
    if (M >> p) { /* carried into a new binade */
        M >>= 1;
        q++;
    }
    int E = q + (p - 1);
    if (M >> (p - 1) && E > fd[f].emax) {
        int to_inf = rnd == RND_RZ || rnd == RND_RZI ? 0
                     : rnd == RND_RM || rnd == RND_RMI ? neg
                     : rnd == RND_RP || rnd == RND_RPI ? !neg : 1;
        return sg | (to_inf ? exp_mask(f) : exp_mask(f) - 1);
    }
    if (M >> (p - 1)) /* normal */
        return sg | (uint64_t)(E + fd[f].emax) << mbits(f) | (M & man_mask(f));
    return sg | M; /* subnormal (or zero) */
}

/* The result rounded to odd, from the round-to-nearest s and the sign of the exact error. */
static double odd(double s, int err_sign)
{
    if (!err_sign || !isfinite(s) || s == 0)
        return s;
    uint64_t b = bits_f64(s);
    if ((err_sign < 0) != (s < 0))
        b -= 1; /* the exact value is nearer zero: truncate */
    return f64_of(b | 1);
}

static int sgn(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }

/* a + b rounded to odd (a, b: f32 or narrower values, so nothing overflows in double) */
static double add_odd(double a, double b)
{
    volatile double s = a + b;
    double bb = s - a;
    double err = (a - (s - bb)) + (b - bb);
    return odd(s, sgn(err));
}

static double div_odd(double a, double b)
{
    if (!isfinite(a) || !isfinite(b) || b == 0)
        return a / b;
    double q = a / b;
    double r = fma(-q, b, a);
    return odd(q, sgn(r) * sgn(b));
}

static double sqrt_odd(double a)
{
    double s = sqrt(a);
    if (!isfinite(s) || s == 0)
        return s;
    return odd(s, sgn(fma(-s, s, a)));
}

/* f64 operations in a directed mode: the host's rounding, restored at once. */
static double f64_mode(unsigned op, unsigned rnd, double a, double b, double c)
{
    int mode = rnd == RND_RZ ? FE_TOWARDZERO : rnd == RND_RM ? FE_DOWNWARD
               : rnd == RND_RP ? FE_UPWARD : FE_TONEAREST;
    volatile double va = a, vb = b, vc = c, r;
    int old = fegetround();
    fesetround(mode);
    switch (op) {
    case PO_ADD: r = va + vb; break;
    case PO_SUB: r = va - vb; break;
    case PO_MUL: r = va * vb; break;
    case PO_DIV: r = va / vb; break;
    case PO_RCP: r = 1.0 / va; break;
    case PO_SQRT: r = sqrt(va); break;
    default: r = fma(va, vb, vc); break;
    }
    double out = r;
    fesetround(old);
    return out;
}

/* ---- one lane of an arithmetic instruction ---------------------------------------------------- */

struct fpop {
    unsigned op, rnd;
    int f, ftz, sat, relu, nanmod, xorsign, approx;
};

/* The NaN an operation with NaN operands gives: canonical, but for f64 a NaN operand, quieted; of
 * several, the one the H100 keeps: b before a (add, sub, mul, min, max), b, c, a (fma), a, b (div). */
static uint64_t nan_result(const struct fpop *o, const uint64_t *v, unsigned n)
{
    if (o->f != FF64)
        return canon_nan(o->f);
    static const unsigned two[] = {1, 0}, three[] = {1, 2, 0}, divo[] = {0, 1};
    const unsigned *ord = n == 3 ? three : o->op == PO_DIV ? divo : two;
    for (unsigned i = 0; i < n; i++) {
        unsigned k = n == 1 ? 0 : ord[i];
        if (is_nan(v[k], FF64))
            return quiet(v[k], FF64);
    }
    return canon_nan(FF64);
}

static uint64_t finish(const struct fpop *o, uint64_t r)
{
    int f = o->f;
    if (is_nan(r, f) && f != FF64)
        r = canon_nan(f);
    if (o->ftz)
        r = flush(r, f);
    if (o->relu && !is_nan(r, f) && (r & sign_bit(f)))
        r = 0;
    if (o->sat) {
        if (is_nan(r, f) || (r & sign_bit(f)))
            r = 0;
        else if (to_d(r, f) > 1.0)
            r = round_to(1.0, f, RND_RN);
    }
    return r;
}

/* min and max: a NaN operand gives the other (.NaN: a NaN), -0 is below +0; .xorsign.abs compares
 * magnitudes and gives the result the sign a ^ b. */
static uint64_t minmax(const struct fpop *o, uint64_t a, uint64_t b)
{
    int f = o->f;
    uint64_t sx = (a ^ b) & sign_bit(f), r;
    if (o->xorsign) {
        a &= ~sign_bit(f);
        b &= ~sign_bit(f);
    }
    int na = is_nan(a, f), nb = is_nan(b, f);
    if (na || nb) {
        if (o->nanmod || (na && nb)) {
            uint64_t v[2] = {a, b};
            return nan_result(o, v, 2);
        }
        r = na ? b : a;
    } else {
        double x = to_d(a, f), y = to_d(b, f);
        int pick_a;
        if (x == y) /* -0 is below +0 */
            pick_a = o->op == PO_MIN ? (a & sign_bit(f)) != 0 : !(a & sign_bit(f));
        else
            pick_a = o->op == PO_MIN ? x < y : x > y;
        r = pick_a ? a : b;
    }
    if (o->xorsign)
        r = (r & ~sign_bit(f)) | sx;
    return finish(o, r);
}

/* One lane: the operation on operands a, b, c (bits of format o->f). */
static uint64_t lane(const struct fpop *o, uint64_t a, uint64_t b, uint64_t c)
{
    int f = o->f;
    unsigned rnd = o->rnd ? o->rnd : RND_RN;
    if (o->ftz && f != FF64) {
        a = flush(a, f);
        b = flush(b, f);
        c = flush(c, f);
    }
    uint64_t v[3] = {a, b, c};
    switch (o->op) {
    case PO_ABS: case PO_NEG: {
        if (is_nan(a, f)) /* f64: quieted, its sign kept */
            return f == FF64 ? quiet(a, f) : canon_nan(f);
        uint64_t r = o->op == PO_ABS ? a & ~sign_bit(f) : a ^ sign_bit(f);
        return o->ftz ? flush(r, f) : r;
    }
    case PO_MIN: case PO_MAX:
        return minmax(o, a, b);
    case PO_COPYSIGN:
        return (b & ~sign_bit(f)) | (a & sign_bit(f));
    default: break;
    }
    if (f == FF64 && o->approx && o->ftz) { /* rcp/rsqrt.approx.ftz.f64: on a[63:32] only */
        uint64_t hi = a & 0xffffffff00000000ull;
        if (is_nan(hi, FF64))
            return 0x7fffffff00000000ull;
        if (is_sub(hi, FF64))
            hi &= sign_bit(FF64);
        double h = f64_of(hi);
        double r = o->op == PO_RCP ? 1.0 / h : 1.0 / sqrt(h);
        uint64_t rb = isnan(r) ? 0x7fffffff00000000ull : bits_f64(r) & 0xffffffff00000000ull;
        return flush(rb, FF64);
    }
    unsigned nops = o->op == PO_FMA || o->op == PO_MAD ? 3
                    : o->op == PO_ADD || o->op == PO_SUB || o->op == PO_MUL || o->op == PO_DIV ? 2 : 1;
    for (unsigned i = 0; i < nops; i++)
        if (is_nan(v[i], f))
            return finish(o, nan_result(o, v, nops));
    double x = to_d(a, f), y = to_d(b, f), z = to_d(c, f), r;
    if (f == FF64) {
        int directed = rnd == RND_RZ || rnd == RND_RM || rnd == RND_RP;
        switch (o->op) {
        case PO_ADD: case PO_SUB: case PO_MUL: case PO_DIV: case PO_SQRT: case PO_FMA: case PO_MAD:
            r = directed ? f64_mode(o->op == PO_MAD ? PO_FMA : o->op, rnd, x, y, z)
                : o->op == PO_ADD ? x + y : o->op == PO_SUB ? x - y : o->op == PO_MUL ? x * y
                : o->op == PO_DIV ? x / y : o->op == PO_SQRT ? sqrt(x) : fma(x, y, z);
            break;
        case PO_RCP: r = directed ? f64_mode(PO_RCP, rnd, x, 0, 0) : 1.0 / x; break;
        case PO_RSQRT: r = 1.0 / sqrt(x); break;
        default: return canon_nan(f);
        }
        uint64_t rb = bits_f64(r);
        if (isnan(r))
            rb = canon_nan(FF64);
        if (o->ftz)
            rb = flush(rb, FF64);
        return rb;
    }
    double p1 = x, p2 = y; /* the two addends of add, sub, fma */
    switch (o->op) {
    case PO_ADD: r = add_odd(x, y); break;
    case PO_SUB: p2 = -y; r = add_odd(x, -y); break;
    case PO_MUL: r = x * y; break; /* exact in double */
    case PO_FMA: case PO_MAD: p1 = x * y; p2 = z; r = add_odd(x * y, z); break;
    case PO_DIV:
        if (o->approx) { /* div.approx and div.full: the correctly rounded quotient (within 2 ulp) */
            if (o->approx == 1 && fabs(y) > 0x1p126 && isfinite(y))
                return finish(o, isinf(x) ? canon_nan(f) : ((a ^ b) & sign_bit(f)));
            rnd = RND_RN;
        }
        r = div_odd(x, y);
        break;
    case PO_RCP: r = o->approx ? 1.0 / x : div_odd(1.0, x); break;
    case PO_SQRT: r = o->approx ? sqrt(x) : sqrt_odd(x); break;
    case PO_RSQRT: r = 1.0 / sqrt(x); break;
    case PO_SIN: r = sin(x); break;
    case PO_COS: r = cos(x); break;
    case PO_EX2: r = exp2(x); break;
    case PO_LG2: r = log2(x); break;
    case PO_TANH: r = tanh(x); break;
    default: return canon_nan(f);
    }
    if (o->approx)
        rnd = RND_RN;
    if (r == 0 && (o->op == PO_ADD || o->op == PO_SUB || o->op == PO_FMA || o->op == PO_MAD)) {
        /* an exact zero sum: -0 when both addends are -0, or in round-down mode */
        int neg = signbit(p1) == signbit(p2) ? signbit(p1) != 0 : rnd == RND_RM;
        r = neg ? -0.0 : 0.0;
    }
    if (o->ftz && isfinite(r) && fabs(r) < ldexp(1.0, fd[f].emin))
        r = copysign(0.0, r); /* flushed before rounding: what rounds up to the smallest normal too */
    return finish(o, round_to(r, f, rnd));
}

static void decode_op(const struct smem_ptx_insn *in, struct fpop *o)
{
    memset(o, 0, sizeof *o);
    o->op = in->op;
    o->rnd = in->round;
    o->f = fmt_of(in->type);
    o->ftz = in->ftz;
    o->sat = in->sat;
    o->relu = (in->mods & SMEM_MOD_RELU) != 0;
    o->nanmod = (in->mods & SMEM_MOD_NAN) != 0;
    o->xorsign = (in->mods & SMEM_MOD_XORSIGN) != 0;
    /* approx: 1; div.full: 2; the approximate functions */
    if (in->mods & SMEM_MOD_FULL)
        o->approx = 2;
    else if ((in->mods & SMEM_MOD_APPROX) || in->op == PO_SIN || in->op == PO_COS ||
             in->op == PO_EX2 || in->op == PO_LG2 || in->op == PO_TANH || in->op == PO_RSQRT)
        o->approx = 1;
    if (in->op == PO_DIV && !in->round && !o->approx && o->f == FF32)
        o->approx = 1; /* div.f32 without a rounding mode: div.approx (sm_1x); ptxas needs one */
}

int emu_fp_arith(const struct smem_ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *r)
{
    struct fpop o;
    decode_op(in, &o);
    if (in->type == PT_F16X2 || in->type == PT_BF16X2) {
        uint64_t lo = lane(&o, a & 0xffff, b & 0xffff, c & 0xffff);
        uint64_t hi = lane(&o, a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff);
        *r = lo | hi << 16;
        return 0;
    }
    *r = lane(&o, a, b, c);
    return 0;
}

/* ---- comparisons ----------------------------------------------------------------------------- */

static int cmp1(unsigned cmp, int f, int ftz, uint64_t a, uint64_t b)
{
    if (ftz) {
        a = flush(a, f);
        b = flush(b, f);
    }
    double x = to_d(a, f), y = to_d(b, f);
    int un = is_nan(a, f) || is_nan(b, f);
    switch (cmp) {
    case CMP_EQ: return !un && x == y;
    case CMP_NE: return !un && x != y;
    case CMP_LT: return !un && x < y;
    case CMP_LE: return !un && x <= y;
    case CMP_GT: return !un && x > y;
    case CMP_GE: return !un && x >= y;
    case CMP_EQU: return un || x == y;
    case CMP_NEU: return un || x != y;
    case CMP_LTU: return un || x < y;
    case CMP_LEU: return un || x <= y;
    case CMP_GTU: return un || x > y;
    case CMP_GEU: return un || x >= y;
    case CMP_NUM: return !un;
    case CMP_NAN: return un;
    default: return 0;
    }
}

/* Compares a and b of float type t; f16x2/bf16x2 give two results (bit 0 low, bit 1 high). */
int emu_fp_compare(unsigned cmp, unsigned t, int ftz, uint64_t a, uint64_t b)
{
    int f = fmt_of(t);
    if (t == PT_F16X2 || t == PT_BF16X2)
        return cmp1(cmp, f, ftz, a & 0xffff, b & 0xffff) |
               cmp1(cmp, f, ftz, a >> 16 & 0xffff, b >> 16 & 0xffff) << 1;
    return cmp1(cmp, f, ftz, a, b);
}

int emu_fp_testp(unsigned mode, unsigned t, uint64_t a)
{
    int f = fmt_of(t);
    switch (mode) {
    case MODE_FINITE: return !is_nan(a, f) && !is_inf(a, f);
    case MODE_INFINITE: return is_inf(a, f);
    case MODE_NUMBER: return !is_nan(a, f);
    case MODE_NOTANUMBER: return is_nan(a, f);
    case MODE_NORMAL: return !is_nan(a, f) && !is_inf(a, f) && !is_sub(a, f); /* zero too */
    case MODE_SUBNORMAL: return is_sub(a, f);
    default: return 0;
    }
}

/* slct: c >= 0 picks a; a NaN picks b, as a negative value does */
int emu_fp_is_negative(unsigned t, int ftz, uint64_t a)
{
    int f = fmt_of(t);
    if (ftz)
        a = flush(a, f);
    return is_nan(a, f) || to_d(a, f) < 0;
}

/* 1.0 or 0 in float type t (set.f32, set.f16x2) */
uint64_t emu_fp_one(unsigned t) { return round_to(1.0, fmt_of(t), RND_RN); }

/* ---- conversions ------------------------------------------------------------------------------ */

/* The NaN cvt gives for a NaN operand (the H100's rules, from tests/diff). */
static uint64_t cvt_nan(int df, int sf, int ftz, uint64_t v)
{
    if (sf == FF32 && ftz && df == FF64)
        v = canon_nan(FF32);
    uint64_t neg = v & sign_bit(sf) ? sign_bit(df) : 0;
    switch (df) {
    case FF16: case FBF16: /* from f64: quieted, the payload's top bits */
        return sf == FF64 ? neg | exp_mask(df) | 1ull << (mbits(df) - 1) |
                                (v & man_mask(FF64)) >> (52 - mbits(df))
                          : 0x7fff;
    case FF32:
        if (sf == FBF16 && !ftz)
            return v << 16; /* a shift: the payload as it is */
        if (sf == FF64)
            return bits_f32((float)f64_of(v)); /* quieted, the payload's top bits */
        return canon_nan(FF32);
    default:
        if (sf == FF64)
            return quiet(v, FF64);
        return neg | exp_mask(FF64) | 1ull << 51 | (v & man_mask(sf)) << (52 - mbits(sf));
    }
}

/* float -> integer: rounded to an integer, saturated; NaN gives 0, or the sign bit (64-bit
 * destinations, and f64 sources) */
static uint64_t cvt_f2i(unsigned dt, int sf, unsigned rnd, uint64_t v)
{
    unsigned db = TBYTES(dt);
    if (is_nan(v, sf))
        return db == 8 || sf == FF64 ? 1ull << (8 * db - 1) : 0;
    double d = round_int(to_d(v, sf), rnd ? rnd : RND_RZI);
    if (is_signed(dt)) {
        double lo = -ldexp(1.0, (int)(8 * db - 1)), hi = ldexp(1.0, (int)(8 * db - 1));
        if (d >= hi)
            return mask_bytes(db) >> 1;
        if (d <= lo)
            return (1ull << (8 * db - 1)) & mask_bytes(db);
        return (uint64_t)(int64_t)d & mask_bytes(db);
    }
    if (d >= ldexp(1.0, (int)(8 * db)))
        return mask_bytes(db);
    return d <= 0 ? 0 : (uint64_t)d & mask_bytes(db);
}

/* cvt between two float types, or an integer and a float. Returns the destination's bits. */
/* cvt.{rna,rn,rz}{.relu}{.satfinite}.tf32.f32: an f32 rounded to 10 mantissa bits, kept in a
 * .b32 with the 13 low bits zero (no flush of subnormals). As the H100 does it (tests/diff):
 * .rna is pure bit arithmetic, (u + 0x1000) with the low 13 bits cleared, NaNs included (a
 * signalling NaN 0x7f800001 becomes +inf); with .satfinite, a result whose exponent is all ones
 * (inf or NaN) is lowered by one unit (inf gives the largest finite value). .rn and .rz give the
 * canonical 0x7fffe000 for every NaN. */
static uint64_t cvt_tf32(const struct smem_ptx_insn *in, uint64_t v)
{
    uint32_t u = (uint32_t)v;
    if (in->round == RND_RNA || in->round == RND_NONE) {
        uint32_t r = (u + 0x1000u) & ~0x1fffu;
        if ((in->mods & SMEM_MOD_SATFINITE) && (r & 0x7f800000u) == 0x7f800000u)
            r -= 0x2000u;
        return r;
    }
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return 0x7fffe000u;
    uint32_t low = u & 0x1fffu, r = u & ~0x1fffu;
    if (in->round == RND_RN && (low > 0x1000u || (low == 0x1000u && (r & 0x2000u))))
        r += 0x2000u;
    if ((in->mods & SMEM_MOD_RELU) && (r >> 31))
        r = 0;
    return r;
}

/* An fp8 byte (e4m3: bias 7, 3 fraction bits, no infinity, 0x7f NaN; e5m2: bias 15, 2 fraction
 * bits) of x, rounded to nearest even on the format's grid (subnormals included); .satfinite
 * clamps to the largest finite (448, 57344), else e4m3 overflows to NaN and e5m2 to infinity;
 * .relu makes a negative 0; a NaN is 0x7f. From the PTX ISA (cvt with .f8x2type): not measured. */
static uint32_t to_fp8(double x, int e5, int satf, int relu)
{
    int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7, emin = 1 - bias;
    double maxf = e5 ? 57344.0 : 448.0;
    if (x != x)
        return 0x7f;
    uint32_t sg = signbit(x) ? 0x80u : 0;
    if (relu && sg)
        return 0;
    double a = fabs(x);
    if (a == 0)
        return sg;
    int e = ilogb(a) < emin ? emin : ilogb(a);
    double q = ldexp(1.0, e - mb), r = nearbyint(a / q) * q; /* a / q: exact (a power of two) */
    if (r > maxf)
        return sg | (satf ? (e5 ? 0x7bu : 0x7eu) : (e5 ? 0x7cu : 0x7fu));
    if (r < ldexp(1.0, emin)) /* subnormal: exponent field 0 */
        return sg | (uint32_t)(r / ldexp(1.0, emin - mb));
    int re = ilogb(r);
    return sg | (uint32_t)(re + bias) << mb | ((uint32_t)(r / ldexp(1.0, re - mb)) & ((1u << mb) - 1u));
}

/* the f16 bits of an fp8 byte (exact; a NaN: 0x7fff) */
static uint64_t fp8_to_f16(uint32_t x, int e5)
{
    int mb = e5 ? 2 : 3, bias = e5 ? 15 : 7;
    uint32_t ex = x >> mb & (e5 ? 0x1fu : 0xfu), m = x & ((1u << mb) - 1u);
    double v;
    if ((!e5 && (x & 0x7f) == 0x7f) || (e5 && ex == 0x1f && m))
        return 0x7fff;
    if (e5 && ex == 0x1f)
        return (x & 0x80 ? 0x8000u : 0) | 0x7c00u;
    v = ex ? ldexp(1.0 + m / (double)(1u << mb), (int)ex - bias) : ldexp(m / (double)(1u << mb), 1 - bias);
    return round_to(x & 0x80 ? -v : v, FF16, RND_RN);
}

uint64_t emu_fp_cvt(const struct smem_ptx_insn *in, uint64_t v, uint64_t v2)
{
    if (in->type == PT_E4M3X2 || in->type == PT_E5M2X2) {
        /* cvt.rn.satfinite{.relu}.e4m3x2.f32 d, a, b: a's byte high, b's low; from .f16x2 a:
           each half to its byte */
        int e5 = in->type == PT_E5M2X2, satf = (in->mods & SMEM_MOD_SATFINITE) != 0;
        int relu = (in->mods & SMEM_MOD_RELU) != 0;
        if (in->type2 == PT_F16X2)
            return to_fp8(to_d(v & 0xffff, FF16), e5, satf, relu) |
                   to_fp8(to_d(v >> 16 & 0xffff, FF16), e5, satf, relu) << 8;
        return to_fp8(to_d(v2, FF32), e5, satf, relu) | to_fp8(to_d(v, FF32), e5, satf, relu) << 8;
    }
    if (in->type == PT_F16X2 && (in->type2 == PT_E4M3X2 || in->type2 == PT_E5M2X2)) {
        /* cvt.rn.f16x2.e4m3x2 d, a: each byte of a to its half of d, the low byte low */
        int e5 = in->type2 == PT_E5M2X2;
        return fp8_to_f16((uint32_t)v & 0xff, e5) | fp8_to_f16((uint32_t)v >> 8 & 0xff, e5) << 16;
    }
    if (in->mods & SMEM_MOD_TF32)
        return cvt_tf32(in, v);
    unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    unsigned rnd = in->round;
    int relu = (in->mods & SMEM_MOD_RELU) != 0, satf = (in->mods & SMEM_MOD_SATFINITE) != 0;
    if (dt == PT_F16X2 || dt == PT_BF16X2) { /* cvt.rn.f16x2.f32 d, a, b: a high, b low */
        struct smem_ptx_insn one = *in;
        one.type = dt == PT_F16X2 ? PT_F16 : PT_BF16;
        return emu_fp_cvt(&one, v2, 0) | emu_fp_cvt(&one, v, 0) << 16;
    }
    int df = fmt_of(dt);
    if (is_float(st)) {
        int sf = fmt_of(st);
        /* .ftz flushes f32 and bf16 operands, except on the way to f16 */
        if (in->ftz && (sf == FF32 || sf == FBF16) && df != FF16)
            v = flush(v, sf);
        if (!is_float(dt))
            return cvt_f2i(dt, sf, rnd, v);
        uint64_t r;
        if (is_nan(v, sf)) {
            if (in->sat)
                return 0;
            return cvt_nan(df, sf, in->ftz, v);
        }
        if (df == FF64)
            r = bits_f64(rnd >= RND_RNI ? round_int(to_d(v, sf), rnd) : to_d(v, sf));
        else if (rnd >= RND_RNI) /* to an integral value in the same format */
            r = round_to(round_int(to_d(v, sf), rnd), df, RND_RN);
        else
            r = round_to(to_d(v, sf), df, rnd ? rnd : RND_RN);
        if (in->ftz && df == FF32)
            r = flush(r, df);
        if (satf && is_inf(r, df))
            r = (r & sign_bit(df)) | (exp_mask(df) - 1); /* the largest finite value */
        if (relu && (r & sign_bit(df)))
            r = 0;
        if (in->sat) {
            if (r & sign_bit(df))
                r = 0;
            else if (to_d(r, df) > 1.0)
                r = df == FF64 ? bits_f64(1.0) : round_to(1.0, df, RND_RN);
        }
        return r;
    }
    /* integer -> float */
    unsigned sb = TBYTES(st);
    if (df == FF64) {
        if (is_signed(st)) {
            int64_t x = sext(v, sb);
            return bits_f64(f64_mode(PO_ADD, rnd, (double)(x >> 11) * 2048.0, (double)(x & 2047), 0));
        }
        uint64_t x = v & mask_bytes(sb);
        return bits_f64(f64_mode(PO_ADD, rnd, (double)(x >> 11) * 2048.0, (double)(x & 2047), 0));
    }
    /* the integer as a double rounded to odd, then rounded once */
    double d;
    if (is_signed(st)) {
        int64_t x = sext(v, sb);
        double hi = (double)(x >> 11) * 2048.0, lo = (double)(x & 2047);
        d = add_odd(hi, lo);
    } else {
        uint64_t x = v & mask_bytes(sb);
        d = add_odd((double)(x >> 11) * 2048.0, (double)(x & 2047));
    }
    uint64_t r = round_to(d, df, rnd ? rnd : RND_RN);
    if (in->sat && df != FF64 && to_d(r, df) > 1.0)
        r = round_to(1.0, df, RND_RN);
    return r;
}

/* atom.add / red.add on a float type: the H100 adds f32 in global memory with subnormals flushed
 * (in shared memory without); f64 NaNs pass through global memory as they are (the added value's
 * first), quieted in shared memory (the old value's first). */
uint64_t emu_fp_atom_add(unsigned t, int shared, uint64_t old, uint64_t v)
{
    struct smem_ptx_insn in;
    uint64_t r = 0;
    if (t == PT_F64 && (is_nan(old, FF64) || is_nan(v, FF64))) {
        if (shared)
            return quiet(is_nan(old, FF64) ? old : v, FF64);
        return is_nan(v, FF64) ? v : old;
    }
    memset(&in, 0, sizeof in);
    in.op = PO_ADD;
    in.type = (uint8_t)t;
    in.round = RND_RN;
    in.ftz = (uint8_t)(t == PT_F32 && !shared);
    emu_fp_arith(&in, old, v, 0, &r);
    return r;
}
