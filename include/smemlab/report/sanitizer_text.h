/* sanitizer_text.h: a run's findings in compute-sanitizer's own layout ("========= COMPUTE-SANITIZER",
 * "========= Invalid __global__ read of size 4 bytes", "========= Program hit ...", "=========
 * Leaked ...", racecheck's "Error: Race reported between ...", "========= ERROR SUMMARY: N errors"),
 * read from the run's JSON report, so that scripts that parse compute-sanitizer's output can read
 * smemlab run's (docs/run.md, "compute-sanitizer's layout"). */
#ifndef SMEMLAB_REPORT_SANITIZER_TEXT_H
#define SMEMLAB_REPORT_SANITIZER_TEXT_H

#include <stdio.h>

#include "smemlab/report/json_read.h"

/* compute-sanitizer's tools, as a mask: which records are written and which summaries end them */
enum {
    SMEM_SANTEXT_MEMCHECK = 1,  /* global accesses outside every allocation, misaligned, shared
                                   out of bounds, runtime calls that returned an error, leaks */
    SMEM_SANTEXT_RACECHECK = 2, /* shared-memory races */
    SMEM_SANTEXT_SYNCCHECK = 4, /* barrier divergence */
    SMEM_SANTEXT_INITCHECK = 8, /* reads of device memory never written (kernels and copies) */
    SMEM_SANTEXT_ALL = 15
};

/* The tool named (memcheck, racecheck, synccheck, initcheck, all) as a mask; 0 when unknown. */
unsigned smem_sanitizer_tool(const char *name);

/* Writes doc (smemlab run's JSON report) as compute-sanitizer's tools would print a run. leak_check:
 * the run was made with --leak-check full (memcheck then ends with a LEAK SUMMARY). Returns the
 * errors counted in the summaries. */
unsigned long long smem_sanitizer_text_write(FILE *f, const struct smem_json *doc, unsigned tools,
                                             int leak_check);

#endif
