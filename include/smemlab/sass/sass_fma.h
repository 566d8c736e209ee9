/* sass_fma.h: which f32 multiplications ptxas fuses with the additions that take their product
 * (mul.f32 + add/sub.f32 without a rounding modifier become one FFMA on sm_90: the product is not
 * rounded on its own), as the H100 showed it (src/sass/sass_fma.c; docs/analyzer.md,
 * "Floating-point contraction"). */
#ifndef SMEMLAB_SASS_FMA_H
#define SMEMLAB_SASS_FMA_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instruction's fate: an add.f32 / sub.f32 that ptxas computes as an FFMA. */
struct smem_sass_fma {
    int32_t mul;     /* -1: computed as written; else the mul.f32 whose exact product it adds */
    uint8_t operand; /* which of its sources (1 or 2) is that product */
};

/* Fills fuse[f->ninsns]. Returns 0, or -1 when out of memory (then nothing is fused). */
int smem_sass_fuse_fma(const struct smem_ptx_func *f, struct smem_sass_fma *fuse);

#ifdef __cplusplus
}
#endif
#endif
