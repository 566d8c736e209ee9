/* link.h: a kernel with the calls to its module's own functions inlined, so that code built
 * with __noinline__ helpers or -G (where nvcc keeps every device function) runs on the
 * emulator as written. Pure: no I/O. */
#ifndef SMEMLAB_PTX_LINK_H
#define SMEMLAB_PTX_LINK_H

#include "smemlab/base/error.h"
#include "smemlab/ptx/ptx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Inlines every direct call from kernel k to a function defined in m (recursively, the callee's
 * calls too): the callee's registers get slots of their own in each copy, its parameters and
 * return parameters become the caller's call-sequence parameters (local memory, as ptxas lays
 * them out), ret jumps past the copy, a guarded call skips it. Accesses in a copy are reported
 * at the kernel's line of the outermost call. Calls that cannot be inlined stay as they are
 * (the emulator refuses them where they execute): through a register (function pointers,
 * virtual functions), to a function without a body in the module (vprintf, malloc, the device
 * runtime), or with parameters that do not match. A recursive function is inlined once and
 * every activation runs that copy on a per-thread call stack in local memory (link.c says how;
 * its instructions are marked in_recursion); a stack overflow is a located trap at run time.
 * *out is NULL when k calls nothing to inline. Returns -1 with err filled (located) for a
 * recursive function with more than 16 parameters, 4 results or a .b128 register, or out of
 * memory. */
int smem_ptx_flatten(const struct smem_ptx_module *m, const struct smem_ptx_func *k,
                     struct smem_ptx_func **out, struct smem_error *err);

/* Frees what smem_ptx_flatten made (its names are borrowed from the module). */
void smem_ptx_flat_free(struct smem_ptx_func *f);

#ifdef __cplusplus
}
#endif
#endif
