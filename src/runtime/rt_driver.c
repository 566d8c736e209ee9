/* rt_driver.c: the CUDA driver API of `smemlab run`, inside the runtime library so that both APIs
 * share one state (the device, its memory, the primary context). The calls of cu_impl.h are
 * implemented here as drv_<name>, exported as __cudaSmemlabDrv_<name> (libcudart.so.13 exports
 * them; libcuda.so.1, the stand-in for programs linked with -lcuda, forwards its names to them),
 * which records an error returned to the program (rt_sanitize.c); every other name of
 * CUDA's cuda.h (driver/cu_symbols.inc) is refused by name: the program stops with one sentence
 * naming the call and its caller, exit 3. Programs that take the driver through the runtime
 * (cudaGetDriverEntryPoint(ByVersion): CUTLASS, fast.cu for tensor maps) get the same functions,
 * per version as cudaTypedefs.h numbers them. Implemented: initialisation, the device and its
 * attributes, the primary context (current per thread, a stack for push / pop) and created ones
 * (sharing its state), tensor maps (model/tensormap.h: the H200 driver's checks, smemlab's
 * encoding), cuGetProcAddress, the error names and strings; device and pinned memory, copies,
 * sets and pointer attributes, streams and events (the runtime's calls); modules and libraries
 * (PTX text, fatbinaries, cubins with their PTX beside them: the runtime's modules, loaded at
 * once; cubins a link made, through rt_link.c), linking PTX (cuLink*: rt_link.c), functions and
 * their attributes, occupancy (clusters refused), and launches (cuLaunchKernel / Ex through the
 * runtime's launch: checked, run and priced as any launch). */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include "rt_internal.h"

#include "runtime/driver/cu_abi.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/base/signature.h"
#include "smemlab/model/tensormap.h"
#include "smemlab/ptx/fatbin.h"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>

/* the runtime's answers the driver's calls give too (rt_device.c) */
RT_API cudaError_t cudaDriverGetVersion(int *v);
RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d);

#define CU_IMPL(ret, name, params, args) RT_API ret __cudaSmemlabDrv_##name params; static ret drv_##name params;
#include "runtime/driver/cu_impl.h"
#undef CU_IMPL

/* ---- refusing a call ------------------------------------------------------------------------ */

/* "called from prog (main+0x1c)" for the return address a, into buf */
static const char *caller(const void *a, char *buf, size_t n)
{
    Dl_info di;
    if (a && dladdr(a, &di) && di.dli_fname) {
        const char *f = strrchr(di.dli_fname, '/');
        f = f ? f + 1 : di.dli_fname;
        if (di.dli_sname)
            snprintf(buf, n, "; called from %s (%s+0x%lx)", f, di.dli_sname,
                     (unsigned long)((const char *)a - (const char *)di.dli_saddr));
        else
            snprintf(buf, n, "; called from %s", f);
    } else {
        buf[0] = 0;
    }
    return buf;
}

/* Stops the program at driver call `name`, called from return address `from`. For
 * libcuda.so.1's stubs (libcuda_stubs.c) too. */
RT_API void __cudaSmemlabDriverRefuse(const char *name, const void *from) __attribute__((noreturn));
RT_API void __cudaSmemlabDriverRefuse(const char *name, const void *from)
{
    char why[700], at[500];
    snprintf(why, sizeof why, "smemlab run provides the driver API's initialisation, devices, "
             "contexts, memory (device and pinned), streams, events, modules, libraries, "
             "launches, tensor maps and entry points, not this call%s",
             caller(from, at, sizeof at));
    rt_unsupported(name, why);
}

#define CU_SYM(name)                                                                            \
    static int stub_##name(void);                                                              \
    static int stub_##name(void)                                                               \
    {                                                                                           \
        __cudaSmemlabDriverRefuse(#name, __builtin_return_address(0));                        \
    }
#define CU_PROC(api, version, name)
#define CU_PROC_PTDS(api, version, name)
#include "runtime/driver/cu_symbols.inc"
#undef CU_SYM

typedef void (*fnptr)(void);
static const struct sym {
    const char *name;
    fnptr fn;
} stubs[] = {
#define CU_SYM(name) {#name, (fnptr)stub_##name},
#include "runtime/driver/cu_symbols.inc"
#undef CU_SYM
}, impls[] = {
#define CU_IMPL(ret, name, params, args) {#name, (fnptr)__cudaSmemlabDrv_##name},
#include "runtime/driver/cu_impl.h"
#undef CU_IMPL
};
#undef CU_PROC
#undef CU_PROC_PTDS

static const struct proc {
    const char *api;
    int version, ptds;
    const char *name;
} procs[] = {
#define CU_SYM(name)
#define CU_PROC(api, version, name) {#api, version, 0, #name},
#define CU_PROC_PTDS(api, version, name) {#api, version, 1, #name},
#include "runtime/driver/cu_symbols.inc"
#undef CU_SYM
#undef CU_PROC
#undef CU_PROC_PTDS
};

/* The function the program reaches under ABI name `name`: libcuda.so.1's export where the program
 * loaded it (so that cuGetProcAddress("cuInit") is &cuInit, as with NVIDIA's driver), else ours. */
static void *function_of(const char *name)
{
    void *p = dlsym(RTLD_DEFAULT, name);
    if (p)
        return p;
    fnptr f = NULL;
    for (size_t i = 0; i < sizeof impls / sizeof impls[0] && !f; i++)
        if (!strcmp(impls[i].name, name))
            f = impls[i].fn;
    for (size_t i = 0; i < sizeof stubs / sizeof stubs[0] && !f; i++)
        if (!strcmp(stubs[i].name, name))
            f = stubs[i].fn;
    memcpy(&p, &f, sizeof p);
    return p;
}

/* cuGetProcAddress's search: the latest name of api whose version is <= version (per-thread
 * default stream forms first when ptds); its CU_GET_PROC_ADDRESS_* answer. */
static int lookup(const char *api, int version, int ptds, void **fn)
{
    const struct proc *best = NULL;
    int known = 0;
    for (int pass = ptds ? 1 : 0; pass >= 0 && !best; pass--)
        for (size_t i = 0; i < sizeof procs / sizeof procs[0]; i++)
            if (procs[i].ptds == pass && !strcmp(procs[i].api, api)) {
                known = 1;
                if (procs[i].version <= version && (!best || procs[i].version > best->version))
                    best = &procs[i];
            }
    *fn = NULL;
    if (!best)
        return known ? CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    *fn = function_of(best->name);
    return CU_GET_PROC_ADDRESS_SUCCESS;
}

/* ---- the state ---------------------------------------------------------------------------- */

struct CUctx_st {
    int device;
};
static struct CUctx_st primary;
static int initialised;
static unsigned primary_retains, primary_flags;
#define CTX_STACK 16
static _Thread_local CUcontext stack[CTX_STACK];
static _Thread_local unsigned depth; /* stack[depth - 1] is current */

/* the primary context is active once retained, or once the runtime has used the device */
static int primary_active(void)
{
    return primary_retains > 0 || rt_context_exists();
}

static int valid_context(CUcontext c);

static CUcontext current(void)
{
    if (depth)
        return stack[depth - 1];
    return primary_active() ? &primary : NULL; /* the runtime made it current */
}

/* The runtime initialises the driver when it first uses the device (CUTLASS's fill_workspace calls
 * cuMemsetD32Async after cudaMalloc, never cuInit: example 54 stopped with "Error Internal") */
static int driver_initialised(void)
{
    rt_lock();
    int r = initialised || primary_active();
    rt_unlock();
    return r;
}

#define NEED_INIT()                                                                             \
    do {                                                                                        \
        if (!driver_initialised())                                                              \
            return CUDA_ERROR_NOT_INITIALIZED;                                                  \
    } while (0)
#define NEED_DEVICE(d)                                                                          \
    do {                                                                                        \
        if ((d) != 0)                                                                           \
            return CUDA_ERROR_INVALID_DEVICE;                                                   \
    } while (0)

/* ---- initialisation, the device --------------------------------------------------------------- */

static CUresult drv_cuInit(unsigned flags)
{
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    initialised = 1;
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    return cudaDriverGetVersion(v) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult drv_cuDeviceGetCount(int *n)
{
    NEED_INIT();
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

static CUresult drv_cuDeviceGet(CUdevice *d, int ordinal)
{
    NEED_INIT();
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(ordinal);
    *d = 0;
    return CUDA_SUCCESS;
}

static void props(struct cudaDeviceProp *p)
{
    cudaGetDeviceProperties(p, 0); /* device 0, p not NULL: sets no error */
}

static CUresult drv_cuDeviceGetName(char *name, int len, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (!name || len <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    props(&p);
    snprintf(name, (size_t)len, "%s", p.name);
    return CUDA_SUCCESS;
}

static CUresult drv_cuDeviceGetUuid(CUuuid *u, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (!u)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    props(&p);
    memcpy(u->bytes, p.uuid.bytes, sizeof u->bytes);
    return CUDA_SUCCESS;
}

static CUresult drv_cuDeviceGetUuid_v2(CUuuid *u, CUdevice d)
{
    return drv_cuDeviceGetUuid(u, d);
}

static CUresult drv_cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (!bytes)
        return CUDA_ERROR_INVALID_VALUE;
    struct cudaDeviceProp p;
    props(&p);
    *bytes = p.totalGlobalMem;
    return CUDA_SUCCESS;
}

static CUresult drv_cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
    NEED_INIT();
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(d);
    /* the runtime's answers (cudaDeviceAttr and CUdevice_attribute number them alike); an
       attribute the emulated device does not answer: invalid value, as the runtime says */
    return rt_device_attribute(attr, v) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

static CUresult drv_cuDeviceComputeCapability(int *major, int *minor, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (!major || !minor)
        return CUDA_ERROR_INVALID_VALUE;
    *major = 9;
    *minor = 0;
    return CUDA_SUCCESS;
}

/* ---- the primary context -------------------------------------------------------------------- */

static CUresult drv_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
    NEED_INIT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(d);
    rt_lock();
    primary_retains++;
    rt_unlock();
    *c = &primary;
    return CUDA_SUCCESS;
}

static CUresult drv_cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    rt_lock();
    CUresult r = primary_retains ? (primary_retains--, CUDA_SUCCESS) : CUDA_ERROR_INVALID_CONTEXT;
    rt_unlock();
    return r;
}

static CUresult drv_cuDevicePrimaryCtxRelease(CUdevice d)
{
    return drv_cuDevicePrimaryCtxRelease_v2(d);
}

static CUresult drv_cuDevicePrimaryCtxReset_v2(CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    return CUDA_SUCCESS; /* the device's memory stays, as after cudaDeviceReset here */
}

static CUresult drv_cuDevicePrimaryCtxReset(CUdevice d)
{
    return drv_cuDevicePrimaryCtxReset_v2(d);
}

static CUresult drv_cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (!flags || !active)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    *flags = primary_flags;
    *active = primary_active();
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags)
{
    NEED_INIT();
    NEED_DEVICE(d);
    if (flags & ~0x1fu) /* CU_CTX_SCHED_MASK | MAP_HOST | LMEM_RESIZE_TO_MAX */
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    primary_flags = flags;
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned flags)
{
    return drv_cuDevicePrimaryCtxSetFlags_v2(d, flags);
}

static CUresult drv_cuCtxGetCurrent(CUcontext *c)
{
    NEED_INIT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    *c = current();
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxSetCurrent(CUcontext c)
{
    NEED_INIT();
    rt_lock();
    int ok = !c || valid_context(c);
    rt_unlock();
    if (!ok)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (!c) {
        if (depth)
            depth--;
        return CUDA_SUCCESS;
    }
    if (!depth)
        depth = 1;
    stack[depth - 1] = c;
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxPushCurrent_v2(CUcontext c)
{
    NEED_INIT();
    rt_lock();
    int ok = valid_context(c);
    rt_unlock();
    if (!ok)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (depth == CTX_STACK)
        return CUDA_ERROR_INVALID_VALUE;
    stack[depth++] = c;
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxPushCurrent(CUcontext c)
{
    return drv_cuCtxPushCurrent_v2(c);
}

static CUresult drv_cuCtxPopCurrent_v2(CUcontext *c)
{
    NEED_INIT();
    if (!depth)
        return CUDA_ERROR_INVALID_CONTEXT;
    depth--;
    if (c)
        *c = stack[depth];
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxPopCurrent(CUcontext *c)
{
    return drv_cuCtxPopCurrent_v2(c);
}

static CUresult drv_cuCtxGetDevice(CUdevice *d)
{
    NEED_INIT();
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    CUcontext c = current();
    rt_unlock();
    if (!c)
        return CUDA_ERROR_INVALID_CONTEXT;
    *d = c->device;
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxGetApiVersion(CUcontext c, unsigned *version)
{
    NEED_INIT();
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (c && !valid_context(c))
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020; /* what the H200's driver answers for the primary context */
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxSynchronize(void)
{
    NEED_INIT();
    rt_lock();
    CUcontext c = current();
    rt_unlock();
    return c ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; /* every launch has finished */
}

/* ---- tensor maps ---------------------------------------------------------------------------- */

static CUresult encode(CUtensorMap *m, struct smem_tensormap *t, int dtype, int interleave,
                       int swizzle, int l2, int oob)
{
    /* out-of-range enum values are kept out of range for the check (uint8_t fields) */
    t->dtype = (uint8_t)(dtype >= 0 && dtype < 255 ? dtype : 255);
    t->interleave = (uint8_t)(interleave >= 0 && interleave < 255 ? interleave : 255);
    t->swizzle = (uint8_t)(swizzle >= 0 && swizzle < 255 ? swizzle : 255);
    t->l2promotion = (uint8_t)(l2 >= 0 && l2 < 255 ? l2 : 255);
    t->oobfill = (uint8_t)(oob >= 0 && oob < 255 ? oob : 255);
    if (smem_tensormap_check(t, 1, NULL, 0))
        return CUDA_ERROR_INVALID_VALUE;
    uint8_t b[SMEM_TMAP_BYTES];
    smem_tensormap_encode(t, b);
    memcpy(m, b, sizeof b);
    return CUDA_SUCCESS;
}

static CUresult drv_cuTensorMapEncodeTiled(
    CUtensorMap *m, int dtype, cuuint32_t rank, void *addr, const cuuint64_t *dim,
    const cuuint64_t *strides, const cuuint32_t *box, const cuuint32_t *estrides, int interleave,
    int swizzle, int l2, int oob)
{
    if (!m || !dim || !box || !estrides || (rank > 1 && !strides))
        return CUDA_ERROR_INVALID_VALUE;
    if (rank < 1 || rank > SMEM_TMAP_MAX_RANK)
        return CUDA_ERROR_INVALID_VALUE;
    struct smem_tensormap t;
    memset(&t, 0, sizeof t);
    t.rank = (uint8_t)rank;
    t.addr = (uint64_t)(uintptr_t)addr;
    for (unsigned d = 0; d < rank; d++) {
        t.dim[d] = dim[d];
        t.box[d] = box[d];
        t.estride[d] = estrides[d];
        if (d + 1 < rank)
            t.stride[d] = strides[d];
    }
    return encode(m, &t, dtype, interleave, swizzle, l2, oob);
}

static CUresult drv_cuTensorMapEncodeIm2col(
    CUtensorMap *m, int dtype, cuuint32_t rank, void *addr, const cuuint64_t *dim,
    const cuuint64_t *strides, const int *lower, const int *upper, cuuint32_t channels,
    cuuint32_t pixels, const cuuint32_t *estrides, int interleave, int swizzle, int l2, int oob)
{
    if (!m || !dim || !estrides || !strides || !lower || !upper)
        return CUDA_ERROR_INVALID_VALUE;
    if (rank < 3 || rank > SMEM_TMAP_MAX_RANK)
        return CUDA_ERROR_INVALID_VALUE;
    struct smem_tensormap t;
    memset(&t, 0, sizeof t);
    t.im2col = 1;
    t.rank = (uint8_t)rank;
    t.addr = (uint64_t)(uintptr_t)addr;
    for (unsigned d = 0; d < rank; d++) {
        t.dim[d] = dim[d];
        t.estride[d] = estrides[d];
        if (d + 1 < rank)
            t.stride[d] = strides[d];
        if (d + 2 < rank) {
            t.lower[d] = lower[d];
            t.upper[d] = upper[d];
        }
    }
    t.channels = channels;
    t.pixels = pixels;
    return encode(m, &t, dtype, interleave, swizzle, l2, oob);
}

static CUresult drv_cuTensorMapReplaceAddress(CUtensorMap *m, void *addr)
{
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    uint8_t b[SMEM_TMAP_BYTES];
    memcpy(b, m, sizeof b);
    struct smem_tensormap t;
    smem_tensormap_decode(b, &t);
    t.addr = (uint64_t)(uintptr_t)addr;
    if (smem_tensormap_check(&t, 1, NULL, 0))
        return CUDA_ERROR_INVALID_VALUE; /* misaligned, or not a map */
    smem_tensormap_replace(b, SMEM_TMAP_F_GLOBAL_ADDRESS, 0, t.addr);
    memcpy(m, b, sizeof b);
    return CUDA_SUCCESS;
}

/* ---- entry points -------------------------------------------------------------------------- */

static CUresult drv_cuGetProcAddress_v2(const char *symbol, void **fn, int version,
                                                     cuuint64_t flags, int *status)
{
    if (!symbol || !fn || flags > CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)
        return CUDA_ERROR_INVALID_VALUE;
    int s = lookup(symbol, version, flags == CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM, fn);
    if (status)
        *status = s;
    else if (s != CU_GET_PROC_ADDRESS_SUCCESS)
        return CUDA_ERROR_NOT_FOUND;
    return CUDA_SUCCESS;
}

static CUresult drv_cuGetProcAddress(const char *symbol, void **fn, int version,
                                                  cuuint64_t flags)
{
    return drv_cuGetProcAddress_v2(symbol, fn, version, flags, NULL);
}

static const struct {
    int value;
    const char *name, *text;
} cu_errors[] = {
#define CU_ERR(v, name, text) {v, #name, text},
#include "runtime/driver/cu_errors.inc"
#undef CU_ERR
};

static CUresult error_text(CUresult e, const char **s, int name)
{
    if (!s)
        return CUDA_ERROR_INVALID_VALUE;
    for (size_t i = 0; i < sizeof cu_errors / sizeof cu_errors[0]; i++)
        if (cu_errors[i].value == e) {
            *s = name ? cu_errors[i].name : cu_errors[i].text;
            return CUDA_SUCCESS;
        }
    return CUDA_ERROR_INVALID_VALUE; /* *s untouched, as the H200's driver leaves it */
}

static CUresult drv_cuGetErrorName(CUresult e, const char **s)
{
    return error_text(e, s, 1);
}

static CUresult drv_cuGetErrorString(CUresult e, const char **s)
{
    return error_text(e, s, 0);
}

/* The runtime's door to the driver: cudaEnableDefault 0, LegacyStream 1, PerThreadDefaultStream
 * 2; a symbol not found or too new is cudaSuccess with the status saying so (the H200), or
 * cudaErrorSymbolNotFound where the caller asks no status (cuda_runtime_api.h). */
RT_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned version,
                                                    unsigned long long flags, int *status);
RT_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **fn, unsigned version,
                                                    unsigned long long flags, int *status)
{
    if (!symbol || !fn || flags > 2)
        return rt_error(cudaErrorInvalidValue);
    int s = lookup(symbol, (int)version, flags == 2, fn);
    if (status)
        *status = s;
    else if (s != CU_GET_PROC_ADDRESS_SUCCESS)
        return rt_error(cudaErrorSymbolNotFound);
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                           int *status);
RT_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **fn, unsigned long long flags,
                                           int *status)
{
    /* the version this runtime is: CUDA 13.0 */
    return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags, status);
}

RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn,
                                                unsigned long long flags, int *status);
RT_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **fn,
                                                unsigned long long flags, int *status)
{
    /* a program built with --default-stream per-thread: its default is the per-thread forms */
    return cudaGetDriverEntryPointByVersion(symbol, fn, 13000, flags ? flags : 2, status);
}

RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **fn,
                                                         unsigned version, unsigned long long flags,
                                                         int *status);
RT_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **fn,
                                                         unsigned version, unsigned long long flags,
                                                         int *status)
{
    return cudaGetDriverEntryPointByVersion(symbol, fn, version, flags ? flags : 2, status);
}

/* ---- created contexts ------------------------------------------------------------------------ */

/* A created context shares everything with the primary one (one device, one address space); it
 * exists to be current, pushed, popped and destroyed. */
#define MAX_CREATED 64
static CUcontext created[MAX_CREATED];

static int valid_context(CUcontext c)
{
    if (c == &primary)
        return 1;
    for (unsigned i = 0; c && i < MAX_CREATED; i++)
        if (created[i] == c)
            return 1;
    return 0;
}

static CUresult create_context(CUcontext *c, CUdevice d)
{
    NEED_INIT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(d);
    if (depth == CTX_STACK)
        return CUDA_ERROR_INVALID_VALUE;
    CUcontext n = calloc(1, sizeof *n);
    if (!n)
        return CUDA_ERROR_OUT_OF_MEMORY;
    rt_lock();
    unsigned i = 0;
    while (i < MAX_CREATED && created[i])
        i++;
    if (i < MAX_CREATED)
        created[i] = n;
    rt_unlock();
    if (i == MAX_CREATED) {
        free(n);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    stack[depth++] = n; /* current to the calling thread, as cuCtxCreate makes it */
    *c = n;
    return CUDA_SUCCESS;
}

static CUresult drv_cuCtxCreate_v2(CUcontext *c, unsigned flags, CUdevice d)
{
    (void)flags;
    return create_context(c, d);
}

static CUresult drv_cuCtxCreate_v3(CUcontext *c, void *affinity, int n,
                                                unsigned flags, CUdevice d)
{
    (void)affinity, (void)n, (void)flags;
    return create_context(c, d);
}

static CUresult drv_cuCtxCreate_v4(CUcontext *c, void *params, unsigned flags,
                                                CUdevice d)
{
    (void)params, (void)flags;
    return create_context(c, d);
}

static CUresult drv_cuCtxDestroy_v2(CUcontext c)
{
    NEED_INIT();
    if (!c || c == &primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    rt_lock();
    unsigned i = 0;
    while (i < MAX_CREATED && created[i] != c)
        i++;
    if (i < MAX_CREATED)
        created[i] = NULL;
    rt_unlock();
    if (i == MAX_CREATED)
        return CUDA_ERROR_INVALID_CONTEXT;
    /* off this thread's stack wherever it is */
    unsigned k = 0;
    for (unsigned j = 0; j < depth; j++)
        if (stack[j] != c)
            stack[k++] = stack[j];
    depth = k;
    free(c);
    return CUDA_SUCCESS;
}

/* ---- what the calls below share ------------------------------------------------------------ */

#define NEED_CONTEXT()                                                                          \
    do {                                                                                        \
        if (!driver_initialised())                                                              \
            return CUDA_ERROR_NOT_INITIALIZED;                                                  \
        rt_lock();                                                                              \
        CUcontext c_ = current();                                                               \
        rt_unlock();                                                                            \
        if (!c_)                                                                                \
            return CUDA_ERROR_INVALID_CONTEXT;                                                  \
    } while (0)

/* The driver's answer for the runtime's error e (the two share their numbers from 100 on). */
static CUresult cu_of(cudaError_t e)
{
    switch ((int)e) {
    case cudaSuccess:
        return CUDA_SUCCESS;
    case cudaErrorMemoryAllocation:
        return CUDA_ERROR_OUT_OF_MEMORY;
    case cudaErrorInvalidResourceHandle:
    case cudaErrorInvalidDeviceFunction:
        return CUDA_ERROR_INVALID_HANDLE;
    default:
        return (int)e >= 100 ? (CUresult)e : CUDA_ERROR_INVALID_VALUE;
    }
}

static void *ptr(CUdeviceptr p)
{
    return (void *)(uintptr_t)p;
}

/* ---- memory --------------------------------------------------------------------------------- */

RT_API cudaError_t cudaMalloc(void **p, size_t size);
RT_API cudaError_t cudaFree(void *p);
RT_API cudaError_t cudaMallocHost(void **p, size_t size);
RT_API cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags);
RT_API cudaError_t cudaFreeHost(void *p);
RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemset(void *dst, int value, size_t n);

static CUresult drv_cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    NEED_CONTEXT();
    if (!p || !n)
        return CUDA_ERROR_INVALID_VALUE; /* the driver refuses a 0-byte allocation */
    void *q = NULL;
    CUresult r = cu_of(cudaMalloc(&q, n));
    *p = r ? 0 : (CUdeviceptr)(uintptr_t)q;
    return r;
}

static CUresult drv_cuMemFree_v2(CUdeviceptr p)
{
    NEED_CONTEXT();
    return cu_of(cudaFree(ptr(p)));
}

static CUresult drv_cuMemAllocHost_v2(void **p, size_t n)
{
    NEED_CONTEXT();
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaMallocHost(p, n));
}

static CUresult drv_cuMemHostAlloc(void **p, size_t n, unsigned flags)
{
    NEED_CONTEXT();
    if (!p)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaHostAlloc(p, n, flags));
}

static CUresult drv_cuMemFreeHost(void *p)
{
    NEED_CONTEXT();
    return cu_of(cudaFreeHost(p));
}

static CUresult drv_cuMemGetInfo_v2(size_t *free_bytes, size_t *total)
{
    NEED_CONTEXT();
    if (!free_bytes || !total)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaMemGetInfo(free_bytes, total));
}

static CUresult copy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    NEED_CONTEXT();
    return cu_of(cudaMemcpy(dst, src, n, kind));
}

static CUresult drv_cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    return copy(ptr(dst), ptr(src), n, cudaMemcpyDefault);
}

static CUresult drv_cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n,
                                               CUstream s)
{
    (void)s; /* every stream's work is done in order, at once */
    return copy(ptr(dst), ptr(src), n, cudaMemcpyDefault);
}

static CUresult drv_cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n)
{
    return copy(ptr(dst), src, n, cudaMemcpyHostToDevice);
}

static CUresult drv_cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n)
{
    return copy(dst, ptr(src), n, cudaMemcpyDeviceToHost);
}

static CUresult drv_cuMemcpyDtoD_v2(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    return copy(ptr(dst), ptr(src), n, cudaMemcpyDeviceToDevice);
}

static CUresult drv_cuMemcpyHtoDAsync_v2(CUdeviceptr dst, const void *src, size_t n,
                                                      CUstream s)
{
    (void)s;
    return copy(ptr(dst), src, n, cudaMemcpyHostToDevice);
}

static CUresult drv_cuMemcpyDtoHAsync_v2(void *dst, CUdeviceptr src, size_t n,
                                                      CUstream s)
{
    (void)s;
    return copy(dst, ptr(src), n, cudaMemcpyDeviceToHost);
}

static CUresult drv_cuMemcpyDtoDAsync_v2(CUdeviceptr dst, CUdeviceptr src, size_t n,
                                                      CUstream s)
{
    (void)s;
    return copy(ptr(dst), ptr(src), n, cudaMemcpyDeviceToDevice);
}

/* cuMemsetD8/16/32: n elements of `bytes` bytes each, dst aligned to them */
static CUresult set(CUdeviceptr dst, unsigned v, size_t n, unsigned bytes)
{
    NEED_CONTEXT();
    if (bytes == 1)
        return cu_of(cudaMemset(ptr(dst), (int)v, n));
    if (dst % bytes || n > SIZE_MAX / bytes)
        return CUDA_ERROR_INVALID_VALUE;
    if (!n)
        return CUDA_SUCCESS;
    rt_lock();
    uint8_t *d = rt_host_ptr(ptr(dst), (uint64_t)n * bytes);
    for (size_t i = 0; d && i < n; i++)
        memcpy(d + i * bytes, &(uint32_t){v}, bytes); /* little-endian: the low bytes */
    rt_unlock();
    return d ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

static CUresult drv_cuMemsetD8_v2(CUdeviceptr dst, unsigned char v, size_t n)
{
    return set(dst, v, n, 1);
}

static CUresult drv_cuMemsetD16_v2(CUdeviceptr dst, unsigned short v, size_t n)
{
    return set(dst, v, n, 2);
}

static CUresult drv_cuMemsetD32_v2(CUdeviceptr dst, unsigned v, size_t n)
{
    return set(dst, v, n, 4);
}

static CUresult drv_cuMemsetD8Async(CUdeviceptr dst, unsigned char v, size_t n,
                                                 CUstream s)
{
    (void)s;
    return set(dst, v, n, 1);
}

static CUresult drv_cuMemsetD16Async(CUdeviceptr dst, unsigned short v, size_t n,
                                                  CUstream s)
{
    (void)s;
    return set(dst, v, n, 2);
}

static CUresult drv_cuMemsetD32Async(CUdeviceptr dst, unsigned v, size_t n,
                                                  CUstream s)
{
    (void)s;
    return set(dst, v, n, 4);
}

/* CUpointer_attribute and CUmemorytype, as cuda.h numbers them */
enum {
    PA_CONTEXT = 1, PA_MEMORY_TYPE, PA_DEVICE_POINTER, PA_HOST_POINTER, PA_SYNC_MEMOPS = 6,
    PA_BUFFER_ID, PA_IS_MANAGED, PA_DEVICE_ORDINAL, PA_RANGE_START_ADDR = 11, PA_RANGE_SIZE,
    PA_MAPPED
};
enum { MT_HOST = 1, MT_DEVICE = 2 };

/* One attribute of the allocation holding p into data (its type's size, as cuda.h says). */
static CUresult pointer_attribute(void *data, int attr, CUdeviceptr p)
{
    struct rt_alloc *al = rt_find(p, 1);
    if (!al)
        return CUDA_ERROR_INVALID_VALUE; /* memory the driver does not know */
    int dev = al->kind == RT_DEVICE || al->kind == RT_VARIABLE;
    switch (attr) {
    case PA_CONTEXT:
        *(CUcontext *)data = &primary;
        break;
    case PA_MEMORY_TYPE:
        *(unsigned *)data = dev || al->kind == RT_MANAGED ? MT_DEVICE : MT_HOST;
        break;
    case PA_DEVICE_POINTER:
        *(CUdeviceptr *)data = p;
        break;
    case PA_HOST_POINTER:
        if (dev)
            return CUDA_ERROR_INVALID_VALUE;
        *(void **)data = ptr(p);
        break;
    case PA_SYNC_MEMOPS:
    case PA_MAPPED:
        *(int *)data = 1;
        break;
    case PA_BUFFER_ID:
        *(unsigned long long *)data = al->seq + 1;
        break;
    case PA_IS_MANAGED:
        *(int *)data = al->kind == RT_MANAGED;
        break;
    case PA_DEVICE_ORDINAL:
        *(int *)data = 0;
        break;
    case PA_RANGE_START_ADDR:
        *(CUdeviceptr *)data = al->dev;
        break;
    case PA_RANGE_SIZE:
        *(size_t *)data = (size_t)al->size;
        break;
    default:
        return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult drv_cuPointerGetAttribute(void *data, int attr, CUdeviceptr p)
{
    NEED_INIT();
    if (!data)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    CUresult r = pointer_attribute(data, attr, p);
    rt_unlock();
    return r;
}

static CUresult drv_cuPointerGetAttributes(unsigned n, int *attrs, void **data,
                                                        CUdeviceptr p)
{
    NEED_INIT();
    if (!attrs || !data)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    CUresult r = CUDA_SUCCESS;
    int known = rt_find(p, 1) != NULL;
    for (unsigned i = 0; i < n && !r; i++) {
        if (!data[i])
            continue;
        if (known) {
            r = pointer_attribute(data[i], attrs[i], p);
            continue;
        }
        /* memory the driver does not know: what cuda.h documents for it, no error */
        switch (attrs[i]) {
        case PA_CONTEXT:
            *(CUcontext *)data[i] = NULL;
            break;
        case PA_DEVICE_ORDINAL:
            *(int *)data[i] = -2;
            break;
        case PA_MEMORY_TYPE:
        case PA_SYNC_MEMOPS:
        case PA_IS_MANAGED:
        case PA_MAPPED:
            *(int *)data[i] = 0;
            break;
        case PA_BUFFER_ID:
        case PA_DEVICE_POINTER:
        case PA_RANGE_START_ADDR:
        case PA_HOST_POINTER:
        case PA_RANGE_SIZE:
            *(uint64_t *)data[i] = 0;
            break;
        default:
            r = CUDA_ERROR_INVALID_VALUE;
        }
    }
    rt_unlock();
    return r;
}

/* ---- streams and events: the runtime's ------------------------------------------------------- */

RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
RT_API cudaError_t cudaStreamDestroy(cudaStream_t s);
RT_API cudaError_t cudaStreamSynchronize(cudaStream_t s);
RT_API cudaError_t cudaStreamQuery(cudaStream_t s);
RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
RT_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
RT_API cudaError_t cudaEventSynchronize(cudaEvent_t e);
RT_API cudaError_t cudaEventQuery(cudaEvent_t e);
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
RT_API cudaError_t cudaEventDestroy(cudaEvent_t e);

static CUresult drv_cuStreamCreateWithPriority(CUstream *s, unsigned flags,
                                                            int priority)
{
    NEED_CONTEXT();
    if (!s || flags > 1)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaStreamCreateWithPriority(s, flags, priority));
}

static CUresult drv_cuStreamCreate(CUstream *s, unsigned flags)
{
    return drv_cuStreamCreateWithPriority(s, flags, 0);
}

static CUresult drv_cuStreamDestroy_v2(CUstream s)
{
    NEED_CONTEXT();
    if (!s)
        return CUDA_ERROR_INVALID_HANDLE;
    return cu_of(cudaStreamDestroy(s));
}

static CUresult drv_cuStreamSynchronize(CUstream s)
{
    NEED_CONTEXT();
    return cu_of(cudaStreamSynchronize(s));
}

static CUresult drv_cuStreamQuery(CUstream s)
{
    NEED_CONTEXT();
    return cu_of(cudaStreamQuery(s));
}

static CUresult drv_cuStreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
    NEED_CONTEXT();
    if (!e)
        return CUDA_ERROR_INVALID_HANDLE;
    return cu_of(cudaStreamWaitEvent(s, e, flags));
}

static CUresult drv_cuEventCreate(CUevent *e, unsigned flags)
{
    NEED_CONTEXT();
    if (!e || flags > 0xf)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaEventCreateWithFlags(e, flags));
}

static CUresult drv_cuEventRecord(CUevent e, CUstream s)
{
    NEED_CONTEXT();
    return cu_of(cudaEventRecord(e, s));
}

static CUresult drv_cuEventSynchronize(CUevent e)
{
    NEED_CONTEXT();
    return cu_of(cudaEventSynchronize(e));
}

static CUresult drv_cuEventQuery(CUevent e)
{
    NEED_CONTEXT();
    return cu_of(cudaEventQuery(e));
}

static CUresult drv_cuEventElapsedTime_v2(float *ms, CUevent a, CUevent b)
{
    NEED_CONTEXT();
    return cu_of(cudaEventElapsedTime(ms, a, b));
}

static CUresult drv_cuEventElapsedTime(float *ms, CUevent a, CUevent b)
{
    return drv_cuEventElapsedTime_v2(ms, a, b);
}

static CUresult drv_cuEventDestroy_v2(CUevent e)
{
    NEED_CONTEXT();
    if (!e)
        return CUDA_ERROR_INVALID_HANDLE;
    return cu_of(cudaEventDestroy(e));
}

/* ---- modules and libraries -------------------------------------------------------------------- */

/* The modules and functions handed out (a handle the program passes back is checked against
 * them before it is used). A module is a struct rt_module of the runtime, loaded at once (its
 * PTX read and its variables placed); a function is a struct rt_kernel whose host stub is a byte
 * of its own (the key the runtime's launch, attribute and occupancy calls find it by). */
static struct rt_module **dmods;
static unsigned ndmods;
static struct rt_kernel **dfuncs;
static unsigned ndfuncs;

static int known_module(CUmodule m)
{
    for (unsigned i = 0; m && i < ndmods; i++)
        if ((void *)dmods[i] == (void *)m)
            return 1;
    return 0;
}

static struct rt_kernel *function(CUfunction f)
{
    for (unsigned i = 0; f && i < ndfuncs; i++)
        if ((void *)dfuncs[i] == (void *)f)
            return dfuncs[i];
    return NULL;
}

/* "sm_90a" -> 90 */
static unsigned ptx_target(const char *text)
{
    const char *t = strstr(text, ".target");
    if (!t)
        return 0;
    t += 7;
    while (*t == ' ' || *t == '\t')
        t++;
    unsigned a = 0;
    if (!strncmp(t, "sm_", 3) || !strncmp(t, "compute_", 8))
        a = (unsigned)strtoul(strchr(t, '_') + 1, NULL, 10);
    return a;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t cap = 0, n = 0, r;
    do {
        if (n + 65536 + 1 > cap) {
            char *nb = realloc(buf, cap = cap * 2 + 65536 + 1);
            if (!nb) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
    } while (r);
    fclose(f);
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* The PTX kept beside cubin file `path` (the same name, .ptx: `tried`), or NULL. */
static char *ptx_beside(const char *path, char *tried, size_t n)
{
    snprintf(tried, n, "%s", path);
    char *dot = strrchr(tried, '.'), *slash = strrchr(tried, '/');
    if (dot && (!slash || dot > slash))
        *dot = 0;
    if (strlen(tried) + 5 > n)
        return NULL;
    strcat(tried, ".ptx");
    return read_file(tried, NULL);
}

/* Bytes of the ELF image at b (64-bit, little-endian: a cubin): the furthest end of its headers
 * and sections; 0 when it is not one. */
static size_t elf_size(const uint8_t *b)
{
    if (b[4] != 2 || b[5] != 1) /* ELFCLASS64, little-endian */
        return 0;
    uint64_t shoff, phoff;
    uint16_t shsz, shn, phsz, phn;
    memcpy(&phoff, b + 0x20, 8);
    memcpy(&shoff, b + 0x28, 8);
    memcpy(&phsz, b + 0x36, 2);
    memcpy(&phn, b + 0x38, 2);
    memcpy(&shsz, b + 0x3a, 2);
    memcpy(&shn, b + 0x3c, 2);
    if (shsz < 64 || shoff > ((uint64_t)1 << 32))
        return 0;
    uint64_t end = shoff + (uint64_t)shn * shsz;
    if (phoff + (uint64_t)phn * phsz > end)
        end = phoff + (uint64_t)phn * phsz;
    for (unsigned i = 0; i < shn; i++) {
        const uint8_t *sh = b + shoff + (uint64_t)i * shsz;
        uint32_t type;
        uint64_t off, size;
        memcpy(&type, sh + 4, 4);
        memcpy(&off, sh + 0x18, 8);
        memcpy(&size, sh + 0x20, 8);
        if (type != 8 /* SHT_NOBITS */ && off + size > end)
            end = off + size;
    }
    return (size_t)end;
}

/* Triton keeps each kernel's PTX beside its cubin in its cache ($TRITON_CACHE_DIR, else
 * ~/.triton/cache/<hash>/<name>.cubin and .ptx) and hands the driver the cubin: the PTX beside
 * the cached cubin whose bytes are the image's, or NULL (`tried`: where it looked). */
static char *ptx_in_triton_cache(const uint8_t *image, char *tried, size_t n)
{
    const char *env = getenv("TRITON_CACHE_DIR"), *home = getenv("HOME");
    char dir[4096];
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else
        snprintf(dir, sizeof dir, "%s/.triton/cache", home ? home : "");
    snprintf(tried, n, "%s", dir);
    size_t size = elf_size(image);
    DIR *top = size ? opendir(dir) : NULL;
    if (!top)
        return NULL;
    char *text = NULL;
    struct dirent *d;
    while (!text && (d = readdir(top))) {
        if (d->d_name[0] == '.')
            continue;
        char sub[4400];
        snprintf(sub, sizeof sub, "%s/%s", dir, d->d_name);
        DIR *in = opendir(sub);
        struct dirent *f;
        while (in && !text && (f = readdir(in))) {
            size_t l = strlen(f->d_name);
            if (l < 7 || strcmp(f->d_name + l - 6, ".cubin"))
                continue;
            char path[4700];
            snprintf(path, sizeof path, "%s/%s", sub, f->d_name);
            struct stat st;
            if (stat(path, &st) || (size_t)st.st_size != size)
                continue;
            size_t got = 0;
            char *bytes = read_file(path, &got);
            if (bytes && got == size && !memcmp(bytes, image, size))
                text = ptx_beside(path, tried, n);
            free(bytes);
        }
        if (in)
            closedir(in);
    }
    closedir(top);
    if (!text)
        snprintf(tried, n, "%s", dir);
    return text;
}

static CUresult add_module(struct rt_module *m, CUmodule *out, const char *call)
{
    struct rt_module **nm = realloc(dmods, (ndmods + 1) * sizeof *nm);
    if (!nm)
        return CUDA_ERROR_OUT_OF_MEMORY;
    dmods = nm;
    dmods[ndmods++] = m;
    if (rt_module_load(m))
        rt_fatal("%s: the module cannot be emulated: %s", call, m->load_error);
    *out = (CUmodule)(void *)m;
    return CUDA_SUCCESS;
}

/* Loads image (a fatbinary, its wrapper, PTX text, or a cubin; path: the file it came from, or
 * NULL) as a module; under the lock. A cubin carries machine code only: its PTX must be found
 * beside it, or the program stops saying how to keep it. */
static CUresult load_image(CUmodule *out, const void *image, const char *path, const char *call)
{
    if (!out || !image)
        return CUDA_ERROR_INVALID_VALUE;
    const uint8_t *b = image;
    uint32_t magic;
    memcpy(&magic, b, sizeof magic);
    if (magic == SMEM_FATBIN_WRAPPER_MAGIC)
        return add_module(rt_module_register(image), out, call);
    if (magic == SMEM_FATBIN_MAGIC) {
        /* a copy (the program may free its image once loaded) behind a wrapper of our own */
        uint64_t n = smem_fatbin_container_size(b);
        struct {
            uint32_t magic, version;
            const void *data;
            void *unused;
        } *w = calloc(1, sizeof *w);
        void *copy = n ? malloc((size_t)n) : NULL;
        if (!w || !copy) {
            free(w);
            free(copy);
            return n ? CUDA_ERROR_OUT_OF_MEMORY : CUDA_ERROR_INVALID_IMAGE;
        }
        memcpy(copy, b, (size_t)n);
        w->magic = SMEM_FATBIN_WRAPPER_MAGIC;
        w->version = 1;
        w->data = copy;
        return add_module(rt_module_register(w), out, call);
    }
    char *text = NULL, tried[4200] = "";
    if (!memcmp(b, "\177ELF", 4)) {
        size_t size = elf_size(b);
        text = size ? rt_link_ptx_of(b, size) : NULL; /* a link of this process made it */
        if (!text)
            text = path ? ptx_beside(path, tried, sizeof tried)
                        : ptx_in_triton_cache(b, tried, sizeof tried);
        if (!text)
            rt_fatal("%s: the module is a cubin, machine code without the PTX smemlab runs, and "
                     "%s%s%s; keep the PTX: load the PTX text, or a fatbinary holding it (nvcc "
                     "-fatbin -gencode arch=compute_90,code=[sm_90,compute_90]), or keep it "
                     "beside the cubin file under the same name with .ptx (Numba-CUDA: leave "
                     "NVIDIA's nvJitLink wheel out of its environment; docs/run.md)", call,
                     path ? "there is no " : "no cubin of Triton's cache (", tried,
                     path ? "" : ") is this one");
    } else {
        const char *s = image;
        if (!strstr(s, ".version") || !strstr(s, ".target"))
            return CUDA_ERROR_INVALID_IMAGE;
        text = strdup(s);
        if (!text)
            return CUDA_ERROR_OUT_OF_MEMORY;
    }
    struct rt_module *m = rt_module_of_ptx(text, ptx_target(text));
    size_t n = text && !memcmp(b, "\177ELF", 4) ? elf_size(b) : 0;
    if (n && (m->cubin = malloc(n))) { /* its SASS, for the census: ptxas made it from the PTX */
        memcpy(m->cubin, b, n);
        m->cubin_size = n;
    }
    return add_module(m, out, call);
}

static CUresult load(CUmodule *out, const void *image, const char *path, const char *call)
{
    NEED_CONTEXT();
    rt_lock();
    CUresult r = load_image(out, image, path, call);
    rt_unlock();
    return r;
}

static CUresult drv_cuModuleLoadData(CUmodule *m, const void *image)
{
    return load(m, image, NULL, "cuModuleLoadData");
}

static CUresult drv_cuModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
                                                    int *options, void **values)
{
    (void)n, (void)options, (void)values; /* JIT options: there is no JIT compilation here */
    return load(m, image, NULL, "cuModuleLoadDataEx");
}

static CUresult drv_cuModuleLoadFatBinary(CUmodule *m, const void *fatbin)
{
    return load(m, fatbin, NULL, "cuModuleLoadFatBinary");
}

static CUresult load_file(CUmodule *m, const char *path, const char *call)
{
    NEED_CONTEXT();
    if (!m || !path)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = 0;
    char *image = read_file(path, &len);
    if (!image)
        return CUDA_ERROR_FILE_NOT_FOUND;
    if (len < 16) {
        free(image);
        return CUDA_ERROR_INVALID_IMAGE;
    }
    rt_lock();
    CUresult r = load_image(m, image, path, call);
    rt_unlock();
    free(image); /* a fatbinary was copied, PTX text too */
    return r;
}

static CUresult drv_cuModuleLoad(CUmodule *m, const char *path)
{
    return load_file(m, path, "cuModuleLoad");
}

static CUresult drv_cuModuleUnload(CUmodule m)
{
    NEED_INIT();
    rt_lock();
    int ok = known_module(m);
    rt_unlock();
    /* its kernels and variables stay: the report names them, launches recorded keep them */
    return ok ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult drv_cuModuleGetFunction(CUfunction *out, CUmodule mod,
                                                     const char *name)
{
    NEED_CONTEXT();
    if (!out || !name)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    if (!known_module(mod)) {
        rt_unlock();
        return CUDA_ERROR_INVALID_HANDLE;
    }
    struct rt_module *m = (struct rt_module *)(void *)mod;
    for (unsigned i = 0; i < ndfuncs; i++)
        if (dfuncs[i]->mod == m && !strcmp(dfuncs[i]->symbol, name)) {
            *out = (CUfunction)(void *)dfuncs[i];
            rt_unlock();
            return CUDA_SUCCESS;
        }
    const struct smem_ptx_func *f = smem_ptx_find(m->ptx, name);
    if (!f || !f->is_entry) {
        rt_unlock();
        return CUDA_ERROR_NOT_FOUND;
    }
    struct rt_kernel **nf = realloc(dfuncs, (ndfuncs + 1) * sizeof *nf);
    char *key = malloc(1);
    if (!nf || !key)
        rt_fatal("out of memory at cuModuleGetFunction(%s)", name);
    dfuncs = nf;
    struct rt_kernel *k = rt_kernel_register(m, key, name);
    dfuncs[ndfuncs++] = k;
    if (rt_kernel_resolve(k))
        rt_fatal("cuModuleGetFunction: kernel %s cannot be read", name);
    char *dem = NULL;
    const char *sym = name;
    smem_demangle(&sym, 1, &dem);
    k->name = smem_signature_name(dem ? dem : name);
    free(dem);
    rt_unlock();
    *out = (CUfunction)(void *)k;
    return CUDA_SUCCESS;
}

static CUresult drv_cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *bytes, CUmodule mod,
                                                      const char *name)
{
    NEED_CONTEXT();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    if (!known_module(mod)) {
        rt_unlock();
        return CUDA_ERROR_INVALID_HANDLE;
    }
    struct rt_module *m = (struct rt_module *)(void *)mod;
    CUresult r = CUDA_ERROR_NOT_FOUND;
    for (unsigned i = 0; i < m->nsymbols; i++)
        if (!strcmp(m->symbols[i].name, name)) {
            struct rt_alloc *al = rt_find_base(m->symbols[i].addr);
            if (p)
                *p = m->symbols[i].addr;
            if (bytes)
                *bytes = al ? (size_t)al->size : 0;
            r = CUDA_SUCCESS;
        }
    rt_unlock();
    return r;
}

/* A library is its module, loaded at once; its kernels are the module's functions. */
static CUresult drv_cuLibraryLoadData(CUlibrary *l, const void *code, int *jo,
                                                   void **jv, unsigned njo, int *lo, void **lv,
                                                   unsigned nlo)
{
    (void)jo, (void)jv, (void)njo, (void)lo, (void)lv, (void)nlo;
    return load(l, code, NULL, "cuLibraryLoadData");
}

static CUresult drv_cuLibraryLoadFromFile(CUlibrary *l, const char *path, int *jo,
                                                       void **jv, unsigned njo, int *lo,
                                                       void **lv, unsigned nlo)
{
    (void)jo, (void)jv, (void)njo, (void)lo, (void)lv, (void)nlo;
    return load_file(l, path, "cuLibraryLoadFromFile");
}

static CUresult drv_cuLibraryUnload(CUlibrary l)
{
    return drv_cuModuleUnload(l);
}

static CUresult drv_cuLibraryGetKernel(CUkernel *k, CUlibrary l, const char *name)
{
    return drv_cuModuleGetFunction(k, l, name);
}

static CUresult drv_cuLibraryGetModule(CUmodule *m, CUlibrary l)
{
    NEED_INIT();
    if (!m)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    int ok = known_module(l);
    rt_unlock();
    if (!ok)
        return CUDA_ERROR_INVALID_HANDLE;
    *m = l;
    return CUDA_SUCCESS;
}

static CUresult drv_cuLibraryGetGlobal(CUdeviceptr *p, size_t *bytes, CUlibrary l,
                                                    const char *name)
{
    return drv_cuModuleGetGlobal_v2(p, bytes, l, name);
}

static CUresult drv_cuKernelGetFunction(CUfunction *f, CUkernel k)
{
    NEED_CONTEXT();
    if (!f)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    struct rt_kernel *kk = function(k);
    rt_unlock();
    if (!kk)
        return CUDA_ERROR_INVALID_HANDLE;
    *f = k;
    return CUDA_SUCCESS;
}

/* ---- linking (rt_link.c) -------------------------------------------------------------------- */

/* A link state. The options of cuLinkCreate are not used: the H200's driver wrote nothing into
 * the info and error log buffers of a link of PTX, nor of PTX that is not PTX
 * (tests/run/h200-drvlink.txt), and neither does smemlab. */
struct CUlinkState_st {
    struct rt_link *l;
    struct CUlinkState_st *next;
};
static struct CUlinkState_st *links;

static struct CUlinkState_st *link_of(CUlinkState s)
{
    for (struct CUlinkState_st *k = links; s && k; k = k->next)
        if (k == s)
            return k;
    return NULL;
}

static CUresult link_create(unsigned n, int *opt, void **val, CUlinkState *out)
{
    NEED_CONTEXT();
    if (!out || (n && (!opt || !val)))
        return CUDA_ERROR_INVALID_VALUE;
    struct CUlinkState_st *s = calloc(1, sizeof *s);
    if (!s || !(s->l = rt_link_new())) {
        free(s);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    rt_lock();
    s->next = links;
    links = s;
    rt_unlock();
    *out = s;
    return CUDA_SUCCESS;
}

static CUresult drv_cuLinkCreate_v2(unsigned n, int *opt, void **val, CUlinkState *out)
{
    return link_create(n, opt, val, out);
}

static CUresult drv_cuLinkCreate(unsigned n, int *opt, void **val, CUlinkState *out)
{
    return link_create(n, opt, val, out);
}

/* CUjitInputType is enum rt_link_input's numbering */
static CUresult link_add(CUlinkState s, int type, const void *data, size_t size, const char *name,
                         const char *call)
{
    NEED_CONTEXT();
    rt_lock();
    struct CUlinkState_st *k = link_of(s);
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!data || !size || type < 0 || type > RT_LINK_NVVM)
        return CUDA_ERROR_INVALID_VALUE;
    /* not PTX: CUDA_ERROR_INVALID_IMAGE, as the H200's driver answers */
    return rt_link_add(k->l, (enum rt_link_input)type, data, size, name, call)
               ? CUDA_ERROR_INVALID_IMAGE : CUDA_SUCCESS;
}

static CUresult drv_cuLinkAddData_v2(CUlinkState s, int type, void *data, size_t size,
                                                  const char *name, unsigned n, int *opt,
                                                  void **val)
{
    (void)n, (void)opt, (void)val; /* JIT options of this input: there is no JIT here */
    return link_add(s, type, data, size, name, "cuLinkAddData");
}

static CUresult drv_cuLinkAddData(CUlinkState s, int type, void *data, size_t size,
                                               const char *name, unsigned n, int *opt, void **val)
{
    return drv_cuLinkAddData_v2(s, type, data, size, name, n, opt, val);
}

static CUresult drv_cuLinkAddFile_v2(CUlinkState s, int type, const char *path,
                                                  unsigned n, int *opt, void **val)
{
    (void)n, (void)opt, (void)val;
    NEED_CONTEXT();
    if (!path)
        return CUDA_ERROR_INVALID_VALUE;
    size_t len = 0;
    char *data = read_file(path, &len);
    if (!data)
        return CUDA_ERROR_FILE_NOT_FOUND;
    const char *base = strrchr(path, '/');
    CUresult r = link_add(s, type, data, len, base ? base + 1 : path, "cuLinkAddFile");
    free(data);
    return r;
}

static CUresult drv_cuLinkAddFile(CUlinkState s, int type, const char *path,
                                               unsigned n, int *opt, void **val)
{
    return drv_cuLinkAddFile_v2(s, type, path, n, opt, val);
}

static CUresult drv_cuLinkComplete(CUlinkState s, void **cubin, size_t *size)
{
    NEED_CONTEXT();
    rt_lock();
    struct CUlinkState_st *k = link_of(s);
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (!cubin || !size)
        return CUDA_ERROR_INVALID_VALUE;
    if (rt_link_complete(k->l, "cuLinkComplete"))
        return CUDA_ERROR_OUT_OF_MEMORY;
    *cubin = k->l->image; /* the link's own: valid until cuLinkDestroy */
    *size = k->l->size;
    return CUDA_SUCCESS;
}

static CUresult drv_cuLinkDestroy(CUlinkState s)
{
    NEED_INIT();
    rt_lock();
    struct CUlinkState_st **p = &links;
    while (*p && *p != s)
        p = &(*p)->next;
    struct CUlinkState_st *k = *p;
    if (k)
        *p = k->next;
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    rt_link_free(k->l);
    free(k);
    return CUDA_SUCCESS;
}

/* ---- functions ------------------------------------------------------------------------------ */

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func);
RT_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                          int block, size_t dyn,
                                                                          unsigned flags);

/* the host stub key of function f, or NULL */
static const void *key_of(CUfunction f)
{
    rt_lock();
    struct rt_kernel *k = function(f);
    rt_unlock();
    return k ? k->host_fun : NULL;
}

static CUresult drv_cuFuncGetAttribute(int *v, int attr, CUfunction f)
{
    NEED_INIT();
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    const void *key = key_of(f);
    if (!key)
        return CUDA_ERROR_INVALID_HANDLE;
    struct cudaFuncAttributes a;
    CUresult r = cu_of(cudaFuncGetAttributes(&a, key));
    if (r)
        return r;
    /* CUfunction_attribute, as cuda.h numbers it */
    switch (attr) {
    case 0: *v = a.maxThreadsPerBlock; break;
    case 1: *v = (int)a.sharedSizeBytes; break;
    case 2: *v = (int)a.constSizeBytes; break;
    case 3: *v = (int)a.localSizeBytes; break;
    case 4: *v = a.numRegs; break;
    case 5: *v = a.ptxVersion; break;
    case 6: *v = a.binaryVersion; break;
    case 7: *v = a.cacheModeCA; break;
    case 8: *v = a.maxDynamicSharedSizeBytes; break;
    case 9: *v = a.preferredShmemCarveout; break;
    case 10: *v = a.clusterDimMustBeSet; break;
    case 11: *v = a.requiredClusterWidth; break;
    case 12: *v = a.requiredClusterHeight; break;
    case 13: *v = a.requiredClusterDepth; break;
    case 14: *v = a.nonPortableClusterSizeAllowed; break;
    case 15: *v = a.clusterSchedulingPolicyPreference; break;
    default: return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

static CUresult drv_cuFuncSetAttribute(CUfunction f, int attr, int v)
{
    NEED_INIT();
    const void *key = key_of(f);
    if (!key)
        return CUDA_ERROR_INVALID_HANDLE;
    if (attr < 8 || attr > 15)
        return CUDA_ERROR_INVALID_VALUE; /* the read-only ones */
    return cu_of(cudaFuncSetAttribute(key, attr, v)); /* cudaFuncAttribute: the same numbers */
}

static CUresult drv_cuFuncSetCacheConfig(CUfunction f, int c)
{
    NEED_INIT();
    (void)c; /* the L1 / shared split changes no shared-memory count */
    return key_of(f) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult drv_cuKernelGetAttribute(int *v, int attr, CUkernel k, CUdevice d)
{
    NEED_DEVICE(d);
    return drv_cuFuncGetAttribute(v, attr, k);
}

static CUresult drv_cuKernelSetAttribute(int attr, int v, CUkernel k, CUdevice d)
{
    NEED_DEVICE(d);
    return drv_cuFuncSetAttribute(k, attr, v);
}

static CUresult drv_cuFuncGetName(const char **name, CUfunction f)
{
    NEED_INIT();
    if (!name)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    struct rt_kernel *k = function(f);
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    *name = k->symbol;
    return CUDA_SUCCESS;
}

static CUresult drv_cuFuncGetParamInfo(CUfunction f, size_t i, size_t *offset,
                                                    size_t *size)
{
    NEED_INIT();
    rt_lock();
    struct rt_kernel *k = function(f);
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (i >= k->func->nparams)
        return CUDA_ERROR_INVALID_VALUE;
    if (offset)
        *offset = (size_t)k->func->syms[i].offset;
    if (size)
        *size = (size_t)k->func->syms[i].size;
    return CUDA_SUCCESS;
}

static CUresult drv_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *n, CUfunction f, int block, size_t dyn, unsigned flags)
{
    NEED_INIT();
    const void *key = key_of(f);
    if (!key)
        return CUDA_ERROR_INVALID_HANDLE;
    return cu_of(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, key, block, dyn, flags));
}

static CUresult drv_cuOccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f,
                                                                           int block, size_t dyn)
{
    return drv_cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, f, block, dyn,
                                                                                 0);
}

/* The search cuda_runtime.h's cudaOccupancyMaxPotentialBlockSize makes: the block size (a
 * multiple of the warp, at most the limit) of the highest occupancy in threads, the largest first. */
static CUresult drv_cuOccupancyMaxPotentialBlockSize(int *grid, int *block,
                                                                  CUfunction f,
                                                                  CUoccupancyB2DSize dyn_of,
                                                                  size_t dyn, int limit)
{
    NEED_INIT();
    if (!grid || !block || limit < 0)
        return CUDA_ERROR_INVALID_VALUE;
    int fmax = 0, sms = 0;
    CUresult r = drv_cuFuncGetAttribute(&fmax, 0, f);
    if (r)
        return r;
    rt_device_attribute(cudaDevAttrMultiProcessorCount, &sms);
    int lim = fmax < 1024 ? fmax : 1024;
    if (limit && limit < lim)
        lim = limit;
    int best = 0, best_blocks = 0, best_occ = 0;
    for (int b = (lim + 31) / 32 * 32; b > 0; b -= 32) {
        int bs = b < lim ? b : lim;
        int n = 0;
        r = drv_cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &n, f, bs, dyn_of ? dyn_of(bs) : dyn);
        if (r)
            return r;
        if (n * bs > best_occ) {
            best = bs;
            best_blocks = n;
            best_occ = n * bs;
        }
        if (best_occ == lim)
            break;
    }
    *grid = best_blocks * sms;
    *block = best;
    return CUDA_SUCCESS;
}

static CUresult drv_cuOccupancyMaxPotentialBlockSizeWithFlags(int *grid, int *block, CUfunction f,
                                                              CUoccupancyB2DSize dyn_of,
                                                              size_t dyn, int limit,
                                                              unsigned flags)
{
    (void)flags; /* CU_OCCUPANCY_DISABLE_CACHING_OVERRIDE: no cache configuration here */
    return drv_cuOccupancyMaxPotentialBlockSize(grid, block, f, dyn_of, dyn, limit);
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *out, const void *func,
                                                             int blocks, int block);

static CUresult drv_cuOccupancyAvailableDynamicSMemPerBlock(size_t *out, CUfunction f, int blocks,
                                                            int block)
{
    NEED_INIT();
    const void *key = key_of(f);
    if (!key)
        return CUDA_ERROR_INVALID_HANDLE;
    return cu_of(cudaOccupancyAvailableDynamicSMemPerBlock(out, key, blocks, block));
}

/* As the runtime's cudaOccupancyMaxActiveClusters / MaxPotentialClusterSize (rt_stubs.c): refused,
 * named, with why. */
static CUresult drv_cuOccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *c)
{
    (void)n, (void)f, (void)c;
    rt_unsupported("cuOccupancyMaxActiveClusters", "how the GPU places clusters on its GPCs is "
                   "not modelled; the H200's answers for some configurations are in smemlab's "
                   "tests/run/h200-cluster.txt");
    return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult drv_cuOccupancyMaxPotentialClusterSize(int *n, CUfunction f,
                                                       const CUlaunchConfig *c)
{
    (void)n, (void)f, (void)c;
    rt_unsupported("cuOccupancyMaxPotentialClusterSize", "how the GPU places clusters on its GPCs "
                   "is not modelled; the H200's answers for some configurations are in smemlab's "
                   "tests/run/h200-cluster.txt");
    return CUDA_ERROR_NOT_SUPPORTED;
}

/* ---- launches ------------------------------------------------------------------------------- */

RT_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                       void **args);

/* cuLaunchKernel's parameters: kernelParams (one pointer per parameter) or extra's packed buffer
 * (CU_LAUNCH_PARAM_BUFFER_POINTER 1, CU_LAUNCH_PARAM_BUFFER_SIZE 2, ended by
 * CU_LAUNCH_PARAM_END 0), the buffer laid out as the PTX declares the parameters. */
static CUresult launch(CUfunction f, const cudaLaunchConfig_t *c, void **params, void **extra)
{
    NEED_CONTEXT();
    rt_lock();
    struct rt_kernel *k = function(f);
    rt_unlock();
    if (!k)
        return CUDA_ERROR_INVALID_HANDLE;
    if (params && extra)
        return CUDA_ERROR_INVALID_VALUE;
    void **args = params, *small[64];
    uint8_t *padded = NULL;
    if (extra) {
        const uint8_t *buf = NULL;
        size_t size = 0;
        int have_size = 0;
        for (unsigned i = 0; extra[i]; i += 2) {
            if (extra[i] == (void *)1)
                buf = extra[i + 1];
            else if (extra[i] == (void *)2 && extra[i + 1])
                size = *(const size_t *)extra[i + 1], have_size = 1;
            else
                return CUDA_ERROR_INVALID_VALUE;
        }
        const struct smem_ptx_func *fn = k->func;
        if (fn->nparams && (!buf || !have_size))
            return CUDA_ERROR_INVALID_VALUE;
        args = fn->nparams <= 64 ? small : calloc(fn->nparams, sizeof *args);
        if (!args)
            return CUDA_ERROR_OUT_OF_MEMORY;
        size_t need = 0;
        for (uint32_t i = 0; i < fn->nparams; i++)
            if (fn->syms[i].offset + fn->syms[i].size > need)
                need = fn->syms[i].offset + fn->syms[i].size;
        if (size < need) {
            /* the buffer ends before the last parameter: the H200's driver launches anyway
               (tests/run/drvapi.c), the parameters past the end undefined; here they are zeros,
               and the program is told so */
            padded = calloc(1, need);
            if (!padded) {
                if (args != small)
                    free(args);
                return CUDA_ERROR_OUT_OF_MEMORY;
            }
            memcpy(padded, buf, size);
            fprintf(stderr, "smemlab run: %s: cuLaunchKernel's parameter buffer holds %zu bytes, "
                    "the kernel's parameters %zu: launched as a GPU does, the %zu bytes past its "
                    "end undefined there, zeros here\n", k->name, size, need, need - size);
            buf = padded;
        }
        for (uint32_t i = 0; i < fn->nparams; i++)
            args[i] = (void *)(buf + fn->syms[i].offset);
    }
    CUresult r = cu_of(cudaLaunchKernelExC(c, k->host_fun, args));
    if (args != params && args != small)
        free(args);
    free(padded);
    return r;
}

static CUresult drv_cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy,
                                                unsigned gz, unsigned bx, unsigned by,
                                                unsigned bz, unsigned shmem, CUstream s,
                                                void **params, void **extra)
{
    cudaLaunchConfig_t c = {{gx, gy, gz}, {bx, by, bz}, shmem, s, NULL, 0};
    return launch(f, &c, params, extra);
}

static CUresult drv_cuLaunchKernel_ptsz(CUfunction f, unsigned gx, unsigned gy,
                                                     unsigned gz, unsigned bx, unsigned by,
                                                     unsigned bz, unsigned shmem, CUstream s,
                                                     void **params, void **extra)
{
    return drv_cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, s, params, extra);
}

/* the attributes are the runtime's (CUlaunchAttribute and cudaLaunchAttribute: one layout, one
 * numbering): the cluster dimension is checked and used, the others change no count here */
static CUresult drv_cuLaunchKernelEx(const CUlaunchConfig *lc, CUfunction f,
                                                  void **params, void **extra)
{
    if (!lc)
        return CUDA_ERROR_INVALID_VALUE;
    cudaLaunchConfig_t c = {{lc->gridDimX, lc->gridDimY, lc->gridDimZ},
                            {lc->blockDimX, lc->blockDimY, lc->blockDimZ},
                            lc->sharedMemBytes, lc->hStream, lc->attrs, lc->numAttrs};
    return launch(f, &c, params, extra);
}

static CUresult drv_cuLaunchKernelEx_ptsz(const CUlaunchConfig *lc, CUfunction f,
                                                       void **params, void **extra)
{
    return drv_cuLaunchKernelEx(lc, f, params, extra);
}

/* ---- limits, capture: the runtime's ----------------------------------------------------------- */

RT_API cudaError_t cudaDeviceSetLimit(int limit, size_t value);
RT_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit);
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status);

static CUresult drv_cuCtxGetLimit(size_t *v, int limit)
{
    NEED_CONTEXT();
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaDeviceGetLimit(v, limit)); /* CUlimit and cudaLimit: the same numbers */
}

static CUresult drv_cuCtxSetLimit(int limit, size_t v)
{
    NEED_CONTEXT();
    return cu_of(cudaDeviceSetLimit(limit, v));
}

static CUresult drv_cuStreamIsCapturing(CUstream s, int *status)
{
    NEED_CONTEXT();
    if (!status)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaStreamIsCapturing(s, status)); /* never: graphs are not captured here */
}

RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
RT_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority);
RT_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);

static CUresult drv_cuCtxGetStreamPriorityRange(int *least, int *greatest)
{
    NEED_CONTEXT();
    return cu_of(cudaDeviceGetStreamPriorityRange(least, greatest));
}

static CUresult drv_cuCtxGetFlags(unsigned *flags)
{
    NEED_CONTEXT();
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    *flags = primary_flags;
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuStreamGetPriority(CUstream s, int *priority)
{
    NEED_CONTEXT();
    if (!priority)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaStreamGetPriority(s, priority));
}

static CUresult drv_cuStreamGetFlags(CUstream s, unsigned *flags)
{
    NEED_CONTEXT();
    if (!flags)
        return CUDA_ERROR_INVALID_VALUE;
    return cu_of(cudaStreamGetFlags(s, flags));
}

/* every stream is of the calling thread's current context (they all share one state) */
static CUresult drv_cuStreamGetCtx(CUstream s, CUcontext *c)
{
    (void)s;
    NEED_CONTEXT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    *c = current();
    rt_unlock();
    return CUDA_SUCCESS;
}

static CUresult drv_cuStreamGetDevice(CUstream s, CUdevice *d)
{
    (void)s;
    NEED_CONTEXT();
    if (!d)
        return CUDA_ERROR_INVALID_VALUE;
    *d = 0;
    return CUDA_SUCCESS;
}

/* NVIDIA's private tables (NVRTC asks for one): none here, as the driver answers for a table it
 * does not know; the caller goes on without it. */
static CUresult drv_cuGetExportTable(const void **table, const CUuuid *id)
{
    if (table)
        *table = NULL;
    (void)id;
    return CUDA_ERROR_INVALID_VALUE;
}

/* ---- memory pools ------------------------------------------------------------------------------ */

/* The runtime's pools (rt_mempool.c): one table for both APIs, a CUmemoryPool is a cudaMemPool_t. */
RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int device);
RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *p, int device);
RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, int attr, void *v);
RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, int attr, void *v);
RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, size_t keep);
RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t p, cudaStream_t s);
RT_API cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s);
static CUresult drv_cuDeviceGetDefaultMemPool(CUmemoryPool *p, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    return cu_of(cudaDeviceGetDefaultMemPool(p, d));
}

static CUresult drv_cuDeviceGetMemPool(CUmemoryPool *p, CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    return cu_of(cudaDeviceGetMemPool(p, d));
}

static CUresult drv_cuMemPoolGetAttribute(CUmemoryPool p, int attr, void *v)
{
    NEED_INIT();
    return cu_of(cudaMemPoolGetAttribute(p, attr, v));
}

static CUresult drv_cuMemPoolSetAttribute(CUmemoryPool p, int attr, void *v)
{
    NEED_INIT();
    return cu_of(cudaMemPoolSetAttribute(p, attr, v));
}

static CUresult drv_cuMemPoolTrimTo(CUmemoryPool p, size_t keep)
{
    NEED_INIT();
    return cu_of(cudaMemPoolTrimTo(p, keep));
}

static CUresult drv_cuMemAllocFromPoolAsync(CUdeviceptr *p, size_t n, CUmemoryPool mp, CUstream s)
{
    NEED_CONTEXT();
    if (!p || !n)
        return CUDA_ERROR_INVALID_VALUE;
    void *q = NULL;
    CUresult r = cu_of(cudaMallocFromPoolAsync(&q, n, mp, (cudaStream_t)s));
    *p = r ? 0 : (CUdeviceptr)(uintptr_t)q;
    return r;
}

static CUresult drv_cuMemAllocAsync(CUdeviceptr *p, size_t n, CUstream s)
{
    NEED_CONTEXT();
    if (!p || !n)
        return CUDA_ERROR_INVALID_VALUE;
    void *q = NULL;
    CUresult r = cu_of(cudaMallocAsync(&q, n, (cudaStream_t)s));
    *p = r ? 0 : (CUdeviceptr)(uintptr_t)q;
    return r;
}

static CUresult drv_cuMemFreeAsync(CUdeviceptr p, CUstream s)
{
    (void)s;
    return drv_cuMemFree_v2(p);
}

/* ---- the entry points ----------------------------------------------------------------------- */

/* Each call of cu_impl.h as libcuda.so.1 reaches it: its implementation above (drv_<name>, which
 * may call others: only the outermost call is the program's), and an error it returns recorded
 * as the runtime's are (rt_sanitize.c: with the program's file:line, a Python script's line in a
 * Python program, by its CUresult name;
 * `api_errors` in the report, --fail-on-api-error). The runtime calls the implementations make
 * record nothing of their own meanwhile. */
static CUresult returned(CUresult r, const char *call)
{
    /* cuGetExportTable: NVIDIA's own libraries (NVRTC) ask for private tables the real driver
       has; its refusal here is this stand-in's, not an error a GPU would give the program */
    if (rt_sanitize_driver_leave() && r != CUDA_SUCCESS && strcmp(call, "cuGetExportTable") != 0) {
        const char *name = NULL, *text = NULL;
        char python[600];
        if (error_text(r, &name, 1) != CUDA_SUCCESS)
            name = "CUDA_ERROR_UNKNOWN";
        if (error_text(r, &text, 0) != CUDA_SUCCESS)
            text = "unknown error";
        int in_python = rt_python_site(python, sizeof python); /* before the lock: the GIL */
        rt_lock();
        rt_sanitize_api_error_named(r, name, text, call, in_python ? python : NULL);
        rt_unlock();
    }
    return r;
}

#define CU_IMPL(ret, name, params, args)                                                        \
    RT_API ret __cudaSmemlabDrv_##name params                                                   \
    {                                                                                           \
        rt_sanitize_driver_enter();                                                             \
        return returned(drv_##name args, #name);                                                \
    }
#include "runtime/driver/cu_impl.h"
#undef CU_IMPL
