/* parallel.h: one launch's blocks spread over threads. The blocks the launch runs (every block,
 * or the sample) are cut into chunks of consecutive blocks that worker threads take in turn; each
 * chunk is analysed on its own (smem_launch_analyze) and the chunks are merged in block order up
 * to the first that failed or stopped incomplete, as one thread running them in order would have
 * stopped there: the report does not depend on the number of threads. `analyze` (--jobs) and
 * `smemlab run` (src/runtime/rt_exec.c) both run launches through it. */
#ifndef SMEMLAB_PARALLEL_H
#define SMEMLAB_PARALLEL_H

#include <stdint.h>

#include "smemlab/analysis/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smem_parallel {
    unsigned jobs;          /* threads; 0: one per online core */
    /* optional, called on the worker thread before chunk i runs with *l, a copy of the launch
     * whose block_first / block_count select the chunk's blocks: the caller may change it (the
     * runtime gives each chunk its own fault sink) */
    void (*setup)(void *ctx, uint64_t chunk, struct smem_launch *l);
    /* optional, called in block order on the calling thread for each chunk merged, and for
     * the chunk that failed (what the caller's setup gave it saw what happened up to there) */
    void (*merged)(void *ctx, uint64_t chunk);
    void *ctx;
};

/* The threads jobs stands for (0: the online cores), at most 256. */
unsigned smem_parallel_jobs(unsigned jobs);

/* How many chunks a launch running nblocks blocks is cut into with `jobs` threads (1 when
 * jobs <= 1): the index range setup and merged see. */
uint64_t smem_parallel_chunks(uint64_t nblocks, unsigned jobs);

/* smem_launch_analyze over the blocks of l, on smem_parallel_jobs(par->jobs) threads (par may
 * be NULL: one). With o->record (the trace) it runs on one thread. k as smem_launch_analyze
 * leaves it (k->seconds: the wall time); *res: steps and blocks summed, complete and unknown from
 * the first incomplete block. Returns 0, or -1 with err from the first chunk that failed. */
int smem_launch_analyze_parallel(const struct smem_cta_program *p, const struct smem_launch *l,
                                 const struct smem_launch_options *o,
                                 const struct smem_parallel *par, struct smem_kernel_report *k,
                                 struct smem_cta_result *res, struct smem_error *err);

#ifdef __cplusplus
}
#endif
#endif
