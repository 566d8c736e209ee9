/* ci_findings.h: what a CI shows of a report, read from its JSON contract (analyze's or run's):
 * each conflicting site, each hazard, each memory error and (run) each sanitizer finding of the
 * host side (a runtime call that returned an error, a leak), at its file:line, with a rule and a
 * sentence. The SARIF, JUnit and Markdown writers and the baseline all start here. */
#ifndef SMEMLAB_REPORT_CI_FINDINGS_H
#define SMEMLAB_REPORT_CI_FINDINGS_H

#include "smemlab/base/error.h"
#include "smemlab/report/json_read.h"

enum smem_finding_kind { SMEM_FINDING_CONFLICT, SMEM_FINDING_HAZARD, SMEM_FINDING_MEMORY,
                         SMEM_FINDING_SANITIZER /* run's "sanitizer" array: api errors, leaks */ };
#define SMEM_FINDING_KINDS 4

struct smem_finding {
    enum smem_finding_kind kind;
    const char *rule;          /* a static rule id: bank-conflict, race, barrier-divergence,
                                  shared-out-of-bounds, memory-error, layout,
                                  uninitialized (a read of device memory never written),
                                  api-error, leak */
    char kernel[256];          /* a sanitizer finding: the runtime call ("cudaFree") */
    char detail[64];           /* a hazard's detail (read-write, ...), a memory error's kind,
                                  a conflict's op (ld, st, ...), an api error's name */
    char file[512];            /* as the report names it ("" when unknown) */
    unsigned line, line2;      /* line2: a race's or a divergence's other line (0: none) */
    unsigned long long count;  /* times seen (hazards, memory errors); requests (conflicts) */
    double wavefronts, ideal;  /* conflicts: the site's totals */
    long launch;               /* run: the first launch it was seen in; -1 otherwise */
    char message[768];
};

struct smem_findings {
    int is_run;                /* the report of `smemlab run` (else `analyze`) */
    struct smem_finding *v;
    unsigned n;
};

/* The checks a CI asked for (--fail-on-conflict, --fail-on-hazard, --fail-on-memory-error,
 * --fail-on-api-error, --fail-on-leak). */
struct smem_ci_checks {
    int conflict, hazard, memory;
    int api_error, leak;
};
/* Whether f fails one of the checks. */
int smem_finding_fails(const struct smem_finding *f, const struct smem_ci_checks *c);

/* The findings of doc, in report order: conflicts, hazards per kernel, memory errors, then the
 * sanitizer's host-side findings.
 * -1 with err when doc is not a report (no "kernels" array) or on no memory. */
int smem_findings_collect(const struct smem_json *doc, struct smem_findings *out,
                          struct smem_error *err);
void smem_findings_free(struct smem_findings *f);

/* The rule's one-line description (for SARIF's rules and the Markdown summary). */
const char *smem_finding_rule_text(const char *rule);
/* Wavefronts per request of a conflict finding (0 when it has no requests). */
double smem_finding_per_request(const struct smem_finding *f);

#endif
