/* tc_numeric.h: the floating-point sums of the H100's tensor cores (HMMA), bit for bit: what
 * mma.sync and wmma.mma give for f16, bf16, tf32 and (through f16) e4m3 / e5m2 operands with f32
 * or f16 accumulators. Pure functions of the operands' bits; the model and its evidence:
 * src/emu/tc_numeric.c, docs/analyzer.md ("Tensor-core era instructions"), tests/hw/mma/. */
#ifndef SMEMLAB_TC_NUMERIC_H
#define SMEMLAB_TC_NUMERIC_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* element types (the bits of one element, right-aligned in a uint32_t; tf32 as the f32 it is
 * stored in: its 13 low bits are ignored, as the tensor cores ignore them) */
enum smem_tc_type {
    SMEM_TC_F16 = 0,
    SMEM_TC_BF16 = 1,
    SMEM_TC_TF32 = 2,
    SMEM_TC_F32 = 3, /* C and D only */
    SMEM_TC_E4M3 = 4,
    SMEM_TC_E5M2 = 5
};

/* One fused block of the H100's HMMA: d = c + a[0] b[0] + ... + a[n-1] b[n-1], n <= 32, every
 * term (the n exact products and c) aligned to the largest exponent and cut to 25 bits below
 * it, summed exactly, the sum cut to f32 (toward zero) or rounded to f16 (to nearest even).
 * ta, tb: the operands' types (f16, bf16, tf32; e4m3 / e5m2 are taken as the f16 they convert
 * to); tc: C's type, td: D's (f32 or f16). Returns the bits of d. */
uint32_t smem_tc_block(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned n,
                       unsigned tc, uint32_t c, unsigned td);

/* One QGMMA block (wgmma.mma_async on e4m3 / e5m2, sm_90a): as smem_tc_block, with the terms
 * cut to 13 fraction bits below the largest exponent, and an f32 sum cut toward zero to 13
 * fraction bits of its own (an f16 one rounded to nearest even). */
uint32_t smem_tc_block_qgmma(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned n,
                             unsigned tc, uint32_t c, unsigned td);

/* One element of an mma.sync / wmma.mma result as the H100 makes it: the k (<= 32) products of
 * a row of A (type ta) and a column of B (type tb) added to c (type tc), D of type td. f16,
 * bf16 and tf32: HMMA blocks of `block` products (0: one block of k) in ascending k, C in the
 * first, each block's result (type td) the next one's C. e4m3 / e5m2 (C and D f32; block
 * ignored): what ptxas makes of them for sm_90, two f16 blocks (k = 0, 1 mod 4, then 2, 3 mod
 * 4) and an f32 addition of C. */
uint32_t smem_tc_dot(unsigned ta, const uint32_t *a, unsigned tb, const uint32_t *b, unsigned k,
                     unsigned block, unsigned tc, uint32_t c, unsigned td);

/* The f16 bits of an e4m3 (e5m2 when e5m2 is set) value: exact, NaN to the f16 quiet NaN. */
uint32_t smem_tc_fp8_to_f16(uint32_t x, int e5m2);

#ifdef __cplusplus
}
#endif

#endif
