/* run.h: the contract between `smemlab run` (the CLI) and the CUDA runtime library it puts in
 * place of libcudart (build/runtime/libcudart.so.13, loaded by the program through
 * LD_LIBRARY_PATH). The CLI sets these environment variables; the library reads them once, writes
 * the report and a status file, and the CLI reads those after the program ends. Without the CLI
 * (LD_LIBRARY_PATH set by hand) the library prints a table to stderr at exit. */
#ifndef SMEMLAB_RUN_H
#define SMEMLAB_RUN_H

#define SMEM_RUN_ENV_REPORT "SMEMLAB_RUN_REPORT"     /* path of the report to write */
#define SMEM_RUN_ENV_STATUS "SMEMLAB_RUN_STATUS"     /* path of the status file (below) */
#define SMEM_RUN_ENV_FORMAT "SMEMLAB_RUN_FORMAT"     /* table | json | csv (default table) */
#define SMEM_RUN_ENV_HTML "SMEMLAB_RUN_HTML"         /* also write an HTML page there */
#define SMEM_RUN_ENV_JSON "SMEMLAB_RUN_JSON"         /* also the JSON report there, at the end */
#define SMEM_RUN_ENV_KERNEL "SMEMLAB_RUN_KERNEL"     /* POSIX extended regex: kernels recorded */
#define SMEM_RUN_ENV_LAUNCHES "SMEMLAB_RUN_LAUNCHES" /* launches recorded per kernel (0: all) */
#define SMEM_RUN_ENV_MAX_STEPS "SMEMLAB_RUN_MAX_STEPS" /* thread-instructions per block */
#define SMEM_RUN_ENV_HAZARDS "SMEMLAB_RUN_HAZARDS"   /* 0: no hazard tracking */
#define SMEM_RUN_ENV_PID "SMEMLAB_RUN_PID"           /* only this process records (not children) */
#define SMEM_RUN_ENV_DEVICE "SMEMLAB_RUN_DEVICE"     /* h100 (default) | h200: the device shown */
#define SMEM_RUN_ENV_JOBS "SMEMLAB_RUN_JOBS"         /* threads per launch (default: every core) */
#define SMEM_RUN_ENV_MEMO "SMEMLAB_RUN_MEMO"         /* 0: run every launch, even a proven repeat */
#define SMEM_RUN_ENV_PROGRESS "SMEMLAB_RUN_PROGRESS" /* 1: a line on stderr while a long launch runs */
#define SMEM_RUN_ENV_LEAK_CHECK "SMEMLAB_RUN_LEAK_CHECK" /* full: report allocations not freed */
#define SMEM_RUN_ENV_INITCHECK "SMEMLAB_RUN_INITCHECK"   /* 1: report reads of device memory never
                                                           written (kernels and copies) */
#define SMEM_RUN_ENV_GLOBAL_RACES "SMEMLAB_RUN_GLOBAL_RACES" /* 1: report races on global memory
                                                               (a launch's blocks on one thread) */

/* The status file: one "key value" line each, rewritten with the report.
 *   runtime 1                the library was loaded and the program made a CUDA call
 *   launches N               launches made (recorded or not)
 *   recorded N               launches in the report
 *   conflicts N              recorded requests with a bank conflict (wavefronts > ideal)
 *   hazards N                hazards found (races, barrier divergence, out-of-bounds shared)
 *   memory_errors N          global accesses outside every allocation (thread accesses); with
 *                            --initcheck also loads of bytes never written and the 32-byte
 *                            pieces of copies' sources never written
 *   api_errors N             runtime and driver calls that returned an error to the program
 *   leaks N                  allocations not freed at exit (--leak-check full; written at exit)
 *   complete 1               written at the program's normal exit (0 while it runs)
 *   fatal MESSAGE            the library stopped the program (unsupported call, a kernel it
 *                            cannot emulate): the CLI exits 3 */
#define SMEM_RUN_EXIT_UNSUPPORTED 3 /* the library stops the program with this status */

#endif
