/* census.h: where ptxas changed a line's shared-memory instructions. Per kernel and source line,
 * the SASS's shared instructions (class, width, guarded or not) against the PTX's shared sites of
 * that line (the emulator's sites, the SASS model's merges applied); where they disagree the
 * line's count is the PTX's and the H100's may differ, and the report says so on the site. */
#ifndef SMEMLAB_CENSUS_H
#define SMEMLAB_CENSUS_H

#include <stddef.h>

#include "smemlab/analysis/analyze.h"
#include "smemlab/sass/sass.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smem_census;

/* Compares program p (a prepared kernel) with sm's function of the same symbol. sm NULL, or
 * without that function or a line table: the census only says why SASS was not checked (why_none
 * when given). NULL only when out of memory. */
struct smem_census *smem_census_new(const struct smem_cta_program *p,
                                    const struct smem_sass_module *sm, const char *why_none);
/* Marks k's sites (ptxas_differs) and k->sass_not_checked / k->sass_notes from the census. */
void smem_census_apply(const struct smem_census *c, struct smem_kernel_report *k);
void smem_census_free(struct smem_census *c);

/* The sm_90 SASS of PTX text, compiled here with ptxas -arch=sm_90 -lineinfo (SMEMLAB_PTXAS, or
 * ptxas on the PATH). NULL with why (one sentence: no ptxas, ptxas failed) when it cannot be had. */
struct smem_sass_module *smem_sass_of_ptx(const char *ptx, size_t len, char *why, size_t why_size);
/* The cubin ptxas makes of PTX text (the same command: -arch=sm_90, or sm_90a for an sm_90a
 * target, -lineinfo), malloc'd, *n bytes; NULL with why as above. */
uint8_t *smem_ptxas_cubin(const char *ptx, size_t len, size_t *n, char *why, size_t why_size);

#ifdef __cplusplus
}
#endif
#endif
