/* bench_hazards.c: what hazard tracking costs the emulator. Emulates one kernel launch with and
 * without it (PTX compiled once, best CPU time of several runs) and prints both and the overhead.
 * Usage: bench_hazards [FILE.cu KERNEL BLOCK GRID [RUNS]]; default: kernels/reduce.cu
 * reduce_sequential, 1024 threads x 64 blocks (tests/hazards/warpreduce.cu reduceWarpSync,
 * 256 x 256, while kernels/ is absent). Needs nvcc. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "smemlab/analysis/analyze.h"

/* CPU time of this process: steadier than wall time on a shared machine */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int run(const char *ptx, size_t len, const char *path, struct smem_analyze_options *o,
               int hazards, double *seconds, struct smem_kernel_report *out)
{
    struct smem_analysis *an = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    o->hazards = hazards;
    double t0 = cpu_seconds();
    int rc = smem_analyze_ptx(ptx, len, "<nvcc output>", path, o, &an, &err);
    *seconds = cpu_seconds() - t0; /* parsing the PTX is in both: small and the same */
    if (rc) {
        char buf[1200];
        fprintf(stderr, "bench_hazards: %s\n", smem_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (an->nkernels != 1) {
        fprintf(stderr, "bench_hazards: %u kernels matched\n", an->nkernels);
        smem_analysis_free(an);
        return -1;
    }
    const struct smem_kernel_report *k = &an->kernels[0];
    out->steps = k->steps;
    out->blocks_run = k->blocks_run;
    out->complete = k->complete;
    out->nhazards = k->nhazards;
    out->ld = k->ld;
    out->st = k->st;
    out->atom = k->atom;
    smem_analysis_free(an);
    return 0;
}

int main(int argc, char **argv)
{
    struct stat st;
    int have_kernels = !stat(SMEMLAB_SOURCE_DIR "/kernels/reduce.cu", &st);
    const char *path = have_kernels ? SMEMLAB_SOURCE_DIR "/kernels/reduce.cu"
                                    : SMEMLAB_SOURCE_DIR "/tests/hazards/warpreduce.cu";
    const char *kernel = have_kernels ? "reduce_sequential" : "reduceWarpSync";
    unsigned block = have_kernels ? 1024 : 256, grid = have_kernels ? 64 : 256, runs = 3;
    if (argc >= 5) {
        path = argv[1];
        kernel = argv[2];
        block = (unsigned)strtoul(argv[3], NULL, 10);
        grid = (unsigned)strtoul(argv[4], NULL, 10);
    } else if (argc != 1) {
        fprintf(stderr, "usage: bench_hazards [FILE.cu KERNEL BLOCK GRID [RUNS]]\n");
        return 2;
    }
    if (argc >= 6)
        runs = (unsigned)strtoul(argv[5], NULL, 10);
    if (!block || !grid || !runs) {
        fprintf(stderr, "bench_hazards: BLOCK, GRID and RUNS must be positive\n");
        return 2;
    }
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = kernel;
    o.all_blocks = 1; /* every block emulated, on one thread: the cost per thread-instruction */
    o.jobs = 1;
    o.block[0] = block;
    o.block[1] = o.block[2] = 1;
    o.grid[0] = grid;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    size_t len = 0;
    char *ptx = smem_compile_cu(path, &o, &len, &err);
    if (!ptx) {
        char buf[1200];
        fprintf(stderr, "bench_hazards: %s\n", smem_error_format(&err, buf, sizeof buf));
        return 3;
    }
    double best[2] = {1e30, 1e30};
    struct smem_kernel_report k[2];
    memset(k, 0, sizeof k);
    for (unsigned r = 0; r < runs; r++)
        for (int h = 0; h < 2; h++) {
            double s;
            if (run(ptx, len, path, &o, h, &s, &k[h])) {
                free(ptx);
                return 3;
            }
            if (s < best[h])
                best[h] = s;
        }
    free(ptx);
    /* both runs must have emulated the same work, to its end */
    if (k[0].steps != k[1].steps || !k[0].complete || !k[1].complete) {
        fprintf(stderr, "bench_hazards: the two runs differ or stopped early\n");
        return 1;
    }
    uint64_t requests = k[0].ld.requests + k[0].st.requests + k[0].atom.requests;
    printf("%s %s: block %u, grid %u (%llu blocks emulated), %llu thread-instructions, %llu shared "
           "requests, %u hazards\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path, kernel,
           block, grid, (unsigned long long)k[0].blocks_run, (unsigned long long)k[0].steps,
           (unsigned long long)requests, k[1].nhazards);
    printf("  without hazards: %8.3f s CPU  (%.1f ns per thread-instruction)\n", best[0],
           1e9 * best[0] / (double)k[0].steps);
    printf("  with hazards:    %8.3f s CPU  (%.1f ns per thread-instruction)\n", best[1],
           1e9 * best[1] / (double)k[1].steps);
    printf("  overhead:        %+7.1f %%  (%.1f ns per shared request)  best of %u runs\n",
           100.0 * (best[1] - best[0]) / best[0],
           requests ? 1e9 * (best[1] - best[0]) / (double)requests : 0.0, runs);
    return 0;
}
