/* stubs_cublaslt.c: every other function libcublasLt.so.13 exports (weak: rt_cublaslt.c's win). */
#include "cublas_stub.h"

#include "cublasLt_symbols.inc"
