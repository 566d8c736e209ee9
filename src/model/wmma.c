/* wmma.c: the wmma fragments of sm_90 (which element of the matrix each lane holds) and the SASS
 * requests a wmma load or store of shared memory becomes. Both measured on an H100:
 * tests/hw/wmma/ and docs/bank-model.md ("wmma"). */
#include "smemlab/model/wmma.h"

#include <stddef.h>

static unsigned esize(unsigned t)
{
    switch (t) {
    case SMEM_WMMA_F16: case SMEM_WMMA_BF16: return 2;
    case SMEM_WMMA_S8: case SMEM_WMMA_U8: return 1;
    case SMEM_WMMA_F64: return 8;
    default: return 4;
    }
}

unsigned smem_wmma_elem_bytes(const struct smem_wmma_frag *f) { return esize(f->type); }

const char *smem_wmma_check(const struct smem_wmma_frag *f)
{
    unsigned m = f->m, n = f->n, k = f->k, t = f->type;
    int big = k == 16 && ((m == 16 && n == 16) || (m == 32 && n == 8) || (m == 8 && n == 32));
    if (f->use > SMEM_WMMA_C || t > SMEM_WMMA_F64)
        return "not a wmma fragment";
    if (f->use == SMEM_WMMA_C) {
        if (t == SMEM_WMMA_F16 || t == SMEM_WMMA_S32)
            return big ? NULL : "this wmma shape has no such accumulator";
        if (t == SMEM_WMMA_F32)
            return big || (m == 16 && n == 16 && k == 8) ? NULL : "this wmma shape has no .f32 accumulator";
        if (t == SMEM_WMMA_F64)
            return m == 8 && n == 8 && k == 4 ? NULL : "wmma .f64 is .m8n8k4 only";
        return "a wmma accumulator is .f16, .f32, .s32 or .f64";
    }
    switch (t) {
    case SMEM_WMMA_F16: case SMEM_WMMA_BF16: case SMEM_WMMA_S8: case SMEM_WMMA_U8:
        return big ? NULL : "this wmma shape is not one of .m16n16k16, .m32n8k16, .m8n32k16";
    case SMEM_WMMA_TF32:
        return m == 16 && n == 16 && k == 8 ? NULL : "wmma .tf32 is .m16n16k8 only";
    case SMEM_WMMA_F64:
        return m == 8 && n == 8 && k == 4 ? NULL : "wmma .f64 is .m8n8k4 only";
    default:
        return "wmma A and B fragments are .f16, .bf16, .tf32, .s8, .u8 or .f64";
    }
}

void smem_wmma_dims(const struct smem_wmma_frag *f, unsigned *rows, unsigned *cols)
{
    *rows = f->use == SMEM_WMMA_B ? f->k : f->m;
    *cols = f->use == SMEM_WMMA_A ? f->k : f->n;
}

unsigned smem_wmma_elements(const struct smem_wmma_frag *f)
{
    unsigned r, c;
    if (f->type == SMEM_WMMA_F16 && f->use != SMEM_WMMA_C)
        return 16; /* the 8 registers of PTX, holding the matrix once or more (measured) */
    smem_wmma_dims(f, &r, &c);
    return r * c / 32;
}

unsigned smem_wmma_registers(const struct smem_wmma_frag *f)
{
    unsigned es = esize(f->type), n = smem_wmma_elements(f);
    return es >= 4 ? n : n * es / 4;
}

void smem_wmma_element(const struct smem_wmma_frag *f, unsigned lane, unsigned e, unsigned *row,
                       unsigned *col)
{
    unsigned g = (lane & 31) >> 2, q = lane & 3, p = e >> 1, h = e & 1, r = 0, c = 0;
    unsigned t = f->type, m = f->m, n = f->n;
    if (f->use == SMEM_WMMA_C) {
        if (t == SMEM_WMMA_F64) {          /* 8x8: (g, 2q + e) */
            r = g;
            c = 2 * q + e;
        } else if (m == 16) {              /* the m16n8 accumulator twice, along N */
            r = g + 8 * (p & 1);
            c = 2 * q + h + 8 * (p >> 1);
        } else if (m == 32) {              /* rows g + 8p */
            r = g + 8 * p;
            c = 2 * q + h;
        } else {                           /* m8n32: transposed, columns g + 8p */
            r = 2 * q + h;
            c = g + 8 * p;
        }
    } else if (t == SMEM_WMMA_F16 || t == SMEM_WMMA_BF16) {
        if (f->use == SMEM_WMMA_A) {
            if (m == 8) {
                p %= 2;
                r = g;
                c = 2 * q + h + 8 * p;
            } else {
                p %= m == 32 ? 8 : 4;
                r = g + 8 * (p & 1) + 16 * (p >> 2);
                c = 2 * q + h + 8 * ((p >> 1) & 1);
            }
        } else if (n == 8) {
            p %= 2;
            r = 2 * q + h + 8 * p;
            c = g;
        } else if (n == 16) {
            p %= 4;
            r = 2 * q + h + 8 * (p & 1);
            c = g + 8 * (p >> 1);
        } else {
            r = 2 * q + h + 8 * ((p >> 1) & 1);
            c = g + 8 * (p & 1) + 16 * (p >> 2);
        }
    } else if (t == SMEM_WMMA_TF32) {
        if (f->use == SMEM_WMMA_A) {
            r = g + 8 * (e & 1);
            c = q + 4 * (e >> 1);
        } else {
            r = q + 4 * (e & 1);
            c = g + 8 * (e >> 1);
        }
    } else if (t == SMEM_WMMA_S8 || t == SMEM_WMMA_U8) {
        unsigned rg = e >> 2, b = e & 3;   /* register rg, byte b */
        if (f->use == SMEM_WMMA_A) {
            r = g + 8 * rg;
            c = 4 * q + b;
        } else {
            r = 4 * q + b;
            c = g + 8 * rg;
        }
    } else {                               /* f64 m8n8k4: A (g, q), B (q, g) */
        r = f->use == SMEM_WMMA_A ? g : q;
        c = f->use == SMEM_WMMA_A ? q : g;
    }
    *row = r;
    *col = c;
}

/* LDSM: f16 A and B, and 8-bit A and B whose K runs along the memory's rows */
static int uses_ldsm(const struct smem_wmma_frag *f)
{
    if (f->use == SMEM_WMMA_C)
        return 0;
    if (f->type == SMEM_WMMA_F16)
        return 1;
    return (f->type == SMEM_WMMA_S8 || f->type == SMEM_WMMA_U8) && (f->use == SMEM_WMMA_A) != (f->col != 0);
}

/* The 8x(16 bytes) blocks of the matrix as stored: major lines (rows, or columns when col-major)
 * by 8, 16-byte pieces of a line */
static void ldsm_blocks(const struct smem_wmma_frag *f, unsigned *maj8, unsigned *min16)
{
    unsigned r, c;
    smem_wmma_dims(f, &r, &c);
    *maj8 = (f->col ? c : r) / 8;
    *min16 = (f->col ? r : c) * esize(f->type) / 16;
}

/* The parts, and each part's first element (not for LDSM) */
static unsigned plan(const struct smem_wmma_frag *f, struct smem_wmma_part *parts, uint8_t *first)
{
    unsigned es = esize(f->type), n = smem_wmma_elements(f), np = 0;
    if (smem_wmma_check(f))
        return 0;
    if (uses_ldsm(f)) {
        unsigned maj8, min16;
        ldsm_blocks(f, &maj8, &min16);
        unsigned blocks = maj8 * min16, x = es == 2 ? 4 : 2;
        if (x > blocks)
            x = blocks;
        for (unsigned i = 0; i < blocks / x && np < SMEM_WMMA_MAX_PARTS; i++, np++) {
            parts[np].ldsm = 1;
            parts[np].count = (uint8_t)x;
            parts[np].width = 16;
            first[np] = 0;
        }
        return np;
    }
    unsigned step = es == 2 ? 2 : 1; /* 16-bit: a 32-bit word a register (MOVM when transposed) */
    for (unsigned e = 0; e < n && np < SMEM_WMMA_MAX_PARTS; e += step) {
        unsigned w = es * step;
        if (f->use == SMEM_WMMA_C && es >= 4 && e + 1 < n) {
            /* accumulator pairs adjacent in memory: one access of both */
            unsigned r0, c0, r1, c1;
            smem_wmma_element(f, 0, e, &r0, &c0);
            smem_wmma_element(f, 0, e + 1, &r1, &c1);
            if (smem_wmma_offset(f, r1, c1, 64) == smem_wmma_offset(f, r0, c0, 64) + es) {
                parts[np].ldsm = 0;
                parts[np].count = 0;
                parts[np].width = (uint8_t)(2 * es);
                first[np++] = (uint8_t)e;
                e++;
                continue;
            }
        }
        parts[np].ldsm = 0;
        parts[np].count = 0;
        parts[np].width = (uint8_t)w;
        first[np++] = (uint8_t)e;
    }
    return np;
}

unsigned smem_wmma_parts(const struct smem_wmma_frag *f, struct smem_wmma_part *parts)
{
    uint8_t first[SMEM_WMMA_MAX_PARTS];
    return plan(f, parts, first);
}

void smem_wmma_part_addrs(const struct smem_wmma_frag *f, unsigned i, uint64_t ldm, uint64_t off[32])
{
    struct smem_wmma_part parts[SMEM_WMMA_MAX_PARTS];
    uint8_t first[SMEM_WMMA_MAX_PARTS];
    unsigned np = plan(f, parts, first), es = esize(f->type);
    for (unsigned l = 0; l < 32; l++)
        off[l] = 0;
    if (i >= np)
        return;
    if (parts[i].ldsm) {
        unsigned maj8, min16, x = parts[i].count;
        ldsm_blocks(f, &maj8, &min16);
        for (unsigned l = 0; l < 32; l++) {
            unsigned ll = l % (8 * x), blk = i * x + ll / 8, mb = blk / min16, cb = blk % min16;
            off[l] = (uint64_t)(8 * mb + ll % 8) * ldm * es + 16 * cb;
        }
        return;
    }
    for (unsigned l = 0; l < 32; l++) {
        unsigned r, c;
        smem_wmma_element(f, l, first[i], &r, &c);
        if (es == 2) {
            /* the word of the 8x8 block as stored, lane (g, q) at line g, bytes 4q..4q+3; a
               transposed block is turned by MOVM in registers (cuobjdump) */
            unsigned rb = r >> 3, cb = c >> 3, majb = f->col ? cb : rb, minb = f->col ? rb : cb;
            off[l] = (uint64_t)(8 * majb + (l >> 2)) * ldm * 2 + (8 * minb + 2 * (l & 3)) * 2;
        } else {
            off[l] = smem_wmma_offset(f, r, c, ldm);
        }
    }
}
