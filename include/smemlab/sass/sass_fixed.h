/* sass_fixed.h: shared loads from fixed places as the kernel's own SASS has them
 * (src/sass/sass_fixed.c): the SASS model's groups of a function's PTX corrected, widened and
 * hoisted where the cubin's fixed-place LDS show what ptxas did. */
#ifndef SMEMLAB_SASS_FIXED_H
#define SMEMLAB_SASS_FIXED_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"
#include "smemlab/sass/sass.h"
#include "smemlab/sass/sass_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Adjusts merge[f->ninsns] (the SASS model's groups) where sf's fixed-place LDS show other groups
 * or widths, and fills, per instruction (a group's leader), hoist[] (-1, or the branch its request
 * is made at), placed[] (0; 1 grouped or widened from the SASS; 2 also hoisted) and sass_of[] (-1,
 * or the index in sf of the LDS it is counted as, changed or not). sym_offset as
 * smem_sass_merge_loads takes it. sf NULL: nothing changes. Returns 0, or -1 when out of memory
 * (then merge may be half changed: the caller gives up). */
int smem_sass_fixed_places(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                           const uint32_t *sym_offset, const struct smem_sass_module *sm,
                           const struct smem_sass_func *sf, struct smem_sass_merge *merge,
                           int32_t *hoist, uint8_t *placed, int32_t *sass_of);

#ifdef __cplusplus
}
#endif
#endif
