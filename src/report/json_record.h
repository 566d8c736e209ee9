/* json_record.h (private): the fields a kernel's JSON record (report.c, the DESIGN contract) and a
 * launch's record (run_report.c) share, written by one writer in report.c. Each record writes its
 * own fields around these, in the order it has always written them. */
#ifndef SMEMLAB_REPORT_JSON_RECORD_H
#define SMEMLAB_REPORT_JSON_RECORD_H

#include <stdint.h>
#include <stdio.h>

#include "smemlab/analysis/analyze.h"

/* The totals of a kernel report or a launch record, in the records' order (wgmma's last). */
#define JSON_RECORD_TOTALS(x) \
    {&(x)->ld, &(x)->st, &(x)->atom, &(x)->ldsm, &(x)->stsm, &(x)->ldgsts, &(x)->gmma}
enum { JSON_RECORD_NTOTALS = 7 };

/* "shared_ld": {...} through "shared_ldgsts": {...}, then "shared_gmma": {...} where wgmma read
 * shared memory, one a line (each line after the first starts with the record's indent). data_dependent: write a kernel's "data_dependent_requests" (a launch's
 * record has never carried it). */
void json_record_totals(FILE *f, const struct smem_totals *const t[JSON_RECORD_NTOTALS],
                        int data_dependent);
/* ,\n<indent>"dshared": {"requests": N, "bytes": B, "xbar_bytes": X, "ld": n, "st": n, "atom": n,
 * "stas": n, "redas": n, "tma_st": n} where other CTAs' shared memory was accessed (nothing
 * otherwise). bytes: the LSU's (l1tex__t_bytes_pipe_lsu_mem_dshared); xbar_bytes: the crossbar's
 * (l1tex__m_xbar2l1tex_read_bytes_mem_dshared: atomics twice, bulk copies too). */
void json_record_dshared(FILE *f, const struct smem_dshared_totals *d, const char *indent);
/* "thread_instructions": N, "emulation_seconds": S */
void json_record_work(FILE *f, uint64_t steps, double seconds);
/* "hazards": [...], each hazard on its own line; the closing bracket on the record's indent when
 * there is any. */
void json_record_hazards(FILE *f, const struct smem_hazard *hz, uint32_t n);

#endif
