/* rt_link.c: linking device code at run time, as the driver's cuLink* (rt_driver.c) and nvJitLink
 * (the stand-in build/runtime/libnvJitLink.so.13, jitlink/, through __cudaSmemlabLink*) do: a
 * link takes PTX (text, or a fatbinary's PTX), and its image is the cubin ptxas makes of it
 * (analysis/census.h: the command the SASS census uses), or the PTX text itself where there is no
 * ptxas (cuModuleLoadData takes either). smemlab runs PTX: every image a link made is remembered
 * with its PTX, so that loading it (cuModuleLoadData, cuLibraryLoadData: Numba-CUDA links with
 * nvJitLink and loads the cubin) finds the PTX. A link with nothing in it is an empty module's (as
 * the H200's driver completes it). A link of several PTX modules, or of objects, libraries
 * (libcudadevrt.a), LTO-IR or NVVM IR, stops the program, named (exit 3).
 * With the API families: calls rt_state.c and the library below it. */
#include "rt_internal.h"

#include <stdlib.h>
#include <string.h>

#include "smemlab/analysis/census.h"
#include "smemlab/ptx/fatbin.h"

struct linked {
    uint8_t *image;
    size_t size;
    char *ptx;
};
static struct linked *linked;
static unsigned nlinked;

static char *copy_text(const void *data, size_t n)
{
    const char *s = data;
    size_t len = strnlen(s, n);
    char *t = malloc(len + 1);
    if (t) {
        memcpy(t, s, len);
        t[len] = 0;
    }
    return t;
}

struct rt_link *rt_link_new(void)
{
    return calloc(1, sizeof(struct rt_link));
}

void rt_link_free(struct rt_link *l)
{
    if (!l)
        return;
    free(l->ptx);
    free(l->image);
    free(l);
}

char *rt_link_ptx_of(const void *image, size_t size)
{
    char *text = NULL;
    rt_lock();
    for (unsigned i = 0; i < nlinked && !text; i++)
        if (linked[i].size <= size && !memcmp(linked[i].image, image, linked[i].size))
            text = strdup(linked[i].ptx);
    rt_unlock();
    return text;
}

static const char *kind_name(enum rt_link_input kind)
{
    switch (kind) {
    case RT_LINK_PTX:
        return "PTX";
    case RT_LINK_CUBIN:
        return "a cubin";
    case RT_LINK_FATBIN:
        return "a fatbinary";
    case RT_LINK_OBJECT:
        return "a host object";
    case RT_LINK_LIBRARY:
        return "a library (such as libcudadevrt.a)";
    case RT_LINK_LTOIR:
        return "LTO-IR";
    case RT_LINK_NVVM:
        return "NVVM IR";
    }
    return "an input of unknown type";
}

int rt_link_add(struct rt_link *l, enum rt_link_input kind, const void *data, size_t n,
                const char *name, const char *call)
{
    char *text = NULL;
    name = name && *name ? name : "(unnamed)";
    if (!data || !n) {
        snprintf(l->error, sizeof l->error, "%.60s: input %.200s has no bytes", call, name);
        return -1;
    }
    if (kind == RT_LINK_PTX) {
        text = copy_text(data, n);
        if (text && (!strstr(text, ".version") || !strstr(text, ".target"))) {
            snprintf(l->error, sizeof l->error, "%.60s: input %.200s is not PTX (no .version and "
                     ".target)", call, name);
            free(text);
            return -1;
        }
    } else if (kind == RT_LINK_FATBIN) {
        unsigned arch = 0;
        size_t len = 0;
        int no_ptx = 0;
        struct smem_error err;
        text = smem_fatbin_ptx(data, n, 90, &arch, &len, &no_ptx, &err);
        if (!text)
            rt_fatal("%s: the fatbinary %s holds no PTX smemlab can run (%s); link PTX, or a "
                     "fatbinary holding it (nvcc -fatbin -gencode arch=compute_90,code="
                     "[sm_90,compute_90])", call, name, err.msg);
    } else if (kind == RT_LINK_CUBIN) {
        text = rt_link_ptx_of(data, n);
        if (!text)
            rt_fatal("%s: input %s is a cubin, machine code without the PTX smemlab runs; link "
                     "its PTX instead (docs/run.md)", call, name);
    } else {
        rt_fatal("%s: smemlab's linker takes PTX (text, or in a fatbinary), not %s (input %s)",
                 call, kind_name(kind), name);
    }
    if (!text)
        return -1;
    if (l->ptx)
        rt_fatal("%s: smemlab's linker links one PTX module; this link already has %s, and %s "
                 "is a second (link one module, or load each as its own module)", call,
                 l->first, name);
    l->ptx = text;
    snprintf(l->first, sizeof l->first, "%s", name);
    return 0;
}

int rt_link_complete(struct rt_link *l, const char *call)
{
    (void)call;
    if (!l->ptx) { /* nothing added: a module of nothing, as the H200's driver links it */
        l->ptx = strdup(".version 8.0\n.target sm_90\n.address_size 64\n");
        snprintf(l->first, sizeof l->first, "(an empty link)");
        if (!l->ptx)
            return -1;
    }
    if (l->image)
        return 0; /* completed before: the same image */
    char why[300] = "";
    size_t n = 0;
    uint8_t *cubin = smem_ptxas_cubin(l->ptx, strlen(l->ptx), &n, why, sizeof why);
    if (cubin) {
        l->image = cubin;
        l->size = n;
        snprintf(l->info, sizeof l->info, "smemlab: %.150s assembled by ptxas into a cubin of %zu "
                 "bytes (the PTX is what runs)", l->first, n);
    } else { /* no ptxas: the PTX text is the image (every loader takes it) */
        l->size = strlen(l->ptx) + 1;
        l->image = malloc(l->size);
        if (!l->image)
            return -1;
        memcpy(l->image, l->ptx, l->size);
        snprintf(l->info, sizeof l->info, "smemlab: %.150s is the image, as PTX text (%.200s)", l->first,
                 why);
    }
    rt_lock();
    struct linked *nl = realloc(linked, (nlinked + 1) * sizeof *nl);
    char *ptx = strdup(l->ptx);
    uint8_t *image = malloc(l->size);
    if (nl)
        linked = nl;
    if (nl && ptx && image) {
        memcpy(image, l->image, l->size);
        linked[nlinked++] = (struct linked){image, l->size, ptx};
    } else {
        free(ptx);
        free(image);
    }
    rt_unlock();
    return 0;
}

/* ---- for the nvJitLink stand-in (jitlink/libnvjitlink.c) ---- */

RT_API void *__cudaSmemlabLinkCreate(void);
RT_API void *__cudaSmemlabLinkCreate(void)
{
    return rt_link_new();
}

/* kind: enum rt_link_input's numbers */
RT_API int __cudaSmemlabLinkAdd(void *l, int kind, const void *data, size_t n, const char *name,
                                const char *call);
RT_API int __cudaSmemlabLinkAdd(void *l, int kind, const void *data, size_t n, const char *name,
                                const char *call)
{
    return rt_link_add(l, (enum rt_link_input)kind, data, n, name, call);
}

RT_API int __cudaSmemlabLinkComplete(void *l, const char *call);
RT_API int __cudaSmemlabLinkComplete(void *l, const char *call)
{
    return rt_link_complete(l, call);
}

/* the image (NULL before the link is complete), the PTX, a log (error: 1) */
RT_API const void *__cudaSmemlabLinkImage(void *l, size_t *n);
RT_API const void *__cudaSmemlabLinkImage(void *l, size_t *n)
{
    struct rt_link *k = l;
    *n = k->image ? k->size : 0;
    return k->image;
}

RT_API const char *__cudaSmemlabLinkPtx(void *l);
RT_API const char *__cudaSmemlabLinkPtx(void *l)
{
    return ((struct rt_link *)l)->ptx;
}

RT_API const char *__cudaSmemlabLinkLog(void *l, int error);
RT_API const char *__cudaSmemlabLinkLog(void *l, int error)
{
    return error ? ((struct rt_link *)l)->error : ((struct rt_link *)l)->info;
}

RT_API void __cudaSmemlabLinkDestroy(void *l);
RT_API void __cudaSmemlabLinkDestroy(void *l)
{
    rt_link_free(l);
}
