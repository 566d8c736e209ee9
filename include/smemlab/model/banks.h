/* banks.h: what one warp's shared-memory request costs on the GPU. Pure: no I/O, no allocation.
 * The rule is the one measured on an H100 (tests/hw/, docs/bank-model.md): within each pass of
 * lanes, a request costs the largest number of distinct bank words any one bank must deliver. */
#ifndef SMEMLAB_BANKS_H
#define SMEMLAB_BANKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_WARP 32
#define SMEM_MAX_BANKS 64

enum smem_op { SMEM_LD = 0, SMEM_ST = 1, SMEM_ATOM = 2 };

/* The bank geometry: count banks of `bytes` bytes each (32 x 4 from Volta to Hopper; Kepler's
 * 8-byte mode is 32 x 8). count in 1..64, bytes in 1,2,4,8,16. */
struct smem_banks {
    unsigned count, bytes;
};

/* One warp executing one shared-memory instruction. addr[l] is meaningful where bit l of active
 * is set; every address must be a multiple of width (CUDA requires natural alignment). */
struct smem_request {
    uint32_t active;
    uint32_t addr[SMEM_WARP];
    unsigned width; /* 1, 2, 4, 8 or 16 bytes */
    enum smem_op op;
};

/* wavefronts: what Nsight Compute counts for the instruction
 *        (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld/st, the figure its source
 *        view shows), equal to the pipeline's passes (l1tex__data_pipe_lsu_wavefronts_*, nvprof's
 *        transactions) except on some 8- and 16-byte loads: paired lanes with a bank conflict, and
 *        partial warps (smem_request_pipe_wavefronts gives the pipeline's; docs/bank-model.md);
 * ideal: one wavefront per pass with an active lane (what the request costs with no bank
 *        conflict: pipeline passes - ideal is the H100's l1tex__data_bank_conflicts counter);
 * max_ways: the worst bank's count of distinct words within one pass;
 * groups: passes with an active lane (smem_pass_lanes). */
struct smem_cost {
    unsigned wavefronts, ideal, max_ways, groups;
    int pipe_delta; /* the pipeline's passes minus wavefronts: 0 but on the loads said above */
};

/* The per-bank picture of a request: for each bank, the distinct words it must deliver and which
 * lanes want each. For 16-byte accesses the two half-warps are listed together (see lanes). */
struct smem_bank_slot {
    uint32_t word;  /* byte address / bank bytes */
    uint32_t lanes; /* lanes touching this word */
};
struct smem_bank_map {
    unsigned count;                      /* banks */
    unsigned nwords[SMEM_MAX_BANKS];     /* distinct words in each bank */
    struct smem_bank_slot slot[SMEM_MAX_BANKS][SMEM_WARP];
};

/* The default geometry of every GPU since Volta. */
struct smem_banks smem_banks_default(void);

/* NULL when the geometry is usable, else a sentence saying why not. */
const char *smem_banks_check(const struct smem_banks *banks);

/* NULL when the request is well formed for banks (width, alignment), else a sentence. */
const char *smem_request_check(const struct smem_banks *banks, const struct smem_request *req);

/* Lanes served together in one pass: 32 for accesses of a bank word or less; for wider ones one
 * pass per bank word a lane asks for (16 + 16 lanes for 8 bytes, 4 x 8 lanes for 16 bytes on
 * 32 x 4 banks), half as many for a load whose lanes pair up (l and l^1, or l and l^2, on one
 * address over the whole warp). Measured on the H100: docs/bank-model.md. */
unsigned smem_pass_lanes(const struct smem_banks *banks, const struct smem_request *req);

/* The cost of one request. The request must pass smem_request_check; a request with no active
 * lane costs nothing. */
struct smem_cost smem_request_cost(const struct smem_banks *banks, const struct smem_request *req);

/* smem_request_check and smem_request_cost in one pass over the lanes, for the request an emulator
 * makes most: on 32 x 4-byte banks, each lane one aligned access of 1, 2 or 4 bytes. 1 with *cost
 * set (the same cost smem_request_cost gives), 0 when req is not such a request or not well formed
 * (the general functions decide then). */
int smem_word_request_cost(const struct smem_banks *banks, const struct smem_request *req,
                           struct smem_cost *cost);

/* The pipeline's passes for req (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st): equal to
 * smem_request_cost's wavefronts but for the 8- and 16-byte loads said above. */
unsigned smem_request_pipe_wavefronts(const struct smem_banks *banks, const struct smem_request *req);

/* Fills map with the bank picture of req (all pass groups together). */
void smem_request_map(const struct smem_banks *banks, const struct smem_request *req,
                      struct smem_bank_map *map);

/* Wavefronts beyond the ideal, floored at 0: the H100's l1tex__data_bank_conflicts counter wherever
 * the wavefronts are the pipeline's passes (all but the loads smem_request_pipe_wavefronts names). */
static inline unsigned smem_cost_conflicts(struct smem_cost c)
{
    return c.wavefronts > c.ideal ? c.wavefronts - c.ideal : 0;
}

#ifdef __cplusplus
}
#endif
#endif
