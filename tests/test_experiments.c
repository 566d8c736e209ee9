/* test_experiments.c: the experiment registry agrees with kernels/ (names, argument counts), with
 * tests/hw (every named H100 counterpart exists), and its CPU references say what the documents say. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/lab/experiments.h"

#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>

/* Reads kernels/FILE into a malloc'd string (NULL when unreadable). */
static char *read_kernel_file(const char *file)
{
    char path[512];
    snprintf(path, sizeof path, "%s/kernels/%s", SMEMLAB_SOURCE_DIR, file);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = malloc(1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    fclose(f);
    if (buf)
        buf[n] = 0;
    return buf;
}

/* Number of parameters of kernel `name` in src, found as `void name(` after extern "C" __global__
 * (directly or through a macro whose argument is the name's suffix), or -1 when absent. */
static int kernel_params(const char *src, const char *name)
{
    char pat[160];
    snprintf(pat, sizeof pat, "void %s(", name);
    const char *p = strstr(src, pat);
    if (!p)
        return -1;
    p += strlen(pat);
    int n = 1, depth = 0;
    for (; *p && !(*p == ')' && depth == 0); p++) {
        if (*p == '(')
            depth++;
        else if (*p == ')')
            depth--;
        else if (*p == ',' && depth == 0)
            n++;
    }
    return n;
}

/* Macro-generated kernels (PATTERN(name, ...), PROBE32(n), SCALE_TILE(name, ...), RECT_PAD(n)):
 * the generator's parameter count, when the macro call for this kernel is present. */
static int macro_kernel_params(const char *src, const char *kernel)
{
    static const struct {
        const char *prefix, *macro, *close;
    } gens[] = {
        {"", "PATTERN(", ","},
        {"", "POINT_PATTERN(", ","},
        {"", "SCALE_TILE(", ","},
        {"smemRead32_way", "PROBE32(", ")"},
        {"smemRead128_way", "PROBE128(", ")"},
        {"setRowReadColPad", "RECT_PAD(", ")"},
        {"setRowReadColDynPad", "RECT_DYNPAD(", ")"},
    };
    for (size_t g = 0; g < sizeof gens / sizeof gens[0]; g++) {
        size_t pl = strlen(gens[g].prefix);
        if (strncmp(kernel, gens[g].prefix, pl))
            continue;
        char call[200];
        snprintf(call, sizeof call, "%s%s%s", gens[g].macro, kernel + pl, gens[g].close);
        if (!strstr(src, call))
            continue;
        /* The generator's own signature: `void NAME##...(` inside the macro body. */
        const char *def = strstr(src, "#define ");
        while (def && strncmp(def + 8, gens[g].macro, strlen(gens[g].macro)))
            def = strstr(def + 8, "#define ");
        if (!def)
            return -1;
        const char *v = strstr(def, "void ");
        const char *open = v ? strchr(v, '(') : NULL;
        if (!open)
            return -1;
        int n = 1, depth = 0;
        for (const char *p = open + 1; *p && !(*p == ')' && depth == 0); p++) {
            if (*p == '(')
                depth++;
            else if (*p == ')')
                depth--;
            else if (*p == ',' && depth == 0)
                n++;
        }
        return n;
    }
    return -1;
}

static void test_every_experiment_names_a_kernel_with_its_arguments(void)
{
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        char *src = read_kernel_file(e->file);
        CHECK(src != NULL);
        if (!src)
            continue;
        int n = kernel_params(src, e->kernel);
        if (n < 0)
            n = macro_kernel_params(src, e->kernel);
        if (n != (int)e->nargs)
            fprintf(stderr, "%s: kernel has %d parameters, registry %u\n", e->name, n, e->nargs);
        CHECK_EQ(n, e->nargs);
        /* The name is "<file stem>/<kernel>". */
        char want[200];
        snprintf(want, sizeof want, "%.*s/%s", (int)(strlen(e->file) - 3), e->file, e->kernel);
        CHECK_STR(e->name, want);
        free(src);
    }
}

static void test_names_are_unique_and_links_resolve(void)
{
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        CHECK(smem_experiment_find(e->name) == e);
        CHECK(e->row >= 1 && e->row <= 21);
        CHECK(e->reference != NULL || e->check != NULL);
        if (e->scale) {
            const struct smem_experiment *s = smem_experiment_find(e->scale);
            CHECK(s != NULL && s->role == SMEM_EXP_SCALE);
        }
        if (e->role == SMEM_EXP_SCALE)
            CHECK(e->smem_bytes > 0);
    }
    CHECK(smem_experiment_find("no/such") == NULL);
    CHECK_EQ(smem_exp_row_count(), 21);
}

static void test_every_row_but_6_and_7_has_a_kernel(void)
{
    for (size_t r = 0; r < smem_exp_row_count(); r++) {
        unsigned row = smem_exp_row_at(r)->row, n = 0;
        for (size_t i = 0; i < smem_experiment_count(); i++)
            n += (unsigned)smem_experiment_in_row(smem_experiment_at(i), row);
        if (row != 6)
            CHECK(n > 0);
    }
}

/* Every named counterpart is a row of tests/hw/h100-counters.csv with the same launch. */
static void test_hw_counterparts_exist(void)
{
    unsigned named = 0;
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (!e->hw_section)
            continue;
        named++;
        CHECK(hw_value("h100-counters.csv", e->hw_section, e->hw_kernel, "ld_inst") >= 0);
    }
    /* A 6 + B 8 + C 46 + D 3 + E 2 = 65 rows, plus the file-scope kernel compared with A's. */
    CHECK_EQ(named, 66);
}

/* Runs the reference on fresh inputs, then checks that verify accepts it and rejects a result
 * with one element changed. */
static void test_references_accept_themselves_and_reject_one_wrong_element(void)
{
    uint64_t rng = 12345;
    char why[256];
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (!e->reference)
            continue;
        struct smem_exp_data in, got;
        CHECK(smem_exp_data_alloc(e, &in) == 0);
        CHECK(smem_exp_data_alloc(e, &got) == 0);
        smem_exp_fill_inputs(e, &in, &rng);
        smem_exp_data_copy(e, &got, &in);
        CHECK(e->reference(e, &got) == 0);
        const char *v = smem_exp_verify(e, &in, &got, why, sizeof why);
        if (v)
            fprintf(stderr, "%s\n", v);
        CHECK(v == NULL);
        /* A poisoned output must fail: the untouched inputs are not the answer. */
        for (unsigned a = 0; a < e->nargs; a++)
            if (e->args[a].kind == SMEM_ARG_BUFFER && e->args[a].output) {
                unsigned char *p = got.bufs[a];
                size_t last = (size_t)smem_exp_arg_bytes(&e->args[a]) - 1;
                p[last] ^= 0x40;
                CHECK(smem_exp_verify(e, &in, &got, why, sizeof why) != NULL);
                p[last] ^= 0x40;
            }
        smem_exp_data_free(e, &in);
        smem_exp_data_free(e, &got);
    }
}

static void test_square_transpose_reads_the_column(void)
{
    const struct smem_experiment *e = smem_experiment_find("square/setRowReadCol");
    CHECK(e != NULL);
    if (!e)
        return;
    struct smem_exp_data d;
    uint64_t rng = 1;
    CHECK(smem_exp_data_alloc(e, &d) == 0);
    smem_exp_fill_inputs(e, &d, &rng);
    CHECK(e->reference(e, &d) == 0);
    const int32_t *out = d.bufs[0];
    CHECK_EQ(out[0 * 32 + 1], 32);     /* thread (1, 0) reads tile[1][0] = 32 */
    CHECK_EQ(out[5 * 32 + 2], 2 * 32 + 5);
    smem_exp_data_free(e, &d);
}

/* Every rectangle transpose, padded or not, static or dynamic, gives the same output. */
static void test_rect_transposes_agree(void)
{
    const char *names[] = {"rect/setRowReadCol", "rect/setRowReadColDyn", "rect/setRowReadColPad1",
                           "rect/setRowReadColPad2", "rect/setRowReadColDynPad1",
                           "rect/setRowReadColDynPad2"};
    int32_t first[512];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        const struct smem_experiment *e = smem_experiment_find(names[i]);
        CHECK(e != NULL);
        if (!e)
            continue;
        struct smem_exp_data d;
        uint64_t rng = 7;
        CHECK(smem_exp_data_alloc(e, &d) == 0);
        smem_exp_fill_inputs(e, &d, &rng);
        CHECK(e->reference(e, &d) == 0);
        if (i == 0)
            memcpy(first, d.bufs[0], sizeof first);
        else
            CHECK(memcmp(first, d.bufs[0], sizeof first) == 0);
        smem_exp_data_free(e, &d);
    }
    /* idx 1 = (irow 0, icol 1): tile[1][0] holds idx 32. */
    CHECK_EQ(first[1], 32);
}

static void test_checks_reject_impossible_race_results(void)
{
    char why[256];
    const struct smem_experiment *e = smem_experiment_find("hazards/Racey");
    struct smem_exp_data d;
    uint64_t rng = 3;
    CHECK(e && smem_exp_data_alloc(e, &d) == 0);
    if (!e)
        return;
    smem_exp_fill_inputs(e, &d, &rng);
    ((int32_t *)d.bufs[0])[0] = 1023;
    CHECK(smem_exp_verify(e, &d, &d, why, sizeof why) == NULL);
    ((int32_t *)d.bufs[0])[0] = 1024;
    CHECK(smem_exp_verify(e, &d, &d, why, sizeof why) != NULL);
    smem_exp_data_free(e, &d);
}

static void test_atomic_count_is_2048(void)
{
    const struct smem_experiment *e = smem_experiment_find("hazards/AtomicAdd");
    struct smem_exp_data d;
    uint64_t rng = 3;
    CHECK(e && smem_exp_data_alloc(e, &d) == 0);
    if (!e)
        return;
    smem_exp_fill_inputs(e, &d, &rng);
    CHECK(e->reference(e, &d) == 0);
    CHECK_EQ(((int32_t *)d.bufs[0])[0], 2048);
    smem_exp_data_free(e, &d);
}

int main(void)
{
    RUN(test_every_experiment_names_a_kernel_with_its_arguments);
    RUN(test_names_are_unique_and_links_resolve);
    RUN(test_every_row_but_6_and_7_has_a_kernel);
    RUN(test_hw_counterparts_exist);
    RUN(test_references_accept_themselves_and_reject_one_wrong_element);
    RUN(test_square_transpose_reads_the_column);
    RUN(test_rect_transposes_agree);
    RUN(test_checks_reject_impossible_race_results);
    RUN(test_atomic_count_is_2048);
    return CHECK_DONE();
}
