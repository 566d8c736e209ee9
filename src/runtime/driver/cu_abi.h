/* cu_abi.h (private to runtime/): the CUDA 13 driver API types the driver stand-in exchanges with
 * programs, laid out as the toolkit's cuda.h lays them out (enums are int-sized), and the error
 * values it returns. Only what the implemented calls (cu_impl.h) touch. */
#ifndef SMEMLAB_RUNTIME_CU_ABI_H
#define SMEMLAB_RUNTIME_CU_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef int CUresult;
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef uint32_t cuuint32_t;
typedef uint64_t cuuint64_t;
typedef unsigned long long CUdeviceptr;
typedef struct CUmod_st *CUmodule;       /* smemlab: a struct rt_module */
typedef struct CUfunc_st *CUfunction;    /* smemlab: a struct rt_kernel */
typedef struct CUmod_st *CUlibrary;      /* a library is its module here */
typedef struct CUfunc_st *CUkernel;      /* a library's kernel is its function here */
typedef struct CUstream_st *CUstream;    /* the runtime's streams and events */
typedef struct CUevent_st *CUevent;
typedef struct CUmemPoolHandle_st *CUmemoryPool; /* the device's one pool here */
typedef struct CUlinkState_st *CUlinkState;   /* a link (rt_link.c) */
typedef struct {
    char bytes[16];
} CUuuid;
/* cuLaunchKernelEx's configuration; its attributes are laid out as cudaLaunchAttribute */
typedef struct {
    unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, sharedMemBytes;
    CUstream hStream;
    void *attrs;
    unsigned numAttrs;
} CUlaunchConfig;
typedef size_t (*CUoccupancyB2DSize)(int block);
typedef struct {
    _Alignas(64) cuuint64_t opaque[16]; /* cuda.h: alignas(64) in C, 128 in C++ */
} CUtensorMap;

enum {
    CUDA_SUCCESS = 0,
    CUDA_ERROR_INVALID_VALUE = 1,
    CUDA_ERROR_OUT_OF_MEMORY = 2,
    CUDA_ERROR_NOT_INITIALIZED = 3,
    CUDA_ERROR_INVALID_DEVICE = 101,
    CUDA_ERROR_INVALID_IMAGE = 200,
    CUDA_ERROR_INVALID_CONTEXT = 201,
    CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
    CUDA_ERROR_INVALID_PTX = 218,
    CUDA_ERROR_FILE_NOT_FOUND = 301,
    CUDA_ERROR_INVALID_HANDLE = 400,
    CUDA_ERROR_NOT_FOUND = 500,
    CUDA_ERROR_NOT_SUPPORTED = 801
};

/* cuGetProcAddress's flags and answers (CUdriverProcAddress_flags, ...QueryResult) */
enum { CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1, CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 2 };
enum { CU_GET_PROC_ADDRESS_SUCCESS = 0, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
       CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2 };

#endif
