/* bankmap.c: a warp request's bank map as SVG (see bankmap.h): banks across, the words each bank
 * must deliver down, lanes inside. Colour says how deep in its bank a word lies: green the first
 * word (free), amber and red the extra passes. */
#include "smemlab/report/bankmap.h"
#include "smemlab/base/text.h"

#include <string.h>

enum {
    CW = 28,    /* a bank's column */
    CH = 18,    /* a word's row */
    LEFT = 44,  /* row numbers */
    HEAD = 16,  /* bank numbers */
    FOOT = 18,  /* words per bank */
    LABEL = 18, /* a pass group's title */
    GAP = 10,   /* between panels */
    LINE = 18   /* a caption or legend line */
};

void smem_lane_list(char *buf, size_t n, uint32_t lanes)
{
    size_t k = 0;
    if (!n)
        return;
    buf[0] = 0;
    for (unsigned l = 0; l < SMEM_WARP && k + 1 < n; l++) {
        if (!(lanes >> l & 1u))
            continue;
        unsigned e = l;
        while (e + 1 < SMEM_WARP && (lanes >> (e + 1) & 1u))
            e++;
        int w = e == l ? snprintf(buf + k, n - k, "%s%u", k ? "," : "", l)
                       : snprintf(buf + k, n - k, "%s%u-%u", k ? "," : "", l, e);
        if (w < 0 || (size_t)w >= n - k)
            break;
        k += (size_t)w;
        l = e;
    }
}

/* The passes of req that have an active lane (smem_pass_lanes: the bank model's own split), as
 * requests of their own; first lanes in first[]. One part, req itself, when the whole warp is
 * served together. */
static unsigned pass_groups(const struct smem_banks *b, const struct smem_request *req,
                            struct smem_request parts[SMEM_WARP], unsigned first[SMEM_WARP],
                            unsigned *group_lanes)
{
    unsigned g = smem_pass_lanes(b, req), n = 0;
    *group_lanes = g;
    if (g >= SMEM_WARP) {
        parts[0] = *req;
        first[0] = 0;
        return 1;
    }
    for (unsigned g0 = 0; g0 < SMEM_WARP; g0 += g) {
        parts[n] = *req;
        parts[n].active &= ((1u << g) - 1u) << g0;
        if (!parts[n].active)
            continue;
        first[n++] = g0;
    }
    return n;
}

static unsigned map_depth(const struct smem_bank_map *m)
{
    unsigned depth = 0;
    for (unsigned k = 0; k < m->count; k++)
        if (m->nwords[k] > depth)
            depth = m->nwords[k];
    return depth;
}

const char smem_bankmap_style[] =
    ".bankmap .cells{stroke:#666;stroke-width:.5}.bankmap .d0{fill:#b5dfb5}"
    ".bankmap .d1{fill:#f5c56b}.bankmap .d4{fill:#e8827d}.bankmap .h{fill:#555}"
    ".bankmap .max{fill:#b00;font-weight:bold}\n";

/* Cell colour by depth in its bank: the first word (free), passes 2-4, more. */
static unsigned depth_class(unsigned d) { return d == 0 ? 0 : d < 4 ? 1 : 4; }

/* One panel at y0: bank numbers, the columns, words per bank. The cells are drawn as three paths
 * (one a colour) under the columns; each column is a <g class='bank'> translated to its top left
 * corner, holding its number, a <text class='word'> a word (the lane), the words' count, and a
 * title listing every word's bytes and lanes (hover). Few elements: pages hold hundreds. */
static void panel(FILE *f, const struct smem_banks *b, const struct smem_request *req, unsigned y0)
{
    struct smem_bank_map m;
    smem_request_map(b, req, &m);
    unsigned depth = map_depth(&m), top = y0 + HEAD, foot = depth * CH + 13;
    fprintf(f, "<text class='h' x='2' y='%u'>bank</text>", y0 + 12);
    for (unsigned d = 0; d < depth; d++)
        fprintf(f, "<text class='h' x='%u' y='%u' text-anchor='end'>%u</text>", LEFT - 8,
                top + d * CH + 13, d + 1);
    fprintf(f, "<text class='h' x='2' y='%u'>words</text>\n", top + foot);
    if (depth) { /* the columns' grey backgrounds, then the cells */
        fputs("<path fill='#f2f2f2' d='", f);
        for (unsigned k = 0; k < m.count; k++)
            fprintf(f, "M%u %uh%uv%uh-%uz", LEFT + k * CW, top, CW - 1, depth * CH - 1, CW - 1);
        fputs("'/>\n", f);
        for (unsigned c = 0; c <= 4; c++) {
            int any = 0;
            for (unsigned k = 0; k < m.count; k++)
                for (unsigned d = 0; d < m.nwords[k]; d++) {
                    if (depth_class(d) != c)
                        continue;
                    if (!any++)
                        fprintf(f, "<path class='cells d%u' d='", c);
                    fprintf(f, "M%u %uh%uv%uh-%uz", LEFT + k * CW, top + d * CH, CW - 1, CH - 1,
                            CW - 1);
                }
            if (any)
                fputs("'/>\n", f);
        }
    }
    fputs("<g text-anchor='middle'>\n", f);
    for (unsigned k = 0; k < m.count; k++) {
        fprintf(f, "<g class='bank' transform='translate(%u,%u)'>", LEFT + k * CW, top);
        if (m.nwords[k]) {
            fprintf(f, "<title>bank %u, %u word%s:", k, m.nwords[k], m.nwords[k] == 1 ? "" : "s");
            for (unsigned d = 0; d < m.nwords[k]; d++) {
                const struct smem_bank_slot *s = &m.slot[k][d];
                char lanes[160];
                uint64_t byte = (uint64_t)s->word * b->bytes;
                smem_lane_list(lanes, sizeof lanes, s->lanes);
                fprintf(f, "\n%u: bytes %llu-%llu, lane%s %s", d + 1, (unsigned long long)byte,
                        (unsigned long long)(byte + b->bytes - 1),
                        s->lanes & (s->lanes - 1) ? "s" : "", lanes);
            }
            /* the hover target: the column's words (transparent, over the cells) */
            fprintf(f, "</title><rect width='%u' height='%u' fill-opacity='0'/>", CW - 1,
                    m.nwords[k] * CH - 1);
        }
        fprintf(f, "<text class='h' x='%u' y='-4'>%u</text>", CW / 2, k);
        for (unsigned d = 0; d < m.nwords[k]; d++) {
            uint32_t lanes = m.slot[k][d].lanes;
            fprintf(f, "<text class='word' x='%u' y='%u'>%d%s</text>", CW / 2, d * CH + 13,
                    __builtin_ctz(lanes), lanes & (lanes - 1) ? "+" : "");
        }
        if (m.nwords[k])
            fprintf(f, "<text x='%u' y='%u'%s>%u</text>", CW / 2, foot,
                    m.nwords[k] == depth && depth > 1 ? " class='max'" : "", m.nwords[k]);
        fputs("</g>\n", f);
    }
    fputs("</g>\n", f);
}

static unsigned panel_height(const struct smem_banks *b, const struct smem_request *req)
{
    struct smem_bank_map m;
    smem_request_map(b, req, &m);
    return HEAD + map_depth(&m) * CH + FOOT;
}

/* Caption lines (split at '\n'), the map, legend lines; the caption is at most 8 lines. */
static void draw(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                 const char *caption_text, const char *const *legend, unsigned nlegend, int standalone)
{
    char text[1024];
    const char *caption[8];
    unsigned ncaption = 0;
    snprintf(text, sizeof text, "%s", caption_text ? caption_text : "");
    for (char *p = text; caption_text && *p && ncaption < 8;) {
        caption[ncaption++] = p;
        p += strcspn(p, "\n");
        if (*p)
            *p++ = 0;
    }
    struct smem_request parts[SMEM_WARP];
    unsigned first[SMEM_WARP], glanes, y[SMEM_WARP];
    unsigned n = pass_groups(b, req, parts, first, &glanes);
    unsigned h = ncaption * LINE + 4;
    for (unsigned i = 0; i < n; i++) {
        h += n > 1 ? LABEL : 0;
        y[i] = h;
        h += panel_height(b, &parts[i]) + GAP;
    }
    if (!n)
        h += LINE;
    unsigned legend_y = h;
    h += nlegend * LINE;
    unsigned w = LEFT + b->count * CW + 8;
    fprintf(f, "<svg xmlns='http://www.w3.org/2000/svg' class='bankmap' width='%u' height='%u' "
               "viewBox='0 0 %u %u' font-family='monospace' font-size='11'>\n",
            w, h, w, h);
    if (standalone)
        fprintf(f, "<style>%s</style>\n", smem_bankmap_style);
    fprintf(f, "<rect width='%u' height='%u' fill='#fff'/>\n", w, h);
    for (unsigned i = 0; i < ncaption; i++) {
        fprintf(f, "<text x='2' y='%u' font-family='sans-serif' font-size='%u'>", i * LINE + 14,
                i ? 12 : 14);
        smem_xml_text(f, caption[i]);
        fputs("</text>\n", f);
    }
    for (unsigned i = 0; i < n; i++) {
        if (n > 1)
            fprintf(f, "<text x='2' y='%u' font-family='sans-serif' font-size='12'>lanes %u-%u: "
                       "a pass group of its own, served apart from the other lanes</text>\n",
                    y[i] - LABEL + 13, first[i], first[i] + glanes - 1);
        panel(f, b, &parts[i], y[i]);
    }
    if (!n)
        fprintf(f, "<text x='2' y='%u' font-family='sans-serif'>no active lane</text>\n",
                ncaption * LINE + 16);
    for (unsigned i = 0; i < nlegend; i++) {
        fprintf(f, "<text x='2' y='%u' font-family='sans-serif' fill='#555'>", legend_y + i * LINE + 12);
        smem_xml_text(f, legend[i]);
        fputs("</text>\n", f);
    }
    fputs("</svg>\n", f);
}

void smem_bankmap_svg(FILE *f, const struct smem_banks *b, const struct smem_request *req)
{
    draw(f, b, req, NULL, NULL, 0, 0);
}

void smem_bankmap_svg_document(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                               const char *caption)
{
    static const char *const legend[] = {
        "Columns: banks. Rows: the distinct words a bank must deliver, one pass each, so the tallest "
        "column is the n of n-way.",
        "Cell: the lane that wants the word (+: more lanes share it; hover for all and the bytes). "
        "Green: a bank's first word; amber, red: extra passes."};
    fputs("<?xml version='1.0' encoding='UTF-8'?>\n", f);
    draw(f, b, req, caption, legend, (unsigned)(sizeof legend / sizeof legend[0]), 1);
}

int smem_bankmap_same_picture(const struct smem_banks *b, const struct smem_request *x,
                              const struct smem_request *y)
{
    if (x->active != y->active || x->width != y->width)
        return -1;
    struct smem_bank_map mx, my;
    smem_request_map(b, x, &mx);
    smem_request_map(b, y, &my);
    for (unsigned shift = 0; shift < mx.count; shift++) {
        unsigned k = 0;
        for (; k < mx.count; k++) {
            unsigned ky = (k + shift) % mx.count, d = 0;
            if (mx.nwords[k] != my.nwords[ky])
                break;
            while (d < mx.nwords[k] && mx.slot[k][d].lanes == my.slot[ky][d].lanes)
                d++;
            if (d < mx.nwords[k])
                break;
        }
        if (k == mx.count)
            return (int)shift;
    }
    return -1;
}
