/* lanes.h (private to emu/): one lane of a warp as the instruction families see it (lanes.c):
 * its operands and registers in the warp's rows, its shared address, the warp's lanes, the
 * requests its lanes just joined; and the per-thread register row (emu_lane_in / emu_lane_out)
 * the per-thread semantics and the collectives run on. */
#ifndef SMEMLAB_EMU_LANES_H
#define SMEMLAB_EMU_LANES_H

#include "block.h"

/* One lane's view for the per-thread semantics: emu_lane_in copies the registers instruction in
 * names (guard and operands) of lane l of warp w into the row b->sr / b->sk, emu_lane_out back. */
static inline void emu_lane_in(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_insn *in)
{
    const uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    const uint32_t *K = b->K + (size_t)w * b->nregs;
    if (in->guard >= 0) {
        b->sr[in->guard] = R[(size_t)in->guard * 32 + l];
        b->sk[in->guard] = (uint8_t)(K[in->guard] >> l & 1u);
    }
    for (unsigned o = 0; o < in->nops; o++)
        for (unsigned i = 0; i < 4; i++) {
            int32_t r = in->ops[o].reg[i];
            if (r >= 0) {
                b->sr[r] = R[(size_t)r * 32 + l];
                b->sk[r] = (uint8_t)(K[r] >> l & 1u);
            }
        }
}

static inline void emu_lane_out(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_insn *in)
{
    uint64_t *R = b->R + (size_t)w * b->nregs * 32;
    uint32_t *K = b->K + (size_t)w * b->nregs, bit = 1u << l;
    for (unsigned o = 0; o < in->nops; o++)
        for (unsigned i = 0; i < 4; i++) {
            int32_t r = in->ops[o].reg[i];
            if (r >= 0) {
                R[(size_t)r * 32 + l] = b->sr[r];
                K[r] = b->sk[r] ? K[r] | bit : K[r] & ~bit;
            }
        }
}

/* lane l of warp w: an operand's value (*known cleared when it is not known); a register set */
uint64_t emu_lane_val(struct block *b, uint32_t w, uint32_t l, const struct smem_ptx_operand *o,
                      int *known);
void emu_lane_set(struct block *b, uint32_t w, uint32_t l, int32_t reg, uint64_t v, int known);
/* The shared offset of lane l's memory operand mo (n bytes). 1 ok, 0 the address is unknown,
 * -1 failed (located: not shared memory, out of range, misaligned to align). */
int emu_lane_shared(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                    const struct smem_ptx_insn *in, const struct smem_ptx_operand *mo,
                    unsigned n, unsigned align, uint32_t *off, const char *what);
/* The CTA *t of the cluster and the offset in its shared memory of lane l's shared::cluster (or
 * generic) address operand mo (an address [..] or a value; n bytes, aligned to n). 1 ok, 0 the
 * address is unknown, -1 failed (located: no such rank, a CTA that exited, outside its memory,
 * misaligned). */
int emu_lane_cluster(struct block *b, uint32_t w, uint32_t l, uint32_t pc,
                     const struct smem_ptx_operand *mo, unsigned n, struct block **t,
                     uint32_t *off, const char *what);
/* the lanes of warp w that exist; a located failure unless ex is all of them */
uint32_t emu_warp_lanes(const struct block *b, uint32_t w);
int emu_whole_warp(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const char *what);
/* every request lanes ex of warp w just joined at site s: f(a, lane, ctx) for each lane */
void emu_each_request(struct block *b, uint32_t w, uint32_t s, uint32_t ex,
                      void (*f)(struct smem_access *a, uint32_t l, void *ctx), void *ctx);

#endif
