/* sass_lines.h: a line's shared accesses as the kernel's own SASS has them, where ptxas changed
 * them beyond the SASS model: scalar accesses it merged into a wider LDS / STS, loads it removed
 * (src/sass/sass_lines.c; docs/analyzer.md, "Lines counted as their SASS"). */
#ifndef SMEMLAB_SASS_LINES_H
#define SMEMLAB_SASS_LINES_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"
#include "smemlab/sass/sass.h"
#include "smemlab/sass/sass_model.h"

#ifdef __cplusplus
extern "C" {
#endif

enum smem_sass_line_kind {
    SMEM_SASS_LINE_KEEP = 0,   /* as the PTX (and the SASS model) has it */
    SMEM_SASS_LINE_MERGED,     /* a member of a group ptxas made one wider access of */
    SMEM_SASS_LINE_REMOVED,    /* an access ptxas serves from an earlier one (a load's registers;
                                  a store overwritten by a later one, selected into it) */
    SMEM_SASS_LINE_HOISTED     /* a loop-invariant load ptxas runs before its loop: one request
                                  each time a lane enters the loop (the loop's other loads of
                                  its address: REMOVED, leader this one) */
};

struct smem_sass_line_change {
    uint8_t kind;      /* enum smem_sass_line_kind */
    uint8_t width;     /* MERGED, on the group's leader: the SASS access's bytes a lane; else 0 */
    int32_t leader;    /* MERGED: the group's first member in program order (its access is made
                          there, the lane's address rounded down to a multiple of width);
                          REMOVED: the earlier load whose registers serve it; else -1 */
};

/* Per PTX instruction of f, what sf's SASS shows ptxas did to it beyond the SASS model (merge,
 * placed: smem_sass_merge_loads, _fixed_places, _rereads; accesses they changed are left alone).
 * Each line's SASS decides: see sass_lines.c.
 * sf NULL: nothing changes. Returns 0, or -1 when out of memory. */
int smem_sass_line_changes(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                           const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                           const struct smem_sass_merge *merge, const uint8_t *placed,
                           struct smem_sass_line_change *out);

#ifdef __cplusplus
}
#endif
#endif
