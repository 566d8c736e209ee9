/* test_tma.c: TMA tensor copies (cp.async.bulk.tensor, sm_90a) under `smemlab run`, without a GPU.
 *  - tests/run/tma.cu (TMA loads under every swizzle mode into wgmma, a box past the tensor's
 *    last rows, two descriptors that name another swizzle than the map, TMA stores back) prints
 *    what the H200 printed (tests/run/h200-tma.txt: NVIDIA H200, driver 580.159.04, 2026-11-29):
 *    the hashes of D bit for bit, the wrong products of the mismatched cases included;
 *  - the layout hazard: exactly the two mismatched launches have one, kind "layout", naming the
 *    operand and both swizzles, at the wgmma's line and the TMA load's; --fail-on-hazard fails
 *    (exit 1); SARIF carries it as rule "layout";
 *  - tests/hw/tma/tma_layout.cu, every case one process: where each element lands (swizzles,
 *    inner boxes narrower than the swizzle span, destinations off the 1024-byte pattern, element
 *    strides) as the H200 put it (h200-tma-layout.txt.gz), and the boxes the H200 stopped with
 *    "an illegal instruction was encountered" stopped with a located message (exit 3);
 *  - tests/run/tma_reduce.cu (cp.reduce.async.bulk.tensor: several blocks reducing into one
 *    tile, f32 add through a 128B swizzle past both edges, s32 / u32 min / max, and / or / xor,
 *    u32 add / inc / dec) prints what the H200 printed (tests/run/h200-tma-reduce.txt, same
 *    device, driver and date); its f32 min (no such operation) stops located (exit 3);
 *  - tests/run/tma_dims.cu: ranks 1 to 5, loads and stores, no swizzle and 32B, a box partly past
 *    the tensor's outer ends (self-checking; not measured on a GPU);
 *  - tests/run/grid_constant.cu: a __grid_constant__ parameter read through its address
 *    (cvta.param and generic loads, how a map reaches the TMA) reads the parameter;
 *  - tests/run/tma_rewrite.cu: a tile the program rewrites after the TMA load (st.shared) is no
 *    longer the TMA's: the same mismatched wgmma gives a layout hazard without the rewrite only;
 *  - tests/run/tma_bad.cu: a map read from global memory works; a map no driver makes, a map of
 *    another rank, a misaligned destination, im2col and a multicast into a rank the cluster
 *    does not have stop located (exit 3).
 * Needs nvcc (else skipped, exit 77). */
#include "check.h"
#include "testfile.h"
#include "testrun.h"

#include "smemlab/report/json_read.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

static const char *src = SMEMLAB_SOURCE_DIR;
static char bin[1024], smemlab[1024];

static void build(const char *dir, const char *name)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd,
             "nvcc -cudart shared -gencode arch=compute_90a,code=[sm_90a,compute_90a] -O2 -lineinfo "
             "%s/tests/%s/%s.cu -o %s/%s > %s/%s.log 2>&1",
             src, dir, name, bin, name, bin, name);
    CHECK_EQ(test_sh(cmd), 0);
}

/* `smemlab run [opts] bin/program args`: its status; stdout, stderr in *o, *e */
static int run(const char *opts, const char *program, const char *args, char **o, char **e)
{
    return test_smemlab_run(smemlab, bin, opts, program, args, o, e);
}

/* the 1-based line of tests/run/tma.cu holding text (0: none) */
static unsigned line_of(const char *text)
{
    char path[1100];
    snprintf(path, sizeof path, "%s/tests/run/tma.cu", src);
    char *s = test_read_file(path, NULL), *at = s ? strstr(s, text) : NULL;
    unsigned n = 0;
    if (at) {
        n = 1;
        for (const char *p = s; p < at; p++)
            n += *p == '\n';
    }
    free(s);
    return n;
}

/* program's output under smemlab run holds every line of tests/run/<golden> (# comments aside):
 * how many */
static unsigned outputs_are(const char *program, const char *golden)
{
    char *o, *e, path[1100];
    CHECK_EQ(run("", program, "", &o, &e), 0);
    snprintf(path, sizeof path, "%s/tests/run/%s", src, golden);
    char *hw = test_read_file(path, NULL);
    CHECK(hw != NULL);
    unsigned n = 0;
    for (char *line = hw; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *nl = strchr(line, '\n');
        if (line[0] == '#')
            continue;
        char want[400];
        size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
        CHECK(len < sizeof want);
        if (len >= sizeof want)
            break;
        memcpy(want, line, len);
        want[len] = 0;
        EXPECT_IN(o, want);
        n++;
    }
    free(hw);
    free(o);
    free(e);
    return n;
}

static void test_outputs_are_the_h200s(void)
{
    CHECK_EQ(outputs_are("tma", "h200-tma.txt"), 8u); /* 7 cases and PASS */
}

/* cp.reduce.async.bulk.tensor: several blocks reducing into one tile (f32 add through a 128B
 * swizzle, a box past both edges; s32 / u32 min, max; and, or, xor; u32 add, inc, dec) as on the
 * H200; an f32 min (not in the PTX ISA's table) stops located */
static void test_reductions_are_the_h200s(void)
{
    CHECK_EQ(outputs_are("tma_reduce", "h200-tma-reduce.txt"), 13u); /* 12 cases and PASS */
    char *o, *e;
    CHECK_EQ(run("", "tma_reduce", "bad", &o, &e), 3);
    EXPECT_IN(e, "tma_reduce.cu:28:5: cp.reduce.async.bulk.tensor.min: the tensor map's element type "
                 "FLOAT32 has no .min");
    free(o);
    free(e);
}

static void test_layout_hazard(void)
{
    char *o, *e, path[1100], opts[2400];
    snprintf(path, sizeof path, "%s/tma.json", bin);
    snprintf(opts, sizeof opts, "--format json -o %s --sarif %s/tma.sarif", path, bin);
    CHECK_EQ(run(opts, "tma", "", &o, &e), 0);
    struct smem_error err;
    struct smem_json *js = smem_json_load(path, &err);
    CHECK(js != NULL);
    if (!js)
        return;
    unsigned wl = line_of(": \"l\"(da), \"l\"(db), \"r\"(1));"), tl = line_of("\" [%0], [%1, {%2, %3}], [%4];\"");
    CHECK(wl > 0 && tl > 0);
    static const char *const want[7] = {
        NULL, NULL, NULL, NULL, NULL,
        "wgmma reads A as 128-byte swizzle, K-major; the TMA wrote it with 64-byte swizzle",
        "wgmma reads A as 32-byte swizzle, K-major; the TMA wrote it with 128-byte swizzle"};
    const struct smem_json *ls = smem_json_get(js, "launches");
    CHECK_EQ(smem_json_len(ls), 7u);
    for (unsigned i = 0; i < 7 && i < smem_json_len(ls); i++) {
        const struct smem_json *hz = smem_json_get(smem_json_at(ls, i), "hazards");
        CHECK_EQ(smem_json_len(hz), want[i] ? 1u : 0u);
        if (!want[i] || smem_json_len(hz) != 1)
            continue;
        const struct smem_json *z = smem_json_at(hz, 0);
        CHECK_STR(smem_json_str(z, "kind"), "layout");
        CHECK_STR(smem_json_str(z, "detail"), want[i]);
        const struct smem_json *lines = smem_json_get(z, "lines");
        CHECK(smem_json_len(lines) == 2);
        if (smem_json_len(lines) == 2) {
            CHECK_EQ((unsigned)smem_json_at(lines, 0)->number, wl);
            CHECK_EQ((unsigned)smem_json_at(lines, 1)->number, tl);
        }
    }
    smem_json_free(js);
    snprintf(path, sizeof path, "%s/tma.sarif", bin);
    char *sarif = test_read_file(path, NULL);
    CHECK(sarif && strstr(sarif, "\"ruleId\": \"layout\""));
    free(sarif);
    free(o);
    free(e);
    /* the table (on stderr), and --fail-on-hazard */
    CHECK_EQ(run("--fail-on-hazard", "tma", "", &o, &e), 1);
    EXPECT_IN(e, "hazard: layout (wgmma reads A as 128-byte swizzle, K-major; the TMA wrote it with "
                 "64-byte swizzle)");
    free(o);
    free(e);
}

/* every case of the probe: the H200's line and dump, or its error as our located stop */
static void test_probe_is_the_h200s(void)
{
    char cmd[4096], path[1100];
    snprintf(path, sizeof path, "%s/h200-tma-layout.txt", bin);
    snprintf(cmd, sizeof cmd, "gzip -dc %s/tests/run/h200-tma-layout.txt.gz > %s", src, path);
    CHECK_EQ(test_sh(cmd), 0);
    char *hw = test_read_file(path, NULL);
    CHECK(hw != NULL);
    if (!hw)
        return;
    unsigned n = 0, same = 0, stopped = 0;
    char *line = hw;
    while (line && *line) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        if (strncmp(line, "case ", 5)) {
            line = nl ? nl + 1 : NULL;
            continue;
        }
        char *data = nl ? nl + 1 : NULL, *dnl = data ? strchr(data, '\n') : NULL;
        if (dnl)
            *dnl = 0;
        char *o, *e, arg[32];
        snprintf(arg, sizeof arg, "%u", n);
        int rc = run("", "tma_layout", arg, &o, &e);
        char head[200];
        snprintf(head, sizeof head, "%s\n", line);
        EXPECT_IN(o, head);
        if (data && !strncmp(data, "error", 5)) {
            CHECK_EQ(rc, 3);
            EXPECT_IN(e, "not a multiple of 16 (the H200 stops such copies");
            stopped++;
        } else if (data) {
            char *at = strstr(o, head);
            int ok = at && !strncmp(at + strlen(head), data, strlen(data));
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "  case %u differs: %s\n", n, line);
            same += ok;
        }
        free(o);
        free(e);
        n++;
        line = dnl ? dnl + 1 : NULL;
    }
    CHECK_EQ(n, 78u);
    CHECK_EQ(same, 52u);
    CHECK_EQ(stopped, 26u);
    free(hw);
}

static void test_bad_input_stops_located(void)
{
    static const struct {
        const char *mode, *msg;
    } bad[] = {
        {"garbage", "tma_bad.cu:29:63: cp.async.bulk.tensor: the tensor map is not one the driver accepts"},
        {"rank", "tma_bad.cu:32:67: cp.async.bulk.tensor.3d: the tensor map has rank 2"},
        {"misaligned", "tma_bad.cu:36:63: cp.async.bulk.tensor: the shared destination 0x440 is not "
                       "128-byte aligned"},
        {"im2col", "unsupported instruction: cp.async.bulk.tensor.im2col"},
        {"multicast", "multicast::cluster: ctaMask 0x3 names a rank outside the cluster (1 block)"},
    };
    char *o, *e;
    CHECK_EQ(run("", "tma_bad", "global", &o, &e), 0);
    EXPECT_IN(o, "global ok\n");
    free(o);
    free(e);
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_EQ(run("", "tma_bad", bad[i].mode, &o, &e), 3);
        EXPECT_IN(e, bad[i].msg);
        free(o);
        free(e);
    }
}

/* every rank, loads and stores, a box partly outside in its outer dimensions (self-checking) */
static void test_every_rank(void)
{
    char *o, *e;
    CHECK_EQ(run("", "tma_dims", "", &o, &e), 0);
    for (int sw = 0; sw <= 32; sw += 32)
        for (int r = 1; r <= 5; r++) {
            char want[100];
            snprintf(want, sizeof want, "rank %d swizzle %d: %d rows, load as placed, store back\n", r, sw,
                     1 << (r - 1));
            EXPECT_IN(o, want);
        }
    EXPECT_IN(o, "\nPASS\n");
    free(o);
    free(e);
}

/* cvta.param: a __grid_constant__ parameter read through its generic address */
static void test_grid_constant_by_address(void)
{
    char *o, *e;
    CHECK_EQ(run("", "grid_constant", "", &o, &e), 0);
    EXPECT_IN(o, "ok\n");
    free(o);
    free(e);
}

/* the record follows the bytes: a tile the program rewrote after the TMA load is not the TMA's */
static void test_layout_follows_the_bytes(void)
{
    char *o, *e;
    CHECK_EQ(run("--fail-on-hazard", "tma_rewrite", "keep", &o, &e), 1);
    EXPECT_IN(o, "keep done\n");
    EXPECT_IN(e, "hazard: layout (wgmma reads A as 128-byte swizzle, K-major; the TMA wrote it with "
                 "64-byte swizzle)");
    free(o);
    free(e);
    CHECK_EQ(run("--fail-on-hazard", "tma_rewrite", "rewrite", &o, &e), 0);
    EXPECT_IN(o, "rewrite done\n");
    CHECK(strstr(e, "hazard:") == NULL);
    free(o);
    free(e);
}

int main(void)
{
    if (system("nvcc --version > /dev/null 2>&1") != 0) {
        printf("nvcc not found: skipped\n");
        return 77;
    }
    snprintf(bin, sizeof bin, "%s/tests/tma", SMEMLAB_BINARY_DIR);
    snprintf(smemlab, sizeof smemlab, "%s/smemlab", SMEMLAB_BINARY_DIR);
    mkdir(bin, 0755);
    build("run", "tma");
    build("run", "tma_bad");
    build("run", "tma_rewrite");
    build("run", "tma_dims");
    build("run", "tma_reduce");
    build("run", "grid_constant");
    build("hw/tma", "tma_layout");
    RUN(test_outputs_are_the_h200s);
    RUN(test_reductions_are_the_h200s);
    RUN(test_layout_hazard);
    RUN(test_probe_is_the_h200s);
    RUN(test_bad_input_stops_located);
    RUN(test_layout_follows_the_bytes);
    RUN(test_every_rank);
    RUN(test_grid_constant_by_address);
    return CHECK_DONE();
}
