/* run_report.h: the report of `smemlab run`: every recorded launch (its counts, hazards and memory
 * errors) and each kernel's sums per source line, as JSON (docs/run.md), a table or CSV. */
#ifndef SMEMLAB_RUN_REPORT_H
#define SMEMLAB_RUN_REPORT_H

#include <stdio.h>

#include "smemlab/analysis/launch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* JSON: {"program", "args", "exit_status": null, "launches": [...], "kernels": [...]}. The
 * runtime library does not know how the program will end; the CLI puts the status in place of
 * the line `  "exit_status": null,` once it does. */
void smem_run_report_json(FILE *f, const struct smem_run_report *r);
/* The table: one line per launch, then each kernel's sums per source line as `analyze` shows
 * them, then the memory errors. */
void smem_run_report_table(FILE *f, const struct smem_run_report *r);
/* The HTML page of module m's kernels: titled "smemlab run: PROGRAM ARGS", the program's
 * launches of those kernels (alike consecutive launches one row, counts grouped by thousands),
 * then analyze's page of their sums. */
void smem_run_report_html(FILE *f, const struct smem_run_report *r, uint32_t m);
/* CSV: one row per recorded launch. */
void smem_run_report_csv(FILE *f, const struct smem_run_report *r);
/* A memory error's kind beyond the emulator's faults (enum smem_global_fault_kind): a load of
 * device memory nothing wrote (--initcheck). */
#define SMEM_MEMORY_UNINITIALIZED 16
/* "load", "store", "atomic", "misaligned access", "store to constant memory", "uninitialized load" */
const char *smem_memory_error_name(unsigned kind);

#ifdef __cplusplus
}
#endif
#endif
