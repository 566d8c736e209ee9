/* ci_sarif.h: findings as SARIF 2.1.0 (OASIS), the format code-scanning services read: one result
 * per conflicting site, hazard, memory error and sanitizer finding at its file:line, one rule a
 * kind. */
#ifndef SMEMLAB_REPORT_CI_SARIF_H
#define SMEMLAB_REPORT_CI_SARIF_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"

/* Conflicts, API errors and leaks are warnings, hazards and memory errors (uninitialized reads
 * included) errors; a check asked for (c) makes its findings errors too. category: what the run was (its automationDetails id "smemlab/CATEGORY/",
 * so that code scanning keeps the runs of several tests apart). */
void smem_sarif_write(FILE *f, const struct smem_findings *fs, const struct smem_ci_checks *c,
                      const char *category);

#endif
