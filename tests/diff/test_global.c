/* test_global: the emulator's global memory (struct smem_global_memory): loads, stores and atomics
 * on regions, generic addresses, module .global variables placed by the caller, the parameter
 * buffer; and accesses outside every region (or misaligned, or to read-only memory) reported with
 * their kind, size, address, thread and block without touching host memory, then stopping the run
 * with a located message or going on with unknown values. */
#include "check.h"

#include "smemlab/emu/cta.h"
#include "smemlab/ptx/ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* mode 0: out[t] = in[t] + gvar[1] + in[t] (generic); counter at out[64] += 1 per thread.
 * mode 1: thread 5 loads from bad; mode 2: thread 3 stores to in (read-only); mode 3: thread 7
 * loads 4 bytes from in + 4t + 2. */
static const char ptx[] =
    ".version 8.0\n.target sm_90\n.address_size 64\n.file 1 \"global.cu\"\n"
    ".global .align 4 .b8 gvar[16];\n"
    ".visible .entry g(.param .u64 pin, .param .u64 pout, .param .u64 pbad, .param .u32 mode)\n{\n"
    "\t.reg .pred %p<8>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<16>;\n"
    "\t.loc 1 3 1\n"
    "\tld.param.u64 %rd1, [pin];\n\tld.param.u64 %rd2, [pout];\n\tld.param.u64 %rd3, [pbad];\n"
    "\tld.param.u32 %r9, [mode];\n\tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd4, %r1, 4;\n"
    "\tadd.s64 %rd5, %rd1, %rd4;\n\tadd.s64 %rd6, %rd2, %rd4;\n"
    "\t.loc 1 5 1\n"
    "\tld.global.u32 %r2, [%rd5];\n\tld.global.u32 %r3, [gvar+4];\n\tadd.s32 %r2, %r2, %r3;\n"
    "\tld.u32 %r4, [%rd5];\n\tadd.s32 %r2, %r2, %r4;\n\tst.global.u32 [%rd6], %r2;\n"
    "\t.loc 1 6 1\n"
    "\tatom.global.add.u32 %r5, [%rd2+256], 1;\n"
    "\t.loc 1 7 1\n"
    "\tsetp.eq.u32 %p1, %r9, 1;\n\tsetp.eq.u32 %p4, %r1, 5;\n\tand.pred %p1, %p1, %p4;\n"
    "\t@%p1 ld.global.u32 %r6, [%rd3];\n\t@%p1 st.global.u32 [%rd2+512], %r6;\n"
    "\t.loc 1 8 1\n"
    "\tsetp.eq.u32 %p2, %r9, 2;\n\tsetp.eq.u32 %p5, %r1, 3;\n\tand.pred %p2, %p2, %p5;\n"
    "\t@%p2 st.global.u32 [%rd5], %r1;\n"
    "\t.loc 1 9 1\n"
    "\tsetp.eq.u32 %p3, %r9, 3;\n\tsetp.eq.u32 %p6, %r1, 7;\n\tand.pred %p3, %p3, %p6;\n"
    "\t@%p3 ld.global.u32 %r7, [%rd5+2];\n"
    "\tret;\n}\n";

#define IN_BASE 0x0000020000000000ull
#define OUT_BASE 0x0000020000100000ull
#define GVAR_BASE 0x0000020000200000ull
#define BAD 0x0000050000000040ull

static struct smem_global_fault faults[8];
static unsigned nfaults;

static void on_fault(void *ctx, const struct smem_global_fault *f)
{
    (void)ctx;
    if (nfaults < 8)
        faults[nfaults] = *f;
    nfaults++;
}

struct mem {
    uint32_t in[32], out[256], gvar[4];
    uint8_t known[1024];
};

static int run(const struct smem_ptx_module *m, struct mem *mm, uint32_t mode, int stop,
               struct smem_error *err)
{
    const struct smem_ptx_func *f = smem_ptx_find(m, "g");
    struct smem_cta_program *p = NULL;
    if (!f || smem_cta_prepare(m, f, 0, &p, err))
        return -2;
    struct smem_global_region reg[3] = {
        {IN_BASE, sizeof mm->in, (uint8_t *)mm->in, NULL, 1, 0},
        {OUT_BASE, sizeof mm->out, (uint8_t *)mm->out, mm->known, 0, 0},
        {GVAR_BASE, sizeof mm->gvar, (uint8_t *)mm->gvar, NULL, 0, 0},
    };
    struct smem_global_symbol sym = {"gvar", GVAR_BASE};
    struct smem_global_memory gm;
    memset(&gm, 0, sizeof gm);
    gm.regions = reg;
    gm.nregions = 3;
    gm.symbols = &sym;
    gm.nsymbols = 1;
    gm.faults_stop = stop;
    gm.fault = on_fault;
    uint8_t params[28];
    uint64_t a = IN_BASE, b = OUT_BASE, c = BAD;
    memcpy(params, &a, 8);
    memcpy(params + 8, &b, 8);
    memcpy(params + 16, &c, 8);
    memcpy(params + 24, &mode, 4);
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    l.block[0] = 32;
    l.block[1] = l.block[2] = 1;
    l.grid[0] = 2; /* two blocks: the counter sees 64 adds */
    l.grid[1] = l.grid[2] = 1;
    l.global = &gm;
    l.param_buf = params;
    l.param_buf_size = sizeof params;
    struct smem_cta_result res;
    nfaults = 0;
    int rc = smem_cta_run(p, &l, NULL, &res, err);
    smem_cta_program_free(p);
    return rc;
}

static void fill(struct mem *mm)
{
    for (int i = 0; i < 32; i++)
        mm->in[i] = (uint32_t)(1000 * i + 7);
    memset(mm->out, 0, sizeof mm->out);
    memset(mm->known, 1, sizeof mm->known);
    mm->gvar[0] = 11;
    mm->gvar[1] = 500;
    mm->gvar[2] = mm->gvar[3] = 0;
}

static void test_regions(void)
{
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    struct mem mm;
    memset(&err, 0, sizeof err);
    CHECK(smem_ptx_parse(ptx, strlen(ptx), "global.ptx", &m, &err) == 0);
    if (!m)
        return;
    fill(&mm);
    CHECK(run(m, &mm, 0, 1, &err) == 0);
    for (int t = 0; t < 32; t++)
        CHECK_EQ(mm.out[t], 2 * mm.in[t] + 500);
    CHECK_EQ(mm.out[64], 64); /* the atomic counter, over both blocks */
    CHECK_EQ(nfaults, 0);

    /* out of every region, going on: reported, the value unknown, nothing else touched */
    fill(&mm);
    struct mem before = mm;
    CHECK(run(m, &mm, 1, 0, &err) == 0);
    CHECK_EQ(nfaults, 2); /* thread 5 of each block */
    CHECK_EQ(faults[0].kind, SMEM_GFAULT_LOAD);
    CHECK_EQ(faults[0].op, SMEM_GFAULT_LOAD);
    CHECK_EQ(faults[0].size, 4);
    CHECK(faults[0].addr == BAD);
    CHECK_EQ(faults[0].thread, 5);
    CHECK_EQ(faults[0].block, 0);
    CHECK_EQ(faults[1].block, 1);
    CHECK(!memcmp(mm.in, before.in, sizeof mm.in));
    CHECK(!memcmp(mm.gvar, before.gvar, sizeof mm.gvar));
    CHECK_EQ(mm.known[512], 0); /* what the faulting load gave is unknown */
    CHECK_EQ(mm.known[0], 1);

    /* the same, stopping: a located message with the kind, size, address, thread and block */
    fill(&mm);
    memset(&err, 0, sizeof err);
    CHECK(run(m, &mm, 1, 1, &err) == -1);
    printf("stop: %s:%u: %s\n", err.file, err.line, err.msg);
    CHECK(!strcmp(err.file, "global.cu"));
    CHECK_EQ(err.line, 7);
    CHECK(strstr(err.msg, "global load of 4 bytes at 0x50000000040 outside every allocation "
                          "(thread (5,0,0) of block (0,0,0))") != NULL);
    CHECK_EQ(mm.known[512], 1); /* it stopped before storing anything */

    /* a store to read-only memory: reported, not done */
    fill(&mm);
    memset(&err, 0, sizeof err);
    CHECK(run(m, &mm, 2, 1, &err) == -1);
    CHECK_EQ(nfaults, 1);
    CHECK_EQ(faults[0].kind, SMEM_GFAULT_READONLY);
    CHECK_EQ(faults[0].op, SMEM_GFAULT_STORE);
    CHECK(faults[0].addr == IN_BASE + 12);
    CHECK_EQ(mm.in[3], 3007);
    CHECK(strstr(err.msg, "global store of 4 bytes at 0x2000000000c to read-only memory") != NULL);
    CHECK_EQ(err.line, 8);

    /* misaligned */
    fill(&mm);
    memset(&err, 0, sizeof err);
    CHECK(run(m, &mm, 3, 1, &err) == -1);
    CHECK_EQ(faults[0].kind, SMEM_GFAULT_MISALIGNED);
    CHECK(faults[0].addr == IN_BASE + 30);
    CHECK(strstr(err.msg, "misaligned (thread (7,0,0)") != NULL);
    CHECK_EQ(err.line, 9);
    smem_ptx_free(m);
}

int main(void)
{
    RUN(test_regions);
    return CHECK_DONE();
}
