/* test_hazards_cu.c: the hazard kernels of tests/hazards/, compiled by nvcc and emulated: the verdict
 * (set of hazard kinds) of every case in tests/hazards/cases.txt, held against compute-sanitizer's
 * on an H100 (tests/hazards/sanitizer-h100.tsv), then the details the documents' kernels should
 * show (which lines, which variable, which barrier). Exits 77 without nvcc. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "check.h"
#include "smemlab/analysis/analyze.h"

#define DIR SMEMLAB_SOURCE_DIR "/tests/hazards/"

static int have_nvcc(void)
{
    const char *nvcc = getenv("SMEMLAB_NVCC");
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "'%s' --version >/dev/null 2>&1", nvcc && *nvcc ? nvcc : "nvcc");
    return system(cmd) == 0;
}

/* The PTX of each file, compiled once (nvcc takes most of the test's time), with the preprocessed
 * source that names the kernels' parameters for --param. */
static struct {
    char path[512];
    char *ptx, *pp;
    size_t len, pp_len;
} cache[16];

/* The PTX of path; o->preprocessed set to its preprocessed source. */
static const char *ptx_of(const char *path, struct smem_analyze_options *o, size_t *len,
                          struct smem_error *err)
{
    unsigned i;
    for (i = 0; i < 16 && cache[i].ptx; i++)
        if (!strcmp(cache[i].path, path)) {
            *len = cache[i].len;
            o->preprocessed = cache[i].pp;
            o->preprocessed_len = cache[i].pp_len;
            return cache[i].ptx;
        }
    char *pp = NULL;
    size_t pp_len = 0;
    char *ptx = smem_compile_cu_pp(path, o, len, &pp, &pp_len, err);
    if (ptx && i < 16) {
        snprintf(cache[i].path, sizeof cache[i].path, "%s", path);
        cache[i].ptx = ptx;
        cache[i].len = *len;
        cache[i].pp = pp;
        cache[i].pp_len = pp_len;
    }
    o->preprocessed = pp;
    o->preprocessed_len = pp_len;
    return ptx; /* (a 17th file would leak its PTX: there are 11) */
}

static void free_cache(void)
{
    for (unsigned i = 0; i < 16; i++) {
        free(cache[i].ptx);
        free(cache[i].pp);
    }
}

static int parse_dims(const char *s, unsigned d[3])
{
    d[0] = d[1] = d[2] = 1;
    return sscanf(s, "%u,%u,%u", &d[0], &d[1], &d[2]) >= 1 ? 0 : -1;
}

/* Analyses one kernel of tests/hazards/FILE; params "a=1,b=2" or "-". NULL (and a message) on
 * failure. */
static struct smem_analysis *analyze(const char *file, const char *kernel, const char *block,
                                     const char *grid, uint32_t dyn, const char *params)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = kernel;
    o.hazards = 1;
    o.dyn_smem = dyn;
    parse_dims(block, o.block);
    parse_dims(grid, o.grid);
    char pbuf[256];
    char *pnames[8];
    struct smem_param_arg pa[8];
    unsigned np = 0;
    snprintf(pbuf, sizeof pbuf, "%s", params);
    if (strcmp(pbuf, "-"))
        for (char *tok = strtok(pbuf, ","); tok && np < 8; tok = strtok(NULL, ",")) {
            char *eq = strchr(tok, '=');
            if (!eq)
                continue;
            *eq = 0;
            pnames[np] = tok;
            pa[np].name = pnames[np];
            pa[np].value = eq + 1;
            np++;
        }
    o.params = pa;
    o.nparams = np;
    char path[512];
    snprintf(path, sizeof path, DIR "%s", file);
    struct smem_analysis *an = NULL;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    size_t len = 0;
    const char *ptx = ptx_of(path, &o, &len, &err);
    if (!ptx || smem_analyze_ptx(ptx, len, "<nvcc output>", path, &o, &an, &err)) {
        char buf[1200];
        fprintf(stderr, "%s %s: %s\n", file, kernel, smem_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    if (an->nkernels != 1) {
        fprintf(stderr, "%s %s: %u kernels matched\n", file, kernel, an->nkernels);
        smem_analysis_free(an);
        return NULL;
    }
    return an;
}

/* "race,oob" etc. as a bit set of enum smem_hazard_kind; "none" is 0. */
static unsigned kinds_of_text(const char *s)
{
    unsigned m = 0;
    if (strstr(s, "race"))
        m |= 1u << SMEM_HAZARD_RACE;
    if (strstr(s, "barrier"))
        m |= 1u << SMEM_HAZARD_BARRIER;
    if (strstr(s, "oob"))
        m |= 1u << SMEM_HAZARD_OOB;
    return m;
}

static unsigned kinds_of(const struct smem_kernel_report *k)
{
    unsigned m = 0;
    for (uint32_t i = 0; i < k->nhazards; i++)
        m |= 1u << k->hazards[i].kind;
    return m;
}

/* The line of FILE that carries the marker "@tag" (0 if none). */
static uint32_t line_of(const char *file, const char *tag)
{
    char path[512], buf[1024], want[64];
    snprintf(path, sizeof path, DIR "%s", file);
    snprintf(want, sizeof want, "@%s", tag);
    FILE *f = fopen(path, "r");
    uint32_t n = 0, found = 0;
    while (f && fgets(buf, sizeof buf, f)) {
        n++;
        char *p = strstr(buf, want);
        if (p && !(p[strlen(want)] == '-' || (p[strlen(want)] >= 'a' && p[strlen(want)] <= 'z'))) {
            found = n;
            break;
        }
    }
    if (f)
        fclose(f);
    if (!found)
        fprintf(stderr, "no marker @%s in %s\n", tag, file);
    return found;
}

static const struct smem_hazard *find(const struct smem_kernel_report *k, const char *kind,
                                      const char *detail, uint32_t l0, uint32_t l1)
{
    for (uint32_t i = 0; i < k->nhazards; i++) {
        const struct smem_hazard *z = &k->hazards[i];
        if (!strcmp(smem_hazard_kind_name(z->kind), kind) && !strcmp(z->detail, detail) &&
            z->lines[0] == l0 && z->lines[1] == l1)
            return z;
    }
    fprintf(stderr, "%s: no %s (%s) hazard at lines %u, %u; found:\n", k->name, kind, detail, l0, l1);
    for (uint32_t i = 0; i < k->nhazards; i++)
        fprintf(stderr, "  %s (%s) %u %u\n", smem_hazard_kind_name(k->hazards[i].kind),
                k->hazards[i].detail, k->hazards[i].lines[0], k->hazards[i].lines[1]);
    return NULL;
}

/* ---- every case of cases.txt ------------------------------------------------------------------ */

/* The verdict column of tests/hazards/sanitizer-h100.tsv for a case (static buffer), or NULL. */
static const char *sanitizer_verdict(const char *name)
{
    static char verdict[64];
    FILE *f = fopen(DIR "sanitizer-h100.tsv", "r");
    char line[1024];
    const char *r = NULL;
    while (f && !r && fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *tab = strchr(line, '\t'), *last = strrchr(line, '\t');
        if (!tab || (size_t)(tab - line) != strlen(name) || strncmp(line, name, strlen(name)))
            continue;
        snprintf(verdict, sizeof verdict, "%.*s", (int)strcspn(last + 1, "\r\n"), last + 1);
        r = verdict;
    }
    if (f)
        fclose(f);
    return r;
}

static void test_every_case_gets_its_expected_verdict(void)
{
    FILE *f = fopen(DIR "cases.txt", "r");
    CHECK(f != NULL);
    if (!f)
        return;
    char line[512];
    int ncases = 0;
    while (fgets(line, sizeof line, f)) {
        char file[64], kernel[64], name[64], block[32], grid[32], params[128], expect[32], san[32];
        unsigned dyn;
        if (line[0] == '#' ||
            sscanf(line, "%63s %63s %63s %31s %31s %u %127s %31s %31s", file, kernel, name, block,
                   grid, &dyn, params, expect, san) != 9)
            continue;
        ncases++;
        struct smem_analysis *an = analyze(file, kernel, block, grid, dyn, params);
        CHECK(an != NULL);
        if (!an)
            continue;
        const struct smem_kernel_report *k = &an->kernels[0];
        CHECK(k->complete);
        unsigned got = kinds_of(k), want = kinds_of_text(expect);
        if (got != want) {
            fprintf(stderr, "case %s (%s %s): expected %s, got", name, file, kernel, expect);
            for (uint32_t i = 0; i < k->nhazards; i++)
                fprintf(stderr, " %s(%s)", smem_hazard_kind_name(k->hazards[i].kind),
                        k->hazards[i].detail);
            fprintf(stderr, "%s\n", k->nhazards ? "" : " none");
        }
        CHECK_EQ(got, want);
        /* compute-sanitizer's measured verdict: the same but for barriers (there we say more) */
        const char *measured = sanitizer_verdict(name);
        CHECK(measured != NULL);
        if (measured) {
            CHECK_STR(measured, san); /* cases.txt copies the measurement faithfully */
            unsigned bar = 1u << SMEM_HAZARD_BARRIER;
            if ((got & ~bar) != (kinds_of_text(measured) & ~bar))
                fprintf(stderr, "case %s: compute-sanitizer said %s\n", name, measured);
            CHECK_EQ(got & ~bar, kinds_of_text(measured) & ~bar);
            if (kinds_of_text(measured) & bar)
                CHECK(got & bar); /* where synccheck saw a barrier problem, so do we */
        }
        smem_analysis_free(an);
    }
    fclose(f);
    CHECK(ncases >= 30);
}

/* ---- the documents' kernels, in detail ------------------------------------------------------- */

static void test_racey_as_nvcc_compiles_it_has_no_shared_access(void)
{
    /* nvcc forwards threadIdx.x to the global store and drops i: nothing left to race on */
    struct smem_analysis *an = analyze("racey.cu", "Racey", "1024", "1", 0, "-");
    CHECK(an != NULL);
    if (!an)
        return;
    CHECK_EQ(an->kernels[0].nsites, 0);
    CHECK_EQ(an->kernels[0].nhazards, 0);
    smem_analysis_free(an);
}

static void test_racey_volatile_is_a_write_write_race_on_i(void)
{
    struct smem_analysis *an = analyze("racey.cu", "RaceyVolatile", "1024", "1", 0, "-");
    CHECK(an != NULL);
    if (!an)
        return;
    const struct smem_kernel_report *k = &an->kernels[0];
    uint32_t st = line_of("racey.cu", "racey-vstore"), ld = line_of("racey.cu", "racey-vload");
    const struct smem_hazard *z = find(k, "race", "write-write", st, st);
    CHECK(z != NULL);
    if (z) {
        CHECK_STR(z->var, "i");
        CHECK_EQ(z->address, 0);
        CHECK_EQ(z->count, 1023); /* every store but the first overwrites another thread's */
    }
    CHECK(find(k, "race", "write-read", st, ld) != NULL);
    smem_analysis_free(an);
}

static void test_read_modify_write_increment_races(void)
{
    struct smem_analysis *an = analyze("rmw.cu", "rmwIncrement", "100", "1", 0, "-");
    CHECK(an != NULL);
    if (!an)
        return;
    uint32_t l = line_of("rmw.cu", "rmw-inc");
    const struct smem_kernel_report *k = &an->kernels[0];
    CHECK(find(k, "race", "write-write", l, l) != NULL);
    CHECK(find(k, "race", "read-write", l, l) != NULL);
    smem_analysis_free(an);
}

static void test_reverse_without_barrier_races_store_with_load(void)
{
    struct smem_analysis *an = analyze("reverse.cu", "reverseNoSync", "64", "1", 0, "n=64");
    CHECK(an != NULL);
    if (!an)
        return;
    uint32_t st = line_of("reverse.cu", "rev-store"), ld = line_of("reverse.cu", "rev-load");
    const struct smem_kernel_report *k = &an->kernels[0];
    CHECK_EQ(k->nhazards, 2);
    /* warp 0 runs first in the emulator: it reads s[63..32] before warp 1 writes them, and writes
     * s[0..31] before warp 1 reads them */
    CHECK(find(k, "race", "read-write", ld, st) != NULL);
    const struct smem_hazard *z = find(k, "race", "write-read", st, ld);
    CHECK(z != NULL);
    if (z)
        CHECK_STR(z->var, "s");
    smem_analysis_free(an);
}

static void test_unrolled_warp_reduction_races_without_syncwarp(void)
{
    struct smem_analysis *an = analyze("warpreduce.cu", "reduceWarpNoSync", "256", "1", 0, "-");
    CHECK(an != NULL);
    if (!an)
        return;
    /* lane 16 adds into s[16] (line @wr-32) while lane 0 reads s[16] (line @wr-16) */
    uint32_t l32 = line_of("warpreduce.cu", "wr-32"), l16 = line_of("warpreduce.cu", "wr-16");
    const struct smem_hazard *z = find(&an->kernels[0], "race", "write-read", l32, l16);
    CHECK(z != NULL);
    if (z) {
        CHECK_EQ(z->address, 16 * 4);
        CHECK_EQ(z->count, 16);
    }
    for (uint32_t i = 0; i < an->kernels[0].nhazards; i++)
        CHECK(an->kernels[0].hazards[i].kind == SMEM_HAZARD_RACE);
    smem_analysis_free(an);
}

static void test_transpose_barrier_inside_bounds_check(void)
{
    /* 40x40 on a 2x2 grid of 32x32 tiles: three edge blocks have threads outside the matrix */
    struct smem_analysis *an = analyze("transpose.cu", "transposeBoundsSync", "32,32", "2,2", 0,
                                       "width=40,height=40");
    CHECK(an != NULL);
    if (!an)
        return;
    const struct smem_kernel_report *k = &an->kernels[0];
    uint32_t l = line_of("transpose.cu", "tr-sync");
    CHECK_EQ(k->nhazards, 1);
    const struct smem_hazard *z = find(k, "barrier", "exit-while-waiting", l, l);
    CHECK(z != NULL);
    if (z)
        CHECK_EQ(z->count, 3);
    smem_analysis_free(an);
    /* the same kernel with the matrix a multiple of the tile: every thread reaches the barrier */
    an = analyze("transpose.cu", "transposeBoundsSync", "32,32", "2,2", 0, "width=64,height=64");
    CHECK(an != NULL);
    if (an) {
        CHECK_EQ(an->kernels[0].nhazards, 0);
        smem_analysis_free(an);
    }
}

static void test_divergent_barriers_name_their_lines(void)
{
    struct smem_analysis *an = analyze("barrier.cu", "barrierLaneDivergent", "64", "1", 0, "-");
    CHECK(an != NULL);
    if (an) {
        uint32_t l = line_of("barrier.cu", "bar-lane");
        CHECK(find(&an->kernels[0], "barrier", "exit-while-waiting", l, l) != NULL);
        CHECK_EQ(an->kernels[0].nhazards, 1);
        smem_analysis_free(an);
    }
    an = analyze("barrier.cu", "barrierTwoSites", "64", "1", 0, "-");
    CHECK(an != NULL);
    if (an) {
        uint32_t l0 = line_of("barrier.cu", "bar-first"), l1 = line_of("barrier.cu", "bar-second");
        CHECK(find(&an->kernels[0], "barrier", "divergent", l0, l1) != NULL);
        CHECK_EQ(an->kernels[0].nhazards, 1);
        smem_analysis_free(an);
    }
}

static void test_out_of_bounds_names_the_variable(void)
{
    struct smem_analysis *an = analyze("oob.cu", "oobStaticOne", "32", "1", 0, "-");
    CHECK(an != NULL);
    if (an) {
        uint32_t l = line_of("oob.cu", "oob-one");
        const struct smem_hazard *z = find(&an->kernels[0], "oob", "write", l, l);
        CHECK(z != NULL);
        if (z) {
            CHECK_EQ(z->address, 128); /* s[32]: the first byte past the 128-byte array */
            CHECK_STR(z->var, "s");
            CHECK_EQ(z->count, 1);
        }
        smem_analysis_free(an);
    }
    /* 64 floats in 128 bytes of dynamic shared memory: lanes of warp 1 write past the end */
    an = analyze("oob.cu", "oobDynamic", "64", "1", 128, "-");
    CHECK(an != NULL);
    if (an) {
        uint32_t l = line_of("oob.cu", "oob-dyn");
        const struct smem_hazard *z = find(&an->kernels[0], "oob", "write", l, l);
        CHECK(z != NULL);
        if (z) {
            CHECK_EQ(z->address, 128);
            CHECK_STR(z->var, "dyn");
            CHECK_EQ(z->count, 32);
        }
        smem_analysis_free(an);
    }
}

/* ---- the command line ------------------------------------------------------------------------ */

static int cli(const char *args)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s/smemlab' analyze %s >/dev/null 2>&1", SMEMLAB_BINARY_DIR, args);
    int st = system(cmd);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_fail_on_hazard_exits_1_only_with_a_hazard(void)
{
    CHECK_EQ(cli(DIR "reverse.cu --kernel reverseNoSync --block 64 --param n=64 --fail-on-hazard"), 1);
    CHECK_EQ(cli(DIR "reverse.cu --kernel reverseSync --block 64 --param n=64 --fail-on-hazard"), 0);
    CHECK_EQ(cli(DIR "reverse.cu --kernel reverseNoSync --block 64 --param n=64"), 0);
}

int main(void)
{
    if (!have_nvcc()) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    RUN(test_every_case_gets_its_expected_verdict);
    RUN(test_racey_as_nvcc_compiles_it_has_no_shared_access);
    RUN(test_racey_volatile_is_a_write_write_race_on_i);
    RUN(test_read_modify_write_increment_races);
    RUN(test_reverse_without_barrier_races_store_with_load);
    RUN(test_unrolled_warp_reduction_races_without_syncwarp);
    RUN(test_transpose_barrier_inside_bounds_check);
    RUN(test_divergent_barriers_name_their_lines);
    RUN(test_out_of_bounds_names_the_variable);
    RUN(test_fail_on_hazard_exits_1_only_with_a_hazard);
    free_cache();
    return CHECK_DONE();
}
