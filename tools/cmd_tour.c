/* cmd_tour.c: `smemlab tour`: the documents' experiments (lab/tour.h), predicted with the
 * bank model and printed in their own terms: transactions per request, n-way conflicts, bank maps. */
#include "cli.h"
#include "pattern_view.h"
#include "smemlab/base/text.h"
#include "tour_kernels.h"
#include "smemlab/lab/experiments.h"
#include "smemlab/gpu/gpu.h"

#include <assert.h>
#include <stdlib.h>
#include "smemlab/lab/tour.h"

#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: smemlab tour [SECTION...] [--list] [--format table|json|csv]\n"
    "\n"
    "The documents' shared-memory experiments, predicted by the bank model (no GPU needed):\n"
    "requests, wavefronts (nvprof's transactions) per request, n-way conflicts, bank maps.\n"
    "First the documents' real kernels (kernels/*.cu, analysed from their PTX), then the\n"
    "address patterns behind them. Give section ids to print only those; --list names them.\n"
    "With a GPU, the kernels are then measured too (predicted, measured, match); --no-gpu skips.\n"
    "\n"
    "exit status: 0 ok, 2 bad option or unknown section\n";

/* The evaluated accesses of one row. */
struct row_result {
    unsigned n;
    struct smem_pattern_result r[SMEM_TOUR_MAX_ACCESSES];
};

static int eval_row(const struct smem_tour_row *row, struct row_result *out)
{
    struct smem_diag d;
    out->n = 0;
    for (unsigned k = 0; k < SMEM_TOUR_MAX_ACCESSES && row->access[k].expr; k++) {
        if (smem_tour_eval(row, k, &out->r[k], &d)) {
            fprintf(stderr, "smemlab tour: %s: %s: %s\n", row->name, row->access[k].expr, d.message);
            return -1;
        }
        unsigned c = row->access[k].count ? row->access[k].count : 1;
        out->r[k].requests *= c;
        out->r[k].wavefronts *= c;
        out->r[k].ideal *= c;
        out->n++;
    }
    return 0;
}

static const char *op_name(enum smem_op op) { return op == SMEM_ST ? "st" : op == SMEM_ATOM ? "atom" : "ld"; }

static double per_request(const struct smem_pattern_result *r)
{
    return r->requests ? (double)r->wavefronts / r->requests : 0.0;
}

/* "no conflict", "broadcast", "multicast" or "N-way conflict" for a one-warp request. */
static void verdict_word(char *buf, size_t n, const struct smem_pattern_result *r)
{
    const struct smem_request *q = &r->warp[r->worst].request;
    unsigned lanes = 0, distinct = 0;
    for (unsigned l = 0; l < SMEM_WARP; l++) {
        if (!(q->active >> l & 1u))
            continue;
        unsigned k = 0;
        while (k < l && !((q->active >> k & 1u) && q->addr[k] == q->addr[l]))
            k++;
        distinct += k == l;
        lanes++;
    }
    if (r->wavefronts > r->ideal)
        snprintf(buf, n, "%u-way conflict", r->max_ways);
    else if (distinct == 1 && lanes > 1)
        snprintf(buf, n, "broadcast");
    else if (distinct < lanes)
        snprintf(buf, n, "multicast");
    else
        snprintf(buf, n, "no conflict");
}

static void print_patterns(const struct smem_tour_section *s, const struct row_result *rr)
{
    printf("  %-24s %10s %6s %6s  %-16s %s\n", "pattern", "wavefronts", "ideal", "n-way", "predicted",
           "documents");
    for (unsigned i = 0; i < s->nrows; i++) {
        const struct smem_pattern_result *r = &rr[i].r[0];
        char v[32];
        verdict_word(v, sizeof v, r);
        printf("  %-24s %10llu %6llu %6u  %-16s %s\n", s->rows[i].name, (unsigned long long)r->wavefronts,
               (unsigned long long)r->ideal, r->max_ways, v, s->rows[i].claim);
    }
}

static void print_strides(const struct smem_tour_section *s, const struct row_result *rr)
{
    const unsigned per_line = 12;
    for (unsigned i0 = 0; i0 < s->nrows; i0 += per_line) {
        printf("  %-11s", "stride s");
        for (unsigned i = i0; i < s->nrows && i < i0 + per_line; i++) {
            const char *e = strchr(s->rows[i].name, ' ');
            printf("%5s", e ? e + 1 : s->rows[i].name);
        }
        printf("\n  %-11s", "wavefronts");
        for (unsigned i = i0; i < s->nrows && i < i0 + per_line; i++)
            printf("%5llu", (unsigned long long)rr[i].r[0].wavefronts);
        printf("\n");
    }
}

static void print_maps(const struct smem_tour_section *s, const struct row_result *rr)
{
    for (unsigned i = 0; i < s->nrows; i++) {
        const struct smem_tour_row *row = &s->rows[i];
        const struct smem_pattern_result *r = &rr[i].r[0];
        struct smem_pattern p = smem_tour_pattern(row, 0);
        printf("  %s: %s  ->  ", row->name, row->access[0].expr);
        view_verdict(stdout, r);
        if (*row->claim)
            printf("   (documents: %s)", row->claim);
        printf("\n");
        view_bank_map(stdout, &p.banks, &r->warp[r->worst].request, VIEW_MAP_NARROW, "    ");
        printf("\n");
    }
}

static void print_kernels(const struct smem_tour_section *s, const struct row_result *rr)
{
    for (unsigned i = 0; i < s->nrows; i++) {
        const struct smem_tour_row *row = &s->rows[i];
        printf("  Kernel: %s   (", row->name);
        for (unsigned k = 0; k < rr[i].n; k++) {
            const struct smem_tour_access *a = &row->access[k];
            printf("%s%s %s", k ? ", " : "", op_name(a->op), a->expr);
            if (a->rows)
                printf(" of [%u][%u]", a->rows, a->cols);
        }
        printf(")\n");
        /* nvprof listed loads before stores. */
        for (int want = SMEM_LD; want <= SMEM_ST; want++)
            for (unsigned k = 0; k < rr[i].n; k++) {
                const struct smem_pattern_result *r = &rr[i].r[k];
                if ((int)row->access[k].op != want)
                    continue;
                printf("      %-38s %10.6f  (%u request%s, %llu wavefront%s)",
                       want == SMEM_LD ? "shared_load_transactions_per_request"
                                       : "shared_store_transactions_per_request",
                       per_request(r), r->requests, r->requests == 1 ? "" : "s",
                       (unsigned long long)r->wavefronts, r->wavefronts == 1 ? "" : "s");
                if (want == SMEM_LD && *row->claim)
                    printf("  documents: %s", row->claim);
                printf("\n");
            }
    }
}

static void print_table(const struct smem_tour_section *s, const struct row_result *rr)
{
    printf("== %s\n   %s\n\n", s->title, s->source);
    switch (s->style) {
    case SMEM_TOUR_PATTERNS: print_patterns(s, rr); break;
    case SMEM_TOUR_STRIDES: print_strides(s, rr); break;
    case SMEM_TOUR_MAPS: print_maps(s, rr); break;
    case SMEM_TOUR_KERNELS: print_kernels(s, rr); break;
    }
    printf("%s   why: %s\n\n", s->style == SMEM_TOUR_MAPS ? "" : "\n", s->note);
}

static void print_json_section(const struct smem_tour_section *s, const struct row_result *rr, int first)
{
    printf("%s{\"id\":", first ? "" : ",");
    smem_json_string(stdout, s->id);
    printf(",\"title\":");
    smem_json_string(stdout, s->title);
    printf(",\"source\":");
    smem_json_string(stdout, s->source);
    printf(",\"note\":");
    smem_json_string(stdout, s->note);
    printf(",\"rows\":[");
    for (unsigned i = 0; i < s->nrows; i++) {
        const struct smem_tour_row *row = &s->rows[i];
        printf("%s{\"name\":", i ? "," : "");
        smem_json_string(stdout, row->name);
        printf(",\"claim\":");
        smem_json_string(stdout, row->claim);
        printf(",\"elem\":%u,\"block\":[%u,%u,%u],\"accesses\":[", row->elem, row->block[0], row->block[1],
               row->block[2]);
        for (unsigned k = 0; k < rr[i].n; k++) {
            const struct smem_pattern_result *r = &rr[i].r[k];
            printf("%s{\"op\":\"%s\",\"expression\":", k ? "," : "", op_name(row->access[k].op));
            smem_json_string(stdout, row->access[k].expr);
            if (row->access[k].rows)
                printf(",\"shape\":[%u,%u]", row->access[k].rows, row->access[k].cols);
            printf(",\"requests\":%u,\"wavefronts\":%llu,\"ideal_wavefronts\":%llu,\"max_ways\":%u,"
                   "\"transactions_per_request\":%.6g}",
                   r->requests, (unsigned long long)r->wavefronts, (unsigned long long)r->ideal, r->max_ways,
                   per_request(r));
        }
        printf("]}");
    }
    printf("]}");
}

static void print_csv_section(const struct smem_tour_section *s, const struct row_result *rr)
{
    for (unsigned i = 0; i < s->nrows; i++) {
        const struct smem_tour_row *row = &s->rows[i];
        for (unsigned k = 0; k < rr[i].n; k++) {
            const struct smem_pattern_result *r = &rr[i].r[k];
            char shape[32] = "";
            if (row->access[k].rows)
                snprintf(shape, sizeof shape, "%ux%u", row->access[k].rows, row->access[k].cols);
            printf("%s,", s->id);
            view_csv_field(stdout, row->name);
            printf(",%s,", op_name(row->access[k].op));
            view_csv_field(stdout, row->access[k].expr);
            printf(",%u,%ux%ux%u,%s,%u,%llu,%llu,%u,%.6g,", row->elem, row->block[0], row->block[1],
                   row->block[2], shape, r->requests, (unsigned long long)r->wavefronts,
                   (unsigned long long)r->ideal, r->max_ways, per_request(r));
            view_csv_field(stdout, row->claim);
            printf("\n");
        }
    }
}

/* With a GPU, the documents' kernels again: measured by `smemlab bench` (verified, timed, counted)
 * beside the prediction, with a match column. */
static int tour_measure(void)
{
    char err[300];
    struct smem_gpu *g = NULL;
    if (smem_gpu_open(0, &g, err, sizeof err)) {
        (void)err;
        printf("(predictions only: no usable GPU here. With one, the tour also measures every kernel\n"
               " above: predicted, measured and match columns, as `smemlab bench` prints them.)\n");
        return EXIT_OK;
    }
    smem_gpu_close(g);
    size_t n = smem_experiment_count(), k = 0;
    char **args = calloc(n + 4, sizeof *args);
    if (!args)
        return EXIT_INPUT;
    args[k++] = (char *)"bench";
    for (size_t i = 0; i < n; i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (e->role == SMEM_EXP_DOC)
            args[k++] = (char *)e->name;
    }
    printf("== The same kernels on the GPU: verified, timed, counted (Nsight Compute), beside the\n"
           "   prediction\n\n");
    fflush(stdout);
    int rc = cmd_bench((int)k, args);
    free(args);
    return rc;
}

int cmd_tour(int argc, char **argv)
{
    int format = FMT_TABLE, list = 0;
    unsigned nsec;
    const struct smem_tour_section *all = smem_tour_sections(&nsec);
    const struct smem_tour_section *chosen[32];
    unsigned nchosen = 0;
    int nchosen_given = 0, want_kernels = 0, no_gpu = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage_text, stdout);
            return EXIT_OK;
        } else if (!strcmp(a, "--list")) {
            list = 1;
        } else if (!strcmp(a, "--no-gpu")) {
            no_gpu = 1;
        } else if (!strncmp(a, "--format", 8) && (a[8] == '=' || a[8] == 0)) {
            const char *v = a[8] == '=' ? a + 9 : (i + 1 < argc ? argv[++i] : NULL);
            if (!v)
                return cli_usage_error("tour", "--format needs a value");
            if ((format = cli_parse_format(v)) < 0)
                return cli_usage_error("tour", "--format must be table, json or csv, not '%s'", v);
        } else if (a[0] == '-') {
            return cli_unknown_option("tour", a, NULL);
        } else if (!strcmp(a, "kernels")) {
            want_kernels = nchosen_given = 1;
        } else {
            nchosen_given = 1;
            const struct smem_tour_section *s = smem_tour_find(a);
            if (!s) {
                fprintf(stderr, "smemlab tour: no section '%s'; sections: kernels", a);
                for (unsigned k = 0; k < nsec; k++)
                    fprintf(stderr, " %s", all[k].id);
                fprintf(stderr, "\n");
                return EXIT_USAGE;
            }
            if (nchosen < sizeof chosen / sizeof chosen[0])
                chosen[nchosen++] = s;
        }
    }
    if (list) {
        printf("%-16s %s\n", "kernels", "the documents' kernels of kernels/, analysed from their PTX");
        for (unsigned k = 0; k < nsec; k++)
            printf("%-16s %s (%s)\n", all[k].id, all[k].title, all[k].source);
        return EXIT_OK;
    }
    if (!nchosen && !want_kernels)
        for (unsigned k = 0; k < nsec && k < sizeof chosen / sizeof chosen[0]; k++)
            chosen[nchosen++] = &all[k];

    if (format == FMT_TABLE)
        printf("smemlab tour: the documents' shared-memory experiments, predicted for today's GPUs\n"
               "(32 banks x 4 bytes, Volta to Hopper). Wavefronts are what nvprof called transactions;\n"
               "Nsight Compute counts them as smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld/st\n"
               "(its source view; the pipeline's l1tex__ counter differs only on some 8/16-byte loads).\n\n");
    else if (format == FMT_JSON)
        printf("{");
    else
        printf("experiment,row,op,expression,elem,block,shape,requests,wavefronts,ideal_wavefronts,"
               "max_ways,transactions_per_request,claim\n");
    static struct row_result rr[64];
    if (!nchosen_given || want_kernels) {
        int nk = tour_kernels(format, 1);
        if (nk < 0)
            return EXIT_INPUT;
    }
    if (format == FMT_JSON)
        printf("\"experiments\":[");
    for (unsigned k = 0; k < nchosen; k++) {
        struct smem_tour_section part = *chosen[k];
        const struct smem_tour_section *s = &part;
        assert(part.nrows <= sizeof rr / sizeof rr[0]); /* the shipped table's rows fit (test_tour) */
        if (part.nrows > sizeof rr / sizeof rr[0])
            part.nrows = sizeof rr / sizeof rr[0];
        for (unsigned i = 0; i < s->nrows; i++)
            if (eval_row(&s->rows[i], &rr[i]))
                return EXIT_INPUT;
        if (format == FMT_TABLE)
            print_table(s, rr);
        else if (format == FMT_JSON)
            print_json_section(s, rr, k == 0);
        else
            print_csv_section(s, rr);
    }
    if (format == FMT_JSON)
        printf("]}\n");
    if (format == FMT_TABLE && !nchosen_given)
        tour_more();
    if (format == FMT_TABLE && !no_gpu && (!nchosen_given || want_kernels))
        return tour_measure();
    return EXIT_OK;
}
