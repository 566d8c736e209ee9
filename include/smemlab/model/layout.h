/* layout.h: how a shared array's elements are placed: rows padded by p elements, CuTe's XOR
 * Swizzle<B,M,S> on element offsets, or a Hopper swizzle mode as a TMA copy writes the tile (the
 * tensor-map model's placement, model/tensormap.h). The address mapping, what makes a layout
 * usable (one to one, accesses kept whole), how one is written, and the one list of layouts worth
 * trying for an array (`smemlab pattern --advise` and `smemlab advise` both search it). Pure: no
 * I/O, no allocation. */
#ifndef SMEMLAB_LAYOUT_H
#define SMEMLAB_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/model/banks.h"

#ifdef __cplusplus
extern "C" {
#endif

enum smem_layout_kind { SMEM_LAYOUT_PAD = 0, SMEM_LAYOUT_SWIZZLE = 1, SMEM_LAYOUT_TMA = 2 };

/* A layout of one array: a function from a byte offset in the array as declared (rows of
 * row_elems elements of elem_bytes) to the byte offset the same element gets in the new layout. */
struct smem_layout {
    enum smem_layout_kind kind;
    uint32_t row_elems, elem_bytes;
    unsigned pad;            /* PAD: elements added to every row */
    unsigned b, m, s;        /* SWIZZLE: Swizzle<B,M,S> applied to element offsets */
    /* TMA: the tile as cp.async.bulk.tensor writes it with swizzle mode `tma` (CUtensorMapSwizzle:
     * 0 none, 1 32B, 2 64B, 3 128B): rows of row_elems elements become boxes whose inner
     * dimension is the swizzle's span (a row of k spans is k boxes, one after another, each of
     * `rows` rows; a row narrower than the span is padded to it, as the H200 writes it), each
     * 16-byte chunk XORed on the absolute address tma_base + offset (tma_base: the tile's
     * address within the 1024-byte pattern; 0 for a tile aligned to it). */
    unsigned tma;
    uint32_t rows, tma_base;
};

/* CuTe's Swizzle<B,M,S>::apply for S >= B > 0 (cute/swizzle.hpp): the B bits at M+S.. are XORed
 * into the B bits at M.. : o ^ ((o & (((1<<B)-1) << (M+S))) >> S). */
static inline uint32_t smem_swizzle_bms(uint32_t o, unsigned b, unsigned m, unsigned s)
{
    uint32_t yyy = ((1u << b) - 1u) << (m + s);
    return o ^ ((o & yyy) >> s);
}

/* Where byte offset off (within the array as declared) lives under layout l. Padding:
 * (off / rowbytes) * (rowbytes + pad * elem) + off % rowbytes; swizzle: the element offset
 * swizzled, the byte within the element kept; TMA: smem_tmap_smem_addr's placement of the byte
 * (tensormap.c, measured on the H200), less tma_base. */
uint32_t smem_layout_map(const struct smem_layout *l, uint32_t off);

/* The array the layouts are for, and what they must respect. */
struct smem_layout_space {
    uint32_t elem_bytes;     /* element size: 1, 2, 4, 8 or 16 */
    uint32_t row_elems;      /* row length in elements; 0: unknown (no pad is tried) */
    uint32_t rows;           /* rows of row_elems; 0: unknown */
    uint32_t elems;          /* elements in the array (rows * row_elems when both are known) */
    uint32_t unit;           /* bytes of the widest access: each stays whole and aligned */
    unsigned max_pad;        /* pads tried: 0..max_pad; 0: smem_layout_max_pad's default */
    struct smem_banks banks;
};

/* The largest pad tried: sp->max_pad when set, else the number of banks or, when larger, the
 * period of the banks in pads: the smallest P with P * E a multiple of one bank line (banks x bank
 * bytes; line / E for the usual sizes). Pad p + P puts every row on the banks pad p does, so every
 * row shift is tried and no larger pad can do better. */
unsigned smem_layout_max_pad(const struct smem_layout_space *sp);

/* The candidates, in the order to try them (ties go to the first):
 * - pads 0 .. smem_layout_max_pad (none when the row length or the rows are unknown), smallest first;
 * - swizzles Swizzle<B,M,S> on element offsets, B = 1..7, M with 2^M * E from the widest access
 *   (a vector stays whole) to one bank line, S >= B with M + S + B within the array's offset bits
 *   (none for fewer than 4 elements): first those smem_layout_col_expr writes on the column index,
 *   then the others, each group by B, then M, then S;
 * - Hopper's swizzle modes as a TMA copy writes the tile (SMEM_LAYOUT_TMA, tile aligned: tma_base
 *   0), for rows and row length known, a row a multiple of 16 bytes and either a whole number of
 *   spans or narrower than one (smem_layout_tma_fits): first the spans that divide the row, the
 *   widest first (CUTLASS's choice: fewest boxes), then the spans a narrower row is padded to,
 *   the least padding first.
 * Every swizzle the list gives keeps accesses of sp->unit aligned; whether it is one to one and
 * whether a pad keeps them aligned, smem_layout_onto and smem_layout_aligned say. */
struct smem_layout_iter {
    unsigned stage;          /* 0 pads, 1 swizzles in column form, 2 the other swizzles, 3 TMA
                                modes, 4 done */
    unsigned p, b, m, s;     /* the next candidate of its stage (TMA: p is the mode) */
};

/* Starts it at the first candidate of that kind (PAD: the whole list; SWIZZLE: the swizzles and
 * the TMA modes; TMA: the TMA modes). */
void smem_layout_iter_init(struct smem_layout_iter *it, enum smem_layout_kind from);

/* The next candidate into *l: 1, or 0 when the list is done. */
int smem_layout_next(const struct smem_layout_space *sp, struct smem_layout_iter *it,
                     struct smem_layout *l);

/* The list's order: < 0 when a comes before b, > 0 after, 0 the same candidate. A search keeps, of
 * the candidates with the fewest wavefronts, the first in this order. */
int smem_layout_order(const struct smem_layout *a, const struct smem_layout *b);

/* NULL when l maps the sp->elems elements of the array one to one (onto the array for a swizzle,
 * into the padded array for a pad), else why not. */
const char *smem_layout_onto(const struct smem_layout_space *sp, const struct smem_layout *l);

/* NULL when every row of a pad starts on a multiple of sp->unit bytes (an access of that width
 * stays aligned), else why not. Swizzles from the list always do. */
const char *smem_layout_aligned(const struct smem_layout_space *sp, const struct smem_layout *l);

/* Swizzle l written on the column index of rows of l->row_elems elements: "c ^ ((r & 15) << 1)"
 * with r and c the row and column expressions (rows: the array's rows, 0 unknown; the mask is left
 * out when no row can carry a bit past it). 0 when the swizzle does not split into (row, column)
 * that way (the row length is not a power of two, or its bits cross the row boundary); size 0 asks
 * only whether it does. */
int smem_layout_col_expr(const struct smem_layout *l, uint32_t rows, const char *r, const char *c,
                         char *buf, size_t size);

/* Swizzle l as its bit formula on element offsets: "Swizzle<4,1,4> on element offsets:
 * o ^ ((o & 0x1e0) >> 4)". */
void smem_layout_formula(const struct smem_layout *l, char *buf, size_t size);

/* ---- Hopper's swizzle modes (SMEM_LAYOUT_TMA) ---- */

/* NULL when a tile whose rows are row_bytes long can be written by TMA boxes under swizzle mode
 * `mode` (1-3) as SMEM_LAYOUT_TMA describes (the inner box a multiple of 16 bytes, as the H200
 * requires; rows a whole number of spans or narrower than one), else why not. */
const char *smem_layout_tma_fits(uint32_t row_bytes, unsigned mode);

/* "none", "32B", "64B", "128B" (mode 0-3), NULL beyond. */
const char *smem_layout_tma_name(unsigned mode);

/* What a TMA-written tile of layout l (kind TMA, mode 1-3) is, in the fields a program writes:
 * the tensor map's, a wgmma matrix descriptor's and CuTe's. */
struct smem_layout_hopper {
    unsigned span;               /* 32, 64 or 128: the swizzle's span in bytes */
    uint32_t box_inner;          /* boxDim[0], elements (span / E, or the row when narrower) */
    uint32_t box_rows;           /* boxDim[1]: the rows, at most 256 */
    uint32_t boxes;              /* boxes along a row (row bytes / span, at least 1) */
    uint32_t row_copies;         /* copies down the rows: ceil(rows / 256) */
    uint32_t pitch;              /* bytes between rows in shared memory: the span */
    uint64_t bytes;              /* the tile's shared bytes: boxes * rows * pitch */
    uint32_t align;              /* the tile's alignment for descriptor base offset 0: 8 rows */
    unsigned wgmma_layout;       /* descriptor bits 62-63: 1 128B, 2 64B, 3 32B */
    uint32_t sbo;                /* stride byte offset: 8 rows of the span (K- and MN-major) */
    uint32_t lbo_mn;             /* leading byte offset of an MN-major operand: the next box
                                    (rows * span); a K-major swizzled one does not use it */
    unsigned cute_b, cute_m, cute_s; /* Swizzle<B,M,S> on byte offsets: <mode,4,3> */
};
void smem_layout_tma_fields(const struct smem_layout *l, struct smem_layout_hopper *h);

#ifdef __cplusplus
}
#endif
#endif
