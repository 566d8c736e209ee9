/* rt_memory.c: device memory of `smemlab run`. Device allocations live in their own address range,
 * reserved PROT_NONE on the host, so a device pointer is never a valid host pointer: host code
 * that dereferences one faults (and the crash report names the allocation), as on a real GPU. The
 * bytes behind an allocation are ordinary host memory that kernels and cudaMemcpy reach through
 * the table here. Addresses are never reused, so an access to freed memory is named as such.
 * Host memory the device may reach (pinned, registered, managed) keeps its own address (UVA). */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#include "rt_internal.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define DEV_SPAN (1ull << 40)   /* 1 TiB of address space, never backed */
#define DEV_ALIGN 512ull        /* cudaMalloc returns 256-byte aligned pointers; be generous */
#define DEV_GAP 4096ull         /* unallocated bytes between allocations: overruns fault */

static uint64_t dev_base, dev_next, dev_end;
static struct rt_alloc **allocs; /* sorted by dev address (live and freed device ones) */
static size_t nallocs, cap_allocs;
static uint64_t seq, bytes_in_use;
static struct smem_global_region *regions;
static struct rt_alloc **region_allocs; /* the allocation of each region */
static unsigned nregions;
static uint64_t vclock;                 /* the last version given (rt_touch) */
static int regions_dirty = 1;
static uint64_t generation;

/* The emulator's generic windows of parameter, local and shared memory (emu/block.h:
 * PARAM_GENERIC_BASE .. SHARED_GENERIC_BASE + WINDOW_SIZE): a generic address there is the
 * kernel's own memory, so no device allocation may lie there (a pointer a kernel's malloc returns
 * is used through generic loads and stores). */
#define EMU_WINDOWS_LO 0x00007c0000000000ull
#define EMU_WINDOWS_HI 0x00007e0100000000ull
#define DEV_HINT 0x0000600000000000ull /* below them, above a program's own memory */

static void *reserve_at(void *hint, uint64_t span)
{
    void *p = mmap(hint, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uint64_t a = (uint64_t)(uintptr_t)p;
    if (a < EMU_WINDOWS_HI && a + span > EMU_WINDOWS_LO) {
        munmap(p, span);
        return NULL;
    }
    return p;
}

static void reserve(void)
{
    if (dev_base)
        return;
    for (uint64_t span = DEV_SPAN; span >= (1ull << 34); span >>= 1) {
        void *p = reserve_at((void *)(uintptr_t)DEV_HINT, span);
        if (!p)
            p = reserve_at(NULL, span);
        if (p) {
            dev_base = (uint64_t)(uintptr_t)p;
            dev_end = dev_base + span;
            break;
        }
    }
    if (!dev_base) { /* no room to reserve: a range high in the address space, unchecked */
        dev_base = DEV_HINT;
        dev_end = dev_base + DEV_SPAN;
    }
    dev_next = dev_base + DEV_ALIGN * 8; /* never hand out the range's first bytes */
}

int rt_is_device_address(uint64_t a)
{
    return dev_base && a >= dev_base && a < dev_end;
}

static size_t lower_bound(uint64_t a) /* first index with dev > a */
{
    size_t lo = 0, hi = nallocs;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (allocs[mid]->dev <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int insert(struct rt_alloc *al)
{
    if (nallocs == cap_allocs) {
        size_t nc = cap_allocs ? cap_allocs * 2 : 64;
        struct rt_alloc **na = realloc(allocs, nc * sizeof *na);
        if (!na)
            return -1;
        allocs = na;
        cap_allocs = nc;
    }
    size_t i = lower_bound(al->dev);
    memmove(allocs + i + 1, allocs + i, (nallocs - i) * sizeof *allocs);
    allocs[i] = al;
    nallocs++;
    assert((i == 0 || allocs[i - 1]->dev <= al->dev) &&
           (i + 1 == nallocs || allocs[i + 1]->dev > al->dev)); /* sorted by dev address */
    regions_dirty = 1;
    generation++;
    return 0;
}

struct rt_alloc *rt_alloc_device(uint64_t size, unsigned kind, const char *name)
{
    assert(kind == RT_DEVICE || kind == RT_VARIABLE);
    reserve();
    uint64_t dev = (dev_next + DEV_ALIGN - 1) & ~(DEV_ALIGN - 1);
    if (size > dev_end - dev || dev_end - dev - size < DEV_GAP)
        return NULL;
    struct rt_alloc *al = calloc(1, sizeof *al);
    if (!al)
        return NULL;
    /* device memory reads as zeros until written (a real GPU's is undefined) */
    al->host = calloc(size ? (size_t)size : 1, 1);
    if (!al->host) {
        free(al);
        return NULL;
    }
    al->dev = dev;
    al->size = size;
    al->kind = (uint8_t)kind;
    al->name = name;
    al->seq = seq++;
    if (insert(al)) {
        free(al->host);
        free(al);
        return NULL;
    }
    dev_next = dev + size + DEV_GAP;
    bytes_in_use += size;
    return al;
}

struct rt_alloc *rt_alloc_host(void *p, uint64_t size, unsigned kind)
{
    assert(kind == RT_HOST || kind == RT_REGISTERED || kind == RT_MANAGED);
    struct rt_alloc *al = calloc(1, sizeof *al);
    if (!al)
        return NULL;
    al->dev = (uint64_t)(uintptr_t)p;
    al->host = p;
    al->size = size;
    al->kind = (uint8_t)kind;
    al->seq = seq++;
    if (insert(al)) {
        free(al);
        return NULL;
    }
    return al;
}

struct rt_alloc *rt_find(uint64_t a, uint64_t n)
{
    size_t i = lower_bound(a);
    if (!i)
        return NULL;
    struct rt_alloc *al = allocs[i - 1];
    if (al->freed || a - al->dev >= al->size + (al->size == 0) || n > al->size - (a - al->dev))
        return NULL;
    return al;
}

struct rt_alloc *rt_find_freed(uint64_t a)
{
    size_t i = lower_bound(a);
    if (!i)
        return NULL;
    struct rt_alloc *al = allocs[i - 1];
    return al->freed && a - al->dev < al->size + (al->size == 0) ? al : NULL;
}

size_t rt_alloc_count(void)
{
    return nallocs;
}

struct rt_alloc *rt_alloc_at(size_t i)
{
    return i < nallocs ? allocs[i] : NULL;
}

struct rt_alloc *rt_find_base(uint64_t a)
{
    size_t i = lower_bound(a);
    return i && allocs[i - 1]->dev == a ? allocs[i - 1] : NULL;
}

void rt_release(struct rt_alloc *al)
{
    assert(!al->freed); /* freed device memory stays as a record, never released twice */
    regions_dirty = 1;
    generation++;
    if (al->kind == RT_DEVICE || al->kind == RT_VARIABLE) {
        free(al->host);
        al->host = NULL;
        free(al->init);
        al->init = NULL;
        al->freed = 1;
        assert(bytes_in_use >= al->size);
        bytes_in_use -= al->size;
        return;
    }
    /* host memory: its address may come back from malloc, so forget it */
    size_t i = lower_bound(al->dev);
    if (i && allocs[i - 1] == al) {
        memmove(allocs + i - 1, allocs + i, (nallocs - i) * sizeof *allocs);
        nallocs--;
    }
    free(al);
}

const struct smem_global_region *rt_regions(unsigned *n)
{
    if (regions_dirty) {
        free(regions);
        free(region_allocs);
        regions = calloc(nallocs ? nallocs : 1, sizeof *regions);
        region_allocs = calloc(nallocs ? nallocs : 1, sizeof *region_allocs);
        nregions = 0;
        if (!region_allocs) {
            free(regions);
            regions = NULL;
        }
        for (size_t i = 0; regions && i < nallocs; i++) {
            struct rt_alloc *al = allocs[i];
            if (al->freed || !al->size)
                continue;
            region_allocs[nregions] = al;
            struct smem_global_region *r = &regions[nregions++];
            r->base = al->dev;
            r->size = al->size;
            r->host = al->host;
            r->known = NULL;
            r->readonly = al->readonly;
            r->heap = al->heap;
        }
        regions_dirty = 0;
    }
    *n = nregions;
    return regions;
}

struct rt_alloc *rt_region_alloc(unsigned i)
{
    return i < nregions ? region_allocs[i] : NULL;
}

void rt_touch(struct rt_alloc *al)
{
    if (al)
        al->version = ++vclock;
}

static uint8_t *host_ptr(const void *p, uint64_t n, int write)
{
    uint64_t a = (uint64_t)(uintptr_t)p;
    struct rt_alloc *al = rt_find(a, n);
    if (al) {
        if (write)
            rt_touch(al); /* the caller may write through it */
        if (write && al->init) /* initcheck: a copy, a memset or a library call writes them */
            memset(al->init + (a - al->dev), 1, n);
        return al->host + (a - al->dev);
    }
    if (rt_is_device_address(a))
        return NULL; /* a device address outside every live allocation */
    return (uint8_t *)(uintptr_t)p; /* ordinary host memory */
}

uint8_t *rt_host_ptr(const void *p, uint64_t n)
{
    return host_ptr(p, n, 1);
}

const uint8_t *rt_host_src(const void *p, uint64_t n)
{
    return host_ptr(p, n, 0);
}

uint64_t rt_alloc_generation(void)
{
    return generation;
}

uint64_t rt_device_bytes_in_use(void)
{
    return bytes_in_use;
}

static const char *kind_name(const struct rt_alloc *al)
{
    switch (al->kind) {
    case RT_DEVICE: return "cudaMalloc";
    case RT_HOST: return "cudaMallocHost";
    case RT_REGISTERED: return "cudaHostRegister";
    case RT_MANAGED: return al->name ? "__managed__" : "cudaMallocManaged";
    default: return al->readonly ? "__constant__" : "__device__";
    }
}

static void describe(const struct rt_alloc *al, char *what, size_t n)
{
    if (al->freed && al->site) /* named as such: where the program made and freed it */
        snprintf(what, n, "%llu-byte allocation at 0x%llx (%s) made at %s, freed at %s",
                 (unsigned long long)al->size, (unsigned long long)al->dev, kind_name(al),
                 rt_site_text(al->site), rt_site_text(al->free_site));
    else if (al->name)
        snprintf(what, n, "%s variable '%s' (%llu bytes at 0x%llx)", kind_name(al), al->name,
                 (unsigned long long)al->size, (unsigned long long)al->dev);
    else
        snprintf(what, n, "%llu-byte allocation at 0x%llx (%s)", (unsigned long long)al->size,
                 (unsigned long long)al->dev, kind_name(al));
}

void rt_describe_address(uint64_t a, uint32_t bytes, char *buf, size_t size)
{
    char what[160];
    const struct rt_alloc *best = NULL;
    uint64_t dist = UINT64_MAX;
    int after = 0;
    size_t i = lower_bound(a);
    if (i) {
        const struct rt_alloc *al = allocs[i - 1]; /* starts at or before a */
        if (a < al->dev + al->size) {
            describe(al, what, sizeof what);
            if (al->freed)
                snprintf(buf, size, "use after free: %llu bytes into a freed %s",
                         (unsigned long long)(a - al->dev), what);
            else if (a + bytes > al->dev + al->size)
                snprintf(buf, size, "%llu bytes into a %s, %llu bytes past its end",
                         (unsigned long long)(a - al->dev), what,
                         (unsigned long long)(a + bytes - (al->dev + al->size)));
            else
                snprintf(buf, size, "%llu bytes into a %s", (unsigned long long)(a - al->dev),
                         what);
            return;
        }
        best = al;
        dist = a - (al->dev + al->size);
        after = 1;
    }
    if (i < nallocs) {
        uint64_t d = allocs[i]->dev - a; /* as compute-sanitizer counts: from the address */
        if (d < dist) {
            best = allocs[i];
            dist = d;
            after = 0;
        }
    }
    if (!best) {
        snprintf(buf, size, "no allocation anywhere near");
        return;
    }
    describe(best, what, sizeof what);
    if (after)
        snprintf(buf, size, "%llu bytes after the end of the %s%s", (unsigned long long)dist,
                 best->freed ? "freed " : "", what);
    else
        snprintf(buf, size, "%llu bytes before the %s%s", (unsigned long long)dist,
                 best->freed ? "freed " : "", what);
}
