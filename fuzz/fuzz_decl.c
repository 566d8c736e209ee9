/* fuzz_decl.c: libFuzzer target for the CUDA declaration reader (decl.c): constants, `__shared__`
 * declarations, padding and the statement text must never crash or read out of bounds. */
#include "smemlab/model/decl.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    const char *args[] = {"-DPAD=1", "-D", "N=32"};
    struct smem_consts *c = smem_consts_scan(text, size, args, 3);
    struct smem_decl *d = NULL;
    unsigned n = smem_decl_scan(text, size, c, &d);
    const struct smem_decl *pd[8];
    unsigned pads[8], np = 0;
    for (unsigned i = 0; i < n; i++) {
        char buf[512];
        smem_decl_statement(text, &d[i], 3, buf, sizeof buf);
        smem_decl_pad_text(&d[i], 2, buf, sizeof buf);
        int64_t v;
        for (unsigned k = 0; k < d[i].ndims && k < SMEM_DECL_MAX_DIMS; k++)
            (void)smem_const_eval(c, d[i].dim_text[k], &v);
        if (d[i].ndims && np < 8) {
            pd[np] = &d[i];
            pads[np++] = i + 1;
        }
    }
    size_t ol;
    free(smem_decl_patch(text, size, pd, pads, np, &ol));
    int64_t v;
    (void)smem_const_eval(c, text, &v);
    char nm[128], fn[128];
    smem_decl_source_name(text, nm, sizeof nm, fn, sizeof fn);
    free(d);
    smem_consts_free(c);
    free(text);
    return 0;
}
