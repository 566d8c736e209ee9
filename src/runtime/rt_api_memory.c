/* rt_api_memory.c: the memory calls: device, pitched, pinned, registered and managed memory,
 * copies and sets (synchronous; the async ones too, since every stream is in order and a launch
 * has finished when it returns), module variables by their host symbol. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define TOTAL_MEM 85017493504ull /* an H100 80GB HBM3, as cudaMemGetInfo reports it */

RT_API cudaError_t cudaMalloc(void **p, size_t size);
RT_API cudaError_t cudaMalloc(void **p, size_t size)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!p)
        return rt_call_end(cudaErrorInvalidValue);
    *p = NULL;
    if (!size)
        return rt_call_end(cudaSuccess);
    if (size > TOTAL_MEM - rt_device_bytes_in_use())
        return rt_call_end(cudaErrorMemoryAllocation);
    struct rt_alloc *al = rt_alloc_device(size, RT_DEVICE, NULL);
    if (!al)
        return rt_call_end(cudaErrorMemoryAllocation);
    al->site = rt_site_capture(); /* for the leak check and use after free */
    if (rt_opt.initcheck) /* never written yet (--initcheck); calloc: every mark 0 */
        al->init = calloc(size, 1);
    *p = (void *)(uintptr_t)al->dev;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height);
RT_API cudaError_t cudaMallocPitch(void **p, size_t *pitch, size_t width, size_t height)
{
    if (!pitch)
        return rt_error(cudaErrorInvalidValue);
    size_t pt = (width + 511) & ~(size_t)511; /* the H100's pitch alignment */
    *pitch = pt;
    return cudaMalloc(p, pt * height);
}

RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent ext);
RT_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pp, struct cudaExtent ext)
{
    if (!pp)
        return rt_error(cudaErrorInvalidValue);
    size_t pitch;
    cudaError_t e = cudaMallocPitch(&pp->ptr, &pitch, ext.width, ext.height * ext.depth);
    pp->pitch = pitch;
    pp->xsize = ext.width;
    pp->ysize = ext.height;
    return e;
}

/* The sanitizer's detail for an error about freed memory al (use after free, double free). */
static void note_freed(const char *what, const struct rt_alloc *al)
{
    char d[400];
    snprintf(d, sizeof d, "%s of the %llu-byte allocation made at %s, freed at %s", what,
             (unsigned long long)al->size, rt_site_text(al->site), rt_site_text(al->free_site));
    rt_sanitize_note(d);
}

/* Why a copy or set could not reach [p, p + n): for the sanitizer's report. */
static void note_invalid(const char *call, const void *p, size_t n)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    const struct rt_alloc *al = rt_find_freed(a);
    if (al) {
        note_freed("use after free", al);
        return;
    }
    char near[300], d[400];
    if (!rt_is_device_address(a) && !rt_find(a, 1))
        snprintf(near, sizeof near, "host memory the device cannot reach: not pinned, "
                                    "registered or managed");
    else
        rt_describe_address(a, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n, near, sizeof near);
    snprintf(d, sizeof d, "invalid pointer given to %s: %llu bytes at 0x%llx (%s)", call,
             (unsigned long long)n, (unsigned long long)a, near);
    rt_sanitize_note(d);
}

/* Why a pointer given to cudaFree / cudaFreeHost is no allocation it frees. */
static void note_not_freeable(int host_kinds, const void *p, const struct rt_alloc *al)
{
    const char *call = host_kinds ? "cudaFreeHost" : "cudaFree";
    uint64_t a = (uint64_t)(uintptr_t)p;
    char d[400], near[300];
    if (al) /* an allocation of the wrong kind starts there */
        snprintf(d, sizeof d, "%s of 0x%llx, which was not made by %s", call,
                 (unsigned long long)a, host_kinds ? "cudaMallocHost / cudaHostAlloc"
                                                   : "cudaMalloc / cudaMallocManaged");
    else if (rt_is_device_address(a) || rt_find(a, 1)) {
        rt_describe_address(a, 1, near, sizeof near);
        snprintf(d, sizeof d, "%s of 0x%llx, which no allocation starts at (%s)", call,
                 (unsigned long long)a, near);
    } else
        snprintf(d, sizeof d, "%s of 0x%llx, host memory no CUDA call allocated", call,
                 (unsigned long long)a);
    rt_sanitize_note(d);
}

static cudaError_t free_dev(void *p, int host_kinds)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!p)
        return rt_call_end(cudaSuccess);
    struct rt_alloc *al = rt_find_base((uint64_t)(uintptr_t)p);
    if (!al || al->freed || al->kind == RT_VARIABLE || al->kind == RT_REGISTERED ||
        (host_kinds ? al->kind != RT_HOST : al->kind == RT_HOST)) {
        if (al && al->freed)
            note_freed("double free", al);
        else
            note_not_freeable(host_kinds, p, al);
        return rt_call_end(cudaErrorInvalidValue);
    }
    al->free_site = rt_site_capture();
    uint8_t *host = al->host;
    int kind = al->kind;
    rt_release(al);
    if (kind == RT_HOST || kind == RT_MANAGED)
        free(host);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaFree(void *p);
RT_API cudaError_t cudaFree(void *p)
{
    return free_dev(p, 0);
}

RT_API cudaError_t cudaFreeAsync(void *p, cudaStream_t s);
RT_API cudaError_t cudaFreeAsync(void *p, cudaStream_t s)
{
    (void)s;
    return free_dev(p, 0);
}

RT_API cudaError_t cudaFreeHost(void *p);
RT_API cudaError_t cudaFreeHost(void *p)
{
    return free_dev(p, 1);
}

static cudaError_t host_alloc(void **p, size_t size, unsigned kind)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!p)
        return rt_call_end(cudaErrorInvalidValue);
    void *mem = NULL;
    if (posix_memalign(&mem, 4096, size ? size : 1))
        return rt_call_end(cudaErrorMemoryAllocation);
    memset(mem, 0, size ? size : 1);
    struct rt_alloc *al = rt_alloc_host(mem, size, kind);
    if (!al) {
        free(mem);
        return rt_call_end(cudaErrorMemoryAllocation);
    }
    al->site = rt_site_capture();
    *p = mem;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMallocHost(void **p, size_t size);
RT_API cudaError_t cudaMallocHost(void **p, size_t size)
{
    return host_alloc(p, size, RT_HOST);
}

RT_API cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags);
RT_API cudaError_t cudaHostAlloc(void **p, size_t size, unsigned flags)
{
    (void)flags; /* portable, mapped, write-combined: all the same host memory here */
    return host_alloc(p, size, RT_HOST);
}

RT_API cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags);
RT_API cudaError_t cudaMallocManaged(void **p, size_t size, unsigned flags)
{
    (void)flags;
    return host_alloc(p, size, RT_MANAGED);
}

RT_API cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags);
RT_API cudaError_t cudaHostGetDevicePointer(void **dev, void *host, unsigned flags)
{
    (void)flags;
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!dev || !rt_find((uint64_t)(uintptr_t)host, 1))
        return rt_call_end(cudaErrorInvalidValue);
    *dev = host; /* unified addressing: the same address on both sides */
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaHostGetFlags(unsigned *flags, void *host);
RT_API cudaError_t cudaHostGetFlags(unsigned *flags, void *host)
{
    (void)host;
    if (flags)
        *flags = 0;
    return cudaSuccess;
}

RT_API cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags);
RT_API cudaError_t cudaHostRegister(void *p, size_t size, unsigned flags)
{
    (void)flags;
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!p || !size)
        return rt_call_end(cudaErrorInvalidValue);
    if (rt_find((uint64_t)(uintptr_t)p, 1))
        return rt_call_end(cudaErrorHostMemoryAlreadyRegistered);
    return rt_call_end(rt_alloc_host(p, size, RT_REGISTERED) ? cudaSuccess : cudaErrorMemoryAllocation);
}

RT_API cudaError_t cudaHostUnregister(void *p);
RT_API cudaError_t cudaHostUnregister(void *p)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    struct rt_alloc *al = rt_find_base((uint64_t)(uintptr_t)p);
    if (!al || al->kind != RT_REGISTERED)
        return rt_call_end(cudaErrorHostMemoryNotRegistered);
    rt_release(al);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p);
RT_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!a)
        return rt_call_end(cudaErrorInvalidValue);
    memset(a, 0, sizeof *a);
    struct rt_alloc *al = rt_find((uint64_t)(uintptr_t)p, 1);
    if (!al) {
        a->type = cudaMemoryTypeUnregistered;
        a->device = -2;
        a->hostPointer = (void *)(uintptr_t)p;
        return rt_call_end(rt_is_device_address((uint64_t)(uintptr_t)p) ? cudaErrorInvalidValue
                                                               : cudaSuccess);
    }
    a->device = 0;
    if (al->kind == RT_DEVICE || al->kind == RT_VARIABLE) {
        a->type = cudaMemoryTypeDevice;
        a->devicePointer = (void *)(uintptr_t)p;
    } else {
        a->type = al->kind == RT_MANAGED ? cudaMemoryTypeManaged : cudaMemoryTypeHost;
        a->devicePointer = (void *)(uintptr_t)p;
        a->hostPointer = (void *)(uintptr_t)p;
    }
    return rt_call_end(cudaSuccess);
}

/* ---- copies ------------------------------------------------------------------------------- */

/* initcheck: a copy's source holding bytes nothing wrote (--initcheck), counted as
 * compute-sanitizer's initcheck counts them on the H200: one error per 32-byte piece of the
 * address space that holds any (tests/run/h200-initcheck.txt). The destination is written. */
static void uninit_source(const void *src, size_t n)
{
    uint64_t a = (uint64_t)(uintptr_t)src;
    const struct rt_alloc *al = rt_find(a, n);
    if (!al || !al->init)
        return;
    const uint8_t *m = al->init + (a - al->dev);
    uint64_t first = 0, pieces = 0, last_piece = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        if (m[i])
            continue;
        uint64_t piece = (a + i) / 32;
        if (piece != last_piece) {
            if (!pieces)
                first = a + i;
            pieces++;
            last_piece = piece;
        }
    }
    if (pieces)
        rt_sanitize_uninit_copy(a, n, first, pieces);
}

/* dst and src resolved to bytes (device addresses through the table; the kind is inferred from
 * the addresses, as with unified addressing). */
static cudaError_t copy(void *dst, const void *src, size_t n)
{
    if (!n)
        return cudaSuccess;
    uint8_t *d = rt_host_ptr(dst, n);
    const uint8_t *s = rt_host_src(src, n);
    if (!d || !s) {
        note_invalid("a copy", d ? src : dst, n);
        return cudaErrorInvalidValue;
    }
    uninit_source(src, n);
    memmove(d, s, n);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if ((unsigned)kind > cudaMemcpyDefault)
        return rt_call_end(cudaErrorInvalidMemcpyDirection);
    return rt_call_end(copy(dst, src, n));
}

RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                                   cudaStream_t s);
RT_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t n, enum cudaMemcpyKind kind,
                                   cudaStream_t s)
{
    (void)s;
    return cudaMemcpy(dst, src, n, kind);
}

RT_API cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n);
RT_API cudaError_t cudaMemcpyPeer(void *dst, int dd, const void *src, int sd, size_t n)
{
    if (dd || sd)
        return rt_error(cudaErrorInvalidDevice);
    return cudaMemcpy(dst, src, n, cudaMemcpyDefault);
}

RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height, enum cudaMemcpyKind kind)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if ((unsigned)kind > cudaMemcpyDefault)
        return rt_call_end(cudaErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch)
        return rt_call_end(cudaErrorInvalidPitchValue);
    for (size_t r = 0; r < height; r++) {
        e = copy((uint8_t *)dst + r * dpitch, (const uint8_t *)src + r * spitch, width);
        if (e)
            return rt_call_end(e);
    }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t s);
RT_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                     size_t width, size_t height, enum cudaMemcpyKind kind,
                                     cudaStream_t s)
{
    (void)s;
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
RT_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return rt_error(cudaErrorInvalidValue);
    if (p->srcArray || p->dstArray)
        rt_unsupported("cudaMemcpy3D with a cudaArray", "CUDA arrays and textures");
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    const struct cudaPitchedPtr *s = &p->srcPtr, *d = &p->dstPtr;
    for (size_t z = 0; z < p->extent.depth; z++)
        for (size_t y = 0; y < p->extent.height; y++) {
            size_t so = ((p->srcPos.z + z) * s->ysize + p->srcPos.y + y) * s->pitch + p->srcPos.x;
            size_t dof = ((p->dstPos.z + z) * d->ysize + p->dstPos.y + y) * d->pitch + p->dstPos.x;
            e = copy((uint8_t *)d->ptr + dof, (const uint8_t *)s->ptr + so, p->extent.width);
            if (e)
                return rt_call_end(e);
        }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s);
RT_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t s)
{
    (void)s;
    return cudaMemcpy3D(p);
}

static cudaError_t set(void *dst, int value, size_t n)
{
    if (!n)
        return cudaSuccess;
    /* the device writes it: memory it reaches (device, pinned, managed, registered), never the
       program's own malloc'd memory (cudaErrorInvalidValue on the H200: sanitize_more.cu) */
    uint8_t *d = rt_find((uint64_t)(uintptr_t)dst, n) ? rt_host_ptr(dst, n) : NULL;
    if (!d) {
        note_invalid("a memset", dst, n);
        return cudaErrorInvalidValue;
    }
    memset(d, value, n);
    return cudaSuccess;
}

RT_API cudaError_t cudaMemset(void *dst, int value, size_t n);
RT_API cudaError_t cudaMemset(void *dst, int value, size_t n)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    return rt_call_end(set(dst, value, n));
}

RT_API cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t s);
RT_API cudaError_t cudaMemsetAsync(void *dst, int value, size_t n, cudaStream_t s)
{
    (void)s;
    return cudaMemset(dst, value, n);
}

RT_API cudaError_t cudaMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height);
RT_API cudaError_t cudaMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    for (size_t r = 0; r < height; r++)
        if ((e = set((uint8_t *)dst + r * pitch, value, width)))
            return rt_call_end(e);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                                     size_t height, cudaStream_t s);
RT_API cudaError_t cudaMemset2DAsync(void *dst, size_t pitch, int value, size_t width,
                                     size_t height, cudaStream_t s)
{
    (void)s;
    return cudaMemset2D(dst, pitch, value, width, height);
}

/* A pitched 3-D region: depth slices of ysize rows of pitch bytes; width bytes of each of the
 * first height rows of each slice are set. */
RT_API cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent ext);
RT_API cudaError_t cudaMemset3D(struct cudaPitchedPtr p, int value, struct cudaExtent ext)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (ext.height > 1 && p.pitch < ext.width)
        return rt_call_end(cudaErrorInvalidPitchValue);
    size_t slice = p.pitch * (p.ysize ? p.ysize : ext.height);
    for (size_t z = 0; z < ext.depth; z++)
        for (size_t y = 0; y < ext.height; y++)
            if ((e = set((uint8_t *)p.ptr + z * slice + y * p.pitch, value, ext.width)))
                return rt_call_end(e);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent ext,
                                     cudaStream_t s);
RT_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr p, int value, struct cudaExtent ext,
                                     cudaStream_t s)
{
    (void)s;
    return cudaMemset3D(p, value, ext);
}

RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total);
RT_API cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total)
{
    rt_lock();
    if (free_bytes)
        *free_bytes = (size_t)(TOTAL_MEM - rt_device_bytes_in_use());
    if (total)
        *total = (size_t)TOTAL_MEM;
    rt_unlock();
    return cudaSuccess;
}

RT_API cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s);
RT_API cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s)
{
    (void)p, (void)n, (void)device, (void)s;
    return cudaSuccess; /* one memory: nothing moves */
}

RT_API cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device);
RT_API cudaError_t cudaMemAdvise(const void *p, size_t n, int advice, int device)
{
    (void)p, (void)n, (void)advice, (void)device;
    return cudaSuccess;
}

/* ---- module variables by their host symbol ------------------------------------------------ */

static struct rt_alloc *symbol(const void *sym, cudaError_t *e)
{
    struct rt_var *v = rt_var_of(sym);
    if (!v) {
        *e = cudaErrorInvalidSymbol;
        return NULL;
    }
    if (rt_module_load(v->mod))
        rt_fatal("%s", v->mod->load_error);
    if (!v->alloc) {
        *e = cudaErrorInvalidSymbol;
        return NULL;
    }
    return v->alloc;
}

RT_API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset,
                                      enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyToSymbol(const void *sym, const void *src, size_t n, size_t offset,
                                      enum cudaMemcpyKind kind)
{
    (void)kind;
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    struct rt_alloc *al = symbol(sym, &e);
    if (!al)
        return rt_call_end(e);
    if (offset > al->size || n > al->size - offset)
        return rt_call_end(cudaErrorInvalidValue);
    const uint8_t *s = rt_host_src(src, n);
    if (n && !s)
        return rt_call_end(cudaErrorInvalidValue);
    if (n) {
        rt_touch(al);
        memmove(al->host + offset, s, n);
    }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           cudaStream_t s);
RT_API cudaError_t cudaMemcpyToSymbolAsync(const void *sym, const void *src, size_t n,
                                           size_t offset, enum cudaMemcpyKind kind,
                                           cudaStream_t s)
{
    (void)s;
    return cudaMemcpyToSymbol(sym, src, n, offset, kind);
}

RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset,
                                        enum cudaMemcpyKind kind);
RT_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *sym, size_t n, size_t offset,
                                        enum cudaMemcpyKind kind)
{
    (void)kind;
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    struct rt_alloc *al = symbol(sym, &e);
    if (!al)
        return rt_call_end(e);
    if (offset > al->size || n > al->size - offset)
        return rt_call_end(cudaErrorInvalidValue);
    uint8_t *d = rt_host_ptr(dst, n);
    if (n && !d)
        return rt_call_end(cudaErrorInvalidValue);
    if (n)
        memmove(d, al->host + offset, n);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t s);
RT_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *sym, size_t n, size_t offset,
                                             enum cudaMemcpyKind kind, cudaStream_t s)
{
    (void)s;
    return cudaMemcpyFromSymbol(dst, sym, n, offset, kind);
}

RT_API cudaError_t cudaGetSymbolAddress(void **dev, const void *sym);
RT_API cudaError_t cudaGetSymbolAddress(void **dev, const void *sym)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    struct rt_alloc *al = symbol(sym, &e);
    if (!al || !dev)
        return rt_call_end(al ? cudaErrorInvalidValue : e);
    *dev = (void *)(uintptr_t)al->dev;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym);
RT_API cudaError_t cudaGetSymbolSize(size_t *size, const void *sym)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    struct rt_alloc *al = symbol(sym, &e);
    if (!al || !size)
        return rt_call_end(al ? cudaErrorInvalidValue : e);
    *size = (size_t)al->size;
    return rt_call_end(cudaSuccess);
}
