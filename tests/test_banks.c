/* test_banks.c: the bank model against the H100's counters (tests/hw/h100-counters.csv, section C:
 * one warp, one load per pattern; source: shared/hw/src/smem_patterns.cu) and the documents' claims. */
#include "check.h"
#include "hwdata.h"
#include "smemlab/model/banks.h"

static struct smem_cost cost_of(unsigned width, long long (*elem)(unsigned), unsigned elem_bytes)
{
    struct smem_banks b = smem_banks_default();
    struct smem_request r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = width;
    r.op = SMEM_LD;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = (uint32_t)(elem(l) * elem_bytes);
    CHECK(smem_request_check(&b, &r) == NULL);
    return smem_request_cost(&b, &r);
}

/* Checks one section-C row: wavefronts per load request and the bank-conflict counter. */
static void golden(const char *kernel, unsigned width, long long (*elem)(unsigned), unsigned eb)
{
    struct smem_cost c = cost_of(width, elem, eb);
    long long wf = hw_value("h100-counters.csv", "C", kernel, "ld_wf_sass");
    long long bc = hw_value("h100-counters.csv", "C", kernel, "ld_bc");
    long long req = hw_value("h100-counters.csv", "C", kernel, "ld_inst");
    if (c.wavefronts * req != wf || smem_cost_conflicts(c) * req != bc)
        fprintf(stderr, "  %s: model %u wf %u conflicts, H100 %lld wf %lld conflicts\n", kernel,
                c.wavefronts, smem_cost_conflicts(c), wf / req, bc / req);
    CHECK_EQ(c.wavefronts * req, wf);
    CHECK_EQ(smem_cost_conflicts(c) * req, bc);
}

#define E(name, expr) static long long name(unsigned tid) { (void)tid; return (long long)(expr); }
E(zero, 0) E(id, tid) E(half, tid / 2) E(plus71, tid + 71)
E(s2, tid * 2) E(s3, tid * 3) E(s4, tid * 4) E(s5, tid * 5) E(s6, tid * 6) E(s7, tid * 7)
E(s8, tid * 8) E(s16, tid * 16) E(s17, tid * 17) E(s31, tid * 31) E(s32, tid * 32)
E(s33, tid * 33) E(s64, tid * 64) E(s128, tid * 128) E(s129, tid * 129)
E(col_plain, tid * 32 + 5) E(col_pad33, tid * 33 + 5) E(col_xor, tid * 32 + (5 ^ tid))
E(row_xor, 5 * 32 + (tid ^ 5)) E(point4d, tid * 4) E(point5, tid * 5)

static void test_access_pattern_table_4byte(void)
{
    golden("i32_bcast_0", 4, zero, 4);
    golden("i32_blockIdx", 4, zero, 4);
    golden("i32_tid", 4, id, 4);
    golden("f32_tid", 4, id, 4);
    golden("i32_tid_div2", 4, half, 4);
    golden("i32_tid_plus71", 4, plus71, 4);
    golden("i32_stride2", 4, s2, 4);
    golden("i32_stride3", 4, s3, 4);
    golden("i32_stride4", 4, s4, 4);
    golden("i32_stride5", 4, s5, 4);
    golden("i32_stride6", 4, s6, 4);
    golden("i32_stride7", 4, s7, 4);
    golden("i32_stride8", 4, s8, 4);
    golden("i32_stride16", 4, s16, 4);
    golden("i32_stride17", 4, s17, 4);
    golden("i32_stride31", 4, s31, 4);
    golden("i32_stride32", 4, s32, 4);
    golden("f32_stride32", 4, s32, 4);
    golden("i32_stride33", 4, s33, 4);
    golden("i32_stride64", 4, s64, 4);
    golden("i32_stride128", 4, s128, 4);
    golden("i32_stride129", 4, s129, 4);
}

static void test_char_and_short_never_conflict_within_a_word(void)
{
    golden("u8_tid", 1, id, 1);
    golden("u16_tid", 2, id, 2);
    golden("u8_stride4", 1, s4, 1);
    golden("u16_stride2", 2, s2, 2);
    golden("u8_stride2", 1, s2, 1);
    golden("u8_stride128", 1, s128, 1);
    golden("u16_stride64", 2, s64, 2);
}

static void test_8byte_whole_warp_one_group(void)
{
    golden("f64_tid", 8, id, 8);
    golden("f64_stride2", 8, s2, 8);
    golden("f64_stride16", 8, s16, 8);
    golden("f64_stride17", 8, s17, 8);
    golden("f64_bcast_0", 8, zero, 8);
    golden("f64_tid_div2", 8, half, 8);
}

static void test_16byte_two_half_warps(void)
{
    golden("f4_tid", 16, id, 16);
    golden("f4_stride2", 16, s2, 16);
    golden("f4_stride8", 16, s8, 16);
    golden("f4_bcast_0", 16, zero, 16);
    golden("f4_tid_div2", 16, half, 16);
}

static void test_tile_column_pad_and_xor(void)
{
    golden("tile_col_plain", 4, col_plain, 4);
    golden("tile_col_pad33", 4, col_pad33, 4);
    golden("tile_col_xor", 4, col_xor, 4);
    golden("tile_row_xor", 4, row_xor, 4);
}

static void test_point4d_is_4way_point5_is_free(void)
{
    /* arr[tid].x: 4-byte loads at a 16-byte (Point4D) or 20-byte (Point5) stride; the CSV rows
     * hold 2 loads each (the increment and a verification load). */
    golden("point4d_x_inc", 4, point4d, 4);
    golden("point5_x_inc", 4, point5, 4);
    CHECK_EQ(cost_of(4, point4d, 4).max_ways, 4);
}

static long long stride_s;
static long long strided(unsigned tid) { return (long long)tid * stride_s; }
static unsigned gcd(unsigned a, unsigned b) { return b ? gcd(b, a % b) : a; }

static void test_stride_s_conflicts_gcd_s_32_ways(void)
{
    /* Seed 001: stride s makes gcd(s, 32) lanes share a bank; odd strides are free. */
    for (unsigned s = 1; s <= 257; s++) {
        stride_s = s;
        CHECK_EQ(cost_of(4, strided, 4).wavefronts, gcd(s, 32));
    }
}

static void test_inactive_lanes_cost_nothing(void)
{
    struct smem_banks b = smem_banks_default();
    struct smem_request r;
    memset(&r, 0, sizeof r);
    r.width = 4;
    CHECK_EQ(smem_request_cost(&b, &r).wavefronts, 0);
    r.active = 0x1u | 0x10000u; /* lanes 0 and 16 at stride 32 words: same bank */
    r.addr[0] = 0;
    r.addr[16] = 128;
    CHECK_EQ(smem_request_cost(&b, &r).wavefronts, 2);
    /* 16-byte: lanes 0 and 16 fall in different half-warps, so no conflict between them. */
    r.width = 16;
    CHECK_EQ(smem_request_cost(&b, &r).wavefronts, 2);
    CHECK_EQ(smem_request_cost(&b, &r).ideal, 2);
}

static void test_kepler_8byte_banks(void)
{
    /* Kepler's 8-byte mode: two 4-byte words in one 8-byte bank word do not conflict, so a stride
     * of 2 ints is free and a stride of 64 ints is 32-way. */
    struct smem_banks k = {32, 8};
    struct smem_request r;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = 4;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = l * 8;
    CHECK_EQ(smem_request_cost(&k, &r).wavefronts, 1);
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = l * 256;
    CHECK_EQ(smem_request_cost(&k, &r).wavefronts, 32);
}

static void test_bad_requests_are_refused(void)
{
    struct smem_banks b = smem_banks_default(), bad = {0, 4};
    struct smem_request r;
    memset(&r, 0, sizeof r);
    r.active = 1;
    r.width = 3;
    CHECK(smem_request_check(&b, &r) != NULL);
    r.width = 8;
    r.addr[0] = 4;
    CHECK(smem_request_check(&b, &r) != NULL);
    CHECK(smem_banks_check(&bad) != NULL);
}

static void test_bank_map_shows_broadcast(void)
{
    struct smem_banks b = smem_banks_default();
    struct smem_request r;
    static struct smem_bank_map m;
    memset(&r, 0, sizeof r);
    r.active = 0xffffffffu;
    r.width = 4;
    for (unsigned l = 0; l < 32; l++)
        r.addr[l] = (l / 2) * 4;
    smem_request_map(&b, &r, &m);
    CHECK_EQ(m.nwords[0], 1);
    CHECK_EQ(m.slot[0][0].lanes, 0x3u);
    CHECK_EQ(m.nwords[16], 0);
}

/* The one-pass price of word requests is the model's: random requests of 1, 2 and 4 bytes with
 * few distinct words (broadcasts, multicasts, conflicts of every degree), misaligned ones refused
 * by both, and the wider ones left to the model. */
static void test_word_request_fast_path_is_the_model(void)
{
    struct smem_banks b = smem_banks_default();
    uint64_t s = 0x243F6A8885A308D3ull;
    unsigned checked = 0, conflicted = 0;
    for (unsigned it = 0; it < 20000; it++) {
        struct smem_request r;
        memset(&r, 0, sizeof r);
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        unsigned widths[5] = {1, 2, 4, 8, 16};
        r.width = widths[(s >> 33) % 5];
        r.op = (s >> 40) % 3 == 0 ? SMEM_ST : (s >> 40) % 3 == 1 ? SMEM_LD : SMEM_ATOM;
        r.active = (s >> 44) % 4 == 0 ? (uint32_t)(s >> 7) : 0xffffffffu;
        unsigned span = 1u << ((s >> 50) % 12); /* words the lanes choose from */
        for (unsigned l = 0; l < SMEM_WARP; l++) {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            r.addr[l] = (uint32_t)((s >> 33) % span) * 4u + (uint32_t)((s >> 20) % 4 / r.width * r.width);
            if ((s >> 60) == 0)
                r.addr[l] += 1; /* now and then misaligned */
        }
        struct smem_cost fast;
        int took = smem_word_request_cost(&b, &r, &fast);
        int ok = smem_request_check(&b, &r) == NULL;
        if (r.width > 4 || !r.active) {
            CHECK_EQ(took, 0);
            continue;
        }
        CHECK_EQ(took, ok);
        if (!took || !ok)
            continue;
        struct smem_cost c = smem_request_cost(&b, &r);
        CHECK_EQ(fast.wavefronts, c.wavefronts);
        CHECK_EQ(fast.ideal, c.ideal);
        CHECK_EQ(fast.max_ways, c.max_ways);
        CHECK_EQ(fast.groups, c.groups);
        CHECK_EQ(fast.pipe_delta, c.pipe_delta);
        checked++;
        conflicted += c.wavefronts > 1;
    }
    CHECK(checked > 5000);
    CHECK(conflicted > 1000);
}

int main(void)
{
    RUN(test_access_pattern_table_4byte);
    RUN(test_char_and_short_never_conflict_within_a_word);
    RUN(test_8byte_whole_warp_one_group);
    RUN(test_16byte_two_half_warps);
    RUN(test_tile_column_pad_and_xor);
    RUN(test_point4d_is_4way_point5_is_free);
    RUN(test_stride_s_conflicts_gcd_s_32_ways);
    RUN(test_inactive_lanes_cost_nothing);
    RUN(test_kepler_8byte_banks);
    RUN(test_bad_requests_are_refused);
    RUN(test_bank_map_shows_broadcast);
    RUN(test_word_request_fast_path_is_the_model);
    return CHECK_DONE();
}
