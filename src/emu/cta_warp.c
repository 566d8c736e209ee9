/* cta_warp.c: the warp-level forms of the warp loop (cta.c, run_group): lanes `ex` of a warp
 * execute one instruction together over the warp's register rows (register r of lane l of warp w
 * is R[(w * nregs + r) * 32 + l], bit l of K[w * nregs + r] says it is known). Each form does
 * exactly what the per-thread semantics (cta_lane.c, cta_alu.c, cta_fp.c) do lane by lane,
 * in lane order: the same values, known marks, requests, global bytes and access marks; where it
 * cannot (an unknown or faulting address, an operand it does not take), it declines before
 * changing anything and the lane path runs. tests/diff/ checks them bit for bit. */
#include "families.h"
#include "memory.h"
#include "request.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <string.h>


/* ---- memory instructions of a whole warp -------------------------------------------------- */

/* The fast memory kinds for lanes `ex` of warp w at pc: global memory under analyze (unknown
 * data) and ld/st.shared whose every lane's address is known, in range and aligned; they do what
 * cta_lane.c's exec_mem does lane by lane (same requests, same bytes, same known marks), with one lookup of
 * the pending request when the lanes are at the same execution of the site. Returns 1 done, 0
 * not for this path (exec_mem then runs each lane: unknown or bad addresses, faults, ...), -1
 * error. A new warp-level memory instruction belongs here: its lanes' addresses become one
 * request of each of its sites (warp_record). */

/* ld / ldu / st of global or constant memory given with the launch (smem_cta_run's global
 * memory), for lanes `ex`: what cta_lane.c's exec_mem does lane by lane when every lane's address is known, in
 * one region, aligned, and a store's region is writable. Anything else (a fault to report, an
 * unknown address, a vector of 16-byte elements) declines before touching memory. */
static int warp_global(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                       uint32_t ex)
{
    int op = in->op, st = op == PO_ST;
    if (op != PO_LD && op != PO_LDU && !st)
        return 0;
    unsigned esz = TBYTES(in->type), total = esz * in->vec;
    const struct smem_ptx_operand *mo = &in->ops[st ? 0 : 1], *v = &in->ops[st ? 1 : 0];
    if (esz == 0 || esz > 8 || mo->kind != OPK_ADDR || in->nops != 2)
        return 0;
    if (st ? !(v->kind == OPK_VEC || v->kind == OPK_REG || v->kind == OPK_IMM)
           : !(v->kind == OPK_VEC || v->kind == OPK_REG))
        return 0;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    const uint64_t *ar = NULL;
    uint64_t a0 = (uint64_t)mo->imm;
    if (mo->reg[0] >= 0) {
        if ((K[mo->reg[0]] & ex) != ex)
            return 0;
        ar = R + (size_t)mo->reg[0] * 32;
    } else if (mo->sym >= 0) {
        a0 += emu_sym_addr(b, mo->sym);
    }
    unsigned align = total > 16 ? 16 : total;
    uint8_t *host[32], *kn[32];
    uint64_t off[32];
    uint32_t reg[32];
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        uint64_t a = ar ? ar[l] + (uint64_t)mo->imm : a0;
        const struct smem_global_region *r = emu_region_of(b, a, total);
        if (!r || a % align || (st && r->readonly) || r->heap)
            return 0; /* the lane path reports it (the device heap: it checks the block) */
        host[l] = r->host;
        kn[l] = r->known;
        off[l] = a - r->base;
        reg[l] = b->glast; /* emu_region_of leaves it at r */
    }
    unsigned n = v->kind == OPK_VEC ? v->count : 1;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        b->glast = reg[l];
        emu_mark_global_at(b, w * 32 + l, pc, op, off[l], total);
        if (st) {
            for (unsigned c = 0; c < n; c++) {
                uint64_t x = (uint64_t)v->imm;
                int known = 1;
                int32_t rr = v->kind == OPK_VEC ? v->reg[c] : v->kind == OPK_REG ? v->reg[0] : -2;
                if (rr >= 0) {
                    x = R[(size_t)rr * 32 + l];
                    known = (int)(K[rr] >> l & 1u);
                } else if (rr == -1) { /* a vector's sink `_` */
                    x = 0;
                    known = 0;
                }
                mem_write(host[l], kn[l], off[l] + (uint64_t)c * esz, esz, x, known);
                if (!known && rr >= 0 && !kn[l]) /* its bits written anyway: say so */
                    emu_unknown_store(b, w * 32 + l, pc, in,
                                      b->gm->regions[reg[l]].base + off[l] + (uint64_t)c * esz, esz);
            }
            continue;
        }
        for (unsigned c = 0; c < n; c++) {
            int32_t rr = v->kind == OPK_VEC ? v->reg[c] : v->reg[0];
            if (rr < 0)
                continue;
            uint64_t x = 0;
            int known = 1;
            mem_read(host[l], kn[l], off[l] + (uint64_t)c * esz, esz, &x, &known);
            if (is_signed(in->type))
                x = (uint64_t)sext(x, esz);
            unsigned rb = TBYTES(b->p->func->reg_type[rr]);
            R[(size_t)rr * 32 + l] = x & mask_bytes(rb ? rb : 8);
            K[rr] = known ? K[rr] | 1u << l : K[rr] & ~(1u << l);
        }
    }
    (void)pc;
    return 1;
}

SMEM_LANE_CLONES
int emu_warp_mem(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                 uint32_t ex, uint8_t fk)
{
    const struct smem_cta_program *p = b->p;
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    if (fk == F_GLOBAL) {
        if (b->gm)
            return warp_global(b, w, pc, in, ex);
        if (smem_op_writes_dst(in->op)) { /* ld, ldu, atom */
            const struct smem_ptx_operand *d = &in->ops[0];
            unsigned n = d->kind == OPK_VEC ? d->count : 1;
            for (unsigned c = 0; c < n && c < 4; c++) {
                int32_t reg = d->kind == OPK_VEC ? d->reg[c] : d->reg[0];
                if (reg >= 0)
                    K[reg] &= ~ex; /* global memory: unknown data */
            }
        }
        return 1;
    }
    /* no site: an access ptxas merges into a neighbour's (cta_prepare.c); it makes no request
       and needs no alignment of its own, its bytes move as any other's */
    uint32_t site = p->site_of_insn[pc];
    int st = fk == F_STS;
    const struct smem_ptx_operand *mo = &in->ops[st ? 0 : 1], *v = &in->ops[st ? 1 : 0];
    unsigned esz = TBYTES(in->type), total = esz * in->vec;
    uint32_t off[32];
    uint64_t a0 = 0;
    const uint64_t *ar = NULL;
    if (mo->reg[0] >= 0) {
        if ((K[mo->reg[0]] & ex) != ex)
            return 0;
        ar = R + (size_t)mo->reg[0] * 32;
    } else {
        a0 = emu_sym_addr(b, mo->sym);
    }
    uint32_t bad = 0;
    uint64_t size = b->smem_size, rel = (uint64_t)mo->imm - SHARED_WINDOW_BASE;
    uint64_t base[32];
    for (uint32_t l = 0; l < 32; l++)
        base[l] = ar ? ar[l] : a0;
    for (uint32_t l = 0; l < 32; l++) { /* no branch: the lanes outside ex count as 0 */
        uint64_t o = base[l] + rel;
        uint32_t on = ex >> l & 1u;
        bad |= on & ((uint32_t)(o > size) | (uint32_t)(o + total > size));
        off[l] = (uint32_t)o & (0u - on);
    }
    if (bad)
        return 0;
    for (uint32_t s = site; s < p->nsites && p->sites[s].insn == pc; s++) {
        /* every lane's part aligned to its width (1, 2, 4, 8 or 16: a power of two) */
        uint32_t so = p->sites[s].offset, wm = p->sites[s].width - 1u, mis = 0;
        for (uint32_t l = 0; l < 32; l++)
            mis |= (off[l] + so) & wm & (0u - (ex >> l & 1u));
        if (mis)
            return 0;
    }
    if (emu_warp_record(b, w, pc, ex, off))
        return -1;
    if (b->csh) /* a cluster's CTAs reach each other's memory: races between them */
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u)
                emu_cluster_shadow(b, b, pc, off[l], total, st);
    unsigned n = v->kind == OPK_VEC ? v->count : 1;
    uint64_t em = mask_bytes(esz);
    if (!st && esz == 4 && !is_signed(in->type)) {
        /* the common case: 32-bit words, one to four a lane */
        uint64_t *rd[4];
        uint32_t kn[4];
        int32_t reg[4];
        for (unsigned c = 0; c < n; c++) {
            reg[c] = v->kind == OPK_VEC ? v->reg[c] : v->reg[0];
            rd[c] = reg[c] >= 0 ? R + (size_t)reg[c] * 32 : NULL;
            kn[c] = reg[c] >= 0 ? K[reg[c]] & ~ex : 0;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ex >> l & 1u))
                continue;
            const uint8_t *m = b->smem + off[l], *mk = b->smem_known + off[l];
            for (unsigned c = 0; c < n; c++) {
                uint32_t x, k;
                memcpy(&x, m + 4 * c, 4);
                memcpy(&k, mk + 4 * c, 4);
                if (rd[c]) {
                    rd[c][l] = x; /* a register of 4 or more bytes holds it whole */
                    kn[c] |= (uint32_t)(((k - 0x01010101u) & ~k & 0x80808080u) == 0) << l;
                }
            }
        }
        for (unsigned c = 0; c < n; c++)
            if (reg[c] >= 0) {
                if (TBYTES(p->func->reg_type[reg[c]]) < 4) { /* narrower: masked as op_dst() does */
                    uint64_t rm = mask_bytes(TBYTES(p->func->reg_type[reg[c]]));
                    for (uint32_t l = 0; l < 32; l++)
                        if (ex >> l & 1u)
                            rd[c][l] &= rm;
                }
                K[reg[c]] = kn[c];
            }
        return 1;
    }
    if (!st) {
        int sg = is_signed(in->type);
        for (unsigned c = 0; c < n; c++) {
            int32_t reg = v->kind == OPK_VEC ? v->reg[c] : v->reg[0];
            if (reg < 0)
                continue;
            uint64_t rm = mask_bytes(TBYTES(p->func->reg_type[reg])), *rd = R + (size_t)reg * 32;
            uint32_t kn = K[reg] & ~ex;
            for (uint32_t l = 0; l < 32; l++) {
                if (!(ex >> l & 1u))
                    continue;
                uint32_t at = off[l] + c * esz;
                uint64_t x = 0;
                int known = 1;
                mem_read(b->smem, b->smem_known, at, esz, &x, &known);
                if (sg)
                    x = (uint64_t)sext(x, esz);
                rd[l] = x & rm;
                kn |= (uint32_t)known << l;
            }
            K[reg] = kn;
        }
        return 1;
    }
    uint32_t sm = 0;
    if (esz == 4 && n == 1 && v->kind == OPK_REG && v->reg[0] >= 0) {
        /* the common case: one 32-bit register a lane (what the loop below does, for it) */
        const uint64_t *xs = R + (size_t)v->reg[0] * 32;
        uint32_t kv = K[v->reg[0]];
        for (uint32_t l = 0; l < 32; l++) {
            if (!(ex >> l & 1u))
                continue;
            uint8_t *m = b->smem + off[l], *mk = b->smem_known + off[l];
            uint32_t old, k4, x = (uint32_t)xs[l], known = kv >> l & 1u;
            memcpy(&old, m, 4);
            memcpy(&k4, mk, 4);
            uint32_t ok = ((k4 - 0x01010101u) & ~k4 & 0x80808080u) == 0; /* no byte unknown */
            sm |= (ok & known & (uint32_t)(old == x)) << l;
            uint32_t kn = known ? 0x01010101u : 0;
            memcpy(m, &x, 4);
            memcpy(mk, &kn, 4);
        }
        ex = 0; /* done: only the lanes that stored what was there remain to mark */
    }
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        int same = 1;
        for (unsigned c = 0; c < n; c++) {
            uint64_t x;
            int known;
            int32_t reg = v->kind == OPK_VEC ? v->reg[c] : v->kind == OPK_REG ? v->reg[0] : -1;
            if (reg >= 0) {
                x = R[(size_t)reg * 32 + l];
                known = (int)(K[reg] >> l & 1u);
            } else if (v->kind == OPK_IMM) {
                x = (uint64_t)v->imm;
                known = 1;
            } else {
                x = 0;
                known = 0;
            }
            uint32_t at = off[l] + c * esz;
            if (same) { /* does it store what is there already? */
                uint64_t old = 0;
                int ok = 1;
                mem_read(b->smem, b->smem_known, at, esz, &old, &ok);
                same = ok && known && ((old ^ x) & em) == 0;
            }
            mem_write(b->smem, b->smem_known, at, esz, x, known);
        }
        sm |= (uint32_t)same << l;
    }
    /* the lanes that stored what was there: one lookup of the request per execution count */
    for (uint32_t s = site; sm && s < p->nsites && p->sites[s].insn == pc; s++) {
        struct smem_access *r = NULL;
        uint32_t rk = 0;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(sm >> l & 1u))
                continue;
            uint32_t k = *emu_kcount(b, w * 32 + l, s) - 1;
            if (!r || k != rk) {
                r = emu_request(b, s, k, w); /* it exists: emu_warp_record made it */
                rk = k;
            }
            if (r)
                r->same |= 1u << l;
        }
    }
    return 1;
}

/* ---- fast kinds over the lanes ------------------------------------------------------------ */

/* The rows of an instruction's sources: a register's 32 lanes, or an immediate repeated. */
struct rows {
    const uint64_t *x, *y, *z;
    uint32_t k; /* lanes whose every source is known */
};

static inline const uint64_t *src_row(const uint64_t *R, const uint32_t *K,
                                      const struct smem_ptx_operand *o, uint64_t *tmp, uint32_t *k)
{
    if (o->kind == OPK_REG) {
        *k &= K[o->reg[0]];
        return R + (size_t)o->reg[0] * 32;
    }
    for (unsigned l = 0; l < 32; l++)
        tmp[l] = (uint64_t)o->imm;
    return tmp;
}


static inline uint64_t f32_result(float r)
{
    return r != r ? 0x7fffffffu : bits_f32(r); /* a NaN: the canonical one, as the H100 gives */
}

/* .ftz: a subnormal operand is its signed zero; so is a result whose exact value lies below the
 * smallest normal, as cta_fp.c decides it (before rounding: a sum that rounds up to 2^-126 is
 * flushed too). An exact sum of two f32 in the subnormal range is representable, so for add
 * and sub the rounded result tells; a product is exact in double; for fma only a result of
 * exactly 2^-126 needs the exact sum, which TwoSum gives (p = a * b is exact in double). */
static inline float ftz_in(uint64_t v)
{
    uint32_t u = (uint32_t)v;
    if (!(u & 0x7f800000u))
        u &= 0x80000000u;
    return f32_of(u);
}

static inline uint64_t ftz_out(float r)
{
    uint64_t b = f32_result(r);
    return (b & 0x7f800000u) ? b : (b & 0x80000000u);
}

static inline uint64_t ftz_mul(uint64_t x, uint64_t y)
{
    double p = (double)ftz_in(x) * (double)ftz_in(y);
    if (fabs(p) < 0x1p-126)
        return signbit(p) ? 0x80000000u : 0;
    return f32_result((float)p);
}

static inline uint64_t ftz_fma(uint64_t x, uint64_t y, uint64_t z)
{
    float a = ftz_in(x), b = ftz_in(y), c = ftz_in(z), r = fmaf(a, b, c);
    if (fabsf(r) == 0x1p-126f) {
        double p = (double)a * (double)b, q = (double)c, s = p + q, bb = s - p;
        double e = (p - (s - bb)) + (q - bb); /* s + e = p + q exactly */
        if (fabs(s) < 0x1p-126 || (fabs(s) == 0x1p-126 && e != 0 && (e < 0) != (s < 0)))
            return bits_f32(r) & 0x80000000u;
    }
    return ftz_out(r);
}

/* Lanes `ex` compute fast kind fk (anything but F_BRA) into register d; the others keep it. */
SMEM_LANE_CLONES
static void lanes_alu(uint8_t fk, unsigned cmp, uint64_t *rd, const uint64_t *xa,
                      const uint64_t *xb, const uint64_t *xc, uint32_t ex, uint32_t kn)
{
    uint64_t tmp[32];
    /* every lane at once: straight into the register (each lane reads its sources first) */
    uint64_t *r = ex == 0xffffffffu ? rd : tmp;
#define LANES(EXPR)                                                                                \
    for (unsigned l = 0; l < 32; l++) {                                                            \
        uint64_t x = xa[l], y = xb[l], z = xc[l];                                                  \
        (void)x, (void)y, (void)z;                                                                 \
        r[l] = (EXPR);                                                                             \
    }                                                                                              \
    break
    switch (fk) {
    case F_ADD32: LANES((uint32_t)(x + y));
    case F_SUB32: LANES((uint32_t)(x - y));
    case F_MUL32: LANES((uint32_t)(x * y));
    case F_MAD32: LANES((uint32_t)(x * y + z));
    case F_AND32: LANES((uint32_t)(x & y));
    case F_OR32: LANES((uint32_t)(x | y));
    case F_XOR32: LANES((uint32_t)(x ^ y));
    case F_SHL32: LANES((uint32_t)y >= 32 ? 0 : (uint32_t)(x << (uint32_t)y));
    case F_SHRU32: LANES((uint32_t)y >= 32 ? 0 : (uint32_t)x >> (uint32_t)y);
    case F_MUL64: LANES(x * y);
    case F_MAD64: LANES(x * y + z);
    case F_ANDP: LANES((x & y) & 0xff);
    case F_ORP: LANES((x | y) & 0xff);
    case F_XORP: LANES((x ^ y) & 0xff);
    case F_SHRS32: LANES((uint32_t)((int32_t)(uint32_t)x >> ((uint32_t)y >= 32 ? 31 : (uint32_t)y)));
    case F_MOV32: LANES((uint32_t)x);
    case F_ADD64: LANES(x + y);
    case F_MULWIDE_U32: LANES((uint64_t)(uint32_t)x * (uint32_t)y);
    case F_MULWIDE_S32: LANES((uint64_t)((int64_t)(int32_t)x * (int32_t)y));
    case F_MOV64: LANES(x);
    case F_SHL64: LANES((y & 0xffffffffu) >= 64 ? 0 : x << (y & 63));
    case F_CVT_U64_U32: LANES(x & 0xffffffffu);
    case F_CVT_S64_S32: LANES((uint64_t)(int64_t)(int32_t)x);
    case F_FMA_F32: LANES(f32_result(fmaf(f32_of(x), f32_of(y), f32_of(z))));
    case F_ADD_F32: LANES(f32_result(f32_of(x) + f32_of(y)));
    case F_MUL_F32: LANES(f32_result(f32_of(x) * f32_of(y)));
    case F_SUB_F32: LANES(f32_result(f32_of(x) - f32_of(y)));
    case F_FMA_F32Z: LANES(ftz_fma(x, y, z));
    case F_ADD_F32Z: LANES(ftz_out(ftz_in(x) + ftz_in(y)));
    case F_SUB_F32Z: LANES(ftz_out(ftz_in(x) - ftz_in(y)));
    case F_MUL_F32Z: LANES(ftz_mul(x, y));
    case F_ADD16: LANES((uint16_t)(x + y));
    case F_CVT_U32: LANES((uint32_t)x);
    case F_NOTP: LANES((uint64_t)(x == 0));
    case F_MOVP: LANES(x & 0xff);
    /* div / rem: 0 where a source is unknown (emu_exec_alu computes nothing there); by 0 all
       ones, as the H100 gives */
#define KNOWN(l) (kn >> (l) & 1u)
    case F_DIV_U32: case F_REM_U32: {
        int rem = fk == F_REM_U32;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t x = (uint32_t)xa[l], y = (uint32_t)xb[l];
            r[l] = !KNOWN(l) ? 0 : y == 0 ? 0xffffffffu : rem ? x % y : x / y;
        }
        break;
    }
    case F_DIV_S32: case F_REM_S32: {
        int rem = fk == F_REM_S32;
        for (unsigned l = 0; l < 32; l++) {
            int64_t x = (int32_t)(uint32_t)xa[l], y = (int32_t)(uint32_t)xb[l];
            uint64_t v = y == 0 ? 0xffffffffu : y == -1 ? (rem ? 0 : 0 - (uint64_t)x)
                                                       : (uint64_t)(rem ? x % y : x / y);
            r[l] = KNOWN(l) ? (uint32_t)v : 0;
        }
        break;
    }
#undef KNOWN
    case F_SETP_U32: case F_SETP_S32: {
        int s = fk == F_SETP_S32;
        for (unsigned l = 0; l < 32; l++) {
            uint32_t x = (uint32_t)xa[l], y = (uint32_t)xb[l];
            int lt = s ? (int32_t)x < (int32_t)y : x < y, eq = x == y, v;
            switch (cmp) {
            case CMP_EQ: v = eq; break;
            case CMP_NE: v = !eq; break;
            case CMP_LT: case CMP_LO: v = lt; break;
            case CMP_LE: case CMP_LS: v = lt || eq; break;
            case CMP_GT: case CMP_HI: v = !lt && !eq; break;
            default: v = !lt; break;
            }
            r[l] = (uint64_t)v;
        }
        break;
    }
    default:
        return;
    }
#undef LANES
    if (r == tmp)
        for (unsigned l = 0; l < 32; l++) {
            uint64_t m = 0 - (uint64_t)(ex >> l & 1u);
            rd[l] = (tmp[l] & m) | (rd[l] & ~m);
        }
}


/* Lanes `ex` of warp w compute fast kind fk (F_IS_ALU) of instruction in. */
void emu_warp_alu(struct block *b, uint32_t w, const struct smem_ptx_insn *in, uint8_t fk, uint32_t ex)
{
    assert(F_IS_ALU(fk));
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    uint64_t tmp[3][32];
    const struct smem_ptx_operand *o = in->ops;
    struct rows s = {NULL, NULL, NULL, ~0u};
    s.x = src_row(R, K, &o[1], tmp[0], &s.k);
    s.y = in->nops > 2 ? src_row(R, K, &o[2], tmp[1], &s.k) : s.x;
    s.z = in->nops > 3 ? src_row(R, K, &o[3], tmp[2], &s.k) : s.x;
    int32_t d = o[0].reg[0];
    if (fk == F_FUSED) { /* ptxas's FFMA / DFMA / HFMA2 of a mul and an add (cta_prepare.c) */
        uint64_t sign = in->type == PT_F16X2 || in->type == PT_BF16X2 ? 0x80008000u
                        : 1ull << (8 * TBYTES(in->type) - 1), neg[3][32];
        const uint64_t *row[3] = {s.x, s.y, s.z};
        for (unsigned i = 0; i < 3; i++)
            if (o[i + 1].neg) { /* the FMA's operand negation: the sign flipped */
                for (unsigned l = 0; l < 32; l++)
                    neg[i][l] = row[i][l] ^ sign;
                row[i] = neg[i];
            }
        if (in->type == PT_F32) {
            lanes_alu(in->ftz ? F_FMA_F32Z : F_FMA_F32, 0, R + (size_t)d * 32, row[0], row[1],
                      row[2], ex, s.k);
        } else {
            uint64_t *rd = R + (size_t)d * 32, m = mask_bytes(TBYTES(b->p->func->reg_type[d]));
            for (uint32_t l = 0; l < 32; l++)
                if (ex >> l & 1u) {
                    uint64_t r = 0;
                    emu_fp_arith(in, row[0][l], row[1][l], row[2][l], &r);
                    rd[l] = r & m;
                }
        }
        K[d] = (K[d] & ~ex) | (s.k & ex);
        return;
    }
    if (fk == F_FP) { /* what emu_exec_alu does lane by lane: absent operands are 0 */
        uint64_t *rd = R + (size_t)d * 32, m = mask_bytes(TBYTES(b->p->func->reg_type[d]));
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u) {
                uint64_t r = 0;
                emu_fp_arith(in, s.x[l], in->nops > 2 ? s.y[l] : 0, in->nops > 3 ? s.z[l] : 0, &r);
                rd[l] = r & m;
            }
        K[d] = (K[d] & ~ex) | (s.k & ex);
        return;
    }
    uint32_t dom = 0, want = fk == F_ORP;
    if ((fk == F_ANDP || fk == F_ORP) && (s.k & ex) != ex) {
        /* a known operand may decide a predicate alone: false for and, true for or (emu_exec_alu
           does the same lane by lane) */
        uint32_t ka = o[1].kind == OPK_REG ? K[o[1].reg[0]] : ~0u;
        uint32_t kb = o[2].kind == OPK_REG ? K[o[2].reg[0]] : ~0u;
        for (uint32_t l = 0; l < 32; l++)
            if (((ka >> l & 1u) && (uint32_t)(s.x[l] != 0) == want) ||
                ((kb >> l & 1u) && (uint32_t)(s.y[l] != 0) == want))
                dom |= 1u << l;
        dom &= ex & ~s.k;
    }
    lanes_alu(fk, in->cmp, R + (size_t)d * 32, s.x, s.y, s.z, ex, s.k);
    for (uint32_t l = 0; dom && l < 32; l++)
        if (dom >> l & 1u)
            R[(size_t)d * 32 + l] = want;
    K[d] = (K[d] & ~ex) | ((s.k | dom) & ex);
}

/* ---- other instructions of a whole warp (F_WARP) ------------------------------------------ */

/* A register's row or an immediate, and the lanes where it is known. */
static const uint64_t *operand_row(const uint64_t *R, const uint32_t *K,
                                   const struct smem_ptx_operand *o, uint64_t *tmp, uint32_t *known)
{
    if (o->kind == OPK_REG) {
        *known = K[o->reg[0]];
        return R + (size_t)o->reg[0] * 32;
    }
    for (unsigned l = 0; l < 32; l++)
        tmp[l] = (uint64_t)o->imm;
    *known = ~0u;
    return tmp;
}

/* selp.T d, a, b, {!}c as emu_exec_alu: a where c is true, else b; known as the value chosen
 * (nothing where c is unknown: 0); a signed type narrower than d sign-extended. */
static int warp_selp(struct block *b, uint32_t w, const struct smem_ptx_insn *in, uint32_t ex)
{
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    const struct smem_ptx_operand *o = in->ops;
    uint64_t tmp[3][32];
    uint32_t ka, kc, kp;
    const uint64_t *xa = operand_row(R, K, &o[1], tmp[0], &ka);
    const uint64_t *xc = operand_row(R, K, &o[2], tmp[1], &kc);
    const uint64_t *xp = operand_row(R, K, &o[3], tmp[2], &kp);
    int32_t d = o[0].reg[0];
    unsigned bytes = TBYTES(in->type), regb = TBYTES(b->p->func->reg_type[d]);
    int sx = is_signed(in->type) && bytes < regb;
    uint64_t rm = mask_bytes(regb ? regb : 8), *rd = R + (size_t)d * 32;
    uint64_t res[32];
    uint32_t kn = 0, neg = o[3].neg ? 1u : 0u;
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        uint64_t r = 0;
        if (kp >> l & 1u) {
            uint32_t pv = (uint32_t)(xp[l] != 0) ^ neg;
            r = pv ? xa[l] : xc[l];
            kn |= (pv ? ka : kc) & (1u << l);
        } else if ((ka & kc) >> l & 1u && xa[l] == xc[l]) {
            r = xa[l]; /* an unknown choice between two equal known values */
            kn |= 1u << l;
        }
        res[l] = (sx ? (uint64_t)sext(r, bytes) : r) & rm;
    }
    for (uint32_t l = 0; l < 32; l++) /* every lane read its sources first */
        if (ex >> l & 1u)
            rd[l] = res[l];
    K[d] = (K[d] & ~ex) | kn;
    return 1;
}

/* ld.param of a kernel parameter by name ([param+imm]): the same bytes for every lane. */
static int warp_ld_param(struct block *b, uint32_t w, const struct smem_ptx_insn *in, uint32_t ex)
{
    const struct smem_ptx_operand *mo = &in->ops[1], *d = &in->ops[0];
    unsigned esz = TBYTES(in->type), total = esz * in->vec;
    if (esz == 0 || esz > 8)
        return 0;
    uint64_t a = emu_sym_addr(b, mo->sym) + (uint64_t)mo->imm;
    if (a + total > b->param_size || a > b->param_size)
        return 0; /* the lane path says so */
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    unsigned n = d->kind == OPK_VEC ? d->count : 1;
    for (unsigned c = 0; c < n; c++) {
        int32_t reg = d->kind == OPK_VEC ? d->reg[c] : d->reg[0];
        if (reg < 0)
            continue;
        uint64_t v = 0;
        int known = 1;
        mem_read(b->param, b->param_known, a + (uint64_t)c * esz, esz, &v, &known);
        if (is_signed(in->type))
            v = (uint64_t)sext(v, esz);
        unsigned rb = TBYTES(b->p->func->reg_type[reg]);
        v &= mask_bytes(rb ? rb : 8);
        uint64_t *rd = R + (size_t)reg * 32;
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u)
                rd[l] = v;
        K[reg] = known ? K[reg] | ex : K[reg] & ~ex;
    }
    return 1;
}

/* bar.sync / barrier.sync {a{, b}} with known operands: every lane waits at barrier a. */
static int warp_bar(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                    uint32_t ex)
{
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs;
    uint64_t tmp[2][32];
    uint32_t kid = ~0u, kcnt = ~0u;
    const uint64_t *id = in->nops > 0 ? operand_row(R, K, &in->ops[0], tmp[0], &kid) : NULL;
    const uint64_t *cnt = in->nops > 1 ? operand_row(R, K, &in->ops[1], tmp[1], &kcnt) : NULL;
    if ((kid & kcnt & ex) != ex)
        return 0; /* the lane path stops: an unknown barrier operand */
    for (uint32_t l = 0; l < 32; l++)
        if ((ex >> l & 1u) && id && id[l] > 15)
            return 0; /* the lane path fails */
    for (uint32_t l = 0; l < 32; l++) {
        if (!(ex >> l & 1u))
            continue;
        struct lane *T = &b->T[w * 32 + l];
        T->bar_id = id ? (uint32_t)id[l] : 0;
        T->bar_count = cnt ? (uint32_t)cnt[l] : 0;
        T->state = L_BAR;
        T->pc = pc;
    }
    return 1;
}

int emu_warp_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                  uint32_t ex)
{
    switch (in->op) {
    case PO_SELP:
        return warp_selp(b, w, in, ex);
    case PO_LD:
        return warp_ld_param(b, w, in, ex);
    case PO_BAR:
        return warp_bar(b, w, pc, in, ex);
    case PO_RET: case PO_EXIT:
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u)
                b->T[w * 32 + l].state = L_EXIT;
        return 1;
    default:
        return 0;
    }
}
