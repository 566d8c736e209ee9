/* advise_report.c: advice as JSON ({"arrays": [...]}, docs/advise.md) or as a table that shows the
 * change to write and its proof: every site's wavefronts before and after. */
#include "smemlab/report/report.h"
#include "smemlab/analysis/advise.h"

#include <ctype.h>
#include "smemlab/base/text.h"

#include <stdlib.h>
#include <string.h>

static const char *op_name(unsigned op)
{
    return smem_access_op_name(op);
}

static void ways(char *buf, size_t n, uint64_t wf, uint64_t ideal, uint32_t max_ways)
{
    if (wf <= ideal)
        snprintf(buf, n, "conflict-free");
    else
        snprintf(buf, n, "%u-way", max_ways);
}

static const struct smem_advise_site *find_site(const struct smem_advise_candidate *c,
                                                const struct smem_advise_site *s)
{
    for (uint32_t i = 0; i < c->nsites; i++)
        if (c->sites[i].line == s->line && c->sites[i].op == s->op &&
            !strcmp(c->sites[i].file, s->file))
            return &c->sites[i];
    return NULL;
}

/* Alternatives worth listing: valid layouts that beat the current one and that no layout already
 * shown matches or beats on both wavefronts and extra bytes. */
static unsigned alternatives(const struct smem_advise_array *ar, unsigned max,
                             const struct smem_advise_candidate **out)
{
    const struct smem_advise_candidate *shown[64];
    unsigned nshown = 0, n = 0;
    if (ar->best_pad >= 0)
        shown[nshown++] = &ar->pads[ar->best_pad];
    if (ar->best_swizzle >= 0)
        shown[nshown++] = &ar->swizzles[ar->best_swizzle];
    for (;;) {
        const struct smem_advise_candidate *pick = NULL;
        uint32_t total = ar->npads + ar->nswizzles;
        for (uint32_t i = 0; i < total; i++) {
            const struct smem_advise_candidate *c =
                i < ar->npads ? &ar->pads[i] : &ar->swizzles[i - ar->npads];
            if (!c->valid || c->wavefronts >= ar->before.wavefronts)
                continue;
            int dominated = 0;
            for (unsigned j = 0; j < nshown && !dominated; j++)
                dominated = shown[j] == c || (shown[j]->wavefronts <= c->wavefronts &&
                                              shown[j]->extra_bytes <= c->extra_bytes);
            if (dominated)
                continue;
            if (!pick || c->wavefronts < pick->wavefronts ||
                (c->wavefronts == pick->wavefronts && c->extra_bytes < pick->extra_bytes))
                pick = c;
        }
        if (!pick || n >= max || nshown >= 64)
            break;
        out[n++] = pick;
        shown[nshown++] = pick;
    }
    return n;
}

/* ---- JSON --------------------------------------------------------------------------------- */

static void json_sites(FILE *f, const struct smem_advise_candidate *before,
                       const struct smem_advise_candidate *c)
{
    fprintf(f, "\"sites\": [");
    for (uint32_t i = 0; i < c->nsites; i++) {
        const struct smem_advise_site *s = &c->sites[i];
        const struct smem_advise_site *b = before ? find_site(before, s) : NULL;
        fprintf(f, "%s{\"file\": ", i ? ", " : "");
        smem_json_string(f, smem_base_name(s->file));
        fprintf(f, ", \"line\": %u, \"op\": \"%s\", \"bytes\": %u, \"requests\": %llu, ", s->line,
                op_name(s->op), s->bytes, (unsigned long long)s->requests);
        if (before) {
            if (b)
                fprintf(f, "\"wavefronts_before\": %llu, \"max_ways_before\": %u, ",
                        (unsigned long long)b->wavefronts, b->max_ways);
            else
                fprintf(f, "\"wavefronts_before\": null, \"max_ways_before\": null, ");
        }
        fprintf(f, "\"wavefronts\": %llu, \"ideal_wavefronts\": %llu, \"max_ways\": %u}",
                (unsigned long long)s->wavefronts, (unsigned long long)s->ideal, s->max_ways);
    }
    fprintf(f, "]");
}

static void json_candidate(FILE *f, const struct smem_advise_array *ar,
                           const struct smem_advise_candidate *c, int kind)
{
    if (!c) {
        fprintf(f, "null");
        return;
    }
    int swz = c->layout.kind != SMEM_LAYOUT_PAD, tma = c->layout.kind == SMEM_LAYOUT_TMA;
    fprintf(f, "{");
    if (kind)
        fprintf(f, "\"kind\": \"%s\", ", tma ? "tma" : swz ? "swizzle" : "pad");
    fprintf(f, "\"pad\": %u, \"extra_bytes\": %llu, \"wavefronts\": %llu, \"conflicts\": %llu, "
               "\"ideal_wavefronts\": %llu, \"max_ways\": %u, \"code\": ",
            swz ? 0 : c->layout.pad, (unsigned long long)c->extra_bytes,
            (unsigned long long)c->wavefronts,
            (unsigned long long)(c->wavefronts > c->ideal ? c->wavefronts - c->ideal : 0),
            (unsigned long long)c->ideal, c->max_ways);
    smem_json_string(f, c->code);
    if (tma) {
        fprintf(f, ", \"formula\": ");
        smem_json_string(f, c->formula);
        fprintf(f, ", \"tma\": {");
        smem_report_tma_fields_json(f, &c->layout);
        fprintf(f, "}");
    } else if (swz) {
        fprintf(f, ", \"formula\": ");
        smem_json_string(f, c->formula);
        fprintf(f, ", \"swizzle\": [%u, %u, %u]", c->layout.b, c->layout.m, c->layout.s);
    } else {
        fprintf(f, ", \"compiled\": %s", c->compiled ? "true" : "false");
        if (!kind)
            fprintf(f, ", \"verified\": %s",
                    ar->best_pad >= 0 && c == &ar->pads[ar->best_pad] && ar->best_pad_compiled
                        ? "true" : "false");
    }
    fprintf(f, ", ");
    json_sites(f, &ar->before, c);
    fprintf(f, "}");
}

void smem_advice_json(FILE *f, const struct smem_advice *a)
{
    fprintf(f, "{\n  \"kernel\": ");
    smem_json_string(f, a->kernel);
    fprintf(f, ", \"symbol\": ");
    smem_json_string(f, a->symbol);
    fprintf(f, ", \"source\": ");
    smem_json_string(f, a->source);
    fprintf(f, ",\n  \"block\": [%u, %u, %u], \"grid\": [%u, %u, %u], \"complete\": %s, "
               "\"shared_arrays\": %u, \"compiled_variants\": %u, \"data_dependent_requests\": %llu,"
               "\n  \"tma_line\": %u, \"tma_stopped\": %s,"
               "\n  \"arrays\": [",
            a->block[0], a->block[1], a->block[2], a->grid[0], a->grid[1], a->grid[2],
            a->complete ? "true" : "false", a->nshared, a->compiles,
            (unsigned long long)a->data_dependent, a->tma_line, a->tma_stopped ? "true" : "false");
    for (uint32_t i = 0; i < a->narrays; i++) {
        const struct smem_advise_array *ar = &a->arrays[i];
        const struct smem_advise_candidate *bp = ar->best_pad >= 0 ? &ar->pads[ar->best_pad] : NULL;
        const struct smem_advise_candidate *bs =
            ar->best_swizzle >= 0 ? &ar->swizzles[ar->best_swizzle] : NULL;
        fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
        smem_json_string(f, ar->name);
        fprintf(f, ", \"ptx_name\": ");
        smem_json_string(f, ar->ptx_name);
        fprintf(f, ", \"type\": ");
        smem_json_string(f, ar->type);
        fprintf(f, ", \"shape\": ");
        smem_json_string(f, ar->shape);
        fprintf(f, ", \"elem_bytes\": %u, \"row_elems\": %u, \"rows\": %u, \"row_from\": ",
                ar->elem_bytes, ar->row_elems, ar->rows);
        smem_json_string(f, ar->row_from);
        fprintf(f, ", \"dynamic\": %s,\n     \"before\": {\"wavefronts\": %llu, "
                   "\"ideal_wavefronts\": %llu, \"conflicts\": %llu, \"requests\": %llu, ",
                ar->dynamic ? "true" : "false", (unsigned long long)ar->before.wavefronts,
                (unsigned long long)ar->before.ideal,
                (unsigned long long)(ar->before.wavefronts > ar->before.ideal
                                         ? ar->before.wavefronts - ar->before.ideal : 0),
                (unsigned long long)ar->before.requests);
        json_sites(f, NULL, &ar->before);
        fprintf(f, "},\n     \"best_pad\": ");
        json_candidate(f, ar, bp, 0);
        fprintf(f, ",\n     \"best_swizzle\": ");
        json_candidate(f, ar, bs, 0);
        fprintf(f, ",\n     \"best_tma\": ");
        json_candidate(f, ar, ar->best_tma >= 0 ? &ar->tmas[ar->best_tma] : NULL, 0);
        fprintf(f, ",\n     \"best\": \"%s\",\n     \"alternatives\": [",
                ar->best_is_swizzle ? "swizzle" : "pad");
        const struct smem_advise_candidate *alt[16];
        unsigned na = alternatives(ar, a->alternatives < 16 ? a->alternatives : 16, alt);
        for (unsigned j = 0; j < na; j++) {
            fprintf(f, "%s", j ? ",\n       " : "\n       ");
            json_candidate(f, ar, alt[j], 1);
        }
        fprintf(f, "%s],\n     \"pad_wavefronts\": [", na ? "\n     " : "");
        for (uint32_t p = 0; p < ar->npads; p++) {
            if (ar->pads[p].valid)
                fprintf(f, "%s%llu", p ? ", " : "", (unsigned long long)ar->pads[p].wavefronts);
            else
                fprintf(f, "%snull", p ? ", " : "");
        }
        fprintf(f, "], \"note\": ");
        char note[520];
        snprintf(note, sizeof note, "%s", ar->note);
        size_t nl = strlen(note);
        while (nl && note[nl - 1] == ' ')
            note[--nl] = 0;
        smem_json_string(f, note);
        fprintf(f, "}");
    }
    fprintf(f, "%s]\n}\n", a->narrays ? "\n  " : "");
}

/* ---- table -------------------------------------------------------------------------------- */


static int simple_expr(const char *s)
{
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || *s == '_' || *s == '.'))
            return 0;
    return 1;
}

/* The line with every 2-D access name[A][B] rewritten for Swizzle<b,m,s>; 0 if none was found. */
static int rewrite_line(const struct smem_advise_array *ar, const struct smem_layout *l,
                        const char *line, char *out, size_t size)
{
    size_t nl = strlen(ar->name), k = 0;
    int done = 0;
    const char *p = line;
    out[0] = 0;
    while (*p && k + 1 < size) {
        int word = !strncmp(p, ar->name, nl) && (p == line || !(isalnum((unsigned char)p[-1]) ||
                                                               p[-1] == '_' || p[-1] == '.')) &&
                   !(isalnum((unsigned char)p[nl]) || p[nl] == '_');
        const char *q = p + nl;
        const char *a0 = NULL, *a1 = NULL, *b0 = NULL, *b1 = NULL;
        if (word) {
            while (*q == ' ')
                q++;
            for (int dim = 0; dim < 2 && word; dim++) {
                if (*q != '[') {
                    word = 0;
                    break;
                }
                int depth = 0;
                const char *s = q;
                for (; *s; s++) {
                    if (*s == '[')
                        depth++;
                    else if (*s == ']' && --depth == 0)
                        break;
                }
                if (!*s) {
                    word = 0;
                    break;
                }
                if (dim == 0) {
                    a0 = q + 1;
                    a1 = s;
                } else {
                    b0 = q + 1;
                    b1 = s;
                }
                q = s + 1;
                while (*q == ' ' && dim == 0)
                    q++;
            }
            if (word && *q == '[')
                word = 0; /* more than two dimensions */
        }
        if (!word) {
            out[k++] = *p++;
            continue;
        }
        char ra[160], cb[160], r[170], c[170], col[400];
        snprintf(ra, sizeof ra, "%.*s", (int)(a1 - a0), a0);
        snprintf(cb, sizeof cb, "%.*s", (int)(b1 - b0), b0);
        snprintf(r, sizeof r, simple_expr(ra) ? "%s" : "(%s)", ra);
        snprintf(c, sizeof c, simple_expr(cb) ? "%s" : "(%s)", cb);
        if (!smem_layout_col_expr(l, ar->rows, r, c, col, sizeof col))
            return 0;
        int w = snprintf(out + k, size - k, "%s[%s][%s]", ar->name, ra, col);
        if (w < 0 || (size_t)w >= size - k)
            return 0;
        k += (size_t)w;
        p = q;
        done = 1;
    }
    out[k < size ? k : size - 1] = 0;
    return done;
}

static void table_sites(FILE *f, struct smem_source_cache *sc, const struct smem_advise_candidate *before,
                        const struct smem_advise_candidate *c)
{
    for (uint32_t i = 0; i < c->nsites; i++) {
        const struct smem_advise_site *s = &c->sites[i];
        const struct smem_advise_site *b = before ? find_site(before, s) : NULL;
        char w1[32], w0[32], src[200];
        ways(w1, sizeof w1, s->wavefronts, s->ideal, s->max_ways);
        smem_source_line(sc, s->file, s->line, src, sizeof src);
        if (!before) {
            fprintf(f, "      line %-5u %-4s %2uB %8llu wavefronts  %-14s %s\n", s->line,
                    op_name(s->op), s->bytes, (unsigned long long)s->wavefronts, w1, src);
        } else if (b) {
            ways(w0, sizeof w0, b->wavefronts, b->ideal, b->max_ways);
            fprintf(f, "      line %-5u %-4s %8llu -> %-8llu %s -> %s\n", s->line, op_name(s->op),
                    (unsigned long long)b->wavefronts, (unsigned long long)s->wavefronts, w0, w1);
        } else {
            fprintf(f, "      line %-5u %-4s %8s -> %-8llu (a new site: the compiler emits "
                       "other accesses) %s\n", s->line, op_name(s->op), "-",
                    (unsigned long long)s->wavefronts, w1);
        }
    }
    /* sites the layout no longer has (the compiler merged or split them) */
    for (uint32_t i = 0; before && i < before->nsites; i++)
        if (!find_site(c, &before->sites[i]))
            fprintf(f, "      line %-5u %-4s %8llu -> gone (the compiler emits other accesses)\n",
                    before->sites[i].line, op_name(before->sites[i].op),
                    (unsigned long long)before->sites[i].wavefronts);
}

/* "line 36 ld 16-way -> conflict-free, line 40 st 2-way -> conflict-free" */
static void changes(const struct smem_advise_candidate *before,
                    const struct smem_advise_candidate *c, char *buf, size_t size)
{
    size_t k = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < c->nsites && k + 80 < size; i++) {
        const struct smem_advise_site *s = &c->sites[i];
        const struct smem_advise_site *b = find_site(before, s);
        char w0[32], w1[32];
        ways(w1, sizeof w1, s->wavefronts, s->ideal, s->max_ways);
        if (b)
            ways(w0, sizeof w0, b->wavefronts, b->ideal, b->max_ways);
        else
            snprintf(w0, sizeof w0, "new");
        if (b && !strcmp(w0, w1))
            continue;
        k += (size_t)snprintf(buf + k, size - k, "%sline %u %s %s -> %s", k ? ", " : "", s->line,
                              op_name(s->op), w0, w1);
    }
    if (!k)
        snprintf(buf, size, "no site changes");
}

static void totals_line(FILE *f, const struct smem_advise_candidate *c, uint64_t before)
{
    char w[32];
    ways(w, sizeof w, c->wavefronts, c->ideal, c->max_ways);
    fprintf(f, "    %llu wavefronts (ideal %llu, was %llu), %s, +%llu bytes\n",
            (unsigned long long)c->wavefronts, (unsigned long long)c->ideal,
            (unsigned long long)before, w, (unsigned long long)c->extra_bytes);
}

void smem_advice_table(FILE *f, const struct smem_advice *a)
{
    struct smem_source_cache sc;
    memset(&sc, 0, sizeof sc);
    fprintf(f, "%s  block %ux%ux%u grid %ux%ux%u  (%s)\n", a->kernel, a->block[0], a->block[1],
            a->block[2], a->grid[0], a->grid[1], a->grid[2], smem_base_name(a->source));
    if (!a->complete)
        fprintf(f, "  incomplete run: %s\n  (advice covers the requests that ran)\n",
                a->incomplete_why);
    if (a->tma_stopped)
        fprintf(f, "  line %u writes a tile with a TMA copy (cp.async.bulk.tensor) whose tensor map "
                   "the host builds:\n  the analysis stopped there, so the reads of that tile were not "
                   "recorded and no layout\n  (pad, swizzle or swizzle mode) can be proven for it by "
                   "re-analysis; price its reads with\n  `smemlab pattern EXPR --shape RxC --swizzle "
                   "all` instead\n", a->tma_line);
    else if (a->tma_line)
        fprintf(f, "  line %u writes a tile with a TMA copy: its writes are not priced (the TMA is not "
                   "the LSU);\n  a swizzle mode below changes the tensor map's swizzle and every read "
                   "of the tile together\n", a->tma_line);
    if (a->data_dependent)
        fprintf(f, "  %llu request%s had data-dependent addresses: not priced, not covered by "
                   "this advice\n", (unsigned long long)a->data_dependent,
                a->data_dependent == 1 ? "" : "s");
    if (!a->narrays && a->tma_stopped && !a->nshared) {
        fprintf(f, "  no shared request was recorded: nothing can be advised\n");
        return;
    }
    if (!a->narrays) {
        fprintf(f, "  no bank conflicts in %u shared array%s: nothing to change\n", a->nshared,
                a->nshared == 1 ? "" : "s");
        return;
    }
    for (uint32_t i = 0; i < a->narrays; i++) {
        const struct smem_advise_array *ar = &a->arrays[i];
        char src[300];
        fprintf(f, "\n%s", ar->name);
        if (ar->has_decl) {
            char decl[400];
            snprintf(decl, sizeof decl, "%s%s%s", ar->type, ar->type[0] ? " " : "", ar->name);
            for (unsigned d = 0; d < ar->decl.ndims && d < SMEM_DECL_MAX_DIMS; d++) {
                size_t l = strlen(decl);
                snprintf(decl + l, sizeof decl - l, "[%s]", ar->decl.dim_text[d]);
            }
            fprintf(f, ": %s%s (line %u)", ar->decl.is_extern ? "extern " : "", decl,
                    ar->decl.line);
        } else if (ar->dynamic) {
            fprintf(f, ": extern (dynamic) shared memory");
        }
        if (ar->decl_shape[0]) /* rows times a row with a named pad */
            fprintf(f, ", declared %s = %s, %u-byte elements; %s = %u pads each row of %u",
                    ar->decl_shape, ar->shape, ar->elem_bytes, ar->pad_const, ar->pad_now,
                    ar->row_elems);
        else
            fprintf(f, ", %s%s%u-byte elements", ar->shape, ar->shape[0] ? ", " : "",
                    ar->elem_bytes);
        if (ar->row_elems && !ar->decl_shape[0])
            fprintf(f, ", rows of %u (%s)", ar->row_elems, ar->row_from);
        fprintf(f, "\n");
        char w[32];
        ways(w, sizeof w, ar->before.wavefronts, ar->before.ideal, ar->before.max_ways);
        fprintf(f, "  now: %llu wavefronts (ideal %llu), %s\n",
                (unsigned long long)ar->before.wavefronts, (unsigned long long)ar->before.ideal, w);
        table_sites(f, &sc, NULL, &ar->before);
        if (ar->best_pad >= 0) {
            const struct smem_advise_candidate *c = &ar->pads[ar->best_pad];
            char ch[400];
            changes(&ar->before, c, ch, sizeof ch);
            if (ar->pad_const[0] && (uint32_t)ar->best_pad == ar->pad_now) {
                fprintf(f, "  pad: no other %s helps (0..%u tried): leave it %u\n", ar->pad_const,
                        ar->npads - 1, ar->pad_now);
            } else if (ar->pad_const[0]) {
                fprintf(f, "  pad: %s = %d (now %u), rows of %u + %d: %s\n", ar->pad_const,
                        ar->best_pad, ar->pad_now, ar->row_elems, ar->best_pad, ch);
                totals_line(f, c, ar->before.wavefronts);
                table_sites(f, &sc, &ar->before, c);
                fprintf(f, "    write: %s\n", c->code);
            } else if (ar->best_pad == 0) {
                fprintf(f, "  pad: none helps (pads 0..%u tried): leave the rows as they are\n",
                        ar->npads - 1);
            } else {
                char to[300];
                if (ar->rows && ar->patchable) {
                    char shp[96];
                    snprintf(shp, sizeof shp, "%s", ar->shape);
                    char *last = strrchr(shp, '[');
                    if (last)
                        *last = 0;
                    snprintf(to, sizeof to, "%s%s[%u]", ar->name, shp,
                             ar->row_elems + (unsigned)ar->best_pad);
                } else {
                    snprintf(to, sizeof to, "%s rows of %u", ar->name,
                             ar->row_elems + (unsigned)ar->best_pad);
                }
                fprintf(f, "  pad: %s%s -> %s (pad %d): %s\n", ar->name, ar->shape, to,
                        ar->best_pad, ch);
                totals_line(f, c, ar->before.wavefronts);
                table_sites(f, &sc, &ar->before, c);
                fprintf(f, "    write: %s\n", c->code);
                if (ar->best_pad_compiled)
                    fprintf(f, "    (pad %d compiled and run: it costs what the layout predicts)\n",
                            ar->best_pad);
            }
            if (ar->pad_const[0])
                fprintf(f, "    wavefronts by %s:", ar->pad_const);
            else
                fprintf(f, "    wavefronts by pad:");
            for (uint32_t p = 0; p < ar->npads; p++) {
                if (p && p % 11 == 0)
                    fprintf(f, "\n                      ");
                if (ar->pads[p].valid)
                    fprintf(f, " %u:%llu", p, (unsigned long long)ar->pads[p].wavefronts);
                else
                    fprintf(f, " %u:-", p);
            }
            fprintf(f, "\n");
            unsigned nbad = 0, first = 0;
            for (uint32_t p = 0; p < ar->npads; p++)
                if (!ar->pads[p].valid && !nbad++)
                    first = p;
            if (nbad)
                fprintf(f, "    pad %u not possible: %s%s\n", first, ar->pads[first].why,
                        nbad > 1 ? " (and others: '-' above)" : "");
            unsigned ncomp = 0;
            for (uint32_t p = 1; p < ar->npads; p++)
                ncomp += ar->pads[p].compiled && ar->pads[p].valid;
            if (ncomp && a->compiles)
                fprintf(f, "    (%u pad%s priced on a compiled variant of the source: rows of "
                           "another alignment compile to other accesses)\n",
                        ncomp, ncomp == 1 ? "" : "s");
        }
        if (ar->best_swizzle >= 0) {
            const struct smem_advise_candidate *c = &ar->swizzles[ar->best_swizzle];
            char ch[400];
            changes(&ar->before, c, ch, sizeof ch);
            fprintf(f, "  swizzle: %s: %s\n", c->formula, ch);
            totals_line(f, c, ar->before.wavefronts);
            table_sites(f, &sc, &ar->before, c);
            fprintf(f, "    write: %s\n", c->code);
            /* the accesses of the source rewritten */
            int shown = 0;
            for (uint32_t s = 0; s < c->nsites; s++) {
                if (s && c->sites[s].line == c->sites[s - 1].line &&
                    !strcmp(c->sites[s].file, c->sites[s - 1].file))
                    continue;
                char out[600];
                smem_source_line(&sc, c->sites[s].file, c->sites[s].line, src, sizeof src);
                if (src[0] && rewrite_line(ar, &c->layout, src, out, sizeof out)) {
                    fprintf(f, "      %u: %s\n", c->sites[s].line, out);
                    shown = 1;
                }
            }
            (void)shown;
        }
        uint64_t fewest = ar->before.wavefronts;
        if (ar->best_pad >= 0 && ar->pads[ar->best_pad].wavefronts < fewest)
            fewest = ar->pads[ar->best_pad].wavefronts;
        if (ar->best_swizzle >= 0 && ar->swizzles[ar->best_swizzle].wavefronts < fewest)
            fewest = ar->swizzles[ar->best_swizzle].wavefronts;
        if (ar->best_tma >= 0 && ar->tmas[ar->best_tma].wavefronts > fewest) {
            /* not a proposal: one line says what the modes leave */
            const struct smem_advise_candidate *c = &ar->tmas[ar->best_tma];
            char tw[32];
            ways(tw, sizeof tw, c->wavefronts, c->ideal, c->max_ways);
            fprintf(f, "  hopper: the best swizzle mode, %s, leaves %llu wavefronts (%s)",
                    smem_layout_tma_name(c->layout.tma), (unsigned long long)c->wavefronts, tw);
            for (uint32_t t = 0; t < ar->ntmas; t++)
                if (t != (uint32_t)ar->best_tma)
                    fprintf(f, "; %s %llu", smem_layout_tma_name(ar->tmas[t].layout.tma),
                            (unsigned long long)ar->tmas[t].wavefronts);
            fprintf(f, "\n");
        } else if (ar->best_tma >= 0) {
            const struct smem_advise_candidate *c = &ar->tmas[ar->best_tma];
            char ch[400], fields[700];
            changes(&ar->before, c, ch, sizeof ch);
            fprintf(f, "  hopper: swizzle %s, the tile as a TMA copy writes it: %s\n",
                    smem_layout_tma_name(c->layout.tma), ch);
            totals_line(f, c, ar->before.wavefronts);
            table_sites(f, &sc, &ar->before, c);
            fprintf(f, "    write: %s\n", c->code);
            smem_report_tma_fields(fields, sizeof fields, &c->layout);
            fprintf(f, "    fields: %s\n", fields);
            for (uint32_t t = 0; t < ar->ntmas; t++)
                if (t != (uint32_t)ar->best_tma)
                    fprintf(f, "    also: swizzle %s: %llu wavefronts, +%llu bytes\n",
                            smem_layout_tma_name(ar->tmas[t].layout.tma),
                            (unsigned long long)ar->tmas[t].wavefronts,
                            (unsigned long long)ar->tmas[t].extra_bytes);
        }
        const struct smem_advise_candidate *alt[16];
        unsigned na = alternatives(ar, a->alternatives < 16 ? a->alternatives : 16, alt);
        for (unsigned j = 0; j < na; j++) {
            const struct smem_advise_candidate *c = alt[j];
            if (c->layout.kind == SMEM_LAYOUT_PAD)
                fprintf(f, "  also: pad %u: %llu wavefronts, +%llu bytes\n", c->layout.pad,
                        (unsigned long long)c->wavefronts, (unsigned long long)c->extra_bytes);
            else
                fprintf(f, "  also: %s: %llu wavefronts\n", c->formula,
                        (unsigned long long)c->wavefronts);
        }
        const struct smem_advise_candidate *best =
            ar->best_is_swizzle ? &ar->swizzles[ar->best_swizzle]
                                : ar->best_pad >= 0 ? &ar->pads[ar->best_pad] : NULL;
        if (!best)
            fprintf(f, "  best: nothing found\n");
        else if (ar->best_is_swizzle)
            fprintf(f, "  best: the swizzle (%llu wavefronts, no extra memory)\n",
                    (unsigned long long)best->wavefronts);
        else if (ar->pad_const[0] && (uint32_t)ar->best_pad != ar->pad_now)
            fprintf(f, "  best: %s = %d (%llu wavefronts, +%llu bytes)\n", ar->pad_const,
                    ar->best_pad, (unsigned long long)best->wavefronts,
                    (unsigned long long)best->extra_bytes);
        else if (ar->best_pad > 0 && !ar->pad_const[0])
            fprintf(f, "  best: pad %d (%llu wavefronts, +%llu bytes)\n", ar->best_pad,
                    (unsigned long long)best->wavefronts, (unsigned long long)best->extra_bytes);
        else
            fprintf(f, "  best: leave it (no layout tried does better)\n");
        if (ar->note[0])
            fprintf(f, "  note: %s\n", ar->note);
    }
    smem_source_cache_free(&sc);
}
