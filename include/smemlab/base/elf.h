/* elf.h: the little `smemlab run` needs to know about an executable before running it: its
 * sections (.nv_fatbin), the libraries it needs (libcudart.so.13 or none) and its symbols. */
#ifndef SMEMLAB_ELF_H
#define SMEMLAB_ELF_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct smem_elf;

/* Opens a 64-bit little-endian ELF file (read into memory). Returns 0, -1 with err (unreadable),
 * or 1 when the file is not such an ELF file (a script, say): *out is then NULL. */
int smem_elf_open(const char *path, struct smem_elf **out, struct smem_error *err);
void smem_elf_close(struct smem_elf *e);

/* The contents of the section named name, or NULL (*size 0). */
const uint8_t *smem_elf_section(const struct smem_elf *e, const char *name, size_t *size);
/* The i-th DT_NEEDED library of the dynamic section, or NULL past the last. */
const char *smem_elf_needed(const struct smem_elf *e, unsigned i);
/* 1 when .symtab or .dynsym defines (not merely references) a symbol named name. */
int smem_elf_defines(const struct smem_elf *e, const char *name);
/* 1 when the binary is dynamically linked (has a PT_INTERP / dynamic section). */
int smem_elf_is_dynamic(const struct smem_elf *e);

#ifdef __cplusplus
}
#endif
#endif
