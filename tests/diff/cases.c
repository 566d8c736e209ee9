/* cases.c: the kernels and inputs of the differential suite (cases.h). The combinations themselves
 * are listed in combos.c; this file writes their PTX and draws their operands.
 *
 * A kernel's body is PTX with placeholders: $a..$f the operand registers (by width: %pi, %hi, %ri,
 * %rdi), $o0..$o7 the result registers (%po, %ho, %ro, %rdo), $O0..$O7 the addresses of this
 * thread's results, $Ia..$If the addresses of its operands ("%ad2+OFF", for [..]), $S its 16 bytes
 * of the shared array sm, $i the case index, $t the thread's index in its block, $l its lane,
 * $N the number of cases; $r0..9, $R0..9, $p0..9, $h0..9 are scratch registers (b32, b64, pred,
 * b16). Operand k of case i is the 8-byte slot in + (k * ncases + i) * 8; output j of case i is at
 * out + ncases * (width of outputs before j) + i * width(j). */
#include "cases.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the text of a kernel ------------------------------------------------------------------ */

struct buf {
    char *p;
    size_t n, cap;
    int oom;
};

static void bput(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void bput(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    if (b->oom)
        return;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(b->p ? b->p + b->n : NULL, b->p ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->oom = 1;
            return;
        }
        if (b->p && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t nc = b->cap ? b->cap * 2 : 4096;
        while (nc < b->n + (size_t)k + 1)
            nc *= 2;
        char *np = realloc(b->p, nc);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = nc;
    }
}

static const char *wreg_in(unsigned w) { return w == 1 ? "%pi" : w == 2 ? "%hi" : w == 4 ? "%ri" : "%rdi"; }
static const char *wreg_out(unsigned w) { return w == 1 ? "%po" : w == 2 ? "%ho" : w == 4 ? "%ro" : "%rdo"; }

size_t diff_out_offset(const struct diff_combo *c, unsigned j, unsigned i)
{
    size_t off = 0;
    for (unsigned k = 0; k < j; k++)
        off += (size_t)c->ncases * c->outw[k];
    return off + (size_t)i * c->outw[j];
}

size_t diff_in_size(const struct diff_combo *c) { return (size_t)(c->nin ? c->nin : 1) * c->ncases * 8; }

size_t diff_out_size(const struct diff_combo *c)
{
    size_t n = 0;
    for (unsigned j = 0; j < c->nout; j++)
        n += (size_t)c->ncases * c->outw[j];
    return n;
}

static void expand_body(struct buf *b, const struct diff_combo *c)
{
    const char *s = c->body;
    while (*s) {
        if (*s != '$') {
            const char *e = strchr(s, '$');
            size_t n = e ? (size_t)(e - s) : strlen(s);
            bput(b, "%.*s", (int)n, s);
            s += n;
            continue;
        }
        s++;
        char k = *s++;
        if (k >= 'a' && k <= 'f') {
            unsigned x = (unsigned)(k - 'a');
            bput(b, "%s%u", wreg_in(c->inw[x]), x);
        } else if (k == 'o' || k == 'O') {
            unsigned j = (unsigned)(*s++ - '0');
            if (k == 'o')
                bput(b, "%s%u", wreg_out(c->outw[j]), j);
            else
                bput(b, "%%ao%u", j);
        } else if (k == 'I') {
            unsigned x = (unsigned)(*s++ - 'a');
            bput(b, "%%ad2+%u", x * c->ncases * 8);
        } else if (k == 'S') {
            bput(b, "%%t15");
        } else if (k == 'i') {
            bput(b, "%%t14");
        } else if (k == 't') {
            bput(b, "%%t6");
        } else if (k == 'l') {
            bput(b, "%%t16");
        } else if (k == 'N') {
            bput(b, "%u", c->ncases);
        } else if (k == 'r' || k == 'R' || k == 'p' || k == 'h') {
            char d = *s++;
            bput(b, "%s%c", k == 'r' ? "%r" : k == 'R' ? "%rd" : k == 'p' ? "%p" : "%h", d);
        } else {
            bput(b, "$%c", k); /* left as is: ptxas and the parser will say */
        }
    }
}

static void write_kernel(struct buf *b, const struct diff_combo *c)
{
    bput(b, "\n// %s\n", c->name);
    if (c->prelude[0])
        bput(b, "%s\n", c->prelude);
    bput(b, ".visible .entry %s(.param .u64 pin, .param .u64 pout)\n{\n", c->kname);
    bput(b, "\t.reg .pred %%p<10>;\n\t.reg .pred %%pi<6>;\n\t.reg .pred %%po<8>;\n"
            "\t.reg .b16 %%h<10>;\n\t.reg .b16 %%hi<6>;\n\t.reg .b16 %%ho<8>;\n"
            "\t.reg .b32 %%r<10>;\n\t.reg .b32 %%ri<6>;\n\t.reg .b32 %%ro<8>;\n\t.reg .b32 %%t<20>;\n"
            "\t.reg .b64 %%rd<10>;\n\t.reg .b64 %%rdi<6>;\n\t.reg .b64 %%rdo<8>;\n"
            "\t.reg .b64 %%ad<6>;\n\t.reg .b64 %%ao<8>;\n");
    if (c->flags & DIFF_SHARED)
        bput(b, "\t.shared .align 16 .b8 sm[16384];\n");
    if (c->flags & DIFF_LOCAL)
        bput(b, "\t.local .align 16 .b8 lm[64];\n");
    if (c->flags & DIFF_B128)
        bput(b, "\t.reg .b128 %%q<2>;\n");
    bput(b, "\tld.param.u64 %%ad0, [pin];\n\tld.param.u64 %%ad1, [pout];\n"
            "\tcvta.to.global.u64 %%ad0, %%ad0;\n\tcvta.to.global.u64 %%ad1, %%ad1;\n"
            "\tmov.u32 %%t0, %%tid.x;\n\tmov.u32 %%t1, %%tid.y;\n\tmov.u32 %%t2, %%tid.z;\n"
            "\tmov.u32 %%t3, %%ntid.x;\n\tmov.u32 %%t4, %%ntid.y;\n\tmov.u32 %%t5, %%ntid.z;\n"
            "\tmad.lo.s32 %%t6, %%t2, %%t4, %%t1;\n\tmad.lo.s32 %%t6, %%t6, %%t3, %%t0;\n"
            "\tmul.lo.s32 %%t7, %%t3, %%t4;\n\tmul.lo.s32 %%t7, %%t7, %%t5;\n"
            "\tmov.u32 %%t8, %%ctaid.x;\n\tmov.u32 %%t9, %%ctaid.y;\n\tmov.u32 %%t10, %%ctaid.z;\n"
            "\tmov.u32 %%t11, %%nctaid.x;\n\tmov.u32 %%t12, %%nctaid.y;\n"
            "\tmad.lo.s32 %%t13, %%t10, %%t12, %%t9;\n\tmad.lo.s32 %%t13, %%t13, %%t11, %%t8;\n"
            "\tmad.lo.s32 %%t14, %%t13, %%t7, %%t6;\n"
            "\tmov.u32 %%t16, %%laneid;\n"
            "\tmul.wide.u32 %%ad2, %%t14, 8;\n\tadd.s64 %%ad2, %%ad0, %%ad2;\n");
    if (c->flags & DIFF_SHARED)
        bput(b, "\tmov.u32 %%t15, sm;\n\tmad.lo.s32 %%t15, %%t6, 16, %%t15;\n");
    for (unsigned j = 0; j < c->nout; j++) {
        bput(b, "\tmul.wide.u32 %%ad3, %%t14, %u;\n\tadd.s64 %%ao%u, %%ad1, %%ad3;\n", c->outw[j], j);
        size_t off = diff_out_offset(c, j, 0);
        if (off)
            bput(b, "\tadd.s64 %%ao%u, %%ao%u, %zu;\n", j, j, off);
    }
    for (unsigned k = 0; k < c->nin; k++) {
        unsigned off = k * c->ncases * 8;
        switch (c->inw[k]) {
        case 1:
            bput(b, "\tld.global.u8 %%t17, [%%ad2+%u];\n\tsetp.ne.b32 %%pi%u, %%t17, 0;\n", off, k);
            break;
        default:
            bput(b, "\tld.global.b%u %s%u, [%%ad2+%u];\n", 8 * c->inw[k], wreg_in(c->inw[k]), k, off);
            break;
        }
    }
    bput(b, "\t// body\n\t");
    expand_body(b, c);
    bput(b, "\n\t// results\n");
    for (unsigned j = 0; j < c->nout; j++) {
        if (c->outmem[j])
            continue;
        if (c->outw[j] == 1)
            bput(b, "\tselp.b32 %%t18, 1, 0, %%po%u;\n\tst.global.u8 [%%ao%u], %%t18;\n", j, j);
        else
            bput(b, "\tst.global.b%u [%%ao%u], %s%u;\n", 8 * c->outw[j], j, wreg_out(c->outw[j]), j);
    }
    bput(b, "\tret;\n}\n");
}

static const char module_head[] = "//\n// smemlab differential suite (tests/diff): generated by "
                                  "tests/diff/cases.c\n//\n.version 8.5\n.target sm_90\n"
                                  ".address_size 64\n";

unsigned diff_groups(const struct diff_set *s, const char **out, unsigned max)
{
    unsigned n = 0;
    for (unsigned i = 0; i < s->n; i++) {
        unsigned k;
        for (k = 0; k < n && strcmp(out[k], s->c[i].group); k++)
            ;
        if (k == n && n < max)
            out[n++] = s->c[i].group;
    }
    return n;
}

char *diff_module_ptx(const struct diff_set *s, const char *group)
{
    struct buf b = {0};
    bput(&b, "%s", module_head);
    for (unsigned i = 0; i < s->n; i++)
        if (!strcmp(s->c[i].group, group))
            write_kernel(&b, &s->c[i]);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

char *diff_kernel_ptx(const struct diff_combo *c)
{
    struct buf b = {0};
    bput(&b, "%s", module_head);
    write_kernel(&b, c);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* ---- operands -------------------------------------------------------------------------------- */

static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001B3ull;
    return h;
}

static const uint64_t e_i8[] = {0, 1, 2, 0x7f, 0x80, 0x81, 0xff, 0xfe, 0x40, 0x3f};
static const uint64_t e_i16[] = {0, 1, 2, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe,
                                 0xff, 0x100, 0x80, 0xff80, 15, 16, 0x1234, 0xfedc};
static const uint64_t e_i32[] = {0, 1, 2, 0x7fffffff, 0x80000000u, 0x80000001u, 0xffffffffu,
                                 0xfffffffeu, 0xffff, 0x10000, 0x8000, 0xffff8000u, 31, 32,
                                 0x12345678, 0xfedcba98u};
static const uint64_t e_i64[] = {0, 1, 2, 0x7fffffffffffffffull, 0x8000000000000000ull,
                                 0x8000000000000001ull, ~0ull, ~1ull, 0xffffffffull,
                                 0x100000000ull, 0x80000000ull, 0xffffffff80000000ull, 63, 64,
                                 0x123456789abcdef0ull, 0xfedcba9876543210ull};
static const uint64_t e_shift[] = {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 255,
                                   256, 0x80000000u, 0xffffffffu, 0x7fffffff};
static const uint64_t e_small[] = {0, 1, 2, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 255, 256, 0xffff};
static const uint64_t e_div16[] = {1, 2, 3, 7, 0xffff, 0xfffe, 0x8000, 0x7fff, 0x100, 0xff00};
static const uint64_t e_div32[] = {1, 2, 3, 7, 10, 0xffffffffu, 0xfffffffeu, 0x80000000u,
                                   0x7fffffff, 0x10000, 0xffff0000u, 0x12345};
static const uint64_t e_div64[] = {1, 2, 3, 7, 10, ~0ull, ~1ull, 0x8000000000000000ull,
                                   0x7fffffffffffffffull, 0x100000000ull, 0xffffffff00000000ull,
                                   0x123456789ull};
static const uint64_t e_f16[] = {0, 0x8000, 0x3c00, 0xbc00, 0x3e00, 0xc100, 0x0001, 0x83ff,
                                 0x0400, 0x7bff, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe3f, 0x3c01,
                                 0x1400, 0x5a00};
static const uint64_t e_bf16[] = {0, 0x8000, 0x3f80, 0xbf80, 0x3fc0, 0xc020, 0x0001, 0x807f,
                                  0x0080, 0x7f7f, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x3f81,
                                  0x3380, 0x4b80};
static const uint64_t e_f32[] = {0, 0x80000000u, 0x3f800000, 0xbf800000u, 0x3fc00000, 0xc0200000u,
                                 0x00000001, 0x807fffffu, 0x00800000, 0x7f7fffff, 0x7f800000,
                                 0xff800000u, 0x7fc00000, 0x7f800001, 0xffc12345u, 0x3f800001,
                                 0x4f000000, 0x33800000, 0x477ff000, 0xbf7fffffu};
static const uint64_t e_f32u[] = {0x3f000000, 0xbf000000u, 0x40200000, 0x40400000, 0x4b800001,
                                  0xcf000000u, 0x5f000000, 0x5f800000, 0xdf000000u, 0x477fe000,
                                  0x00400000, 0x0001ffff, 0x3dcccccd, 0x40490fdb, 0x4effffff,
                                  0x4f7fffff, 0xceffffffu, 0x3effffff, 0x3f7fffff, 0x7effffff,
                                  /* ties and near-ties of the f16 and bf16 conversions */
                                  0x3f801000, 0x3f801001, 0x3f800fff, 0x3f808000, 0x3f818000,
                                  0x3f808001, 0x387fe000, 0x33000000, 0x33000001, 0x33c00000,
                                  0xb3000000u, 0x477ff000, 0x477fefff, 0x7f7f8000, 0x7f7f7fff};
static const uint64_t e_f64[] = {0, 0x8000000000000000ull, 0x3ff0000000000000ull,
                                 0xbff0000000000000ull, 0x3ff8000000000000ull,
                                 0xc004000000000000ull, 1, 0x800fffffffffffffull,
                                 0x0010000000000000ull, 0x7fefffffffffffffull,
                                 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                 0x7ff8000000000000ull, 0x7ff0000000000001ull,
                                 0xfff8000000001234ull, 0x3ff0000000000001ull,
                                 0x43e0000000000000ull, 0x47efffffe0000000ull,
                                 0x36a0000000000000ull, 0x3fefffffffffffffull};
static const uint64_t e_f64u[] = {0x3fe0000000000000ull, 0x4004000000000000ull,
                                  0xc3e0000000000000ull, 0x43f0000000000000ull,
                                  0x41dfffffffc00000ull, 0xc1e0000000000000ull,
                                  0x0008000000000000ull, 0x3fb999999999999aull,
                                  0x400921fb54442d18ull, 0x47efffff00000000ull,
                                  0x36a8000000000000ull, 0x3fdfffffffffffffull,
                                  0x3810000000000000ull, 0x380fffffffffffffull,
                                  0x3ff0020000000000ull, 0x3ff0020000000001ull,
                                  0x3ff001ffffffffffull, 0x3ff0000010000000ull,
                                  0x3ff0000010000001ull, 0x3e70000000000000ull,
                                  0x3e60000000000000ull, 0x3e60000000000001ull,
                                  0x36a0000000000001ull, 0x369fffffffffffffull,
                                  0x47efffffefffffffull, 0x47effffff0000000ull};
static const uint64_t e_shflc[] = {0x1f, 0x0, 0x181f, 0x1c1f, 0x1e1f, 0x101f, 0x1f1f, 0x1800,
                                   0x1c00, 0x1e00, 0x1000, 0x0800, 0x0010, 0x0f, 0x1f00, 0x1807};
static const uint64_t e_shflb[] = {0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 31, 32, 33};

struct edges {
    const uint64_t *v;
    unsigned n;
};

static struct edges edges_of(unsigned cls)
{
    struct edges e = {NULL, 0};
#define E(a) do { e.v = a; e.n = sizeof a / sizeof a[0]; } while (0)
    switch (cls) {
    case C_I8: E(e_i8); break;
    case C_I16: E(e_i16); break;
    case C_I32: E(e_i32); break;
    case C_I64: E(e_i64); break;
    case C_SHIFT: E(e_shift); break;
    case C_SMALL: E(e_small); break;
    case C_DIV16: E(e_div16); break;
    case C_DIV32: E(e_div32); break;
    case C_DIV64: E(e_div64); break;
    case C_F16: case C_F16X2: E(e_f16); break;
    case C_BF16: case C_BF16X2: E(e_bf16); break;
    case C_F32: case C_F32TRIG: case C_F32EX2: E(e_f32); break;
    case C_F64: E(e_f64); break;
    default: break;
    }
#undef E
    return e;
}

static uint64_t pick(uint64_t *s, const uint64_t *v, unsigned n) { return v[mix(s) % n]; }

static uint64_t gen_int(uint64_t *s, unsigned bytes)
{
    uint64_t r = mix(s), m = bytes >= 8 ? ~0ull : (1ull << (8 * bytes)) - 1;
    switch (mix(s) % 5) {
    case 0: case 1: return r & m;
    case 2: return (uint64_t)((int64_t)(r % 129) - 64) & m;
    case 3: {
        unsigned k = (unsigned)(r % (8 * bytes));
        uint64_t v = (1ull << k) + (uint64_t)((int64_t)((r >> 8) % 3) - 1);
        return ((r >> 16) & 1 ? 0 - v : v) & m;
    }
    default: return (r & m) >> (r >> 58 & 31) % (8 * bytes);
    }
}

static uint64_t gen_f32(uint64_t *s)
{
    uint64_t r = mix(s);
    uint32_t sign = (uint32_t)(r >> 63) << 31, man = (uint32_t)r & 0x7fffff;
    switch (mix(s) % 10) {
    case 0: return (uint32_t)r;
    case 1: case 2: return sign | (uint32_t)(127 - 24 + (r >> 32) % 49) << 23 | man;
    case 3: { /* near an integer or a half */
        double n = (double)((r >> 32) % (1u << ((r >> 24) % 25)));
        static const double frac[] = {0, 0.5, 0.25, 0.75, 0.5000001, 0.4999999, 1e-3};
        float f = (float)(n + frac[(r >> 56) % 7]);
        uint32_t u;
        memcpy(&u, &f, 4);
        return sign | u;
    }
    case 4: return sign | (man & ((1u << (r >> 40) % 24) - 1u)) | ((r >> 50) & 1); /* subnormal */
    case 5: return sign | (uint32_t)(150 + (r >> 32) % 105) << 23 | man;             /* large */
    case 6: return (uint32_t)(110 + (r >> 32) % 18) << 23 | man;                       /* [0, 1) */
    case 7: return sign | (uint32_t)(1 + (r >> 32) % 30) << 23 | man;                  /* tiny */
    case 8: return pick(s, e_f32u, sizeof e_f32u / sizeof e_f32u[0]);
    default: return pick(s, e_f32, sizeof e_f32 / sizeof e_f32[0]);
    }
}

static uint64_t gen_f64(uint64_t *s)
{
    uint64_t r = mix(s), r2 = mix(s);
    uint64_t sign = r & 0x8000000000000000ull, man = r2 & 0xfffffffffffffull;
    switch (mix(s) % 10) {
    case 0: return r;
    case 1: case 2: return sign | (uint64_t)(1023 - 53 + r % 107) << 52 | man;
    case 3: {
        double n = (double)((r >> 8) % (1ull << ((r >> 2) % 54)));
        static const double frac[] = {0, 0.5, 0.25, 0.75, 0.5000000001, 0.4999999999, 1e-9};
        double f = n + frac[(r >> 58) % 7];
        uint64_t u;
        memcpy(&u, &f, 8);
        return sign | u;
    }
    case 4: return sign | (man >> (r % 52)); /* subnormal */
    case 5: return sign | (uint64_t)(1100 + r % 947) << 52 | man;
    case 6: return (uint64_t)(1000 + r % 23) << 52 | man;
    case 7: { /* near the float range's edges: conversions to f32 and f16 */
        static const uint64_t ex[] = {1023 - 126, 1023 - 127, 1023 - 149, 1023 - 150, 1023 + 127,
                                      1023 + 128, 1023 - 14, 1023 - 24, 1023 + 15, 1023 + 16};
        return sign | ex[r % 10] << 52 | (man & ~((1ull << (r >> 40) % 52) - 1));
    }
    case 8: return pick(s, e_f64u, sizeof e_f64u / sizeof e_f64u[0]);
    default: return pick(s, e_f64, sizeof e_f64 / sizeof e_f64[0]);
    }
}

static uint64_t gen_f16(uint64_t *s, int bf)
{
    uint64_t r = mix(s);
    unsigned ebits = bf ? 8 : 5, mbits = bf ? 7 : 10, bias = bf ? 127 : 15;
    uint64_t sign = (r >> 63) << 15, man = r & ((1u << mbits) - 1);
    switch (mix(s) % 6) {
    case 0: case 1: return r & 0xffff;
    case 2: return sign | (uint64_t)(bias - 4 + (r >> 20) % 9) << mbits | man;
    case 3: return sign | (man >> (r >> 30) % mbits);
    case 4: return sign | (uint64_t)((r >> 20) % ((1u << ebits) - 1)) << mbits | man;
    default: return bf ? pick(s, e_bf16, sizeof e_bf16 / sizeof e_bf16[0])
                       : pick(s, e_f16, sizeof e_f16 / sizeof e_f16[0]);
    }
}

/* A value of class cls for case i (warp and block patterns use the case's warp and block). */
static uint64_t gen(unsigned cls, uint64_t *s, uint64_t seed, unsigned i, unsigned block)
{
    uint64_t ws = seed ^ (0x51ull * (i / 32 + 1)), bs = seed ^ (0x77ull * (i / block + 1));
    switch (cls) {
    case C_I8: return gen_int(s, 1) | (mix(s) % 4 == 0 ? mix(s) << 8 & 0xff00 : 0);
    case C_I16: return gen_int(s, 2);
    case C_I32: return gen_int(s, 4);
    case C_I64: return gen_int(s, 8);
    case C_SHIFT: return mix(s) % 3 ? mix(s) % 70 : pick(s, e_shift, sizeof e_shift / 8);
    case C_SMALL: return mix(s) % 4 ? mix(s) % 70 : pick(s, e_small, sizeof e_small / 8);
    case C_DIV16: { uint64_t v = gen_int(s, 2); return v ? v : 3; }
    case C_DIV32: { uint64_t v = gen_int(s, 4); return v ? v : 5; }
    case C_DIV64: { uint64_t v = gen_int(s, 8); return v ? v : 7; }
    case C_ZERO: return 0;
    case C_F16: return gen_f16(s, 0);
    case C_BF16: return gen_f16(s, 1);
    case C_F32: return gen_f32(s);
    case C_F64: return gen_f64(s);
    case C_F16X2: return gen_f16(s, 0) | gen_f16(s, 0) << 16;
    case C_BF16X2: return gen_f16(s, 1) | gen_f16(s, 1) << 16;
    case C_F32TRIG: case C_F32EX2: {
        uint64_t r = mix(s);
        if (r % 10 < 2)
            return gen_f32(s);
        double lim = cls == C_F32TRIG ? 100 * 3.14159265358979 : 130.0;
        double x = ((double)(r >> 11) / 9007199254740992.0 * 2 - 1) * lim;
        if (r % 10 == 2)
            x /= 1 << (r >> 4) % 20; /* small arguments */
        float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, 4);
        return u;
    }
    case C_PRED: return mix(s) & 1;
    case C_SEL: return mix(s) & (mix(s) % 4 ? 0xffff : 0xffffffff);
    case C_SHFLB: { uint64_t r = mix(s) % 10; return r < 7 ? mix(s) % 32 : r < 9 ? mix(s) % 64 : (uint32_t)mix(s); }
    case C_SHFLB_W: return pick(&ws, e_shflb, sizeof e_shflb / 8);
    case C_SHFLC: return mix(&ws) % 5 ? pick(&ws, e_shflc, sizeof e_shflc / 8) : mix(&ws) & 0x1fff;
    case C_WPRED: case C_BPRED: {
        uint64_t *ps = cls == C_WPRED ? &ws : &bs;
        uint64_t pat = mix(ps) % 6, one = mix(ps);
        unsigned lane = cls == C_WPRED ? i % 32 : i % block;
        unsigned n = cls == C_WPRED ? 32 : block;
        switch (pat) {
        case 0: return 1;
        case 1: return 0;
        case 2: return lane != one % n;
        case 3: return lane == one % n;
        case 4: return lane & 1;
        default: return mix(s) & 1;
        }
    }
    case C_MATCH32: case C_MATCH64: {
        static const unsigned ks[] = {1, 2, 3, 8, 32};
        uint64_t base = mix(&ws), k = ks[mix(&ws) % 5];
        uint64_t v = base + (mix(s) % k) * (cls == C_MATCH64 && (base & 1) ? 0x100000000ull : 1);
        return cls == C_MATCH32 ? (uint32_t)v : v;
    }
    case C_WARPK: { uint64_t r = mix(&ws) % 8; return r == 0 ? 32 : r == 1 ? 1 : 1 + mix(&ws) % 32; }
    case C_I32W: return (uint32_t)mix(&ws);
    default: return 0;
    }
}

/* Half (RN) of a float, for the cancelling cases of f16 arithmetic. */
static uint16_t half_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    uint32_t sgn = (u >> 16) & 0x8000u;
    int e = (int)((u >> 23) & 0xff) - 127 + 15;
    if (e <= 0 || e >= 31)
        return (uint16_t)sgn;
    uint32_t m = u & 0x7fffff, h = sgn | (uint32_t)e << 10 | m >> 13;
    if ((m & 0x1fff) > 0x1000 || ((m & 0x1fff) == 0x1000 && (h & 1)))
        h++;
    return (uint16_t)h;
}

static float float_of_half(uint16_t h)
{
    int e = (h >> 10) & 0x1f;
    float m = (float)(h & 0x3ff);
    float v = e ? ldexpf(1024 + m, e - 25) : ldexpf(m, -24);
    return h & 0x8000 ? -v : v;
}

/* The cancelling cases: b = -a (add), c = -a*b (fma), nudged by a few units. */
static void cancel(const struct diff_combo *c, uint64_t *v, uint64_t *s)
{
    unsigned fa = c->cls[0];
    int64_t nudge = (int64_t)(mix(s) % 7) - 3;
    if (c->nin == 2 && (fa == C_F32 || fa == C_F64 || fa == C_F16)) {
        int sub = !strncmp(c->name, "sub", 3);
        uint64_t sg = fa == C_F32 ? 0x80000000u : fa == C_F64 ? 0x8000000000000000ull : 0x8000;
        v[1] = (sub ? v[0] : v[0] ^ sg) + (uint64_t)nudge;
    } else if (c->nin == 3 && fa == C_F32) {
        float a, b;
        uint32_t ua = (uint32_t)v[0], ub = (uint32_t)v[1], uc;
        memcpy(&a, &ua, 4);
        memcpy(&b, &ub, 4);
        float p = -(a * b);
        memcpy(&uc, &p, 4);
        v[2] = uc + (uint64_t)nudge;
    } else if (c->nin == 3 && fa == C_F64) {
        double a, b, p;
        memcpy(&a, &v[0], 8);
        memcpy(&b, &v[1], 8);
        p = -(a * b);
        memcpy(&v[2], &p, 8);
        v[2] += (uint64_t)nudge;
    } else if (c->nin == 3 && fa == C_F16) {
        float p = -(float_of_half((uint16_t)v[0]) * float_of_half((uint16_t)v[1]));
        v[2] = (uint64_t)(half_of(p) + nudge) & 0xffff;
    }
}

void diff_inputs(const struct diff_combo *c, uint8_t *in)
{
    uint64_t seed = fnv(0xcbf29ce484222325ull, c->name, strlen(c->name));
    unsigned block = c->block[0] * c->block[1] * c->block[2];
    /* the first operands that have edge values: their cross product comes first */
    int e0 = -1, e1 = -1;
    for (unsigned k = 0; k < c->nin; k++)
        if (edges_of(c->cls[k]).n) {
            if (e0 < 0)
                e0 = (int)k;
            else if (e1 < 0)
                e1 = (int)k;
        }
    struct edges E0 = e0 >= 0 ? edges_of(c->cls[e0]) : (struct edges){NULL, 0};
    struct edges E1 = e1 >= 0 ? edges_of(c->cls[e1]) : (struct edges){NULL, 0};
    unsigned ncross = e1 >= 0 ? E0.n * E1.n : E0.n;
    for (unsigned i = 0; i < c->ncases; i++) {
        uint64_t s = seed ^ (0x1000003ull * (i + 1)), v[DIFF_MAX_IN];
        for (unsigned k = 0; k < c->nin; k++)
            v[k] = gen(c->cls[k], &s, seed ^ (k * 0x9E37ull), i, block);
        if (i < ncross) {
            if (e1 >= 0) {
                v[e0] = E0.v[i / E1.n];
                v[e1] = E1.v[i % E1.n];
                if (c->cls[e0] == C_F16X2 || c->cls[e0] == C_BF16X2)
                    v[e0] |= E0.v[(i / E1.n * 7 + 3) % E0.n] << 16;
                if (c->cls[e1] == C_F16X2 || c->cls[e1] == C_BF16X2)
                    v[e1] |= E1.v[(i % E1.n * 5 + 1) % E1.n] << 16;
            } else {
                v[e0] = E0.v[i];
                if (c->cls[e0] == C_F16X2 || c->cls[e0] == C_BF16X2)
                    v[e0] |= E0.v[(i * 7 + 3) % E0.n] << 16;
            }
        } else if ((c->flags & DIFF_CANCEL) && mix(&s) % 3 == 0) {
            cancel(c, v, &s);
        }
        for (unsigned k = 0; k < c->nin; k++)
            memcpy(in + ((size_t)k * c->ncases + i) * 8, &v[k], 8);
    }
}

uint64_t diff_hash(const struct diff_combo *c)
{
    char *ptx = diff_kernel_ptx(c);
    uint8_t *in = malloc(diff_in_size(c));
    uint64_t h = 0xcbf29ce484222325ull;
    if (!ptx || !in) {
        free(ptx);
        free(in);
        return 0;
    }
    diff_inputs(c, in);
    h = fnv(h, ptx, strlen(ptx));
    h = fnv(h, in, diff_in_size(c));
    h = fnv(h, c->block, sizeof c->block);
    h = fnv(h, c->grid, sizeof c->grid);
    h = fnv(h, &c->dyn_smem, sizeof c->dyn_smem);
    free(ptx);
    free(in);
    return h;
}

/* ---- the set ----------------------------------------------------------------------------------- */

void diff_free(struct diff_set *s)
{
    free(s->c);
    s->c = NULL;
    s->n = s->cap = 0;
}
