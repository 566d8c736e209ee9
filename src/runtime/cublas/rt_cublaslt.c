/* rt_cublaslt.c: libcublasLt.so.13 of `smemlab run` (cublas_stub.h says what runs): a handle is
 * created and destroyed; descriptors, layouts, heuristics and matmuls stop the program. */
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

CUBLAS_API const char *cublasLtGetStatusName(int s);
CUBLAS_API const char *cublasLtGetStatusName(int s) { return stub_status_name(s); }
CUBLAS_API const char *cublasLtGetStatusString(int s);
CUBLAS_API const char *cublasLtGetStatusString(int s) { return stub_status_string(s); }
