/* ci_csv.h: a report's findings as one CSV table (--findings-csv FILE): every conflicting site,
 * hazard, memory error and sanitizer finding (runtime calls that returned an error, leaks, copies
 * of memory never written), a row each, for spreadsheets and scripts. */
#ifndef SMEMLAB_REPORT_CI_CSV_H
#define SMEMLAB_REPORT_CI_CSV_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"

/* Columns: rule, kind (conflict | hazard | memory | sanitizer), kernel (a sanitizer finding: the
 * runtime call), file, line, line2, detail, count, launch (-1: none), fails (1 when it fails a
 * check asked for), message. Text fields quoted (RFC 4180). */
void smem_findings_csv_write(FILE *f, const struct smem_findings *fs, const struct smem_ci_checks *c);

#endif
