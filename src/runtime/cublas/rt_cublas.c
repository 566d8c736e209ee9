/* rt_cublas.c: libcublas.so.13 of `smemlab run` (cublas_stub.h says what runs). Programs that link
 * cuBLAS but only create a handle (llm.c's dev/cuda programs all call setup_main) run to their end;
 * the first call that would compute stops them, naming it. */
#include <stdlib.h>

#include "cublas_stub.h"

struct stub_handle {
    int math_mode, pointer_mode, atomics_mode;
    void *stream, *workspace;
    size_t workspace_size;
};

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

CUBLAS_API int cublasSetWorkspace_v2(struct stub_handle *h, void *w, size_t n);
CUBLAS_API int cublasSetWorkspace_v2(struct stub_handle *h, void *w, size_t n)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    h->workspace = w;
    h->workspace_size = n;
    return STUB_SUCCESS;
}

CUBLAS_API const char *cublasGetStatusName(int s);
CUBLAS_API const char *cublasGetStatusName(int s) { return stub_status_name(s); }
CUBLAS_API const char *cublasGetStatusString(int s);
CUBLAS_API const char *cublasGetStatusString(int s) { return stub_status_string(s); }
