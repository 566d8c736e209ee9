/* report_html.c: an analysis as one self-contained HTML page: a summary (kernels and sites by excess
 * wavefronts, each linking to its bank map), per kernel its sites, a bank map of each conflicting
 * site's costliest request beside its source line, and its hazards with both lines. */
#include "smemlab/report/report.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/base/text.h"
#include "smemlab/report/bankmap.h"
#include "html_page.h"

#include <stdlib.h>
#include <string.h>

typedef unsigned long long ull;

/* v grouped by thousands for the page (105,906,176): a few rotating buffers, one page at a time */
static const char *G(ull v)
{
    static char buf[8][32];
    static unsigned next;
    next = (next + 1) % 8;
    return smem_group_digits(buf[next], sizeof buf[next], v);
}

static uint64_t excess(const struct smem_totals *t)
{
    return t->wavefronts > t->ideal ? t->wavefronts - t->ideal : 0;
}

/* A .cg cp.async pays a wavefront for each global line it reads (docs/bank-model.md): wavefronts
 * above its ideal without a bank conflict (max_ways 1) are no conflict to show. */
static uint64_t copy_excess(const struct smem_totals *t)
{
    return t->max_ways > 1 ? excess(t) : 0;
}

static uint64_t kernel_excess(const struct smem_kernel_report *k)
{
    return excess(&k->ld) + excess(&k->st) + excess(&k->atom) + excess(&k->ldsm) +
           excess(&k->stsm) + copy_excess(&k->ldgsts);
}

static uint64_t site_excess(const struct smem_site_report *r)
{
    return r->op == SMEM_ACC_CP_ASYNC ? copy_excess(&r->t) : excess(&r->t);
}

/* A site has a map when it has conflicts and a priced request to draw. */
static int has_map(const struct smem_site_report *r) { return site_excess(r) && r->worst.active; }

struct ranked {
    uint64_t excess;
    uint32_t kernel, site;
};

static int by_excess(const void *pa, const void *pb)
{
    const struct ranked *a = pa, *b = pb;
    if (a->excess != b->excess)
        return a->excess < b->excess ? 1 : -1;
    if (a->kernel != b->kernel)
        return a->kernel < b->kernel ? -1 : 1;
    return a->site < b->site ? -1 : a->site > b->site;
}

/* "file.cu:17" (the base name; "line 17" without line info). */
static void where(FILE *f, const char *file, uint32_t line)
{
    if (file && *file) {
        smem_xml_text(f, smem_base_name(file));
        fprintf(f, ":%u", line);
    } else {
        fprintf(f, "line %u", line);
    }
}

static void site_link(FILE *f, const struct smem_site_report *r, uint32_t ki, uint32_t si)
{
    if (has_map(r))
        fprintf(f, "<a href='#k%u-s%u'>", ki, si);
    where(f, r->file, r->line);
    if (has_map(r))
        fputs("</a>", f);
}

static void ways_cell(FILE *f, const struct smem_site_report *r)
{
    if (site_excess(r))
        fprintf(f, "%u-way", r->t.max_ways);
    else if (r->t.requests > r->t.unknown_requests)
        fputs("free", f);
    else
        fputs("-", f);
}

static void source_cell(FILE *f, struct smem_source_cache *src, const char *file, uint32_t line)
{
    char buf[600];
    fputs("<td class='src'><code>", f);
    smem_xml_text(f, smem_source_statement(src, file, line, buf, sizeof buf));
    fputs("</code></td>", f);
}

static void hazard_line(FILE *f, struct smem_source_cache *src, const char *file, uint32_t line)
{
    char buf[600];
    fputs("<td class='l'>", f);
    if (line) {
        where(f, file, line);
        fputs("<br/><code>", f);
        smem_xml_text(f, smem_source_line(src, file, line, buf, sizeof buf));
        fputs("</code>", f);
    } else {
        fputs("-", f);
    }
    fputs("</td>", f);
}

/* Every hazard of every kernel, each with both lines and their source. */
static void hazards(FILE *f, const struct smem_analysis *a, struct smem_source_cache *src)
{
    fputs("<h3 id='hazards'>Hazards</h3>\n", f);
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->nkernels; i++)
        n += a->kernels[i].nhazards;
    if (!n) {
        fputs("<p>No race, barrier divergence or out-of-bounds access found.</p>\n", f);
        return;
    }
    fputs("<table class='haz'><tr><th class='l'>kernel</th><th class='l'>kind</th>"
          "<th class='l'>first</th><th class='l'>second</th><th class='l'>address</th>"
          "<th>seen</th></tr>\n", f);
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const struct smem_kernel_report *k = &a->kernels[i];
        for (uint32_t h = 0; h < k->nhazards; h++) {
            const struct smem_hazard *z = &k->hazards[h];
            const char *file = smem_hazard_file(k, z);
            fprintf(f, "<tr><td class='l'><a href='#k%u'>", i);
            smem_xml_text(f, k->name);
            fprintf(f, "</a></td><td class='l'>%s (", smem_hazard_kind_name(z->kind));
            smem_xml_text(f, z->detail);
            fputs(")</td>", f);
            hazard_line(f, src, file, z->lines[0]);
            hazard_line(f, src, file, z->lines[1]);
            fputs("<td class='l nw'>", f);
            if (z->kind == SMEM_HAZARD_GLOBAL_RACE) {
                fprintf(f, "0x%llx", (unsigned long long)z->device_address);
            } else if (z->kind != SMEM_HAZARD_BARRIER) {
                fprintf(f, "byte %u", z->address);
                if (z->var[0]) {
                    fputs(" of <code>", f);
                    smem_xml_text(f, z->var);
                    fputs("</code>", f);
                }
            } else {
                fputs("-", f);
            }
            fprintf(f, "</td><td>%s</td></tr>\n", G(z->count));
        }
    }
    fputs("</table>\n", f);
}

static void summary(FILE *f, const struct smem_analysis *a, struct smem_source_cache *src)
{
    uint32_t nsites = 0, nbad = 0, nhaz = 0;
    for (uint32_t i = 0; i < a->nkernels; i++) {
        nsites += a->kernels[i].nsites;
        nhaz += a->kernels[i].nhazards;
        for (uint32_t s = 0; s < a->kernels[i].nsites; s++)
            nbad += site_excess(&a->kernels[i].sites[s]) > 0;
    }
    struct ranked *rk = malloc(sizeof *rk * (a->nkernels + nbad + 1));
    fprintf(f, "<p class='note'>%u kernel%s, %u site%s (source lines with shared-memory accesses), "
               "%u with bank conflicts; %u hazard%s. Requests and wavefronts as Nsight Compute counts "
               "them on an H100. <b>Excess</b> = wavefronts &#8722; ideal: the passes bank conflicts "
               "add. In a bank map each column is a bank and each row one more distinct word that "
               "bank must deliver (one more pass), so the tallest column is the n of n-way; a cell "
               "names the lane that wants the word (+: more lanes share it; hover for all).</p>\n",
            a->nkernels, a->nkernels == 1 ? "" : "s", nsites, nsites == 1 ? "" : "s", nbad, nhaz,
            nhaz == 1 ? "" : "s");
    if (!rk) {
        fputs("<p>(out of memory: no summary)</p>\n", f);
        return;
    }
    fputs("<h2 id='summary'>Summary</h2>\n<h3>Kernels by excess wavefronts</h3>\n"
          "<table><tr><th class='l'>kernel</th><th>excess</th><th>load wavefronts (ideal)</th>"
          "<th>store wavefronts (ideal)</th><th>atomic wavefronts (ideal)</th>"
          "<th>ldmatrix wavefronts (ideal)</th><th>stmatrix wavefronts (ideal)</th>"
          "<th>cp.async wavefronts (ideal)</th><th>sites with conflicts</th><th>hazards</th></tr>\n", f);
    for (uint32_t i = 0; i < a->nkernels; i++)
        rk[i] = (struct ranked){kernel_excess(&a->kernels[i]), i, 0};
    qsort(rk, a->nkernels, sizeof *rk, by_excess);
    for (uint32_t j = 0; j < a->nkernels; j++) {
        const struct smem_kernel_report *k = &a->kernels[rk[j].kernel];
        uint32_t bad = 0;
        for (uint32_t s = 0; s < k->nsites; s++)
            bad += site_excess(&k->sites[s]) > 0;
        fprintf(f, "<tr class='%s'><td class='l'><a href='#k%u'>", rk[j].excess ? "bad" : "ok",
                rk[j].kernel);
        smem_xml_text(f, k->name);
        fprintf(f, "</a>%s</td><td class='x'>%s</td>", k->complete ? "" : " (incomplete)",
                G(rk[j].excess));
        const struct smem_totals *t[6] = {&k->ld, &k->st, &k->atom, &k->ldsm, &k->stsm,
                                          &k->ldgsts};
        for (int i = 0; i < 6; i++)
            fprintf(f, t[i]->requests ? "<td>%s (%s)</td>" : "<td>-</td>", G(t[i]->wavefronts),
                    G(t[i]->ideal));
        fprintf(f, k->nhazards ? "<td>%u of %u</td><td class='x'><a href='#hazards'>%u</a></td></tr>\n"
                               : "<td>%u of %u</td><td>%u</td></tr>\n",
                bad, k->nsites, k->nhazards);
    }
    fputs("</table>\n<h3>Sites by excess wavefronts</h3>\n", f);
    uint32_t n = 0;
    for (uint32_t i = 0; i < a->nkernels; i++)
        for (uint32_t s = 0; s < a->kernels[i].nsites; s++)
            if (site_excess(&a->kernels[i].sites[s]))
                rk[n++] = (struct ranked){site_excess(&a->kernels[i].sites[s]), i, s};
    qsort(rk, n, sizeof *rk, by_excess);
    if (!n)
        fputs("<p>No site has a bank conflict.</p>\n", f);
    else
        fputs("<table><tr><th>#</th><th class='l'>site (map)</th><th class='l'>kernel</th>"
              "<th>excess</th><th title='the n-way of its costliest request'>worst request</th>"
              "<th>op</th><th>bytes</th><th>requests</th>"
              "<th>wavefronts</th><th>ideal</th><th class='l'>source</th></tr>\n", f);
    for (uint32_t j = 0; j < n; j++) {
        const struct smem_kernel_report *k = &a->kernels[rk[j].kernel];
        const struct smem_site_report *r = &k->sites[rk[j].site];
        fprintf(f, "<tr class='bad'><td>%u</td><td class='l'>", j + 1);
        site_link(f, r, rk[j].kernel, rk[j].site);
        fputs("</td><td class='l'>", f);
        smem_xml_text(f, k->name);
        fprintf(f, "</td><td class='x'>%s</td><td>", G(rk[j].excess));
        ways_cell(f, r);
        fprintf(f, "</td><td>%s</td><td>%u</td><td>%s</td><td>%s</td><td>%s</td>",
                smem_access_op_name(r->op), r->bytes, G(r->t.requests), G(r->t.wavefronts),
                G(r->t.ideal));
        source_cell(f, src, r->file, r->line);
        fputs("</tr>\n", f);
    }
    if (n)
        fputs("</table>\n", f);
    free(rk);
    hazards(f, a, src);
}

/* Code inlined at this line: where it is written, innermost first, each with its source text. */
static void site_inline_chain(FILE *f, const struct smem_analysis *a,
                              const struct smem_kernel_report *k, const struct smem_site_report *r,
                              struct smem_source_cache *src)
{
    const struct smem_ptx_frame *ch[16];
    unsigned n = smem_site_chain(a, k, r, ch, 16);
    char buf[600];
    for (unsigned c = 0; c < n; c++) {
        const char *file = ch[c]->file < a->module->nfiles ? a->module->files[ch[c]->file] : NULL;
        fprintf(f, "<p class='chain'>%s ", c ? "called at" : "inlined from");
        where(f, file, ch[c]->line);
        fputs("</p>\n<pre class='src'>", f);
        smem_xml_text(f, smem_source_line(src, file, ch[c]->line, buf, sizeof buf));
        fputs("</pre>\n", f);
    }
}

static void site_map(FILE *f, const struct smem_analysis *a, const struct smem_kernel_report *k,
                     uint32_t ki, uint32_t si, struct smem_source_cache *src)
{
    const struct smem_site_report *r = &k->sites[si];
    char buf[600];
    struct smem_banks b = smem_banks_default();
    fprintf(f, "<div class='site' id='k%u-s%u'><h3>", ki, si);
    where(f, r->file, r->line);
    fprintf(f, ": %s of %u bytes, %u-way, excess %s <a class='top' href='#summary'>summary</a>"
               "</h3>\n<div class='pair'>\n",
            smem_access_op_name(r->op), r->bytes, r->t.max_ways, G(site_excess(r)));
    smem_bankmap_svg(f, &b, &r->worst);
    fputs("<div class='where'><p class='path'>", f);
    if (r->file && *r->file) {
        smem_xml_text(f, r->file);
        fputs(", ", f);
    }
    fprintf(f, "line %u</p>\n<pre class='src'>", r->line);
    smem_xml_text(f, smem_source_statement(src, r->file, r->line, buf, sizeof buf));
    fputs("</pre>\n", f);
    site_inline_chain(f, a, k, r, src);
    fprintf(f, "<p>The map: this site's costliest request, %u wavefront%s. The site: %s "
               "request%s, %s wavefronts, ideal %s.",
            r->worst_wf, r->worst_wf == 1 ? "" : "s", G(r->t.requests),
            r->t.requests == 1 ? "" : "s", G(r->t.wavefronts), G(r->t.ideal));
    if (r->t.unknown_requests)
        fprintf(f, " %s request%s with a data-dependent address, not priced.",
                G(r->t.unknown_requests), r->t.unknown_requests == 1 ? "" : "s");
    fputs("</p></div></div></div>\n", f);
}

static void kernel(FILE *f, const struct smem_analysis *a, uint32_t ki, struct smem_source_cache *src)
{
    const struct smem_kernel_report *k = &a->kernels[ki];
    fprintf(f, "<h2 id='k%u'>", ki);
    smem_xml_text(f, k->name);
    fprintf(f, " <a class='top' href='#summary'>summary</a></h2>\n<p>block %u &#215; %u &#215; %u, "
               "grid %u &#215; %u &#215; %u; shared %u B static + %u B dynamic.",
            k->block[0], k->block[1], k->block[2], k->grid[0], k->grid[1], k->grid[2],
            k->static_smem, k->dynamic_smem);
    if (k->blocks_run < k->blocks_total)
        fprintf(f, " Analysed %s of %s blocks: totals cover those blocks only.",
                G(k->blocks_run), G(k->blocks_total));
    if (k->extrapolation[0]) {
        fprintf(f, " One block emulated stands for all %s (", G(k->blocks_total));
        smem_xml_text(f, k->extrapolation);
        fprintf(f, "): totals cover every block.");
    }
    const struct smem_totals *t[6] = {&k->ld, &k->st, &k->atom, &k->ldsm, &k->stsm, &k->ldgsts};
    const char *tn[6] = {"Loads", "Stores", "Atomics", "ldmatrix (LDSM)", "stmatrix (STSM)",
                         "cp.async (LDGSTS)"};
    for (int i = 0; i < 6; i++)
        if (t[i]->requests)
            fprintf(f, " %s: %s requests, %s wavefronts (ideal %s).", tn[i],
                    G(t[i]->requests), G(t[i]->wavefronts), G(t[i]->ideal));
    if (k->nhazards)
        fprintf(f, " <a href='#hazards'>%u hazard%s</a>.", k->nhazards, k->nhazards == 1 ? "" : "s");
    fputs("</p>\n", f);
    if (!k->complete) {
        fputs("<p><b>Incomplete:</b> ", f);
        smem_xml_text(f, k->incomplete_why);
        fputs("</p>\n", f);
    }
    if (!k->nsites) {
        fputs("<p>No shared-memory access.</p>\n", f);
    } else {
        fputs("<table><tr><th class='l'>site</th><th>op</th><th>bytes</th><th>requests</th>"
              "<th>wavefronts</th><th>ideal</th><th>excess</th>"
              "<th title='the n-way of its costliest request'>worst request</th>"
              "<th class='l'>source</th></tr>\n", f);
        for (uint32_t s = 0; s < k->nsites; s++) {
            const struct smem_site_report *r = &k->sites[s];
            fprintf(f, "<tr class='%s'><td class='l'>", site_excess(r) ? "bad" : "ok");
            site_link(f, r, ki, s);
            fprintf(f, "</td><td>%s</td><td>%u</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td class='x'>%s</td><td>",
                    smem_access_op_name(r->op), r->bytes, G(r->t.requests), G(r->t.wavefronts),
                    G(r->t.ideal), G(site_excess(r)));
            ways_cell(f, r);
            fputs("</td>", f);
            source_cell(f, src, r->file, r->line);
            fputs("</tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    /* the SASS census (census.h): where ptxas's code differs from the PTX counted */
    if (k->sass_not_checked[0] && k->nsites) {
        fputs("<p>SASS not checked: ", f);
        smem_xml_text(f, k->sass_not_checked);
        fputs("</p>\n", f);
    }
    for (uint32_t s = 0; s < k->nsites; s++) {
        const struct smem_site_report *r = &k->sites[s];
        int seen = 0;
        for (uint32_t u = 0; u < s && !seen; u++)
            seen = k->sites[u].line == r->line && !strcmp(k->sites[u].ptxas_differs, r->ptxas_differs);
        if (!r->ptxas_differs[0] || seen)
            continue;
        fprintf(f, "<p><b>Line %u:</b> ", r->line);
        smem_xml_text(f, r->ptxas_differs);
        fputs("; this line's count is the PTX's, the H100's may differ.</p>\n", f);
    }
    for (uint32_t s = 0; s < k->nsites; s++)
        if (k->sites[s].sass_placed[0]) { /* sass/sass_fixed.c */
            fprintf(f, "<p><b>Line %u:</b> counted as ptxas's SASS has it: ", k->sites[s].line);
            smem_xml_text(f, k->sites[s].sass_placed);
            fputs(".</p>\n", f);
        }
    for (uint32_t s = 0; s < k->nsites; s++)
        if (has_map(&k->sites[s]))
            site_map(f, a, k, ki, s, src);
}

void smem_report_html_sections(FILE *f, const struct smem_analysis *a)
{
    struct smem_source_cache src = {"", NULL};
    summary(f, a, &src);
    for (uint32_t i = 0; i < a->nkernels; i++)
        kernel(f, a, i, &src);
    smem_source_cache_free(&src);
}

void smem_report_html(FILE *f, const struct smem_analysis *a)
{
    char title[300];
    snprintf(title, sizeof title, "smemlab analyze: %s", smem_base_name(a->source));
    html_page_begin(f, title);
    fputs("<h1>smemlab analyze: <span class='mono'>", f);
    smem_xml_text(f, smem_base_name(a->source));
    fputs("</span></h1>\n", f);
    smem_report_html_sections(f, a);
    html_page_end(f);
}
