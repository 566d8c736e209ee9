/* memory.h (private to emu/): the block's memories as the instruction families reach them
 * (memory.c): an address of a state space resolved to bytes and their known marks, the launch's
 * global memory (regions, faults, access marks), the parameter buffer. */
#ifndef SMEMLAB_EMU_MEMORY_H
#define SMEMLAB_EMU_MEMORY_H

#include "block.h"

/* The CTA *t of the cluster and the offset *off in its shared memory of the shared::cluster
 * address a (n bytes; an address below CLUSTER_STEP is b's own): 1 b itself, 5 another CTA, -1
 * beyond its shared memory, -3 a rank the cluster does not have, -4 a CTA that has exited (*t
 * set from -1 on). */
int emu_cluster_resolve(struct block *b, uint64_t a, unsigned n, struct block **t, uint64_t *off);
/* Resolves an address of space sp to (memory, offset). Returns 1 shared, 2 local, 3 param,
 * 4 global (a region of the launch's global memory; *kn may be NULL: all known), 5 another CTA's
 * shared memory (b->remote is that CTA), 0 global/const (not modelled: no global memory given),
 * -1 out of range, -2 outside every global region, -3 a rank the cluster does not have, -4 a CTA
 * that has exited. sp may carry EMU_SP_CLUSTER (.shared::cluster); a generic address of the
 * shared window is one of the cluster's. */
int emu_resolve(struct block *b, uint32_t tid, unsigned sp, uint64_t a, unsigned n, uint8_t **mem,
                uint8_t **kn, uint64_t *off);
static inline int emu_is_shared_space(unsigned sp, uint64_t a)
{
    return sp == SP_SHARED ||
           (sp == SP_GENERIC && a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE);
}
/* A shared::cluster access the cluster cannot serve (emu_resolve's -3: no such rank, -4: the CTA
 * has exited) or a misaligned one (other values of where): a located failure, -1. */
int emu_remote_fault(struct block *b, uint32_t tid, uint32_t pc, uint64_t a, unsigned n, int where);
/* An access by b (its rank) of n bytes at offset off of CTA own's shared memory (b itself or
 * another of its cluster; write: 0 a read, 1 a write, 2 an atomic), in the cluster's current
 * epoch: a byte another CTA wrote in this epoch (plainly, or atomically unless this access is an
 * atomic), or read when this access writes, is a race, given to the hooks (cluster_race), once
 * an access. Nothing without own's shadow (kernels whose CTAs never form another's address). */
void emu_cluster_shadow(struct block *b, struct block *own, uint32_t pc, uint32_t off, unsigned n,
                        int write);
/* the global region holding [a, a + n) (NULL: none; b->glast becomes it); the access marks of
 * region b->glast (what a proven repeat compares and copies; op PO_LD / PO_ST / an atomic's) */
const struct smem_global_region *emu_region_of(struct block *b, uint64_t a, unsigned n);
void emu_mark_global(struct block *b, int op, uint64_t off, unsigned n);
/* emu_mark_global's marks and initcheck's for thread tid's access at pc (the launch's init_marks,
 * when it keeps them: a load of a byte never written is given to uninit, a store marks them). */
void emu_mark_global_at(struct block *b, uint32_t tid, uint32_t pc, int op, uint64_t off,
                        unsigned n);
/* An access of instruction in outside the launch's global memory (kind SMEM_GFAULT_*): reported,
 * then a located failure (-1, where faults stop the launch) or 0. */
int emu_global_fault(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                     unsigned kind, uint64_t a, unsigned n);
/* The same for an access of space (enum smem_ptx_space: shared, local, global) the GPU faults on
 * (kind SMEM_GFAULT_*): a misaligned shared or local access (a the shared window's address, or
 * the local offset), a local one outside the thread's frame. */
int emu_space_fault(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    unsigned kind, unsigned space, uint64_t a, unsigned n);
/* A store of n bytes at device address a that holds a value the emulator does not know, in a
 * region taken as all known: given to the launch's fault sink (SMEM_GFAULT_UNKNOWN_VALUE). */
void emu_unknown_store(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                       uint64_t a, unsigned n);
/* n bytes of global memory at device address a for thread tid (the bulk copies): 1 with the host
 * bytes and their known marks (*kn NULL: all known), marked read or written for the launch; 0
 * without a global memory (analyze); -1 failed (outside every allocation: reported as a fault of
 * instruction pc, which stops the block where faults stop it), -2 reported only. */
int emu_global_span(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t a, unsigned n, int write, uint8_t **mem, uint8_t **kn);
/* n bytes of space sp at address a for thread tid, read into buf / kn (known) or written from
 * them (store): 0 done, 1 not modelled here (no global memory given: unknown), -1 failed
 * (located: outside every allocation, out of range). For cta_wmma.c. */
int emu_mem_bytes(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                  unsigned sp, uint64_t a, unsigned n, uint8_t *buf, uint8_t *kn, int store);
/* A run's setup: the parameter buffer (given values, fake pointers for pointer parameters, else
 * unknown); the launch's global memory (its regions by base address, the placed variables'
 * addresses). 0, or -1 out of memory. */
int emu_params_fill(struct block *b);
int emu_global_setup(struct block *b);

#endif
