/* uniform.h: the proof that lets one block of an `analyze` launch stand for all of them. A taint
 * analysis over the kernel's PTX: values derived from the block index (%ctaid), from memory
 * (every load but of a parameter, atomics), from clocks and from what differs between SMs are
 * tainted, and taint flows through every instruction into its destinations (registers are
 * tracked flow-insensitively: one tainted write taints the register everywhere; shared and local
 * memory hold loaded data, and what varies between blocks once such a value is stored there).
 * When no branch, no predicate of a shared access, barrier, exit or warp collective, no shared
 * (or generic, local) address and no barrier or shuffle operand is tainted, no value stored to
 * shared memory varies between blocks (racecheck's verdict on a store depends on the value it
 * stores; unknown data never counts as the same value), and the kernel makes no call,
 * every block executes the same instructions and makes the same shared-memory requests with the
 * same addresses, barriers and hazards: block 0's counts times the number of blocks are the
 * launch's. Anything not proven runs every block. */
#ifndef SMEMLAB_UNIFORM_H
#define SMEMLAB_UNIFORM_H

#include <stddef.h>

#include "smemlab/ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when proven, with why the reason for the report; 0 when not, with why the first
 * instruction that stops the proof ("branch at PTX line 120 depends on %ctaid or loaded data").
 * -1 out of memory. */
int smem_blocks_uniform(const struct smem_ptx_func *f, char *why, size_t n);

#ifdef __cplusplus
}
#endif
#endif
