/* wmma.h: the fragments of wmma.load / wmma.store / wmma.mma on sm_90, and what a wmma load or
 * store of shared memory costs. Pure: no I/O, no allocation. Both are measured on an H100
 * (tests/hw/wmma/, tests/hw/h100-wmma-layout.csv, tests/hw/h100-wmma.csv, docs/bank-model.md):
 * the PTX ISA leaves the fragment layout to the implementation. */
#ifndef SMEMLAB_WMMA_H
#define SMEMLAB_WMMA_H

#include <stdint.h>

#include "smemlab/model/banks.h"

#ifdef __cplusplus
extern "C" {
#endif

enum smem_wmma_use { SMEM_WMMA_A = 0, SMEM_WMMA_B = 1, SMEM_WMMA_C = 2 }; /* C: also D */
enum smem_wmma_type { SMEM_WMMA_F16 = 0, SMEM_WMMA_BF16, SMEM_WMMA_TF32, SMEM_WMMA_S8,
                      SMEM_WMMA_U8, SMEM_WMMA_F32, SMEM_WMMA_S32, SMEM_WMMA_F64 };

/* One fragment kind: the matrix (use), its element type, the shape .mMnNkK, and the layout in
 * memory (col: column-major; the fragment itself is the same for both, measured). */
struct smem_wmma_frag {
    uint8_t use, type;
    uint8_t m, n, k;
    uint8_t col;
};

/* NULL when sm_90 has this fragment (f16/bf16: m16n16k16, m32n8k16, m8n32k16 A, B; f16/f32 C;
 * tf32 m16n16k8 A, B and f32 C; s8/u8 the three shapes A, B and s32 C; f64 m8n8k4 A, B, C),
 * else a sentence saying what is not modelled. */
const char *smem_wmma_check(const struct smem_wmma_frag *f);

/* The matrix the fragment holds: A is M x K, B is K x N, C is M x N. */
void smem_wmma_dims(const struct smem_wmma_frag *f, unsigned *rows, unsigned *cols);
unsigned smem_wmma_elem_bytes(const struct smem_wmma_frag *f);
/* Elements a lane holds (f16 A and B hold 16, some twice: measured), and the PTX registers they
 * take (16-bit elements two to a .b32, 8-bit four, others one each). */
unsigned smem_wmma_elements(const struct smem_wmma_frag *f);
unsigned smem_wmma_registers(const struct smem_wmma_frag *f);

/* Element e of lane `lane` is the matrix's (row, col): the layout the H100 gives (every lane and
 * element of every kind checked against tests/hw/h100-wmma-layout.csv). Element e is in register
 * e / (elements a register), at bits (e % that) * element bits. */
void smem_wmma_element(const struct smem_wmma_frag *f, unsigned lane, unsigned e, unsigned *row,
                       unsigned *col);

/* Byte offset of (row, col) from the matrix's base with a leading dimension of ldm elements. */
static inline uint64_t smem_wmma_offset(const struct smem_wmma_frag *f, unsigned row, unsigned col,
                                        uint64_t ldm)
{
    uint64_t es = f->type == SMEM_WMMA_F16 || f->type == SMEM_WMMA_BF16 ? 2
                  : f->type == SMEM_WMMA_S8 || f->type == SMEM_WMMA_U8  ? 1
                  : f->type == SMEM_WMMA_F64                            ? 8
                                                                        : 4;
    return f->col ? (uint64_t)col * ldm * es + row * es : (uint64_t)row * ldm * es + col * es;
}

/* The SASS requests one wmma.load (or .store) of shared memory becomes (ptxas 13.0, sm_90, as
 * cuobjdump shows them; their counts as Nsight Compute counts them): LDSM for f16 A and B, and
 * for s8/u8 A and B whose K runs along memory rows (op_ldsm); else LDS / STS (or a generic
 * LD / ST, which Nsight Compute counts as op_shared_ld / _st when it reaches shared memory) of
 * `width` bytes a lane. At most SMEM_WMMA_MAX_PARTS. */
#define SMEM_WMMA_MAX_PARTS 16
struct smem_wmma_part {
    uint8_t ldsm;  /* 1: an LDSM of `count` 8x8 matrices (lanes 0 .. 8*count-1 give rows) */
    uint8_t count; /* LDSM: 1, 2 or 4 */
    uint8_t width; /* bytes a lane: 16 for LDSM, else 1, 4, 8 or 16 */
};
unsigned smem_wmma_parts(const struct smem_wmma_frag *f, struct smem_wmma_part *parts);

/* Each lane's byte offset from the matrix's base for part i (LDSM: lane l < 8*count gives row
 * l % 8 of its matrix; the others repeat those rows), with a leading dimension of ldm elements. */
void smem_wmma_part_addrs(const struct smem_wmma_frag *f, unsigned i, uint64_t ldm, uint64_t off[32]);

#ifdef __cplusplus
}
#endif

#endif
