/* ci_baseline.h: a report against a committed one (its --format json): what got worse. A site
 * (kernel, file, line, op) worse when it needs more wavefronts per request than it did, or
 * conflicts where it did not; a hazard or a memory error worse when the baseline has no such one
 * (kernel, rule, detail, file, lines). Anything else, better or equal, passes. */
#ifndef SMEMLAB_REPORT_CI_BASELINE_H
#define SMEMLAB_REPORT_CI_BASELINE_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"

/* The regressions of now against was, one line each to say ("FILE:LINE: what"; NULL: none
 * written); returns how many. */
unsigned smem_baseline_compare(const struct smem_findings *was, const struct smem_findings *now,
                               FILE *say);

#endif
