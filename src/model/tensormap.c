/* tensormap.c: the tensor map of smemlab's driver stand-in (tensormap.h): the checks of
 * cuTensorMapEncodeTiled / Im2col as cuda.h (CUDA 13.0) documents them, our 128-byte encoding,
 * tensormap.replace, and the addresses of a tiled box's elements in global and shared memory. */
#include "smemlab/model/tensormap.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const struct {
    const char *name;
    unsigned bytes;
    unsigned fp;
} dtypes[SMEM_TMAP_DTYPES] = {
    {"UINT8", 1, 0},        {"UINT16", 2, 0},       {"UINT32", 4, 0},        {"INT32", 4, 0},
    {"UINT64", 8, 0},       {"INT64", 8, 0},        {"FLOAT16", 2, 1},       {"FLOAT32", 4, 1},
    {"FLOAT64", 8, 1},      {"BFLOAT16", 2, 1},     {"FLOAT32_FTZ", 4, 1},   {"TFLOAT32", 4, 1},
    {"TFLOAT32_FTZ", 4, 1}, {"16U4_ALIGN8B", 0, 0}, {"16U4_ALIGN16B", 0, 0}, {"16U6_ALIGN16B", 0, 0},
};

unsigned smem_tmap_elem_bytes(unsigned dtype)
{
    return dtype < SMEM_TMAP_DTYPES ? dtypes[dtype].bytes : 0;
}

const char *smem_tmap_dtype_name(unsigned dtype)
{
    return dtype < SMEM_TMAP_DTYPES ? dtypes[dtype].name : NULL;
}

static int bad(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int bad(char *why, size_t n, const char *fmt, ...)
{
    if (why && n) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, n, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* The bytes of n elements of the inner dimension (packed types: 16 values in 8 bytes for 16U4,
 * 16 in 16 bytes (with gaps) for the ALIGN16B types). */
static uint64_t inner_bytes(unsigned dtype, uint64_t n)
{
    if (dtype == SMEM_TMAP_16U4_ALIGN8B)
        return n / 2;
    if (dtype == SMEM_TMAP_16U4_ALIGN16B || dtype == SMEM_TMAP_16U6_ALIGN16B)
        return n;
    return n * smem_tmap_elem_bytes(dtype);
}

int smem_tensormap_check(const struct smem_tensormap *t, int sm90, char *why, size_t n)
{
    const char *call = t->im2col ? "cuTensorMapEncodeIm2col" : "cuTensorMapEncodeTiled";
    unsigned r = t->rank, dt = t->dtype;
    if (dt >= SMEM_TMAP_DTYPES)
        return bad(why, n, "%s: tensorDataType %u is not a CUtensorMapDataType (0-15)", call, dt);
    int packed16 = dt == SMEM_TMAP_16U4_ALIGN16B || dt == SMEM_TMAP_16U6_ALIGN16B;
    if (sm90 && dt >= SMEM_TMAP_16U4_ALIGN8B) /* measured: the H200 refuses every packed type */
        return bad(why, n, "%s: tensorDataType %s is not supported by compute capability 9.0",
                   call, dtypes[dt].name);
    if (t->im2col ? r < 3 || r > 5 : r < 1 || r > 5)
        return bad(why, n, "%s: tensorRank %u is not %s", call, r, t->im2col ? "3, 4 or 5" : "1 to 5");
    if (t->interleave > SMEM_TMAP_INTERLEAVE_32B)
        return bad(why, n, "%s: interleave %u is not a CUtensorMapInterleave (0-2)", call, t->interleave);
    if (t->interleave != SMEM_TMAP_INTERLEAVE_NONE && r < 3)
        return bad(why, n, "%s: an interleaved layout needs tensorRank >= 3 (it is %u)", call, r);
    unsigned align = t->interleave == SMEM_TMAP_INTERLEAVE_32B || packed16 ? 32 : 16;
    if (t->addr % align)
        return bad(why, n, "%s: globalAddress 0x%llx is not %u-byte aligned", call,
                   (unsigned long long)t->addr, align);
    for (unsigned d = 0; d < r; d++)
        if (t->dim[d] < 1 || t->dim[d] > (1ull << 32))
            return bad(why, n, "%s: globalDim[%u] = %llu is not 1 to 2^32", call, d,
                       (unsigned long long)t->dim[d]);
    if (packed16 && t->dim[0] % 128)
        return bad(why, n, "%s: globalDim[0] = %llu of %s is not a multiple of 128", call,
                   (unsigned long long)t->dim[0], dtypes[dt].name);
    if (dt == SMEM_TMAP_16U4_ALIGN8B && t->dim[0] % 2)
        return bad(why, n, "%s: globalDim[0] = %llu of 16U4_ALIGN8B is not a multiple of 2", call,
                   (unsigned long long)t->dim[0]);
    unsigned smul = t->interleave == SMEM_TMAP_INTERLEAVE_32B || packed16 ? 32 : 16;
    for (unsigned d = 0; d + 1 < r; d++) {
        if (t->stride[d] % smul)
            return bad(why, n, "%s: globalStrides[%u] = %llu is not a multiple of %u", call, d,
                       (unsigned long long)t->stride[d], smul);
        if (t->stride[d] >= (1ull << 40))
            return bad(why, n, "%s: globalStrides[%u] = %llu is not below 2^40", call, d,
                       (unsigned long long)t->stride[d]);
    }
    uint64_t inner; /* the box's inner dimension in bytes */
    if (!t->im2col) {
        for (unsigned d = 0; d < r; d++)
            if (t->box[d] < 1 || t->box[d] > 256)
                return bad(why, n, "%s: boxDim[%u] = %u is not 1 to 256", call, d, t->box[d]);
        if (packed16 && t->box[0] != 128)
            return bad(why, n, "%s: boxDim[0] = %u of %s is not 128", call, t->box[0],
                       dtypes[dt].name);
        inner = inner_bytes(dt, t->box[0]);
        if (inner % 16) /* cuda.h says so for INTERLEAVE_NONE; the H200 asks it of every layout */
            return bad(why, n, "%s: boxDim[0] = %u elements is %llu bytes, not a multiple of 16",
                       call, t->box[0], (unsigned long long)inner);
    } else {
        int lim = r == 3 ? 32768 : r == 4 ? 128 : 16;
        for (unsigned d = 0; d + 2 < r; d++) {
            if (t->lower[d] < -lim || t->lower[d] >= lim)
                return bad(why, n, "%s: pixelBoxLowerCorner[%u] = %d is not in [%d, %d] for rank %u",
                           call, d, t->lower[d], -lim, lim - 1, r);
            if (t->upper[d] < -lim || t->upper[d] >= lim)
                return bad(why, n, "%s: pixelBoxUpperCorner[%u] = %d is not in [%d, %d] for rank %u",
                           call, d, t->upper[d], -lim, lim - 1, r);
            /* the box along spatial dimension d+1 runs from lower to dim-1+upper */
            if ((int64_t)t->dim[d + 1] - 1 + t->upper[d] < t->lower[d])
                return bad(why, n, "%s: the pixel box is empty along dimension %u (lower corner %d, "
                           "upper corner %d, globalDim %llu)", call, d + 1, t->lower[d], t->upper[d],
                           (unsigned long long)t->dim[d + 1]);
        }
        if (t->channels < 1 || t->channels > 256)
            return bad(why, n, "%s: channelsPerPixel = %u is not 1 to 256", call, t->channels);
        if (packed16 && t->channels != 128)
            return bad(why, n, "%s: channelsPerPixel = %u of %s is not 128", call, t->channels,
                       dtypes[dt].name);
        if (t->pixels < 1 || t->pixels > 1024)
            return bad(why, n, "%s: pixelsPerColumn = %u is not 1 to 1024", call, t->pixels);
        inner = inner_bytes(dt, t->channels);
        if (inner % 16) /* measured on the H200 (cuda.h does not say) */
            return bad(why, n, "%s: channelsPerPixel = %u elements is %llu bytes, not a multiple "
                       "of 16", call, t->channels, (unsigned long long)inner);
    }
    /* elementStrides[0] is ignored with INTERLEAVE_NONE (cuda.h), but checked (the H200) */
    for (unsigned d = 0; d < r; d++)
        if (t->estride[d] < 1 || t->estride[d] > 8)
            return bad(why, n, "%s: elementStrides[%u] = %u is not 1 to 8", call, d, t->estride[d]);
    if (t->swizzle > (sm90 ? SMEM_TMAP_SWIZZLE_128B : SMEM_TMAP_SWIZZLE_128B_ATOM_64B))
        return bad(why, n, "%s: swizzle %u is not a CUtensorMapSwizzle %s", call, t->swizzle,
                   sm90 ? "of compute capability 9.0 (0-3)" : "(0-6)");
    /* cuda.h: "When interleave is INTERLEAVE_32B, swizzle must be SWIZZLE_32B"; the H200's driver
       (580.159.04) accepts INTERLEAVE_32B with SWIZZLE_128B, and so do we */
    if (t->interleave == SMEM_TMAP_INTERLEAVE_NONE && t->swizzle != SMEM_TMAP_SWIZZLE_NONE) {
        unsigned span = t->swizzle == SMEM_TMAP_SWIZZLE_32B ? 32 : t->swizzle == SMEM_TMAP_SWIZZLE_64B ? 64 : 128;
        if (inner > span)
            return bad(why, n, "%s: the box's inner dimension is %llu bytes, more than the %u-byte "
                       "swizzle span", call, (unsigned long long)inner, span);
    }
    if (dt == SMEM_TMAP_16U6_ALIGN16B && t->interleave != SMEM_TMAP_INTERLEAVE_NONE)
        return bad(why, n, "%s: 16U6_ALIGN16B needs INTERLEAVE_NONE", call);
    if (dt == SMEM_TMAP_16U6_ALIGN16B &&
        !(t->swizzle == 0 || t->swizzle == 3 || t->swizzle == 4 || t->swizzle == 6))
        return bad(why, n, "%s: 16U6_ALIGN16B allows swizzle NONE, 128B, 128B_ATOM_32B or "
                   "128B_ATOM_64B (it is %u)", call, t->swizzle);
    if (dt == SMEM_TMAP_16U4_ALIGN16B && !(t->swizzle == 0 || t->swizzle == 3 || t->swizzle == 4))
        return bad(why, n, "%s: 16U4_ALIGN16B allows swizzle NONE, 128B or 128B_ATOM_32B (it is %u)",
                   call, t->swizzle);
    if (t->l2promotion > 3)
        return bad(why, n, "%s: l2Promotion %u is not a CUtensorMapL2promotion (0-3)", call,
                   t->l2promotion);
    if (t->oobfill > 1)
        return bad(why, n, "%s: oobFill %u is not a CUtensorMapFloatOOBfill (0-1)", call, t->oobfill);
    if (t->oobfill && !dtypes[dt].fp)
        return bad(why, n, "%s: oobFill NAN_REQUEST_ZERO_FMA needs a floating-point type (%s is not)",
                   call, dtypes[dt].name);
    return 0;
}

/* ---- the bytes --------------------------------------------------------------------------- */

static void put(uint8_t *p, uint64_t v, unsigned bytes)
{
    for (unsigned i = 0; i < bytes; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

enum { /* qword 1 (bytes 8-15) */
    Q1_RANK = 0, Q1_IM2COL = 3, Q1_DTYPE = 4, Q1_INTERLEAVE = 8, Q1_SWIZZLE = 12, Q1_L2 = 16,
    Q1_OOB = 18, Q1_ATOMICITY = 24, Q1_CHANNELS = 32, Q1_PIXELS = 40,
    OFF_DIM = 16, OFF_BOX = 36, OFF_ESTRIDE = 41, OFF_STRIDE = 48, OFF_CORNERS = 80
};

static uint64_t bits(uint64_t q, unsigned at, unsigned width)
{
    return (q >> at) & ((1ull << width) - 1);
}

static uint64_t setbits(uint64_t q, unsigned at, unsigned width, uint64_t v)
{
    uint64_t m = ((1ull << width) - 1) << at;
    return (q & ~m) | ((v << at) & m);
}

void smem_tensormap_encode(const struct smem_tensormap *t, uint8_t out[SMEM_TMAP_BYTES])
{
    memset(out, 0, SMEM_TMAP_BYTES);
    put(out, t->addr, 8);
    uint64_t q = 0;
    q = setbits(q, Q1_RANK, 3, t->rank ? t->rank - 1u : 0);
    q = setbits(q, Q1_IM2COL, 1, t->im2col);
    q = setbits(q, Q1_DTYPE, 4, t->dtype);
    q = setbits(q, Q1_INTERLEAVE, 2, t->interleave);
    q = setbits(q, Q1_SWIZZLE, 4, t->swizzle);
    q = setbits(q, Q1_L2, 2, t->l2promotion);
    q = setbits(q, Q1_OOB, 1, t->oobfill);
    q = setbits(q, Q1_ATOMICITY, 2, t->atomicity);
    if (t->im2col) {
        q = setbits(q, Q1_CHANNELS, 8, t->channels ? t->channels - 1u : 0);
        q = setbits(q, Q1_PIXELS, 10, t->pixels ? t->pixels - 1u : 0);
    }
    put(out + 8, q, 8);
    unsigned r = t->rank <= SMEM_TMAP_MAX_RANK ? t->rank : SMEM_TMAP_MAX_RANK;
    for (unsigned d = 0; d < r; d++) {
        put(out + OFF_DIM + 4 * d, t->dim[d] ? t->dim[d] - 1 : 0, 4);
        if (!t->im2col)
            out[OFF_BOX + d] = (uint8_t)(t->box[d] ? t->box[d] - 1 : 0);
        out[OFF_ESTRIDE + d] = (uint8_t)(t->estride[d] ? (t->estride[d] - 1) & 7 : 0);
        if (d + 1 < r)
            put(out + OFF_STRIDE + 8 * d, t->stride[d], 8);
    }
    if (t->im2col)
        for (unsigned d = 0; d < 3; d++) {
            put(out + OFF_CORNERS + 2 * d, (uint16_t)(int16_t)t->lower[d], 2);
            put(out + OFF_CORNERS + 6 + 2 * d, (uint16_t)(int16_t)t->upper[d], 2);
        }
}

void smem_tensormap_decode(const uint8_t in[SMEM_TMAP_BYTES], struct smem_tensormap *t)
{
    memset(t, 0, sizeof *t);
    t->addr = get(in, 8);
    uint64_t q = get(in + 8, 8);
    t->rank = (uint8_t)(bits(q, Q1_RANK, 3) + 1);
    t->im2col = (uint8_t)bits(q, Q1_IM2COL, 1);
    t->dtype = (uint8_t)bits(q, Q1_DTYPE, 4);
    t->interleave = (uint8_t)bits(q, Q1_INTERLEAVE, 2);
    t->swizzle = (uint8_t)bits(q, Q1_SWIZZLE, 4);
    t->l2promotion = (uint8_t)bits(q, Q1_L2, 2);
    t->oobfill = (uint8_t)bits(q, Q1_OOB, 1);
    t->atomicity = (uint8_t)bits(q, Q1_ATOMICITY, 2);
    if (t->im2col) {
        t->channels = (uint32_t)bits(q, Q1_CHANNELS, 8) + 1;
        t->pixels = (uint32_t)bits(q, Q1_PIXELS, 10) + 1;
        for (unsigned d = 0; d < 3; d++) {
            t->lower[d] = (int16_t)get(in + OFF_CORNERS + 2 * d, 2);
            t->upper[d] = (int16_t)get(in + OFF_CORNERS + 6 + 2 * d, 2);
        }
    }
    /* beyond the rank: 0, as the encode calls leave them; a rank field of 6-8 (3 bits: bytes no
       encode call writes, which smem_tensormap_check refuses) fills the five dimensions */
    unsigned r = t->rank < SMEM_TMAP_MAX_RANK ? t->rank : SMEM_TMAP_MAX_RANK;
    for (unsigned d = 0; d < r; d++) {
        t->dim[d] = get(in + OFF_DIM + 4 * d, 4) + 1;
        t->box[d] = t->im2col ? 0 : in[OFF_BOX + d] + 1u;
        t->estride[d] = in[OFF_ESTRIDE + d] + 1u;
        if (d + 1 < r)
            t->stride[d] = get(in + OFF_STRIDE + 8 * d, 8);
    }
}

int smem_tensormap_replace(uint8_t map[SMEM_TMAP_BYTES], enum smem_tmap_field f, unsigned ord,
                           uint64_t v)
{
    uint64_t q = get(map + 8, 8);
    switch (f) {
    case SMEM_TMAP_F_GLOBAL_ADDRESS:
        put(map, v, 8);
        return 0;
    case SMEM_TMAP_F_RANK:
        if (v > 4)
            return -1;
        q = setbits(q, Q1_RANK, 3, v);
        break;
    case SMEM_TMAP_F_BOX_DIM:
        if (ord >= SMEM_TMAP_MAX_RANK || v < 1 || v > 256)
            return -1;
        map[OFF_BOX + ord] = (uint8_t)(v - 1);
        return 0;
    case SMEM_TMAP_F_GLOBAL_DIM:
        if (ord >= SMEM_TMAP_MAX_RANK || v < 1 || v > (1ull << 32))
            return -1;
        put(map + OFF_DIM + 4 * ord, v - 1, 4);
        return 0;
    case SMEM_TMAP_F_GLOBAL_STRIDE:
        if (ord >= SMEM_TMAP_MAX_RANK - 1)
            return -1;
        put(map + OFF_STRIDE + 8 * ord, v, 8);
        return 0;
    case SMEM_TMAP_F_ELEMENT_STRIDE:
        if (ord >= SMEM_TMAP_MAX_RANK || v < 1 || v > 8)
            return -1;
        map[OFF_ESTRIDE + ord] = (uint8_t)(v - 1);
        return 0;
    case SMEM_TMAP_F_ELEMTYPE:
        if (v >= SMEM_TMAP_DTYPES)
            return -1;
        q = setbits(q, Q1_DTYPE, 4, v);
        break;
    case SMEM_TMAP_F_INTERLEAVE:
        if (v > 2)
            return -1;
        q = setbits(q, Q1_INTERLEAVE, 2, v);
        break;
    case SMEM_TMAP_F_SWIZZLE_MODE:
        if (v > 6)
            return -1;
        q = setbits(q, Q1_SWIZZLE, 4, v);
        break;
    case SMEM_TMAP_F_SWIZZLE_ATOMICITY:
        if (v > 3)
            return -1;
        q = setbits(q, Q1_ATOMICITY, 2, v);
        break;
    case SMEM_TMAP_F_FILL_MODE:
        if (v > 1)
            return -1;
        q = setbits(q, Q1_OOB, 1, v);
        break;
    default:
        return -1;
    }
    put(map + 8, q, 8);
    return 0;
}

/* ---- a tiled box's elements ---------------------------------------------------------------- */

static unsigned estride_of(const struct smem_tensormap *t, unsigned d)
{
    if (d == 0 && t->interleave == SMEM_TMAP_INTERLEAVE_NONE)
        return 1; /* cuda.h: ignored for dimension 0 */
    return t->estride[d] ? t->estride[d] : 1;
}

uint32_t smem_tmap_box_elems(const struct smem_tensormap *t, unsigned d)
{
    if (d >= t->rank)
        return 1;
    unsigned s = estride_of(t, d);
    return (t->box[d] + s - 1) / s;
}

const char *smem_tmap_unmodelled(const struct smem_tensormap *t)
{
    if (t->im2col)
        return "im2col tensor maps are not modelled";
    if (!smem_tmap_elem_bytes(t->dtype))
        return "tensor maps of packed sub-byte types (16U4, 16U6) are not modelled";
    if (t->interleave != SMEM_TMAP_INTERLEAVE_NONE)
        return "interleaved tensor maps (INTERLEAVE_16B, 32B) are not modelled";
    if (t->swizzle > SMEM_TMAP_SWIZZLE_128B)
        return "the swizzle modes 128B_ATOM_* (sm_100) are not modelled";
    return NULL;
}

uint64_t smem_tmap_box_bytes(const struct smem_tensormap *t)
{
    if (smem_tmap_unmodelled(t))
        return 0;
    uint64_t b = smem_tmap_elem_bytes(t->dtype);
    for (unsigned d = 0; d < t->rank; d++)
        b *= smem_tmap_box_elems(t, d);
    return b;
}

int smem_tmap_element(const struct smem_tensormap *t, const int32_t c[SMEM_TMAP_MAX_RANK],
                      const uint32_t e[SMEM_TMAP_MAX_RANK], uint64_t *gaddr)
{
    int inside = 1;
    uint64_t a = t->addr;
    for (unsigned d = 0; d < t->rank; d++) {
        int64_t g = (int64_t)c[d] + (int64_t)e[d] * estride_of(t, d);
        if (g < 0 || (uint64_t)g >= t->dim[d])
            inside = 0;
        uint64_t step = d == 0 ? smem_tmap_elem_bytes(t->dtype) : t->stride[d - 1];
        a += (uint64_t)g * step; /* wraps for negative g: only used inside */
    }
    *gaddr = a;
    return inside;
}

uint64_t smem_tmap_row_pitch(const struct smem_tensormap *t)
{
    if (t->swizzle >= SMEM_TMAP_SWIZZLE_32B && t->swizzle <= SMEM_TMAP_SWIZZLE_128B)
        return 16u << t->swizzle; /* 32, 64, 128: the swizzle span (measured on the H200) */
    return (uint64_t)smem_tmap_box_elems(t, 0) * smem_tmap_elem_bytes(t->dtype);
}

uint64_t smem_tmap_box_footprint(const struct smem_tensormap *t)
{
    if (smem_tmap_unmodelled(t))
        return 0;
    uint64_t b = smem_tmap_row_pitch(t);
    for (unsigned d = 1; d < t->rank; d++)
        b *= smem_tmap_box_elems(t, d);
    return b;
}

uint64_t smem_tmap_box_offset(const struct smem_tensormap *t, const uint32_t e[SMEM_TMAP_MAX_RANK])
{
    uint64_t row = 0; /* (e4*n3 + e3)*n2 + e2)*n1 + e1, rows of smem_tmap_row_pitch bytes */
    for (unsigned d = t->rank; d-- > 1;)
        row = row * smem_tmap_box_elems(t, d) + e[d];
    return row * smem_tmap_row_pitch(t) + (uint64_t)e[0] * smem_tmap_elem_bytes(t->dtype);
}

uint64_t smem_tmap_smem_addr(const struct smem_tensormap *t, uint64_t dst,
                             const uint32_t e[SMEM_TMAP_MAX_RANK])
{
    return smem_swizzle(dst + smem_tmap_box_offset(t, e), t->swizzle);
}
