/* pattern_view.c: the CLI's pictures and formats for pattern results: the bank map, the verdict
 * line, CSV fields, the caret under a diagnosed column. */
#include "pattern_view.h"
#include "smemlab/report/report.h"

#include <string.h>

static const char base32[] = "0123456789abcdefghijklmnopqrstuv";

static unsigned popcount32(uint32_t v)
{
    unsigned n = 0;
    for (; v; v &= v - 1)
        n++;
    return n;
}

static unsigned lowest_lane(uint32_t v)
{
    unsigned l = 0;
    while (l < 31 && !(v >> l & 1u))
        l++;
    return l;
}

/* Rows (lines of count words) the map touches, sorted, without repeats. */
static unsigned map_rows(const struct smem_bank_map *m, uint32_t *rows, unsigned max)
{
    unsigned n = 0;
    for (unsigned b = 0; b < m->count; b++)
        for (unsigned i = 0; i < m->nwords[b]; i++) {
            uint32_t r = m->slot[b][i].word / m->count;
            unsigned k = 0;
            while (k < n && rows[k] < r)
                k++;
            if (k < n && rows[k] == r)
                continue;
            if (n == max)
                continue;
            memmove(rows + k + 1, rows + k, (n - k) * sizeof rows[0]);
            rows[k] = r;
            n++;
        }
    return n;
}

#define MAX_MAP_ROWS 40

static void one_map(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                    enum view_map_style style, const char *indent)
{
    static struct smem_bank_map m; /* 8 KB: kept off the stack; the CLI is single-threaded */
    uint32_t rows[SMEM_WARP * 4 + 1];
    smem_request_map(b, req, &m);
    unsigned nrows = map_rows(&m, rows, sizeof rows / sizeof rows[0]);
    int cw = style == VIEW_MAP_WIDE ? 3 : 2;
    char label[32];
    int lw = snprintf(label, sizeof label, "row %u", nrows ? rows[nrows - 1] : 0);
    if (lw < 4)
        lw = 4;
    if (style == VIEW_MAP_NARROW) { /* bank numbers in two lines: tens above units */
        fprintf(f, "%s%*s ", indent, lw, "");
        for (unsigned k = 0; k < m.count; k++)
            if (k % 10 == 0 && k)
                fprintf(f, "%-2u", k / 10);
            else
                fputs("  ", f);
        fputc('\n', f);
    }
    fprintf(f, "%s%*s ", indent, lw, "bank");
    for (unsigned k = 0; k < m.count; k++) {
        if (style == VIEW_MAP_WIDE)
            fprintf(f, "%*u", cw, k);
        else
            fprintf(f, "%-2u", k % 10);
    }
    fputc('\n', f);
    unsigned shown = nrows > MAX_MAP_ROWS ? MAX_MAP_ROWS : nrows;
    for (unsigned i = 0; i < shown; i++) {
        snprintf(label, sizeof label, "row %u", rows[i]);
        fprintf(f, "%s%*s ", indent, lw, label);
        for (unsigned k = 0; k < m.count; k++) {
            uint32_t word = rows[i] * m.count + k, lanes = 0;
            for (unsigned j = 0; j < m.nwords[k]; j++)
                if (m.slot[k][j].word == word)
                    lanes = m.slot[k][j].lanes;
            if (!lanes)
                fprintf(f, "%*s", cw, style == VIEW_MAP_WIDE ? "." : ". ");
            else if (style == VIEW_MAP_WIDE)
                fprintf(f, "%*u%s", popcount32(lanes) > 1 ? cw - 1 : cw, lowest_lane(lanes),
                        popcount32(lanes) > 1 ? "+" : "");
            else
                fprintf(f, "%c%c", base32[lowest_lane(lanes)], popcount32(lanes) > 1 ? '+' : ' ');
        }
        fputc('\n', f);
    }
    if (shown < nrows)
        fprintf(f, "%s%*s (%u more rows)\n", indent, lw, "...", nrows - shown);
    if (style == VIEW_MAP_WIDE) {
        fprintf(f, "%s%*s ", indent, lw, "ways");
        for (unsigned k = 0; k < m.count; k++)
            if (m.nwords[k])
                fprintf(f, "%*u", cw, m.nwords[k]);
            else
                fprintf(f, "%*s", cw, ".");
        fputc('\n', f);
    }
}

void view_bank_map(FILE *f, const struct smem_banks *b, const struct smem_request *req,
                   enum view_map_style style, const char *indent)
{
    unsigned g = smem_pass_lanes(b, req);
    if (g >= SMEM_WARP) {
        one_map(f, b, req, style, indent);
        return;
    }
    /* Wide accesses are served in passes of consecutive lanes; each has its own map. */
    for (unsigned g0 = 0; g0 < SMEM_WARP; g0 += g) {
        struct smem_request part = *req;
        part.active &= (g >= 32 ? 0xffffffffu : ((1u << g) - 1u)) << g0;
        if (!part.active)
            continue;
        fprintf(f, "%slanes %u-%u (served apart from the other lanes):\n", indent, g0, g0 + g - 1);
        one_map(f, b, &part, style, indent);
    }
}

void view_csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

void view_verdict(FILE *f, const struct smem_pattern_result *r)
{
    char text[200];
    smem_pattern_verdict(text, sizeof text, r);
    fputs(text, f);
}

void view_caret(FILE *f, const char *text, const struct smem_diag *d)
{
    if (!d->column || d->column > strlen(text) + 1 || strchr(text, '\n'))
        return;
    fprintf(f, "  %s\n  %*s^\n", text, (int)d->column - 1, "");
}
