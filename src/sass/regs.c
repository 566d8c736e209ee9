/* regs.c: which registers an sm_90 instruction writes, and the LDS whose address register holds
 * the shared window's base plus a known constant (a register dataflow over the function).
 *
 * ptxas sometimes copies the window's base into a register and reads a fixed place through it:
 * `MOV R9, UR4` (or `IMAD.U32 R9, RZ, RZ, UR4`) with UR4 = ULEA(S2UR SR_CgaCtaId, 0x400, 0x18),
 * then `LDS.64 R4, [R9]`; or, in registers alone, `S2R R0, SR_CgaCtaId; MOV R3, 0x400;
 * LEA R0, R0, R3, 0x18` then `LDS.128 R20, [R0+0x600]`. Such a load reads a fixed place as surely
 * as `[UR4+imm]` does, but only if nothing else can have written the register on any path to it.
 *
 * The facts (tests/sass/README.md, tests/sass/regs.tsv): from the H100's cuobjdump -sass of
 * 218,864 instructions (223 opcodes; our cubins and the programs of bench/programs, 2026-11-24
 * 13:35 UTC), every instruction writing a general register names it in lo[16:24) (RZ = 255: none)
 * and a uniform register in lo[16:22) (URZ = 63), except the opcodes of `unknown` below; every 64-
 * and 128-bit destination is aligned (R even, R a multiple of 4); the forms read as values below
 * (MOV, UMOV, IMAD.U32 / IMAD.MOV.U32 of RZ, RZ, x; LEA; ULEA; VIADD; IADD3 / UIADD3 with an
 * immediate; S2R / S2UR of SR_CgaCtaId, 0x88) are recognised by all their bits but the operands
 * and the scheduling (hi[41:64)): each bit pattern is the one every instance of the form had.
 *
 * The analysis: a forward dataflow over the function's instructions (successors: the next one and
 * the target of a branch, of a local call (CALL.REL) or of a collective region (WARPSYNC.COLLECTIVE);
 * a return goes back after every local call, ENDCOLLECTIVE to every region's start; an unguarded
 * EXIT ends the path; every branch is taken as maybe taken: extra paths only lose values), each
 * register holding one of: unknown, a constant, SR_CgaCtaId, or the window's base + c (base =
 * (SR_CgaCtaId << 24) + 0x400, what ULEA makes of them for a fixed place's [URb + imm], which
 * sass_fixed.c reads as window offset imm: the same reading). Paths meet where they join: equal
 * values stay, different ones become unknown; a guarded write meets the old value. Any write the
 * table does not know (an opcode not in it, a call of another function, an indirect branch, a
 * texture) or a return with no local call makes the whole function not known: nothing is marked. */
#include "smemlab/sass/sass.h"

#include <stdlib.h>
#include <string.h>

/* Registers a general-register destination may cover: 0 none, 1..8; W_UNK: not known. The width
 * is an upper bound (a load's actual size may be smaller; alignment bounds it further). */
enum { W_UNK = 255 };

struct opw {
    uint16_t op;
    uint8_t r;  /* general registers written from lo[16:24) */
    uint8_t ur; /* uniform registers written from lo[16:22) */
};

/* Every opcode of the listings (sorted). r: 0 none; 1 one (32-bit results); 2 a pair at most
 * (64-bit results, IMAD.WIDE, conversions that may be 64-bit); 4 at most four (loads, atomics,
 * LDSM: their size may be up to 128 bits); 8 (matrix multiply-accumulate). W_UNK: calls of other
 * functions (CALL.ABS 0x343, 0x344), indirect branches (BRX 0x949), textures (TEX 0xf60, TLD 0xf66:
 * their destinations are not in lo[16:24)). ur: likewise (2 for every uniform writer). A call
 * inside the function (CALL.REL.NOINC 0x944, ptxas's slow paths of division) and its return
 * (RET.REL.NODEC 0x950) write nothing themselves: the dataflow follows them (below). */
static const struct opw table[] = {
    {0x202, 1, 0}, {0x207, 1, 0}, {0x208, 1, 0}, {0x209, 1, 0}, {0x20a, 1, 0}, {0x20b, 0, 0},
    {0x20c, 0, 0}, {0x20f, 1, 0}, {0x210, 1, 0}, {0x211, 1, 0}, {0x212, 1, 0}, {0x213, 1, 0}, {0x215, 1, 0},
    {0x216, 1, 0}, {0x219, 1, 0}, {0x21b, 1, 0}, {0x220, 1, 0}, {0x221, 1, 0}, {0x223, 1, 0},
    {0x224, 1, 0}, {0x225, 2, 0}, {0x226, 1, 0}, {0x227, 1, 0}, {0x228, 2, 0}, {0x229, 2, 0},
    {0x22a, 0, 0}, {0x22b, 2, 0}, {0x230, 1, 0}, {0x231, 1, 0}, {0x235, 1, 0}, {0x237, 8, 0},
    {0x23a, 1, 0}, {0x23c, 8, 0}, {0x23d, 8, 0}, {0x23e, 1, 0}, {0x23f, 8, 0}, {0x245, 1, 0},
    {0x246, 1, 0}, {0x248, 1, 0}, {0x287, 0, 2}, {0x28c, 0, 0}, {0x290, 0, 2}, {0x291, 0, 2},
    {0x292, 0, 2}, {0x299, 0, 2}, {0x2a4, 0, 2}, {0x2a5, 0, 2}, {0x2bd, 0, 2}, {0x2be, 0, 2},
    {0x2bf, 0, 2}, {0x2ca, 0, 2}, {0x300, 1, 0}, {0x301, 1, 0}, {0x302, 0, 0}, {0x304, 2, 0},
    {0x305, 2, 0}, {0x306, 2, 0}, {0x307, 2, 0}, {0x308, 1, 0}, {0x309, 1, 0}, {0x310, 2, 0},
    {0x311, 2, 0}, {0x312, 2, 0}, {0x313, 2, 0}, {0x31c, 1, 0}, {0x31d, 0, 0},
    {0x343, W_UNK, W_UNK}, {0x344, W_UNK, W_UNK}, {0x348, 0, 0}, {0x355, 1, 0}, {0x356, 0, 0},
    {0x35d, 0, 0}, {0x387, 0, 0}, {0x388, 0, 0}, {0x389, 1, 0}, {0x38b, 4, 0}, {0x38c, 4, 0},
    {0x38d, 4, 0}, {0x3a1, 2, 0}, {0x3a9, 4, 0}, {0x3aa, 4, 0}, {0x3ba, 0, 0}, {0x3c4, 0, 2},
    {0x3c6, 0, 0}, {0x419, 1, 0}, {0x421, 1, 0}, {0x423, 1, 0}, {0x424, 1, 0}, {0x429, 2, 0},
    {0x42a, 0, 0}, {0x42b, 2, 0}, {0x430, 1, 0}, {0x435, 1, 0}, {0x446, 1, 0}, {0x4a4, 0, 2},
    {0x589, 1, 0}, {0x5a7, 0, 0}, {0x5ab, 0, 0}, {0x5b2, 0, 2}, {0x802, 1, 0}, {0x803, 1, 0},
    {0x804, 0, 0}, {0x805, 2, 0}, {0x806, 1, 0}, {0x807, 1, 0}, {0x808, 1, 0}, {0x809, 1, 0},
    {0x80b, 0, 0}, {0x80c, 0, 0}, {0x810, 1, 0}, {0x811, 1, 0}, {0x812, 1, 0}, {0x816, 1, 0},
    {0x819, 1, 0}, {0x81a, 1, 0}, {0x81b, 1, 0}, {0x81c, 0, 0}, {0x820, 1, 0}, {0x823, 1, 0},
    {0x824, 1, 0}, {0x825, 2, 0}, {0x827, 1, 0}, {0x828, 2, 0}, {0x82b, 2, 0}, {0x82e, 0, 0},
    {0x82f, 0, 2}, {0x835, 1, 0}, {0x836, 1, 0}, {0x83b, 4, 0}, {0x83e, 1, 0}, {0x844, 0, 0},
    {0x845, 1, 0}, {0x846, 1, 0}, {0x848, 1, 0}, {0x882, 0, 2}, {0x886, 0, 2}, {0x887, 0, 2},
    {0x88c, 0, 0}, {0x890, 0, 2}, {0x891, 0, 2}, {0x892, 0, 2}, {0x896, 0, 2}, {0x899, 0, 2},
    {0x89a, 0, 2}, {0x89b, 0, 2}, {0x8a4, 0, 2}, {0x8a5, 0, 2}, {0x906, 2, 0}, {0x908, 1, 0},
    {0x918, 0, 0}, {0x919, 1, 0}, {0x91a, 0, 0}, {0x91b, 0, 0}, {0x941, 0, 0}, {0x942, 0, 0},
    {0x944, 0, 0}, {0x945, 0, 0}, {0x946, 0, 0}, {0x947, 0, 0}, {0x948, 0, 0},
    {0x949, W_UNK, W_UNK}, {0x94d, 0, 0}, {0x94e, 2, 0}, {0x950, 0, 0}, {0x95c, 0, 0},
    {0x95d, 0, 0}, {0x980, 4, 0}, {0x981, 4, 0}, {0x983, 4, 0}, {0x984, 4, 0}, {0x985, 0, 0},
    {0x986, 0, 0}, {0x988, 0, 0}, {0x989, 1, 0}, {0x98a, 4, 0}, {0x98c, 4, 0}, {0x98e, 0, 0},
    {0x98f, 0, 0}, {0x992, 0, 0}, {0x9a2, 4, 0}, {0x9a6, 0, 0}, {0x9a7, 4, 0}, {0x9a8, 4, 0},
    {0x9ab, 0, 0}, {0x9af, 0, 0}, {0x9b0, 0, 0}, {0x9b1, 0, 0}, {0x9b7, 0, 0}, {0x9c3, 0, 2},
    {0xab9, 0, 2}, {0xb1d, 0, 0}, {0xb82, 4, 0}, {0xc02, 1, 0}, {0xc07, 1, 0}, {0xc08, 1, 0},
    {0xc09, 1, 0}, {0xc0c, 0, 0}, {0xc10, 1, 0}, {0xc11, 1, 0}, {0xc12, 1, 0}, {0xc19, 1, 0},
    {0xc20, 1, 0}, {0xc23, 1, 0}, {0xc24, 1, 0}, {0xc25, 2, 0}, {0xc27, 1, 0}, {0xc28, 2, 0},
    {0xc2b, 2, 0}, {0xc36, 1, 0}, {0xc45, 1, 0}, {0xc46, 1, 0}, {0xc48, 1, 0}, {0xc82, 0, 2},
    {0xd00, 1, 0}, {0xd06, 2, 0}, {0xd08, 1, 0}, {0xd09, 1, 0}, {0xd10, 2, 0}, {0xd12, 2, 0}, {0xe21, 1, 0},
    {0xe23, 1, 0}, {0xe24, 1, 0}, {0xe25, 2, 0}, {0xe29, 2, 0}, {0xe2a, 0, 0}, {0xe2b, 2, 0},
    {0xe46, 1, 0}, {0xf60, W_UNK, W_UNK}, {0xf66, W_UNK, W_UNK}, {0xf89, 1, 0}, {0xf8c, 4, 0},
    {0xf9d, 0, 0}, {0xfae, 0, 0},
};

static const struct opw *lookup(uint16_t op)
{
    size_t lo = 0, hi = sizeof table / sizeof table[0];
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (table[mid].op == op)
            return &table[mid];
        if (table[mid].op < op)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* A destination of up to w registers at d covers d .. d + min(w, alignment of d) - 1 (64- and 128-bit
 * destinations are aligned to their size: all 9,965 of the listings). */
static unsigned cover(unsigned d, unsigned w)
{
    if (w > 4)
        return w; /* matrix results: their alignment is not counted on */
    unsigned n = 1;
    while (n < w && d % (2 * n) == 0)
        n *= 2;
    return n;
}

int smem_sass_writes(const struct smem_sass_insn *in, struct smem_sass_dest *out)
{
    const struct opw *o = lookup(in->opcode);
    memset(out, 0, sizeof *out);
    if (!o || o->r == W_UNK || o->ur == W_UNK)
        return -1;
    unsigned d = (unsigned)(in->lo >> 16 & 0xff);
    if (o->r && d != 255) {
        unsigned w = o->r;
        if (in->cls == SMEM_SASS_LDS && in->width)
            w = in->width <= 4 ? 1 : in->width / 4u;
        out->r = (uint8_t)d;
        out->nr = (uint8_t)cover(d, w);
        if (d + out->nr > 255)
            out->nr = (uint8_t)(255 - d);
    }
    unsigned u = (unsigned)(in->lo >> 16 & 0x3f);
    if (o->ur && u != 63) {
        out->ur = (uint8_t)u;
        out->nur = (uint8_t)(u + o->ur > 63 ? 63 - u : o->ur);
    }
    return 0;
}

/* Values. */
enum { V_UNK = 0, V_CONST, V_CGA, V_BASE };
#define NR 256
#define NU 64
#define NV (NR + NU)
#define SR_CGA 0x88u
#define WINDOW_RESERVED 0x400
#define MAX_INSNS (1u << 16) /* a longer function is not read (its states: up to 2.5 KB a block) */

struct val {
    int32_t c; /* V_CONST: the 32 bits; V_BASE: the signed offset */
    uint8_t k;
};

static struct val mk(uint8_t k, int64_t c)
{
    struct val v = {(int32_t)(uint32_t)c, k};
    if (k == V_BASE && (c < -(1 << 24) || c > (1 << 24)))
        v.k = V_UNK; /* far outside any window: not a place */
    if (v.k == V_UNK || v.k == V_CGA)
        v.c = 0;
    return v;
}

static int same(struct val a, struct val b)
{
    return a.k == b.k && a.c == b.c;
}

static struct val add(struct val a, struct val b)
{
    if (a.k == V_CONST && b.k == V_CONST)
        return mk(V_CONST, (int64_t)(uint32_t)a.c + (uint32_t)b.c);
    if (a.k == V_BASE && b.k == V_CONST)
        return mk(V_BASE, (int64_t)a.c + b.c);
    if (a.k == V_CONST && b.k == V_BASE)
        return mk(V_BASE, (int64_t)b.c + a.c);
    return mk(V_UNK, 0);
}

/* (a << sh) + b, as LEA / ULEA compute it */
static struct val lea(struct val a, struct val b, unsigned sh)
{
    if (a.k == V_CGA && sh == 24 && b.k == V_CONST)
        return mk(V_BASE, (int64_t)b.c - WINDOW_RESERVED);
    if (a.k == V_CONST && a.c == 0)
        return b;
    if (a.k == V_CONST && b.k == V_CONST)
        return mk(V_CONST, (int64_t)((uint32_t)a.c << (sh & 31)) + (uint32_t)b.c);
    return mk(V_UNK, 0);
}

static struct val rget(const struct val *s, unsigned r)
{
    return r == 255 ? mk(V_CONST, 0) : s[r];
}

static struct val uget(const struct val *s, unsigned u)
{
    return u == 63 ? mk(V_CONST, 0) : s[NR + u];
}

#define HI_MID(hi) ((hi) >> 8 & 0x1ffffffffull) /* hi[8:41): modifiers, between operands and scheduling */

/* The value an instruction's form gives its destination (general register if *is_ur == 0, else
 * uniform), or -1 when the form is not one read as a value. */
static int value_of(const struct smem_sass_insn *in, const struct val *s, struct val *v, int *is_ur)
{
    uint64_t lo = in->lo, hi = in->hi, mid = HI_MID(hi);
    unsigned ra = (unsigned)(lo >> 24 & 0xff), rb = (unsigned)(lo >> 32 & 0xff);
    unsigned ua = (unsigned)(lo >> 24 & 0x3f), ub = (unsigned)(lo >> 32 & 0x3f);
    unsigned rc = (unsigned)(hi & 0xff), uc = (unsigned)(hi & 0x3f);
    int32_t imm = (int32_t)(uint32_t)(lo >> 32);
    unsigned sh = (unsigned)(mid >> 3 & 0x1f);
    *is_ur = 0;
    switch (in->opcode) {
    case 0x202: /* MOV R, R */
        if (lo >> 40 || mid != 0xf) return -1;
        *v = rget(s, rb);
        return 0;
    case 0x802: /* MOV R, imm */
        if (mid != 0xf) return -1;
        *v = mk(V_CONST, imm);
        return 0;
    case 0xc02: /* MOV R, UR */
        if (lo >> 38 || mid != 0x8000f) return -1;
        *v = uget(s, ub);
        return 0;
    case 0x882: /* UMOV UR, imm */
        if (mid) return -1;
        *is_ur = 1;
        *v = mk(V_CONST, imm);
        return 0;
    case 0xc82: /* UMOV UR, UR */
        if (lo >> 38 || mid != 0x80000) return -1;
        *is_ur = 1;
        *v = uget(s, ub);
        return 0;
    case 0xe24: /* IMAD.U32 R, RZ, RZ, UR */
        if (lo >> 38 || mid != 0xf8e00 || ra != 255 || rc != 255) return -1;
        *v = uget(s, ub);
        return 0;
    case 0x224: /* IMAD.MOV.U32 R, RZ, RZ, R */
        if (lo >> 40 || mid != 0x78e00 || ra != 255 || rb != 255) return -1;
        *v = rget(s, rc);
        return 0;
    case 0x211: /* LEA R, R, R, sh */
        if (lo >> 40 || (mid & ~(0x1full << 3)) != 0x78e00 || rc != 255) return -1;
        *v = lea(rget(s, ra), rget(s, rb), sh);
        return 0;
    case 0x291: /* ULEA UR, UR, UR, sh */
        if (lo >> 38 || (mid & ~(0x1full << 3)) != 0xf8e00 || uc != 63) return -1;
        *is_ur = 1;
        *v = lea(uget(s, ua), uget(s, ub), sh);
        return 0;
    case 0x836: /* VIADD R, R, imm */
        if (mid) return -1;
        *v = add(rget(s, ra), mk(V_CONST, imm));
        return 0;
    case 0x810: /* IADD3 R, R, imm, R */
        if (mid != 0x7ffe0) return -1;
        *v = add(add(rget(s, ra), mk(V_CONST, imm)), rget(s, rc));
        return 0;
    case 0x890: /* UIADD3 UR, UR, imm, UR */
        if (mid != 0xfffe0) return -1;
        *is_ur = 1;
        *v = add(add(uget(s, ua), mk(V_CONST, imm)), uget(s, uc));
        return 0;
    case 0x919: case 0x9c3: /* S2R / S2UR of SR_CgaCtaId */
        if (lo >> 24 || mid != SR_CGA) return -1;
        *is_ur = in->opcode == 0x9c3;
        *v = mk(V_CGA, 0);
        return 0;
    default:
        return -1;
    }
}

/* Applies instruction in to state s (in place). Returns -1 when what it writes is not known. A
 * form read as a value writes one register (they are 32-bit operations); any other write makes
 * what it may cover unknown. */
static int step(const struct smem_sass_insn *in, struct val *s)
{
    struct smem_sass_dest d;
    if (smem_sass_writes(in, &d))
        return -1;
    struct val v = mk(V_UNK, 0);
    int is_ur, known = !value_of(in, s, &v, &is_ur);
    int always = in->guard == SMEM_SASS_PT && !in->guard_neg;
    if (known && is_ur && d.nur)
        d.nur = 1;
    if (known && !is_ur && d.nr != 1)
        known = 0;
    for (unsigned k = 0; k < d.nr; k++) {
        struct val *x = &s[d.r + k];
        struct val nv = known && !is_ur ? v : mk(V_UNK, 0);
        *x = always || same(*x, nv) ? nv : mk(V_UNK, 0);
    }
    for (unsigned k = 0; k < d.nur; k++) {
        struct val *x = &s[NR + d.ur + k];
        struct val nv = known && is_ur ? v : mk(V_UNK, 0);
        *x = always || same(*x, nv) ? nv : mk(V_UNK, 0);
    }
    return 0;
}

/* state at entry of b joined with s; returns 1 if it changed */
static int join(struct val *b, uint8_t *seen, const struct val *s)
{
    if (!*seen) {
        memcpy(b, s, NV * sizeof *b);
        *seen = 1;
        return 1;
    }
    int ch = 0;
    for (unsigned r = 0; r < NV; r++)
        if (!same(b[r], s[r]) && b[r].k != V_UNK) {
            b[r] = mk(V_UNK, 0);
            ch = 1;
        }
    return ch;
}

#define OP_CALL_REL 0x944
#define OP_RET_REL 0x950
#define OP_ENDCOLLECTIVE 0x91b

/* WARPSYNC.COLLECTIVE (0x348 with a register, 0x948 .ALL): hi[54] set, and a target after the
 * region it opens (ENDCOLLECTIVE closes it; 1,383 of them in the listings) */
static int collective(const struct smem_sass_insn *in)
{
    return (in->opcode == 0x348 || in->opcode == 0x948) && (in->hi >> 54 & 1);
}

/* A branch's, a local call's or a collective region's target, as an instruction index; -1 none,
 * -2 outside the function. They are all encoded as BRA's (decode.c: the 241 CALL.REL.NOINC and
 * 1,383 WARPSYNC.COLLECTIVE of the listings too). */
static int64_t jump_of(const struct smem_sass_insn *in, uint32_t n)
{
    int64_t t = in->target;
    if (in->opcode == OP_CALL_REL || collective(in)) {
        uint64_t v = (in->hi & 0x3ffffu) << 30 | in->lo >> 34;
        int64_t sv = (int64_t)(v << 16) >> 16;
        t = (int64_t)in->offset + 16 + sv * 1024 + (int64_t)((in->lo >> 16 & 0xff) * 4);
    } else if (in->cls != SMEM_SASS_BRA) {
        return -1;
    }
    if (t < 0 || t % 16 || t / 16 >= (int64_t)n)
        return -2;
    return t / 16;
}

int smem_sass_fixed_bases(struct smem_sass_func *f)
{
    uint32_t n = f->ninsns;
    if (!n || n > MAX_INSNS)
        return 0;
    /* every write known, every target inside the function, returns only from local calls */
    struct smem_sass_dest d;
    int any = 0, calls = 0, rets = 0;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_sass_insn *in = &f->insns[k];
        if (in->cls == SMEM_SASS_UNKNOWN || smem_sass_writes(in, &d) || jump_of(in, n) == -2)
            return 0;
        calls += in->opcode == OP_CALL_REL;
        rets += in->opcode == OP_RET_REL;
        any |= in->cls == SMEM_SASS_LDS && in->ra != 255;
    }
    if (!any || (rets && !calls))
        return 0;
    /* basic blocks: leaders at 0, at targets, after branches, calls, returns, EXITs, ENDCOLLECTIVE */
    uint8_t *lead = calloc(n + 1, 1);
    uint32_t *block = malloc(n * sizeof *block);
    if (!lead || !block) {
        free(lead);
        free(block);
        return -1;
    }
    lead[0] = 1;
    for (uint32_t k = 0; k < n; k++) {
        const struct smem_sass_insn *in = &f->insns[k];
        int64_t t = jump_of(in, n);
        if (t >= 0)
            lead[t] = 1;
        if (t >= 0 || in->cls == SMEM_SASS_EXIT || in->opcode == OP_RET_REL ||
            in->opcode == OP_ENDCOLLECTIVE)
            lead[k + 1] = 1;
        if (collective(in))
            lead[k] = 1; /* ENDCOLLECTIVE may come back to it */
    }
    uint32_t nb = 0;
    for (uint32_t k = 0; k < n; k++) {
        nb += lead[k];
        block[k] = nb - 1;
    }
    uint32_t *first = malloc(nb * sizeof *first);
    struct val *st = malloc((size_t)nb * NV * sizeof *st), *cur = malloc(NV * sizeof *cur);
    uint8_t *seen = calloc(nb, 1), *work = calloc(nb, 1);
    int rc = -1;
    if (!first || !st || !cur || !seen || !work)
        goto done;
    for (uint32_t k = 0; k < n; k++)
        if (lead[k])
            first[block[k]] = k;
    for (unsigned r = 0; r < NV; r++)
        cur[r] = mk(V_UNK, 0);
    join(&st[0], &seen[0], cur);
    work[0] = 1;
#define FLOW(to)                                                                                   \
    do {                                                                                           \
        uint32_t t_ = block[to];                                                                   \
        if (join(&st[(size_t)t_ * NV], &seen[t_], cur))                                            \
            work[t_] = 1, changed = 1;                                                             \
    } while (0)
    for (int changed = 1; changed;) {
        changed = 0;
        for (uint32_t b = 0; b < nb; b++) {
            if (!work[b])
                continue;
            work[b] = 0;
            memcpy(cur, &st[(size_t)b * NV], NV * sizeof *cur);
            uint32_t k = first[b];
            int falls = 1;
            for (;; k++) {
                const struct smem_sass_insn *in = &f->insns[k];
                step(in, cur);
                int64_t t = jump_of(in, n);
                if (t >= 0)
                    FLOW((uint32_t)t); /* taken, or not: both are paths */
                if (in->opcode == OP_RET_REL) {
                    /* back after any local call (more paths than there are: still sound) */
                    for (uint32_t q = 0; q + 1 < n; q++)
                        if (f->insns[q].opcode == OP_CALL_REL)
                            FLOW(q + 1);
                    falls = 0;
                }
                if (in->opcode == OP_ENDCOLLECTIVE) /* back to any region's start (or on) */
                    for (uint32_t q = 0; q < n; q++)
                        if (collective(&f->insns[q]))
                            FLOW(q);
                if (in->cls == SMEM_SASS_EXIT && in->guard == SMEM_SASS_PT && !in->guard_neg)
                    falls = 0;
                if (k + 1 >= n || lead[k + 1])
                    break;
            }
            if (falls && k + 1 < n)
                FLOW(k + 1);
        }
    }
#undef FLOW
    /* the LDS reached with their address register at base + c */
    for (uint32_t b = 0; b < nb; b++) {
        if (!seen[b])
            continue;
        memcpy(cur, &st[(size_t)b * NV], NV * sizeof *cur);
        for (uint32_t k = first[b]; k < n && (k == first[b] || !lead[k]); k++) {
            struct smem_sass_insn *in = &f->insns[k];
            if (in->cls == SMEM_SASS_LDS && in->ra != 255 && !in->ur_used && cur[in->ra].k == V_BASE) {
                int64_t off = (int64_t)cur[in->ra].c + in->imm;
                if (off >= 0 && off < (1 << 24)) {
                    in->ra_fixed = 1;
                    in->imm = (int32_t)off;
                }
            }
            step(in, cur);
        }
    }
    rc = 0;
done:
    free(lead);
    free(block);
    free(first);
    free(st);
    free(cur);
    free(seen);
    free(work);
    return rc;
}
