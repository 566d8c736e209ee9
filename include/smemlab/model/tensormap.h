/* tensormap.h: the 128-byte tensor map (CUtensorMap) of smemlab's driver stand-in: its fields, the
 * checks cuTensorMapEncodeTiled / Im2col make (cuda.h, CUDA 13.0), our own byte encoding, the
 * field replacement PTX's tensormap.replace does, and where a tiled box's elements come from in
 * global memory and land in shared memory under each swizzle mode. Pure: no I/O, no allocation.
 *
 * The encoding is ours (the driver's is opaque and undocumented); what real programs do with the
 * bytes constrains it: they copy maps (memcpy, cudaMemcpy, kernel parameters, __constant__), so
 * the bytes are self-contained; Triton zero-fills 128 bytes and builds a map field by field with
 * tensormap.replace, so all zeros decode (rank 1, UINT8, every dimension, box and element stride
 * 1) and every field sits apart; CUTLASS clears bit 21 of qword 1 when the driver reports <= 13010,
 * so that bit carries nothing. Little-endian:
 *
 *   bytes  0-7   global address
 *   bytes  8-15  qword 1: bits 0-2 rank-1, bit 3 im2col, bits 4-7 data type, bits 8-9 interleave,
 *                bits 12-15 swizzle, bits 16-17 L2 promotion, bit 18 out-of-bounds fill (NaN),
 *                bits 24-25 swizzle atomicity, bits 32-39 channelsPerPixel-1 and bits 40-49
 *                pixelsPerColumn-1 (im2col); bit 21 and the rest 0
 *   bytes 16-35  globalDim[d]-1, 32 bits each (d = 0..4)
 *   bytes 36-40  boxDim[d]-1, a byte each
 *   bytes 41-45  elementStrides[d]-1, a byte each
 *   bytes 48-79  globalStrides[d] (bytes, dimension d+1), 64 bits each (d = 0..3)
 *   bytes 80-91  im2col: pixelBoxLowerCorner[0..2], pixelBoxUpperCorner[0..2], int16 each
 *   the rest     0
 *
 * Swizzle numbers are the tensor map's (cuda.h CUtensorMapSwizzle: 1 = 32B, 2 = 64B, 3 = 128B);
 * wgmma's matrix descriptors number them the other way (1 = 128B, 3 = 32B):
 * smem_swizzle_from_wgmma converts. */
#ifndef SMEMLAB_TENSORMAP_H
#define SMEMLAB_TENSORMAP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_TMAP_BYTES 128
#define SMEM_TMAP_MAX_RANK 5

enum smem_tmap_dtype { /* CUtensorMapDataType */
    SMEM_TMAP_UINT8 = 0, SMEM_TMAP_UINT16, SMEM_TMAP_UINT32, SMEM_TMAP_INT32, SMEM_TMAP_UINT64,
    SMEM_TMAP_INT64, SMEM_TMAP_FLOAT16, SMEM_TMAP_FLOAT32, SMEM_TMAP_FLOAT64, SMEM_TMAP_BFLOAT16,
    SMEM_TMAP_FLOAT32_FTZ, SMEM_TMAP_TFLOAT32, SMEM_TMAP_TFLOAT32_FTZ, SMEM_TMAP_16U4_ALIGN8B,
    SMEM_TMAP_16U4_ALIGN16B, SMEM_TMAP_16U6_ALIGN16B, SMEM_TMAP_DTYPES
};
enum smem_tmap_interleave { SMEM_TMAP_INTERLEAVE_NONE = 0, SMEM_TMAP_INTERLEAVE_16B,
                            SMEM_TMAP_INTERLEAVE_32B };
enum smem_tmap_swizzle { /* CUtensorMapSwizzle; 4-6 are sm_100's */
    SMEM_TMAP_SWIZZLE_NONE = 0, SMEM_TMAP_SWIZZLE_32B, SMEM_TMAP_SWIZZLE_64B,
    SMEM_TMAP_SWIZZLE_128B, SMEM_TMAP_SWIZZLE_128B_ATOM_32B, SMEM_TMAP_SWIZZLE_128B_ATOM_32B_FLIP_8B,
    SMEM_TMAP_SWIZZLE_128B_ATOM_64B
};

/* A tensor map's fields, as the encode calls take them (arrays innermost dimension first). */
struct smem_tensormap {
    uint8_t im2col;          /* 0: cuTensorMapEncodeTiled, 1: cuTensorMapEncodeIm2col */
    uint8_t dtype;           /* enum smem_tmap_dtype */
    uint8_t rank;            /* 1..5 (im2col 3..5) */
    uint8_t interleave, swizzle, l2promotion, oobfill, atomicity;
    uint64_t addr;
    uint64_t dim[SMEM_TMAP_MAX_RANK];      /* elements, 1..2^32 */
    uint64_t stride[SMEM_TMAP_MAX_RANK - 1]; /* bytes between consecutive indices of dimension d+1 */
    uint32_t box[SMEM_TMAP_MAX_RANK];      /* tiled: elements traversed, 1..256 */
    uint32_t estride[SMEM_TMAP_MAX_RANK];  /* 1..8 */
    int32_t lower[3], upper[3];            /* im2col: the pixel box's corners, rank-2 of each */
    uint32_t channels, pixels;             /* im2col: channelsPerPixel, pixelsPerColumn */
};

/* Bytes of one element; 0 for the packed sub-byte types (13-15) and values beyond them. */
unsigned smem_tmap_elem_bytes(unsigned dtype);
/* "FLOAT16", ... or NULL */
const char *smem_tmap_dtype_name(unsigned dtype);

/* 0 when t is a map cuTensorMapEncodeTiled (t->im2col 0) or cuTensorMapEncodeIm2col (1) accepts,
 * else -1 with the rule it breaks in why (the driver's answer: CUDA_ERROR_INVALID_VALUE). Every
 * requirement of cuda.h's documentation of the two calls, as the H200's driver applies them
 * (tests/run/h200-tensormap.txt: it also checks elementStrides[0] and the 16-byte inner box of
 * interleaved maps and of im2col's channels, and lets INTERLEAVE_32B take any swizzle; it checks
 * neither the map's own alignment nor the global address beyond its alignment). sm90: 1 refuses
 * what compute capability 9.0 lacks (the swizzle modes 4-6 and the packed types 13-15). */
int smem_tensormap_check(const struct smem_tensormap *t, int sm90, char *why, size_t whylen);

/* The 128 bytes of t (the layout above); unused fields 0. */
void smem_tensormap_encode(const struct smem_tensormap *t, uint8_t out[SMEM_TMAP_BYTES]);
/* The fields of 128 bytes (any bytes decode; smem_tensormap_check says whether they make a map). */
void smem_tensormap_decode(const uint8_t in[SMEM_TMAP_BYTES], struct smem_tensormap *t);

/* PTX tensormap.replace.tile.<field>: the fields one replace names, ord the dimension (box_dim,
 * global_dim, element_stride: 0..4; global_stride: 0..3, the stride of dimension ord+1 in bytes).
 * rank is written as PTX writes it, rank-1. */
enum smem_tmap_field {
    SMEM_TMAP_F_GLOBAL_ADDRESS, SMEM_TMAP_F_RANK, SMEM_TMAP_F_BOX_DIM, SMEM_TMAP_F_GLOBAL_DIM,
    SMEM_TMAP_F_GLOBAL_STRIDE, SMEM_TMAP_F_ELEMENT_STRIDE, SMEM_TMAP_F_ELEMTYPE,
    SMEM_TMAP_F_INTERLEAVE, SMEM_TMAP_F_SWIZZLE_MODE, SMEM_TMAP_F_SWIZZLE_ATOMICITY,
    SMEM_TMAP_F_FILL_MODE
};
/* Replaces one field of the bytes in place; -1 (bytes unchanged) when ord or value cannot be
 * encoded (a dimension past 5, a box of 0 or over 256, ...). */
int smem_tensormap_replace(uint8_t map[SMEM_TMAP_BYTES], enum smem_tmap_field f, unsigned ord,
                           uint64_t value);

/* ---- where a tiled box's elements go ---- */

/* Elements a tiled box holds along dimension d: ceil(box[d] / estride[d]) (estride[0] counts
 * only with interleave, as cuda.h says); 1 for d >= rank. */
uint32_t smem_tmap_box_elems(const struct smem_tensormap *t, unsigned d);
/* Bytes of shared memory a tiled box fills (what mbarrier complete_tx credits), 0 if unmodelled. */
uint64_t smem_tmap_box_bytes(const struct smem_tensormap *t);

/* NULL when smem_tmap_element / smem_tmap_smem_offset model t's layout (a tiled map of a whole-byte
 * type, interleave NONE, swizzle none/32B/64B/128B), else a sentence saying what is not modelled. */
const char *smem_tmap_unmodelled(const struct smem_tensormap *t);

/* Element e (e[d] < smem_tmap_box_elems(t, d)) of the box whose origin is coordinate c (signed
 * elements, innermost first): its global byte address in *gaddr; returns 1 inside the tensor, 0
 * out of bounds (a load fills it with zero or NaN, a store skips it). */
int smem_tmap_element(const struct smem_tensormap *t, const int32_t c[SMEM_TMAP_MAX_RANK],
                      const uint32_t e[SMEM_TMAP_MAX_RANK], uint64_t *gaddr);
/* The bytes between a box's rows in shared memory: the inner box (smem_tmap_box_elems(t, 0)
 * elements) without a swizzle; the swizzle's span (32, 64, 128 bytes) with one, whatever the
 * inner box (a narrower row is padded to the span: the H200, tests/run/h200-tma-layout.txt).
 * smem_tmap_box_footprint: the shared bytes the box spans (rows of that pitch; the bytes
 * mbarrier complete_tx credits are smem_tmap_box_bytes, without the padding), 0 if unmodelled. */
uint64_t smem_tmap_row_pitch(const struct smem_tensormap *t);
uint64_t smem_tmap_box_footprint(const struct smem_tensormap *t);
/* Its byte offset in the box before the swizzle (innermost first, rows of
 * smem_tmap_row_pitch bytes). */
uint64_t smem_tmap_box_offset(const struct smem_tensormap *t, const uint32_t e[SMEM_TMAP_MAX_RANK]);
/* The shared-memory byte address of element e when the box is written at shared address dst:
 * the swizzle applied to the absolute address dst + offset (PTX's "swizzle base offset" is the
 * phase of dst within the pattern). */
uint64_t smem_tmap_smem_addr(const struct smem_tensormap *t, uint64_t dst,
                             const uint32_t e[SMEM_TMAP_MAX_RANK]);

/* A swizzle (tensor-map numbering 0-3) on an absolute shared address: the 16-byte chunk bits
 * [4, 4+B) XORed with the 128-byte line bits [7, 7+B), B = 0, 1, 2, 3 for none, 32B, 64B, 128B. */
static inline uint64_t smem_swizzle(uint64_t addr, unsigned swizzle)
{
    uint64_t mask = swizzle >= 1 && swizzle <= 3 ? (1u << swizzle) - 1 : 0;
    return addr ^ (((addr >> 7) & mask) << 4);
}
/* wgmma matrix descriptor layout type (bits 62-63: 0 none, 1 128B, 2 64B, 3 32B) to the
 * tensor-map numbering. */
static inline unsigned smem_swizzle_from_wgmma(unsigned layout)
{
    return layout == 0 ? 0 : 4 - (layout & 3);
}

#ifdef __cplusplus
}
#endif
#endif
