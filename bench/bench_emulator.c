/* bench_emulator.c: how fast the analyzer runs: every experiment of the registry (the documents'
 * configurations, every block) analysed from the PTX built of kernels/, nvcc excluded; and the
 * emulator's rate in thread-instructions per second. Prints figures; asserts nothing. */
#include "smemlab/lab/predict.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Analyses every DOC experiment (max_blocks 0: the whole launch); returns wall seconds. */
static double run_docs(const char *dir, unsigned max_blocks, unsigned *n, double *emu, uint64_t *steps)
{
    struct smem_predictor *p = smem_predictor_new(dir);
    double t0 = now();
    *n = 0;
    *emu = 0;
    *steps = 0;
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->role != SMEM_EXP_DOC)
            continue;
        struct smem_prediction r;
        struct smem_error err;
        if (smem_predict(p, e, max_blocks, &r, &err)) {
            fprintf(stderr, "%s: %s\n", e->name, err.msg);
            continue;
        }
        *emu += r.seconds;
        *steps += r.steps;
        (*n)++;
    }
    double t = now() - t0;
    smem_predictor_free(p);
    return t;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "build/kernels";
    unsigned n;
    double emu;
    uint64_t steps;
    double w1 = run_docs(dir, 1, &n, &emu, &steps);
    printf("every kernel of kernels/ (the registry's %u documents' experiments), one block each: "
           "%.3f s wall, emulation %.3f s, %.1f M thread-instructions (%.1f M/s); PTX read and "
           "parsed once per file, nvcc excluded\n",
           n, w1, emu, (double)steps / 1e6, emu > 0 ? (double)steps / emu / 1e6 : 0.0);
    double wa = run_docs(dir, 0, &n, &emu, &steps);
    printf("the same with their whole launches (reductions and Racey on 1024 blocks, as the H100 "
           "measured them): %.3f s wall, emulation %.3f s, %.1f M thread-instructions (%.1f M/s)\n",
           wa, emu, (double)steps / 1e6, emu > 0 ? (double)steps / emu / 1e6 : 0.0);
    return 0;
}
