/* launch.h: one launch of a prepared kernel, priced per source line and checked. `analyze` takes
 * this step once per kernel (with the launch typed by hand); `smemlab run` once per launch the
 * program makes (with its real global memory). Also the record of a whole run (launches, their
 * memory errors, sums per kernel) that the report writers print. */
#ifndef SMEMLAB_LAUNCH_H
#define SMEMLAB_LAUNCH_H

#include <stdint.h>

#include "smemlab/analysis/analyze.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smem_launch_options {
    struct smem_banks banks;
    int price;      /* price every request per site; 0: run only (a launch not recorded) */
    int hazards;    /* track races, barrier divergence, out-of-bounds shared accesses */
    int record;     /* keep every request in k->trace (advise) */
    int unwritten;  /* with hazards: reads of shared bytes nothing in the block wrote
                       (smem_hazards_track_unwritten; run --initcheck) */
};

/* Runs launch l of program p and fills k: sites merged by source line (only those that ran, in
 * line order), totals, hazards, complete, blocks, steps, seconds. k->program, symbol and name are
 * left as they are. Returns 0 with *res, or -1 with err (unsupported instruction, runaway loop,
 * failed assert, deadlock), located in the PTX. */
int smem_launch_analyze(const struct smem_cta_program *p, const struct smem_launch *l,
                        const struct smem_launch_options *o, struct smem_kernel_report *k,
                        struct smem_cta_result *res, struct smem_error *err);

/* Adds one launch's report into the sums of its kernel: totals, sites merged by (file, line,
 * inline chain, op, width), hazards merged by (kind, sites, detail) with their counts, blocks,
 * steps, seconds. Both come from the same kernel. Returns 0, -1 out of memory. */
int smem_kernel_report_add(struct smem_kernel_report *sum, const struct smem_kernel_report *one);
/* Frees what smem_launch_analyze allocated in k (sites, hazards, trace) and zeroes those fields. */
void smem_kernel_report_clear(struct smem_kernel_report *k);

/* A global access outside every live allocation (or misaligned, or a store to constant
 * memory), as compute-sanitizer's memcheck reports it; one entry per instruction and kind. */
struct smem_memory_error {
    uint8_t kind;           /* enum smem_global_fault_kind */
    uint8_t op;             /* enum smem_global_fault_kind: load, store or atom */
    const char *file;       /* source file of the access (NULL: no line info) */
    uint32_t line;
    uint32_t insn;          /* the PTX instruction */
    uint64_t addr;          /* the first faulting access: device address and bytes */
    uint32_t bytes;
    uint64_t count;         /* thread accesses that faulted here */
    unsigned block[3], thread[3]; /* of the first one */
    char nearest[200];      /* where it is: "4 bytes after the end of a 256-byte allocation at
                               0x... (cudaMalloc)", "inside a freed allocation", ... */
    /* additive: enum smem_ptx_space of the memory: SP_SHARED (addr the shared window's, as the
       GPU's: the first byte 0x400), SP_LOCAL (addr the offset in the thread's local memory, its
       frame from 0), else SP_GLOBAL */
    uint8_t space;
};

/* One launch the program made. */
struct smem_launch_record {
    uint64_t index;         /* the program's launches, counted from 0 (all, recorded or not) */
    uint32_t kernel;        /* index into smem_run_report.kernels */
    unsigned grid[3], block[3];
    uint32_t static_smem, dynamic_smem;
    struct smem_totals ld, st, atom;
    struct smem_totals ldsm, stsm, ldgsts; /* ldmatrix, stmatrix, cp.async */
    struct smem_totals gmma;               /* wgmma's reads of shared memory */
    struct smem_dshared_totals dshared;    /* other CTAs' shared memory */
    uint64_t steps;         /* thread-instructions */
    double seconds;         /* emulation wall time */
    int repeat;             /* a proven repeat of the kernel's previous launch: not emulated
                               again, its counts are that launch's (docs/run.md) */
    struct smem_hazard *hazards;
    uint32_t nhazards;
    struct smem_memory_error *errors;
    uint32_t nerrors;
    char *error;            /* the launch could not be emulated: why (then the run stopped) */
    /* additive: the program's launch as compute-sanitizer names a host frame ("main in x.cu:67
       [0x1c5a] in x"; run, NULL when unknown) */
    const char *host_frame;
};

/* Kernels of one PTX module (one translation unit of the program): the analysis the table, JSON
 * and HTML writers know, with each kernel's sums over its recorded launches. */
struct smem_run_module {
    struct smem_analysis analysis;
    uint32_t *kernel_ids;   /* per analysis kernel: its index in smem_run_report.kernels */
};

struct smem_run_report {
    const char *program;
    const char *const *args;
    unsigned nargs;
    struct smem_launch_record *launches; /* the recorded ones, in order */
    uint64_t nlaunches;
    uint64_t launches_total;             /* every launch, recorded or not */
    /* per kernel: where its sums live (module m, kernel k of that module's analysis) and how
       many of its launches were recorded */
    struct smem_run_kernel {
        uint32_t module, kernel;
        uint64_t launches;
    } *kernels;
    uint32_t nkernels;
    struct smem_run_module *modules;
    uint32_t nmodules;
    char *stopped;          /* the run stopped early (unsupported call, emulation failure,
                               crash): why; NULL when it ran to its end */
    /* library calls computed on the CPU (cuBLAS, cuRAND stand-ins), not priced: one entry per
       distinct (library, name, shape, precision), in order of first call */
    struct smem_library_call {
        char *library, *name, *shape, *precision;
        uint64_t calls;
        uint64_t repeats;       /* of them, proven repeats not computed again */
        double seconds;         /* CPU time of all its calls */
        uint64_t after_launch;  /* launches_total when it was first called */
    } *library_calls;
    uint32_t nlibrary_calls;
    uint64_t library_calls_total;
    double library_seconds;
    /* the sanitizer's host-side findings (docs/run.md): runtime and driver calls that returned
       an error, allocations not freed at exit (--leak-check full) */
    struct smem_run_finding {
        const char *kind;       /* "api error", "leak" or "uninitialized" (a copy from device
                                   memory never written: initcheck) */
        const char *call;       /* the call the program made: "cudaFree", "cudaMalloc" */
        const char *site;       /* its file:line (or binary+0xoffset) */
        const char *error;      /* api error: the error's name ("cudaErrorInvalidValue") */
        const char *detail;     /* "use after free of ...", "cudaMalloc"...; or NULL */
        uint64_t address, bytes; /* leak: the allocation */
        uint64_t count;         /* api error: times this call at this site returned it;
                                   uninitialized: the 32-byte pieces of the copy never written */
        /* additive (compute-sanitizer's layout): */
        int code;               /* api error: the error's number (cudaErrorInvalidValue: 1) */
        const char *message;    /* api error: its text ("invalid argument") */
        const char *frame;      /* the site as a host frame: "main in x.cu:75 [0x1abd] in x" */
        uint64_t uninit_at;     /* uninitialized: the first byte of the copy never written */
    } *findings;
    uint32_t nfindings;
};

/* The kernel report of kernel i of the run. */
const struct smem_kernel_report *smem_run_kernel(const struct smem_run_report *r, uint32_t i);

#ifdef __cplusplus
}
#endif
#endif
