/* sol_peers.c: the speed-of-light benchmarks' yardsticks, loaded at run time with dlopen so the CLI
 * starts without any of them: the driver's device-to-device copy, cuBLAS geam, CUB DeviceReduce
 * (our small nvcc-built wrapper) and torch in a subprocess. */
#include "sol_peers.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* dlsym into a function pointer without the object-to-function cast ISO C forbids. */
static int bind_sym(void *lib, const char *name, void *fnptr, size_t size)
{
    void *p = dlsym(lib, name);
    if (!p)
        return -1;
    memcpy(fnptr, &p, size);
    return 0;
}

int sol_peers_open_copy(struct sol_peers *p, char *err, size_t errlen)
{
    p->cuda_lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!p->cuda_lib) {
        snprintf(err, errlen, "libcuda.so.1 cannot be loaded (%s)", dlerror());
        return -1;
    }
    /* cuMemcpyDtoDAsync_v2 on the legacy default stream: what cudaMemcpy(..., DeviceToDevice)
     * issues, ordered with our launches and events on the same stream. */
    if (bind_sym(p->cuda_lib, "cuMemcpyDtoDAsync_v2", &p->memcpy_dtod, sizeof p->memcpy_dtod)) {
        snprintf(err, errlen, "libcuda.so.1 lacks cuMemcpyDtoDAsync_v2");
        return -1;
    }
    return 0;
}

int sol_peers_open_cublas(struct sol_peers *p, char *err, size_t errlen)
{
    static const char *const names[] = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
    for (size_t i = 0; i < sizeof names / sizeof names[0] && !p->cublas_lib; ++i)
        p->cublas_lib = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (!p->cublas_lib) {
        snprintf(err, errlen, "cuBLAS not found (libcublas.so.13/.12 cannot be loaded)");
        return -1;
    }
    int (*create)(void **) = NULL;
    if (bind_sym(p->cublas_lib, "cublasCreate_v2", &create, sizeof create) ||
        bind_sym(p->cublas_lib, "cublasDestroy_v2", &p->cublas_destroy, sizeof p->cublas_destroy) ||
        bind_sym(p->cublas_lib, "cublasSgeam", &p->sgeam, sizeof p->sgeam) ||
        bind_sym(p->cublas_lib, "cublasDgeam", &p->dgeam, sizeof p->dgeam)) {
        snprintf(err, errlen, "cuBLAS lacks cublasCreate_v2/cublasSgeam/cublasDgeam");
        return -1;
    }
    int st = create(&p->cublas);
    if (st != 0) {
        p->cublas = NULL;
        snprintf(err, errlen, "cublasCreate failed (status %d)", st);
        return -1;
    }
    return 0;
}

int sol_peers_open_cub(struct sol_peers *p, const char *path, char *err, size_t errlen)
{
    p->cub_lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!p->cub_lib) {
        snprintf(err, errlen, "CUB wrapper %s cannot be loaded (%s)", path, dlerror());
        return -1;
    }
    if (bind_sym(p->cub_lib, "smem_cub_sum_i32", &p->cub_sum_i32, sizeof p->cub_sum_i32) ||
        bind_sym(p->cub_lib, "smem_cub_sum_f32", &p->cub_sum_f32, sizeof p->cub_sum_f32)) {
        snprintf(err, errlen, "CUB wrapper %s lacks smem_cub_sum_i32/f32", path);
        return -1;
    }
    return 0;
}

void sol_peers_close(struct sol_peers *p)
{
    if (p->cublas && p->cublas_destroy)
        p->cublas_destroy(p->cublas);
    /* The libraries stay loaded: cuBLAS and the CUDA runtime inside the CUB wrapper register
     * exit-time handlers, which must still find their code. */
    memset(p, 0, sizeof *p);
}

int sol_peers_geam(struct sol_peers *p, size_t elem, uint64_t out, uint64_t in, int rows, int cols)
{
    /* Column-major view: in is a cols x rows matrix A (lda = cols); C = A^T is rows x cols with
     * ldc = rows, which is the row-major cols x rows output. B = C with beta 0 is never read. */
    enum { OP_N = 0, OP_T = 1 };
    if (elem == 4) {
        const float one = 1.0f, zero = 0.0f;
        return p->sgeam(p->cublas, OP_T, OP_N, rows, cols, &one, (const void *)(uintptr_t)in, cols, &zero,
                        (const void *)(uintptr_t)out, rows, (void *)(uintptr_t)out, rows);
    }
    const double one = 1.0, zero = 0.0;
    return p->dgeam(p->cublas, OP_T, OP_N, rows, cols, &one, (const void *)(uintptr_t)in, cols, &zero,
                    (const void *)(uintptr_t)out, rows, (void *)(uintptr_t)out, rows);
}

/* Quotes s for sh in single quotes; the specs we pass hold only [a-z0-9:x,], but be safe. */
static int append_quoted(char *buf, size_t len, size_t *pos, const char *s)
{
    if (*pos + 1 >= len)
        return -1;
    buf[(*pos)++] = '\'';
    for (; *s; ++s) {
        if (*s == '\'')
            return -1;
        if (*pos + 2 >= len)
            return -1;
        buf[(*pos)++] = *s;
    }
    buf[(*pos)++] = '\'';
    buf[*pos] = '\0';
    return 0;
}

int sol_torch_run(const char *python, const char *script, int reps, int warmup, const char *transpose_specs,
                  const char *reduce_specs, void (*line)(void *ctx, const char *text), void *ctx)
{
    size_t len = strlen(transpose_specs) + strlen(reduce_specs) + strlen(script) + strlen(python) + 256;
    char *cmd = malloc(len);
    if (!cmd)
        return -1;
    size_t pos = 0;
    int bad = 0;
    bad |= append_quoted(cmd, len, &pos, python);
    pos += (size_t)snprintf(cmd + pos, len - pos, " ");
    bad |= append_quoted(cmd, len, &pos, script);
    pos += (size_t)snprintf(cmd + pos, len - pos, " --reps %d --warm %d --transpose ", reps, warmup);
    bad |= append_quoted(cmd, len, &pos, transpose_specs);
    pos += (size_t)snprintf(cmd + pos, len - pos, " --reduce ");
    bad |= append_quoted(cmd, len, &pos, reduce_specs);
    if (bad) {
        free(cmd);
        return -1;
    }
    fflush(NULL);
    FILE *f = popen(cmd, "r");
    free(cmd);
    if (!f)
        return -1;
    char text[1024];
    while (fgets(text, sizeof text, f))
        line(ctx, text);
    int st = pclose(f);
    if (st == -1)
        return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
