/* report_html.c: an analysis as one self-contained HTML page with SVG bank maps: for each site with
 * conflicts, its costliest request drawn as the documents draw banks (32 columns; each distinct
 * word a bank must deliver is one more row, so the tallest column is the n of n-way). */
#include "smemlab/report/report.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/base/text.h"

#include <stdlib.h>
#include <string.h>

static void html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* One request's bank map. Cell colour by how deep in its bank the word lies (extra passes red). */
static void bank_svg(FILE *f, const struct smem_request *r)
{
    static struct smem_bank_map m;
    struct smem_banks b = smem_banks_default();
    smem_request_map(&b, r, &m);
    unsigned depth = 1;
    for (unsigned k = 0; k < m.count; k++)
        if (m.nwords[k] > depth)
            depth = m.nwords[k];
    const unsigned cw = 28, ch = 16, left = 40, top = 18;
    unsigned w = left + m.count * cw + 4, h = top + depth * ch + 6;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' width='%u' height='%u' font-size='9' "
               "font-family='monospace'>\n", w, h);
    for (unsigned k = 0; k < m.count; k++)
        fprintf(f, "<text x='%u' y='12' text-anchor='middle'>%u</text>", left + k * cw + cw / 2, k);
    fprintf(f, "\n<text x='2' y='12'>bank</text>\n");
    for (unsigned d = 0; d < depth; d++)
        fprintf(f, "<text x='2' y='%u'>%s%u</text>", top + d * ch + 11, d ? "+" : "w", d);
    for (unsigned k = 0; k < m.count; k++) {
        for (unsigned d = 0; d < m.nwords[k]; d++) {
            uint32_t lanes = m.slot[k][d].lanes;
            int nl = __builtin_popcount(lanes), first = lanes ? __builtin_ctz(lanes) : 0;
            const char *fill = d == 0 ? "#9fd49f" : d < 4 ? "#f2c46d" : "#e8716d";
            fprintf(f, "<rect x='%u' y='%u' width='%u' height='%u' fill='%s' stroke='#555' "
                       "stroke-width='0.5'><title>bank %u, word %u (byte %u): lanes",
                    left + k * cw, top + d * ch, cw - 1, ch - 1, fill, k, m.slot[k][d].word,
                    m.slot[k][d].word * 4);
            for (unsigned l = 0; l < 32; l++)
                if (lanes >> l & 1u)
                    fprintf(f, " %u", l);
            fprintf(f, "</title></rect><text x='%u' y='%u' text-anchor='middle'>%d%s</text>\n",
                    left + k * cw + cw / 2, top + d * ch + 11, first, nl > 1 ? "+" : "");
        }
    }
    fprintf(f, "</svg>\n");
}

void smem_report_html(FILE *f, const struct smem_analysis *a)
{
    char buf[600];
    struct smem_source_cache src = {"", NULL};
    fputs("<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>smemlab: ", f);
    html_text(f, smem_base_name(a->source));
    fputs("</title>\n<style>body{font-family:sans-serif;margin:2em;max-width:1200px}"
          "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 8px;"
          "text-align:right}td.src{text-align:left;font-family:monospace}.bad{background:#fde2e1}"
          ".ok{background:#e6f4e6}h2{margin-top:2em}.note{color:#555}</style></head><body>\n", f);
    fputs("<h1>smemlab analyze: ", f);
    html_text(f, smem_base_name(a->source));
    fputs("</h1>\n<p class='note'>Requests and wavefronts as Nsight Compute counts them on an H100 "
          "(32 banks of 4 bytes). In a bank map each column is a bank, each row one more distinct "
          "word that bank must deliver (one more pass); a cell names its first lane (+: more "
          "lanes share that word); hover for all of them.</p>\n", f);
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const struct smem_kernel_report *k = &a->kernels[i];
        fputs("<h2>", f);
        html_text(f, k->name);
        fprintf(f, "</h2>\n<p>block %u x %u x %u, grid %u x %u x %u; shared %u B static + %u B "
                   "dynamic. Loads: %llu requests, %llu wavefronts (ideal %llu). Stores: %llu "
                   "requests, %llu wavefronts (ideal %llu).%s</p>\n",
                k->block[0], k->block[1], k->block[2], k->grid[0], k->grid[1], k->grid[2],
                k->static_smem, k->dynamic_smem, (unsigned long long)k->ld.requests,
                (unsigned long long)k->ld.wavefronts, (unsigned long long)k->ld.ideal,
                (unsigned long long)k->st.requests, (unsigned long long)k->st.wavefronts,
                (unsigned long long)k->st.ideal, k->complete ? "" : " <b>Incomplete:</b> ");
        if (!k->complete) {
            fputs("<p>", f);
            html_text(f, k->incomplete_why);
            fputs("</p>\n", f);
        }
        fputs("<table><tr><th>line</th><th>op</th><th>bytes</th><th>requests</th>"
              "<th>wavefronts</th><th>ideal</th><th>worst</th><th style='text-align:left'>source"
              "</th></tr>\n", f);
        for (uint32_t s = 0; s < k->nsites; s++) {
            const struct smem_site_report *r = &k->sites[s];
            int bad = r->t.wavefronts > r->t.ideal;
            fprintf(f, "<tr class='%s'><td>%u</td><td>%s</td><td>%u</td><td>%llu</td><td>%llu</td>"
                       "<td>%llu</td><td>%s%u%s</td><td class='src'>",
                    bad ? "bad" : "ok", r->line, smem_access_op_name(r->op), r->bytes,
                    (unsigned long long)r->t.requests, (unsigned long long)r->t.wavefronts,
                    (unsigned long long)r->t.ideal, bad ? "" : "", bad ? r->t.max_ways : 1,
                    bad ? "-way" : " (free)");
            html_text(f, smem_source_line(&src, r->file, r->line, buf, sizeof buf));
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
        for (uint32_t s = 0; s < k->nsites; s++) {
            const struct smem_site_report *r = &k->sites[s];
            if (r->t.wavefronts <= r->t.ideal || !r->worst.active)
                continue;
            fprintf(f, "<h3>line %u, %s of %u bytes: its costliest request, %u wavefronts</h3>\n",
                    r->line, smem_access_op_name(r->op), r->bytes, r->worst_wf);
            bank_svg(f, &r->worst);
        }
        if (k->nhazards) {
            fputs("<h3>hazards</h3><ul>\n", f);
            for (uint32_t h = 0; h < k->nhazards; h++) {
                const struct smem_hazard *z = &k->hazards[h];
                fprintf(f, "<li>%s (", smem_hazard_kind_name(z->kind));
                html_text(f, z->detail);
                fprintf(f, "): lines %u and %u, address %u", z->lines[0], z->lines[1], z->address);
                if (z->var[0]) {
                    fputs(" in ", f);
                    html_text(f, z->var);
                }
                fputs("</li>\n", f);
            }
            fputs("</ul>\n", f);
        }
    }
    fputs("</body></html>\n", f);
    smem_source_cache_free(&src);
}
