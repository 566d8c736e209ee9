/* advise_internal.h: what advise.c shares with its reports (advise_report.c) and tests. */
#ifndef SMEMLAB_ADVISE_INTERNAL_H
#define SMEMLAB_ADVISE_INTERNAL_H

#include <stddef.h>

#include "smemlab/analysis/advise.h"

/* Swizzle<b,m,s> of ar written on the column index: "c ^ ((r & 15) << 1)" with r and c the row and
 * column expressions. 0 when the swizzle does not split into (row, column) that way (the row
 * length is not a power of two, or its bits cross the row boundary). */
int smem_advise_col_expr(const struct smem_advise_array *ar, unsigned b, unsigned m, unsigned s,
                         const char *r, const char *c, char *buf, size_t size);

#endif
