/* predict.h: an experiment of the registry (experiments.h) analysed on the CPU from the PTX that
 * the build makes of kernels/ (build/kernels/<stem>.ptx): the numbers a GPU's counters should show. */
#ifndef SMEMLAB_PREDICT_H
#define SMEMLAB_PREDICT_H

#include "smemlab/analysis/analyze.h"
#include "smemlab/lab/experiments.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smem_prediction {
    struct smem_totals ld, st, atom; /* summed over every block of the launch */
    int complete;                    /* 0: the analysis stopped at data it cannot know */
    unsigned hazards;                /* hazard entries found */
    char hazard_kinds[64];           /* "race,barrier" ... ("" if none) */
    double seconds;                  /* emulation time */
    uint64_t steps;                  /* thread-instructions emulated */
    uint64_t blocks_run, blocks_total;
    uint32_t static_smem;            /* bytes of static shared memory per block */
};

struct smem_predictor;

/* ptx_dir holds <stem>.ptx for each kernels/<stem>.cu. */
struct smem_predictor *smem_predictor_new(const char *ptx_dir);
void smem_predictor_free(struct smem_predictor *p);

/* Analyses e with its launch and integer arguments (buffers are pointers). max_blocks > 0 samples
 * that many blocks and scales the totals (every block of the registry's kernels does the same
 * work); 0 analyses every block. */
int smem_predict(struct smem_predictor *p, const struct smem_experiment *e, unsigned max_blocks,
                 struct smem_prediction *out, struct smem_error *err);

#ifdef __cplusplus
}
#endif
#endif
