/* matrix.c: the shared-memory cost of ldmatrix, stmatrix (one pass per 8x8 matrix) and cp.async
 * (LDGSTS in store passes: .ca by the hub rule over source and destination banks, .cg by the keys
 * rule over global and shared sectors). See docs/bank-model.md and tests/hw/ldsm/ (fit_ldgsts.py
 * scores every rule tried) for the H100 measurements each rule comes from. */
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
    struct smem_cost cost = {0, 0, 0, 0};
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
 * (copies are never merged, on either side; a's own read and write count once). A pass costs the
 * largest such count over its lanes and their banks. With conflicts on one side only it is the
 * worst bank of that side; three lanes a, b (on a's source bank, another line) and c (on a's
 * destination bank) cost 3 where the best schedule needs 2 (h100-ldsm5.csv T1_*, T2_*: all 32, in
 * every lane and address order); a hub with k lanes on its source bank and m on its destination
 * bank k + m + 1 (h100-ldsm6.csv hub_*, held out). Exact on every .ca row of h100-ldsm*.csv (338).
 * per_copy = 0 counts a source word read by several lanes once (none if a writer of Y reads it):
 * the rule as predicted before the sixth run, 1 to 3 low where that matters; the cost is
 * established where the two agree. */
static unsigned ca_hub(const struct smem_banks *b, const struct smem_cp_async_request *req, uint32_t mask,
                       int per_copy)
{
    unsigned n = req->size > b->bytes ? req->size / b->bytes : 1, best = 0;
    if (per_copy && b->count <= SMEM_MAX_BANKS && n <= b->count) {
        /* the fast form: lanes writing / reading each bank (a lane's n words lie in n banks) */
        uint32_t wr_in[SMEM_MAX_BANKS], rd_in[SMEM_MAX_BANKS];
        memset(wr_in, 0, sizeof wr_in);
        memset(rd_in, 0, sizeof rd_in);
        for (uint32_t q = mask; q; q &= q - 1) {
            unsigned l = (unsigned)__builtin_ctz(q);
            for (unsigned k = 0; k < n; k++) {
                wr_in[(req->dst[l] / b->bytes + k) % b->count] |= 1u << l;
                rd_in[(req->src[l] / b->bytes + k) % b->count] |= 1u << l;
            }
        }
        for (uint32_t m = mask; m; m &= m - 1) {
            unsigned a = (unsigned)__builtin_ctz(m);
            for (unsigned i = 0; i < n; i++) {
                uint32_t rx = rd_in[(req->src[a] / b->bytes + i) % b->count];
                for (unsigned j = 0; j < n; j++) {
                    uint32_t wy = wr_in[(req->dst[a] / b->bytes + j) % b->count];
                    unsigned items = (unsigned)__builtin_popcount(wy) + (unsigned)__builtin_popcount(rx & ~wy);
                    if (items > best)
                        best = items;
                }
            }
        }
        return best;
    }
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned a = (unsigned)__builtin_ctz(m);
        for (unsigned i = 0; i < n; i++) {
            unsigned X = (unsigned)((req->src[a] / b->bytes + i) % b->count);
            for (unsigned j = 0; j < n; j++) {
                unsigned Y = (req->dst[a] / b->bytes + j) % b->count, items = 0, nw = 0, nwr = 0;
                uint32_t writers = 0;
                uint64_t words[SMEM_WARP * 4], wr[SMEM_WARP * 4];
                for (uint32_t q = mask; q; q &= q - 1) {
                    unsigned l = (unsigned)__builtin_ctz(q);
                    for (unsigned k = 0; k < n; k++)
                        if ((req->dst[l] / b->bytes + k) % b->count == Y) {
                            items++; /* one item a lane-word write */
                            writers |= 1u << l;
                        }
                }
                for (uint32_t q = writers; q; q &= q - 1) /* the source words the writers of Y read */
                    for (unsigned k = 0; k < n && nwr < SMEM_WARP * 4; k++)
                        wr[nwr++] = req->src[__builtin_ctz(q)] / b->bytes + k;
                for (uint32_t q = mask & ~writers; q; q &= q - 1) {
                    unsigned l = (unsigned)__builtin_ctz(q);
                    for (unsigned k = 0; k < n; k++) {
                        uint64_t w = req->src[l] / b->bytes + k;
                        if (w % b->count != X)
                            continue;
                        if (per_copy) { /* every reader of X its own item */
                            items++;
                            continue;
                        }
                        unsigned e; /* else each word once, none if a writer of Y reads it */
                        for (e = 0; e < nwr && wr[e] != w; e++)
                            ;
                        if (e < nwr)
                            continue;
                        for (e = 0; e < nw && words[e] != w; e++)
                            ;
                        if (e == nw && nw < SMEM_WARP * 4)
                            words[nw++] = w;
                    }
                }
                items += nw;
                if (items > best)
                    best = items;
            }
        }
    }
    return best;
}

/* ---- cp.async.cg: the keys rule ----
 * The pass's lanes, one per destination (lanes writing one destination count once), grouped by
 * (32-byte global sector, 32-byte shared sector). A group of two lanes on the two halves of its
 * global sector (one shared sector, either order) is one 'whole' item, keyed (128-byte global line,
 * 128-byte shared line, (shared sector - global sector) mod 2, halves swapped or not); every other
 * lane is a 'half' item keyed (global line, shared line, its half of the global sector,
 * (destination - source) mod 64 bytes). The pass costs its distinct keys, at least its worst
 * destination bank. Items of one key share a wavefront: whole sectors of one line copied to one
 * shared line with one 64-byte rotation, halves moved by one 64-byte rotation. Fitted on
 * h100-ldsm{,2,3,4,5}.csv (485 rows), then exact on all 84 held-out warps of h100-ldsm6.csv (random
 * 16-byte permutations of lines, whole-sector permutations, mixed chunks of two lines), where the
 * earlier line-group rule got 2. */
struct cg_key {
    uint64_t gline;
    uint32_t sline;
    unsigned kind, a, b;
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

static unsigned cg_keys(const struct smem_cp_async_request *req, uint32_t mask)
{
    uint32_t keep = one_per_destination(req, mask);
    struct cg_key keys[SMEM_WARP];
    unsigned nk = 0;
    for (uint32_t m = keep; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), partner = SMEM_WARP, others = 0;
        for (uint32_t k = keep; k; k &= k - 1) {
            unsigned o = (unsigned)__builtin_ctz(k);
            if (o != l && req->src[o] / 32 == req->src[l] / 32 && req->dst[o] / 32 == req->dst[l] / 32) {
                partner = o;
                others++;
            }
        }
        struct cg_key key = {req->src[l] / 128, req->dst[l] / 128, 0, 0, 0};
        if (others == 1 && req->src[partner] != req->src[l]) { /* a whole sector into one shared sector */
            key.kind = 1;
            key.a = (unsigned)((req->dst[l] / 32 - req->src[l] / 32) & 1u);
            key.b = (unsigned)(((req->src[l] ^ req->dst[l]) >> 4) & 1u);
        } else {
            key.a = (unsigned)((req->src[l] / 16) & 1u);
            key.b = (unsigned)(((uint64_t)req->dst[l] - req->src[l]) & 63u);
        }
        unsigned e;
        for (e = 0; e < nk; e++)
            if (keys[e].gline == key.gline && keys[e].sline == key.sline && keys[e].kind == key.kind &&
                keys[e].a == key.a && keys[e].b == key.b)
                break;
        if (e == nk)
            keys[nk++] = key;
    }
    return nk;
}

/* 1 when the .cg request is in the keys rule's class: no global 16-byte chunk read by two lanes of
 * one pass, and no destination written by two lanes, except the two halves of one global sector
 * onto one destination by lanes of one pass (h100-ldsm3.csv s1_*: 1). Outside: several lanes on
 * one chunk (h100-ldsm4.csv onesec_*, h100-ldsm5.csv dupsec_*: the H100 costs less, or one more),
 * and destinations written twice (32 lanes on one destination cost 1 in all, across passes). */
static int cg_in_class(const struct smem_cp_async_request *req, unsigned lanes)
{
    for (unsigned l = 0; l < SMEM_WARP; l++) {
        if (!(req->active >> l & 1u))
            continue;
        for (unsigned k = l + 1; k < SMEM_WARP; k++) {
            if (!(req->active >> k & 1u))
                continue;
            int same_pass = l / lanes == k / lanes;
            if (same_pass && req->src[k] == req->src[l])
                return 0;
            if (req->dst[k] == req->dst[l]) {
                if (!same_pass || req->src[k] / 32 != req->src[l] / 32)
                    return 0;
                for (unsigned t = 0; t < SMEM_WARP; t++) /* a third lane on that destination */
                    if (t != l && t != k && (req->active >> t & 1u) && req->dst[t] == req->dst[l])
                        return 0;
            }
        }
    }
    return 1;
}

/* One pass of lanes (mask): its wavefronts; *ways: the worst bank of either side. */
static unsigned cp_pass(const struct smem_banks *b, const struct smem_cp_async_request *req, uint32_t mask,
                        unsigned *ways)
{
    if (!req->bypass) {
        unsigned w = worst_bank(b, req->dst, mask, req->size, 0); /* copies are never merged */
        uint32_t low[SMEM_WARP];
        for (unsigned l = 0; l < SMEM_WARP; l++) /* bank and word identity: the low 32 bits suffice */
            low[l] = (uint32_t)req->src[l];
        unsigned r = worst_bank(b, low, mask, req->size, 1);
        *ways = w > r ? w : r;
        return ca_hub(b, req, mask, 1);
    }
    /* the destinations' worst bank, each destination once (the H100 merges them) */
    uint32_t keep = one_per_destination(req, mask);
    unsigned w = worst_bank(b, req->dst, keep, req->size, 1), g = cg_keys(req, mask);
    *ways = w;
    return w > g ? w : g;
}

static unsigned pass_lanes(const struct smem_banks *b, unsigned size)
{
    unsigned passes = size > b->bytes ? size / b->bytes : 1;
    return passes >= SMEM_WARP ? 1 : SMEM_WARP / passes;
}

struct smem_cost smem_cp_async_cost(const struct smem_banks *b, const struct smem_cp_async_request *req)
{
    struct smem_cost cost = {0, 0, 0, 0};
    unsigned lanes = pass_lanes(b, req->size);
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pm = (lmask << p0) & req->active;
        if (!pm)
            continue;
        unsigned ways;
        cost.wavefronts += cp_pass(b, req, pm, &ways);
        cost.ideal++;
        cost.groups++;
        if (ways > cost.max_ways)
            cost.max_ways = ways;
    }
    return cost;
}

int smem_cp_async_established(const struct smem_cp_async_request *req)
{
    struct smem_banks b = smem_banks_default();
    unsigned lanes = pass_lanes(&b, req->size);
    if (req->bypass)
        return cg_in_class(req, lanes);
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pm = (lmask << p0) & req->active;
        if (pm && ca_hub(&b, req, pm, 1) != ca_hub(&b, req, pm, 0))
            return 0; /* a shared source word changes the cost: counted per copy, fitted, not held out */
    }
    return 1;
}
