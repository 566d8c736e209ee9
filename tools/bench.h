/* bench.h: what the parts of `smemlab bench` share: one experiment's result (its run on the device,
 * smemlab/lab/bench.h, beside the prediction and Nsight Compute's counts), the options, and the
 * entry points of the Nsight Compute pass (bench_counters.c) and the writers (bench_output.c). The
 * command line is cmd_bench.c. */
#ifndef SMEMLAB_TOOLS_BENCH_H
#define SMEMLAB_TOOLS_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smemlab/gpu/gpu.h"
#include "smemlab/lab/bench.h"
#include "smemlab/lab/experiments.h"

#define DEFAULT_REPS 50

/* Shared-memory requests and wavefronts of one launch (the analyzer's and Nsight Compute's). */
struct counts {
    int have;
    unsigned long long ld_requests, ld_wavefronts, st_requests, st_wavefronts;
    /* measured only: l1tex wavefronts and the bank-conflict counters, for the record */
    unsigned long long ld_wf_l1tex, st_wf_l1tex, ld_conflicts, st_conflicts;
    long long atom_requests; /* shared atomics (-1: not counted) */
};

struct result {
    const struct smem_experiment *e;
    struct smem_bench_run run; /* verified, timed */
    double model_ms; /* SCALE: predicted wavefronts / (SMs x SM clock); 0: no prediction */
    struct counts predicted, measured;
    char predicted_why[160];
};

struct options {
    int format;
    unsigned reps;
    int counters, timing, list, child, device;
};

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
