/* ci_markdown.h: a report as a Markdown summary for a CI job's page (GitHub's step summary,
 * GitLab's job artifacts): a verdict, the kernels' totals, every finding at its file:line. */
#ifndef SMEMLAB_REPORT_CI_MARKDOWN_H
#define SMEMLAB_REPORT_CI_MARKDOWN_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"
#include "smemlab/report/json_read.h"

/* title: the heading (the command and what it ran). */
void smem_markdown_write(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                         const struct smem_ci_checks *c, const char *title);

#endif
