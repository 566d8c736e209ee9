/* launch.c: one launch run by the emulator, every request priced by the bank model and attributed
 * to its source line, hazards collected; and the sums of several launches of one kernel. analyze
 * calls it once per kernel, `smemlab run` once per launch of the program. */
#include "smemlab/analysis/launch.h"

#include <assert.h>
#include <stdlib.h>

#include "smemlab/model/matrix.h"
#include <string.h>
#include <time.h>

/* The bank model's verdict on a request, remembered: loops make the same requests again and
 * again (the same lanes, addresses, width and kind), and the model is a pure function of them. */
#define COST_CACHE 8192u
struct cost_entry {
    struct smem_request r;
    struct smem_cost cost;
    int used, bad;        /* bad: smem_request_check refused it (not priced) */
};

/* the same for ldmatrix / stmatrix / cp.async requests (a GEMM's loop repeats them too) */
#define MATRIX_CACHE 256u
struct matrix_entry {
    uint8_t op, count, width, used;
    uint32_t active, partial;
    uint32_t addr[SMEM_WARP], src[SMEM_WARP];
    uint8_t src_size[SMEM_WARP];
    uint8_t estimate; /* a cp.async outside the rules' established class */
    struct smem_cost cost;
    struct smem_request r;
};

struct collector {
    struct cost_entry *cache; /* COST_CACHE entries, direct-mapped by a hash of the request */
    struct matrix_entry *mcache; /* MATRIX_CACHE entries, or NULL */
    const struct smem_cta_program *p;
    const struct smem_banks *banks;
    struct smem_kernel_report *k;
    uint32_t *site_map;       /* emulator site -> report site */
    struct smem_hazard_tracker *hz;
    /* loads [0] and stores [1] of the SASS's figure only and of the PTX's only (cta.h's
       `figure`): the kernel's PTX figure is its totals less the one plus the other */
    struct smem_totals sass_only[2], ptx_only[2];
    struct smem_totals *site_sass; /* per report site: its SASS-only requests' totals */
    int record;
    uint64_t cap_trace;
    int oom;
};

static void add_totals(struct smem_totals *t, const struct smem_cost *c, int unknown)
{
    t->requests++;
    if (unknown) {
        t->unknown_requests++;
        return;
    }
    t->wavefronts += c->wavefronts;
    t->pipe_delta += c->pipe_delta;
    t->ideal += c->ideal;
    if (c->max_ways > t->max_ways)
        t->max_ways = c->max_ways;
}

/* smem_request_check then smem_request_cost: an access of 4 bytes or less on 32 x 4-byte banks
 * in one pass over the lanes (smem_word_request_cost); another of 4 bytes or less priced afresh
 * (one pass of 32 lanes costs less than a miss in the 1.3 MB cache: sortingNetworks' bitonic
 * stages make more distinct conflicting requests than it holds); wider ones through the cache
 * when there is one. Measured: bench/programs/README.md ("The cost cache"). */
static void price(struct collector *c, const struct smem_request *r, struct smem_cost *cost)
{
    if (smem_word_request_cost(c->banks, r, cost))
        return;
    if (!c->cache || r->width <= 4) {
        if (!smem_request_check(c->banks, r))
            *cost = smem_request_cost(c->banks, r);
        return;
    }
    /* the active lanes' addresses, each times its own odd constant (no loop-carried chain: the
       compiler vectorises it); a hit compares them all */
    uint64_t h = (uint64_t)r->active * 0x9E3779B97F4A7C15ull ^ (uint64_t)r->width << 8 ^ r->op;
    uint64_t acc = 0;
    uint32_t diff = 0;
    for (unsigned l = 0; l < SMEM_WARP; l++)
        acc += (uint64_t)(r->addr[l] & (0u - (r->active >> l & 1u))) *
               (0x100000001B3ull + 2u * l * 0x9E3779B9u);
    h = (h ^ acc) * 0xff51afd7ed558ccdull;
    struct cost_entry *e = &c->cache[(h ^ h >> 29) & (COST_CACHE - 1)];
    int hit = e->used && e->r.active == r->active && e->r.width == r->width && e->r.op == r->op;
    for (unsigned l = 0; hit && l < SMEM_WARP; l++)
        diff |= (e->r.addr[l] ^ r->addr[l]) & (0u - (r->active >> l & 1u));
    hit = hit && !diff;
    if (!hit) {
        e->r = *r;
        e->used = 1;
        e->bad = smem_request_check(c->banks, r) != NULL;
        if (!e->bad)
            e->cost = smem_request_cost(c->banks, r);
    }
    if (!e->bad)
        *cost = e->cost;
}

/* ldmatrix / stmatrix / cp.async: model/matrix.c's rules (measured on the H100); r becomes the
 * request the pictures and advice use (its passes are the matrices, or the copy's stores) */
static int price_matrix_now(struct collector *c, const struct smem_access *a,
                            struct smem_request *r, struct smem_cost *cost);

/* returns 1 when the cost is an estimate (a cp.async outside the established class) */
static int price_matrix(struct collector *c, const struct smem_access *a, struct smem_request *r,
                        struct smem_cost *cost)
{
    uint32_t active = a->active & ~a->unknown;
    if (!c->mcache)
        return price_matrix_now(c, a, r, cost);
    int cp = a->op == SMEM_ACC_CP_ASYNC;
    uint64_t h = (uint64_t)active * 0x9E3779B97F4A7C15ull ^ (uint64_t)a->op << 8 ^ a->count;
    uint32_t partial = cp ? a->partial & active : 0;
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if (active >> l & 1u)
            h = (h ^ a->addr[l] ^ (cp ? (uint64_t)a->src[l] << 32 : 0) ^
                 ((partial >> l & 1u) ? (uint64_t)(a->src_size[l] + 1u) << 20 : 0)) *
                0x100000001B3ull;
    struct matrix_entry *e = &c->mcache[(h ^ h >> 29) & (MATRIX_CACHE - 1)];
    int hit = e->used && e->active == active && e->op == a->op && e->count == a->count &&
              e->width == a->width && e->partial == partial;
    for (unsigned l = 0; hit && l < SMEM_WARP; l++)
        if ((active >> l & 1u) &&
            (e->addr[l] != a->addr[l] || (cp && e->src[l] != a->src[l]) ||
             ((partial >> l & 1u) && e->src_size[l] != a->src_size[l])))
            hit = 0;
    if (!hit) {
        e->used = 1;
        e->op = a->op;
        e->count = a->count;
        e->width = a->width;
        e->active = active;
        e->partial = partial;
        memcpy(e->addr, a->addr, sizeof e->addr);
        memcpy(e->src, a->src, sizeof e->src);
        memcpy(e->src_size, a->src_size, sizeof e->src_size);
        e->cost = (struct smem_cost){0, 0, 0, 0, 0};
        e->estimate = (uint8_t)price_matrix_now(c, a, &e->r, &e->cost);
    }
    *r = e->r;
    *cost = e->cost;
    return e->estimate;
}

static int price_matrix_now(struct collector *c, const struct smem_access *a,
                            struct smem_request *r, struct smem_cost *cost)
{
    if (a->op == SMEM_ACC_CP_ASYNC) {
        struct smem_cp_async_request q;
        q.active = a->active & ~a->unknown;
        q.size = a->width;
        q.bypass = a->count == 1;
        memcpy(q.dst, a->addr, sizeof q.dst);
        uint8_t sz[SMEM_WARP];
        for (unsigned l = 0; l < SMEM_WARP; l++) {
            q.src[l] = a->src[l];
            sz[l] = (a->partial >> l & 1u) ? a->src_size[l] : a->width; /* zero-fill: 0 */
        }
        int est = 0;
        if (!smem_cp_async_check(&q)) {
            int part = (a->partial & q.active) != 0;
            *cost = part ? smem_cp_async_cost_src(c->banks, &q, sz)
                         : smem_cp_async_cost(c->banks, &q);
            est = part ? !smem_cp_async_established_src(&q, sz) : !smem_cp_async_established(&q);
        }
        smem_cp_async_as_request(&q, r);
        return est;
    }
    struct smem_matrix_request q;
    q.count = a->count ? a->count : 4;
    q.trans = 0; /* the cost does not depend on it (measured) */
    q.op = a->op == SMEM_ACC_STSM ? SMEM_ST : SMEM_LD;
    memcpy(q.row, a->addr, sizeof q.row);
    if (!smem_matrix_check(&q))
        *cost = smem_matrix_cost(c->banks, &q);
    smem_matrix_as_request(&q, r);
    return 0;
}

static struct smem_totals *totals_of(struct smem_kernel_report *k, unsigned op)
{
    switch (op) {
    case SMEM_ACC_LD: return &k->ld;
    case SMEM_ACC_ST: return &k->st;
    case SMEM_ACC_LDSM: return &k->ldsm;
    case SMEM_ACC_STSM: return &k->stsm;
    case SMEM_ACC_CP_ASYNC: return &k->ldgsts;
    case SMEM_ACC_GMMA: return &k->gmma;
    default: return &k->atom;
    }
}

/* A shared atomic that ptxas makes a loop on sm_90 (f32 / f64 / f16x2 / bf16x2 / 64-bit integer
 * add, 64-bit and / or / xor: tests/run/fatomic.cu, atomic64.cu, tests/run/h100-fatomic.csv,
 * h100-atomic64.csv): LDS then ATOMS.CAST.SPIN, until every lane's swap succeeded. A round
 * retires, in each bank, the lowest lane still waiting there (the rest find the word changed);
 * 8-byte words go in two passes of 16 lanes, each with its own banks (lanes l and l + 16 on
 * distinct words in one bank both succeed), so rounds = the most lanes in one bank of a pass.
 * Each round's LDS is a load of the lanes still waiting (priced as one), its ATOMS 2 wavefronts a
 * pass with a lane waiting (a 4-byte word: one pass). A 64-bit integer add at a fixed address
 * (cas 2) is summed over the warp first: one lane's loop, one round. */
static void cas_rounds(struct collector *c, const struct smem_access *a, const struct smem_request *r,
                       struct smem_site_report *s)
{
    struct smem_kernel_report *k = c->k;
    uint32_t rem = r->active, words = r->width > 4 ? r->width / 4 : 1;
    if (c->p->sites[a->site].cas == 3) { /* 64-bit min / max: the rounds the emulator worked out */
        unsigned rounds = 0;
        for (uint32_t l = 0; l < SMEM_WARP; l++)
            if ((rem >> l & 1u) && a->src_size[l] > rounds)
                rounds = a->src_size[l];
        for (unsigned i = 0; i < rounds; i++) {
            struct smem_request q = *r;
            q.active = 0;
            uint32_t swaps = 0;
            for (uint32_t l = 0; l < SMEM_WARP; l++)
                if (rem >> l & 1u) {
                    q.active |= (uint32_t)(a->src_size[l] > i) << l;
                    swaps |= (uint32_t)(a->src[l] > i) << l;
                }
            q.op = SMEM_LD;
            struct smem_cost ld = {0, 0, 0, 0, 0};
            price(c, &q, &ld);
            add_totals(&k->ld, &ld, 0);
            if (swaps) {
                unsigned passes = ((swaps & 0xffffu) != 0) + ((swaps >> 16) != 0);
                struct smem_cost at = {2 * passes, 2 * passes, 1, 1, 0};
                add_totals(&s->t, &at, 0);
                add_totals(&k->atom, &at, 0);
            }
        }
        return;
    }
    if (c->p->sites[a->site].cas == 2 && rem)
        rem &= 0u - rem; /* the warp's sum, added by its lowest lane */
    while (rem) {
        struct smem_request q = *r;
        q.active = rem;
        q.op = SMEM_LD;
        struct smem_cost ld = {0, 0, 0, 0, 0};
        price(c, &q, &ld);
        add_totals(&k->ld, &ld, 0);
        unsigned passes = words > 1 ? ((rem & 0xffffu) != 0) + ((rem >> 16) != 0) : 1;
        struct smem_cost at = {2 * passes, 2 * passes, 1, 1, 0};
        add_totals(&s->t, &at, 0);
        add_totals(&k->atom, &at, 0);
        uint32_t taken = 0, done = 0;
        for (uint32_t l = 0; l < SMEM_WARP; l++) {
            if (!(rem >> l & 1u))
                continue;
            if (words > 1 && l == 16)
                taken = 0; /* the second pass of an 8-byte request */
            uint32_t b0 = a->addr[l] / 4 % 32, banks = 0;
            for (uint32_t w = 0; w < words; w++)
                banks |= 1u << ((b0 + w) % 32);
            if (!(banks & taken))
                done |= 1u << l;
            taken |= banks;
        }
        rem &= ~done;
    }
}

static void on_access(void *ctx, const struct smem_access *a)
{
    struct collector *c = ctx;
    if (a->landed) { /* a cp.async's copy lands (its wait): for the hazards only */
        if (c->hz)
            smem_hazards_access(c->hz, a);
        return;
    }
    struct smem_request r;
    struct smem_cost cost = {0, 0, 0, 0, 0};
    int unknown = a->unknown != 0;
    r.active = a->active & ~a->unknown;
    r.width = a->width;
    r.op = a->op == SMEM_ACC_ST ? SMEM_ST : a->op == SMEM_ACC_LD ? SMEM_LD : SMEM_ATOM;
    memcpy(r.addr, a->addr, sizeof r.addr);
    int estimate = 0;
    if (unknown)
        ;
    else if (a->op == SMEM_ACC_GMMA) /* wavefronts as the emulator found them (cta_wgmma.c) */
        cost = (struct smem_cost){a->count, a->count, 1, 1, 0};
    else if (a->op >= SMEM_ACC_CP_ASYNC)
        estimate = price_matrix(c, a, &r, &cost);
    else
        price(c, &r, &cost);
    struct smem_kernel_report *k = c->k;
    /* every access names a site of the program, and every site has its report (build_sites) */
    assert(a->site < c->p->nsites && c->site_map[a->site] < k->nsites);
    struct smem_site_report *s = &k->sites[c->site_map[a->site]];
    unsigned figure = c->p->sites[a->site].figure, st = a->op == SMEM_ACC_ST;
    if (figure == 2) { /* the PTX's access, which the SASS counts elsewhere or not at all */
        add_totals(&s->ptx, &cost, unknown);
        add_totals(&c->ptx_only[st], &cost, unknown);
        if (c->hz)
            smem_hazards_access(c->hz, a);
        return;
    }
    if (figure == 1) { /* the site's PTX figure is made after the run (smem_launch_analyze) */
        add_totals(&c->sass_only[st], &cost, unknown);
        add_totals(&c->site_sass[c->site_map[a->site]], &cost, unknown);
    }
    if (estimate)
        s->estimate = 1;
    int cas = c->p->sites[a->site].cas && a->op == SMEM_ACC_ATOM && !unknown;
    if (cas)
        cas_rounds(c, a, &r, s);
    else
        add_totals(&s->t, &cost, unknown);
    if (!unknown && a->op != SMEM_ACC_GMMA && cost.wavefronts > s->worst_wf) {
        s->worst = r;
        s->worst_wf = cost.wavefronts;
    }
    if (!cas)
        add_totals(totals_of(k, a->op), &cost, unknown);
    if (c->hz && figure != 1) /* a SASS-merged access: the hazards see its members' */
        smem_hazards_access(c->hz, a);
    if (c->record && !c->oom && a->op != SMEM_ACC_GMMA) { /* wgmma's: no addresses to advise on */
        if (k->ntrace == c->cap_trace) {
            uint64_t nc = c->cap_trace ? c->cap_trace * 2 : 1024;
            struct smem_access *nt = realloc(k->trace, nc * sizeof *nt);
            if (!nt) {
                c->oom = 1;
                return;
            }
            k->trace = nt;
            c->cap_trace = nc;
        }
        k->trace[k->ntrace++] = *a;
    }
}

static void on_barrier(void *ctx, const struct smem_cta_barrier *b)
{
    struct collector *c = ctx;
    if (c->hz)
        smem_hazards_barrier(c->hz, b);
}

static void on_layout(void *ctx, const struct smem_cta_layout *e)
{
    struct collector *c = ctx;
    if (c->hz)
        smem_hazards_layout(c->hz, e);
}

static void on_proxy_fence(void *ctx, const struct smem_cta_proxy_fence *e)
{
    struct collector *c = ctx;
    if (c->hz)
        smem_hazards_proxy_fence(c->hz, e);
}

static void on_cluster_race(void *ctx, const struct smem_cta_cluster_race *e)
{
    struct collector *c = ctx;
    if (c->hz)
        smem_hazards_cluster_race(c->hz, e);
}

static void on_global_race(void *ctx, const struct smem_cta_global_race *e)
{
    struct collector *c = ctx;
    if (c->hz)
        smem_hazards_global_race(c->hz, e);
}

/* a warp's access to another CTA's shared memory: its op's totals and its line's */
static void on_dshared(void *ctx, const struct smem_dshared *e)
{
    struct collector *c = ctx;
    struct smem_kernel_report *k = c->k;
    if (e->op >= SMEM_DSH_NOPS)
        return;
    k->dshared.requests[e->op]++;
    k->dshared.bytes[e->op] += e->bytes;
    struct smem_dshared_line *d = NULL;
    for (uint32_t i = 0; i < k->ndshared_lines && !d; i++)
        if (k->dshared_lines[i].insn == e->insn && k->dshared_lines[i].op == e->op)
            d = &k->dshared_lines[i];
    if (!d) {
        struct smem_dshared_line *n = realloc(k->dshared_lines,
                                              (k->ndshared_lines + 1) * sizeof *n);
        if (!n) {
            c->oom = 1;
            return;
        }
        k->dshared_lines = n;
        d = &n[k->ndshared_lines++];
        memset(d, 0, sizeof *d);
        const struct smem_ptx_module *m = c->p->module;
        const struct smem_ptx_insn *in = &c->p->func->insns[e->insn];
        d->file = in->top_file < m->nfiles ? m->files[in->top_file] : NULL;
        d->line = in->top_line;
        d->insn = e->insn;
        d->op = e->op;
    }
    d->requests++;
    d->bytes += e->bytes;
}

static int same_file(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* How the kernel's SASS placed a fixed-place load (sass/sass_fixed.c), in a few words. */
static void placed_why(const struct smem_cta_program *p, const struct smem_cta_site *s, char *buf,
                       size_t size)
{
    const struct smem_ptx_func *f = p->func;
    uint32_t me = s->src_insn, own = f->insns[me].top_line;
    if (s->sass_placed == 3) { /* smem_sass_rereads: the later loads, on their lines */
        unsigned again = 0, first = 0, other = 0;
        for (uint32_t k = 0; p->merged_into && k < f->ninsns; k++) {
            if (k == me || p->merged_into[k] != (int32_t)me)
                continue;
            if (!again++)
                first = f->insns[k].top_line;
            else
                other |= f->insns[k].top_line != first;
        }
        snprintf(buf, size, "read again by %u load%s at line %u%s that ptxas serves from this "
                 "one's registers (its SASS reads them once): no request there", again,
                 again == 1 ? "" : "s", first, other ? " and others" : "");
        return;
    }
    char lines[80] = "";
    unsigned nl = 0;
    for (uint32_t k = 0; p->merged_into && k < f->ninsns; k++) {
        uint32_t ln = f->insns[k].top_line;
        if (k == me || p->merged_into[k] != (int32_t)me || ln == own)
            continue;
        int dup = 0;
        for (uint32_t q = 0; q < k && !dup; q++)
            dup = q != me && p->merged_into[q] == (int32_t)me && f->insns[q].top_line == ln;
        if (dup)
            continue;
        size_t l = strlen(lines);
        if (nl < 4)
            snprintf(lines + l, sizeof lines - l, "%s%u", nl ? ", " : "", ln);
        nl++;
    }
    char w[16] = "";
    if (s->width > 4)
        snprintf(w, sizeof w, ".%u", s->width * 8u);
    snprintf(buf, size, "one LDS%s at a fixed place%s%s%s%s", w, nl ? " with line" : "",
             nl > 1 ? "s " : nl ? " " : "", lines, nl ? "'s loads" : "");
    if (s->sass_placed == 2) {
        size_t l = strlen(buf);
        snprintf(buf + l, size - l, ", run before the branch over it, in every warp reaching it");
    }
}

/* How the line's SASS changed site i (sass/sass_lines.c), in a few words. */
static void lines_why(const struct smem_cta_program *p, uint32_t i, char *buf, size_t size)
{
    const struct smem_cta_site *s = &p->sites[i];
    const struct smem_ptx_func *f = p->func;
    uint32_t me = s->src_insn;
    int32_t lead = p->merged_into ? p->merged_into[me] : -1;
    const char *name = s->op == SMEM_ACC_ST ? "STS" : "LDS";
    const char *what = s->op == SMEM_ACC_ST ? "store" : "load";
    if (s->once || (s->figure == 2 && lead < 0 && p->site_of_insn[me] + 1 < p->nsites &&
                    p->sites[p->site_of_insn[me] + 1].insn == me &&
                    p->sites[p->site_of_insn[me] + 1].once)) {
        snprintf(buf, size, "ptxas runs this %u-byte load before its loop (the loop writes no "
                 "shared memory, its address does not change): counted once each time a warp "
                 "enters the loop", s->width);
        return;
    }
    if (lead < 0) { /* removed: the earlier access that stands for it */
        if (s->op == SMEM_ACC_ST)
            snprintf(buf, size, "ptxas keeps one STS for this %u-byte store and an earlier one to "
                     "the same address (the later value selected into it): no request here",
                     s->width);
        else
            snprintf(buf, size, "ptxas serves this %u-byte load from an earlier load's registers "
                     "(its SASS has no %s for it): no request here", s->width, name);
        return;
    }
    unsigned n = 0, w = 0;
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t k = 0; k < f->ninsns; k++)
        if (p->merged_into[k] == lead) {
            n++;
            uint32_t ln = f->insns[k].top_line;
            lo = ln < lo ? ln : lo;
            hi = ln > hi ? ln : hi;
        }
    for (uint32_t q = p->site_of_insn[lead]; q < p->nsites && p->sites[q].insn == (uint32_t)lead; q++)
        if (p->sites[q].figure == 1)
            w = p->sites[q].width;
    char lines[40];
    if (lo == hi)
        snprintf(lines, sizeof lines, "line %u", lo);
    else
        snprintf(lines, sizeof lines, "lines %u-%u", lo, hi);
    snprintf(buf, size, "ptxas made one %s.%u of %u %u-byte %ss (%s): counted so", name, w * 8, n,
             w / (n ? n : 1), what, lines);
}

/* Report sites: the emulator's sites merged by (file, line, op, width). */
static int build_sites(struct collector *c)
{
    const struct smem_cta_program *p = c->p;
    struct smem_kernel_report *k = c->k;
    c->site_map = malloc((p->nsites ? p->nsites : 1) * sizeof *c->site_map);
    c->site_sass = calloc(p->nsites ? p->nsites : 1, sizeof *c->site_sass);
    k->sites = calloc(p->nsites ? p->nsites : 1, sizeof *k->sites);
    if (!c->site_map || !c->site_sass || !k->sites)
        return -1;
    const struct smem_ptx_module *m = p->module;
    /* the PTX-only sites (cta.h's `figure` 2) after the others: each joins a report site of its
       line and kind, of any width, where there is one */
    for (uint32_t step = 0; step < 2 * p->nsites; step++) {
        uint32_t i = step % p->nsites;
        const struct smem_cta_site *s = &p->sites[i];
        if ((s->figure == 2) != (step >= p->nsites))
            continue;
        /* reported at the kernel's own line; code inlined there keeps its chain apart */
        const struct smem_ptx_insn *in = &p->func->insns[s->src_insn];
        const char *file = in->top_file < m->nfiles ? m->files[in->top_file] : NULL;
        uint32_t line = in->top_line, chain = in->chain;
        uint32_t j;
        for (j = 0; j < k->nsites; j++) {
            const struct smem_site_report *r = &k->sites[j];
            if (r->line == line && r->chain == chain && r->op == s->op &&
                (r->bytes == s->width || s->figure == 2) && same_file(r->file, file))
                break;
        }
        if (j == k->nsites) {
            struct smem_site_report *r = &k->sites[k->nsites++];
            r->file = file;
            r->line = line;
            r->chain = chain;
            r->col = in->top_col;
            r->op = s->op;
            r->bytes = s->width;
            r->first_site = i;
        }
        if (in->in_recursion)
            k->sites[j].in_recursion = 1;
        if (s->cas)
            k->sites[j].cas_loop = 1;
        if (s->sass_placed && !k->sites[j].sass_placed[0])
            placed_why(p, s, k->sites[j].sass_placed, sizeof k->sites[j].sass_placed);
        if (s->figure) {
            k->sites[j].ptx_differs = 1;
            if (!k->sites[j].sass_placed[0])
                lines_why(p, i, k->sites[j].sass_placed, sizeof k->sites[j].sass_placed);
        }
        c->site_map[i] = j;
    }
    return 0;
}

static int cmp_site(const void *x, const void *y)
{
    const struct smem_site_report *a = x, *b = y;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    if (a->chain != b->chain)
        return a->chain < b->chain ? -1 : 1;
    if (a->op != b->op)
        return a->op < b->op ? -1 : 1;
    return a->bytes < b->bytes ? -1 : a->bytes > b->bytes;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void smem_kernel_report_clear(struct smem_kernel_report *k)
{
    free(k->dshared_lines);
    k->dshared_lines = NULL;
    k->ndshared_lines = 0;
    free(k->sites);
    free(k->hazards);
    free(k->trace);
    k->sites = NULL;
    k->nsites = 0;
    k->hazards = NULL;
    k->nhazards = 0;
    k->trace = NULL;
    k->ntrace = 0;
}

int smem_launch_analyze(const struct smem_cta_program *p, const struct smem_launch *l,
                        const struct smem_launch_options *o, struct smem_kernel_report *k,
                        struct smem_cta_result *res, struct smem_error *err)
{
    struct collector c;
    memset(&c, 0, sizeof c);
    c.p = p;
    c.banks = &o->banks;
    c.k = k;
    c.record = o->record;
    if (o->price && build_sites(&c)) {
        free(c.site_map);
        free(c.site_sass);
        smem_kernel_report_clear(k);
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    if (o->price && o->hazards) {
        c.hz = smem_hazards_new(p, l);
        if (c.hz && o->unwritten && smem_hazards_track_unwritten(c.hz, l)) {
            smem_hazards_free(c.hz);
            free(c.site_map);
            free(c.site_sass);
            smem_kernel_report_clear(k);
            return smem_error_set(err, NULL, 0, 0, "out of memory");
        }
    }
    if (o->price) {
        c.cache = calloc(COST_CACHE, sizeof *c.cache); /* NULL: every request priced afresh */
        c.mcache = calloc(MATRIX_CACHE, sizeof *c.mcache);
    }
    struct smem_cta_hooks hooks = {&c, on_access, on_barrier, on_layout, on_dshared, on_cluster_race,
                                   on_proxy_fence, on_global_race};
    double t0 = now_s();
    int rc = smem_cta_run(p, l, o->price ? &hooks : NULL, res, err);
    k->seconds = now_s() - t0;
    free(c.cache);
    free(c.mcache);
    if (rc) {
        free(c.site_map);
        free(c.site_sass);
        smem_hazards_free(c.hz);
        return -1;
    }
    /* a changed site's PTX figure: its counts less its SASS-only requests, plus the PTX-only ones
       (in ptx so far) */
    for (uint32_t j = 0; o->price && j < k->nsites; j++) {
        struct smem_site_report *r = &k->sites[j];
        const struct smem_totals *x = &c.site_sass[j];
        if (!r->ptx_differs)
            continue;
        r->ptx.requests += r->t.requests - x->requests;
        r->ptx.wavefronts += r->t.wavefronts - x->wavefronts;
        r->ptx.ideal += r->t.ideal - x->ideal;
        r->ptx.pipe_delta += r->t.pipe_delta - x->pipe_delta;
        r->ptx.unknown_requests += r->t.unknown_requests - x->unknown_requests;
    }
    free(c.site_sass);
    k->ptx_ld = k->ld;
    k->ptx_st = k->st;
    for (int st = 0; st < 2; st++) {
        struct smem_totals *t = st ? &k->ptx_st : &k->ptx_ld;
        t->requests += c.ptx_only[st].requests - c.sass_only[st].requests;
        t->wavefronts += c.ptx_only[st].wavefronts - c.sass_only[st].wavefronts;
        t->ideal += c.ptx_only[st].ideal - c.sass_only[st].ideal;
        t->pipe_delta += c.ptx_only[st].pipe_delta - c.sass_only[st].pipe_delta;
        t->unknown_requests += c.ptx_only[st].unknown_requests - c.sass_only[st].unknown_requests;
        if (c.ptx_only[st].max_ways > t->max_ways)
            t->max_ways = c.ptx_only[st].max_ways;
    }
    k->complete = res->complete;
    k->blocks_run = res->blocks_run;
    k->blocks_total = res->blocks_total;
    k->steps = res->steps;
    if (c.hz) {
        unsigned nh = smem_hazards_count(c.hz);
        k->hazards = calloc(nh ? nh : 1, sizeof *k->hazards);
        for (unsigned i = 0; k->hazards && i < nh; i++)
            k->hazards[k->nhazards++] = *smem_hazards_get(c.hz, i);
        smem_hazards_free(c.hz);
    }
    free(c.site_map);
    if (c.oom)
        return smem_error_set(err, NULL, 0, 0, "out of memory recording the access trace");
    /* drop sites that never ran, order by line */
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->nsites; i++)
        if (k->sites[i].t.requests || k->sites[i].ptx.requests)
            k->sites[n++] = k->sites[i];
    k->nsites = n;
    if (k->sites)
        qsort(k->sites, k->nsites, sizeof *k->sites, cmp_site);
    return 0;
}

/* ---- sums over launches ------------------------------------------------------------------- */

static void sum_totals(struct smem_totals *s, const struct smem_totals *t)
{
    s->requests += t->requests;
    s->wavefronts += t->wavefronts;
    s->pipe_delta += t->pipe_delta;
    s->ideal += t->ideal;
    s->unknown_requests += t->unknown_requests;
    if (t->max_ways > s->max_ways)
        s->max_ways = t->max_ways;
}

int smem_kernel_report_add(struct smem_kernel_report *sum, const struct smem_kernel_report *one)
{
    sum_totals(&sum->ld, &one->ld);
    sum_totals(&sum->st, &one->st);
    sum_totals(&sum->atom, &one->atom);
    sum_totals(&sum->ldsm, &one->ldsm);
    sum_totals(&sum->stsm, &one->stsm);
    sum_totals(&sum->ldgsts, &one->ldgsts);
    sum_totals(&sum->gmma, &one->gmma);
    for (int o = 0; o < SMEM_DSH_NOPS; o++) {
        sum->dshared.requests[o] += one->dshared.requests[o];
        sum->dshared.bytes[o] += one->dshared.bytes[o];
    }
    for (uint32_t i = 0; i < one->ndshared_lines; i++) {
        const struct smem_dshared_line *d = &one->dshared_lines[i];
        uint32_t j = 0;
        while (j < sum->ndshared_lines &&
               (sum->dshared_lines[j].insn != d->insn || sum->dshared_lines[j].op != d->op))
            j++;
        if (j == sum->ndshared_lines) {
            struct smem_dshared_line *n = realloc(sum->dshared_lines, (j + 1) * sizeof *n);
            if (!n)
                return -1;
            sum->dshared_lines = n;
            n[j] = *d;
            n[j].requests = n[j].bytes = 0;
            sum->ndshared_lines++;
        }
        sum->dshared_lines[j].requests += d->requests;
        sum->dshared_lines[j].bytes += d->bytes;
    }
    sum_totals(&sum->ptx_ld, &one->ptx_ld);
    sum_totals(&sum->ptx_st, &one->ptx_st);
    sum->blocks_run += one->blocks_run;
    sum->blocks_total += one->blocks_total;
    sum->steps += one->steps;
    if (!sum->sass_not_checked[0] && !sum->sass_notes[0]) { /* the census: one per kernel */
        memcpy(sum->sass_not_checked, one->sass_not_checked, sizeof sum->sass_not_checked);
        memcpy(sum->sass_notes, one->sass_notes, sizeof sum->sass_notes);
    }
    sum->seconds += one->seconds;
    if (one->nsites) {
        struct smem_site_report *ns = realloc(sum->sites, (sum->nsites + one->nsites) * sizeof *ns);
        if (!ns)
            return -1;
        sum->sites = ns;
        uint32_t before = sum->nsites;
        for (uint32_t i = 0; i < one->nsites; i++) {
            const struct smem_site_report *r = &one->sites[i];
            uint32_t j;
            for (j = 0; j < before; j++) {
                struct smem_site_report *s = &sum->sites[j];
                if (s->line == r->line && s->chain == r->chain && s->op == r->op &&
                    s->bytes == r->bytes && same_file(s->file, r->file))
                    break;
            }
            if (j == before) {
                sum->sites[sum->nsites++] = *r;
                continue;
            }
            struct smem_site_report *s = &sum->sites[j];
            if (!s->ptxas_differs[0])
                memcpy(s->ptxas_differs, r->ptxas_differs, sizeof s->ptxas_differs);
            if (!s->sass_placed[0])
                memcpy(s->sass_placed, r->sass_placed, sizeof s->sass_placed);
            sum_totals(&s->t, &r->t);
            sum_totals(&s->ptx, &r->ptx);
            s->ptx_differs |= r->ptx_differs;
            s->in_recursion |= r->in_recursion;
            s->cas_loop |= r->cas_loop;
            s->estimate |= r->estimate;
            if (r->worst_wf > s->worst_wf) {
                s->worst = r->worst;
                s->worst_wf = r->worst_wf;
            }
        }
        if (sum->nsites != before)
            qsort(sum->sites, sum->nsites, sizeof *sum->sites, cmp_site);
    }
    for (uint32_t i = 0; i < one->nhazards; i++) {
        const struct smem_hazard *h = &one->hazards[i];
        uint32_t j;
        for (j = 0; j < sum->nhazards; j++) {
            const struct smem_hazard *s = &sum->hazards[j];
            if (s->kind == h->kind && s->site[0] == h->site[0] && s->site[1] == h->site[1] &&
                !strcmp(s->detail, h->detail))
                break;
        }
        if (j < sum->nhazards) {
            sum->hazards[j].count += h->count;
            continue;
        }
        struct smem_hazard *nh = realloc(sum->hazards, (sum->nhazards + 1) * sizeof *nh);
        if (!nh)
            return -1;
        sum->hazards = nh;
        sum->hazards[sum->nhazards++] = *h;
    }
    return 0;
}

const struct smem_kernel_report *smem_run_kernel(const struct smem_run_report *r, uint32_t i)
{
    if (i >= r->nkernels)
        return NULL;
    const struct smem_run_kernel *k = &r->kernels[i];
    return &r->modules[k->module].analysis.kernels[k->kernel];
}
