/* test_sol.c: the speed-of-light benchmarks' pure parts (input functions, CPU references, the
 * stated tolerance, ratios) and the CLI contract of `smemlab bench transpose|reduce` without a GPU.
 * Golden hash values were computed by an independent Python implementation of the same function. */
#include "check.h"
#include "testfile.h"
#include "smemlab/gpu/sol.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

static void test_hash_matches_independent_values(void)
{
    CHECK_EQ(smem_sol_hash32(0), 0);
    CHECK_EQ(smem_sol_hash32(1), 0x688990c0u);
    CHECK_EQ(smem_sol_hash32(2), 0xd1132181u);
    CHECK_EQ(smem_sol_hash32(12345), 0x912efcf7u);
    CHECK_EQ(smem_sol_hash32(0xffffffffu), 0x6768824au);
    CHECK_EQ(smem_sol_mix(5, 7), 0x9cdc746cu);
    CHECK_EQ(smem_sol_mix((3ull << 32) + 9, 0x5eed0000u), 0xff21c8b2u); /* the high word counts */
}

static void test_values_match_independent_values(void)
{
    const uint32_t seed = 0x5eed0000u + 8192u * 31u + 8192u;
    CHECK_EQ(smem_sol_val_f32(1234567, seed), 0x3f12bb08u);
    CHECK_EQ(smem_sol_val_f16(1234567, seed), 0x846c);
    CHECK(smem_sol_val_f64(1234567, seed) == 0x3fe257611b000000ull);
    CHECK_EQ(smem_sol_val_i32(1234567, seed), -20);
    CHECK(smem_sol_val_rf32(1234567, seed) == 0.7865831851959229f);
}

static void test_values_stay_in_their_ranges(void)
{
    int ok = 1;
    for (uint64_t i = 0; i < 200000; ++i) {
        uint32_t b = smem_sol_val_f32(i, 42);
        float f;
        memcpy(&f, &b, sizeof f);
        uint64_t bd = smem_sol_val_f64(i, 42);
        double d;
        memcpy(&d, &bd, sizeof d);
        int32_t v = smem_sol_val_i32(i, 42);
        float r = smem_sol_val_rf32(i, 42);
        /* f16: exponent field below 31 (no Inf/NaN) and below 16 (|x| < 2) */
        ok &= f >= -1.0f && f < 1.0f && d >= -1.0 && d < 1.0 && (smem_sol_val_f16(i, 42) & 0x4000) == 0 && v >= -128 &&
              v < 128 && r >= 0.0f && r < 1.0f;
    }
    CHECK(ok);
}

static void test_poison_never_matches_a_value(void)
{
    /* The bench fills outputs with 0xFF bytes before the first run: no input value has that pattern,
     * so an element the kernel forgot to write cannot pass the check. */
    int ok = 1;
    for (uint64_t i = 0; i < 100000; ++i)
        ok &= smem_sol_val_f32(i, 1) != 0xFFFFFFFFu && smem_sol_val_f16(i, 1) != 0xFFFF &&
              smem_sol_val_f64(i, 1) != ~0ull;
    CHECK(ok);
}

static void test_i32_sum_matches_independent_value(void)
{
    CHECK_EQ(smem_sol_sum_i32(100000, 99), -64840);
    CHECK_EQ(smem_sol_sum_i32(0, 99), 0);
}

static void test_f32_reference_is_exact(void)
{
    /* Every term is k / 2^24 with k < 2^24: summed as integers the result is exact, and the float64
     * reference must equal it (the claim in smem_sol_sum_f32). */
    const uint64_t n = 1000003;
    uint64_t k = 0;
    for (uint64_t i = 0; i < n; ++i)
        k += smem_sol_mix(i, 7) >> 8;
    CHECK(smem_sol_sum_f32(n, 7) == (double)k / 16777216.0);
}

static void test_tolerances(void)
{
    CHECK(smem_sol_sum_i32_ok(5, 5));
    CHECK(!smem_sol_sum_i32_ok(6, 5));
    CHECK(smem_sol_sum_i32_ok(5 + (1ll << 32), 5)); /* an int32 sum wraps modulo 2^32 */
    const double ref = 33554432.5;
    CHECK(smem_sol_sum_f32_ok(ref * (1 + 0.9e-5), ref));
    CHECK(smem_sol_sum_f32_ok(ref * (1 - 0.9e-5), ref));
    CHECK(!smem_sol_sum_f32_ok(ref * (1 + 1.1e-5), ref));
    CHECK(!smem_sol_sum_f32_ok(NAN, ref));
    CHECK(!smem_sol_sum_f32_ok(INFINITY, ref));
}

static void test_cpu_transpose(void)
{
    const uint16_t in[2 * 3] = {1, 2, 3, 4, 5, 6}; /* 2 x 3 */
    uint16_t out[3 * 2];
    smem_sol_transpose_cpu(out, in, 2, 3, sizeof in[0]);
    const uint16_t want[3 * 2] = {1, 4, 2, 5, 3, 6};
    CHECK(memcmp(out, want, sizeof out) == 0);
}

static void test_dtype_names(void)
{
    CHECK_EQ(smem_sol_dtype_parse("f32"), SMEM_SOL_F32);
    CHECK_EQ(smem_sol_dtype_parse("f16"), SMEM_SOL_F16);
    CHECK_EQ(smem_sol_dtype_parse("f64"), SMEM_SOL_F64);
    CHECK_EQ(smem_sol_dtype_parse("i32"), SMEM_SOL_I32);
    CHECK_EQ(smem_sol_dtype_parse("bf16"), -1);
    CHECK_EQ(smem_sol_dtype_bytes(SMEM_SOL_F16), 2);
    CHECK_EQ(smem_sol_dtype_bytes(SMEM_SOL_F64), 8);
    CHECK_STR(smem_sol_dtype_name(SMEM_SOL_F64), "f64");
}

/* Which kernel each shape and alignment gets, and grids that cover the matrix (the GPU tests run
 * them; the emulator bench/sol/emu_check.cpp runs every path on the CPU). */
static void test_transpose_launch_paths(void)
{
    struct smem_sol_launch l;
    const uint64_t a = 1ull << 20; /* 16-byte aligned device addresses */
    CHECK_EQ(smem_sol_transpose_launch(4, 8192, 8192, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_f32");
    CHECK_EQ(l.tile_rows, 64);
    CHECK(l.grid[0] == 128 && l.grid[1] == 128 && l.block[0] == 256);
    CHECK_EQ(smem_sol_transpose_launch(4, 16384, 16384, a, a, &l), 0); /* 1 GB: column-major, 1-D grid */
    CHECK_STR(l.kernel, "sol_transpose_large_f32");
    CHECK((long long)l.grid[0] == (16384LL / l.tile_rows) * (16384 / l.tile_cols) && l.grid[1] == 1);
    CHECK_EQ(smem_sol_transpose_launch_as(4, 64, 64, "large", a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_large_f32");
    CHECK_EQ(smem_sol_transpose_launch_as(4, 64, 63, "large", a, a, &l), -1); /* tiled kinds need alignment */
    CHECK_EQ(smem_sol_transpose_launch_as(4, 64, 63, "any", a, a, &l), 0);
    CHECK_EQ(smem_sol_transpose_launch_as(4, 64, 63, "copy", a, a, &l), -1);
    CHECK_EQ(smem_sol_transpose_launch_as(4, 64, 64, "bogus", a, a, &l), -1);
    CHECK_EQ(smem_sol_transpose_launch(8, 10000, 7000, a, a, &l), 0); /* 56000-byte rows: off the lines */
    CHECK_STR(l.kernel, "sol_transpose_big_f64"); /* column-major: a 1-D grid of every tile */
    CHECK(l.grid[1] == 1 && (long long)l.grid[0] == ((10000 + l.tile_rows - 1) / l.tile_rows) *
                                                       (long long)((7000 + l.tile_cols - 1) / l.tile_cols));
    CHECK_EQ(smem_sol_transpose_launch(2, 1 << 20, 32, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_narrow_f16");
    CHECK(l.tile_cols == 32 && (long long)l.grid[1] * l.tile_rows >= 1 << 20);
    CHECK_EQ(smem_sol_transpose_launch(4, 8192, 4096, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_f32");
    CHECK_EQ(smem_sol_transpose_launch(4, 8192, 4104, a, a, &l), 0); /* 16416-byte rows */
    CHECK_STR(l.kernel, "sol_transpose_big_f32");
    CHECK_EQ(smem_sol_transpose_launch(4, 4097, 4097, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_any_f32");
    CHECK_EQ(smem_sol_transpose_launch(4, 64, 64, a + 4, a, &l), 0); /* a misaligned pointer */
    CHECK_STR(l.kernel, "sol_transpose_any_f32");
    CHECK_EQ(smem_sol_transpose_launch(2, 1, 1 << 26, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_copy_f16");
    CHECK((long long)l.grid[0] * l.block[0] * 2 * 8 >= 1 << 26 && l.grid[1] == 1);
    CHECK_EQ(smem_sol_transpose_launch(8, 1000, 1, a, a, &l), 0);
    CHECK_STR(l.kernel, "sol_transpose_copy_f64");
    CHECK_EQ(smem_sol_transpose_launch(3, 8, 8, a, a, &l), -1);
    CHECK_EQ(smem_sol_transpose_launch(4, 0, 8, a, a, &l), -1);
    CHECK_EQ(smem_sol_transpose_launch(4, 1 << 16, 1 << 16, a, a, &l), -1); /* 2^32 elements */
}

static struct smem_sol_row mk(const char *method, long long rows, double ms, double gbps, int verified)
{
    struct smem_sol_row r;
    memset(&r, 0, sizeof r);
    snprintf(r.bench, sizeof r.bench, "transpose");
    snprintf(r.dtype, sizeof r.dtype, "f32");
    snprintf(r.method, sizeof r.method, "%s", method);
    r.rows = rows;
    r.cols = 8;
    r.median_ms = ms;
    r.gbps = gbps;
    r.verified = verified;
    return r;
}

static void test_ratios_use_copy_and_fastest_verified_peer(void)
{
    struct smem_sol_row rows[] = {
        mk("memcpy", 8, 1.0, 3000, 1), mk("smemlab", 8, 1.05, 2857, 1), mk("cublas", 8, 1.10, 2727, 1),
        mk("torch", 8, 0.5, 6000, 0), /* unverified: no peer */
        mk("torch", 8, 3.3, 909, 1),  mk("smemlab", 16, 2.0, 2900, 1), /* another case: no copy, no peer */
    };
    struct smem_sol_results res;
    memset(&res, 0, sizeof res);
    res.rows = rows;
    res.n = res.cap = sizeof rows / sizeof rows[0];
    smem_sol_ratios(&res);
    CHECK(fabs(rows[1].ratio_copy - 2857.0 / 3000.0) < 1e-12);
    CHECK(fabs(rows[1].ratio_peer - 1.10 / 1.05) < 1e-12);
    CHECK(fabs(rows[2].ratio_peer - 1.0) < 1e-12);
    CHECK(fabs(rows[0].ratio_copy - 1.0) < 1e-12);
    CHECK(rows[5].ratio_copy == 0 && rows[5].ratio_peer == 0);
    CHECK(smem_sol_is_peer("cub") && smem_sol_is_peer("torch") && !smem_sol_is_peer("memcpy"));
}

static int run(const char *args, char *out, size_t outlen)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "%s/smemlab %s 2>&1", SMEMLAB_BINARY_DIR, args);
    FILE *f = popen(cmd, "r");
    if (!f)
        return -1;
    size_t n = fread(out, 1, outlen - 1, f);
    out[n] = '\0';
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Issue 34: the candidates per kind, their launches, the pick and the cache's lines (all pure; the
 * measuring itself runs on the GPU in sol_bench.c) */
static void test_candidates_and_their_launches(void)
{
    struct smem_sol_launch l;
    const uint64_t a = 0x10000;
    CHECK_EQ(smem_sol_transpose_candidates(2, "any"), 2);
    CHECK_EQ(smem_sol_transpose_candidates(4, "any"), 4);
    CHECK_EQ(smem_sol_transpose_candidates(8, "any"), 4);
    CHECK_EQ(smem_sol_transpose_candidates(8, "narrow"), 5);
    CHECK_EQ(smem_sol_transpose_candidates(4, "narrow"), 4);
    CHECK_EQ(smem_sol_transpose_candidates(2, "narrow"), 1);
    CHECK_EQ(smem_sol_transpose_candidates(4, "copy"), 2);
    CHECK_EQ(smem_sol_transpose_candidates(4, ""), 2);
    CHECK_EQ(smem_sol_transpose_candidates(8, ""), 5);
    CHECK_EQ(smem_sol_transpose_candidates(8, "large"), 5);
    CHECK_EQ(smem_sol_transpose_candidates(2, "big"), 3);
    CHECK_EQ(smem_sol_transpose_candidates(4, "bogus"), 0);
    CHECK_EQ(smem_sol_transpose_candidates(3, "any"), 0);
    /* f16 any, candidate 1: 64x128 tiles of 256 threads, column-major 1-D grid (65 x 33 tiles) */
    CHECK_EQ(smem_sol_transpose_launch_cand(2, 4097, 4097, "any", 1, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f16_64x128") == 0);
    CHECK(l.block[0] == 256 && l.tile_rows == 64 && l.tile_cols == 128 && l.grid[0] == 65u * 33u && l.grid[1] == 1);
    /* session 4's gather store (candidate 2) lost on the H200 and was dropped (session 5), as did the raw
     * kernel with the shuffle store (session 5: raw store) */
    CHECK_EQ(smem_sol_transpose_launch_cand(2, 4097, 4097, "any", 2, a, a, &l), -1); /* no third */
    /* f16 big, candidate 2: 64x256 tiles, column-major */
    CHECK_EQ(smem_sol_transpose_launch_cand(2, 10000, 7000, "big", 2, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_big_f16_64x256") == 0);
    CHECK(l.tile_rows == 64 && l.tile_cols == 256 && l.grid[0] == 157u * 28u && l.grid[1] == 1);
    CHECK_EQ(smem_sol_transpose_launch_cand(2, 4097, 4097, "any", -1, a, a, &l), -1);
    /* f64 narrow, candidate 1: 128x32 tiles of 512 threads, row-major (1 across, 8192 down) */
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 1048576, 32, "narrow", 1, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_narrow_f64_128x32") == 0);
    CHECK(l.block[0] == 512 && l.tile_rows == 128 && l.tile_cols == 32 && l.grid[0] == 1 && l.grid[1] == 8192);
    /* the copy, candidate 1: blocks of 1024 threads, 2 words each */
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 1, 1 << 26, "copy", 1, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_copy_f32_t1024") == 0);
    CHECK(l.block[0] == 1024 && l.grid[0] == (1u << 26) / (1024 * 2 * 4));
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 1, 1 << 26, "copy", 0, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_copy_f32") == 0 && l.block[0] == 256);
    /* the raw any kernels, one block a tile (f32: 65 x 65 tiles of 64x64; f64: 129 x 129 of 32x32, and
     * session 5's 65 x 129 of 64x32 of 512 threads); session 4's other raw forms (gather store, 128
     * threads, two tiles a block) lost on the H200 and were dropped (session 5), with f64's shuffled pairs */
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 4097, 4097, "any", 2, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f32_raw") == 0 && l.grid[0] == 65u * 65u);
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 4097, 4097, "any", 1, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f64_raw") == 0 && l.block[0] == 256 && l.grid[0] == 129u * 129u);
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 4097, 4097, "any", 2, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f64_raw64x32") == 0 && l.block[0] == 512);
    CHECK(l.tile_rows == 64 && l.tile_cols == 32 && l.grid[0] == 65u * 129u && l.grid[1] == 1);
    /* session 5's raw kernels with the shuffle store (each block computed once): f32 at 64x64 tiles
     * (candidate 3), f64 at 64x32 of 512 threads (3); no fifth (the bulk-copied rows, f32 at 5 blocks a
     * SM and the padded rows by words lost on the H200) */
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 4097, 4097, "any", 3, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f32_raws") == 0 && l.block[0] == 256 && l.grid[0] == 65u * 65u);
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 4097, 4097, "any", 4, a, a, &l), -1);
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 4097, 4097, "any", 3, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f64_raws64x32") == 0 && l.block[0] == 512 && l.tile_rows == 64 &&
          l.tile_cols == 32 && l.grid[0] == 65u * 129u);
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 4097, 4097, "any", 4, a, a, &l), -1);
    /* every kind but the any kind refuses misaligned shapes */
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 4097, 4097, "large", 1, a, a, &l), -1);
    /* large f64: 32x128 tiles (candidate 1), 128x32 (2), column-major on a 1-D grid */
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 16384, 16384, "large", 1, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_large_f64_32x128") == 0 && l.tile_rows == 32 && l.tile_cols == 128 &&
          l.grid[0] == 512u * 128u && l.grid[1] == 1);
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 16384, 16384, "large", 2, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_large_f64_128x32") == 0 && l.tile_rows == 128 && l.grid[0] == 128u * 512u);
    /* tiled f64, candidate 2: the ASYNC tile of 128 threads, 32x32, row-major (128 across, 256 down) */
    CHECK_EQ(smem_sol_transpose_launch_cand(8, 8192, 4096, "", 2, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_f64_a") == 0 && l.block[0] == 128 && l.grid[0] == 128 && l.grid[1] == 256);
    /* narrow f32, candidate 3: 256x32 tiles (1 across, 4096 down) */
    CHECK_EQ(smem_sol_transpose_launch_cand(4, 1048576, 32, "narrow", 3, a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_narrow_f32_256x32a") == 0 && l.tile_rows == 256 && l.grid[0] == 1 &&
          l.grid[1] == 4096);
    /* every candidate of a kind and element size is a different kernel, and takes its kind's probe */
    for (int k = 0; k < SMEM_SOL_KINDS; ++k)
        for (size_t e = 2; e <= 8; e *= 2) {
            const char *kind = smem_sol_kind_name(k);
            const int n = smem_sol_transpose_candidates(e, kind);
            char names[SMEM_SOL_MAX_CANDIDATES][64];
            long long r = 0, c = 0;
            CHECK(n >= 1 && n <= SMEM_SOL_MAX_CANDIDATES);
            CHECK_EQ(smem_sol_tune_probe(e, kind, &r, &c), 0);
            for (int i = 0; i < n; ++i) {
                CHECK_EQ(smem_sol_transpose_launch_cand(e, r, c, kind, i, a, a, &l), 0);
                snprintf(names[i], sizeof names[i], "%s", l.kernel);
                for (int j = 0; j < i; ++j)
                    CHECK(strcmp(names[i], names[j]) != 0);
            }
        }
    /* launch_as is candidate 0 */
    CHECK_EQ(smem_sol_transpose_launch_as(8, 1048576, 32, "narrow", a, a, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_narrow_f64") == 0 && l.block[0] == 256);
}

static void test_tuned_launch_follows_the_picks(void)
{
    struct smem_sol_tuning t;
    memset(&t, 0, sizeof t);
    struct smem_sol_launch l;
    const uint64_t a = 0x10000;
    CHECK(strcmp(smem_sol_transpose_kind(2, 4097, 4097, a, a), "any") == 0);
    CHECK(strcmp(smem_sol_transpose_kind(8, 1048576, 32, a, a), "narrow") == 0);
    CHECK(strcmp(smem_sol_transpose_kind(4, 1, 1000, a, a), "copy") == 0);
    CHECK(strcmp(smem_sol_transpose_kind(4, 64, 64, a + 4, a), "any") == 0);
    CHECK(smem_sol_transpose_kind(4, 0, 64, a, a) == NULL);
    CHECK_EQ(smem_sol_transpose_launch_tuned(2, 4097, 4097, a, a, &t, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f16") == 0);
    t.pick[smem_sol_kind_index("any")][1] = 1;
    CHECK_EQ(smem_sol_transpose_launch_tuned(2, 4097, 4097, a, a, &t, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f16_64x128") == 0);
    /* the pick is per element size: f32's any kernel stays at candidate 0, and a pick past the
     * kind's candidates counts as 0 */
    CHECK_EQ(smem_sol_transpose_launch_tuned(4, 4097, 4097, a, a, &t, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f32") == 0);
    t.pick[smem_sol_kind_index("any")][0] = 1;
    CHECK_EQ(smem_sol_transpose_launch_tuned(4, 4097, 4097, a, a, &t, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f32_shfl") == 0);
    t.pick[smem_sol_kind_index("any")][0] = 7;
    CHECK_EQ(smem_sol_transpose_launch_tuned(4, 4097, 4097, a, a, &t, &l), 0);
    CHECK(strcmp(l.kernel, "sol_transpose_any_f32") == 0);
    /* NULL: what smem_sol_transpose_launch does */
    struct smem_sol_launch m;
    CHECK_EQ(smem_sol_transpose_launch_tuned(2, 4097, 4097, a, a, NULL, &l), 0);
    CHECK_EQ(smem_sol_transpose_launch(2, 4097, 4097, a, a, &m), 0);
    CHECK(memcmp(&l, &m, sizeof l) == 0);
    /* every kind's probe shape takes that kind, for every element size */
    for (int k = 0; k < SMEM_SOL_KINDS; ++k)
        for (size_t e = 2; e <= 8; e *= 2) {
            long long r = 0, c = 0;
            CHECK_EQ(smem_sol_tune_probe(e, smem_sol_kind_name(k), &r, &c), 0);
            const char *kind = smem_sol_transpose_kind(e, r, c, a, a);
            CHECK(kind && strcmp(kind, smem_sol_kind_name(k)) == 0);
        }
    CHECK(smem_sol_kind_name(SMEM_SOL_KINDS) == NULL && smem_sol_kind_index("bogus") == -1);
}

static void test_tune_pick_needs_the_margin(void)
{
    const double tie[] = {1.0, 0.995}, win[] = {1.0, 0.98}, lose[] = {1.0, 1.2}, failed0[] = {0, 0.5},
                 failed1[] = {1.0, 0};
    CHECK_EQ(smem_sol_tune_pick(tie, 2, SMEM_SOL_TUNE_MARGIN), 0);
    CHECK_EQ(smem_sol_tune_pick(win, 2, SMEM_SOL_TUNE_MARGIN), 1);
    CHECK_EQ(smem_sol_tune_pick(lose, 2, SMEM_SOL_TUNE_MARGIN), 0);
    CHECK_EQ(smem_sol_tune_pick(failed0, 2, SMEM_SOL_TUNE_MARGIN), 0);
    CHECK_EQ(smem_sol_tune_pick(failed1, 2, SMEM_SOL_TUNE_MARGIN), 0);
    CHECK_EQ(smem_sol_tune_pick(win, 1, SMEM_SOL_TUNE_MARGIN), 0);
    CHECK_EQ(smem_sol_tune_pick(win, 2, 0.05), 0);
}

static void test_tune_cache_lines(void)
{
    /* FNV-1a 64 of "a" (the published test vector) */
    CHECK(smem_sol_fnv1a("a", 1, 0xcbf29ce484222325ULL) == 0xaf63dc4c8601ec8cULL);
    const char *key = "NVIDIA H200|580.159.04|0123456789abcdef";
    const double ms[] = {0.0296, 0.0279};
    char line[512];
    CHECK_EQ(smem_sol_tune_format(line, sizeof line, key, smem_sol_kind_index("any"), 2, "sol_transpose_any_f16_64x128",
                                  ms, 2),
             0);
    CHECK(strcmp(line, "NVIDIA H200|580.159.04|0123456789abcdef\tany\tf16\tsol_transpose_any_f16_64x128\t"
                       "0.02960,0.02790") == 0);
    struct smem_sol_tuning t;
    memset(&t, 0, sizeof t);
    const int any = smem_sol_kind_index("any");
    CHECK_EQ(smem_sol_tune_parse(line, "NVIDIA H100 80GB HBM3|580.159.04|0123456789abcdef", &t), 0); /* another */
    CHECK(t.known[any][1] == 0 && t.pick[any][1] == 0);
    CHECK_EQ(smem_sol_tune_parse(line, key, &t), 1);
    CHECK(t.known[any][1] == 1 && t.pick[any][1] == 1);
    CHECK(fabs(t.ms[any][1][0] - 0.0296) < 1e-9 && fabs(t.ms[any][1][1] - 0.0279) < 1e-9);
    /* the tiled kind is written "tiled"; candidate 0 read back as 0 */
    CHECK_EQ(smem_sol_tune_format(line, sizeof line, key, 0, 4, "sol_transpose_f32", ms, 1), 0);
    CHECK(strstr(line, "\ttiled\tf32\tsol_transpose_f32\t") != NULL);
    CHECK_EQ(smem_sol_tune_parse(line, key, &t), 1);
    CHECK(t.known[0][0] == 1 && t.pick[0][0] == 0);
    CHECK_EQ(smem_sol_tune_parse("# a comment\n", key, &t), 0);
    CHECK_EQ(smem_sol_tune_parse("\n", key, &t), 0);
    char bad[512];
    snprintf(bad, sizeof bad, "%s\tany\tf16\tsol_transpose_any_f16_96x96\t0.1,0.2", key); /* no such candidate */
    CHECK_EQ(smem_sol_tune_parse(bad, key, &t), -1);
    snprintf(bad, sizeof bad, "%s\tany\tf16", key); /* fields missing */
    CHECK_EQ(smem_sol_tune_parse(bad, key, &t), -1);
    snprintf(bad, sizeof bad, "%s\tany\ti32\tsol_transpose_any_f16\t0.1", key);
    CHECK_EQ(smem_sol_tune_parse(bad, key, &t), -1);
    snprintf(bad, sizeof bad, "%s\tany\tf16\tsol_transpose_any_f16\t0.1;0.2", key);
    CHECK_EQ(smem_sol_tune_parse(bad, key, &t), -1);
    CHECK(t.pick[any][1] == 1); /* untouched by the bad lines */
    CHECK_EQ(smem_sol_tune_format(line, sizeof line, "a\tb", any, 2, "x", ms, 2), -1);
    CHECK_EQ(smem_sol_tune_format(line, 20, key, any, 2, "sol_transpose_any_f16", ms, 2), -1);
}

/* The reduce's forms (sol.c, issue 34): by default the bulk-copy form on sm_90 and later and the
 * register form before, each when asked on any device; each launch shape is the kernel's own (.maxntid, and .minnctapersm where it has
 * one) in the PTX the build made of kernels/sol_reduce.cu. */
static void test_reduce_forms_match_the_kernels(void)
{
    struct smem_sol_reduce_launch def8 = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_AUTO, 8),
                                  def9 = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_AUTO, 9),
                                  def10 = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_AUTO, 10),
                                  reg = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_REGISTER, 9),
                                  reg8 = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_REGISTER, 8),
                                  bulk = smem_sol_reduce_launch_of(SMEM_SOL_REDUCE_BULK, 9);
    CHECK(strcmp(def8.infix, "") == 0);
    CHECK_EQ(def8.threads, reg.threads);
    CHECK(strcmp(def9.infix, "_bulk") == 0);
    CHECK_EQ(def9.threads, bulk.threads);
    CHECK(strcmp(def10.infix, "_bulk") == 0);
    CHECK(strcmp(reg.infix, "") == 0);
    CHECK(strcmp(reg8.infix, "") == 0);
    CHECK(strcmp(bulk.infix, "_bulk") == 0);
    char *ptx = test_read_file(SMEMLAB_BINARY_DIR "/kernels/sol_reduce.ptx", NULL);
    CHECK(ptx != NULL);
    if (!ptx)
        return;
    const struct smem_sol_reduce_launch all[] = {reg, bulk};
    for (size_t i = 0; i < 2; ++i)
        for (int d = 0; d < 2; ++d) {
            char entry[96];
            snprintf(entry, sizeof entry, ".entry sol_reduce%s_%s(", all[i].infix, d ? "f32" : "i32");
            const char *at = strstr(ptx, entry);
            CHECK(at != NULL);
            if (!at)
                continue;
            const char *body = strchr(at, '{');
            const char *nt = strstr(at, ".maxntid"), *mb = strstr(at, ".minnctapersm");
            CHECK(nt != NULL && body != NULL && nt < body);
            if (nt)
                CHECK_EQ(atoi(nt + strlen(".maxntid")), all[i].threads);
            if (mb && body && mb < body)
                CHECK_EQ(atoi(mb + strlen(".minnctapersm")), all[i].blocks_per_sm);
            else
                CHECK(all[i].threads * all[i].blocks_per_sm <= 2048); /* fits a SM without a bound */
        }
    free(ptx);
}

static void test_cli_usage_errors(void)
{
    char out[4096];
    CHECK_EQ(run("bench transpose --sizes 0x5", out, sizeof out), 2);
    CHECK(strstr(out, "--sizes") != NULL);
    CHECK_EQ(run("bench transpose --sizes 100000000x100", out, sizeof out), 2);
    CHECK_EQ(run("bench transpose --dtypes i32", out, sizeof out), 2);
    CHECK_EQ(run("bench reduce --dtypes f16", out, sizeof out), 2);
    CHECK_EQ(run("bench reduce --n 2^40", out, sizeof out), 2);
    CHECK_EQ(run("bench reduce --reps 0", out, sizeof out), 2);
    CHECK_EQ(run("bench transpose --format xml", out, sizeof out), 2);
    CHECK_EQ(run("bench transpose --bogus", out, sizeof out), 2);
    CHECK_EQ(run("bench transpose --tune sometimes", out, sizeof out), 2);
    CHECK(strstr(out, "--tune takes auto, off or again") != NULL);
    CHECK_EQ(run("bench transpose --tune-cache", out, sizeof out), 2);
    CHECK_EQ(run("bench reduce --tune off", out, sizeof out), 2); /* the sums have no candidates */
    CHECK_EQ(run("bench reduce --form fast", out, sizeof out), 2);
    CHECK(strstr(out, "--form takes auto, register or bulk") != NULL);
    CHECK_EQ(run("bench transpose --form bulk", out, sizeof out), 2); /* the sums' option only */
    CHECK_EQ(run("bench transpose --help", out, sizeof out), 0);
    CHECK(strstr(out, "usage: smemlab bench transpose") != NULL);
    CHECK_EQ(run("bench reduce --help", out, sizeof out), 0);
    CHECK(strstr(out, "CUB") != NULL);
    CHECK(strstr(out, "--form auto|register|bulk") != NULL);
}

static void test_cli_without_gpu_says_so(void)
{
    char out[4096];
    int rc = run("bench transpose --sizes 64x64 --reps 1 --no-torch", out, sizeof out);
    if (rc == 0) {
        printf("(a GPU is present: the no-GPU contract is not checked here)\n");
        return;
    }
    CHECK_EQ(rc, 4);
    /* one sentence (progress lines aside) */
    CHECK(strstr(out, "no CUDA driver") || strstr(out, "kernels are missing") || strstr(out, "no usable"));
    rc = run("bench reduce --n 1024 --reps 1 --no-torch -q", out, sizeof out);
    CHECK_EQ(rc, 4);
    CHECK(strchr(out, '\n') == strrchr(out, '\n')); /* -q: exactly one line */
}

int main(void)
{
    RUN(test_hash_matches_independent_values);
    RUN(test_values_match_independent_values);
    RUN(test_values_stay_in_their_ranges);
    RUN(test_poison_never_matches_a_value);
    RUN(test_i32_sum_matches_independent_value);
    RUN(test_f32_reference_is_exact);
    RUN(test_tolerances);
    RUN(test_cpu_transpose);
    RUN(test_dtype_names);
    RUN(test_transpose_launch_paths);
    RUN(test_ratios_use_copy_and_fastest_verified_peer);
    RUN(test_candidates_and_their_launches);
    RUN(test_tuned_launch_follows_the_picks);
    RUN(test_tune_pick_needs_the_margin);
    RUN(test_tune_cache_lines);
    RUN(test_reduce_forms_match_the_kernels);
    RUN(test_cli_usage_errors);
    RUN(test_cli_without_gpu_says_so);
    return CHECK_DONE();
}
