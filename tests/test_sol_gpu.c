/* test_sol_gpu.c: the speed-of-light benchmarks through the product path on a real GPU: our
 * transposes against a CPU transpose of random data (odd and aligned shapes), the device-side check
 * catching one wrong element, small transpose and reduce benches with every method verified, and the
 * CLI's JSON. Exits 77 (skipped) without a driver, a GPU or built kernels. The build folder (smemlab,
 * kernels/, libsmemlab_cub.so) is the one this test lies in (its path's tests/test_sol_gpu), so a build
 * copied elsewhere, as to a GPU machine, runs whole; else the folder it was built in. */
#include "check.h"
#include "smemlab/gpu/gpu.h"
#include "smemlab/gpu/sol.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char bdir[4096] = SMEMLAB_BINARY_DIR, kdir[4200];

/* bdir: the folder above the one holding this executable, when that folder has a smemlab */
static void find_build_dir(void)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 2; ++up) {
            char *slash = strrchr(exe, '/');
            if (!slash)
                break;
            *slash = '\0';
        }
        char probe[4200];
        snprintf(probe, sizeof probe, "%s/smemlab", exe);
        if (exe[0] && access(probe, X_OK) == 0)
            snprintf(bdir, sizeof bdir, "%s", exe);
    }
    snprintf(kdir, sizeof kdir, "%s/kernels", bdir);
}

static struct smem_gpu *g;
static smem_gpu_module mod;

/* Our kernels on random bits (not the bench's fill) against smem_sol_transpose_cpu: the kernel the
 * bench launches for the shape (smem_sol_transpose_launch: tiled, narrow, any or copy), and the
 * pipelined one on a 3-block grid (so each block walks several tiles). in_off / out_off shift the
 * input / output by that many elements from the allocation's start (misaligned rows and pointers). */
static int transpose_matches_cpu_cand(const char *dt, size_t elem, int rows, int cols, int pipelined, int in_off,
                                      int out_off, const char *kind, int cand)
{
    const size_t bytes = (size_t)rows * (size_t)cols * elem;
    unsigned char *in = malloc(bytes), *got = malloc(bytes), *want = malloc(bytes);
    uint32_t x = 0x12345u + (uint32_t)(rows * 7 + cols);
    for (size_t i = 0; i < bytes; ++i) {
        x = x * 1664525u + 1013904223u;
        in[i] = (unsigned char)(x >> 24);
    }
    smem_sol_transpose_cpu(want, in, rows, cols, elem);
    char name[64];
    snprintf(name, sizeof name, "sol_transpose_pipelined_%s", dt);
    smem_gpu_function f;
    smem_gpu_ptr din = 0, dout = 0;
    int ok = 0;
    if (!smem_gpu_alloc(g, bytes + 16, &din) && !smem_gpu_alloc(g, bytes + 16, &dout)) {
        smem_gpu_ptr pin = din + (smem_gpu_ptr)in_off * elem, pout = dout + (smem_gpu_ptr)out_off * elem;
        unsigned grid[3] = {3, 1, 1}, block[3] = {256, 1, 1};
        struct smem_sol_launch l;
        if (kind && smem_sol_transpose_launch_cand(elem, rows, cols, kind, cand, pin, pout, &l)) {
            ok = 1; /* this kind does not take this shape */
            goto done;
        }
        if (!pipelined && (kind || !smem_sol_transpose_launch(elem, rows, cols, pin, pout, &l))) {
            snprintf(name, sizeof name, "%s", l.kernel);
            memcpy(grid, l.grid, sizeof grid);
            memcpy(block, l.block, sizeof block);
        }
        void *args[] = {&pout, &pin, &rows, &cols};
        ok = !smem_gpu_function_get(g, mod, name, &f) && !smem_gpu_upload(g, pin, in, bytes) &&
             !smem_gpu_memset(g, dout, 0xFF, bytes + 16) && !smem_gpu_launch(g, f, grid, block, 0, args) &&
             !smem_gpu_sync(g) && !smem_gpu_download(g, got, pout, bytes) && memcmp(got, want, bytes) == 0;
    }
    if (!ok)
        fprintf(stderr, "  %s %dx%d (in +%d, out +%d elements) differs from the CPU transpose (%s)\n", name, rows, cols,
                in_off, out_off, smem_gpu_error(g));
done:
    if (din)
        smem_gpu_free(g, din);
    if (dout)
        smem_gpu_free(g, dout);
    free(in);
    free(got);
    free(want);
    return ok;
}

static int transpose_matches_cpu(const char *dt, size_t elem, int rows, int cols, int pipelined, int in_off,
                                 int out_off, const char *kind)
{
    return transpose_matches_cpu_cand(dt, elem, rows, cols, pipelined, in_off, out_off, kind, 0);
}

static void test_best_transpose_matches_cpu(void)
{
    /* every launch path: tiled (64x64, 128x96, 256x200), narrow (300x32, 1000x24), any (odd shapes,
     * and misaligned pointers below; 331x269 and 203x517 have tiles inside the matrix, the any path's
     * fast interior), copy (1 x n, n x 1) */
    static const int shapes[][2] = {{64, 64},   {128, 96}, {77, 131},  {1, 1000},  {1000, 1},  {33, 35},
                                    {256, 200}, {130, 258}, {300, 32}, {1000, 24}, {67, 4097}, {4097, 67},
                                    {100, 63},  {1, 7},    {331, 269}, {203, 517}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (int p = 0; p < 2; ++p) {
            CHECK(transpose_matches_cpu("f32", 4, shapes[i][0], shapes[i][1], p, 0, 0, NULL));
            CHECK(transpose_matches_cpu("f16", 2, shapes[i][0], shapes[i][1], p, 0, 0, NULL));
            CHECK(transpose_matches_cpu("f64", 8, shapes[i][0], shapes[i][1], p, 0, 0, NULL));
        }
    static const int moved[][2] = {{64, 64}, {128, 96}, {1, 1000}, {300, 32}, {77, 131}, {331, 269}};
    for (size_t i = 0; i < sizeof moved / sizeof moved[0]; ++i)
        for (int off = 1; off < 4; ++off) {
            CHECK(transpose_matches_cpu("f32", 4, moved[i][0], moved[i][1], 0, off & 1, off >> 1, NULL));
            CHECK(transpose_matches_cpu("f16", 2, moved[i][0], moved[i][1], 0, off & 1, off >> 1, NULL));
            CHECK(transpose_matches_cpu("f64", 8, moved[i][0], moved[i][1], 0, off & 1, off >> 1, NULL));
        }
    /* every kind of kernel on every shape it takes: the bench picks "large" only from 512 MB */
    static const char *const kinds[] = {"", "big", "large", "narrow", "any", "copy"};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k) {
            CHECK(transpose_matches_cpu("f32", 4, shapes[i][0], shapes[i][1], 0, 0, 0, kinds[k]));
            CHECK(transpose_matches_cpu("f16", 2, shapes[i][0], shapes[i][1], 0, 0, 0, kinds[k]));
            CHECK(transpose_matches_cpu("f64", 8, shapes[i][0], shapes[i][1], 0, 0, 0, kinds[k]));
        }
    /* every candidate of every kind (issue 34: what the bench may pick on another device), moved too */
    static const char *const dts[3] = {"f32", "f16", "f64"};
    static const size_t elems[3] = {4, 2, 8};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; ++i)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; ++k)
            for (int e = 0; e < 3; ++e)
                for (int c = 1; c < smem_sol_transpose_candidates(elems[e], kinds[k]); ++c)
                    for (int off = 0; off < 4; ++off)
                        CHECK(transpose_matches_cpu_cand(dts[e], elems[e], shapes[i][0], shapes[i][1], 0, off & 1,
                                                         off >> 1, kinds[k], c));
}

static void test_check_kernel_catches_one_wrong_element(void)
{
    const int rows = 96, cols = 160;
    unsigned long long n = (unsigned long long)rows * cols;
    unsigned seed = 77;
    smem_gpu_function fill, tr, check;
    smem_gpu_ptr in = 0, out = 0, bad = 0;
    CHECK_EQ(smem_gpu_function_get(g, mod, "sol_fill_f32", &fill), 0);
    CHECK_EQ(smem_gpu_function_get(g, mod, "sol_transpose_f32", &tr), 0);
    CHECK_EQ(smem_gpu_function_get(g, mod, "sol_check_f32", &check), 0);
    CHECK_EQ(smem_gpu_alloc(g, n * 4, &in), 0);
    CHECK_EQ(smem_gpu_alloc(g, n * 4, &out), 0);
    CHECK_EQ(smem_gpu_alloc(g, 8, &bad), 0);
    const unsigned g1[3] = {8, 1, 1}, b1[3] = {256, 1, 1};
    void *fa[] = {&in, &n, &seed};
    CHECK_EQ(smem_gpu_launch(g, fill, g1, b1, 0, fa), 0);
    struct smem_sol_launch l;
    CHECK_EQ(smem_sol_transpose_launch(4, rows, cols, in, out, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_f32") == 0);
    int r = rows, c = cols;
    void *ta[] = {&out, &in, &r, &c};
    CHECK_EQ(smem_gpu_launch(g, tr, l.grid, l.block, 0, ta), 0);
    unsigned long long count = 99;
    void *ca[] = {&out, &r, &c, &seed, &bad};
    CHECK_EQ(smem_gpu_memset(g, bad, 0, 8), 0);
    CHECK_EQ(smem_gpu_launch(g, check, g1, b1, 0, ca), 0);
    CHECK_EQ(smem_gpu_download(g, &count, bad, 8), 0);
    CHECK_EQ(count, 0);
    /* the host's value function agrees with the device's fill: output (c=5, r=7) = input (7, 5) */
    uint32_t v = 0;
    CHECK_EQ(smem_gpu_download(g, &v, out + (5ull * rows + 7) * 4, 4), 0);
    CHECK_EQ(v, smem_sol_val_f32(7ull * cols + 5, seed));
    /* one flipped bit in one element is one mismatch */
    v ^= 1u;
    CHECK_EQ(smem_gpu_upload(g, out + (5ull * rows + 7) * 4, &v, 4), 0);
    CHECK_EQ(smem_gpu_memset(g, bad, 0, 8), 0);
    CHECK_EQ(smem_gpu_launch(g, check, g1, b1, 0, ca), 0);
    CHECK_EQ(smem_gpu_download(g, &count, bad, 8), 0);
    CHECK_EQ(count, 1);
    smem_gpu_free(g, in);
    smem_gpu_free(g, out);
    smem_gpu_free(g, bad);
}

static size_t count_method(const struct smem_sol_results *r, const char *method, int *all_verified)
{
    size_t k = 0;
    for (size_t i = 0; i < r->n; ++i) {
        if (!r->rows[i].verified) {
            *all_verified = 0;
            fprintf(stderr, "  not verified: %s %s %lldx%lld %s: %s\n", r->rows[i].bench, r->rows[i].dtype,
                    r->rows[i].rows, r->rows[i].cols, r->rows[i].method, r->rows[i].note);
        }
        k += strcmp(r->rows[i].method, method) == 0;
    }
    return k;
}

static void test_transpose_bench_verifies_every_method(void)
{
    struct smem_sol_opts o;
    smem_sol_opts_default(&o);
    o.reps = 3;
    o.warmup = 1;
    o.kernel_dir = kdir;
    const enum smem_sol_dtype dt[] = {SMEM_SOL_F32, SMEM_SOL_F16, SMEM_SOL_F64};
    const struct smem_sol_shape sh[] = {{1000, 999}, {37, 4103}, {512, 256}};
    struct smem_sol_results res = {0};
    char err[600] = "";
    int st = smem_sol_bench_transpose(g, &o, dt, 3, sh, 3, &res, err, sizeof err);
    if (st)
        fprintf(stderr, "  %s\n", err);
    CHECK_EQ(st, 0);
    int all = 1;
    CHECK_EQ(count_method(&res, "smemlab", &all), 9);
    CHECK_EQ(count_method(&res, "memcpy", &all), 9);
    CHECK_EQ(count_method(&res, "naive", &all), 9);
    CHECK_EQ(count_method(&res, "tile", &all), 9);
    CHECK_EQ(count_method(&res, "pad", &all), 9);
    CHECK_EQ(count_method(&res, "swizzle", &all), 9);
    size_t cublas = count_method(&res, "cublas", &all);
    CHECK(cublas == 0 || cublas == 6); /* f32 and f64 when libcublas is there */
    CHECK(all);
    for (size_t i = 0; i < res.n; ++i)
        CHECK(res.rows[i].median_ms > 0 && res.rows[i].gbps > 0 && res.rows[i].ratio_copy > 0);
    /* no cache: the f16 any kernel's candidates were measured on this device (the shapes take it) */
    const int any = smem_sol_kind_index("any");
    CHECK_EQ(res.tuning.known[any][SMEM_SOL_F16], 2);
    CHECK(res.tuning.ms[any][SMEM_SOL_F16][0] > 0 && res.tuning.ms[any][SMEM_SOL_F16][1] > 0);
    CHECK_EQ(res.tuning.known[smem_sol_kind_index("copy")][SMEM_SOL_F32], 0); /* no 1 x n shape here */
    smem_sol_results_free(&res);
    /* a cache: written by the first run, read by the second (the same pick, nothing measured) */
    char cache[] = "/tmp/smemlab-tune-XXXXXX";
    int fd = mkstemp(cache);
    CHECK(fd >= 0);
    if (fd >= 0) {
        close(fd);
        const enum smem_sol_dtype f16[] = {SMEM_SOL_F16};
        const struct smem_sol_shape odd[] = {{37, 4103}};
        o.tune_cache = cache;
        CHECK_EQ(smem_sol_bench_transpose(g, &o, f16, 1, odd, 1, &res, err, sizeof err), 0);
        const int first = res.tuning.pick[any][SMEM_SOL_F16];
        CHECK_EQ(res.tuning.known[any][SMEM_SOL_F16], 2);
        smem_sol_results_free(&res);
        CHECK_EQ(smem_sol_bench_transpose(g, &o, f16, 1, odd, 1, &res, err, sizeof err), 0);
        CHECK_EQ(res.tuning.known[any][SMEM_SOL_F16], 1);
        CHECK_EQ(res.tuning.pick[any][SMEM_SOL_F16], first);
        smem_sol_results_free(&res);
        o.tune = 0; /* off: candidate 0, nothing known */
        CHECK_EQ(smem_sol_bench_transpose(g, &o, f16, 1, odd, 1, &res, err, sizeof err), 0);
        CHECK_EQ(res.tuning.known[any][SMEM_SOL_F16], 0);
        for (size_t i = 0; i < res.n; ++i)
            if (!strcmp(res.rows[i].method, "smemlab"))
                CHECK(strcmp(res.rows[i].kernel, "sol_transpose_any_f16") == 0);
        smem_sol_results_free(&res);
        o.tune = 1;
        o.tune_cache = NULL;
        unlink(cache);
    }
    /* the pipelined kernel through the same path */
    o.pipelined = 1;
    o.baselines = 0;
    o.use_cublas = 0;
    CHECK_EQ(smem_sol_bench_transpose(g, &o, dt, 3, sh, 3, &res, err, sizeof err), 0);
    all = 1;
    CHECK_EQ(count_method(&res, "smemlab", &all), 9);
    CHECK(all);
    for (size_t i = 0; i < res.n; ++i)
        if (!strcmp(res.rows[i].method, "smemlab"))
            CHECK(strstr(res.rows[i].kernel, "pipelined") != NULL);
    smem_sol_results_free(&res);
}

static void test_reduce_bench_verifies_every_method(void)
{
    struct smem_sol_opts o;
    smem_sol_opts_default(&o);
    o.reps = 3;
    o.warmup = 1;
    o.kernel_dir = kdir;
    char cub[4200];
    snprintf(cub, sizeof cub, "%s/libsmemlab_cub.so", bdir);
    o.cub_lib = access(cub, R_OK) == 0 ? cub : NULL;
    const enum smem_sol_dtype dt[] = {SMEM_SOL_I32, SMEM_SOL_F32};
    const long long ns[] = {1000003, 1 << 20, 3, 1025};
    struct smem_sol_results res = {0};
    char err[600] = "";
    int st = smem_sol_bench_reduce(g, &o, dt, 2, ns, 4, &res, err, sizeof err);
    if (st)
        fprintf(stderr, "  %s\n", err);
    CHECK_EQ(st, 0);
    int all = 1;
    CHECK_EQ(count_method(&res, "smemlab", &all), 8);
    CHECK_EQ(count_method(&res, "memcpy", &all), 8);
    CHECK_EQ(count_method(&res, "interleaved", &all), 8);
    CHECK_EQ(count_method(&res, "sequential", &all), 8);
    CHECK_EQ(count_method(&res, "cub", &all), o.cub_lib ? 8 : 0);
    CHECK(all);
    /* the default form is the device's (sol.c): bulk on sm_90 and later */
    const int bulk_default = smem_gpu_info(g)->cc_major >= 9;
    for (size_t i = 0; i < res.n; ++i)
        if (!strcmp(res.rows[i].method, "smemlab"))
            CHECK((strstr(res.rows[i].kernel, "_bulk_") != NULL) == bulk_default);
    smem_sol_results_free(&res);
    /* and the other form, when asked, on the same lengths */
    o.reduce_form = bulk_default ? SMEM_SOL_REDUCE_REGISTER : SMEM_SOL_REDUCE_AUTO;
    memset(&res, 0, sizeof res);
    st = smem_sol_bench_reduce(g, &o, dt, 2, ns, 4, &res, err, sizeof err);
    if (st)
        fprintf(stderr, "  %s\n", err);
    CHECK_EQ(st, 0);
    all = 1;
    CHECK_EQ(count_method(&res, "smemlab", &all), 8);
    CHECK(all);
    for (size_t i = 0; i < res.n; ++i)
        if (!strcmp(res.rows[i].method, "smemlab"))
            CHECK(strstr(res.rows[i].kernel, "_bulk_") == NULL);
    smem_sol_results_free(&res);
}

static void test_cli_json(void)
{
    char cmd[4600], out[65536];
    snprintf(cmd, sizeof cmd,
             "%s/smemlab bench transpose --sizes 256x192,1x5000 --dtypes f32 --reps 3 --warmup 1 --no-torch --format json "
             "--tune-cache none "
             "2>/dev/null",
             bdir);
    FILE *f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    size_t n = fread(out, 1, sizeof out - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CHECK(strstr(out, "\"device\":{\"name\":") != NULL);
    CHECK(strstr(out, "\"transpose\":[") != NULL);
    CHECK(strstr(out, "\"rows\":256,\"cols\":192,\"method\":\"smemlab\"") != NULL);
    CHECK(strstr(out, "\"verified\":false") == NULL);
    /* the copy's candidates measured (1 x n), none cached */
    CHECK(strstr(out, "\"tuning\":[{\"kind\":\"tiled\",\"dtype\":\"f32\",\"kernel\":\"sol_transpose_f32") != NULL);
    CHECK(strstr(out, "{\"kind\":\"copy\",\"dtype\":\"f32\",\"kernel\":\"sol_transpose_copy_f32") != NULL);
    CHECK(strstr(out, "\"from\":\"measured\"") != NULL);
}

int main(void)
{
    find_build_dir();
    char err[600];
    int st = smem_gpu_open(0, &g, err, sizeof err);
    if (st == SMEM_GPU_NO_DRIVER || st == SMEM_GPU_NO_DEVICE) {
        printf("skipped: %s (build folder %s)\n", err, bdir);
        return 77;
    }
    CHECK_EQ(st, SMEM_GPU_OK);
    if (st)
        return CHECK_DONE();
    char tfat[4300], rfat[4300];
    snprintf(tfat, sizeof tfat, "%s/sol_transpose.fatbin", kdir);
    snprintf(rfat, sizeof rfat, "%s/sol_reduce.fatbin", kdir);
    if (smem_gpu_info(g)->cc_major < 8 || access(tfat, R_OK) || access(rfat, R_OK)) {
        printf("skipped: kernels not built (no nvcc) or a GPU older than compute capability 8.0\n");
        smem_gpu_close(g);
        return 77;
    }
    CHECK_EQ(smem_gpu_module_load(g, tfat, &mod), SMEM_GPU_OK);
    RUN(test_best_transpose_matches_cpu);
    RUN(test_check_kernel_catches_one_wrong_element);
    RUN(test_transpose_bench_verifies_every_method);
    RUN(test_reduce_bench_verifies_every_method);
    RUN(test_cli_json);
    smem_gpu_module_unload(g, mod);
    smem_gpu_close(g);
    return CHECK_DONE();
}
