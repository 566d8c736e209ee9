/* ci_baseline.c: regressions against a baseline report, matched by place (kernel, file, line)
 * and kind. A site whose line moved reads as new: the baseline is refreshed with the code. */
#include "smemlab/report/ci_baseline.h"

#include <string.h>

static int same_place(const struct smem_finding *a, const struct smem_finding *b)
{
    return a->kind == b->kind && a->line == b->line && !strcmp(a->rule, b->rule) &&
           !strcmp(a->kernel, b->kernel) && !strcmp(a->file, b->file) &&
           !strcmp(a->detail, b->detail) &&
           (a->kind != SMEM_FINDING_HAZARD || a->line2 == b->line2);
}

static const struct smem_finding *find(const struct smem_findings *in, const struct smem_finding *x)
{
    for (unsigned i = 0; i < in->n; i++)
        if (same_place(&in->v[i], x))
            return &in->v[i];
    return NULL;
}

unsigned smem_baseline_compare(const struct smem_findings *was, const struct smem_findings *now,
                               FILE *say)
{
    unsigned worse = 0;
    for (unsigned i = 0; i < now->n; i++) {
        const struct smem_finding *x = &now->v[i];
        const struct smem_finding *b = find(was, x);
        const char *file = x->file[0] ? x->file : "?";
        if (x->kind == SMEM_FINDING_CONFLICT) {
            double p = smem_finding_per_request(x);
            /* the same per-request cost up to rounding of the counts' ratio */
            if (b && p <= smem_finding_per_request(b) * (1 + 1e-9))
                continue;
            worse++;
            if (!say)
                continue;
            if (b)
                fprintf(say, "%s:%u: worse than the baseline: %s: shared %s: %.2f wavefronts per "
                             "request, was %.2f\n",
                        file, x->line, x->kernel, x->detail, p, smem_finding_per_request(b));
            else
                fprintf(say, "%s:%u: a bank conflict the baseline does not have: %s\n", file,
                        x->line, x->message);
            continue;
        }
        if (b)
            continue;
        worse++;
        if (say)
            fprintf(say, "%s:%u: a %s the baseline does not have: %s\n", file, x->line,
                    x->kind == SMEM_FINDING_HAZARD    ? "hazard"
                    : x->kind == SMEM_FINDING_SANITIZER ? "sanitizer finding"
                                                        : "memory error",
                    x->message);
    }
    return worse;
}
