/* rt_launch.c: a kernel launch. The arguments are laid out as the PTX entry declares its
 * parameters, the launch runs on the emulator over every block with the program's device memory
 * as its global memory, and (when recorded) every shared request is priced per source line and
 * every hazard and out-of-bounds global access is collected. Launches are synchronous: when the
 * call returns, the kernel has run. */
#include "rt_internal.h"

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

/* ---- faults: out-of-bounds global accesses, aggregated per instruction and kind ----------- */

struct fault_ctx {
    const struct smem_cta_program *p;
    const struct smem_launch *l;
    struct smem_memory_error *errs;
    uint32_t n, cap;
    uint64_t total;
};

static void on_fault(void *ctx, const struct smem_global_fault *f)
{
    struct fault_ctx *c = ctx;
    c->total++;
    for (uint32_t i = 0; i < c->n; i++)
        if (c->errs[i].insn == f->insn && c->errs[i].kind == f->kind) {
            c->errs[i].count++;
            return;
        }
    if (c->n == c->cap) {
        uint32_t nc = c->cap ? c->cap * 2 : 8;
        struct smem_memory_error *ne = realloc(c->errs, nc * sizeof *ne);
        if (!ne)
            return;
        c->errs = ne;
        c->cap = nc;
    }
    struct smem_memory_error *e = &c->errs[c->n++];
    memset(e, 0, sizeof *e);
    const struct smem_ptx_module *m = c->p->module;
    const struct smem_ptx_insn *in = &c->p->func->insns[f->insn];
    e->kind = f->kind;
    e->op = f->op;
    e->file = in->loc_file < m->nfiles ? m->files[in->loc_file] : NULL;
    e->line = in->loc_line;
    e->insn = f->insn;
    e->addr = f->addr;
    e->bytes = f->size;
    e->count = 1;
    const unsigned *bd = c->l->block, *gd = c->l->grid;
    e->thread[0] = f->thread % bd[0];
    e->thread[1] = f->thread / bd[0] % bd[1];
    e->thread[2] = f->thread / (bd[0] * bd[1]);
    e->block[0] = f->block % gd[0];
    e->block[1] = f->block / gd[0] % gd[1];
    e->block[2] = f->block / (gd[0] * gd[1]);
    rt_describe_address(f->addr, f->size, e->nearest, sizeof e->nearest);
}

/* ---- the launch --------------------------------------------------------------------------- */

static int config_ok(dim3 grid, dim3 block)
{
    uint64_t threads = (uint64_t)block.x * block.y * block.z;
    return grid.x && grid.y && grid.z && block.x && block.y && block.z && threads <= 1024 &&
           block.x <= 1024 && block.y <= 1024 && block.z <= 64 && grid.x <= 2147483647u &&
           grid.y <= 65535 && grid.z <= 65535;
}

static void kernel_error(struct rt_kernel *k, const char *what)
{
    rt_fatal("kernel %s cannot be emulated: %s", k->name ? k->name : k->symbol, what);
}

cudaError_t rt_launch(struct rt_kernel *k, dim3 grid, dim3 block, void **args, size_t shmem)
{
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
    if (!config_ok(grid, block))
        return rt_error(cudaErrorInvalidConfiguration);
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
    unsigned nreg;
    const struct smem_global_region *regs = rt_regions(&nreg);
    struct fault_ctx fc;
    memset(&fc, 0, sizeof fc);
    struct smem_global_memory gm;
    memset(&gm, 0, sizeof gm);
    gm.regions = regs;
    gm.nregions = nreg;
    gm.symbols = k->mod->symbols;
    gm.nsymbols = k->mod->nsymbols;
    gm.faults_stop = 0;
    gm.fault = on_fault;
    gm.fault_ctx = &fc;
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    l.block[0] = block.x;
    l.block[1] = block.y;
    l.block[2] = block.z;
    l.grid[0] = grid.x;
    l.grid[1] = grid.y;
    l.grid[2] = grid.z;
    l.dyn_smem = (uint32_t)shmem;
    l.max_steps = rt_opt.max_steps;
    l.global = &gm;
    l.param_buf = pbuf;
    l.param_buf_size = f->param_bytes;
    fc.p = p;
    fc.l = &l;
    int record = rt_opt.records && rt_kernel_wanted(k) &&
                 (!rt_opt.launches_per_kernel || k->recorded < rt_opt.launches_per_kernel);
    struct smem_launch_options lo;
    memset(&lo, 0, sizeof lo);
    lo.banks = smem_banks_default();
    lo.price = record;
    lo.hazards = record && rt_opt.hazards;
    struct smem_kernel_report one;
    memset(&one, 0, sizeof one);
    struct smem_cta_result res;
    k->launches++;
    int rc = smem_launch_analyze(p, &l, &lo, &one, &res, &err);
    if (pbuf != pbuf_small)
        free(pbuf);
    if (!rc && !res.complete) {
        const struct smem_ptx_insn *in = &f->insns[res.unknown.insn];
        const struct smem_ptx_module *m = p->module;
        rc = -1;
        smem_error_set(&err, in->loc_file < m->nfiles ? m->files[in->loc_file] : NULL,
                       in->loc_line, in->loc_col, "the %s depends on a value the emulator does "
                       "not know (shared or local memory read before any write, %s"
                       "%%smid or another property of the GPU it runs on); block %u stopped there",
                       res.unknown.what,
                       fc.total ? "an out-of-bounds global load (see memory errors), " : "",
                       res.unknown_block);
    }
    cudaError_t status = cudaSuccess;
    char *failure = NULL;
    if (rc) {
        char buf[800];
        smem_error_format(&err, buf, sizeof buf);
        /* assert and trap are the program's own: a sticky launch error, as on the GPU */
        if (strstr(err.msg, "assert() fails"))
            status = cudaErrorAssert;
        else if (strstr(err.msg, "executes trap"))
            status = cudaErrorLaunchFailure;
        failure = strdup(buf);
        if (!status) {
            if (record) {
                struct smem_launch_record lr;
                memset(&lr, 0, sizeof lr);
                lr.errors = fc.errs;
                lr.nerrors = fc.n;
                lr.error = failure;
                memcpy(lr.grid, l.grid, sizeof lr.grid);
                memcpy(lr.block, l.block, sizeof lr.block);
                lr.static_smem = p->static_smem;
                lr.dynamic_smem = l.dyn_smem;
                smem_kernel_report_clear(&one);
                rt_report_launch(k, &lr, &one);
            }
            kernel_error(k, buf);
        }
        fprintf(stderr, "smemlab run: kernel %s: %s\n", k->name, buf);
        smem_kernel_report_clear(&one);
    }
    if (record) {
        struct smem_launch_record lr;
        memset(&lr, 0, sizeof lr);
        memcpy(lr.grid, l.grid, sizeof lr.grid);
        memcpy(lr.block, l.block, sizeof lr.block);
        lr.static_smem = p->static_smem;
        lr.dynamic_smem = l.dyn_smem;
        lr.ld = one.ld;
        lr.st = one.st;
        lr.atom = one.atom;
        lr.steps = rc ? 0 : one.steps;
        lr.seconds = one.seconds;
        lr.hazards = one.hazards;
        lr.nhazards = one.nhazards;
        lr.errors = fc.errs;
        lr.nerrors = fc.n;
        lr.error = failure;
        one.static_smem = p->static_smem;
        one.dynamic_smem = l.dyn_smem;
        memcpy(one.block, l.block, sizeof one.block);
        memcpy(one.grid, l.grid, sizeof one.grid);
        k->recorded++;
        rt_report_launch(k, &lr, &one);
    } else {
        free(fc.errs);
        free(failure);
        smem_kernel_report_clear(&one);
        rt_report_count_launch();
    }
    if (status) {
        rt_set_sticky(status);
        return rt_error(status);
    }
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
    cudaError_t e = rt_launch(rt_kernel_of(func), grid, block, args, shmem);
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

RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                      size_t shmem, cudaStream_t stream);
RT_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args,
                                      size_t shmem, cudaStream_t stream)
{
    (void)stream;
    rt_lock();
    cudaError_t e = rt_launch((struct rt_kernel *)(void *)kernel, grid, block, args, shmem);
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
    if (!config)
        return rt_error(cudaErrorInvalidValue);
    /* attributes (clusters, programmatic serialisation) change no shared-memory count here */
    return cudaLaunchKernel(func, config->gridDim, config->blockDim, args,
                            config->dynamicSmemBytes, config->stream);
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
