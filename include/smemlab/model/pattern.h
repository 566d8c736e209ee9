/* pattern.h: one access pattern (arr[tid*129], tile[tx][ty]) executed by every thread of one block:
 * one shared-memory request per warp, each costed by the bank model. Pure: no I/O, no allocation. */
#ifndef SMEMLAB_PATTERN_H
#define SMEMLAB_PATTERN_H

#include <stdint.h>

#include "smemlab/model/banks.h"
#include "smemlab/model/expr.h"
#include "smemlab/model/layout.h"
#include "smemlab/model/matrix.h"

#ifdef __cplusplus
extern "C" {
#endif

/* CUDA's limits on a block (every GPU since Fermi). */
#define SMEM_MAX_BLOCK_THREADS 1024
#define SMEM_MAX_WARPS (SMEM_MAX_BLOCK_THREADS / SMEM_WARP)

/* Which instruction executes the access: an ordinary load/store of elem_bytes (op), or one of the
 * matrix and asynchronous-copy instructions (their rules: matrix.h). */
enum smem_pattern_kind {
    SMEM_PK_PLAIN = 0,
    SMEM_PK_LDMATRIX, /* the expression gives each lane's row address (lanes 0 .. 8*matrices-1) */
    SMEM_PK_STMATRIX,
    SMEM_PK_CP_ASYNC  /* the expression gives each lane's shared destination */
};

/* How the access is executed. */
struct smem_pattern {
    unsigned block[3];       /* blockDim x, y, z */
    unsigned block_index[3]; /* blockIdx x, y, z (one block is evaluated) */
    unsigned elem_bytes;     /* element size = access width: 1, 2, 4, 8, 16 */
    unsigned shape[2];       /* rows, cols of the array (padding included); 0, 0 = not given */
    enum smem_op op;
    struct smem_banks banks;
    /* The instruction (default plain). ldmatrix/stmatrix: matrices 1, 2 or 4, trans; cp.async:
     * copy_bytes 4, 8 or 16, bypass (.cg), src: the global source of each lane, an expression
     * whose index is in copy_bytes units (NULL: tid, i.e. consecutive copies). */
    enum smem_pattern_kind kind;
    unsigned matrices;
    int trans;
    unsigned copy_bytes;
    int bypass;
    const struct smem_access *src;
    /* A layout of the array to price the access under (smem_pattern_advise tries them; all zero:
     * as declared): a pad of elements added to each row of a 2-D access (the shape's columns stay
     * the bound of the column index), or a Swizzle<B,M,S> on element offsets (layout.h). Its
     * row_elems and elem_bytes are taken from the shape and elem_bytes. */
    struct smem_layout layout;
    /* Hopper's swizzle modes are layout.kind SMEM_LAYOUT_TMA (layout.h): the shape is the tile
     * a TMA copy writes (rows x cols, its box), layout.tma the mode (0 none .. 3 128B),
     * layout.tma_base the tile's offset within the 1024-byte pattern (a multiple of 128); every
     * access is priced at the byte the tensor-map model puts it (model/tensormap.h). */
};

/* Defaults: one warp (block 32), block index 0, 4-byte elements, loads, 32 banks of 4 bytes. */
struct smem_pattern smem_pattern_default(void);

/* NULL when p is usable (block within CUDA's limits, element size, banks, shape), else a
 * sentence saying what is wrong. These are the caller's settings, not the expression's. */
const char *smem_pattern_check(const struct smem_pattern *p);

/* One warp's request and its cost. */
struct smem_warp_cost {
    unsigned warp;
    unsigned active_lanes;
    struct smem_request request; /* ldmatrix/stmatrix/cp.async: as an ordinary request, for the map */
    struct smem_cost cost;
    int established; /* 0: the measurements do not establish this request's cost (cp.async.cg) */
};

struct smem_pattern_result {
    unsigned requests;       /* warps with an active lane: every warp of the block */
    uint64_t extent;         /* bytes from 0 to the end of the highest access (as laid out) */
    uint64_t wavefronts;     /* summed over requests */
    uint64_t ideal;          /* ideal wavefronts, summed */
    unsigned max_ways;       /* worst n-way over all requests */
    unsigned worst;          /* index in warp[] of the costliest request (first on ties) */
    struct smem_warp_cost warp[SMEM_MAX_WARPS];
};

/* Evaluates access a for every thread of the block described by p. 0 on success; -1 with diag
 * filled (column and thread) when the expression cannot be evaluated (division by zero), an index
 * falls outside the shape, a byte address does not fit 32 bits, or p fails smem_pattern_check.
 * Warps are consecutive groups of 32 linear thread ids (tid = tx + ty*bdx + tz*bdx*bdy); the last
 * one may be partial. Byte address = element index * elem_bytes, element index = row*cols + col
 * for a 2-D access. */
int smem_pattern_eval(const struct smem_access *a, const struct smem_pattern *p,
                      struct smem_pattern_result *r, struct smem_diag *diag);

/* The smallest padding and the best XOR swizzle for one access (ldmatrix tiles above all), each
 * proved by pricing the access again under the layout. The candidates are layout.h's list for the
 * array (smem_layout_next), the same `smemlab advise` searches: its shape (a 2-D access with a
 * shape has rows; without a shape, the array reaches as far as the access does, rounded up to a
 * power of two), the element size and the access unit (16 bytes for ldmatrix / stmatrix, the
 * copy size for cp.async, elem_bytes otherwise); pads 0 .. max_pad (0: layout.h's default) that
 * keep every row aligned for the instruction, swizzles that map the array onto itself. The best of
 * each kind is the first in the list's order with the fewest wavefronts; has_pad / has_swizzle /
 * has_tma are 0 when none was tried. b, m, s are written on byte offsets: the element swizzle's M
 * plus log2 of the element size. The same layout must be applied to every access of the array:
 * this proves it for this one. */
struct smem_pattern_advice {
    uint64_t wavefronts, ideal;    /* as given */
    int has_pad, has_swizzle;
    unsigned pad;
    uint64_t pad_wavefronts;
    unsigned b, m, s;
    uint64_t swz_wavefronts;
    unsigned pads_tried, swizzles_tried;
    /* Hopper's modes (layout.h's last candidates, 2-D accesses with a shape whose rows a TMA box
     * can hold): the best mode (1 32B .. 3 128B; the first on ties) and its wavefronts */
    int has_tma;
    unsigned tma;
    uint64_t tma_wavefronts;
    unsigned tma_tried;
};
int smem_pattern_advise(const struct smem_access *a, const struct smem_pattern *p, unsigned max_pad,
                        struct smem_pattern_advice *adv, struct smem_diag *diag);

/* The instruction's name: "ld", "st", "ldmatrix.x4.trans", "cp.async.cg.16", ... */
const char *smem_pattern_op_name(const struct smem_pattern *p, char *buf, unsigned n);

/* Sets p's instruction from a name as smem_pattern_op_name writes it (also "cp.async.16" for
 * .ca, "ldmatrix.x4" with or without ".b16"); ldmatrix/stmatrix set elem_bytes to 2 and cp.async
 * to the copy size when set_elem. 0 on success, -1 for an unknown name. */
int smem_pattern_set_op(struct smem_pattern *p, const char *name, int set_elem);

/* The variables of the threads of warp w (count = threads in it); w must be below the warp count. */
void smem_pattern_lanes(const struct smem_pattern *p, unsigned w, struct smem_lanes *lanes);

/* Threads in the block and warps they form. */
unsigned smem_pattern_threads(const struct smem_pattern *p);
unsigned smem_pattern_warps(const struct smem_pattern *p);

#ifdef __cplusplus
}
#endif
#endif
