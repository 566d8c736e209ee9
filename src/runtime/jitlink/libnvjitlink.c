/* libnvjitlink.c: smemlab run's stand-in for nvJitLink, build/runtime/libnvJitLink.so.13 (CUDA
 * 13's names, plain and as nvJitLink.h's __nvJitLink*_13_0, by its version node). Numba-CUDA links
 * the PTX NVVM made with nvJitLink (through cuda.core) and loads the cubin, which carries no PTX;
 * this one links as the driver stand-in's cuLink* do (rt_link.c in libcudart.so.13, through its
 * __cudaSmemlabLink* exports): ptxas makes the cubin of the one PTX module, and the runtime keeps
 * that module's PTX for when the cubin is loaded. A program (cuda.pathfinder) finds it first on
 * the LD_LIBRARY_PATH that `smemlab run` sets, unless an NVIDIA wheel's nvJitLink is installed in
 * its environment (docs/run.md). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define JL_API __attribute__((visibility("default")))

void *__cudaSmemlabLinkCreate(void);
int __cudaSmemlabLinkAdd(void *l, int kind, const void *data, size_t n, const char *name,
                         const char *call);
int __cudaSmemlabLinkComplete(void *l, const char *call);
const void *__cudaSmemlabLinkImage(void *l, size_t *n);
const char *__cudaSmemlabLinkPtx(void *l);
const char *__cudaSmemlabLinkLog(void *l, int error);
void __cudaSmemlabLinkDestroy(void *l);

/* nvJitLink.h's numbers */
enum {
    OK = 0, ERR_UNRECOGNIZED_OPTION = 1, ERR_MISSING_ARCH = 2, ERR_INVALID_INPUT = 3,
    ERR_PTX_COMPILE = 4, ERR_INTERNAL = 6, ERR_NULL_INPUT = 10
};
enum { IN_NONE, IN_CUBIN, IN_PTX, IN_LTOIR, IN_FATBIN, IN_OBJECT, IN_LIBRARY, IN_INDEX, IN_ANY = 10 };
/* rt_link.c's enum rt_link_input */
enum { L_CUBIN, L_PTX, L_FATBIN, L_OBJECT, L_LIBRARY, L_LTOIR, L_NVVM };

typedef struct nvjl {
    void *link;
    int completed;
} *nvJitLinkHandle;

static int kind_of(int type, const void *data, size_t n)
{
    const unsigned char *b = data;
    switch (type) {
    case IN_CUBIN:
        return L_CUBIN;
    case IN_PTX:
        return L_PTX;
    case IN_FATBIN:
        return L_FATBIN;
    case IN_OBJECT:
        return L_OBJECT;
    case IN_LIBRARY:
        return L_LIBRARY;
    case IN_LTOIR:
    case IN_INDEX:
        return L_LTOIR;
    case IN_ANY: /* by its first bytes */
        if (n >= 4 && !memcmp(b, "\177ELF", 4))
            return L_CUBIN;
        if (n >= 4 && b[0] == 0x50 && b[1] == 0xed && b[2] == 0x55 && b[3] == 0xba)
            return L_FATBIN;
        if (n >= 8 && !memcmp(b, "!<arch>\n", 8))
            return L_LIBRARY;
        return memchr(b, 0, n) && strstr((const char *)b, ".version") ? L_PTX : L_LTOIR;
    }
    return -1;
}

JL_API int nvJitLinkCreate(nvJitLinkHandle *h, uint32_t n, const char **options);
JL_API int nvJitLinkCreate(nvJitLinkHandle *h, uint32_t n, const char **options)
{
    if (!h || (n && !options))
        return ERR_NULL_INPUT;
    int arch = 0;
    for (uint32_t i = 0; i < n; i++)
        if (options[i] && !strncmp(options[i], "-arch=", 6))
            arch = 1;
    if (!arch)
        return ERR_MISSING_ARCH;
    struct nvjl *j = calloc(1, sizeof *j);
    if (!j || !(j->link = __cudaSmemlabLinkCreate())) {
        free(j);
        return ERR_INTERNAL;
    }
    *h = j;
    return OK;
}

JL_API int nvJitLinkDestroy(nvJitLinkHandle *h);
JL_API int nvJitLinkDestroy(nvJitLinkHandle *h)
{
    if (!h || !*h)
        return ERR_NULL_INPUT;
    __cudaSmemlabLinkDestroy((*h)->link);
    free(*h);
    *h = NULL;
    return OK;
}

JL_API int nvJitLinkAddData(nvJitLinkHandle h, int type, const void *data, size_t n,
                            const char *name);
JL_API int nvJitLinkAddData(nvJitLinkHandle h, int type, const void *data, size_t n,
                            const char *name)
{
    if (!h || !data)
        return ERR_NULL_INPUT;
    int kind = kind_of(type, data, n);
    if (kind < 0)
        return ERR_INVALID_INPUT;
    return __cudaSmemlabLinkAdd(h->link, kind, data, n, name, "nvJitLinkAddData")
               ? ERR_INVALID_INPUT : OK;
}

JL_API int nvJitLinkAddFile(nvJitLinkHandle h, int type, const char *path);
JL_API int nvJitLinkAddFile(nvJitLinkHandle h, int type, const char *path)
{
    if (!h || !path)
        return ERR_NULL_INPUT;
    FILE *f = fopen(path, "rb");
    if (!f)
        return ERR_INVALID_INPUT;
    char *buf = NULL;
    size_t n = 0, cap = 0, r;
    do {
        if (n + 65537 > cap) {
            char *nb = realloc(buf, cap = cap * 2 + 65537);
            if (!nb) {
                free(buf);
                fclose(f);
                return ERR_INTERNAL;
            }
            buf = nb;
        }
        r = fread(buf + n, 1, cap - n - 1, f);
        n += r;
    } while (r);
    fclose(f);
    buf[n] = 0;
    const char *base = strrchr(path, '/');
    int rc = nvJitLinkAddData(h, type, buf, n + 1, base ? base + 1 : path);
    free(buf);
    return rc;
}

JL_API int nvJitLinkComplete(nvJitLinkHandle h);
JL_API int nvJitLinkComplete(nvJitLinkHandle h)
{
    if (!h)
        return ERR_NULL_INPUT;
    if (__cudaSmemlabLinkComplete(h->link, "nvJitLinkComplete"))
        return ERR_PTX_COMPILE;
    h->completed = 1;
    return OK;
}

JL_API int nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h, size_t *size);
JL_API int nvJitLinkGetLinkedCubinSize(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return ERR_NULL_INPUT;
    if (!__cudaSmemlabLinkImage(h->link, size))
        return ERR_INTERNAL; /* not completed */
    return OK;
}

JL_API int nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *cubin);
JL_API int nvJitLinkGetLinkedCubin(nvJitLinkHandle h, void *cubin)
{
    size_t n = 0;
    const void *image = h ? __cudaSmemlabLinkImage(h->link, &n) : NULL;
    if (!h || !cubin)
        return ERR_NULL_INPUT;
    if (!image)
        return ERR_INTERNAL;
    memcpy(cubin, image, n);
    return OK;
}

/* -ptx's output: the PTX module linked (one module: linking changes nothing of it) */
JL_API int nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h, size_t *size);
JL_API int nvJitLinkGetLinkedPtxSize(nvJitLinkHandle h, size_t *size)
{
    if (!h || !size)
        return ERR_NULL_INPUT;
    const char *p = h->completed ? __cudaSmemlabLinkPtx(h->link) : NULL;
    if (!p)
        return ERR_INTERNAL;
    *size = strlen(p) + 1;
    return OK;
}

JL_API int nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *ptx);
JL_API int nvJitLinkGetLinkedPtx(nvJitLinkHandle h, char *ptx)
{
    if (!h || !ptx)
        return ERR_NULL_INPUT;
    const char *p = h->completed ? __cudaSmemlabLinkPtx(h->link) : NULL;
    if (!p)
        return ERR_INTERNAL;
    memcpy(ptx, p, strlen(p) + 1);
    return OK;
}

static int log_size(nvJitLinkHandle h, int error, size_t *size)
{
    if (!h || !size)
        return ERR_NULL_INPUT;
    *size = strlen(__cudaSmemlabLinkLog(h->link, error)) + 1;
    return OK;
}

static int log_copy(nvJitLinkHandle h, int error, char *out)
{
    if (!h || !out)
        return ERR_NULL_INPUT;
    const char *s = __cudaSmemlabLinkLog(h->link, error);
    memcpy(out, s, strlen(s) + 1);
    return OK;
}

JL_API int nvJitLinkGetErrorLogSize(nvJitLinkHandle h, size_t *size);
JL_API int nvJitLinkGetErrorLogSize(nvJitLinkHandle h, size_t *size)
{
    return log_size(h, 1, size);
}

JL_API int nvJitLinkGetErrorLog(nvJitLinkHandle h, char *log);
JL_API int nvJitLinkGetErrorLog(nvJitLinkHandle h, char *log)
{
    return log_copy(h, 1, log);
}

JL_API int nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *size);
JL_API int nvJitLinkGetInfoLogSize(nvJitLinkHandle h, size_t *size)
{
    return log_size(h, 0, size);
}

JL_API int nvJitLinkGetInfoLog(nvJitLinkHandle h, char *log);
JL_API int nvJitLinkGetInfoLog(nvJitLinkHandle h, char *log)
{
    return log_copy(h, 0, log);
}

/* nvJitLink.h's names: nvJitLinkCreate is __nvJitLinkCreate_13_0 in a program built with it */
#define ALIAS(name, target) JL_API __typeof__(target) name __attribute__((alias(#target)));
ALIAS(__nvJitLinkCreate_13_0, nvJitLinkCreate)
ALIAS(__nvJitLinkDestroy_13_0, nvJitLinkDestroy)
ALIAS(__nvJitLinkAddData_13_0, nvJitLinkAddData)
ALIAS(__nvJitLinkAddFile_13_0, nvJitLinkAddFile)
ALIAS(__nvJitLinkComplete_13_0, nvJitLinkComplete)
ALIAS(__nvJitLinkGetLinkedCubinSize_13_0, nvJitLinkGetLinkedCubinSize)
ALIAS(__nvJitLinkGetLinkedCubin_13_0, nvJitLinkGetLinkedCubin)
ALIAS(__nvJitLinkGetLinkedPtxSize_13_0, nvJitLinkGetLinkedPtxSize)
ALIAS(__nvJitLinkGetLinkedPtx_13_0, nvJitLinkGetLinkedPtx)
ALIAS(__nvJitLinkGetErrorLogSize_13_0, nvJitLinkGetErrorLogSize)
ALIAS(__nvJitLinkGetErrorLog_13_0, nvJitLinkGetErrorLog)
ALIAS(__nvJitLinkGetInfoLogSize_13_0, nvJitLinkGetInfoLogSize)
ALIAS(__nvJitLinkGetInfoLog_13_0, nvJitLinkGetInfoLog)
