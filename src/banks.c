/* banks.c: the bank model. One warp request in, its wavefronts out; see docs/bank-model.md for
 * the H100 measurements every rule here is derived from. */
#include "smemlab/banks.h"

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

/* Words (bank-width units) lane l's access touches: [first, first + n). */
static void lane_words(const struct smem_banks *b, uint32_t addr, unsigned width, uint32_t *first,
                       unsigned *n)
{
    uint32_t lo = addr / b->bytes, hi = (uint32_t)(((uint64_t)addr + width - 1) / b->bytes);
    *first = lo;
    *n = hi - lo + 1;
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
        /* Distinct words per bank; a bank never holds more than one word per lane because an
         * aligned access spans at most count consecutive words. */
        uint32_t words[SMEM_MAX_BANKS][SMEM_WARP];
        unsigned nw[SMEM_MAX_BANKS];
        uint32_t addrs[SMEM_WARP];
        unsigned naddr = 0, worst = 0;
        memset(nw, 0, sizeof nw);
        for (unsigned l = g0; l < g0 + glanes && l < SMEM_WARP; l++) {
            if (!(gmask >> l & 1u))
                continue;
            uint32_t a = req->addr[l], first;
            unsigned n, k, i;
            for (i = 0; i < naddr && addrs[i] != a; i++)
                ;
            if (i < naddr)
                continue; /* same element as another lane: broadcast, nothing new */
            addrs[naddr++] = a;
            lane_words(b, a, req->width, &first, &n);
            for (k = 0; k < n; k++) {
                uint32_t w = first + k;
                unsigned bank = w % b->count;
                for (i = 0; i < nw[bank] && words[bank][i] != w; i++)
                    ;
                if (i == nw[bank] && nw[bank] < SMEM_WARP) {
                    words[bank][nw[bank]++] = w;
                    if (nw[bank] > worst)
                        worst = nw[bank];
                }
            }
        }
        /* Distinct bytes: naturally aligned same-width accesses either coincide or are disjoint. */
        uint64_t bytes = (uint64_t)naddr * req->width;
        unsigned ideal = (unsigned)((bytes + pass_bytes - 1) / pass_bytes);
        cost.wavefronts += worst;
        cost.ideal += ideal ? ideal : 1;
        if (worst > cost.max_ways)
            cost.max_ways = worst;
        cost.groups++;
    }
    return cost;
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
