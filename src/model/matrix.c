/* matrix.c: the shared-memory cost of ldmatrix, stmatrix (one pass per 8x8 matrix) and cp.async
 * (LDGSTS: .ca in store passes by the hub rule over source and destination banks, .cg over the
 * whole warp by the warp rule over global and shared sectors, round by round: a round copies a
 * chunk at most once into one 16-byte parity of one shared line; zero-fill copies as stores). See
 * docs/bank-model.md and tests/hw/ldsm/ (fit_ldgsts.py scores every rule tried) for the H100
 * measurements each rule comes from. */
#include "smemlab/model/matrix.h"

#include <stdlib.h>
#include <string.h>

const char *smem_matrix_check(const struct smem_matrix_request *req)
{
    if (req->count != 1 && req->count != 2 && req->count != 4)
        return "ldmatrix/stmatrix take .x1, .x2 or .x4 (1, 2 or 4 matrices)";
    uint32_t used = smem_matrix_lanes(req->count);
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if ((used >> l & 1u) && req->row[l] % 16)
            return "a row address of ldmatrix/stmatrix is not a multiple of 16 bytes";
    return NULL;
}

void smem_matrix_as_request(const struct smem_matrix_request *req, struct smem_request *out)
{
    memset(out, 0, sizeof *out);
    out->active = smem_matrix_lanes(req->count);
    out->width = 16;
    out->op = SMEM_ST; /* a store never pairs lanes: its passes are exactly the 8-lane matrices */
    for (unsigned l = 0; l < SMEM_WARP; l++)
        out->addr[l] = (out->active >> l & 1u) ? req->row[l] : 0;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* The largest count any bank gets over the words [addr/bytes, +width/bytes) of the lanes in mask;
 * with distinct = 1 a word counts once however many lanes want it. */
static unsigned worst_bank(const struct smem_banks *b, const uint32_t *addr, uint32_t mask, unsigned width,
                           int distinct)
{
    uint32_t words[SMEM_WARP * 16];
    unsigned count[SMEM_MAX_BANKS], nw = 0, worst = 0;
    unsigned n = width > b->bytes ? width / b->bytes : 1; /* at most 16 (1-byte banks) */
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t first = addr[__builtin_ctz(m)] / b->bytes;
        for (unsigned k = 0; k < n && k < 16; k++)
            words[nw++] = first + k;
    }
    if (distinct)
        qsort(words, nw, sizeof words[0], cmp_u32);
    memset(count, 0, sizeof count);
    for (unsigned i = 0; i < nw; i++) {
        if (distinct && i && words[i] == words[i - 1])
            continue;
        unsigned c = ++count[words[i] % b->count];
        if (c > worst)
            worst = c;
    }
    return worst;
}

struct smem_cost smem_matrix_cost(const struct smem_banks *b, const struct smem_matrix_request *req)
{
    struct smem_cost cost = {0, 0, 0, 0, 0};
    for (unsigned m = 0; m < req->count && m < 4; m++) {
        unsigned ways = worst_bank(b, req->row, 0xffu << (8 * m), 16, 1);
        cost.wavefronts += ways;
        cost.ideal++;
        cost.groups++;
        if (ways > cost.max_ways)
            cost.max_ways = ways;
    }
    return cost;
}

const char *smem_cp_async_check(const struct smem_cp_async_request *req)
{
    if (req->size != 4 && req->size != 8 && req->size != 16)
        return "cp.async copies 4, 8 or 16 bytes";
    if (req->bypass && req->size != 16)
        return "cp.async.cg copies 16 bytes only";
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if ((req->active >> l & 1u) && (req->dst[l] % req->size || req->src[l] % req->size))
            return "a cp.async address is not a multiple of its size";
    return NULL;
}

void smem_cp_async_as_request(const struct smem_cp_async_request *req, struct smem_request *out)
{
    memset(out, 0, sizeof *out);
    out->active = req->active;
    out->width = req->size;
    out->op = SMEM_ST;
    for (unsigned l = 0; l < SMEM_WARP; l++)
        out->addr[l] = (req->active >> l & 1u) ? req->dst[l] : 0;
}

/* ---- cp.async.ca: the hub rule ----
 * A lane a's source bank X (one of the banks its source words lie in, bank = (address / bytes) mod
 * count, as the L1 data array holds the lines) and its destination bank Y: the items on them are
 * the lane-word writes to Y plus the lanes that read X and do not write Y, every copy on its own
 * (copies are never merged, on either side: two lanes on one source word are two items; a's own
 * read and write count once). A pass costs the largest such count over its lanes and their banks.
 * A zero-fill lane (src-size 0) reads nothing: a pass of them alone costs its destinations' worst
 * bank, lane-word writes counted. With conflicts on one side only it is the worst bank of that
 * side; three lanes a, b (on a's source bank, another line) and c (on a's destination bank) cost 3
 * where the best schedule needs 2 (h100-ldsm5.csv T1_*, T2_*); a hub with k lanes on its source
 * bank and m on its destination bank k + m + 1 (h100-ldsm6.csv hub_*, held out); every copy of a
 * shared source word counted (fitted on 40 rows after the sixth run, then held out in the seventh:
 * 36 of 36 random warps with shared source words and 12 of 12 broadcast sources, where counting a
 * word once gets 7 of the 48); zero-fill lanes alone or mixed with whole ones (h100-ldsm7.csv
 * zf_*, h100-ldsm8.csv b_zf_*, c_*: 59 of 59, held out). A src-size between 0 and the copy's size
 * reads a prefix of the copy's words, which lie in one naturally aligned group of banks with the
 * whole copy's: the largest count is the same (h100-ldsm7.csv .src4 rows: 14 of 14). */
static unsigned ca_hub(const struct smem_banks *b, const struct smem_cp_async_request *req, uint32_t mask,
                       uint32_t zero)
{
    unsigned n = req->size > b->bytes ? req->size / b->bytes : 1, best = 0;
    uint32_t rd = mask & ~zero;
    if (b->count <= SMEM_MAX_BANKS && n <= b->count) {
        /* lanes writing / reading each bank (a lane's n words lie in n banks) */
        uint32_t wr_in[SMEM_MAX_BANKS], rd_in[SMEM_MAX_BANKS];
        memset(wr_in, 0, sizeof wr_in);
        memset(rd_in, 0, sizeof rd_in);
        for (uint32_t q = mask; q; q &= q - 1) {
            unsigned l = (unsigned)__builtin_ctz(q);
            for (unsigned k = 0; k < n; k++) {
                wr_in[(req->dst[l] / b->bytes + k) % b->count] |= 1u << l;
                if (rd >> l & 1u)
                    rd_in[(req->src[l] / b->bytes + k) % b->count] |= 1u << l;
            }
        }
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned a = (unsigned)__builtin_ctz(m);
            for (unsigned j = 0; j < n; j++) {
                uint32_t wy = wr_in[(req->dst[a] / b->bytes + j) % b->count];
                unsigned items = (unsigned)__builtin_popcount(wy);
                if (items > best)
                    best = items;
                for (unsigned i = 0; i < n && (rd >> a & 1u); i++) {
                    uint32_t rx = rd_in[(req->src[a] / b->bytes + i) % b->count];
                    unsigned all = items + (unsigned)__builtin_popcount(rx & ~wy);
                    if (all > best)
                        best = all;
                }
            }
        }
        return best;
    }
    for (uint32_t m = mask; m; m &= m - 1) { /* other geometries: the same count, lane-word by lane-word */
        unsigned a = (unsigned)__builtin_ctz(m);
        for (unsigned j = 0; j < n; j++) {
            unsigned Y = (unsigned)((req->dst[a] / b->bytes + j) % b->count), items = 0;
            uint32_t writers = 0;
            for (uint32_t q = mask; q; q &= q - 1) {
                unsigned l = (unsigned)__builtin_ctz(q);
                for (unsigned k = 0; k < n; k++)
                    if ((req->dst[l] / b->bytes + k) % b->count == Y) {
                        items++;
                        writers |= 1u << l;
                    }
            }
            if (items > best)
                best = items;
            for (unsigned i = 0; i < n && (rd >> a & 1u); i++) {
                unsigned X = (unsigned)((req->src[a] / b->bytes + i) % b->count), all = items;
                for (uint32_t q = rd & ~writers; q; q &= q - 1) {
                    unsigned l = (unsigned)__builtin_ctz(q);
                    for (unsigned k = 0; k < n; k++)
                        if ((req->src[l] / b->bytes + k) % b->count == X) {
                            all++;
                            break;
                        }
                }
                if (all > best)
                    best = all;
            }
        }
    }
    return best;
}

/* ---- cp.async.cg: the warp rule ----
 * Over the whole warp (the 8-lane passes play no part): lanes writing one destination count once,
 * the lowest lane's copy (32 lanes on one destination: 1 wavefront in all; h100-ldsm.csv all_same,
 * h100-ldsm7.csv dup_* and same_*). The kept lanes grouped by (32-byte global sector, 32-byte shared
 * sector): a group of two lanes on the two halves of its global sector (either order) is one
 * 'whole' item keyed (128-byte global line, 128-byte shared line, (shared sector - global sector)
 * mod 2, halves swapped or not), its source the sector; every other lane is a 'half' item keyed
 * (global line, shared line, its half of the global sector, (destination - source) mod 64), its
 * source the 16-byte chunk. A key's items share a wavefront, one source once a wavefront: the
 * request costs, summed over its keys, the most items of one key that read one source. Items of
 * one key in different passes share (h100-ldsm7.csv xp_*, line4pass_*: 30 of 30, predicted before
 * the run); a chunk sent to two places of one key costs two (mult_*: 13 of 13). Fitted on
 * h100-ldsm{,..,6}.csv (the keys rule a pass: 485 rows of its class, then 84 of 84 held out), made
 * warp-wide with dedup and multiplicity from the seventh run. */
struct cg_item {
    uint64_t gline, source;
    uint32_t sline;
    unsigned kind, a, b;
};

/* The warp rule's view of a request: the lanes kept (one per destination), each kept lane's item
 * (a whole item on both its lanes), the other lane of its whole item (SMEM_WARP: none), and its
 * key's id (the lowest kept lane of the same key). */
struct cg_view {
    uint32_t keep;
    struct cg_item it[SMEM_WARP];
    unsigned partner[SMEM_WARP], kid[SMEM_WARP];
};

/* The lanes of mask that copy to a destination no lower lane of mask copies to. */
static uint32_t one_per_destination(const struct smem_cp_async_request *req, uint32_t mask)
{
    uint32_t keep = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        int dup = 0;
        for (uint32_t k = keep; k && !dup; k &= k - 1)
            dup = req->dst[__builtin_ctz(k)] == req->dst[l];
        if (!dup)
            keep |= 1u << l;
    }
    return keep;
}

static int same_key(const struct cg_item *x, const struct cg_item *y)
{
    return x->gline == y->gline && x->sline == y->sline && x->kind == y->kind && x->a == y->a && x->b == y->b;
}

static void cg_view_of(const struct smem_cp_async_request *req, uint32_t mask, struct cg_view *v)
{
    v->keep = one_per_destination(req, mask);
    for (uint32_t m = v->keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), p = SMEM_WARP, others = 0;
        for (uint32_t k = v->keep; k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            if (o != l && req->src[o] / 32 == req->src[l] / 32 && req->dst[o] / 32 == req->dst[l] / 32) {
                p = o;
                others++;
            }
        }
        struct cg_item it = {req->src[l] / 128, req->src[l] / 16, req->dst[l] / 128, 0, 0, 0};
        v->partner[l] = SMEM_WARP;
        if (others == 1 && req->src[p] != req->src[l]) { /* a whole sector into one shared sector */
            unsigned first = p < l ? p : l;
            v->partner[l] = p;
            it.kind = 1;
            it.a = (unsigned)((req->dst[l] / 32 - req->src[l] / 32) & 1u);
            it.b = (unsigned)(((req->src[first] ^ req->dst[first]) >> 4) & 1u);
            it.source = req->src[l] / 32;
        } else {
            it.a = (unsigned)((req->src[l] / 16) & 1u);
            it.b = (unsigned)(((uint64_t)req->dst[l] - req->src[l]) & 63u);
        }
        v->it[l] = it;
        v->kid[l] = l;
        for (uint32_t k = v->keep & ((1u << l) - 1u); k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            if (v->kid[o] == o && same_key(&v->it[o], &it)) {
                v->kid[l] = o;
                break;
            }
        }
    }
}

/* The warp rule's wavefronts (whole copies): over the keys, the most items of the key that read one
 * source (a whole item counted at its lower lane). */
static unsigned cg_warp(const struct cg_view *v)
{
    unsigned most[SMEM_WARP], total = 0;
    uint32_t items = 0; /* the lanes that stand for an item */
    for (uint32_t m = v->keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        most[l] = 0;
        if (v->partner[l] == SMEM_WARP || v->partner[l] > l)
            items |= 1u << l;
    }
    for (uint32_t m = items; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), c = 0;
        for (uint32_t k = items; k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            c += v->kid[o] == v->kid[l] && v->it[o].source == v->it[l].source;
        }
        if (c > most[v->kid[l]])
            most[v->kid[l]] = c;
    }
    for (uint32_t m = items; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        total += v->kid[l] == l ? most[l] : 0;
    }
    return total;
}

/* The deferral rule's deferred lanes of a view: a kept lane is deferred when a HIGHER kept lane
 * reads the same global 16-byte chunk into the same 128-byte shared line at the same 16-byte parity
 * (an even number of chunks from it) under another key. */
static uint32_t cg_deferred(const struct smem_cp_async_request *req, const struct cg_view *v)
{
    uint32_t d = 0;
    for (uint32_t m = v->keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t k = v->keep & ~((2u << l) - 1u); k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            if (req->src[o] / 16 == req->src[l] / 16 && req->dst[o] / 128 == req->dst[l] / 128 &&
                !(((req->dst[o] ^ req->dst[l]) >> 4) & 1u) && v->kid[o] != v->kid[l]) {
                d |= 1u << l;
                break;
            }
        }
    }
    return d;
}

/* The deferral rule (the model from the twelfth run to the thirteenth; now history): with no lane
 * deferred the warp rule, else the lanes not deferred and the deferred ones each priced by this rule
 * on their own, and added. Only its number of splits is still used (smem_cp_async_deferrals: which
 * rows of h100-ldsm12.csv and h100-ldsm13.csv its committed predictions held out); the wavefronts are
 * the rounds rule's (cg_rounds). */
static void cg_deferral_splits(const struct smem_cp_async_request *req, uint32_t lanes, unsigned *splits)
{
    struct cg_view v;
    cg_view_of(req, lanes, &v);
    uint32_t d = cg_deferred(req, &v);
    if (!d)
        return;
    ++*splits;
    cg_deferral_splits(req, v.keep & ~d, splits);
    cg_deferral_splits(req, d, splits);
}

/* The rounds rule (fitted after the thirteenth run on every distinct whole .cg row of
 * h100-ldsm{,2,..,13}.csv: 1341 of 1341, where the nested deferral rule before it got 1330; held out
 * by the fourteenth run, h100-ldsm14.csv, gen_patterns14.py: 78 of 78, the nested rule 18). The kept
 * lanes (one per destination) are grouped by (global 16-byte chunk, 128-byte shared line, 16-byte
 * parity of the destination); round k takes the k-th HIGHEST lane of every group, so a round copies
 * a chunk at most once into one parity of one line, and a group of n lanes spans n rounds (at most
 * 4: a line has four 16-byte places of each parity). Each round costs the warp rule over its own
 * lanes (keys and whole pairs found again within the round: a whole pair whose halves fall in two
 * rounds is two half items), and the rounds add up. It is the deferral rule with the condition
 * "under another key" dropped (a lower lane of the same key goes to a later round too, which the
 * warp rule's multiplicity priced alike on every row measured before) and the lanes deferred at
 * every level gathered into one later round instead of nested sets; whole pairs of one key whose
 * lanes cross (one pair's first half above the other's, its second half below) are broken, which
 * the warp rule alone never did (h100-ldsm14.csv a_old0_*: 10 of 10 as this rule, 0 as the warp rule
 * or the nested form). Why the parity of the place matters is not known. *nrounds: the rounds (0 for
 * no lane). */
static unsigned cg_rounds(const struct smem_cp_async_request *req, uint32_t keep, unsigned *nrounds)
{
    uint32_t round[SMEM_WARP];
    unsigned n = 0, total = 0;
    memset(round, 0, sizeof round);
    for (uint32_t m = keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), k = 0;
        for (uint32_t h = keep & ~((2u << l) - 1u); h; h &= h - 1) { /* the higher lanes of l's group */
            unsigned o = (unsigned)__builtin_ctz(h);
            k += req->src[o] / 16 == req->src[l] / 16 && req->dst[o] / 128 == req->dst[l] / 128 &&
                 !(((req->dst[o] ^ req->dst[l]) >> 4) & 1u);
        }
        round[k] |= 1u << l;
        if (k + 1 > n)
            n = k + 1;
    }
    for (unsigned k = 0; k < n; k++) {
        struct cg_view v;
        cg_view_of(req, round[k], &v);
        total += cg_warp(&v);
    }
    *nrounds = n;
    return total;
}

/* One .ca pass (mask): its wavefronts by the hub rule, the lanes of zero (src-size 0) reading
 * nothing; *ways: the worst bank of either side. */
static unsigned ca_pass(const struct smem_banks *b, const struct smem_cp_async_request *req, uint32_t mask,
                        uint32_t zero, unsigned *ways)
{
    unsigned w = worst_bank(b, req->dst, mask, req->size, 0); /* copies are never merged */
    uint32_t low[SMEM_WARP];
    for (unsigned l = 0; l < SMEM_WARP; l++) /* bank and word identity: the low 32 bits suffice */
        low[l] = (uint32_t)req->src[l];
    unsigned r = mask & ~zero ? worst_bank(b, low, mask & ~zero, req->size, 1) : 0;
    *ways = w > r ? w : r;
    return ca_hub(b, req, mask, zero);
}

static unsigned pass_lanes(const struct smem_banks *b, unsigned size)
{
    unsigned passes = size > b->bytes ? size / b->bytes : 1;
    return passes >= SMEM_WARP ? 1 : SMEM_WARP / passes;
}

/* The active lanes with src-size 0 (src_size NULL: none); *partial: some lane reads part of its copy. */
static uint32_t zero_lanes(const struct smem_cp_async_request *req, const uint8_t *src_size, int *partial)
{
    uint32_t z = 0;
    *partial = 0;
    for (unsigned l = 0; src_size && l < SMEM_WARP; l++) {
        if (!(req->active >> l & 1u))
            continue;
        if (!src_size[l])
            z |= 1u << l;
        else if (src_size[l] < req->size)
            *partial = 1;
    }
    return z;
}

struct smem_cost smem_cp_async_cost_src(const struct smem_banks *b, const struct smem_cp_async_request *req,
                                        const uint8_t *src_size)
{
    struct smem_cost cost = {0, 0, 0, 0, 0};
    unsigned lanes = pass_lanes(b, req->size);
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    int partial;
    uint32_t zero = zero_lanes(req, src_size, &partial);
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pm = (lmask << p0) & req->active;
        if (!pm)
            continue;
        cost.ideal++;
        cost.groups++;
        if (!req->bypass) {
            unsigned ways;
            cost.wavefronts += ca_pass(b, req, pm, zero, &ways);
            if (ways > cost.max_ways)
                cost.max_ways = ways;
        }
    }
    if (req->bypass) { /* over the whole warp, not by passes */
        uint32_t whole = req->active & ~zero;
        struct cg_view v;
        int short_lanes = zero || partial; /* some lane reads less than its 16 bytes */
        /* with short lanes, the lanes that read are kept by destination among every active lane
         * (a destination's lowest lane, zero-fill or not) */
        cg_view_of(req, short_lanes ? one_per_destination(req, req->active) & ~zero : whole, &v);
        uint32_t kept = v.keep;
        unsigned ways = 0, zw = 0;
        for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) { /* max_ways: the worst bank of a pass */
            uint32_t pm = (lmask << p0) & kept;
            unsigned w = pm ? worst_bank(b, req->dst, pm, req->size, 1) : 0;
            if (w > ways)
                ways = w;
        }
        unsigned rounds;
        cost.wavefronts = cg_rounds(req, kept, &rounds);
        if (short_lanes) {
            /* the short-lane rule: the request is also a .ca pass of every active lane (the hub
             * rule, each lane reading the prefix it reads: src-size 0 nothing), which writes the
             * zeros; a zero-fill-only request is then that pass alone (its store). Fitted on 17 rows
             * (h100-ldsm7.csv .cg.16.src4, h100-ldsm8.csv .cg.16.zmix), held out on 73 of 73
             * (h100-ldsm9.csv, gen_patterns9.py: 48 zmix, 25 src4), where the sum of the whole
             * lanes' and the zero-fill lanes' rules got 7 of 48 and twice the whole copy 3 of 25. */
            for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
                uint32_t pm = (lmask << p0) & req->active;
                if (pm) {
                    unsigned w;
                    cost.wavefronts += ca_pass(b, req, pm, zero, &w);
                    if (w > zw)
                        zw = w;
                }
            }
        }
        cost.max_ways = ways > zw ? ways : zw;
    }
    return cost;
}

struct smem_cost smem_cp_async_cost(const struct smem_banks *b, const struct smem_cp_async_request *req)
{
    return smem_cp_async_cost_src(b, req, NULL);
}

int smem_cp_async_established_src(const struct smem_cp_async_request *req, const uint8_t *src_size)
{
    if (!req->bypass)
        return 1; /* .ca: the hub rule, held out on every kind measured (see ca_hub) */
    int partial;
    (void)zero_lanes(req, src_size, &partial);
    for (unsigned l = 0; partial && l < SMEM_WARP; l++) /* src-size 8 and 12 were not measured */
        if ((req->active >> l & 1u) && src_size[l] && src_size[l] != 4 && src_size[l] < req->size)
            return 0;
    /* zero-fill alone, zero-fill mixed with whole lanes and src-size 4 (the short-lane rule): held
     * out (h100-ldsm8.csv, h100-ldsm9.csv); the reading lanes' copies: the rounds rule, held out by
     * h100-ldsm14.csv on every number of rounds (2, 3, 4: 78 of 78 warps, 4 of them zmix) */
    return 1;
}

/* The lanes kept of the reading lanes (one per destination; with short lanes among every active lane). */
static uint32_t cg_reading_kept(const struct smem_cp_async_request *req, const uint8_t *src_size)
{
    int partial;
    uint32_t zero = zero_lanes(req, src_size, &partial);
    return (zero || partial) ? one_per_destination(req, req->active) & ~zero : one_per_destination(req, req->active);
}

int smem_cp_async_crowded(const struct smem_cp_async_request *req, const uint8_t *src_size)
{
    if (!req->bypass)
        return 0;
    struct cg_view v;
    cg_view_of(req, cg_reading_kept(req, src_size), &v);
    for (uint32_t m = v.keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t k = v.keep & ~((2u << l) - 1u); k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            if (req->src[o] / 16 == req->src[l] / 16 && req->dst[o] / 128 == req->dst[l] / 128 &&
                v.kid[o] != v.kid[l])
                return 1;
        }
    }
    return 0;
}

unsigned smem_cp_async_rounds(const struct smem_cp_async_request *req, const uint8_t *src_size)
{
    if (!req->bypass)
        return 0;
    unsigned n;
    cg_rounds(req, cg_reading_kept(req, src_size), &n);
    return n;
}

unsigned smem_cp_async_deferrals(const struct smem_cp_async_request *req, const uint8_t *src_size)
{
    if (!req->bypass)
        return 0;
    unsigned splits = 0;
    cg_deferral_splits(req, cg_reading_kept(req, src_size), &splits);
    return splits;
}

int smem_cp_async_established(const struct smem_cp_async_request *req)
{
    return smem_cp_async_established_src(req, NULL);
}
