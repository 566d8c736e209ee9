/* report.c: an analysis as JSON (the contract in DESIGN.md), a readable table with each site's
 * source line, or CSV; and the one writer of the fields a kernel's JSON record shares with a
 * launch's (json_record.h). Writes to the FILE it is given; decides nothing. */
#include "smemlab/report/report.h"
#include "json_record.h"
#include "smemlab/analysis/analyze.h"

#include "smemlab/base/text.h"

#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *smem_access_op_name(unsigned op)
{
    switch (op) {
    case SMEM_ACC_LD: return "ld";
    case SMEM_ACC_ST: return "st";
    case SMEM_ACC_ATOM: return "atom";
    case SMEM_ACC_LDSM: return "ldsm";
    case SMEM_ACC_STSM: return "stsm";
    case SMEM_ACC_GMMA: return "gmma";
    default: return "ldgsts";
    }
}

const char *smem_hazard_file(const struct smem_kernel_report *k, const struct smem_hazard *z)
{
    if (z->file)
        return z->file;
    return k->program && z->site[0] < k->program->nsites ? k->program->sites[z->site[0]].file : NULL;
}

/* "key": {...}: a totals object; data_dependent: with "data_dependent_requests" where there are any */
static void json_totals(FILE *f, const char *key, const struct smem_totals *t, int data_dependent,
                        const struct smem_totals *ptx)
{
    fprintf(f, "\"%s\": {\"requests\": %llu, \"wavefronts\": %llu, \"ideal_wavefronts\": %llu", key,
            (unsigned long long)t->requests, (unsigned long long)t->wavefronts,
            (unsigned long long)t->ideal);
    if (ptx && (ptx->requests != t->requests || ptx->wavefronts != t->wavefronts))
        /* the PTX's own figure, where the lines' SASS changed it (sass/sass_lines.c) */
        fprintf(f, ", \"ptx_requests\": %llu, \"ptx_wavefronts\": %llu",
                (unsigned long long)ptx->requests, (unsigned long long)ptx->wavefronts);
    if (data_dependent && t->unknown_requests)
        fprintf(f, ", \"data_dependent_requests\": %llu", (unsigned long long)t->unknown_requests);
    if (t->pipe_delta) /* the LSU pipeline's count differs (docs/bank-model.md "Two wavefront counters") */
        fprintf(f, ", \"pipe_wavefronts\": %lld", (long long)((int64_t)t->wavefronts + t->pipe_delta));
    fputc('}', f);
}

void json_record_totals(FILE *f, const struct smem_totals *const t[JSON_RECORD_NTOTALS],
                        int data_dependent, const struct smem_totals *ptx_ld,
                        const struct smem_totals *ptx_st)
{
    static const char *const key[JSON_RECORD_NTOTALS] = {
        "shared_ld", "shared_st", "shared_atom", "shared_ldsm", "shared_stsm", "shared_ldgsts",
        "shared_gmma"};
    for (int i = 0; i < JSON_RECORD_NTOTALS; i++) {
        if (i == 6 && !t[i]->requests)
            continue; /* a kernel without wgmma: the record as it always was */
        if (i)
            fprintf(f, ",\n     ");
        json_totals(f, key[i], t[i], data_dependent, i == 0 ? ptx_ld : i == 1 ? ptx_st : NULL);
    }
}

static const char *const dshared_op[SMEM_DSH_NOPS] = {"ld", "st", "atom", "stas", "redas",
                                                        "tma_st"};

void json_record_dshared(FILE *f, const struct smem_dshared_totals *d, const char *indent)
{
    uint64_t req = 0, bytes = 0, xbar = 0;
    for (int o = 0; o < SMEM_DSH_NOPS; o++) {
        req += d->requests[o];
        bytes += o == SMEM_DSH_TMA_ST ? 0 : d->bytes[o];
        xbar += d->bytes[o] * (o == SMEM_DSH_ATOM ? 2 : 1);
    }
    if (!req)
        return;
    fprintf(f, ",\n%s\"dshared\": {\"requests\": %llu, \"bytes\": %llu, \"xbar_bytes\": %llu",
            indent, (unsigned long long)req, (unsigned long long)bytes, (unsigned long long)xbar);
    for (int o = 0; o < SMEM_DSH_NOPS; o++)
        fprintf(f, ", \"%s\": %llu", dshared_op[o], (unsigned long long)d->requests[o]);
    fputc('}', f);
}

void json_record_work(FILE *f, uint64_t steps, double seconds)
{
    fprintf(f, "\"thread_instructions\": %llu, \"emulation_seconds\": %.4f",
            (unsigned long long)steps, seconds);
}

void json_record_hazards(FILE *f, const struct smem_hazard *hz, uint32_t n)
{
    fprintf(f, "\"hazards\": [");
    for (uint32_t h = 0; h < n; h++) {
        const struct smem_hazard *z = &hz[h];
        fprintf(f, "%s\n       {\"kind\": \"%s\", \"detail\": ", h ? "," : "",
                smem_hazard_kind_name(z->kind));
        smem_json_string(f, z->detail);
        fprintf(f, ", \"lines\": [%u, %u], \"address\": %u", z->lines[0], z->lines[1],
                z->address);
        if (z->var[0]) {
            fprintf(f, ", \"variable\": ");
            smem_json_string(f, z->var);
        }
        fprintf(f, ", \"count\": %llu", (unsigned long long)z->count);
        if (z->file) { /* additive: where lines[] are (the CI writers' file:line) */
            fprintf(f, ", \"file\": ");
            smem_json_string(f, smem_base_name(z->file));
        }
        if (z->kind == SMEM_HAZARD_GLOBAL_RACE) /* additive: the first pair's threads, blocks */
            fprintf(f, ", \"device_address\": %llu, \"threads\": [[%u, %u, %u], [%u, %u, %u]], "
                       "\"blocks\": [[%u, %u, %u], [%u, %u, %u]]",
                    (unsigned long long)z->device_address, z->threads[0][0], z->threads[0][1],
                    z->threads[0][2], z->threads[1][0], z->threads[1][1], z->threads[1][2],
                    z->blocks[0][0], z->blocks[0][1], z->blocks[0][2], z->blocks[1][0],
                    z->blocks[1][1], z->blocks[1][2]);
        fputc('}', f);
    }
    fprintf(f, "%s]", n ? "\n     " : "");
}

/* "  line N, M: why" for the sites whose uint8_t mark at byte `field` of the site is set (each
 * line once, in site order): the table's notes under a kernel */
static void print_marked(FILE *f, const struct smem_kernel_report *k, size_t field, const char *why)
{
    unsigned n = 0, last = 0;
    assert(field < sizeof(struct smem_site_report));
    for (uint32_t s = 0; s < k->nsites; s++) {
        const uint8_t *mark = (const uint8_t *)&k->sites[s] + field;
        if (*mark && (!n || k->sites[s].line != last)) {
            last = k->sites[s].line;
            fprintf(f, "%s%u", n++ ? ", " : "  line ", last);
        }
    }
    if (n)
        fprintf(f, ": %s\n", why);
}

/* "file:line" of frame fr. */
static const char *frame_file(const struct smem_analysis *a, const struct smem_ptx_frame *fr)
{
    return fr->file < a->module->nfiles ? smem_base_name(a->module->files[fr->file]) : "?";
}

#define MAX_CHAIN 16

/* A header of the CUDA toolkit's own libraries (libcu++, CUB, Thrust, cooperative groups, the
 * runtime's crt/): the part of its path from the library's folder on, else NULL. */
static const char *toolkit_path(const char *path)
{
    static const char *const marks[] = {"cuda/std/", "cuda/__", "cuda/ptx", "cooperative_groups",
                                        "cub/", "thrust/", "cccl/", "nv/", "crt/", NULL};
    if (!path)
        return NULL;
    for (unsigned i = 0; marks[i]; i++) {
        for (const char *p = strstr(path, marks[i]); p; p = strstr(p + 1, marks[i]))
            if (p == path || p[-1] == '/')
                return p;
    }
    return NULL;
}

static const char *frame_path(const struct smem_analysis *a, const struct smem_ptx_frame *fr)
{
    return fr->file < a->module->nfiles ? a->module->files[fr->file] : NULL;
}

void smem_report_json_kernel(FILE *f, const struct smem_analysis *a,
                             const struct smem_kernel_report *k, const char *extra)
{
    fprintf(f, "{\"name\": ");
    smem_json_string(f, k->name);
    fprintf(f, ", \"symbol\": ");
    smem_json_string(f, k->symbol);
    fprintf(f, ",\n     \"block\": [%u, %u, %u], \"grid\": [%u, %u, %u], \"static_smem\": %u, "
               "\"dynamic_smem\": %u,\n     ",
            k->block[0], k->block[1], k->block[2], k->grid[0], k->grid[1], k->grid[2],
            k->static_smem, k->dynamic_smem);
    const struct smem_totals *const t[JSON_RECORD_NTOTALS] = JSON_RECORD_TOTALS(k);
    json_record_totals(f, t, 1, &k->ptx_ld, &k->ptx_st);
    json_record_dshared(f, &k->dshared, "     ");
    if (k->ndshared_lines) {
        fprintf(f, ",\n     \"dshared_sites\": [");
        for (uint32_t i = 0; i < k->ndshared_lines; i++) {
            const struct smem_dshared_line *d = &k->dshared_lines[i];
            fprintf(f, "%s{\"file\": ", i ? ", " : "");
            smem_json_string(f, d->file ? d->file : "");
            fprintf(f, ", \"line\": %u, \"op\": \"%s\", \"requests\": %llu, \"bytes\": %llu}",
                    d->line, dshared_op[d->op], (unsigned long long)d->requests,
                    (unsigned long long)d->bytes);
        }
        fputc(']', f);
    }
    fprintf(f, ",\n     \"blocks_analysed\": %llu, \"blocks\": %llu, \"extrapolated\": %s, "
               "\"complete\": %s",
            (unsigned long long)k->blocks_run, (unsigned long long)k->blocks_total,
            (k->blocks_run < k->blocks_total || k->extrapolation[0]) && k->complete ? "true"
                                                                                    : "false",
            k->complete ? "true" : "false");
    if (k->extrapolation[0]) {
        fprintf(f, ", \"blocks_emulated\": 1, \"extrapolation_reason\": ");
        smem_json_string(f, k->extrapolation);
    }
    fprintf(f, ", ");
    json_record_work(f, k->steps, k->seconds);
    if (extra)
        fprintf(f, ", %s", extra);
    if (k->error) {
        fprintf(f, ", \"error\": ");
        smem_json_string(f, k->error);
        if (k->error_stage)
            fprintf(f, ", \"error_stage\": \"%s\"", k->error_stage);
    } else if (!k->complete) {
        fprintf(f, ", \"incomplete\": ");
        smem_json_string(f, k->incomplete_why);
    }
    if (k->sass_not_checked[0]) {
        fprintf(f, ", \"sass_not_checked\": ");
        smem_json_string(f, k->sass_not_checked);
    }
    fprintf(f, ",\n     \"sites\": [");
    for (uint32_t s = 0; s < k->nsites; s++) {
        const struct smem_site_report *r = &k->sites[s];
        fprintf(f, "%s\n       {\"file\": ", s ? "," : "");
        smem_json_string(f, smem_base_name(r->file));
        fprintf(f, ", \"line\": %u, \"op\": \"%s\", \"bytes\": %u, \"requests\": %llu, "
                   "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"max_ways\": %u, "
                   "\"data_dependent\": %s",
                r->line, smem_access_op_name(r->op), r->bytes,
                (unsigned long long)r->t.requests, (unsigned long long)r->t.wavefronts,
                (unsigned long long)r->t.ideal, r->t.max_ways,
                r->t.unknown_requests ? "true" : "false");
        if (r->t.pipe_delta)
            fprintf(f, ", \"pipe_wavefronts\": %lld", (long long)((int64_t)r->t.wavefronts + r->t.pipe_delta));
        if (r->in_recursion) /* its counts are a lower bound (analyze.h) */
            fprintf(f, ", \"in_recursion\": true");
        if (r->cas_loop) /* a compare-and-swap loop on sm_90 (analyze.h) */
            fprintf(f, ", \"cas_loop\": true");
        if (r->estimate) /* a cp.async outside the established class (analyze.h) */
            fprintf(f, ", \"estimate\": true");
        if (r->sass_placed[0]) { /* counted as the kernel's SASS has it (sass/sass_fixed.c) */
            fprintf(f, ", \"sass_placed\": ");
            smem_json_string(f, r->sass_placed);
        }
        if (r->ptx_differs) /* the PTX's own figure (sass/sass_lines.c) */
            fprintf(f, ", \"ptx_requests\": %llu, \"ptx_wavefronts\": %llu",
                    (unsigned long long)r->ptx.requests, (unsigned long long)r->ptx.wavefronts);
        if (r->ptxas_differs[0]) { /* the SASS census (census.h) */
            fprintf(f, ", \"ptxas_differs\": ");
            smem_json_string(f, r->ptxas_differs);
        }
        /* written in an inlined function: where, innermost first, out to the kernel's line */
        const struct smem_ptx_frame *ch[MAX_CHAIN];
        unsigned nch = smem_site_chain(a, k, r, ch, MAX_CHAIN);
        assert(nch <= MAX_CHAIN);
        if (nch) {
            fprintf(f, ", \"inline\": [");
            for (unsigned c = 0; c < nch; c++) {
                fprintf(f, "%s{\"file\": ", c ? ", " : "");
                smem_json_string(f, frame_file(a, ch[c]));
                fprintf(f, ", \"line\": %u}", ch[c]->line);
            }
            fputc(']', f);
        }
        fputc('}', f);
    }
    fprintf(f, "%s],\n     ", k->nsites ? "\n     " : "");
    json_record_hazards(f, k->hazards, k->nhazards);
    fputc('}', f);
}

void smem_report_json(FILE *f, const struct smem_analysis *a)
{
    fprintf(f, "{\n  \"source\": ");
    smem_json_string(f, a->source);
    fprintf(f, ",\n  \"kernels\": [");
    for (uint32_t i = 0; i < a->nkernels; i++) {
        fprintf(f, "%s\n    ", i ? "," : "");
        smem_report_json_kernel(f, a, &a->kernels[i], NULL);
    }
    fprintf(f, "\n  ]\n}\n");
}

void smem_report_sass_lines(FILE *f, const struct smem_kernel_report *k)
{
    if (k->sass_not_checked[0]) { /* said where there is something to check */
        if (k->nsites)
            fprintf(f, "  SASS not checked: %s\n", k->sass_not_checked);
        return;
    }
    for (uint32_t s = 0; s < k->nsites; s++) {
        const struct smem_site_report *r = &k->sites[s];
        int seen = 0;
        for (uint32_t t = 0; t < s && !seen; t++)
            seen = k->sites[t].line == r->line && !strcmp(k->sites[t].ptxas_differs, r->ptxas_differs);
        if (r->ptxas_differs[0] && !seen)
            fprintf(f, "  line %u: %s; this line's count is the PTX's, the H100's may differ\n",
                    r->line, r->ptxas_differs);
    }
    for (uint32_t s = 0; s < k->nsites; s++) {
        const struct smem_site_report *r = &k->sites[s];
        if (r->sass_placed[0])
            fprintf(f, "  line %u: counted as ptxas's SASS has it: %s\n", r->line, r->sass_placed);
    }
    if (k->sass_notes[0])
        fprintf(f, "  ptxas, on lines without a shared site: %s\n", k->sass_notes);
}

static void ways_text(char *buf, size_t n, const struct smem_totals *t)
{
    if (t->unknown_requests && !t->wavefronts)
        snprintf(buf, n, "data-dependent");
    else if (t->wavefronts <= t->ideal)
        snprintf(buf, n, "conflict-free");
    else
        snprintf(buf, n, "%u-way", t->max_ways);
}

void smem_report_table(FILE *f, const struct smem_analysis *a)
{
    struct smem_source_cache src = {"", NULL};
    char line[512];
    /* the kernels without a whole answer (not analysed, or stopped incomplete) first, each pass
       in the analysis's order: what a reader must act on before trusting the rest */
    for (uint32_t n = 0, pass = 0; pass < 2; pass++)
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const struct smem_kernel_report *k = &a->kernels[i];
        if ((pass == 0) != (k->error || !k->complete))
            continue;
        if (k->error) {
            fprintf(f, "%s%s  not analysed: %s\n", n++ ? "\n" : "", k->name, k->error);
            continue;
        }
        fprintf(f, "%s%s  block %ux%ux%u grid %ux%ux%u  shared %u B static + %u B dynamic\n",
                n++ ? "\n" : "", k->name, k->block[0], k->block[1], k->block[2], k->grid[0],
                k->grid[1], k->grid[2], k->static_smem, k->dynamic_smem);
        if (k->blocks_run < k->blocks_total)
            fprintf(f, "  (analysed %llu of %llu blocks: totals cover those blocks only)\n",
                    (unsigned long long)k->blocks_run, (unsigned long long)k->blocks_total);
        if (k->extrapolation[0])
            fprintf(f, "  (one block emulated stands for all %llu: %s; totals cover every block; "
                       "--all-blocks emulates each)\n",
                    (unsigned long long)k->blocks_total, k->extrapolation);
        if (!k->nsites) {
            fprintf(f, "  no shared-memory access\n");
        } else {
            /* wf/req: the average over the line's requests; worst: its costliest request */
            fprintf(f, "  %-6s %-4s %-3s %9s %11s %10s %-15s %s\n", "line", "op", "B", "requests",
                    "wavefronts", "avg wf/req", "worst request", "source");
            for (uint32_t s = 0; s < k->nsites; s++) {
                const struct smem_site_report *r = &k->sites[s];
                char ways[32];
                ways_text(ways, sizeof ways, &r->t);
                double per = r->t.requests ? (double)r->t.wavefronts / (double)r->t.requests : 0;
                const struct smem_ptx_frame *ch[MAX_CHAIN];
                unsigned nch = smem_site_chain(a, k, r, ch, MAX_CHAIN), ntk = 0, printed = 0;
                /* an inlined site: "41>12", the kernel's line and the program's own line it is
                   written on (the innermost frame outside the toolkit's headers), so the rows
                   of one inlined call tell apart */
                char at[32];
                snprintf(at, sizeof at, "%u", r->line);
                for (unsigned c = 0; c < nch; c++)
                    if (!toolkit_path(frame_path(a, ch[c]))) {
                        snprintf(at, sizeof at, "%u>%u", r->line, ch[c]->line);
                        break;
                    }
                fprintf(f, "  %-6s %-4s %-3u %9llu %11llu %10.2f %-15s %s\n", at,
                        smem_access_op_name(r->op), r->bytes, (unsigned long long)r->t.requests,
                        (unsigned long long)r->t.wavefronts, per, ways,
                        smem_source_statement(&src, r->file, r->line, line, sizeof line));
                /* the inlined lines, innermost first: the program's own, then the toolkit's
                   (libcu++, CUB, ...) folded into one line naming the innermost */
                const struct smem_ptx_frame *tk = NULL;
                for (unsigned c = 0; c < nch; c++) {
                    if (toolkit_path(frame_path(a, ch[c]))) {
                        if (!ntk++)
                            tk = ch[c];
                        continue;
                    }
                    fprintf(f, "  %-6s %s %s:%u: %s\n", "",
                            printed++ ? "  called at" : "  inlined from", frame_file(a, ch[c]),
                            ch[c]->line,
                            smem_source_line(&src, frame_path(a, ch[c]), ch[c]->line, line,
                                             sizeof line));
                }
                if (ntk)
                    fprintf(f, "  %-6s   through %u frame%s of the CUDA toolkit's headers (innermost "
                               "%s:%u), folded\n", "", ntk, ntk == 1 ? "" : "s",
                            toolkit_path(frame_path(a, tk)), tk->line);
            }
        }
        const struct smem_totals *const tt[JSON_RECORD_NTOTALS] = JSON_RECORD_TOTALS(k);
        const char *tn[7] = {"loads", "stores", "atomics", "ldmatrix", "stmatrix", "cp.async", "wgmma"};
        for (int j = 0; j < 7; j++)
            if (tt[j]->requests)
                fprintf(f, "  %-8s %llu requests, %llu wavefronts (ideal %llu)%s\n", tn[j],
                        (unsigned long long)tt[j]->requests, (unsigned long long)tt[j]->wavefronts,
                        (unsigned long long)tt[j]->ideal,
                        tt[j]->wavefronts <= tt[j]->ideal ? ""
                        : j == 5 && tt[j]->max_ways <= 1 ? ": more than one wavefront a pass (how a "
                                                           ".cg copy's sectors land in shared memory)"
                                                         : ": bank conflicts");
        uint64_t dreq = 0, dby = 0;
        for (int o = 0; o < SMEM_DSH_NOPS; o++) {
            dreq += k->dshared.requests[o];
            dby += k->dshared.bytes[o];
        }
        if (dreq)
            fprintf(f, "  %-8s %llu requests, %llu bytes to other CTAs' shared memory (distributed "
                       "shared memory)\n", "dshared", (unsigned long long)dreq,
                    (unsigned long long)dby);
        for (uint32_t d = 0; d < k->ndshared_lines; d++)
            fprintf(f, "  %-8s line %u %s: %llu requests, %llu bytes\n", "",
                    k->dshared_lines[d].line, dshared_op[k->dshared_lines[d].op],
                    (unsigned long long)k->dshared_lines[d].requests,
                    (unsigned long long)k->dshared_lines[d].bytes);
        print_marked(f, k, offsetof(struct smem_site_report, in_recursion),
                     "inside a recursive function, where the lanes of a warp at different call "
                     "depths are counted as one request; the GPU issues one a call frame: a lower "
                     "bound");
        print_marked(f, k, offsetof(struct smem_site_report, cas_loop),
                     "a shared atomic that sm_90 runs as a compare-and-swap loop: a round (one "
                     "load, counted with the loads, and one atomic) for the most lanes in one "
                     "bank; rounds that other warps force are not counted");
        print_marked(f, k, offsetof(struct smem_site_report, estimate),
                     "cp.async requests outside the established class of the measured rules "
                     "(docs/bank-model.md): their cost is an estimate");
        smem_report_sass_lines(f, k);
        if (!k->complete)
            fprintf(f, "  incomplete: %s\n", k->incomplete_why);
        for (uint32_t h = 0; h < k->nhazards; h++) {
            const struct smem_hazard *z = &k->hazards[h];
            const char *file = smem_hazard_file(k, z);
            if (z->kind == SMEM_HAZARD_UNINIT_SHARED) /* one access: one line */
                fprintf(f, "  hazard: %s (%s) line %u", smem_hazard_kind_name(z->kind), z->detail,
                        z->lines[0]);
            else
                fprintf(f, "  hazard: %s (%s) lines %u and %u", smem_hazard_kind_name(z->kind),
                        z->detail, z->lines[0], z->lines[1]);
            if (z->kind == SMEM_HAZARD_GLOBAL_RACE)
                fprintf(f, ", address 0x%llx", (unsigned long long)z->device_address);
            else if (z->kind != SMEM_HAZARD_BARRIER)
                fprintf(f, ", address %u%s%s", z->address, z->var[0] ? " in " : "", z->var);
            if (z->count == 1)
                fprintf(f, ", seen once\n");
            else
                fprintf(f, ", seen %llu times\n", (unsigned long long)z->count);
            if (z->lines[0])
                fprintf(f, "    %u: %s\n", z->lines[0],
                        smem_source_line(&src, file, z->lines[0], line, sizeof line));
            if (z->lines[1] && z->lines[1] != z->lines[0])
                fprintf(f, "    %u: %s\n", z->lines[1],
                        smem_source_line(&src, file, z->lines[1], line, sizeof line));
        }
    }
    smem_source_cache_free(&src);
}

void smem_report_csv(FILE *f, const struct smem_analysis *a)
{
    fprintf(f, "kernel,file,line,op,bytes,requests,wavefronts,ideal_wavefronts,max_ways,"
               "data_dependent\n");
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const struct smem_kernel_report *k = &a->kernels[i];
        for (uint32_t s = 0; s < k->nsites; s++) {
            const struct smem_site_report *r = &k->sites[s];
            fprintf(f, "\"%s\",%s,%u,%s,%u,%llu,%llu,%llu,%u,%d\n", k->name, smem_base_name(r->file),
                    r->line, smem_access_op_name(r->op), r->bytes,
                    (unsigned long long)r->t.requests, (unsigned long long)r->t.wavefronts,
                    (unsigned long long)r->t.ideal, r->t.max_ways, r->t.unknown_requests ? 1 : 0);
        }
    }
}
