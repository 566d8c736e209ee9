/* cmd_analyze.c: `smemlab analyze FILE.cu|FILE.ptx`: options in, report out. */
#include "cli.h"
#include "smemlab/base/text.h"
#include "smemlab/report/ci_findings.h"
#include "smemlab/report/report.h"
#include "smemlab/analysis/analyze.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void help(void)
{
    printf(
        "usage: smemlab analyze FILE.cu|FILE.ptx [options] [-- NVCC_ARGS...]\n\n"
        "Runs one thread block (or every block of a small grid) of each kernel on the CPU and\n"
        "reports, per source line, shared-memory requests, wavefronts and n-way bank conflicts\n"
        "as an H100 counts them (Nsight Compute's shared ld/st counters), plus hazards.\n\n"
        "launch:\n"
        "  --kernel NAME        a kernel: plain name, mangled symbol or demangled name\n"
        "                       (reduce4<int, 256u>); default every kernel. A template kernel\n"
        "                       the file does not instantiate is instantiated for the analysis:\n"
        "                       --kernel 'sgemm<128, 128, 8>' (the file's template kernels are\n"
        "                       listed when it has no other)\n"
        "  --block X[,Y[,Z]]    threads per block (default: the kernel's __launch_bounds__,\n"
        "                       else 256)\n"
        "  --grid X[,Y[,Z]]     blocks (default 1); every block is analysed\n"
        "  --sample-blocks N    analyse N blocks spread over the grid (totals cover those only)\n"
        "  --dyn-smem BYTES     dynamic shared memory (the launch's third argument)\n"
        "  --param NAME=VALUE   a scalar kernel parameter, by source name (as nvcc saw it:\n"
        "                       macros, templates), PTX name or position from 0 (repeatable);\n"
        "                       each must match a parameter of an analysed kernel (several\n"
        "                       kernels: every one that has it) with a value of its type, else\n"
        "                       exit 2 listing the parameters; unset scalars are unknown data\n"
        "  --max-steps N        thread-instructions per block before giving up (default 2e8)\n"
        "  --jobs N             threads for the blocks (default: every core; same results)\n"
        "  --all-blocks         emulate every block even when one is proven to stand for all\n"
        "compiling (.cu):\n"
        "  -I DIR, -D NAME[=V], -std=c++17   passed to nvcc, as is everything after --\n"
        "  --include-from FILE.cu  a header that does not compile alone is compiled through\n"
        "                       FILE.cu, which includes it (default: a .cu of the header's\n"
        "                       folder that includes it, named on stderr)\n"
        "  --arch sm_XX         target (default sm_90)\n"
        "model and output:\n"
        "  --banks N --bank-bytes B   bank geometry (default 32 x 4)\n"
        "  --format table|json|csv    (default table)\n"
        "  --html OUT.html      also write a self-contained page: kernels and sites by excess\n"
        "                       wavefronts, each conflicting site's SVG bank map beside its source\n"
        "                       line, hazards with both lines\n"
        "  --fail-on-conflict   exit 1 when any site has a bank conflict (for CI gates)\n"
        "  --fail-on-hazard     exit 1 when any hazard is found (race, barrier divergence, oob,\n"
        "                       layout, proxy-fence)\n"
        "  --sarif FILE, --junit FILE, --markdown FILE   also SARIF 2.1.0, JUnit XML (a test\n"
        "                       case a kernel), a Markdown summary (docs/ci.md)\n"
        "  --findings-csv FILE  also every finding (conflicts, hazards) as a CSV row each\n"
        "  --baseline REPORT    exit 1 only on what got worse than REPORT (a committed\n"
        "                       --format json report), each named; replaces the --fail-on checks\n"
        "  --source-root DIR    SARIF paths relative to DIR (a base name found once under it)\n"
        "  --fail-on-incomplete exit 1 when a kernel's analysis stopped before its end (a\n"
        "                       branch or address on data the analysis cannot know, --max-steps)\n"
        "  --no-hazards         skip hazard tracking (faster)\n\n"
        "exit: 0 ok, 1 check failed, 2 usage, 3 bad input (file, PTX, unsupported instruction)\n");
}

int cmd_analyze(int argc, char **argv)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.hazards = 1;
    o.sass_census = 1; /* ptxas's SASS against the PTX, line by line (analysis/census.h) */
    const char *path = NULL;
    int fmt = FMT_TABLE, fail_conflict = 0, fail_hazard = 0, fail_incomplete = 0;
    const char *html = NULL;
    struct smem_param_arg *params = calloc((size_t)argc, sizeof *params);
    const char **cargs = calloc((size_t)argc + 1, sizeof *cargs);
    struct cli_launch la = {params, 0, cargs, 0};
    int rc = EXIT_USAGE, lr, ci_opt;
    struct cli_ci ci = {0};
    if (!params || !cargs)
        goto out;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            help();
            rc = EXIT_OK;
            goto out;
        } else if ((lr = cli_launch_option("analyze", argc, argv, &i, &o, &la)) != 0) {
            if (lr < 0) {
                rc = EXIT_USAGE;
                goto out;
            }
        } else if (!strcmp(a, "--format") && v) {
            if ((fmt = cli_parse_format(v)) < 0) {
                rc = cli_usage_error("analyze", "--format %s: expected table, json or csv", v);
                goto out;
            }
            i++;
        } else if (!strcmp(a, "--html") && v) {
            html = v;
            i++;
        } else if (!strcmp(a, "--include-from") && v) {
            o.include_from = v;
            i++;
        } else if (!strcmp(a, "--fail-on-conflict")) {
            fail_conflict = 1;
        } else if (!strcmp(a, "--fail-on-hazard")) {
            fail_hazard = 1;
        } else if (!strcmp(a, "--fail-on-incomplete")) {
            fail_incomplete = 1;
        } else if (!strcmp(a, "--no-hazards")) {
            o.hazards = 0;
        } else if (!strcmp(a, "--all-blocks")) {
            o.all_blocks = 1;
        } else if ((ci_opt = cli_ci_option("analyze", argc, argv, &i, &ci)) != 0) {
            if (ci_opt < 0)
                goto out;
        } else if (a[0] == '-' && a[1]) {
            static const char *const valued[] = {"--kernel", "--block", "--grid", "--param",
                                                 "--format", "--include-from", NULL};
            rc = cli_unknown_option("analyze", a, valued);
            goto out;
        } else if (!path) {
            path = a;
        } else {
            rc = cli_usage_error("analyze", "one file at a time ('%s' and '%s')", path, a);
            goto out;
        }
    }
    if (!path) {
        rc = cli_usage_error("analyze", "which file? (smemlab analyze FILE.cu|FILE.ptx)");
        goto out;
    }
    if ((rc = cli_launch_apply("analyze", &o, &la)))
        goto out;
    o.hazards = o.hazards || fail_hazard;
    struct smem_analysis *an = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    int r = smem_analyze_file(path, &o, &an, &err);
    if (r) {
        rc = cli_library_error("analyze", r, &err);
        goto out;
    }
    if (html) {
        FILE *hf = fopen(html, "w");
        if (!hf) {
            fprintf(stderr, "smemlab analyze: cannot write %s\n", html);
            smem_analysis_free(an);
            rc = EXIT_INPUT;
            goto out;
        }
        smem_report_html(hf, an);
        if (fclose(hf)) {
            fprintf(stderr, "smemlab analyze: cannot write %s\n", html);
            smem_analysis_free(an);
            rc = EXIT_INPUT;
            goto out;
        }
    }
    if (fmt == FMT_JSON)
        smem_report_json(stdout, an);
    else if (fmt == FMT_CSV)
        smem_report_csv(stdout, an);
    else
        smem_report_table(stdout, an);
    if (an->compiled_as[0])
        fprintf(stderr, "smemlab analyze: %s: compiled %s\n", path, an->compiled_as);
    if (an->uninstantiated[0] && !o.kernel)
        fprintf(stderr, "smemlab analyze: %s: template kernels not instantiated here, not "
                        "analysed: %s (--kernel 'NAME<ARGS>' instantiates one)\n", path,
                an->uninstantiated);
    rc = EXIT_OK;
    unsigned failed = 0, incomplete = 0;
    for (uint32_t i = 0; i < an->nkernels; i++) {
        const struct smem_kernel_report *k = &an->kernels[i];
        if (k->error) {
            fprintf(stderr, "smemlab analyze: %s: not analysed: %s\n", k->name, k->error);
            failed++;
        } else if (!k->complete) {
            fprintf(stderr, "smemlab analyze: %s: incomplete: %s\n", k->name, k->incomplete_why);
            incomplete++;
        }
        for (uint32_t s = 0; fail_conflict && s < k->nsites; s++)
            if (k->sites[s].t.wavefronts > k->sites[s].t.ideal &&
                (k->sites[s].op != SMEM_ACC_CP_ASYNC || k->sites[s].t.max_ways > 1))
                rc = EXIT_CHECK; /* (a .cg copy's wavefronts for its global lines: no conflict) */
        if (fail_hazard && k->nhazards)
            rc = EXIT_CHECK;
    }
    if (fail_incomplete && incomplete) {
        fprintf(stderr, "smemlab analyze: --fail-on-incomplete: %u of %u kernels incomplete\n",
                incomplete, an->nkernels);
        rc = EXIT_CHECK;
    }
    if (cli_ci_wanted(&ci)) { /* the outputs read the JSON report; a baseline decides instead */
        struct smem_ci_checks checks = {fail_conflict, fail_hazard, 0, 0, 0};
        char *json = NULL, title[1100];
        size_t len = 0;
        FILE *ms = open_memstream(&json, &len);
        if (ms)
            smem_report_json(ms, an);
        snprintf(title, sizeof title, "analyze %s", smem_base_name(path));
        int cr = ms && !fclose(ms) ? cli_ci_outputs("analyze", &ci, json, len, &checks, title)
                                   : EXIT_INPUT;
        free(json);
        if (ci.baseline || cr == EXIT_INPUT)
            rc = cr;
    }
    /* The others are reported above; the exit status still says that the input had a kernel
     * smemlab could not analyse (the same status as a file with that kernel alone). */
    if (failed) {
        fprintf(stderr, "smemlab analyze: %u of %u kernels could not be analysed\n", failed,
                an->nkernels);
        rc = EXIT_INPUT;
    }
    smem_analysis_free(an);
out:
    free(params);
    free(cargs);
    return rc;
}
