/* rt_register.c: the calls nvcc's generated start-up code makes before main(): one fatbinary per
 * translation unit, then its kernels and variables. The handle we return is our module record. */
#include "rt_internal.h"

#include <string.h>

RT_API void **__cudaRegisterFatBinary(void *fatCubin);
RT_API void **__cudaRegisterFatBinary(void *fatCubin)
{
    rt_lock();
    struct rt_module *m = rt_module_register(fatCubin);
    rt_unlock();
    return (void **)(void *)m;
}

RT_API void __cudaRegisterFatBinaryEnd(void **handle);
RT_API void __cudaRegisterFatBinaryEnd(void **handle)
{
    (void)handle;
}

RT_API void __cudaUnregisterFatBinary(void **handle);
RT_API void __cudaUnregisterFatBinary(void **handle)
{
    /* called from the program's atexit chain: the report is written by ours, nothing to free */
    (void)handle;
}

RT_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize);
RT_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                   const char *deviceName, int thread_limit, uint3 *tid,
                                   uint3 *bid, dim3 *bDim, dim3 *gDim, int *wSize)
{
    (void)deviceFun, (void)thread_limit, (void)tid, (void)bid, (void)bDim, (void)gDim, (void)wSize;
    rt_lock();
    rt_kernel_register((struct rt_module *)(void *)handle, hostFun, deviceName);
    rt_unlock();
}

RT_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global);
RT_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                              const char *deviceName, int ext, size_t size, int constant,
                              int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    rt_lock();
    rt_var_register((struct rt_module *)(void *)handle, hostVar, NULL, deviceName, size, constant);
    rt_unlock();
}

RT_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global);
RT_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress, char *deviceAddress,
                                     const char *deviceName, int ext, size_t size, int constant,
                                     int global)
{
    (void)deviceAddress, (void)ext, (void)global;
    rt_lock();
    rt_var_register((struct rt_module *)(void *)handle, hostVarPtrAddress, hostVarPtrAddress,
                    deviceName, size, constant);
    rt_unlock();
}

/* The host code's first use of a __managed__ variable: the module is loaded, which places the
 * variables and points the host's pointers at them. */
RT_API char __cudaInitModule(void **handle);
RT_API char __cudaInitModule(void **handle)
{
    rt_lock();
    struct rt_module *m = (struct rt_module *)(void *)handle;
    int ok = m && rt_module_load(m) == 0;
    if (m && !ok)
        rt_fatal("%s", m->load_error);
    rt_unlock();
    return (char)ok;
}

RT_API void __cudaRegisterHostVar(void **handle, const char *deviceName, char *hostVar,
                                  size_t size);
RT_API void __cudaRegisterHostVar(void **handle, const char *deviceName, char *hostVar,
                                  size_t size)
{
    (void)handle, (void)deviceName, (void)hostVar, (void)size;
}
