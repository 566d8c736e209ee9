/* rt_launch.c: a kernel launch. The arguments are laid out as the PTX entry declares its
 * parameters, the launch runs on the emulator over every block with the program's device memory
 * as its global memory, and (when recorded) every shared request is priced per source line and
 * every hazard and out-of-bounds global access is collected. Launches are synchronous: when the
 * call returns, the kernel has run. */
#include "rt_internal.h"

#include "smemlab/analysis/analyze.h"
#include "smemlab/base/signature.h"

#include <stdlib.h>
#include <string.h>

/* ---- <<<...>>>: the configuration nvcc's stubs push and pop -------------------------------- */

struct call_config {
    dim3 grid, block;
    size_t shmem;
    void *stream;
};
static _Thread_local struct call_config cfg_stack[16];
static _Thread_local unsigned cfg_depth;

RT_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream);
RT_API unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shmem, void *stream)
{
    if (cfg_depth >= sizeof cfg_stack / sizeof cfg_stack[0])
        return 1;
    struct call_config *c = &cfg_stack[cfg_depth++];
    c->grid = grid;
    c->block = block;
    c->shmem = shmem;
    c->stream = stream;
    return 0;
}

RT_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream);
RT_API cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shmem, void *stream)
{
    if (!cfg_depth)
        return cudaErrorInvalidConfiguration;
    struct call_config *c = &cfg_stack[--cfg_depth];
    *grid = c->grid;
    *block = c->block;
    *shmem = c->shmem;
    if (stream)
        *(void **)stream = c->stream;
    return cudaSuccess;
}

/* ---- the launch --------------------------------------------------------------------------- */

static int config_ok(dim3 grid, dim3 block)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    return grid.x && grid.y && grid.z && block.x && block.y && block.z && threads <= 1024 &&
           block.x <= 1024 && block.y <= 1024 && block.z <= 64 && grid.x <= 2147483647u &&
           grid.y <= 65535 && grid.z <= 65535;
}

/* A kernel whose module could not be read has no name yet: its symbol is demangled here, so the
 * sentence names the kernel as the program's source does ("kernel one", not "kernel _Z3onePi").
 * A name longer than KERNEL_NAME_MAX (CUTLASS's kernels: several thousand characters of template
 * arguments) is cut after its first KERNEL_NAME_MAX characters, "<...>" closing it, so the reason
 * after it still fits the sentence (it was cut off before: the stop named no reason). */
#define KERNEL_NAME_MAX 160
static void kernel_error(struct rt_kernel *k, const char *what)
{
    char *dem = NULL, *name = NULL;
    const char *sym = k->symbol;
    if (!k->name && sym) {
        smem_demangle(&sym, 1, &dem);
        name = dem ? smem_signature_name(dem) : NULL;
    }
    const char *n = k->name ? k->name : name ? name : k->symbol;
    int len = (int)strlen(n);
    rt_fatal("kernel %.*s%s cannot be emulated: %s", len > KERNEL_NAME_MAX ? KERNEL_NAME_MAX : len, n,
             len > KERNEL_NAME_MAX ? "<...>" : "", what);
}

/* The cluster of a launch, checked as the H200 checks it (tests/run/cluster.cu,
 * h200-cluster.txt): the launch's own (cudaLaunchAttributeClusterDimension: attr, NULL if none)
 * or the kernel's (__cluster_dims__, or what cudaFuncSetAttribute required). A launch's cluster
 * other than the kernel's, a zero dimension, more than 8 blocks (16 after
 * cudaFuncAttributeNonPortableClusterSizeAllowed) or a grid it does not divide:
 * cudaErrorInvalidClusterSize. out: the dimensions (0 0 0: no cluster). */
static cudaError_t cluster_of(const struct rt_kernel *k, const unsigned *attr, dim3 grid,
                              unsigned out[3])
{
    const uint32_t *ptx = k->func->reqnctapercluster;
    unsigned req[3] = {0, 0, 0};
    int has_req = ptx[0] || k->cluster_req[0] || k->cluster_req[1] || k->cluster_req[2];
    for (int i = 0; i < 3 && has_req; i++) {
        unsigned v = ptx[0] ? ptx[i] : k->cluster_req[i];
        req[i] = v ? v : 1;
    }
    out[0] = out[1] = out[2] = 0;
    if (!attr && !has_req)
        return cudaSuccess;
    const unsigned *c = attr ? attr : req;
    if (attr && has_req && (attr[0] != req[0] || attr[1] != req[1] || attr[2] != req[2]))
        return cudaErrorInvalidClusterSize;
    if (!c[0] || !c[1] || !c[2])
        return cudaErrorInvalidClusterSize;
    uint64_t size = (uint64_t)c[0] * c[1] * c[2];
    if (size > (k->nonportable ? 16u : 8u))
        return cudaErrorInvalidClusterSize;
    if (grid.x % c[0] || grid.y % c[1] || grid.z % c[2])
        return cudaErrorInvalidClusterSize;
    for (int i = 0; i < 3; i++)
        out[i] = c[i];
    return cudaSuccess;
}


/* The device heap's calls of a kernel's malloc / free (rt_heap.c), with where malloc was called */
struct heap_ctx {
    const struct smem_cta_program *p;
    const char *kernel;
};

static uint64_t on_malloc(void *ctx, uint32_t insn, uint64_t size)
{
    const struct heap_ctx *h = ctx;
    const struct smem_ptx_insn *in = &h->p->func->insns[insn];
    const struct smem_ptx_module *m = h->p->module;
    return rt_heap_malloc(size, h->kernel, in->loc_file < m->nfiles ? m->files[in->loc_file] : NULL,
                          in->loc_line);
}

static int on_free(void *ctx, uint64_t p)
{
    (void)ctx;
    return rt_heap_free(p);
}

static int on_heap_live(void *ctx, uint64_t a, unsigned n)
{
    (void)ctx;
    return rt_heap_live(a, n);
}

/* The error a GPU gives the program for a launch whose memory errors (errs) include a fault that
 * stops a kernel there and which smemlab reports and runs past (measured on the H200, driver
 * 580.159.04: tests/run/h200-misaligned.txt, h200-localoob.txt): a misaligned access,
 * cudaErrorMisalignedAddress; a device-side double free, cudaErrorLaunchFailure (devheap.cu); a
 * local access beyond the thread's frame and its stack
 * (cudaLimitStackSize's 1 KB), cudaErrorIllegalAddress (one just past the frame, in the stack,
 * none: memcheck reports it, the GPU runs on). cudaSuccess otherwise: smemlab's other findings
 * (global accesses outside every allocation) leave the program running as before. */
static cudaError_t launch_fault(const struct smem_cta_program *p, const struct smem_memory_error *e,
                                uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (e[i].kind == SMEM_GFAULT_MISALIGNED)
            return cudaErrorMisalignedAddress;
        if (e[i].kind == SMEM_GFAULT_DOUBLE_FREE) /* the heap's free traps (an invalid pointer: none) */
            return cudaErrorLaunchFailure;
        if (e[i].space == SP_LOCAL && e[i].addr >= (uint64_t)p->local_size + 1024u)
            return cudaErrorIllegalAddress;
    }
    return cudaSuccess;
}

static cudaError_t rt_launch(struct rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shmem,
                             const unsigned *cluster_attr)
{
    rt_context_made();
    if (!k)
        return rt_error(cudaErrorInvalidDeviceFunction);
    if (rt_sticky())
        return rt_error(rt_sticky());
    if (rt_kernel_resolve(k)) {
        if (k->mod->loaded < 0)
            kernel_error(k, k->mod->load_error);
        kernel_error(k, "its PTX entry is missing from the program's fatbinary");
    }
    const struct smem_ptx_func *f = k->func;
    if (f->error) {
        char buf[700];
        kernel_error(k, smem_error_format(f->error, buf, sizeof buf));
    }
    /* more than 1024 threads a block: cudaErrorInvalidValue from CUDA 13's runtime (measured on
       an H100, driver 580.159.04: <<<1, 2048>>>); the other bad shapes: invalid configuration */
    if ((uint64_t)block.x * block.y * block.z > 1024)
        return rt_error(cudaErrorInvalidValue);
    if (!config_ok(grid, block))
        return rt_error(cudaErrorInvalidConfiguration);
    unsigned cluster[3];
    cudaError_t ce = cluster_of(k, cluster_attr, grid, cluster);
    if (ce)
        return rt_error(ce);
    struct smem_error err;
    memset(&err, 0, sizeof err);
    struct smem_cta_program *p = rt_kernel_program(k, (uint32_t)shmem, &err);
    if (!p) {
        char buf[700];
        kernel_error(k, smem_error_format(&err, buf, sizeof buf));
    }
    /* dynamic shared memory beyond 48 KB needs cudaFuncSetAttribute, as on the GPU */
    uint64_t limit = k->max_dyn_smem >= 0 ? (uint64_t)k->max_dyn_smem
                                          : (p->static_smem < 48u * 1024u ? 48u * 1024u - p->static_smem : 0);
    if (shmem > limit || (uint64_t)p->dyn_offset + shmem > SMEM_MAX_SMEM_PER_BLOCK ||
        (!shmem && p->static_smem > SMEM_MAX_SMEM_PER_BLOCK))
        return rt_error(cudaErrorInvalidValue);
    /* the parameter buffer, laid out as the PTX declares the parameters */
    uint8_t pbuf_small[4096], *pbuf = pbuf_small;
    if (f->param_bytes > sizeof pbuf_small && !(pbuf = calloc((size_t)f->param_bytes, 1)))
        rt_fatal("out of memory laying out the arguments of %s", k->name);
    if (pbuf == pbuf_small)
        memset(pbuf_small, 0, (size_t)f->param_bytes);
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        if (!args || !args[i]) {
            if (pbuf != pbuf_small)
                free(pbuf);
            return rt_error(cudaErrorInvalidValue);
        }
        if (s->offset + s->size <= f->param_bytes)
            memcpy(pbuf + s->offset, args[i], (size_t)s->size);
    }
    if (rt_heap_calls(f) && rt_heap_prepare())
        rt_fatal("out of memory making the device heap (%llu bytes)",
                 (unsigned long long)rt_heap_limit());
    unsigned nreg;
    const struct smem_global_region *regs = rt_regions(&nreg);
    struct smem_global_memory gm;
    memset(&gm, 0, sizeof gm);
    gm.regions = regs;
    gm.nregions = nreg;
    gm.symbols = k->mod->symbols;
    gm.nsymbols = k->mod->nsymbols;
    gm.faults_stop = 0; /* reported, and the access does nothing (a load reads unknown data) */
    gm.print = rt_print;
    gm.races = rt_opt.global_races; /* (its blocks then on one thread: rt_exec.c) */
    struct heap_ctx hc = {p, k->name ? k->name : k->symbol};
    gm.dmalloc = on_malloc;
    gm.dfree = on_free;
    gm.heap_live = on_heap_live;
    gm.heap_ctx = &hc;
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    l.block[0] = block.x;
    l.block[1] = block.y;
    l.block[2] = block.z;
    l.grid[0] = grid.x;
    l.grid[1] = grid.y;
    l.grid[2] = grid.z;
    memcpy(l.cluster, cluster, sizeof l.cluster);
    l.dyn_smem = (uint32_t)shmem;
    l.max_steps = rt_opt.max_steps;
    l.global = &gm;
    l.param_buf = pbuf;
    l.param_buf_size = f->param_bytes;
    int record = rt_opt.records && rt_kernel_wanted(k) &&
                 (!rt_opt.launches_per_kernel || k->recorded < rt_opt.launches_per_kernel);
    /* where the program launched it (compute-sanitizer's "at kernel launch time" frame) */
    const char *host_frame = NULL;
    if (record) {
        uint32_t site = rt_site_capture();
        rt_site_kernel_symbol(k->symbol);
        host_frame = site ? rt_site_frame(site) : NULL;
    }
    struct rt_exec_result ex;
    k->launches++;
    rt_report_running(k->name, l.grid, l.block);
    struct rt_progress *pg = !rt_opt.progress || rt_kernel_prints(f) ? NULL
                             : rt_progress_start(k->launches, k->name ? k->name : k->symbol,
                                                 l.grid, l.block);
    int rc = rt_execute(k, p, &l, record, record && rt_opt.hazards, &ex);
    rt_progress_stop(pg);
    rt_report_running(NULL, NULL, NULL);
    if (pbuf != pbuf_small)
        free(pbuf);
    if (!rc && !ex.res.complete) {
        const struct smem_ptx_insn *in = &p->func->insns[ex.res.unknown.insn];
        const struct smem_ptx_module *m = p->module;
        rc = -1;
        smem_error_set(&ex.err, in->loc_file < m->nfiles ? m->files[in->loc_file] : NULL,
                       in->loc_line, in->loc_col, "the %s depends on a value the emulator does "
                       "not know (shared or local memory read before any write, %s"
                       "%%smid or another property of the GPU it runs on); block %u stopped there",
                       ex.res.unknown.what,
                       ex.nfaults ? "an out-of-bounds global load (see memory errors), " : "",
                       ex.res.unknown_block);
    }
    cudaError_t status = cudaSuccess;
    /* a fault a GPU stops the kernel at, reported and run past here: the launch returns, the
       next call (and every later one: the context is lost) the GPU's error */
    cudaError_t fault = rc ? cudaSuccess : launch_fault(p, ex.errs, ex.nerrs);
    char *failure = NULL;
    if (rc) {
        char buf[800];
        smem_error_format(&ex.err, buf, sizeof buf);
        /* assert and trap are the program's own: a sticky launch error, as on the GPU */
        if (strstr(ex.err.msg, "assert() fails"))
            status = cudaErrorAssert;
        else if (strstr(ex.err.msg, "executes trap"))
            status = cudaErrorLaunchFailure;
        failure = strdup(buf);
        smem_kernel_report_clear(&ex.one);
        if (!status) {
            if (record) {
                struct smem_launch_record lr;
                memset(&lr, 0, sizeof lr);
                lr.errors = ex.errs;
                lr.nerrors = ex.nerrs;
                lr.error = failure;
                lr.host_frame = host_frame;
                memcpy(lr.grid, l.grid, sizeof lr.grid);
                memcpy(lr.block, l.block, sizeof lr.block);
                lr.static_smem = p->static_smem;
                lr.dynamic_smem = l.dyn_smem;
                ex.one.static_smem = p->static_smem;
                ex.one.dynamic_smem = l.dyn_smem;
                memcpy(ex.one.block, l.block, sizeof ex.one.block);
                memcpy(ex.one.grid, l.grid, sizeof ex.one.grid);
                rt_report_launch(k, &lr, &ex.one);
            }
            if (strstr(buf, "unsupported call to 'cuda"))
                kernel_error(k, "dynamic parallelism (a kernel that launches kernels) is not "
                             "supported");
            kernel_error(k, buf);
        }
        fprintf(stderr, "smemlab run: kernel %s: %s\n", k->name, buf);
    }
    if (record) {
        struct smem_launch_record lr;
        memset(&lr, 0, sizeof lr);
        memcpy(lr.grid, l.grid, sizeof lr.grid);
        memcpy(lr.block, l.block, sizeof lr.block);
        lr.static_smem = p->static_smem;
        lr.dynamic_smem = l.dyn_smem;
        lr.ld = ex.one.ld;
        lr.st = ex.one.st;
        lr.atom = ex.one.atom;
        lr.ldsm = ex.one.ldsm;
        lr.stsm = ex.one.stsm;
        lr.ldgsts = ex.one.ldgsts;
        lr.gmma = ex.one.gmma;
        lr.dshared = ex.one.dshared;
        lr.steps = rc ? 0 : ex.one.steps;
        lr.seconds = ex.one.seconds;
        lr.repeat = ex.memo_hit;
        lr.hazards = ex.one.hazards;
        lr.nhazards = ex.one.nhazards;
        lr.errors = ex.errs;
        lr.nerrors = ex.nerrs;
        lr.error = failure;
        lr.host_frame = host_frame;
        ex.one.static_smem = p->static_smem;
        ex.one.dynamic_smem = l.dyn_smem;
        memcpy(ex.one.block, l.block, sizeof ex.one.block);
        memcpy(ex.one.grid, l.grid, sizeof ex.one.grid);
        k->recorded++;
        rt_report_launch(k, &lr, &ex.one);
    } else {
        free(ex.errs);
        free(failure);
        smem_kernel_report_clear(&ex.one);
        rt_report_count_launch();
    }
    /* an assert or trap: as a GPU, whose launch returns before the kernel runs, the launch
       succeeds and the error comes from the next call (and every later one) */
    if (status)
        fault = status;
    if (fault)
        rt_set_sticky(fault);
    rt_report_maybe_write();
    return cudaSuccess;
}

/* ---- the launch entry points -------------------------------------------------------------- */

RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args,
                                    size_t shmem, cudaStream_t stream)
{
    (void)stream;
    rt_lock();
    cudaError_t e = rt_launch(rt_kernel_of(func), grid, block, args, shmem, NULL);
    rt_unlock();
    return e;
}

RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shmem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                         size_t shmem, cudaStream_t stream)
{
    return cudaLaunchKernel(func, grid, block, args, shmem, stream);
}

RT_API cudaError_t __cudaGetKernel(cudaKernel_t *out, const void *host_fun);
RT_API cudaError_t __cudaGetKernel(cudaKernel_t *out, const void *host_fun)
{
    rt_lock();
    struct rt_kernel *k = rt_kernel_of(host_fun);
    rt_unlock();
    if (out)
        *out = (cudaKernel_t)(void *)k;
    return k ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

/* The public form (CUDA 12.1+): the kernel handle of an entry function. */
RT_API cudaError_t cudaGetKernel(cudaKernel_t *out, const void *entry);
RT_API cudaError_t cudaGetKernel(cudaKernel_t *out, const void *entry)
{
    return __cudaGetKernel(out, entry);
}

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                      size_t shmem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                      size_t shmem, cudaStream_t stream)
{
    (void)stream;
    rt_lock();
    cudaError_t e = rt_launch((struct rt_kernel *)(void *)kernel, grid, block, args, shmem, NULL);
    rt_unlock();
    return e;
}

RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                           void **args, size_t shmem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block,
                                           void **args, size_t shmem, cudaStream_t stream)
{
    return __cudaLaunchKernel(kernel, grid, block, args, shmem, stream);
}

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args);
RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args)
{
    if (!config || (config->numAttrs && !config->attrs))
        return rt_error(cudaErrorInvalidValue);
    /* the cluster dimension is checked and handed to the emulator; the other attributes
       (programmatic serialisation, priorities, ...) change no shared-memory count here */
    const cudaLaunchAttribute *at = config->attrs;
    const unsigned *cluster = NULL;
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (at[i].id == cudaLaunchAttributeClusterDimension) {
            cluster = &at[i].val.clusterDim.x;
        }
    unsigned c[3];
    if (cluster)
        c[0] = cluster[0], c[1] = cluster[1], c[2] = cluster[2];
    rt_lock();
    cudaError_t e = rt_launch(rt_kernel_of(func), config->gridDim, config->blockDim, args,
                              config->dynamicSmemBytes, cluster ? c : NULL);
    rt_unlock();
    return e;
}

RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args);
RT_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func,
                                            void **args)
{
    return cudaLaunchKernelExC(config, func, args);
}

RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                               void **args, size_t shmem, cudaStream_t stream);
RT_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block,
                                               void **args, size_t shmem, cudaStream_t stream)
{
    (void)func, (void)grid, (void)block, (void)args, (void)shmem, (void)stream;
    rt_unsupported("cudaLaunchCooperativeKernel",
                   "grid-wide synchronisation needs every block resident at once, and the "
                   "emulator runs blocks one after another");
}
