/* report.h: analyses, patterns and advice written out: JSON (the DESIGN contract), a table with each
 * site's source line, CSV, self-contained HTML pages and SVG files with bank maps (bankmap.h draws
 * them). Writers decide nothing. */
#ifndef SMEMLAB_REPORT_H
#define SMEMLAB_REPORT_H

#include <stdio.h>

#include "smemlab/analysis/advise.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/model/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reports: JSON (the DESIGN contract), a table with the source lines beside each site, CSV. */
void smem_report_json(FILE *f, const struct smem_analysis *a);
void smem_report_table(FILE *f, const struct smem_analysis *a);
void smem_report_csv(FILE *f, const struct smem_analysis *a);
/* Under a kernel's table: each site whose SASS differs from its PTX (ptxas_differs), the notes
 * of lines without a site, or "SASS not checked: why" once (census.h). */
void smem_report_sass_lines(FILE *f, const struct smem_kernel_report *k);
/* A self-contained HTML page (inline style, no script, no network): a summary of kernels and
 * sites sorted by excess wavefronts (wavefronts - ideal), each linking to its bank map; per kernel
 * its sites, the SVG bank map of each conflicting site's costliest request beside its source line,
 * and its hazards with both lines. Well-formed XML as well as HTML. */
void smem_report_html(FILE *f, const struct smem_analysis *a);
/* The page's sections without its frame (the summary, each kernel): for a page that adds its
 * own (`smemlab run`'s launches, run_report.h). */
void smem_report_html_sections(FILE *f, const struct smem_analysis *a);
/* One kernel's JSON object as smem_report_json writes it (extra: more "key": value fields, or
 * NULL); `run`'s report writes its kernels with it. */
void smem_report_json_kernel(FILE *f, const struct smem_analysis *a,
                             const struct smem_kernel_report *k, const char *extra);
/* "ld", "st", "atom", "cp.async" */
const char *smem_access_op_name(unsigned op);
/* The source file of a hazard's lines (NULL: no line info). */
const char *smem_hazard_file(const struct smem_kernel_report *k, const struct smem_hazard *z);

/* Patterns (`smemlab pattern`). The settings line: "arr[tid*2]: 4-byte loads, block 32x1x1 (32
 * threads, 1 warp), 32 banks x 4 B". The verdict: "1 request, 2 wavefronts (ideal 1): 2-way bank
 * conflict" (or "no bank conflict"). */
void smem_pattern_settings(char *buf, size_t n, const char *expr, const struct smem_pattern *p,
                           const struct smem_pattern_result *r);
void smem_pattern_verdict(char *buf, size_t n, const struct smem_pattern_result *r);
/* The bank map of the costliest request as a standalone SVG document, captioned. */
void smem_report_pattern_svg(FILE *f, const char *expr, const struct smem_pattern *p,
                             const struct smem_pattern_result *r);
/* A self-contained HTML page: the settings, the verdict, every request's cost and bank map; past
 * SMEM_PATTERN_HTML_ALL requests, one map per distinct picture, naming its warps and their count. */
#define SMEM_PATTERN_HTML_ALL 8
void smem_report_pattern_html(FILE *f, const char *expr, const struct smem_pattern *p,
                              const struct smem_pattern_result *r);

/* Hopper's swizzle modes (layout kind SMEM_LAYOUT_TMA, model/layout.h). The fields a program
 * writes for layout l, in one line: "CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 64}; wgmma
 * descriptor: layout type 1 (128B), SBO 1024 B (field 64), LBO unused K-major (write 1), MN-major
 * 8192 B (field 512), base offset 0 (tile 1024-byte aligned); CuTe: Swizzle<3,4,3> on byte
 * offsets, GMMA::Layout_K_SW128_Atom<T> / Layout_MN_SW128_Atom<T>". JSON: the same as an object's
 * members (no braces). */
void smem_report_tma_fields(char *buf, size_t n, const struct smem_layout *l);
void smem_report_tma_fields_json(FILE *f, const struct smem_layout *l);
/* A tile as TMA writes it under each layout of modes[] (kind TMA, one mode each; row_elems,
 * elem_bytes, rows, tma_base set), the picture of the PTX ISA's and CUTLASS's figures: for the
 * lines of shared memory that hold the tile's first 8 rows (of its first box), which 16-byte
 * chunk of which row sits at each 16 bytes (banks 4k .. 4k+3), coloured by the chunk. A
 * standalone SVG document, one panel a mode, captioned. */
void smem_report_tile_svg(FILE *f, const struct smem_layout *modes, unsigned nmodes,
                          const char *caption);
/* The same in a self-contained HTML page, each mode's fields above the picture. */
void smem_report_tile_html(FILE *f, const struct smem_layout *modes, unsigned nmodes,
                           const char *caption);
/* The lines (128 bytes each, relative to the tile) that hold rows 0 .. 7 of box 0 under l:
 * *first and *count; cell[line - first][slot] = row * 256 + chunk, or -1 (padding, other rows). */
#define SMEM_TILE_LINES 16
void smem_tile_lines(const struct smem_layout *l, uint32_t *first, uint32_t *count,
                     int cell[SMEM_TILE_LINES][8]);

/* Reports: JSON ({"arrays": [...]}, see docs/advise.md) and a table with each site's proof. */
void smem_advice_json(FILE *f, const struct smem_advice *a);
void smem_advice_table(FILE *f, const struct smem_advice *a);

#ifdef __cplusplus
}
#endif
#endif
