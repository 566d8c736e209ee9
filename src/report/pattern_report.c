/* pattern_report.c: a pattern's result (`smemlab pattern`) in words, as an SVG of its costliest
 * request and as an HTML page with every request's bank map. */
#include "smemlab/report/report.h"
#include "smemlab/base/text.h"
#include "smemlab/report/bankmap.h"
#include "html_page.h"

#include <stdarg.h>
#include <stdint.h>
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
    if (p->layout.kind == SMEM_LAYOUT_TMA) {
        put(buf, n, &k, ", the tile as TMA writes it with swizzle %s",
            smem_layout_tma_name(p->layout.tma));
        if (p->layout.tma_base)
            put(buf, n, &k, " at byte %u of the pattern", p->layout.tma_base);
    }
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

/* ---- Hopper's swizzle modes: the fields and the tile's picture ---- */

void smem_report_tma_fields(char *buf, size_t n, const struct smem_layout *l)
{
    struct smem_layout_hopper h;
    size_t k = 0;
    if (!n)
        return;
    buf[0] = 0;
    smem_layout_tma_fields(l, &h);
    const char *mode = smem_layout_tma_name(l->tma);
    put(buf, n, &k, "CU_TENSOR_MAP_SWIZZLE_%s, boxDim {%u, %u}", mode, h.box_inner, h.box_rows);
    if (h.boxes > 1 || h.row_copies > 1)
        put(buf, n, &k, " (%u x %u boxes)", h.boxes, h.row_copies);
    put(buf, n, &k, "; wgmma descriptor: layout type %u (%s), SBO %u B (field %u), LBO unused "
                    "K-major (write 1), MN-major %u B (field %u), base offset 0 (",
        h.wgmma_layout, mode, h.sbo, h.sbo >> 4, h.lbo_mn, h.lbo_mn >> 4);
    if (l->tma_base)
        put(buf, n, &k, "the tile at byte %u of the pattern: both XOR the absolute address",
            l->tma_base);
    else
        put(buf, n, &k, "tile %u-byte aligned", h.align);
    put(buf, n, &k, "); CuTe: Swizzle<%u,%u,%u> on byte offsets, GMMA::Layout_K_SW%u_Atom<T> / "
                    "Layout_MN_SW%u_Atom<T>", h.cute_b, h.cute_m, h.cute_s, h.span, h.span);
}

void smem_report_tma_fields_json(FILE *f, const struct smem_layout *l)
{
    struct smem_layout_hopper h;
    smem_layout_tma_fields(l, &h);
    fprintf(f, "\"swizzle\":\"%s\",\"tensor_map_swizzle\":\"CU_TENSOR_MAP_SWIZZLE_%s\","
               "\"box\":[%u,%u],\"boxes\":[%u,%u],\"row_pitch\":%u,\"bytes\":%llu,\"align\":%u,"
               "\"wgmma\":{\"layout_type\":%u,\"sbo\":%u,\"lbo_k_major\":null,\"lbo_mn_major\":%u,"
               "\"base_offset\":0},\"cute\":{\"swizzle\":[%u,%u,%u],\"k_major\":"
               "\"GMMA::Layout_K_SW%u_Atom<T>\",\"mn_major\":\"GMMA::Layout_MN_SW%u_Atom<T>\"}",
            smem_layout_tma_name(l->tma), smem_layout_tma_name(l->tma), h.box_inner, h.box_rows,
            h.boxes, h.row_copies, h.pitch, (ull)h.bytes, h.align, h.wgmma_layout, h.sbo,
            h.lbo_mn, h.cute_b, h.cute_m, h.cute_s, h.span, h.span);
}

void smem_tile_lines(const struct smem_layout *l, uint32_t *first, uint32_t *count,
                     int cell[SMEM_TILE_LINES][8])
{
    uint32_t e = l->elem_bytes ? l->elem_bytes : 1, rb = l->row_elems * e;
    uint32_t span = l->tma ? 16u << l->tma : rb, bw = rb < span ? rb : span;
    uint32_t rows = l->rows < 8 ? l->rows : 8, lo = UINT32_MAX, hi = 0;
    for (int i = 0; i < SMEM_TILE_LINES; i++)
        for (int j = 0; j < 8; j++)
            cell[i][j] = -1;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t r = 0; r < rows; r++)
            for (uint32_t ch = 0; ch < bw / 16; ch++) {
                uint32_t a = smem_layout_map(l, r * rb + ch * 16), line = a / 128;
                if (!pass) {
                    lo = line < lo ? line : lo;
                    hi = line > hi ? line : hi;
                } else if (line - lo < SMEM_TILE_LINES) {
                    cell[line - lo][a % 128 / 16] = (int)(r * 256 + ch);
                }
            }
    *first = lo == UINT32_MAX ? 0 : lo;
    *count = lo == UINT32_MAX ? 0 : hi - lo + 1 < SMEM_TILE_LINES ? hi - lo + 1 : SMEM_TILE_LINES;
}

/* "swizzle 128B", or CuTe's "Swizzle<3,4,3>" (on byte offsets) for a SWIZZLE layout */
static void tile_title(const struct smem_layout *l, char *buf, size_t n)
{
    unsigned es = 0;
    while ((1u << es) < l->elem_bytes)
        es++;
    if (l->kind == SMEM_LAYOUT_SWIZZLE)
        snprintf(buf, n, "Swizzle<%u,%u,%u>", l->b, l->m + es, l->s);
    else
        snprintf(buf, n, "swizzle %s", smem_layout_tma_name(l->tma));
}

static void tile_svg(FILE *f, const struct smem_layout *modes, unsigned nmodes, const char *caption,
                     int standalone)
{
    const int cw = 44, ch = 22, left = 44, top = 64, gap = 28;
    int panel_w = left + 8 * cw + gap, height = top + 20;
    for (unsigned i = 0; i < nmodes; i++) {
        uint32_t first, count;
        int cell[SMEM_TILE_LINES][8];
        smem_tile_lines(&modes[i], &first, &count, cell);
        if (top + (int)count * ch + 20 > height)
            height = top + (int)count * ch + 20;
    }
    int width = panel_w * (int)(nmodes ? nmodes : 1) + 10;
    if (standalone)
        fputs("<?xml version='1.0' encoding='UTF-8'?>\n", f);
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' class='tilemap' width='%d' height='%d' "
               "viewBox='0 0 %d %d' font-family='monospace' font-size='11'>\n"
               "<style>text.h{font-weight:bold} rect.pad{fill:#eee}</style>\n",
            width, height + 40, width, height + 40);
    fputs("<text x='6' y='16'>", f);
    for (const char *c = caption; c && *c; c++) {
        if (*c == '\n') {
            fputs("</text>\n<text x='6' y='32'>", f);
            continue;
        }
        char one[2] = {*c, 0};
        smem_xml_text(f, one);
    }
    fputs("</text>\n", f);
    for (unsigned i = 0; i < nmodes; i++) {
        const struct smem_layout *l = &modes[i];
        uint32_t first, count;
        int cell[SMEM_TILE_LINES][8];
        smem_tile_lines(l, &first, &count, cell);
        int x0 = 6 + (int)i * panel_w;
        char title[64];
        tile_title(l, title, sizeof title);
        fprintf(f, "<g class='mode'><text class='h' x='%d' y='%d'>", x0, top - 18);
        smem_xml_text(f, title);
        fputs("</text>\n", f);
        for (int s = 0; s < 8; s++)
            fprintf(f, "<text x='%d' y='%d'>%d-%d</text>\n", x0 + left + s * cw + 4, top - 4,
                    s * 4, s * 4 + 3);
        for (uint32_t ln = 0; ln < count; ln++) {
            int y = top + (int)ln * ch;
            fprintf(f, "<text x='%d' y='%d'>line %u</text>\n", x0, y + 15, first + ln);
            for (int s = 0; s < 8; s++) {
                int v = cell[ln][s], x = x0 + left + s * cw;
                if (v < 0) {
                    fprintf(f, "<rect class='pad' x='%d' y='%d' width='%d' height='%d' "
                               "stroke='#999'/>\n", x, y, cw, ch);
                    continue;
                }
                unsigned c = (unsigned)v % 256, hue = (c * 45u) % 360u;
                fprintf(f, "<g class='chunk'><rect x='%d' y='%d' width='%d' height='%d' "
                           "fill='hsl(%u,70%%,80%%)' stroke='#555'/><text x='%d' y='%d'>%u.%u</text>"
                           "</g>\n", x, y, cw, ch, hue, x + 6, y + 15, (unsigned)v / 256, c);
            }
        }
        fputs("</g>\n", f);
    }
    fprintf(f, "<text x='6' y='%d'>cell: row.chunk of the tile (16-byte chunk c of row r); "
               "columns: the banks of each 16 bytes of a 128-byte line</text>\n</svg>\n",
            height + 24);
}

void smem_report_tile_svg(FILE *f, const struct smem_layout *modes, unsigned nmodes,
                          const char *caption)
{
    tile_svg(f, modes, nmodes, caption, 1);
}

void smem_report_tile_html(FILE *f, const struct smem_layout *modes, unsigned nmodes,
                           const char *caption)
{
    html_page_begin(f, "smemlab pattern: a tile under Hopper's swizzle modes");
    fputs("<h1>smemlab pattern: a tile under Hopper's swizzle modes</h1>\n<p>", f);
    smem_xml_text(f, caption);
    fputs("</p>\n", f);
    for (unsigned i = 0; i < nmodes; i++) {
        char fields[700];
        fputs("<p class='note'>", f);
        if (modes[i].kind == SMEM_LAYOUT_SWIZZLE) {
            smem_layout_formula(&modes[i], fields, sizeof fields);
            smem_xml_text(f, fields);
        } else if (modes[i].tma) {
            smem_report_tma_fields(fields, sizeof fields, &modes[i]);
            smem_xml_text(f, fields);
        } else {
            smem_xml_text(f, "none: dense rows (CU_TENSOR_MAP_SWIZZLE_NONE)");
        }
        fputs("</p>\n", f);
    }
    tile_svg(f, modes, nmodes, "", 0);
    html_page_end(f);
}
