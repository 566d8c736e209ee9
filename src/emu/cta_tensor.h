/* cta_tensor.h (private to emu/): what cta_tensor.c (matrices, mma, the dispatch) and
 * cta_async.c (cp.async groups, mbarrier) share: one lane's operands and the warp's requests. */
#ifndef SMEMLAB_EMU_CTA_TENSOR_H
#define SMEMLAB_EMU_CTA_TENSOR_H

#include "cta_internal.h"
#include "smemlab/model/wmma.h"

/* lane l of warp w: an operand's value (*known cleared when it is not known); a register set */
uint64_t emu_lane_val(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_operand *o,
                      int *known);
void emu_lane_set(struct block *b, uint32_t w, uint32_t l, int32_t reg, uint64_t v, int known);
/* The shared offset of lane l's memory operand mo (n bytes). 1 ok, 0 the address is unknown,
 * -1 failed (located: not shared memory, out of range, misaligned to align). */
int emu_lane_shared(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                    const struct smem_ptx_insn *in, const struct smem_ptx_operand *mo,
                    unsigned n, unsigned align, uint32_t *off, const char *what);
/* the lanes of warp w that exist; a located failure unless ex is all of them */
uint32_t emu_warp_lanes(const struct block *b, uint32_t w);
int emu_whole_warp(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const char *what);
/* every request lanes ex of warp w just joined at site s: f(a, lane, ctx) for each lane */
void emu_each_request(struct block *b, uint32_t w, uint32_t s, uint32_t ex,
                      void (*f)(struct smem_access *a, uint32_t l, void *ctx), void *ctx);

/* cta_async.c: cp.async (its request's sources, its copies in flight), the group operations,
 * mbarrier: emu_exec_cp_async, emu_exec_cp_async_wait, emu_exec_mbarrier_op (cta_internal.h). */
/* complete_tx of n bytes on the mbarrier at shared offset off (a bulk copy landed): 1 done,
 * 0 stopped (its state unknown), -1 failed */
int emu_mbarrier_complete_tx(struct block *b, uint32_t pc, uint32_t off, uint32_t n,
                             const char *name);

/* cta_bulk.c: cp.async.bulk (global -> shared with complete_tx, shared -> global, the bulk
 * groups, prefetch); the tensor, reduction and multicast forms fail, located. As above. */

/* cta_wmma.c: wmma.load / wmma.store / wmma.mma (1 done, -1 error, as emu_tensor_exec); the
 * fragment a wmma.load / wmma.store moves (0, or -1: not one the emulator runs). */
int emu_wmma_load_store_frag(const struct smem_ptx_insn *in, struct smem_wmma_frag *f);
/* cta_mma.c: the other mma.sync forms of sm_90 (f64, e4m3/e5m2, s4/u4, s8 m8n8k16, b1): 1 done,
 * -1 error, 0 not one of them. */
int emu_exec_mma_more(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex);
int emu_wmma_frag(const struct smem_ptx_insn *in, unsigned use, unsigned ptype, struct smem_wmma_frag *f);

#endif
