/* cta_sass.h: fixed-place shared loads as the kernel's SASS has them (cta_sass.c; private). */
#ifndef SMEMLAB_EMU_CTA_SASS_H
#define SMEMLAB_EMU_CTA_SASS_H

#include "smemlab/emu/cta.h"
#include "smemlab/sass/sass.h"
#include "ptx/sass_model.h"

/* Adjusts merge[f->ninsns] (the SASS model's groups) where sf's fixed-place LDS show other groups
 * or widths, and fills, per instruction (a group's leader), hoist[] (-1, or the branch its request
 * is made at), placed[] (0; 1 grouped or widened from the SASS; 2 also hoisted) and sass_of[] (-1,
 * or the index in sf of the LDS it is counted as, changed or not). sf NULL: nothing changes.
 * Returns 0, or -1 when out of memory (then merge may be half changed: the caller gives up). */
int emu_sass_fixed(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                   const uint32_t *sym_offset, const struct smem_sass_module *sm,
                   const struct smem_sass_func *sf, struct sass_merge *merge, int32_t *hoist,
                   uint8_t *placed, int32_t *sass_of);

/* Shared by cta_sass.c and cta_reread.c: the line an instruction is written on (the innermost of
 * inlined code, as the census has it; path NULL, line 0 when none), and 1 for what ptxas may not
 * move a shared load across (a shared or generic store, an atomic, a barrier, a fence, a call). */
void emu_sass_line_of(const struct smem_ptx_module *m, const struct smem_ptx_insn *in,
                      const char **path, uint32_t *line);
int emu_sass_clobbers(const struct smem_ptx_insn *in);

/* cta_reread.c: marks the loads of [reg + imm] that re-read what an earlier load of their line
 * read and that sf's LDS of that line show ptxas dropped (it serves them from the earlier load's registers):
 * merge[k].leader = the earlier load (k makes no request), placed[earlier] = 3. Returns 0, or -1
 * when out of memory. */
int emu_sass_rereads(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                     const struct smem_sass_module *sm, const struct smem_sass_func *sf,
                     struct sass_merge *merge, uint8_t *placed);

#endif
