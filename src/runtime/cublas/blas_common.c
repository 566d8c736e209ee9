/* blas_common.c: the operands of a cuBLAS call: their bytes through the runtime, the scalars in
 * either pointer mode, and the call's record in the report (blas.h). */
#include "blas.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

void *blas_bytes(const char *call, const char *what, const void *p, uint64_t n)
{
    void *host;
    char why[400], sentence[700];
    if (!n)
        return NULL;
    if (__cudaSmemlabLibraryBytes(p, n, &host, why, sizeof why) == 0)
        return host;
    snprintf(sentence, sizeof sentence, "%s: %s at %p (%llu bytes) is %s; on a GPU the call "
             "would read or write outside device memory", call, what, p, (unsigned long long)n, why);
    __cudaSmemlabLibraryStop(sentence);
}

uint64_t blas_span(int64_t rows, int64_t cols, int64_t ld, unsigned elem)
{
    if (rows <= 0 || cols <= 0)
        return 0;
    return ((uint64_t)(cols - 1) * (uint64_t)ld + (uint64_t)rows) * elem;
}

void blas_scalar(const char *call, const char *what, const struct stub_handle *h, const void *p,
                 unsigned elem, void *out)
{
    if (h->pointer_mode == PTR_DEVICE)
        p = blas_bytes(call, what, p, elem);
    memcpy(out, p, elem);
}

double blas_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void blas_record(const char *name, double t0, const char *precision, const char *fmt, ...)
{
    char shape[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(shape, sizeof shape, fmt, ap);
    va_end(ap);
    __cudaSmemlabLibraryCall("cuBLAS", name, shape, precision, blas_now() - t0);
}

float *blas_to_float(const void *p, int t, int64_t rows, int64_t cols, int64_t ld, int rnd)
{
    float *f = malloc((size_t)(rows * cols) * sizeof *f + 1);
    if (!f)
        return NULL;
    for (int64_t j = 0; j < cols; j++)
        for (int64_t i = 0; i < rows; i++)
            f[j * rows + i] = round_input((float)load_as(t, p, j * ld + i), rnd);
    return f;
}
