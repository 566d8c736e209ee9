/* harness.c: the timing every GPU benchmark shares (harness.h): warm-up, a wait, then each run
 * alone between two events; median, minimum and maximum. */
#include "smemlab/gpu/harness.h"

#include <assert.h>
#include <stdlib.h>

static int cmp_float(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

int smem_gpu_time_runs(struct smem_gpu *g, smem_gpu_event start, smem_gpu_event stop, int warmup,
                       int reps, smem_gpu_run_fn run, void *arg, struct smem_gpu_times *t)
{
    assert(reps >= 1 && warmup >= 0);
    for (int w = 0; w < warmup; ++w)
        if (run(arg, w))
            return SMEM_GPU_TIME_RUN;
    if (smem_gpu_sync(g))
        return SMEM_GPU_TIME_WARMUP;
    float *ms = malloc((size_t)reps * sizeof *ms);
    if (!ms)
        return SMEM_GPU_TIME_NOMEM;
    for (int r = 0; r < reps; ++r) {
        int st = smem_gpu_event_record(g, start) ? SMEM_GPU_TIME_EVENT
                 : run(arg, r)                   ? SMEM_GPU_TIME_RUN
                 : smem_gpu_event_record(g, stop) || smem_gpu_event_elapsed(g, start, stop, &ms[r])
                     ? SMEM_GPU_TIME_EVENT
                     : SMEM_GPU_TIMED;
        if (st) {
            free(ms);
            return st;
        }
    }
    qsort(ms, (size_t)reps, sizeof *ms, cmp_float);
    t->reps = reps;
    t->median_ms = reps % 2 ? ms[reps / 2] : 0.5 * ((double)ms[reps / 2 - 1] + ms[reps / 2]);
    t->min_ms = ms[0];
    t->max_ms = ms[reps - 1];
    free(ms);
    return SMEM_GPU_TIMED;
}
