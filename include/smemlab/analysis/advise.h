/* advise.h: for each shared array of a kernel with bank conflicts, the smallest row padding, the
 * best XOR swizzle (CuTe's Swizzle<B,M,S>) and the best Hopper swizzle mode (the tile as a TMA
 * copy writes it) of layout.h's candidates, each proven by mapping every recorded request of the
 * run through the new layout and pricing it again with the bank model. */
#ifndef SMEMLAB_ADVISE_H
#define SMEMLAB_ADVISE_H

#include <stdint.h>
#include <stdio.h>

#include "smemlab/analysis/analyze.h"
#include "smemlab/model/decl.h"
#include "smemlab/model/layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One source line's requests that touch the array, priced under one layout. */
struct smem_advise_site {
    char file[256];
    uint32_t line;
    uint8_t op, bytes;       /* enum smem_access_op, access width */
    uint64_t requests, wavefronts, ideal;
    uint32_t max_ways;
};

/* One layout tried, with its proof: every site's cost under it. */
struct smem_advise_candidate {
    struct smem_layout layout;
    int valid;               /* a bijection onto the array's elements, aligned, within limits */
    char why[256];           /* !valid: why not */
    uint64_t requests, wavefronts, ideal; /* the array's requests (all sites touching it) */
    uint32_t max_ways;
    uint64_t extra_bytes;    /* shared memory it adds */
    int compiled;            /* costs come from the source compiled with this row alignment */
    struct smem_advise_site *sites;
    uint32_t nsites;
    char code[512];          /* what to write: the declaration, or the index expression */
    char formula[192];       /* swizzle: the bit formula on element offsets */
};

struct smem_advise_array {
    char name[128];          /* source name (demangled from a demoted static's PTX name) */
    char ptx_name[256];
    char type[128];          /* element type from the declaration, "" if unknown */
    int dynamic;             /* extern __shared__ */
    int has_decl;            /* its declaration was found in the source */
    int patchable;           /* a static declaration of 2+ dimensions in the source file */
    struct smem_decl decl;   /* has_decl: the declaration */
    char decl_file[256];
    char shape[96];          /* "[16][32]" as the numbers stand, "" if unknown */
    uint32_t offset, size;   /* in the block's shared window; size: dynamic = the launch's */
    uint32_t align;          /* PTX alignment of the variable */
    uint32_t elem_bytes, row_elems, rows;
    char row_from[64];       /* "declaration", "--row", "access strides", "" (unknown) */
    struct smem_advise_candidate before;      /* the layout as it stands */
    struct smem_advise_candidate *pads;       /* pads[p]: p elements per row, p = 0..npads-1 */
    uint32_t npads;
    struct smem_advise_candidate *swizzles;   /* every swizzle tried, best first */
    uint32_t nswizzles;
    struct smem_advise_candidate *tmas;       /* Hopper's swizzle modes (layout kind TMA: the tile
                                                 as cp.async.bulk.tensor writes it), best first */
    uint32_t ntmas;
    int best_tma;            /* index into tmas, -1 when no mode applies */
    int best_pad;            /* index into pads: the smallest pad with the fewest wavefronts */
    int best_pad_compiled;   /* best_pad's figures come from compiling and running that pad */
    int best_swizzle;        /* index into swizzles, -1 when none is valid */
    int best_is_swizzle;     /* ranking by wavefronts, then extra bytes */
    char note[512];          /* what could not be done and why */
    /* a one-dimensional declaration written as rows times a row with a named pad
       ("Bs[BK * (BN + extraCols)]", indexed "Bs[r * (BN + extraCols) + c]"): the declared shape
       ("[BK][BN + extraCols]"), the pad's constant and its value now; row_elems is the row
       without it (BN), and pads[p] is the constant set to p */
    char decl_shape[160];
    char pad_const[64];
    uint32_t pad_now;
};

struct smem_advice {
    char kernel[256], symbol[256];
    char source[1024];
    unsigned block[3], grid[3];
    int complete;
    char incomplete_why[400];
    uint32_t nshared;        /* shared arrays the kernel touches */
    uint64_t data_dependent; /* requests whose address depends on data: not priced, not advised */
    struct smem_advise_array *arrays;  /* those with bank conflicts (or the one asked for), worst
                                          first */
    uint32_t narrays;
    unsigned compiles;       /* source variants compiled to check other row alignments */
    /* the kernel's first TMA load (cp.async.bulk.tensor into shared memory): its source line
       (0: none) and whether the analysis stopped at it (its tensor map comes from the host, so
       what follows, the reads of the tile, was not recorded and cannot be re-analysed) */
    uint32_t tma_line;
    int tma_stopped;
    unsigned alternatives;   /* layouts the reports list besides the best */
};

struct smem_advise_options {
    const char *source;      /* the .cu the analysis compiled (NULL: a .ptx, no declarations) */
    /* how the analysis compiled and launched the kernel, to compile padded variants of the source
     * whose rows have another alignment (the compiler vectorises by alignment); NULL: don't */
    const struct smem_analyze_options *analyze;
    struct smem_banks banks;
    const char *array;       /* only this array (source or PTX name); NULL: every one */
    uint32_t row_elems;      /* row length in elements (needed for extern arrays); 0: from the
                                declaration, else from the access strides */
    uint32_t elem_bytes;     /* element size; 0: from the declaration, else the narrowest access */
    unsigned max_pad;        /* pads tried: 0..max_pad (0: layout.h's smem_layout_max_pad) */
    int compile_check;       /* compile one padded variant per row alignment class (default 1) */
    unsigned alternatives;   /* layouts listed besides the best (default 5) */
};

void smem_advise_defaults(struct smem_advise_options *o);

/* Advice for kernel k of an analysis made with options.record = 1. Returns 0 with *out, or -1
 * with err (no recorded trace, out of memory). */
int smem_advise_kernel(const struct smem_analysis *an, const struct smem_kernel_report *k,
                       const struct smem_advise_options *o, struct smem_advice **out,
                       struct smem_error *err);
void smem_advice_free(struct smem_advice *a);

/* The requests of k (recorded) that touch the shared variable ptx_name, priced: the figure advise
 * predicts for it, to compare with a compiled variant. -1 when the variable is not there. */
int smem_advise_var_totals(const struct smem_kernel_report *k, const char *ptx_name,
                           const struct smem_banks *banks, struct smem_totals *t);

/* The source text with every patchable array's declaration padded by its best pad (arrays whose
 * best pad is 0 are left). malloc'd; *npatched says how many declarations changed. NULL when out
 * of memory. */
char *smem_advice_patch(const struct smem_advice *a, const char *text, size_t len, size_t *outlen,
                        unsigned *npatched);


#ifdef __cplusplus
}
#endif
#endif
