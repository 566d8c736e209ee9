/* global_race.h (private to emu/): races on global memory between the threads of one launch
 * (global_race.c; `smem_global_memory.races`, `smemlab run --global-races`). */
#ifndef SMEMLAB_EMU_GLOBAL_RACE_H
#define SMEMLAB_EMU_GLOBAL_RACE_H

#include "block.h"

/* The launch's record (every block's accesses): NULL when out of memory. */
struct emu_grace *emu_grace_new(void);
void emu_grace_free(struct emu_grace *g);
/* Block b's own part (what it acquired, its threads' fences): cleared before its first round,
 * freed with the block. */
void emu_grace_block_reset(struct block *b);
void emu_grace_block_free(struct block *b);
/* Thread tid's access at pc (op: PO_LD, PO_ST or an atomic's) of n bytes at device address a:
 * checked against the last write and the last read of each byte's word, a race given to the
 * hooks (global_race); then recorded. */
void emu_grace_access(struct block *b, uint32_t tid, uint32_t pc, int op, uint64_t a, unsigned n);
/* Thread tid ran a fence of the GPU's or the system's scope (membar.gl, fence.sc / acq_rel). */
void emu_grace_fence(struct block *b, uint32_t tid);

#endif
