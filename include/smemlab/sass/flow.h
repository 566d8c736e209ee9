/* flow.h: the control flow the SASS is compared to the PTX by (src/sass/flow.c): which
 * instructions run only in some warps, on either side, and which PTX instructions a branch
 * reaches. */
#ifndef SMEMLAB_SASS_FLOW_H
#define SMEMLAB_SASS_FLOW_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"
#include "smemlab/sass/sass.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Per instruction of sf: 1 when it runs only in some warps (guarded, between a forward branch
 * and its target, or after an EXIT), 0 when every warp reaching the function's end runs it.
 * Fills cond[sf->ninsns]; returns 0, or -1 when out of memory. */
int smem_sass_conditional(const struct smem_sass_func *sf, uint8_t *cond);

/* Per instruction of f: 1 when it runs only where a branch goes (between a forward branch and its
 * target, after a ret / exit, or, with guards, guarded), as the census compares it with the SASS.
 * malloc'd; NULL when out of memory. */
uint8_t *smem_sass_ptx_conditional(const struct smem_ptx_func *f, int guards);

/* Per instruction of f, and one past its end: 1 when a label operand names it (a branch may reach
 * it from elsewhere than the instruction before). calloc'd [f->ninsns + 1]; NULL when out of
 * memory. */
uint8_t *smem_sass_ptx_targets(const struct smem_ptx_func *f);

#ifdef __cplusplus
}
#endif
#endif
