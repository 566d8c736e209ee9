/* bench.h: an experiment of the registry (experiments.h) on the GPU: fresh inputs, outputs
 * poisoned, one launch, every element verified against its CPU reference; then timed through the
 * GPU harness (smemlab/gpu/harness.h) and, for the carveout experiment, swept over the L1/shared
 * splits. `smemlab bench` prints what these fill in. */
#ifndef SMEMLAB_LAB_BENCH_H
#define SMEMLAB_LAB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/gpu/gpu.h"
#include "smemlab/lab/experiments.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_BENCH_CARVEOUTS 5 /* the shared-memory carveouts swept: 0, 25, 50, 75, 100 percent */
#define SMEM_BENCH_MAX_RACY 8  /* runs of a racy experiment, each result kept */
#define SMEM_BENCH_WARMUP 5    /* untimed launches before the timed ones */

struct smem_bench_carveout {
    int percent, verified, blocks_observed, blocks_api;
    double time_ms; /* < 0: not timed */
};

/* One experiment's run on the device. */
struct smem_bench_run {
    const char *skip; /* why it was not run (NULL: it ran) */
    int verified;     /* 1 every run matched, 0 a mismatch or a GPU error */
    char error[600];
    int racy[SMEM_BENCH_MAX_RACY];
    unsigned nracy;
    double time_ms, time_min_ms, time_max_ms; /* < 0: not timed */
    double bandwidth, ratio;                  /* bytes/s and fraction of peak; 0: not applicable */
    struct smem_bench_carveout carve[SMEM_BENCH_CARVEOUTS];
    unsigned ncarve;
    int static_smem, regs;
};

/* The built modules (DIR/<file stem>.fatbin), each loaded once; zero-initialised to start. */
struct smem_bench_modules {
    const char *file[32];
    smem_gpu_module mod[32];
    unsigned n;
};
void smem_bench_modules_unload(struct smem_gpu *g, struct smem_bench_modules *mc);

/* Verifies e on the device (racy ones SMEM_BENCH_MAX_RACY times) and, when reps > 0, times it:
 * the median of reps launches after SMEM_BENCH_WARMUP; at scale, the shared-memory bandwidth and
 * its fraction of the device's peak. r starts zeroed; *rng is the inputs' xorshift state. */
void smem_bench_run_experiment(struct smem_gpu *g, struct smem_bench_modules *mc, const char *dir,
                               const struct smem_experiment *e, unsigned reps,
                               struct smem_bench_run *r, uint64_t *rng);

/* e once, verified, and nothing else (the launches Nsight Compute counts). 0, or -1 with why in
 * err ("" when there is nothing to say: out of memory). */
int smem_bench_verify_once(struct smem_gpu *g, struct smem_bench_modules *mc, const char *dir,
                           const struct smem_experiment *e, uint64_t *rng, char *err, size_t n);

#ifdef __cplusplus
}
#endif
#endif
