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

/* The cost (H100, docs/bank-model.md): the lanes are cut into passes as a store of `size` bytes
 * is (size/4 passes of 128/size consecutive lanes); a pass costs
 *  - .ca (the hub rule): the largest, over its lanes a, of the lane-word writes to a's destination
 *    bank plus the lanes that read a's source bank (bank = (address / 4) mod 32: the L1 data array
 *    the copy reads) and do not write that destination bank, every copy on its own; with
 *    conflicts on one side only, the worst bank of that side;
 *  - .cg (the keys rule): its distinct keys, at least its destinations' worst bank: lanes writing
 *    one destination count once; two lanes on the two halves of one global sector that write one
 *    shared sector are one item keyed (global line, shared line, (shared - global sector) mod 2,
 *    halves swapped); every other lane one item keyed (global line, shared line, its half,
 *    (dst - src) mod 64).
 * ideal = passes with an active lane. Exact wherever smem_cp_async_established holds (867 rows of
 * tests/hw/h100-ldsm*.csv, 152 of them held out); max_ways: the worst bank of either side. */
struct smem_cost smem_cp_async_cost(const struct smem_banks *banks, const struct smem_cp_async_request *req);

/* 1 when the measurements establish the cost of req: .ca when counting a source word read by
 * several lanes of a pass once, or once a copy (as the cost does), gives the same cost (always so
 * when no two lanes read one word; where it differs, counting every copy is exact on every measured
 * row but was fitted on them); .cg when no 16-byte global chunk is read by two lanes of a pass and
 * no destination is written by two lanes (except the two halves of one global sector onto one
 * destination, in one pass). 0: the cost is an estimate. */
int smem_cp_async_established(const struct smem_cp_async_request *req);

/* The destinations as an ordinary store request of `size` bytes (for the bank map pictures). */
void smem_cp_async_as_request(const struct smem_cp_async_request *req, struct smem_request *out);

#ifdef __cplusplus
}
#endif
#endif
