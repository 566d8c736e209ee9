/* gpu.c: the CUDA driver API through dlopen("libcuda.so.1"): device facts, modules, memory,
 * launches, events. Nothing here links against CUDA; without a driver every entry point returns
 * SMEM_GPU_NO_DRIVER with a sentence, so the CLI keeps working on machines without a GPU. */
#include "smemlab/gpu/gpu.h"
#include "smemlab/base/text.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The few driver types we need, declared here so that the build needs no CUDA headers. */
typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUevent;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

enum {
    CU_ATTR_MAX_THREADS_PER_BLOCK = 1,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK = 8,
    CU_ATTR_WARP_SIZE = 10,
    CU_ATTR_CLOCK_RATE = 13,
    CU_ATTR_MULTIPROCESSOR_COUNT = 16,
    CU_ATTR_MEMORY_CLOCK_RATE = 36,
    CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH = 37,
    CU_ATTR_L2_CACHE_SIZE = 38,
    CU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR = 39,
    CU_ATTR_COMPUTE_CAPABILITY_MAJOR = 75,
    CU_ATTR_COMPUTE_CAPABILITY_MINOR = 76,
    CU_ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR = 81,
    CU_ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR = 82,
    CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN = 97,
    CU_ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR = 106,
    CU_ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK = 111
};

enum {
    CU_FUNC_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_SHARED_SIZE_BYTES = 1,
    CU_FUNC_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_NUM_REGS = 4,
    CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
};

#define CUDA_ERROR_NO_DEVICE 100

/* The driver entry points, resolved by name (the _v2 names are what cuda.h maps the plain names
 * to; the plain cuEventElapsedTime is the fallback for drivers older than 12.8). */
struct driver {
    void *lib;
    CUresult (*Init)(unsigned);
    CUresult (*DriverGetVersion)(int *);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*DeviceTotalMem)(size_t *, CUdevice);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*CtxGetSharedMemConfig)(int *); /* optional: deprecated */
    CUresult (*ModuleLoadData)(CUmodule *, const void *);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*FuncGetAttribute)(int *, int, CUfunction);
    CUresult (*FuncSetAttribute)(CUfunction, int, int);
    CUresult (*OccupancyMaxActiveBlocksPerMultiprocessor)(int *, CUfunction, int, size_t);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*MemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*MemsetD8)(CUdeviceptr, unsigned char, size_t);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             unsigned, CUstream, void **, void **);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventElapsedTime)(float *, CUevent, CUevent);
    CUresult (*GetErrorName)(CUresult, const char **);
    CUresult (*GetErrorString)(CUresult, const char **);
};

struct fn_entry {
    CUfunction f;
    int static_smem, max_dynamic_smem; /* read once, so that a launch costs no driver queries */
    char name[128];
    struct fn_entry *next;
};

struct smem_gpu {
    struct driver d;
    CUdevice dev;
    CUcontext ctx;
    struct smem_gpu_info info;
    struct fn_entry *fns;
    char err[512];
};

/* dlsym into a function pointer without the object-to-function pointer cast ISO C forbids. */
static int bind(void *lib, const char *name, void *fnptr, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return -1;
    memcpy(fnptr, &p, size);
    return 0;
}

#define BIND(field, sym) bind(d->lib, sym, &d->field, sizeof d->field)

static int driver_load(struct driver *d, char *err, size_t errlen)
{
    memset(d, 0, sizeof *d);
    d->lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!d->lib) {
        snprintf(err, errlen, "no CUDA driver: libcuda.so.1 cannot be loaded (%s)", dlerror());
        return SMEM_GPU_NO_DRIVER;
    }
    int bad = 0;
    const char *missing = NULL;
#define NEED(field, sym)                                                                           \
    if (BIND(field, sym) && !missing) {                                                            \
        missing = sym;                                                                             \
        bad = 1;                                                                                   \
    }
    NEED(Init, "cuInit");
    NEED(DriverGetVersion, "cuDriverGetVersion");
    NEED(DeviceGetCount, "cuDeviceGetCount");
    NEED(DeviceGet, "cuDeviceGet");
    NEED(DeviceGetName, "cuDeviceGetName");
    NEED(DeviceGetAttribute, "cuDeviceGetAttribute");
    NEED(DeviceTotalMem, "cuDeviceTotalMem_v2");
    NEED(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
    NEED(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
    NEED(CtxSetCurrent, "cuCtxSetCurrent");
    NEED(CtxSynchronize, "cuCtxSynchronize");
    NEED(ModuleLoadData, "cuModuleLoadData");
    NEED(ModuleUnload, "cuModuleUnload");
    NEED(ModuleGetFunction, "cuModuleGetFunction");
    NEED(FuncGetAttribute, "cuFuncGetAttribute");
    NEED(FuncSetAttribute, "cuFuncSetAttribute");
    NEED(OccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    NEED(MemAlloc, "cuMemAlloc_v2");
    NEED(MemFree, "cuMemFree_v2");
    NEED(MemcpyHtoD, "cuMemcpyHtoD_v2");
    NEED(MemcpyDtoH, "cuMemcpyDtoH_v2");
    NEED(MemsetD8, "cuMemsetD8_v2");
    NEED(LaunchKernel, "cuLaunchKernel");
    NEED(EventCreate, "cuEventCreate");
    NEED(EventDestroy, "cuEventDestroy_v2");
    NEED(EventRecord, "cuEventRecord");
    NEED(EventSynchronize, "cuEventSynchronize");
    NEED(GetErrorName, "cuGetErrorName");
    NEED(GetErrorString, "cuGetErrorString");
#undef NEED
    if (BIND(EventElapsedTime, "cuEventElapsedTime_v2") &&
        BIND(EventElapsedTime, "cuEventElapsedTime") && !missing) {
        missing = "cuEventElapsedTime";
        bad = 1;
    }
    (void)BIND(CtxGetSharedMemConfig, "cuCtxGetSharedMemConfig"); /* optional */
    if (bad) {
        snprintf(err, errlen, "the CUDA driver in libcuda.so.1 is too old: it lacks %s", missing);
        dlclose(d->lib);
        d->lib = NULL;
        return SMEM_GPU_NO_DRIVER;
    }
    return SMEM_GPU_OK;
}

/* Formats "what: CUDA_ERROR_X (description)" into buf. */
__attribute__((format(printf, 5, 0)))
static void cu_message(const struct driver *d, CUresult r, char *buf, size_t n, const char *fmt,
                       va_list ap)
{
    const char *name = NULL, *text = NULL;
    if (d->GetErrorName)
        d->GetErrorName(r, &name);
    if (d->GetErrorString)
        d->GetErrorString(r, &text);
    int k = vsnprintf(buf, n, fmt, ap);
    if (k < 0 || (size_t)k >= n)
        return;
    snprintf(buf + k, n - (size_t)k, ": %s (%s)", name ? name : "unknown CUDA error",
             text ? text : "no description");
}

/* Records a failed driver call on g; returns SMEM_GPU_FAILED. */
static int fail(struct smem_gpu *g, CUresult r, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct smem_gpu *g, CUresult r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cu_message(&g->d, r, g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    return SMEM_GPU_FAILED;
}

/* Records a refused request on g; returns SMEM_GPU_INVALID. */
static int refuse(struct smem_gpu *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int refuse(struct smem_gpu *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(g->err, sizeof g->err, fmt, ap);
    va_end(ap);
    return SMEM_GPU_INVALID;
}

static int attr(struct smem_gpu *g, int which)
{
    int v = 0;
    if (g->d.DeviceGetAttribute(&v, which, g->dev))
        return 0;
    return v;
}

int smem_gpu_open(int device, struct smem_gpu **out, char *err, size_t errlen)
{
    *out = NULL;
    struct smem_gpu *g = calloc(1, sizeof *g);
    if (!g) {
        snprintf(err, errlen, "out of memory");
        return SMEM_GPU_FAILED;
    }
    int st = driver_load(&g->d, err, errlen);
    if (st) {
        free(g);
        return st;
    }
    CUresult r = g->d.Init(0);
    int count = 0;
    if (r == CUDA_ERROR_NO_DEVICE || (!r && (g->d.DeviceGetCount(&count) || count == 0))) {
        snprintf(err, errlen, "no CUDA device: the driver reports no GPU on this machine");
        st = SMEM_GPU_NO_DEVICE;
    } else if (r) {
        fail(g, r, "cuInit");
        snprintf(err, errlen, "the CUDA driver cannot start: %s", g->err);
        st = SMEM_GPU_NO_DEVICE;
    } else if (device < 0 || device >= count) {
        snprintf(err, errlen, "no CUDA device %d: this machine has %d", device, count);
        st = SMEM_GPU_NO_DEVICE;
    } else if ((r = g->d.DeviceGet(&g->dev, device)) ||
               (r = g->d.DevicePrimaryCtxRetain(&g->ctx, g->dev))) {
        fail(g, r, "opening CUDA device %d", device);
        snprintf(err, errlen, "%s", g->err);
        st = SMEM_GPU_NO_DEVICE;
    } else if ((r = g->d.CtxSetCurrent(g->ctx))) {
        fail(g, r, "cuCtxSetCurrent");
        snprintf(err, errlen, "%s", g->err);
        g->d.DevicePrimaryCtxRelease(g->dev);
        st = SMEM_GPU_FAILED;
    }
    if (st) {
        dlclose(g->d.lib);
        free(g);
        return st;
    }
    struct smem_gpu_info *in = &g->info;
    in->device = device;
    g->d.DeviceGetName(in->name, (int)sizeof in->name, g->dev);
    g->d.DriverGetVersion(&in->driver_version);
    in->cc_major = attr(g, CU_ATTR_COMPUTE_CAPABILITY_MAJOR);
    in->cc_minor = attr(g, CU_ATTR_COMPUTE_CAPABILITY_MINOR);
    in->sms = attr(g, CU_ATTR_MULTIPROCESSOR_COUNT);
    in->sm_clock_khz = attr(g, CU_ATTR_CLOCK_RATE);
    in->mem_clock_khz = attr(g, CU_ATTR_MEMORY_CLOCK_RATE);
    in->bus_width_bits = attr(g, CU_ATTR_GLOBAL_MEMORY_BUS_WIDTH);
    in->smem_per_block = attr(g, CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK);
    in->smem_per_block_optin = attr(g, CU_ATTR_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    in->smem_per_sm = attr(g, CU_ATTR_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    in->smem_reserved_per_block = attr(g, CU_ATTR_RESERVED_SHARED_MEMORY_PER_BLOCK);
    in->max_threads_per_block = attr(g, CU_ATTR_MAX_THREADS_PER_BLOCK);
    in->max_threads_per_sm = attr(g, CU_ATTR_MAX_THREADS_PER_MULTIPROCESSOR);
    in->max_blocks_per_sm = attr(g, CU_ATTR_MAX_BLOCKS_PER_MULTIPROCESSOR);
    in->regs_per_sm = attr(g, CU_ATTR_MAX_REGISTERS_PER_MULTIPROCESSOR);
    in->warp_size = attr(g, CU_ATTR_WARP_SIZE);
    in->l2_bytes = attr(g, CU_ATTR_L2_CACHE_SIZE);
    size_t total = 0;
    if (!g->d.DeviceTotalMem(&total, g->dev))
        in->total_mem = total;
    int cfg = -1;
    if (g->d.CtxGetSharedMemConfig && !g->d.CtxGetSharedMemConfig(&cfg))
        in->bank_bytes = cfg == 2 ? 8 : 4; /* CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE = 2 */
    *out = g;
    return SMEM_GPU_OK;
}

void smem_gpu_close(struct smem_gpu *g)
{
    if (!g)
        return;
    while (g->fns) {
        struct fn_entry *n = g->fns->next;
        free(g->fns);
        g->fns = n;
    }
    g->d.DevicePrimaryCtxRelease(g->dev);
    dlclose(g->d.lib);
    free(g);
}

const struct smem_gpu_info *smem_gpu_info(const struct smem_gpu *g)
{
    return &g->info;
}

const char *smem_gpu_error(const struct smem_gpu *g)
{
    return g ? g->err : "";
}

double smem_gpu_peak_smem_bandwidth(const struct smem_gpu_info *info)
{
    return (double)info->sms * 128.0 * (double)info->sm_clock_khz * 1e3;
}

int smem_gpu_module_load(struct smem_gpu *g, const char *path, smem_gpu_module *mod)
{
    *mod = NULL;
    /* NUL-terminated, as PTX images must be */
    char *buf = smem_read_file(path, NULL);
    if (!buf)
        return refuse(g, "%s: cannot read the kernel file", path);
    CUmodule m = NULL;
    CUresult r = g->d.ModuleLoadData(&m, buf);
    free(buf);
    if (r)
        return fail(g, r, "%s: the driver cannot load this module", path);
    *mod = (smem_gpu_module)m;
    return SMEM_GPU_OK;
}

void smem_gpu_module_unload(struct smem_gpu *g, smem_gpu_module mod)
{
    if (mod)
        g->d.ModuleUnload((CUmodule)mod);
}

int smem_gpu_function_get(struct smem_gpu *g, smem_gpu_module mod, const char *name,
                          smem_gpu_function *fn)
{
    *fn = NULL;
    CUfunction f = NULL;
    CUresult r = g->d.ModuleGetFunction(&f, (CUmodule)mod, name);
    if (r)
        return fail(g, r, "kernel %s not found in its module", name);
    struct fn_entry *e = calloc(1, sizeof *e);
    if (!e)
        return refuse(g, "out of memory");
    e->f = f;
    snprintf(e->name, sizeof e->name, "%s", name);
    if ((r = g->d.FuncGetAttribute(&e->static_smem, CU_FUNC_SHARED_SIZE_BYTES, f)) ||
        (r = g->d.FuncGetAttribute(&e->max_dynamic_smem, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, f))) {
        free(e);
        return fail(g, r, "cuFuncGetAttribute(%s)", name);
    }
    e->next = g->fns;
    g->fns = e;
    *fn = (smem_gpu_function)e;
    return SMEM_GPU_OK;
}

static struct fn_entry *entry(smem_gpu_function fn)
{
    return (struct fn_entry *)fn;
}

int smem_gpu_function_attrs(struct smem_gpu *g, smem_gpu_function fn,
                            struct smem_gpu_func_attrs *a)
{
    struct fn_entry *e = entry(fn);
    CUresult r;
    if ((r = g->d.FuncGetAttribute(&a->static_smem, CU_FUNC_SHARED_SIZE_BYTES, e->f)) ||
        (r = g->d.FuncGetAttribute(&a->max_dynamic_smem, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                   e->f)) ||
        (r = g->d.FuncGetAttribute(&a->num_regs, CU_FUNC_NUM_REGS, e->f)) ||
        (r = g->d.FuncGetAttribute(&a->max_threads_per_block, CU_FUNC_MAX_THREADS_PER_BLOCK,
                                   e->f)) ||
        (r = g->d.FuncGetAttribute(&a->local_bytes, CU_FUNC_LOCAL_SIZE_BYTES, e->f)) ||
        (r = g->d.FuncGetAttribute(&a->carveout, CU_FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT, e->f)))
        return fail(g, r, "cuFuncGetAttribute(%s)", e->name);
    return SMEM_GPU_OK;
}

int smem_gpu_set_carveout(struct smem_gpu *g, smem_gpu_function fn, int percent)
{
    struct fn_entry *e = entry(fn);
    if (percent < -1 || percent > 100)
        return refuse(g, "carveout %d%% for %s: expected 0 to 100, or -1 for no preference",
                      percent, e->name);
    CUresult r = g->d.FuncSetAttribute(e->f, CU_FUNC_PREFERRED_SHARED_MEMORY_CARVEOUT, percent);
    if (r)
        return fail(g, r, "setting the shared-memory carveout of %s to %d%%", e->name, percent);
    return SMEM_GPU_OK;
}

int smem_gpu_occupancy(struct smem_gpu *g, smem_gpu_function fn, unsigned threads, size_t dyn_smem,
                       int *blocks_per_sm)
{
    struct fn_entry *e = entry(fn);
    CUresult r = g->d.OccupancyMaxActiveBlocksPerMultiprocessor(blocks_per_sm, e->f, (int)threads,
                                                                dyn_smem);
    if (r)
        return fail(g, r, "occupancy of %s", e->name);
    return SMEM_GPU_OK;
}

int smem_gpu_alloc(struct smem_gpu *g, size_t bytes, smem_gpu_ptr *ptr)
{
    CUdeviceptr p = 0;
    CUresult r = g->d.MemAlloc(&p, bytes ? bytes : 1);
    if (r)
        return fail(g, r, "allocating %zu bytes on the GPU", bytes);
    *ptr = p;
    return SMEM_GPU_OK;
}

void smem_gpu_free(struct smem_gpu *g, smem_gpu_ptr ptr)
{
    if (ptr)
        g->d.MemFree(ptr);
}

int smem_gpu_upload(struct smem_gpu *g, smem_gpu_ptr dst, const void *src, size_t bytes)
{
    CUresult r = g->d.MemcpyHtoD(dst, src, bytes);
    return r ? fail(g, r, "copying %zu bytes to the GPU", bytes) : SMEM_GPU_OK;
}

int smem_gpu_download(struct smem_gpu *g, void *dst, smem_gpu_ptr src, size_t bytes)
{
    CUresult r = g->d.MemcpyDtoH(dst, src, bytes);
    return r ? fail(g, r, "copying %zu bytes from the GPU", bytes) : SMEM_GPU_OK;
}

int smem_gpu_memset(struct smem_gpu *g, smem_gpu_ptr dst, unsigned char byte, size_t bytes)
{
    CUresult r = g->d.MemsetD8(dst, byte, bytes);
    return r ? fail(g, r, "setting %zu bytes on the GPU", bytes) : SMEM_GPU_OK;
}

int smem_gpu_launch(struct smem_gpu *g, smem_gpu_function fn, const unsigned grid[3],
                    const unsigned block[3], unsigned dyn_smem, void **args)
{
    struct fn_entry *e = entry(fn);
    unsigned long long need = (unsigned long long)e->static_smem + dyn_smem;
    if (need > (unsigned long long)g->info.smem_per_block_optin)
        return refuse(g,
                      "%s needs %d bytes of static and %u of dynamic shared memory per block "
                      "(%llu); %s allows at most %d",
                      e->name, e->static_smem, dyn_smem, need, g->info.name,
                      g->info.smem_per_block_optin);
    if (dyn_smem > (unsigned)e->max_dynamic_smem) {
        CUresult r = g->d.FuncSetAttribute(e->f, CU_FUNC_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)dyn_smem);
        if (r)
            return fail(g, r, "raising the dynamic shared-memory limit of %s to %u bytes", e->name,
                        dyn_smem);
        e->max_dynamic_smem = (int)dyn_smem;
    }
    CUresult r = g->d.LaunchKernel(e->f, grid[0], grid[1], grid[2], block[0], block[1], block[2],
                                   dyn_smem, NULL, args, NULL);
    if (r)
        return fail(g, r, "launching %s <<<(%u,%u,%u), (%u,%u,%u), %u>>>", e->name, grid[0],
                    grid[1], grid[2], block[0], block[1], block[2], dyn_smem);
    return SMEM_GPU_OK;
}

int smem_gpu_sync(struct smem_gpu *g)
{
    CUresult r = g->d.CtxSynchronize();
    return r ? fail(g, r, "waiting for the GPU") : SMEM_GPU_OK;
}

int smem_gpu_event_create(struct smem_gpu *g, smem_gpu_event *ev)
{
    CUevent e = NULL;
    CUresult r = g->d.EventCreate(&e, 0);
    if (r)
        return fail(g, r, "cuEventCreate");
    *ev = (smem_gpu_event)e;
    return SMEM_GPU_OK;
}

void smem_gpu_event_destroy(struct smem_gpu *g, smem_gpu_event ev)
{
    if (ev)
        g->d.EventDestroy((CUevent)ev);
}

int smem_gpu_event_record(struct smem_gpu *g, smem_gpu_event ev)
{
    CUresult r = g->d.EventRecord((CUevent)ev, NULL);
    return r ? fail(g, r, "cuEventRecord") : SMEM_GPU_OK;
}

int smem_gpu_event_elapsed(struct smem_gpu *g, smem_gpu_event start, smem_gpu_event stop, float *ms)
{
    CUresult r = g->d.EventSynchronize((CUevent)stop);
    if (!r)
        r = g->d.EventElapsedTime(ms, (CUevent)start, (CUevent)stop);
    return r ? fail(g, r, "timing with CUDA events") : SMEM_GPU_OK;
}
