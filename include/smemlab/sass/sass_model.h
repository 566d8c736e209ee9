/* sass_model.h: what ptxas makes of a kernel's shared loads, modelled over its PTX
 * (src/sass/sass_model.c): neighbouring scalar loads from one base register merge into 8- and
 * 16-byte ones where the alignment is provable; what ptxas moves no load across; the source line
 * a PTX instruction has, as the SASS's line table names it. */
#ifndef SMEMLAB_SASS_MODEL_H
#define SMEMLAB_SASS_MODEL_H

#include <stdint.h>

#include "smemlab/ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One instruction's fate: a group leader carries the merged access (width bytes starting `offset`
 * bytes from its own address); members are absorbed into their leader. */
struct smem_sass_merge {
    int32_t leader;  /* -1: not merged; else the instruction index of the group's leader */
    uint8_t width;   /* leader only: bytes of the merged access */
    int32_t offset;  /* leader only: start of the merged access relative to the leader's address */
};

/* Fills merge[f->ninsns]. sym_offset(sym) gives the window offset ptxas placed a shared symbol at.
 * Returns 0, or -1 when out of memory (then nothing is merged). */
int smem_sass_merge_loads(const struct smem_ptx_func *f, const uint32_t *sym_offset,
                          struct smem_sass_merge *merge);

/* The line an instruction is written on (the innermost of inlined code, as the SASS's line table
 * and the census have it): *path NULL, *line 0 when none. */
void smem_sass_ptx_line(const struct smem_ptx_module *m, const struct smem_ptx_insn *in,
                        const char **path, uint32_t *line);

/* 1 for what ptxas may not move a shared load across (a shared or generic store, an atomic, a
 * barrier, a fence, a call, an exit). */
int smem_sass_ptx_clobbers(const struct smem_ptx_insn *in);

#ifdef __cplusplus
}
#endif
#endif
