/* test_validate.c: kernels the analyzer never saw while its rules were written (tests/validate/,
 * every width, odd tiles, dynamic shared memory, swizzles, loops, divergence, indirection, structs,
 * partial vectors, atomics, ptxas-merged loads and stores), against Nsight Compute's counts on the
 * H100 (tests/validate/h100-2026-11-22-ncu.csv: H100 80GB HBM3, driver 580.159.04, 2026-11-22;
 * the first 28 were also counted on an H200, h200-2026-11-22-ncu.csv, with the same numbers). */
#include "check.h"
#include "hwdata.h"
#include "smemlab/analysis/analyze.h"

#include <stdlib.h>

/* The value of metric for kernel in the ncu CSV; -1 if absent. */
static long long ncu_value(const char *kernel, const char *metric)
{
    char path[512], line[4096];
    char *f[32];
    snprintf(path, sizeof path, "%s/tests/validate/h100-2026-11-22-ncu.csv", SMEMLAB_SOURCE_DIR);
    FILE *fp = fopen(path, "r");
    long long v = -1;
    if (!fp)
        return -1;
    while (fgets(line, sizeof line, fp)) {
        int n = hw_split(line, f, 32);
        if (n >= 15 && !strcmp(f[4], kernel) && !strcmp(f[12], metric)) {
            char digits[64];
            size_t k = 0;
            for (const char *c = f[14]; *c && k + 1 < sizeof digits; c++)
                if (*c != ',')
                    digits[k++] = *c;
            digits[k] = 0;
            v = digits[0] >= '0' && digits[0] <= '9' ? atoll(digits) : -1;
            break;
        }
    }
    fclose(fp);
    return v;
}

struct vk {
    const char *name;
    unsigned block[3];
    unsigned dyn;
};

static const struct vk kernels[] = {
    {"v_dbl_tile33", {32, 32, 1}, 0},     {"v_dbl_halfswap", {32, 1, 1}, 0},
    {"v_dbl_quarter", {32, 1, 1}, 0},     {"v_f4_halfsame", {32, 1, 1}, 0},
    {"v_f4_stride3", {32, 1, 1}, 0},      {"v_f2_col", {16, 32, 1}, 0},
    {"v_u8_col", {32, 32, 1}, 0},         {"v_u16_col", {32, 32, 1}, 0},
    {"v_odd_tile", {24, 20, 1}, 0},       {"v_dyn_two", {64, 1, 1}, 64 * 8 + 256 * 4},
    {"v_swizzle", {32, 8, 1}, 0},         {"v_loop_stride", {128, 1, 1}, 0},
    {"v_divergent", {64, 1, 1}, 0},       {"v_indirect", {64, 1, 1}, 0},
    {"v_struct", {64, 1, 1}, 0},          {"v_int4_partial", {64, 1, 1}, 0},
    {"v_sgemm16", {16, 16, 1}, 0},        {"v_warp_reduce", {1024, 1, 1}, 0},
    {"v_hist_atomic", {256, 1, 1}, 0},    {"v_bcast_mix", {32, 1, 1}, 0},
    {"v_dbl_bcast4", {32, 1, 1}, 0},      {"v_st_same_word", {32, 1, 1}, 0},
    {"v_merge_row4", {32, 4, 1}, 0},      {"v_merge_pair_odd", {32, 1, 1}, 0},
    {"v_merge_pair_even", {32, 1, 1}, 0}, {"v_merge_store4", {32, 1, 1}, 0},
    {"v_merge_dbl2", {32, 1, 1}, 0},      {"v_merge_u16", {32, 1, 1}, 0},
    {"v_float3_struct", {64, 1, 1}, 0},   {"v_double2_col", {16, 16, 1}, 0},
    {"v_char4_row", {32, 8, 1}, 0},       {"v_short2_stride", {64, 1, 1}, 0},
    {"v_unroll_stencil", {256, 1, 1}, 0}, {"v_unroll_row_dot", {64, 1, 1}, 0},
    {"v_dyn_tile_pad", {24, 24, 1}, 24 * 25 * 4}, {"v_xor_f4", {64, 1, 1}, 0},
    {"v_loop_var_stride", {32, 1, 1}, 0}, {"v_branch_lanes", {96, 1, 1}, 0},
    {"v_perm_from_smem", {256, 1, 1}, 0}, {"v_struct_mix", {32, 1, 1}, 0},
    {"v_transpose64_dbl", {32, 8, 1}, 0}, {"v_half_tile", {64, 4, 1}, 0},
    {"v_atomic_conflict", {128, 1, 1}, 0}, {"v_ld_v2_partial", {64, 1, 1}, 0},
};

static void test_unseen_kernels_match_h100_counters(void)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    struct smem_error err;
    memset(&err, 0, sizeof err);
    size_t len = 0;
    char *ptx = smem_compile_cu(SMEMLAB_SOURCE_DIR "/tests/validate/kernels.cu", &o, &len, &err);
    CHECK(ptx != NULL);
    if (!ptx) {
        fprintf(stderr, "%s\n", err.msg);
        return;
    }
    static const char *const metric[6] = {
        "smsp__sass_inst_executed_op_shared_ld.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        "smsp__sass_inst_executed_op_shared_st.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        "smsp__sass_inst_executed_op_shared_atom.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"};
    unsigned matched = 0;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        const struct vk *v = &kernels[i];
        o.kernel = v->name;
        memcpy(o.block, v->block, sizeof o.block);
        o.dyn_smem = v->dyn;
        struct smem_analysis *a = NULL;
        int rc = smem_analyze_ptx(ptx, len, "kernels.ptx", NULL, &o, &a, &err);
        CHECK(rc == 0);
        if (rc)
            continue;
        const struct smem_kernel_report *k = &a->kernels[0];
        CHECK(k->complete);
        long long got[6] = {(long long)k->ld.requests, (long long)k->ld.wavefronts,
                            (long long)k->st.requests, (long long)k->st.wavefronts,
                            (long long)k->atom.requests, (long long)k->atom.wavefronts};
        int ok = 1;
        for (int m = 0; m < 6; m++) {
            long long want = ncu_value(v->name, metric[m]);
            if (m < 4)
                CHECK(want >= 0);
            if (want < 0)
                continue;
            if (got[m] != want) {
                fprintf(stderr, "  %s %s: smemlab %lld, Hopper %lld\n", v->name, metric[m], got[m],
                        want);
                ok = 0;
            }
            CHECK_EQ(got[m], want);
        }
        matched += ok;
        smem_analysis_free(a);
    }
    printf("  %u of %zu kernels match every counter\n", matched, sizeof kernels / sizeof kernels[0]);
    free(ptx);
}

int main(void)
{
    RUN(test_unseen_kernels_match_h100_counters);
    return CHECK_DONE();
}
