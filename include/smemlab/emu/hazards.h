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
                        SMEM_HAZARD_LAYOUT = 3 };

struct smem_hazard {
    enum smem_hazard_kind kind;
    char detail[96];       /* race: "read-write" | "write-read" | "write-write" (the first access,
                              then the second, in the order the emulator ran them; between two
                              CTAs of a cluster: "... between the CTAs of a cluster (ranks 1
                              and 0, in rank 0's shared memory)"); barrier:
                              "divergent" (threads waited at two different bar.sync) |
                              "exit-while-waiting"; oob: "read" | "write" (atomics write);
                              layout: "wgmma reads A as 128-byte swizzle, K-major; the TMA wrote
                              it with 64-byte swizzle" */
    uint32_t site[2];      /* emulator sites (index into program->sites); equal if one;
                              UINT32_MAX for a barrier (no access site); layout: the wgmma's
                              and the TMA load's */
    uint32_t lines[2];     /* source lines of the two sites (race) or of the two barriers
                              (divergent), or the line twice; layout: the wgmma's, the TMA's */
    const char *file;      /* source file of lines[0] as the PTX names it (NULL: no line info) */
    uint32_t address;      /* byte offset in the block's shared window */
    char var[128];         /* variable the address belongs to (oob: the nearest one), "" if none */
    uint64_t count;        /* how many times it was seen */
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
/* Two CTAs of a cluster access one shared byte unordered (kind race; its detail names the ranks:
 * "write-read between the CTAs of a cluster (ranks 0 and 1, in rank 0's shared memory)"). */
void smem_hazards_cluster_race(struct smem_hazard_tracker *t, const struct smem_cta_cluster_race *e);
/* The hazards found (one entry per distinct kind + pair of sites). */
unsigned smem_hazards_count(const struct smem_hazard_tracker *t);
const struct smem_hazard *smem_hazards_get(const struct smem_hazard_tracker *t, unsigned i);
void smem_hazards_free(struct smem_hazard_tracker *t);

/* "race", "barrier", "oob" or "layout". */
const char *smem_hazard_kind_name(enum smem_hazard_kind k);

#ifdef __cplusplus
}
#endif
#endif
