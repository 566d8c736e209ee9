/* run_report.c: the report of `smemlab run` (a program's launches) as JSON, a table or CSV. The
 * kernels' sums reuse analyze's writers, so a site reads the same in both reports; a launch's JSON
 * record writes the fields it shares with a kernel's through the same writer (json_record.h). */
#include "smemlab/report/run_report.h"
#include "smemlab/report/report.h"
#include "json_record.h"
#include "html_page.h"

#include "smemlab/base/text.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLE_LAUNCHES 60 /* the table lists this many rows of launches; JSON and CSV all */

const char *smem_memory_error_name(unsigned kind)
{
    switch (kind) {
    case SMEM_GFAULT_LOAD: return "load";
    case SMEM_GFAULT_STORE: return "store";
    case SMEM_GFAULT_ATOM: return "atomic";
    case SMEM_GFAULT_MISALIGNED: return "misaligned access";
    case SMEM_GFAULT_UNKNOWN_VALUE: return "store of a value the emulator does not know";
    case SMEM_MEMORY_UNINITIALIZED: return "uninitialized load";
    case SMEM_GFAULT_BAD_FREE: return "invalid free";
    case SMEM_GFAULT_DOUBLE_FREE: return "double free";
    default: return "store to constant memory";
    }
}

static const char *kernel_name(const struct smem_run_report *r, uint32_t k)
{
    const struct smem_kernel_report *kr = smem_run_kernel(r, k);
    return kr ? kr->name : "?";
}

static void json_errors(FILE *f, const struct smem_memory_error *e, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++, e++) {
        fprintf(f, "%s\n       {\"kind\": \"%s\", \"file\": ", i ? "," : "",
                smem_memory_error_name(e->kind));
        smem_json_string(f, smem_base_name(e->file));
        fprintf(f, ", \"line\": %u, \"address\": %llu, \"bytes\": %u, \"count\": %llu, "
                   "\"thread\": [%u, %u, %u], \"block\": [%u, %u, %u], \"nearest\": ",
                e->line, (unsigned long long)e->addr, e->bytes, (unsigned long long)e->count,
                e->thread[0], e->thread[1], e->thread[2], e->block[0], e->block[1], e->block[2]);
        smem_json_string(f, e->nearest);
        if (e->space == SP_SHARED || e->space == SP_LOCAL) /* additive: global has none */
            fprintf(f, ", \"space\": \"%s\"", e->space == SP_SHARED ? "shared" : "local");
        if (e->kind == SMEM_GFAULT_MISALIGNED)
            fprintf(f, ", \"access\": \"%s\"", smem_memory_error_name(e->op));
        fputc('}', f);
    }
}

/* A finding's site as file and line when it is file:line (0 when it is binary+0xoffset: the
 * program was built without -g). */
static unsigned long finding_line(const struct smem_run_finding *x, char *file, size_t n)
{
    const char *colon = x->site ? strrchr(x->site, ':') : NULL;
    char *end = NULL;
    unsigned long line = colon ? strtoul(colon + 1, &end, 10) : 0;
    if (!colon || !end || *end || !line)
        return 0;
    snprintf(file, n, "%.*s", (int)(colon - x->site), x->site);
    return line;
}

/* Each finding: {"kind", "call", "file", "line", ...}; "site" keeps the text when it is no
 * file:line (binary+0xoffset: the program was built without -g). */
static void json_findings(FILE *f, const struct smem_run_finding *x, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++, x++) {
        fprintf(f, "%s\n    {\"kind\": ", i ? "," : "");
        smem_json_string(f, x->kind);
        fprintf(f, ", \"call\": ");
        smem_json_string(f, x->call ? x->call : "?");
        char file[512];
        unsigned long line = finding_line(x, file, sizeof file);
        if (line) {
            fprintf(f, ", \"file\": ");
            smem_json_string(f, file);
            fprintf(f, ", \"line\": %lu", line);
        } else {
            fprintf(f, ", \"file\": null, \"line\": null");
        }
        fprintf(f, ", \"site\": ");
        smem_json_string(f, x->site ? x->site : "?");
        if (x->error) {
            fprintf(f, ", \"error\": ");
            smem_json_string(f, x->error);
            fprintf(f, ", \"code\": %d, \"message\": ", x->code);
            smem_json_string(f, x->message ? x->message : "");
        }
        if (x->frame) {
            fprintf(f, ", \"frame\": ");
            smem_json_string(f, x->frame);
        }
        if (!strcmp(x->kind, "leak") || !strcmp(x->kind, "uninitialized"))
            fprintf(f, ", \"address\": %llu, \"bytes\": %llu", (unsigned long long)x->address,
                    (unsigned long long)x->bytes);
        if (!strcmp(x->kind, "uninitialized"))
            fprintf(f, ", \"uninitialized_at\": %llu", (unsigned long long)x->uninit_at);
        if (x->detail) {
            fprintf(f, ", \"detail\": ");
            smem_json_string(f, x->detail);
        }
        fprintf(f, ", \"count\": %llu}", (unsigned long long)x->count);
    }
}

void smem_run_report_json(FILE *f, const struct smem_run_report *r)
{
    fprintf(f, "{\n  \"program\": ");
    smem_json_string(f, r->program);
    fprintf(f, ",\n  \"args\": [");
    for (unsigned i = 0; i < r->nargs; i++) {
        fprintf(f, "%s", i ? ", " : "");
        smem_json_string(f, r->args[i]);
    }
    fprintf(f, "],\n  \"exit_status\": null,\n");
    fprintf(f, "  \"launches_total\": %llu, \"launches_recorded\": %llu",
            (unsigned long long)r->launches_total, (unsigned long long)r->nlaunches);
    if (r->stopped) {
        fprintf(f, ",\n  \"stopped\": ");
        smem_json_string(f, r->stopped);
    }
    if (r->nfindings) {
        fprintf(f, ",\n  \"sanitizer\": [");
        json_findings(f, r->findings, r->nfindings);
        fprintf(f, "\n  ]");
    }
    fprintf(f, ",\n  \"launches\": [");
    for (uint64_t i = 0; i < r->nlaunches; i++) {
        const struct smem_launch_record *l = &r->launches[i];
        const struct smem_kernel_report *k = smem_run_kernel(r, l->kernel);
        fprintf(f, "%s\n    {\"index\": %llu, \"kernel\": ", i ? "," : "",
                (unsigned long long)l->index);
        smem_json_string(f, k ? k->name : "?");
        fprintf(f, ", \"symbol\": ");
        smem_json_string(f, k ? k->symbol : "?");
        fprintf(f, ",\n     \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"dynamic_smem\": %u, "
                   "\"static_smem\": %u,\n     ",
                l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
                l->dynamic_smem, l->static_smem);
        const struct smem_totals *const t[JSON_RECORD_NTOTALS] = JSON_RECORD_TOTALS(l);
        json_record_totals(f, t, 0, NULL, NULL);
        json_record_dshared(f, &l->dshared, "     ");
        fprintf(f, ",\n     ");
        json_record_work(f, l->steps, l->seconds);
        if (l->repeat)
            fprintf(f, ", \"repeat\": true");
        if (l->error) {
            fprintf(f, ", \"error\": ");
            smem_json_string(f, l->error);
        }
        if (l->host_frame) { /* additive: where the program launched it */
            fprintf(f, ", \"host_frame\": ");
            smem_json_string(f, l->host_frame);
        }
        fprintf(f, ",\n     ");
        json_record_hazards(f, l->hazards, l->nhazards);
        fprintf(f, ",\n     \"memory_errors\": [");
        json_errors(f, l->errors, l->nerrors);
        fprintf(f, "%s]}", l->nerrors ? "\n     " : "");
    }
    fprintf(f, "%s],\n  \"kernels\": [", r->nlaunches ? "\n  " : "");
    for (uint32_t i = 0; i < r->nkernels; i++) {
        const struct smem_run_kernel *rk = &r->kernels[i];
        assert(rk->module < r->nmodules); /* where its sums live (launch.h) */
        const struct smem_analysis *a = &r->modules[rk->module].analysis;
        assert(rk->kernel < a->nkernels);
        char extra[64];
        snprintf(extra, sizeof extra, "\"launches\": %llu", (unsigned long long)rk->launches);
        fprintf(f, "%s\n    ", i ? "," : "");
        smem_report_json_kernel(f, a, &a->kernels[rk->kernel], extra);
    }
    fprintf(f, "%s]", r->nkernels ? "\n  " : "");
    if (r->nlibrary_calls) {
        fprintf(f, ",\n  \"library_seconds\": %.6f, \"library_calls\": [", r->library_seconds);
        for (uint32_t i = 0; i < r->nlibrary_calls; i++) {
            const struct smem_library_call *c = &r->library_calls[i];
            fprintf(f, "%s\n    {\"library\": ", i ? "," : "");
            smem_json_string(f, c->library);
            fprintf(f, ", \"name\": ");
            smem_json_string(f, c->name);
            fprintf(f, ", \"shape\": ");
            smem_json_string(f, c->shape);
            fprintf(f, ", \"precision\": ");
            smem_json_string(f, c->precision);
            fprintf(f, ", \"calls\": %llu, \"repeats\": %llu, \"seconds\": %.6f, "
                       "\"after_launch\": %llu}",
                    (unsigned long long)c->calls, (unsigned long long)c->repeats, c->seconds,
                    (unsigned long long)c->after_launch);
        }
        fprintf(f, "\n  ]");
    }
    fprintf(f, "\n}\n");
}

static void dims(char *buf, size_t n, const unsigned d[3])
{
    snprintf(buf, n, "%ux%ux%u", d[0], d[1], d[2]);
}

static void req_wf(char *buf, size_t n, const struct smem_totals *t)
{
    if (!t->requests)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%llu/%llu", (unsigned long long)t->requests,
                 (unsigned long long)t->wavefronts);
}

static uint64_t count_errors(const struct smem_launch_record *l)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < l->nerrors; i++)
        n += l->errors[i].count;
    return n;
}

static int same_totals(const struct smem_totals *a, const struct smem_totals *b)
{
    return a->requests == b->requests && a->wavefronts == b->wavefronts && a->ideal == b->ideal;
}

static uint64_t count_hazards(const struct smem_launch_record *l)
{
    uint64_t n = 0;
    for (uint32_t h = 0; h < l->nhazards; h++)
        n += l->hazards[h].count;
    return n;
}

/* b repeats a in the table: the same kernel, shape and counts, neither failed. */
static int same_launch(const struct smem_launch_record *a, const struct smem_launch_record *b)
{
    return a->kernel == b->kernel && !memcmp(a->grid, b->grid, sizeof a->grid) &&
           !memcmp(a->block, b->block, sizeof a->block) && a->static_smem == b->static_smem &&
           a->dynamic_smem == b->dynamic_smem && same_totals(&a->ld, &b->ld) &&
           same_totals(&a->st, &b->st) && same_totals(&a->atom, &b->atom) &&
           same_totals(&a->ldsm, &b->ldsm) && same_totals(&a->stsm, &b->stsm) &&
           same_totals(&a->ldgsts, &b->ldgsts) && count_hazards(a) == count_hazards(b) &&
           count_errors(a) == count_errors(b) && !a->error && !b->error;
}

#define NAME_COLUMN 48 /* longer kernel names go to a legend under the table, whole */

/* The table's name for kernel k: whole when it fits, else "[N]" with N its place in the legend. */
static const char *table_name(const struct smem_run_report *r, uint32_t k, const uint32_t *legend,
                              char *buf, size_t n)
{
    const char *name = kernel_name(r, k);
    if (strlen(name) <= NAME_COLUMN)
        return name;
    snprintf(buf, n, "[%u]", legend[k]);
    return buf;
}

/* One row a run of identical consecutive launches (" x1,000: launches 3-1002, 999 proven repeats"),
 * at most MAX_TABLE_LAUNCHES rows; the kernel column as wide as its names (legend past 48). */
static void launch_table(FILE *f, const struct smem_run_report *r)
{
    uint32_t *legend = calloc(r->nkernels ? r->nkernels : 1, sizeof *legend), nlegend = 0;
    uint64_t *group = malloc((r->nlaunches + 1) * sizeof *group); /* each row's first launch */
    if (!legend || !group) {
        free(legend);
        free(group);
        fprintf(f, "  (out of memory for the launch table)\n");
        return;
    }
    uint64_t nrows = 0;
    for (uint64_t i = 0; i < r->nlaunches; i++)
        if (!i || !same_launch(&r->launches[i - 1], &r->launches[i]))
            group[nrows++] = i;
    group[nrows] = r->nlaunches;
    uint64_t shown = nrows < MAX_TABLE_LAUNCHES ? nrows : MAX_TABLE_LAUNCHES;
    int width = 6, tensor = 0;
    for (uint64_t g = 0; g < shown; g++) {
        const struct smem_launch_record *l = &r->launches[group[g]];
        size_t len = strlen(kernel_name(r, l->kernel));
        if (len > NAME_COLUMN) {
            if (l->kernel < r->nkernels && !legend[l->kernel])
                legend[l->kernel] = ++nlegend;
            len = 6;
        }
        if ((int)len > width)
            width = (int)len;
        tensor |= l->ldsm.requests || l->stsm.requests || l->ldgsts.requests;
    }
    fprintf(f, "\n  %-6s %-*s %-12s %-12s %-11s %-17s %-17s %-9s %s\n", "launch", width, "kernel",
            "grid", "block", "smem", "ld req/wf", "st req/wf", "hazards", "memory errors");
    for (uint64_t g = 0; g < shown; g++) {
        const struct smem_launch_record *l = &r->launches[group[g]];
        uint64_t count = group[g + 1] - group[g], repeats = 0;
        for (uint64_t j = group[g]; j < group[g + 1]; j++)
            repeats += r->launches[j].repeat;
        char gd[40], b[40], ld[48], st[48], sm[32], nb[40], c1[32], c2[32], c3[32];
        dims(gd, sizeof gd, l->grid);
        dims(b, sizeof b, l->block);
        req_wf(ld, sizeof ld, &l->ld);
        req_wf(st, sizeof st, &l->st);
        snprintf(sm, sizeof sm, "%u+%u", l->static_smem, l->dynamic_smem);
        fprintf(f, "  %-6llu %-*s %-12s %-12s %-11s %-17s %-17s %-9llu %llu",
                (unsigned long long)l->index, width,
                table_name(r, l->kernel, legend, nb, sizeof nb), gd, b, sm, ld, st,
                (unsigned long long)count_hazards(l), (unsigned long long)count_errors(l));
        if (count > 1) {
            fprintf(f, "  x%s: launches %llu-%llu", smem_group_digits(c1, sizeof c1, count),
                    (unsigned long long)l->index,
                    (unsigned long long)r->launches[group[g + 1] - 1].index);
            if (repeats)
                fprintf(f, ", %s proven repeat%s", smem_group_digits(c2, sizeof c2, repeats),
                        repeats == 1 ? "" : "s");
            if (count - repeats > 1)
                fprintf(f, ", %s emulated with the same counts",
                        smem_group_digits(c3, sizeof c3, count - repeats));
            fputc('\n', f);
        } else {
            fprintf(f, "%s\n", l->error ? "  (failed)" : l->repeat ? "  (repeat)" : "");
        }
    }
    if (nrows > MAX_TABLE_LAUNCHES)
        fprintf(f, "  ... %llu more rows, launches %llu on (--format json or csv lists them all)\n",
                (unsigned long long)(nrows - MAX_TABLE_LAUNCHES),
                (unsigned long long)r->launches[group[MAX_TABLE_LAUNCHES]].index);
    /* ldmatrix / stmatrix / cp.async, counted apart (LDSM, STSM, LDGSTS), when there are any */
    if (tensor)
        fprintf(f, "\n  %-6s %-*s %-17s %-17s %s\n", "launch", width, "kernel", "ldsm req/wf",
                "stsm req/wf", "ldgsts req/wf");
    for (uint64_t g = 0; tensor && g < shown; g++) {
        const struct smem_launch_record *l = &r->launches[group[g]];
        char x[48], y[48], z[48], nb[40], c1[32];
        req_wf(x, sizeof x, &l->ldsm);
        req_wf(y, sizeof y, &l->stsm);
        req_wf(z, sizeof z, &l->ldgsts);
        uint64_t count = group[g + 1] - group[g];
        fprintf(f, "  %-6llu %-*s %-17s %-17s %-*s", (unsigned long long)l->index, width,
                table_name(r, l->kernel, legend, nb, sizeof nb), x, y, count > 1 ? 17 : 0, z);
        if (count > 1)
            fprintf(f, "  x%s", smem_group_digits(c1, sizeof c1, count));
        fputc('\n', f);
    }
    for (uint32_t n = 1; n <= nlegend; n++)
        for (uint32_t k = 0; k < r->nkernels; k++)
            if (legend[k] == n)
                fprintf(f, "%s  [%u] %s\n", n == 1 ? "\n" : "", n, kernel_name(r, k));
    free(legend);
    free(group);
}

void smem_run_report_table(FILE *f, const struct smem_run_report *r)
{
    double secs = 0;
    uint64_t steps = 0, repeats = 0;
    for (uint64_t i = 0; i < r->nlaunches; i++) {
        secs += r->launches[i].seconds;
        if (r->launches[i].repeat)
            repeats++;
        else
            steps += r->launches[i].steps;
    }
    fprintf(f, "smemlab run: %s", r->program ? r->program : "?");
    for (unsigned i = 0; i < r->nargs; i++)
        fprintf(f, " %s", r->args[i]);
    fprintf(f, "\n%llu launch%s", (unsigned long long)r->launches_total,
            r->launches_total == 1 ? "" : "es");
    if (r->nlaunches != r->launches_total)
        fprintf(f, " (%llu recorded)", (unsigned long long)r->nlaunches);
    fprintf(f, " of %u kernel%s; %llu thread-instructions emulated in %.2f s", r->nkernels,
            r->nkernels == 1 ? "" : "s", (unsigned long long)steps, secs);
    if (repeats)
        fprintf(f, " (%llu launch%s proven repeats, not emulated again)",
                (unsigned long long)repeats, repeats == 1 ? " was a" : "es were");
    fputc('\n', f);
    if (r->stopped)
        fprintf(f, "stopped: %s\n", r->stopped);
    if (r->nlaunches)
        launch_table(f, r);
    /* per kernel, the sums over its recorded launches, as analyze shows a kernel */
    for (uint32_t m = 0; m < r->nmodules; m++) {
        const struct smem_analysis *a = &r->modules[m].analysis;
        if (!a->nkernels)
            continue;
        fprintf(f, "\nper kernel, summed over its recorded launches:\n\n");
        smem_report_table(f, a);
    }
    if (r->nlibrary_calls) {
        fprintf(f, "\nlibrary calls (computed on the CPU, not priced: NVIDIA's kernels are not "
                   "emulated), %llu call%s in %.3f s; repeats: proven repeats, not computed "
                "again:\n\n  %-28s %-46s %-7s %-8s %-9s %s\n",
                (unsigned long long)r->library_calls_total,
                r->library_calls_total == 1 ? "" : "s", r->library_seconds, "call", "shape",
                "calls", "repeats", "cpu s", "precision");
        for (uint32_t i = 0; i < r->nlibrary_calls && i < MAX_TABLE_LAUNCHES; i++) {
            const struct smem_library_call *c = &r->library_calls[i];
            fprintf(f, "  %-28s %-46s %-7llu %-8llu %-9.4f %s\n", c->name, c->shape,
                    (unsigned long long)c->calls, (unsigned long long)c->repeats, c->seconds,
                    c->precision);
        }
        if (r->nlibrary_calls > MAX_TABLE_LAUNCHES)
            fprintf(f, "  ... %u more (--format json lists all)\n",
                    r->nlibrary_calls - MAX_TABLE_LAUNCHES);
    }
    int header = 0;
    for (uint64_t i = 0; i < r->nlaunches; i++) {
        const struct smem_launch_record *l = &r->launches[i];
        for (uint32_t j = 0; j < l->nerrors; j++) {
            const struct smem_memory_error *e = &l->errors[j];
            if (!header++)
                fprintf(f, "\nmemory errors (global accesses outside every allocation; stores of "
                           "values the emulator does not know: the program reads the bits it has, "
                           "0 for a value never written, where a GPU leaves whatever was there; "
                           "with --initcheck, loads of device memory nothing wrote, read as 0 "
                           "here):\n");
            fprintf(f, "  launch %llu, %s: %s%s%s of %u bytes at %s:%u, thread (%u,%u,%u) "
                       "block (%u,%u,%u), address 0x%llx: %s; %llu time%s\n",
                    (unsigned long long)l->index, kernel_name(r, l->kernel),
                    e->kind == SMEM_GFAULT_UNKNOWN_VALUE || e->kind == SMEM_MEMORY_UNINITIALIZED ||
                    e->kind == SMEM_GFAULT_BAD_FREE || e->kind == SMEM_GFAULT_DOUBLE_FREE
                        ? ""
                        : "invalid ",
                    e->space == SP_SHARED ? "shared " : e->space == SP_LOCAL ? "local " : "",
                    smem_memory_error_name(e->kind), e->bytes,
                    e->file ? smem_base_name(e->file) : "?", e->line, e->thread[0], e->thread[1],
                    e->thread[2], e->block[0], e->block[1], e->block[2],
                    (unsigned long long)e->addr, e->nearest, (unsigned long long)e->count,
                    e->count == 1 ? "" : "s");
        }
    }
    uint64_t bytes = 0, nleaks = 0;
    for (uint32_t i = 0; i < r->nfindings; i++) {
        const struct smem_run_finding *x = &r->findings[i];
        if (!i)
            fprintf(f, "\nsanitizer (CUDA calls that returned an error; allocations not freed "
                       "at exit, with --leak-check full; copies of device memory nothing wrote, "
                       "with --initcheck):\n");
        if (!strcmp(x->kind, "uninitialized")) {
            fprintf(f, "  uninitialized: %s at %s read %llu bytes at 0x%llx; %llu 32-byte piece%s "
                       "never written, the first byte at 0x%llx\n", x->call, x->site,
                    (unsigned long long)x->bytes, (unsigned long long)x->address,
                    (unsigned long long)x->count, x->count == 1 ? "" : "s",
                    (unsigned long long)x->uninit_at);
        } else if (!strcmp(x->kind, "leak")) {
            fprintf(f, "  leak: %llu bytes at 0x%llx, made by %s at %s%s\n",
                    (unsigned long long)x->bytes, (unsigned long long)x->address, x->call, x->site,
                    x->detail ? " (the device heap)" : "");
            bytes += x->bytes;
            nleaks++;
        } else {
            fprintf(f, "  api error: %s returned %s at %s%s%s; %llu time%s\n", x->call,
                    x->error ? x->error : "?", x->site, x->detail ? ": " : "",
                    x->detail ? x->detail : "", (unsigned long long)x->count,
                    x->count == 1 ? "" : "s");
        }
    }
    if (nleaks)
        fprintf(f, "  leak summary: %llu bytes leaked in %llu allocation%s\n",
                (unsigned long long)bytes, (unsigned long long)nleaks, nleaks == 1 ? "" : "s");
}

void smem_run_report_csv(FILE *f, const struct smem_run_report *r)
{
    fprintf(f, "launch,kernel,grid_x,grid_y,grid_z,block_x,block_y,block_z,static_smem,"
               "dynamic_smem,ld_requests,ld_wavefronts,ld_ideal,st_requests,st_wavefronts,st_ideal,"
               "atom_requests,atom_wavefronts,thread_instructions,hazards,memory_errors,repeat,"
               "ldsm_requests,ldsm_wavefronts,ldsm_ideal,stsm_requests,stsm_wavefronts,stsm_ideal,"
               "ldgsts_requests,ldgsts_wavefronts,ldgsts_ideal\n");
    for (uint64_t i = 0; i < r->nlaunches; i++) {
        const struct smem_launch_record *l = &r->launches[i];
        uint64_t hz = 0;
        for (uint32_t h = 0; h < l->nhazards; h++)
            hz += l->hazards[h].count;
        fprintf(f, "%llu,\"%s\",%u,%u,%u,%u,%u,%u,%u,%u,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,"
                   "%llu,%llu,%llu,%d,",
                (unsigned long long)l->index, kernel_name(r, l->kernel), l->grid[0], l->grid[1],
                l->grid[2], l->block[0], l->block[1], l->block[2], l->static_smem,
                l->dynamic_smem, (unsigned long long)l->ld.requests,
                (unsigned long long)l->ld.wavefronts, (unsigned long long)l->ld.ideal,
                (unsigned long long)l->st.requests, (unsigned long long)l->st.wavefronts,
                (unsigned long long)l->st.ideal, (unsigned long long)l->atom.requests,
                (unsigned long long)l->atom.wavefronts, (unsigned long long)l->steps,
                (unsigned long long)hz, (unsigned long long)count_errors(l), l->repeat);
        const struct smem_totals *t[3] = {&l->ldsm, &l->stsm, &l->ldgsts};
        for (int j = 0; j < 3; j++)
            fprintf(f, "%llu,%llu,%llu%s", (unsigned long long)t[j]->requests,
                    (unsigned long long)t[j]->wavefronts, (unsigned long long)t[j]->ideal,
                    j == 2 ? "\n" : ",");
    }
}

/* The memory errors of module m's launches and, on the first page (the first module with
 * kernels), the sanitizer's host-side findings; nothing when there are none. */
static void html_findings(FILE *f, const struct smem_run_report *r, uint32_t m)
{
    uint32_t first = 0;
    while (first < r->nmodules && !r->modules[first].analysis.nkernels)
        first++;
    int head = 0;
    for (uint64_t i = 0; i < r->nlaunches; i++) {
        const struct smem_launch_record *l = &r->launches[i];
        if (l->kernel >= r->nkernels || r->kernels[l->kernel].module != m)
            continue;
        for (uint32_t j = 0; j < l->nerrors; j++) {
            const struct smem_memory_error *e = &l->errors[j];
            char b[32];
            if (!head++)
                fputs("<h2 id='memory-errors'>Memory errors</h2>\n<table><tr><th>launch</th>"
                      "<th class='l'>kernel</th><th class='l'>kind</th><th class='l'>line</th>"
                      "<th>bytes</th><th>thread</th><th>block</th><th>address</th>"
                      "<th class='l'>where</th><th>times</th></tr>\n", f);
            fprintf(f, "<tr class='bad'><td>%s</td><td class='l'>",
                    smem_group_digits(b, sizeof b, l->index));
            smem_xml_text(f, kernel_name(r, l->kernel));
            fputs("</td><td class='l'>", f);
            if (e->space == SP_SHARED || e->space == SP_LOCAL)
                fputs(e->space == SP_SHARED ? "shared " : "local ", f);
            smem_xml_text(f, smem_memory_error_name(e->kind));
            fputs("</td><td class='l'>", f);
            smem_xml_text(f, e->file ? smem_base_name(e->file) : "?");
            fprintf(f, ":%u</td><td>%u</td><td>(%u,%u,%u)</td><td>(%u,%u,%u)</td><td>0x%llx</td>"
                       "<td class='l'>", e->line, e->bytes, e->thread[0], e->thread[1],
                    e->thread[2], e->block[0], e->block[1], e->block[2],
                    (unsigned long long)e->addr);
            smem_xml_text(f, e->nearest);
            fprintf(f, "</td><td>%s</td></tr>\n", smem_group_digits(b, sizeof b, e->count));
        }
    }
    if (head)
        fputs("</table>\n", f);
    if (m != first || !r->nfindings)
        return;
    fputs("<h2 id='sanitizer'>Sanitizer: runtime calls and allocations</h2>\n<table><tr>"
          "<th class='l'>finding</th><th class='l'>call</th><th class='l'>site</th>"
          "<th class='l'>error</th><th>bytes</th><th class='l'>detail</th><th>times</th></tr>\n",
          f);
    for (uint32_t i = 0; i < r->nfindings; i++) {
        const struct smem_run_finding *x = &r->findings[i];
        char b[2][32];
        fputs("<tr class='bad'><td class='l'>", f);
        smem_xml_text(f, x->kind);
        fputs("</td><td class='l'>", f);
        smem_xml_text(f, x->call ? x->call : "?");
        fputs("</td><td class='l'>", f);
        smem_xml_text(f, x->site ? x->site : "?");
        fputs("</td><td class='l'>", f);
        smem_xml_text(f, x->error ? x->error : "");
        fprintf(f, "</td><td>%s</td><td class='l'>",
                x->bytes ? smem_group_digits(b[0], sizeof b[0], x->bytes) : "");
        smem_xml_text(f, x->detail ? x->detail : "");
        fprintf(f, "</td><td>%s</td></tr>\n", smem_group_digits(b[1], sizeof b[1], x->count));
    }
    fputs("</table>\n", f);
}

void smem_run_report_html(FILE *f, const struct smem_run_report *r, uint32_t m)
{
    char title[800];
    size_t tl = (size_t)snprintf(title, sizeof title, "smemlab run: %s",
                                 r->program ? smem_base_name(r->program) : "?");
    for (unsigned i = 0; i < r->nargs && tl < sizeof title; i++)
        tl += (size_t)snprintf(title + tl, sizeof title - tl, " %s", r->args[i]);
    html_page_begin(f, title);
    fputs("<h1>smemlab run: <span class='mono'>", f);
    smem_xml_text(f, title + strlen("smemlab run: "));
    fputs("</span></h1>\n", f);
    /* the launches of this module's kernels, alike consecutive ones folded: which launch of a
       loop changed what, beside the sums below */
    fputs("<h2 id='launches'>Launches</h2>\n<table><tr><th>launch</th><th class='l'>kernel</th>"
          "<th>grid</th><th>block</th><th>shared (static + dynamic)</th><th>ld requests</th>"
          "<th>ld wavefronts</th><th>st requests</th><th>st wavefronts</th><th>hazards</th>"
          "<th>memory errors</th><th class='l'>alike</th></tr>\n", f);
    uint64_t shown = 0;
    for (uint64_t i = 0; i < r->nlaunches && shown < 1000; ) {
        const struct smem_launch_record *l = &r->launches[i];
        uint64_t j = i + 1, repeats = l->repeat;
        while (j < r->nlaunches && same_launch(&r->launches[j - 1], &r->launches[j]))
            repeats += r->launches[j++].repeat;
        if (l->kernel < r->nkernels && r->kernels[l->kernel].module == m) {
            char b[8][32];
            fprintf(f, "<tr class='%s'><td>%s</td><td class='l'>", l->error ? "bad" : "ok",
                    smem_group_digits(b[0], sizeof b[0], l->index));
            smem_xml_text(f, kernel_name(r, l->kernel));
            fprintf(f, "</td><td>%u&#215;%u&#215;%u</td><td>%u&#215;%u&#215;%u</td><td>%u + %u</td>"
                       "<td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td class='l'>",
                    l->grid[0], l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2],
                    l->static_smem, l->dynamic_smem,
                    smem_group_digits(b[1], sizeof b[1], l->ld.requests),
                    smem_group_digits(b[2], sizeof b[2], l->ld.wavefronts),
                    smem_group_digits(b[3], sizeof b[3], l->st.requests),
                    smem_group_digits(b[4], sizeof b[4], l->st.wavefronts),
                    smem_group_digits(b[5], sizeof b[5], count_hazards(l)),
                    smem_group_digits(b[6], sizeof b[6], count_errors(l)));
            if (j - i > 1) {
                fprintf(f, "&#215;%s, launches %s-", smem_group_digits(b[0], sizeof b[0], j - i),
                        smem_group_digits(b[1], sizeof b[1], l->index));
                fprintf(f, "%s", smem_group_digits(b[2], sizeof b[2], r->launches[j - 1].index));
                if (repeats)
                    fprintf(f, ", %s proven repeat%s",
                            smem_group_digits(b[3], sizeof b[3], repeats), repeats == 1 ? "" : "s");
            } else if (l->error) {
                fputs("failed: ", f);
                smem_xml_text(f, l->error);
            }
            fputs("</td></tr>\n", f);
            shown++;
        }
        i = j;
    }
    fputs("</table>\n", f);
    if (shown == 1000)
        fputs("<p class='note'>The first 1,000 rows; --format json or csv lists every launch.</p>\n",
              f);
    smem_report_html_sections(f, &r->modules[m].analysis);
    html_findings(f, r, m);
    html_page_end(f);
}
