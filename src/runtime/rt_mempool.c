/* rt_mempool.c: stream-ordered memory pools (cudaMemPool*, cudaMallocFromPoolAsync): the device's
 * default pool and the pools a program creates, one device. An allocation from a pool is device
 * memory as cudaMalloc's (so the checks, --initcheck and the leak check see it as such); every
 * stream's work is done when a call returns, so cudaFreeAsync frees at once. What each pool holds
 * is tracked here as the H200 reports it (tests/run/h200-mempool.txt, driver 580.159.04): the
 * memory in use is the bytes asked for; the memory reserved grows in 32 MiB pieces, and once less
 * is in use the pool keeps what its release threshold allows (the GPU releases at a
 * synchronisation; every call here is one); each has its own high-water mark, reset on its own.
 * The driver's cuMemPool* calls (rt_driver.c) come here too: one table of pools for both APIs. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

RT_API cudaError_t cudaMalloc(void **p, size_t size); /* rt_api_memory.c */

/* CUDA 13's driver_types.h, the fields read here */
struct rt_mem_location {
    int type; /* cudaMemLocationType: 1 a device (id: its ordinal), 2.. the host */
    int id;
};
struct rt_mem_pool_props {
    int alloc_type;    /* cudaMemAllocationType: 1 pinned, the only one allowed */
    int handle_types;  /* cudaMemAllocationHandleType */
    struct rt_mem_location location;
    void *win32;
    size_t max_size;
    unsigned short usage;
    unsigned char reserved[54];
};
struct rt_mem_access_desc {
    struct rt_mem_location location;
    int flags; /* cudaMemAccessFlags: 0 none, 1 read, 3 read and write */
};

enum {
    ATTR_REUSE_FOLLOW_EVENTS = 1,
    ATTR_REUSE_OPPORTUNISTIC = 2,
    ATTR_REUSE_INTERNAL_DEPS = 3,
    ATTR_RELEASE_THRESHOLD = 4,
    ATTR_RESERVED_CURRENT = 5,
    ATTR_RESERVED_HIGH = 6,
    ATTR_USED_CURRENT = 7,
    ATTR_USED_HIGH = 8
};

#define RESERVE_PIECE (32ull << 20) /* the H200's: two 4 MiB allocations reserve 32 MiB */

struct CUmemPoolHandle_st {
    int reuse[3];
    uint64_t threshold;
    uint64_t reserved;
    uint64_t used_high, reserved_high; /* the most since creation or the last reset */
    uint64_t max_size;  /* 0: no limit of its own */
    int created;        /* by cudaMemPoolCreate; 0: the device's default */
    int destroyed;
};

static struct CUmemPoolHandle_st default_pool = {{1, 1, 1}, 0, 0, 0, 0, 0, 0, 0};
static struct CUmemPoolHandle_st *current_pool = &default_pool;

/* the pools created (kept after destruction, marked, so a stale handle is an error, not a crash) */
static struct CUmemPoolHandle_st **created;
static size_t ncreated, cap_created;

/* the allocations made from pools: which pool each came from */
struct owned {
    uint64_t dev, size;
    struct CUmemPoolHandle_st *pool;
};
static struct owned *owned;
static size_t nowned, cap_owned;

static int valid(const struct CUmemPoolHandle_st *p)
{
    if (p == &default_pool)
        return 1;
    for (size_t i = 0; i < ncreated; i++)
        if (created[i] == p)
            return !p->destroyed;
    return 0;
}

static uint64_t pieces(uint64_t n)
{
    return (n + RESERVE_PIECE - 1) / RESERVE_PIECE * RESERVE_PIECE;
}

/* The bytes of pool p in use: its allocations still live (freed ones are dropped here, whichever
 * call freed them: cudaFreeAsync, cudaFree or the driver's); what it reserves beyond them is
 * released down to its threshold. */
static uint64_t in_use(struct CUmemPoolHandle_st *p)
{
    uint64_t sum = 0;
    size_t k = 0;
    for (size_t i = 0; i < nowned; i++) {
        struct rt_alloc *al = rt_find_base(owned[i].dev);
        if (!al || al->freed)
            continue;
        owned[k++] = owned[i];
        if (owned[i].pool == p)
            sum += owned[i].size;
    }
    nowned = k;
    if (p->reserved > pieces(sum)) {
        uint64_t keep = p->threshold >= p->reserved ? p->reserved : pieces(p->threshold);
        p->reserved = keep > pieces(sum) ? keep : pieces(sum);
    }
    return sum;
}

static int device_location(const struct rt_mem_location *l)
{
    return l->type == 1 && l->id == 0;
}

/* *p = the device's default pool (current 0) or its current one (1) */
static cudaError_t device_pool(cudaMemPool_t *p, int device, int current)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (device != 0)
        return rt_call_end(cudaErrorInvalidDevice);
    if (!p)
        return rt_call_end(cudaErrorInvalidValue);
    *p = current ? current_pool : &default_pool;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int device);
RT_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *p, int device)
{
    return device_pool(p, device, 0);
}

RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *p, int device);
RT_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *p, int device)
{
    return device_pool(p, device, 1);
}

RT_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t p);
RT_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t p)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (device != 0)
        return rt_call_end(cudaErrorInvalidDevice);
    if (!valid(p))
        return rt_call_end(cudaErrorInvalidValue);
    current_pool = p;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *p, const void *props);
RT_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *p, const void *props)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    const struct rt_mem_pool_props *pp = props;
    if (!p || !pp || pp->alloc_type != 1)
        return rt_call_end(cudaErrorInvalidValue);
    if (!device_location(&pp->location)) {
        /* host and NUMA pools (cudaMemLocationTypeHost*) are pinned host memory a GPU reaches */
        if (pp->location.type >= 2 && pp->location.type <= 4)
            rt_unsupported("cudaMemPoolCreate", "pools of host memory are not emulated (a pool "
                                                "on device 0 is)");
        return rt_call_end(cudaErrorInvalidValue); /* a device other than 0 too, as the H200 says */
    }
    if (ncreated == cap_created) {
        size_t nc = cap_created ? 2 * cap_created : 8;
        void *q = realloc(created, nc * sizeof *created);
        if (!q)
            return rt_call_end(cudaErrorMemoryAllocation);
        created = q;
        cap_created = nc;
    }
    struct CUmemPoolHandle_st *np = calloc(1, sizeof *np);
    if (!np)
        return rt_call_end(cudaErrorMemoryAllocation);
    np->reuse[0] = np->reuse[1] = np->reuse[2] = 1;
    np->max_size = pp->max_size;
    np->created = 1;
    created[ncreated++] = np;
    *p = np;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t p);
RT_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t p)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    /* the default pool cannot be destroyed (cudaErrorInvalidValue, the documented answer) */
    if (!valid(p) || !p->created)
        return rt_call_end(cudaErrorInvalidValue);
    /* its allocations outstanding are freed with it, as the driver does when they are freed
       later: kept here as they are (the leak check still names them) */
    p->destroyed = 1;
    if (current_pool == p)
        current_pool = &default_pool;
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, int attr, void *v);
RT_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t p, int attr, void *v)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!valid(p) || !v)
        return rt_call_end(cudaErrorInvalidValue);
    uint64_t used = in_use(p);
    switch (attr) {
    case ATTR_REUSE_FOLLOW_EVENTS:
    case ATTR_REUSE_OPPORTUNISTIC:
    case ATTR_REUSE_INTERNAL_DEPS:
        *(int *)v = p->reuse[attr - 1];
        break;
    case ATTR_RELEASE_THRESHOLD:
        *(uint64_t *)v = p->threshold;
        break;
    case ATTR_RESERVED_CURRENT:
        *(uint64_t *)v = p->reserved;
        break;
    case ATTR_USED_CURRENT:
        *(uint64_t *)v = used;
        break;
    case ATTR_RESERVED_HIGH:
        *(uint64_t *)v = p->reserved_high;
        break;
    case ATTR_USED_HIGH:
        *(uint64_t *)v = p->used_high;
        break;
    default:
        return rt_call_end(cudaErrorInvalidValue);
    }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, int attr, void *v);
RT_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t p, int attr, void *v)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!valid(p) || !v)
        return rt_call_end(cudaErrorInvalidValue);
    switch (attr) {
    case ATTR_REUSE_FOLLOW_EVENTS:
    case ATTR_REUSE_OPPORTUNISTIC:
    case ATTR_REUSE_INTERNAL_DEPS:
        p->reuse[attr - 1] = *(int *)v != 0;
        break;
    case ATTR_RELEASE_THRESHOLD:
        p->threshold = *(uint64_t *)v;
        break;
    case ATTR_RESERVED_HIGH:
    case ATTR_USED_HIGH:
        if (*(uint64_t *)v != 0) /* the high-water marks may only be reset */
            return rt_call_end(cudaErrorInvalidValue);
        uint64_t used = in_use(p); /* (which settles p->reserved) */
        if (attr == ATTR_USED_HIGH)
            p->used_high = used;
        else
            p->reserved_high = p->reserved;
        break;
    default:
        return rt_call_end(cudaErrorInvalidValue);
    }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, size_t keep);
RT_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t p, size_t keep)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    if (!valid(p))
        return rt_call_end(cudaErrorInvalidValue);
    uint64_t least = pieces(in_use(p));
    if (p->reserved > least) /* what is reserved beyond the memory in use, down to keep */
        p->reserved = keep >= p->reserved ? p->reserved : (pieces(keep) > least ? pieces(keep) : least);
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t p, const void *descs, size_t n);
RT_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t p, const void *descs, size_t n)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    const struct rt_mem_access_desc *d = descs;
    if (!valid(p) || (n && !d))
        return rt_call_end(cudaErrorInvalidValue);
    for (size_t i = 0; i < n; i++) {
        if (d[i].location.type != 1)
            return rt_call_end(cudaErrorInvalidValue);
        if (d[i].location.id != 0) /* one device: no peer to give access to */
            return rt_call_end(cudaErrorInvalidDevice);
        if (d[i].flags != 3) /* the owning device's access cannot be taken away */
            return rt_call_end(cudaErrorInvalidValue);
    }
    return rt_call_end(cudaSuccess);
}

RT_API cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t p, void *location);
RT_API cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t p, void *location)
{
    cudaError_t e = rt_call_begin();
    if (e)
        return rt_call_end(e);
    const struct rt_mem_location *l = location;
    if (!flags || !l || !valid(p))
        return rt_call_end(cudaErrorInvalidValue);
    if (l->type != 1)
        return rt_call_end(cudaErrorInvalidValue);
    if (l->id != 0)
        return rt_call_end(cudaErrorInvalidDevice);
    *flags = 3; /* cudaMemAccessFlagsProtReadWrite: the pool's own device */
    return rt_call_end(cudaSuccess);
}

/* cudaMallocFromPoolAsync: device memory from pool p (the stream's order: every call is done
 * when it returns). */
RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t p, cudaStream_t s);
RT_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t p, cudaStream_t s)
{
    (void)s;
    cudaError_t e = rt_call_begin(); /* the lock is recursive: cudaMalloc takes it again */
    if (e)
        return rt_call_end(e);
    if (!ptr || !valid(p))
        return rt_call_end(cudaErrorInvalidValue);
    *ptr = NULL;
    uint64_t used = in_use(p);
    if (p->max_size && used + size > p->max_size)
        return rt_call_end(cudaErrorMemoryAllocation);
    if (nowned == cap_owned) {
        size_t nc = cap_owned ? 2 * cap_owned : 64;
        void *q = realloc(owned, nc * sizeof *owned);
        if (!q)
            return rt_call_end(cudaErrorMemoryAllocation);
        owned = q;
        cap_owned = nc;
    }
    e = cudaMalloc(ptr, size);
    if (!e && *ptr) {
        owned[nowned++] = (struct owned){(uint64_t)(uintptr_t)*ptr, size, p};
        if (used + size > p->used_high)
            p->used_high = used + size;
        if (used + size > p->reserved)
            p->reserved = pieces(used + size);
        if (p->reserved > p->reserved_high)
            p->reserved_high = p->reserved;
    }
    rt_unlock(); /* cudaMalloc recorded its own error, if any */
    return e;
}

/* cudaMallocAsync: from the device's current pool (cudaDeviceSetMemPool) */
RT_API cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s);
RT_API cudaError_t cudaMallocAsync(void **p, size_t size, cudaStream_t s)
{
    rt_lock();
    struct CUmemPoolHandle_st *pool = current_pool;
    rt_unlock();
    return cudaMallocFromPoolAsync(p, size, pool, s);
}
