/* matrix.c: the shared-memory cost of ldmatrix, stmatrix (one pass per 8x8 matrix) and cp.async
 * (LDGSTS: store passes, copies never merged, the sources read from banks or lines). See docs/bank-model.md and
 * tests/hw/ldsm/ for the H100 measurements each rule comes from. */
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

/* 1 when the lanes in mask all read one 32-byte global sector, no two of them the same bytes (so
 * at most its two 16-byte halves: the measured class; eight lanes on one sector cost less than
 * one wavefront per shared sector, by no rule found: h100-ldsm4.csv) */
static int one_sector(const uint64_t *src, uint32_t mask)
{
    uint64_t first = src[__builtin_ctz(mask)] / 32;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        if (src[l] / 32 != first)
            return 0;
        for (uint32_t n = m & (m - 1); n; n &= n - 1)
            if (src[__builtin_ctz(n)] == src[l])
                return 0;
    }
    return 1;
}

/* Distinct aligned 32-byte shared sectors among the destinations of the lanes in mask. */
static unsigned dst_sectors(const uint32_t *dst, uint32_t mask)
{
    uint32_t sec[SMEM_WARP];
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        uint32_t v = dst[__builtin_ctz(m)] / 32;
        unsigned i;
        for (i = 0; i < n && sec[i] != v; i++)
            ;
        if (i == n)
            sec[n++] = v;
    }
    return n;
}

/* 1 when the 32-byte sectors (addr / 32) of the lanes in mask form one contiguous run */
static int contiguous(const uint64_t *addr64, const uint32_t *addr32, uint32_t mask)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    unsigned n = 0;
    uint64_t seen[SMEM_WARP];
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint64_t v = (addr64 ? addr64[l] : addr32[l]) / 32;
        unsigned i;
        for (i = 0; i < n && seen[i] != v; i++)
            ;
        if (i == n)
            seen[n++] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    return n && hi - lo + 1 == n;
}

/* The .cg pass's line groups: its lanes grouped by (128-byte global line, 128-byte shared line).
 * A group costs one wavefront when the sectors it reads are contiguous and so are those it
 * writes, in any order (reversed, swizzled, shifted: 1); otherwise one per shared sector it
 * writes (sectors 1 and 3 of a line to shared sectors 0 and 1: 2, h100-ldsm4.csv whole_18). */
static unsigned line_groups(const uint32_t *dst, const uint64_t *src, uint32_t mask)
{
    unsigned total = 0;
    uint32_t left = mask;
    while (left) {
        unsigned l0 = (unsigned)__builtin_ctz(left);
        uint64_t sl = src[l0] / 128;
        uint32_t dl = dst[l0] / 128, grp = 0;
        for (uint32_t m = left; m; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if (src[l] / 128 == sl && dst[l] / 128 == dl)
                grp |= 1u << l;
        }
        left &= ~grp;
        total += contiguous(src, NULL, grp) && contiguous(NULL, dst, grp) ? 1 : dst_sectors(dst, grp);
    }
    return total;
}

/* 1 when the .cg pass (mask) is in the "one sector per global line" class: every 128-byte global
 * line it reads is read in one 32-byte sector only (by one lane, or two on its two halves), and no
 * destination is written twice. Such a pass costs its distinct (global sector, shared sector)
 * pairs: exact on all 234 such rows of tests/hw/h100-ldsm{,2,3,4,5}.csv, 40 of them held out
 * (h100-ldsm5.csv oneper_*, predicted by gen_patterns5.py before the run). */
static int one_sector_per_line(const uint32_t *dst, const uint64_t *src, uint32_t mask)
{
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        for (uint32_t n = m & (m - 1); n; n &= n - 1) {
            unsigned k = (unsigned)__builtin_ctz(n);
            if (dst[k] == dst[l] || src[k] == src[l])
                return 0;
            if (src[k] / 128 == src[l] / 128 && src[k] / 32 != src[l] / 32)
                return 0;
        }
    }
    return 1;
}

/* Distinct (32-byte global sector, 32-byte shared sector) pairs among the lanes in mask. */
static unsigned sector_pairs(const uint32_t *dst, const uint64_t *src, uint32_t mask)
{
    uint64_t gs[SMEM_WARP];
    uint32_t ss[SMEM_WARP];
    unsigned n = 0;
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m), i;
        for (i = 0; i < n && !(gs[i] == src[l] / 32 && ss[i] == dst[l] / 32); i++)
            ;
        if (i == n) {
            gs[n] = src[l] / 32;
            ss[n++] = dst[l] / 32;
        }
    }
    return n;
}

/* The sources' worst bank (distinct words) as if they were read from 32 x 4-byte banks: the L1
 * data array that .ca copies read their lines from. */
static unsigned src_banks(const struct smem_banks *b, const uint64_t *src, uint32_t mask, unsigned size)
{
    uint32_t low[SMEM_WARP];
    for (unsigned l = 0; l < SMEM_WARP; l++) /* bank and word identity: the low 32 bits suffice for a 4 GB window */
        low[l] = (uint32_t)src[l];
    return worst_bank(b, low, mask, size, 1);
}

/* One pass of lanes (mask): its wavefronts, and whether the measurements establish them. */
static unsigned cp_pass(const struct smem_banks *b, const struct smem_cp_async_request *req, uint32_t mask,
                        unsigned *ways, int *established)
{
    unsigned w = worst_bank(b, req->dst, mask, req->size, 0); /* copies are never merged */
    *ways = w;
    if (!req->bypass) {
        unsigned r = src_banks(b, req->src, mask, req->size);
        if (w > 1 && r > 1)
            *established = 0; /* both sides conflict: the H100 costs more than either (measured) */
        if (r > *ways)
            *ways = r;
        return w > r ? w : r;
    }
    if (one_sector(req->src, mask)) {
        /* the pass reads the halves of one 32-byte global sector: one wavefront per aligned
           32-byte shared sector it writes (h100-ldsm3.csv: all 144 placements of the two halves;
           both on one destination: 1) */
        *ways = w;
        return dst_sectors(req->dst, mask);
    }
    if (one_sector_per_line(req->dst, req->src, mask))
        return sector_pairs(req->dst, req->src, mask); /* never below w: lanes on one bank write distinct shared sectors */
    unsigned g = line_groups(req->dst, req->src, mask);
    return w > g ? w : g;
}

struct smem_cost smem_cp_async_cost(const struct smem_banks *b, const struct smem_cp_async_request *req)
{
    struct smem_cost cost = {0, 0, 0, 0};
    unsigned passes = req->size > b->bytes ? req->size / b->bytes : 1;
    unsigned lanes = passes >= SMEM_WARP ? 1 : SMEM_WARP / passes;
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pm = (lmask << p0) & req->active;
        if (!pm)
            continue;
        unsigned ways;
        int est = 1;
        cost.wavefronts += cp_pass(b, req, pm, &ways, &est);
        cost.ideal++;
        cost.groups++;
        if (ways > cost.max_ways)
            cost.max_ways = ways;
    }
    return cost;
}

int smem_cp_async_established(const struct smem_cp_async_request *req)
{
    if (!req->bypass) {
        struct smem_banks b = smem_banks_default();
        unsigned lanes = SMEM_WARP / (req->size / 4 ? req->size / 4 : 1);
        uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
        for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
            uint32_t pm = (lmask << p0) & req->active;
            unsigned ways;
            int est = 1;
            if (pm)
                cp_pass(&b, req, pm, &ways, &est);
            if (!est)
                return 0;
        }
        return 1;
    }
    /* .cg: every pass reads the two halves of one global sector (one wavefront per shared sector
     * they write) or reads one sector per global line (distinct (global, shared) sector pairs); or
     * no two lanes on one destination (the H100 merges those), and the lanes whose sources share a
     * 32-byte global sector write inside one aligned 32-byte shared sector */
    unsigned lanes = SMEM_WARP / (req->size / 4 ? req->size / 4 : 1), single = 1;
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pm = (lmask << p0) & req->active;
        if (pm && !one_sector(req->src, pm) && !one_sector_per_line(req->dst, req->src, pm))
            single = 0;
    }
    if (single)
        return 1;
    for (unsigned l = 0; l < SMEM_WARP; l++) {
        if (!(req->active >> l & 1u))
            continue;
        for (unsigned k = l + 1; k < SMEM_WARP; k++)
            if ((req->active >> k & 1u) &&
                (req->dst[k] == req->dst[l] ||
                 (req->src[k] / 32 == req->src[l] / 32 && req->dst[k] / 32 != req->dst[l] / 32)))
                return 0;
    }
    return 1;
}
