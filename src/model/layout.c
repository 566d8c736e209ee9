/* layout.c: padded and swizzled layouts of a shared array (CuTe's Swizzle<B,M,S>, Hopper's TMA
 * swizzle modes): the address mapping, their checks, how a swizzle is written, and the
 * candidates a layout search tries, in its order of preference. */
#include "smemlab/model/layout.h"
#include "smemlab/model/tensormap.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

const char *smem_layout_tma_name(unsigned mode)
{
    static const char *const names[] = {"none", "32B", "64B", "128B"};
    return mode < 4 ? names[mode] : NULL;
}

const char *smem_layout_tma_fits(uint32_t row_bytes, unsigned mode)
{
    if (mode < 1 || mode > 3)
        return "not a swizzle mode (32B, 64B, 128B)";
    uint32_t span = 16u << mode;
    if (!row_bytes || row_bytes % 16)
        return "a TMA box's inner dimension must be a multiple of 16 bytes";
    if (row_bytes > span && row_bytes % span)
        return "rows are neither a whole number of swizzle spans nor narrower than one";
    return NULL;
}

/* The TMA placement: the byte at row r, byte x of the tile goes to box x / span (boxes one after
 * another, rows each), its row r, byte x % span, placed by the tensor-map model (rows of
 * smem_tmap_row_pitch, the XOR on the absolute address tma_base + offset). */
static uint32_t tma_map(const struct smem_layout *l, uint32_t off)
{
    uint32_t rb = l->row_elems * (l->elem_bytes ? l->elem_bytes : 1);
    if (!l->tma || !rb)
        return off;
    uint32_t span = 16u << l->tma, bw = rb < span ? rb : span;
    uint32_t rows = l->rows ? l->rows : 1, r = off / rb, x = off % rb;
    struct smem_tensormap t;
    memset(&t, 0, sizeof t);
    t.rank = 2;
    t.dtype = SMEM_TMAP_UINT8; /* bytes: any element size, the byte within it kept */
    t.swizzle = (uint8_t)l->tma;
    t.box[0] = bw;
    t.box[1] = 1;
    t.estride[0] = t.estride[1] = 1;
    uint64_t pitch = smem_tmap_row_pitch(&t);
    uint64_t row0 = (uint64_t)l->tma_base + ((uint64_t)(x / bw) * rows + r) * pitch;
    uint32_t e[SMEM_TMAP_MAX_RANK] = {x % bw, 0, 0, 0, 0};
    return (uint32_t)(smem_tmap_smem_addr(&t, row0, e) - l->tma_base);
}

void smem_layout_tma_fields(const struct smem_layout *l, struct smem_layout_hopper *h)
{
    memset(h, 0, sizeof *h);
    uint32_t e = l->elem_bytes ? l->elem_bytes : 1, rb = l->row_elems * e;
    unsigned mode = l->tma >= 1 && l->tma <= 3 ? l->tma : 3;
    uint32_t rows = l->rows ? l->rows : 1;
    h->span = 16u << mode;
    h->box_inner = (rb < h->span ? rb : h->span) / e;
    h->box_rows = rows < 256 ? rows : 256;
    h->boxes = rb > h->span ? rb / h->span : 1;
    h->row_copies = (rows + 255) / 256;
    h->pitch = h->span;
    h->bytes = (uint64_t)h->boxes * rows * h->pitch;
    h->align = 8 * h->span;
    h->wgmma_layout = 4 - mode;
    h->sbo = 8 * h->span;
    h->lbo_mn = rows * h->span;
    h->cute_b = mode;
    h->cute_m = 4;
    h->cute_s = 3;
}

uint32_t smem_layout_map(const struct smem_layout *l, uint32_t off)
{
    uint32_t e = l->elem_bytes ? l->elem_bytes : 1;
    if (l->kind == SMEM_LAYOUT_SWIZZLE)
        return smem_swizzle_bms(off / e, l->b, l->m, l->s) * e + off % e;
    if (l->kind == SMEM_LAYOUT_TMA)
        return tma_map(l, off);
    if (!l->row_elems || !l->pad)
        return off;
    uint32_t rb = l->row_elems * e;
    return off / rb * (rb + l->pad * e) + off % rb;
}

static unsigned log2u(uint32_t v)
{
    unsigned r = 0;
    while (v > 1) {
        v >>= 1;
        r++;
    }
    return r;
}

static int is_pow2(uint32_t v) { return v && !(v & (v - 1)); }

static uint32_t line_bytes(const struct smem_layout_space *sp)
{
    return sp->banks.count * sp->banks.bytes;
}

unsigned smem_layout_max_pad(const struct smem_layout_space *sp)
{
    if (sp->max_pad)
        return sp->max_pad;
    uint32_t line = line_bytes(sp), a = line, b = sp->elem_bytes;
    while (b) { /* gcd(line, E) */
        uint32_t t = a % b;
        a = b;
        b = t;
    }
    unsigned period = a ? line / a : 0;
    return period > sp->banks.count ? period : sp->banks.count;
}

/* A TMA mode's place among the modes: spans that divide the row, widest first (0-2), then spans
 * wider than the row, narrowest first (3-5). */
static unsigned tma_rank(const struct smem_layout *l)
{
    uint32_t rb = l->row_elems * l->elem_bytes, span = 16u << l->tma;
    return rb % span == 0 ? 3 - l->tma : 2 + l->tma;
}

int smem_layout_order(const struct smem_layout *a, const struct smem_layout *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind ? -1 : 1;
    if (a->kind == SMEM_LAYOUT_PAD)
        return (a->pad > b->pad) - (a->pad < b->pad);
    if (a->kind == SMEM_LAYOUT_TMA) {
        unsigned ra = tma_rank(a), rb = tma_rank(b);
        return (ra > rb) - (ra < rb);
    }
    int ca = smem_layout_col_expr(a, 0, "r", "c", NULL, 0);
    int cb = smem_layout_col_expr(b, 0, "r", "c", NULL, 0);
    if (ca != cb)
        return cb - ca;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    if (a->m != b->m)
        return a->m < b->m ? -1 : 1;
    return (a->s > b->s) - (a->s < b->s);
}

void smem_layout_iter_init(struct smem_layout_iter *it, enum smem_layout_kind from)
{
    memset(it, 0, sizeof *it);
    it->stage = from == SMEM_LAYOUT_TMA ? 3 : from == SMEM_LAYOUT_SWIZZLE ? 1 : 0;
    it->b = 1;
}

int smem_layout_next(const struct smem_layout_space *sp, struct smem_layout_iter *it,
                     struct smem_layout *l)
{
    assert(sp->elem_bytes);
    if (it->stage == 0) {
        if (sp->row_elems && sp->rows && it->p <= smem_layout_max_pad(sp)) {
            *l = (struct smem_layout){SMEM_LAYOUT_PAD, sp->row_elems, sp->elem_bytes, it->p++,
                                      0, 0, 0, 0, 0, 0};
            return 1;
        }
        it->stage = 1;
        it->b = 1;
        it->m = it->s = 0;
    }
    uint32_t n = sp->elems;
    unsigned nbits = n ? log2u(n) + (is_pow2(n) ? 0 : 1) : 0;
    uint32_t unit = sp->unit > sp->elem_bytes ? sp->unit : sp->elem_bytes;
    while (it->stage == 1 || it->stage == 2) {
        for (; n >= 4 && it->b <= 7; it->b++, it->m = 0, it->s = 0)
            for (; it->m <= 6; it->m++, it->s = 0) {
                /* a vector access must stay whole; zzz bits above one bank line do nothing useful */
                uint32_t chunk = (1u << it->m) * sp->elem_bytes;
                if (chunk < unit || chunk > line_bytes(sp))
                    continue;
                if (it->s < it->b)
                    it->s = it->b;
                for (; it->m + it->s + it->b <= nbits; it->s++) {
                    struct smem_layout c = {SMEM_LAYOUT_SWIZZLE, sp->row_elems, sp->elem_bytes, 0,
                                            it->b, it->m, it->s, 0, 0, 0};
                    int col = smem_layout_col_expr(&c, sp->rows, "r", "c", NULL, 0);
                    if (col == (it->stage == 1)) {
                        *l = c;
                        it->s++;
                        return 1;
                    }
                }
            }
        it->stage++;
        it->b = 1;
        it->m = it->s = 0;
        it->p = 0;
    }
    /* Hopper's modes (the tile as TMA writes it, aligned to its pattern): first those whose span
       divides the row, the widest first (CUTLASS's ss_smem_selector takes the widest the tile's
       rows allow: fewest boxes), then those that pad a narrower row to the span, the least
       padding first; it->p counts the slots 0-5 (tma_rank's order) */
    for (; it->stage == 3 && it->p < 6; it->p++) {
        uint64_t rb = (uint64_t)sp->row_elems * sp->elem_bytes;
        unsigned mode = it->p < 3 ? 3 - it->p : it->p - 2;
        if (!sp->row_elems || !sp->rows || rb > 0xffffffffu ||
            smem_layout_tma_fits((uint32_t)rb, mode) || (it->p < 3) != (rb % (16u << mode) == 0))
            continue;
        *l = (struct smem_layout){SMEM_LAYOUT_TMA, sp->row_elems, sp->elem_bytes, 0, 0, 0, 0,
                                  mode, sp->rows, 0};
        it->p++;
        return 1;
    }
    it->stage = 4;
    return 0;
}

const char *smem_layout_onto(const struct smem_layout_space *sp, const struct smem_layout *l)
{
    uint32_t n = sp->elems;
    if (!n)
        return NULL;
    if (l->kind == SMEM_LAYOUT_TMA) {
        /* boxes of rows x span, one after another: one to one when the rows tile the array */
        const char *why = smem_layout_tma_fits(l->row_elems * l->elem_bytes, l->tma);
        if (why)
            return why;
        if (!l->rows || (uint64_t)l->rows * l->row_elems < n)
            return "the rows do not cover the array";
        return NULL;
    }
    if (l->kind == SMEM_LAYOUT_PAD) {
        /* row r, column c goes to r * (C + p) + c: one to one; the last row must be one of rows */
        if (l->row_elems && sp->rows && (n - 1) / l->row_elems >= sp->rows)
            return "maps elements outside the padded array";
        return NULL;
    }
    /* x -> x ^ ((x & yyy) >> S) is one to one on 32-bit offsets (for S >= B it is its own inverse;
     * else a unit triangular map), and changes only the bits below M + B: the aligned blocks of
     * 2^(M+B) elements map onto themselves, so only a last, partial block can leave the array. */
    unsigned top = l->m + l->b;
    uint32_t first = top < 32 ? n & ~((1u << top) - 1u) : 0;
    for (uint32_t o = first; o < n; o++)
        if (smem_swizzle_bms(o, l->b, l->m, l->s) >= n)
            return "maps elements outside the array";
    return NULL;
}

const char *smem_layout_aligned(const struct smem_layout_space *sp, const struct smem_layout *l)
{
    uint32_t unit = sp->unit > l->elem_bytes ? sp->unit : l->elem_bytes;
    if (!unit)
        return NULL;
    if (l->kind == SMEM_LAYOUT_PAD)
        return l->row_elems && (uint64_t)(l->row_elems + l->pad) * l->elem_bytes % unit
                   ? "rows would lose the alignment of the widest access"
                   : NULL;
    if (l->kind == SMEM_LAYOUT_TMA) /* 16-byte chunks move whole, rows start on 16 bytes */
        return unit > 16 || l->tma_base % 16 ? "the swizzle would split an access" : NULL;
    return ((uint64_t)l->elem_bytes << l->m) % unit ? "the swizzle would split an access" : NULL;
}

int smem_layout_col_expr(const struct smem_layout *l, uint32_t rows, const char *r, const char *c,
                         char *buf, size_t size)
{
    unsigned b = l->b, m = l->m, s = l->s;
    if (l->kind != SMEM_LAYOUT_SWIZZLE || !is_pow2(l->row_elems))
        return 0;
    unsigned k = log2u(l->row_elems);
    if (m + b > k || m + s < k)
        return 0;
    if (!size)
        return 1;
    unsigned sh = m + s - k;
    uint32_t mask = (1u << b) - 1;
    char rx[512], t[512];
    if (sh)
        snprintf(rx, sizeof rx, "(%.400s >> %u)", r, sh);
    else
        snprintf(rx, sizeof rx, "%.400s", r);
    if (!rows || ((rows - 1) >> sh) > mask) {
        snprintf(t, sizeof t, "(%.440s & %u)", rx, mask);
        memcpy(rx, t, sizeof rx);
    }
    if (m) {
        snprintf(t, sizeof t, "(%.480s << %u)", rx, m);
        memcpy(rx, t, sizeof rx);
    }
    /* "c ^ r" needs no parentheses around a bare r */
    snprintf(buf, size, "%s ^ %s", c, rx);
    return 1;
}

void smem_layout_formula(const struct smem_layout *l, char *buf, size_t size)
{
    unsigned b = l->b, m = l->m, s = l->s;
    uint32_t zzz = ((1u << b) - 1) << m, yyy = zzz << s;
    snprintf(buf, size, "Swizzle<%u,%u,%u> on element offsets: o ^ ((o & 0x%x) >> %u)", b, m, s,
             yyy, s);
}
