/* matrix.h: what one warp's ldmatrix / stmatrix / cp.async request costs in shared memory, and the
 * fragment layout of ldmatrix / stmatrix. Pure: no I/O, no allocation. The rules are the ones
 * measured on an H100 (tests/hw/h100-ldsm.csv, tests/hw/ldsm/, docs/bank-model.md). */
#ifndef SMEMLAB_MATRIX_H
#define SMEMLAB_MATRIX_H

#include <stdint.h>

#include "smemlab/model/banks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ldmatrix / stmatrix .m8n8 .b16: `count` 8x8 matrices (.x1, .x2, .x4) of 8 rows of 16 bytes. Lane
 * l supplies the shared address of row l % 8 of matrix l / 8; only lanes 0 .. 8*count-1 are used
 * (the other lanes' addresses are ignored: measured). .trans changes which register holds which
 * element, never the cost (measured). */
struct smem_matrix_request {
    unsigned count; /* 1, 2 or 4 */
    int trans;
    enum smem_op op; /* SMEM_LD: ldmatrix (LDSM), SMEM_ST: stmatrix (STSM) */
    uint32_t row[SMEM_WARP];
};

/* Lanes that supply row addresses: the low 8*count lanes. */
static inline uint32_t smem_matrix_lanes(unsigned count)
{
    return count >= 4 ? 0xffffffffu : (1u << (8 * count)) - 1u;
}

/* NULL when the request is well formed (count 1, 2 or 4; every used row 16-byte aligned), else a
 * sentence saying why not. */
const char *smem_matrix_check(const struct smem_matrix_request *req);

/* The cost: one pass per matrix (lanes 8m .. 8m+7), each costing the largest number of distinct
 * bank words any bank must deliver for its 8 rows x 16 bytes; ideal = count (one wavefront a
 * matrix). It is the cost of a 16-byte store (smem_request_cost) by the row lanes: see
 * smem_matrix_as_request. Exact on all 1000 ldmatrix/stmatrix rows of tests/hw/h100-ldsm.csv. */
struct smem_cost smem_matrix_cost(const struct smem_banks *banks, const struct smem_matrix_request *req);

/* The same rows as an ordinary 16-byte request of the row lanes (for the bank map pictures: its
 * passes are the matrices). */
void smem_matrix_as_request(const struct smem_matrix_request *req, struct smem_request *out);

/* The fragment layout (PTX ISA, checked value by value on the H100): register `reg` (matrix reg)
 * of lane `lane`, half `half` (0: bits 0-15, 1: bits 16-31) is the 2-byte element at
 * row[*row_lane] + *byte. Without .trans: row lane 8*reg + lane/4, byte 4*(lane%4) + 2*half; with
 * .trans: row lane 8*reg + 2*(lane%4) + half, byte 2*(lane/4). ldmatrix reads it, stmatrix writes it. */
static inline void smem_matrix_element(unsigned lane, unsigned reg, unsigned half, int trans,
                                       unsigned *row_lane, unsigned *byte)
{
    if (!trans) {
        *row_lane = 8 * reg + lane / 4;
        *byte = 4 * (lane % 4) + 2 * half;
    } else {
        *row_lane = 8 * reg + 2 * (lane % 4) + half;
        *byte = 2 * (lane / 4);
    }
}

/* cp.async.{ca,cg}.shared.global: each active lane copies `size` bytes (4, 8, 16; .cg only 16)
 * from global src[l] to shared dst[l] (LDGSTS). */
struct smem_cp_async_request {
    uint32_t active;
    unsigned size;
    int bypass; /* .cg (LDGSTS.BYPASS) */
    uint32_t dst[SMEM_WARP];
    uint64_t src[SMEM_WARP];
};

/* NULL when well formed (size 4, 8, 16; .cg only 16; aligned destinations and sources). */
const char *smem_cp_async_check(const struct smem_cp_async_request *req);

/* The cost (H100, docs/bank-model.md, tests/hw/ldsm/fit_ldgsts.py):
 *  - .ca (the hub rule), by passes as a store of `size` bytes (size/4 passes of 128/size
 *    consecutive lanes): a pass costs the largest, over its lanes a, of the lane-word writes to a's
 *    destination bank plus the lanes that read a's source bank (bank = (address / 4) mod 32: the
 *    L1 data array the copy reads) and do not write that destination bank, every copy on its own;
 *    with conflicts on one side only, the worst bank of that side;
 *  - .cg (the warp rule), over the whole warp: lanes writing one destination count once (the
 *    lowest lane's copy); two lanes on the two halves of one global sector that write one shared
 *    sector are one item keyed (global line, shared line, (shared - global sector) mod 2, halves
 *    swapped); every other lane one item keyed (global line, shared line, its half,
 *    (dst - src) mod 64); the request costs, over its keys, the most items of the key that read one
 *    source (a 16-byte chunk, or the sector of a whole item), round by round (the rounds rule):
 *    the kept lanes grouped by (chunk, 128-byte shared line, 16-byte parity of the destination),
 *    round k takes the k-th highest lane of every group, each round is priced as above over its
 *    own lanes (keys and whole pairs found again within it), and the rounds add up.
 * ideal = passes with an active lane (a .cg request can cost less: 32 lanes on one destination, 1).
 * max_ways: the worst bank of either side within a pass (.cg: of the destinations). Exact on every
 * cp.async row of tests/hw/h100-ldsm{,2,..,14}.csv (the rows held out are listed in
 * tests/test_banks_ldsm.c). */
struct smem_cost smem_cp_async_cost(const struct smem_banks *banks, const struct smem_cp_async_request *req);

/* 1 when the measurements establish the cost of req: .ca always (every kind measured, held out);
 * .cg always (whole copies: the rounds rule, held out by h100-ldsm14.csv on 2, 3 and 4 rounds, 78 of
 * 78 warps, where the nested deferral rule before it got 18). With src_size (below) 0 for .cg
 * src-size 8 or 12 (not measured). */
int smem_cp_async_established(const struct smem_cp_async_request *req);

/* The same with cp.async's src-size per lane (src_size NULL: every lane reads its whole copy;
 * src_size[l] bytes read, the rest of the copy zeros; 0: zero-fill, nothing read). A zero-fill lane
 * reads nothing: .ca prices it by the hub rule with no source (its destination writes alone). A
 * .cg request with short lanes (some lane with src-size below 16: zero-fill mixed with whole lanes,
 * src-size 4, zero-fill alone) costs the .ca hub rule over every active lane (each reading the
 * prefix it reads) plus the .cg warp rule over the lanes that read something and are kept by
 * destination among every active lane (zero-fill alone: a store by passes, lane-word writes
 * counted). A .ca src-size between 0 and the size costs what the whole copy costs. Established:
 * .ca always; .cg when the reading lanes' copies (kept as above) satisfy smem_cp_async_established's
 * class (held out: h100-ldsm9.csv, 73 of 73 .cg rows with short lanes; h100-ldsm12.csv). */
struct smem_cost smem_cp_async_cost_src(const struct smem_banks *banks, const struct smem_cp_async_request *req,
                                        const uint8_t *src_size);
int smem_cp_async_established_src(const struct smem_cp_async_request *req, const uint8_t *src_size);

/* The rounds of the .cg rounds rule over the reading lanes (kept as above) of req: the most kept
 * lanes that copy one global 16-byte chunk into one 128-byte shared line at one 16-byte parity (1 to
 * 4; 1: the warp rule alone; 0 when no lane reads); 0 for .ca. */
unsigned smem_cp_async_rounds(const struct smem_cp_async_request *req, const uint8_t *src_size);

/* History: how many times the deferral rule (the .cg model from the twelfth run to the thirteenth)
 * splits the reading lanes (kept as above) of req: 0 when no chunk goes to one shared line under
 * two keys at the same 16-byte parity, 1 for one level, more when a set split off splits again; 0
 * for .ca. tests/test_banks_ldsm.c tells by it which rows its committed predictions held out. */
unsigned smem_cp_async_deferrals(const struct smem_cp_async_request *req, const uint8_t *src_size);

/* 1 when some global 16-byte chunk is copied into one 128-byte shared line by two of those lanes
 * under different keys, at any parity ('crowded'): outside the class where the warp rule alone was
 * established before the twelfth run (tests/test_banks_ldsm.c tells the rows held out by it);
 * 0 for .ca. */
int smem_cp_async_crowded(const struct smem_cp_async_request *req, const uint8_t *src_size);

/* The destinations as an ordinary store request of `size` bytes (for the bank map pictures). */
void smem_cp_async_as_request(const struct smem_cp_async_request *req, struct smem_request *out);

#ifdef __cplusplus
}
#endif
#endif
