/* test_hazards.c: the hazard rules on hand-made event streams (no compiler needed): who is ordered
 * with whom (barriers, __syncwarp epochs, same thread), atomics, out-of-bounds attribution,
 * barrier divergence, and one entry per pair of sites. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smemlab/emu/hazards.h"

/* A fake kernel: sites 0..3 on lines 10, 11, 12, 13 (0: st, 1: ld, 2: atom, 3: st), three barrier
 * instructions on lines 20, 21, 22, two variables: a[16] ints at 0, _ZZ6kernelE3buf (64 B) at 64
 * and a dynamic array at 128. */
static struct smem_ptx_insn insns[8];
static struct smem_ptx_func func;
static char file_name[] = "k.cu";
static char *files[2] = {NULL, file_name};
static struct smem_ptx_module module;
static struct smem_cta_site sites[4];
static struct smem_cta_var vars[3];
static struct smem_cta_program prog;

static void setup(void)
{
    static const uint8_t ops[4] = {SMEM_ACC_ST, SMEM_ACC_LD, SMEM_ACC_ATOM, SMEM_ACC_ST};
    memset(insns, 0, sizeof insns);
    for (uint32_t i = 0; i < 8; i++) {
        insns[i].loc_file = 1;
        insns[i].loc_line = i < 4 ? 10 + i : 20 + (i - 4);
    }
    memset(&func, 0, sizeof func);
    func.insns = insns;
    func.ninsns = 8;
    memset(&module, 0, sizeof module);
    module.files = files;
    module.nfiles = 2;
    for (uint32_t i = 0; i < 4; i++) {
        memset(&sites[i], 0, sizeof sites[i]);
        sites[i].insn = i;
        sites[i].width = 4;
        sites[i].op = ops[i];
        sites[i].file = file_name;
        sites[i].line = 10 + i;
    }
    vars[0] = (struct smem_cta_var){"a", 0, 64, 0};
    vars[1] = (struct smem_cta_var){"_ZZ6kernelE3buf", 64, 64, 0};
    vars[2] = (struct smem_cta_var){"dyn", 128, 64, 1};
    memset(&prog, 0, sizeof prog);
    prog.module = &module;
    prog.func = &func;
    prog.sites = sites;
    prog.nsites = 4;
    prog.vars = vars;
    prog.nvars = 3;
    prog.static_smem = 128;
    prog.dyn_offset = 128;
}

/* A tracker for the fake kernel as it is now (setup() resets it). */
static struct smem_hazard_tracker *tracker_as_is(void)
{
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    l.block[0] = 1024;
    l.block[1] = l.block[2] = l.grid[0] = l.grid[1] = l.grid[2] = 1;
    l.dyn_smem = 64;
    return smem_hazards_new(&prog, &l);
}

static struct smem_hazard_tracker *tracker(void)
{
    setup();
    return tracker_as_is();
}

/* One request: lanes of `warp` in `mask`, lane i at base + i * stride, epoch ep for every lane. */
static void access(struct smem_hazard_tracker *t, uint32_t site, uint32_t block, uint32_t interval,
                   uint32_t warp, uint32_t mask, uint32_t base, uint32_t stride, uint32_t ep)
{
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = site;
    a.block = block;
    a.interval = interval;
    a.warp = warp;
    a.active = mask;
    a.width = sites[site].width;
    a.op = sites[site].op;
    for (uint32_t i = 0; i < 32; i++) {
        a.addr[i] = base + i * stride;
        a.wsync[i] = ep;
        if ((mask >> i & 1u) && a.addr[i] + a.width > 128 + 64)
            a.oob |= 1u << i;
    }
    smem_hazards_access(t, &a);
}

static const struct smem_hazard *find(const struct smem_hazard_tracker *t, const char *kind,
                                      const char *detail, uint32_t line0, uint32_t line1)
{
    for (unsigned i = 0; i < smem_hazards_count(t); i++) {
        const struct smem_hazard *z = smem_hazards_get(t, i);
        if (!strcmp(smem_hazard_kind_name(z->kind), kind) && !strcmp(z->detail, detail) &&
            z->lines[0] == line0 && z->lines[1] == line1)
            return z;
    }
    return NULL;
}

static void test_two_warps_one_word_is_a_write_write_race(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 1u, 8, 0, 0); /* warp 0 lane 0 writes a[2] */
    access(t, 0, 0, 0, 1, 1u, 8, 0, 0); /* warp 1 lane 0 writes a[2] */
    CHECK_EQ(smem_hazards_count(t), 1);
    const struct smem_hazard *z = find(t, "race", "write-write", 10, 10);
    CHECK(z != NULL);
    if (z) {
        CHECK_EQ(z->address, 8);
        CHECK_STR(z->var, "a");
        CHECK_EQ(z->count, 1);
        CHECK(z->file == file_name);
    }
    smem_hazards_free(t);
}

static void test_a_barrier_between_orders_everything(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 0xffffffffu, 0, 4, 0);  /* warp 0 writes a[0..15] and buf */
    access(t, 1, 0, 1, 1, 0xffffffffu, 0, 4, 0);  /* warp 1 reads them in the next interval */
    access(t, 0, 0, 2, 1, 0xffffffffu, 0, 4, 0);  /* and writes them in the one after */
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_blocks_do_not_share_memory(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 1u, 0, 0, 0);
    access(t, 0, 1, 0, 0, 2u, 0, 0, 0); /* block 1, same interval number, same address */
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_the_same_thread_never_races_with_itself(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 3, 1u << 5, 16, 0, 0);
    access(t, 1, 0, 0, 3, 1u << 5, 16, 0, 0);
    access(t, 3, 0, 0, 3, 1u << 5, 16, 0, 0);
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_lanes_of_a_warp_race_without_syncwarp(void)
{
    /* lane i writes a[i], then reads a[i ^ 1]: warp-synchronous code with no __syncwarp() */
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 0xffffu, 0, 4, 0);
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = 1;
    a.active = 0xffffu;
    a.width = 4;
    a.op = SMEM_ACC_LD;
    for (uint32_t i = 0; i < 16; i++)
        a.addr[i] = (i ^ 1u) * 4;
    smem_hazards_access(t, &a);
    const struct smem_hazard *z = find(t, "race", "write-read", 10, 11);
    CHECK(z != NULL);
    if (z)
        CHECK_EQ(z->count, 16);
    CHECK_EQ(smem_hazards_count(t), 1);
    smem_hazards_free(t);
}

static void test_syncwarp_orders_lanes_of_a_warp(void)
{
    /* the same with every lane one __syncwarp() further when it reads */
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 0xffffu, 0, 4, 0);
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = 1;
    a.active = 0xffffu;
    a.width = 4;
    a.op = SMEM_ACC_LD;
    for (uint32_t i = 0; i < 16; i++) {
        a.addr[i] = (i ^ 1u) * 4;
        a.wsync[i] = 1;
    }
    smem_hazards_access(t, &a);
    CHECK_EQ(smem_hazards_count(t), 0);
    /* __syncwarp() does not order other warps: warp 1 writing a[0] races with warp 0's reads */
    access(t, 3, 0, 0, 1, 1u, 0, 0, 1);
    CHECK(find(t, "race", "read-write", 11, 13) != NULL);
    CHECK(find(t, "race", "write-write", 10, 13) != NULL);
    smem_hazards_free(t);
}

static void test_atomics_take_no_part_in_races(void)
{
    /* racecheck ignores atomics: with atomics, and with plain loads and stores alike */
    struct smem_hazard_tracker *t = tracker();
    for (uint32_t w = 0; w < 32; w++)
        access(t, 2, 0, 0, w, 0xffffffffu, 12, 0, 0); /* 1024 atomicAdd on a[3] */
    access(t, 1, 0, 0, 5, 1u, 12, 0, 0);              /* a plain load of a[3] */
    access(t, 2, 0, 0, 6, 1u, 12, 0, 0);              /* another atomic */
    CHECK_EQ(smem_hazards_count(t), 0);
    access(t, 3, 0, 0, 6, 1u, 12, 0, 0); /* a plain store: races with warp 5's plain load */
    CHECK_EQ(smem_hazards_count(t), 1);
    CHECK(find(t, "race", "read-write", 11, 13) != NULL);
    /* out of bounds counts for atomics too */
    access(t, 2, 0, 0, 0, 1u, 400, 0, 0);
    CHECK(find(t, "oob", "write", 12, 12) != NULL);
    smem_hazards_free(t);
}

static void test_storing_the_value_already_there_is_no_second_write(void)
{
    /* every thread stores i = 0 (listing 6.6): the emulator marks all but the first as `same` */
    struct smem_hazard_tracker *t = tracker();
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = 0;
    a.active = 0xffffffffu;
    a.width = 4;
    a.op = SMEM_ACC_ST;
    a.same = 0xfffffffeu;
    smem_hazards_access(t, &a);
    a.warp = 1;
    a.same = 0xffffffffu;
    smem_hazards_access(t, &a);
    CHECK_EQ(smem_hazards_count(t), 0);
    /* but a read by another thread in the same interval still races with those stores */
    access(t, 1, 0, 0, 2, 1u, 0, 0, 0);
    CHECK(find(t, "race", "write-read", 10, 10 + 1) != NULL);
    /* and a store of a new value races with them */
    access(t, 3, 0, 0, 3, 1u, 0, 0, 0);
    CHECK(find(t, "race", "write-write", 10, 13) != NULL);
    smem_hazards_free(t);
}

static void test_reads_never_race_with_reads(void)
{
    struct smem_hazard_tracker *t = tracker();
    for (uint32_t w = 0; w < 32; w++)
        access(t, 1, 0, 0, w, 0xffffffffu, 0, 0, 0);
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_a_write_after_many_readers_finds_another_warps_reader(void)
{
    /* warps 0..3 read a[0] (broadcast), then lane 0 of warp 3 writes it: warps 0-2 race with it
     * even though the last reader is warp 3 itself */
    struct smem_hazard_tracker *t = tracker();
    for (uint32_t w = 0; w < 4; w++)
        access(t, 1, 0, 0, w, 0xffffffffu, 0, 0, 0);
    access(t, 3, 0, 0, 3, 1u, 0, 0, 7); /* a later epoch: ordered with warp 3's own lanes */
    CHECK(find(t, "race", "read-write", 11, 13) != NULL);
    smem_hazards_free(t);
}

static void test_one_entry_per_pair_of_sites_counted(void)
{
    /* Racey: 1024 threads store to one int: one entry, 1023 racing stores */
    struct smem_hazard_tracker *t = tracker();
    for (uint32_t w = 0; w < 32; w++)
        access(t, 0, 0, 0, w, 0xffffffffu, 4, 0, 0);
    CHECK_EQ(smem_hazards_count(t), 1);
    const struct smem_hazard *z = find(t, "race", "write-write", 10, 10);
    CHECK(z != NULL);
    if (z)
        CHECK_EQ(z->count, 1023);
    smem_hazards_free(t);
}

static void test_bytes_of_different_words_do_not_race(void)
{
    /* char-wide neighbours share a word but not a byte (a kernel with char accesses: the tracker
     * keeps bytes apart) */
    setup();
    sites[0].width = 1;
    struct smem_hazard_tracker *t = tracker_as_is();
    access(t, 0, 0, 0, 0, 1u, 5, 0, 0);
    access(t, 0, 0, 0, 1, 1u, 6, 0, 0);
    CHECK_EQ(smem_hazards_count(t), 0);
    /* an int store overlapping byte 6 does race */
    sites[3].width = 4;
    access(t, 3, 0, 0, 2, 1u, 4, 0, 0);
    CHECK(find(t, "race", "write-write", 10, 13) != NULL);
    smem_hazards_free(t);
}

static void test_out_of_bounds_is_attributed_to_the_last_variable(void)
{
    /* window: 128 static + 64 dynamic = 192 bytes; lanes 16.. write at 192.. */
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 0xffffffffu, 128, 4, 0);
    const struct smem_hazard *z = find(t, "oob", "write", 10, 10);
    CHECK(z != NULL);
    if (z) {
        CHECK_EQ(z->address, 192);
        CHECK_STR(z->var, "dyn");
        CHECK_EQ(z->count, 16);
    }
    CHECK_EQ(smem_hazards_count(t), 1); /* the in-bounds lanes do not race */
    smem_hazards_free(t);
}

static void test_negative_offsets_belong_to_the_first_variable(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 1, 0, 0, 0, 1u, 0xfffffffcu, 0, 0);
    const struct smem_hazard *z = find(t, "oob", "read", 11, 11);
    CHECK(z != NULL);
    if (z)
        CHECK_STR(z->var, "a");
    smem_hazards_free(t);
}

static void test_demoted_static_names_are_shown_as_in_the_source(void)
{
    struct smem_hazard_tracker *t = tracker();
    access(t, 0, 0, 0, 0, 1u, 64, 0, 0);
    access(t, 0, 0, 0, 1, 1u, 64, 0, 0);
    const struct smem_hazard *z = find(t, "race", "write-write", 10, 10);
    CHECK(z != NULL);
    if (z)
        CHECK_STR(z->var, "buf");
    smem_hazards_free(t);
}

static void barrier(struct smem_hazard_tracker *t, uint32_t block, uint32_t ia, uint32_t ib,
                    uint32_t arrived, uint32_t expected, uint32_t exited)
{
    struct smem_cta_barrier b;
    memset(&b, 0, sizeof b);
    b.block = block;
    b.insn_a = ia;
    b.insn_b = ib;
    b.arrived = arrived;
    b.expected = expected;
    b.exited = exited;
    b.divergent = ia != ib;
    smem_hazards_barrier(t, &b);
}

static void test_a_full_barrier_is_no_hazard(void)
{
    struct smem_hazard_tracker *t = tracker();
    barrier(t, 0, 4, 4, 64, 64, 0);
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_threads_exiting_while_others_wait_is_a_barrier_hazard(void)
{
    struct smem_hazard_tracker *t = tracker();
    barrier(t, 0, 4, 4, 16, 64, 48);
    barrier(t, 1, 4, 4, 16, 64, 48);
    const struct smem_hazard *z = find(t, "barrier", "exit-while-waiting", 20, 20);
    CHECK(z != NULL);
    if (z) {
        CHECK_EQ(z->count, 2);
        CHECK(z->file == file_name);
        CHECK_EQ(z->site[0], UINT32_MAX);
    }
    CHECK_EQ(smem_hazards_count(t), 1);
    smem_hazards_free(t);
}

static void test_two_barrier_instructions_meeting_is_divergence(void)
{
    /* warp 0 waits at line 22, warp 1 at line 21; then warp 0 waits at line 21 alone while warp 1
     * has exited: only a consequence of the first divergence, not reported again */
    struct smem_hazard_tracker *t = tracker();
    barrier(t, 0, 6, 5, 64, 64, 0);
    barrier(t, 0, 5, 5, 32, 64, 32);
    CHECK_EQ(smem_hazards_count(t), 1);
    CHECK(find(t, "barrier", "divergent", 21, 22) != NULL);
    /* the next block starts afresh */
    barrier(t, 1, 5, 5, 32, 64, 32);
    CHECK(find(t, "barrier", "exit-while-waiting", 21, 21) != NULL);
    smem_hazards_free(t);
}

static void test_named_barrier_with_its_count_reached_is_no_hazard(void)
{
    /* bar.sync 1, 64 in a block of 128 where the other 64 threads exited */
    struct smem_hazard_tracker *t = tracker();
    barrier(t, 0, 4, 4, 64, 64, 64);
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

static void test_unknown_addresses_are_not_guessed(void)
{
    struct smem_hazard_tracker *t = tracker();
    struct smem_access a;
    memset(&a, 0, sizeof a);
    a.site = 0;
    a.active = a.unknown = 0xffffffffu;
    a.width = 4;
    a.op = SMEM_ACC_ST;
    smem_hazards_access(t, &a);
    a.warp = 1;
    smem_hazards_access(t, &a);
    CHECK_EQ(smem_hazards_count(t), 0);
    smem_hazards_free(t);
}

int main(void)
{
    RUN(test_two_warps_one_word_is_a_write_write_race);
    RUN(test_a_barrier_between_orders_everything);
    RUN(test_blocks_do_not_share_memory);
    RUN(test_the_same_thread_never_races_with_itself);
    RUN(test_lanes_of_a_warp_race_without_syncwarp);
    RUN(test_syncwarp_orders_lanes_of_a_warp);
    RUN(test_atomics_take_no_part_in_races);
    RUN(test_storing_the_value_already_there_is_no_second_write);
    RUN(test_reads_never_race_with_reads);
    RUN(test_a_write_after_many_readers_finds_another_warps_reader);
    RUN(test_one_entry_per_pair_of_sites_counted);
    RUN(test_bytes_of_different_words_do_not_race);
    RUN(test_out_of_bounds_is_attributed_to_the_last_variable);
    RUN(test_negative_offsets_belong_to_the_first_variable);
    RUN(test_demoted_static_names_are_shown_as_in_the_source);
    RUN(test_a_full_barrier_is_no_hazard);
    RUN(test_threads_exiting_while_others_wait_is_a_barrier_hazard);
    RUN(test_two_barrier_instructions_meeting_is_divergence);
    RUN(test_named_barrier_with_its_count_reached_is_no_hazard);
    RUN(test_unknown_addresses_are_not_guessed);
    return CHECK_DONE();
}
