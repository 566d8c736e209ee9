/* families.h (private to emu/): the instruction families, the middle of emu/'s stack. Each calls
 * the services below it (block.h, memory.h, request.h, lanes.h) and, where one family builds on
 * another, that one only (the per-thread semantics on the arithmetic, cp.async on the per-thread
 * semantics, the bulk copies on mbarrier, mma on its other forms); the warp loop (cta.c)
 * calls them, through the opcode table (opcodes.def) where it says so. */
#ifndef SMEMLAB_EMU_FAMILIES_H
#define SMEMLAB_EMU_FAMILIES_H

#include "block.h"
#include "smemlab/model/wmma.h"

/* cta_fp.c: floating-point arithmetic (f16x2/bf16x2 lane by lane), comparisons, conversions. */
int emu_fp_arith(const struct smem_ptx_insn *in, uint64_t a, uint64_t b, uint64_t c, uint64_t *r);
int emu_fp_compare(unsigned cmp, unsigned t, int ftz, uint64_t a, uint64_t b);
int emu_fp_testp(unsigned mode, unsigned t, uint64_t a);
int emu_fp_is_negative(unsigned t, int ftz, uint64_t a);
uint64_t emu_fp_one(unsigned t);
uint64_t emu_fp_cvt(const struct smem_ptx_insn *in, uint64_t v, uint64_t v2);
/* atom.add / red.add on a float type: old + v as the atomic unit computes it */
uint64_t emu_fp_atom_add(unsigned t, int shared, uint64_t old, uint64_t v);

/* an instruction emu_fp_arith computes: an opcode with a floating-point form (OPF_FP) on a
 * floating-point type, but mul / mad .hi / .wide (integer forms) */
static inline int emu_fp_form(const struct smem_ptx_insn *in)
{
    return smem_op_has_fp(in->op) && is_fp(in->type) &&
           ((in->op != PO_MUL && in->op != PO_MAD) || (in->mode != MODE_HI && in->mode != MODE_WIDE));
}

/* cta_alu.c: one arithmetic, logic, comparison or conversion instruction of thread tid. 0 done, -1
 * not modelled (the caller refuses it with its location). */
int emu_exec_alu(struct block *b, uint32_t tid, const struct smem_ptx_insn *in, uint64_t *R,
                 uint8_t *K);

/* cta_lane.c: one instruction (not a branch, not a warp collective) for lane l of warp w at pc,
 * with the per-thread semantics. It may leave the lane waiting at a barrier or exited. 0, or -1
 * failed (located). */
int emu_lane_exec(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                  const struct smem_ptx_insn *in);

/* cta_collective.c: a warp collective for lanes `lanes` of warp w at pc (OPF_COLL). 0, or -1
 * failed (located); a stop on unknown data leaves b->stopped set. */
int emu_exec_collective(struct block *b, uint32_t w, uint32_t pc, uint32_t lanes);

/* cta_warp.c: the warp-level forms the warp loop runs for lanes `ex` of warp w at pc (cta.c,
 * run_group). emu_warp_alu: the fast kinds of cta_prepare.c that compute (F_IS_ALU), always done.
 * emu_warp_mem: ld/st.shared (F_LDS, F_STS) and global memory (F_GLOBAL); emu_warp_exec: the
 * other instructions with a warp-level form (F_WARP). Both: 1 done, 0 not this path (the lane
 * path runs each lane: unknown or bad addresses, faults, ...), -1 error (located). */
void emu_warp_alu(struct block *b, uint32_t w, const struct smem_ptx_insn *in, uint8_t fk, uint32_t ex);
int emu_warp_mem(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                 uint32_t ex, uint8_t fk);
int emu_warp_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                  uint32_t ex);

/* The warp-level handler of an instruction family (opcodes.def, warp): lanes `ex` of warp w at
 * pc. 1 done, 0 not this path (the lane path runs it), -1 error (located). Lanes that wait at an
 * mbarrier are left in L_MBAR. */
typedef int emu_warp_fn(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in,
                        uint32_t ex);
/* cta_tensor.c: ldmatrix / stmatrix; mma.sync. cta_wmma.c: wmma. cta_async.c: cp.async, its
 * groups (and cp.async.mbarrier.arrive), mbarrier. cta_bulk.c: cp.async.bulk. cta_wgmma.c:
 * wgmma (warps wait in L_WGMMA for the rest of their warpgroup). */
emu_warp_fn emu_exec_matrix, emu_exec_mma, emu_exec_wmma, emu_exec_cp_async,
    emu_exec_cp_async_wait, emu_exec_mbarrier_op, emu_exec_bulk, emu_exec_wgmma;
/* cta_tma.c: cp.async.bulk.tensor and cp.async.bulk.prefetch.tensor (MODE_BULK_TENSOR*), for
 * emu_exec_bulk; emu_tma_forget: a write of n bytes at shared offset off that is not a TMA
 * load's (the layout record forgets those chunks). The layout record: b->tma_sw (block.h) */
int emu_tma_exec(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex);
void emu_tma_forget(struct block *b, uint32_t off, uint32_t n);
/* 1 when 16-byte chunk `chunk` still holds what the TMA load of its record wrote */
int emu_tma_current(const struct block *b, uint32_t chunk);
/* cta_wgmma.c: nobody can move: -1 (located) when threads wait at a wgmma for the rest of
 * their warpgroup, else 0 */
int emu_wgmma_stuck(struct block *b);
/* cta_cluster.c: mapa, getctarank, barrier.cluster, st.async, red.async (the handler); between
 * rounds: the cluster barrier's phase completes when every live thread of the cluster has
 * arrived (its waiting threads run on: 1, else 0); nobody can move: -1 (located) when threads
 * wait at barrier.cluster.wait for threads that never arrive, else 0. */
emu_warp_fn emu_exec_cluster;
int emu_cluster_release(struct emu_cluster *cl);
int emu_cluster_stuck(struct emu_cluster *cl);
/* What the per-thread semantics (cta_lane.c, emu_lane_exec) do with an opcode (opcodes.def, lane):
 * nothing; the thread exits; refused (bar.arrive; the cluster's handler declined: never); trap; a texture or surface;
 * call (vprintf, __assertfail); a block barrier; a memory access; arithmetic (cta_alu.c, which
 * refuses what it does not compute). */
enum lane_kind { LK_NOTHING, LK_EXIT, LK_CLUSTER, LK_ARRIVE, LK_TRAP, LK_TEX, LK_CALL, LK_BAR,
                 LK_MEM, LK_ALU };

/* cta_async.c: complete_tx of n bytes on the mbarrier at shared offset off of CTA t (b's own, or
 * another of its cluster; a bulk copy landed there), for instruction pc of b: 1 done, 0 stopped
 * (its state unknown), -1 failed. Between rounds of the block's warps
 * (emu_async_wake): lanes whose mbarrier phase has completed run on (1: some did); 0 none; -1
 * every live thread waits on an mbarrier phase that cannot complete (a located failure). The
 * per-thread state of mbarrier waits and cp.async groups: reset for a new block, freed. */
int emu_mbarrier_complete_tx(struct block *b, struct block *t, uint32_t pc, uint32_t off,
                             uint32_t n, const char *name);
int emu_async_wake(struct block *b);
void emu_async_reset(struct block *b);
void emu_async_free(struct block *b);

/* cta_wmma.c: the fragment a wmma.load / wmma.store moves, and a fragment of a use and type (0,
 * or -1: not one the emulator runs). cta_mma.c: the other mma.sync forms of sm_90 (f64,
 * e4m3/e5m2, s4/u4, s8 m8n8k16, b1): 1 done, -1 error, 0 not one of them. */
int emu_wmma_load_store_frag(const struct smem_ptx_insn *in, struct smem_wmma_frag *f);
int emu_wmma_frag(const struct smem_ptx_insn *in, unsigned use, unsigned ptype, struct smem_wmma_frag *f);
int emu_exec_mma_more(struct block *b, uint32_t w, uint32_t pc, const struct smem_ptx_insn *in, uint32_t ex);

#endif
