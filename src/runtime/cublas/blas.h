/* blas.h: what the computing calls of the cuBLAS stand-in share: the handle, cuBLAS's enums, the
 * operands' bytes reached through the runtime (device pointers are not host pointers: see
 * rt_library.c), the scalars in host or device pointer mode, the narrow float formats the tensor
 * cores take (tf32, f16, bf16) and the record of each call for the report. */
#ifndef SMEMLAB_CUBLAS_BLAS_H
#define SMEMLAB_CUBLAS_BLAS_H

#include <stdint.h>
#include <string.h>

#include "cublas_stub.h"

struct stub_handle {
    int math_mode, pointer_mode, atomics_mode;
    void *stream, *workspace;
    size_t workspace_size;
    int sm_count_target; /* a hint: every result is the same here */
};

/* cublasOperation_t, cublasPointerMode_t, cublasMath_t, cudaDataType, cublasComputeType_t */
enum { OP_N = 0, OP_T = 1, OP_C = 2, OP_CONJG = 3 };
enum { PTR_HOST = 0, PTR_DEVICE = 1 };
enum { MATH_DEFAULT = 0, MATH_TENSOR_OP = 1, MATH_PEDANTIC = 2, MATH_TF32 = 3 };
enum { R_32F = 0, R_64F = 1, R_16F = 2, R_8I = 3, C_32F = 4, C_64F = 5, C_8I = 7, R_32I = 10, R_16BF = 14 };
enum {
    COMPUTE_16F = 64, COMPUTE_16F_PEDANTIC = 65, COMPUTE_32F = 68, COMPUTE_32F_PEDANTIC = 69,
    COMPUTE_64F = 70, COMPUTE_64F_PEDANTIC = 71, COMPUTE_32I = 72, COMPUTE_32I_PEDANTIC = 73,
    COMPUTE_32F_FAST_16F = 74, COMPUTE_32F_FAST_16BF = 75, COMPUTE_32F_FAST_TF32 = 77
};

/* libcudart.so.13 (src/runtime/rt_library.c) */
int __cudaSmemlabLibraryBytes(const void *p, unsigned long long n, int write, void **host,
                              char *why, unsigned long why_size);
unsigned long long __cudaSmemlabLibraryVersion(const void *p, unsigned long long n);
unsigned __cudaSmemlabLibraryJobs(void);
void __cudaSmemlabLibraryStop(const char *sentence) __attribute__((noreturn));
void __cudaSmemlabLibraryCall(const char *library, const char *name, const char *shape,
                              const char *precision, double seconds, int repeat);

/* The host bytes of operand `what` of `call`, [p, p + n) in memory the device reaches; a pointer
 * outside it stops the program naming the call and the operand (on a GPU: an illegal address).
 * blas_bytes: the call may write them (the allocation gets a new version); blas_in: it only
 * reads them. */
void *blas_bytes(const char *call, const char *what, const void *p, uint64_t n);
const void *blas_in(const char *call, const char *what, const void *p, uint64_t n);

/* Proven repeats. A call whose result depends only on its arguments (key: every argument and
 * scalar value, pointers included) and on the bytes of its operands, none of them both read and
 * written, none overlapping a written one, all in device memory: when the same key comes again,
 * every operand it writes still has the version it had right after the last such call (nothing
 * has written it since) and every operand it reads has that version too or holds the same bytes
 * as then (a copy is kept, within 1 GB for all calls), the written operands already hold what the
 * call would write; a written operand of write 2 rewritten since gets the copy of what the call
 * wrote put back. The runtime does the same for kernel launches (docs/run.md, "What runs
 * fast"); SMEMLAB_RUN_MEMO=0 turns both off. */
struct blas_operand {
    const void *p;
    uint64_t n;
    int write; /* 0 read, 1 written, 2 written: every byte of [p, p + n) (a rewritten output can
                  then be put back from a copy of what the call wrote) */
};
int blas_repeat(const void *key, size_t len, const struct blas_operand *ops, unsigned nops);
void blas_remember(const void *key, size_t len, const struct blas_operand *ops, unsigned nops);
/* Bytes a column-major rows x cols matrix with leading dimension ld spans (0 when empty). */
uint64_t blas_span(int64_t rows, int64_t cols, int64_t ld, unsigned elem);
/* The scalar *p (elem bytes) in the handle's pointer mode, into out. */
void blas_scalar(const char *call, const char *what, const struct stub_handle *h, const void *p,
                 unsigned elem, void *out);
/* How a tensor core takes a float input: unchanged, or rounded to tf32, f16 or bf16. */
enum { RND_NONE, RND_TF32, RND_F16, RND_BF16 };
/* A stored rows x cols matrix of type t (leading dimension ld) as dense floats (ld = rows),
 * rounded; malloc'd, NULL when out of memory. */
float *blas_to_float(const void *p, int t, int64_t rows, int64_t cols, int64_t ld, int rnd);

/* Seconds on a monotonic clock; blas_start: the same, at the start of a computing call, which
 * first (once) gives OpenBLAS as many threads as --jobs gives a launch. The call's record for
 * the report. */
double blas_now(void);
double blas_start(void);
void blas_record(const char *name, double t0, const char *precision, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* the same, for a call that was (repeat 1) or was not a proven repeat */
void blas_record_call(const char *name, double t0, int repeat, const char *precision,
                      const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* ---- narrow formats: what a tensor core takes of a float ---- */

static inline uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

/* tf32 (8-bit exponent, 10-bit mantissa): round to nearest, ties away from zero, as cvt.rna.tf32.f32 */
static inline float round_tf32(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7f800000u) == 0x7f800000u)
        return f; /* inf, nan */
    u += 0x1000u;
    return bits_f32(u & 0xffffe000u);
}

/* bf16: round to nearest even */
static inline uint16_t f32_to_bf16(float f)
{
    uint32_t u = f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40); /* quiet nan */
    u += 0x7fffu + ((u >> 16) & 1);
    return (uint16_t)(u >> 16);
}
static inline float bf16_to_f32(uint16_t h) { return bits_f32((uint32_t)h << 16); }

/* IEEE half: round to nearest even, subnormals and overflow to inf as cvt.rn.f16.f32 */
static inline uint16_t f32_to_f16(float f)
{
    uint32_t u = f32_bits(f), sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u)
        return (uint16_t)(sign | 0x7e00u);
    if (a >= 0x477ff000u) /* rounds to 65536 or more */
        return (uint16_t)(sign | 0x7c00u);
    if (a < 0x38800000u) { /* below the smallest normal half, 2^-14: a subnormal */
        if (a < 0x33000000u) /* at most half the smallest subnormal, 2^-25: zero (ties to even) */
            return (uint16_t)sign;
        uint32_t e = a >> 23, mant = (a & 0x7fffffu) | 0x800000u;
        unsigned shift = 126 - e; /* the value is mant * 2^(e-150); a subnormal unit is 2^-24 */
        uint32_t q = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (q & 1)))
            q++;
        return (uint16_t)(sign | q);
    }
    uint32_t r = a + 0xfffu + ((a >> 13) & 1);
    return (uint16_t)(sign | ((r - 0x38000000u) >> 13));
}
static inline float f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ffu;
    if (e == 0x1f)
        return bits_f32(sign | 0x7f800000u | (m << 13));
    if (e == 0) {
        float v = (float)m * (1.0f / 16777216.0f); /* m * 2^-24, exact */
        return sign ? -v : v;
    }
    return bits_f32(sign | ((e + 112) << 23) | (m << 13));
}

static inline float round_input(float v, int rnd)
{
    switch (rnd) {
    case RND_TF32: return round_tf32(v);
    case RND_F16: return f16_to_f32(f32_to_f16(v));
    case RND_BF16: return bf16_to_f32(f32_to_bf16(v));
    default: return v;
    }
}

/* Element i of an array of type t (R_32F, R_64F, R_16F, R_16BF) as a double, and back. */
static inline double load_as(int t, const void *p, int64_t i)
{
    switch (t) {
    case R_32F: return ((const float *)p)[i];
    case R_64F: return ((const double *)p)[i];
    case R_16F: return f16_to_f32(((const uint16_t *)p)[i]);
    default: return bf16_to_f32(((const uint16_t *)p)[i]);
    }
}
static inline void store_as(int t, void *p, int64_t i, double v)
{
    switch (t) {
    case R_32F: ((float *)p)[i] = (float)v; break;
    case R_64F: ((double *)p)[i] = v; break;
    case R_16F: ((uint16_t *)p)[i] = f32_to_f16((float)v); break;
    default: ((uint16_t *)p)[i] = f32_to_bf16((float)v); break;
    }
}
static inline unsigned type_size(int t)
{
    return t == R_64F ? 8 : t == R_32F ? 4 : (t == R_16F || t == R_16BF) ? 2 : 0;
}

#endif
