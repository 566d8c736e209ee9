/* cublas_stub.h: what the cuBLAS stand-ins of `smemlab run` share: cuBLAS's status values and
 * names, and the stop for every function they do not compute (one sentence naming the call, exit
 * 3, through the runtime library, whose report of the launches so far is written first). What
 * they compute is in blas_*.c (blas.h). */
#ifndef SMEMLAB_CUBLAS_STUB_H
#define SMEMLAB_CUBLAS_STUB_H

#include <stddef.h>

#define CUBLAS_API __attribute__((visibility("default")))

/* cuBLAS's status values (cublas_api.h) */
enum {
    STUB_SUCCESS = 0, STUB_NOT_INITIALIZED = 1, STUB_ALLOC_FAILED = 3, STUB_INVALID_VALUE = 7,
    STUB_ARCH_MISMATCH = 8, STUB_MAPPING_ERROR = 11, STUB_EXECUTION_FAILED = 13,
    STUB_INTERNAL_ERROR = 14, STUB_NOT_SUPPORTED = 15, STUB_LICENSE_ERROR = 16
};

/* cuBLAS 13.1.0 (CUDA 13.0's: cublas_api.h's CUBLAS_VERSION) and CUDA 13.0's runtime */
#define STUB_CUBLAS_VERSION 130100
#define STUB_CUDART_VERSION 13000

/* libraryPropertyType: MAJOR_VERSION, MINOR_VERSION, PATCH_LEVEL */
static inline int stub_property(int type, int *v)
{
    if (!v || type < 0 || type > 2)
        return STUB_INVALID_VALUE;
    *v = type == 0 ? STUB_CUBLAS_VERSION / 10000 : type == 1 ? STUB_CUBLAS_VERSION / 100 % 100
                                                             : STUB_CUBLAS_VERSION % 100;
    return STUB_SUCCESS;
}

/* libcudart.so.13 (src/runtime/rt_state.c): stops the program, exit 3 */
void __cudaSmemlabUnsupported(const char *call, const char *why) __attribute__((noreturn));

#define CUBLAS_WHY "cuBLAS runs NVIDIA's own kernels, shipped as SASS only: smemlab run cannot " \
                   "emulate them; it computes the GEMM family and the level-1/2 routines docs/run.md " \
                   "lists on the CPU, and refuses the rest by name"

/* A function this stand-in does not define: weak, so a definition in the file wins. */
#define RT_SYM(name)                                                                            \
    CUBLAS_API __attribute__((weak)) int name(void);                                           \
    CUBLAS_API __attribute__((weak)) int name(void)                                            \
    {                                                                                           \
        __cudaSmemlabUnsupported(#name, CUBLAS_WHY);                                           \
    }

static inline const char *stub_status_name(int s)
{
    switch (s) {
    case STUB_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case STUB_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case STUB_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case STUB_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case STUB_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case STUB_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case STUB_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case STUB_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case STUB_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case STUB_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    default: return "CUBLAS_STATUS_UNKNOWN";
    }
}

static inline const char *stub_status_string(int s)
{
    switch (s) {
    case STUB_SUCCESS: return "success";
    case STUB_NOT_INITIALIZED: return "the library was not initialized";
    case STUB_ALLOC_FAILED: return "the resource allocation failed";
    case STUB_INVALID_VALUE: return "an invalid numeric value was used as an argument";
    case STUB_NOT_SUPPORTED: return "the functionality requested is not supported";
    default: return "an error occurred (smemlab's cuBLAS stand-in)";
    }
}

#endif
