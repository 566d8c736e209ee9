/* run_report.c: the report of `smemlab run` (a program's launches) as JSON, a table or CSV. The
 * kernels' sums reuse analyze's writers, so a site reads the same in both reports; a launch's JSON
 * record writes the fields it shares with a kernel's through the same writer (json_record.h). */
#include "smemlab/report/run_report.h"
#include "smemlab/report/report.h"
#include "json_record.h"

#include "smemlab/base/text.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLE_LAUNCHES 60 /* the table lists this many launches; JSON and CSV list all */

const char *smem_memory_error_name(unsigned kind)
{
    switch (kind) {
    case SMEM_GFAULT_LOAD: return "load";
    case SMEM_GFAULT_STORE: return "store";
    case SMEM_GFAULT_ATOM: return "atomic";
    case SMEM_GFAULT_MISALIGNED: return "misaligned access";
    case SMEM_GFAULT_UNKNOWN_VALUE: return "store of a value the emulator does not know";
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
        fputc('}', f);
    }
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
        const char *colon = x->site ? strrchr(x->site, ':') : NULL;
        char *end = NULL;
        unsigned long line = colon ? strtoul(colon + 1, &end, 10) : 0;
        if (colon && end && !*end && line) {
            char file[512];
            snprintf(file, sizeof file, "%.*s", (int)(colon - x->site), x->site);
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
        }
        if (!strcmp(x->kind, "leak"))
            fprintf(f, ", \"address\": %llu, \"bytes\": %llu", (unsigned long long)x->address,
                    (unsigned long long)x->bytes);
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
        json_record_totals(f, t, 0);
        fprintf(f, ",\n     ");
        json_record_work(f, l->steps, l->seconds);
        if (l->repeat)
            fprintf(f, ", \"repeat\": true");
        if (l->error) {
            fprintf(f, ", \"error\": ");
            smem_json_string(f, l->error);
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
    if (r->nlaunches) {
        fprintf(f, "\n  %-6s %-24s %-12s %-12s %-11s %-17s %-17s %-9s %s\n", "launch", "kernel",
                "grid", "block", "smem", "ld req/wf", "st req/wf", "hazards", "memory errors");
        for (uint64_t i = 0; i < r->nlaunches && i < MAX_TABLE_LAUNCHES; i++) {
            const struct smem_launch_record *l = &r->launches[i];
            char g[40], b[40], ld[48], st[48], sm[32];
            dims(g, sizeof g, l->grid);
            dims(b, sizeof b, l->block);
            req_wf(ld, sizeof ld, &l->ld);
            req_wf(st, sizeof st, &l->st);
            snprintf(sm, sizeof sm, "%u+%u", l->static_smem, l->dynamic_smem);
            uint64_t hz = 0;
            for (uint32_t h = 0; h < l->nhazards; h++)
                hz += l->hazards[h].count;
            fprintf(f, "  %-6llu %-24.24s %-12s %-12s %-11s %-17s %-17s %-9llu %llu%s\n",
                    (unsigned long long)l->index, kernel_name(r, l->kernel), g, b, sm, ld, st,
                    (unsigned long long)hz, (unsigned long long)count_errors(l),
                    l->error ? "  (failed)" : l->repeat ? "  (repeat)" : "");
        }
        if (r->nlaunches > MAX_TABLE_LAUNCHES)
            fprintf(f, "  ... %llu more (--format json or csv lists them all)\n",
                    (unsigned long long)(r->nlaunches - MAX_TABLE_LAUNCHES));
        /* ldmatrix / stmatrix / cp.async, counted apart (LDSM, STSM, LDGSTS), when there are any */
        int tensor = 0;
        for (uint64_t i = 0; i < r->nlaunches && i < MAX_TABLE_LAUNCHES; i++)
            tensor |= r->launches[i].ldsm.requests || r->launches[i].stsm.requests ||
                      r->launches[i].ldgsts.requests;
        if (tensor)
            fprintf(f, "\n  %-6s %-24s %-17s %-17s %s\n", "launch", "kernel", "ldsm req/wf",
                    "stsm req/wf", "ldgsts req/wf");
        for (uint64_t i = 0; tensor && i < r->nlaunches && i < MAX_TABLE_LAUNCHES; i++) {
            const struct smem_launch_record *l = &r->launches[i];
            char x[48], y[48], z[48];
            req_wf(x, sizeof x, &l->ldsm);
            req_wf(y, sizeof y, &l->stsm);
            req_wf(z, sizeof z, &l->ldgsts);
            fprintf(f, "  %-6llu %-24.24s %-17s %-17s %s\n", (unsigned long long)l->index,
                    kernel_name(r, l->kernel), x, y, z);
        }
    }
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
                           "0 for a value never written, where a GPU leaves whatever was there):\n");
            fprintf(f, "  launch %llu, %s: %s%s of %u bytes at %s:%u, thread (%u,%u,%u) "
                       "block (%u,%u,%u), address 0x%llx: %s; %llu time%s\n",
                    (unsigned long long)l->index, kernel_name(r, l->kernel),
                    e->kind == SMEM_GFAULT_UNKNOWN_VALUE ? "" : "invalid ",
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
            fprintf(f, "\nsanitizer (runtime calls that returned an error; allocations not freed "
                       "at exit, with --leak-check full):\n");
        if (!strcmp(x->kind, "leak")) {
            fprintf(f, "  leak: %llu bytes at 0x%llx, made by %s at %s\n",
                    (unsigned long long)x->bytes, (unsigned long long)x->address, x->call, x->site);
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
