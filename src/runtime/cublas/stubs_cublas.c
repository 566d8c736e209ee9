/* stubs_cublas.c: every other function libcublas.so.13 exports (weak: rt_cublas.c's win). */
#include "cublas_stub.h"

#include "cublas_symbols.inc"
