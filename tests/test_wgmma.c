/* test_wgmma.c: wgmma.mma_async (sm_90a) under `smemlab run`, without a GPU.
 * tests/run/wgmma.cu (31 cases: every swizzle mode, K- and MN-major, tiles off the swizzle's
 * 1024-byte period, base offsets, descriptors that do not describe how the tile was written,
 * f16 / bf16 / tf32 / e4m3 / e5m2 / s8 x u8 with f32, f16 and s32 accumulators, A from
 * registers, N = 8, 64, 256) prints a hash of every case's accumulators and dumps them: both
 * must be the H200's (tests/run/h200-wgmma.txt and h200-wgmma-dump.bin.gz: NVIDIA H200, driver
 * 580.159.04, 2026-11-29), bit for bit; every launch's wgmma reads ("shared_gmma") as Nsight
 * Compute counted them there (h200-wgmma-ncu.csv); its reads race with a store after the barrier
 * (tests/run/wgmma_bad.cu race), and nothing else. A descriptor outside the block's shared memory, a
 * warpgroup that is not whole or does not all arrive, and a form not modelled stop the run
 * with a located message (exit 3). Needs nvcc (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024];

static void build(const char *name)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "nvcc -cudart shared -gencode arch=compute_90a,code=[sm_90a,compute_90a] -O2 -lineinfo "
             "%s/tests/run/%s.cu -o %s/%s > %s/%s.log 2>&1",
             src, name, bin, name, bin, name);
    CHECK_EQ(test_sh(cmd), 0);
}

/* `smemlab run [opts] bin/program args`: its status; stdout, stderr in *o, *e */
static int run(const char *opts, const char *program, const char *args, char **o, char **e)
{
    return test_smemlab_run(smemlab, bin, opts, program, args, o, e);
}

/* Every case line of the H200's output (name ... hash H ...) has its hash in ours, on the line
 * of the same case; the dumps are the same bytes. */
static void test_outputs_are_the_h200s(void)
{
    char *o, *e, path[1100], dump[1100], cmd[4096];
    snprintf(dump, sizeof dump, "%s/wgmma.dump", bin);
    snprintf(cmd, sizeof cmd, "%s", dump);
    CHECK_EQ(run("", "wgmma", cmd, &o, &e), 0);
    EXPECT_IN(o, "\nPASS\n");
    snprintf(path, sizeof path, "%s/tests/run/h200-wgmma.txt", src);
    char *hw = test_read_file(path, NULL);
    CHECK(hw != NULL);
    unsigned cases = 0;
    for (char *line = hw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *h = strstr(line, " hash ");
        const char *nl = strchr(line, '\n');
        if (line[0] == '#' || !h || (nl && h > nl))
            continue;
        char want[200];
        size_t n = (size_t)(h + 6 + 16 - line);
        CHECK(n < sizeof want);
        if (n >= sizeof want)
            break;
        memcpy(want, line, n); /* the case's name, its instruction and the hash */
        want[n] = 0;
        EXPECT_IN(o, want);
        cases++;
    }
    CHECK_EQ(cases, 31u);
    snprintf(cmd, sizeof cmd, "gzip -dc %s/tests/run/h200-wgmma-dump.bin.gz | cmp -s - %s", src, dump);
    CHECK_EQ(test_sh(cmd), 0);
    free(hw);
    free(o);
    free(e);
}

/* Every launch's wgmma reads as Nsight Compute counted them on the H200
 * (tests/run/h200-wgmma-ncu.csv: l1tex__lsuin_requests_op_gmma, the wavefronts of
 * l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma, less the bank conflicts for the ideal),
 * in the JSON report's "shared_gmma", and its stores' wavefronts in "shared_st". */
static void test_gmma_counts_are_the_h200s(void)
{
    char *o, *e, path[1100], opts[1300];
    snprintf(path, sizeof path, "%s/wgmma.json", bin);
    snprintf(opts, sizeof opts, "--format json -o %s", path);
    CHECK_EQ(run(opts, "wgmma", "-", &o, &e), 0);
    char *js = test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/tests/run/h200-wgmma-ncu.csv", src);
    char *hw = test_read_file(path, NULL);
    CHECK(js && hw);
    if (!js || !hw)
        return;
    const char *at = strstr(js, "\"launches\"");
    unsigned n = 0;
    for (char *line = hw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (line[0] < '0' || line[0] > '9')
            continue; /* comments, the header */
        /* launch,"kernel",requests,wavefronts,conflicts,bytes,inst,ld,st,ld_wf,st_wf,... */
        const char *p = strchr(line, '"');
        p = p ? strchr(p + 1, '"') : NULL;
        unsigned long long v[9];
        CHECK(p && sscanf(p + 1, ",%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu,%llu", &v[0], &v[1], &v[2],
                          &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]) == 9);
        char want[200];
        snprintf(want, sizeof want, "\"shared_gmma\": {\"requests\": %llu, \"wavefronts\": %llu, "
                 "\"ideal_wavefronts\": %llu}", v[0], v[1], v[1] - v[2]);
        const char *g = at ? strstr(at, "\"shared_gmma\"") : NULL;
        CHECK(g && !strncmp(g, want, strlen(want)));
        if (!g || strncmp(g, want, strlen(want)))
            fprintf(stderr, "  launch %u: want %s\n", n, want);
        const char *st = at ? strstr(at, "\"shared_st\"") : NULL;
        snprintf(want, sizeof want, "\"wavefronts\": %llu,", v[8]);
        CHECK(st && g && strstr(st, want) && strstr(st, want) < g);
        at = g ? g + 1 : NULL;
        n++;
    }
    CHECK_EQ(n, 31u);
    free(js);
    free(hw);
    free(o);
    free(e);
}

static void test_bad_input_stops_located(void)
{
    char *o, *e;
    CHECK_EQ(run("", "wgmma", "- 31", &o, &e), 3);
    EXPECT_IN(e, "wgmma.cu:");
    EXPECT_IN(e, "wgmma.mma_async: A's matrix descriptor 0x4000004000002840 (start 0x28400, LBO 0, SBO 1024, "
                 "128-byte swizzle, K-major) reads element (0, 0) at shared address 0x28400, outside the "
                 "block's shared memory (0x400 .. 0xc400)");
    free(o);
    free(e);
    CHECK_EQ(run("", "wgmma_bad", "short", &o, &e), 3);
    EXPECT_IN(e, "wgmma_bad.cu:39:");
    EXPECT_IN(e, "its warpgroup is warps 0..3, but the block has 96 threads");
    free(o);
    free(e);
    CHECK_EQ(run("", "wgmma_bad", "skip", &o, &e), 3);
    EXPECT_IN(e, "wgmma_bad.cu:39:");
    EXPECT_IN(e, "deadlock: 96 threads of warpgroup 0 (warps 0..3) wait at this wgmma.mma_async");
    free(o);
    free(e);
    CHECK_EQ(run("", "wgmma_bad", "b1", &o, &e), 3);
    EXPECT_IN(e, "wgmma_bad.cu:32:");
    EXPECT_IN(e, "unsupported instruction: wgmma.mma_async .m64n8k256: the b1 form");
    free(o);
    free(e);
}

/* wgmma's reads take part in the hazards: a store into the tile after the barrier is a race with
 * the wgmma that reads it (located at both lines); the same store before the barrier is not, nor
 * is anything in tests/run/wgmma.cu. */
static void test_wgmma_reads_race(void)
{
    char *o, *e;
    CHECK_EQ(run("--fail-on-hazard", "wgmma_bad", "race", &o, &e), 1);
    EXPECT_IN(e, "hazard: race (write-read) lines 23 and 39, address 300 in sm");
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "wgmma_bad", "norace", &o, &e), 0);
    CHECK(strstr(e, "hazard:") == NULL);
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "wgmma", "-", &o, &e), 0);
    CHECK(strstr(e, "hazard:") == NULL);
    free(o);
    free(e);
}

/* The proxy-fence check (tests/run/wgmma_fence.cu, docs/analyzer.md): a wgmma reading bytes a
 * st.shared or a cp.async wrote with no fence.proxy.async of the writing thread since (none, one
 * before the write, a .global one) is a hazard located at both lines, counted by
 * --fail-on-hazard, in the JSON report; with the fence after the write, none. */
static void test_proxy_fence(void)
{
    char *o, *e;
    CHECK_EQ(run("--fail-on-hazard", "wgmma_fence", "nofence", &o, &e), 1);
    EXPECT_IN(e, "hazard: proxy-fence (wgmma reads A written by st.shared (thread 0) without "
                 "fence.proxy.async) lines 38 and 25, address 0 in sm");
    EXPECT_IN(e, "hazard: proxy-fence (wgmma reads B written by st.shared");
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "wgmma_fence", "late", &o, &e), 1);
    EXPECT_IN(e, "hazard: proxy-fence (wgmma reads A written by st.shared (thread 44) without "
                 "fence.proxy.async) lines 38 and 32, address 300 in sm");
    CHECK(strstr(e, "reads B") == NULL); /* byte 300 is row 10: B has 8 */
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "wgmma_fence", "global", &o, &e), 1);
    EXPECT_IN(e, "hazard: proxy-fence (wgmma reads A written by st.shared (thread 0)");
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "wgmma_fence", "cpasync", &o, &e), 1);
    EXPECT_IN(e, "hazard: proxy-fence (wgmma reads A written by cp.async (thread 0) without "
                 "fence.proxy.async) lines 38 and 21");
    free(o);
    free(e);
    char *json = NULL;
    char opts[1200];
    snprintf(opts, sizeof opts, "--format json -o %s/wgmma_fence.json", bin);
    CHECK_EQ(run(opts, "wgmma_fence", "nofence", &o, &e), 0);
    char path[1100];
    snprintf(path, sizeof path, "%s/wgmma_fence.json", bin);
    json = test_read_file(path, NULL);
    CHECK(json != NULL);
    EXPECT_IN(json, "\"kind\": \"proxy-fence\"");
    free(json);
    free(o);
    free(e);
    static const char *const clean[] = {"fenced", "cpfenced"};
    for (unsigned i = 0; i < 2; i++) {
        CHECK_EQ(run("--fail-on-hazard", "wgmma_fence", clean[i], &o, &e), 0);
        CHECK(strstr(e, "hazard:") == NULL);
        EXPECT_IN(o, "sum 0: no error");
        free(o);
        free(e);
    }
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/wgmma", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    build("wgmma");
    build("wgmma_bad");
    build("wgmma_fence");
    RUN(test_outputs_are_the_h200s);
    RUN(test_gmma_counts_are_the_h200s);
    RUN(test_bad_input_stops_located);
    RUN(test_wgmma_reads_race);
    RUN(test_proxy_fence);
    return CHECK_DONE();
}
