/* test_advise.c: advise's claims. `unit`: declarations, constants, layouts, the documents' rectangle
 * and square (pads checked against the H100 counters in tests/hw/h100-counters.csv), --apply.
 * `pads`: for tiles of odd shapes, every pad 0..32 compiled and analysed must match the prediction.
 * Tests that compile CUDA exit 77 (skipped) when nvcc cannot run. */
#include "check.h"
#include "testfile.h"
#include "testrun.h"
#include "hwdata.h"
#include "smemlab/report/json_read.h"
#include "smemlab/report/report.h"
#include "smemlab/analysis/advise.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ADV_DIR SMEMLAB_SOURCE_DIR "/tests/advise/"

static int no_nvcc;


/* Analyses kernel of path with block bx x by, recording the run. NULL (and no_nvcc set) when nvcc
 * cannot run. */
static struct smem_analysis *analyse(const char *path, const char *kernel, unsigned bx,
                                     unsigned by, unsigned dyn, struct smem_analyze_options *o)
{
    smem_analyze_defaults(o);
    o->kernel = kernel;
    o->block[0] = bx;
    o->block[1] = by;
    o->block[2] = 1;
    o->dyn_smem = dyn;
    o->record = 1;
    struct smem_analysis *an = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    if (smem_analyze_file(path, o, &an, &err)) {
        if (strstr(err.msg, "cannot run nvcc"))
            no_nvcc = 1;
        else
            fprintf(stderr, "analyse %s %s: %s\n", path, kernel, err.msg);
        return NULL;
    }
    return an;
}

static struct smem_advice *advise(const char *path, const char *kernel, unsigned bx, unsigned by,
                                  unsigned dyn, uint32_t row, struct smem_analysis **anp)
{
    struct smem_analyze_options o;
    struct smem_analysis *an = analyse(path, kernel, bx, by, dyn, &o);
    *anp = an;
    if (!an)
        return NULL;
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    ad.source = path;
    ad.analyze = &o;
    ad.row_elems = row;
    struct smem_advice *adv = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    if (smem_advise_kernel(an, &an->kernels[0], &ad, &adv, &err))
        fprintf(stderr, "advise %s: %s\n", kernel, err.msg);
    return adv;
}

static const struct smem_advise_site *site(const struct smem_advise_candidate *c, uint32_t line,
                                           unsigned op)
{
    for (uint32_t i = 0; i < c->nsites; i++)
        if (c->sites[i].line == line && c->sites[i].op == op)
            return &c->sites[i];
    return NULL;
}

/* The line of the first occurrence of needle in the file. */
static uint32_t line_of(const char *path, const char *needle)
{
    size_t len;
    char *t = test_read_file(path, &len);
    char *p = t ? strstr(t, needle) : NULL;
    uint32_t n = 0;
    if (p) {
        n = 1;
        for (char *q = t; q < p; q++)
            n += *q == '\n';
    }
    free(t);
    return n;
}

/* ---- declarations and constants ----------------------------------------------------------- */

static void test_constants_macros_constexpr_enum_and_D_args(void)
{
    const char *src = "#define BDIMX 32\n#define BDIMY (BDIMX / 2)\n#define PAD\n"
                      "constexpr int TW = BDIMX + 16;\nstatic const unsigned K = 3u;\n"
                      "enum { A = 4, B, C = B * 2 };\n#ifndef IPAD\n#define IPAD 1\n#endif\n";
    const char *args[] = {"-DIPAD=5", "-D", "EXTRA=7", "-I", "x"};
    struct smem_consts *c = smem_consts_scan(src, strlen(src), args, 5);
    CHECK(c != NULL);
    int64_t v = 0;
    CHECK(!smem_const_eval(c, "BDIMY", &v) && v == 16);
    CHECK(!smem_const_eval(c, "TW", &v) && v == 48);
    CHECK(!smem_const_eval(c, "K * 2", &v) && v == 6);
    CHECK(!smem_const_eval(c, "C", &v) && v == 10);
    CHECK(!smem_const_eval(c, "IPAD", &v) && v == 5); /* -D wins over the file's #define */
    CHECK(!smem_const_eval(c, "EXTRA", &v) && v == 7);
    CHECK(!smem_const_eval(c, "(1 << 5) + sizeof(float) * 2 - (3 > 2 ? 1 : 0)", &v) && v == 39);
    CHECK(!smem_const_eval(c, "0x20u", &v) && v == 32);
    CHECK(smem_const_eval(c, "UNKNOWN + 1", &v) != 0);
    CHECK(smem_const_eval(c, "32 / 0", &v) != 0);
    CHECK(smem_const_eval(c, "1.5", &v) != 0);
    smem_consts_free(c);
}

static void test_declarations_are_found_with_their_function(void)
{
    const char *src =
        "#define N 16\n"
        "__shared__ float gtile[4][8];\n"
        "template <int T> __global__ void __launch_bounds__(256) k1(float* o) {\n"
        "  // __shared__ int commented[3];\n"
        "  __shared__ __align__(16) volatile float a[N][N + 1], b[2][T];\n"
        "  if (o) { o[0] = a[0][0]; }\n"
        "}\n"
        "__global__ void k2(int* o) {\n"
        "  extern __shared__ int dyn[];\n"
        "  static __shared__ unsigned short s[N * 2];\n"
        "}\n"
        "#define DEF(P) \\\n __global__ void kp##P(int* o) { \\\n  __shared__ int t[N][32 + P]; }\n";
    struct smem_consts *c = smem_consts_scan(src, strlen(src), NULL, 0);
    struct smem_decl *d = NULL;
    unsigned n = smem_decl_scan(src, strlen(src), c, &d);
    CHECK_EQ(n, 6);
    if (n == 6) {
        CHECK_STR(d[0].name, "gtile");
        CHECK_STR(d[0].func, "");
        CHECK_EQ(d[0].dim[1], 8);
        CHECK_STR(d[1].name, "a");
        CHECK_STR(d[1].func, "k1");
        CHECK_STR(d[1].type, "float");
        CHECK_EQ(d[1].ndims, 2);
        CHECK_EQ(d[1].dim[0], 16);
        CHECK_EQ(d[1].dim[1], 17);
        CHECK_STR(d[1].dim_text[1], "N + 1");
        CHECK_EQ(d[1].line, 5);
        CHECK_STR(d[2].name, "b");
        CHECK_EQ(d[2].dim[1], -1); /* a template parameter */
        CHECK_STR(d[3].name, "dyn");
        CHECK(d[3].is_extern);
        CHECK_STR(d[3].func, "k2");
        CHECK_STR(d[4].type, "unsigned short");
        CHECK_EQ(d[4].dim[0], 32);
        CHECK_STR(d[5].name, "t");
        CHECK_STR(d[5].dim_text[1], "32 + P");
        /* patch: the last dimension of a and of t, nothing else */
        const struct smem_decl *pd[2] = {&d[1], &d[5]};
        unsigned pads[2] = {2, 1};
        size_t ol;
        char *p = smem_decl_patch(src, strlen(src), pd, pads, 2, &ol);
        CHECK(p && strstr(p, "a[N][N + 3], b[2][T];"));
        CHECK(p && strstr(p, "__shared__ int t[N][32 + P + 1]; }"));
        CHECK(p && strstr(p, "gtile[4][8]"));
        CHECK_EQ(ol, strlen(src) + 4); /* "N + 1" -> "N + 3", "32 + P" -> "32 + P + 1" */
        free(p);
        char st[300];
        smem_decl_statement(src, &d[1], 2, st, sizeof st);
        CHECK_STR(st, "__shared__ __align__(16) volatile float a[N][N + 3], b[2][T];");
    }
    free(d);
    smem_consts_free(c);
}

static void test_pad_text_keeps_the_expression(void)
{
    struct smem_decl d;
    memset(&d, 0, sizeof d);
    d.ndims = 2;
    const struct {
        const char *in;
        unsigned pad;
        const char *out;
    } cases[] = {{"32", 2, "34"},          {"BDIMX", 2, "BDIMX + 2"}, {"BDIMX + 1", 1, "BDIMX + 2"},
                 {"T * 2", 1, "T * 2 + 1"}, {"A << 2", 1, "(A << 2) + 1"},
                 {"X ? 1 : 2", 3, "(X ? 1 : 2) + 3"}, {"BDIMX - 1", 1, "BDIMX - 1 + 1"},
                 {"TILE1", 4, "TILE1 + 4"},   {"BDIMX", 0, "BDIMX"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[128];
        snprintf(d.dim_text[1], sizeof d.dim_text[1], "%s", cases[i].in);
        smem_decl_pad_text(&d, cases[i].pad, buf, sizeof buf);
        if (strcmp(buf, cases[i].out))
            fprintf(stderr, "pad_text(%s, %u) = %s, expected %s\n", cases[i].in, cases[i].pad, buf,
                    cases[i].out);
        CHECK_STR(buf, cases[i].out);
    }
}

static void test_source_names_come_from_the_mangling(void)
{
    char n[128], f[128];
    smem_decl_source_name("_ZZ13setRowReadColPiE4tile", n, sizeof n, f, sizeof f);
    CHECK_STR(n, "tile");
    CHECK_STR(f, "setRowReadCol");
    smem_decl_source_name("_ZZN2ns6kernelILi32EEEvPfE2As_0", n, sizeof n, f, sizeof f);
    CHECK_STR(n, "As");
    CHECK_STR(f, "kernel");
    smem_decl_source_name("_ZZ3fooILi4EEvvE4tile", n, sizeof n, f, sizeof f);
    CHECK_STR(n, "tile");
    CHECK_STR(f, "foo");
    smem_decl_source_name("dtile", n, sizeof n, f, sizeof f);
    CHECK_STR(n, "dtile");
    CHECK_STR(f, "");
    CHECK_EQ(smem_type_bytes("unsigned short"), 2);
    CHECK_EQ(smem_type_bytes("double2"), 16);
    CHECK_EQ(smem_type_bytes("const __half"), 2);
    CHECK_EQ(smem_type_bytes("Point"), 0);
}

/* ---- layouts ------------------------------------------------------------------------------ */

static void test_swizzle_is_cutes_formula(void)
{
    /* Swizzle<3,0,3> on an 8x8 tile: element (r, c) goes to (r, c ^ r) */
    for (uint32_t r = 0; r < 8; r++)
        for (uint32_t c = 0; c < 8; c++)
            CHECK_EQ(smem_swizzle_bms(r * 8 + c, 3, 0, 3), r * 8 + (c ^ r));
    /* Swizzle<2,1,4>: bits 5..6 into bits 1..2, the rest kept */
    CHECK_EQ(smem_swizzle_bms(0x20, 2, 1, 4), 0x22);
    CHECK_EQ(smem_swizzle_bms(0x61, 2, 1, 4), 0x67);
    CHECK_EQ(smem_swizzle_bms(0x1f, 2, 1, 4), 0x1f);
    /* element offsets, bytes within an element kept */
    struct smem_layout l = {SMEM_LAYOUT_SWIZZLE, 32, 4, 0, 5, 0, 5, 0, 0, 0};
    CHECK_EQ(smem_layout_map(&l, (3 * 32 + 1) * 4 + 2), (3 * 32 + (1 ^ 3)) * 4 + 2);
    struct smem_layout p = {SMEM_LAYOUT_PAD, 32, 4, 2, 0, 0, 0, 0, 0, 0};
    CHECK_EQ(smem_layout_map(&p, (5 * 32 + 7) * 4), (5 * 34 + 7) * 4);
    CHECK_EQ(smem_layout_map(&p, 7 * 4 + 3), 7 * 4 + 3);
}

static void test_col_expr_reads_like_the_documents(void)
{
    struct smem_layout l = {SMEM_LAYOUT_SWIZZLE, 32, 4, 0, 5, 0, 5, 0, 0, 0};
    char b[200];
    CHECK(smem_layout_col_expr(&l, 32, "r", "c", b, sizeof b));
    CHECK_STR(b, "c ^ r");
    l = (struct smem_layout){SMEM_LAYOUT_SWIZZLE, 32, 4, 0, 4, 1, 4, 0, 0, 0};
    CHECK(smem_layout_col_expr(&l, 16, "r", "c", b, sizeof b));
    CHECK_STR(b, "c ^ (r << 1)");
    l = (struct smem_layout){SMEM_LAYOUT_SWIZZLE, 32, 4, 0, 3, 2, 3, 0, 0, 0};
    CHECK(smem_layout_col_expr(&l, 64, "r", "c", b, sizeof b));
    CHECK_STR(b, "c ^ ((r & 7) << 2)");
    l = (struct smem_layout){SMEM_LAYOUT_SWIZZLE, 32, 4, 0, 3, 0, 2, 0, 0, 0};
    CHECK(!smem_layout_col_expr(&l, 64, "r", "c", b, sizeof b)); /* yyy inside the row */
    l = (struct smem_layout){SMEM_LAYOUT_SWIZZLE, 48, 4, 0, 4, 0, 5, 0, 0, 0};
    CHECK(!smem_layout_col_expr(&l, 64, "r", "c", b, sizeof b));
}

/* ---- the documents' kernels --------------------------------------------------------------- */

static void test_rect_best_pad_is_2_not_1(void)
{
    struct smem_analysis *an;
    const char *path = ADV_DIR "rect.cu";
    struct smem_advice *adv = advise(path, "setRowReadCol", 32, 16, 0, 0, &an);
    if (!adv) {
        CHECK(no_nvcc);
        smem_analysis_free(an);
        return;
    }
    CHECK_EQ(adv->narrays, 1);
    const struct smem_advise_array *ar = &adv->arrays[0];
    CHECK_STR(ar->name, "tile");
    CHECK_EQ(ar->row_elems, 32);
    CHECK_EQ(ar->rows, 16);
    CHECK_EQ(ar->elem_bytes, 4);
    CHECK(ar->patchable);
    CHECK_EQ(ar->npads, 33);
    CHECK_EQ(ar->best_pad, 2);
    uint32_t ld = line_of(path, "out[idx] = tile[icol][irow]");
    uint32_t st = line_of(path, "tile[threadIdx.y][threadIdx.x] = idx;\n    __syncthreads();\n    out[idx] = tile[icol]");
    /* every figure from the H100's counters (tests/hw/h100-counters.csv, section B) */
    const struct smem_advise_site *s0 = site(&ar->before, ld, SMEM_ACC_LD);
    const struct smem_advise_site *s1 = site(&ar->pads[1], ld, SMEM_ACC_LD);
    const struct smem_advise_site *s2 = site(&ar->pads[2], ld, SMEM_ACC_LD);
    const struct smem_advise_site *t2 = site(&ar->pads[2], st, SMEM_ACC_ST);
    CHECK(s0 && s1 && s2 && t2);
    if (s0 && s1 && s2 && t2) {
        CHECK_EQ(s0->wavefronts, hw_value("h100-counters.csv", "B", "setRowReadCol", "ld_wf"));
        CHECK_EQ(s1->wavefronts, hw_value("h100-counters.csv", "B", "setRowReadColPad1", "ld_wf"));
        CHECK_EQ(s2->wavefronts, hw_value("h100-counters.csv", "B", "setRowReadColPad2", "ld_wf"));
        CHECK_EQ(t2->wavefronts, hw_value("h100-counters.csv", "B", "setRowReadColPad2", "st_wf"));
        CHECK_EQ(s1->max_ways, 2);
    }
    CHECK(ar->pads[1].wavefronts > ar->pads[2].wavefronts);
    CHECK(ar->best_pad_compiled); /* pad 2 was compiled and run: the proof */
    CHECK_EQ(adv->compiles, 1);
    CHECK_EQ(ar->pads[2].wavefronts, ar->pads[2].ideal);
    CHECK_EQ(ar->pads[2].extra_bytes, 16 * 2 * 4);
    CHECK(strstr(ar->pads[2].code, "tile[BDIMY][BDIMX + 2]") != NULL);
    /* a conflict-free swizzle exists and costs no memory: it ranks first */
    CHECK(ar->best_swizzle >= 0);
    if (ar->best_swizzle >= 0) {
        const struct smem_advise_candidate *sw = &ar->swizzles[ar->best_swizzle];
        CHECK_EQ(sw->wavefronts, sw->ideal);
        CHECK(ar->best_is_swizzle);
    }
    /* JSON: the contract's fields */
    char *buf = NULL;
    size_t bl = 0;
    FILE *f = open_memstream(&buf, &bl);
    smem_advice_json(f, adv);
    fclose(f);
    CHECK(strstr(buf, "\"arrays\": [") != NULL);
    CHECK(strstr(buf, "\"name\": \"tile\"") != NULL);
    CHECK(strstr(buf, "\"row_elems\": 32") != NULL);
    CHECK(strstr(buf, "\"before\": {\"wavefronts\": 272, \"ideal_wavefronts\": 32") != NULL);
    CHECK(strstr(buf, "\"best_pad\": {\"pad\": 2, \"extra_bytes\": 128, \"wavefronts\": 32, "
                      "\"conflicts\": 0") != NULL);
    CHECK(strstr(buf, "\"best\": \"swizzle\"") != NULL);
    CHECK(strstr(buf, "\"formula\": \"Swizzle<") != NULL);
    free(buf);
    /* --apply: the patched source compiles and analyse shows no conflict */
    size_t len;
    char *text = test_read_file(path, &len);
    unsigned np = 0;
    size_t pl;
    char *patched = smem_advice_patch(adv, text, len, &pl, &np);
    CHECK_EQ(np, 1);
    char out[] = "/tmp/smemlab-test-advXXXXXX";
    CHECK(mkdtemp(out) != NULL);
    char outp[200];
    snprintf(outp, sizeof outp, "%s/rect_padded.cu", out);
    FILE *w = fopen(outp, "wb");
    CHECK(w && fwrite(patched, 1, pl, w) == pl);
    if (w)
        fclose(w);
    struct smem_analyze_options o;
    struct smem_analysis *an2 = analyse(outp, "setRowReadCol", 32, 16, 0, &o);
    CHECK(an2 != NULL);
    if (an2) {
        const struct smem_kernel_report *k = &an2->kernels[0];
        CHECK(k->nsites >= 2);
        for (uint32_t i = 0; i < k->nsites; i++)
            CHECK_EQ(k->sites[i].t.wavefronts, k->sites[i].t.ideal);
        CHECK_EQ(k->ld.wavefronts + k->st.wavefronts, ar->pads[2].wavefronts);
        CHECK_EQ(k->static_smem, 16 * 34 * 4);
    }
    smem_analysis_free(an2);
    unlink(outp);
    rmdir(out);
    free(patched);
    free(text);
    smem_advice_free(adv);
    smem_analysis_free(an);
}

static void test_square_best_pad_is_1_and_swizzle_is_c_xor_r(void)
{
    struct smem_analysis *an;
    struct smem_advice *adv = advise(ADV_DIR "square.cu", "setRowReadCol", 32, 32, 0, 0, &an);
    if (!adv) {
        CHECK(no_nvcc);
        smem_analysis_free(an);
        return;
    }
    CHECK_EQ(adv->narrays, 1);
    const struct smem_advise_array *ar = &adv->arrays[0];
    CHECK_EQ(ar->best_pad, 1);
    uint32_t ld = line_of(ADV_DIR "square.cu", "out[idx] = tile[threadIdx.x][threadIdx.y]");
    const struct smem_advise_site *s0 = site(&ar->before, ld, SMEM_ACC_LD);
    const struct smem_advise_site *s1 = site(&ar->pads[1], ld, SMEM_ACC_LD);
    CHECK(s0 && s1);
    if (s0 && s1) {
        CHECK_EQ(s0->wavefronts, hw_value("h100-counters.csv", "A", "setRowReadCol", "ld_wf"));
        CHECK_EQ(s1->wavefronts, hw_value("h100-counters.csv", "A", "setRowReadColPad", "ld_wf"));
    }
    CHECK_EQ(ar->pads[1].wavefronts, ar->pads[1].ideal);
    CHECK(ar->best_swizzle >= 0);
    if (ar->best_swizzle >= 0) {
        const struct smem_advise_candidate *sw = &ar->swizzles[ar->best_swizzle];
        CHECK_EQ(sw->layout.b, 5);
        CHECK_EQ(sw->layout.m, 0);
        CHECK_EQ(sw->layout.s, 5);
        CHECK_STR(sw->code, "tile[r][c ^ r] for tile[r][c]");
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

static void test_no_conflict_means_nothing_to_change(void)
{
    struct smem_analysis *an;
    struct smem_advice *adv = advise(ADV_DIR "rect.cu", "setRowReadRow", 32, 16, 0, 0, &an);
    if (!adv) {
        CHECK(no_nvcc);
        smem_analysis_free(an);
        return;
    }
    CHECK_EQ(adv->narrays, 0);
    CHECK_EQ(adv->nshared, 1);
    size_t len, pl;
    char *text = test_read_file(ADV_DIR "rect.cu", &len);
    unsigned np = 9;
    char *p = smem_advice_patch(adv, text, len, &pl, &np);
    CHECK_EQ(np, 0);
    CHECK(p && pl == len && !memcmp(p, text, len));
    free(p);
    free(text);
    smem_advice_free(adv);
    smem_analysis_free(an);
}

static void test_extern_array_needs_row_and_is_not_patched(void)
{
    struct smem_analysis *an;
    struct smem_advice *adv = advise(ADV_DIR "rect.cu", "setRowReadColDyn", 32, 16, 2048, 32, &an);
    if (!adv) {
        CHECK(no_nvcc);
        smem_analysis_free(an);
        return;
    }
    CHECK_EQ(adv->narrays, 1);
    if (adv->narrays) {
        const struct smem_advise_array *ar = &adv->arrays[0];
        CHECK_STR(ar->name, "dtile");
        CHECK(ar->dynamic);
        CHECK(!ar->patchable);
        CHECK_STR(ar->row_from, "--row");
        CHECK_EQ(ar->best_pad, 2);
        CHECK_EQ(ar->pads[2].extra_bytes, 128);
        CHECK(strstr(ar->pads[2].code, "dtile[r * 34 + c]") != NULL);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
    /* without --row the row comes from the access strides */
    adv = advise(ADV_DIR "rect.cu", "setRowReadColDyn", 32, 16, 2048, 0, &an);
    CHECK(adv && adv->narrays == 1);
    if (adv && adv->narrays) {
        CHECK_EQ(adv->arrays[0].row_elems, 32);
        CHECK_STR(adv->arrays[0].row_from, "access strides");
        CHECK_EQ(adv->arrays[0].best_pad, 2);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

/* ---- every pad, compiled ------------------------------------------------------------------ */

struct odd_kernel {
    const char *name;
    unsigned bx, by;
};

static const struct odd_kernel odd[] = {
    {"col48", 32, 32}, {"dbl", 32, 32}, {"pull", 32, 32},
    {"shorts", 32, 32}, {"rect24", 24, 16}, {"vec", 32, 8},
};
#define NODD (sizeof odd / sizeof odd[0])
#define NPADS 33

/* The shared variable of k whose source name is name (its PTX name differs by namespace). */
static const char *var_named(const struct smem_kernel_report *k, const char *name)
{
    for (uint32_t i = 0; i < k->program->nvars; i++) {
        char n[128];
        smem_decl_source_name(k->program->vars[i].name, n, sizeof n, NULL, 0);
        if (!strcmp(n, name))
            return k->program->vars[i].name;
    }
    return NULL;
}

/* One file holding the source once per pad, each copy patched by --apply's code and wrapped in
 * `namespace pad_P`, so that one nvcc run compiles every pad (a kernel's code does not depend on
 * the namespace it is in). Returns the PTX (malloc'd) or NULL. */
static char *compile_every_pad(const char *text, size_t len, const struct smem_decl *const *decls,
                               unsigned ndecls, const char *dir, size_t *ptxlen, char *cu,
                               size_t cusize)
{
    snprintf(cu, cusize, "%s/every_pad.cu", dir);
    FILE *f = fopen(cu, "wb");
    if (!f)
        return NULL;
    int ok = 1;
    for (unsigned p = 0; p < NPADS && ok; p++) {
        unsigned pads[NODD];
        for (unsigned i = 0; i < ndecls; i++)
            pads[i] = p;
        size_t pl;
        char *t = smem_decl_patch(text, len, decls, pads, ndecls, &pl);
        ok = t && fprintf(f, "namespace pad_%u {\n", p) > 0 && fwrite(t, 1, pl, f) == pl &&
             fprintf(f, "\n}\n") > 0;
        free(t);
    }
    if (fclose(f) || !ok)
        return NULL;
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    struct smem_error err;
    memset(&err, 0, sizeof err);
    char *ptx = smem_compile_cu(cu, &o, ptxlen, &err);
    if (!ptx)
        fprintf(stderr, "%s: %s\n", cu, err.msg);
    return ptx;
}

static void test_every_pad_compiled_matches_the_prediction(void)
{
    const char *path = ADV_DIR "odd.cu";
    struct smem_analysis *an[NODD] = {0};
    struct smem_advice *adv[NODD] = {0};
    const struct smem_decl *decls[NODD];
    char dir[] = "/tmp/smemlab-test-padsXXXXXX";
    char cu[300] = "";
    size_t len = 0, plen = 0;
    char *text = test_read_file(path, &len), *ptx = NULL;
    CHECK(text && mkdtemp(dir));
    /* the prediction: one compile of odd.cu, each kernel advised on its own launch */
    struct smem_analyze_options o0;
    smem_analyze_defaults(&o0);
    struct smem_error err;
    memset(&err, 0, sizeof err);
    char *ptx0 = smem_compile_cu(path, &o0, &plen, &err);
    if (!ptx0) {
        no_nvcc = strstr(err.msg, "cannot run nvcc") != NULL;
        CHECK(no_nvcc);
        goto done;
    }
    struct smem_analyze_options o[NODD];
    for (unsigned i = 0; i < NODD; i++) {
        smem_analyze_defaults(&o[i]);
        o[i].kernel = odd[i].name;
        o[i].block[0] = odd[i].bx;
        o[i].block[1] = odd[i].by;
        o[i].block[2] = 1;
        o[i].record = 1;
        CHECK(!smem_analyze_ptx(ptx0, plen, "odd.ptx", path, &o[i], &an[i], &err));
        struct smem_advise_options ad;
        smem_advise_defaults(&ad);
        ad.source = path;
        ad.analyze = &o[i];
        ad.max_pad = NPADS - 1; /* the same pads for every size (2-byte ones get 64 by default) */
        if (!an[i] || smem_advise_kernel(an[i], &an[i]->kernels[0], &ad, &adv[i], &err) ||
            adv[i]->narrays != 1 || !adv[i]->arrays[0].patchable) {
            fprintf(stderr, "%s: %s\n", odd[i].name, err.msg);
            CHECK(0);
            goto done;
        }
        decls[i] = &adv[i]->arrays[0].decl;
        CHECK_EQ(adv[i]->arrays[0].npads, NPADS);
    }
    /* the truth: every pad compiled and analysed */
    ptx = compile_every_pad(text, len, decls, NODD, dir, &plen, cu, sizeof cu);
    CHECK(ptx != NULL);
    uint64_t tile_wf[NODD][NPADS], kernel_wf[NODD][NPADS];
    for (unsigned p = 0; ptx && p < NPADS; p++) {
        for (unsigned i = 0; i < NODD; i++) {
            char kn[64];
            snprintf(kn, sizeof kn, "pad_%u::%s", p, odd[i].name);
            struct smem_analyze_options ok = o[i];
            ok.kernel = kn;
            struct smem_analysis *a = NULL;
            if (smem_analyze_ptx(ptx, plen, "every_pad.ptx", cu, &ok, &a, &err)) {
                fprintf(stderr, "%s: %s\n", kn, err.msg);
                CHECK(0);
                continue;
            }
            const struct smem_kernel_report *k = &a->kernels[0];
            const char *var = var_named(k, "tile");
            struct smem_totals t;
            CHECK(var && !smem_advise_var_totals(k, var, &ok.banks, &t));
            tile_wf[i][p] = t.wavefronts;
            kernel_wf[i][p] = k->ld.wavefronts + k->st.wavefronts + k->atom.wavefronts;
            CHECK_EQ(k->static_smem, adv[i]->arrays[0].size + adv[i]->arrays[0].pads[p].extra_bytes);
            const struct smem_advise_candidate *c = &adv[i]->arrays[0].pads[p];
            CHECK(c->valid);
            if (c->wavefronts != t.wavefronts)
                fprintf(stderr, "%s pad %u: predicted %llu wavefronts, compiled %llu\n",
                        odd[i].name, p, (unsigned long long)c->wavefronts,
                        (unsigned long long)t.wavefronts);
            CHECK_EQ(c->wavefronts, t.wavefronts);
            CHECK_EQ(c->ideal, t.ideal);
            CHECK_EQ(c->requests, t.requests);
            smem_analysis_free(a);
        }
    }
    for (unsigned i = 0; ptx && i < NODD; i++) {
        /* the held-out check: the smallest pad whose compiled kernel has the fewest wavefronts */
        unsigned best = 0;
        for (unsigned p = 1; p < NPADS; p++)
            if (kernel_wf[i][p] < kernel_wf[i][best])
                best = p;
        const struct smem_advise_array *ar = &adv[i]->arrays[0];
        if ((unsigned)ar->best_pad != best)
            fprintf(stderr, "%s: best_pad %d, compiled best %u\n", odd[i].name, ar->best_pad, best);
        CHECK_EQ(ar->best_pad, best);
        CHECK_EQ(ar->pads[best].wavefronts, tile_wf[i][best]);
        printf("  %-7s best pad %2d: %llu -> %llu wavefronts (ideal %llu)\n", odd[i].name,
               ar->best_pad, (unsigned long long)ar->before.wavefronts,
               (unsigned long long)ar->pads[best].wavefronts,
               (unsigned long long)ar->pads[best].ideal);
    }
    if (ptx) {
        /* the shapes say what each kernel shows */
        const struct smem_advise_array *pull = &adv[2]->arrays[0];
        CHECK(pull->pads[pull->best_pad].wavefronts > pull->pads[pull->best_pad].ideal);
        const struct smem_advise_array *vec = &adv[5]->arrays[0];
        CHECK(adv[5]->compiles >= 1);   /* rows of 8- and 4-byte alignment compile differently */
        CHECK(vec->pads[4].compiled && vec->pads[1].compiled && vec->pads[2].compiled);
    }
done:
    if (cu[0])
        unlink(cu);
    rmdir(dir);
    free(ptx);
    free(ptx0);
    free(text);
    for (unsigned i = 0; i < NODD; i++) {
        smem_advice_free(adv[i]);
        smem_analysis_free(an[i]);
    }
}

static void test_vector_kernel_needs_the_compiled_alignment(void)
{
    /* without compiling, pad 1 breaks the 16-byte loads the pad-0 build has: not priceable */
    struct smem_analyze_options o;
    struct smem_analysis *an = analyse(ADV_DIR "odd.cu", "vec", 32, 8, 0, &o);
    if (!an) {
        CHECK(no_nvcc);
        return;
    }
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    ad.source = ADV_DIR "odd.cu";
    ad.analyze = &o;
    ad.compile_check = 0;
    struct smem_advice *adv = NULL;
    struct smem_error err;
    CHECK(!smem_advise_kernel(an, &an->kernels[0], &ad, &adv, &err));
    if (adv && adv->narrays == 1) {
        const struct smem_advise_array *ar = &adv->arrays[0];
        CHECK(!ar->pads[1].valid);
        CHECK(strstr(ar->pads[1].why, "misaligned") != NULL);
        CHECK(!ar->pads[1].compiled && ar->pads[4].compiled);
        CHECK(ar->pads[4].valid);
        CHECK_EQ(adv->compiles, 0);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

static void test_flat_indexing_fails_the_proof_and_every_pad_is_compiled(void)
{
    struct smem_analyze_options o;
    struct smem_analysis *an = analyse(ADV_DIR "flat.cu", "flat", 32, 32, 0, &o);
    if (!an) {
        CHECK(no_nvcc);
        return;
    }
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    ad.source = ADV_DIR "flat.cu";
    ad.analyze = &o;
    ad.max_pad = 3; /* keep the compiles few */
    struct smem_advice *adv = NULL;
    struct smem_error err;
    CHECK(!smem_advise_kernel(an, &an->kernels[0], &ad, &adv, &err));
    CHECK(adv && adv->narrays == 1);
    if (adv && adv->narrays == 1) {
        const struct smem_advise_array *ar = &adv->arrays[0];
        CHECK_EQ(adv->compiles, 3);     /* pad 1 (the proof), then pads 2 and 3 */
        CHECK_EQ(ar->best_pad, 0);      /* no pad moves a flat index */
        for (unsigned p = 1; p < ar->npads; p++) {
            CHECK(ar->pads[p].compiled);
            CHECK_EQ(ar->pads[p].wavefronts, ar->before.wavefronts);
        }
        CHECK(strstr(ar->note, "every pad was compiled") != NULL);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

/* A wmma tile (one pointer and a leading dimension) gets no swizzle: it could not be written.
 * The analysis sees its LDSM conflicts (64 x 64 halves: 128-byte rows, 8-way). */
static void test_wmma_tile_gets_no_swizzle(void)
{
    struct smem_analyze_options o;
    struct smem_analysis *an = analyse(ADV_DIR "wmma_tile.cu", "wmma_tile", 128, 1, 0, &o);
    if (!an) {
        CHECK(no_nvcc);
        return;
    }
    CHECK_EQ(an->kernels[0].ldsm.requests, 32);
    CHECK_EQ(an->kernels[0].ldsm.wavefronts, 1024); /* 8 a matrix, 4 matrices, 32 LDSM */
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    ad.source = ADV_DIR "wmma_tile.cu";
    ad.analyze = &o;
    ad.max_pad = 2;
    struct smem_advice *adv = NULL;
    struct smem_error err;
    CHECK(!smem_advise_kernel(an, &an->kernels[0], &ad, &adv, &err));
    CHECK(adv && adv->narrays == 2);
    for (unsigned i = 0; adv && i < adv->narrays; i++) {
        const struct smem_advise_array *ar = &adv->arrays[i];
        CHECK_EQ(ar->nswizzles, 0);
        CHECK_EQ(ar->ntmas, 0); /* nor a swizzle mode */
        CHECK(!ar->best_is_swizzle);
        CHECK(strstr(ar->note, "no swizzle: wmma") != NULL);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

/* ---- Hopper's swizzle modes ----------------------------------------------------------------- */

/* tests/advise/hopper.cu: a 64 x 64 half tile read by ldmatrix.x4 down 128-byte rows (8-way).
 * advise proposes CU_TENSOR_MAP_SWIZZLE_128B, priced on the recorded run; the same kernel written
 * for that layout (stage_ldsm_128b), analysed as code, costs exactly what it predicts. A tile a
 * TMA copy writes from a host-built map cannot be re-analysed: advise says so. */
static void test_hopper_mode_is_proposed_and_proven(void)
{
    const char *path = ADV_DIR "hopper.cu";
    struct smem_analysis *an;
    struct smem_advice *adv = advise(path, "stage_ldsm", 128, 1, 0, 0, &an);
    if (!an) {
        CHECK(no_nvcc);
        return;
    }
    CHECK(adv && adv->narrays == 1);
    if (!adv || adv->narrays != 1) {
        smem_advice_free(adv);
        smem_analysis_free(an);
        return;
    }
    const struct smem_advise_array *ar = &adv->arrays[0];
    uint32_t ld = line_of(path, "ldmatrix.sync.aligned"), st = line_of(path, "*(uint4 *)&tile");
    CHECK_EQ(ar->before.wavefronts, 576); /* 16 ldmatrix.x4 x 32 (8-way) + 16 st.v4 x 4 */
    CHECK_EQ(ar->before.ideal, 128);
    CHECK_EQ(ar->ntmas, 3);
    CHECK(ar->best_tma == 0);
    const struct smem_advise_candidate *t = ar->ntmas ? &ar->tmas[ar->best_tma] : NULL;
    CHECK(t && t->layout.kind == SMEM_LAYOUT_TMA && t->layout.tma == 3);
    if (t) {
        CHECK_EQ(t->wavefronts, 128);
        CHECK_EQ(t->extra_bytes, 0);
        CHECK(strstr(t->code, "CU_TENSOR_MAP_SWIZZLE_128B, boxDim {64, 64}") != NULL);
        CHECK(strstr(t->code, "tile[r][c ^ ((r & 7) << 3)]") != NULL);
        uint64_t ld_wf = 0, st_wf = 0;
        for (uint32_t i = 0; i < t->nsites; i++) {
            int at_ld = t->sites[i].line + 2 >= ld && t->sites[i].line <= ld + 2; /* the asm's lines */
            ld_wf += at_ld ? t->sites[i].wavefronts : 0;
            st_wf += t->sites[i].line == st ? t->sites[i].wavefronts : 0;
        }
        CHECK_EQ(ld_wf, 64);
        CHECK_EQ(st_wf, 64);
        /* the narrower modes split a row into boxes: 64B 192, 32B 320 */
        for (uint32_t i = 1; i < ar->ntmas; i++)
            CHECK_EQ(ar->tmas[i].wavefronts, ar->tmas[i].layout.tma == 2 ? 192u : 320u);
        /* the layout written as code and analysed: exactly the prediction */
        struct smem_analyze_options o;
        struct smem_analysis *an2 = analyse(path, "stage_ldsm_128b", 128, 1, 0, &o);
        CHECK(an2 != NULL);
        if (an2) {
            const struct smem_kernel_report *k = &an2->kernels[0];
            CHECK_EQ(k->ldsm.wavefronts, ld_wf);
            CHECK_EQ(k->st.wavefronts, st_wf);
            CHECK_EQ(k->ldsm.wavefronts + k->st.wavefronts, t->wavefronts);
            smem_analysis_free(an2);
        }
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
    /* the TMA-written tile: the run stops at the copy, nothing to prove */
    adv = advise(path, "tma_ldsm", 128, 1, 0, 0, &an);
    CHECK(adv != NULL);
    if (adv) {
        uint32_t at = line_of(path, "asm volatile(\"cp.async.bulk.tensor");
        CHECK(adv->tma_line >= at && adv->tma_line <= at + 2); /* the statement's lines */
        CHECK(adv->tma_stopped);
        CHECK(!adv->complete);
        CHECK_EQ(adv->narrays, 0);
    }
    smem_advice_free(adv);
    smem_analysis_free(an);
}

/* The H200's count of launch `launch`'s metric in tests/run/h200-tma-ldsm.txt, -1 if absent. */
static long long h200_tma_ldsm(unsigned launch, const char *metric)
{
    char *t = test_read_file(SMEMLAB_SOURCE_DIR "/tests/run/h200-tma-ldsm.txt", NULL);
    long long v = -1;
    char head[16];
    snprintf(head, sizeof head, "\"%u\",", launch);
    for (char *ln = t ? strtok(t, "\n") : NULL; ln; ln = strtok(NULL, "\n")) {
        char *m = strstr(ln, metric), *last = strrchr(ln, ',');
        if (!strncmp(ln, head, strlen(head)) && m && m[-1] == '"' && last)
            v = atoll(last + 2);
    }
    free(t);
    return v;
}

/* The proposal carried out with a real TMA copy (tests/run/tma_ldsm.cu: the map built by the host,
 * SWIZZLE_NONE then SWIZZLE_128B with the reads XORed as advise wrote them), run whole: the same
 * fragments both ways, and ldmatrix priced as advise predicted for hopper.cu's tile (512 -> 64),
 * which is what the H200 counted (tests/run/h200-tma-ldsm.txt: the same program, its PASS too). */
static void test_hopper_proposal_runs(void)
{
    char bin[900], cmd[4096], json[1000];
    snprintf(bin, sizeof bin, "%s/tests/advise_hopper", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    snprintf(cmd, sizeof cmd,
             "nvcc -cudart shared -gencode arch=compute_90a,code=[sm_90a,compute_90a] -O2 -lineinfo "
             "%s/tests/run/tma_ldsm.cu -o %s/tma_ldsm > %s/tma_ldsm.log 2>&1",
             SMEMLAB_SOURCE_DIR, bin, bin);
    if (test_sh(cmd)) {
        CHECK(no_nvcc);
        return;
    }
    snprintf(json, sizeof json, "%s/tma_ldsm.json", bin);
    char opts[1300], *o, *e;
    snprintf(opts, sizeof opts, "--format json -o %s", json);
    CHECK_EQ(test_smemlab_run(SMEMLAB_BINARY_DIR "/smemlab", bin, opts, "tma_ldsm", "", &o, &e), 0);
    EXPECT_IN(o, "fragments: 0 differ between the layouts, 0 differ from the tile\nPASS\n");
    free(o);
    free(e);
    struct smem_error err;
    struct smem_json *js = smem_json_load(json, &err);
    CHECK(js != NULL);
    if (!js)
        return;
    const struct smem_json *ls = smem_json_get(js, "launches");
    CHECK_EQ(smem_json_len(ls), 2u);
    static const double want[2] = {512, 64}; /* advise on hopper.cu: line 37 ldsm, before / 128B */
    for (unsigned i = 0; i < 2 && i < smem_json_len(ls); i++) {
        const struct smem_json *l = smem_json_get(smem_json_at(ls, i), "shared_ldsm");
        CHECK_EQ(smem_json_num(l, "requests", -1), 16);
        CHECK_EQ(smem_json_num(l, "wavefronts", -1), want[i]);
        CHECK_EQ(smem_json_num(l, "ideal_wavefronts", -1), 64);
        CHECK_EQ(smem_json_num(l, "requests", -1), h200_tma_ldsm(i, "smsp__inst_executed_op_ldsm.sum"));
        CHECK_EQ(smem_json_num(l, "wavefronts", -1),
                 h200_tma_ldsm(i, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"));
    }
    char *hw = test_read_file(SMEMLAB_SOURCE_DIR "/tests/run/h200-tma-ldsm.txt", NULL);
    CHECK(hw && strstr(hw, "\nfragments: 0 differ between the layouts, 0 differ from the tile\nPASS\n"));
    free(hw);
    smem_json_free(js);
}

int main(int argc, char **argv)
{
    int pads = argc > 1 && !strcmp(argv[1], "pads");
    if (!pads) {
        RUN(test_constants_macros_constexpr_enum_and_D_args);
        RUN(test_declarations_are_found_with_their_function);
        RUN(test_pad_text_keeps_the_expression);
        RUN(test_source_names_come_from_the_mangling);
        RUN(test_swizzle_is_cutes_formula);
        RUN(test_col_expr_reads_like_the_documents);
        RUN(test_rect_best_pad_is_2_not_1);
        RUN(test_square_best_pad_is_1_and_swizzle_is_c_xor_r);
        RUN(test_no_conflict_means_nothing_to_change);
        RUN(test_extern_array_needs_row_and_is_not_patched);
        RUN(test_vector_kernel_needs_the_compiled_alignment);
        RUN(test_flat_indexing_fails_the_proof_and_every_pad_is_compiled);
        RUN(test_wmma_tile_gets_no_swizzle);
        RUN(test_hopper_mode_is_proposed_and_proven);
        RUN(test_hopper_proposal_runs);
    } else {
        RUN(test_every_pad_compiled_matches_the_prediction);
    }
    int rc = CHECK_DONE();
    if (no_nvcc && !rc) {
        printf("nvcc cannot run: the tests that compile CUDA were skipped\n");
        return 77;
    }
    return rc;
}
