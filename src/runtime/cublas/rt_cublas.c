/* rt_cublas.c: libcublas.so.13 of `smemlab run`: the handle (modes, stream, workspace) and the
 * copies between host and device memory (cublasSet/GetVector, Set/GetMatrix). The computing calls
 * are in blas_*.c; every other export stops the program, naming it (stubs_cublas.c). */
#include <stdlib.h>

#include "blas.h"

CUBLAS_API int cublasCreate_v2(struct stub_handle **h);
CUBLAS_API int cublasCreate_v2(struct stub_handle **h)
{
    if (!h)
        return STUB_INVALID_VALUE;
    *h = calloc(1, sizeof **h);
    return *h ? STUB_SUCCESS : STUB_ALLOC_FAILED;
}

CUBLAS_API int cublasDestroy_v2(struct stub_handle *h);
CUBLAS_API int cublasDestroy_v2(struct stub_handle *h)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    free(h);
    return STUB_SUCCESS;
}

#define STUB_SET_GET(set, get, type, field)                                                     \
    CUBLAS_API int set(struct stub_handle *h, type v);                                          \
    CUBLAS_API int set(struct stub_handle *h, type v)                                           \
    {                                                                                           \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        h->field = v;                                                                           \
        return STUB_SUCCESS;                                                                    \
    }                                                                                           \
    CUBLAS_API int get(struct stub_handle *h, type *v);                                         \
    CUBLAS_API int get(struct stub_handle *h, type *v)                                          \
    {                                                                                           \
        if (!h)                                                                                 \
            return STUB_NOT_INITIALIZED;                                                        \
        if (!v)                                                                                 \
            return STUB_INVALID_VALUE;                                                          \
        *v = h->field;                                                                          \
        return STUB_SUCCESS;                                                                    \
    }
STUB_SET_GET(cublasSetMathMode, cublasGetMathMode, int, math_mode)
STUB_SET_GET(cublasSetPointerMode_v2, cublasGetPointerMode_v2, int, pointer_mode)
STUB_SET_GET(cublasSetAtomicsMode, cublasGetAtomicsMode, int, atomics_mode)
STUB_SET_GET(cublasSetStream_v2, cublasGetStream_v2, void *, stream)
STUB_SET_GET(cublasSetSmCountTarget, cublasGetSmCountTarget, int, sm_count_target)

CUBLAS_API int cublasSetWorkspace_v2(struct stub_handle *h, void *w, size_t n);
CUBLAS_API int cublasSetWorkspace_v2(struct stub_handle *h, void *w, size_t n)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    h->workspace = w;
    h->workspace_size = n;
    return STUB_SUCCESS;
}

/* The versions this stand-in answers: those of the cuBLAS of CUDA 13.0 whose ABI it mirrors
 * (cublas_api.h: CUBLAS_VER_MAJOR 13, MINOR 1, PATCH 0), and CUDA 13.0's runtime. */
CUBLAS_API int cublasGetVersion_v2(struct stub_handle *h, int *v);
CUBLAS_API int cublasGetVersion_v2(struct stub_handle *h, int *v)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    if (!v)
        return STUB_INVALID_VALUE;
    *v = STUB_CUBLAS_VERSION;
    return STUB_SUCCESS;
}
CUBLAS_API int cublasGetProperty(int type, int *v);
CUBLAS_API int cublasGetProperty(int type, int *v) { return stub_property(type, v); }
CUBLAS_API size_t cublasGetCudartVersion(void);
CUBLAS_API size_t cublasGetCudartVersion(void) { return STUB_CUDART_VERSION; }

/* logging: nothing is logged here (each call is in smemlab's report instead) */
CUBLAS_API int cublasLoggerConfigure(int on, int to_stdout, int to_stderr, const char *file);
CUBLAS_API int cublasLoggerConfigure(int on, int to_stdout, int to_stderr, const char *file)
{
    (void)on, (void)to_stdout, (void)to_stderr, (void)file;
    return STUB_SUCCESS;
}

CUBLAS_API const char *cublasGetStatusName(int s);
CUBLAS_API const char *cublasGetStatusName(int s) { return stub_status_name(s); }
CUBLAS_API const char *cublasGetStatusString(int s);
CUBLAS_API const char *cublasGetStatusString(int s) { return stub_status_string(s); }

/* ---- host <-> device copies (no handle: they are cudaMemcpy2D in cuBLAS's words) ---------- */

/* rows x cols elements of elem bytes, from src (leading dimension lds, in elements) to dst */
static int copy_matrix(const char *call, int64_t rows, int64_t cols, int64_t elem, const void *src,
                       int64_t lds, void *dst, int64_t ldd, int to_device)
{
    if (rows < 0 || cols < 0 || elem <= 0 || lds < (rows > 1 ? rows : 1) ||
        ldd < (rows > 1 ? rows : 1))
        return STUB_INVALID_VALUE;
    if (!rows || !cols)
        return STUB_SUCCESS;
    uint64_t span_s = blas_span(rows, cols, lds, (unsigned)elem);
    uint64_t span_d = blas_span(rows, cols, ldd, (unsigned)elem);
    if (to_device)
        dst = blas_bytes(call, "the device matrix", dst, span_d);
    else
        src = blas_in(call, "the device matrix", src, span_s);
    if (!src || !dst)
        return STUB_INVALID_VALUE;
    for (int64_t j = 0; j < cols; j++)
        memmove((char *)dst + j * ldd * elem, (const char *)src + j * lds * elem,
                (size_t)(rows * elem));
    return STUB_SUCCESS;
}

/* a vector of n elements with increments: a 1 x n matrix whose leading dimension is the increment */
static int copy_vector(const char *call, int64_t n, int64_t elem, const void *x, int64_t incx,
                       void *y, int64_t incy, int to_device)
{
    if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0)
        return STUB_INVALID_VALUE;
    return copy_matrix(call, 1, n, elem, x, incx, y, incy, to_device);
}

#define NO_STREAM
#define STREAM , void *stream __attribute__((unused))
#define VECTOR(name, I, dir, EXTRA)                                                              \
    CUBLAS_API int name(I n, int elem, const void *x, I incx, void *y, I incy EXTRA);    \
    CUBLAS_API int name(I n, int elem, const void *x, I incx, void *y, I incy EXTRA)     \
    {                                                                                          \
        return copy_vector(#name, n, elem, x, incx, y, incy, dir);                             \
    }
VECTOR(cublasSetVector, int, 1, NO_STREAM)
VECTOR(cublasGetVector, int, 0, NO_STREAM)
VECTOR(cublasSetVector_64, int64_t, 1, NO_STREAM)
VECTOR(cublasGetVector_64, int64_t, 0, NO_STREAM)
VECTOR(cublasSetVectorAsync, int, 1, STREAM)
VECTOR(cublasGetVectorAsync, int, 0, STREAM)
VECTOR(cublasSetVectorAsync_64, int64_t, 1, STREAM)
VECTOR(cublasGetVectorAsync_64, int64_t, 0, STREAM)

#define MATRIX(name, I, dir, EXTRA)                                                              \
    CUBLAS_API int name(I rows, I cols, int elem, const void *a, I lda, void *b,               \
                        I ldb EXTRA);                                                    \
    CUBLAS_API int name(I rows, I cols, int elem, const void *a, I lda, void *b,               \
                        I ldb EXTRA)                                                     \
    {                                                                                          \
        return copy_matrix(#name, rows, cols, elem, a, lda, b, ldb, dir);                      \
    }
MATRIX(cublasSetMatrix, int, 1, NO_STREAM)
MATRIX(cublasGetMatrix, int, 0, NO_STREAM)
MATRIX(cublasSetMatrix_64, int64_t, 1, NO_STREAM)
MATRIX(cublasGetMatrix_64, int64_t, 0, NO_STREAM)
MATRIX(cublasSetMatrixAsync, int, 1, STREAM)
MATRIX(cublasGetMatrixAsync, int, 0, STREAM)
MATRIX(cublasSetMatrixAsync_64, int64_t, 1, STREAM)
MATRIX(cublasGetMatrixAsync_64, int64_t, 0, STREAM)
