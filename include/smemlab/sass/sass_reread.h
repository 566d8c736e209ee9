/* sass_reread.h: shared loads that re-read what an earlier load of their line read, which the
 * kernel's own SASS shows ptxas serves from that load's registers (src/sass/sass_reread.c). */
#ifndef SMEMLAB_SASS_REREAD_H
#define SMEMLAB_SASS_REREAD_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"
#include "smemlab/sass/sass.h"
#include "smemlab/sass/sass_model.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the loads of [reg + imm] that re-read what an earlier load of their line read and that
 * sf's LDS of that line show ptxas dropped (it serves them from the earlier load's registers):
 * merge[k].leader = the earlier load (k makes no request), placed[earlier] = 3 (where it was 0).
 * sf NULL: nothing changes. Returns 0, or -1 when out of memory. */
int smem_sass_rereads(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                      const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                      struct smem_sass_merge *merge, uint8_t *placed);

#ifdef __cplusplus
}
#endif
#endif
