/* fuzz_params.c: libFuzzer target for the preprocessed-source scanner and the parameter matching
 * (params.c): any text must scan without crashing or reading out of bounds; every declaration it
 * finds is matched against fixed PTX entries, whose signatures format and bind any value. */
#include "smemlab/analysis/params.h"
#include "smemlab/ptx/ptx.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n"
    ".visible .entry _Z1kPhi(\n\t.param .u64 _Z1kPhi_param_0,\n\t.param .u32 _Z1kPhi_param_1\n)\n{\n\tret;\n}\n"
    ".visible .entry k(\n\t.param .u8 k_param_0,\n\t.param .align 4 .b8 k_param_1[8]\n)\n{\n\tret;\n}\n";
static const char *const syms[] = {"_Z1kPhi", "k"};
static const char *const dems[] = {"k(unsigned char*, int)", "k"};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static struct smem_ptx_module *m;
    if (!m && smem_ptx_parse(ptx, sizeof ptx - 1, "fuzz.ptx", &m, NULL))
        abort();
    struct smem_pp_unit *u = smem_pp_scan((const char *)data, size);
    if (!u)
        return 0;
    /* a value from the input's first line */
    char value[64];
    size_t vl = 0;
    while (vl < size && vl < sizeof value - 1 && data[vl] != '\n' && data[vl])
        vl++;
    memcpy(value, data, vl);
    value[vl] = 0;
    for (unsigned i = 0; i < 2; i++) {
        struct smem_ksig s;
        if (smem_ksig_build(u, smem_ptx_find(m, syms[i]), dems[i], &s))
            continue;
        char buf[300];
        smem_ksig_format(&s, buf, sizeof buf);
        smem_ksig_format(&s, buf, 8);
        struct smem_param_value pv[2] = {{0, 0}, {0, 0}};
        struct smem_param_value *const pvs[1] = {pv};
        struct smem_param_arg args[3] = {{"p", value}, {"0", value}, {value, "1"}};
        struct smem_error err;
        (void)smem_params_bind(&s, 1, args, 3, pvs, "fuzz.cu", &err);
        smem_ksig_free(&s);
    }
    /* the template kernels it found: their parts are whole strings */
    size_t total = 0;
    for (unsigned i = 0; i < smem_pp_unit_kernels(u); i++) {
        struct smem_pp_template t;
        if (smem_pp_unit_template(u, i, &t))
            total += strlen(t.qual) + strlen(t.tparams) + (t.file ? strlen(t.file) : 0);
    }
    (void)total;
    smem_pp_unit_free(u);
    return 0;
}
