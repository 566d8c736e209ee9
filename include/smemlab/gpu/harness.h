/* harness.h: how every GPU benchmark of smemlab times what it has verified: untimed warm-up runs,
 * then each timed run alone between a pair of CUDA events on the default stream, and the median,
 * minimum and maximum of those times. The speed-of-light runners (sol.h) and the experiments'
 * bench (smemlab/lab/bench.h) both time through it; each verifies its own results first. */
#ifndef SMEMLAB_GPU_HARNESS_H
#define SMEMLAB_GPU_HARNESS_H

#include "smemlab/gpu/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One thing timed: run(arg, i) issues it once, asynchronously (the i-th warm-up run, then the
 * i-th timed run, each counted from 0); 0, or nonzero when it failed. */
typedef int (*smem_gpu_run_fn)(void *arg, int i);

struct smem_gpu_times {
    int reps;                          /* timed runs */
    double median_ms, min_ms, max_ms;  /* the median of an even count: the mean of the middle two */
};

/* What smem_gpu_time_runs returns: where it stopped. */
enum smem_gpu_time_status {
    SMEM_GPU_TIMED = 0,     /* *t filled */
    SMEM_GPU_TIME_RUN,      /* run() failed (what it reported stands) */
    SMEM_GPU_TIME_WARMUP,   /* waiting for the warm-up runs failed (smem_gpu_error says why) */
    SMEM_GPU_TIME_NOMEM,    /* no host memory for the times */
    SMEM_GPU_TIME_EVENT     /* recording or reading an event failed (smem_gpu_error says why) */
};

/* warmup untimed runs, a wait for them, then reps runs (reps >= 1) each between `start` and `stop`
 * (events the caller created). */
int smem_gpu_time_runs(struct smem_gpu *g, smem_gpu_event start, smem_gpu_event stop, int warmup,
                       int reps, smem_gpu_run_fn run, void *arg, struct smem_gpu_times *t);

#ifdef __cplusplus
}
#endif
#endif
