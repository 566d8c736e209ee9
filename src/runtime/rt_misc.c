/* rt_misc.c: calls that change nothing on an emulated GPU (profiler markers, stream attributes,
 * L2 persistence) and the per-thread-default-stream entry points (_ptsz / _ptds, what nvcc
 * --default-stream per-thread calls), which forward to the ordinary ones: every stream here is
 * in order and synchronous, so the default stream's flavour makes no difference. */
#include "rt_internal.h"

#include <string.h>

RT_API cudaError_t cudaProfilerStart(void);
RT_API cudaError_t cudaProfilerStart(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaProfilerStop(void);
RT_API cudaError_t cudaProfilerStop(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaCtxResetPersistingL2Cache(void);
RT_API cudaError_t cudaCtxResetPersistingL2Cache(void)
{
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status);
RT_API cudaError_t cudaStreamIsCapturing(cudaStream_t s, int *status)
{
    (void)s;
    if (status)
        *status = 0; /* cudaStreamCaptureStatusNone */
    return cudaSuccess;
}

RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
RT_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode)
{
    (void)mode;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id);
RT_API cudaError_t cudaStreamGetId(cudaStream_t s, unsigned long long *id)
{
    if (id)
        *id = (unsigned long long)(uintptr_t)s;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d);
RT_API cudaError_t cudaStreamGetDevice(cudaStream_t s, int *d)
{
    (void)s;
    if (d)
        *d = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr, const void *value);
RT_API cudaError_t cudaStreamSetAttribute(cudaStream_t s, int attr, const void *value)
{
    (void)s, (void)attr, (void)value;
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr, void *value);
RT_API cudaError_t cudaStreamGetAttribute(cudaStream_t s, int attr, void *value)
{
    (void)s, (void)attr;
    if (value)
        memset(value, 0, 48); /* cudaLaunchAttributeValue's size */
    return cudaSuccess;
}

RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n, unsigned flags);
RT_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t s, void *p, size_t n, unsigned flags)
{
    (void)s, (void)p, (void)n, (void)flags;
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int d);
RT_API cudaError_t cudaDeviceGetPCIBusId(char *id, int len, int d)
{
    if (!id || len <= 0 || d != 0)
        return rt_error(d != 0 ? cudaErrorInvalidDevice : cudaErrorInvalidValue);
    snprintf(id, (size_t)len, "0000:01:00.0");
    return cudaSuccess;
}

RT_API cudaError_t cudaDeviceGetByPCIBusId(int *d, const char *id);
RT_API cudaError_t cudaDeviceGetByPCIBusId(int *d, const char *id)
{
    (void)id;
    if (d)
        *d = 0;
    return cudaSuccess;
}

/* X_ptsz / X_ptds: a tail jump to X, whatever X's arguments (x86-64 SysV: they are all in
 * registers or on the caller's stack, untouched by a jmp). */
#if defined(__x86_64__)
#define RT_FORWARD(name, target)                                                                  \
    __asm__(".text\n.globl " #name "\n.type " #name ", @function\n" #name ":\n\tjmp " #target     \
            "@PLT\n.size " #name ", .-" #name "\n");
RT_FORWARD(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
RT_FORWARD(cudaFreeAsync_ptsz, cudaFreeAsync)
RT_FORWARD(cudaLaunchCooperativeKernel_ptsz, cudaLaunchCooperativeKernel)
RT_FORWARD(cudaLaunchHostFunc_ptsz, cudaLaunchHostFunc)
RT_FORWARD(cudaMallocAsync_ptsz, cudaMallocAsync)
RT_FORWARD(cudaMallocFromPoolAsync_ptsz, cudaMallocFromPoolAsync)
RT_FORWARD(cudaMemPrefetchAsync_ptsz, cudaMemPrefetchAsync)
RT_FORWARD(cudaMemcpy_ptds, cudaMemcpy)
RT_FORWARD(cudaMemcpy2D_ptds, cudaMemcpy2D)
RT_FORWARD(cudaMemcpy2DAsync_ptsz, cudaMemcpy2DAsync)
RT_FORWARD(cudaMemcpy3D_ptds, cudaMemcpy3D)
RT_FORWARD(cudaMemcpy3DAsync_ptsz, cudaMemcpy3DAsync)
RT_FORWARD(cudaMemcpyAsync_ptsz, cudaMemcpyAsync)
RT_FORWARD(cudaMemcpyFromSymbol_ptds, cudaMemcpyFromSymbol)
RT_FORWARD(cudaMemcpyFromSymbolAsync_ptsz, cudaMemcpyFromSymbolAsync)
RT_FORWARD(cudaMemcpyToSymbol_ptds, cudaMemcpyToSymbol)
RT_FORWARD(cudaMemcpyToSymbolAsync_ptsz, cudaMemcpyToSymbolAsync)
RT_FORWARD(cudaMemset_ptds, cudaMemset)
RT_FORWARD(cudaMemset2D_ptds, cudaMemset2D)
RT_FORWARD(cudaMemset2DAsync_ptsz, cudaMemset2DAsync)
RT_FORWARD(cudaMemset3D_ptds, cudaMemset3D)
RT_FORWARD(cudaMemset3DAsync_ptsz, cudaMemset3DAsync)
RT_FORWARD(cudaMemsetAsync_ptsz, cudaMemsetAsync)
RT_FORWARD(cudaStreamAddCallback_ptsz, cudaStreamAddCallback)
RT_FORWARD(cudaStreamGetFlags_ptsz, cudaStreamGetFlags)
RT_FORWARD(cudaStreamGetPriority_ptsz, cudaStreamGetPriority)
RT_FORWARD(cudaStreamQuery_ptsz, cudaStreamQuery)
RT_FORWARD(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
RT_FORWARD(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
RT_FORWARD(cudaStreamIsCapturing_ptsz, cudaStreamIsCapturing)
RT_FORWARD(cudaStreamGetId_ptsz, cudaStreamGetId)
RT_FORWARD(cudaStreamGetDevice_ptsz, cudaStreamGetDevice)
RT_FORWARD(cudaStreamSetAttribute_ptsz, cudaStreamSetAttribute)
RT_FORWARD(cudaStreamGetAttribute_ptsz, cudaStreamGetAttribute)
RT_FORWARD(cudaStreamAttachMemAsync_ptsz, cudaStreamAttachMemAsync)
#endif

/* A plain value the host code builds before asking for a texture or an array (refused then). */
struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f;
};

RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f);
RT_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f)
{
    struct cudaChannelFormatDesc d = {x, y, z, w, f};
    return d;
}
