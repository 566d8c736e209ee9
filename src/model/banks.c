/* banks.c: the bank model. One warp request in, its wavefronts out; see docs/bank-model.md for
 * the H100 measurements every rule here is derived from. */
#include "smemlab/model/banks.h"

#include <assert.h>
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
        if ((req->active >> l & 1u) && (req->addr[l] & (req->width - 1u)))
            return "an active lane's address is not a multiple of the access width";
    return NULL;
}

int smem_word_request_cost(const struct smem_banks *b, const struct smem_request *req,
                           struct smem_cost *cost)
{
    if (b->count != 32 || b->bytes != 4 || !req->width || req->width > 4 ||
        (req->width & (req->width - 1u)) || !req->active)
        return 0;
    /* one pass of 32 lanes (pipe_cost): the most distinct words one bank must deliver; a bank's
       first word is kept apart, a list made only for a bank asked for a second one */
    uint32_t seen = 0, first[32], more[32][SMEM_WARP];
    unsigned nmore[32], worst = 1;
    for (uint32_t m = req->active; m; m &= m - 1) {
        unsigned l = (unsigned)__builtin_ctz(m);
        uint32_t a = req->addr[l], w = a >> 2, bank = w & 31u;
        if (a & (req->width - 1u))
            return 0;
        if (!(seen >> bank & 1u)) {
            seen |= 1u << bank;
            first[bank] = w;
            nmore[bank] = 0;
            continue;
        }
        if (first[bank] == w)
            continue;
        unsigned i, n = nmore[bank];
        for (i = 0; i < n && more[bank][i] != w; i++)
            ;
        if (i == n) {
            more[bank][n] = w;
            nmore[bank] = ++n;
            if (n + 1 > worst)
                worst = n + 1;
        }
    }
    assert(worst <= SMEM_WARP);
    cost->wavefronts = cost->max_ways = worst;
    cost->ideal = cost->groups = 1;
    cost->pipe_delta = 0;
    return 1;
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
    assert(b->count >= 1 && b->count <= SMEM_MAX_BANKS); /* smem_banks_check before pricing */
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

/* A load whose lanes share elements in pairs, lane l with lane l^1 or lane l^2 over the whole
 * warp (an inactive partner never breaks a pair), is served with half the passes: two lanes share
 * one slot of the wavefront's 32 four-byte slots. No other sharing saves a pass (h100-wide.csv). */
static int paired(const struct smem_request *req)
{
    for (unsigned x = 1; x <= 2; x++) {
        int ok = 1;
        for (unsigned l = 0; l < SMEM_WARP && ok; l++)
            if ((req->active >> l & 1u) && (req->active >> (l ^ x) & 1u) &&
                req->addr[l ^ x] != req->addr[l])
                ok = 0;
        if (ok)
            return 1;
    }
    return 0;
}

unsigned smem_pass_lanes(const struct smem_banks *b, const struct smem_request *req)
{
    unsigned words = req->width > b->bytes ? req->width / b->bytes : 1; /* bank words per lane */
    unsigned passes = words;
    if (words > 1 && req->op == SMEM_LD && paired(req))
        passes = words / 2;
    return passes >= SMEM_WARP ? 1 : SMEM_WARP / passes;
}

/* The rule (docs/bank-model.md): a request is cut into passes of consecutive lanes, one pass per
 * bank word a lane asks for (32 lanes for 4 bytes and less, 16 + 16 for 8 bytes, 8 lanes x 4 for
 * 16 bytes), halved for a paired load; each pass with an active lane costs the largest number of
 * distinct words any one bank must deliver for it. Ideal: one wavefront per non-empty pass, so
 * that wavefronts - ideal is the H100's bank-conflict counter. This is the LSU pipeline's count
 * (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st). */
static struct smem_cost pipe_cost(const struct smem_banks *b, const struct smem_request *req)
{
    struct smem_cost cost = {0, 0, 0, 0, 0};
    unsigned lanes = smem_pass_lanes(b, req);
    uint32_t lmask = lanes >= 32 ? 0xffffffffu : (1u << lanes) - 1u;
    for (unsigned p0 = 0; p0 < SMEM_WARP; p0 += lanes) {
        uint32_t pmask = (lmask << p0) & req->active;
        if (!pmask)
            continue;
        unsigned distinct;
        unsigned ways = worst_bank(b, req, pmask, &distinct);
        assert(ways >= 1); /* a pass with an active lane costs a wavefront at least */
        cost.wavefronts += ways;
        cost.ideal++;
        if (ways > cost.max_ways)
            cost.max_ways = ways;
        cost.groups++;
    }
    return cost;
}

/* The lanes of mask pair up (l with l^1, or l with l^2, an inactive partner never breaking a
 * pair), judged within mask alone. */
static int paired_in(const struct smem_request *req, uint32_t mask)
{
    for (unsigned x = 1; x <= 2; x++) {
        int ok = 1;
        for (uint32_t m = mask; m && ok; m &= m - 1) {
            unsigned l = (unsigned)__builtin_ctz(m);
            if ((mask >> (l ^ x) & 1u) && req->addr[l ^ x] != req->addr[l])
                ok = 0;
        }
        if (ok)
            return 1;
    }
    return 0;
}

/* Nsight Compute's per-instruction count of an 8- or 16-byte load on 32 x 4-byte banks
 * (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld, the figure its source view and
 * every per-launch comparison of ours use; docs/bank-model.md "Two wavefront counters"): the
 * pairing is judged within each group of 32 (8 bytes) or 16 (16 bytes) lanes, and a paired
 * group is served in one wavefront only where that wavefront has no conflict; otherwise the
 * group is priced as its unpaired passes (16 or 8 lanes each) and added. Exact on every 8-byte
 * load measured (h100-wide: 187, h100-ld64b: 24, h100-ld64: 7) and on 184 of 197 16-byte ones
 * (the 13 others partial warps, listed in the doc). */
static unsigned sass_wavefronts(const struct smem_banks *b, const struct smem_request *req)
{
    unsigned words = req->width / b->bytes;  /* 2 or 4 */
    unsigned glanes = 2 * SMEM_WARP / words; /* 32 or 16 */
    unsigned plane = SMEM_WARP / words;      /* 16 or 8 */
    assert(words == 2 || words == 4);
    uint32_t gmask = glanes >= 32 ? 0xffffffffu : (1u << glanes) - 1u;
    uint32_t pmask = (1u << plane) - 1u;
    unsigned total = 0, distinct;
    for (unsigned g0 = 0; g0 < SMEM_WARP; g0 += glanes) {
        uint32_t g = (gmask << g0) & req->active;
        if (!g)
            continue;
        if (paired_in(req, g) && worst_bank(b, req, g, &distinct) <= 1) {
            total += 1;
            continue;
        }
        for (unsigned p0 = g0; p0 < g0 + glanes; p0 += plane) {
            uint32_t p = (pmask << p0) & req->active;
            if (p)
                total += worst_bank(b, req, p, &distinct);
        }
    }
    return total;
}

/* wavefronts: Nsight Compute's per-instruction count; for the 8- and 16-byte loads whose two
 * counters differ (paired lanes with a conflict, partial warps), the pipeline's passes stay
 * in smem_request_pipe_wavefronts, and ideal / max_ways / groups are the pipeline's. */
struct smem_cost smem_request_cost(const struct smem_banks *b, const struct smem_request *req)
{
    struct smem_cost cost = pipe_cost(b, req);
    if (req->op == SMEM_LD && b->count == 32 && b->bytes == 4 && (req->width == 8 || req->width == 16) &&
        req->active)
    {
        unsigned sass = sass_wavefronts(b, req);
        cost.pipe_delta = (int)cost.wavefronts - (int)sass;
        cost.wavefronts = sass;
    }
    return cost;
}

unsigned smem_request_pipe_wavefronts(const struct smem_banks *b, const struct smem_request *req)
{
    return pipe_cost(b, req).wavefronts;
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
