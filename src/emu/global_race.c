/* global_race.c: races on global memory between the threads of one launch, which
 * compute-sanitizer's racecheck does not look for (it checks shared memory only): two accesses of
 * one byte by different threads, at least one writing, not both atomic nor both strong (volatile,
 * .relaxed, .acquire, .release, atomics: what a flag is made of), that nothing orders:
 *
 * - a barrier of the block between them (bar.sync: the block's interval), or barrier.cluster
 *   between two CTAs of a cluster (its phase);
 * - release / acquire: a release (st.release, atom.release / .acq_rel, or a strong store or atomic
 *   after a fence of the GPU's or the system's scope by its thread: __threadfence then a volatile
 *   flag) of a word, whose clock a strong load or an atomic of another block then acquires: what
 *   its block did before the release is ordered before what the acquiring block does after. The
 *   clock is per block (the blocks that released into the word, each with the launch's release
 *   count then), joined along the chain (an atomic reads the clock its predecessors left);
 * - the kernel's boundaries (a record per launch).
 *
 * It leans towards no false alarm where the PTX memory model is finer: a block is one party (a
 * thread's release covers what its whole block did before it, an acquire what its whole block does
 * after), a strong load acquires at once (the fence a reader puts after it is not waited for), the
 * accesses of one warp are not paired (warp-synchronous code), and each word keeps its last write
 * and its last read only (an earlier reader than the last is not checked again): races it cannot
 * see are missed, none is invented. Shadow: 48 bytes per 4-byte word a launch touches, in pages made
 * as they are touched. */
#include "global_race.h"

#include <stdlib.h>
#include <string.h>

#define PAGE_WORDS 1024u

enum { GR_ATOMIC = 1, GR_STRONG = 2 };

struct gr_acc {
    uint32_t block;    /* linear block index + 1 (0: none) */
    uint32_t pc;       /* the instruction */
    uint32_t interval; /* the block's barrier interval then */
    uint32_t phase;    /* the cluster barrier's phase then */
    uint32_t stamp;    /* the launch's releases before it */
    uint16_t thread;
    uint8_t mask;      /* the word's bytes it accessed */
    uint8_t flags;     /* GR_ATOMIC, GR_STRONG */
};

struct gr_cell {
    struct gr_acc w, r; /* the last write, the last read */
};

struct gr_page {
    uint64_t key; /* word index / PAGE_WORDS + 1 (0: an empty slot) */
    struct gr_cell *cells;
};

/* per block, the latest release of it acquired: sorted by block */
struct gr_clock {
    uint32_t n, cap;
    uint32_t *blk, *stamp;
};

struct gr_flag {
    uint64_t key; /* word index + 1 */
    struct gr_clock c;
};

struct emu_grace {
    struct gr_page *pages;
    size_t npages, cap;
    struct gr_flag *flags;
    size_t nflags, capflags;
    uint32_t stamp;
};

struct gr_block {
    struct gr_clock acq;
    uint8_t *fenced; /* per thread: it ran a fence of the GPU's or the system's scope */
    uint32_t nthreads;
};

struct emu_grace *emu_grace_new(void)
{
    return calloc(1, sizeof(struct emu_grace));
}

static void clock_free(struct gr_clock *c)
{
    free(c->blk);
    free(c->stamp);
    memset(c, 0, sizeof *c);
}

void emu_grace_free(struct emu_grace *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->cap; i++)
        free(g->pages[i].cells);
    for (size_t i = 0; i < g->capflags; i++)
        clock_free(&g->flags[i].c);
    free(g->pages);
    free(g->flags);
    free(g);
}

void emu_grace_block_reset(struct block *b)
{
    if (!b->gr)
        return;
    if (!b->grb && !(b->grb = calloc(1, sizeof *b->grb)))
        return;
    struct gr_block *k = b->grb;
    k->acq.n = 0;
    if (k->nthreads != b->nthreads) {
        free(k->fenced);
        k->fenced = calloc(b->nthreads ? b->nthreads : 1, 1);
        k->nthreads = k->fenced ? b->nthreads : 0;
    } else if (k->fenced) {
        memset(k->fenced, 0, k->nthreads);
    }
}

void emu_grace_block_free(struct block *b)
{
    if (!b->grb)
        return;
    clock_free(&b->grb->acq);
    free(b->grb->fenced);
    free(b->grb);
    b->grb = NULL;
}

void emu_grace_fence(struct block *b, uint32_t tid)
{
    if (b->grb && tid < b->grb->nthreads)
        b->grb->fenced[tid] = 1;
}

/* ---- clocks ---------------------------------------------------------------------------------- */

static uint32_t clock_get(const struct gr_clock *c, uint32_t blk)
{
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (c->blk[mid] < blk)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->n && c->blk[lo] == blk ? c->stamp[lo] : 0;
}

/* dst = dst joined with src (the later stamp of each block); 0, or -1 out of memory */
static int clock_join(struct gr_clock *dst, const struct gr_clock *src)
{
    if (!src->n)
        return 0;
    uint32_t cap = dst->n + src->n;
    uint32_t *nb = malloc(cap * sizeof *nb), *ns = malloc(cap * sizeof *ns);
    if (!nb || !ns) {
        free(nb);
        free(ns);
        return -1;
    }
    uint32_t i = 0, j = 0, o = 0;
    while (i < dst->n || j < src->n) {
        if (j == src->n || (i < dst->n && dst->blk[i] < src->blk[j])) {
            nb[o] = dst->blk[i];
            ns[o++] = dst->stamp[i++];
        } else if (i == dst->n || src->blk[j] < dst->blk[i]) {
            nb[o] = src->blk[j];
            ns[o++] = src->stamp[j++];
        } else {
            nb[o] = dst->blk[i];
            ns[o++] = dst->stamp[i] > src->stamp[j] ? dst->stamp[i] : src->stamp[j];
            i++;
            j++;
        }
    }
    free(dst->blk);
    free(dst->stamp);
    dst->blk = nb;
    dst->stamp = ns;
    dst->n = o;
    dst->cap = cap;
    return 0;
}

static void clock_set(struct gr_clock *c, uint32_t blk, uint32_t stamp)
{
    struct gr_clock one = {1, 1, &blk, &stamp};
    clock_join(c, &one);
}

/* ---- the shadow ------------------------------------------------------------------------------ */

static uint64_t mix(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdull;
    k ^= k >> 33;
    return k;
}

static int grow_pages(struct emu_grace *g)
{
    size_t cap = g->cap ? g->cap * 2 : 64;
    struct gr_page *np = calloc(cap, sizeof *np);
    if (!np)
        return -1;
    for (size_t i = 0; i < g->cap; i++) {
        if (!g->pages[i].key)
            continue;
        size_t h = mix(g->pages[i].key) & (cap - 1);
        while (np[h].key)
            h = (h + 1) & (cap - 1);
        np[h] = g->pages[i];
    }
    free(g->pages);
    g->pages = np;
    g->cap = cap;
    return 0;
}

static struct gr_cell *cell_of(struct emu_grace *g, uint64_t word)
{
    uint64_t key = word / PAGE_WORDS + 1;
    if ((g->npages + 1) * 2 > g->cap && grow_pages(g))
        return NULL;
    size_t h = mix(key) & (g->cap - 1);
    while (g->pages[h].key && g->pages[h].key != key)
        h = (h + 1) & (g->cap - 1);
    if (!g->pages[h].key) {
        struct gr_cell *cells = calloc(PAGE_WORDS, sizeof *cells);
        if (!cells)
            return NULL;
        g->pages[h].key = key;
        g->pages[h].cells = cells;
        g->npages++;
    }
    return &g->pages[h].cells[word % PAGE_WORDS];
}

static int grow_flags(struct emu_grace *g)
{
    size_t cap = g->capflags ? g->capflags * 2 : 16;
    struct gr_flag *nf = calloc(cap, sizeof *nf);
    if (!nf)
        return -1;
    for (size_t i = 0; i < g->capflags; i++) {
        if (!g->flags[i].key)
            continue;
        size_t h = mix(g->flags[i].key) & (cap - 1);
        while (nf[h].key)
            h = (h + 1) & (cap - 1);
        nf[h] = g->flags[i];
    }
    free(g->flags);
    g->flags = nf;
    g->capflags = cap;
    return 0;
}

/* the clock of a word (NULL: none yet, and make is 0; or out of memory) */
static struct gr_clock *flag_of(struct emu_grace *g, uint64_t word, int make)
{
    uint64_t key = word + 1;
    if (make && (g->nflags + 1) * 2 > g->capflags && grow_flags(g))
        return NULL;
    if (!g->capflags)
        return NULL;
    size_t h = mix(key) & (g->capflags - 1);
    while (g->flags[h].key && g->flags[h].key != key)
        h = (h + 1) & (g->capflags - 1);
    if (g->flags[h].key)
        return &g->flags[h].c;
    if (!make)
        return NULL;
    g->flags[h].key = key;
    g->nflags++;
    return &g->flags[h].c;
}

/* ---- an access ------------------------------------------------------------------------------- */

/* the block linear index blk (a CTA of b's cluster running now): its rank, else -1 */
static int cluster_rank(const struct block *b, uint32_t blk)
{
    for (uint32_t r = 0; b->cl && r < b->cl->n; r++)
        if (b->cl->cta[r].bid == blk)
            return (int)r;
    return -1;
}

/* whether x, an earlier access, is ordered before thread tid of b's access now */
static int ordered(const struct block *b, uint32_t tid, const struct gr_acc *x)
{
    uint32_t xb = x->block - 1;
    if (xb == b->bid) {
        if (x->thread == tid || x->thread / 32 == tid / 32)
            return 1; /* program order; one warp's lanes are not paired */
        if (x->interval < b->interval)
            return 1; /* a barrier between */
    } else if (b->cl && b->cl->n > 1 && x->phase < b->cl->phase && cluster_rank(b, xb) >= 0) {
        return 1; /* barrier.cluster between */
    }
    return b->grb && clock_get(&b->grb->acq, xb) > x->stamp;
}

static void report(struct block *b, uint32_t tid, uint32_t pc, int write, const struct gr_acc *x,
                   int xwrite, uint64_t addr)
{
    if (!b->h || !b->h->global_race)
        return;
    struct smem_cta_global_race e;
    memset(&e, 0, sizeof e);
    e.insn[0] = x->pc;
    e.insn[1] = pc;
    e.write[0] = (uint8_t)xwrite;
    e.write[1] = (uint8_t)write;
    e.thread[0] = x->thread;
    e.thread[1] = tid;
    e.block[0] = x->block - 1;
    e.block[1] = b->bid;
    e.address = addr;
    b->h->global_race(b->h->ctx, &e);
}

static int conflicts(const struct gr_acc *x, uint8_t mask, uint8_t flags)
{
    if (!x->block || !(x->mask & mask))
        return 0;
    if ((x->flags & GR_ATOMIC) && (flags & GR_ATOMIC))
        return 0;
    return !((x->flags & GR_STRONG) && (flags & GR_STRONG));
}

static unsigned first_bit(uint8_t m)
{
    unsigned i = 0;
    while (i < 4 && !(m >> i & 1u))
        i++;
    return i;
}

void emu_grace_access(struct block *b, uint32_t tid, uint32_t pc, int op, uint64_t a, unsigned n)
{
    struct emu_grace *g = b->gr;
    if (!g || !n)
        return;
    const struct smem_ptx_insn *in = &b->p->func->insns[pc];
    int atomic = smem_op_is_atomic((unsigned)op);
    int write = !smem_op_is_load((unsigned)op);
    int same_op = in->op == op || (atomic && smem_op_is_atomic(in->op));
    uint32_t tf = same_op ? in->tflags : 0;
    uint8_t flags = (uint8_t)((atomic ? GR_ATOMIC | GR_STRONG : 0) | (same_op && in->vol ? GR_STRONG : 0));
    if ((flags & GR_STRONG) && (!write || atomic) && b->grb) { /* an acquire */
        struct gr_clock *c = flag_of(g, a / 4, 0);
        if (c)
            clock_join(&b->grb->acq, c);
    }
    struct gr_acc cur;
    memset(&cur, 0, sizeof cur);
    cur.block = b->bid + 1;
    cur.pc = pc;
    cur.interval = b->interval;
    cur.phase = b->cl ? b->cl->phase : 0;
    cur.stamp = g->stamp;
    cur.thread = (uint16_t)tid;
    cur.flags = flags;
    for (uint64_t w = a / 4; w <= (a + n - 1) / 4; w++) {
        uint64_t lo = w * 4 > a ? w * 4 : a, hi = w * 4 + 4 < a + n ? w * 4 + 4 : a + n;
        uint8_t mask = (uint8_t)(((1u << (hi - lo)) - 1u) << (lo - w * 4));
        struct gr_cell *c = cell_of(g, w);
        if (!c)
            return;
        cur.mask = mask;
        if (conflicts(&c->w, mask, flags) && !ordered(b, tid, &c->w))
            report(b, tid, pc, write, &c->w, 1, w * 4 + first_bit(c->w.mask & mask));
        else if (write && conflicts(&c->r, mask, flags) && !ordered(b, tid, &c->r))
            report(b, tid, pc, write, &c->r, 0, w * 4 + first_bit(c->r.mask & mask));
        if (write) {
            c->w = cur;
            c->r.block = 0;
        } else {
            c->r = cur;
        }
    }
    int fenced = b->grb && tid < b->grb->nthreads && b->grb->fenced[tid];
    if ((flags & GR_STRONG) && write && ((tf & SMEM_TF_RELEASE) || fenced) && b->grb) {
        /* a release: what the block did (and acquired) before it, for the word's next acquire */
        struct gr_clock *c = flag_of(g, a / 4, 1);
        if (c) {
            clock_join(c, &b->grb->acq);
            clock_set(c, b->bid, ++g->stamp);
        }
    }
}
