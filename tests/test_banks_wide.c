/* test_banks_wide.c: the bank model against every single-request row of tests/hw/h100-wide.csv:
 * 8- and 16-byte loads and stores whose lanes share words (halves identical, disjoint, partly
 * shared, pairs of lanes on one word, broadcast within a half, conflicts inside a half, partial
 * warps) and 4-byte controls. Source: tests/hw/wide/ (wide.cu, one LDS/STS per launch, counted
 * by Nsight Compute 2025.3.1 on an H100 80GB HBM3, driver 580.159.04, 2026-11-23). Checks the
 * wavefronts (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st}) and the bank-conflict
 * counter (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}) of each row. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/model/banks.h"

int main(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/hw/h100-wide.csv", SMEMLAB_SOURCE_DIR);
    FILE *f = fopen(path, "r");
    CHECK(f != NULL);
    if (!f)
        return CHECK_DONE();
    char line[8192];
    unsigned rows = 0, wide = 0, loads = 0, stores = 0, partial = 0, bad = 0;
    struct smem_banks b = smem_banks_default();
    CHECK(fgets(line, sizeof line, f) != NULL); /* header */
    while (fgets(line, sizeof line, f)) {
        char *fld[16];
        int n = hw_split(line, fld, 16);
        if (n < 8)
            continue;
        /* name,width,op,active_mask,addresses,requests,wavefronts,bank_conflicts */
        struct smem_request r;
        memset(&r, 0, sizeof r);
        r.width = (unsigned)atoi(fld[1]);
        r.op = !strcmp(fld[2], "st") ? SMEM_ST : SMEM_LD;
        r.active = (uint32_t)strtoul(fld[3], NULL, 16);
        /* 32 addresses ('-' for an inactive lane); the whole-kernel rows (llm.c) have prose */
        char *p = fld[4];
        unsigned l = 0;
        while (l < 32 && *p) {
            while (*p == ' ')
                p++;
            if (*p == '-') {
                p++;
                l++;
                continue;
            }
            char *end;
            unsigned long v = strtoul(p, &end, 10);
            if (end == p)
                break;
            r.addr[l++] = (uint32_t)v;
            p = end;
        }
        if (l != 32 || atoll(fld[5]) != 1)
            continue; /* not a single-request row */
        rows++;
        wide += r.width > 4;
        loads += r.op == SMEM_LD;
        stores += r.op == SMEM_ST;
        partial += r.active != 0xffffffffu;
        CHECK(smem_request_check(&b, &r) == NULL);
        struct smem_cost c = smem_request_cost(&b, &r);
        long long wf = atoll(fld[6]), bc = atoll(fld[7]);
        if (c.wavefronts != wf || smem_cost_conflicts(c) != bc) {
            if (bad++ < 20)
                fprintf(stderr, "  %s (%s %u B): model %u wf %u conflicts, H100 %lld wf %lld\n",
                        fld[0], fld[2], r.width, c.wavefronts, smem_cost_conflicts(c), wf, bc);
        }
        CHECK_EQ(c.wavefronts, wf);
        CHECK_EQ(smem_cost_conflicts(c), bc);
    }
    fclose(f);
    printf("h100-wide.csv: %u single-request rows (%u of 8/16 bytes, %u loads, %u stores, %u partial "
           "warps), %u mismatches\n", rows, wide, loads, stores, partial, bad);
    CHECK(rows >= 790); /* the file holds 796: a truncated file must not pass */
    return CHECK_DONE();
}
