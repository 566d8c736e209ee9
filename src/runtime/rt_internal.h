/* rt_internal.h (private to runtime/): the state of smemlab's CUDA runtime library: device memory,
 * the program's modules and kernels, the launches recorded, and the helpers the rt_*.c files share,
 * in the order of the files' stack, bottom up (README.md): a file calls only what is declared
 * before its own part. Every API entry point takes the one lock (programs may call CUDA from
 * several threads). */
#ifndef SMEMLAB_RUNTIME_INTERNAL_H
#define SMEMLAB_RUNTIME_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "cuda_abi.h"
#include "smemlab/analysis/launch.h"
#include "smemlab/emu/cta.h"
#include "smemlab/ptx/ptx.h"

struct smem_census;
struct smem_sass_module;
struct rt_kernel;
struct rt_module;

/* Exported symbols carry the version node libcudart.so.13 (libcudart.map). */
#define RT_API __attribute__((visibility("default")))

/* ---- the progress line (rt_progress.c) ---- */

/* A line on stderr while a launch that takes over a second runs, erased when it ends; the launch
 * asks for one only when rt_opt.progress. NULL: nothing shown. */
struct rt_progress;
struct rt_progress *rt_progress_start(unsigned long long launch, const char *kernel,
                                      const unsigned grid[3], const unsigned block[3]);
void rt_progress_stop(struct rt_progress *pg);
/* Erases the line if one is shown (a stop in the middle of a launch: rt_fatal). */
void rt_progress_erase(void);

/* ---- call sites and API errors (rt_sanitize.c) ---- */

/* The program's call into smemlab's libraries that is running now (the first frame of the
 * backtrace outside build/runtime/), interned: 0 when none was found. */
uint32_t rt_site_capture(void);
/* Its file:line (from the program's debug information: -g; a Python program's: its script's line
 * when the site was captured with one), else binary+0xoffset; "?" for 0. */
const char *rt_site_text(uint32_t site);
/* symbol is a kernel's (a launch): the host function nvcc names so is not the program's line. */
void rt_site_kernel_symbol(const char *symbol);
/* The site as compute-sanitizer names a host frame: "main in x.cu:75 [0x1abd] in x" (NULL: none). */
const char *rt_site_frame(uint32_t site);
/* The exported function the program called there ("cudaFree"), or "?". */
const char *rt_site_call(uint32_t site);
/* A runtime call returned err to the program: recorded with its site (once per error, call and
 * site, counted), and the detail rt_sanitize_note gave since the last one. */
struct rt_api_error {
    int error;
    const char *call;
    uint32_t site;
    uint64_t count;
    char *detail;           /* "use after free of ...", or NULL */
    const char *name;       /* the driver's CUresult name or a library's status
                               ("CURAND_STATUS_TYPE_ERROR"); NULL: a cudaError_t */
    const char *text;       /* the driver's cuGetErrorString text (with a CUresult name) */
};
void rt_sanitize_api_error(int err);
/* A library call (cuRAND) returned its status `name` (a string that lives as long as the program)
 * to the program: recorded as rt_sanitize_api_error records a runtime error, error -1. */
void rt_sanitize_library_error(const char *name);
void rt_sanitize_note(const char *detail);
/* A driver API call (rt_driver.c) begins / ends on this thread: leave returns 1 at the end of the
 * outermost one. Meanwhile the runtime's errors are not recorded: the driver records the CUresult
 * its call returns, by its name (CUDA_ERROR_INVALID_VALUE), as the exported function `call`. */
void rt_sanitize_driver_enter(void);
int rt_sanitize_driver_leave(void);
void rt_sanitize_api_error_named(int err, const char *name, const char *text, const char *call,
                                 const char *python);
/* In a Python program (the interpreter's C API found in the process): the line of the script
 * making the current call (the innermost frame outside the interpreter's packages, else the
 * innermost) as "x.py:12" into buf, 1; 0 when there is no Python. Takes the interpreter's lock:
 * call it holding no lock of the runtime's. */
int rt_python_site(char *buf, size_t n);
/* initcheck: a copy (the program's call, the site captured here) read n bytes at src of which
 * pieces 32-byte pieces hold bytes never written, the first at first. Merged per site. */
struct rt_uninit_copy {
    const char *call;
    uint32_t site;
    uint64_t src, bytes, first, pieces;
};
void rt_sanitize_uninit_copy(uint64_t src, uint64_t bytes, uint64_t first, uint64_t pieces);
const struct rt_uninit_copy *rt_sanitize_uninit_copies(uint32_t *n);
const struct rt_api_error *rt_sanitize_api_errors(uint32_t *n);

/* ---- device memory (rt_memory.c) ---- */

enum rt_alloc_kind {
    RT_DEVICE,      /* cudaMalloc / MallocPitch / Malloc3D / MallocAsync */
    RT_HOST,        /* cudaMallocHost / HostAlloc: host memory the device may reach (UVA) */
    RT_REGISTERED,  /* cudaHostRegister: the program's own memory */
    RT_MANAGED,     /* cudaMallocManaged, __managed__ variables */
    RT_VARIABLE     /* a module's __device__ / __constant__ variable */
};

struct rt_alloc {
    uint64_t dev;           /* device address (the host address for HOST, REGISTERED, MANAGED) */
    uint64_t size;
    uint8_t *host;          /* the bytes */
    uint8_t kind;           /* enum rt_alloc_kind */
    uint8_t freed;          /* device memory freed: kept to name use-after-free accesses */
    uint8_t readonly;       /* __constant__ */
    uint8_t heap;           /* the device heap (rt_heap.c; kind RT_VARIABLE) */
    const char *name;       /* variables: the PTX name */
    uint64_t seq;           /* allocation order */
    uint64_t version;       /* changes whenever something may have written the bytes (rt_touch) */
    uint32_t site, free_site; /* the program's calls that made and freed it (rt_site_capture) */
    uint8_t *init;          /* --initcheck, cudaMalloc's memory: per byte, 1 once written (by a copy,
                               a memset, a library call or a kernel); NULL: not tracked, all written */
};

/* Allocates size bytes of device memory of kind (RT_DEVICE or RT_VARIABLE) in the device
 * address space (PROT_NONE on the host: a device pointer dereferenced by host code faults).
 * NULL when out of memory. */
struct rt_alloc *rt_alloc_device(uint64_t size, unsigned kind, const char *name);
/* Records host memory [p, p + size) that kernels may reach at its own address. */
struct rt_alloc *rt_alloc_host(void *p, uint64_t size, unsigned kind);
/* The live allocation holding [a, a + n), or NULL. */
struct rt_alloc *rt_find(uint64_t a, uint64_t n);
/* The freed device allocation holding address a, or NULL. */
struct rt_alloc *rt_find_freed(uint64_t a);
/* Every allocation recorded (live, and freed device ones), in address order: i < rt_alloc_count. */
size_t rt_alloc_count(void);
struct rt_alloc *rt_alloc_at(size_t i);
/* The allocation (live or freed) starting exactly at a, or NULL. */
struct rt_alloc *rt_find_base(uint64_t a);
/* Releases it: device memory stays mapped as freed, host memory's record is removed. */
void rt_release(struct rt_alloc *al);
/* 1 when a lies in the reserved device address range. */
int rt_is_device_address(uint64_t a);
/* The global memory of a launch: every live allocation (rebuilt only when allocations changed). */
const struct smem_global_region *rt_regions(unsigned *n);
/* The allocation of region i of the last rt_regions. */
struct rt_alloc *rt_region_alloc(unsigned i);
/* Something may have written al's bytes: a new version. Every writer of device memory calls it
 * (rt_host_ptr for the copies and sets, the symbol copies, rt_execute for kernels), so that an
 * unchanged version proves unchanged bytes (rt_exec.c's repeated launches). */
void rt_touch(struct rt_alloc *al);
/* Describes address a against the allocations for a memory error: "4 bytes after the end of a
 * 256-byte allocation at 0x... (cudaMalloc)". */
void rt_describe_address(uint64_t a, uint32_t bytes, char *buf, size_t size);
/* Host pointer for device or host address a holding n bytes, or NULL; the caller may write
 * through it (the allocation gets a new version). rt_host_src: the same for bytes only read (a
 * copy's source), whose version stays. */
uint8_t *rt_host_ptr(const void *a, uint64_t n);
const uint8_t *rt_host_src(const void *a, uint64_t n);
uint64_t rt_device_bytes_in_use(void);
/* Changes whenever an allocation is made or released. */
uint64_t rt_alloc_generation(void);

/* ---- the device heap: kernels' malloc / free (rt_heap.c, on rt_memory.c) ---- */

/* cudaLimitMallocHeapSize: its value; setting it (-1 once the heap is in use: the GPU refuses). */
uint64_t rt_heap_limit(void);
int rt_heap_set_limit(uint64_t bytes);
/* 1 when kernel f calls malloc or free. */
int rt_heap_calls(const struct smem_ptx_func *f);
/* The heap made (before the first launch of a kernel that uses it): 0, or -1 out of memory. */
int rt_heap_prepare(void);
uint64_t rt_heap_base(void);
/* A block of size bytes for a kernel's malloc at file:line (0: no room, as a GPU's NULL). */
uint64_t rt_heap_malloc(uint64_t size, const char *kernel, const char *file, uint32_t line);
/* free(p): 0 done (or p NULL), 1 p is no block's start, 2 the block was freed already. */
int rt_heap_free(uint64_t p);
/* 1 when [a, a + n) lies inside one live block. */
int rt_heap_live(uint64_t a, uint64_t n);
/* The blocks still live (leaks at exit): how many; the first n of them into out. */
struct rt_heap_leak {
    uint64_t addr, size;
    const char *kernel, *file;
    uint32_t line;
};
size_t rt_heap_leaks(struct rt_heap_leak *out, size_t n);

/* ---- the lock, options, errors, the stop (rt_state.c) ---- */

struct rt_options {
    int hazards;
    uint64_t max_steps;
    uint64_t launches_per_kernel; /* 0: all */
    int have_regex;
    char report_path[4096], status_path[4096], html_path[4096];
    char json_path[4096];   /* also the JSON report there, at the end (the CI writers read it) */
    int format;             /* 0 table, 1 json, 2 csv */
    int device;             /* 0 H100, 1 H200 */
    unsigned jobs;          /* threads for a launch's blocks; 0: every core */
    int memo;               /* skip repeated identical launches (SMEMLAB_RUN_MEMO=0: never) */
    int records;            /* this process writes the report (not a child) */
    int progress;           /* a line on stderr while a long launch runs (rt_progress.c) */
    int leak_check;         /* report allocations not freed at exit (--leak-check full) */
    int initcheck;          /* report reads of device memory never written (--initcheck) */
    int global_races;       /* report races on global memory (--global-races) */
};
extern struct rt_options rt_opt;

/* The lock every entry point takes; start-up (the options, then the started hook) runs in the
 * first call. */
void rt_lock(void);
void rt_unlock(void);
/* Sets the calling thread's last error (and the sticky error for launch faults); returns e. */
cudaError_t rt_error(cudaError_t e);
cudaError_t rt_sticky(void);
/* The runtime has made the device's primary context (its first call that needs one: memory,
 * streams, events, launches, cudaSetDevice, synchronisation); the driver's calls then find the
 * driver initialised and that context current, as on a GPU. */
void rt_context_made(void);
int rt_context_exists(void);
/* An API call's start (the lock taken, the context made; the sticky error, if any) and end (e
 * recorded as the thread's last error, the lock released; returns e). */
cudaError_t rt_call_begin(void);
cudaError_t rt_call_end(cudaError_t e);
void rt_set_sticky(cudaError_t e);
/* The error's name, as CUDA 13's ("cudaErrorInvalidValue"): cudaGetErrorName. */
const char *rt_error_name(cudaError_t e);
const char *rt_error_text(cudaError_t e); /* cudaGetErrorString's: "invalid argument" */
/* 1 when the kernel's name matches --kernel. */
int rt_kernel_wanted(struct rt_kernel *k);

/* Stops the program: one sentence on stderr, the report so far and the status file (fatal: the
 * stopping hook), exit 3.
 * The library is the program's process here: there is nobody to return an error to that would
 * not mistake "smemlab cannot do this" for "the GPU said no". */
_Noreturn void rt_fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* For a call smemlab does not implement. */
_Noreturn void rt_unsupported(const char *call, const char *why);
/* What start-up and a stop do above rt_state.c, handed over by rt_report.c when the library is
 * loaded (rt_state.c names nothing above it): started runs once, in the first rt_lock, after the
 * options are read (the crash handlers, the first status file); stopping writes the report and
 * the status file before rt_fatal ends the program (why: the sentence it printed). */
void rt_state_hooks(void (*started)(void), void (*stopping)(const char *why));
/* Seconds on a monotonic clock. */
double rt_now(void);

/* ---- device printf (rt_printf.c) ---- */

/* One vprintf call's text to stdout (smem_global_memory.print). */
void rt_print(void *ctx, uint32_t block, uint32_t thread, uint64_t format, const uint8_t *args,
              size_t nargs);

/* ---- the run's record and its report file (rt_report.c) ---- */

/* Adds launch lr of kernel k (its sites in one) to the report; takes ownership of lr's arrays. */
void rt_report_launch(struct rt_kernel *k, struct smem_launch_record *lr,
                      struct smem_kernel_report *one);
/* Counts a launch not recorded. */
void rt_report_count_launch(void);
/* A call of a stand-in library computed on the CPU (rt_library.c): listed, not priced. */
void rt_report_library_call(const char *library, const char *name, const char *shape,
                            const char *precision, double seconds, int repeat);
/* After a launch: writes the report if the last write is old enough (a crash loses little). */
void rt_report_maybe_write(void);
/* The launch being emulated now (kernel NULL: none), for a report written while it runs (a
 * signal: the program killed inside a long launch says which). */
void rt_report_running(const char *kernel, const unsigned grid[3], const unsigned block[3]);

/* ---- modules, kernels, variables (rt_module.c) ---- */

struct rt_prepared {
    uint32_t dyn_smem;
    struct smem_cta_program *p;
    struct smem_census *census; /* its SASS against its PTX (analysis/census.h) */
};

struct rt_kernel {
    struct rt_module *mod;
    const void *host_fun;   /* the host stub's address (cudaLaunchKernel's func) */
    char *symbol;           /* mangled device name */
    char *name;             /* demangled, without parameters */
    const struct smem_ptx_func *func; /* once the module is loaded */
    struct rt_prepared *prep;
    unsigned nprep;
    int max_dyn_smem;       /* cudaFuncAttributeMaxDynamicSharedMemorySize; -1: the default */
    /* its last launches of different configurations, kept to skip identical repeats (rt_exec.c;
       several: timing loops alternate a kernel's configurations, a reduction's two passes) */
#define RT_MEMOS 8 /* a timing loop over 6 block sizes (llm.c's dev/cuda) repeats each */
    struct rt_memo *memo[RT_MEMOS];
    uint64_t memo_used[RT_MEMOS];
    /* the regions its last launch wrote (allocation generation wgen): only those are copied
       before its next launch, to prove an in-place update's repeat (rt_exec.c) */
    uint32_t *wregs, nwregs;
    uint64_t wgen;
    int carveout;
    /* clusters: the dimensions cudaFuncSetAttribute required (RequiredClusterWidth, Height,
       Depth; 0 unset), and whether more than 8 blocks a cluster are allowed (NonPortable...) */
    unsigned cluster_req[3];
    int nonportable;
    uint64_t launches, recorded;
    int report_id;          /* index into the run report's kernels, -1 until recorded */
    int wanted;             /* -1 unknown, 0/1: matches --kernel */
};

struct rt_var {
    struct rt_module *mod;
    const void *host_var;   /* the host shadow (cudaMemcpyToSymbol's symbol) */
    void **managed_ptr;     /* __managed__: where the host code reads the variable's address */
    char *name;             /* PTX name */
    uint64_t size;
    int constant;
    struct rt_alloc *alloc; /* once the module is loaded */
};

struct rt_module {
    const void *wrapper;
    const uint8_t *fatbin;
    size_t fatbin_size;
    int loaded;             /* 1 loaded, -1 failed (error in load_error) */
    char load_error[600];
    struct smem_ptx_module *ptx;
    char *ptx_text;
    unsigned arch;
    int index;              /* registration order */
    int report_id;          /* index into the run report's modules, -1 until needed */
    struct smem_global_symbol *symbols; /* every module variable's address, for launches */
    unsigned nsymbols;
    /* its sm_90 SASS for the census: the fatbinary's cubin, else ptxas on its PTX; loaded with
       the first program prepared (sass_loaded), NULL with sass_why when there is none */
    int sass_loaded;
    uint8_t *cubin;         /* a driver API module's own cubin (its PTX found beside it), or NULL */
    size_t cubin_size;
    struct smem_sass_module *sass;
    char sass_why[200];
};

struct rt_module *rt_module_register(const void *wrapper);
/* A module of PTX text (the driver API's cuModuleLoadData): takes text (malloc'd); arch: its
 * .target's number. Its SASS: ptxas on the PTX, or the cubin the driver sets in it. */
struct rt_module *rt_module_of_ptx(char *text, unsigned arch);
/* Loads (reads the PTX, places the variables) on first use; 0, or -1 with the module's
 * load_error set. */
int rt_module_load(struct rt_module *m);
struct rt_kernel *rt_kernel_register(struct rt_module *m, const void *host_fun, const char *name);
struct rt_kernel *rt_kernel_of(const void *host_fun);
struct rt_var *rt_var_register(struct rt_module *m, const void *host_var, void **managed_ptr,
                               const char *name, uint64_t size, int constant);
struct rt_var *rt_var_of(const void *host_var);
/* Loads k's module and finds its function; 0 or -1 (the reason in the module's load_error). */
int rt_kernel_resolve(struct rt_kernel *k);
/* The prepared program of k for dyn bytes of dynamic shared memory; NULL with err. */
struct smem_cta_program *rt_kernel_program(struct rt_kernel *k, uint32_t dyn,
                                           struct smem_error *err);
/* Registers a thread of kernel k uses, as ptxas gave them in its sm_90 code (the fatbinary's cubin,
 * else ptxas on the PTX); 0 when that code does not say. Call after rt_kernel_program. */
uint32_t rt_kernel_regs(struct rt_kernel *k);

/* ---- launches (rt_exec.c, rt_launch.c) ---- */

/* What one launch did: its sites and totals (priced launches), how far it ran, its memory
 * errors; rc/err when it failed. memo_hit: it repeated the kernel's last launch, which was not
 * run again (rt_exec.c says when that is safe). */
struct rt_exec_result {
    struct smem_kernel_report one;
    struct smem_cta_result res;
    struct smem_memory_error *errs;
    uint32_t nerrs;
    uint64_t nfaults;
    int rc;
    struct smem_error err;
    int memo_hit;
};
/* Runs launch l (its global memory set) of k's program p over its blocks, on several threads
 * where that is safe; price: per-site costs and totals; hazards: races and divergence. */
int rt_execute(struct rt_kernel *k, const struct smem_cta_program *p, const struct smem_launch *l,
               int price, int hazards, struct rt_exec_result *out);
/* 1 when the kernel calls printf (its lines come in block order, on one thread) */
int rt_kernel_prints(const struct smem_ptx_func *f);

/* ---- the device (rt_device.c) ---- */

/* The device's answer to attribute attr (cudaDeviceAttr, the driver's CUdevice_attribute: the
 * same numbers) in *v: 0, or -1 for an attribute the emulated device does not answer. Sets no
 * error (the driver API's calls use it too). */
int rt_device_attribute(int attr, int *v);

/* ---- linking device code at run time (rt_link.c: cuLink*, the nvJitLink stand-in) ---- */

enum rt_link_input {
    RT_LINK_CUBIN, RT_LINK_PTX, RT_LINK_FATBIN, RT_LINK_OBJECT, RT_LINK_LIBRARY, RT_LINK_LTOIR,
    RT_LINK_NVVM
};
struct rt_link {
    char *ptx;              /* the one PTX module linked */
    char first[200];        /* its name */
    uint8_t *image;         /* once complete: ptxas's cubin of it, or the PTX text */
    size_t size;
    char info[400], error[400]; /* what the link logs */
};
struct rt_link *rt_link_new(void);
/* Adds an input (n bytes; PTX text may end at its NUL): 0, or -1 with l->error (not PTX); a kind
 * smemlab does not link, or a second module, stops the program naming call. */
int rt_link_add(struct rt_link *l, enum rt_link_input kind, const void *data, size_t n,
                const char *name, const char *call);
/* Makes l->image (of an empty module when nothing was added): 0, or -1 when out of memory. The
 * image is remembered with its PTX. */
int rt_link_complete(struct rt_link *l, const char *call);
void rt_link_free(struct rt_link *l);
/* The PTX (a malloc'd copy) of an image a link of this process made, whose bytes begin `image`
 * (size bytes may be read); NULL if it is none. */
char *rt_link_ptx_of(const void *image, size_t size);

#endif
