/* cta_alu.c: the emulator's arithmetic: integer, floating point (rounding modes, .ftz, .sat),
 * comparisons, conversions, prmt, bit operations, one thread at a time. */
#include "families.h"

#include <math.h>
#include <stdint.h>

/* ---- arithmetic --------------------------------------------------------------------------- */

/* Integer comparisons; float ones (f16x2: bit 0 the low half, bit 1 the high) in cta_fp.c. */
static int compare(unsigned cmp, unsigned t, int ftz, uint64_t a, uint64_t c)
{
    unsigned bytes = TBYTES(t);
    if (is_fp(t))
        return emu_fp_compare(cmp, t, ftz, a, c);
    uint64_t m = mask_bytes(bytes);
    if (is_signed(t)) {
        int64_t x = sext(a, bytes), y = sext(c, bytes);
        switch (cmp) {
        case CMP_EQ: return x == y;
        case CMP_NE: return x != y;
        case CMP_LT: return x < y;
        case CMP_LE: return x <= y;
        case CMP_GT: return x > y;
        case CMP_GE: return x >= y;
        default: break;
        }
    }
    uint64_t x = a & m, y = c & m;
    switch (cmp) {
    case CMP_EQ: return x == y;
    case CMP_NE: return x != y;
    case CMP_LT: case CMP_LO: return x < y;
    case CMP_LE: case CMP_LS: return x <= y;
    case CMP_GT: case CMP_HI: return x > y;
    case CMP_GE: case CMP_HS: return x >= y;
    default: return 0;
    }
}

static uint64_t cvt_value(const struct smem_ptx_insn *in, uint64_t v, uint64_t v2)
{
    unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    unsigned db = TBYTES(dt), sb = TBYTES(st);
    if (is_fp(dt) || is_fp(st))
        return emu_fp_cvt(in, v, v2);
    /* int -> int */
    uint64_t r = is_signed(st) ? (uint64_t)sext(v, sb) : (v & mask_bytes(sb));
    if (in->sat) {
        if (is_signed(dt)) {
            int64_t hi = (int64_t)((1ull << (8 * db - 1)) - 1), lo = -hi - 1;
            int64_t x = is_signed(st) ? (int64_t)r : (int64_t)(r > (uint64_t)INT64_MAX ? INT64_MAX : r);
            if (db < 8)
                x = x < lo ? lo : x > hi ? hi : x;
            r = (uint64_t)x;
        } else {
            if (is_signed(st) && (int64_t)r < 0)
                r = 0;
            else if (db < 8 && r > mask_bytes(db))
                r = mask_bytes(db);
        }
    }
    if (is_signed(dt))
        return (uint64_t)sext(r, db);
    return r & mask_bytes(db);
}

static uint32_t prmt(uint32_t a, uint32_t c, uint32_t sel, unsigned mode)
{
    uint64_t bytes = (uint64_t)c << 32 | a;
    uint32_t r = 0;
    if (mode == MODE_NONE) {
        for (int i = 0; i < 4; i++) {
            uint32_t s = (sel >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
            if (s & 8)
                byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        return r;
    }
    static const uint8_t tab[6][4][4] = {
        /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    };
    unsigned t = mode - MODE_PRMT_F4E, s = sel & 3;
    for (int i = 0; i < 4; i++)
        r |= ((uint32_t)(bytes >> (8 * tab[t][s][i])) & 0xff) << (8 * i);
    return r;
}

static int clz64(uint64_t v, unsigned bits)
{
    int n = 0;
    for (int i = (int)bits - 1; i >= 0 && !(v >> i & 1); i--)
        n++;
    return n;
}

/* Executes an ALU instruction. Returns 0, or -1 if the opcode is not an ALU one. */
int emu_exec_alu(struct block *b, uint32_t tid, const struct smem_ptx_insn *in, uint64_t *R,
                    uint8_t *K)
{
    int k = 1;
    unsigned t = in->type, bytes = TBYTES(t);
    const struct smem_ptx_operand *o = in->ops;
    int32_t d = o[0].reg[0];
    uint64_t a = in->nops > 1 ? op_src(b, tid, R, K, &o[1], &k) : 0;
    uint64_t c = in->nops > 2 ? op_src(b, tid, R, K, &o[2], &k) : 0;
    uint64_t e = in->nops > 3 ? op_src(b, tid, R, K, &o[3], &k) : 0;
    if (o[1].neg)
        a = !a; /* !%p: only predicates are written so */
    if (o[2].neg)
        c = !c;
    uint64_t r = 0;
    unsigned rbytes = bytes;
    int fl = is_fp(t), sg = is_signed(t);
    /* 128-bit values, untyped arithmetic and .oob are not modelled: say so rather than guess */
    if (bytes > 8 || (bytes == 0 && in->op != PO_ISSPACEP) ||
        (in->op == PO_CVT && (TBYTES(in->type2) > 8)) || (in->mods & SMEM_MOD_OOB))
        return -1;
    uint64_t m = mask_bytes(bytes);
    switch (in->op) {
    case PO_MOV:
        if (o[1].kind == OPK_VEC)
            k = 1; /* op_src() calls a vector unknown: the pack below looks at its registers */
        if (o[0].kind == OPK_VEC) { /* unpack: mov.b64 {%r1,%r2}, %rd */
            unsigned n = o[0].count, part = bytes / (n ? n : 1);
            for (unsigned i = 0; i < n; i++)
                op_dst(R, K, o[0].reg[i], a >> (8 * part * i), k, part);
            return 0;
        }
        if (o[1].kind == OPK_VEC) { /* pack */
            unsigned n = o[1].count, part = bytes / (n ? n : 1);
            for (unsigned i = 0; i < n; i++) {
                int32_t rr = o[1].reg[i];
                if (rr < 0 || !K[rr])
                    k = 0;
                r |= (rr >= 0 ? R[rr] & mask_bytes(part) : 0) << (8 * part * i);
            }
            break;
        }
        if (o[1].kind == OPK_SYM && b->p->func->syms[o[1].sym].kind == SYM_GLOBAL)
            k = 1;
        r = a;
        break;
    default:
        if (emu_fp_form(in)) { /* cta_fp.c's */
            emu_fp_arith(in, a, c, e, &r);
            break;
        }
        goto integer;
    }
    goto done;
integer:
    switch (in->op) {
    case PO_ADD:
        if (in->sat && t == PT_S32) {
            int64_t x = (int64_t)(int32_t)a + (int64_t)(int32_t)c;
            r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
        } else r = a + c;
        break;
    case PO_SUB:
        if (in->sat && t == PT_S32) {
            int64_t x = (int64_t)(int32_t)a - (int64_t)(int32_t)c;
            r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
        } else r = a - c;
        break;
    case PO_MUL: case PO_MAD:
        if (in->mode == MODE_WIDE) {
            uint64_t x = sg ? (uint64_t)(sext(a, bytes) * sext(c, bytes)) : (a & m) * (c & m);
            r = in->op == PO_MAD ? x + e : x;
            rbytes = bytes * 2;
        } else if (in->mode == MODE_HI) {
            if (bytes == 8) {
#if defined(__SIZEOF_INT128__)
                __extension__ typedef unsigned __int128 u128;
                __extension__ typedef __int128 s128;
                if (sg) r = (uint64_t)(((s128)(int64_t)a * (s128)(int64_t)c) >> 64);
                else r = (uint64_t)(((u128)a * (u128)c) >> 64);
#else
                return -2;
#endif
            } else if (sg) {
                r = (uint64_t)((sext(a, bytes) * sext(c, bytes)) >> (8 * bytes));
            } else {
                r = ((a & m) * (c & m)) >> (8 * bytes);
            }
            if (in->op == PO_MAD && in->sat && t == PT_S32) { /* mad.hi.sat.s32 */
                int64_t x = (int64_t)(int32_t)r + (int64_t)(int32_t)e;
                r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
            } else if (in->op == PO_MAD) {
                r += e;
            }
        } else {
            r = a * c;
            if (in->op == PO_MAD)
                r += e;
        }
        break;
    case PO_MUL24: case PO_MAD24: {
        uint64_t x = sg ? (uint64_t)(sext(a & 0xffffff, 3) * sext(c & 0xffffff, 3))
                        : (a & 0xffffff) * (c & 0xffffff);
        r = in->mode == MODE_HI ? x >> 16 : x;
        if (in->op == PO_MAD24)
            r += e;
        break;
    }
    case PO_DIV: case PO_REM:
        if (!k)
            break;
        if ((c & m) == 0) { /* the H100 gives all ones, for div and rem alike */
            r = m;
            break;
        }
        if (sg) {
            int64_t x = sext(a, bytes), y = sext(c, bytes);
            if (y == -1)
                r = in->op == PO_DIV ? (uint64_t)(0 - (uint64_t)x) : 0;
            else
                r = (uint64_t)(in->op == PO_DIV ? x / y : x % y);
        } else {
            r = in->op == PO_DIV ? (a & m) / (c & m) : (a & m) % (c & m);
        }
        break;
    case PO_ABS:
        r = sext(a, bytes) < 0 ? 0 - (uint64_t)sext(a, bytes) : (uint64_t)sext(a, bytes);
        break;
    case PO_NEG: r = 0 - a; break;
    case PO_MIN: case PO_MAX: {
        int lt = sg ? sext(a, bytes) < sext(c, bytes) : (a & m) < (c & m);
        r = (in->op == PO_MIN) == lt ? a : c;
        if ((in->mods & SMEM_MOD_RELU) && sext(r, bytes) < 0)
            r = 0;
        break;
    }
    case PO_POPC: r = (uint64_t)__builtin_popcountll(a & m); rbytes = 4; break;
    case PO_CLZ: r = (uint64_t)clz64(a & m, 8 * bytes); rbytes = 4; break;
    case PO_BFIND: {
        int64_t pos = -1;
        uint64_t v = a & m;
        if (sg && sext(a, bytes) < 0)
            v = ~a & m;
        for (int i = (int)(8 * bytes) - 1; i >= 0; i--)
            if (v >> i & 1) {
                pos = i;
                break;
            }
        if (pos >= 0 && (in->mods & SMEM_MOD_SHIFTAMT))
            pos = (int64_t)(8 * bytes) - 1 - pos; /* the left shift that brings it to the top */
        r = pos < 0 ? 0xffffffffu : (uint64_t)pos;
        rbytes = 4;
        break;
    }
    case PO_BREV: {
        uint64_t v = a & m;
        r = 0;
        for (unsigned i = 0; i < 8 * bytes; i++)
            if (v >> i & 1)
                r |= 1ull << (8 * bytes - 1 - i);
        break;
    }
    case PO_BFE: {
        /* 32-bit: position and length are the low 8 bits of their operands; 64-bit: all 32 */
        uint64_t pos = bytes == 8 ? (uint32_t)c : (c & 0xff), len = bytes == 8 ? (uint32_t)e : (e & 0xff);
        unsigned bits = 8 * bytes;
        uint64_t v = a & m;
        if (len == 0) { r = 0; break; }
        uint64_t field = pos >= bits ? 0 : v >> pos;
        if (len < 64)
            field &= (1ull << len) - 1;
        if (sg) { /* the field's top bit (or the value's, if beyond it) fills the rest */
            uint64_t top = pos + len - 1 >= bits ? bits - 1 : pos + len - 1;
            int sbit = (int)(v >> top & 1);
            uint64_t keep = pos >= bits ? 0 : len < bits - pos ? len : bits - pos;
            if (sbit && keep < 64)
                field |= ~((1ull << keep) - 1);
        }
        r = field;
        break;
    }
    case PO_VABSDIFF4: { /* c + sum of |a.byte[i] - b.byte[i]|, bytes signed for .s32 sources */
        int ssrc = is_signed(in->type2);
        int64_t sum = 0;
        for (int i = 0; i < 4; i++) {
            int32_t x = (int32_t)((a >> (8 * i)) & 0xff), y = (int32_t)((c >> (8 * i)) & 0xff);
            if (ssrc) {
                x = (int8_t)x;
                y = (int8_t)y;
            }
            sum += x > y ? x - y : y - x;
        }
        int64_t acc = is_signed(t) ? (int64_t)(int32_t)e : (int64_t)(uint32_t)e;
        r = (uint64_t)(uint32_t)(acc + sum); /* (.sat with .add: ptxas refuses it) */
        rbytes = 4;
        break;
    }
    case PO_BMSK: { /* a mask of b bits from bit a (PTX ISA: bmsk) */
        uint32_t a1 = (uint32_t)a & 31u, b1 = (uint32_t)c & 31u, sum = a1 + b1;
        int clamp = in->mode == MODE_L_CLAMP;
        uint32_t mask0 = clamp && (uint32_t)a >= 32u ? 0 : ~0u << a1;
        int zero1 = sum >= 32u || (clamp && ((uint32_t)a >= 32u || (uint32_t)c >= 32u));
        uint32_t mask1 = zero1 ? 0 : b1 == 0 ? ~0u : ~0u << sum;
        r = mask0 & ~mask1;
        rbytes = 4;
        break;
    }
    case PO_SZEXT: { /* sign- or zero-extend the low b bits of a (PTX ISA: szext) */
        uint32_t b1 = (uint32_t)c & 31u;
        int big = in->mode == MODE_L_CLAMP && (uint32_t)c >= 32u;
        uint32_t mask = big ? 0 : ~0u << b1;
        int sbit = !(b1 == 0 || big || !sg) && ((uint32_t)a >> ((b1 - 1u) & 31u) & 1u);
        r = ((uint32_t)a & ~mask) | (sbit ? mask : 0);
        rbytes = 4;
        break;
    }
    case PO_BFI: {
        int k2 = 1;
        uint64_t f = in->nops > 4 ? op_src(b, tid, R, K, &o[4], &k2) : 0;
        k = k && k2;
        uint64_t pos = bytes == 8 ? (uint32_t)e : (e & 0xff), len = bytes == 8 ? (uint32_t)f : (f & 0xff);
        unsigned bits = 8 * bytes;
        uint64_t msk = len >= 64 ? ~0ull : ((1ull << len) - 1);
        r = c;
        if (pos < bits)
            r = (c & ~(msk << pos)) | ((a & msk) << pos);
        break;
    }
    case PO_PRMT: r = prmt((uint32_t)a, (uint32_t)c, (uint32_t)e, in->mode); break;
    case PO_AND: case PO_OR:
        r = in->op == PO_AND ? a & c : a | c;
        if (!k && t == PT_PRED && in->nops == 3) {
            /* one known operand may decide a predicate alone: false for and, true for or (CUB's
               flag of an item past the end: "compare the unwritten item, or out of range") */
            int ka = 1, kc = 1;
            (void)op_src(b, tid, R, K, &o[1], &ka);
            (void)op_src(b, tid, R, K, &o[2], &kc);
            int dom = in->op == PO_AND ? 0 : 1;
            if ((ka && (a != 0) == dom) || (kc && (c != 0) == dom)) {
                k = 1;
                r = (uint64_t)dom;
            }
        }
        break;
    case PO_XOR: r = a ^ c; break;
    case PO_NOT: r = t == PT_PRED ? !a : ~a; break; /* not.pred: the negation, not ~1 */
    case PO_CNOT: r = (a & m) == 0; break;
    case PO_SHL: {
        uint64_t n = c & 0xffffffff, lim = bytes && bytes <= 8 ? 8u * bytes : 64;
        r = n >= lim ? 0 : a << n;
        break;
    }
    case PO_SHR: {
        uint64_t n = c & 0xffffffff, lim = bytes && bytes <= 8 ? 8u * bytes : 64;
        if (sg) r = (uint64_t)(sext(a, bytes) >> (n >= lim ? lim - 1 : n));
        else r = n >= lim ? 0 : (a & m) >> n;
        break;
    }
    case PO_SHF: {
        uint32_t lo = (uint32_t)a, hi = (uint32_t)c, n = (uint32_t)e;
        int clamp = in->mode == MODE_L_CLAMP || in->mode == MODE_R_CLAMP;
        n = clamp ? (n > 32 ? 32 : n) : (n & 31);
        uint64_t both = (uint64_t)hi << 32 | lo;
        if (in->mode == MODE_L_WRAP || in->mode == MODE_L_CLAMP)
            r = (uint32_t)((both << n) >> 32);
        else
            r = (uint32_t)(both >> n);
        break;
    }
    case PO_SAD: {
        /* |a - c| in unsigned arithmetic (it can exceed the signed range) */
        uint64_t x = sg ? (sext(a, bytes) > sext(c, bytes) ? (uint64_t)sext(a, bytes) - (uint64_t)sext(c, bytes)
                                                           : (uint64_t)sext(c, bytes) - (uint64_t)sext(a, bytes))
                        : ((a & m) > (c & m) ? (a & m) - (c & m) : (c & m) - (a & m));
        r = x + e;
        break;
    }
    case PO_LOP3: {
        int k2 = 1;
        uint64_t lut = in->nops > 4 ? op_src(b, tid, R, K, &o[4], &k2) : 0;
        r = 0;
        for (int i = 0; i < 32; i++) {
            unsigned idx = (unsigned)((a >> i & 1) << 2 | (c >> i & 1) << 1 | (e >> i & 1));
            r |= (uint64_t)((lut >> idx) & 1) << i;
        }
        break;
    }
    case PO_SELP: {
        int pk = 1;
        uint64_t p = op_src(b, tid, R, K, &o[3], &pk);
        if (o[3].neg)
            p = !p;
        int known_a = 1, known_c = 1;
        (void)op_src(b, tid, R, K, &o[1], &known_a);
        (void)op_src(b, tid, R, K, &o[2], &known_c);
        if (!pk) { /* an unknown choice between two equal known values is known */
            k = known_a && known_c && a == c;
            r = a;
            break;
        }
        r = p ? a : c;
        k = p ? known_a : known_c;
        break;
    }
    case PO_SLCT: {
        unsigned ct = in->type2;
        int neg = is_fp(ct) ? emu_fp_is_negative(ct, in->ftz, e) : sext(e, TBYTES(ct)) < 0;
        r = neg ? c : a;
        break;
    }
    case PO_SET: case PO_SETP: {
        unsigned ct = in->op == PO_SETP ? t : in->type2;
        int x2 = ct == PT_F16X2 || ct == PT_BF16X2;
        int raw = compare(in->cmp, ct, in->ftz, a, c), pv = 0, kq = k;
        if (in->boolop) {
            /* a known operand decides .or (true) and .and (false) alone: the predicate operand
               for every result, a known comparison for its own (scalar forms; the second
               destination combines the negated comparison) */
            int pk = 1, kc = 1, dom = in->boolop == BOP_OR ? 1 : in->boolop == BOP_AND ? 0 : -1;
            pv = op_src(b, tid, R, K, &o[3], &pk) != 0;
            if (o[3].neg)
                pv = !pv;
            (void)op_src(b, tid, R, K, &o[1], &kc);
            (void)op_src(b, tid, R, K, &o[2], &kc);
            k = (kc && pk) || (pk && pv == dom);
            kq = k || (kc && !x2 && (!(raw & 1)) == dom);
            k = k || (kc && !x2 && (raw & 1) == dom);
        }
#define COMB(x) (in->boolop == BOP_AND ? ((x) && pv) : in->boolop == BOP_OR ? ((x) || pv)              \
                 : in->boolop == BOP_XOR ? ((x) != pv) : (x))
        if (x2) { /* lane by lane: the low half's result first */
            int lo = COMB(raw & 1), hi = COMB(raw >> 1 & 1);
            if (in->op == PO_SET) {
                uint64_t one = is_fp(t) ? emu_fp_one(t == PT_F16X2 || t == PT_BF16X2 ? t : PT_F16) : 0xffff;
                r = (lo ? one : 0) | (hi ? one : 0) << 16;
                break;
            }
            op_dst(R, K, o[0].reg[0], (uint64_t)lo, k, 1);
            if (o[0].kind == OPK_PAIR && o[0].reg[1] >= 0)
                op_dst(R, K, o[0].reg[1], (uint64_t)hi, k, 1);
            return 0;
        }
        int res = COMB(raw);
        if (in->op == PO_SET) {
            r = is_fp(t) ? (res ? emu_fp_one(t) : 0) : (res ? mask_bytes(bytes) : 0);
            break;
        }
        op_dst(R, K, o[0].reg[0], (uint64_t)res, k, 1);
        if (o[0].kind == OPK_PAIR && o[0].reg[1] >= 0)
            op_dst(R, K, o[0].reg[1], (uint64_t)COMB(!raw), kq, 1);
#undef COMB
        return 0;
    }
    case PO_CVT: r = cvt_value(in, a, c); break;
    case PO_CVTA: {
        uint64_t base = in->space == SP_SHARED ? SHARED_GENERIC_BASE
                        : in->space == SP_LOCAL ? LOCAL_GENERIC_BASE
                        : in->space == SP_PARAM ? PARAM_GENERIC_BASE : 0;
        r = in->to ? a - base : a + base;
        if (in->to && in->space == SP_SHARED)
            r &= 0xffffffffu;
        break;
    }
    case PO_ISSPACEP: {
        uint64_t base = in->space == SP_SHARED ? SHARED_GENERIC_BASE
                        : in->space == SP_LOCAL ? LOCAL_GENERIC_BASE : 0;
        r = base ? (a >= base && a < base + WINDOW_SIZE)
                 : !((a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE) ||
                     (a >= LOCAL_GENERIC_BASE && a < LOCAL_GENERIC_BASE + WINDOW_SIZE));
        rbytes = 1;
        break;
    }
    case PO_TESTP:
        r = (uint64_t)emu_fp_testp(in->mode, t, a);
        rbytes = 1;
        break;
    case PO_DP4A: case PO_DP2A: {
        int sa = is_signed(in->type), sb2 = is_signed(in->type2);
        int64_t acc = (int64_t)(int32_t)e;
        for (int i = 0; i < 4; i++) {
            int64_t x = sa ? (int8_t)(a >> (8 * i)) : (int64_t)((a >> (8 * i)) & 0xff);
            if (in->op == PO_DP2A) {
                if (i >= 2) break;
                x = sa ? (int16_t)(a >> (16 * i)) : (int64_t)((a >> (16 * i)) & 0xffff);
                int j = i + (in->mode == MODE_HI ? 2 : 0); /* bytes 0, 1 (.lo) or 2, 3 (.hi) */
                int64_t y0 = sb2 ? (int8_t)(c >> (8 * j)) : (int64_t)((c >> (8 * j)) & 0xff);
                acc += x * y0;
                continue;
            }
            int64_t y = sb2 ? (int8_t)(c >> (8 * i)) : (int64_t)((c >> (8 * i)) & 0xff);
            acc += x * y;
        }
        r = (uint64_t)acc;
        rbytes = 4;
        break;
    }
    default:
        return -1;
    }
done:
    if (d >= 0) {
        unsigned regb = TBYTES(b->p->func->reg_type[d]);
        unsigned wb = rbytes < regb ? rbytes : regb;
        uint64_t v = r;
        /* signed results are kept sign-extended to the register's width */
        if (sg && !fl && wb < regb && in->op != PO_POPC && in->op != PO_CLZ)
            v = (uint64_t)sext(r, wb);
        op_dst(R, K, d, v, k, regb);
    }
    return 0;
}

