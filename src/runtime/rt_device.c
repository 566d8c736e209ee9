/* rt_device.c: the device the program sees (one H100 80GB HBM3 by default, its properties as
 * tests/hw/h100-device.csv measured them; SMEMLAB_RUN_DEVICE=h200 shows an H200), streams and
 * events (every stream is in order and synchronous: a call has finished when it returns; an
 * event records the host's clock, so elapsed times are emulation wall time), function
 * attributes and occupancy. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

static void rt_device_props(struct cudaDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    int h200 = rt_opt.device == 1;
    snprintf(p->name, sizeof p->name, "%s", h200 ? "NVIDIA H200" : "NVIDIA H100 80GB HBM3");
    memcpy(p->uuid.bytes, "smemlab-emulated", 16);
    p->totalGlobalMem = h200 ? 150754820096ull : 85017493504ull;
    p->sharedMemPerBlock = 49152;
    p->regsPerBlock = 65536;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 9;
    p->minor = 0;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = 132;
    p->canMapHostMemory = 1;
    p->maxTexture1D = 131072;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxSurface1D = 32768;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->ECCEnabled = 1;
    p->pciBusID = 1;
    p->asyncEngineCount = 3;
    p->unifiedAddressing = 1;
    /* the H200's: tests/run/h200-drvquery.txt (its driver's attributes 37, 38, 108, 109) */
    p->memoryBusWidth = h200 ? 6016 : 5120;
    p->l2CacheSize = h200 ? 62914560 : 52428800;
    p->persistingL2CacheMaxSize = h200 ? 39321600 : 32768000;
    p->maxThreadsPerMultiProcessor = 2048;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = 233472;
    p->regsPerMultiprocessor = 65536;
    p->managedMemory = 1;
    p->hostNativeAtomicSupported = 0;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;
    p->sharedMemPerBlockOptin = 232448;
    p->maxBlocksPerMultiProcessor = 32;
    p->accessPolicyMaxWindowSize = h200 ? 134217728 : 134213632;
    p->reservedSharedMemPerBlock = 1024;
    p->hostRegisterSupported = 1;
    p->memoryPoolsSupported = 1;
    p->clusterLaunch = 1;
    p->deviceNumaConfig = 0;
    p->deviceNumaId = -1;
    p->hostNumaId = -1;
}

/* a faulted context's error (every later call returns it: a finding each, as compute-sanitizer
   counts them), else cudaSuccess */
static cudaError_t ok(void)
{
    rt_lock();
    rt_context_made();
    cudaError_t e = rt_sticky();
    rt_unlock();
    return e ? rt_error(e) : e;
}

RT_API cudaError_t cudaGetDeviceCount(int *n);
RT_API cudaError_t cudaGetDeviceCount(int *n)
{
    if (!n)
        return rt_error(cudaErrorInvalidValue);
    *n = 1;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDevice(int *d);
RT_API cudaError_t cudaGetDevice(int *d)
{
    if (!d)
        return rt_error(cudaErrorInvalidValue);
    *d = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetDevice(int d);
RT_API cudaError_t cudaSetDevice(int d)
{
    rt_lock();
    if (d == 0) /* since CUDA 12 it makes the primary context */
        rt_context_made();
    rt_unlock();
    return d == 0 ? cudaSuccess : rt_error(cudaErrorInvalidDevice);
}

RT_API cudaError_t cudaInitDevice(int d, unsigned flags, unsigned ctx);
RT_API cudaError_t cudaInitDevice(int d, unsigned flags, unsigned ctx)
{
    (void)flags, (void)ctx;
    return cudaSetDevice(d);
}

RT_API cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *prop);
RT_API cudaError_t cudaChooseDevice(int *d, const struct cudaDeviceProp *prop)
{
    (void)prop;
    return cudaGetDevice(d);
}

RT_API cudaError_t cudaSetDeviceFlags(unsigned flags);
RT_API cudaError_t cudaSetDeviceFlags(unsigned flags)
{
    (void)flags;
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDeviceFlags(unsigned *flags);
RT_API cudaError_t cudaGetDeviceFlags(unsigned *flags)
{
    if (flags)
        *flags = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaSetValidDevices(int *devs, int n);
RT_API cudaError_t cudaSetValidDevices(int *devs, int n)
{
    for (int i = 0; i < n; i++)
        if (devs && devs[i] != 0)
            return rt_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}

RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d);
RT_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    if (!p)
        return rt_error(cudaErrorInvalidValue);
    if (d != 0)
        return rt_error(cudaErrorInvalidDevice);
    rt_lock();
    rt_device_props(p);
    rt_unlock();
    return cudaSuccess;
}

int rt_device_attribute(int attr, int *v)
{
    struct cudaDeviceProp p;
    rt_lock();
    rt_device_props(&p);
    rt_unlock();
    int r;
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: r = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: r = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: r = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: r = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: r = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: r = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: r = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: r = (int)p.sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: r = (int)p.totalConstMem; break;
    case cudaDevAttrWarpSize: r = 32; break;
    case cudaDevAttrMaxPitch: r = (int)p.memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: r = p.regsPerBlock; break;
    case cudaDevAttrClockRate: r = 1980000; break;
    case cudaDevAttrTextureAlignment: r = (int)p.textureAlignment; break;
    case cudaDevAttrGpuOverlap: r = 1; break;
    case cudaDevAttrMultiProcessorCount: r = p.multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: r = 0; break;
    case cudaDevAttrIntegrated: r = 0; break;
    case cudaDevAttrCanMapHostMemory: r = 1; break;
    case cudaDevAttrComputeMode: r = 0; break;
    case cudaDevAttrConcurrentKernels: r = 1; break;
    case cudaDevAttrEccEnabled: r = 1; break;
    case cudaDevAttrPciBusId: r = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: r = 0; break;
    case cudaDevAttrTccDriver: r = 0; break;
    case cudaDevAttrMemoryClockRate: r = rt_opt.device == 1 ? 3201000 : 2619000; break;
    case cudaDevAttrGlobalMemoryBusWidth: r = p.memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: r = p.l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: r = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: r = p.asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: r = 1; break;
    case cudaDevAttrPciDomainId: r = 0; break;
    case cudaDevAttrTexturePitchAlignment: r = (int)p.texturePitchAlignment; break;
    case cudaDevAttrComputeCapabilityMajor: r = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: r = p.minor; break;
    case cudaDevAttrStreamPrioritiesSupported: r = 1; break;
    case cudaDevAttrGlobalL1CacheSupported: r = 1; break;
    case cudaDevAttrLocalL1CacheSupported: r = 1; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: r = (int)p.sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: r = p.regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: r = 1; break;
    case cudaDevAttrIsMultiGpuBoard: r = 0; break;
    case cudaDevAttrMultiGpuBoardGroupID: r = 0; break;
    case cudaDevAttrHostNativeAtomicSupported: r = 0; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: r = 2; break;
    case cudaDevAttrPageableMemoryAccess: r = 0; break;
    case cudaDevAttrConcurrentManagedAccess: r = 1; break;
    case cudaDevAttrComputePreemptionSupported: r = 1; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: r = 1; break;
    case cudaDevAttrCooperativeLaunch: r = 1; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: r = (int)p.sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: r = 0; break;
    case cudaDevAttrHostRegisterSupported: r = 1; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: r = 0; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: r = 0; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: r = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: r = p.persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: r = p.accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: r = (int)p.reservedSharedMemPerBlock; break;
    case cudaDevAttrMemoryPoolsSupported: r = 1; break;
    case cudaDevAttrClusterLaunch: r = 1; break;
    default: *v = 0; return -1;
    }
    *v = r;
    return 0;
}

RT_API cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d);
RT_API cudaError_t cudaDeviceGetAttribute(int *v, int attr, int d)
{
    if (!v)
        return rt_error(cudaErrorInvalidValue);
    if (d != 0)
        return rt_error(cudaErrorInvalidDevice);
    return rt_device_attribute(attr, v) ? rt_error(cudaErrorInvalidValue) : cudaSuccess;
}

RT_API cudaError_t cudaDeviceSynchronize(void);
RT_API cudaError_t cudaDeviceSynchronize(void)
{
    return ok(); /* every launch has finished when it returns */
}

RT_API cudaError_t cudaDeviceReset(void);
RT_API cudaError_t cudaDeviceReset(void)
{
    /* the report stays; allocations are kept (a reset program that reads freed memory would
       still be told where the address came from) */
    rt_lock();
    rt_set_sticky(cudaSuccess);
    rt_report_maybe_write();
    rt_unlock();
    return cudaSuccess;
}

RT_API cudaError_t cudaDriverGetVersion(int *v);
RT_API cudaError_t cudaDriverGetVersion(int *v)
{
    if (!v)
        return rt_error(cudaErrorInvalidValue);
    *v = 13000;
    return cudaSuccess;
}

RT_API cudaError_t cudaRuntimeGetVersion(int *v);
RT_API cudaError_t cudaRuntimeGetVersion(int *v)
{
    if (!v)
        return rt_error(cudaErrorInvalidValue);
    *v = 13000;
    return cudaSuccess;
}

/* cache and shared-memory configuration: accepted; they change no count */
RT_API cudaError_t cudaDeviceSetCacheConfig(int c);
RT_API cudaError_t cudaDeviceSetCacheConfig(int c)
{
    (void)c;
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceGetCacheConfig(int *c);
RT_API cudaError_t cudaDeviceGetCacheConfig(int *c)
{
    if (c)
        *c = 0;
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceSetSharedMemConfig(int c);
RT_API cudaError_t cudaDeviceSetSharedMemConfig(int c)
{
    (void)c; /* Hopper has 4-byte banks only; the call is accepted and changes nothing */
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceGetSharedMemConfig(int *c);
RT_API cudaError_t cudaDeviceGetSharedMemConfig(int *c)
{
    if (c)
        *c = 1; /* cudaSharedMemBankSizeFourByte, as the H100 answers */
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceSetLimit(int limit, size_t value);
RT_API cudaError_t cudaDeviceSetLimit(int limit, size_t value)
{
    if (limit == 2) { /* cudaLimitMallocHeapSize: refused once a kernel used the heap */
        rt_lock();
        int rc = rt_heap_set_limit(value);
        rt_unlock();
        return rc ? rt_error(cudaErrorInvalidValue) : cudaSuccess;
    }
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit);
RT_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit)
{
    static const size_t def[] = {1024, 1048576, 8388608, 2, 2048, 0, 0};
    if (!value)
        return rt_error(cudaErrorInvalidValue);
    *value = limit >= 0 && limit < 7 ? def[limit] : 0;
    if (limit == 2) {
        rt_lock();
        *value = (size_t)rt_heap_limit();
        rt_unlock();
    }
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest);
RT_API cudaError_t cudaDeviceGetStreamPriorityRange(int *least, int *greatest)
{
    if (least)
        *least = 0;
    if (greatest)
        *greatest = -5;
    return cudaSuccess;
}
RT_API cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer);
RT_API cudaError_t cudaDeviceCanAccessPeer(int *can, int d, int peer)
{
    (void)d, (void)peer;
    if (can)
        *can = 0;
    return cudaSuccess;
}

/* ---- streams and events ------------------------------------------------------------------- */

struct CUstream_st {
    int flags, priority;
};
struct CUevent_st {
    double t;        /* host time it was recorded */
    int recorded;
};

RT_API cudaError_t cudaStreamCreate(cudaStream_t *s);
RT_API cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    rt_context_made();
    if (!s)
        return rt_error(cudaErrorInvalidValue);
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : rt_error(cudaErrorMemoryAllocation);
}
RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags);
RT_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *s, unsigned flags)
{
    cudaError_t e = cudaStreamCreate(s);
    if (!e)
        (*s)->flags = (int)flags;
    return e;
}
RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority);
RT_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *s, unsigned flags, int priority)
{
    cudaError_t e = cudaStreamCreateWithFlags(s, flags);
    if (!e)
        (*s)->priority = priority;
    return e;
}
RT_API cudaError_t cudaStreamDestroy(cudaStream_t s);
RT_API cudaError_t cudaStreamDestroy(cudaStream_t s)
{
    free(s);
    return cudaSuccess;
}
RT_API cudaError_t cudaStreamSynchronize(cudaStream_t s);
RT_API cudaError_t cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    return ok();
}
RT_API cudaError_t cudaStreamQuery(cudaStream_t s);
RT_API cudaError_t cudaStreamQuery(cudaStream_t s)
{
    (void)s;
    return ok();
}
RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags);
RT_API cudaError_t cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned flags)
{
    (void)s, (void)e, (void)flags;
    return ok();
}
RT_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags);
RT_API cudaError_t cudaStreamGetFlags(cudaStream_t s, unsigned *flags)
{
    if (flags)
        *flags = s ? (unsigned)s->flags : 0;
    return cudaSuccess;
}
RT_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority);
RT_API cudaError_t cudaStreamGetPriority(cudaStream_t s, int *priority)
{
    if (priority)
        *priority = s ? s->priority : 0;
    return cudaSuccess;
}

typedef void (*rt_host_fn)(void *);
RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, rt_host_fn fn, void *data);
RT_API cudaError_t cudaLaunchHostFunc(cudaStream_t s, rt_host_fn fn, void *data)
{
    (void)s;
    if (!fn)
        return rt_error(cudaErrorInvalidValue);
    fn(data); /* the stream's earlier work is done: run it now */
    return cudaSuccess;
}

typedef void (*rt_stream_cb)(cudaStream_t, cudaError_t, void *);
RT_API cudaError_t cudaStreamAddCallback(cudaStream_t s, rt_stream_cb cb, void *data,
                                         unsigned flags);
RT_API cudaError_t cudaStreamAddCallback(cudaStream_t s, rt_stream_cb cb, void *data,
                                         unsigned flags)
{
    (void)flags;
    if (!cb)
        return rt_error(cudaErrorInvalidValue);
    cb(s, rt_sticky(), data);
    return cudaSuccess;
}

RT_API cudaError_t cudaEventCreate(cudaEvent_t *e);
RT_API cudaError_t cudaEventCreate(cudaEvent_t *e)
{
    rt_context_made();
    if (!e)
        return rt_error(cudaErrorInvalidValue);
    *e = calloc(1, sizeof **e);
    return *e ? cudaSuccess : rt_error(cudaErrorMemoryAllocation);
}
RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags);
RT_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *e, unsigned flags)
{
    (void)flags;
    return cudaEventCreate(e);
}
RT_API cudaError_t cudaEventDestroy(cudaEvent_t e);
RT_API cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    free(e);
    return cudaSuccess;
}
RT_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s);
RT_API cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void)s;
    if (!e)
        return rt_error(cudaErrorInvalidResourceHandle);
    e->t = rt_now();
    e->recorded = 1;
    return ok();
}
RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags);
RT_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t e, cudaStream_t s, unsigned flags)
{
    (void)flags;
    return cudaEventRecord(e, s);
}
RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s);
RT_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t e, cudaStream_t s)
{
    return cudaEventRecord(e, s);
}
RT_API cudaError_t cudaEventSynchronize(cudaEvent_t e);
RT_API cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    if (!e)
        return rt_error(cudaErrorInvalidResourceHandle);
    return ok();
}
RT_API cudaError_t cudaEventQuery(cudaEvent_t e);
RT_API cudaError_t cudaEventQuery(cudaEvent_t e)
{
    if (!e)
        return rt_error(cudaErrorInvalidResourceHandle);
    return ok();
}
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b);
RT_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    if (!ms || !a || !b)
        return rt_error(!ms ? cudaErrorInvalidValue : cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return rt_error(cudaErrorInvalidResourceHandle);
    *ms = (float)((b->t - a->t) * 1e3);
    return cudaSuccess;
}

/* ---- function attributes and occupancy ---------------------------------------------------- */

static struct rt_kernel *kernel_of(const void *func, cudaError_t *e)
{
    struct rt_kernel *k = rt_kernel_of(func);
    *e = cudaSuccess;
    if (!k) {
        *e = cudaErrorInvalidDeviceFunction;
        return NULL;
    }
    if (rt_kernel_resolve(k)) /* a long symbol cut as rt_launch.c cuts it: the reason must fit */
        rt_fatal("kernel %.160s%s cannot be read: %s", k->symbol,
                 strlen(k->symbol) > 160 ? "<...>" : "",
                 k->mod->loaded < 0 ? k->mod->load_error : "it is not in the program's PTX");
    return k;
}

/* The kernel's static shared memory (its program prepared without dynamic shared memory). */
static uint32_t static_smem(struct rt_kernel *k)
{
    struct smem_error err;
    struct smem_cta_program *p = rt_kernel_program(k, 0, &err);
    return p ? p->static_smem : 0;
}

RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func);
RT_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *a, const void *func)
{
    if (!a)
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (!k) {
        rt_unlock();
        return rt_error(e);
    }
    memset(a, 0, sizeof *a);
    uint32_t st = static_smem(k);
    struct smem_error err;
    struct smem_cta_program *p = rt_kernel_program(k, 0, &err);
    a->sharedSizeBytes = st;
    a->localSizeBytes = p ? p->local_size : 0;
    unsigned mt = 1024;
    if (k->func->maxntid[0])
        mt = k->func->maxntid[0] * (k->func->maxntid[1] ? k->func->maxntid[1] : 1) *
             (k->func->maxntid[2] ? k->func->maxntid[2] : 1);
    a->maxThreadsPerBlock = (int)mt;
    uint32_t regs = rt_kernel_regs(k);
    a->numRegs = regs ? (int)regs : 32; /* ptxas's count; 32 where its code does not say */
    a->ptxVersion = (int)k->mod->arch;
    a->binaryVersion = 90;
    a->maxDynamicSharedSizeBytes = k->max_dyn_smem >= 0 ? k->max_dyn_smem
                                   : (int)(st < 48u * 1024u ? 48u * 1024u - st : 0);
    a->preferredShmemCarveout = k->carveout;
    /* clusters: __cluster_dims__ (.explicitcluster, .reqnctapercluster), or what
       cudaFuncSetAttribute required */
    const uint32_t *rc = k->func->reqnctapercluster;
    a->clusterDimMustBeSet = k->func->explicitcluster;
    a->requiredClusterWidth = (int)(rc[0] ? rc[0] : k->cluster_req[0]);
    a->requiredClusterHeight = (int)(rc[0] ? rc[1] : k->cluster_req[1]);
    a->requiredClusterDepth = (int)(rc[0] ? rc[2] : k->cluster_req[2]);
    a->nonPortableClusterSizeAllowed = k->nonportable;
    rt_unlock();
    return cudaSuccess;
}

RT_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
RT_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value)
{
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (!k) {
        rt_unlock();
        return rt_error(e);
    }
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (uint64_t)value + static_smem(k) > 232448u) {
            rt_unlock();
            return rt_error(cudaErrorInvalidValue);
        }
        k->max_dyn_smem = value;
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        k->carveout = value;
    } else if (attr == cudaFuncAttributeClusterDimMustBeSet) {
        rt_unlock(); /* read only (the H200: invalid value) */
        return rt_error(cudaErrorInvalidValue);
    } else if (attr >= cudaFuncAttributeRequiredClusterWidth &&
               attr <= cudaFuncAttributeRequiredClusterDepth) {
        /* a kernel compiled with __cluster_dims__ keeps its own (the H200: invalid value) */
        if (value < 0 || k->func->reqnctapercluster[0]) {
            rt_unlock();
            return rt_error(cudaErrorInvalidValue);
        }
        k->cluster_req[attr - cudaFuncAttributeRequiredClusterWidth] = (unsigned)value;
    } else if (attr == cudaFuncAttributeNonPortableClusterSizeAllowed) {
        k->nonportable = value != 0;
    }
    rt_unlock();
    return cudaSuccess;
}

RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, int c);
RT_API cudaError_t cudaFuncSetCacheConfig(const void *func, int c)
{
    (void)c;
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    rt_unlock();
    return k ? cudaSuccess : rt_error(e);
}

RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int c);
RT_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int c)
{
    return cudaFuncSetCacheConfig(func, c);
}

RT_API cudaError_t cudaFuncGetName(const char **name, const void *func);
RT_API cudaError_t cudaFuncGetName(const char **name, const void *func)
{
    rt_lock();
    struct rt_kernel *k = rt_kernel_of(func);
    if (name && k)
        *name = k->symbol;
    rt_unlock();
    return k && name ? cudaSuccess : rt_error(cudaErrorInvalidDeviceFunction);
}

RT_API cudaError_t cudaGetFuncBySymbol(void **out, const void *func);
RT_API cudaError_t cudaGetFuncBySymbol(void **out, const void *func)
{
    rt_lock();
    struct rt_kernel *k = rt_kernel_of(func);
    rt_unlock();
    if (out)
        *out = k;
    return k ? cudaSuccess : rt_error(cudaErrorInvalidDeviceFunction);
}

/* Blocks of this kernel an SM holds at once: limited by threads (2048), blocks (32), shared
 * memory (228 KB, 1 KB reserved per block) and registers: ptxas's count for a thread (the sm_90
 * code's, rt_kernel_regs; 32 where it does not say), allocated per warp in units of 256, from
 * each of the SM's four 16,384-register partitions (cub's radix-sort histogram kernel for
 * unsigned keys: 40 registers, 12 blocks of 128 threads an SM on the H100, where 32 would give
 * 16: bench/programs/h100-2026-11-24-unseen5-ncu.csv, its 1,584-block grid on 132 SMs). */
static int occupancy(struct rt_kernel *k, int block, size_t dyn)
{
    if (block <= 0)
        return 0;
    /* more dynamic shared memory than the kernel may launch with (48 KB less its static shared
       memory, or what cudaFuncSetAttribute allowed): no block fits (0 on an H100) */
    uint64_t st = static_smem(k);
    uint64_t limit = k->max_dyn_smem >= 0 ? (uint64_t)k->max_dyn_smem
                                          : (st < 48u * 1024u ? 48u * 1024u - st : 0);
    if (dyn > limit)
        return 0;
    int warps = (block + 31) / 32;
    int by_threads = 2048 / (warps * 32);
    int by_blocks = 32;
    uint64_t smem = static_smem(k) + dyn + 1024;
    int by_smem = (int)(233472 / smem);
    uint32_t regs = rt_kernel_regs(k);
    if (!regs)
        regs = 32;
    uint32_t per_warp = (regs * 32 + 255) / 256 * 256;
    int by_regs = (int)(16384 / per_warp * 4) / warps;
    int n = by_threads;
    if (by_blocks < n)
        n = by_blocks;
    if (by_smem < n)
        n = by_smem;
    if (by_regs < n)
        n = by_regs;
    return n;
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                         int block, size_t dyn,
                                                                         unsigned flags);
RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *n, const void *func,
                                                                         int block, size_t dyn,
                                                                         unsigned flags)
{
    (void)flags;
    if (!n)
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (k)
        *n = occupancy(k, block, dyn);
    rt_unlock();
    return k ? cudaSuccess : rt_error(e);
}

RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func,
                                                                 int block, size_t dyn);
RT_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *n, const void *func,
                                                                 int block, size_t dyn)
{
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(n, func, block, dyn, 0);
}

/* Clusters of a launch configuration that the GPU holds at once (cudaOccupancyMaxActiveClusters):
 * as the H200 answered (tests/run/cluster.cu, tests/run/h200-cluster.txt, driver 580.159.04), by
 * the blocks an SM holds and the cluster's size. How the GPU places clusters on its GPCs is not
 * modelled: no placement of 132 SMs in 7 or 8 GPCs, one cluster a GPC (its blocks on distinct SMs
 * or not), reproduces the 40 answers measured, so the answers are the measured ones and any other
 * configuration stops the program, named: other numbers of blocks an SM, clusters over 8 blocks
 * without cudaFuncAttributeNonPortableClusterSizeAllowed, over 8 blocks with 1 block an SM, over 16
 * (the H200 answered 16 for 17 with 8 blocks an SM, kept as measured). Blocks an SM holds:
 * occupancy(), at most 8 (a 64-thread kernel that holds 32 blocks an SM had 1,056 clusters of
 * one: 8 an SM). A zero dimension: cudaErrorInvalidClusterSize, as a launch. CUTLASS's Hopper GEMMs
 * ask this with their cluster shape and 0 bytes of dynamic shared memory (kernel_hardware_info.h)
 * and size their persistent grids by it. The H100 (the default device) has the same 132 SMs and
 * is answered alike. */
static const unsigned short occ_clusters_b1[8] = {132, 66, 39, 30, 22, 17, 15, 15};
static const unsigned short occ_clusters_b2[16] = {264, 132, 79, 62, 47, 39, 32, 30,
                                                   23,  21,  16, 16, 14, 14, 14, 14};
static const unsigned short occ_clusters_b8[17] = {1056, 528, 327, 248, 193, 163, 139, 124,
                                                   102,  88,  81,  74,  67,  65,  58,  58, 16};

RT_API cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func,
                                                  const cudaLaunchConfig_t *config);
RT_API cudaError_t cudaOccupancyMaxActiveClusters(int *n, const void *func,
                                                  const cudaLaunchConfig_t *config)
{
    if (!n || !config || (config->numAttrs && !config->attrs))
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (!k) {
        rt_unlock();
        return rt_error(e);
    }
    /* the configuration's cluster, else the kernel's (__cluster_dims__ or cudaFuncSetAttribute) */
    unsigned c[3] = {1, 1, 1};
    const uint32_t *rc = k->func->reqnctapercluster;
    for (int i = 0; i < 3; i++) {
        unsigned v = rc[0] ? rc[i] : k->cluster_req[i];
        c[i] = v ? v : 1;
    }
    const cudaLaunchAttribute *at = config->attrs;
    for (unsigned i = 0; i < config->numAttrs; i++)
        if (at[i].id == cudaLaunchAttributeClusterDimension) {
            c[0] = at[i].val.clusterDim.x;
            c[1] = at[i].val.clusterDim.y;
            c[2] = at[i].val.clusterDim.z;
        }
    uint64_t size = (uint64_t)c[0] * c[1] * c[2];
    if (!size) {
        rt_unlock();
        return rt_error(cudaErrorInvalidClusterSize);
    }
    int b = occupancy(k, (int)(config->blockDim.x * config->blockDim.y * config->blockDim.z),
                      config->dynamicSmemBytes);
    if (b > 8)
        b = 8;
    const unsigned short *t = b == 1 ? occ_clusters_b1 : b == 2 ? occ_clusters_b2
                              : b == 8 ? occ_clusters_b8 : NULL;
    unsigned nt = b == 1 ? 8 : b == 2 ? 16 : 17;
    if (b > 0 && (!t || size > nt || (size > 8 && !k->nonportable))) {
        char why[200];
        snprintf(why, sizeof why, "clusters of %llu blocks, %d blocks an SM: the H200 was measured "
                 "with 1, 2 and 8 blocks an SM (tests/run/h200-cluster.txt) and how it places "
                 "clusters is not modelled", (unsigned long long)size, b);
        rt_unlock();
        rt_unsupported("cudaOccupancyMaxActiveClusters", why);
    }
    *n = b > 0 ? t[size - 1] : 0;
    rt_unlock();
    return cudaSuccess;
}

/* The largest cluster this configuration could launch with (cudaOccupancyMaxPotentialClusterSize):
 * 16 where the kernel allows non-portable sizes, else 8, and 0 when no block fits an SM; the
 * H200 answered 16 and 8 for a 128-thread kernel (tests/run/h200-cluster.txt), and a cluster of
 * 16 fits it even at one block an SM (its GPCs hold 16 SMs and more: 15 clusters of 8 at one
 * block an SM, 14 of 16 at two). A kernel's own cluster (__cluster_dims__) is its answer. */
RT_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int *n, const void *func,
                                                        const cudaLaunchConfig_t *config);
RT_API cudaError_t cudaOccupancyMaxPotentialClusterSize(int *n, const void *func,
                                                        const cudaLaunchConfig_t *config)
{
    if (!n || !config)
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (!k) {
        rt_unlock();
        return rt_error(e);
    }
    const uint32_t *rc = k->func->reqnctapercluster;
    int b = occupancy(k, (int)(config->blockDim.x * config->blockDim.y * config->blockDim.z),
                      config->dynamicSmemBytes);
    if (rc[0])
        *n = (int)(rc[0] * (rc[1] ? rc[1] : 1) * (rc[2] ? rc[2] : 1));
    else
        *n = b > 0 ? (k->nonportable ? 16 : 8) : 0;
    rt_unlock();
    return cudaSuccess;
}

RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *out, const void *func,
                                                             int blocks, int block);
RT_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *out, const void *func,
                                                             int blocks, int block)
{
    (void)block;
    if (!out || blocks <= 0)
        return rt_error(cudaErrorInvalidValue);
    rt_lock();
    cudaError_t e;
    struct rt_kernel *k = kernel_of(func, &e);
    if (k) {
        /* as the H200 answers (tests/run/drvapi.c, driver 580.159.04, 2026-11-29: 47104, 27136,
           65536 and 56320 for a kernel of 2048 static bytes, 1 and 8 blocks by default, 1 and
           4 blocks once 64 KB are allowed): the SM's 228 KB shared among the blocks, less the
           static bytes (not the 1 KB each block reserves), at most what the kernel may launch
           with (48 KB less its static bytes, or what cudaFuncSetAttribute allowed) */
        uint64_t per = 233472u / (unsigned)blocks, st = static_smem(k);
        uint64_t limit = k->max_dyn_smem >= 0 ? (uint64_t)k->max_dyn_smem
                                              : (st < 48u * 1024u ? 48u * 1024u - st : 0);
        uint64_t avail = per > st ? per - st : 0;
        *out = (size_t)(avail < limit ? avail : limit);
    }
    rt_unlock();
    return k ? cudaSuccess : rt_error(e);
}
