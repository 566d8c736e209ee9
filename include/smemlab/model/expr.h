/* expr.h: index expressions for `smemlab pattern` (tid*129, tile[ty][tx], ...): parsed once into
 * bytecode, then evaluated for a whole warp at a time with C's unsigned 32-bit arithmetic. */
#ifndef SMEMLAB_EXPR_H
#define SMEMLAB_EXPR_H

#include <stdint.h>

#include "smemlab/model/banks.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Limits that keep a hostile expression (a fuzzer's) from exhausting the stack or the heap. */
#define SMEM_EXPR_MAX_LEN 4096  /* characters in the whole text */
#define SMEM_EXPR_MAX_DEPTH 64  /* nested parentheses and unary operators */
#define SMEM_EXPR_MAX_STACK 64  /* values pending during evaluation */
#define SMEM_ACCESS_MAX_NAME 63 /* characters in an array name */

/* The variables an expression may use. Values are per thread of one block. */
enum smem_var {
    SMEM_VAR_TX, SMEM_VAR_TY, SMEM_VAR_TZ,    /* threadIdx (also threadIdx.x ...) */
    SMEM_VAR_BX, SMEM_VAR_BY, SMEM_VAR_BZ,    /* blockIdx */
    SMEM_VAR_BDX, SMEM_VAR_BDY, SMEM_VAR_BDZ, /* blockDim */
    SMEM_VAR_TID,  /* linear thread index in the block: tx + ty*bdx + tz*bdx*bdy */
    SMEM_VAR_LANE, /* tid % 32 */
    SMEM_VAR_WARP, /* tid / 32 */
    SMEM_VAR_COUNT
};

/* The short name of v ("tx", "bdy", "tid", ...). */
const char *smem_var_name(enum smem_var v);

/* Where and why an expression failed. message always starts with "column N: " when column > 0
 * (1-based, counting bytes of the text as given). */
struct smem_diag {
    unsigned column;
    char message[256];
};

/* The variables of up to 32 threads (one warp), structure-of-arrays so evaluation vectorises. */
struct smem_lanes {
    unsigned count; /* threads 0..count-1 are evaluated; 1..32 */
    uint32_t var[SMEM_VAR_COUNT][SMEM_WARP];
};

/* A compiled expression (opaque). */
struct smem_expr;

/* Parses text as one expression: 0 on success (*out set, free with smem_expr_free), else -1 with
 * diag filled. Grammar and semantics: docs/pattern.md. */
int smem_expr_parse(const char *text, struct smem_expr **out, struct smem_diag *diag);
void smem_expr_free(struct smem_expr *e);

/* Evaluates e for lanes->count threads into out[]: 0 on success, else -1 with diag naming the
 * column of the operator and the thread (division or modulo by zero). Shifts by 32 or more give
 * 0 (C leaves them undefined). Pure: no allocation. */
int smem_expr_eval(const struct smem_expr *e, const struct smem_lanes *lanes, uint32_t out[SMEM_WARP],
                   struct smem_diag *diag);

/* Instructions in the compiled form (after constant folding); for tests and benchmarks. */
unsigned smem_expr_size(const struct smem_expr *e);

/* An access: NAME[expr] (1-D, in elements) or NAME[e1][e2] (2-D, row-major). */
struct smem_access;

int smem_access_parse(const char *text, struct smem_access **out, struct smem_diag *diag);
void smem_access_free(struct smem_access *a);
const char *smem_access_name(const struct smem_access *a);
unsigned smem_access_dims(const struct smem_access *a); /* 1 or 2 */
/* Column of the first character of index expression dim (0-based dim). */
unsigned smem_access_column(const struct smem_access *a, unsigned dim);
/* Evaluates index expression dim for every lane; same contract as smem_expr_eval. */
int smem_access_eval(const struct smem_access *a, unsigned dim, const struct smem_lanes *lanes,
                     uint32_t out[SMEM_WARP], struct smem_diag *diag);

#ifdef __cplusplus
}
#endif
#endif
