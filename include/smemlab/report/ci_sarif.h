/* ci_sarif.h: findings as SARIF 2.1.0 (OASIS), the format code-scanning services read: one result
 * per conflicting site, hazard and memory error at its file:line, under five rules. */
#ifndef SMEMLAB_REPORT_CI_SARIF_H
#define SMEMLAB_REPORT_CI_SARIF_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"

/* Conflicts are warnings, hazards and memory errors errors; a check asked for (c) makes its
 * findings errors too. category: what the run was (its automationDetails id "smemlab/CATEGORY/",
 * so that code scanning keeps the runs of several tests apart). */
void smem_sarif_write(FILE *f, const struct smem_findings *fs, const struct smem_ci_checks *c,
                      const char *category);

#endif
