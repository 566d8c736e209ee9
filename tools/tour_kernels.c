/* tour_kernels.c: the tour's first part: every experiment of the documents as the real kernel of
 * kernels/, analysed from its PTX (every thread of every block emulated), grouped by the rows of
 * EXPERIMENTS.md, in the documents' nvprof terms. */
#include "tour_kernels.h"

#include "cli.h"
#include "smemlab/lab/predict.h"

#include <stdio.h>
#include <string.h>

static double per_req(const struct smem_totals *t)
{
    return t->requests ? (double)t->wavefronts / (double)t->requests : 0.0;
}

static void cell(char *buf, size_t n, const struct smem_totals *t)
{
    if (!t->requests)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%llu x %.2f", (unsigned long long)t->requests, per_req(t));
}

int tour_kernels(int format, int first_json)
{
    char dir[4096];
    if (cli_kernels_dir(dir, sizeof dir)) {
        if (format == FMT_TABLE)
            printf("== The documents' kernels: not built (nvcc was missing at build time); the\n"
                   "   address patterns below predict the same experiments.\n\n");
        return 0;
    }
    struct smem_predictor *p = smem_predictor_new(dir);
    if (!p)
        return -1;
    if (format == FMT_TABLE) {
        printf("== The documents' kernels, analysed: kernels/*.cu compiled to PTX, every thread of every\n"
               "   block emulated (launch as in the documents; `smemlab analyze` for any of them).\n"
               "   LD / ST: requests x wavefronts per request (nvprof: transactions per request).\n\n");
        printf("  %-3s %-40s %-9s %-5s %-13s %-13s %-9s %s\n", "row", "experiment", "block", "grid",
               "LD", "ST", "atomics", "hazards");
    } else if (format == FMT_JSON) {
        (void)first_json;
        printf("\"kernels\":[");
    }
    int n = 0, failed = 0;
    unsigned last_row = 0;
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->role != SMEM_EXP_DOC)
            continue;
        struct smem_prediction r;
        struct smem_error err;
        memset(&err, 0, sizeof err);
        if (smem_predict(p, e, 0, &r, &err)) {
            char buf[800];
            fprintf(stderr, "smemlab tour: %s: %s\n", e->name, smem_error_format(&err, buf, sizeof buf));
            failed++;
            continue;
        }
        char block[24], grid[24], ld[32], st[32], at[32];
        snprintf(block, sizeof block, "%ux%u%s", e->block[0], e->block[1], e->block[2] > 1 ? "x.." : "");
        snprintf(grid, sizeof grid, "%u", e->grid[0] * e->grid[1] * e->grid[2]);
        cell(ld, sizeof ld, &r.ld);
        cell(st, sizeof st, &r.st);
        cell(at, sizeof at, &r.atom);
        if (format == FMT_TABLE) {
            if (e->row != last_row && last_row)
                printf("\n");
            last_row = e->row;
            printf("  %-3u %-40s %-9s %-5s %-13s %-13s %-9s %s%s\n", e->row, e->name, block, grid, ld,
                   st, at, r.hazards ? r.hazard_kinds : "-",
                   r.complete ? "" : "  (stopped: data-dependent)");
        } else if (format == FMT_JSON) {
            printf("%s{\"row\":%u,\"experiment\":\"%s\",\"kernel\":\"%s\",\"file\":\"%s\","
                   "\"block\":[%u,%u,%u],\"grid\":[%u,%u,%u],\"dynamic_smem\":%u,"
                   "\"ld_requests\":%llu,\"ld_wavefronts\":%llu,\"ld_ideal\":%llu,"
                   "\"st_requests\":%llu,\"st_wavefronts\":%llu,\"st_ideal\":%llu,"
                   "\"atom_requests\":%llu,\"atom_wavefronts\":%llu,\"hazards\":\"%s\","
                   "\"complete\":%s}",
                   n ? "," : "", e->row, e->name, e->kernel, e->file, e->block[0], e->block[1],
                   e->block[2], e->grid[0], e->grid[1], e->grid[2], e->dyn_smem,
                   (unsigned long long)r.ld.requests, (unsigned long long)r.ld.wavefronts,
                   (unsigned long long)r.ld.ideal, (unsigned long long)r.st.requests,
                   (unsigned long long)r.st.wavefronts, (unsigned long long)r.st.ideal,
                   (unsigned long long)r.atom.requests, (unsigned long long)r.atom.wavefronts,
                   r.hazard_kinds, r.complete ? "true" : "false");
        } else {
            printf("%s,%u,kernel,%s,%u,%ux%ux%u,,%llu,%llu,%llu,,%.6f,\n", e->name, e->row,
                   e->kernel, 4u, e->block[0], e->block[1], e->block[2],
                   (unsigned long long)r.ld.requests, (unsigned long long)r.ld.wavefronts,
                   (unsigned long long)r.ld.ideal, per_req(&r.ld));
        }
        n++;
    }
    if (format == FMT_JSON)
        printf("],");
    else if (format == FMT_TABLE)
        printf("\n");
    smem_predictor_free(p);
    return failed ? -1 : n;
}
