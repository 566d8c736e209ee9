/* sass_model.h: what ptxas makes of a kernel's shared loads: neighbouring scalar loads from one base
 * register merge into 8- and 16-byte ones where the alignment is provable (private to the emulator). */
#ifndef SMEMLAB_INTERNAL_SASS_MODEL_H
#define SMEMLAB_INTERNAL_SASS_MODEL_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"

/* One instruction's fate: a group leader carries the merged access (width bytes starting `offset`
 * bytes from its own address); members are absorbed into their leader. */
struct sass_merge {
    int32_t leader;  /* -1: not merged; else the instruction index of the group's leader */
    uint8_t width;   /* leader only: bytes of the merged access */
    int32_t offset;  /* leader only: start of the merged access relative to the leader's address */
};

/* Fills merge[ninsns]. sym_offset(sym) gives the window offset ptxas placed a shared symbol at.
 * Returns 0, or -1 when out of memory (then nothing is merged). */
int sass_merge_loads(const struct smem_ptx_func *f, const uint32_t *sym_offset,
                     struct sass_merge *merge);

/* Per instruction: 1 when it runs only where a branch goes (between a forward branch and its
 * target, after a ret / exit, or, with guards, guarded), as the census compares it with the SASS.
 * malloc'd; NULL when out of memory. */
uint8_t *sass_ptx_conditional(const struct smem_ptx_func *f, int guards);

#endif
