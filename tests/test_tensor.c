/* test_tensor.c: ldmatrix, stmatrix, mma.sync, mbarrier and cp.async groups under the emulator
 * (emu/cta_tensor.c), on whole programs built here with nvcc -cudart shared (skipped, exit 77,
 * without nvcc):
 *  - tests/ldsm/gemm.cu, the CuTe-style GEMMs (plain, swizzled, mbarrier), under `smemlab run`:
 *    their own check of the product passes (a double-precision CPU GEMM, relative error < 1e-5),
 *    at the measured size and another, and every launch's LDSM and LDGSTS requests and
 *    wavefronts equal what the H100 counted: tests/hw/h100-ldsm-gemm.csv (NVIDIA H100 80GB
 *    HBM3, Nsight Compute, tests/hw/ldsm/README.md); `smemlab analyze` gives the same counts;
 *  - tests/tensor/tensor_checks.cu checks ldmatrix / stmatrix fragments, mma results (exact
 *    inputs: bit for bit) and mbarrier phases against the PTX ISA on the host; a wait that cannot
 *    complete and a read of a cp.async destination before its thread's wait are reported;
 *  - tests/wmma/wmma_gemm.cu (every wmma fragment type sm_90 has) computes its exact products and
 *    counts as the H100 did (tests/hw/h100-wmma-gemm.csv);
 *  - tests/hw/mma/mma_more.cu (f64, e4m3/e5m2, s4/u4, b1 mma.sync) and mma_fp.cu (the
 *    floating-point sums of mma.sync and wmma.mma) against the H100's results
 *    (tests/hw/h100-mma-more.txt, tests/hw/h100-mma-fp.txt). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[900], smemlab[900];
static char SH[] = "sh", DASHC[] = "-c";


/* sh -c cmd with stdout and stderr into *o and *e; returns the exit status */
static int sh(const char *cmd, const char *tag, char **o, char **e)
{
    char out[1100], err[1100];
    snprintf(out, sizeof out, "%s/%s.out", bin, tag);
    snprintf(err, sizeof err, "%s/%s.err", bin, tag);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&fa, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    char *argv[] = {SH, DASHC, (char *)cmd, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "sh", &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return -1;
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    *o = test_read_file(out, NULL);
    *e = test_read_file(err, NULL);
    if (!*o)
        *o = strdup("");
    if (!*e)
        *e = strdup("");
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
}

/* builds dir/name.cu into bin/name unless it is newer than its source */
static int build(const char *dir, const char *name)
{
    char cu[1100], exe[1100], cmd[4096];
    snprintf(cu, sizeof cu, "%s/%s/%s.cu", src, dir, name);
    snprintf(exe, sizeof exe, "%s/%s", bin, name);
    struct stat sc, se;
    if (stat(exe, &se) == 0 && stat(cu, &sc) == 0 && se.st_mtime > sc.st_mtime)
        return 0;
    snprintf(cmd, sizeof cmd, "nvcc -cudart shared -arch=sm_90 -lineinfo -O3 %s -o %s", cu, exe);
    char *o, *e;
    int rc = sh(cmd, name, &o, &e);
    if (rc)
        fprintf(stderr, "%s: exit %d\n%s%s\n", cmd, rc, o, e);
    free(o);
    free(e);
    return rc;
}

/* the field of a CSV line (no quoted commas in ours) in the column named col of header hdr */
static long long csv_num(const char *hdr, const char *line, const char *col, char *text, size_t n)
{
    unsigned idx = 0;
    size_t cl = strlen(col);
    const char *h = hdr;
    for (;;) {
        if (!strncmp(h, col, cl) && (h[cl] == ',' || h[cl] == '\n' || h[cl] == '\r' || !h[cl]))
            break;
        h = strpbrk(h, ",\n");
        if (!h || *h == '\n')
            return -1;
        h++;
        idx++;
    }
    const char *p = line;
    for (unsigned i = 0; i < idx && p; i++) {
        /* a quoted field may hold commas: "(2, 2, 1)" */
        int q = 0;
        for (; *p && (q || *p != ','); p++)
            if (*p == '"')
                q = !q;
        p = *p ? p + 1 : NULL;
    }
    if (!p)
        return -1;
    if (text && n) {
        size_t k = 0;
        for (int q = 0; *p && (q || (*p != ',' && *p != '\n')); p++) {
            if (*p == '"') {
                q = !q;
                continue;
            }
            if (k + 1 < n)
                text[k++] = *p;
        }
        text[k] = 0;
        return 0;
    }
    return atoll(p);
}

static char *next_line(char *s)
{
    char *nl = strchr(s, '\n');
    return nl && nl[1] ? nl + 1 : NULL;
}

/* The H100's counts of the GEMM (tests/hw/h100-ldsm-gemm.csv) against smemlab run's CSV. */
static void test_gemm_runs_right_and_counts_as_the_h100(void)
{
    char cmd[4000], csvp[1100], hwp[1100], *o, *e;
    snprintf(csvp, sizeof csvp, "%s/gemm.csv", bin);
    snprintf(cmd, sizeof cmd, "%s run --format csv -o %s %s/gemm", smemlab, csvp, bin);
    CHECK_EQ(sh(cmd, "gemm_run", &o, &e), 0);
    EXPECT_IN(o, "gemm_plain 128x128x64 rel_err=");
    EXPECT_IN(o, "gemm_swizzled 128x128x64 rel_err=");
    EXPECT_IN(o, "gemm_mbarrier 128x128x64 rel_err=");
    CHECK(!strstr(o, "FAIL"));
    free(o);
    free(e);
    snprintf(hwp, sizeof hwp, "%s/tests/hw/h100-ldsm-gemm.csv", src);
    char *got = test_read_file(csvp, NULL), *hw = test_read_file(hwp, NULL);
    CHECK(got && hw);
    if (!got || !hw) {
        free(got);
        free(hw);
        return;
    }
    unsigned matched = 0;
    for (char *h = next_line(hw); h; h = next_line(h)) {
        char kname[128];
        csv_num(hw, h, "kernel", kname, sizeof kname);
        int found = 0;
        for (char *g = next_line(got); g; g = next_line(g)) {
            char rk[128];
            csv_num(got, g, "kernel", rk, sizeof rk);
            if (strcmp(rk, kname))
                continue;
            found = 1;
            static const char *cols[][2] = {
                {"ldsm_requests", "ldsm_requests"}, {"ldsm_wavefronts", "ldsm_wavefronts"},
                {"ldgsts_requests", "ldgsts_requests"}, {"ldgsts_wavefronts", "ldgsts_wavefronts"},
                {"shared_ld_requests", "ld_requests"}, {"shared_st_requests", "st_requests"}};
            for (unsigned c = 0; c < sizeof cols / sizeof cols[0]; c++) {
                long long want = csv_num(hw, h, cols[c][0], NULL, 0);
                long long have = csv_num(got, g, cols[c][1], NULL, 0);
                if (want != have)
                    fprintf(stderr, "%s %s: smemlab run %lld, H100 %lld\n", kname, cols[c][0], have,
                            want);
                CHECK_EQ(have, want);
            }
            matched++;
        }
        CHECK(found);
    }
    CHECK_EQ(matched, 3u);
    free(got);
    free(hw);
    /* another size: the product is still right (the counts were measured at 128 x 128 x 64) */
    snprintf(cmd, sizeof cmd, "%s run %s/gemm 192 128 96", smemlab, bin);
    CHECK_EQ(sh(cmd, "gemm_run2", &o, &e), 0);
    EXPECT_IN(o, "gemm_mbarrier 192x128x96 rel_err=");
    CHECK(!strstr(o, "FAIL"));
    EXPECT_IN(e, "0         0"); /* no hazard, no memory error (the launch table's last columns) */
    CHECK(!strstr(e, "hazard:"));
    free(o);
    free(e);
}

/* `smemlab analyze` of the same file at the same launch: the same counts (the unswizzled one's
 * 4-way LDSM conflicts, the swizzled ones clean) */
static void test_gemm_analyzes_with_the_h100s_counts(void)
{
    char cmd[4000], *o, *e;
    snprintf(cmd, sizeof cmd, "%s analyze %s/tests/ldsm/gemm.cu --grid 2,2 --param M=128 "
             "--param N=128 --param K=64 --format json", smemlab, src);
    CHECK_EQ(sh(cmd, "gemm_analyze", &o, &e), 0);
    static const char *want[3][2] = {
        {"\"name\": \"gemm_plain\"", "\"shared_ldsm\": {\"requests\": 256, \"wavefronts\": 4096,"},
        {"\"name\": \"gemm_swizzled\"", "\"shared_ldsm\": {\"requests\": 256, \"wavefronts\": 1024,"},
        {"\"name\": \"gemm_mbarrier\"", "\"shared_ldsm\": {\"requests\": 256, \"wavefronts\": 1024,"}};
    for (int i = 0; i < 3; i++) {
        const char *k = strstr(o, want[i][0]);
        CHECK(k != NULL);
        if (!k)
            continue;
        const char *next = strstr(k + 1, "\"name\": ");
        const char *a = strstr(k, want[i][1]);
        const char *c = strstr(k, "\"shared_ldgsts\": {\"requests\": 128, \"wavefronts\": 1024,");
        CHECK(a && (!next || a < next));
        CHECK(c && (!next || c < next));
        if (!a || !c)
            fprintf(stderr, "%s: counts differ from the H100's:\n%s\n", want[i][0], k);
    }
    EXPECT_IN(o, "\"op\": \"ldsm\"");
    EXPECT_IN(o, "\"op\": \"ldgsts\"");
    CHECK(!strstr(o, "\"error\""));
    free(o);
    free(e);
}

/* --fail-on-conflict: the unswizzled GEMM fails (4-way LDSM), the swizzled one passes (its .cg
 * copies' extra wavefronts are the global lines they read, no bank conflict: the H100 counted
 * 0 LDGSTS bank conflicts) */
static void test_conflict_gate_on_the_gemms(void)
{
    static const struct { const char *kernel; int rc; } want[] = {{"gemm_plain", 1},
                                                                  {"gemm_swizzled", 0}};
    for (int i = 0; i < 2; i++) {
        char cmd[4000], *o, *e;
        snprintf(cmd, sizeof cmd, "%s analyze %s/tests/ldsm/gemm.cu --kernel %s --grid 2,2 --param "
                 "M=128 --param N=128 --param K=64 --fail-on-conflict", smemlab, src, want[i].kernel);
        CHECK_EQ(sh(cmd, want[i].kernel, &o, &e), want[i].rc);
        free(o);
        free(e);
    }
}

/* tests/wmma/wmma_gemm.cu under `smemlab run`: its 16 wmma GEMMs (every sm_90 fragment type, row-
 * and column-major tiles, unpadded and padded) compute the exact product (their own check), and
 * every launch's shared ld / st / LDSM requests and wavefronts equal what the H100 counted:
 * tests/hw/h100-wmma-gemm.csv (tests/hw/wmma/README.md). */
static void test_wmma_gemms_run_right_and_count_as_the_h100(void)
{
    char cmd[4000], csvp[1100], hwp[1100], *o, *e;
    snprintf(csvp, sizeof csvp, "%s/wmma_gemm.csv", bin);
    snprintf(cmd, sizeof cmd, "%s run --fail-on-hazard --format csv -o %s %s/wmma_gemm", smemlab, csvp, bin);
    CHECK_EQ(sh(cmd, "wmma_gemm_run", &o, &e), 0);
    EXPECT_IN(o, "16 cases, 0 failed");
    CHECK(!strstr(o, "FAIL"));
    free(o);
    free(e);
    snprintf(hwp, sizeof hwp, "%s/tests/hw/h100-wmma-gemm.csv", src);
    char *got = test_read_file(csvp, NULL), *hw = test_read_file(hwp, NULL);
    CHECK(got && hw);
    unsigned matched = 0;
    for (char *h = hw ? next_line(hw) : NULL; h && got; h = next_line(h)) {
        char name[128];
        long long launch = csv_num(hw, h, "launch", NULL, 0);
        csv_num(hw, h, "case", name, sizeof name);
        for (char *g = next_line(got); g; g = next_line(g)) {
            if (csv_num(got, g, "launch", NULL, 0) != launch)
                continue;
            static const char *cols[][2] = {
                {"ld", "ld_requests"},     {"ld_wf", "ld_wavefronts"},     {"st", "st_requests"},
                {"st_wf", "st_wavefronts"}, {"ldsm", "ldsm_requests"},     {"ldsm_wf", "ldsm_wavefronts"}};
            for (unsigned c = 0; c < sizeof cols / sizeof cols[0]; c++) {
                long long want = csv_num(hw, h, cols[c][0], NULL, 0);
                long long have = csv_num(got, g, cols[c][1], NULL, 0);
                if (want != have)
                    fprintf(stderr, "%s %s: smemlab run %lld, H100 %lld\n", name, cols[c][0], have, want);
                CHECK_EQ(have, want);
            }
            matched++;
        }
    }
    CHECK_EQ(matched, 16u);
    free(got);
    free(hw);
}

/* tests/hw/mma/mma_more.cu under `smemlab run`: the other mma.sync forms of sm_90 (f64, e4m3/e5m2,
 * s4/u4, s8 m8n8k16, b1 xor/and popc) give the exact products on exact inputs (the program's own
 * check, as on the H100), and on its random inputs every D register of the f64, integer and b1
 * forms equals the H100's bit for bit (tests/hw/h100-mma-more.txt, 2026-11-24, H100 80GB HBM3,
 * driver 580.159.04). The e4m3/e5m2 ones too since emu/tc_numeric.c sums them as the H100's two
 * HMMA.16816.F32 and FADD do (before it, 207 of their 384 registers were the H100's bits). */
static void test_mma_more_forms_as_the_h100(void)
{
    char cmd[4000], hwp[1100], *o, *e;
    snprintf(cmd, sizeof cmd, "%s run %s/mma_more check", smemlab, bin);
    CHECK_EQ(sh(cmd, "mma_more_check", &o, &e), 0);
    EXPECT_IN(o, "16 forms, 0 failed");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s run %s/mma_more dump", smemlab, bin);
    CHECK_EQ(sh(cmd, "mma_more_dump", &o, &e), 0);
    snprintf(hwp, sizeof hwp, "%s/tests/hw/h100-mma-more.txt", src);
    char *hw = test_read_file(hwp, NULL);
    CHECK(hw != NULL);
    unsigned lines = 0, exact_forms = 0, exact_equal = 0, fp8 = 0, fp8_equal = 0;
    for (char *h = hw, *g = o; h && *h; lines++) {
        char *hn = strchr(h, '\n'), *gn = g ? strchr(g, '\n') : NULL;
        size_t hl = hn ? (size_t)(hn - h) : strlen(h), gl = gn ? (size_t)(gn - g) : (g ? strlen(g) : 0);
        int same = g && hl == gl && !strncmp(h, g, hl);
        if (!strncmp(h, "m16n8k32.f32.e", 14)) {
            fp8++;
            fp8_equal += same;
        } else {
            exact_forms++;
            exact_equal += same;
            if (!same && exact_forms - exact_equal <= 3)
                fprintf(stderr, "H100: %.*s\nsmemlab run: %.*s\n", (int)hl, h, (int)gl, g ? g : "");
        }
        h = hn ? hn + 1 : NULL;
        g = gn ? gn + 1 : NULL;
    }
    CHECK_EQ(lines, 1792u);
    CHECK_EQ(exact_forms, 1408u);
    CHECK_EQ(exact_equal, exact_forms);
    CHECK_EQ(fp8, 384u);
    CHECK(fp8_equal >= 207u);
    CHECK_EQ(fp8_equal, fp8); /* every one, with the H100's sums (emu/tc_numeric.c) */
    free(hw);
    free(o);
    free(e);
}

/* tests/hw/mma/mma_fp.cu under `smemlab run`: mma.sync f16 / bf16 / tf32 / e4m3 / e5m2 and
 * wmma.mma f16 / bf16 / tf32 on 7 input sets chosen to tell sums apart (cancellation, wide
 * exponents, subnormals, overflow, zeros / infinities / NaN, f16 ties): its exact check passes as
 * on the H100, and its dump (every A, B, C and D) is byte for byte the H100's:
 * tests/hw/h100-mma-fp.txt (NVIDIA H100 80GB HBM3, driver 580.159.04, 2026-11-24 03:58 UTC). */
static void test_mma_fp_sums_as_the_h100(void)
{
    char cmd[4000], hwp[1100], *o, *e;
    snprintf(cmd, sizeof cmd, "%s run %s/mma_fp check", smemlab, bin);
    CHECK_EQ(sh(cmd, "mma_fp_check", &o, &e), 0);
    EXPECT_IN(o, "12 forms, 0 failed");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s run %s/mma_fp dump", smemlab, bin);
    CHECK_EQ(sh(cmd, "mma_fp_dump", &o, &e), 0);
    snprintf(hwp, sizeof hwp, "%s/tests/hw/h100-mma-fp.txt", src);
    char *hw = test_read_file(hwp, NULL);
    CHECK(hw != NULL);
    unsigned lines = 0, equal = 0;
    for (char *h = hw, *g = o; h && *h; lines++) {
        char *hn = strchr(h, '\n'), *gn = g ? strchr(g, '\n') : NULL;
        size_t hl = hn ? (size_t)(hn - h) : strlen(h), gl = gn ? (size_t)(gn - g) : (g ? strlen(g) : 0);
        int same = g && hl == gl && !strncmp(h, g, hl);
        equal += same;
        if (!same && lines - equal < 3)
            fprintf(stderr, "H100: %.80s...\nsmemlab run: %.80s...\n", h, g ? g : "");
        h = hn ? hn + 1 : NULL;
        g = gn ? gn + 1 : NULL;
    }
    CHECK_EQ(lines, 392u); /* 14 forms x 7 sets x A, B, C, D */
    CHECK_EQ(equal, lines);
    free(hw);
    free(o);
    free(e);
}

static void test_fragments_mma_and_mbarrier(void)
{
    static const char *modes[] = {"ldsm", "stsm", "mma", "mbar", "norace"};
    for (unsigned i = 0; i < sizeof modes / sizeof modes[0]; i++) {
        char cmd[4000], tag[64], pass[64], *o, *e;
        snprintf(cmd, sizeof cmd, "%s run %s/tensor_checks %s", smemlab, bin, modes[i]);
        snprintf(tag, sizeof tag, "checks_%s", modes[i]);
        snprintf(pass, sizeof pass, "%s PASS", modes[i]);
        int rc = sh(cmd, tag, &o, &e);
        CHECK_EQ(rc, 0);
        EXPECT_IN(o, pass);
        CHECK(!strstr(e, "hazard:"));
        if (rc)
            fprintf(stderr, "%s: exit %d\n%s%s\n", cmd, rc, o, e);
        free(o);
        free(e);
    }
}

static void test_refusals_deadlock_and_race(void)
{
    char cmd[4000], *o, *e;
    snprintf(cmd, sizeof cmd, "%s run %s/tensor_checks deadlock", smemlab, bin);
    CHECK_EQ(sh(cmd, "checks_deadlock", &o, &e), 3); /* stopped by smemlab */
    EXPECT_IN(e, "every live thread waits on an mbarrier phase that cannot complete");
    EXPECT_IN(e, "tensor_checks.cu:");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s run %s/tensor_checks wmma", smemlab, bin); /* wmma runs now */
    CHECK_EQ(sh(cmd, "checks_wmma", &o, &e), 0);
    EXPECT_IN(o, "wmma PASS");
    free(o);
    free(e);
    snprintf(cmd, sizeof cmd, "%s run --fail-on-hazard %s/tensor_checks race", smemlab, bin);
    CHECK_EQ(sh(cmd, "checks_race", &o, &e), 1);
    EXPECT_IN(e, "hazard: race");
    EXPECT_IN(o, "race PASS"); /* the program itself cannot tell */
    free(o);
    free(e);
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/tensor", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    CHECK_EQ(build("tests/ldsm", "gemm"), 0);
    CHECK_EQ(build("tests/tensor", "tensor_checks"), 0);
    CHECK_EQ(build("tests/wmma", "wmma_gemm"), 0);
    CHECK_EQ(build("tests/hw/mma", "mma_more"), 0);
    CHECK_EQ(build("tests/hw/mma", "mma_fp"), 0);
    RUN(test_gemm_runs_right_and_counts_as_the_h100);
    RUN(test_gemm_analyzes_with_the_h100s_counts);
    RUN(test_conflict_gate_on_the_gemms);
    RUN(test_wmma_gemms_run_right_and_count_as_the_h100);
    RUN(test_mma_more_forms_as_the_h100);
    RUN(test_mma_fp_sums_as_the_h100);
    RUN(test_fragments_mma_and_mbarrier);
    RUN(test_refusals_deadlock_and_race);
    return CHECK_DONE();
}
