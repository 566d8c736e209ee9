/* fuzz_ncu.c: the ncu CSV reader never crashes, whatever the text. */
#include "smemlab/gpu/ncu.h"

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct smem_ncu_launch ls[8];
    size_t n;
    char err[256];
    if (!smem_ncu_parse((const char *)data, size, ls, 8, &n, err, sizeof err))
        for (size_t i = 0; i < n; i++)
            (void)smem_ncu_metric(&ls[i], "x");
    return 0;
}
