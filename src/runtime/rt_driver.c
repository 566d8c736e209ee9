/* rt_driver.c: the CUDA driver API of `smemlab run`, inside the runtime library so that both APIs
 * share one state (the device, its memory, the primary context). The calls of cu_impl.h are
 * implemented here as __cudaSmemlabDrv_<name> (libcudart.so.13 exports them; libcuda.so.1, the
 * stand-in for programs linked with -lcuda, forwards its names to them); every other name of
 * CUDA's cuda.h (driver/cu_symbols.inc) is refused by name: the program stops with one sentence
 * naming the call and its caller, exit 3. Programs that take the driver through the runtime
 * (cudaGetDriverEntryPoint(ByVersion): CUTLASS, fast.cu for tensor maps) get the same functions,
 * per version as cudaTypedefs.h numbers them. Implemented: initialisation, the device and its
 * attributes, the primary context (current per thread, a stack for push / pop), tensor maps
 * (model/tensormap.h: the H200 driver's checks, smemlab's encoding), cuGetProcAddress, the error
 * names and strings. Memory, modules and launches are refused for now. */
#define _GNU_SOURCE /* dladdr, RTLD_DEFAULT */
#include "rt_internal.h"

#include "runtime/driver/cu_abi.h"
#include "smemlab/model/tensormap.h"

#include <dlfcn.h>
#include <string.h>

/* the runtime's answers the driver's calls give too (rt_device.c) */
RT_API cudaError_t cudaDriverGetVersion(int *v);
RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d);

#define CU_IMPL(ret, name, params, args) RT_API ret __cudaSmemlabDrv_##name params;
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
             "primary context, tensor maps and entry points, not this call%s",
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
    return primary_retains > 0 || rt_device_bytes_in_use() > 0;
}

static CUcontext current(void)
{
    if (depth)
        return stack[depth - 1];
    return primary_active() ? &primary : NULL; /* the runtime made it current */
}

#define NEED_INIT()                                                                             \
    do {                                                                                        \
        if (!initialised)                                                                       \
            return CUDA_ERROR_NOT_INITIALIZED;                                                  \
    } while (0)
#define NEED_DEVICE(d)                                                                          \
    do {                                                                                        \
        if ((d) != 0)                                                                           \
            return CUDA_ERROR_INVALID_DEVICE;                                                   \
    } while (0)

/* ---- initialisation, the device --------------------------------------------------------------- */

RT_API CUresult __cudaSmemlabDrv_cuInit(unsigned flags)
{
    if (flags)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    initialised = 1;
    rt_unlock();
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuDriverGetVersion(int *v)
{
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    return cudaDriverGetVersion(v) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuDeviceGetCount(int *n)
{
    NEED_INIT();
    if (!n)
        return CUDA_ERROR_INVALID_VALUE;
    *n = 1;
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuDeviceGet(CUdevice *d, int ordinal)
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

RT_API CUresult __cudaSmemlabDrv_cuDeviceGetName(char *name, int len, CUdevice d)
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

RT_API CUresult __cudaSmemlabDrv_cuDeviceGetUuid(CUuuid *u, CUdevice d)
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

RT_API CUresult __cudaSmemlabDrv_cuDeviceGetUuid_v2(CUuuid *u, CUdevice d)
{
    return __cudaSmemlabDrv_cuDeviceGetUuid(u, d);
}

RT_API CUresult __cudaSmemlabDrv_cuDeviceTotalMem_v2(size_t *bytes, CUdevice d)
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

RT_API CUresult __cudaSmemlabDrv_cuDeviceGetAttribute(int *v, int attr, CUdevice d)
{
    NEED_INIT();
    if (!v)
        return CUDA_ERROR_INVALID_VALUE;
    NEED_DEVICE(d);
    /* the runtime's answers (cudaDeviceAttr and CUdevice_attribute number them alike); an
       attribute the emulated device does not answer: invalid value, as the runtime says */
    return rt_device_attribute(attr, v) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuDeviceComputeCapability(int *major, int *minor, CUdevice d)
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

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
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

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxRelease_v2(CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    rt_lock();
    CUresult r = primary_retains ? (primary_retains--, CUDA_SUCCESS) : CUDA_ERROR_INVALID_CONTEXT;
    rt_unlock();
    return r;
}

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxRelease(CUdevice d)
{
    return __cudaSmemlabDrv_cuDevicePrimaryCtxRelease_v2(d);
}

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxReset_v2(CUdevice d)
{
    NEED_INIT();
    NEED_DEVICE(d);
    return CUDA_SUCCESS; /* the device's memory stays, as after cudaDeviceReset here */
}

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxReset(CUdevice d)
{
    return __cudaSmemlabDrv_cuDevicePrimaryCtxReset_v2(d);
}

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxGetState(CUdevice d, unsigned *flags, int *active)
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

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxSetFlags_v2(CUdevice d, unsigned flags)
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

RT_API CUresult __cudaSmemlabDrv_cuDevicePrimaryCtxSetFlags(CUdevice d, unsigned flags)
{
    return __cudaSmemlabDrv_cuDevicePrimaryCtxSetFlags_v2(d, flags);
}

RT_API CUresult __cudaSmemlabDrv_cuCtxGetCurrent(CUcontext *c)
{
    NEED_INIT();
    if (!c)
        return CUDA_ERROR_INVALID_VALUE;
    rt_lock();
    *c = current();
    rt_unlock();
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuCtxSetCurrent(CUcontext c)
{
    NEED_INIT();
    if (c && c != &primary)
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

RT_API CUresult __cudaSmemlabDrv_cuCtxPushCurrent_v2(CUcontext c)
{
    NEED_INIT();
    if (c != &primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    if (depth == CTX_STACK)
        return CUDA_ERROR_INVALID_VALUE;
    stack[depth++] = c;
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuCtxPushCurrent(CUcontext c)
{
    return __cudaSmemlabDrv_cuCtxPushCurrent_v2(c);
}

RT_API CUresult __cudaSmemlabDrv_cuCtxPopCurrent_v2(CUcontext *c)
{
    NEED_INIT();
    if (!depth)
        return CUDA_ERROR_INVALID_CONTEXT;
    depth--;
    if (c)
        *c = stack[depth];
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuCtxPopCurrent(CUcontext *c)
{
    return __cudaSmemlabDrv_cuCtxPopCurrent_v2(c);
}

RT_API CUresult __cudaSmemlabDrv_cuCtxGetDevice(CUdevice *d)
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

RT_API CUresult __cudaSmemlabDrv_cuCtxGetApiVersion(CUcontext c, unsigned *version)
{
    NEED_INIT();
    if (!version)
        return CUDA_ERROR_INVALID_VALUE;
    if (c && c != &primary)
        return CUDA_ERROR_INVALID_CONTEXT;
    *version = 3020; /* what the H200's driver answers for the primary context */
    return CUDA_SUCCESS;
}

RT_API CUresult __cudaSmemlabDrv_cuCtxSynchronize(void)
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

RT_API CUresult __cudaSmemlabDrv_cuTensorMapEncodeTiled(
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

RT_API CUresult __cudaSmemlabDrv_cuTensorMapEncodeIm2col(
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

RT_API CUresult __cudaSmemlabDrv_cuTensorMapReplaceAddress(CUtensorMap *m, void *addr)
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

RT_API CUresult __cudaSmemlabDrv_cuGetProcAddress_v2(const char *symbol, void **fn, int version,
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

RT_API CUresult __cudaSmemlabDrv_cuGetProcAddress(const char *symbol, void **fn, int version,
                                                  cuuint64_t flags)
{
    return __cudaSmemlabDrv_cuGetProcAddress_v2(symbol, fn, version, flags, NULL);
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

RT_API CUresult __cudaSmemlabDrv_cuGetErrorName(CUresult e, const char **s)
{
    return error_text(e, s, 1);
}

RT_API CUresult __cudaSmemlabDrv_cuGetErrorString(CUresult e, const char **s)
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
