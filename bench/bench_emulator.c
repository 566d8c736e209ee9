/* bench_emulator.c: how fast the emulator runs. First a set of kernels, every block emulated
 * (the library's launch path, no block standing for others), on one thread and on every core,
 * with and without hazard tracking: a 128x128-tile GEMM of our own (bench/bench_kernels.cu), llm.c's
 * matmul_forward_kernel4 when SMEMLAB_LLMC_PTX names its PTX (nvcc -ptx -arch=sm_90 -lineinfo -O3
 * of llm.c's dev/cuda/matmul_forward.cu; "skipped" otherwise), the documents' reductions and
 * transposes (kernels/), a 32-way conflict probe and a kernel made of barriers. Then every
 * experiment of the registry as analyze runs it (a proven block standing for all). Prints
 * figures; asserts nothing. Usage: bench_emulator [KERNELS_DIR [BENCH_DIR]] (default
 * build/kernels build/bench). */
#include "smemlab/analysis/parallel.h"
#include "smemlab/base/text.h"
#include "smemlab/lab/predict.h"
#include "smemlab/ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct bench_kernel {
    const char *label;
    const char *dir_env;     /* NULL: the file is in dirs[dir] */
    int dir;                 /* 0: kernels, 1: bench */
    const char *file, *kernel;
    unsigned block[3], grid[3];
    int np;
    struct { unsigned idx; uint64_t v; } params[4];
};

static const struct bench_kernel kernels[] = {
    {"GEMM 128x128 tile (ours), C=768 OC=2304", NULL, 1, "bench_kernels.ptx", "gemm_tile128",
     {16, 16, 1}, {8, 8, 1}, 2, {{3, 768}, {4, 2304}}},
    {"llm.c matmul_forward_kernel4, C=768 OC=2304", "SMEMLAB_LLMC_PTX", 0, NULL,
     "_Z22matmul_forward_kernel4PfPKfS1_S1_ii", {16, 16, 1}, {8, 8, 1}, 2, {{4, 768}, {5, 2304}}},
    {"reduce_interleaved (documents)", NULL, 0, "reduce.ptx", "reduce_interleaved",
     {1024, 1, 1}, {64, 1, 1}, 0, {{0, 0}}},
    {"reduce_sequential (documents)", NULL, 0, "reduce.ptx", "reduce_sequential",
     {1024, 1, 1}, {64, 1, 1}, 0, {{0, 0}}},
    {"transpose 32x32 tile f32, 1024x1024", NULL, 0, "sol_transpose.ptx",
     "sol_transpose_tile_f32", {32, 8, 1}, {32, 32, 1}, 2, {{2, 1024}, {3, 1024}}},
    {"transpose padded f32, 1024x1024", NULL, 0, "sol_transpose.ptx", "sol_transpose_pad_f32",
     {32, 8, 1}, {32, 32, 1}, 2, {{2, 1024}, {3, 1024}}},
    {"conflict-heavy: 32-way probe, 64 reps", NULL, 0, "scale.ptx", "smemRead32_way32",
     {1024, 1, 1}, {16, 1, 1}, 1, {{1, 64}}},
    {"many barriers: 2 x 200 per thread", NULL, 1, "bench_kernels.ptx", "barrier_storm",
     {256, 1, 1}, {64, 1, 1}, 1, {{1, 200}}},
};

/* One launch, every block; the best of a few runs when short. Returns wall seconds, or -1. */
static double run_one(const struct smem_cta_program *p, const struct smem_launch *l,
                      unsigned jobs, int hazards, uint64_t *steps, double *cpu)
{
    struct smem_launch_options o;
    memset(&o, 0, sizeof o);
    o.banks = smem_banks_default();
    o.price = 1;
    o.hazards = hazards;
    struct smem_parallel par;
    memset(&par, 0, sizeof par);
    par.jobs = jobs;
    double best = -1, spent = 0;
    for (int rep = 0; rep < 5 && spent < 1.0; rep++) {
        struct smem_kernel_report k;
        struct smem_cta_result res;
        struct smem_error err;
        memset(&k, 0, sizeof k);
        memset(&err, 0, sizeof err);
        double t0 = now(), c0 = cpu_now();
        int rc = smem_launch_analyze_parallel(p, l, &o, &par, &k, &res, &err);
        double t = now() - t0, c = cpu_now() - c0;
        smem_kernel_report_clear(&k);
        if (rc) {
            fprintf(stderr, "  %s\n", err.msg);
            return -1;
        }
        *steps = res.steps;
        if (best < 0 || t < best) {
            best = t;
            *cpu = c;
        }
        spent += t;
    }
    return best;
}

static void bench_kernels(const char *dirs[2])
{
    printf("kernels, every block emulated: M thread-instructions; rate in M thread-instructions/s "
           "(wall, best of up to 5 runs) on 1 thread and on %u threads; hazard tracking's cost on 1 "
           "thread\n", smem_parallel_jobs(0));
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const struct bench_kernel *b = &kernels[i];
        char path[1024];
        if (b->dir_env) {
            const char *e = getenv(b->dir_env);
            if (!e || !*e) {
                printf("  %-44s skipped (set %s to its PTX)\n", b->label, b->dir_env);
                continue;
            }
            snprintf(path, sizeof path, "%s", e);
        } else {
            snprintf(path, sizeof path, "%s/%s", dirs[b->dir], b->file);
        }
        size_t len = 0;
        char *text = smem_read_file(path, &len);
        struct smem_ptx_module *m = NULL;
        struct smem_cta_program *p = NULL;
        struct smem_error err;
        memset(&err, 0, sizeof err);
        const struct smem_ptx_func *f = NULL;
        if (!text || smem_ptx_parse(text, len, path, &m, &err) || !(f = smem_ptx_find(m, b->kernel)) ||
            smem_cta_prepare(m, f, 0, &p, &err)) {
            printf("  %-44s skipped (%s: %s)\n", b->label, path, text ? err.msg : "cannot read");
            free(text);
            smem_ptx_free(m);
            continue;
        }
        struct smem_param_value pv[16];
        memset(pv, 0, sizeof pv);
        for (int j = 0; j < b->np; j++) {
            pv[b->params[j].idx].set = 1;
            pv[b->params[j].idx].bits = b->params[j].v;
        }
        struct smem_launch l;
        memset(&l, 0, sizeof l);
        memcpy(l.block, b->block, sizeof l.block);
        memcpy(l.grid, b->grid, sizeof l.grid);
        l.params = pv;
        l.nparams = f->nparams < 16 ? f->nparams : 16;
        uint64_t steps = 0;
        double c1, cn, ch, cha;
        double t1 = run_one(p, &l, 1, 0, &steps, &c1);
        double tn = run_one(p, &l, 0, 0, &steps, &cn);
        double th = run_one(p, &l, 1, 1, &steps, &ch);
        double tha = run_one(p, &l, 0, 1, &steps, &cha);
        if (t1 > 0 && tn > 0 && th > 0 && tha > 0)
            printf("  %-44s %4llu blocks %8.1f M   1 thread %7.1f M/s   all %7.1f M/s   "
                   "hazards: 1 thread %7.1f M/s, all %7.1f M/s (%+.0f %%)\n",
                   b->label, (unsigned long long)b->grid[0] * b->grid[1] * b->grid[2],
                   (double)steps / 1e6, (double)steps / t1 / 1e6, (double)steps / tn / 1e6,
                   (double)steps / th / 1e6, (double)steps / tha / 1e6, 100.0 * (th - t1) / t1);
        smem_cta_program_free(p);
        smem_ptx_free(m);
        free(text);
    }
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
    const char *dirs[2] = {dir, argc > 2 ? argv[2] : "build/bench"};
    bench_kernels(dirs);
    unsigned n;
    double emu;
    uint64_t steps;
    double w1 = run_docs(dir, 1, &n, &emu, &steps);
    printf("as analyze runs them (a block standing for all where proven; steps count every block):\n"
           "every kernel of kernels/ (the registry's %u documents' experiments), one block each: "
           "%.3f s wall, emulation %.3f s, %.1f M thread-instructions (%.1f M/s); PTX read and "
           "parsed once per file, nvcc excluded\n",
           n, w1, emu, (double)steps / 1e6, emu > 0 ? (double)steps / emu / 1e6 : 0.0);
    double wa = run_docs(dir, 0, &n, &emu, &steps);
    printf("the same with their whole launches (reductions and Racey on 1024 blocks, as the H100 "
           "measured them): %.3f s wall, emulation %.3f s, %.1f M thread-instructions (%.1f M/s "
           "effective: blocks standing for others count as run)\n",
           wa, emu, (double)steps / 1e6, emu > 0 ? (double)steps / emu / 1e6 : 0.0);
    return 0;
}
