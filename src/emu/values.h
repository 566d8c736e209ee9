/* values.h (private to emu/): values as the emulator holds them, pure and inlined for the hot
 * path: type widths (types.def), sign extension, the float formats' bits, and bytes of memory
 * with their known marks. */
#ifndef SMEMLAB_EMU_VALUES_H
#define SMEMLAB_EMU_VALUES_H

#include "smemlab/ptx/ptx.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__) && __GNUC__ >= 12 && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
/* one copy for CPUs with AVX2 and FMA (a hardware fmaf, 4 to 8 lanes an instruction), one for
 * the rest; the results are the same bits (the warp-level forms' loops over the lanes) */
#define SMEM_LANE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SMEM_LANE_CLONES
#endif

/* Byte widths by type (types.def), inlined: the hot path asks for them on every instruction. */
static const uint8_t type_bytes_tab[PT_COUNT] = {
#define TYPE(id, name, bytes, where) [PT_##id] = (bytes),
#include "smemlab/ptx/types.def"
#undef TYPE
};
#define TBYTES(t) ((unsigned)type_bytes_tab[(t) < PT_COUNT ? (t) : 0])

/* ---- values ------------------------------------------------------------------------------- */

static inline uint64_t mask_bytes(unsigned b)
{
    return b >= 8 ? ~0ull : ((1ull << (8 * b)) - 1ull);
}

static inline int64_t sext(uint64_t v, unsigned b)
{
    if (b >= 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * b;
    return (int64_t)(v << sh) >> sh;
}

static inline int is_signed(unsigned t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
static inline int is_float(unsigned t)
{
    return t == PT_F32 || t == PT_F64 || t == PT_F16 || t == PT_BF16;
}

static inline float f32_of(uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static inline float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0) {
        if (!m) {
            u = s;
        } else { /* subnormal */
            e = 127 - 15 + 1;
            while (!(m & 0x400)) {
                m <<= 1;
                e--;
            }
            u = s | (e << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        u = s | 0x7f800000u | (m << 13);
    } else {
        u = s | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000u;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    uint32_t m = u & 0x7fffffu;
    if (((u >> 23) & 0xff) == 0xff)
        return (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)s;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1u)))
            hm++;
        return (uint16_t)(s | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fffu;
    uint32_t r = s | ((uint32_t)e << 10) | hm;
    if (rem > 0x1000u || (rem == 0x1000u && (hm & 1u)))
        r++;
    return (uint16_t)r;
}

static inline float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static inline uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* A float operand of type t as a double (exact for f16/bf16/f32). */
static inline double fval(uint64_t v, unsigned t)
{
    switch (t) {
    case PT_F32: return (double)f32_of(v);
    case PT_F16: return (double)half_to_float((uint16_t)v);
    case PT_BF16: return (double)bf16_to_float((uint16_t)v);
    default: return f64_of(v);
    }
}

static inline uint64_t fbits(double d, unsigned t)
{
    switch (t) {
    case PT_F32: return bits_f32((float)d);
    case PT_F16: return float_to_half((float)d);
    case PT_BF16: return float_to_bf16((float)d);
    default: return bits_f64(d);
    }
}

static inline double round_int(double d, unsigned r)
{
    switch (r) {
    case RND_RZI: case RND_RZ: return trunc(d);
    case RND_RMI: case RND_RM: return floor(d);
    case RND_RPI: case RND_RP: return ceil(d);
    default: return nearbyint(d);
    }
}

static inline int is_fp(unsigned t) { return is_float(t) || t == PT_F16X2 || t == PT_BF16X2; }

/* ---- memory bytes ------------------------------------------------------------------------- */

/* the n (1, 2, 4 or 8) bytes at p, little-endian host */
static inline uint64_t load_n(const uint8_t *p, unsigned n)
{
    switch (n) {
    case 1: return *p;
    case 2: { uint16_t t; memcpy(&t, p, 2); return t; }
    case 4: { uint32_t t; memcpy(&t, p, 4); return t; }
    default: { uint64_t t; memcpy(&t, p, 8); return t; }
    }
}

static inline void store_n(uint8_t *p, unsigned n, uint64_t v)
{
    switch (n) {
    case 1: *p = (uint8_t)v; break;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

/* whether none of the n (1, 2, 4 or 8) bytes at p is 0 */
static inline int all_nonzero(const uint8_t *p, unsigned n)
{
    uint64_t x = load_n(p, n);
    uint64_t ones = 0x0101010101010101ull >> (64 - 8 * n), highs = ones << 7;
    return ((x - ones) & ~x & highs) == 0;
}

/* kn may be NULL: global memory whose every byte is known */
static inline void mem_read(const uint8_t *mem, const uint8_t *kn, uint64_t off, unsigned n,
                            uint64_t *v, int *known)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 1 || n == 2 || n == 4 || n == 8) {
        uint64_t x = load_n(mem + off, n);
        if (kn && !all_nonzero(kn + off, n))
            *known = 0;
        *v = x;
        return;
    }
#endif
    uint64_t r = 0;
    for (unsigned i = 0; i < n && i < 8; i++) {
        r |= (uint64_t)mem[off + i] << (8 * i);
        if (kn && !kn[off + i])
            *known = 0;
    }
    *v = r;
}

static inline void mem_write(uint8_t *mem, uint8_t *kn, uint64_t off, unsigned n, uint64_t v,
                             int known)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 1 || n == 2 || n == 4 || n == 8) {
        store_n(mem + off, n, v);
        if (kn)
            store_n(kn + off, n, known ? 0x0101010101010101ull : 0);
        return;
    }
#endif
    for (unsigned i = 0; i < n && i < 8; i++) {
        mem[off + i] = (uint8_t)(v >> (8 * i));
        if (kn)
            kn[off + i] = (uint8_t)known;
    }
}

#endif
