/* rand_pseudo.c: the draws a pseudo generator's states give for a range of output units (rand.h).
 * XORWOW and MRG32k3a keep their states between calls, as the library keeps them in device
 * memory: unit e is made by state e % states, which consumes per_unit draws for it; states are
 * (re)made from the generator's offset when the seed, the offset or the ordering was set (state t
 * then stands one draw past each earlier unit of its). Philox is counter-based: the first unit e
 * of a call starts at counter e / states of subsequence e % states (each earlier unit one
 * counter, as for the states above), the state's next units per_unit draws on. The states at position 0 are made once per seed
 * (curand_init(seed, t, 0)). */
#include "rand.h"

#include <stdlib.h>
#include <string.h>

static size_t state_size(int type)
{
    switch (type) {
    case 121: return sizeof(struct mrg);
    case 161: return sizeof(struct philox);
    default: return sizeof(struct xorwow);
    }
}

static int bases(struct rand_pseudo *g)
{
    if (g->base && g->base_seed == g->seed && g->base_states == g->states &&
        g->base_seeded == g->seeded)
        return 0;
    free(g->base);
    free(g->live);
    g->live = NULL;
    g->live_ok = 0;
    size_t sz = state_size(g->type);
    g->base = malloc(sz * g->states);
    if (!g->base)
        return -1;
    g->base_seed = g->seed;
    g->base_states = g->states;
    g->base_seeded = g->seeded;
    for (uint32_t t = 0; t < g->states; t++) {
        void *p = (char *)g->base + sz * t;
        switch (g->type) {
        case 121: mrg_init(p, g->seed, t, 0); break;
        case 161: philox_init(p, g->seed, t, 0); break;
        default: /* the seeded ordering's seeds: measured (tests/hw/curand/README.md) */
            if (g->seeded)
                xorwow_init(p, g->seed + 3133713ull * t, 0, 0);
            else
                xorwow_init(p, g->seed, t, 0);
            break;
        }
    }
    return 0;
}

static int philox_draws(struct rand_pseudo *g, uint64_t first, uint64_t units, unsigned per_unit,
                        uint32_t *draws)
{
    uint64_t S = g->states;
    for (uint64_t t = 0; t < S && t < units; t++) {
        uint64_t e0 = first + t;
        struct philox s;
        philox_init(&s, g->seed, e0 % S, (e0 / S) * 4); /* an earlier unit: one counter */
        for (uint64_t k = t; k < units; k += S)
            for (unsigned j = 0; j < per_unit; j++)
                draws[k * per_unit + j] = philox_next(&s);
    }
    return 0;
}

int rand_pseudo_draws(struct rand_pseudo *g, uint64_t first, uint64_t units, unsigned per_unit,
                      uint32_t *draws)
{
    if (!units)
        return 0;
    if (g->type == 161)
        return philox_draws(g, first, units, per_unit, draws);
    if (bases(g))
        return -1;
    size_t sz = state_size(g->type);
    uint64_t S = g->states;
    if (!g->live_ok || g->live_next != first) { /* states made at the offset */
        if (!g->live && !(g->live = malloc(sz * S)))
            return -1;
        memcpy(g->live, g->base, sz * S);
        for (uint64_t t = 0; t < S; t++) {
            uint64_t before = first / S + (t < first % S); /* earlier units of state t */
            void *p = (char *)g->live + sz * t;
            if (g->type == 121)
                mrg_skip(p, before);
            else
                xorwow_skip(p, before);
        }
        g->live_ok = 1;
    }
    for (uint64_t k = 0; k < units; k++) {
        void *p = (char *)g->live + sz * ((first + k) % S);
        for (unsigned j = 0; j < per_unit; j++) /* MRG32k3a: the combined value, formed by the caller */
            draws[k * per_unit + j] = g->type == 121 ? mrg_step(p) : xorwow_next(p);
    }
    g->live_next = first + units;
    return 0;
}

void rand_pseudo_reset(struct rand_pseudo *g)
{
    g->live_ok = 0;
}

void rand_pseudo_free(struct rand_pseudo *g)
{
    free(g->base);
    free(g->live);
    g->base = g->live = NULL;
    g->live_ok = 0;
}
