/* test_cluster.c: thread-block clusters under `smemlab run` and `smemlab analyze`, without a GPU.
 * tests/run/cluster_dsmem.cu (2- and 4-CTA clusters through __cluster_dims__ and
 * cudaLaunchKernelEx: the cluster's special registers, remote ld / st / atom / red, st.async,
 * red.async, a bulk copy into another CTA, a remote mbarrier arrive, barrier.cluster split into
 * arrive / wait, a TMA load multicast into 2 CTAs, a cross-CTA race) prints one line per launch
 * with a hash of what it wrote: every line must be the H200's (tests/run/h200-cluster-dsmem.txt:
 * NVIDIA H200, driver 580.159.04, 2026-11-29). Every launch's shared-memory requests and
 * wavefronts and its distributed-shared-memory requests and bytes ("dshared") must be what
 * Nsight Compute counted there (h200-cluster-dsmem-ncu.csv). tests/run/cluster_bad.cu's cases
 * (mapa to a rank outside the cluster, a misaligned remote load, a CTA that exits while another
 * stores into it, a deadlock of the cluster) stop located, exit 3; a grid the cluster does not
 * divide is refused under analyze (exit 2, as every launch beyond the GPU's limits). The one
 * race between CTAs is found, at its two lines, and nothing else. Needs nvcc
 * (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static int run(const char *opts, const char *program, const char *args, char **o, char **e)
{
    return test_smemlab_run(smemlab, bin, opts, program, args, o, e);
}

/* every line the H200 printed (but its comment) is one of ours */
static void test_outputs_are_the_h200s(void)
{
    char *o, *e, path[1100];
    CHECK_EQ(run("", "cluster_dsmem", "", &o, &e), 0);
    snprintf(path, sizeof path, "%s/tests/run/h200-cluster-dsmem.txt", src);
    char *hw = test_read_file(path, NULL);
    CHECK(hw != NULL);
    unsigned lines = 0;
    for (char *line = hw; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (line[0] != '#' && line[0]) {
            char want[300];
            snprintf(want, sizeof want, "%s\n", line);
            EXPECT_IN(o, want);
            lines++;
        }
        line = nl ? nl + 1 : NULL;
    }
    CHECK_EQ(lines, 17u); /* 16 launches' lines and PASS */
    free(hw);
    free(o);
    free(e);
}

/* the column of the CSV header hdr named name (0-based), or -1 */
static int column(const char *hdr, const char *name)
{
    int c = 0;
    size_t n = strlen(name);
    for (const char *p = hdr; *p && *p != '\n'; c++) {
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\n' || !p[n]))
            return c;
        p = strchr(p, ',');
        if (!p)
            break;
        p++;
    }
    return -1;
}

static unsigned long long field(const char *line, int c)
{
    for (int i = 0; i < c && line; i++) {
        line = strchr(line, ',');
        line = line ? line + 1 : NULL;
    }
    return line ? strtoull(line, NULL, 10) : ~0ull;
}

/* each launch's shared_ld / _st / _atom requests and wavefronts and its dshared object are
 * Nsight Compute's */
static void test_counts_are_the_h200s(void)
{
    char *o, *e, path[1100], opts[1300];
    snprintf(path, sizeof path, "%s/cluster.json", bin);
    snprintf(opts, sizeof opts, "--format json -o %s", path);
    CHECK_EQ(run(opts, "cluster_dsmem", "", &o, &e), 0);
    char *js = test_read_file(path, NULL);
    snprintf(path, sizeof path, "%s/tests/run/h200-cluster-dsmem-ncu.csv", src);
    char *hw = test_read_file(path, NULL);
    CHECK(js && hw);
    if (!js || !hw)
        return;
    const char *hdr = strstr(hw, "\nlaunch,");
    CHECK(hdr != NULL);
    if (!hdr)
        return;
    hdr++;
    static const char *const sh[3] = {"ld", "st", "atom"};
    static const char *const dop[6] = {"ld", "st", "atom", "stas", "redas", "tma_st"};
    int ci[3], cw[3], cd[6], creq, cby, cx;
    char name[200];
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "smsp__sass_inst_executed_op_shared_%s.sum", sh[i]);
        ci[i] = column(hdr, name);
        snprintf(name, sizeof name, "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_%s.sum", sh[i]);
        cw[i] = column(hdr, name);
        CHECK(ci[i] >= 0 && cw[i] >= 0);
    }
    for (int i = 0; i < 6; i++) {
        snprintf(name, sizeof name, "smsp__sass_inst_executed_op_dshared_%s.sum", dop[i]);
        cd[i] = column(hdr, name);
        CHECK(cd[i] >= 0);
    }
    creq = column(hdr, "smsp__sass_inst_executed_op_dshared.sum");
    cby = column(hdr, "l1tex__t_bytes_pipe_lsu_mem_dshared.sum");
    cx = column(hdr, "l1tex__m_xbar2l1tex_read_bytes_mem_dshared.sum");
    CHECK(creq >= 0 && cby >= 0 && cx >= 0);
    unsigned n = 0, with_dshared = 0;
    for (const char *line = strchr(hdr, '\n'); line && line[1]; line = strchr(line + 1, '\n')) {
        line++;
        unsigned idx = (unsigned)strtoul(line, NULL, 10);
        char at[64], next[64];
        snprintf(at, sizeof at, "{\"index\": %u,", idx);
        snprintf(next, sizeof next, "{\"index\": %u,", idx + 1);
        const char *rec = strstr(js, at), *end = rec ? strstr(rec, next) : NULL;
        CHECK(rec != NULL);
        if (!rec)
            continue;
        size_t len = end ? (size_t)(end - rec) : strlen(rec);
        char *r = strndup(rec, len);
        for (int i = 0; i < 3; i++) {
            char want[200];
            snprintf(want, sizeof want, "\"shared_%s\": {\"requests\": %llu, \"wavefronts\": %llu,",
                     sh[i], field(line, ci[i]), field(line, cw[i]));
            EXPECT_IN(r, want);
        }
        unsigned long long req = field(line, creq);
        if (req) {
            char want[400];
            int k = snprintf(want, sizeof want, "\"dshared\": {\"requests\": %llu, \"bytes\": %llu, "
                             "\"xbar_bytes\": %llu", req, field(line, cby), field(line, cx));
            for (int i = 0; i < 6; i++)
                k += snprintf(want + k, sizeof want - (size_t)k, ", \"%s\": %llu", dop[i],
                              field(line, cd[i]));
            EXPECT_IN(r, want);
            with_dshared++;
        } else {
            CHECK(strstr(r, "\"dshared\"") == NULL);
        }
        free(r);
        n++;
    }
    CHECK_EQ(n, 16u);
    CHECK_EQ(with_dshared, 10u);
    free(js);
    free(hw);
    free(o);
    free(e);
}

static void test_bad_input_stops_located(void)
{
    static const struct {
        const char *mode, *line, *msg;
    } bad[] = {
        {"mapa_rank", "cluster_bad.cu:21:", "mapa to rank 2: the cluster of block (0,0,0) has 2 CTAs "
                                            "(ranks 0 .. 1)"},
        {"unaligned", "cluster_bad.cu:47:", "misaligned shared::cluster access: 4 bytes at 0x2000402 "
                                            "(thread (0,0,0) of block (0,0,0))"},
        {"exit_early", "cluster_bad.cu:54:", "block (1,0,0), rank 1 of its cluster, exits"},
        {"deadlock", "cluster_bad.cu:", "deadlock: every live thread of block (0,0,0), rank 0 of its "
                                        "cluster, waits on an mbarrier phase that cannot complete"},
    };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *o, *e;
        CHECK_EQ(run("", "cluster_bad", bad[i].mode, &o, &e), 3);
        EXPECT_IN(e, bad[i].line);
        EXPECT_IN(e, bad[i].msg);
        free(o);
        free(e);
    }
    /* the same store, ordered before the owner's exit by an mbarrier it waits on: no error */
    char *o2, *e2;
    CHECK_EQ(run("--fail-on-hazard", "cluster_bad", "exit_ordered", &o2, &e2), 0);
    EXPECT_IN(o2, "exit_ordered: no error");
    free(o2);
    free(e2);
    /* a grid the cluster does not divide: the launch is refused (as the H200 refuses it,
       cudaErrorInvalidClusterSize) */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s analyze %s/tests/run/cluster_dsmem.cu --kernel ld_remote --grid 3 "
             "--block 128 > %s/grid3.out 2> %s/grid3.err", smemlab, src, bin, bin);
    CHECK_EQ(test_sh(cmd), 2);
    snprintf(cmd, sizeof cmd, "%s/grid3.err", bin);
    char *e = test_read_file(cmd, NULL);
    CHECK(e != NULL);
    if (e)
        EXPECT_IN(e, "a grid of 3 x 1 x 1 blocks does not divide into clusters of 2 x 1 x 1");
    free(e);
}

/* the kernel race's read of rank 0's words while rank 0 rewrites them is a race between the
 * CTAs (located at both lines); nothing else in cluster_dsmem.cu is: the atomics of several
 * CTAs on one word, and every access barrier.cluster or an mbarrier orders, are not */
static void test_cluster_race_found(void)
{
    char *o, *e;
    CHECK_EQ(run("--fail-on-hazard", "cluster_dsmem", "", &o, &e), 1);
    EXPECT_IN(e, "hazard: race (write-read between the CTAs of a cluster (ranks 0 and 1, in rank "
                 "0's shared memory)) lines 303 and 53, address 0 in buf");
    const char *h = strstr(e, "\n  hazard: ");
    CHECK(h && !strstr(h + 1, "\n  hazard: "));
    free(o);
    free(e);
}

/* `analyze --format json` of ld_remote (clusters of 2) with args: its text in buf */
static void analyze_json(const char *args, char *buf, size_t n)
{
    char cmd[4096], path[1100];
    snprintf(path, sizeof path, "%s/analyze.json", bin);
    snprintf(cmd, sizeof cmd, "%s analyze %s/tests/run/cluster_dsmem.cu --kernel ld_remote --block 128 "
             "%s --format json > %s 2> /dev/null", smemlab, src, args, path);
    CHECK_EQ(test_sh(cmd), 0);
    char *t = test_read_file(path, NULL);
    snprintf(buf, n, "%s", t ? t : "");
    free(t);
}

/* a sample and the parallel slices take whole clusters: 3 blocks sampled of 8 are 2 clusters (4
 * blocks, each loading from its neighbour: 4 warps x 4 dshared requests); 16 blocks over 3 jobs
 * count what one job counts */
static void test_whole_clusters(void)
{
    static char js[1 << 16];
    analyze_json("--grid 8 --sample-blocks 3", js, sizeof js);
    EXPECT_IN(js, "\"blocks_analysed\": 4, \"blocks\": 8");
    EXPECT_IN(js, "\"dshared\": {\"requests\": 16, \"bytes\": 2048");
    analyze_json("--grid 16 --jobs 3", js, sizeof js);
    EXPECT_IN(js, "\"blocks_analysed\": 16, \"blocks\": 16");
    EXPECT_IN(js, "\"dshared\": {\"requests\": 64, \"bytes\": 8192");
    EXPECT_IN(js, "\"shared_st\": {\"requests\": 64, \"wavefronts\": 64");
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/cluster", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    build("cluster_dsmem");
    build("cluster_bad");
    RUN(test_outputs_are_the_h200s);
    RUN(test_counts_are_the_h200s);
    RUN(test_bad_input_stops_located);
    RUN(test_cluster_race_found);
    RUN(test_whole_clusters);
    return CHECK_DONE();
}
