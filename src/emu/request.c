/* request.c: the requests of the warp being run. A lane's k-th execution of a shared site joins
 * the warp's k-th request of it (emu_record; emu_warp_record for lanes together); the pending
 * ones are kept in a table by (site, k) and given to the hooks when no lane can join them any
 * more (emu_flush_complete) or when the warp leaves the barrier (emu_flush_requests). */
#include "request.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

void emu_flush_requests(struct block *b)
{
    for (uint32_t i = 0; i < b->nreqs; i++)
        if (b->h && b->h->access)
            b->h->access(b->h->ctx, &b->reqs[i]);
    b->nreqs = 0;
    b->gen++; /* every entry of the table is stale now */
}

static uint32_t table_slot(uint64_t key, uint32_t cap)
{
    return (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (cap - 1);
}

/* Reports the requests of warp w that no lane can join any more: every lane still running (or
 * waiting at a warp collective) has executed their site more times than their k. Their order
 * among themselves is kept; the rest stay pending (the table is rebuilt). */
void emu_flush_complete(struct block *b, uint32_t w)
{
    uint32_t first = w * 32, last = first + 32 < b->nthreads ? first + 32 : b->nthreads;
    uint32_t live[32], nlive = 0, kept = 0;
    for (uint32_t t = first; t < last; t++)
        if (b->T[t].state == L_RUN || b->T[t].state == L_WARP)
            live[nlive++] = t;
    for (uint32_t i = 0; i < b->nreqs; i++) {
        uint32_t site = (uint32_t)(b->rkey[i] >> 32), k = (uint32_t)b->rkey[i];
        int done = 1;
        for (uint32_t j = 0; j < nlive && done; j++)
            if (*emu_kcount(b, live[j], site) <= k)
                done = 0;
        if (done) {
            if (b->h && b->h->access)
                b->h->access(b->h->ctx, &b->reqs[i]);
            continue;
        }
        if (kept != i) {
            b->reqs[kept] = b->reqs[i];
            b->rkey[kept] = b->rkey[i];
        }
        kept++;
    }
    b->nreqs = kept;
    b->gen++;
    uint32_t gen = b->gen + 1;
    for (uint32_t i = 0; i < kept; i++) {
        uint32_t h = table_slot(b->rkey[i], b->cap_tab);
        while (b->tab[h].gen == gen)
            h = (h + 1) & (b->cap_tab - 1);
        b->tab[h].key = b->rkey[i];
        b->tab[h].gen = gen;
        b->tab[h].idx = i;
    }
}

/* The request (site, k) of the current warp, created on first use. */
struct smem_access *emu_request(struct block *b, uint32_t site, uint32_t k, uint32_t warp)
{
    uint64_t key = (uint64_t)site << 32 | k;
    uint32_t gen = b->gen + 1; /* never 0: calloc'd entries are empty */
    if (b->nreqs * 2 + 2 > b->cap_tab) {
        uint32_t nc = b->cap_tab ? b->cap_tab * 2 : 256;
        struct pending *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < b->cap_tab; i++) {
            if (b->tab[i].gen != gen)
                continue;
            uint32_t h = (uint32_t)((b->tab[i].key * 0x9E3779B97F4A7C15ull) >> 40) & (nc - 1);
            while (nt[h].gen == gen)
                h = (h + 1) & (nc - 1);
            nt[h] = b->tab[i];
        }
        free(b->tab);
        b->tab = nt;
        b->cap_tab = nc;
    }
    assert(site < b->p->nsites && (b->cap_tab & (b->cap_tab - 1)) == 0); /* a power of two */
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (b->cap_tab - 1);
    while (b->tab[h].gen == gen) {
        if (b->tab[h].key == key)
            return &b->reqs[b->tab[h].idx];
        h = (h + 1) & (b->cap_tab - 1);
    }
    if (b->nreqs == b->cap_reqs) {
        uint32_t nc = b->cap_reqs ? b->cap_reqs * 2 : 64;
        struct smem_access *nr = realloc(b->reqs, nc * sizeof *nr);
        if (!nr)
            return NULL;
        b->reqs = nr;
        uint64_t *nk = realloc(b->rkey, nc * sizeof *nk);
        if (!nk)
            return NULL;
        b->rkey = nk;
        b->cap_reqs = nc;
    }
    if (b->nreqs >= PENDING_SOFT_CAP)
        b->yield = 1; /* this lane has run far ahead: the others catch up first */
    b->rkey[b->nreqs] = key;
    b->tab[h].key = key;
    b->tab[h].gen = gen;
    b->tab[h].idx = b->nreqs;
    struct smem_access *a = &b->reqs[b->nreqs++];
    if (k == 0 && !b->tmark[site]) {
        b->tmark[site] = 1;
        b->touched[b->ntouched++] = site;
    }
    memset(a, 0, sizeof *a);
    a->site = site;
    a->block = b->bid;
    a->warp = warp;
    a->interval = b->interval;
    a->width = b->p->sites[site].width;
    a->op = b->p->sites[site].op;
    return a;
}

/* Records lane tid's part in site's request; addr_known says whether addr means anything. */
int emu_record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known,
                  int oob)
{
    uint32_t *kc = emu_kcount(b, tid, site);
    struct smem_access *a = emu_request(b, site, (*kc)++, tid / 32);
    if (!a)
        return -1;
    uint32_t lane = tid % 32, bit = 1u << lane;
    a->active |= bit;
    a->addr[lane] = addr;
    a->wsync[lane] = b->T[tid].wsync;
    if (!addr_known)
        a->unknown |= bit;
    if (oob)
        a->oob |= bit;
    return 0;
}

SMEM_LANE_CLONES
int emu_warp_record(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const uint32_t *off)
{
    const struct smem_cta_program *p = b->p;
    uint32_t ns = p->nsites, base = w * 32;
    assert(ex != 0); /* some lane joins: the first is __builtin_ctz(ex) */
    for (uint32_t s = p->site_of_insn[pc]; s < ns && p->sites[s].insn == pc; s++) {
        uint32_t so = p->sites[s].offset, l0 = (uint32_t)__builtin_ctz(ex);
        uint32_t *kc = emu_kcount(b, base, s); /* the warp's lanes side by side */
        uint32_t k0 = kc[l0], diff = 0;
        for (uint32_t l = l0 + 1; l < 32; l++)
            if (ex >> l & 1u)
                diff |= kc[l] ^ k0;
        int same_k = diff == 0;
        if (!same_k) {
            for (uint32_t l = 0; l < 32; l++)
                if ((ex >> l & 1u) && emu_record(b, base + l, s, off[l] + so, 1, 0))
                    return emu_fail(b, pc, "out of memory");
            continue;
        }
        struct smem_access *a = emu_request(b, s, k0, w);
        if (!a)
            return emu_fail(b, pc, "out of memory");
        a->active |= ex;
        for (uint32_t l = 0; l < 32; l++)
            if (ex >> l & 1u) {
                kc[l]++;
                a->addr[l] = off[l] + so;
                a->wsync[l] = b->T[base + l].wsync;
            }
    }
    return 0;
}

void emu_dshared_lane(struct block *b, uint32_t tid, unsigned op, unsigned bytes)
{
    if (!b->dsh.lanes) {
        b->dsh.op = (uint8_t)op;
        b->dsh.target = b->remote ? b->remote->bid : b->bid;
    }
    b->dsh.lanes |= 1u << (tid % 32);
    b->dsh.bytes += bytes;
}

void emu_dshared_flush(struct block *b, uint32_t w, uint32_t pc)
{
    if (!b->dsh.lanes)
        return;
    if (b->h && b->h->dshared) {
        struct smem_dshared e;
        memset(&e, 0, sizeof e);
        e.insn = pc;
        e.block = b->bid;
        e.target_block = b->dsh.target;
        e.warp = w;
        e.lanes = b->dsh.lanes;
        e.bytes = b->dsh.bytes;
        e.op = b->dsh.op;
        b->h->dshared(b->h->ctx, &e);
    }
    memset(&b->dsh, 0, sizeof b->dsh);
}
