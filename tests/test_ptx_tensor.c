/* test_ptx_tensor.c: the PTX parser on ldmatrix, stmatrix, cp.async (sizes, src-size, cache hints,
 * groups, mbarrier arrive), mbarrier (every operation, phases, scopes), fence.proxy.async, mma.sync
 * and wmma (tests/ldsm/tensor_ops.ptx, every form written out), wgmma (sm_90a; one instruction at
 * a time), the cluster instructions (mapa, getctarank, .shared::cluster accesses, barrier.cluster,
 * st.async, red.async, elect.sync, setmaxnreg, the cluster's special registers), labels scoped
 * by { } blocks: decoded with their operands when asked (smem_ptx_parse_opts, tensor_ops), refused per function with the instruction and its line
 * otherwise (the emulator does not run them yet), malformed forms refused with a message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smemlab/ptx/ptx.h"

static char *slurp(const char *rel, size_t *len)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", SMEMLAB_SOURCE_DIR, rel);
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    *len = fread(buf, 1, sizeof buf - 1, f);
    buf[*len] = 0;
    fclose(f);
    return buf;
}

/* The n-th instruction of f with opcode op (and mode, when mode is not 0xff). */
static const struct smem_ptx_insn *nth(const struct smem_ptx_func *f, unsigned op, unsigned mode, unsigned n)
{
    for (uint32_t i = 0; i < f->ninsns; i++)
        if (f->insns[i].op == op && (mode == 0xff || f->insns[i].mode == mode) && !n--)
            return &f->insns[i];
    return NULL;
}

/* One-instruction kernel: parse error message (tensor_ops on), or "" when it parses. */
static const char *one(const char *insn, char *msg, size_t n)
{
    char text[2048];
    int l = snprintf(text, sizeof text,
                     ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                     "\t.reg .pred %%p<2>;\n\t.reg .b32 %%r<16>;\n\t.reg .b64 %%rd<4>;\n\t.reg .f32 %%f<8>;\n"
                     "\t%s\n\tret;\n}\n", insn);
    struct smem_ptx_options o = {1};
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    msg[0] = 0;
    if (smem_ptx_parse_opts(text, (size_t)l, "one.ptx", &o, &m, &err))
        smem_error_format(&err, msg, n);
    else if (m->funcs[0].error)
        smem_error_format(m->funcs[0].error, msg, n);
    smem_ptx_free(m);
    return msg;
}

/* Decimal float literals (the PTX ISA's 1.0 beside 0f3F800000): in the instruction's own type. */
static void decimal_floats(void)
{
    static const char text[] = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                               "\t.reg .f32 %f<4>;\n\t.reg .f64 %fd<4>;\n\t.reg .b64 %rd<4>;\n"
                               "\tadd.f32 %f1, %f2, 1.5;\n"
                               "\tadd.f64 %fd1, %fd2, -2.5e-1;\n"
                               "\tcreatepolicy.fractional.L2::evict_first.b64 %rd1, 1.0;\n"
                               "\tmov.b64 %rd2, 12;\n"
                               "\tret;\n}\n";
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    CHECK(smem_ptx_parse(text, sizeof text - 1, "decimal.ptx", &m, &err) == 0);
    if (!m)
        return;
    const struct smem_ptx_func *f = &m->funcs[0];
    CHECK(f->error == NULL);
    CHECK(f->ninsns >= 4);
    if (!f->error && f->ninsns >= 4) {
        CHECK_EQ(f->insns[0].ops[2].imm, 0x3FC00000); /* 1.5f */
        double d = -0.25, one = 1.0;
        int64_t bits, one_bits;
        memcpy(&bits, &d, sizeof bits);
        memcpy(&one_bits, &one, sizeof one_bits);
        CHECK_EQ(f->insns[1].ops[2].imm, bits);
        CHECK_EQ(f->insns[2].ops[1].imm, one_bits);
        CHECK_EQ(f->insns[3].ops[1].imm, 12); /* integers stay integers */
        CHECK(!f->insns[3].ops[1].fdec);
    }
    smem_ptx_free(m);
    char msg[400];
    CHECK(strstr(one("add.f32 %f1, %f2, 1.5x;", msg, sizeof msg), "malformed floating-point literal") != NULL);
    CHECK(strstr(one("add.f16 %r1, %r2, 1.5;", msg, sizeof msg), "decimal floating-point literal") != NULL);
}

int main(void)
{
    decimal_floats();
    size_t len = 0;
    const char *text = slurp("tests/ldsm/tensor_ops.ptx", &len);
    CHECK(text != NULL);
    if (!text)
        return CHECK_DONE();

    /* read whole when asked */
    struct smem_ptx_options o = {1};
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    CHECK(smem_ptx_parse_opts(text, len, "tensor_ops.ptx", &o, &m, &err) == 0);
    const struct smem_ptx_func *f = m ? smem_ptx_find(m, "tensor_ops") : NULL;
    CHECK(f != NULL && f->error == NULL);
    if (!f || f->error) {
        if (f && f->error) {
            char b[600];
            fprintf(stderr, "%s\n", smem_error_format(f->error, b, sizeof b));
        }
        smem_ptx_free(m);
        return CHECK_DONE();
    }
    const struct smem_ptx_insn *in;
    /* ldmatrix x1 / x2.trans / x4 */
    in = nth(f, PO_LDMATRIX, 0xff, 0);
    CHECK(in && in->vec == 1 && in->shape_m == 8 && in->shape_n == 8 && in->type == PT_B16 &&
          in->space == SP_SHARED && !(in->tflags & SMEM_TF_TRANS) && in->ops[1].kind == OPK_ADDR);
    in = nth(f, PO_LDMATRIX, 0xff, 1);
    CHECK(in && in->vec == 2 && (in->tflags & SMEM_TF_TRANS) && in->ops[0].kind == OPK_VEC &&
          in->ops[0].count == 2 && in->ops[1].imm == 16);
    in = nth(f, PO_LDMATRIX, 0xff, 2);
    CHECK(in && in->vec == 4 && in->ops[0].count == 4);
    in = nth(f, PO_LDMATRIX, 0xff, 3); /* no state space: a generic address */
    CHECK(in && in->vec == 4 && in->space == SP_GENERIC && (in->tflags & SMEM_TF_TRANS));
    in = nth(f, PO_STMATRIX, 0xff, 0);
    CHECK(in && in->vec == 4 && (in->tflags & SMEM_TF_TRANS) && in->ops[0].kind == OPK_ADDR &&
          in->ops[1].count == 4);
    in = nth(f, PO_STMATRIX, 0xff, 1);
    CHECK(in && in->vec == 1 && in->ops[0].imm == 128);
    /* cp.async: sizes, .ca/.cg, src-size, cache hint */
    in = nth(f, PO_CP_ASYNC, 0xff, 0);
    CHECK(in && in->mode == MODE_CPA_CA && in->nops == 3 && in->ops[2].imm == 4);
    in = nth(f, PO_CP_ASYNC, 0xff, 1);
    CHECK(in && in->mode == MODE_CPA_CA && in->ops[2].imm == 8);
    in = nth(f, PO_CP_ASYNC, 0xff, 2);
    CHECK(in && in->mode == MODE_CPA_CG && in->nops == 4 && in->ops[3].kind == OPK_REG &&
          !(in->tflags & SMEM_TF_CACHE_HINT));
    in = nth(f, PO_CP_ASYNC, 0xff, 3);
    CHECK(in && in->mode == MODE_CPA_CG && in->nops == 4 && (in->tflags & SMEM_TF_CACHE_HINT));
    CHECK(nth(f, PO_CP_ASYNC_WAIT, MODE_CPA_COMMIT, 0) != NULL);
    in = nth(f, PO_CP_ASYNC_WAIT, MODE_CPA_WAIT_GROUP, 0);
    CHECK(in && in->nops == 1 && in->ops[0].kind == OPK_IMM && in->ops[0].imm == 1);
    CHECK(nth(f, PO_CP_ASYNC_WAIT, MODE_CPA_WAIT_ALL, 0) != NULL);
    in = nth(f, PO_CP_ASYNC_WAIT, MODE_CPA_MBAR_ARRIVE, 0);
    CHECK(in && !(in->tflags & SMEM_TF_NOINC) && in->ops[0].kind == OPK_ADDR);
    in = nth(f, PO_CP_ASYNC_WAIT, MODE_CPA_MBAR_ARRIVE, 1);
    CHECK(in && (in->tflags & SMEM_TF_NOINC));
    /* mbarrier */
    in = nth(f, PO_MBARRIER, MODE_MBAR_INIT, 0);
    CHECK(in && in->type == PT_B64 && in->space == SP_SHARED && in->ops[1].kind == OPK_IMM && in->ops[1].imm == 128);
    in = nth(f, PO_MBARRIER, MODE_MBAR_INIT, 1);
    CHECK(in && in->ops[0].kind == OPK_ADDR && in->ops[0].sym >= 0 && in->ops[1].kind == OPK_REG);
    in = nth(f, PO_MBARRIER, MODE_MBAR_ARRIVE, 1);
    CHECK(in && in->nops == 3 && (in->tflags & SMEM_TF_RELEASE) && !(in->tflags & SMEM_TF_CLUSTER));
    in = nth(f, PO_MBARRIER, MODE_MBAR_ARRIVE, 2);
    CHECK(in && in->ops[0].kind == OPK_SINK && (in->tflags & SMEM_TF_CLUSTER));
    in = nth(f, PO_MBARRIER, MODE_MBAR_ARRIVE, 3);
    CHECK(in && (in->tflags & SMEM_TF_EXPECT_TX) && in->ops[2].imm == 1024);
    CHECK(nth(f, PO_MBARRIER, MODE_MBAR_ARRIVE_DROP, 0) != NULL);
    in = nth(f, PO_MBARRIER, MODE_MBAR_ARRIVE, 4);
    CHECK(in && (in->tflags & SMEM_TF_NOCOMPLETE));
    in = nth(f, PO_MBARRIER, MODE_MBAR_EXPECT_TX, 0);
    CHECK(in && (in->tflags & SMEM_TF_RELAXED) && in->ops[1].imm == 512);
    CHECK(nth(f, PO_MBARRIER, MODE_MBAR_COMPLETE_TX, 0) != NULL);
    in = nth(f, PO_MBARRIER, MODE_MBAR_TEST_WAIT, 0);
    CHECK(in && !(in->tflags & SMEM_TF_PARITY) && in->nops == 3);
    in = nth(f, PO_MBARRIER, MODE_MBAR_TEST_WAIT, 1);
    CHECK(in && (in->tflags & SMEM_TF_PARITY) && (in->tflags & SMEM_TF_ACQUIRE));
    in = nth(f, PO_MBARRIER, MODE_MBAR_TRY_WAIT, 1);
    CHECK(in && (in->tflags & SMEM_TF_PARITY) && in->nops == 4 && in->ops[3].imm == 1000);
    in = nth(f, PO_MBARRIER, MODE_MBAR_PENDING_COUNT, 0);
    CHECK(in && in->ops[0].kind == OPK_REG && in->ops[1].kind == OPK_REG);
    CHECK(nth(f, PO_MBARRIER, MODE_MBAR_INVAL, 0) != NULL);
    in = nth(f, PO_MBARRIER, MODE_MBAR_TRY_WAIT, 0);
    CHECK(in && !strcmp(smem_ptx_tensor_name(in), "mbarrier.try_wait"));
    /* fence.proxy.async: a fence */
    CHECK(nth(f, PO_MEMBAR, 0xff, 1) != NULL);
    /* mma */
    in = nth(f, PO_MMA, 0xff, 0);
    CHECK(in && in->shape_m == 16 && in->shape_n == 8 && in->shape_k == 16 && in->type == PT_F32 &&
          in->type2 == PT_F16 && in->type3 == PT_F16 && in->type4 == PT_F32 && !(in->tflags & SMEM_TF_A_COL) &&
          (in->tflags & SMEM_TF_B_COL) && in->ops[1].count == 4 && in->ops[2].count == 2);
    in = nth(f, PO_MMA, 0xff, 1);
    CHECK(in && in->shape_k == 8 && in->type == PT_F16 && in->type4 == PT_F16 && in->ops[0].count == 2);
    in = nth(f, PO_MMA, 0xff, 3);
    CHECK(in && in->type2 == PT_TF32);
    in = nth(f, PO_MMA, 0xff, 4);
    CHECK(in && in->type == PT_S32 && in->type2 == PT_S8 && (in->mods & SMEM_MOD_SATFINITE));
    in = nth(f, PO_MMA, 0xff, 5);
    CHECK(in && in->shape_k == 256 && in->type2 == PT_B1 && (in->tflags & SMEM_TF_XOR_POPC));
    in = nth(f, PO_MMA, 0xff, 7); /* m16n8k16.f64: an 8-register A fragment */
    CHECK(in && in->type == PT_F64 && in->ops[1].kind == OPK_VECX && in->ops[1].count == 8);
    if (in && in->ops[1].kind == OPK_VECX) {
        int32_t r0 = smem_ptx_vec_reg(f, &in->ops[1], 0), r7 = smem_ptx_vec_reg(f, &in->ops[1], 7);
        CHECK(r0 >= 0 && r7 >= 0 && r7 != r0);
        CHECK(smem_ptx_vec_reg(f, &in->ops[1], 8) == -1);
    }
    in = nth(f, PO_MMA, 0xff, 8);
    CHECK(in && in->type2 == PT_E4M3 && in->type3 == PT_E5M2);
    /* wmma */
    in = nth(f, PO_WMMA, MODE_WMMA_LOAD_A, 0);
    CHECK(in && in->space == SP_SHARED && in->shape_k == 16 && in->type == PT_F16 && in->nops == 3 &&
          in->ops[0].kind == OPK_VECX && in->ops[0].count == 8);
    in = nth(f, PO_WMMA, MODE_WMMA_LOAD_B, 0);
    CHECK(in && in->space == SP_GLOBAL && (in->tflags & SMEM_TF_A_COL) && in->nops == 2);
    in = nth(f, PO_WMMA, MODE_WMMA_MMA, 0);
    CHECK(in && in->nops == 4 && (in->tflags & SMEM_TF_B_COL) && in->type == PT_F32);
    in = nth(f, PO_WMMA, MODE_WMMA_STORE_D, 0);
    CHECK(in && in->ops[0].kind == OPK_ADDR && in->ops[1].count == 8);
    smem_ptx_free(m);

    /* refused per function otherwise: the instruction and its line; the other kernel is read */
    m = NULL;
    CHECK(smem_ptx_parse(text, len, "tensor_ops.ptx", &m, &err) == 0);
    f = m ? smem_ptx_find(m, "tensor_ops") : NULL;
    CHECK(f && f->error && f->ninsns == 0);
    if (f && f->error) {
        char b[600];
        smem_error_format(f->error, b, sizeof b);
        CHECK(strstr(b, "tensor_ops.ptx:25:") != NULL);
        CHECK(strstr(b, "unsupported instruction 'ldmatrix.sync.aligned.m8n8.x1.shared.b16'") != NULL);
        CHECK(strstr(b, "does not run ldmatrix yet") != NULL);
    }
    f = m ? smem_ptx_find(m, "plain") : NULL;
    CHECK(f && !f->error && f->ninsns == 4);
    smem_ptx_free(m);

    /* malformed or unsupported forms */
    char msg[600];
    /* cluster barriers take no operand (cooperative groups' type-erased thread_group::sync has
       them on a path that a kernel without clusters never runs: OLCF's hw9 task 1); they are
       read, and refused only when executed (cta_lane.c) */
    CHECK(one("barrier.cluster.arrive;", msg, sizeof msg)[0] == 0);
    CHECK(one("barrier.cluster.wait;", msg, sizeof msg)[0] == 0);
    CHECK(one("barrier.cluster.arrive.release.aligned;", msg, sizeof msg)[0] == 0);
    CHECK(one("barrier.cluster.wait.acquire.aligned;", msg, sizeof msg)[0] == 0);
    CHECK(strstr(one("ldmatrix.sync.aligned.m8n8.x3.shared.b16 {%r1}, [%r2];", msg, sizeof msg),
                 "unsupported ldmatrix modifier '.x3'"));
    CHECK(strstr(one("ldmatrix.sync.aligned.x4.shared.b16 {%r1,%r2,%r3,%r4}, [%r5];", msg, sizeof msg),
                 "needs a shape"));
    CHECK(strstr(one("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1,%r2}, [%r5];", msg, sizeof msg),
                 "unexpected operands"));
    CHECK(strstr(one("ldmatrix.sync.aligned.m8n8.x1.global.b16 {%r1}, [%rd1];", msg, sizeof msg),
                 ".shared::cta memory only"));
    CHECK(strstr(one("stmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];", msg, sizeof msg),
                 "unexpected operands"));
    CHECK(strstr(one("mbarrier.frobnicate.shared.b64 [%r1];", msg, sizeof msg),
                 "unsupported instruction 'mbarrier.frobnicate'"));
    CHECK(strstr(one("mbarrier.init.shared.b32 [%r1], 1;", msg, sizeof msg), "unsupported mbarrier modifier"));
    CHECK(strstr(one("mbarrier.arrive.expect_tx.shared.b64 %rd1, [%r1];", msg, sizeof msg), "unexpected operands"));
    CHECK(strstr(one("mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1, 5;", msg, sizeof msg), "unexpected operands"));
    CHECK(strstr(one("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6,%r7,%r8}, {%f1,%f2,%f3,%f4}, %r9, 0;",
                     msg, sizeof msg), "sparse"));
    CHECK(strstr(one("mma.sync.aligned.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f1};", msg, sizeof msg),
                 "mma needs a shape"));
    CHECK(strstr(one("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6};",
                     msg, sizeof msg), "unexpected operands"));
    CHECK(strstr(one("wmma.load.x.sync.aligned.row.m16n16k16.f16 {%r1}, [%rd1];", msg, sizeof msg),
                 "unsupported instruction 'wmma.x'"));
    CHECK(strstr(one("cp.async.cg.shared.global [%r1], [%rd1], 8;", msg, sizeof msg), "16 bytes only"));
    CHECK(strstr(one("cp.async.ca.shared.global [%r1], [%rd1], 12;", msg, sizeof msg), "4, 8 or 16"));
    CHECK(strstr(one("cp.async.shared.global [%r1], [%rd1], 4;", msg, sizeof msg), "needs .ca or .cg"));
    /* bulk copies parse (cta_bulk.c runs the non-tensor ones; the tensor, reduction and
       multicast forms stop where they execute) */
    CHECK(one("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 256, [%r2];",
              msg, sizeof msg)[0] == 0);
    CHECK(one("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 256;", msg, sizeof msg)[0] == 0);
    CHECK(one("cp.async.bulk.commit_group;", msg, sizeof msg)[0] == 0);
    CHECK(one("cp.async.bulk.wait_group.read 0;", msg, sizeof msg)[0] == 0);
    CHECK(one("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
              msg, sizeof msg)[0] == 0);
    CHECK(one("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.f32 [%rd1], [%r1], 256;", msg, sizeof msg)[0] == 0);
    /* the tensor reductions (cta_tma.c runs them): an operation and the one direction */
    CHECK(one("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r4];",
              msg, sizeof msg)[0] == 0);
    CHECK(one("cp.reduce.async.bulk.tensor.1d.global.shared::cta.xor.bulk_group [%rd1, {%r2}], [%r4];",
              msg, sizeof msg)[0] == 0);
    CHECK(strstr(one("cp.reduce.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r2, %r3}], [%r4];",
                     msg, sizeof msg), "the operation (.add, .min, .max, .inc, .dec, .and, .or, .xor) is missing"));
    CHECK(strstr(one("cp.reduce.async.bulk.tensor.2d.shared::cluster.global.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r4];",
                     msg, sizeof msg), "only .global.shared::cta exists"));
    CHECK(strstr(one("cp.reduce.async.bulk.tensor.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r4];",
                     msg, sizeof msg), "the dimension (.1d to .5d) is missing"));
    CHECK(strstr(one("cp.async.bulk.sideways.shared::cluster.global [%r1], [%rd1], 256, [%r2];", msg, sizeof msg),
                 "unsupported cp.async.bulk modifier '.sideways'"));
    { /* a vector of 129 (wgmma .m64n256's 128 accumulators is the most) */
        char v[1024];
        int k = snprintf(v, sizeof v, "mov.u32 %%r1, {");
        for (int i = 0; i < 129; i++)
            k += snprintf(v + k, sizeof v - (size_t)k, "%s%%r%d", i ? "," : "", 1 + i % 8);
        snprintf(v + k, sizeof v - (size_t)k, "};");
        CHECK(strstr(one(v, msg, sizeof msg), "vector of more than 128 elements"));
    }
    CHECK(one("fence.proxy.async.shared::cta;", msg, sizeof msg)[0] == 0);
    /* wgmma (sm_90a): the warpgroup's ordering instructions and mma_async's SS and RS forms */
    CHECK(one("wgmma.fence.sync.aligned;", msg, sizeof msg)[0] == 0);
    CHECK(one("wgmma.commit_group.sync.aligned;", msg, sizeof msg)[0] == 0);
    CHECK(one("wgmma.wait_group.sync.aligned 1;", msg, sizeof msg)[0] == 0);
    CHECK(one("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1, 1, 1, 0, 1;",
              msg, sizeof msg)[0] == 0);
    CHECK(one("wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, %rd2, "
              "%p1, 1, -1, 1;", msg, sizeof msg)[0] == 0);
    CHECK(one("wgmma.mma_async.sync.aligned.m64n16k32.s32.s8.u8.satfinite {%r1,%r2,%r3,%r4,%r5,%r6,%r7,%r8}, "
              "%rd1, %rd2, %p1;", msg, sizeof msg)[0] == 0);
    CHECK(strstr(one("wgmma.mma_async.sync.aligned.m64n260k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
                     msg, sizeof msg), "no shape .m64n260k16"));
    CHECK(strstr(one("wgmma.mma_async.sync.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1, 1, 1, 0, 0;",
                     msg, sizeof msg), "wgmma needs .sync.aligned"));
    CHECK(strstr(one("wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2, %p1;",
                     msg, sizeof msg), "sparse"));
    CHECK(strstr(one("wgmma.wait_group.sync.aligned %r1;", msg, sizeof msg), "unexpected operands"));
    CHECK(strstr(one("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1,%f2,%f3,%f4}, %rd1, %rd2;",
                     msg, sizeof msg), "unexpected operands"));
    CHECK(strstr(one("wgmma.arrive.sync.aligned;", msg, sizeof msg), "unsupported instruction 'wgmma.arrive'"));

    /* thread-block clusters: each form reads */
    static const char *const cl[] = {
        "mapa.shared::cluster.u32 %r1, %r2, %r3;", "mapa.u64 %rd1, %rd2, %r3;",
        "getctarank.shared::cluster.u32 %r1, %r2;", "ld.shared::cluster.u32 %r1, [%r2];",
        "st.shared::cluster.v2.u32 [%r2], {%r3, %r4};", "atom.shared::cluster.add.u32 %r1, [%r2], 1;",
        "red.shared::cluster.add.u32 [%r2], %r3;", "barrier.cluster.arrive.relaxed.aligned;",
        "barrier.cluster.wait.acquire.aligned;",
        "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%r1], %r2, [%r3];",
        "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r1], %r2, [%r3];",
        "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];",
        "elect.sync %r1|%p1, 0xffffffff;", "setmaxnreg.inc.sync.aligned.u32 232;",
        "mov.u32 %r1, %cluster_ctaid.y;", "mov.pred %p1, %is_explicit_cluster;",
        "cvt.rn.satfinite.e4m3x2.f32 %r1, %f1, %f2;", "cvt.rn.f16x2.e4m3x2 %r1, %r2;",
    };
    for (unsigned i = 0; i < sizeof cl / sizeof cl[0]; i++) {
        CHECK(one(cl[i], msg, sizeof msg)[0] == 0);
        if (msg[0])
            fprintf(stderr, "  %s: %s\n", cl[i], msg);
    }
    /* labels are scoped by { } blocks: CUTLASS's inline asm repeats LAB_WAIT / DONE in one
       function; each bra goes to its own block's label */
    static const char scoped[] =
        ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
        "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
        "\t{\n\tL: mov.u32 %r1, 1;\n\t@%p1 bra L;\n\tbra DONE;\n\tDONE:\n\t}\n"
        "\t{\n\tL: mov.u32 %r2, 2;\n\t@%p1 bra L;\n\tbra DONE;\n\tDONE:\n\t}\n"
        "\tbra OUT;\nOUT:\n\tret;\n}\n";
    struct smem_ptx_module *ms = NULL;
    CHECK(smem_ptx_parse_opts(scoped, sizeof scoped - 1, "scoped.ptx", &o, &ms, &err) == 0);
    const struct smem_ptx_func *fs = ms ? smem_ptx_find(ms, "k") : NULL;
    CHECK(fs != NULL && fs->ninsns == 8);
    if (fs && fs->ninsns == 8) {
        CHECK_EQ(fs->insns[1].ops[0].imm, 0); /* the first block's L, DONE */
        CHECK_EQ(fs->insns[2].ops[0].imm, 3);
        CHECK_EQ(fs->insns[4].ops[0].imm, 3); /* the second's */
        CHECK_EQ(fs->insns[5].ops[0].imm, 6);
        CHECK_EQ(fs->insns[6].ops[0].imm, 7); /* the function's */
    }
    smem_ptx_free(ms);
    return CHECK_DONE();
}
