/* ci_junit.h: a report as JUnit XML, the test results every CI shows: a test case per launch
 * (run) or per kernel (analyze), failing for what the checks asked for would fail. */
#ifndef SMEMLAB_REPORT_CI_JUNIT_H
#define SMEMLAB_REPORT_CI_JUNIT_H

#include <stdio.h>

#include "smemlab/report/ci_findings.h"
#include "smemlab/report/json_read.h"

/* doc: the report fs was collected from; suite: the test suite's name. A run's program gets one
 * more test case, failing when it exited non-zero or smemlab stopped it. */
void smem_junit_write(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                      const struct smem_ci_checks *c, const char *suite);

#endif
