/* hazards.c: placeholder tracker (finds nothing) until the hazards module lands. */
#include "smemlab/hazards.h"

#include <stdlib.h>

struct smem_hazard_tracker {
    int unused;
};

struct smem_hazard_tracker *smem_hazards_new(const struct smem_cta_program *p,
                                             const struct smem_launch *l)
{
    (void)p;
    (void)l;
    return calloc(1, sizeof(struct smem_hazard_tracker));
}
void smem_hazards_access(struct smem_hazard_tracker *t, const struct smem_access *a)
{
    (void)t;
    (void)a;
}
void smem_hazards_barrier(struct smem_hazard_tracker *t, const struct smem_cta_barrier *b)
{
    (void)t;
    (void)b;
}
unsigned smem_hazards_count(const struct smem_hazard_tracker *t)
{
    (void)t;
    return 0;
}
const struct smem_hazard *smem_hazards_get(const struct smem_hazard_tracker *t, unsigned i)
{
    (void)t;
    (void)i;
    return NULL;
}
void smem_hazards_free(struct smem_hazard_tracker *t) { free(t); }
const char *smem_hazard_kind_name(enum smem_hazard_kind k)
{
    return k == SMEM_HAZARD_RACE ? "race" : k == SMEM_HAZARD_BARRIER ? "barrier" : "oob";
}
