/* advise.c: layout search for conflicting shared arrays. The recorded requests that touch an array
 * are deduplicated once; each candidate layout (model/layout.c's list: row pads, Swizzle<B,M,S> on
 * element offsets, Hopper's swizzle modes as a TMA copy writes the tile) maps those lanes'
 * addresses and the bank model prices every request again. Pads whose rows change alignment are
 * priced on the source compiled with that alignment, because the compiler vectorises shared
 * accesses only where it can prove alignment. A run stopped at a TMA copy (its tensor map comes
 * from the host) is said to be so: the tile's reads after it were not recorded.
 * Size (~1,400 lines): one search, its sections in the data flow's order (requests of an
 * array, pricing, shapes, search, code to write, ranking); the writers are in src/report/. */
#include "smemlab/base/signature.h"
#include "smemlab/base/text.h"
#include "smemlab/analysis/advise.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define STATIC_SMEM_LIMIT 0xC000u /* ptxas refuses more static shared memory than 48 KB */

void smem_advise_defaults(struct smem_advise_options *o)
{
    memset(o, 0, sizeof *o);
    o->banks = smem_banks_default();
    o->compile_check = 1;
    o->alternatives = 5;
}

/* ---- the requests that touch one array ---------------------------------------------------- */

struct ureq {
    uint64_t idx;      /* index in the trace */
    uint64_t count;    /* identical requests */
    uint32_t in;       /* lanes whose address is in the array */
    uint32_t slot;     /* site slot */
};

struct site_key {
    char file[256];
    uint32_t line;
    uint8_t op, bytes;
};

struct stream {
    const struct smem_kernel_report *k;
    uint32_t base, extent;
    unsigned src_pad;        /* the pad the source had when this trace was recorded */
    struct ureq *u;
    size_t nu;
    struct site_key *sites;
    uint32_t nsites;
    unsigned min_width, max_width;
};

static void stream_free(struct stream *s)
{
    free(s->u);
    free(s->sites);
    memset(s, 0, sizeof *s);
}

static enum smem_op req_op(unsigned op)
{
    return op == SMEM_ACC_ST ? SMEM_ST : op == SMEM_ACC_LD ? SMEM_LD : SMEM_ATOM;
}

static void to_request(const struct smem_access *a, struct smem_request *r)
{
    r->active = a->active;
    r->width = a->width;
    r->op = req_op(a->op);
    memcpy(r->addr, a->addr, sizeof r->addr);
    if (a->op == SMEM_ACC_LDSM || a->op == SMEM_ACC_STSM) {
        /* ldmatrix / stmatrix cost what a 16-byte store of their row lanes costs (model/matrix.h:
           one pass a matrix) */
        unsigned n = a->count ? a->count : 4;
        r->active &= n >= 4 ? 0xffffffffu : (1u << (8 * n)) - 1u;
        r->op = SMEM_ST;
    }
}

static uint64_t req_hash(const struct smem_access *a)
{
    uint64_t h = 1469598103934665603ull;
#define MIX(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ull)
    MIX(a->site);
    MIX(a->width);
    MIX(a->op);
    MIX(a->active);
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if (a->active >> l & 1)
            MIX(a->addr[l]);
#undef MIX
    return h;
}

static int req_same(const struct smem_access *a, const struct smem_access *b)
{
    if (a->site != b->site || a->width != b->width || a->op != b->op || a->active != b->active)
        return 0;
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if ((a->active >> l & 1) && a->addr[l] != b->addr[l])
            return 0;
    return 1;
}

/* Collects k's requests touching [base, base + extent), deduplicated. Sites of file rename_from
 * are reported as rename_to (a compiled variant lives in a temporary copy). 0, or -1 when out of
 * memory. Requests the analysis did not price (data-dependent lanes, malformed) are left out. */
static int stream_build(const struct smem_kernel_report *k, uint32_t base, uint32_t extent,
                        const struct smem_banks *banks, const char *rename_from,
                        const char *rename_to, struct stream *st)
{
    memset(st, 0, sizeof *st);
    st->k = k;
    st->base = base;
    st->extent = extent;
    st->min_width = 16;
    size_t cap = 64, hcap = 1;
    while (hcap < 2 * (k->ntrace ? k->ntrace : 1))
        hcap <<= 1;
    uint64_t *hash = malloc(hcap * sizeof *hash); /* idx + 1 of the ureq, 0 = empty */
    st->u = malloc(cap * sizeof *st->u);
    size_t scap = 16;
    st->sites = malloc(scap * sizeof *st->sites);
    if (!hash || !st->u || !st->sites)
        goto oom;
    memset(hash, 0, hcap * sizeof *hash);
    for (uint64_t i = 0; i < k->ntrace; i++) {
        const struct smem_access *a = &k->trace[i];
        if (a->unknown || !a->active)
            continue;
        uint32_t in = 0;
        for (unsigned l = 0; l < SMEM_WARP; l++)
            if ((a->active >> l & 1) && a->addr[l] >= base && a->addr[l] - base < extent)
                in |= 1u << l;
        if (!in)
            continue;
        struct smem_request r;
        to_request(a, &r);
        if (smem_request_check(banks, &r))
            continue;
        uint64_t h = req_hash(a);
        size_t pos = (size_t)(h & (hcap - 1));
        while (hash[pos] && !req_same(&k->trace[st->u[hash[pos] - 1].idx], a))
            pos = (pos + 1) & (hcap - 1);
        if (hash[pos]) {
            st->u[hash[pos] - 1].count++;
            continue;
        }
        if (st->nu == cap) {
            struct ureq *nu = realloc(st->u, cap * 2 * sizeof *nu);
            if (!nu)
                goto oom;
            st->u = nu;
            cap *= 2;
        }
        /* the site slot: (file, line, op); the width kept is the widest */
        const struct smem_cta_site *cs = &k->program->sites[a->site];
        const char *file = cs->file ? cs->file : "";
        if (rename_from && !strcmp(file, rename_from))
            file = rename_to;
        uint32_t slot;
        for (slot = 0; slot < st->nsites; slot++)
            if (st->sites[slot].line == cs->line && st->sites[slot].op == cs->op &&
                !strcmp(st->sites[slot].file, file))
                break;
        if (slot == st->nsites) {
            if (st->nsites == scap) {
                struct site_key *ns = realloc(st->sites, scap * 2 * sizeof *ns);
                if (!ns)
                    goto oom;
                st->sites = ns;
                scap *= 2;
            }
            struct site_key *sk = &st->sites[st->nsites++];
            snprintf(sk->file, sizeof sk->file, "%s", file);
            sk->line = cs->line;
            sk->op = cs->op;
            sk->bytes = a->width;
        }
        if (a->width > st->sites[slot].bytes)
            st->sites[slot].bytes = a->width;
        if (a->width < st->min_width)
            st->min_width = a->width;
        if (a->width > st->max_width)
            st->max_width = a->width;
        st->u[st->nu] = (struct ureq){i, 1, in, slot};
        hash[pos] = ++st->nu;
    }
    free(hash);
    return 0;
oom:
    free(hash);
    stream_free(st);
    return -1;
}

/* ---- pricing a layout --------------------------------------------------------------------- */

static void cand_free(struct smem_advise_candidate *c)
{
    free(c->sites);
    c->sites = NULL;
    c->nsites = 0;
}

/* Where rel (a byte offset in the array as the stream recorded it) goes under l. */
static uint32_t map_from(const struct smem_layout *l, unsigned src_pad, uint32_t rel)
{
    if (l->kind == SMEM_LAYOUT_SWIZZLE || !src_pad)
        return smem_layout_map(l, rel);
    if (l->kind == SMEM_LAYOUT_TMA) { /* the recorded rows hold src_pad: the logical offset first */
        uint32_t e = l->elem_bytes, src = (l->row_elems + src_pad) * e;
        return smem_layout_map(l, rel / src * (l->row_elems * e) + rel % src);
    }
    uint32_t e = l->elem_bytes, src = (l->row_elems + src_pad) * e;
    return rel / src * ((l->row_elems + l->pad) * e) + rel % src;
}

static int site_cmp(const void *x, const void *y)
{
    const struct smem_advise_site *a = x, *b = y;
    int c = strcmp(a->file, b->file);
    if (c)
        return c;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    return a->op < b->op ? -1 : a->op > b->op;
}

/* Prices every request of st under l into c (valid, totals, sites). -1 when out of memory. */
static int price(const struct stream *st, const struct smem_layout *l,
                 const struct smem_banks *banks, struct smem_advise_candidate *c)
{
    cand_free(c);
    c->requests = c->wavefronts = c->ideal = 0;
    c->max_ways = 0;
    c->valid = 1;
    c->sites = calloc(st->nsites ? st->nsites : 1, sizeof *c->sites);
    if (!c->sites)
        return -1;
    c->nsites = st->nsites;
    for (uint32_t i = 0; i < st->nsites; i++) {
        snprintf(c->sites[i].file, sizeof c->sites[i].file, "%s", st->sites[i].file);
        c->sites[i].line = st->sites[i].line;
        c->sites[i].op = st->sites[i].op;
        c->sites[i].bytes = st->sites[i].bytes;
    }
    uint32_t src_row = l->kind != SMEM_LAYOUT_SWIZZLE && l->row_elems
                           ? (l->row_elems + st->src_pad) * l->elem_bytes : 0;
    for (size_t i = 0; i < st->nu; i++) {
        const struct ureq *u = &st->u[i];
        const struct smem_access *a = &st->k->trace[u->idx];
        struct smem_request r;
        to_request(a, &r);
        for (unsigned ln = 0; ln < SMEM_WARP; ln++) {
            if (!(u->in >> ln & 1))
                continue;
            uint32_t rel = a->addr[ln] - st->base;
            if (src_row && (l->kind == SMEM_LAYOUT_TMA || l->pad != st->src_pad) &&
                rel % src_row + a->width > src_row) {
                snprintf(c->why, sizeof c->why, "line %u: a %u-byte access crosses a row",
                         st->k->program->sites[a->site].line, a->width);
                c->valid = 0;
                return 0;
            }
            r.addr[ln] = map_from(l, st->src_pad, rel) + st->base;
        }
        const char *bad = smem_request_check(banks, &r);
        if (bad) {
            snprintf(c->why, sizeof c->why, "line %u: %u-byte accesses would be misaligned (%s)",
                     st->k->program->sites[a->site].line, a->width, bad);
            c->valid = 0;
            return 0;
        }
        struct smem_cost cost = smem_request_cost(banks, &r);
        struct smem_advise_site *s = &c->sites[u->slot];
        s->requests += u->count;
        s->wavefronts += u->count * cost.wavefronts;
        s->ideal += u->count * cost.ideal;
        if (cost.max_ways > s->max_ways)
            s->max_ways = cost.max_ways;
        c->requests += u->count;
        c->wavefronts += u->count * cost.wavefronts;
        c->ideal += u->count * cost.ideal;
        if (cost.max_ways > c->max_ways)
            c->max_ways = cost.max_ways;
    }
    qsort(c->sites, c->nsites, sizeof *c->sites, site_cmp);
    return 0;
}

/* ---- naming and shapes -------------------------------------------------------------------- */

static int same_file(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    if (!strcmp(a, b))
        return 1;
    struct stat sa, sb;
    if (!stat(a, &sa) && !stat(b, &sb))
        return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    return 0;
}

static uint32_t var_align(const struct smem_kernel_report *k, const char *name)
{
    const struct smem_ptx_func *f = k->program->func;
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (!strcmp(f->syms[i].name, name))
            return f->syms[i].align;
    return 0;
}

/* The row length the accesses show: the most common element distance between consecutive lanes
 * of conflicting requests, among those that tile the array. 0 if none. */
static uint32_t infer_row(const struct stream *st, uint32_t elem, const struct smem_banks *banks)
{
    struct stride_count {
        uint32_t d;
        uint64_t w;
    } tally[64];
    unsigned nt = 0;
    for (size_t i = 0; i < st->nu; i++) {
        const struct smem_access *a = &st->k->trace[st->u[i].idx];
        struct smem_request r;
        to_request(a, &r);
        struct smem_cost c = smem_request_cost(banks, &r);
        if (c.wavefronts <= c.ideal)
            continue;
        int prev = -1;
        for (unsigned l = 0; l < SMEM_WARP; l++) {
            if (!(st->u[i].in >> l & 1))
                continue;
            if (prev >= 0) {
                uint32_t x = a->addr[prev], y = a->addr[l];
                uint32_t diff = x > y ? x - y : y - x;
                if (diff % elem == 0 && diff / elem > 1) {
                    uint32_t d = diff / elem;
                    unsigned j;
                    for (j = 0; j < nt && tally[j].d != d; j++)
                        ;
                    if (j == nt && nt < 64)
                        tally[nt++] = (struct stride_count){d, 0};
                    if (j < nt)
                        tally[j].w += st->u[i].count;
                }
            }
            prev = (int)l;
        }
    }
    uint32_t best = 0;
    uint64_t bw = 0;
    for (unsigned j = 0; j < nt; j++)
        if (tally[j].w > bw && st->extent % (tally[j].d * elem) == 0) {
            best = tally[j].d;
            bw = tally[j].w;
        }
    return best;
}

/* ---- the search for one array ------------------------------------------------------------- */

struct ctx {
    const struct smem_analysis *an;
    const struct smem_kernel_report *k;
    const struct smem_advise_options *o;
    struct smem_advice *adv;
    const struct smem_banks *banks;
    char *text;              /* the source (NULL: none) */
    size_t len;
    struct smem_decl *decls;
    unsigned ndecls;
    const struct smem_consts *consts;
};

/* Row alignment class of pad p: what the compiler can prove about a row's start. */
static uint32_t align_class(const struct smem_advise_array *ar, unsigned p)
{
    uint32_t rb = (ar->row_elems + p) * ar->elem_bytes;
    uint32_t low = rb & (~rb + 1);
    uint32_t cap = ar->align > ar->elem_bytes ? ar->align : ar->elem_bytes;
    if (cap > 16)
        cap = 16;
    return low < cap ? low : cap;
}

/* Compiles the source with ar padded by pad and records the kernel's run. */
static int compile_variant(struct ctx *cx, const struct smem_advise_array *ar, unsigned pad,
                           struct smem_analysis **out, char *tmp_path, size_t tsize,
                           struct smem_error *err)
{
    const struct smem_advise_options *o = cx->o;
    *out = NULL;
    const struct smem_decl *d = &ar->decl;
    size_t plen;
    char *patched = smem_decl_patch(cx->text, cx->len, &d, &pad, 1, &plen);
    if (!patched)
        return smem_error_set(err, o->source, 0, 0, "out of memory");
    char dir[] = "/tmp/smemlab-advXXXXXX";
    if (!mkdtemp(dir)) {
        free(patched);
        return smem_error_set(err, NULL, 0, 0, "cannot create a temporary folder: %s",
                              strerror(errno));
    }
    snprintf(tmp_path, tsize, "%s/%s", dir, smem_base_name(o->source));
    FILE *f = fopen(tmp_path, "wb");
    int rc = -1;
    if (!f || fwrite(patched, 1, plen, f) != plen) {
        smem_error_set(err, tmp_path, 0, 0, "cannot write: %s", strerror(errno));
        if (f)
            fclose(f);
        goto done;
    }
    fclose(f);
    /* the same compiler arguments, plus the original folder for its #include "..." */
    char srcdir[1024];
    snprintf(srcdir, sizeof srcdir, "%s", o->source);
    char *slash = strrchr(srcdir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(srcdir, sizeof srcdir, ".");
    const char **args = calloc(o->analyze->ncompiler_args + 3, sizeof *args);
    if (!args) {
        smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    args[0] = "-I";
    args[1] = srcdir;
    for (unsigned i = 0; i < o->analyze->ncompiler_args; i++)
        args[2 + i] = o->analyze->compiler_args[i];
    struct smem_analyze_options ao = *o->analyze;
    ao.compiler_args = args;
    ao.ncompiler_args = o->analyze->ncompiler_args + 2;
    ao.kernel = cx->k->symbol;
    ao.record = 1;
    ao.hazards = 0;
    rc = smem_analyze_file(tmp_path, &ao, out, err);
    free(args);
    if (!rc)
        cx->adv->compiles++;
done:
    unlink(tmp_path);
    rmdir(dir);
    free(patched);
    return rc ? -1 : 0;
}

static const struct smem_cta_var *find_var(const struct smem_cta_program *p, const char *name)
{
    for (uint32_t i = 0; i < p->nvars; i++)
        if (!strcmp(p->vars[i].name, name))
            return &p->vars[i];
    return NULL;
}

/* Chooses the declaration of ar in the source: same name, in the function the mangling names,
 * else the nearest one above the first line that accesses the array. */
static const struct smem_decl *match_decl(struct ctx *cx, const struct smem_advise_array *ar,
                                          const char *func, const struct stream *st)
{
    const struct smem_decl *best = NULL;
    unsigned nmatch = 0;
    for (unsigned i = 0; i < cx->ndecls; i++) {
        const struct smem_decl *d = &cx->decls[i];
        if (strcmp(d->name, ar->name) || d->is_extern != ar->dynamic)
            continue;
        nmatch++;
        if (!best)
            best = d;
        if (func[0] && !strcmp(d->func, func)) {
            best = d;
            nmatch = 1;
            break;
        }
    }
    if (nmatch <= 1)
        return best;
    uint32_t first = UINT32_MAX;
    for (uint32_t s = 0; s < st->nsites; s++)
        if (same_file(st->sites[s].file, cx->o->source) && st->sites[s].line < first)
            first = st->sites[s].line;
    const struct smem_decl *near = NULL;
    for (unsigned i = 0; i < cx->ndecls; i++) {
        const struct smem_decl *d = &cx->decls[i];
        if (!strcmp(d->name, ar->name) && d->is_extern == ar->dynamic && d->line <= first &&
            (!near || d->line > near->line))
            near = d;
    }
    return near ? near : best;
}

/* Element size, row length, shape: from the declaration, the options, or the accesses. */
/* text[b, e) trimmed of blanks and of one pair of parentheses around it all */
static void trim_span(const char *text, size_t *b, size_t *e)
{
    for (int again = 1; again;) {
        again = 0;
        while (*b < *e && isspace((unsigned char)text[*b]))
            (*b)++;
        while (*e > *b && isspace((unsigned char)text[*e - 1]))
            (*e)--;
        if (*e - *b >= 2 && text[*b] == '(' && text[*e - 1] == ')') {
            int depth = 0, whole = 1;
            for (size_t i = *b; i < *e - 1 && whole; i++) {
                depth += text[i] == '(';
                depth -= text[i] == ')';
                whole = depth > 0;
            }
            if (whole) {
                (*b)++;
                (*e)--;
                again = 1;
            }
        }
    }
}

/* The last top-level `op` of text[b, e), or e when none. */
static size_t last_top(const char *text, size_t b, size_t e, char op)
{
    size_t at = e;
    int depth = 0;
    for (size_t i = b; i < e; i++) {
        depth += text[i] == '(' || text[i] == '[';
        depth -= text[i] == ')' || text[i] == ']';
        if (!depth && text[i] == op)
            at = i;
    }
    return at;
}

/* Whether the source indexes name with the row expression row ("Bs[r * (BN + extraCols) + c]"):
 * some `name[...]` holds row's text (blanks ignored). */
static int indexed_by(const char *text, size_t len, const char *name, const char *row)
{
    char want[160];
    size_t wn = 0;
    for (const char *c = row; *c && wn + 1 < sizeof want; c++)
        if (!isspace((unsigned char)*c))
            want[wn++] = *c;
    want[wn] = 0;
    size_t nl = strlen(name);
    for (size_t i = 0; i + nl < len; i++) {
        if (memcmp(text + i, name, nl) || text[i + nl] != '[' ||
            (i && (isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_')))
            continue;
        char inside[600];
        size_t k = 0;
        int depth = 0;
        for (size_t j = i + nl; j < len && k + 1 < sizeof inside; j++) {
            depth += text[j] == '[';
            depth -= text[j] == ']';
            if (!depth)
                break;
            if (!isspace((unsigned char)text[j]))
                inside[k++] = text[j];
        }
        inside[k] = 0;
        if (strstr(inside, want))
            return 1;
    }
    return 0;
}

/* A one-dimensional declaration "ROWS * (ROW + NAME)" with NAME a constant the indexing uses in
 * the same row expression: the rows and row as declared, the pad's constant (ar->decl_shape,
 * pad_const, pad_now, row_elems = ROW, rows). 1 when it is one. */
static int named_pad(const struct ctx *cx, struct smem_advise_array *ar, const struct smem_decl *d)
{
    const char *t = d->dim_text[0];
    size_t b = 0, e = strlen(t);
    trim_span(t, &b, &e);
    size_t star = last_top(t, b, e, '*');
    if (star == e || !cx->text)
        return 0;
    size_t rb = star + 1, re = e, lb = b, le = star;
    trim_span(t, &rb, &re);
    trim_span(t, &lb, &le);
    size_t plus = last_top(t, rb, re, '+');
    if (plus == re)
        return 0;
    size_t xb = rb, xe = plus, nb = plus + 1, ne = re;
    trim_span(t, &xb, &xe);
    trim_span(t, &nb, &ne);
    char rows_t[128], base_t[128], name[64], row_t[128];
    snprintf(rows_t, sizeof rows_t, "%.*s", (int)(le - lb), t + lb);
    snprintf(base_t, sizeof base_t, "%.*s", (int)(xe - xb), t + xb);
    snprintf(name, sizeof name, "%.*s", (int)(ne - nb), t + nb);
    snprintf(row_t, sizeof row_t, "%.*s", (int)(re - rb), t + rb);
    for (const char *c = name; *c; c++)
        if (!(isalnum((unsigned char)*c) || *c == '_') || isdigit((unsigned char)name[0]))
            return 0;
    int64_t rows, base, now;
    if (!name[0] || smem_const_eval(cx->consts, rows_t, &rows) ||
        smem_const_eval(cx->consts, base_t, &base) || smem_const_eval(cx->consts, name, &now) ||
        rows <= 0 || base <= 0 || now < 0 || now > 64 ||
        (uint64_t)rows * (uint64_t)(base + now) * ar->elem_bytes != ar->size ||
        !indexed_by(cx->text, cx->len, ar->name, row_t))
        return 0;
    ar->row_elems = (uint32_t)base;
    ar->rows = (uint32_t)rows;
    ar->pad_now = (uint32_t)now;
    snprintf(ar->pad_const, sizeof ar->pad_const, "%s", name);
    snprintf(ar->decl_shape, sizeof ar->decl_shape, "[%.60s][%.90s]", rows_t, row_t);
    snprintf(ar->shape, sizeof ar->shape, "[%lld][%lld]", (long long)rows,
             (long long)(base + now));
    snprintf(ar->row_from, sizeof ar->row_from, "declaration, without %.40s", name);
    return 1;
}

static void describe(struct ctx *cx, struct smem_advise_array *ar, const struct smem_decl *d,
                     const struct stream *st)
{
    const struct smem_advise_options *o = cx->o;
    uint32_t size = ar->size;
    if (d) {
        ar->has_decl = 1;
        ar->decl = *d;
        snprintf(ar->type, sizeof ar->type, "%s", d->type);
        snprintf(ar->decl_file, sizeof ar->decl_file, "%s", o->source);
    }
    unsigned tb = d ? smem_type_bytes(d->type) : 0;
    uint64_t prod = 1;
    int unknown = -1, nunknown = 0;
    unsigned nd = d ? (d->ndims > SMEM_DECL_MAX_DIMS ? 0 : d->ndims) : 0;
    for (unsigned i = 0; i < nd; i++) {
        if (d->dim[i] > 0)
            prod *= (uint64_t)d->dim[i];
        else {
            unknown = (int)i;
            nunknown++;
        }
    }
    uint64_t dims[SMEM_DECL_MAX_DIMS] = {0};
    for (unsigned i = 0; i < nd; i++)
        dims[i] = d->dim[i] > 0 ? (uint64_t)d->dim[i] : 0;
    if (o->elem_bytes) {
        ar->elem_bytes = o->elem_bytes;
    } else if (nd && !ar->dynamic && !nunknown && prod && size % prod == 0 && size / prod) {
        ar->elem_bytes = (uint32_t)(size / prod); /* what ptxas allocated per element */
    } else if (tb) {
        ar->elem_bytes = tb;
    } else {
        ar->elem_bytes = st->min_width ? st->min_width : 1;
        snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                 "element size taken from the narrowest access (%u bytes); give --elem to set it. ",
                 ar->elem_bytes);
    }
    if (nd && !ar->dynamic && nunknown == 1 && ar->elem_bytes && prod &&
        size % (prod * ar->elem_bytes) == 0)
        dims[unknown] = size / (prod * ar->elem_bytes); /* e.g. a template parameter */
    int decl_ok = nd >= 1 && !ar->dynamic;
    for (unsigned i = 0; i < nd; i++)
        decl_ok = decl_ok && dims[i] > 0;
    if (decl_ok) {
        uint64_t all = ar->elem_bytes;
        for (unsigned i = 0; i < nd; i++)
            all *= dims[i];
        decl_ok = all == size;
        if (!decl_ok)
            snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                     "the declaration at line %u does not match the %u bytes compiled; ignored. ",
                     d->line, size);
    }
    if (decl_ok) {
        size_t k = 0;
        for (unsigned i = 0; i < nd && k + 24 < sizeof ar->shape; i++)
            k += (size_t)snprintf(ar->shape + k, sizeof ar->shape - k, "[%llu]",
                                  (unsigned long long)dims[i]);
    }
    if (o->row_elems) {
        ar->row_elems = o->row_elems;
        snprintf(ar->row_from, sizeof ar->row_from, "--row");
    } else if (decl_ok && nd == 1 && named_pad(cx, ar, d)) {
        return; /* rows of the declaration, its pad a constant to change */
    } else if (decl_ok && nd >= 2) {
        ar->row_elems = (uint32_t)dims[nd - 1];
        snprintf(ar->row_from, sizeof ar->row_from, "declaration");
    } else {
        ar->row_elems = infer_row(st, ar->elem_bytes, cx->banks);
        if (ar->row_elems)
            snprintf(ar->row_from, sizeof ar->row_from, "access strides");
    }
    ar->patchable = decl_ok && nd >= 2 && ar->row_elems == dims[nd - 1] && !ar->dynamic;
    if (ar->row_elems && ar->size % (ar->row_elems * ar->elem_bytes) == 0)
        ar->rows = ar->size / (ar->row_elems * ar->elem_bytes);
    if (!ar->shape[0] && ar->row_elems && ar->rows)
        snprintf(ar->shape, sizeof ar->shape, "[%u][%u]", ar->rows, ar->row_elems);
}

/* ---- code to write ------------------------------------------------------------------------ */

/* The source's definition of constant name with value v in place of its number ("const int
 * extraCols = 1;", "#define PAD 1"), else "name = v". */
static void const_definition(const struct ctx *cx, const char *name, unsigned v, char *buf,
                             size_t size)
{
    size_t nl = strlen(name);
    for (size_t i = 0; cx->text && i + nl < cx->len; i++) {
        if (memcmp(cx->text + i, name, nl) ||
            (i && (isalnum((unsigned char)cx->text[i - 1]) || cx->text[i - 1] == '_')) ||
            isalnum((unsigned char)cx->text[i + nl]) || cx->text[i + nl] == '_')
            continue;
        size_t ls = i, le = i + nl, j = i + nl;
        while (ls && cx->text[ls - 1] != '\n')
            ls--;
        while (le < cx->len && cx->text[le] != '\n')
            le++;
        const char *lead = cx->text + ls + strspn(cx->text + ls, " \t");
        char before[256];
        snprintf(before, sizeof before, "%.*s", (int)(i - ls < 255 ? i - ls : 255), cx->text + ls);
        if (*lead == '*' || strstr(before, "//") || strstr(before, "/*"))
            continue; /* in a comment */
        int define = !strncmp(lead, "#define", 7);
        while (j < le && (cx->text[j] == ' ' || cx->text[j] == '\t'))
            j++;
        if (!define && (j >= le || cx->text[j] != '='))
            continue;
        if (!define)
            j++;
        while (j < le && (cx->text[j] == ' ' || cx->text[j] == '\t'))
            j++;
        size_t num = j;
        while (j < le && isdigit((unsigned char)cx->text[j]))
            j++;
        if (j == num)
            continue;
        size_t s0 = ls + strspn(cx->text + ls, " \t");
        snprintf(buf, size, "%.*s%u%.*s", (int)(num - s0), cx->text + s0, v, (int)(le - j),
                 cx->text + j);
        return;
    }
    snprintf(buf, size, "%s = %u", name, v);
}

static void pad_code(struct ctx *cx, const struct smem_advise_array *ar, unsigned p, char *buf,
                     size_t size)
{
    uint32_t c = ar->row_elems, n = ar->rows * (c + p);
    if (ar->pad_const[0]) {
        char def[200];
        const_definition(cx, ar->pad_const, p, def, sizeof def);
        snprintf(buf, size, "%s (now %u): %s[%s] and its indexing stay as written, its rows "
                 "%u + %u elements", def, ar->pad_now, ar->name, ar->decl.dim_text[0], c, p);
    } else if (ar->patchable && cx->text) {
        smem_decl_statement(cx->text, &ar->decl, p, buf, size);
    } else if (ar->dynamic) {
        snprintf(buf, size, "%s[r * %u + c] for %s[r * %u + c]; dynamic shared memory %u bytes "
                 "(+%u)", ar->name, c + p, ar->name, c, n * ar->elem_bytes,
                 ar->rows * p * ar->elem_bytes);
    } else {
        snprintf(buf, size, "%.60s%s%.60s[%u], indexed %.60s[r * %u + c] for %.60s[r * %u + c]",
                 ar->type[0] ? ar->type : "", ar->type[0] ? " " : "", ar->name, n, ar->name, c + p,
                 ar->name, c);
    }
}

static void swizzle_code(const struct smem_advise_array *ar, struct smem_advise_candidate *c)
{
    unsigned b = c->layout.b, m = c->layout.m, s = c->layout.s;
    uint32_t zzz = ((1u << b) - 1) << m;
    smem_layout_formula(&c->layout, c->formula, sizeof c->formula);
    char col[200];
    int twod = ar->patchable && ar->decl.ndims == 2;
    if (twod && smem_layout_col_expr(&c->layout, ar->rows, "r", "c", col, sizeof col))
        snprintf(c->code, sizeof c->code, "%s[r][%s] for %s[r][c]", ar->name, col, ar->name);
    else if (twod)
        snprintf(c->code, sizeof c->code,
                 "(&%s[0][0])[o ^ ((o >> %u) & 0x%x)] with o = r * %u + c, for %s[r][c]",
                 ar->name, s, zzz, ar->row_elems, ar->name);
    else
        snprintf(c->code, sizeof c->code, "%s[o ^ ((o >> %u) & 0x%x)] for %s[o]", ar->name, s,
                 zzz, ar->name);
}

/* ---- ranking ------------------------------------------------------------------------------ */

/* Fewest wavefronts, then the candidates' own order (model/layout.h). */
static int swz_cmp(const void *x, const void *y)
{
    const struct smem_advise_candidate *a = x, *b = y;
    if (a->wavefronts != b->wavefronts)
        return a->wavefronts < b->wavefronts ? -1 : 1;
    return smem_layout_order(&a->layout, &b->layout);
}

/* The array as layout.h's search sees it. */
static struct smem_layout_space array_space(const struct ctx *cx, const struct smem_advise_array *ar,
                                            const struct stream *st0)
{
    struct smem_layout_space sp;
    memset(&sp, 0, sizeof sp);
    sp.elem_bytes = ar->elem_bytes;
    sp.row_elems = ar->row_elems;
    sp.rows = ar->rows;
    sp.elems = ar->size / ar->elem_bytes;
    if (ar->pad_const[0]) /* rows of row_elems, each followed by the constant's pad */
        sp.elems = ar->rows * ar->row_elems;
    sp.unit = st0->max_width;
    sp.max_pad = cx->o->max_pad;
    sp.banks = *cx->banks;
    return sp;
}

/* ---- one array ---------------------------------------------------------------------------- */

/* Compiles the source with ar padded by p and prices every pad q with which[q] on that run (q's
 * layout taken from p's rows). A variant that does not compile or analyse makes them impossible.
 * -1 only when out of memory. */
static int price_on_variant(struct ctx *cx, struct smem_advise_array *ar, const struct stream *st0,
                            unsigned p, const uint8_t *which, struct smem_error *err)
{
    struct smem_analysis *va = NULL;
    char tmp[1200];
    struct smem_error verr;
    memset(&verr, 0, sizeof verr);
    struct stream st;
    memset(&st, 0, sizeof st);
    int ok = !compile_variant(cx, ar, p, &va, tmp, sizeof tmp, &verr) && va->nkernels == 1 &&
             va->kernels[0].program;
    const struct smem_cta_var *v = ok ? find_var(va->kernels[0].program, ar->ptx_name) : NULL;
    /* its sites name the temporary copy: report them under the original's name */
    const char *orig = cx->o->source;
    for (uint32_t i = 0; i < st0->nsites; i++)
        if (same_file(st0->sites[i].file, cx->o->source)) {
            orig = st0->sites[i].file;
            break;
        }
    if (v && stream_build(&va->kernels[0], v->offset, v->size, cx->banks, tmp, orig, &st)) {
        smem_analysis_free(va);
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    st.src_pad = p;
    int rc = 0;
    for (unsigned q = 0; q < ar->npads && !rc; q++) {
        struct smem_advise_candidate *cq = &ar->pads[q];
        if (!which[q])
            continue;
        if (!v) {
            char b[700];
            cq->valid = 0;
            cand_free(cq);
            snprintf(cq->why, sizeof cq->why, "the source padded by %u does not analyse: %s", p,
                     verr.msg[0] ? smem_error_format(&verr, b, sizeof b) : "the array is gone");
            continue;
        }
        if (price(&st, &cq->layout, cx->banks, cq))
            rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        cq->compiled = 1;
    }
    stream_free(&st);
    smem_analysis_free(va);
    return rc;
}

static int search_pads(struct ctx *cx, struct smem_advise_array *ar, const struct stream *st0,
                       struct smem_error *err)
{
    const struct smem_advise_options *o = cx->o;
    struct smem_layout_space sp = array_space(cx, ar, st0);
    ar->npads = smem_layout_max_pad(&sp) + 1;
    ar->pads = calloc(ar->npads, sizeof *ar->pads);
    if (!ar->pads)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    uint32_t base_static = cx->k->static_smem;
    struct smem_layout_iter it;
    struct smem_layout l;
    smem_layout_iter_init(&it, SMEM_LAYOUT_PAD);
    while (smem_layout_next(&sp, &it, &l) && l.kind == SMEM_LAYOUT_PAD) {
        unsigned p = l.pad;
        assert(p < ar->npads); /* the list's pads are 0 .. max_pad, in order */
        struct smem_advise_candidate *c = &ar->pads[p];
        c->layout = l;
        c->extra_bytes = (uint64_t)ar->rows * (p > ar->pad_now ? p - ar->pad_now : 0) *
                         ar->elem_bytes;
        c->valid = 1;
        const char *why = smem_layout_onto(&sp, &c->layout);
        if (why) {
            c->valid = 0;
            snprintf(c->why, sizeof c->why, "%s", why);
        } else if (!ar->dynamic && base_static + c->extra_bytes > STATIC_SMEM_LIMIT) {
            c->valid = 0;
            snprintf(c->why, sizeof c->why, "static shared memory would be %llu bytes (48 KB is "
                     "the most a static allocation may have)",
                     (unsigned long long)(base_static + c->extra_bytes));
        } else if (ar->dynamic && cx->k->dynamic_smem + c->extra_bytes > SMEM_MAX_SMEM_PER_BLOCK) {
            c->valid = 0;
            snprintf(c->why, sizeof c->why, "dynamic shared memory would exceed 227 KB");
        }
        pad_code(cx, ar, p, c->code, sizeof c->code);
    }
    /* the alignment class of each pad: pads of pad 0's class are priced on the recorded run;
     * each other class on a compile of its smallest pad */
    int compile = o->compile_check && o->analyze && o->source && cx->text && ar->patchable;
    uint32_t class0 = align_class(ar, 0);
    uint8_t *which = calloc(ar->npads, 1), *own = calloc(ar->npads, 1);
    if (!which || !own) {
        free(which);
        free(own);
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    own[0] = 1;
    int rc = 0;
    for (unsigned p = 0; p < ar->npads && !rc; p++) {
        struct smem_advise_candidate *c = &ar->pads[p];
        if (!c->valid || c->sites)
            continue;
        uint32_t cls = align_class(ar, p);
        if (cls == class0 || !compile) {
            if (price(st0, &c->layout, cx->banks, c))
                rc = smem_error_set(err, NULL, 0, 0, "out of memory");
            c->compiled = cls == class0; /* the analysed build has this row alignment */
            continue;
        }
        /* p is the smallest valid pad of a new class: compile it, price its class on that */
        for (unsigned q = 0; q < ar->npads; q++)
            which[q] = q >= p && ar->pads[q].valid && align_class(ar, q) == cls;
        own[p] = 1;
        rc = price_on_variant(cx, ar, st0, p, which, err);
    }
    ar->best_pad = -1;
    for (unsigned p = 0; p < ar->npads; p++)
        if (ar->pads[p].valid &&
            (ar->best_pad < 0 || ar->pads[p].wavefronts < ar->pads[ar->best_pad].wavefronts))
            ar->best_pad = (int)p;
    /* the proof of the answer: the best pad compiled and run, which must cost what the layout
     * predicted. A kernel that indexes the array in a way padding does not move (a flat pointer
     * with its own row length) fails it; then every pad is compiled and priced on its own run. */
    if (!rc && compile && ar->best_pad > 0 && !own[ar->best_pad]) {
        struct smem_advise_candidate pred = ar->pads[ar->best_pad];
        unsigned bp = (unsigned)ar->best_pad;
        pred.sites = NULL;
        memset(which, 0, ar->npads);
        which[bp] = 1;
        own[bp] = 1;
        rc = price_on_variant(cx, ar, st0, bp, which, err);
        const struct smem_advise_candidate *got = &ar->pads[bp];
        if (!rc && (!got->valid || got->wavefronts != pred.wavefronts ||
                    got->ideal != pred.ideal || got->requests != pred.requests)) {
            snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                     "pad %u compiled cost %llu wavefronts, not the %llu its layout predicts (the "
                     "kernel does not index the array by its declared rows): every pad was "
                     "compiled instead. ", bp, (unsigned long long)got->wavefronts,
                     (unsigned long long)pred.wavefronts);
            for (unsigned q = 1; q < ar->npads && !rc; q++) {
                if (own[q] || !ar->pads[q].valid)
                    continue;
                memset(which, 0, ar->npads);
                which[q] = 1;
                own[q] = 1;
                rc = price_on_variant(cx, ar, st0, q, which, err);
            }
            ar->best_pad = -1;
            for (unsigned p = 0; p < ar->npads; p++)
                if (ar->pads[p].valid && (ar->best_pad < 0 ||
                                          ar->pads[p].wavefronts < ar->pads[ar->best_pad].wavefronts))
                    ar->best_pad = (int)p;
        }
    }
    /* a named pad: the value it has now, when no other value does better */
    if (ar->pad_const[0] && ar->best_pad >= 0 && ar->pad_now < ar->npads &&
        ar->pads[ar->pad_now].valid &&
        ar->pads[ar->pad_now].wavefronts == ar->pads[ar->best_pad].wavefronts)
        ar->best_pad = (int)ar->pad_now;
    ar->best_pad_compiled = ar->best_pad >= 0 && own[ar->best_pad];
    free(which);
    free(own);
    return rc;
}

static int search_swizzles(struct ctx *cx, struct smem_advise_array *ar, const struct stream *st0,
                           struct smem_error *err)
{
    struct smem_layout_space sp = array_space(cx, ar, st0);
    size_t cap = 64;
    ar->swizzles = calloc(cap, sizeof *ar->swizzles);
    if (!ar->swizzles)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    unsigned tried = 0, bad = 0;
    struct smem_layout_iter it;
    struct smem_layout l;
    smem_layout_iter_init(&it, SMEM_LAYOUT_SWIZZLE);
    while (smem_layout_next(&sp, &it, &l) && l.kind == SMEM_LAYOUT_SWIZZLE) {
        tried++;
        if (smem_layout_onto(&sp, &l)) {
            bad++;
            continue;
        }
        if (ar->nswizzles == cap) {
            struct smem_advise_candidate *ns = realloc(ar->swizzles, cap * 2 * sizeof *ns);
            if (!ns)
                return smem_error_set(err, NULL, 0, 0, "out of memory");
            memset(ns + cap, 0, cap * sizeof *ns);
            ar->swizzles = ns;
            cap *= 2;
        }
        struct smem_advise_candidate *c = &ar->swizzles[ar->nswizzles];
        c->layout = l;
        if (price(st0, &l, cx->banks, c))
            return smem_error_set(err, NULL, 0, 0, "out of memory");
        if (!c->valid) {
            cand_free(c);
            memset(c, 0, sizeof *c);
            bad++;
            continue;
        }
        swizzle_code(ar, c);
        ar->nswizzles++;
    }
    qsort(ar->swizzles, ar->nswizzles, sizeof *ar->swizzles, swz_cmp);
    ar->best_swizzle = ar->nswizzles ? 0 : -1;
    if (!ar->nswizzles)
        snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                 "no swizzle applies (%u tried, %u not one-to-one or misaligned). ", tried, bad);
    return 0;
}

/* What to write for Hopper mode c: the tensor map's swizzle and box, and how the code indexes the
 * tile (the column form when a row is one span: the same placement as Swizzle<mode, 4 - log2 E,
 * 3> on element offsets, for a tile at the pattern's boundary). */
static void tma_code(const struct smem_advise_array *ar, struct smem_advise_candidate *c)
{
    struct smem_layout_hopper h;
    smem_layout_tma_fields(&c->layout, &h);
    const char *mode = smem_layout_tma_name(c->layout.tma);
    uint32_t rb = ar->row_elems * ar->elem_bytes;
    char idx[400] = "";
    unsigned es = 0;
    while ((1u << es) < ar->elem_bytes)
        es++;
    if (rb == h.span && es <= 4) {
        struct smem_layout eq = {SMEM_LAYOUT_SWIZZLE, ar->row_elems, ar->elem_bytes, 0,
                                 c->layout.tma, 4 - es, 3, 0, 0, 0};
        char col[200];
        if (smem_layout_col_expr(&eq, ar->rows, "r", "c", col, sizeof col))
            snprintf(idx, sizeof idx, "; read it as %.100s[r][%.150s] for %.100s[r][c]", ar->name,
                     col, ar->name);
    } else if (rb > h.span) {
        snprintf(idx, sizeof idx, "; %u boxes a row: column c is in box c / %u, %u bytes apart",
                 h.boxes, h.box_inner, (unsigned)(h.bytes / h.boxes));
    } else {
        snprintf(idx, sizeof idx, "; rows of %u bytes padded to %u", rb, h.span);
    }
    snprintf(c->code, sizeof c->code,
             "CU_TENSOR_MAP_SWIZZLE_%s, boxDim {%u, %u}, the tile %u-byte aligned%.400s", mode,
             h.box_inner, h.box_rows, h.align, idx);
    snprintf(c->formula, sizeof c->formula,
             "TMA %s swizzle: 16-byte chunk c of row r at c ^ ((address >> 7) & %u); CuTe "
             "Swizzle<%u,%u,%u> on byte offsets", mode, (1u << c->layout.tma) - 1, h.cute_b,
             h.cute_m, h.cute_s);
}

/* Hopper's modes: the array's recorded requests priced with the tile as a TMA copy would write it
 * under each mode (aligned to the pattern). */
static int search_tma(struct ctx *cx, struct smem_advise_array *ar, const struct stream *st0,
                      struct smem_error *err)
{
    struct smem_layout_space sp = array_space(cx, ar, st0);
    ar->tmas = calloc(3, sizeof *ar->tmas);
    if (!ar->tmas)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    struct smem_layout_iter it;
    struct smem_layout l;
    smem_layout_iter_init(&it, SMEM_LAYOUT_TMA);
    while (ar->ntmas < 3 && smem_layout_next(&sp, &it, &l)) {
        if (smem_layout_onto(&sp, &l) || smem_layout_aligned(&sp, &l))
            continue;
        struct smem_advise_candidate *c = &ar->tmas[ar->ntmas];
        c->layout = l;
        if (price(st0, &l, cx->banks, c))
            return smem_error_set(err, NULL, 0, 0, "out of memory");
        if (!c->valid) {
            cand_free(c);
            memset(c, 0, sizeof *c);
            continue;
        }
        struct smem_layout_hopper h;
        smem_layout_tma_fields(&l, &h);
        uint64_t now = (uint64_t)ar->rows * ar->row_elems * ar->elem_bytes;
        c->extra_bytes = h.bytes > now ? h.bytes - now : 0;
        tma_code(ar, c);
        ar->ntmas++;
    }
    qsort(ar->tmas, ar->ntmas, sizeof *ar->tmas, swz_cmp);
    ar->best_tma = ar->ntmas ? 0 : -1;
    return 0;
}

/* 1 when a wmma.load / wmma.store touches [base, base + extent): it reads its tile through one
 * pointer and a leading dimension, so no per-row swizzle can be written for it */
static int touched_by_wmma(const struct smem_kernel_report *k, uint32_t base, uint32_t extent)
{
    const struct smem_cta_program *p = k->program;
    if (!p)
        return 0;
    for (uint64_t i = 0; i < k->ntrace; i++) {
        const struct smem_access *a = &k->trace[i];
        if (a->site >= p->nsites || p->func->insns[p->sites[a->site].insn].op != PO_WMMA)
            continue;
        for (unsigned l = 0; l < SMEM_WARP; l++)
            if ((a->active >> l & 1) && a->addr[l] >= base && a->addr[l] - base < extent)
                return 1;
    }
    return 0;
}

static int advise_array(struct ctx *cx, const struct smem_cta_var *v, struct smem_advise_array *ar,
                        int *keep, struct smem_error *err)
{
    const struct smem_kernel_report *k = cx->k;
    const struct smem_advise_options *o = cx->o;
    *keep = 0;
    memset(ar, 0, sizeof *ar);
    ar->best_pad = ar->best_swizzle = ar->best_tma = -1;
    char func[128];
    smem_decl_source_name(v->name, ar->name, sizeof ar->name, func, sizeof func);
    snprintf(ar->ptx_name, sizeof ar->ptx_name, "%s", v->name);
    ar->dynamic = v->dynamic;
    ar->offset = v->offset;
    ar->size = v->dynamic ? k->dynamic_smem : v->size;
    ar->align = var_align(k, v->name);
    if (!ar->size)
        return 0;
    int asked = o->array && (!strcmp(o->array, ar->name) || !strcmp(o->array, ar->ptx_name));
    if (o->array && !asked)
        return 0;
    struct stream st0;
    if (stream_build(k, ar->offset, ar->size, cx->banks, NULL, NULL, &st0))
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    if (!st0.nu) {
        stream_free(&st0);
        if (asked) {
            *keep = 1;
            snprintf(ar->note, sizeof ar->note, "no request of the run touches it. ");
        }
        return 0;
    }
    cx->adv->nshared++;
    struct smem_layout id = {SMEM_LAYOUT_PAD, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    if (price(&st0, &id, cx->banks, &ar->before)) {
        stream_free(&st0);
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    if (ar->before.wavefronts <= ar->before.ideal && !asked) {
        cand_free(&ar->before);
        stream_free(&st0);
        return 0;
    }
    *keep = 1;
    describe(cx, ar, match_decl(cx, ar, func, &st0), &st0);
    ar->before.layout = (struct smem_layout){SMEM_LAYOUT_PAD, ar->row_elems, ar->elem_bytes, 0,
                                             0, 0, 0, 0, 0, 0};
    st0.src_pad = ar->pad_now; /* the recorded rows hold the constant's pad */
    int rc = 0;
    if (ar->row_elems && ar->rows) {
        rc = search_pads(cx, ar, &st0, err);
    } else {
        snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                 ar->row_elems ? "rows of %u elements do not tile the array: no padding tried. "
                               : "no row length (give --row ELEMS): no padding tried. ",
                 ar->row_elems);
    }
    if (!rc && ar->elem_bytes && ar->size / ar->elem_bytes >= 4) {
        if (touched_by_wmma(k, ar->offset, ar->size))
            snprintf(ar->note + strlen(ar->note), sizeof ar->note - strlen(ar->note),
                     "no swizzle: wmma reads and writes it through one pointer and a leading "
                     "dimension (pad the leading dimension instead: 16 bytes makes every 8-row "
                     "block of a wmma tile conflict-free, docs/bank-model.md). ");
        else
            rc = search_swizzles(cx, ar, &st0, err);
    }
    if (!rc && ar->row_elems && ar->rows && !ar->dynamic &&
        !touched_by_wmma(k, ar->offset, ar->size))
        rc = search_tma(cx, ar, &st0, err);
    stream_free(&st0);
    if (rc)
        return -1;
    const struct smem_advise_candidate *bp = ar->best_pad >= 0 ? &ar->pads[ar->best_pad] : NULL;
    const struct smem_advise_candidate *bs =
        ar->best_swizzle >= 0 ? &ar->swizzles[ar->best_swizzle] : NULL;
    uint64_t pw = bp ? bp->wavefronts : ar->before.wavefronts;
    uint64_t pe = bp ? bp->extra_bytes : 0;
    ar->best_is_swizzle = bs && (bs->wavefronts < pw || (bs->wavefronts == pw && pe > 0));
    return 0;
}

/* A template kernel's parameters take the values its demangled name shows ("k<32, float>"):
 * they are defined as constants and the kernel's declarations evaluated again. */
static void bind_template_args(const char *kname, struct smem_consts *consts,
                               struct smem_decl *decls, unsigned ndecls)
{
    struct smem_signature sig;
    smem_signature_parse(kname, strlen(kname), &sig);
    if (!consts || !sig.has_targs)
        return;
    char base[128]; /* the last name before '<': no namespace, no return type */
    snprintf(base, sizeof base, "%.*s", (int)sig.base.len, kname + sig.base.off);
    struct smem_span a[16];
    unsigned na = smem_signature_split(kname, sig.targs, a, 16);
    char args[16][96];
    na = na < 16 ? na : 16;
    for (unsigned j = 0; j < na; j++)
        snprintf(args[j], sizeof args[0], "%.*s", (int)a[j].len, kname + a[j].off);
    for (unsigned i = 0; i < ndecls; i++) {
        struct smem_decl *d = &decls[i];
        if (strcmp(d->func, base) || !d->tparams[0])
            continue;
        char names[256];
        snprintf(names, sizeof names, "%s", d->tparams);
        unsigned j;
        /* names may be empty (an unnamed parameter): split by hand to keep positions */
        char *nm = names;
        for (j = 0; nm && j < na; j++) {
            char *comma = strchr(nm, ',');
            if (comma)
                *comma = 0;
            if (*nm) {
                smem_consts_define(consts, nm, args[j]);
                if (!strcmp(d->type, nm) && smem_type_bytes(args[j]))
                    snprintf(d->type, sizeof d->type, "%.95s", args[j]); /* T = float */
            }
            nm = comma ? comma + 1 : NULL;
        }
        for (unsigned k = 0; k < d->ndims && k < SMEM_DECL_MAX_DIMS; k++) {
            int64_t v;
            if (d->dim[k] < 0 && d->dim_text[k][0] && !smem_const_eval(consts, d->dim_text[k], &v) &&
                v > 0)
                d->dim[k] = v;
        }
    }
}

/* Wavefronts beyond the ideal (0 where Nsight's count of partial-warp 16-byte loads is below it). */
static uint64_t excess(const struct smem_advise_candidate *t)
{
    return t->wavefronts > t->ideal ? t->wavefronts - t->ideal : 0;
}

static int arr_cmp(const void *x, const void *y)
{
    const struct smem_advise_array *a = x, *b = y;
    uint64_t ca = excess(&a->before), cb = excess(&b->before);
    if (ca != cb)
        return ca > cb ? -1 : 1;
    if (a->before.wavefronts != b->before.wavefronts)
        return a->before.wavefronts > b->before.wavefronts ? -1 : 1;
    return strcmp(a->name, b->name);
}

int smem_advise_kernel(const struct smem_analysis *an, const struct smem_kernel_report *k,
                       const struct smem_advise_options *o, struct smem_advice **out,
                       struct smem_error *err)
{
    *out = NULL;
    if (!k->program)
        return smem_error_set(err, NULL, 0, 0, "the analysis of %s kept no program", k->name);
    if (!k->trace && (k->ld.requests || k->st.requests || k->atom.requests))
        return smem_error_set(err, NULL, 0, 0, "the analysis of %s recorded no requests "
                              "(analyse with options.record = 1)", k->name);
    struct smem_advice *adv = calloc(1, sizeof *adv);
    if (!adv)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    snprintf(adv->kernel, sizeof adv->kernel, "%s", k->name);
    snprintf(adv->symbol, sizeof adv->symbol, "%s", k->symbol);
    snprintf(adv->source, sizeof adv->source, "%s", o->source ? o->source : an->source);
    memcpy(adv->block, k->block, sizeof adv->block);
    memcpy(adv->grid, k->grid, sizeof adv->grid);
    adv->complete = k->complete;
    adv->data_dependent = k->ld.unknown_requests + k->st.unknown_requests + k->atom.unknown_requests;
    snprintf(adv->incomplete_why, sizeof adv->incomplete_why, "%s", k->incomplete_why);
    if (k->program && k->program->func) { /* the first TMA load; did the run stop there? */
        const struct smem_ptx_func *f = k->program->func;
        for (uint32_t i = 0; i < f->ninsns && !adv->tma_line; i++)
            if (f->insns[i].op == PO_CP_BULK && f->insns[i].mode == MODE_BULK_TENSOR_G2S)
                adv->tma_line = f->insns[i].top_line ? f->insns[i].top_line : 1;
        adv->tma_stopped = adv->tma_line && !k->complete && strstr(k->incomplete_why, "tensor");
    }
    struct ctx cx;
    memset(&cx, 0, sizeof cx);
    cx.an = an;
    cx.k = k;
    cx.o = o;
    cx.adv = adv;
    cx.banks = &o->banks;
    struct smem_consts *consts = NULL;
    if (o->source) {
        cx.text = smem_read_file(o->source, &cx.len);
        if (cx.text) {
            const struct smem_analyze_options *ao = o->analyze;
            consts = smem_consts_scan(cx.text, cx.len, ao ? ao->compiler_args : NULL,
                                      ao ? ao->ncompiler_args : 0);
            cx.ndecls = smem_decl_scan(cx.text, cx.len, consts, &cx.decls);
            bind_template_args(k->name, consts, cx.decls, cx.ndecls);
            cx.consts = consts;
        }
    }
    const struct smem_cta_program *p = k->program;
    adv->arrays = calloc(p->nvars + 1, sizeof *adv->arrays);
    adv->alternatives = o->alternatives;
    int rc = 0;
    if (!adv->arrays) {
        rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    int found = !o->array;
    for (uint32_t i = 0; i < p->nvars; i++) {
        const struct smem_cta_var *v = &p->vars[i];
        /* extern arrays all alias the dynamic allocation: advise on the first */
        int alias = 0;
        for (uint32_t j = 0; j < i; j++)
            alias |= p->vars[j].dynamic && v->dynamic;
        if (alias)
            continue;
        int keep;
        struct smem_advise_array *ar = &adv->arrays[adv->narrays];
        if (advise_array(&cx, v, ar, &keep, err)) {
            rc = -1;
            goto done;
        }
        if (o->array) {
            char nm[128];
            smem_decl_source_name(v->name, nm, sizeof nm, NULL, 0);
            found |= !strcmp(o->array, nm) || !strcmp(o->array, v->name);
        }
        if (keep)
            adv->narrays++;
    }
    if (!found) {
        char list[400] = "";
        for (uint32_t i = 0; i < p->nvars; i++) {
            char nm[128];
            smem_decl_source_name(p->vars[i].name, nm, sizeof nm, NULL, 0);
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", nm);
        }
        rc = smem_error_set(err, NULL, 0, 0, "%s has no shared array named '%s' (arrays: %s)",
                            k->name, o->array, p->nvars ? list : "none");
        rc = -2;
        goto done;
    }
    qsort(adv->arrays, adv->narrays, sizeof *adv->arrays, arr_cmp);
done:
    free(cx.decls);
    smem_consts_free(consts);
    free(cx.text);
    if (rc) {
        smem_advice_free(adv);
        return rc;
    }
    *out = adv;
    return 0;
}

void smem_advice_free(struct smem_advice *a)
{
    if (!a)
        return;
    /* one slot past the kept arrays may hold a half-built one (a failed search) */
    for (uint32_t i = 0; a->arrays && i <= a->narrays; i++) {
        struct smem_advise_array *ar = &a->arrays[i];
        cand_free(&ar->before);
        for (uint32_t p = 0; ar->pads && p < ar->npads; p++)
            cand_free(&ar->pads[p]);
        free(ar->pads);
        for (uint32_t s = 0; ar->swizzles && s < ar->nswizzles; s++)
            cand_free(&ar->swizzles[s]);
        free(ar->swizzles);
        for (uint32_t s = 0; ar->tmas && s < ar->ntmas; s++)
            cand_free(&ar->tmas[s]);
        free(ar->tmas);
    }
    free(a->arrays);
    free(a);
}

int smem_advise_var_totals(const struct smem_kernel_report *k, const char *ptx_name,
                           const struct smem_banks *banks, struct smem_totals *t)
{
    memset(t, 0, sizeof *t);
    const struct smem_cta_var *v = k->program ? find_var(k->program, ptx_name) : NULL;
    if (!v)
        return -1;
    uint32_t extent = v->dynamic ? k->dynamic_smem : v->size;
    for (uint64_t i = 0; i < k->ntrace; i++) {
        const struct smem_access *a = &k->trace[i];
        if (a->unknown || !a->active)
            continue;
        int in = 0;
        for (unsigned l = 0; l < SMEM_WARP; l++)
            in |= (a->active >> l & 1) && a->addr[l] >= v->offset && a->addr[l] - v->offset < extent;
        if (!in)
            continue;
        struct smem_request r;
        to_request(a, &r);
        if (smem_request_check(banks, &r))
            continue;
        struct smem_cost c = smem_request_cost(banks, &r);
        t->requests++;
        t->wavefronts += c.wavefronts;
        t->ideal += c.ideal;
        if (c.max_ways > t->max_ways)
            t->max_ways = c.max_ways;
    }
    return 0;
}

char *smem_advice_patch(const struct smem_advice *a, const char *text, size_t len, size_t *outlen,
                        unsigned *npatched)
{
    const struct smem_decl **decls = calloc(a->narrays ? a->narrays : 1, sizeof *decls);
    unsigned *pads = calloc(a->narrays ? a->narrays : 1, sizeof *pads);
    unsigned n = 0;
    char *out = NULL;
    if (decls && pads) {
        for (uint32_t i = 0; i < a->narrays; i++) {
            const struct smem_advise_array *ar = &a->arrays[i];
            if (ar->patchable && ar->best_pad > 0) {
                decls[n] = &ar->decl;
                pads[n++] = (unsigned)ar->best_pad;
            }
        }
        out = smem_decl_patch(text, len, decls, pads, n, outlen);
    }
    if (npatched)
        *npatched = out ? n : 0;
    free(decls);
    free(pads);
    return out;
}
