/* sass.h: the sm_90 SASS of a cubin (an ELF file ptxas writes, or a fatbinary's ELF entry), decoded
 * only as far as shared memory needs: each 128-bit instruction's class (LDS, STS, ATOMS, LDSM,
 * STSM, LDGSTS, BAR, BRA, EXIT, other), access width, guard predicate and branch target, and the
 * source line the cubin's DWARF line table (.debug_line, written with -lineinfo) gives it. The bit
 * fields were learnt from the H100's own disassembly (docs/analyzer.md, tests/sass/README.md). */
#ifndef SMEMLAB_SASS_H
#define SMEMLAB_SASS_H

#include <stddef.h>
#include <stdint.h>

#include "smemlab/base/error.h"

#ifdef __cplusplus
extern "C" {
#endif

enum smem_sass_class {
    SMEM_SASS_OTHER = 0,  /* an opcode the decoder knows, of no interest here */
    SMEM_SASS_LDS, SMEM_SASS_STS, SMEM_SASS_ATOMS, SMEM_SASS_LDSM, SMEM_SASS_STSM,
    SMEM_SASS_LDGSTS, SMEM_SASS_BAR, SMEM_SASS_BRA, SMEM_SASS_EXIT,
    SMEM_SASS_UNKNOWN,    /* an opcode the decoder has never seen: no conclusion may rest on it */
    SMEM_SASS_NCLASSES
};

#define SMEM_SASS_PT 7u   /* the guard "always" (no predicate) */

struct smem_sass_insn {
    uint32_t offset;      /* bytes from the function's start */
    uint16_t opcode;      /* the low 12 bits of the encoding */
    uint8_t cls;          /* enum smem_sass_class */
    uint8_t width;        /* LDS/STS/LDGSTS/ATOMS: bytes a lane (1, 2, 4, 8, 16); 0 unknown / n.a. */
    uint8_t guard;        /* predicate register P0..P6, or SMEM_SASS_PT */
    uint8_t guard_neg;    /* @!P */
    int64_t target;       /* BRA: the target's offset from the function's start; else -1 */
    /* LDS only: the address [Ra + URb + imm] (lo[24:32) Ra, 255 = RZ; lo[32:38) the uniform
       register, hi[27] set when it takes part; lo[40:64) the signed 24-bit immediate). With Ra =
       RZ the address is a fixed place of the window (the uniform register holds the window's
       base: tests/sass/README.md) */
    uint8_t ra, ur, ur_used;
    /* LDS only, set by smem_sass_fixed_bases (smem_sass_read runs it): Ra holds, in every thread
       reaching this instruction, the window's base plus a known constant, already added to imm,
       which is then the fixed place's window offset as with Ra = RZ (src/sass/regs.c) */
    uint8_t ra_fixed;
    int32_t imm;
    uint64_t lo, hi;      /* the encoding's two 64-bit halves */
    uint32_t file;        /* index into the module's files; UINT32_MAX: no line */
    uint32_t line;        /* source line, 0: none */
};

struct smem_sass_func {
    char *name;           /* the symbol (mangled), from the section's name .text.<name> */
    struct smem_sass_insn *insns;
    uint32_t ninsns;
    uint32_t regs;        /* registers a thread (.nv.info's EIATTR_REGCOUNT for the function's
                             symbol, what ptxas -v says); 0: the cubin does not say */
};

struct smem_sass_module {
    unsigned arch;        /* 90 for sm_90 (from e_flags) */
    int has_lines;        /* the cubin has a .debug_line (built with -lineinfo or -G) */
    struct smem_sass_func *funcs;
    uint32_t nfuncs;
    char **files;         /* the line table's files, "dir/name" */
    uint32_t nfiles;
};

/* Decodes one instruction (16 bytes, little-endian, as stored) at offset: pure. */
void smem_sass_decode(const uint8_t enc[16], uint32_t offset, struct smem_sass_insn *out);

/* The registers an instruction writes (src/sass/regs.c: learnt from the H100's disassembly): up to
 * nr general registers from r, up to nur uniform registers from ur (upper bounds: a load of 64 bits
 * covers at most its aligned pair). Returns 0, or -1 when the instruction's writes are not known
 * (an opcode never seen, a call of another function, an indirect branch, a texture). Pure. */
struct smem_sass_dest {
    uint8_t r, nr, ur, nur;
};
int smem_sass_writes(const struct smem_sass_insn *in, struct smem_sass_dest *out);

/* Marks the LDS of f whose address register holds the shared window's base plus a known constant
 * on every path to them (ra_fixed, the constant added to imm): a dataflow over f's registers that
 * gives up (marks nothing) where any write is not known. Returns 0, or -1 when out of memory. */
int smem_sass_fixed_bases(struct smem_sass_func *f);

/* Reads a cubin (an ELF of sm_XX code) from data[0..n). Returns 0 with *out, or -1 with err
 * (not an ELF file, a section out of bounds, a line table that cannot be read). */
int smem_sass_read(const uint8_t *data, size_t n, struct smem_sass_module **out,
                   struct smem_error *err);
void smem_sass_free(struct smem_sass_module *m);

/* The function named symbol, or NULL. */
const struct smem_sass_func *smem_sass_find(const struct smem_sass_module *m, const char *symbol);

/* "LDS", "STS", ... for a class. */
const char *smem_sass_class_name(unsigned cls);

#ifdef __cplusplus
}
#endif
#endif
