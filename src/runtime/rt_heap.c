/* rt_heap.c: the device heap, which kernels' malloc / free use (on rt_memory.c): one device
 * allocation of cudaLimitMallocHeapSize bytes (8 MB unless the program set it before a kernel used
 * the heap), made when the first kernel that calls malloc or free is launched; its blocks kept
 * here (where, how big, which kernel and line made them, freed or not). Blocks are 16-byte
 * aligned with 64 bytes between them (an overrun lands outside every block, as a GPU's heap
 * leaves room for its own records), a freed block's room taken again by a request it fits. An
 * access of the heap outside every live block is a memory error ("in the device heap"), as
 * compute-sanitizer reports it; blocks still live at exit are its leaks (docs/run.md). */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#define HEAP_DEFAULT (8ull << 20) /* cudaLimitMallocHeapSize's default (H200: 8388608) */
#define HEAP_MIN (4ull << 20)     /* the H200 answers 4 MB after a request of 1 MB */
#define GAP 64u
#define ALIGN 16u

struct block {
    uint64_t addr, size, room; /* room: the bytes it holds (>= size) */
    int live;
    const char *kernel, *file;
    uint32_t line;
};

static uint64_t limit = HEAP_DEFAULT;
static struct rt_alloc *heap;
static struct block *blocks; /* by address */
static size_t nblocks, cap;
static uint64_t top; /* the next unused byte (an offset in the heap) */

uint64_t rt_heap_limit(void)
{
    return limit;
}

int rt_heap_set_limit(uint64_t bytes)
{
    if (heap)
        return -1; /* in use: cudaErrorInvalidValue, as CUDA documents */
    limit = bytes < HEAP_MIN ? HEAP_MIN : (bytes + ALIGN - 1) / ALIGN * ALIGN;
    return 0;
}

int rt_heap_calls(const struct smem_ptx_func *f)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == PO_CALL && f->insns[i].call_name &&
            (!strcmp(f->insns[i].call_name, "malloc") || !strcmp(f->insns[i].call_name, "free")))
            return 1;
    return 0;
}

int rt_heap_prepare(void)
{
    if (!heap && !(heap = rt_alloc_device(limit, RT_VARIABLE, "the device heap")))
        return -1;
    heap->heap = 1;
    return 0;
}

uint64_t rt_heap_base(void)
{
    return heap ? heap->dev : 0;
}

/* the block starting at a, else the index where one would go (*found 0) */
static size_t find(uint64_t a, int *found)
{
    size_t lo = 0, hi = nblocks;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (blocks[mid].addr < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < nblocks && blocks[lo].addr == a;
    return lo;
}

uint64_t rt_heap_malloc(uint64_t size, const char *kernel, const char *file, uint32_t line)
{
    if (!heap || !size)
        return 0;
    uint64_t room = (size + ALIGN - 1) / ALIGN * ALIGN;
    for (size_t i = 0; i < nblocks; i++) /* a freed block it fits */
        if (!blocks[i].live && blocks[i].room >= room) {
            blocks[i].size = size;
            blocks[i].live = 1;
            blocks[i].kernel = kernel;
            blocks[i].file = file;
            blocks[i].line = line;
            return blocks[i].addr;
        }
    if (top + GAP + room > heap->size || top + GAP + room < top)
        return 0; /* the heap is full: NULL, as on a GPU */
    if (nblocks == cap) {
        size_t nc = cap ? cap * 2 : 64;
        struct block *nb = realloc(blocks, nc * sizeof *nb);
        if (!nb)
            return 0;
        blocks = nb;
        cap = nc;
    }
    struct block *b = &blocks[nblocks++]; /* top only grows: the last by address */
    b->addr = heap->dev + top + GAP;
    b->size = size;
    b->room = room;
    b->live = 1;
    b->kernel = kernel;
    b->file = file;
    b->line = line;
    top += GAP + room;
    return b->addr;
}

int rt_heap_free(uint64_t p)
{
    if (!p)
        return 0; /* free(NULL) does nothing */
    int found;
    size_t i = find(p, &found);
    if (!found)
        return 1;
    if (!blocks[i].live)
        return 2;
    blocks[i].live = 0;
    return 0;
}

int rt_heap_live(uint64_t a, uint64_t n)
{
    int found;
    size_t i = find(a, &found);
    if (!found) {
        if (!i)
            return 0;
        i--; /* the block starting before a */
    }
    return blocks[i].live && a >= blocks[i].addr && a + n <= blocks[i].addr + blocks[i].size;
}

size_t rt_heap_leaks(struct rt_heap_leak *out, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < nblocks; i++)
        if (blocks[i].live) {
            if (out && k < n) {
                out[k].addr = blocks[i].addr;
                out[k].size = blocks[i].size;
                out[k].kernel = blocks[i].kernel;
                out[k].file = blocks[i].file;
                out[k].line = blocks[i].line;
            }
            k++;
        }
    return k;
}
