/* bench.h: what the parts of `smemlab bench` share: one experiment's result, the options, and the
 * entry points of the device runner (bench_device.c), the Nsight Compute pass (bench_counters.c)
 * and the writers (bench_output.c). The command line is cmd_bench.c. */
#ifndef SMEMLAB_TOOLS_BENCH_H
#define SMEMLAB_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smemlab/gpu/gpu.h"
#include "smemlab/lab/experiments.h"

#define MAX_CARVEOUTS 5
#define MAX_RACY 8
#define WARMUP 5
#define DEFAULT_REPS 50

/* Shared-memory requests and wavefronts of one launch (the analyzer's and Nsight Compute's). */
struct counts {
    int have;
    unsigned long long ld_requests, ld_wavefronts, st_requests, st_wavefronts;
    /* measured only: l1tex wavefronts and the bank-conflict counters, for the record */
    unsigned long long ld_wf_l1tex, st_wf_l1tex, ld_conflicts, st_conflicts;
    long long atom_requests; /* shared atomics (-1: not counted) */
};

struct carveout_result {
    int percent, verified, blocks_observed, blocks_api;
    double time_ms;
};

struct result {
    const struct smem_experiment *e;
    const char *skip; /* why it was not run (NULL: it ran) */
    int verified;     /* 1 every run matched, 0 a mismatch or a GPU error */
    char error[600];
    int racy[MAX_RACY];
    unsigned nracy;
    double time_ms, time_min_ms, time_max_ms; /* < 0: not timed */
    double bandwidth, ratio;                  /* bytes/s and fraction of peak; 0: not applicable */
    double model_ms; /* SCALE: predicted wavefronts / (SMs x SM clock); 0: no prediction */
    struct counts predicted, measured;
    char predicted_why[160];
    struct carveout_result carve[MAX_CARVEOUTS];
    unsigned ncarve;
    int static_smem, regs;
};

struct options {
    int format;
    unsigned reps;
    int counters, timing, list, child, device;
};

/* The built modules, loaded once each. */
struct module_cache {
    const char *file[32];
    smem_gpu_module mod[32];
    unsigned n;
};

/* bench_device.c: verifies, times (and for the carveout experiment, sweeps) r->e on the device. */
void bench_run_experiment(struct smem_gpu *g, struct module_cache *mc, const char *dir,
                          const struct options *o, struct result *r, uint64_t *rng);
void bench_unload_all(struct smem_gpu *g, struct module_cache *mc);
/* The hidden child mode: each experiment once, verified, for ncu to count. Returns an exit code. */
int bench_counters_child(struct smem_gpu *g, const char *dir, const struct result *rs, size_t n);
/* The NVIDIA driver's version string ("580.159.04"), or "" when unknown. */
void bench_driver_string(char *out, size_t n);

/* bench_counters.c: Nsight Compute over the child mode; fills r->measured. 0, or -1 with why. */
int bench_collect_counters(struct result *rs, size_t n, const struct options *o, char *why,
                           size_t wn);

/* bench_output.c */
void bench_print_json(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                      const struct result *rs, size_t n, const char *counters_note);
void bench_print_csv(FILE *f, const struct result *rs, size_t n);
void bench_print_table(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                       const struct result *rs, size_t n, const char *counters_note);

#endif
