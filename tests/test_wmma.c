/* test_wmma.c: the wmma fragments and the cost of wmma loads and stores of shared memory
 * (src/model/wmma.c) against the H100. Source: tests/hw/wmma/ (wmma.cu, run.sh), run on an H100
 * 80GB HBM3, driver 580.159.04, CUDA 13.0, Nsight Compute 2025.3.1 (--clock-control none),
 * 2026-11-24:
 *  - tests/hw/h100-wmma-layout.csv: every fragment kind sm_90 has (78), each lane's x[e] as
 *    (row:col) of the matrix, read from shared memory whose element i held i;
 *  - tests/hw/h100-wmma.csv: 840 launches of one wmma.load / wmma.store of shared memory each
 *    (9 leading dimensions from 16 to 528 bytes, offsets 0 and 32), counted: requests
 *    (smsp__sass_inst_executed_op_shared_ld / _st, smsp__sass_inst_executed_op_ldsm) and wavefronts
 *    (smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld / _st / _ldsm).
 * Every row must be exact. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/model/matrix.h"
#include "smemlab/model/wmma.h"

/* "f16.a.m16n16k16.row" -> a fragment; 0 ok */
static int parse_kind(const char *s, struct smem_wmma_frag *f)
{
    char t[8], u, lay[8];
    unsigned m, n, k;
    if (sscanf(s, "%7[^.].%c.m%un%uk%u.%7s", t, &u, &m, &n, &k, lay) != 6)
        return -1;
    static const char *const names[] = {"f16", "bf16", "tf32", "s8", "u8", "f32", "s32", "f64"};
    f->type = 255;
    for (unsigned i = 0; i < 8; i++)
        if (!strcmp(t, names[i]))
            f->type = (uint8_t)i;
    f->use = u == 'a' ? SMEM_WMMA_A : u == 'b' ? SMEM_WMMA_B : SMEM_WMMA_C;
    f->m = (uint8_t)m;
    f->n = (uint8_t)n;
    f->k = (uint8_t)k;
    f->col = lay[0] == 'c';
    return f->type == 255 ? -1 : 0;
}

static FILE *open_hw(const char *file)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/hw/%s", SMEMLAB_SOURCE_DIR, file);
    FILE *f = fopen(path, "r");
    if (!f)
        fprintf(stderr, "cannot open %s\n", path);
    return f;
}

static void test_layouts_are_the_h100s(void)
{
    FILE *fp = open_hw("h100-wmma-layout.csv");
    CHECK(fp != NULL);
    if (!fp)
        return;
    static char line[8192];
    unsigned rows = 0, bad = 0, kinds = 0;
    char last[64] = "";
    CHECK(fgets(line, sizeof line, fp) != NULL); /* header */
    while (fgets(line, sizeof line, fp)) {
        char *fl[8];
        if (hw_split(line, fl, 8) < 4)
            continue;
        struct smem_wmma_frag f;
        CHECK(parse_kind(fl[0], &f) == 0);
        CHECK(smem_wmma_check(&f) == NULL);
        if (strcmp(last, fl[0])) {
            kinds++;
            snprintf(last, sizeof last, "%s", fl[0]);
        }
        unsigned lane = (unsigned)atoi(fl[2]), e = 0, r, c;
        char *p = fl[3];
        while (*p) {
            unsigned hr, hc;
            int used;
            if (sscanf(p, "%u:%u%n", &hr, &hc, &used) != 2)
                break;
            smem_wmma_element(&f, lane, e, &r, &c);
            if (r != hr || c != hc) {
                if (bad++ < 10)
                    fprintf(stderr, "%s lane %u x[%u]: H100 (%u,%u), model (%u,%u)\n", fl[0], lane, e, hr,
                            hc, r, c);
            }
            e++;
            p += used;
            while (*p == ' ')
                p++;
        }
        CHECK_EQ(e, smem_wmma_elements(&f));
        rows++;
    }
    fclose(fp);
    CHECK_EQ(kinds, 78u);
    CHECK_EQ(rows, 78u * 32u);
    CHECK_EQ(bad, 0u);
}

/* the requests and wavefronts one wmma load / store of shared memory costs by the model */
static void model_cost(const struct smem_wmma_frag *f, int store, unsigned ldm_bytes, unsigned base,
                       unsigned *lds, unsigned *lds_wf, unsigned *ldsm, unsigned *ldsm_wf)
{
    struct smem_wmma_part parts[SMEM_WMMA_MAX_PARTS];
    struct smem_banks banks = smem_banks_default();
    unsigned np = smem_wmma_parts(f, parts);
    *lds = *lds_wf = *ldsm = *ldsm_wf = 0;
    for (unsigned i = 0; i < np; i++) {
        uint64_t off[32];
        smem_wmma_part_addrs(f, i, ldm_bytes / smem_wmma_elem_bytes(f), off);
        if (parts[i].ldsm) {
            struct smem_matrix_request q;
            memset(&q, 0, sizeof q);
            q.count = parts[i].count;
            q.op = SMEM_LD;
            for (unsigned l = 0; l < 32; l++)
                q.row[l] = base + (uint32_t)off[l];
            CHECK(smem_matrix_check(&q) == NULL);
            (*ldsm)++;
            *ldsm_wf += smem_matrix_cost(&banks, &q).wavefronts;
        } else {
            struct smem_request q;
            memset(&q, 0, sizeof q);
            q.active = 0xffffffffu;
            q.width = parts[i].width;
            q.op = store ? SMEM_ST : SMEM_LD;
            for (unsigned l = 0; l < 32; l++)
                q.addr[l] = base + (uint32_t)off[l];
            CHECK(smem_request_check(&banks, &q) == NULL);
            (*lds)++;
            *lds_wf += smem_request_cost(&banks, &q).wavefronts;
        }
    }
}

static void test_every_measured_load_and_store_is_exact(void)
{
    FILE *fp = open_hw("h100-wmma.csv");
    CHECK(fp != NULL);
    if (!fp)
        return;
    static char line[4096];
    char *hf[32];
    CHECK(fgets(line, sizeof line, fp) != NULL);
    int nh = hw_split(line, hf, 32);
    int c_ld = -1, c_ldwf = -1, c_st = -1, c_stwf = -1, c_sm = -1, c_smwf = -1;
    for (int i = 0; i < nh; i++) {
        c_ld = !strcmp(hf[i], "ld") ? i : c_ld;
        c_ldwf = !strcmp(hf[i], "ld_wf") ? i : c_ldwf;
        c_st = !strcmp(hf[i], "st") ? i : c_st;
        c_stwf = !strcmp(hf[i], "st_wf") ? i : c_stwf;
        c_sm = !strcmp(hf[i], "ldsm") ? i : c_sm;
        c_smwf = !strcmp(hf[i], "ldsm_wf") ? i : c_smwf;
    }
    CHECK(c_ld > 0 && c_ldwf > 0 && c_st > 0 && c_stwf > 0 && c_sm > 0 && c_smwf > 0);
    unsigned rows = 0, bad = 0, stores = 0, ldsm_rows = 0, conflicted = 0;
    while (fgets(line, sizeof line, fp)) {
        char *fl[32];
        int n = hw_split(line, fl, 32);
        if (n < nh)
            continue;
        struct smem_wmma_frag f;
        CHECK(parse_kind(fl[1], &f) == 0);
        int store = !strcmp(fl[0], "st");
        unsigned lds, lds_wf, sm, sm_wf;
        model_cost(&f, store, (unsigned)atoi(fl[2]), (unsigned)atoi(fl[3]), &lds, &lds_wf, &sm, &sm_wf);
        unsigned h_req = (unsigned)atoi(fl[store ? c_st : c_ld]), h_wf = (unsigned)atoi(fl[store ? c_stwf : c_ldwf]);
        unsigned h_sm = (unsigned)atoi(fl[c_sm]), h_smwf = (unsigned)atoi(fl[c_smwf]);
        if (lds != h_req || lds_wf != h_wf || sm != h_sm || sm_wf != h_smwf) {
            if (bad++ < 10)
                fprintf(stderr, "%s %s ldm %s B off %s: H100 %u/%u ldsm %u/%u, model %u/%u ldsm %u/%u\n",
                        fl[0], fl[1], fl[2], fl[3], h_req, h_wf, h_sm, h_smwf, lds, lds_wf, sm, sm_wf);
        }
        rows++;
        stores += store;
        ldsm_rows += h_sm != 0;
        conflicted += h_wf > h_req * 4 || h_smwf > h_sm * 4;
        /* the other counters stay 0: nothing else touched shared memory */
        CHECK_EQ(atoi(fl[store ? c_ld : c_st]), 0);
    }
    fclose(fp);
    CHECK_EQ(rows, 840u);
    CHECK(stores > 100 && ldsm_rows > 200 && conflicted > 100); /* the data covers what it claims */
    CHECK_EQ(bad, 0u);
}

static void test_sm90_fragments_and_refusals(void)
{
    struct smem_wmma_frag f = {SMEM_WMMA_A, SMEM_WMMA_F16, 16, 16, 16, 0};
    CHECK(smem_wmma_check(&f) == NULL);
    CHECK_EQ(smem_wmma_elements(&f), 16u);
    CHECK_EQ(smem_wmma_registers(&f), 8u);
    f.type = SMEM_WMMA_BF16;
    CHECK_EQ(smem_wmma_registers(&f), 4u);
    f.type = SMEM_WMMA_TF32;
    CHECK(smem_wmma_check(&f) != NULL); /* tf32 is m16n16k8 */
    f.k = 8;
    CHECK(smem_wmma_check(&f) == NULL);
    struct smem_wmma_frag d = {SMEM_WMMA_C, SMEM_WMMA_F64, 8, 8, 4, 0};
    CHECK(smem_wmma_check(&d) == NULL);
    CHECK_EQ(smem_wmma_registers(&d), 2u);
    d.type = SMEM_WMMA_BF16;
    CHECK(smem_wmma_check(&d) != NULL); /* no bf16 accumulator */
    /* the SASS: f16 A is one LDSM.x4; f32 C row-major four LDS.64, column-major eight LDS.32 */
    struct smem_wmma_part p[SMEM_WMMA_MAX_PARTS];
    struct smem_wmma_frag a = {SMEM_WMMA_A, SMEM_WMMA_F16, 16, 16, 16, 0};
    CHECK_EQ(smem_wmma_parts(&a, p), 1u);
    CHECK(p[0].ldsm && p[0].count == 4);
    struct smem_wmma_frag c = {SMEM_WMMA_C, SMEM_WMMA_F32, 16, 16, 16, 0};
    CHECK_EQ(smem_wmma_parts(&c, p), 4u);
    CHECK_EQ(p[0].width, 8);
    c.col = 1;
    CHECK_EQ(smem_wmma_parts(&c, p), 8u);
    CHECK_EQ(p[0].width, 4);
}

int main(void)
{
    RUN(test_layouts_are_the_h100s);
    RUN(test_every_measured_load_and_store_is_exact);
    RUN(test_sm90_fragments_and_refusals);
    return CHECK_DONE();
}
