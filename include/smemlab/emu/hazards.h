/* hazards.h: shared-memory races, barrier divergence and out-of-bounds accesses, found from the
 * emulator's event stream (one tracker per kernel launch analysed). */
#ifndef SMEMLAB_HAZARDS_H
#define SMEMLAB_HAZARDS_H

#include <stdint.h>

#include "smemlab/emu/cta.h"

#ifdef __cplusplus
extern "C" {
#endif

enum smem_hazard_kind { SMEM_HAZARD_RACE = 0, SMEM_HAZARD_BARRIER = 1, SMEM_HAZARD_OOB = 2,
                        SMEM_HAZARD_LAYOUT = 3, SMEM_HAZARD_PROXY_FENCE = 4,
                        SMEM_HAZARD_GLOBAL_RACE = 5 /* global memory (run --global-races) */,
                        SMEM_HAZARD_UNINIT_SHARED = 6 /* a read of shared bytes nothing in the
                                                         block wrote (run --initcheck) */ };

struct smem_hazard {
    enum smem_hazard_kind kind;
    char detail[224];       /* race: "read-write" | "write-read" | "write-write" (the first access,
                              then the second, in the order the emulator ran them; between two
                              CTAs of a cluster: "... between the CTAs of a cluster (ranks 1
                              and 0, in rank 0's shared memory)"); barrier:
                              "divergent" (threads waited at two different bar.sync) |
                              "exit-while-waiting"; oob: "read" | "write" (atomics write);
                              layout: "wgmma reads A as 128-byte swizzle, K-major; the TMA wrote
                              it with 64-byte swizzle"; proxy-fence: "wgmma reads A written by
                              st.shared (thread 5) without fence.proxy.async" */
    uint32_t site[2];      /* emulator sites (index into program->sites); equal if one;
                              UINT32_MAX for a barrier (no access site); layout: the wgmma's
                              and the TMA load's; proxy-fence: the wgmma's and the write's */
    uint32_t lines[2];     /* source lines of the two sites (race) or of the two barriers
                              (divergent), or the line twice; layout: the wgmma's, the TMA's;
                              proxy-fence: the wgmma's, the write's */
    const char *file;      /* source file of lines[0] as the PTX names it (NULL: no line info) */
    uint32_t address;      /* byte offset in the block's shared window */
    char var[128];         /* variable the address belongs to (oob: the nearest one), "" if none */
    uint64_t count;        /* how many times it was seen */
    /* global-race: the first pair seen, the earlier access first: its thread and block, and the
       device address of the byte (detail: "write-read race on global memory: thread (1,0,0) of
       block (0,0,0), then thread (33,0,0) of block (0,0,0)"; address 0) */
    unsigned threads[2][3], blocks[2][3];
    uint64_t device_address;
};

struct smem_hazard_tracker;

/* A tracker for one launch of p. NULL when out of memory. */
struct smem_hazard_tracker *smem_hazards_new(const struct smem_cta_program *p,
                                             const struct smem_launch *l);
/* Feed every access and barrier event of the run, in the order the emulator reports them. */
void smem_hazards_access(struct smem_hazard_tracker *t, const struct smem_access *a);
void smem_hazards_barrier(struct smem_hazard_tracker *t, const struct smem_cta_barrier *b);
/* A wgmma that reads a tile with another swizzle than the TMA wrote it with (kind layout). */
void smem_hazards_layout(struct smem_hazard_tracker *t, const struct smem_cta_layout *e);
/* A wgmma reads shared bytes a generic-proxy write left without fence.proxy.async (kind
 * proxy-fence; one hazard a pair of lines and operand). */
void smem_hazards_proxy_fence(struct smem_hazard_tracker *t, const struct smem_cta_proxy_fence *e);
/* Two CTAs of a cluster access one shared byte unordered (kind race; its detail names the ranks:
 * "write-read between the CTAs of a cluster (ranks 0 and 1, in rank 0's shared memory)"). */
void smem_hazards_cluster_race(struct smem_hazard_tracker *t, const struct smem_cta_cluster_race *e);
/* Two threads of the launch access one global byte unordered (kind global-race). */
void smem_hazards_global_race(struct smem_hazard_tracker *t, const struct smem_cta_global_race *e);
/* Also report reads of shared bytes that nothing in the block has written yet, in the order
 * the emulator runs the block (kind uninitialized-shared, one hazard a site; its count the lanes'
 * reads, its address the first such byte). Not for launches with clusters (their CTAs' accesses
 * interleave): nothing is reported there. Returns 0, or -1 when out of memory. */
int smem_hazards_track_unwritten(struct smem_hazard_tracker *t, const struct smem_launch *l);
/* The hazards found (one entry per distinct kind + pair of sites). */
unsigned smem_hazards_count(const struct smem_hazard_tracker *t);
const struct smem_hazard *smem_hazards_get(const struct smem_hazard_tracker *t, unsigned i);
void smem_hazards_free(struct smem_hazard_tracker *t);

/* "race", "barrier", "oob", "layout", "proxy-fence", "global-race" or "uninitialized-shared". */
const char *smem_hazard_kind_name(enum smem_hazard_kind k);

#ifdef __cplusplus
}
#endif
#endif
