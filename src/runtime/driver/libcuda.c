/* libcuda.c: smemlab run's stand-in for the CUDA driver, build/runtime/libcuda.so.1, for programs
 * linked with -lcuda. Each call smemlab implements (cu_impl.h) forwards to libcudart.so.13
 * (rt_driver.c), where the runtime's state is; every other name of cuda.h is refused there too
 * (libcuda_stubs.c). */
#include "cu_abi.h"

#define CU_API __attribute__((visibility("default")))

#define CU_IMPL(ret, name, params, args)                                                        \
    ret __cudaSmemlabDrv_##name params;                                                         \
    CU_API ret name params;                                                                     \
    CU_API ret name params                                                                      \
    {                                                                                           \
        return __cudaSmemlabDrv_##name args;                                                    \
    }
#include "cu_impl.h"
#undef CU_IMPL
