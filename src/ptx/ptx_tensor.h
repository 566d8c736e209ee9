/* ptx_tensor.h (private to ptx/): decoding the matrix, barrier-object and tensor-core instructions
 * (ldmatrix, stmatrix, mbarrier, mma, wmma): their modifiers and their operands' shapes. */
#ifndef SMEMLAB_PTX_TENSOR_H
#define SMEMLAB_PTX_TENSOR_H

#include <stddef.h>

#include "smemlab/ptx/ptx.h"

/* 1 when first (the opcode's first dotted part) names one of these instructions. */
int ptx_tensor_first(const char *first);

/* Decodes the rest of the opcode (strtok_r state in *save, '.'-separated) into in: op, mode,
 * shape, types, flags, space. Returns NULL, or a sentence saying what is wrong or not supported
 * (written into why, n bytes). */
const char *ptx_tensor_decode(const char *first, char **save, struct smem_ptx_insn *in, char *why, size_t n);

/* Checks the operands read for in (their count and kinds); NULL or a sentence in why. */
const char *ptx_tensor_check_operands(const struct smem_ptx_insn *in, char *why, size_t n);

#endif
