/* cta.c: the CTA emulator. Threads run one at a time up to the next barrier (values flow through
 * shared memory as in a race-free program); lanes of a warp meet at warp collectives (shfl, vote,
 * __syncwarp). A lane's k-th execution of a shared instruction joins the warp's k-th request. */
#include "smemlab/cta.h"

#include "internal/sass_model.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHARED_GENERIC_BASE 0x00007e0000000000ull /* generic addresses of the shared window */
#define LOCAL_GENERIC_BASE 0x00007d0000000000ull  /* generic addresses of local memory */
#define WINDOW_SIZE 0x0000000100000000ull
#define PTR_PARAM_BASE 0x0000100000000000ull      /* fake device pointers for pointer params */
#define PTR_PARAM_STEP 0x0000010000000000ull
#define GLOBAL_SYM_BASE 0x0000080000000000ull     /* addresses of module .global variables */
#define DEFAULT_MAX_STEPS 200000000ull

enum lane_state { L_RUN = 0, L_BAR, L_WARP, L_EXIT };

struct lane {
    uint32_t pc;
    uint8_t state;
    uint32_t bar_id, bar_count; /* L_BAR: the barrier and its thread count (0 = whole block) */
    uint32_t wsync;             /* __syncwarp()s passed */
    int bar_pred;               /* bar.red: this thread's predicate */
};

struct pending {
    uint64_t key; /* site << 32 | k */
    uint32_t idx;
    uint32_t gen; /* the flush generation it belongs to: older entries are empty */
};

struct block {
    const struct smem_cta_program *p;
    const struct smem_launch *l;
    const struct smem_cta_hooks *h;
    struct smem_error *err;
    uint32_t bid, ctaid[3];
    uint32_t nthreads, nwarps, nregs;
    uint64_t *R;
    uint8_t *K;
    struct lane *T;
    uint32_t *kcount;          /* per thread per site */
    uint8_t *smem, *smem_known;
    uint32_t smem_size;
    uint8_t *local, *local_known;
    uint32_t local_size;
    uint8_t *param, *param_known;
    uint64_t param_size;
    uint32_t interval;
    uint64_t steps, max_steps;
    /* the warp being run: its pending requests */
    struct smem_access *reqs;
    uint32_t nreqs, cap_reqs;
    struct pending *tab;
    uint32_t cap_tab;
    uint32_t gen;
    int stopped;               /* a data-dependent outcome stopped the run */
    struct smem_cta_unknown unknown;
    int failed;
};

/* ---- preparation ------------------------------------------------------------------------ */

enum fast_kind {
    F_NONE = 0, F_ADD32, F_SUB32, F_MUL32, F_MAD32, F_AND32, F_OR32, F_XOR32, F_SHL32, F_SHRU32,
    F_MOV32, F_ADD64, F_MULWIDE_U32, F_MULWIDE_S32, F_SETP_U32, F_SETP_S32, F_BRA
};

static int fast_operand(const struct smem_ptx_operand *o)
{
    return o->kind == OPK_REG || o->kind == OPK_IMM;
}

/* Instructions simple enough for the fast path: integer ops on registers and immediates. */
static uint8_t fast_kind_of(const struct smem_ptx_func *f, const struct smem_ptx_insn *in)
{
    unsigned t = in->type;
    int i32 = t == PT_U32 || t == PT_S32 || t == PT_B32;
    int i64 = t == PT_U64 || t == PT_S64 || t == PT_B64;
    if (in->op == PO_BRA)
        return F_BRA;
    if (in->sat || in->nops < 2 || in->ops[0].kind != OPK_REG || in->ops[0].reg[0] < 0)
        return F_NONE;
    unsigned db = smem_ptx_type_bytes(f->reg_type[in->ops[0].reg[0]]);
    for (unsigned o = 1; o < in->nops; o++)
        if (!fast_operand(&in->ops[o]) || in->ops[o].neg)
            return F_NONE;
    if (in->op == PO_SETP && i32 && in->nops == 3 && !in->boolop &&
        f->reg_type[in->ops[0].reg[0]] == PT_PRED &&
        (in->cmp == CMP_EQ || in->cmp == CMP_NE || in->cmp == CMP_LT || in->cmp == CMP_LE ||
         in->cmp == CMP_GT || in->cmp == CMP_GE || in->cmp == CMP_LO || in->cmp == CMP_LS ||
         in->cmp == CMP_HI || in->cmp == CMP_HS))
        return t == PT_S32 ? F_SETP_S32 : F_SETP_U32;
    if (in->op == PO_MUL && in->mode == MODE_WIDE && (t == PT_U32 || t == PT_S32) && db == 8 &&
        in->nops == 3)
        return t == PT_U32 ? F_MULWIDE_U32 : F_MULWIDE_S32;
    if (in->op == PO_ADD && i64 && db == 8 && in->nops == 3)
        return F_ADD64;
    if (!i32 || db != 4)
        return F_NONE;
    switch (in->op) {
    case PO_ADD: return in->nops == 3 ? F_ADD32 : F_NONE;
    case PO_SUB: return in->nops == 3 ? F_SUB32 : F_NONE;
    case PO_MUL: return in->nops == 3 && in->mode == MODE_LO ? F_MUL32 : F_NONE;
    case PO_MAD: return in->nops == 4 && in->mode == MODE_LO ? F_MAD32 : F_NONE;
    case PO_AND: return in->nops == 3 ? F_AND32 : F_NONE;
    case PO_OR: return in->nops == 3 ? F_OR32 : F_NONE;
    case PO_XOR: return in->nops == 3 ? F_XOR32 : F_NONE;
    case PO_SHL: return in->nops == 3 ? F_SHL32 : F_NONE;
    case PO_SHR: return in->nops == 3 && t != PT_S32 ? F_SHRU32 : F_NONE;
    case PO_MOV: return in->nops == 2 ? F_MOV32 : F_NONE;
    default: return F_NONE;
    }
}

static int sym_referenced(const struct smem_ptx_func *f, uint32_t sym)
{
    for (uint32_t k = 0; k < f->ninsns; k++)
        for (unsigned o = 0; o < f->insns[k].nops; o++)
            if (f->insns[k].ops[o].sym == (int32_t)sym)
                return 1;
    return 0;
}

static uint32_t align_up(uint32_t v, uint32_t a) { return a ? (v + a - 1) / a * a : v; }

static int add_site(struct smem_cta_program *p, uint32_t insn, uint32_t offset, unsigned width,
                    unsigned op, int generic)
{
    struct smem_cta_site *ns = realloc(p->sites, (p->nsites + 1) * sizeof *ns);
    if (!ns)
        return -1;
    p->sites = ns;
    const struct smem_ptx_insn *in = &p->func->insns[insn];
    struct smem_cta_site *s = &p->sites[p->nsites];
    memset(s, 0, sizeof *s);
    s->insn = insn;
    s->offset = offset;
    s->width = (uint8_t)width;
    s->op = (uint8_t)op;
    s->generic = (uint8_t)generic;
    s->file = in->loc_file < p->module->nfiles ? p->module->files[in->loc_file] : NULL;
    s->line = in->loc_line;
    s->col = in->loc_col;
    s->ptx_line = in->src_line;
    if (p->site_of_insn[insn] == UINT32_MAX)
        p->site_of_insn[insn] = p->nsites;
    p->nsites++;
    return 0;
}

/* The SASS accesses one vector load becomes: naturally aligned runs of the kept components. */
static int add_vector_sites(struct smem_cta_program *p, uint32_t k, const struct smem_ptx_insn *in,
                            unsigned op, int generic)
{
    unsigned esz = smem_ptx_type_bytes(in->type), n = in->vec;
    uint32_t keep = in->keep & ((1u << n) - 1u);
    if (op != SMEM_ACC_LD || keep == (1u << n) - 1u)
        return add_site(p, k, 0, esz * n, op, generic);
    for (unsigned c = 0; c < n;) {
        if (!(keep >> c & 1u)) {
            c++;
            continue;
        }
        unsigned run = 1;
        /* widest aligned power-of-two group of kept components starting at c */
        for (unsigned w = n; w > 1; w /= 2)
            if (c % w == 0 && ((keep >> c) & ((1u << w) - 1u)) == (1u << w) - 1u) {
                run = w;
                break;
            }
        if (add_site(p, k, c * esz, esz * run, op, generic))
            return -1;
        c += run;
    }
    return 0;
}

int smem_cta_prepare(const struct smem_ptx_module *m, const struct smem_ptx_func *f,
                     uint32_t dyn_smem, struct smem_cta_program **out, struct smem_error *err)
{
    struct smem_cta_program *p = calloc(1, sizeof *p);
    *out = NULL;
    if (!p)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    p->module = m;
    p->func = f;
    p->site_of_insn = malloc((f->ninsns ? f->ninsns : 1) * sizeof *p->site_of_insn);
    p->vars = calloc(f->nsyms ? f->nsyms : 1, sizeof *p->vars);
    p->param_is_ptr = calloc(f->nparams ? f->nparams : 1, 1);
    p->local_offset = calloc(f->nsyms ? f->nsyms : 1, sizeof *p->local_offset);
    if (!p->site_of_insn || !p->vars || !p->param_is_ptr || !p->local_offset)
        goto oom;
    /* local symbols (stack depots, call-sequence parameters): offsets in the thread's window */
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_LOCAL) {
            if (f->syms[i].size > (1u << 20)) {
                smem_error_set(err, NULL, f->syms[i].decl_line, 0, "local variable '%s' too large",
                               f->syms[i].name);
                goto fail;
            }
            p->local_size = align_up(p->local_size, f->syms[i].align ? f->syms[i].align : 1);
            p->local_offset[i] = p->local_size;
            p->local_size += (uint32_t)f->syms[i].size;
        }
    p->fast = calloc(f->ninsns ? f->ninsns : 1, 1);
    if (!p->fast)
        goto oom;
    for (uint32_t k = 0; k < f->ninsns; k++) {
        p->site_of_insn[k] = UINT32_MAX;
        p->fast[k] = fast_kind_of(f, &f->insns[k]);
    }
    /* shared layout: static variables in declaration order (only those the kernel uses, as ptxas
     * does for module-level ones), then the dynamic allocation */
    uint32_t off = 0, max_dyn_align = 16;
    for (uint32_t i = 0; i < f->nsyms; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        if (s->kind != SYM_SHARED)
            continue;
        if (s->module_level && !sym_referenced(f, i))
            continue;
        if (s->size > SMEM_MAX_SMEM_PER_BLOCK * 4ull) {
            smem_error_set(err, NULL, s->decl_line, 0, "shared variable '%s' is %llu bytes",
                           s->name, (unsigned long long)s->size);
            goto fail;
        }
        off = align_up(off, s->align);
        p->vars[p->nvars].name = s->name;
        p->vars[p->nvars].offset = off;
        p->vars[p->nvars].size = (uint32_t)s->size;
        p->nvars++;
        off += (uint32_t)s->size;
    }
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_SHARED_EXTERN && f->syms[i].align > max_dyn_align)
            max_dyn_align = f->syms[i].align;
    p->static_smem = off;
    p->dyn_offset = align_up(off, max_dyn_align);
    for (uint32_t i = 0; i < f->nsyms; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        if (s->kind != SYM_SHARED_EXTERN || (s->module_level && !sym_referenced(f, i)))
            continue;
        p->vars[p->nvars].name = s->name;
        p->vars[p->nvars].offset = p->dyn_offset;
        p->vars[p->nvars].size = dyn_smem;
        p->vars[p->nvars].dynamic = 1;
        p->nvars++;
    }
    /* shared symbols: their offsets in the window, looked up once */
    for (uint32_t i = 0; i < f->nsyms; i++)
        if (f->syms[i].kind == SYM_SHARED || f->syms[i].kind == SYM_SHARED_EXTERN)
            for (uint32_t v = 0; v < p->nvars; v++)
                if (!strcmp(p->vars[v].name, f->syms[i].name))
                    p->local_offset[i] = p->vars[v].offset;
    /* what ptxas merges: neighbouring scalar loads become one wider access */
    struct sass_merge *merge = calloc(f->ninsns ? f->ninsns : 1, sizeof *merge);
    if (!merge || sass_merge_loads(f, p->local_offset, merge)) {
        free(merge);
        goto oom;
    }
    /* access sites */
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        int generic = in->space == SP_GENERIC;
        int shared = in->space == SP_SHARED;
        if (!shared && !generic)
            continue;
        int rc = 0;
        if (merge[k].leader >= 0) {
            /* the group's leader carries the merged access; the others make no request */
            if (merge[k].leader == (int32_t)k)
                rc = add_site(p, k, (uint32_t)merge[k].offset, merge[k].width,
                              in->op == PO_ST ? SMEM_ACC_ST : SMEM_ACC_LD, 0);
            if (rc) {
                free(merge);
                goto oom;
            }
            continue;
        }
        switch (in->op) {
        case PO_LD: case PO_LDU: rc = add_vector_sites(p, k, in, SMEM_ACC_LD, generic); break;
        case PO_ST: rc = add_vector_sites(p, k, in, SMEM_ACC_ST, generic); break;
        case PO_ATOM: case PO_RED:
            rc = add_site(p, k, 0, smem_ptx_type_bytes(in->type), SMEM_ACC_ATOM, generic);
            break;
        case PO_CP_ASYNC:
            if (in->nops >= 3 && in->ops[2].kind == OPK_IMM)
                rc = add_site(p, k, 0, (unsigned)in->ops[2].imm, SMEM_ACC_CP_ASYNC, 0);
            break;
        default: break;
        }
        if (rc) {
            free(merge);
            goto oom;
        }
    }
    free(merge);
    /* pointer parameters: ld.param whose register reaches an address or a cvta */
    for (uint32_t k = 0; k < f->ninsns; k++) {
        const struct smem_ptx_insn *in = &f->insns[k];
        if (in->op != PO_LD || in->space != SP_PARAM || in->nops < 2 || in->ops[1].sym < 0)
            continue;
        int32_t sym = in->ops[1].sym, reg = in->ops[0].reg[0];
        if (sym >= (int32_t)f->nparams || reg < 0 || smem_ptx_type_bytes(in->type) != 8)
            continue;
        for (uint32_t j = 0; j < f->ninsns && !p->param_is_ptr[sym]; j++) {
            const struct smem_ptx_insn *u = &f->insns[j];
            for (unsigned o = 0; o < u->nops; o++) {
                if ((u->op == PO_CVTA && o == 1 && u->ops[o].reg[0] == reg) ||
                    (u->ops[o].kind == OPK_ADDR && u->ops[o].reg[0] == reg))
                    p->param_is_ptr[sym] = 1;
                /* a pointer moved or offset before its use: add.s64 %rd2, %rd1, ... */
                if (u->op == PO_ADD && o == 1 && u->ops[1].reg[0] == reg && u->type == PT_S64)
                    p->param_is_ptr[sym] = 1;
            }
        }
    }
    *out = p;
    return 0;
oom:
    smem_error_set(err, NULL, 0, 0, "out of memory");
fail:
    smem_cta_program_free(p);
    return -1;
}

void smem_cta_program_free(struct smem_cta_program *p)
{
    if (!p)
        return;
    free(p->sites);
    free(p->site_of_insn);
    free(p->vars);
    free(p->param_is_ptr);
    free(p->local_offset);
    free(p->fast);
    free(p);
}

int smem_cta_check_launch(const struct smem_cta_program *p, const struct smem_launch *l,
                          struct smem_error *err)
{
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    if (!l->block[0] || !l->block[1] || !l->block[2] || !l->grid[0] || !l->grid[1] || !l->grid[2])
        return smem_error_set(err, NULL, 0, 0, "block and grid dimensions must be at least 1");
    if (threads > SMEM_MAX_THREADS)
        return smem_error_set(err, NULL, 0, 0,
                              "a block of %llu threads: a GPU runs at most 1024 threads per block",
                              (unsigned long long)threads);
    if (l->block[2] > 64)
        return smem_error_set(err, NULL, 0, 0, "block z dimension %u exceeds the limit of 64",
                              l->block[2]);
    if (l->grid[1] > 65535 || l->grid[2] > 65535)
        return smem_error_set(err, NULL, 0, 0, "grid y and z dimensions are limited to 65535");
    uint64_t smem = (uint64_t)p->dyn_offset + l->dyn_smem;
    if (!l->dyn_smem)
        smem = p->static_smem;
    if (smem > SMEM_MAX_SMEM_PER_BLOCK)
        return smem_error_set(err, NULL, 0, 0,
                              "the kernel needs %llu bytes of shared memory per block; an H100 "
                              "gives at most %u (227 KB)",
                              (unsigned long long)smem, SMEM_MAX_SMEM_PER_BLOCK);
    const struct smem_ptx_func *f = p->func;
    if (f->reqntid[0] && (f->reqntid[0] != l->block[0] || (f->reqntid[1] && f->reqntid[1] != l->block[1])))
        return smem_error_set(err, NULL, f->decl_line, 0,
                              "the kernel requires a block of %u x %u x %u threads (.reqntid)",
                              f->reqntid[0], f->reqntid[1] ? f->reqntid[1] : 1,
                              f->reqntid[2] ? f->reqntid[2] : 1);
    if (f->maxntid[0]) {
        uint64_t maxt = (uint64_t)f->maxntid[0] * (f->maxntid[1] ? f->maxntid[1] : 1) *
                        (f->maxntid[2] ? f->maxntid[2] : 1);
        if (threads > maxt)
            return smem_error_set(err, NULL, f->decl_line, 0,
                                  "a block of %llu threads exceeds the kernel's __launch_bounds__ "
                                  "of %llu", (unsigned long long)threads, (unsigned long long)maxt);
    }
    return 0;
}

/* Byte widths by type, inlined (the hot path asks for them on every instruction). */
static const uint8_t type_bytes_tab[PT_B128 + 1] = {
    [PT_B8] = 1, [PT_U8] = 1, [PT_S8] = 1, [PT_PRED] = 1, [PT_B16] = 2, [PT_U16] = 2,
    [PT_S16] = 2, [PT_F16] = 2, [PT_BF16] = 2, [PT_B32] = 4, [PT_U32] = 4, [PT_S32] = 4,
    [PT_F32] = 4, [PT_F16X2] = 4, [PT_BF16X2] = 4, [PT_B64] = 8, [PT_U64] = 8, [PT_S64] = 8,
    [PT_F64] = 8, [PT_B128] = 16,
};
#define TBYTES(t) ((unsigned)type_bytes_tab[(t) <= PT_B128 ? (t) : 0])

/* ---- values ------------------------------------------------------------------------------- */

static inline uint64_t mask_bytes(unsigned b)
{
    return b >= 8 ? ~0ull : ((1ull << (8 * b)) - 1ull);
}

static inline int64_t sext(uint64_t v, unsigned b)
{
    if (b >= 8)
        return (int64_t)v;
    unsigned sh = 64 - 8 * b;
    return (int64_t)(v << sh) >> sh;
}

static inline int is_signed(unsigned t) { return t == PT_S8 || t == PT_S16 || t == PT_S32 || t == PT_S64; }
static inline int is_float(unsigned t)
{
    return t == PT_F32 || t == PT_F64 || t == PT_F16 || t == PT_BF16;
}

static inline float f32_of(uint64_t v)
{
    float f;
    uint32_t u = (uint32_t)v;
    memcpy(&f, &u, 4);
    return f;
}
static inline uint64_t bits_f32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline double f64_of(uint64_t v)
{
    double d;
    memcpy(&d, &v, 8);
    return d;
}
static inline uint64_t bits_f64(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

static float half_to_float(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff, u;
    if (e == 0) {
        if (!m) {
            u = s;
        } else { /* subnormal */
            e = 127 - 15 + 1;
            while (!(m & 0x400)) {
                m <<= 1;
                e--;
            }
            u = s | (e << 23) | ((m & 0x3ff) << 13);
        }
    } else if (e == 31) {
        u = s | 0x7f800000u | (m << 13);
    } else {
        u = s | ((e + 127 - 15) << 23) | (m << 13);
    }
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t float_to_half(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t s = (u >> 16) & 0x8000u;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    uint32_t m = u & 0x7fffffu;
    if (((u >> 23) & 0xff) == 0xff)
        return (uint16_t)(s | 0x7c00u | (m ? 0x200u : 0));
    if (e >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)s;
        m |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
        if (rem > half || (rem == half && (hm & 1u)))
            hm++;
        return (uint16_t)(s | hm);
    }
    uint32_t hm = m >> 13, rem = m & 0x1fffu;
    uint32_t r = s | ((uint32_t)e << 10) | hm;
    if (rem > 0x1000u || (rem == 0x1000u && (hm & 1u)))
        r++;
    return (uint16_t)r;
}

static float bf16_to_float(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

static uint16_t float_to_bf16(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x40);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* A float operand of type t as a double (exact for f16/bf16/f32). */
static double fval(uint64_t v, unsigned t)
{
    switch (t) {
    case PT_F32: return (double)f32_of(v);
    case PT_F16: return (double)half_to_float((uint16_t)v);
    case PT_BF16: return (double)bf16_to_float((uint16_t)v);
    default: return f64_of(v);
    }
}

static uint64_t fbits(double d, unsigned t)
{
    switch (t) {
    case PT_F32: return bits_f32((float)d);
    case PT_F16: return float_to_half((float)d);
    case PT_BF16: return float_to_bf16((float)d);
    default: return bits_f64(d);
    }
}

static double round_int(double d, unsigned r)
{
    switch (r) {
    case RND_RZI: case RND_RZ: return trunc(d);
    case RND_RMI: case RND_RM: return floor(d);
    case RND_RPI: case RND_RP: return ceil(d);
    default: return nearbyint(d);
    }
}

/* ---- the block's machinery ---------------------------------------------------------------- */

static int block_fail(struct block *b, uint32_t insn, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int block_fail(struct block *b, uint32_t insn, const char *fmt, ...)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_insn *in = insn < f->ninsns ? &f->insns[insn] : NULL;
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    b->failed = 1;
    if (in && in->loc_line && in->loc_file < b->p->module->nfiles && b->p->module->files[in->loc_file])
        return smem_error_set(b->err, b->p->module->files[in->loc_file], in->loc_line, in->loc_col,
                              "%s (kernel %s, PTX line %u)", msg, f->name, in->src_line);
    return smem_error_set(b->err, NULL, in ? in->src_line : 0, 0, "%s (kernel %s)", msg, f->name);
}

static void stop_unknown(struct block *b, uint32_t insn, const char *what)
{
    if (b->stopped)
        return;
    b->stopped = 1;
    b->unknown.insn = insn;
    b->unknown.what = what;
}

static void flush_requests(struct block *b)
{
    for (uint32_t i = 0; i < b->nreqs; i++)
        if (b->h && b->h->access)
            b->h->access(b->h->ctx, &b->reqs[i]);
    b->nreqs = 0;
    b->gen++; /* every entry of the table is stale now */
}

/* The request (site, k) of the current warp, created on first use. */
static struct smem_access *request_for(struct block *b, uint32_t site, uint32_t k, uint32_t warp)
{
    uint64_t key = (uint64_t)site << 32 | k;
    uint32_t gen = b->gen + 1; /* never 0: calloc'd entries are empty */
    if (b->nreqs * 2 + 2 > b->cap_tab) {
        uint32_t nc = b->cap_tab ? b->cap_tab * 2 : 256;
        struct pending *nt = calloc(nc, sizeof *nt);
        if (!nt)
            return NULL;
        for (uint32_t i = 0; i < b->cap_tab; i++) {
            if (b->tab[i].gen != gen)
                continue;
            uint32_t h = (uint32_t)((b->tab[i].key * 0x9E3779B97F4A7C15ull) >> 40) & (nc - 1);
            while (nt[h].gen == gen)
                h = (h + 1) & (nc - 1);
            nt[h] = b->tab[i];
        }
        free(b->tab);
        b->tab = nt;
        b->cap_tab = nc;
    }
    uint32_t h = (uint32_t)((key * 0x9E3779B97F4A7C15ull) >> 40) & (b->cap_tab - 1);
    while (b->tab[h].gen == gen) {
        if (b->tab[h].key == key)
            return &b->reqs[b->tab[h].idx];
        h = (h + 1) & (b->cap_tab - 1);
    }
    if (b->nreqs == b->cap_reqs) {
        uint32_t nc = b->cap_reqs ? b->cap_reqs * 2 : 64;
        struct smem_access *nr = realloc(b->reqs, nc * sizeof *nr);
        if (!nr)
            return NULL;
        b->reqs = nr;
        b->cap_reqs = nc;
    }
    b->tab[h].key = key;
    b->tab[h].gen = gen;
    b->tab[h].idx = b->nreqs;
    struct smem_access *a = &b->reqs[b->nreqs++];
    memset(a, 0, sizeof *a);
    a->site = site;
    a->block = b->bid;
    a->warp = warp;
    a->interval = b->interval;
    a->width = b->p->sites[site].width;
    a->op = b->p->sites[site].op;
    return a;
}

/* Records lane tid's part in site's request; addr_known says whether addr means anything. */
static int record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known,
                  int oob)
{
    uint32_t *kc = &b->kcount[(size_t)tid * b->p->nsites + site];
    struct smem_access *a = request_for(b, site, (*kc)++, tid / 32);
    if (!a)
        return -1;
    uint32_t lane = tid % 32, bit = 1u << lane;
    a->active |= bit;
    a->addr[lane] = addr;
    a->wsync[lane] = b->T[tid].wsync;
    if (!addr_known)
        a->unknown |= bit;
    if (oob)
        a->oob |= bit;
    return 0;
}

static uint64_t sreg_value(const struct block *b, uint32_t tid, unsigned sr, int *known)
{
    const unsigned *bd = b->l->block;
    uint32_t x = tid % bd[0], y = (tid / bd[0]) % bd[1], z = tid / (bd[0] * bd[1]);
    *known = 1;
    switch (sr) {
    case SR_TID_X: return x;
    case SR_TID_Y: return y;
    case SR_TID_Z: return z;
    case SR_NTID_X: return bd[0];
    case SR_NTID_Y: return bd[1];
    case SR_NTID_Z: return bd[2];
    case SR_CTAID_X: return b->ctaid[0];
    case SR_CTAID_Y: return b->ctaid[1];
    case SR_CTAID_Z: return b->ctaid[2];
    case SR_NCTAID_X: return b->l->grid[0];
    case SR_NCTAID_Y: return b->l->grid[1];
    case SR_NCTAID_Z: return b->l->grid[2];
    case SR_LANEID: return tid % 32;
    case SR_WARPID: return tid / 32;
    case SR_NWARPID: return b->nwarps;
    case SR_LANEMASK_EQ: return 1u << (tid % 32);
    case SR_LANEMASK_LT: return (1u << (tid % 32)) - 1u;
    case SR_LANEMASK_LE: return (uint32_t)((2ull << (tid % 32)) - 1u);
    case SR_LANEMASK_GT: return ~(uint32_t)((2ull << (tid % 32)) - 1u);
    case SR_LANEMASK_GE: return ~(uint32_t)((1u << (tid % 32)) - 1u);
    case SR_CLOCK: case SR_CLOCK64: case SR_GLOBALTIMER: return b->steps;
    case SR_DYN_SMEM: return b->l->dyn_smem;
    case SR_TOTAL_SMEM: return b->smem_size;
    case SR_CLUSTER_CTARANK: return 0;
    case SR_CLUSTER_NCTARANK: return 1;
    default: *known = 0; return 0; /* %smid and friends: a property of the run, not the code */
    }
}

/* Address of symbol s (in its own state space, or a fake global address). */
static uint64_t sym_addr(const struct block *b, int32_t s)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_symbol *sym = &f->syms[s];
    if (sym->kind == SYM_SHARED || sym->kind == SYM_SHARED_EXTERN || sym->kind == SYM_LOCAL)
        return b->p->local_offset[s]; /* the symbol's offset in its window (shared or local) */
    if (sym->kind == SYM_PARAM)
        return sym->offset;
    return GLOBAL_SYM_BASE + (uint64_t)s * 0x100000ull;
}

static inline uint64_t src(const struct block *b, uint32_t tid, const uint64_t *R, const uint8_t *K,
                           const struct smem_ptx_operand *o, int *known)
{
    switch (o->kind) {
    case OPK_REG:
        if (!K[o->reg[0]])
            *known = 0;
        return R[o->reg[0]];
    case OPK_IMM:
        return (uint64_t)o->imm;
    case OPK_SREG: {
        int k;
        uint64_t v = sreg_value(b, tid, (unsigned)o->imm, &k);
        if (!k)
            *known = 0;
        return v;
    }
    case OPK_SYM:
        return sym_addr(b, o->sym) + (uint64_t)o->imm;
    default:
        *known = 0;
        return 0;
    }
}

static inline void dst(uint64_t *R, uint8_t *K, int32_t reg, uint64_t v, int known, unsigned bytes)
{
    if (reg < 0)
        return;
    R[reg] = v & mask_bytes(bytes ? bytes : 8);
    K[reg] = (uint8_t)known;
}

/* Effective address of a memory operand. */
static uint64_t ea(const struct block *b, const uint64_t *R, const uint8_t *K,
                   const struct smem_ptx_operand *o, int *known)
{
    uint64_t base = 0;
    if (o->reg[0] >= 0) {
        if (!K[o->reg[0]])
            *known = 0;
        base = R[o->reg[0]];
    } else if (o->sym >= 0) {
        base = sym_addr(b, o->sym);
    }
    return base + (uint64_t)o->imm;
}

/* ---- memory ------------------------------------------------------------------------------- */

static void mem_read(const uint8_t *mem, const uint8_t *kn, uint64_t off, unsigned n, uint64_t *v,
                     int *known)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < n && i < 8; i++) {
        r |= (uint64_t)mem[off + i] << (8 * i);
        if (!kn[off + i])
            *known = 0;
    }
    *v = r;
}

static void mem_write(uint8_t *mem, uint8_t *kn, uint64_t off, unsigned n, uint64_t v, int known)
{
    for (unsigned i = 0; i < n && i < 8; i++) {
        mem[off + i] = (uint8_t)(v >> (8 * i));
        kn[off + i] = (uint8_t)known;
    }
}

/* Resolves an address of space sp to (memory, offset). Returns 1 shared, 2 local, 3 param,
 * 0 global/const (not modelled), -1 out of range. */
static int resolve(struct block *b, uint32_t tid, unsigned sp, uint64_t a, unsigned n, uint8_t **mem,
                   uint8_t **kn, uint64_t *off)
{
    if (sp == SP_GENERIC) {
        if (a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_SHARED;
            a -= SHARED_GENERIC_BASE;
        } else if (a >= LOCAL_GENERIC_BASE && a < LOCAL_GENERIC_BASE + WINDOW_SIZE) {
            sp = SP_LOCAL;
            a -= LOCAL_GENERIC_BASE;
        } else {
            return 0;
        }
    }
    if (sp == SP_SHARED) {
        if (a + n > b->smem_size || a > b->smem_size)
            return -1;
        *mem = b->smem;
        *kn = b->smem_known;
        *off = a;
        return 1;
    }
    if (sp == SP_LOCAL) {
        if (a + n > b->local_size || a > b->local_size)
            return -1;
        *mem = b->local + (size_t)tid * b->local_size;
        *kn = b->local_known + (size_t)tid * b->local_size;
        *off = a;
        return 2;
    }
    if (sp == SP_PARAM) {
        if (a + n > b->param_size || a > b->param_size)
            return -1;
        *mem = b->param;
        *kn = b->param_known;
        *off = a;
        return 3;
    }
    return 0;
}

static int is_shared_space(unsigned sp, uint64_t a)
{
    return sp == SP_SHARED ||
           (sp == SP_GENERIC && a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE);
}

/* ld / st / atom / red / cp.async for one thread. Returns 0, or -1 on a hard error. */
static int exec_mem(struct block *b, uint32_t tid, uint32_t pc, const struct smem_ptx_insn *in,
                    uint64_t *R, uint8_t *K)
{
    unsigned esz = TBYTES(in->type);
    int op = in->op;
    const struct smem_ptx_operand *mo = op == PO_LD || op == PO_LDU || op == PO_ATOM ? &in->ops[1]
                                                                                    : &in->ops[0];
    if (op == PO_CP_ASYNC) {
        mo = &in->ops[0];
        esz = in->nops >= 3 ? (unsigned)in->ops[2].imm : 4;
    }
    if (mo->kind != OPK_ADDR)
        return block_fail(b, pc, "expected a memory operand");
    int aknown = 1;
    uint64_t a = ea(b, R, K, mo, &aknown);
    unsigned sp = in->space;
    unsigned total = esz * (op == PO_LD || op == PO_ST || op == PO_LDU ? in->vec : 1);
    if (op == PO_CP_ASYNC)
        total = esz;
    if (sp == SP_PARAM && (mo->sym < 0 || (uint32_t)mo->sym >= b->p->func->nparams)) {
        /* call-sequence parameters (vprintf): nothing the analysis needs */
        if (op == PO_LD && in->ops[0].reg[0] >= 0)
            K[in->ops[0].reg[0]] = 0;
        return 0;
    }
    uint32_t site = b->p->site_of_insn[pc];
    int shared = is_shared_space(sp, a);
    if (sp == SP_GENERIC && !aknown) {
        stop_unknown(b, pc, "generic address");
        return 0;
    }
    uint64_t soff = sp == SP_GENERIC ? a - SHARED_GENERIC_BASE : a;
    int oob = 0;
    uint8_t *mem = NULL, *kn = NULL;
    uint64_t off = 0;
    int where = 0;
    if (aknown) {
        where = resolve(b, tid, sp, a, total, &mem, &kn, &off);
        if (where < 0) {
            if (!shared)
                return block_fail(b, pc, "%s access out of range", sp == SP_LOCAL ? "local" : "parameter");
            oob = 1;
        }
    }
    if (shared && site != UINT32_MAX) {
        /* one request per SASS access this instruction becomes */
        for (uint32_t s = site; s < b->p->nsites && b->p->sites[s].insn == pc; s++) {
            if (aknown && (uint32_t)(soff + b->p->sites[s].offset) % b->p->sites[s].width &&
                op != PO_CP_ASYNC)
                return block_fail(b, pc, "misaligned shared access (address %s)", "not a multiple of its width");
            if (record(b, tid, s, (uint32_t)(soff + b->p->sites[s].offset), aknown, oob))
                return block_fail(b, pc, "out of memory");
        }
    }
    if (shared && !aknown && (op == PO_ST || op == PO_ATOM || op == PO_RED || op == PO_CP_ASYNC)) {
        /* a store to an unknown place: nothing in shared memory can be trusted any more */
        memset(b->smem_known, 0, b->smem_size);
    }
    switch (op) {
    case PO_LD: case PO_LDU: {
        const struct smem_ptx_operand *d = &in->ops[0];
        unsigned n = d->kind == OPK_VEC ? d->count : 1;
        for (unsigned c = 0; c < n; c++) {
            int32_t reg = d->kind == OPK_VEC ? d->reg[c] : d->reg[0];
            uint64_t v = 0;
            int known = aknown && mem && !oob;
            if (known)
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &v, &known);
            if (is_signed(in->type))
                v = (uint64_t)sext(v, esz);
            dst(R, K, reg, v, known, reg >= 0 ? TBYTES(b->p->func->reg_type[reg]) : 8);
        }
        return 0;
    }
    case PO_ST: {
        const struct smem_ptx_operand *s = &in->ops[1];
        unsigned n = s->kind == OPK_VEC ? s->count : 1;
        int same = shared && site != UINT32_MAX && mem && !oob && aknown;
        for (unsigned c = 0; c < n; c++) {
            int known = 1;
            uint64_t v;
            if (s->kind == OPK_VEC) {
                v = s->reg[c] >= 0 ? R[s->reg[c]] : 0;
                known = s->reg[c] >= 0 ? K[s->reg[c]] : 0;
            } else {
                v = src(b, tid, R, K, s, &known);
            }
            if (same) { /* does it store what is there already? */
                uint64_t old = 0;
                int ok = 1;
                mem_read(mem, kn, off + (uint64_t)c * esz, esz, &old, &ok);
                same = ok && known && ((old ^ v) & mask_bytes(esz)) == 0;
            }
            if (mem && !oob && aknown && where != 3)
                mem_write(mem, kn, off + (uint64_t)c * esz, esz, v, known);
        }
        for (uint32_t st = site; same && st < b->p->nsites && b->p->sites[st].insn == pc; st++) {
            struct smem_access *r = request_for(b, st, b->kcount[(size_t)tid * b->p->nsites + st] - 1,
                                                tid / 32);
            if (r)
                r->same |= 1u << (tid % 32);
        }
        return 0;
    }
    case PO_CP_ASYNC:
        if (mem && !oob && aknown)
            memset(kn + off, 0, esz); /* data comes from global memory: unknown */
        return 0;
    default: break;
    }
    /* atomics: read-modify-write */
    int vknown = 1;
    unsigned vi = op == PO_ATOM ? 2 : 1;
    uint64_t v = in->nops > vi ? src(b, tid, R, K, &in->ops[vi], &vknown) : 0;
    uint64_t old = 0;
    int oknown = aknown && mem && !oob;
    if (oknown)
        mem_read(mem, kn, off, esz, &old, &oknown);
    uint64_t m = mask_bytes(esz), nv = old;
    int sg = is_signed(in->type);
    switch (in->mode) {
    case MODE_ATOM_ADD:
        if (in->type == PT_F32)
            nv = bits_f32(f32_of(old) + f32_of(v));
        else if (in->type == PT_F64)
            nv = bits_f64(f64_of(old) + f64_of(v));
        else
            nv = old + v;
        break;
    case MODE_ATOM_INC: nv = (old & m) >= (v & m) ? 0 : old + 1; break;
    case MODE_ATOM_DEC: nv = ((old & m) == 0 || (old & m) > (v & m)) ? v : old - 1; break;
    case MODE_ATOM_MIN:
        nv = sg ? (sext(old, esz) < sext(v, esz) ? old : v) : ((old & m) < (v & m) ? old : v);
        break;
    case MODE_ATOM_MAX:
        nv = sg ? (sext(old, esz) > sext(v, esz) ? old : v) : ((old & m) > (v & m) ? old : v);
        break;
    case MODE_ATOM_AND: nv = old & v; break;
    case MODE_ATOM_OR: nv = old | v; break;
    case MODE_ATOM_XOR: nv = old ^ v; break;
    case MODE_ATOM_EXCH: nv = v; break;
    case MODE_ATOM_CAS: {
        int k2 = 1;
        uint64_t nw = in->nops > 3 ? src(b, tid, R, K, &in->ops[3], &k2) : 0;
        vknown = vknown && k2;
        nv = (old & m) == (v & m) ? nw : old;
        break;
    }
    default: return block_fail(b, pc, "unsupported atomic operation");
    }
    if (mem && !oob && aknown)
        mem_write(mem, kn, off, esz, nv, oknown && vknown);
    if (op == PO_ATOM)
        dst(R, K, in->ops[0].reg[0], sg ? (uint64_t)sext(old, esz) : old, oknown,
            in->ops[0].reg[0] >= 0 ? TBYTES(b->p->func->reg_type[in->ops[0].reg[0]]) : 8);
    return 0;
}

/* ---- arithmetic --------------------------------------------------------------------------- */

static int compare(unsigned cmp, unsigned t, uint64_t a, uint64_t c)
{
    unsigned bytes = TBYTES(t);
    if (is_float(t)) {
        double x = fval(a, t), y = fval(c, t);
        int un = isnan(x) || isnan(y);
        switch (cmp) {
        case CMP_EQ: return !un && x == y;
        case CMP_NE: return !un && x != y;
        case CMP_LT: return !un && x < y;
        case CMP_LE: return !un && x <= y;
        case CMP_GT: return !un && x > y;
        case CMP_GE: return !un && x >= y;
        case CMP_EQU: return un || x == y;
        case CMP_NEU: return un || x != y;
        case CMP_LTU: return un || x < y;
        case CMP_LEU: return un || x <= y;
        case CMP_GTU: return un || x > y;
        case CMP_GEU: return un || x >= y;
        case CMP_NUM: return !un;
        case CMP_NAN: return un;
        default: return 0;
        }
    }
    uint64_t m = mask_bytes(bytes);
    if (is_signed(t)) {
        int64_t x = sext(a, bytes), y = sext(c, bytes);
        switch (cmp) {
        case CMP_EQ: return x == y;
        case CMP_NE: return x != y;
        case CMP_LT: return x < y;
        case CMP_LE: return x <= y;
        case CMP_GT: return x > y;
        case CMP_GE: return x >= y;
        default: break;
        }
    }
    uint64_t x = a & m, y = c & m;
    switch (cmp) {
    case CMP_EQ: return x == y;
    case CMP_NE: return x != y;
    case CMP_LT: case CMP_LO: return x < y;
    case CMP_LE: case CMP_LS: return x <= y;
    case CMP_GT: case CMP_HI: return x > y;
    case CMP_GE: case CMP_HS: return x >= y;
    default: return 0;
    }
}

static uint64_t cvt_value(const struct smem_ptx_insn *in, uint64_t v)
{
    unsigned dt = in->type, st = in->type2 ? in->type2 : in->type;
    unsigned db = TBYTES(dt), sb = TBYTES(st);
    if (is_float(dt) && is_float(st)) {
        double d = fval(v, st);
        if (in->round >= RND_RNI)
            d = round_int(d, in->round);
        if (in->sat)
            d = d < 0 ? 0 : d > 1 ? 1 : d;
        return fbits(d, dt);
    }
    if (is_float(dt)) { /* int -> float */
        double d = is_signed(st) ? (double)sext(v, sb) : (double)(v & mask_bytes(sb));
        return fbits(d, dt);
    }
    if (is_float(st)) { /* float -> int: round (rni default for cvt.rni, else rzi), saturate */
        double d = fval(v, st);
        if (isnan(d))
            return 0;
        d = round_int(d, in->round ? in->round : RND_RZI);
        if (is_signed(dt)) {
            double lo = -ldexp(1.0, (int)(8 * db - 1)), hi = ldexp(1.0, (int)(8 * db - 1)) - 1;
            d = d < lo ? lo : d > hi ? hi : d;
            return (uint64_t)(int64_t)d & mask_bytes(db);
        }
        double hi = ldexp(1.0, (int)(8 * db)) - 1;
        d = d < 0 ? 0 : d > hi ? hi : d;
        return (uint64_t)d & mask_bytes(db);
    }
    /* int -> int */
    uint64_t r = is_signed(st) ? (uint64_t)sext(v, sb) : (v & mask_bytes(sb));
    if (in->sat) {
        if (is_signed(dt)) {
            int64_t lo = -(int64_t)(1ull << (8 * db - 1)), hi = (int64_t)((1ull << (8 * db - 1)) - 1);
            int64_t x = is_signed(st) ? (int64_t)r : (int64_t)(r > (uint64_t)INT64_MAX ? INT64_MAX : r);
            if (db < 8)
                x = x < lo ? lo : x > hi ? hi : x;
            r = (uint64_t)x;
        } else {
            if (is_signed(st) && (int64_t)r < 0)
                r = 0;
            else if (db < 8 && r > mask_bytes(db))
                r = mask_bytes(db);
        }
    }
    if (is_signed(dt))
        return (uint64_t)sext(r, db);
    return r & mask_bytes(db);
}

static uint32_t prmt(uint32_t a, uint32_t c, uint32_t sel, unsigned mode)
{
    uint64_t bytes = (uint64_t)c << 32 | a;
    uint32_t r = 0;
    if (mode == MODE_NONE) {
        for (int i = 0; i < 4; i++) {
            uint32_t s = (sel >> (4 * i)) & 0xf;
            uint32_t byte = (uint32_t)(bytes >> (8 * (s & 7))) & 0xff;
            if (s & 8)
                byte = (byte & 0x80) ? 0xff : 0;
            r |= byte << (8 * i);
        }
        return r;
    }
    static const uint8_t tab[6][4][4] = {
        /* f4e */ {{0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6}},
        /* b4e */ {{0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0}},
        /* rc8 */ {{0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3}},
        /* ecl */ {{0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3}},
        /* ecr */ {{0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3}},
        /* rc16 */ {{0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3}},
    };
    unsigned t = mode - MODE_PRMT_F4E, s = sel & 3;
    for (int i = 0; i < 4; i++)
        r |= ((uint32_t)(bytes >> (8 * tab[t][s][i])) & 0xff) << (8 * i);
    return r;
}

static int clz64(uint64_t v, unsigned bits)
{
    int n = 0;
    for (int i = (int)bits - 1; i >= 0 && !(v >> i & 1); i--)
        n++;
    return n;
}

/* Executes an ALU instruction. Returns 0, or -1 if the opcode is not an ALU one. */
static int exec_alu(struct block *b, uint32_t tid, const struct smem_ptx_insn *in, uint64_t *R,
                    uint8_t *K)
{
    int k = 1;
    unsigned t = in->type, bytes = TBYTES(t);
    const struct smem_ptx_operand *o = in->ops;
    int32_t d = o[0].reg[0];
    uint64_t a = in->nops > 1 ? src(b, tid, R, K, &o[1], &k) : 0;
    uint64_t c = in->nops > 2 ? src(b, tid, R, K, &o[2], &k) : 0;
    uint64_t e = in->nops > 3 ? src(b, tid, R, K, &o[3], &k) : 0;
    uint64_t r = 0;
    unsigned rbytes = bytes;
    int fl = is_float(t), sg = is_signed(t);
    /* 128-bit values and untyped arithmetic are not modelled: say so rather than guess */
    if (bytes > 8 || (bytes == 0 && in->op != PO_ISSPACEP) ||
        (in->op == PO_CVT && (TBYTES(in->type2) > 8)))
        return -1;
    uint64_t m = mask_bytes(bytes);
    switch (in->op) {
    case PO_MOV:
        if (o[0].kind == OPK_VEC) { /* unpack: mov.b64 {%r1,%r2}, %rd */
            unsigned n = o[0].count, part = bytes / (n ? n : 1);
            for (unsigned i = 0; i < n; i++)
                dst(R, K, o[0].reg[i], a >> (8 * part * i), k, part);
            return 0;
        }
        if (o[1].kind == OPK_VEC) { /* pack */
            unsigned n = o[1].count, part = bytes / (n ? n : 1);
            for (unsigned i = 0; i < n; i++) {
                int32_t rr = o[1].reg[i];
                if (rr < 0 || !K[rr])
                    k = 0;
                r |= (rr >= 0 ? R[rr] & mask_bytes(part) : 0) << (8 * part * i);
            }
            break;
        }
        if (o[1].kind == OPK_SYM && b->p->func->syms[o[1].sym].kind == SYM_GLOBAL)
            k = 1;
        r = a;
        break;
    case PO_ADD:
        if (fl) r = fbits(fval(a, t) + fval(c, t), t);
        else if (in->sat && t == PT_S32) {
            int64_t x = (int64_t)(int32_t)a + (int64_t)(int32_t)c;
            r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
        } else r = a + c;
        break;
    case PO_SUB:
        if (fl) r = fbits(fval(a, t) - fval(c, t), t);
        else if (in->sat && t == PT_S32) {
            int64_t x = (int64_t)(int32_t)a - (int64_t)(int32_t)c;
            r = (uint64_t)(x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : x);
        } else r = a - c;
        break;
    case PO_MUL: case PO_MAD:
        if (fl) {
            double x = fval(a, t) * fval(c, t);
            if (in->op == PO_MAD)
                x += fval(e, t);
            r = fbits(x, t);
        } else if (in->mode == MODE_WIDE) {
            uint64_t x = sg ? (uint64_t)(sext(a, bytes) * sext(c, bytes)) : (a & m) * (c & m);
            r = in->op == PO_MAD ? x + e : x;
            rbytes = bytes * 2;
        } else if (in->mode == MODE_HI) {
            if (bytes == 8) {
#if defined(__SIZEOF_INT128__)
                __extension__ typedef unsigned __int128 u128;
                __extension__ typedef __int128 s128;
                if (sg) r = (uint64_t)(((s128)(int64_t)a * (s128)(int64_t)c) >> 64);
                else r = (uint64_t)(((u128)a * (u128)c) >> 64);
#else
                return -2;
#endif
            } else if (sg) {
                r = (uint64_t)((sext(a, bytes) * sext(c, bytes)) >> (8 * bytes));
            } else {
                r = ((a & m) * (c & m)) >> (8 * bytes);
            }
            if (in->op == PO_MAD)
                r += e;
        } else {
            r = a * c;
            if (in->op == PO_MAD)
                r += e;
        }
        break;
    case PO_MUL24: case PO_MAD24: {
        uint64_t x = sg ? (uint64_t)(sext(a & 0xffffff, 3) * sext(c & 0xffffff, 3))
                        : (a & 0xffffff) * (c & 0xffffff);
        r = in->mode == MODE_HI ? x >> 16 : x;
        if (in->op == PO_MAD24)
            r += e;
        break;
    }
    case PO_DIV: case PO_REM:
        if (fl) {
            r = fbits(fval(a, t) / fval(c, t), t);
            break;
        }
        if (k && (c & m) == 0)
            return -3; /* division by zero: the caller names it */
        if (!k)
            break;
        if (sg) {
            int64_t x = sext(a, bytes), y = sext(c, bytes);
            if (y == -1)
                r = in->op == PO_DIV ? (uint64_t)(0 - (uint64_t)x) : 0;
            else
                r = (uint64_t)(in->op == PO_DIV ? x / y : x % y);
        } else {
            r = in->op == PO_DIV ? (a & m) / (c & m) : (a & m) % (c & m);
        }
        break;
    case PO_ABS:
        r = fl ? fbits(fabs(fval(a, t)), t) : (uint64_t)(sext(a, bytes) < 0 ? -sext(a, bytes) : sext(a, bytes));
        break;
    case PO_NEG: r = fl ? fbits(-fval(a, t), t) : 0 - a; break;
    case PO_MIN: case PO_MAX: {
        int lt;
        if (fl) {
            double x = fval(a, t), y = fval(c, t);
            if (isnan(x)) { r = c; break; }
            if (isnan(y)) { r = a; break; }
            lt = x < y;
        } else {
            lt = sg ? sext(a, bytes) < sext(c, bytes) : (a & m) < (c & m);
        }
        r = (in->op == PO_MIN) == lt ? a : c;
        break;
    }
    case PO_POPC: r = (uint64_t)__builtin_popcountll(a & m); rbytes = 4; break;
    case PO_CLZ: r = (uint64_t)clz64(a & m, 8 * bytes); rbytes = 4; break;
    case PO_BFIND: {
        int64_t pos = -1;
        uint64_t v = a & m;
        if (sg && sext(a, bytes) < 0)
            v = ~a & m;
        for (int i = (int)(8 * bytes) - 1; i >= 0; i--)
            if (v >> i & 1) {
                pos = i;
                break;
            }
        r = pos < 0 ? 0xffffffffu : (uint64_t)pos;
        rbytes = 4;
        break;
    }
    case PO_BREV: {
        uint64_t v = a & m;
        r = 0;
        for (unsigned i = 0; i < 8 * bytes; i++)
            if (v >> i & 1)
                r |= 1ull << (8 * bytes - 1 - i);
        break;
    }
    case PO_BFE: {
        unsigned pos = (unsigned)(c & 0xff), len = (unsigned)(e & 0xff), bits = 8 * bytes;
        uint64_t v = a & m;
        if (len == 0) { r = 0; break; }
        uint64_t field = pos >= bits ? 0 : v >> pos;
        if (len < 64)
            field &= (1ull << len) - 1;
        if (sg) {
            unsigned top = pos + len - 1 >= bits ? bits - 1 : pos + len - 1;
            int sbit = (int)(v >> top & 1);
            if (sbit && len < 64)
                field |= ~((1ull << len) - 1);
        }
        r = field;
        break;
    }
    case PO_BFI: {
        int k2 = 1;
        uint64_t f = in->nops > 4 ? src(b, tid, R, K, &o[4], &k2) : 0;
        k = k && k2;
        unsigned pos = (unsigned)(e & 0xff), len = (unsigned)(f & 0xff), bits = 8 * bytes;
        uint64_t msk = len >= 64 ? ~0ull : ((1ull << len) - 1);
        r = c;
        if (pos < bits)
            r = (c & ~(msk << pos)) | ((a & msk) << pos);
        break;
    }
    case PO_PRMT: r = prmt((uint32_t)a, (uint32_t)c, (uint32_t)e, in->mode); break;
    case PO_AND: r = a & c; break;
    case PO_OR: r = a | c; break;
    case PO_XOR: r = a ^ c; break;
    case PO_NOT: r = ~a; break;
    case PO_CNOT: r = (a & m) == 0; break;
    case PO_SHL: {
        uint64_t n = c & 0xffffffff, lim = bytes && bytes <= 8 ? 8u * bytes : 64;
        r = n >= lim ? 0 : a << n;
        break;
    }
    case PO_SHR: {
        uint64_t n = c & 0xffffffff, lim = bytes && bytes <= 8 ? 8u * bytes : 64;
        if (sg) r = (uint64_t)(sext(a, bytes) >> (n >= lim ? lim - 1 : n));
        else r = n >= lim ? 0 : (a & m) >> n;
        break;
    }
    case PO_SHF: {
        uint32_t lo = (uint32_t)a, hi = (uint32_t)c, n = (uint32_t)e;
        int clamp = in->mode == MODE_L_CLAMP || in->mode == MODE_R_CLAMP;
        n = clamp ? (n > 32 ? 32 : n) : (n & 31);
        uint64_t both = (uint64_t)hi << 32 | lo;
        if (in->mode == MODE_L_WRAP || in->mode == MODE_L_CLAMP)
            r = (uint32_t)((both << n) >> 32);
        else
            r = (uint32_t)(both >> n);
        break;
    }
    case PO_SAD: {
        uint64_t x = sg ? (uint64_t)(sext(a, bytes) > sext(c, bytes) ? sext(a, bytes) - sext(c, bytes) : sext(c, bytes) - sext(a, bytes))
                        : ((a & m) > (c & m) ? (a & m) - (c & m) : (c & m) - (a & m));
        r = x + e;
        break;
    }
    case PO_LOP3: {
        int k2 = 1;
        uint64_t lut = in->nops > 4 ? src(b, tid, R, K, &o[4], &k2) : 0;
        r = 0;
        for (int i = 0; i < 32; i++) {
            unsigned idx = (unsigned)((a >> i & 1) << 2 | (c >> i & 1) << 1 | (e >> i & 1));
            r |= (uint64_t)((lut >> idx) & 1) << i;
        }
        break;
    }
    case PO_SELP: {
        int pk = 1;
        uint64_t p = src(b, tid, R, K, &o[3], &pk);
        if (o[3].neg)
            p = !p;
        int known_a = 1, known_c = 1;
        (void)src(b, tid, R, K, &o[1], &known_a);
        (void)src(b, tid, R, K, &o[2], &known_c);
        if (!pk) { k = 0; break; }
        r = p ? a : c;
        k = p ? known_a : known_c;
        break;
    }
    case PO_SLCT: {
        unsigned ct = in->type2;
        int neg = is_float(ct) ? fval(e, ct) < 0 : sext(e, TBYTES(ct)) < 0;
        r = neg ? c : a;
        break;
    }
    case PO_SET: case PO_SETP: {
        unsigned ct = in->op == PO_SETP ? t : in->type2;
        int res = compare(in->cmp, ct, a, c);
        if (in->boolop) {
            int pk = 1;
            uint64_t p = src(b, tid, R, K, &o[3], &pk);
            if (o[3].neg)
                p = !p;
            k = k && pk;
            res = in->boolop == BOP_AND ? (res && p) : in->boolop == BOP_OR ? (res || p) : (res ^ (p != 0));
        }
        if (in->op == PO_SET) {
            r = is_float(t) ? (res ? fbits(1.0, t) : 0) : (res ? mask_bytes(bytes) : 0);
            break;
        }
        dst(R, K, o[0].reg[0], (uint64_t)res, k, 1);
        if (o[0].kind == OPK_PAIR && o[0].reg[1] >= 0) {
            int res2 = !compare(in->cmp, ct, a, c);
            if (in->boolop) {
                int pk = 1;
                uint64_t p = src(b, tid, R, K, &o[3], &pk);
                if (o[3].neg)
                    p = !p;
                res2 = in->boolop == BOP_AND ? (res2 && p) : in->boolop == BOP_OR ? (res2 || p) : (res2 ^ (p != 0));
            }
            dst(R, K, o[0].reg[1], (uint64_t)res2, k, 1);
        }
        return 0;
    }
    case PO_CVT: r = cvt_value(in, a); break;
    case PO_CVTA: {
        uint64_t base = in->space == SP_SHARED ? SHARED_GENERIC_BASE
                        : in->space == SP_LOCAL ? LOCAL_GENERIC_BASE : 0;
        r = in->to ? a - base : a + base;
        if (in->to && in->space == SP_SHARED)
            r &= 0xffffffffu;
        break;
    }
    case PO_ISSPACEP: {
        uint64_t base = in->space == SP_SHARED ? SHARED_GENERIC_BASE
                        : in->space == SP_LOCAL ? LOCAL_GENERIC_BASE : 0;
        r = base ? (a >= base && a < base + WINDOW_SIZE)
                 : !((a >= SHARED_GENERIC_BASE && a < SHARED_GENERIC_BASE + WINDOW_SIZE) ||
                     (a >= LOCAL_GENERIC_BASE && a < LOCAL_GENERIC_BASE + WINDOW_SIZE));
        rbytes = 1;
        break;
    }
    case PO_FMA: r = fbits(fma(fval(a, t), fval(c, t), fval(e, t)), t); break;
    case PO_SQRT: r = fbits(sqrt(fval(a, t)), t); break;
    case PO_RSQRT: r = fbits(1.0 / sqrt(fval(a, t)), t); break;
    case PO_RCP: r = fbits(1.0 / fval(a, t), t); break;
    case PO_SIN: r = fbits(sin(fval(a, t)), t); break;
    case PO_COS: r = fbits(cos(fval(a, t)), t); break;
    case PO_EX2: r = fbits(exp2(fval(a, t)), t); break;
    case PO_LG2: r = fbits(log2(fval(a, t)), t); break;
    case PO_TANH: r = fbits(tanh(fval(a, t)), t); break;
    case PO_COPYSIGN: r = fbits(copysign(fval(c, t), fval(a, t)), t); break;
    case PO_TESTP: {
        double x = fval(a, t);
        int res = 0;
        switch (in->mode) {
        case MODE_FINITE: res = isfinite(x); break;
        case MODE_INFINITE: res = isinf(x); break;
        case MODE_NUMBER: res = !isnan(x); break;
        case MODE_NOTANUMBER: res = isnan(x); break;
        case MODE_NORMAL: res = isnormal(x); break;
        case MODE_SUBNORMAL: res = fpclassify(x) == FP_SUBNORMAL; break;
        default: break;
        }
        r = (uint64_t)res;
        rbytes = 1;
        break;
    }
    case PO_DP4A: case PO_DP2A: {
        int sa = is_signed(in->type), sb2 = is_signed(in->type2);
        int64_t acc = (int64_t)(int32_t)e;
        for (int i = 0; i < 4; i++) {
            int64_t x = sa ? (int8_t)(a >> (8 * i)) : (int64_t)((a >> (8 * i)) & 0xff);
            if (in->op == PO_DP2A) {
                if (i >= 2) break;
                x = sa ? (int16_t)(a >> (16 * i)) : (int64_t)((a >> (16 * i)) & 0xffff);
                int hi = in->mode == MODE_HI;
                int j = 2 * i + (hi ? 0 : 0);
                int64_t y0 = sb2 ? (int8_t)(c >> (8 * (j + (hi ? 2 : 0)))) : (int64_t)((c >> (8 * (j + (hi ? 2 : 0)))) & 0xff);
                acc += x * y0;
                continue;
            }
            int64_t y = sb2 ? (int8_t)(c >> (8 * i)) : (int64_t)((c >> (8 * i)) & 0xff);
            acc += x * y;
        }
        r = (uint64_t)acc;
        rbytes = 4;
        break;
    }
    default:
        return -1;
    }
    if (d >= 0) {
        unsigned regb = TBYTES(b->p->func->reg_type[d]);
        unsigned wb = rbytes < regb ? rbytes : regb;
        uint64_t v = r;
        /* signed results are kept sign-extended to the register's width */
        if (sg && !fl && wb < regb && in->op != PO_POPC && in->op != PO_CLZ)
            v = (uint64_t)sext(r, wb);
        dst(R, K, d, v, k, regb);
    }
    return 0;
}

/* ---- the thread loop ---------------------------------------------------------------------- */

static int is_collective(unsigned op)
{
    return op == PO_SHFL || op == PO_VOTE || op == PO_BAR_WARP || op == PO_ACTIVEMASK ||
           op == PO_MATCH || op == PO_REDUX;
}

/* Runs thread tid until it waits (barrier, warp collective) or exits. */
static int run_thread(struct block *b, uint32_t tid)
{
    const struct smem_ptx_func *f = b->p->func;
    const struct smem_ptx_insn *insns = f->insns;
    const uint8_t *fast = b->p->fast;
    const uint32_t ninsns = f->ninsns;
    const uint64_t max_steps = b->max_steps;
    struct lane *T = &b->T[tid];
    uint64_t *R = b->R + (size_t)tid * b->nregs;
    uint8_t *K = b->K + (size_t)tid * b->nregs;
    while (T->state == L_RUN) {
        if (b->stopped)
            return 0;
        if (T->pc >= f->ninsns) {
            T->state = L_EXIT; /* fell off the end */
            return 0;
        }
        if (__builtin_expect(++b->steps > b->max_steps, 0))
            return block_fail(b, T->pc,
                              "step budget of %llu thread-instructions exhausted in block %u (a "
                              "runaway loop? raise it with --max-steps)",
                              (unsigned long long)b->max_steps, b->bid);
        uint32_t pc = T->pc;
        const struct smem_ptx_insn *in = &f->insns[pc];
        if (in->guard >= 0) {
            if (!K[in->guard]) {
                if (in->op == PO_BRA)
                    stop_unknown(b, pc, "branch");
                else if (b->p->site_of_insn[pc] != UINT32_MAX)
                    stop_unknown(b, pc, "predicate of a shared access");
                else if (in->op == PO_BAR || in->op == PO_RET || in->op == PO_EXIT ||
                         is_collective(in->op))
                    stop_unknown(b, pc, "predicate of a barrier or exit");
                else {
                    /* an ordinary instruction under an unknown predicate: its result is unknown */
                    for (unsigned o = 0; o < 1 && o < in->nops; o++)
                        for (int r = 0; r < 4; r++)
                            if (in->ops[o].reg[r] >= 0 && in->op != PO_ST && in->op != PO_RED)
                                K[in->ops[o].reg[r]] = 0;
                    T->pc++;
                    continue;
                }
                if (b->stopped)
                    return 0;
            }
            if ((R[in->guard] != 0) == (in->guard_neg != 0)) {
                T->pc++;
                continue;
            }
        }
        if (fast[pc]) {
            /* a run of simple integer instructions, with pc and steps in registers */
            uint64_t steps = b->steps;
            for (;;) {
                const struct smem_ptx_operand *o = in->ops;
                uint64_t x = 0, y = 0, z = 0;
                uint8_t k = 1;
                uint8_t fk = fast[pc];
                if (fk == F_BRA) {
                    pc = (uint32_t)o[0].imm;
                    goto next;
                }
#define FOP(op, v)                                                                                 \
    do {                                                                                           \
        if ((op)->kind == OPK_REG) {                                                               \
            v = R[(op)->reg[0]];                                                                   \
            k &= K[(op)->reg[0]];                                                                  \
        } else {                                                                                   \
            v = (uint64_t)(op)->imm;                                                               \
        }                                                                                          \
    } while (0)
                FOP(&o[1], x);
                if (in->nops > 2)
                    FOP(&o[2], y);
                if (in->nops > 3)
                    FOP(&o[3], z);
#undef FOP
                {
                    int32_t d = o[0].reg[0];
                    uint64_t r;
                    switch (fk) {
                    case F_ADD32: r = (uint32_t)(x + y); break;
                    case F_SUB32: r = (uint32_t)(x - y); break;
                    case F_MUL32: r = (uint32_t)(x * y); break;
                    case F_MAD32: r = (uint32_t)(x * y + z); break;
                    case F_AND32: r = (uint32_t)(x & y); break;
                    case F_OR32: r = (uint32_t)(x | y); break;
                    case F_XOR32: r = (uint32_t)(x ^ y); break;
                    case F_SHL32: r = (uint32_t)y >= 32 ? 0 : (uint32_t)(x << (uint32_t)y); break;
                    case F_SHRU32: r = (uint32_t)y >= 32 ? 0 : (uint32_t)x >> (uint32_t)y; break;
                    case F_MOV32: r = (uint32_t)x; break;
                    case F_ADD64: r = x + y; break;
                    case F_MULWIDE_U32: r = (uint64_t)(uint32_t)x * (uint32_t)y; break;
                    case F_MULWIDE_S32: r = (uint64_t)((int64_t)(int32_t)x * (int32_t)y); break;
                    case F_SETP_U32: case F_SETP_S32: {
                        int lt, eq = (uint32_t)x == (uint32_t)y;
                        lt = fk == F_SETP_S32 ? (int32_t)x < (int32_t)y : (uint32_t)x < (uint32_t)y;
                        switch (in->cmp) {
                        case CMP_EQ: r = eq; break;
                        case CMP_NE: r = !eq; break;
                        case CMP_LT: case CMP_LO: r = lt; break;
                        case CMP_LE: case CMP_LS: r = lt || eq; break;
                        case CMP_GT: case CMP_HI: r = !lt && !eq; break;
                        default: r = !lt; break;
                        }
                        break;
                    }
                    default: r = 0; break;
                    }
                    R[d] = r;
                    K[d] = k;
                }
                pc++;
            next:
                /* the next instruction: fast and certain, or back to the general loop */
                while (pc < ninsns && fast[pc] && steps < max_steps) {
                    in = &insns[pc];
                    if (in->guard < 0)
                        break;
                    if (!K[in->guard])
                        goto leave;
                    if ((R[in->guard] != 0) != (in->guard_neg != 0))
                        break;
                    pc++; /* predicated off */
                    steps++;
                }
                if (pc >= ninsns || !fast[pc] || steps >= max_steps)
                    goto leave;
                in = &insns[pc];
                steps++;
            }
        leave:
            b->steps = steps;
            T->pc = pc;
            continue;
        }
        switch (in->op) {
        case PO_NOP: case PO_MEMBAR: case PO_PREFETCH: case PO_NANOSLEEP: case PO_CP_ASYNC_WAIT:
            T->pc++;
            break;
        case PO_BRA:
            T->pc = (uint32_t)in->ops[0].imm;
            break;
        case PO_RET: case PO_EXIT:
            T->state = L_EXIT;
            return 0;
        case PO_TRAP:
            return block_fail(b, pc, "the kernel executes trap (an assertion failed?)");
        case PO_CALL:
            if (in->call_name && (!strcmp(in->call_name, "vprintf") ||
                                  !strcmp(in->call_name, "__assertfail"))) {
                if (!strcmp(in->call_name, "__assertfail"))
                    return block_fail(b, pc, "the kernel's assert() fails");
                T->pc++;
                break;
            }
            return block_fail(b, pc, "unsupported call to '%s' (device functions must be inlined)",
                              in->call_name ? in->call_name : "?");
        case PO_BAR: case PO_BAR_RED: {
            int k = 1;
            uint64_t id = in->nops > 0 && in->op == PO_BAR ? src(b, tid, R, K, &in->ops[0], &k) : 0;
            uint64_t cnt = 0;
            if (in->op == PO_BAR && in->nops > 1)
                cnt = src(b, tid, R, K, &in->ops[1], &k);
            if (in->op == PO_BAR_RED) {
                /* bar.red.OP.TYPE d, a{, b}, {!}c */
                id = src(b, tid, R, K, &in->ops[1], &k);
                const struct smem_ptx_operand *po = &in->ops[in->nops - 1];
                int pk = 1;
                uint64_t pv = src(b, tid, R, K, po, &pk);
                if (!pk) {
                    stop_unknown(b, pc, "barrier reduction input");
                    return 0;
                }
                T->bar_pred = (pv != 0) != (po->neg != 0);
            }
            if (!k) {
                stop_unknown(b, pc, "barrier operand");
                return 0;
            }
            if (id > 15)
                return block_fail(b, pc, "barrier id out of range (0..15)");
            T->bar_id = (uint32_t)id;
            T->bar_count = (uint32_t)cnt;
            T->state = L_BAR;
            return 0;
        }
        case PO_BAR_ARRIVE:
            return block_fail(b, pc, "unsupported instruction 'bar.arrive'");
        case PO_LD: case PO_ST: case PO_ATOM: case PO_RED: case PO_LDU: case PO_CP_ASYNC:
            if (in->space == SP_GLOBAL || in->space == SP_CONST) {
                if (in->op == PO_LD || in->op == PO_LDU || in->op == PO_ATOM) {
                    const struct smem_ptx_operand *d = &in->ops[0];
                    unsigned n = d->kind == OPK_VEC ? d->count : 1;
                    for (unsigned c2 = 0; c2 < n; c2++) {
                        int32_t reg = d->kind == OPK_VEC ? d->reg[c2] : d->reg[0];
                        if (reg >= 0)
                            K[reg] = 0; /* global memory: unknown data */
                    }
                }
                T->pc++;
                break;
            }
            if (exec_mem(b, tid, pc, in, R, K))
                return -1;
            T->pc++;
            break;
        default:
            if (is_collective(in->op)) {
                T->state = L_WARP;
                return 0;
            }
            {
                int rc = exec_alu(b, tid, in, R, K);
                if (rc == -3)
                    return block_fail(b, pc, "integer division by zero");
                if (rc)
                    return block_fail(b, pc, "unsupported instruction");
            }
            T->pc++;
            break;
        }
    }
    return 0;
}

/* Executes the warp collective at pc for the lanes in `lanes` (all waiting there). */
static int exec_collective(struct block *b, uint32_t warp, uint32_t pc, uint32_t lanes)
{
    const struct smem_ptx_insn *in = &b->p->func->insns[pc];
    uint32_t base = warp * 32;
    uint64_t val[32];
    int vk[32];
    uint32_t nl = 0;
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1u)
            nl++;
    (void)nl;
    if (in->op == PO_SHFL) {
        /* shfl.sync.mode.b32 d[|p], a, b, c, membermask */
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->R + (size_t)tid * b->nregs;
            uint8_t *K = b->K + (size_t)tid * b->nregs;
            int k = 1;
            val[l] = src(b, tid, R, K, &in->ops[1], &k);
            vk[l] = k;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->R + (size_t)tid * b->nregs;
            uint8_t *K = b->K + (size_t)tid * b->nregs;
            int k = 1;
            uint32_t bb = (uint32_t)src(b, tid, R, K, &in->ops[2], &k);
            uint32_t cc = (uint32_t)src(b, tid, R, K, &in->ops[3], &k);
            if (!k) {
                stop_unknown(b, pc, "shuffle lane");
                return 0;
            }
            uint32_t segmask = (cc >> 8) & 0x1f, clamp = cc & 0x1f;
            uint32_t maxl = (l & segmask) | (clamp & ~segmask), minl = l & segmask, j = l;
            int ok;
            switch (in->mode) {
            case MODE_UP: j = l - bb; ok = (int32_t)j >= (int32_t)maxl; break;
            case MODE_DOWN: j = l + bb; ok = j <= maxl; break;
            case MODE_BFLY: j = l ^ bb; ok = j <= maxl; break;
            default: j = minl | (bb & ~segmask); ok = j <= maxl; break;
            }
            if (!ok || j > 31)
                j = l;
            uint64_t v = val[j];
            int known = (lanes >> j & 1u) ? vk[j] : 0; /* a source lane not there: undefined */
            dst(R, K, in->ops[0].reg[0], v, known, 4);
            if (in->ops[0].kind == OPK_PAIR && in->ops[0].reg[1] >= 0)
                dst(R, K, in->ops[0].reg[1], ok ? 1 : 0, 1, 1);
        }
    } else if (in->op == PO_VOTE || in->op == PO_ACTIVEMASK || in->op == PO_MATCH ||
               in->op == PO_REDUX) {
        uint32_t ballot = 0;
        int allk = 1;
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->R + (size_t)tid * b->nregs;
            uint8_t *K = b->K + (size_t)tid * b->nregs;
            int k = 1;
            val[l] = in->nops > 1 ? src(b, tid, R, K, &in->ops[1], &k) : 0;
            if (in->op == PO_VOTE && in->ops[1].neg)
                val[l] = !val[l];
            vk[l] = k;
            allk = allk && k;
            if (val[l] && in->op == PO_VOTE)
                ballot |= 1u << l;
        }
        for (uint32_t l = 0; l < 32; l++) {
            if (!(lanes >> l & 1u))
                continue;
            uint32_t tid = base + l;
            uint64_t *R = b->R + (size_t)tid * b->nregs;
            uint8_t *K = b->K + (size_t)tid * b->nregs;
            uint64_t r = 0;
            int known = allk;
            if (in->op == PO_ACTIVEMASK) {
                r = lanes;
                known = 1;
            } else if (in->op == PO_VOTE) {
                switch (in->mode) {
                case MODE_ALL: r = ballot == lanes; break;
                case MODE_ANY: r = ballot != 0; break;
                case MODE_UNI: r = ballot == 0 || ballot == lanes; break;
                default: r = ballot; break;
                }
            } else if (in->op == PO_MATCH) {
                uint32_t same = 0;
                for (uint32_t j = 0; j < 32; j++)
                    if ((lanes >> j & 1u) && val[j] == val[l])
                        same |= 1u << j;
                r = in->mode == MODE_ALL ? (same == lanes ? lanes : 0) : same;
            } else { /* redux.sync.op */
                uint64_t acc = in->mode == MODE_ATOM_AND ? ~0ull
                               : in->mode == MODE_ATOM_MIN ? ~0ull >> (is_signed(in->type) ? 33 : 32)
                                                           : 0;
                int first = 1;
                for (uint32_t j = 0; j < 32; j++) {
                    if (!(lanes >> j & 1u))
                        continue;
                    uint64_t v = val[j] & 0xffffffffu;
                    int64_t sv = (int32_t)v;
                    switch (in->mode) {
                    case MODE_ATOM_ADD: acc += v; break;
                    case MODE_ATOM_AND: acc &= v; break;
                    case MODE_ATOM_OR: acc |= v; break;
                    case MODE_ATOM_XOR: acc ^= v; break;
                    case MODE_ATOM_MIN:
                        if (first || (is_signed(in->type) ? sv < (int32_t)acc : v < (acc & 0xffffffffu))) acc = v;
                        break;
                    case MODE_ATOM_MAX:
                        if (first || (is_signed(in->type) ? sv > (int32_t)acc : v > (acc & 0xffffffffu))) acc = v;
                        break;
                    default: break;
                    }
                    first = 0;
                }
                r = acc;
            }
            dst(R, K, in->ops[0].reg[0], r, known, 4);
        }
    }
    /* release the lanes; __syncwarp advances their warp-level epoch */
    for (uint32_t l = 0; l < 32; l++)
        if (lanes >> l & 1u) {
            struct lane *T = &b->T[base + l];
            T->state = L_RUN;
            T->pc++;
            if (in->op == PO_BAR_WARP)
                T->wsync++;
        }
    return 0;
}

/* Runs every lane of a warp until all wait at a block barrier or have exited. */
static int run_warp(struct block *b, uint32_t w)
{
    uint32_t first = w * 32, last = first + 32 < b->nthreads ? first + 32 : b->nthreads;
    for (;;) {
        for (uint32_t t = first; t < last; t++)
            if (b->T[t].state == L_RUN && run_thread(b, t))
                return -1;
        if (b->stopped)
            break;
        /* lanes waiting at warp collectives: resolve the earliest one */
        uint32_t best_pc = UINT32_MAX, lanes = 0;
        for (uint32_t t = first; t < last; t++)
            if (b->T[t].state == L_WARP && b->T[t].pc < best_pc)
                best_pc = b->T[t].pc;
        if (best_pc == UINT32_MAX)
            break;
        for (uint32_t t = first; t < last; t++)
            if (b->T[t].state == L_WARP && b->T[t].pc == best_pc)
                lanes |= 1u << (t - first);
        if (exec_collective(b, w, best_pc, lanes))
            return -1;
    }
    flush_requests(b);
    return 0;
}

/* All threads wait or have exited: release a barrier, or say why none can be. */
static int release_barrier(struct block *b, int *done)
{
    uint32_t waiting[16] = {0}, exited = 0, insn_a[16], insn_b[16], cnt[16] = {0};
    int div[16] = {0};
    *done = 0;
    for (uint32_t t = 0; t < b->nthreads; t++) {
        struct lane *T = &b->T[t];
        if (T->state == L_EXIT) {
            exited++;
        } else if (T->state == L_BAR) {
            uint32_t id = T->bar_id;
            if (!waiting[id]) {
                insn_a[id] = insn_b[id] = T->pc;
                cnt[id] = T->bar_count;
            } else if (T->pc != insn_a[id]) {
                insn_b[id] = T->pc;
                div[id] = 1;
            }
            waiting[id]++;
        }
    }
    if (exited == b->nthreads) {
        *done = 1;
        return 0;
    }
    for (uint32_t id = 0; id < 16; id++) {
        if (!waiting[id])
            continue;
        uint32_t expected = cnt[id] ? cnt[id] : b->nthreads;
        uint32_t live = b->nthreads - exited;
        if (waiting[id] < expected && waiting[id] < live)
            continue; /* others may still come (another barrier id first) */
        struct smem_cta_barrier ev;
        memset(&ev, 0, sizeof ev);
        ev.block = b->bid;
        ev.interval = b->interval;
        ev.id = id;
        ev.insn_a = insn_a[id];
        ev.insn_b = insn_b[id];
        ev.arrived = waiting[id];
        ev.expected = expected;
        ev.exited = exited;
        ev.divergent = div[id];
        if (b->h && b->h->barrier)
            b->h->barrier(b->h->ctx, &ev);
        b->interval++;
        for (uint32_t t = 0; t < b->nthreads; t++) {
            struct lane *T = &b->T[t];
            if (T->state == L_BAR && T->bar_id == id) {
                T->state = L_RUN;
                const struct smem_ptx_insn *in = &b->p->func->insns[T->pc];
                if (in->op == PO_BAR_RED) {
                    uint32_t popc = 0, all = 1, any = 0;
                    for (uint32_t u = 0; u < b->nthreads; u++)
                        if (b->T[u].state != L_EXIT && b->T[u].bar_id == id) {
                            popc += (uint32_t)b->T[u].bar_pred;
                            all &= (uint32_t)b->T[u].bar_pred;
                            any |= (uint32_t)b->T[u].bar_pred;
                        }
                    uint64_t r = in->mode == MODE_ATOM_ADD ? popc : in->mode == MODE_ATOM_AND ? all : any;
                    uint64_t *R = b->R + (size_t)t * b->nregs;
                    uint8_t *K = b->K + (size_t)t * b->nregs;
                    int32_t d = in->ops[0].reg[0];
                    if (d >= 0)
                        dst(R, K, d, r, 1, TBYTES(b->p->func->reg_type[d]));
                }
                T->pc++;
            }
        }
        return 0;
    }
    /* nobody can move: the barrier waits for threads that never come */
    for (uint32_t id = 0; id < 16; id++)
        if (waiting[id])
            return block_fail(b, insn_a[id],
                              "deadlock: threads wait at a barrier that %s never reach",
                              "the other threads");
    return block_fail(b, 0, "deadlock");
}

static int run_block(struct block *b)
{
    const struct smem_ptx_func *f = b->p->func;
    memset(b->T, 0, b->nthreads * sizeof *b->T);
    memset(b->K, 0, (size_t)b->nthreads * b->nregs);
    memset(b->kcount, 0, (size_t)b->nthreads * b->p->nsites * sizeof *b->kcount);
    memset(b->smem_known, 0, b->smem_size);
    if (b->local_size)
        memset(b->local_known, 0, (size_t)b->nthreads * b->local_size);
    b->interval = 0;
    b->steps = 0;
    (void)f;
    for (;;) {
        for (uint32_t w = 0; w < b->nwarps; w++)
            if (run_warp(b, w))
                return -1;
        if (b->stopped)
            return 0;
        int done;
        if (release_barrier(b, &done))
            return -1;
        if (done)
            return 0;
    }
}

/* Fills the parameter buffer: given values, fake pointers for pointer parameters, else unknown. */
static int fill_params(struct block *b)
{
    const struct smem_ptx_func *f = b->p->func;
    b->param_size = f->param_bytes;
    b->param = calloc(b->param_size ? b->param_size : 1, 1);
    b->param_known = calloc(b->param_size ? b->param_size : 1, 1);
    if (!b->param || !b->param_known)
        return -1;
    for (uint32_t i = 0; i < f->nparams; i++) {
        const struct smem_ptx_symbol *s = &f->syms[i];
        unsigned n = s->size > 8 ? 8 : (unsigned)s->size;
        if (b->l->params && i < b->l->nparams && b->l->params[i].set) {
            mem_write(b->param, b->param_known, s->offset, n, b->l->params[i].bits, 1);
        } else if (b->p->param_is_ptr[i]) {
            mem_write(b->param, b->param_known, s->offset, n, PTR_PARAM_BASE + i * PTR_PARAM_STEP, 1);
        }
    }
    return 0;
}

int smem_cta_run(const struct smem_cta_program *p, const struct smem_launch *l,
                 const struct smem_cta_hooks *hooks, struct smem_cta_result *res,
                 struct smem_error *err)
{
    memset(res, 0, sizeof *res);
    if (smem_cta_check_launch(p, l, err))
        return -1;
    struct block b;
    memset(&b, 0, sizeof b);
    b.p = p;
    b.l = l;
    b.h = hooks;
    b.err = err;
    b.nthreads = l->block[0] * l->block[1] * l->block[2];
    b.nwarps = (b.nthreads + 31) / 32;
    b.nregs = p->func->nregs ? p->func->nregs : 1;
    b.max_steps = l->max_steps ? l->max_steps : DEFAULT_MAX_STEPS;
    b.smem_size = l->dyn_smem ? p->dyn_offset + l->dyn_smem : p->static_smem;
    b.local_size = p->local_size;
    int rc = -1;
    b.R = malloc((size_t)b.nthreads * b.nregs * sizeof *b.R);
    b.K = malloc((size_t)b.nthreads * b.nregs);
    b.T = malloc(b.nthreads * sizeof *b.T);
    b.kcount = malloc((size_t)b.nthreads * (p->nsites ? p->nsites : 1) * sizeof *b.kcount);
    b.smem = calloc(b.smem_size ? b.smem_size : 1, 1);
    b.smem_known = calloc(b.smem_size ? b.smem_size : 1, 1);
    if (b.local_size) {
        b.local = calloc((size_t)b.nthreads * b.local_size, 1);
        b.local_known = calloc((size_t)b.nthreads * b.local_size, 1);
    }
    if (!b.R || !b.K || !b.T || !b.kcount || !b.smem || !b.smem_known ||
        (b.local_size && (!b.local || !b.local_known)) || fill_params(&b)) {
        smem_error_set(err, NULL, 0, 0, "out of memory");
        goto out;
    }
    uint64_t total = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2];
    uint64_t nrun = l->sample_blocks && l->sample_blocks < total ? l->sample_blocks : total;
    res->blocks_total = total;
    res->complete = 1;
    for (uint64_t i = 0; i < nrun; i++) {
        /* sampled blocks are spread evenly over the grid, first and last included */
        uint64_t bid = nrun == total ? i : (nrun > 1 ? i * (total - 1) / (nrun - 1) : 0);
        b.bid = (uint32_t)bid;
        b.ctaid[0] = (uint32_t)(bid % l->grid[0]);
        b.ctaid[1] = (uint32_t)(bid / l->grid[0] % l->grid[1]);
        b.ctaid[2] = (uint32_t)(bid / ((uint64_t)l->grid[0] * l->grid[1]));
        if (run_block(&b))
            goto out;
        res->steps += b.steps;
        res->blocks_run++;
        if (b.stopped) {
            flush_requests(&b);
            res->complete = 0;
            res->unknown = b.unknown;
            res->unknown_block = b.bid;
            break;
        }
    }
    rc = 0;
out:
    free(b.R);
    free(b.K);
    free(b.T);
    free(b.kcount);
    free(b.smem);
    free(b.smem_known);
    free(b.local);
    free(b.local_known);
    free(b.param);
    free(b.param_known);
    free(b.reqs);
    free(b.tab);
    return rc;
}
