/* analyze.h: a kernel's shared-memory costs per source line, without a GPU: compile (.cu -> PTX),
 * emulate each launch (cta), cost every request (banks), attribute to sites, collect hazards. */
#ifndef SMEMLAB_ANALYZE_H
#define SMEMLAB_ANALYZE_H

#include <stdint.h>
#include <stdio.h>

#include "smemlab/model/banks.h"
#include "smemlab/emu/cta.h"
#include "smemlab/base/error.h"
#include "smemlab/emu/hazards.h"
#include "smemlab/analysis/params.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Costs summed over every request of a site or a kernel. */
struct smem_totals {
    uint64_t requests, wavefronts, ideal;
    uint64_t unknown_requests; /* requests with a data-dependent address: not costed */
    uint32_t max_ways;
    int64_t pipe_delta; /* the LSU pipeline's passes minus wavefronts (smem_cost.pipe_delta summed):
                           0 but where paired 8/16-byte loads conflict, docs/bank-model.md */
};

/* Accesses of other CTAs' shared memory (distributed shared memory, emu/cta.h smem_dshared), as
 * Nsight Compute counts them on the H200 (tests/run/h200-cluster-dsmem-ncu.csv), per op (enum
 * smem_dshared_op): requests (smsp__sass_inst_executed_op_dshared_<op>) and the bytes the lanes
 * moved (l1tex__t_bytes_pipe_lsu_mem_dshared_op_<op>; tma_st's are the crossbar's). */
struct smem_dshared_totals {
    uint64_t requests[SMEM_DSH_NOPS], bytes[SMEM_DSH_NOPS];
};
/* ... one source line's (one instruction's) */
struct smem_dshared_line {
    const char *file;
    uint32_t line, insn;
    uint8_t op;
    uint64_t requests, bytes;
};

/* One source line's accesses of one kind and width (and, for inlined code, one inline chain). */
struct smem_site_report {
    const char *file;       /* as the PTX names it (NULL: no line info) */
    uint32_t line, col;     /* the kernel's own line (for inlined code: the outermost call) */
    uint32_t chain;         /* inlined code: its chain (smem_site_chain), else SMEM_PTX_NO_FRAME */
    uint8_t op;             /* enum smem_access_op */
    uint8_t bytes;
    struct smem_totals t;
    uint32_t first_site;    /* an emulator site of this line (index into program->sites) */
    struct smem_request worst; /* its costliest request (for bank pictures); worst_wf its cost */
    uint32_t worst_wf;
    uint8_t in_recursion;   /* some of it runs inside a recursive function: lanes of a warp in
                               different call frames are counted as one request there, where
                               the GPU issues one per frame, so its counts are a lower bound */
    uint8_t cas_loop;       /* a shared atomic ptxas makes a compare-and-swap loop on sm_90 (f32,
                               f64, f16x2, bf16x2 and 64-bit integer add, 64-bit and / or / xor):
                               each round one LDS (counted in the kernel's loads) and one ATOMS
                               (counted here); rounds = the most lanes in one bank of a pass.
                               Rounds other warps force by updating the word in between are
                               timing, not counted: a lower bound where warps contend */
    uint8_t estimate;       /* a cp.async request outside the measured rules' established class
                               (model/matrix.h): its cost is an estimate */
    char sass_placed[160];  /* "": counted from the PTX; else how the kernel's own SASS placed
                               this fixed-place load (sass/sass_fixed.c): "one LDS.128 with line
                               24's load", "... before the branch over it, in every warp" */
    char ptxas_differs[320]; /* "": ptxas's SASS of this line agrees with the PTX's sites (or
                               was not checked); else one line on how it differs (census.h):
                               the line's counts are the PTX's, the H100's may differ */
};

struct smem_kernel_report {
    char *symbol;           /* mangled */
    char *name;             /* demangled, without the parameter list ("reduce4<int, 256u>") */
    unsigned block[3], grid[3];
    uint32_t static_smem, dynamic_smem;
    struct smem_totals ld, st, atom;
    /* ldmatrix (LDSM), stmatrix (STSM), cp.async (LDGSTS): Nsight Compute counts them apart
       (smsp__sass_inst_executed_op_ldsm / _stsm / _ldgsts and their wavefronts) */
    struct smem_totals ldsm, stsm, ldgsts;
    /* wgmma's operand reads (HGMMA / QGMMA / IGMMA: l1tex__lsuin_requests_op_gmma,
       l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma) */
    struct smem_totals gmma;
    /* other CTAs' shared memory (thread-block clusters), in all and per line */
    struct smem_dshared_totals dshared;
    struct smem_dshared_line *dshared_lines;
    uint32_t ndshared_lines;
    struct smem_site_report *sites;
    uint32_t nsites;
    struct smem_hazard *hazards;
    uint32_t nhazards;
    char *error;            /* NULL, or why this kernel could not be analysed ("file:line:col:
                               msg": an unsupported instruction, a failed assert, a launch
                               over the GPU's limits); its counts are then not to be used */
    const char *error_stage; /* with error: "parse" (the PTX of the kernel could not be read),
                                "prepare" (read, but not made ready to run), "launch" (the
                                launch is beyond the GPU's limits) or "run" (stopped
                                while running: a failed assert, an unsupported call) */
    int complete;           /* every thread of every analysed block ran to its end */
    char incomplete_why[400];
    uint64_t blocks_run, blocks_total, steps;
    double seconds;         /* emulation time */
    /* non-empty: one block was emulated and stands for all blocks_total (why: uniform.h); the
     * totals, sites, hazard counts and steps are its own times blocks_total, blocks_run is
     * blocks_total (what the totals cover) */
    char extrapolation[200];
    /* census.h: "" when the SASS was checked (or no check was asked for), else why not */
    char sass_not_checked[200];
    /* census.h: differences on lines with no shared site of their own, "line N: ...; " */
    char sass_notes[400];
    /* with options.record: every request, in order, and the program (layout, sites) */
    struct smem_access *trace;
    uint64_t ntrace;
    struct smem_cta_program *program;
};

struct smem_analysis {
    char *source;           /* the .cu or .ptx analysed */
    struct smem_ptx_module *module;
    int owns_module;        /* 0: borrowed from the caller (smem_analyze_module) */
    struct smem_kernel_report *kernels;
    uint32_t nkernels;
    /* how a .cu or header was compiled when not alone: "through x.cu of its folder, which
       includes it", "with k<128, 8> instantiated"; "" when compiled as it is */
    char compiled_as[600];
    /* the file's template kernels no entry instantiates ("k<int BM> (k.cuh:3)"; with
       o->preprocessed, or from smem_analyze_file), not analysed; "" when none */
    char uninstantiated[400];
};

struct smem_analyze_options {
    const char *kernel;     /* NULL: every kernel */
    unsigned block[3], grid[3];
    uint32_t dyn_smem;
    /* --param NAME=VALUE (params.h): each must reach a parameter of an analysed kernel, with a
     * value of its type, or the analysis fails with a usage error (-2) */
    const struct smem_param_arg *params;
    unsigned nparams;
    uint64_t max_steps;
    unsigned sample_blocks;
    struct smem_banks banks;
    /* compiling a .cu */
    const char *const *compiler_args; /* -I, -D, -std, and what followed `--` */
    unsigned ncompiler_args;
    const char *arch;       /* default "sm_90" */
    /* a .cu that includes the header analysed (one that does not compile alone): compiled in
       its place (smem_analyze_file; without it, a .cu of the header's folder that includes it) */
    const char *include_from;
    /* nvcc's preprocessed device source of the .cu (smem_compile_cu_pp), where parameter names
     * come from. NULL: smem_analyze_file keeps it from its own compile; smem_analyze_ptx and
     * smem_analyze_module with a .cu source run nvcc -E when a --param needs it. */
    const char *preprocessed;
    size_t preprocessed_len;
    int hazards;            /* track hazards */
    int record;             /* keep every request in the report (for advise) */
    unsigned jobs;          /* threads for a launch's blocks (0: every core); the report does
                               not depend on it (analysis/parallel.h) */
    int all_blocks;         /* run every block even where one is proven to stand for all */
    int sass_census;        /* compare each kernel with ptxas's SASS of its PTX (census.h): one
                               ptxas run an analysis; `smemlab analyze` asks for it, library
                               callers that analyse many variants (advise) do not */
};

void smem_analyze_defaults(struct smem_analyze_options *o);

/* Compiles a .cu to PTX with the toolkit's nvcc (-ptx -lineinfo); returns the PTX text (malloc'd)
 * or NULL with err holding the compiler's message. */
char *smem_compile_cu(const char *path, const struct smem_analyze_options *o, size_t *len,
                      struct smem_error *err);
/* The same, also keeping the preprocessed device source nvcc compiled (its .cpp1.ii, through
 * -keep: no extra compile) in *pp (malloc'd, *pp_len bytes; NULL when nvcc left none). */
char *smem_compile_cu_pp(const char *path, const struct smem_analyze_options *o, size_t *len,
                         char **pp, size_t *pp_len, struct smem_error *err);
/* Only the preprocessed device source (nvcc -E with the same arguments): malloc'd, or NULL. */
char *smem_preprocess_cu(const char *path, const struct smem_analyze_options *o, size_t *len,
                         struct smem_error *err);

/* Analyses path (.cu compiled first, or .ptx). Returns 0 with *out, or -1 with err: -2 when the
 * problem is the launch configuration or a --param (a usage error), -1 for bad input. Per-kernel
 * failures (unsupported instruction, runaway loop) fail the whole call, located.
 * A header that does not compile alone is compiled through o->include_from, else through a .cu
 * of its folder that includes it ((*out)->compiled_as says which). A kernel named with template
 * arguments (o->kernel "k<128, 8>") that the file does not instantiate is instantiated: a .cu
 * that includes the file and takes the address of k<128, 8> is compiled in its place. Without
 * a kernel, or with a name that matches none, the message lists the file's template kernels. */
int smem_analyze_file(const char *path, const struct smem_analyze_options *o,
                      struct smem_analysis **out, struct smem_error *err);
int smem_analyze_ptx(const char *ptx, size_t len, const char *ptx_name, const char *source,
                     const struct smem_analyze_options *o, struct smem_analysis **out,
                     struct smem_error *err);
/* The same on a module parsed once by the caller (it must outlive the analysis). */
int smem_analyze_module(const struct smem_ptx_module *m, const char *name, const char *source,
                        const struct smem_analyze_options *o, struct smem_analysis **out,
                        struct smem_error *err);
void smem_analysis_free(struct smem_analysis *a);

/* The inline chain of a site written in an inlined function: up to max frames, innermost first (the
 * line the access is written on, then each call site out to the last one before the kernel's own
 * line, which is r->line). Returns how many (0: not inlined). Files: a->module->files[frame.file]. */
unsigned smem_site_chain(const struct smem_analysis *a, const struct smem_kernel_report *k,
                         const struct smem_site_report *r, const struct smem_ptx_frame **out,
                         unsigned max);

/* Demangles C++ symbols with the toolkit's cu++filt (names[i] -> out[i], malloc'd; the mangled
 * name itself where demangling is impossible). */
void smem_demangle(const char *const *names, unsigned n, char **out);


#ifdef __cplusplus
}
#endif
#endif
