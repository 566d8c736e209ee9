/* rt_cublaslt.c: libcublasLt.so.13 of `smemlab run`: the handle and the versions; descriptors,
 * layouts, the heuristic and cublasLtMatmul are in blas_lt.c. */
#include <stdlib.h>

#include "cublas_stub.h"

CUBLAS_API int cublasLtCreate(void **h);
CUBLAS_API int cublasLtCreate(void **h)
{
    if (!h)
        return STUB_INVALID_VALUE;
    *h = calloc(1, 64);
    return *h ? STUB_SUCCESS : STUB_ALLOC_FAILED;
}

CUBLAS_API int cublasLtDestroy(void *h);
CUBLAS_API int cublasLtDestroy(void *h)
{
    if (!h)
        return STUB_NOT_INITIALIZED;
    free(h);
    return STUB_SUCCESS;
}

CUBLAS_API size_t cublasLtGetVersion(void);
CUBLAS_API size_t cublasLtGetVersion(void) { return STUB_CUBLAS_VERSION; }
CUBLAS_API size_t cublasLtGetCudartVersion(void);
CUBLAS_API size_t cublasLtGetCudartVersion(void) { return STUB_CUDART_VERSION; }
CUBLAS_API int cublasLtGetProperty(int type, int *v);
CUBLAS_API int cublasLtGetProperty(int type, int *v) { return stub_property(type, v); }

CUBLAS_API const char *cublasLtGetStatusName(int s);
CUBLAS_API const char *cublasLtGetStatusName(int s) { return stub_status_name(s); }
CUBLAS_API const char *cublasLtGetStatusString(int s);
CUBLAS_API const char *cublasLtGetStatusString(int s) { return stub_status_string(s); }
