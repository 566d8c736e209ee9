/* experiments.h: every experiment of EXPERIMENTS.md as data: the kernel of kernels/ that runs it,
 * its launch, what each argument holds, its H100 measurement in tests/hw/, and a CPU reference that
 * says what the outputs must be. The tour, the analyzer and the GPU bench all iterate this table. */
#ifndef SMEMLAB_EXPERIMENTS_H
#define SMEMLAB_EXPERIMENTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_EXP_MAX_ARGS 6

/* A kernel argument: a device buffer (passed as a pointer) or a 32-bit integer (passed by value). */
enum smem_arg_kind { SMEM_ARG_BUFFER, SMEM_ARG_INT };

/* What a buffer holds before the launch. Outputs (SMEM_INIT_POISON) are filled with the poison
 * byte 0xA5 before every run so that an element the kernel forgot to write cannot pass. */
enum smem_arg_init {
    SMEM_INIT_POISON,     /* output only */
    SMEM_INIT_RANDOM,     /* random bytes */
    SMEM_INIT_SMALL,      /* random 32-bit integers in [0, 1000): sums stay far from overflow */
    SMEM_INIT_UNIT_FLOAT, /* random floats in [1, 2): x + 1 is exact */
    SMEM_INIT_ZERO        /* zeros: counters and accumulators the kernel adds to */
};

/* How an integer argument gets its value: fixed (value), or a fresh random 32-bit value each run
 * (value is then the one the analyzer uses; the value never reaches an address). */
enum smem_int_mode { SMEM_INT_FIXED, SMEM_INT_RANDOM };

struct smem_exp_arg {
    const char *name;
    enum smem_arg_kind kind;
    /* SMEM_ARG_INT */
    int value;
    enum smem_int_mode mode;
    /* SMEM_ARG_BUFFER: count elements of elem_bytes bytes */
    unsigned elem_bytes;
    unsigned long long count;
    enum smem_arg_init init;
    int output; /* compared with the reference after the run (inout buffers too) */
};

/* Why an experiment exists in the table. */
enum smem_exp_role {
    SMEM_EXP_DOC,  /* the documents' configuration: verified and counted (hardware counters) */
    SMEM_EXP_SCALE /* an at-scale version: verified and timed */
};

enum smem_exp_flags {
    SMEM_EXP_RACY = 1u << 0,     /* the result is not one value: check() accepts a range */
    SMEM_EXP_NO_GPU = 1u << 1,   /* undefined behaviour (may hang): analysed, never launched */
    SMEM_EXP_CARVEOUT = 1u << 2, /* bench runs it at several shared-memory carveouts */
    SMEM_EXP_EXTRA = 1u << 3     /* not in the documents: added to complete a picture */
};

struct smem_experiment;

/* bufs[i] is the host copy of argument i (NULL for integers), vals[i] the integer values used. */
struct smem_exp_data {
    void *bufs[SMEM_EXP_MAX_ARGS];
    int vals[SMEM_EXP_MAX_ARGS];
};

/* Computes, in place, the state every output buffer must have after the launch, from the inputs
 * as they were before it (outputs arrive poisoned). 0 on success. */
typedef int (*smem_exp_reference_fn)(const struct smem_experiment *e, struct smem_exp_data *d);

/* For results that are not one value (races, occupancy counters): inputs = the state before the
 * launch, got = after. Returns NULL when got is acceptable, else writes and returns a sentence. */
typedef const char *(*smem_exp_check_fn)(const struct smem_experiment *e,
                                         const struct smem_exp_data *inputs,
                                         const struct smem_exp_data *got, char *why, size_t n);

struct smem_experiment {
    unsigned row;       /* row of EXPERIMENTS.md */
    unsigned also[3];   /* other rows it illustrates (0 = none) */
    const char *name;   /* unique: "<file stem>/<kernel>", e.g. "square/setRowReadCol" */
    const char *seed;   /* seeds that describe it, e.g. "000,003,004" */
    const char *file;   /* relative to kernels/, e.g. "square.cu" */
    const char *kernel; /* extern "C" name in that file */
    unsigned block[3], grid[3];
    unsigned dyn_smem; /* bytes of dynamic shared memory at launch */
    unsigned nargs;
    struct smem_exp_arg args[SMEM_EXP_MAX_ARGS];
    enum smem_exp_role role;
    unsigned flags;
    /* The measured counterpart in tests/hw/h100-counters.csv (columns section, kernel), or NULL. */
    const char *hw_section, *hw_kernel;
    /* DOC: the SCALE experiment that times it, or NULL. */
    const char *scale;
    /* SCALE: bytes moved through shared memory by one launch (loads + stores, useful bytes: what
     * the program asks for, not what conflicts cost), for bandwidth = bytes / time. */
    unsigned long long smem_bytes;
    /* SCALE: the n of an n-way probe (wavefronts per request over the ideal), 0 otherwise. */
    unsigned ways;
    smem_exp_reference_fn reference; /* exact results; NULL when check is given */
    smem_exp_check_fn check;         /* RACY or CARVEOUT results; NULL otherwise */
    const char *shows;               /* what the user should see */
};

/* The rows of EXPERIMENTS.md (21), some of which have no kernel of their own (6: print the tiles
 * of rows 1-5; 7: the bank-size query, a device property). */
struct smem_exp_row {
    unsigned row;
    const char *title, *seeds, *shows;
};
size_t smem_exp_row_count(void);
const struct smem_exp_row *smem_exp_row_at(size_t i);
/* Whether experiment e illustrates row (its own row or one of also[]). */
int smem_experiment_in_row(const struct smem_experiment *e, unsigned row);

/* The table, in EXPERIMENTS.md order (DOC entries first in each row, then their SCALE versions). */
size_t smem_experiment_count(void);
const struct smem_experiment *smem_experiment_at(size_t i);
/* By exact name ("rect/setRowReadColPad1"); NULL when absent. */
const struct smem_experiment *smem_experiment_find(const char *name);

/* Bytes of a buffer argument (elem_bytes x count; 0 for integers). */
unsigned long long smem_exp_arg_bytes(const struct smem_exp_arg *a);
/* Total bytes of the experiment's buffers. */
unsigned long long smem_experiment_buffer_bytes(const struct smem_experiment *e);

/* Allocates host buffers for every buffer argument (d->bufs, NULL for integers) and sets every
 * integer (d->vals). Returns 0, or -1 when out of memory (nothing left allocated). */
int smem_exp_data_alloc(const struct smem_experiment *e, struct smem_exp_data *d);
void smem_exp_data_free(const struct smem_experiment *e, struct smem_exp_data *d);
/* Copies buffers and values of src into dst (both allocated for e). */
void smem_exp_data_copy(const struct smem_experiment *e, struct smem_exp_data *dst,
                        const struct smem_exp_data *src);

/* Fresh inputs from *rng (xorshift state, never 0): random buffers and SMEM_INT_RANDOM integers
 * get new values, outputs are poisoned, zero buffers zeroed. */
void smem_exp_fill_inputs(const struct smem_experiment *e, struct smem_exp_data *d, uint64_t *rng);

/* Checks got (after the launch) against the reference computed from inputs (before it): every
 * element of every output buffer. Returns NULL when all match, else a sentence naming the first
 * wrong element (argument, index, expected, got) and how many differ. */
const char *smem_exp_verify(const struct smem_experiment *e, const struct smem_exp_data *inputs,
                            const struct smem_exp_data *got, char *why, size_t n);

/* The poison byte written over outputs before each run. */
#define SMEM_EXP_POISON 0xA5

/* The word patterns.cu writes at index i of its buffer for a given seed (the kernel computes the
 * same function: kept in step with kernels/patterns.cu). */
uint32_t smem_pattern_fill_word(uint32_t i, uint32_t seed);

#ifdef __cplusplus
}
#endif
#endif
