/* test_analyze_hw.c: `analyze` on the very programs that measured the H100 (tests/hw/src/, copied
 * from shared/hw/src/) must give the H100's requests and wavefronts, loads and stores, exactly
 * (tests/hw/h100-counters.csv; per-instruction wavefronts *_wf_sass, hw/README.md item 6). */
#include "check.h"
#include "hwdata.h"
#include "smemlab/analysis/analyze.h"

#include <stdlib.h>

struct launch {
    const char *section, *kernel, *file;
    unsigned block[3], grid[3];
    uint32_t dyn;
    const char *param, *value;
    unsigned sample; /* analyse this many blocks; the CSV's totals are scaled to them */
};

static void check_launch(const struct launch *L)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = L->kernel;
    memcpy(o.block, L->block, sizeof o.block);
    memcpy(o.grid, L->grid, sizeof o.grid);
    o.dyn_smem = L->dyn;
    o.sample_blocks = L->sample;
    struct smem_param_arg pa = {L->param, L->value};
    if (L->param) {
        o.params = &pa;
        o.nparams = 1;
    }
    static const char *const inc[] = {"-I", SMEMLAB_SOURCE_DIR "/tests/hw/src"};
    o.compiler_args = inc;
    o.ncompiler_args = 2;
    char path[512];
    snprintf(path, sizeof path, "%s/tests/hw/src/%s", SMEMLAB_SOURCE_DIR, L->file);
    struct smem_analysis *a = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    /* compile each program once (nvcc is the slow part), analyse each launch from its PTX */
    static char cached[512], *ptx, *pp;
    static size_t ptx_len, pp_len;
    if (strcmp(cached, path)) {
        free(ptx);
        free(pp);
        pp = NULL;
        ptx = smem_compile_cu_pp(path, &o, &ptx_len, &pp, &pp_len, &err);
        snprintf(cached, sizeof cached, "%s", ptx ? path : "");
    }
    o.preprocessed = pp; /* parameter names, as nvcc saw them (macro-made kernels too) */
    o.preprocessed_len = pp_len;
    int rc = ptx ? smem_analyze_ptx(ptx, ptx_len, "<nvcc output>", path, &o, &a, &err) : -1;
    if (rc) {
        char buf[1200];
        fprintf(stderr, "%s/%s: %s\n", L->section, L->kernel, smem_error_format(&err, buf, sizeof buf));
        CHECK(rc == 0);
        return;
    }
    CHECK_EQ(a->nkernels, 1);
    if (a->nkernels == 1) {
        const struct smem_kernel_report *k = &a->kernels[0];
        uint64_t blocks = (uint64_t)L->grid[0] * L->grid[1] * L->grid[2];
        uint64_t scale = k->blocks_run ? blocks / k->blocks_run : 0;
        CHECK(k->complete);
        long long want[4] = {hw_value("h100-counters.csv", L->section, L->kernel, "ld_inst"),
                             hw_value("h100-counters.csv", L->section, L->kernel, "st_inst"),
                             hw_value("h100-counters.csv", L->section, L->kernel, "ld_wf_sass"),
                             hw_value("h100-counters.csv", L->section, L->kernel, "st_wf_sass")};
        long long got[4] = {(long long)(k->ld.requests * scale), (long long)(k->st.requests * scale),
                            (long long)(k->ld.wavefronts * scale),
                            (long long)(k->st.wavefronts * scale)};
        static const char *const what[4] = {"ld requests", "st requests", "ld wavefronts",
                                            "st wavefronts"};
        for (int i = 0; i < 4; i++) {
            if (got[i] != want[i])
                fprintf(stderr, "  %s/%s %s: smemlab %lld, H100 %lld\n", L->section, L->kernel,
                        what[i], got[i], want[i]);
            CHECK_EQ(got[i], want[i]);
        }
    }
    smem_analysis_free(a);
}

#define B2(x, y) {x, y, 1}
#define G1 {1, 1, 1}

static const struct launch square[] = {
    {"A", "setRowReadRow", "smem_square.cu", B2(32, 32), G1, 0, NULL, NULL, 0},
    {"A", "setColReadCol", "smem_square.cu", B2(32, 32), G1, 0, NULL, NULL, 0},
    {"A", "setRowReadCol", "smem_square.cu", B2(32, 32), G1, 0, NULL, NULL, 0},
    {"A", "setRowReadColDyn", "smem_square.cu", B2(32, 32), G1, 4096, NULL, NULL, 0},
    {"A", "setRowReadColPad", "smem_square.cu", B2(32, 32), G1, 0, NULL, NULL, 0},
    {"A", "setRowReadColDynPad", "smem_square.cu", B2(32, 32), G1, 33 * 32 * 4, NULL, NULL, 0},
};
static const struct launch rect[] = {
    {"B", "setRowReadRow", "smem_rect.cu", B2(32, 16), G1, 0, NULL, NULL, 0},
    {"B", "setColReadCol", "smem_rect.cu", B2(32, 16), G1, 0, NULL, NULL, 0},
    {"B", "setRowReadCol", "smem_rect.cu", B2(32, 16), G1, 0, NULL, NULL, 0},
    {"B", "setRowReadColDyn", "smem_rect.cu", B2(32, 16), G1, 2048, NULL, NULL, 0},
    {"B", "setRowReadColPad1", "smem_rect.cu", B2(32, 16), G1, 0, NULL, NULL, 0},
    {"B", "setRowReadColDynPad1", "smem_rect.cu", B2(32, 16), G1, 33 * 16 * 4, NULL, NULL, 0},
    {"B", "setRowReadColPad2", "smem_rect.cu", B2(32, 16), G1, 0, NULL, NULL, 0},
    {"B", "setRowReadColDynPad2", "smem_rect.cu", B2(32, 16), G1, 34 * 16 * 4, NULL, NULL, 0},
};

static void test_square_tile_matches_h100(void)
{
    for (size_t i = 0; i < sizeof square / sizeof square[0]; i++)
        check_launch(&square[i]);
}

static void test_rectangle_tile_matches_h100(void)
{
    for (size_t i = 0; i < sizeof rect / sizeof rect[0]; i++)
        check_launch(&rect[i]);
}

static void test_many_blocks_match_per_instruction_counters(void)
{
    /* 8448 blocks; every block does the same, so 12 sampled blocks scale exactly */
    for (size_t i = 0; i < sizeof square / sizeof square[0]; i++) {
        struct launch L = square[i];
        L.section = "Amany";
        L.grid[0] = 8448;
        L.sample = 12;
        check_launch(&L);
    }
    for (size_t i = 0; i < sizeof rect / sizeof rect[0]; i++) {
        struct launch L = rect[i];
        L.section = "Bmany";
        L.grid[0] = 8448;
        L.sample = 12;
        check_launch(&L);
    }
}

static void test_access_pattern_kernels_match_h100(void)
{
    static const char *const names[] = {
        "i32_bcast_0", "i32_blockIdx", "i32_tid", "f32_tid", "i32_tid_div2", "i32_tid_plus71",
        "i32_stride2", "i32_stride3", "i32_stride4", "i32_stride5", "i32_stride6", "i32_stride7",
        "i32_stride8", "i32_stride16", "i32_stride17", "i32_stride31", "i32_stride32",
        "f32_stride32", "i32_stride33", "i32_stride64", "i32_stride128", "i32_stride129", "u8_tid",
        "u16_tid", "u8_stride4", "u16_stride2", "u8_stride2", "u8_stride128", "u16_stride64",
        "f64_tid", "f64_stride2", "f64_stride16", "f64_stride17", "f64_bcast_0", "f64_tid_div2",
        "f4_tid", "f4_stride2", "f4_stride8", "f4_bcast_0", "f4_tid_div2", "tile_col_plain",
        "tile_col_pad33", "tile_col_xor", "tile_row_xor", "point4d_x_inc", "point5_x_inc"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        /* the kernels come from a macro (PAT(NAME, T, EXPR)): p is named as nvcc saw it */
        struct launch L = {"C", names[i], "smem_patterns.cu", {32, 1, 1}, G1, 0, "p", "5", 0};
        check_launch(&L);
    }
}

static void test_reductions_match_h100(void)
{
    static const char *const names[] = {"reduce_interleaved", "reduce_interleaved_divergent",
                                        "reduce_sequential"};
    for (size_t i = 0; i < 3; i++) {
        struct launch L = {"D", names[i], "reduce.cu", {1024, 1, 1}, {1024, 1, 1}, 0, NULL, NULL, 16};
        check_launch(&L);
    }
}

static void test_reverse_matches_h100(void)
{
    struct launch s = {"E", "staticReverse", "reverse.cu", {64, 1, 1}, G1, 0, "n", "64", 0};
    struct launch d = {"E", "dynamicReverse", "reverse.cu", {64, 1, 1}, G1, 256, "n", "64", 0};
    check_launch(&s);
    check_launch(&d);
}

static void test_transpose_matches_h100(void)
{
    static const char *const names[] = {"transposeTileNoPad", "transposeTilePad",
                                        "transposeTileSwizzle", "copyKernel", "transposeNaive"};
    for (size_t i = 0; i < 5; i++) {
        struct launch L = {"F", names[i], "transpose.cu", {32, 8, 1}, {256, 256, 1}, 0,
                           NULL, NULL, 16};
        check_launch(&L);
    }
}

int main(void)
{
    RUN(test_square_tile_matches_h100);
    RUN(test_rectangle_tile_matches_h100);
    RUN(test_many_blocks_match_per_instruction_counters);
    RUN(test_access_pattern_kernels_match_h100);
    RUN(test_reductions_match_h100);
    RUN(test_reverse_matches_h100);
    RUN(test_transpose_matches_h100);
    return CHECK_DONE();
}
