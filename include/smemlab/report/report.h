/* report.h: analyses and advice written out: JSON (the DESIGN contract), a table with each site's
 * source line, CSV, and a self-contained HTML page with SVG bank maps. Writers decide nothing. */
#ifndef SMEMLAB_REPORT_H
#define SMEMLAB_REPORT_H

#include <stdio.h>

#include "smemlab/analysis/advise.h"
#include "smemlab/analysis/analyze.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports: JSON (the DESIGN contract), a table with the source lines beside each site, CSV. */
void smem_report_json(FILE *f, const struct smem_analysis *a);
void smem_report_table(FILE *f, const struct smem_analysis *a);
void smem_report_csv(FILE *f, const struct smem_analysis *a);
/* A self-contained HTML page: per kernel the sites with their source lines and, for each site with
 * conflicts, an SVG bank map of its costliest request (banks across, words down, lanes inside). */
void smem_report_html(FILE *f, const struct smem_analysis *a);
/* One kernel's JSON object as smem_report_json writes it (extra: more "key": value fields, or
 * NULL), and a list of hazards' objects (without the brackets). */
void smem_report_json_kernel(FILE *f, const struct smem_analysis *a,
                             const struct smem_kernel_report *k, const char *extra);
void smem_report_json_hazards(FILE *f, const struct smem_hazard *hz, uint32_t n);
/* "ld", "st", "atom", "cp.async" */
const char *smem_access_op_name(unsigned op);

/* Reports: JSON ({"arrays": [...]}, see docs/advise.md) and a table with each site's proof. */
void smem_advice_json(FILE *f, const struct smem_advice *a);
void smem_advice_table(FILE *f, const struct smem_advice *a);

#ifdef __cplusplus
}
#endif
#endif
