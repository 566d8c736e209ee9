/* fuzz_ptx.c: libFuzzer target for the PTX parser and, when a kernel parses, the emulator on one
 * small block: any input must parse or fail with a located message, and emulate or fail cleanly. */
#include "smemlab/emu/cta.h"
#include "smemlab/ptx/ptx.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_access(void *ctx, const struct smem_access *a)
{
    (*(uint64_t *)ctx) += a->active != 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    { /* the matrix / barrier / tensor-core decoder (ptx_tensor.c): parsed only, never emulated */
        struct smem_ptx_options o = {1};
        struct smem_ptx_module *t = NULL;
        if (smem_ptx_parse_opts((const char *)data, size, "fuzz.ptx", &o, &t, &err)) {
            if (!err.msg[0] || !memchr(err.msg, 0, sizeof err.msg))
                abort();
        } else {
            for (uint32_t i = 0; i < t->nfuncs; i++)
                for (uint32_t k = 0; k < t->funcs[i].ninsns; k++)
                    for (unsigned o2 = 0; o2 < t->funcs[i].insns[k].nops; o2++)
                        for (unsigned j = 0; j < 8; j++) /* every vector register is in range */
                            if (smem_ptx_vec_reg(&t->funcs[i], &t->funcs[i].insns[k].ops[o2], j) >= (int32_t)t->funcs[i].nregs)
                                abort();
            smem_ptx_free(t);
        }
        memset(&err, 0, sizeof err);
    }
    if (smem_ptx_parse((const char *)data, size, "fuzz.ptx", &m, &err)) {
        if (!err.msg[0] || !memchr(err.msg, 0, sizeof err.msg))
            abort();
        return 0;
    }
    for (uint32_t i = 0; i < m->nfuncs && i < 4; i++) {
        const struct smem_ptx_func *f = &m->funcs[i];
        if (!f->is_entry || !f->ninsns)
            continue;
        struct smem_cta_program *p = NULL;
        if (smem_cta_prepare(m, f, 256, &p, &err))
            continue;
        struct smem_launch l;
        memset(&l, 0, sizeof l);
        l.block[0] = 64;
        l.block[1] = l.block[2] = 1;
        l.grid[0] = 2;
        l.grid[1] = l.grid[2] = 1;
        l.dyn_smem = 256;
        l.max_steps = 20000;
        uint64_t n = 0;
        struct smem_cta_hooks h = {&n, count_access, NULL};
        struct smem_cta_result r;
        (void)smem_cta_run(p, &l, &h, &r, &err);
        smem_cta_program_free(p);
    }
    smem_ptx_free(m);
    return 0;
}
