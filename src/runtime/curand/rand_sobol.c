/* rand_sobol.c: the Sobol direction vectors and scramble constants, embedded from the file the
 * build tool sobol_tables.c wrote out of the CUDA toolkit's libcurand (SMEMLAB_SOBOL_BLOB); a
 * build without the toolkit has none, and the quasirandom generators stop the program, named. */
#include "rand.h"

#include <stddef.h>

#define V32 ((size_t)SOBOL_DIMS * 32 * 4)
#define V64 ((size_t)SOBOL_DIMS * 64 * 8)

#ifdef SMEMLAB_SOBOL_BLOB
__asm__(".section .rodata\n"
        ".balign 64\n"
        "smemlab_sobol_blob:\n"
        ".incbin \"" SMEMLAB_SOBOL_BLOB "\"\n"
        ".previous\n");
extern const unsigned char smemlab_sobol_blob[] __asm__("smemlab_sobol_blob");
static const unsigned char *const blob = smemlab_sobol_blob;
#else
static const unsigned char *const blob = NULL;
#endif
#define BLOB blob

const uint32_t *rand_sobol_vectors32(int scrambled)
{
    return BLOB ? (const uint32_t *)(const void *)(BLOB + (scrambled ? V32 : 0)) : NULL;
}

const uint64_t *rand_sobol_vectors64(int scrambled)
{
    return BLOB ? (const uint64_t *)(const void *)(BLOB + 2 * V32 + (scrambled ? V64 : 0)) : NULL;
}

const uint32_t *rand_sobol_scramble32(void)
{
    return BLOB ? (const uint32_t *)(const void *)(BLOB + 2 * V32 + 2 * V64) : NULL;
}

const uint64_t *rand_sobol_scramble64(void)
{
    return BLOB ? (const uint64_t *)(const void *)(BLOB + 2 * V32 + 2 * V64 + SOBOL_DIMS * 4)
                : NULL;
}
