/* pattern_report.c: a pattern's result (`smemlab pattern`) in words, as an SVG of its costliest
 * request and as an HTML page with every request's bank map. */
#include "smemlab/report/report.h"
#include "smemlab/base/text.h"
#include "smemlab/report/bankmap.h"
#include "html_page.h"

#include <stdarg.h>
#include <string.h>

typedef unsigned long long ull;

/* snprintf at buf + *k, keeping *k within n. */
#if defined(__GNUC__)
__attribute__((format(printf, 4, 5)))
#endif
static void put(char *buf, size_t n, size_t *k, const char *fmt, ...);

static void put(char *buf, size_t n, size_t *k, const char *fmt, ...)
{
    if (*k >= n)
        return;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + *k, n - *k, fmt, ap);
    va_end(ap);
    if (w > 0)
        *k = (size_t)w >= n - *k ? n - 1 : *k + (size_t)w;
}

void smem_pattern_settings(char *buf, size_t n, const char *expr, const struct smem_pattern *p,
                           const struct smem_pattern_result *r)
{
    size_t k = 0;
    unsigned threads = smem_pattern_threads(p);
    if (!n)
        return;
    buf[0] = 0;
    char op[32];
    if (p->kind == SMEM_PK_LDMATRIX || p->kind == SMEM_PK_STMATRIX)
        put(buf, n, &k, "%s: %s (each lane a row address; %u-byte elements)", expr,
            smem_pattern_op_name(p, op, sizeof op), p->elem_bytes);
    else if (p->kind == SMEM_PK_CP_ASYNC)
        put(buf, n, &k, "%s: %s (each lane a shared destination; %u-byte elements)", expr,
            smem_pattern_op_name(p, op, sizeof op), p->elem_bytes);
    else
        put(buf, n, &k, "%s: %u-byte %s", expr, p->elem_bytes, p->op == SMEM_ST ? "stores" : "loads");
    put(buf, n, &k, ", block %ux%ux%u (%u thread%s, %u warp%s)", p->block[0], p->block[1], p->block[2],
        threads, threads == 1 ? "" : "s", r->requests, r->requests == 1 ? "" : "s");
    if (p->block_index[0] | p->block_index[1] | p->block_index[2])
        put(buf, n, &k, ", blockIdx (%u,%u,%u)", p->block_index[0], p->block_index[1],
            p->block_index[2]);
    if (p->shape[0])
        put(buf, n, &k, ", shape %ux%u", p->shape[0], p->shape[1]);
    put(buf, n, &k, ", %u banks x %u B", p->banks.count, p->banks.bytes);
}

static void cost_words(char *buf, size_t n, size_t *k, uint64_t wavefronts, uint64_t ideal,
                       unsigned max_ways)
{
    put(buf, n, k, "%llu wavefront%s (ideal %llu): ", (ull)wavefronts, wavefronts == 1 ? "" : "s",
        (ull)ideal);
    if (wavefronts > ideal && max_ways > 1)
        put(buf, n, k, "%u-way bank conflict", max_ways);
    else if (wavefronts > ideal) /* cp.async.cg: more keys (global line, shared line, rotation) than passes */
        put(buf, n, k, "no bank conflict; the copies move their global sectors to shared memory in more "
                       "ways (line pairs, 64-byte rotations) than one a pass");
    else
        put(buf, n, k, "no bank conflict");
}

void smem_pattern_verdict(char *buf, size_t n, const struct smem_pattern_result *r)
{
    size_t k = 0;
    if (!n)
        return;
    buf[0] = 0;
    put(buf, n, &k, "%u request%s, ", r->requests, r->requests == 1 ? "" : "s");
    cost_words(buf, n, &k, r->wavefronts, r->ideal, r->max_ways);
}

/* "warp 3: 32 wavefronts (ideal 1): 32-way bank conflict" */
static void warp_verdict(char *buf, size_t n, const char *who, const struct smem_warp_cost *c)
{
    size_t k = 0;
    buf[0] = 0;
    put(buf, n, &k, "%s: ", who);
    cost_words(buf, n, &k, c->cost.wavefronts, c->cost.ideal, c->cost.max_ways);
}

void smem_report_pattern_svg(FILE *f, const char *expr, const struct smem_pattern *p,
                             const struct smem_pattern_result *r)
{
    char caption[1024], who[64];
    size_t k;
    const struct smem_warp_cost *c = &r->warp[r->worst];
    smem_pattern_settings(caption, sizeof caption, expr, p, r);
    k = strlen(caption);
    snprintf(who, sizeof who, "\nits costliest request, warp %u", c->warp);
    warp_verdict(caption + k, sizeof caption - k, who, c);
    smem_bankmap_svg_document(f, &p->banks, &c->request, caption);
}

void smem_report_pattern_html(FILE *f, const char *expr, const struct smem_pattern *p,
                              const struct smem_pattern_result *r)
{
    char text[1024], title[300];
    snprintf(title, sizeof title, "smemlab pattern: %s", expr);
    html_page_begin(f, title);
    fputs("<h1>smemlab pattern: <code>", f);
    smem_xml_text(f, expr);
    fputs("</code></h1>\n<p>", f);
    smem_pattern_settings(text, sizeof text, expr, p, r);
    smem_xml_text(f, text);
    fputs("</p>\n<p class='verdict'>", f);
    smem_pattern_verdict(text, sizeof text, r);
    smem_xml_text(f, text);
    fputs("</p>\n<p class='note'>In a bank map each column is a bank and each row one more "
          "distinct word that bank must deliver (one more pass), so the tallest column is the n of "
          "n-way; a cell names the lane that wants the word (+: more lanes share it; hover for all "
          "of them and the bytes).</p>\n", f);
    /* Which picture each request draws: the first warp with the same one, and the shift. */
    unsigned pic[SMEM_MAX_WARPS], npics = 0;
    int shift[SMEM_MAX_WARPS];
    int all = r->requests <= SMEM_PATTERN_HTML_ALL;
    for (unsigned w = 0; w < r->requests; w++) {
        pic[w] = w;
        shift[w] = 0;
        for (unsigned v = 0; !all && v < w; v++)
            if (pic[v] == v &&
                (shift[w] = smem_bankmap_same_picture(&p->banks, &r->warp[v].request,
                                                      &r->warp[w].request)) >= 0) {
                pic[w] = v;
                break;
            }
        if (pic[w] == w)
            shift[w] = 0;
        npics += pic[w] == w;
    }
    fputs("<h2>Requests</h2>\n<table><tr><th>warp</th><th>lanes</th><th>wavefronts</th>"
          "<th>ideal</th><th>max-way</th><th>conflicts</th><th class='l'>bank map</th></tr>\n", f);
    for (unsigned w = 0; w < r->requests; w++) {
        const struct smem_warp_cost *c = &r->warp[w];
        unsigned conf = smem_cost_conflicts(c->cost);
        fprintf(f, "<tr class='%s'><td>%u</td><td>%u</td><td>%u</td><td>%u</td><td>%u</td>"
                   "<td class='x'>%u</td><td class='l'><a href='#w%u'>%s%u</a>",
                conf ? "bad" : "ok", c->warp, c->active_lanes, c->cost.wavefronts, c->cost.ideal,
                c->cost.max_ways, conf, pic[w], all ? "warp " : "picture of warp ",
                r->warp[pic[w]].warp);
        if (shift[w])
            fprintf(f, ", %d bank%s to the right", shift[w], shift[w] == 1 ? "" : "s");
        fprintf(f, "%s</td></tr>\n", w == r->worst ? " (the costliest)" : "");
    }
    fputs("</table>\n", f);
    if (all)
        fputs("<h2>Bank maps</h2>\n", f);
    else
        fprintf(f, "<h2>Bank maps</h2>\n<p class='note'>%u requests draw %u distinct picture%s "
                   "(the same lanes in the same cells, possibly shifted across the banks): each is "
                   "drawn once, as its first warp draws it, with the warps that draw it.</p>\n",
                r->requests, npics, npics == 1 ? "" : "s");
    for (unsigned v = 0; v < r->requests; v++) {
        if (pic[v] != v)
            continue;
        uint32_t warps = 0;
        unsigned count = 0;
        for (unsigned w = v; w < r->requests; w++)
            if (pic[w] == v) {
                warps |= 1u << r->warp[w].warp;
                count++;
            }
        char who[200], list[160];
        if (count == 1) {
            snprintf(who, sizeof who, "warp %u", r->warp[v].warp);
        } else {
            smem_lane_list(list, sizeof list, warps);
            snprintf(who, sizeof who, "warps %s (%u requests), each", list, count);
        }
        warp_verdict(text, sizeof text, who, &r->warp[v]);
        fprintf(f, "<div class='site' id='w%u'><h3>", v);
        smem_xml_text(f, text);
        fputs(pic[r->worst] == v ? " (the costliest)</h3>\n" : "</h3>\n", f);
        smem_bankmap_svg(f, &p->banks, &r->warp[v].request);
        fputs("</div>\n", f);
    }
    html_page_end(f);
}
