/* rand_pseudo.c: the draws a pseudo generator's states give for a range of output units (rand.h):
 * unit e from state e % states; a state's first unit in a call starts e / states draws into its
 * subsequence (e / states counters for Philox), its next units per_unit draws apart. The
 * states at position 0 are made once per seed (curand_init(seed, t, 0)) and skipped ahead per
 * call. */
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
    if (g->base && g->base_seed == g->seed && g->base_states == g->states)
        return 0;
    free(g->base);
    size_t sz = state_size(g->type);
    g->base = malloc(sz * g->states);
    if (!g->base)
        return -1;
    g->base_seed = g->seed;
    g->base_states = g->states;
    for (uint32_t t = 0; t < g->states; t++) {
        void *p = (char *)g->base + sz * t;
        switch (g->type) {
        case 121: mrg_init(p, g->seed, t, 0); break;
        case 161: philox_init(p, g->seed, t, 0); break;
        default: xorwow_init(p, g->seed, t, 0); break;
        }
    }
    return 0;
}

int rand_pseudo_draws(struct rand_pseudo *g, uint64_t first, uint64_t units, unsigned per_unit,
                      uint32_t *draws)
{
    if (!units)
        return 0;
    if (bases(g))
        return -1;
    size_t sz = state_size(g->type);
    uint64_t S = g->states;
    /* each state's units in this call: e = first + k with e % S == t */
    for (uint64_t t = 0; t < S && t < units; t++) {
        uint64_t e0 = first + t; /* the call's units that state (first + t) % S makes */
        uint32_t st = (uint32_t)(e0 % S);
        /* the units before this call took one draw each of their state (XORWOW, MRG32k3a:
           whatever their kind); a Philox unit is one counter */
        uint64_t pos = (e0 / S) * (g->type == 161 ? per_unit : 1);
        union { struct xorwow x; struct mrg m; struct philox p; } s;
        memcpy(&s, (char *)g->base + sz * st, sz);
        switch (g->type) {
        case 121: mrg_skip(&s.m, pos); break;
        case 161: philox_init(&s.p, g->seed, st, pos); break;
        default: xorwow_skip(&s.x, pos); break;
        }
        for (uint64_t k = t; k < units; k += S)
            for (unsigned j = 0; j < per_unit; j++) {
                uint32_t v;
                switch (g->type) {
                case 121: v = mrg_step(&s.m); break; /* the combined value: rt_curand.c forms it */
                case 161: v = philox_next(&s.p); break;
                default: v = xorwow_next(&s.x); break;
                }
                draws[k * per_unit + j] = v;
            }
    }
    return 0;
}

void rand_pseudo_free(struct rand_pseudo *g)
{
    free(g->base);
    g->base = NULL;
}
