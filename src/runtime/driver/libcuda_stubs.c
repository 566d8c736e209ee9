/* libcuda_stubs.c: every name CUDA's cuda.h declares (cu_symbols.inc) exists in libcuda.so.1, so
 * a program always loads; those libcuda.c defines win over these weak stubs, the others stop the
 * program with one sentence naming the call and its caller (libcudart.so.13's
 * __cudaSmemlabDriverRefuse), exit 3. */
#define CU_API __attribute__((visibility("default")))

void __cudaSmemlabDriverRefuse(const char *name, const void *from) __attribute__((noreturn));

#define CU_SYM(name)                                                                            \
    CU_API __attribute__((weak)) int name(void);                                               \
    CU_API __attribute__((weak)) int name(void)                                                \
    {                                                                                           \
        __cudaSmemlabDriverRefuse(#name, __builtin_return_address(0));                        \
    }
#define CU_PROC(api, version, name)
#define CU_PROC_PTDS(api, version, name)
#include "cu_symbols.inc"
