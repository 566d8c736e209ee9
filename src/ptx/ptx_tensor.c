/* ptx_tensor.c: the modifiers and operand shapes of ldmatrix, stmatrix, mbarrier, mma, wmma and
 * wgmma (sm_90a) as the PTX ISA (8.x) writes them. Decoding only: what each does is the emulator's
 * (docs/bank-model.md and the header of include/smemlab/model/matrix.h say what the H100 does). */
#include "opcodes.h"
#include "ptx_tensor.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ptx_tensor_first(const char *first)
{
    return !strcmp(first, "ldmatrix") || !strcmp(first, "stmatrix") || !strcmp(first, "mbarrier") ||
           !strcmp(first, "mma") || !strcmp(first, "wmma") || !strcmp(first, "wgmma");
}

static uint8_t ttype(const char *s) { return ptx_type_of(s, TYW_MAT); }

/* "m16n8k16" / "m8n8": 0 on success. */
static int read_shape(const char *s, struct smem_ptx_insn *in)
{
    unsigned m, n, k = 0;
    char tail;
    if (sscanf(s, "m%un%uk%u%c", &m, &n, &k, &tail) == 3 || sscanf(s, "m%un%u%c", &m, &n, &tail) == 2) {
        if (!m || !n || m > 64 || n > 64 || k > 256)
            return -1;
        if (k == 0 && strchr(s, 'k'))
            return -1;
        in->shape_m = (uint8_t)m;
        in->shape_n = (uint8_t)n;
        in->shape_k = (uint16_t)k;
        return 0;
    }
    return -1;
}

static void add_type(struct smem_ptx_insn *in, uint8_t t, unsigned *nt)
{
    uint8_t *slot[4] = {&in->type, &in->type2, &in->type3, &in->type4};
    if (*nt < 4)
        *slot[*nt] = t;
    (*nt)++;
}

static const char *err(char *why, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static const char *err(char *why, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, n, fmt, ap);
    va_end(ap);
    return why;
}

/* A modifier every one of these instructions may carry: space, ordering, scope. 1 if consumed. */
static int common_mod(const char *p, struct smem_ptx_insn *in)
{
    if (!strcmp(p, "sync") || !strcmp(p, "aligned"))
        return 1;
    if (!strcmp(p, "shared") || !strcmp(p, "shared::cta")) {
        in->space = SP_SHARED;
        return 1;
    }
    if (!strcmp(p, "shared::cluster")) {
        in->space = SP_SHARED;
        in->tflags |= SMEM_TF_CLUSTER;
        return 1;
    }
    if (!strcmp(p, "global")) {
        in->space = SP_GLOBAL;
        return 1;
    }
    if (!strcmp(p, "acquire")) { in->tflags |= SMEM_TF_ACQUIRE; return 1; }
    if (!strcmp(p, "release")) { in->tflags |= SMEM_TF_RELEASE; return 1; }
    if (!strcmp(p, "relaxed")) { in->tflags |= SMEM_TF_RELAXED; return 1; }
    if (!strcmp(p, "cta"))
        return 1;
    if (!strcmp(p, "cluster")) {
        in->tflags |= SMEM_TF_SCOPE_CLUSTER;
        return 1;
    }
    return 0;
}

static const char *decode_matrix(const char *first, char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    char *p;
    unsigned nt = 0;
    in->op = first[0] == 'l' ? PO_LDMATRIX : PO_STMATRIX;
    in->space = SP_GENERIC; /* without .shared the address is generic (and must point to shared) */
    while ((p = strtok_r(NULL, ".", save))) {
        if (common_mod(p, in))
            continue;
        if (p[0] == 'm' && !read_shape(p, in))
            continue;
        if (!strcmp(p, "x1") || !strcmp(p, "x2") || !strcmp(p, "x4")) {
            in->vec = (uint8_t)(p[1] - '0');
            continue;
        }
        if (!strcmp(p, "trans")) {
            in->tflags |= SMEM_TF_TRANS;
            continue;
        }
        /* sm_100a's source formats of .m8n16 / .m16n16 */
        if (!strcmp(p, "b8x16") || !strcmp(p, "b6x16_p32") || !strcmp(p, "b4x16_p64")) {
            add_type(in, PT_B8, &nt);
            continue;
        }
        uint8_t t = ttype(p);
        if (t == PT_B16 || t == PT_B8) {
            add_type(in, t, &nt);
            continue;
        }
        return err(why, n, "unsupported %s modifier '.%s'", first, p);
    }
    if (!in->shape_m || in->shape_k || !in->vec || !nt)
        return err(why, n, "%s needs a shape (.m8n8), a count (.x1, .x2, .x4) and a type (.b16)%s", first, "");
    if ((in->space != SP_SHARED && in->space != SP_GENERIC) || (in->tflags & SMEM_TF_CLUSTER))
        return err(why, n, "%s works on .shared::cta memory only%s", first, "");
    return NULL;
}

static const char *decode_mbarrier(char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    static const struct {
        const char *name;
        uint8_t mode;
    } ops[] = {{"init", MODE_MBAR_INIT},           {"inval", MODE_MBAR_INVAL},
               {"arrive", MODE_MBAR_ARRIVE},       {"arrive_drop", MODE_MBAR_ARRIVE_DROP},
               {"expect_tx", MODE_MBAR_EXPECT_TX}, {"complete_tx", MODE_MBAR_COMPLETE_TX},
               {"test_wait", MODE_MBAR_TEST_WAIT}, {"try_wait", MODE_MBAR_TRY_WAIT},
               {"pending_count", MODE_MBAR_PENDING_COUNT}};
    char *p = strtok_r(NULL, ".", save);
    in->op = PO_MBARRIER;
    in->space = SP_GENERIC;
    for (size_t i = 0; p && i < sizeof ops / sizeof ops[0]; i++)
        if (!strcmp(p, ops[i].name))
            in->mode = ops[i].mode;
    if (!in->mode)
        return err(why, n, "unsupported instruction 'mbarrier.%s'%s", p ? p : "", "");
    while ((p = strtok_r(NULL, ".", save))) {
        if (common_mod(p, in))
            continue;
        if (!strcmp(p, "b64")) {
            in->type = PT_B64;
            continue;
        }
        if (!strcmp(p, "parity") && (in->mode == MODE_MBAR_TEST_WAIT || in->mode == MODE_MBAR_TRY_WAIT)) {
            in->tflags |= SMEM_TF_PARITY;
            continue;
        }
        if (!strcmp(p, "expect_tx") && (in->mode == MODE_MBAR_ARRIVE || in->mode == MODE_MBAR_ARRIVE_DROP)) {
            in->tflags |= SMEM_TF_EXPECT_TX;
            continue;
        }
        if (!strcmp(p, "noComplete") && (in->mode == MODE_MBAR_ARRIVE || in->mode == MODE_MBAR_ARRIVE_DROP)) {
            in->tflags |= SMEM_TF_NOCOMPLETE;
            continue;
        }
        return err(why, n, "unsupported mbarrier modifier '.%s'%s", p, "");
    }
    if (in->type != PT_B64)
        return err(why, n, "mbarrier needs .b64%s%s", "", "");
    return NULL;
}

static const char *decode_mma(char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    char *p;
    unsigned nt = 0, layouts = 0;
    in->op = PO_MMA;
    while ((p = strtok_r(NULL, ".", save))) {
        if (!strcmp(p, "sp") || !strcmp(p, "sp::ordered_metadata"))
            return err(why, n, "unsupported instruction 'mma.%s' (sparse matrices)%s", p, "");
        if (!strncmp(p, "kind::", 6) || !strncmp(p, "block_scale", 11) || !strncmp(p, "scale_vec", 9))
            return err(why, n, "unsupported mma modifier '.%s' (not an sm_90 form)%s", p, "");
        if (!strcmp(p, "sync") || !strcmp(p, "aligned"))
            continue;
        if (p[0] == 'm' && !read_shape(p, in))
            continue;
        if (!strcmp(p, "row") || !strcmp(p, "col")) {
            if (p[0] == 'c')
                in->tflags |= layouts == 0 ? SMEM_TF_A_COL : SMEM_TF_B_COL;
            layouts++;
            continue;
        }
        if (!strcmp(p, "satfinite")) {
            in->mods |= SMEM_MOD_SATFINITE;
            continue;
        }
        if (!strcmp(p, "xor") || !strcmp(p, "and")) {
            in->tflags |= p[0] == 'x' ? SMEM_TF_XOR_POPC : SMEM_TF_AND_POPC;
            continue;
        }
        if (!strcmp(p, "popc"))
            continue;
        if (!strcmp(p, "rn")) {
            in->round = RND_RN;
            continue;
        }
        uint8_t t = ttype(p);
        if (t != PT_NONE) {
            add_type(in, t, &nt);
            continue;
        }
        return err(why, n, "unsupported mma modifier '.%s'%s", p, "");
    }
    if (!in->shape_k || layouts > 2 || nt < 2 || nt > 4)
        return err(why, n, "mma needs a shape (.m16n8k16), the layouts and the types%s%s", "", "");
    if (nt == 2) { /* .f16.f16 forms: d and c; a and b are .f16 */
        in->type4 = in->type2;
        in->type2 = in->type3 = PT_F16;
    }
    return NULL;
}

static const char *decode_wmma(char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    char *p = strtok_r(NULL, ".", save);
    unsigned nt = 0, layouts = 0;
    in->op = PO_WMMA;
    if (p && !strcmp(p, "load")) {
        p = strtok_r(NULL, ".", save);
        in->mode = !p ? 0 : !strcmp(p, "a") ? MODE_WMMA_LOAD_A : !strcmp(p, "b") ? MODE_WMMA_LOAD_B
                 : !strcmp(p, "c") ? MODE_WMMA_LOAD_C : 0;
    } else if (p && !strcmp(p, "store")) {
        p = strtok_r(NULL, ".", save);
        in->mode = p && !strcmp(p, "d") ? MODE_WMMA_STORE_D : 0;
    } else if (p && !strcmp(p, "mma")) {
        in->mode = MODE_WMMA_MMA;
    }
    if (!in->mode)
        return err(why, n, "unsupported instruction 'wmma.%s'%s", p ? p : "", "");
    while ((p = strtok_r(NULL, ".", save))) {
        if (common_mod(p, in))
            continue;
        if (!strcmp(p, "local") || !strcmp(p, "param") || !strcmp(p, "const")) {
            in->space = !strcmp(p, "local") ? SP_LOCAL : !strcmp(p, "param") ? SP_PARAM : SP_CONST;
            continue;
        }
        if (p[0] == 'm' && !read_shape(p, in))
            continue;
        if (!strcmp(p, "row") || !strcmp(p, "col")) {
            if (p[0] == 'c')
                in->tflags |= layouts == 0 ? SMEM_TF_A_COL : SMEM_TF_B_COL;
            layouts++;
            continue;
        }
        if (!strcmp(p, "satfinite")) {
            in->mods |= SMEM_MOD_SATFINITE;
            continue;
        }
        if (!strcmp(p, "xor") || !strcmp(p, "and") || !strcmp(p, "popc") || !strcmp(p, "rn"))
            continue;
        uint8_t t = ttype(p);
        if (t != PT_NONE) {
            add_type(in, t, &nt);
            continue;
        }
        return err(why, n, "unsupported wmma modifier '.%s'%s", p, "");
    }
    if (!in->shape_k || !nt)
        return err(why, n, "wmma needs a shape (.m16n16k16) and a type%s%s", "", "");
    if (in->mode == MODE_WMMA_MMA && nt == 2) { /* .dtype.ctype: the f16 forms, a and b .f16 */
        in->type4 = in->type2;
        in->type2 = in->type3 = PT_F16;
    }
    return NULL;
}

/* wgmma.fence / commit_group / wait_group / mma_async (.sp: refused) .sync.aligned; mma_async:
 * .m64nNkK, then the types of D, A, B ({.satfinite}, b1's .and.popc). N: a multiple of 8 up to
 * 256 (the integer and b1 forms: 8, 16, 24, then multiples of 16). */
static const char *decode_wgmma(char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    char *p = strtok_r(NULL, ".", save);
    unsigned nt = 0, sync = 0, aligned = 0;
    in->op = PO_WGMMA;
    in->mode = !p ? 0 : !strcmp(p, "fence") ? MODE_WGMMA_FENCE : !strcmp(p, "commit_group") ? MODE_WGMMA_COMMIT
             : !strcmp(p, "wait_group") ? MODE_WGMMA_WAIT : !strcmp(p, "mma_async") ? MODE_WGMMA_MMA : 0;
    if (!in->mode)
        return err(why, n, "unsupported instruction 'wgmma.%s'%s", p ? p : "", "");
    while ((p = strtok_r(NULL, ".", save))) {
        if (!strcmp(p, "sync") || !strcmp(p, "aligned")) {
            sync += p[0] == 's';
            aligned += p[0] == 'a';
            continue;
        }
        if (in->mode != MODE_WGMMA_MMA)
            return err(why, n, "unsupported wgmma modifier '.%s'%s", p, "");
        if (!strcmp(p, "sp"))
            return err(why, n, "unsupported instruction 'wgmma.mma_async.sp' (sparse matrices)%s%s", "", "");
        unsigned m, nn, k;
        char tail;
        if (p[0] == 'm' && sscanf(p, "m%un%uk%u%c", &m, &nn, &k, &tail) == 3) {
            if (m != 64 || !nn || nn > 256 || nn % 8 || (k != 8 && k != 16 && k != 32 && k != 256))
                return err(why, n, "wgmma.mma_async: no shape .%s (the PTX ISA has .m64nNk8/16/32/256, N a "
                           "multiple of 8 up to 256)%s", p, "");
            in->shape_m = (uint8_t)m;
            in->shape_n = (uint16_t)nn;
            in->shape_k = (uint16_t)k;
            continue;
        }
        if (!strcmp(p, "satfinite")) {
            in->mods |= SMEM_MOD_SATFINITE;
            continue;
        }
        if (!strcmp(p, "and") || !strcmp(p, "popc")) {
            in->tflags |= SMEM_TF_AND_POPC;
            continue;
        }
        uint8_t t = ttype(p);
        if (t != PT_NONE) {
            add_type(in, t, &nt);
            continue;
        }
        return err(why, n, "unsupported wgmma.mma_async modifier '.%s'%s", p, "");
    }
    if (!sync || !aligned)
        return err(why, n, "wgmma needs .sync.aligned%s%s", "", "");
    if (in->mode == MODE_WGMMA_MMA && (!in->shape_k || nt != 3))
        return err(why, n, "wgmma.mma_async needs a shape (.m64n64k16) and the types of D, A and B%s%s", "", "");
    return NULL;
}

const char *ptx_tensor_decode(const char *first, char **save, struct smem_ptx_insn *in, char *why, size_t n)
{
    in->vec = 1;
    if (!strcmp(first, "wgmma"))
        return decode_wgmma(save, in, why, n);
    if (!strcmp(first, "ldmatrix") || !strcmp(first, "stmatrix"))
        return decode_matrix(first, save, in, why, n);
    if (!strcmp(first, "mbarrier"))
        return decode_mbarrier(save, in, why, n);
    if (!strcmp(first, "mma"))
        return decode_mma(save, in, why, n);
    return decode_wmma(save, in, why, n);
}

static int is_vec(const struct smem_ptx_operand *o, unsigned count)
{
    if (o->kind == OPK_VEC || o->kind == OPK_VECX)
        return !count || o->count == count;
    return o->kind == OPK_REG && count <= 1;
}

static int is_val(const struct smem_ptx_operand *o)
{
    return o->kind == OPK_REG || o->kind == OPK_IMM;
}

const char *ptx_tensor_check_operands(const struct smem_ptx_insn *in, char *why, size_t n)
{
    const struct smem_ptx_operand *o = in->ops;
    const char *name = smem_ptx_tensor_name(in);
    int ok = 1;
    switch (in->op) {
    case PO_LDMATRIX:
        ok = in->nops == 2 && is_vec(&o[0], in->vec) && o[1].kind == OPK_ADDR;
        break;
    case PO_STMATRIX:
        ok = in->nops == 2 && o[0].kind == OPK_ADDR && is_vec(&o[1], in->vec);
        break;
    case PO_MMA:
        ok = in->nops == 4 && is_vec(&o[0], 0) && is_vec(&o[1], 0) && is_vec(&o[2], 0) && is_vec(&o[3], 0);
        break;
    case PO_WMMA:
        if (in->mode == MODE_WMMA_MMA)
            ok = in->nops == 4 && is_vec(&o[0], 0) && is_vec(&o[1], 0) && is_vec(&o[2], 0) && is_vec(&o[3], 0);
        else if (in->mode == MODE_WMMA_STORE_D)
            ok = (in->nops == 2 || (in->nops == 3 && is_val(&o[2]))) && o[0].kind == OPK_ADDR && is_vec(&o[1], 0);
        else
            ok = (in->nops == 2 || (in->nops == 3 && is_val(&o[2]))) && is_vec(&o[0], 0) && o[1].kind == OPK_ADDR;
        break;
    case PO_WGMMA:
        if (in->mode == MODE_WGMMA_WAIT)
            ok = in->nops == 1 && o[0].kind == OPK_IMM;
        else if (in->mode != MODE_WGMMA_MMA)
            ok = in->nops == 0;
        else /* d, a-desc | {a}, b-desc, scale-d, then up to four immediates */
            ok = in->nops >= 4 && is_vec(&o[0], 0) && (o[1].kind == OPK_REG || is_vec(&o[1], 4)) &&
                 o[2].kind == OPK_REG && is_val(&o[3]);
        for (unsigned i = 4; ok && i < in->nops; i++)
            ok = o[i].kind == OPK_IMM;
        break;
    case PO_MBARRIER:
        switch (in->mode) {
        case MODE_MBAR_INIT: case MODE_MBAR_EXPECT_TX: case MODE_MBAR_COMPLETE_TX:
            ok = in->nops == 2 && o[0].kind == OPK_ADDR && is_val(&o[1]);
            break;
        case MODE_MBAR_INVAL:
            ok = in->nops == 1 && o[0].kind == OPK_ADDR;
            break;
        case MODE_MBAR_ARRIVE: case MODE_MBAR_ARRIVE_DROP:
            /* [state,] [addr] [, count]: the state may be the sink _; .expect_tx needs the count */
            ok = in->nops >= 2 && in->nops <= 3 && (o[0].kind == OPK_REG || o[0].kind == OPK_SINK) &&
                 o[1].kind == OPK_ADDR && (in->nops == 2 || is_val(&o[2])) &&
                 (!(in->tflags & SMEM_TF_EXPECT_TX) || in->nops == 3);
            break;
        case MODE_MBAR_TEST_WAIT: case MODE_MBAR_TRY_WAIT:
            ok = in->nops >= 3 && in->nops <= 4 && o[0].kind == OPK_REG && o[1].kind == OPK_ADDR &&
                 is_val(&o[2]) && (in->nops == 3 || is_val(&o[3])) &&
                 (in->mode == MODE_MBAR_TRY_WAIT || in->nops == 3);
            break;
        case MODE_MBAR_PENDING_COUNT:
            ok = in->nops == 2 && o[0].kind == OPK_REG && o[1].kind == OPK_REG;
            break;
        default: ok = 0;
        }
        break;
    default:
        return NULL;
    }
    if (ok)
        return NULL;
    snprintf(why, n, "%s: unexpected operands (the PTX ISA's form is %s)", name,
             in->op == PO_LDMATRIX ? "ldmatrix... {d0,...}, [addr]"
             : in->op == PO_STMATRIX ? "stmatrix... [addr], {r0,...}"
             : in->op == PO_MMA ? "mma... {d}, {a}, {b}, {c}"
             : in->op == PO_WMMA ? "wmma.load {r}, [p] {, stride} / wmma.store [p], {r} {, stride} / wmma.mma {d}, {a}, {b}, {c}"
             : in->op == PO_WGMMA ? "wgmma.mma_async {d}, a-desc | {a}, b-desc, scale-d {, imm-scale-a, imm-scale-b {, imm-trans-a}, imm-trans-b}; wgmma.wait_group N"
             : "as in the PTX ISA for this mbarrier operation");
    return why;
}

const char *smem_ptx_tensor_name(const struct smem_ptx_insn *in)
{
    switch (in->op) {
    case PO_LDMATRIX: return "ldmatrix";
    case PO_STMATRIX: return "stmatrix";
    case PO_MMA: return "mma";
    case PO_WMMA:
        return in->mode == MODE_WMMA_MMA ? "wmma.mma" : in->mode == MODE_WMMA_STORE_D ? "wmma.store" : "wmma.load";
    case PO_MBARRIER:
        switch (in->mode) {
        case MODE_MBAR_INIT: return "mbarrier.init";
        case MODE_MBAR_INVAL: return "mbarrier.inval";
        case MODE_MBAR_ARRIVE: return "mbarrier.arrive";
        case MODE_MBAR_ARRIVE_DROP: return "mbarrier.arrive_drop";
        case MODE_MBAR_EXPECT_TX: return "mbarrier.expect_tx";
        case MODE_MBAR_COMPLETE_TX: return "mbarrier.complete_tx";
        case MODE_MBAR_TEST_WAIT: return "mbarrier.test_wait";
        case MODE_MBAR_TRY_WAIT: return "mbarrier.try_wait";
        default: return "mbarrier.pending_count";
        }
    case PO_WGMMA:
        return in->mode == MODE_WGMMA_FENCE ? "wgmma.fence" : in->mode == MODE_WGMMA_COMMIT ? "wgmma.commit_group"
             : in->mode == MODE_WGMMA_WAIT ? "wgmma.wait_group" : "wgmma.mma_async";
    case PO_CP_BULK:
        switch (in->mode) {
        case MODE_BULK_COMMIT: return "cp.async.bulk.commit_group";
        case MODE_BULK_WAIT: return "cp.async.bulk.wait_group";
        case MODE_BULK_PREFETCH: return "cp.async.bulk.prefetch";
        case MODE_BULK_TENSOR: case MODE_BULK_TENSOR_G2S: case MODE_BULK_TENSOR_S2G:
            return in->tflags & SMEM_TF_REDUCE ? "cp.reduce.async.bulk.tensor" : "cp.async.bulk.tensor";
        case MODE_BULK_TENSOR_PREFETCH: return "cp.async.bulk.prefetch.tensor";
        case MODE_BULK_REDUCE: return "cp.reduce.async.bulk";
        default: return "cp.async.bulk";
        }
    default: return NULL;
    }
}

int32_t smem_ptx_vec_reg(const struct smem_ptx_func *f, const struct smem_ptx_operand *o, unsigned i)
{
    if (i >= o->count)
        return -1;
    if (o->kind == OPK_VEC)
        return i < 4 ? o->reg[i] : -1;
    if (o->kind == OPK_VECX && o->imm >= 0 && (uint64_t)o->imm + i < f->nvregs)
        return f->vregs[o->imm + i];
    return -1;
}
