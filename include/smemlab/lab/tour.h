/* tour.h: the documents' experiments (shared/EXPERIMENTS.md) as data: sections of rows, each row one
 * kernel or access pattern written in the pattern language, so `smemlab tour` can predict them. */
#ifndef SMEMLAB_TOUR_H
#define SMEMLAB_TOUR_H

#include "smemlab/model/banks.h"
#include "smemlab/model/expr.h"
#include "smemlab/model/pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a section is best shown; every style has the same data underneath. */
enum smem_tour_style {
    SMEM_TOUR_PATTERNS, /* one access per row: wavefronts, ideal, n-way, the documents' words */
    SMEM_TOUR_STRIDES,  /* many one-access rows, printed several to a line */
    SMEM_TOUR_MAPS,     /* one access per row, each with its bank picture */
    SMEM_TOUR_KERNELS   /* kernels with stores and loads, nvprof-style transactions per request */
};

#define SMEM_TOUR_MAX_ACCESSES 2

/* One shared-memory instruction of a row. */
struct smem_tour_access {
    enum smem_op op;
    const char *expr; /* NULL: unused slot */
    unsigned rows, cols; /* the array's shape for a 2-D access (0, 0: none) */
    unsigned count;      /* times the instruction runs per thread (Point4D: 2 loads); 0 = 1 */
};

struct smem_tour_row {
    const char *name;  /* "arr[tid*2]", "setRowReadCol" */
    const char *claim; /* what the documents say ("2-way"), "" when they are silent */
    unsigned elem;     /* bytes */
    unsigned block[3];
    unsigned block_index[3];
    struct smem_tour_access access[SMEM_TOUR_MAX_ACCESSES];
};

/* A section. Later sections may come from analysed kernels (kernels/ + the PTX analyzer); until
 * then every row is a pattern. */
struct smem_tour_section {
    const char *id;     /* short name for `smemlab tour ID` and for JSON: "access-patterns" */
    const char *title;
    const char *source; /* "EXPERIMENTS.md row 19; seed 002" */
    const char *note;   /* one line on what to look for */
    enum smem_tour_style style;
    const struct smem_tour_row *rows;
    unsigned nrows;
};

/* The sections, in tour order. */
const struct smem_tour_section *smem_tour_sections(unsigned *count);

/* The section with this id, or NULL. */
const struct smem_tour_section *smem_tour_find(const char *id);

/* The pattern settings of access k of row (32 x 4-byte banks). */
struct smem_pattern smem_tour_pattern(const struct smem_tour_row *row, unsigned k);

/* Evaluates access k of row: 0 on success, else -1 with diag (a broken table entry). The totals
 * in r are for one execution; multiply by the access's count for the row's totals. */
int smem_tour_eval(const struct smem_tour_row *row, unsigned k, struct smem_pattern_result *r,
                   struct smem_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
