/* unpack.h (private to ptx/): the two decompressors nvcc 13 uses for the entries of a fatbinary:
 * Zstandard (RFC 8878: nvcc's default and -compress-mode=size|balance) and the LZ4 block format
 * (-compress-mode=speed). Both write at most cap bytes and read nothing outside their input. */
#ifndef SMEMLAB_PTX_UNPACK_H
#define SMEMLAB_PTX_UNPACK_H

#include <stddef.h>
#include <stdint.h>

/* Decodes the Zstandard frames of src[0..n) into dst (cap bytes). Returns the bytes written, or -1
 * when the data is corrupt, uses a dictionary, or would not fit; *why then says what. */
long smem_zstd_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, const char **why);

/* Decodes one LZ4 block (no frame header) into dst; the same contract. */
long smem_lz4_decode(const uint8_t *src, size_t n, uint8_t *dst, size_t cap, const char **why);

#endif
