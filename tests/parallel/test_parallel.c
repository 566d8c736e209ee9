/* test_parallel: a launch's results do not depend on the number of threads its blocks run on
 * (analysis/parallel.h: totals, sites, hazards, steps, the first incomplete block, the first
 * failure), and the proof that lets one block stand for all (analysis/uniform.h): a kernel whose
 * shared addresses or control flow depend on %ctaid or on loaded data is never extrapolated; a
 * clean one is, with the totals, sites, hazard counts and steps of the run of every block.
 * Hand-written PTX: no nvcc needed. */
#include "check.h"

#include "smemlab/analysis/analyze.h"
#include "smemlab/analysis/uniform.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"par.cu\"\n"
#define REGS "\t.reg .pred %p<4>;\n\t.reg .b32 %r<40>;\n\t.reg .b64 %rd<20>;\n\t.reg .f32 %f<8>;\n"
/* tid, ctaid, the thread's global word in[ctaid * ntid + tid] (%f1, its bits %r20), tile's
 * address (%r7), lane (%r5) and warp (%r6) */
#define PROLOGUE(k)                                                                                \
    "\t.shared .align 4 .b8 tile[4224];\n"                                                         \
    "\t.loc 1 3 5\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n"     \
    "\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tld.param.u64 %rd1, [" k "_param_1];\n"                    \
    "\tcvta.to.global.u64 %rd2, %rd1;\n\tmul.wide.u32 %rd3, %r4, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n" \
    "\tld.global.f32 %f1, [%rd4];\n\tmov.b32 %r20, %f1;\n"                                         \
    "\tand.b32 %r5, %r1, 31;\n\tshr.u32 %r6, %r1, 5;\n\tmov.u32 %r7, tile;\n"
#define ENTRY(k) ".visible .entry " k "(.param .u64 " k "_param_0, .param .u64 " k "_param_1)\n{\n" REGS PROLOGUE(k)
/* a column store, a barrier, a row load, a racy store of every thread to tile[0], the result */
#define BODY(k, addr_extra)                                                                        \
    "\tmad.lo.s32 %r8, %r5, 132, %r7;\n\tshl.b32 %r9, %r6, 2;\n\tadd.s32 %r10, %r8, %r9;\n"        \
    addr_extra                                                                                     \
    "\t.loc 1 7 9\n\tst.shared.f32 [%r10], %f1;\n\t.loc 1 8 9\n\tbar.sync 0;\n"                    \
    "\tmad.lo.s32 %r11, %r6, 132, %r7;\n\tshl.b32 %r12, %r5, 2;\n\tadd.s32 %r13, %r11, %r12;\n"    \
    "\t.loc 1 9 9\n\tld.shared.f32 %f2, [%r13];\n\t.loc 1 10 9\n\tst.shared.f32 [tile], %f2;\n"    \
    "\tld.param.u64 %rd5, [" k "_param_0];\n\tcvta.to.global.u64 %rd6, %rd5;\n"                   \
    "\tadd.s64 %rd7, %rd6, %rd3;\n\tst.global.f32 [%rd7], %f2;\n"

/* one kernel a string (ISO C's limit on a literal's length), joined into the module by ptx() */
static const char *const parts[] = {
    HEAD,
    /* clean: shared addresses from %tid only; %ctaid and loaded data reach global memory only */
    ENTRY("clean") BODY("clean", "") "\tret;\n}\n",
    /* the block index in a shared address */
    ENTRY("ctaid_addr") BODY("ctaid_addr", "\tand.b32 %r14, %r2, 3;\n\tshl.b32 %r15, %r14, 7;\n"
                                           "\tadd.s32 %r10, %r10, %r15;\n") "\tret;\n}\n",
    /* loaded data in a shared address */
    ENTRY("data_addr") BODY("data_addr", "\tand.b32 %r14, %r20, 3;\n\tshl.b32 %r15, %r14, 7;\n"
                                         "\tadd.s32 %r10, %r10, %r15;\n") "\tret;\n}\n",
    /* the block index decides a branch around the whole body */
    ENTRY("ctaid_branch") "\tsetp.eq.u32 %p1, %r2, 3;\n\t@%p1 bra DONE;\n"
    BODY("ctaid_branch", "") "DONE:\n\tret;\n}\n",
    /* the block index stored to shared memory (racecheck looks at stored values) */
    ENTRY("ctaid_value") BODY("ctaid_value", "") "\tst.shared.u32 [tile+8], %r2;\n\tret;\n}\n",
    /* blocks from 20 on branch on loaded data (the analysis cannot know it: incomplete there) */
    ENTRY("late_unknown") BODY("late_unknown", "") "\tsetp.lt.u32 %p1, %r2, 20;\n\t@%p1 bra DONE;\n"
    "\tsetp.eq.f32 %p2, %f1, 0f00000000;\n\t.loc 1 12 5\n\t@%p2 bra DONE;\n"
    "\tst.shared.f32 [tile+4], %f1;\nDONE:\n\tret;\n}\n",
    /* blocks from 10 on spin far longer (a step budget that fails in block 10) */
    ENTRY("late_spin") BODY("late_spin", "") "\tmov.u32 %r30, 4;\n\tsetp.lt.u32 %p1, %r2, 10;\n"
    "\t@%p1 bra LOOP;\n\tmov.u32 %r30, 100000;\nLOOP:\n\t.loc 1 14 5\n\tadd.s32 %r30, %r30, -1;\n"
    "\tsetp.ne.s32 %p2, %r30, 0;\n\t@%p2 bra LOOP;\n\tret;\n}\n",
};

static char ptx_text[16384];

static const char *ptx(void)
{
    if (!ptx_text[0])
        for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
            strncat(ptx_text, parts[i], sizeof ptx_text - strlen(ptx_text) - 1);
    return ptx_text;
}

static int analyze(const char *kernel, unsigned grid, unsigned jobs, int all_blocks,
                   uint64_t max_steps, struct smem_analysis **a, struct smem_error *err)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = kernel;
    o.block[0] = 128;
    o.block[1] = o.block[2] = 1;
    o.grid[0] = grid;
    o.hazards = 1;
    o.jobs = jobs;
    o.all_blocks = all_blocks;
    o.max_steps = max_steps;
    memset(err, 0, sizeof *err);
    *a = NULL;
    return smem_analyze_ptx(ptx(), strlen(ptx()), "par.ptx", NULL, &o, a, err);
}

static int same_totals(const struct smem_totals *x, const struct smem_totals *y)
{
    return x->requests == y->requests && x->wavefronts == y->wavefronts && x->ideal == y->ideal &&
           x->unknown_requests == y->unknown_requests && x->max_ways == y->max_ways;
}

/* everything a report says about the launch's shared memory, but the time it took */
static int same_report(const struct smem_kernel_report *x, const struct smem_kernel_report *y)
{
    int ok = same_totals(&x->ld, &y->ld) && same_totals(&x->st, &y->st) &&
             same_totals(&x->atom, &y->atom) && x->complete == y->complete &&
             x->blocks_run == y->blocks_run && x->blocks_total == y->blocks_total &&
             x->steps == y->steps && x->nsites == y->nsites && x->nhazards == y->nhazards &&
             !strcmp(x->incomplete_why, y->incomplete_why);
    for (uint32_t i = 0; ok && i < x->nsites; i++) {
        const struct smem_site_report *s = &x->sites[i], *t = &y->sites[i];
        ok = s->line == t->line && s->op == t->op && s->bytes == t->bytes &&
             same_totals(&s->t, &t->t) && s->worst_wf == t->worst_wf &&
             !memcmp(s->worst.addr, t->worst.addr, sizeof s->worst.addr);
    }
    for (uint32_t i = 0; ok && i < x->nhazards; i++) {
        const struct smem_hazard *h = &x->hazards[i], *g = &y->hazards[i];
        ok = h->kind == g->kind && h->site[0] == g->site[0] && h->site[1] == g->site[1] &&
             h->count == g->count && !strcmp(h->detail, g->detail);
    }
    return ok;
}

/* every kernel, every block run, on 1, 2, 3 and 8 threads: the same report */
static void test_jobs(void)
{
    static const char *const names[] = {"clean", "ctaid_addr", "data_addr", "ctaid_branch",
                                        "late_unknown"};
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        struct smem_analysis *one = NULL;
        struct smem_error err;
        CHECK(analyze(names[n], 37, 1, 1, 0, &one, &err) == 0);
        if (!one)
            continue;
        const struct smem_kernel_report *k1 = &one->kernels[0];
        CHECK(k1->nsites > 0);
        CHECK(k1->nhazards > 0); /* the racy store to tile[0] */
        CHECK(k1->extrapolation[0] == 0);
        static const unsigned jobs[] = {2, 3, 8};
        for (size_t j = 0; j < 3; j++) {
            struct smem_analysis *many = NULL;
            CHECK(analyze(names[n], 37, jobs[j], 1, 0, &many, &err) == 0);
            if (!many)
                continue;
            int same = same_report(k1, &many->kernels[0]);
            if (!same)
                fprintf(stderr, "  %s: --jobs %u differs from --jobs 1\n", names[n], jobs[j]);
            CHECK(same);
            smem_analysis_free(many);
        }
        if (!strcmp(names[n], "late_unknown")) {
            /* stopped at block 20, the first whose outcome depends on unknown data */
            CHECK(!k1->complete);
            CHECK_EQ(k1->blocks_run, 21);
        } else {
            CHECK(k1->complete);
            CHECK_EQ(k1->blocks_run, 37);
        }
        smem_analysis_free(one);
    }
}

/* a failure (the step budget, in block 10) is the same failure whatever the threads */
static void test_jobs_failure(void)
{
    struct smem_error e1, e4;
    struct smem_analysis *a = NULL;
    CHECK(analyze("late_spin", 40, 1, 1, 200000, &a, &e1) != 0);
    smem_analysis_free(a);
    CHECK(analyze("late_spin", 40, 4, 1, 200000, &a, &e4) != 0);
    smem_analysis_free(a);
    printf("  failure: %s\n", e1.msg);
    CHECK(strstr(e1.msg, "in block 10") != NULL);
    CHECK_STR(e1.msg, e4.msg);
    CHECK_EQ(e1.line, e4.line);
}

/* the clean kernel: one block stands for all, with the totals of the run of every block */
static void test_extrapolated(void)
{
    struct smem_analysis *one = NULL, *all = NULL;
    struct smem_error err;
    CHECK(analyze("clean", 24, 2, 0, 0, &one, &err) == 0);
    CHECK(analyze("clean", 24, 2, 1, 0, &all, &err) == 0);
    if (!one || !all)
        return;
    const struct smem_kernel_report *k1 = &one->kernels[0], *ka = &all->kernels[0];
    printf("  clean: extrapolated (%s)\n", k1->extrapolation);
    CHECK(k1->extrapolation[0] != 0);
    CHECK(ka->extrapolation[0] == 0);
    CHECK(k1->complete);
    CHECK_EQ(k1->blocks_run, 24);
    CHECK_EQ(k1->blocks_total, 24);
    CHECK(k1->st.requests > 0 && k1->ld.requests > 0);
    CHECK(same_report(k1, ka));
    smem_analysis_free(one);
    smem_analysis_free(all);
}

/* what stops the proof: the block index or loaded data in a shared address or a branch */
static void test_not_extrapolated(void)
{
    static const struct {
        const char *kernel, *why;
    } cases[] = {
        {"ctaid_addr", "a shared access"},
        {"data_addr", "a shared access"},
        {"ctaid_branch", "a branch"},
        {"late_unknown", "a branch"},
        {"late_spin", "a branch"},
        {"ctaid_value", "a value stored to shared memory at PTX line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct smem_analysis *a = NULL;
        struct smem_error err;
        CHECK(analyze(cases[i].kernel, 24, 2, 0, 0, &a, &err) == 0);
        if (!a)
            continue;
        const struct smem_kernel_report *k = &a->kernels[0];
        CHECK(k->extrapolation[0] == 0);
        char why[200];
        const struct smem_ptx_func *f = smem_ptx_find(a->module, cases[i].kernel);
        CHECK(f && smem_blocks_uniform(f, why, sizeof why) == 0);
        printf("  %s: not extrapolated: %s\n", cases[i].kernel, why);
        CHECK(strstr(why, cases[i].why) != NULL);
        CHECK(strstr(why, "depends on %ctaid") != NULL);
        /* every block ran */
        CHECK(k->blocks_run == 24 || !k->complete);
        smem_analysis_free(a);
    }
}

int main(void)
{
    RUN(test_jobs);
    RUN(test_jobs_failure);
    RUN(test_extrapolated);
    RUN(test_not_extrapolated);
    return CHECK_DONE();
}
