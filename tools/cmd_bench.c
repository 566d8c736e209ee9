/* cmd_bench.c: `smemlab bench`: every experiment of the registry on the GPU. Verified against its CPU
 * reference first (fresh inputs, outputs poisoned, every element checked), then timed (CUDA events,
 * median after warm-up) and counted (Nsight Compute on this same program), beside the prediction. */
#include "bench.h"
#include "cli.h"
#include "smemlab/gpu/sol.h"
#include "smemlab/lab/predict.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- The prediction ------------------------------------------------------------------------------
 * The analyzer runs e's kernel from the PTX built beside the fatbins (cli_kernels_dir), on the same
 * launch and integer arguments; its requests and wavefronts are summed over every block, the numbers
 * Nsight Compute counts for the same launch. */
static struct smem_predictor *predictor;

static int bench_predict(const struct smem_experiment *e, struct counts *p, char *why, size_t n)
{
    struct smem_prediction pr;
    struct smem_error err;
    memset(p, 0, sizeof *p);
    memset(&err, 0, sizeof err);
    if (!predictor) {
        snprintf(why, n, "not available: no kernels folder");
        return -1;
    }
    /* At-scale launches repeat one block's work thousands of times: one sampled block is exact
     * and keeps the emulation to a fraction of a second (64 took minutes for all of them). */
    if (smem_predict(predictor, e, e->role == SMEM_EXP_SCALE ? 1 : 64, &pr, &err)) {
        char buf[700];
        snprintf(why, n, "not available: %s", smem_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (!pr.complete) {
        snprintf(why, n, "not available: the addresses depend on data");
        return -1;
    }
    if (pr.ld.unknown_requests || pr.st.unknown_requests) {
        /* requests are known, their cost is not: never print a guessed wavefront count */
        snprintf(why, n, "not available: %llu requests have data-dependent addresses",
                 (unsigned long long)(pr.ld.unknown_requests + pr.st.unknown_requests));
        return -1;
    }
    p->ld_requests = pr.ld.requests;
    p->ld_wavefronts = pr.ld.wavefronts;
    p->st_requests = pr.st.requests;
    p->st_wavefronts = pr.st.wavefronts;
    return 0;
}

/* ---- Command line -------------------------------------------------------------------------------*/

static void usage(FILE *f)
{
    fputs("usage: smemlab bench [EXPERIMENT...] [--format table|json|csv] [--reps N]\n"
          "                     [--no-counters] [--no-time] [--device N] [--list]\n"
          "       smemlab bench transpose|reduce [options]   (speed-of-light benchmarks)\n\n"
          "Runs the experiments on the GPU: each is verified against its CPU reference (fresh\n"
          "random inputs, outputs poisoned, every element checked), then timed (median of N\n"
          "CUDA-event-timed launches after warm-up; at-scale versions give shared-memory\n"
          "bandwidth and its fraction of the device's peak) and counted (shared ld/st requests\n"
          "and wavefronts from Nsight Compute, beside the analyzer's prediction).\n\n"
          "EXPERIMENT: a name (square/setRowReadCol), a kernel file (square), or a kernel name\n"
          "(setRowReadCol: every file's); none = all.\n"
          "  --reps N        timed launches per experiment (default 50)\n"
          "  --no-counters   skip the Nsight Compute pass\n"
          "  --no-time       verify (and count) only\n"
          "  --device N      CUDA device ordinal (default 0)\n"
          "  --list          list the experiments and exit (no GPU needed)\n"
          "Environment: SMEMLAB_KERNELS (built kernels), SMEMLAB_NCU (ncu executable).\n"
          "Exit: 0 all verified, 1 a result was wrong, 2 usage, 4 no usable GPU or kernels.\n",
          f);
}

/* Adds every experiment `sel` names to chosen[]; returns how many it matched. */
static size_t select_experiments(const char *sel, unsigned char *chosen)
{
    size_t hits = 0, sl = strlen(sel);
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        size_t stem = strlen(e->file) - 3;
        int match = !strcmp(e->name, sel) || !strcmp(e->kernel, sel) ||
                    ((sl == stem || (sl == stem + 1 && sel[stem] == '/')) &&
                     !strncmp(e->file, sel, stem));
        if (match) {
            chosen[i] = 1;
            hits++;
        }
    }
    return hits;
}

static void list_experiments(FILE *f, const unsigned char *chosen)
{
    fprintf(f, "%-44s %3s %-9s %-26s %s\n", "experiment", "row", "role", "H100 counterpart",
            "shows");
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (!chosen[i])
            continue;
        char hw[80] = "-";
        if (e->hw_section)
            snprintf(hw, sizeof hw, "%s/%s", e->hw_section, e->hw_kernel);
        fprintf(f, "%-44s %3u %-9s %-26s %s%s\n", e->name, e->row,
                e->role == SMEM_EXP_DOC ? "documents" : "scale", hw, e->shows ? e->shows : "",
                (e->flags & SMEM_EXP_NO_GPU) ? " [not launched]" : "");
    }
}

int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "transpose"))
        return bench_transpose(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "reduce"))
        return bench_reduce(argc - 1, argv + 1);

    struct options o = {.format = FMT_TABLE, .reps = DEFAULT_REPS, .counters = 1, .timing = 1};
    size_t count = smem_experiment_count();
    unsigned char *chosen = calloc(count, 1);
    if (!chosen)
        return EXIT_USAGE;
    int any = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(chosen);
            return EXIT_OK;
        } else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc || (o.format = cli_parse_format(argv[++i])) < 0) {
                free(chosen);
                return cli_usage_error("bench", "--format takes table, json or csv");
            }
        } else if (!strcmp(a, "--reps")) {
            if (i + 1 >= argc || cli_parse_uint(argv[++i], 100000, &v) || v == 0) {
                free(chosen);
                return cli_usage_error("bench", "--reps takes a count from 1 to 100000");
            }
            o.reps = (unsigned)v;
        } else if (!strcmp(a, "--device")) {
            if (i + 1 >= argc || cli_parse_uint(argv[++i], 1024, &v)) {
                free(chosen);
                return cli_usage_error("bench", "--device takes a device ordinal");
            }
            o.device = (int)v;
        } else if (!strcmp(a, "--no-counters")) {
            o.counters = 0;
        } else if (!strcmp(a, "--no-time")) {
            o.timing = 0;
        } else if (!strcmp(a, "--list")) {
            o.list = 1;
        } else if (!strcmp(a, "--counters-child")) {
            o.child = 1; /* internal: the launches Nsight Compute counts */
        } else if (a[0] == '-') {
            free(chosen);
            return cli_unknown_option("bench", a, NULL);
        } else {
            if (!select_experiments(a, chosen)) {
                free(chosen);
                return cli_usage_error("bench", "no experiment named '%s' (smemlab bench --list)", a);
            }
            any = 1;
        }
    }
    if (!any)
        memset(chosen, 1, count);
    if (o.list) {
        list_experiments(stdout, chosen);
        free(chosen);
        return EXIT_OK;
    }

    char dir[4096];
    if (cli_kernels_dir(dir, sizeof dir)) {
        fprintf(stderr, "smemlab bench: the GPU kernels are missing: build them with nvcc present "
                        "(make), or point SMEMLAB_KERNELS at a kernels folder\n");
        free(chosen);
        return EXIT_NO_GPU;
    }
    char err[600];
    struct smem_gpu *g = NULL;
    if (smem_gpu_open(o.device, &g, err, sizeof err)) {
        fprintf(stderr, "smemlab bench: %s\n", err);
        free(chosen);
        return EXIT_NO_GPU;
    }
    const struct smem_gpu_info *gi = smem_gpu_info(g);
    predictor = smem_predictor_new(dir);

    size_t n = 0;
    struct result *rs = calloc(count, sizeof *rs);
    if (!rs) {
        smem_gpu_close(g);
        free(chosen);
        return EXIT_NO_GPU;
    }
    for (size_t i = 0; i < count; i++)
        if (chosen[i])
            rs[n++].e = smem_experiment_at(i);
    free(chosen);

    if (o.child) { /* internal: each experiment once, verified, for ncu to count */
        struct smem_bench_modules mc = {0};
        uint64_t rng = (uint64_t)time(NULL) | 1;
        int rc = EXIT_OK;
        for (size_t i = 0; i < n && rc == EXIT_OK; i++) {
            char why[800];
            if (smem_bench_verify_once(g, &mc, dir, rs[i].e, &rng, why, sizeof why)) {
                if (*why)
                    fprintf(stderr, "smemlab bench (counters): %s\n", why);
                rc = EXIT_CHECK;
            }
        }
        smem_bench_modules_unload(g, &mc);
        free(rs);
        smem_gpu_close(g);
        return rc;
    }

    fprintf(stderr, "smemlab bench: %s, %zu experiments, %u timed launches each\n", gi->name, n,
            o.reps);
    struct smem_bench_modules mc = {0};
    uint64_t rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull | 1;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct result *r = &rs[i];
        smem_bench_run_experiment(g, &mc, dir, r->e, o.timing ? o.reps : 0, &r->run, &rng);
        if (!r->run.skip && !r->run.verified)
            failed++;
        r->predicted.have = !bench_predict(r->e, &r->predicted, r->predicted_why,
                                           sizeof r->predicted_why);
        /* The bank model's time: every SM's shared-memory pipe passing one wavefront a clock and
         * nothing else in the way. Only meaningful where the launch fills the GPU and its addresses
         * are known (not the carveout's data-dependent chase, which is latency-bound anyway). */
        if (r->e->role == SMEM_EXP_SCALE && !(r->e->flags & SMEM_EXP_CARVEOUT) &&
            r->predicted.have && gi->sms > 0 && gi->sm_clock_khz > 0)
            r->model_ms = (double)(r->predicted.ld_wavefronts + r->predicted.st_wavefronts) /
                          ((double)gi->sms * gi->sm_clock_khz);
        fprintf(stderr, "[%zu/%zu] %-44s %s", i + 1, n, r->e->name,
                r->run.skip ? "skipped" : r->run.verified ? "verified" : "FAILED");
        if (r->run.time_ms >= 0)
            fprintf(stderr, ", %.2f us", r->run.time_ms * 1e3);
        if (r->run.bandwidth > 0)
            fprintf(stderr, ", %.2f TB/s (%.3f of peak)", r->run.bandwidth / 1e12, r->run.ratio);
        if (r->model_ms > 0)
            fprintf(stderr, ", model %.2f us", r->model_ms * 1e3);
        if (!r->run.skip && !r->run.verified)
            fprintf(stderr, ": %s", r->run.error);
        fputc('\n', stderr);
    }
    smem_bench_modules_unload(g, &mc);

    char note[700] = "";
    if (o.counters) {
        if (bench_collect_counters(rs, n, &o, note, sizeof note))
            fprintf(stderr, "smemlab bench: %s\n", note);
        else if (*note)
            fprintf(stderr, "smemlab bench: %s\n", note);
    } else {
        snprintf(note, sizeof note, "not collected (--no-counters)");
    }

    char driver[64];
    smem_sol_driver_release(driver, sizeof driver);
    if (o.format == FMT_JSON)
        bench_print_json(stdout, gi, driver, rs, n, note);
    else if (o.format == FMT_CSV)
        bench_print_csv(stdout, rs, n);
    else
        bench_print_table(stdout, gi, driver, rs, n, note);
    free(rs);
    smem_gpu_close(g);
    smem_predictor_free(predictor);
    predictor = NULL;
    if (failed)
        fprintf(stderr, "smemlab bench: %d experiment%s FAILED verification\n", failed,
                failed == 1 ? "" : "s");
    return failed ? EXIT_CHECK : EXIT_OK;
}

