/* banks.c: the bank model. One warp request in, its wavefronts out; see docs/bank-model.md for
 * the H100 measurements every rule here is derived from. */
#include "smemlab/model/banks.h"

#include <string.h>

struct smem_banks smem_banks_default(void)
{
    struct smem_banks b = {32, 4};
    return b;
}

static int is_pow2(unsigned v) { return v && !(v & (v - 1)); }

const char *smem_banks_check(const struct smem_banks *banks)
{
    if (!banks->count || banks->count > SMEM_MAX_BANKS)
        return "bank count must be between 1 and 64";
    if (!is_pow2(banks->bytes) || banks->bytes > 16)
        return "bank width must be 1, 2, 4, 8 or 16 bytes";
    if (banks->count * banks->bytes < 16)
        return "banks x bank width must be at least 16 bytes (one 16-byte access)";
    return NULL;
}

const char *smem_request_check(const struct smem_banks *banks, const struct smem_request *req)
{
    const char *why = smem_banks_check(banks);
    if (why)
        return why;
    if (!is_pow2(req->width) || req->width > 16)
        return "access width must be 1, 2, 4, 8 or 16 bytes";
    for (unsigned l = 0; l < SMEM_WARP; l++)
        if ((req->active >> l & 1u) && req->addr[l] % req->width)
            return "an active lane's address is not a multiple of the access width";
    return NULL;
}

unsigned smem_group_lanes(const struct smem_banks *banks, unsigned width)
{
    unsigned per_group = 2u * banks->count * banks->bytes / (width ? width : 1);
    return per_group >= SMEM_WARP ? SMEM_WARP : (per_group ? per_group : 1);
}

/* The largest number of distinct words any bank must deliver for the lanes in mask, and the
 * number of distinct words. */
static unsigned worst_bank(const struct smem_banks *b, const struct smem_request *req, uint32_t mask,
                           unsigned *distinct)
{
    uint32_t words[SMEM_MAX_BANKS][SMEM_WARP];
    unsigned nw[SMEM_MAX_BANKS];
    unsigned worst = 0, nd = 0, shift = 0;
    unsigned wpl = req->width > b->bytes ? req->width / b->bytes : 1; /* words per lane */
    int pow2 = !(b->count & (b->count - 1));
    while ((1u << shift) < b->bytes)
        shift++;
    memset(nw, 0, b->count * sizeof nw[0]);
    for (uint32_t m = mask; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t first = req->addr[l] >> shift;
        for (unsigned k = 0; k < wpl; k++) {
            uint32_t w = first + k;
            unsigned bank = pow2 ? (w & (b->count - 1)) : w % b->count, i, n = nw[bank];
            for (i = 0; i < n && words[bank][i] != w; i++)
                ;
            if (i == n && n < SMEM_WARP) {
                words[bank][n] = w;
                nw[bank] = ++n;
                nd++;
                if (n > worst)
                    worst = n;
            }
        }
    }
    *distinct = nd;
    return worst;
}

/* A pass group is served in one wavefront when no bank holds two of its words; otherwise the
 * hardware splits it into halves of one wavefront's worth of bytes each (128 on 32 x 4 banks),
 * and each half costs its worst bank. */
static unsigned group_cost(const struct smem_banks *b, const struct smem_request *req,
                           unsigned g0, unsigned glanes, unsigned *distinct, unsigned *ways)
{
    uint32_t gmask = (glanes >= 32 ? 0xffffffffu : ((1u << glanes) - 1u) << g0) & req->active;
    unsigned worst = worst_bank(b, req, gmask, distinct);
    *ways = worst;
    unsigned sub = b->count * b->bytes / req->width; /* lanes in one wavefront's worth of bytes */
    if (worst <= 1 || sub >= glanes || !sub)
        return worst;
    unsigned total = 0, nd, w;
    *ways = 0;
    for (unsigned s0 = g0; s0 < g0 + glanes; s0 += sub) {
        uint32_t smask = (((sub >= 32 ? 0xffffffffu : (1u << sub) - 1u)) << s0) & req->active;
        if (!smask)
            continue;
        w = worst_bank(b, req, smask, &nd);
        total += w;
        if (w > *ways)
            *ways = w;
    }
    return total;
}

struct smem_cost smem_request_cost(const struct smem_banks *b, const struct smem_request *req)
{
    struct smem_cost cost = {0, 0, 0, 0};
    unsigned glanes = smem_group_lanes(b, req->width);
    unsigned pass_bytes = b->count * b->bytes;
    for (unsigned g0 = 0; g0 < SMEM_WARP; g0 += glanes) {
        uint32_t gmask = (glanes >= 32 ? 0xffffffffu : ((1u << glanes) - 1u) << g0) & req->active;
        if (!gmask)
            continue;
        unsigned distinct, ways;
        unsigned wf = group_cost(b, req, g0, glanes, &distinct, &ways);
        /* Ideal passes from the distinct bytes: with accesses at least a bank word wide the
         * distinct words are the distinct bytes / bank width (aligned elements never overlap);
         * narrower ones never ask for more than one pass of bytes. */
        uint64_t bytes = req->width >= b->bytes ? (uint64_t)distinct * b->bytes : 1;
        unsigned ideal = (unsigned)((bytes + pass_bytes - 1) / pass_bytes);
        cost.wavefronts += wf;
        cost.ideal += ideal ? ideal : 1;
        if (ways > cost.max_ways)
            cost.max_ways = ways;
        cost.groups++;
    }
    return cost;
}

/* Words (bank-width units) lane l's access touches: [first, first + n). */
static void lane_words(const struct smem_banks *b, uint32_t addr, unsigned width, uint32_t *first,
                       unsigned *n)
{
    uint32_t lo = addr / b->bytes, hi = (uint32_t)(((uint64_t)addr + width - 1) / b->bytes);
    *first = lo;
    *n = hi - lo + 1;
}

void smem_request_map(const struct smem_banks *b, const struct smem_request *req,
                      struct smem_bank_map *map)
{
    memset(map, 0, sizeof *map);
    map->count = b->count;
    for (unsigned l = 0; l < SMEM_WARP; l++) {
        if (!(req->active >> l & 1u))
            continue;
        uint32_t first;
        unsigned n;
        lane_words(b, req->addr[l], req->width, &first, &n);
        for (unsigned k = 0; k < n; k++) {
            uint32_t w = first + k;
            unsigned bank = w % b->count, i;
            for (i = 0; i < map->nwords[bank] && map->slot[bank][i].word != w; i++)
                ;
            if (i == map->nwords[bank]) {
                if (i == SMEM_WARP)
                    continue;
                map->slot[bank][i].word = w;
                map->nwords[bank]++;
            }
            map->slot[bank][i].lanes |= 1u << l;
        }
    }
}
