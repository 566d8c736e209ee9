/* test_tensormap.c: the tensor map of the driver stand-in (src/model/tensormap.c): every
 * requirement cuda.h (CUDA 13.0) documents for cuTensorMapEncodeTiled / Im2col, one case on each
 * side of it; our encoding (round trip, all zeros, CUTLASS's bit, Triton's field-by-field build
 * with tensormap.replace); the addresses of a box's elements in global and shared memory under
 * each swizzle (the worked examples of the PTX ISA's swizzle tables). */
#include "check.h"
#include "smemlab/model/tensormap.h"

#include <stdlib.h>

/* A 2-D FLOAT16 tensor of 1000 x 500 (rows of 2048 bytes), a 64 x 32 box, 128B swizzle: what
 * CUTLASS makes for a K-major fp16 tile. */
static struct smem_tensormap base(void)
{
    struct smem_tensormap t;
    memset(&t, 0, sizeof t);
    t.dtype = SMEM_TMAP_FLOAT16;
    t.rank = 2;
    t.addr = 0x7f0000001000ull;
    t.dim[0] = 1000;
    t.dim[1] = 500;
    t.stride[0] = 2048;
    t.box[0] = 64;
    t.box[1] = 32;
    t.estride[0] = t.estride[1] = 1;
    t.swizzle = SMEM_TMAP_SWIZZLE_128B;
    t.l2promotion = 2;
    return t;
}

static struct smem_tensormap im2col(void)
{
    struct smem_tensormap t;
    memset(&t, 0, sizeof t);
    t.im2col = 1;
    t.dtype = SMEM_TMAP_FLOAT16;
    t.rank = 4; /* NHWC: C, W, H, N */
    t.addr = 0x7f0000002000ull;
    t.dim[0] = 64, t.dim[1] = 32, t.dim[2] = 32, t.dim[3] = 8;
    t.stride[0] = 128, t.stride[1] = 128 * 32, t.stride[2] = 128 * 32 * 32;
    t.lower[0] = t.lower[1] = -1;
    t.upper[0] = t.upper[1] = -1;
    t.channels = 64;
    t.pixels = 128;
    for (int d = 0; d < 4; d++)
        t.estride[d] = 1;
    t.swizzle = SMEM_TMAP_SWIZZLE_128B;
    return t;
}

/* expects the check to fail with `part` in its reason */
static void refused(const struct smem_tensormap *t, int sm90, const char *part, int line)
{
    char why[300] = "";
    int r = smem_tensormap_check(t, sm90, why, sizeof why);
    check_count++;
    if (r != -1 || !strstr(why, part)) {
        check_failures++;
        fprintf(stderr, "%s:%d: expected a refusal about '%s', got %d '%s'\n", __FILE__, line, part,
                r, why);
    }
}
#define REFUSED(t, part) refused(&(t), 1, part, __LINE__)
#define ACCEPTED(t) CHECK_EQ(smem_tensormap_check(&(t), 1, NULL, 0), 0)

static void accepts_valid(void)
{
    struct smem_tensormap t = base();
    ACCEPTED(t);
    for (unsigned sw = 0; sw <= 3; sw++) { /* 32B: a 16-element box fits the span */
        t = base();
        t.swizzle = (uint8_t)sw;
        t.box[0] = sw == 1 ? 16 : sw == 2 ? 32 : 64;
        ACCEPTED(t);
    }
    t = base();
    t.rank = 5;
    for (int d = 2; d < 5; d++)
        t.dim[d] = 3, t.box[d] = 2, t.estride[d] = 1;
    t.stride[1] = 2048 * 500, t.stride[2] = t.stride[1] * 3, t.stride[3] = t.stride[2] * 3;
    ACCEPTED(t);
    t = base();
    t.rank = 1;
    t.box[0] = 256;
    t.swizzle = 0;
    t.dim[0] = 1ull << 32; /* the largest dimension */
    ACCEPTED(t);
    t = base();
    t.estride[0] = 4; /* checked (1-8), then ignored with INTERLEAVE_NONE */
    t.estride[1] = 8;
    ACCEPTED(t);
    t = base();
    t.oobfill = 1; /* FLOAT16 may ask for NaN */
    ACCEPTED(t);
    t = base();
    t.dim[0] = 8; /* a box larger than the tensor is not an error: the rest is filled */
    t.stride[0] = 16;
    ACCEPTED(t);
    t = base();
    t.rank = 3;
    t.dim[2] = 4, t.box[2] = 4, t.estride[2] = 1, t.stride[1] = 2048 * 500;
    t.interleave = SMEM_TMAP_INTERLEAVE_32B;
    t.swizzle = SMEM_TMAP_SWIZZLE_32B;
    t.box[0] = 16;
    t.estride[0] = 1;
    ACCEPTED(t);
    struct smem_tensormap i = im2col();
    ACCEPTED(i);
}

static void refuses_what_cuda_h_refuses(void)
{
    struct smem_tensormap t;
    t = base(), t.dtype = 16;                                REFUSED(t, "tensorDataType 16");
    t = base(), t.rank = 0;                                  REFUSED(t, "tensorRank 0");
    t = base(), t.rank = 6;                                  REFUSED(t, "tensorRank 6");
    t = base(), t.interleave = 1;                            REFUSED(t, "needs tensorRank >= 3");
    t = base(), t.interleave = 3;                            REFUSED(t, "interleave 3");
    t = base(), t.addr += 8;                                 REFUSED(t, "not 16-byte aligned");
    t = base(), t.rank = 3, t.dim[2] = 2, t.box[2] = 2, t.estride[2] = 1, t.stride[1] = 1 << 20,
    t.interleave = 2, t.swizzle = 1, t.box[0] = 16, t.addr += 16;
                                                             REFUSED(t, "not 32-byte aligned");
    t = base(), t.dim[1] = 0;                                REFUSED(t, "globalDim[1] = 0");
    t = base(), t.dim[0] = (1ull << 32) + 1;                 REFUSED(t, "globalDim[0] = 4294967297");
    t = base(), t.stride[0] = 2056;                          REFUSED(t, "not a multiple of 16");
    t = base(), t.stride[0] = 1ull << 40;                    REFUSED(t, "not below 2^40");
    t = base(), t.box[1] = 257;                              REFUSED(t, "boxDim[1] = 257");
    t = base(), t.box[1] = 0;                                REFUSED(t, "boxDim[1] = 0");
    t = base(), t.box[0] = 4, t.swizzle = 0;                 REFUSED(t, "8 bytes, not a multiple of 16");
    t = base(), t.estride[1] = 9;                            REFUSED(t, "elementStrides[1] = 9");
    t = base(), t.estride[1] = 0;                            REFUSED(t, "elementStrides[1] = 0");
    t = base(), t.estride[0] = 9;                            REFUSED(t, "elementStrides[0] = 9");
    t = base(), t.swizzle = 4;                               REFUSED(t, "compute capability 9.0");
    CHECK_EQ(smem_tensormap_check(&t, 0, NULL, 0), 0);       /* sm_100 has it */
    t = base(), t.swizzle = 7;
    CHECK_EQ(smem_tensormap_check(&t, 0, NULL, 0), -1);
    t = base(), t.box[0] = 128;                              REFUSED(t, "256 bytes, more than the 128-byte");
    t = base(), t.swizzle = 2;                               REFUSED(t, "128 bytes, more than the 64-byte");
    t = base(), t.swizzle = 1, t.box[0] = 32;                REFUSED(t, "64 bytes, more than the 32-byte");
    t = base(), t.rank = 3, t.dim[2] = 2, t.box[2] = 2, t.estride[2] = 1, t.stride[1] = 1 << 20,
    t.interleave = 2, t.swizzle = 3, t.box[0] = 16;          ACCEPTED(t); /* the H200 does */
    t.interleave = 1, t.box[0] = 4;                          REFUSED(t, "8 bytes, not a multiple of 16");
    t = base(), t.rank = 3, t.dim[2] = 2, t.box[2] = 2, t.estride[2] = 1, t.stride[1] = 1 << 20,
    t.interleave = 2, t.swizzle = 1, t.box[0] = 16, t.stride[0] = 2064;
                                                             REFUSED(t, "not a multiple of 32");
    t = base(), t.l2promotion = 4;                           REFUSED(t, "l2Promotion 4");
    t = base(), t.oobfill = 2;                               REFUSED(t, "oobFill 2");
    t = base(), t.dtype = SMEM_TMAP_INT32, t.box[0] = 32, t.oobfill = 1;
                                                             REFUSED(t, "INT32 is not");
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN16B, t.box[0] = 128, t.dim[0] = 1024;
                                                             REFUSED(t, "not supported by compute capability 9.0");
    /* packed types (sm_100): cuda.h's rules */
#undef REFUSED
#undef ACCEPTED
#define REFUSED(t, part) refused(&(t), 0, part, __LINE__)
#define ACCEPTED(t) CHECK_EQ(smem_tensormap_check(&(t), 0, NULL, 0), 0)
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN16B, t.box[0] = 128, t.dim[0] = 1000;
                                                             REFUSED(t, "not a multiple of 128");
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN16B, t.box[0] = 64, t.dim[0] = 1024;
                                                             REFUSED(t, "boxDim[0] = 64 of 16U4_ALIGN16B");
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN16B, t.box[0] = 128, t.dim[0] = 1024, t.swizzle = 5;
                                                             REFUSED(t, "16U4_ALIGN16B allows");
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN16B, t.box[0] = 128, t.dim[0] = 1024;
    ACCEPTED(t);
    t.oobfill = 1;                                           REFUSED(t, "16U4_ALIGN16B is not");
    t = base(), t.dtype = SMEM_TMAP_16U4_ALIGN8B, t.box[0] = 32, t.dim[0] = 999;
                                                             REFUSED(t, "multiple of 2");
#undef REFUSED
#undef ACCEPTED
#define REFUSED(t, part) refused(&(t), 1, part, __LINE__)
#define ACCEPTED(t) CHECK_EQ(smem_tensormap_check(&(t), 1, NULL, 0), 0)
    /* im2col */
    struct smem_tensormap i;
    i = im2col(), i.rank = 2;                                REFUSED(i, "tensorRank 2 is not 3, 4 or 5");
    i = im2col(), i.lower[1] = -129;                         REFUSED(i, "pixelBoxLowerCorner[1] = -129");
    i = im2col(), i.upper[0] = 128;                          REFUSED(i, "pixelBoxUpperCorner[0] = 128");
    i = im2col(), i.rank = 5, i.dim[4] = 2, i.stride[3] = 1 << 20, i.estride[4] = 1, i.lower[2] = 16;
                                                             REFUSED(i, "not in [-16, 15]");
    i = im2col(), i.rank = 3, i.lower[0] = 20000;            REFUSED(i, "pixel box is empty");
    i = im2col(), i.channels = 257;                          REFUSED(i, "channelsPerPixel = 257");
    i = im2col(), i.pixels = 1025;                           REFUSED(i, "pixelsPerColumn = 1025");
    i = im2col(), i.channels = 128;                          REFUSED(i, "256 bytes, more than the 128-byte");
    i = im2col(), i.channels = 4, i.swizzle = 0;             REFUSED(i, "8 bytes, not a multiple of 16");
}

static void encoding(void)
{
    uint8_t b[SMEM_TMAP_BYTES], c[SMEM_TMAP_BYTES];
    struct smem_tensormap t = base(), u;
    t.rank = 5;
    for (int d = 2; d < 5; d++)
        t.dim[d] = 3 + d, t.box[d] = 2, t.estride[d] = (uint32_t)d;
    t.stride[1] = 1 << 20, t.stride[2] = 1ull << 39, t.stride[3] = 48;
    t.dim[0] = 1ull << 32;
    t.oobfill = 1, t.interleave = 0, t.l2promotion = 3;
    smem_tensormap_encode(&t, b);
    smem_tensormap_decode(b, &u);
    CHECK(memcmp(&t, &u, sizeof t) == 0);
    /* CUTLASS clears qword 1, bit 21 (driver <= 13010): it carries nothing */
    uint64_t q1;
    memcpy(&q1, b + 8, 8);
    CHECK_EQ((q1 >> 21) & 1, 0);
    b[10] |= 1 << 5;
    smem_tensormap_decode(b, &u);
    CHECK(memcmp(&t, &u, sizeof t) == 0);
    /* im2col */
    struct smem_tensormap i = im2col();
    smem_tensormap_encode(&i, b);
    smem_tensormap_decode(b, &u);
    CHECK(memcmp(&i, &u, sizeof i) == 0);
    /* all zeros: a rank-1 UINT8 map of one element at 0 */
    memset(b, 0, sizeof b);
    smem_tensormap_decode(b, &u);
    CHECK_EQ(u.rank, 1);
    CHECK_EQ(u.dtype, 0);
    CHECK_EQ(u.dim[0], 1);
    CHECK_EQ(u.box[0], 1);
    CHECK_EQ(u.estride[0], 1);
    /* Triton: 128 zero bytes, then one tensormap.replace per field, gives the map the driver
       call would have made */
    t = base();
    smem_tensormap_encode(&t, b);
    memset(c, 0, sizeof c);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_GLOBAL_ADDRESS, 0, t.addr), 0);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_RANK, 0, 1), 0); /* rank-1 */
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_ELEMTYPE, 0, SMEM_TMAP_FLOAT16), 0);
    for (unsigned d = 0; d < 2; d++) {
        CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_BOX_DIM, d, t.box[d]), 0);
        CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_GLOBAL_DIM, d, t.dim[d]), 0);
        CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_ELEMENT_STRIDE, d, 1), 0);
    }
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_GLOBAL_STRIDE, 0, 2048), 0);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_SWIZZLE_MODE, 0, 3), 0);
    CHECK(memcmp(b, c, sizeof b) != 0); /* l2 promotion not yet */
    smem_tensormap_decode(c, &u);
    CHECK_EQ(smem_tensormap_check(&u, 1, NULL, 0), 0);
    u.l2promotion = 2;
    smem_tensormap_encode(&u, c);
    CHECK(memcmp(b, c, sizeof b) == 0);
    /* values that cannot be encoded leave the bytes as they were */
    memcpy(c, b, sizeof b);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_BOX_DIM, 0, 257), -1);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_BOX_DIM, 5, 1), -1);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_RANK, 0, 5), -1);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_GLOBAL_STRIDE, 4, 16), -1);
    CHECK_EQ(smem_tensormap_replace(c, SMEM_TMAP_F_ELEMENT_STRIDE, 0, 9), -1);
    CHECK(memcmp(b, c, sizeof b) == 0);
}

static void swizzles(void)
{
    /* the numbering of wgmma's descriptors (1 = 128B, 2 = 64B, 3 = 32B) */
    CHECK_EQ(smem_swizzle_from_wgmma(0), SMEM_TMAP_SWIZZLE_NONE);
    CHECK_EQ(smem_swizzle_from_wgmma(1), SMEM_TMAP_SWIZZLE_128B);
    CHECK_EQ(smem_swizzle_from_wgmma(2), SMEM_TMAP_SWIZZLE_64B);
    CHECK_EQ(smem_swizzle_from_wgmma(3), SMEM_TMAP_SWIZZLE_32B);
    /* PTX ISA, tensor swizzling modes: in 128-byte line y, 16-byte chunk x goes to x ^ (y % 8)
       (128B), x ^ (y % 4) (64B), x ^ (y % 2) (32B) */
    for (unsigned sw = 0; sw <= 3; sw++)
        for (unsigned y = 0; y < 16; y++)
            for (unsigned x = 0; x < 8; x++) {
                unsigned m = sw ? (1u << sw) - 1 : 0;
                CHECK_EQ(smem_swizzle(y * 128 + x * 16 + 5, sw), y * 128 + ((x ^ (y & m)) * 16) + 5);
            }
    /* a tile at +128 of a 1024-byte boundary is phase-shifted, not refused (CUDA guide) */
    CHECK_EQ(smem_swizzle(0x480, 3), 0x490);
    /* hopper.md's K-advance example: bf16 element (5, 19) of a 64-wide 128B tile at 0x400 */
    struct smem_tensormap t = base();
    t.dtype = SMEM_TMAP_BFLOAT16;
    uint32_t e[5] = {19, 5, 0, 0, 0};
    CHECK_EQ(smem_tmap_box_offset(&t, e), 5 * 128 + 19 * 2);
    CHECK_EQ(smem_tmap_smem_addr(&t, 0x400, e), 0x6f6);
}

static void box_elements(void)
{
    struct smem_tensormap t = base();
    CHECK(smem_tmap_unmodelled(&t) == NULL);
    CHECK_EQ(smem_tmap_box_bytes(&t), 64 * 32 * 2);
    int32_t c[5] = {960, 490, 0, 0, 0};
    uint32_t e[5] = {3, 4, 0, 0, 0};
    uint64_t g;
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 1);
    CHECK_EQ(g, t.addr + 494 * 2048 + 963 * 2);
    e[0] = 40; /* column 1000: past globalDim[0] */
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 0);
    e[0] = 0, e[1] = 10; /* row 500 */
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 0);
    c[0] = -2, e[0] = 1, e[1] = 0; /* a negative coordinate */
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 0);
    e[0] = 2;
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 1);
    CHECK_EQ(g, t.addr + 490 * 2048);
    /* element strides: dimension 1 stepped by 3 (ceil(32 / 3) = 11 rows); dimension 0's ignored */
    t.estride[0] = 4;
    t.estride[1] = 3;
    CHECK_EQ(smem_tmap_box_elems(&t, 0), 64);
    CHECK_EQ(smem_tmap_box_elems(&t, 1), 11);
    CHECK_EQ(smem_tmap_box_elems(&t, 2), 1);
    CHECK_EQ(smem_tmap_box_bytes(&t), 64 * 11 * 2);
    c[0] = 0, c[1] = 0, e[0] = 5, e[1] = 10;
    CHECK_EQ(smem_tmap_element(&t, c, e, &g), 1);
    CHECK_EQ(g, t.addr + 30 * 2048 + 5 * 2);
    /* every swizzle is a permutation of the box's bytes at a 1024-aligned and a 128-aligned dst */
    for (unsigned sw = 0; sw <= 3; sw++)
        for (unsigned k = 0; k < 2; k++) {
            struct smem_tensormap s = base();
            s.swizzle = (uint8_t)sw;
            s.box[0] = sw == 1 ? 16 : sw == 2 ? 32 : 64;
            uint64_t dst = k ? 0x2080 : 0x2000, n = smem_tmap_box_bytes(&s);
            unsigned char *seen = calloc(n, 1);
            int ok = 1;
            for (uint32_t y = 0; y < 32; y++)
                for (uint32_t x = 0; x < s.box[0]; x++) {
                    uint32_t ee[5] = {x, y, 0, 0, 0};
                    uint64_t a = smem_tmap_smem_addr(&s, dst, ee);
                    if (a < dst || a + 2 > dst + n || seen[a - dst]++)
                        ok = 0;
                }
            CHECK(ok);
            free(seen);
        }
    /* what is not modelled says so */
    t = base();
    t.interleave = 1;
    CHECK(smem_tmap_unmodelled(&t) != NULL);
    CHECK_EQ(smem_tmap_box_bytes(&t), 0);
    struct smem_tensormap i = im2col();
    CHECK(strstr(smem_tmap_unmodelled(&i), "im2col") != NULL);
}

/* bytes no encode call writes (a rank field of 8, every field all ones) decode within the struct
 * and are refused; rows under a swizzle are the swizzle's span (the H200: h200-tma-layout.txt.gz) */
static void garbage_and_padded_rows(void)
{
    uint8_t b[SMEM_TMAP_BYTES];
    memset(b, 0xff, sizeof b);
    struct smem_tensormap t;
    smem_tensormap_decode(b, &t);
    CHECK_EQ(t.rank, 8);
    char why[200];
    CHECK_EQ(smem_tensormap_check(&t, 1, why, sizeof why), -1);
    b[8] = 0x17; /* rank 8, FLOAT32, tiled */
    memset(b + 9, 0, 7);
    smem_tensormap_decode(b, &t);
    CHECK_EQ(smem_tensormap_check(&t, 1, why, sizeof why), -1);
    CHECK(strstr(why, "tensorRank 8") != NULL);
    t = base();
    t.swizzle = SMEM_TMAP_SWIZZLE_128B;
    t.box[0] = 16; /* 32 bytes of a 128-byte span */
    CHECK_EQ(smem_tmap_row_pitch(&t), 128);
    CHECK_EQ(smem_tmap_box_bytes(&t), 16u * 32 * 2);
    CHECK_EQ(smem_tmap_box_footprint(&t), 128u * 32);
    uint32_t e[5] = {3, 1, 0, 0, 0};
    CHECK_EQ(smem_tmap_smem_addr(&t, 0x400, e), 0x400 + 128 + (6 ^ 16));
    t.swizzle = SMEM_TMAP_SWIZZLE_NONE;
    CHECK_EQ(smem_tmap_row_pitch(&t), 32);
}

int main(void)
{
    RUN(accepts_valid);
    RUN(garbage_and_padded_rows);
    RUN(refuses_what_cuda_h_refuses);
    RUN(encoding);
    RUN(swizzles);
    RUN(box_elements);
    return CHECK_DONE();
}
