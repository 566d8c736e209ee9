/* fatbin.h: the PTX a CUDA program carries in its fatbinary. nvcc embeds, per translation unit, a
 * container (magic 0xBA55ED50) of entries, each PTX text or a cubin (ELF) for one architecture,
 * compressed by default with Zstandard (LZ4 with -compress-mode=speed); the host code registers it
 * through a small wrapper (magic 0x466243b1) passed to __cudaRegisterFatBinary. */
#ifndef SMEMLAB_FATBIN_H
#define SMEMLAB_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_FATBIN_WRAPPER_MAGIC 0x466243b1u
#define SMEM_FATBIN_MAGIC 0xba55ed50u

enum smem_fatbin_kind { SMEM_FATBIN_PTX = 1, SMEM_FATBIN_ELF = 2 };
enum smem_fatbin_compression { SMEM_FATBIN_RAW = 0, SMEM_FATBIN_LZ4 = 1, SMEM_FATBIN_ZSTD = 2 };

struct smem_fatbin_entry {
    unsigned kind;          /* enum smem_fatbin_kind (other values are listed as they are) */
    unsigned arch;          /* 90 for sm_90 / compute_90 */
    unsigned compression;   /* enum smem_fatbin_compression */
    uint64_t flags;         /* the entry's flag word (0x2000 LZ4, 0x8000 zstd) */
    const uint8_t *payload; /* as stored */
    uint64_t stored;        /* bytes of payload that hold data */
    uint64_t size;          /* bytes once decompressed (stored when raw) */
    char name[64];          /* the source file the entry came from, as nvcc recorded it */
};

/* Bytes of the container starting at p (header and entries), or 0 when p holds no container
 * header; p must have 16 readable bytes. For a blob known only by its address. */
uint64_t smem_fatbin_container_size(const uint8_t *p);

/* The entries of the containers back to back in data[0..n) (zero padding between them is
 * skipped). Returns 0 with *out (malloc'd) and *count, or -1 with err. */
int smem_fatbin_list(const uint8_t *data, size_t n, struct smem_fatbin_entry **out,
                     unsigned *count, struct smem_error *err);

/* The PTX to run from the containers in data[0..n): the PTX entry of the highest architecture
 * <= max_arch (else the lowest above it), decompressed, NUL-terminated (malloc'd; *len without
 * the NUL). NULL with err when it cannot be had; *no_ptx is then 1 if the containers simply hold
 * no PTX (cubins only: the program was built for a real architecture only). */
char *smem_fatbin_ptx(const uint8_t *data, size_t n, unsigned max_arch, unsigned *arch,
                      size_t *len, int *no_ptx, struct smem_error *err);

/* The cubin (ELF) entry for exactly sm_<arch>, decompressed (malloc'd, *len bytes); NULL with
 * err when there is none or it cannot be decompressed (the SASS census, analysis/census.h). */
uint8_t *smem_fatbin_cubin(const uint8_t *data, size_t n, unsigned arch, size_t *len,
                           struct smem_error *err);

/* The container a __cudaRegisterFatBinary argument points at (*data, *n), or -1 with err when
 * the wrapper's magic is wrong. */
int smem_fatbin_unwrap(const void *wrapper, const uint8_t **data, size_t *n,
                       struct smem_error *err);

/* What `smemlab run` finds in an executable before running it. */
enum smem_program_kind {
    SMEM_PROGRAM_OK = 0,          /* dynamically linked against libcudart.so.13, with PTX; or
                                     against libcuda.so.1 only; or Python (extension modules) */
    SMEM_PROGRAM_NOT_ELF,         /* a script or other file: run it and see */
    SMEM_PROGRAM_STATIC_CUDART,   /* carries a fatbinary but no libcudart.so (nvcc's default) */
    SMEM_PROGRAM_OTHER_CUDART,    /* linked against another CUDA's libcudart.so.N */
    SMEM_PROGRAM_NO_PTX,          /* its fatbinary holds SASS only */
    SMEM_PROGRAM_LIBRARY,         /* needs a CUDA library smemlab cannot stand in for */
    SMEM_PROGRAM_NOT_CUDA,        /* an executable with no fatbinary and no libcudart */
    SMEM_PROGRAM_UNREADABLE
};

/* Classifies the executable at path; every kind but OK and NOT_ELF comes with one sentence in
 * err saying what to do (rebuild with -cudart shared, with -arch=sm_90, ...). */
enum smem_program_kind smem_program_check(const char *path, struct smem_error *err);

#ifdef __cplusplus
}
#endif
#endif
