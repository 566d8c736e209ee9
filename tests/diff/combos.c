/* combos.c: every combination of the differential suite: for each opcode the emulator accepts, each
 * type and modifier PTX allows it on sm_90 (ptxas rejects the rest: tests/diff/README.md), the
 * instruction on operands read from memory. Groups become PTX modules. */
#include "cases.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct tok {
    const char *name;
    uint8_t cls, w;
};

static const struct tok in_toks[] = {
    {"i8", C_I8, 2}, {"i16", C_I16, 2}, {"i32", C_I32, 4}, {"i64", C_I64, 8},
    {"sh", C_SHIFT, 4}, {"sm", C_SMALL, 4}, {"d16", C_DIV16, 2}, {"d32", C_DIV32, 4},
    {"d64", C_DIV64, 8}, {"z16", C_ZERO, 2}, {"z32", C_ZERO, 4}, {"z64", C_ZERO, 8},
    {"f16", C_F16, 2}, {"bf16", C_BF16, 2}, {"f32", C_F32, 4}, {"f64", C_F64, 8},
    {"f16x2", C_F16X2, 4}, {"bf16x2", C_BF16X2, 4}, {"trig", C_F32TRIG, 4}, {"ex2", C_F32EX2, 4},
    {"p", C_PRED, 1}, {"sel", C_SEL, 4}, {"lb", C_SHFLB, 4}, {"lbw", C_SHFLB_W, 4},
    {"lc", C_SHFLC, 4}, {"wp", C_WPRED, 1}, {"bp", C_BPRED, 1}, {"m32", C_MATCH32, 4},
    {"m64", C_MATCH64, 8}, {"k", C_WARPK, 4}, {"i32w", C_I32W, 4},
};

static const struct tok out_toks[] = {
    {"p", DF_PRED, 1}, {"b16", DF_B, 2}, {"b32", DF_B, 4}, {"b64", DF_B, 8},
    {"f16", DF_F16, 2}, {"bf16", DF_BF16, 2}, {"f32", DF_F32, 4}, {"f64", DF_F64, 8},
    {"f16x2", DF_F16X2, 4}, {"bf16x2", DF_BF16X2, 4},
};

static int failed;

static const struct tok *find_tok(const struct tok *t, size_t n, const char *w)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(t[i].name, w))
            return &t[i];
    fprintf(stderr, "combos.c: unknown token '%s'\n", w);
    failed = 1;
    return &t[0];
}

static unsigned edge_count(unsigned cls)
{
    switch (cls) {
    case C_I8: return 10;
    case C_I16: case C_I32: case C_I64: case C_SMALL: return 16;
    case C_SHIFT: return 20;
    case C_DIV16: return 10;
    case C_DIV32: case C_DIV64: return 12;
    case C_F16: case C_BF16: case C_F16X2: case C_BF16X2: return 18;
    case C_F32: case C_F32TRIG: case C_F32EX2: case C_F64: return 20;
    default: return 0;
    }
}

/* Adds a combination: ins and outs are space-separated tokens (outs: '*' = stored by the body). */
static struct diff_combo *add(struct diff_set *s, const char *group, const char *name,
                              const char *ins, const char *outs, unsigned flags, unsigned tol,
                              const char *fmt, ...) __attribute__((format(printf, 8, 9)));
static struct diff_combo *add(struct diff_set *s, const char *group, const char *name,
                              const char *ins, const char *outs, unsigned flags, unsigned tol,
                              const char *fmt, ...)
{
    if (s->n == s->cap) {
        unsigned nc = s->cap ? s->cap * 2 : 512;
        struct diff_combo *nn = realloc(s->c, nc * sizeof *nn);
        if (!nn) {
            failed = 1;
            return NULL;
        }
        s->c = nn;
        s->cap = nc;
    }
    struct diff_combo *c = &s->c[s->n];
    memset(c, 0, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    for (char *q = c->name; *q; q++)
        if (*q == '\n' || *q == '\t')
            *q = ' ';
    for (unsigned i = 0; i < s->n; i++)
        if (!strcmp(s->c[i].name, name)) {
            fprintf(stderr, "combos.c: '%s' twice\n", name);
            failed = 1;
        }
    size_t k = 0;
    k += (size_t)snprintf(c->kname, sizeof c->kname, "d_");
    for (const char *p = name; *p && k + 1 < sizeof c->kname; p++)
        c->kname[k++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                       (*p >= '0' && *p <= '9') ? *p : '_');
    c->kname[k] = 0;
    c->group = group;
    char w[32];
    const char *p = ins;
    while (*p) {
        int n = 0;
        if (sscanf(p, " %31s%n", w, &n) != 1)
            break;
        p += n;
        const struct tok *t = find_tok(in_toks, sizeof in_toks / sizeof in_toks[0], w);
        c->cls[c->nin] = t->cls;
        c->inw[c->nin] = t->w;
        c->nin++;
    }
    p = outs;
    while (*p) {
        int n = 0;
        if (sscanf(p, " %31s%n", w, &n) != 1)
            break;
        p += n;
        int mem = w[0] == '*';
        const struct tok *t = find_tok(out_toks, sizeof out_toks / sizeof out_toks[0], w + mem);
        c->outfmt[c->nout] = t->cls;
        c->outw[c->nout] = t->w;
        c->outmem[c->nout] = (uint8_t)mem;
        c->nout++;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->body, sizeof c->body, fmt, ap);
    va_end(ap);
    c->flags = flags;
    c->tol = tol;
    unsigned e[2] = {0, 0}, ne = 0;
    for (unsigned i = 0; i < c->nin && ne < 2; i++)
        if (edge_count(c->cls[i]))
            e[ne++] = edge_count(c->cls[i]);
    unsigned cross = ne == 2 ? e[0] * e[1] : e[0];
    unsigned n = cross + 128 < 384 ? 384 : cross + 128;
    if (tol)
        n = 1024;
    c->ncases = (n + 127) / 128 * 128;
    c->block[0] = 128;
    c->block[1] = c->block[2] = 1;
    c->grid[0] = c->ncases / 128;
    c->grid[1] = c->grid[2] = 1;
    s->n++;
    return c;
}

/* ---- types -------------------------------------------------------------------------------- */

static const char *in_tok(const char *t)
{
    if (!strcmp(t, "u8") || !strcmp(t, "s8") || !strcmp(t, "b8")) return "i8";
    if (!strcmp(t, "u16") || !strcmp(t, "s16") || !strcmp(t, "b16")) return "i16";
    if (!strcmp(t, "u32") || !strcmp(t, "s32") || !strcmp(t, "b32")) return "i32";
    if (!strcmp(t, "u64") || !strcmp(t, "s64") || !strcmp(t, "b64")) return "i64";
    if (!strcmp(t, "pred")) return "p";
    return t; /* f16 bf16 f32 f64 f16x2 bf16x2 */
}

static const char *out_tok(const char *t)
{
    if (t[0] == 'u' || t[0] == 's' || (t[0] == 'b' && t[1] != 'f')) {
        int bits = atoi(t + 1);
        return bits <= 16 ? "b16" : bits == 32 ? "b32" : "b64";
    }
    if (!strcmp(t, "pred")) return "p";
    return t;
}

static const char *div_tok(const char *t)
{
    int bits = atoi(t + 1);
    return bits == 16 ? "d16" : bits == 32 ? "d32" : "d64";
}

static const char *wide_tok(const char *t)
{
    int bits = atoi(t + 1);
    return bits == 16 ? "b32" : "b64";
}

#define N(...) (snprintf(nm, sizeof nm, __VA_ARGS__), nm)
#define IN2(t) (snprintf(ins, sizeof ins, "%s %s", in_tok(t), in_tok(t)), ins)
#define IN3(t) (snprintf(ins, sizeof ins, "%s %s %s", in_tok(t), in_tok(t), in_tok(t)), ins)

static const char *const ints[] = {"u16", "s16", "u32", "s32", "u64", "s64"};
static const char *const all_int[] = {"u8", "s8", "u16", "s16", "u32", "s32", "u64", "s64"};
static const char *const rnd4[] = {"rn", "rz", "rm", "rp"};
static const char *const irnd4[] = {"rni", "rzi", "rmi", "rpi"};

static void integer(struct diff_set *s)
{
    char nm[64], ins[64];
    const char *g = "int";
    for (int i = 0; i < 6; i++) {
        const char *t = ints[i];
        add(s, g, N("add.%s", t), IN2(t), out_tok(t), 0, 0, "add.%s $o0, $a, $b;", t);
        add(s, g, N("sub.%s", t), IN2(t), out_tok(t), 0, 0, "sub.%s $o0, $a, $b;", t);
        add(s, g, N("mul.lo.%s", t), IN2(t), out_tok(t), 0, 0, "mul.lo.%s $o0, $a, $b;", t);
        add(s, g, N("mul.hi.%s", t), IN2(t), out_tok(t), 0, 0, "mul.hi.%s $o0, $a, $b;", t);
        add(s, g, N("mad.lo.%s", t), IN3(t), out_tok(t), 0, 0, "mad.lo.%s $o0, $a, $b, $c;", t);
        add(s, g, N("mad.hi.%s", t), IN3(t), out_tok(t), 0, 0, "mad.hi.%s $o0, $a, $b, $c;", t);
        if (atoi(t + 1) < 64) {
            add(s, g, N("mul.wide.%s", t), IN2(t), wide_tok(t), 0, 0, "mul.wide.%s $o0, $a, $b;", t);
            snprintf(ins, sizeof ins, "%s %s %s", in_tok(t), in_tok(t),
                     atoi(t + 1) == 16 ? "i32" : "i64");
            add(s, g, N("mad.wide.%s", t), ins, wide_tok(t), 0, 0, "mad.wide.%s $o0, $a, $b, $c;", t);
        }
        add(s, g, N("sad.%s", t), IN3(t), out_tok(t), 0, 0, "sad.%s $o0, $a, $b, $c;", t);
        snprintf(ins, sizeof ins, "%s %s", in_tok(t), div_tok(t));
        add(s, g, N("div.%s", t), ins, out_tok(t), 0, 0, "div.%s $o0, $a, $b;", t);
        add(s, g, N("rem.%s", t), ins, out_tok(t), 0, 0, "rem.%s $o0, $a, $b;", t);
        snprintf(ins, sizeof ins, "%s z%d", in_tok(t), atoi(t + 1));
        add(s, g, N("div.%s/0", t), ins, out_tok(t), 0, 0, "div.%s $o0, $a, $b;", t);
        add(s, g, N("rem.%s/0", t), ins, out_tok(t), 0, 0, "rem.%s $o0, $a, $b;", t);
        add(s, g, N("min.%s", t), IN2(t), out_tok(t), 0, 0, "min.%s $o0, $a, $b;", t);
        add(s, g, N("max.%s", t), IN2(t), out_tok(t), 0, 0, "max.%s $o0, $a, $b;", t);
        if (t[0] == 's') {
            add(s, g, N("abs.%s", t), in_tok(t), out_tok(t), 0, 0, "abs.%s $o0, $a;", t);
            add(s, g, N("neg.%s", t), in_tok(t), out_tok(t), 0, 0, "neg.%s $o0, $a;", t);
        }
    }
    add(s, g, "add.sat.s32", "i32 i32", "b32", 0, 0, "add.sat.s32 $o0, $a, $b;");
    add(s, g, "sub.sat.s32", "i32 i32", "b32", 0, 0, "sub.sat.s32 $o0, $a, $b;");
    add(s, g, "add.cc.u32", "i32 i32", "b32", 0, 0, "add.cc.u32 $o0, $a, $b;");
    add(s, g, "sub.cc.u32", "i32 i32", "b32", 0, 0, "sub.cc.u32 $o0, $a, $b;");
    add(s, g, "mad.hi.sat.s32", "i32 i32 i32", "b32", 0, 0, "mad.hi.sat.s32 $o0, $a, $b, $c;");
    add(s, g, "min.relu.s32", "i32 i32", "b32", 0, 0, "min.relu.s32 $o0, $a, $b;");
    add(s, g, "max.relu.s32", "i32 i32", "b32", 0, 0, "max.relu.s32 $o0, $a, $b;");
    for (int i = 0; i < 2; i++) {
        const char *t = i ? "s32" : "u32";
        add(s, g, N("mul24.lo.%s", t), "i32 i32", "b32", 0, 0, "mul24.lo.%s $o0, $a, $b;", t);
        add(s, g, N("mul24.hi.%s", t), "i32 i32", "b32", 0, 0, "mul24.hi.%s $o0, $a, $b;", t);
        add(s, g, N("mad24.lo.%s", t), "i32 i32 i32", "b32", 0, 0, "mad24.lo.%s $o0, $a, $b, $c;", t);
        add(s, g, N("mad24.hi.%s", t), "i32 i32 i32", "b32", 0, 0, "mad24.hi.%s $o0, $a, $b, $c;", t);
    }
    add(s, g, "mad24.hi.sat.s32", "i32 i32 i32", "b32", 0, 0, "mad24.hi.sat.s32 $o0, $a, $b, $c;");

    g = "bits";
    static const char *const bt[] = {"b16", "b32", "b64"};
    for (int i = 0; i < 3; i++) {
        const char *t = bt[i];
        add(s, g, N("and.%s", t), IN2(t), out_tok(t), 0, 0, "and.%s $o0, $a, $b;", t);
        add(s, g, N("or.%s", t), IN2(t), out_tok(t), 0, 0, "or.%s $o0, $a, $b;", t);
        add(s, g, N("xor.%s", t), IN2(t), out_tok(t), 0, 0, "xor.%s $o0, $a, $b;", t);
        add(s, g, N("not.%s", t), in_tok(t), out_tok(t), 0, 0, "not.%s $o0, $a;", t);
        add(s, g, N("cnot.%s", t), in_tok(t), out_tok(t), 0, 0, "cnot.%s $o0, $a;", t);
        snprintf(ins, sizeof ins, "%s sh", in_tok(t));
        add(s, g, N("shl.%s", t), ins, out_tok(t), 0, 0, "shl.%s $o0, $a, $b;", t);
        add(s, g, N("shr.%s", t), ins, out_tok(t), 0, 0, "shr.%s $o0, $a, $b;", t);
        add(s, g, N("mov.%s", t), in_tok(t), out_tok(t), 0, 0, "mov.%s $o0, $a;", t);
    }
    for (int i = 0; i < 6; i++) {
        const char *t = ints[i];
        snprintf(ins, sizeof ins, "%s sh", in_tok(t));
        add(s, g, N("shr.%s", t), ins, out_tok(t), 0, 0, "shr.%s $o0, $a, $b;", t);
    }
    add(s, g, "and.pred", "p p", "p", 0, 0, "and.pred $o0, $a, $b;");
    add(s, g, "or.pred", "p p", "p", 0, 0, "or.pred $o0, $a, $b;");
    add(s, g, "xor.pred", "p p", "p", 0, 0, "xor.pred $o0, $a, $b;");
    add(s, g, "not.pred", "p", "p", 0, 0, "not.pred $o0, $a;");
    add(s, g, "mov.pred", "p", "p", 0, 0, "mov.pred $o0, $a;");
    add(s, g, "and.pred !", "p p", "p", 0, 0, "and.pred $o0, !$a, $b;");
    /* the known bug: not.pred gave true whatever its input; guards on it */
    add(s, g, "not.pred guard", "p i32", "b32", 0, 0,
        "not.pred $p1, $a;\n\tmov.b32 $o0, 0;\n\t@$p1 add.s32 $o0, $o0, $b;\n\t"
        "@!$p1 add.s32 $o0, $o0, 7;\n\tnot.pred $p2, $p1;\n\t@$p2 xor.b32 $o0, $o0, 0x100;");
    add(s, g, "setp and-guard", "i32 i32 i32 i32", "b32", 0, 0,
        "setp.lt.s32 $p1, $a, $b;\n\tsetp.lt.s32 $p2, $c, $d;\n\tnot.pred $p3, $p1;\n\t"
        "not.pred $p4, $p2;\n\tor.pred $p5, $p3, $p4;\n\tmov.b32 $o0, 1;\n\t@$p5 bra SKIP;\n\t"
        "mov.b32 $o0, 2;\nSKIP:");
    for (int i = 0; i < 2; i++) {
        const char *t = i ? "b64" : "b32";
        add(s, g, N("popc.%s", t), in_tok(t), "b32", 0, 0, "popc.%s $o0, $a;", t);
        add(s, g, N("clz.%s", t), in_tok(t), "b32", 0, 0, "clz.%s $o0, $a;", t);
        add(s, g, N("brev.%s", t), in_tok(t), out_tok(t), 0, 0, "brev.%s $o0, $a;", t);
        snprintf(ins, sizeof ins, "%s %s sm sm", in_tok(t), in_tok(t));
        add(s, g, N("bfi.%s", t), ins, out_tok(t), 0, 0, "bfi.%s $o0, $a, $b, $c, $d;", t);
    }
    static const char *const bf[] = {"u32", "s32", "u64", "s64"};
    for (int i = 0; i < 4; i++) {
        const char *t = bf[i];
        add(s, g, N("bfind.%s", t), in_tok(t), "b32", 0, 0, "bfind.%s $o0, $a;", t);
        add(s, g, N("bfind.shiftamt.%s", t), in_tok(t), "b32", 0, 0, "bfind.shiftamt.%s $o0, $a;", t);
        snprintf(ins, sizeof ins, "%s sm sm", in_tok(t));
        add(s, g, N("bfe.%s", t), ins, out_tok(t), 0, 0, "bfe.%s $o0, $a, $b, $c;", t);
    }
    /* the video sum of absolute differences (__usad4, cuda-samples' stereoDisparity) */
    add(s, g, "vabsdiff4.u32.u32.u32.add", "i32 i32 i32", "b32", 0, 0, "vabsdiff4.u32.u32.u32.add $o0, $a, $b, $c;");
    add(s, g, "vabsdiff4.s32.s32.s32.add", "i32 i32 i32", "b32", 0, 0, "vabsdiff4.s32.s32.s32.add $o0, $a, $b, $c;");
    add(s, g, "vabsdiff4.s32.u32.u32.add", "i32 i32 i32", "b32", 0, 0, "vabsdiff4.s32.u32.u32.add $o0, $a, $b, $c;");
    static const char *const bm[] = {"clamp", "wrap"};
    for (int i = 0; i < 2; i++) {
        add(s, g, N("bmsk.%s.b32", bm[i]), "sh sh", "b32", 0, 0, "bmsk.%s.b32 $o0, $a, $b;", bm[i]);
        add(s, g, N("szext.%s.u32", bm[i]), "i32 sh", "b32", 0, 0, "szext.%s.u32 $o0, $a, $b;", bm[i]);
        add(s, g, N("szext.%s.s32", bm[i]), "i32 sh", "b32", 0, 0, "szext.%s.s32 $o0, $a, $b;", bm[i]);
    }
    static const char *const shf[] = {"l.wrap", "l.clamp", "r.wrap", "r.clamp"};
    for (int i = 0; i < 4; i++)
        add(s, g, N("shf.%s.b32", shf[i]), "i32 i32 sh", "b32", 0, 0, "shf.%s.b32 $o0, $a, $b, $c;", shf[i]);
    add(s, g, "lop3.b32", "i32 i32 i32", "b32 b32 b32 b32 b32 b32 b32 b32", 0, 0,
        "lop3.b32 $o0, $a, $b, $c, 0x96;\n\tlop3.b32 $o1, $a, $b, $c, 0xe8;\n\t"
        "lop3.b32 $o2, $a, $b, $c, 0xca;\n\tlop3.b32 $o3, $a, $b, $c, 0xf0;\n\t"
        "lop3.b32 $o4, $a, $b, $c, 0x1e;\n\tlop3.b32 $o5, $a, $b, $c, 0x00;\n\t"
        "lop3.b32 $o6, $a, $b, $c, 0xff;\n\tlop3.b32 $o7, $a, $b, $c, 0x6a;");
    add(s, g, "lop3.b32 more", "i32 i32 i32", "b32 b32 b32 b32 b32 b32 b32 b32", 0, 0,
        "lop3.b32 $o0, $a, $b, $c, 0x80;\n\tlop3.b32 $o1, $a, $b, $c, 0xfe;\n\t"
        "lop3.b32 $o2, $a, $b, $c, 0xcc;\n\tlop3.b32 $o3, $a, $b, $c, 0xaa;\n\t"
        "lop3.b32 $o4, $a, $b, $c, 0x3c;\n\tlop3.b32 $o5, $a, $b, $c, 0x01;\n\t"
        "lop3.b32 $o6, $a, $b, $c, 0x7f;\n\tlop3.b32 $o7, $a, $b, $c, 0xb4;");
    add(s, g, "prmt.b32", "i32 i32 sel", "b32", 0, 0, "prmt.b32 $o0, $a, $b, $c;");
    static const char *const pm[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int i = 0; i < 6; i++)
        add(s, g, N("prmt.b32.%s", pm[i]), "i32 i32 sel", "b32", 0, 0, "prmt.b32.%s $o0, $a, $b, $c;", pm[i]);
    for (int i = 0; i < 4; i++) {
        const char *ta = i & 1 ? "s32" : "u32", *tb = i & 2 ? "s32" : "u32";
        add(s, g, N("dp4a.%s.%s", ta, tb), "i32 i32 i32", "b32", 0, 0, "dp4a.%s.%s $o0, $a, $b, $c;", ta, tb);
        add(s, g, N("dp2a.lo.%s.%s", ta, tb), "i32 i32 i32", "b32", 0, 0, "dp2a.lo.%s.%s $o0, $a, $b, $c;", ta, tb);
        add(s, g, N("dp2a.hi.%s.%s", ta, tb), "i32 i32 i32", "b32", 0, 0, "dp2a.hi.%s.%s $o0, $a, $b, $c;", ta, tb);
    }
    /* pack and unpack */
    add(s, g, "mov.b64 unpack", "i64", "b32 b32", 0, 0, "mov.b64 {$o0, $o1}, $a;");
    add(s, g, "mov.b64 pack", "i32 i32", "b64", 0, 0, "mov.b64 $o0, {$a, $b};");
    add(s, g, "mov.b32 unpack", "i32", "b16 b16", 0, 0, "mov.b32 {$o0, $o1}, $a;");
    add(s, g, "mov.b32 pack", "i16 i16", "b32", 0, 0, "mov.b32 $o0, {$a, $b};");
    add(s, g, "mov.b64 pack4", "i16 i16 i16 i16", "b64", 0, 0, "mov.b64 $o0, {$a, $b, $c, $d};");
    add(s, g, "mov.b64 unpack4", "i64", "b16 b16 b16 b16", 0, 0, "mov.b64 {$o0, $o1, $o2, $o3}, $a;");
    add(s, g, "mov.u32 imm", "i32", "b32 b32 b64", 0, 0,
        "mov.u32 $o0, 0xdeadbeef;\n\tmov.u32 $o1, -5;\n\tmov.u64 $o2, 0x123456789abcdef0;");
    add(s, g, "mov.f32 imm", "i32", "b32 b64", 0, 0, "mov.f32 $o0, 0f3FC00000;\n\tmov.f64 $o1, 0dBFF8000000000000;");

    /* selp and slct */
    static const char *const sp[] = {"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64",
                                     "f32", "f64"};
    for (int i = 0; i < 11; i++) {
        const char *t = sp[i];
        snprintf(ins, sizeof ins, "%s %s p", in_tok(t), in_tok(t));
        add(s, g, N("selp.%s", t), ins, out_tok(t), 0, 0, "selp.%s $o0, $a, $b, $c;", t);
        snprintf(ins, sizeof ins, "%s %s i32", in_tok(t), in_tok(t));
        add(s, g, N("slct.%s.s32", t), ins, out_tok(t), 0, 0, "slct.%s.s32 $o0, $a, $b, $c;", t);
        snprintf(ins, sizeof ins, "%s %s f32", in_tok(t), in_tok(t));
        add(s, g, N("slct.%s.f32", t), ins, out_tok(t), 0, 0, "slct.%s.f32 $o0, $a, $b, $c;", t);
        add(s, g, N("slct.ftz.%s.f32", t), ins, out_tok(t), 0, 0, "slct.ftz.%s.f32 $o0, $a, $b, $c;", t);
    }
    add(s, g, "selp.b32 !p", "i32 i32 p", "b32", 0, 0, "selp.b32 $o0, $a, $b, !$c;");

    /* immediate operands (the emulator runs common integer instructions on a fast path) */
    g = "imm";
    static const char *const im[] = {
        "add.s32 $o0, $a, 5", "add.u32 $o0, $a, -7", "sub.s32 $o0, $a, 1000", "sub.s32 $o0, 3, $a",
        "mul.lo.s32 $o0, $a, 12", "mul.lo.u32 $o0, $a, -1", "mad.lo.s32 $o0, $a, 7, $b",
        "mad.lo.s32 $o0, $a, $b, 100", "and.b32 $o0, $a, 0xff0f", "or.b32 $o0, $a, 0x80000000",
        "xor.b32 $o0, $a, -1", "shl.b32 $o0, $a, 3", "shl.b32 $o0, $a, 31", "shr.u32 $o0, $a, 5",
        "shr.s32 $o0, $a, 5", "shr.s32 $o0, $a, 31", "shr.b32 $o0, $a, 33", "mov.u32 $o0, 77",
        "min.s32 $o0, $a, 10", "max.u32 $o0, $a, 10", "min.u32 $o0, $a, $b", "div.u32 $o0, $a, 3",
        "rem.s32 $o0, $a, 5", "div.s32 $o0, $a, -4", "prmt.b32 $o0, $a, $b, 0x3210",
        "prmt.b32 $o0, $a, $b, 0x7531", "prmt.b32 $o0, $a, 0, 0x4321",
        "selp.u32 $o0, 1, 0, $c", "selp.s32 $o0, $a, -1, $c", "bfe.u32 $o0, $a, 4, 8",
        "bfe.s32 $o0, $a, 28, 4", "bfi.b32 $o0, $a, $b, 8, 4", "shf.l.wrap.b32 $o0, $a, $b, 5",
        "shf.r.clamp.b32 $o0, $a, $b, 40", "lop3.b32 $o0, $a, $b, 0x0f0f0f0f, 0x96",
        "sad.u32 $o0, $a, 100, $b",
    };
    for (unsigned i = 0; i < sizeof im / sizeof im[0]; i++)
        add(s, g, N("imm %s", im[i] + 0), "i32 i32 p", "b32", 0, 0, "%s;", im[i]);
    static const char *const im64[] = {
        "add.s64 $o0, $a, 5", "add.s64 $o0, $a, -1", "sub.s64 $o0, $a, $b", "mul.lo.u64 $o0, $a, 3",
        "shl.b64 $o0, $a, 33", "shr.u64 $o0, $a, 40", "shr.s64 $o0, $a, 63", "and.b64 $o0, $a, 0xffff0000ffff",
        "mad.lo.s64 $o0, $a, 8, $b", "min.s64 $o0, $a, 0", "mov.u64 $o0, -2",
    };
    for (unsigned i = 0; i < sizeof im64 / sizeof im64[0]; i++)
        add(s, g, N("imm %s", im64[i]), "i64 i64", "b64", 0, 0, "%s;", im64[i]);
    static const char *const imw[] = {
        "mul.wide.s32 $o0, $a, 4", "mul.wide.u32 $o0, $a, 24", "mul.wide.s32 $o0, $a, -3",
        "mul.wide.u32 $o0, $a, $b", "mul.wide.s32 $o0, $a, $b", "mad.wide.u32 $o0, $a, 16, 0x100000000",
        "cvt.u64.u32 $o0, $a", "cvt.s64.s32 $o0, $a",
    };
    for (unsigned i = 0; i < sizeof imw / sizeof imw[0]; i++)
        add(s, g, N("imm %s", imw[i]), "i32 i32", "b64", 0, 0, "%s;", imw[i]);
    static const char *const ips[] = {
        "setp.lt.s32 $o0, $a, 5", "setp.ge.s32 $o0, $a, -3", "setp.lo.u32 $o0, $a, 100",
        "setp.hs.u32 $o0, $a, 0x80000000", "setp.eq.s32 $o0, $a, 0", "setp.ne.u32 $o0, $a, 1",
        "setp.gt.s32 $o0, 7, $a", "setp.le.u32 $o0, $a, $b", "setp.ls.u32 $o0, $a, $b",
        "setp.hi.u32 $o0, $a, $b", "setp.lt.s32 $o0, $a, $b",
    };
    for (unsigned i = 0; i < sizeof ips / sizeof ips[0]; i++)
        add(s, g, N("imm %s", ips[i]), "i32 i32", "p", 0, 0, "%s;", ips[i]);
    static const char *const imf[] = {
        "add.f32 $o0, $a, 0f3F800000", "mul.rn.f32 $o0, $a, 0f40490FDB", "fma.rn.f32 $o0, $a, 0f3F000000, $b",
        "sub.f32 $o0, 0f00000000, $a", "min.f32 $o0, $a, 0f7FC00000", "max.f32 $o0, $a, 0f80000000",
        "setp.lt.f32 $p1, $a, 0f3F800000;\n\tselp.f32 $o0, $a, $b, $p1",
    };
    for (unsigned i = 0; i < sizeof imf / sizeof imf[0]; i++)
        add(s, g, N("imm %.50s", imf[i]), "f32 f32", "f32", 0, 0, "%s;", imf[i]);
    add(s, g, "imm add.f64 0d", "f64 f64", "f64", 0, 0, "add.f64 $o0, $a, 0d3FF0000000000001;");
    add(s, g, "imm guarded", "i32 i32 p", "b32", 0, 0,
        "mov.u32 $o0, $a;\n\t@$c add.s32 $o0, $o0, 1;\n\t@!$c shl.b32 $o0, $o0, 2;\n\t"
        "@$c setp.lt.s32 $p1, $o0, $b;\n\t@!$c setp.gt.s32 $p1, $o0, $b;\n\t@$p1 xor.b32 $o0, $o0, 1;");
    add(s, g, "imm loop", "i32 i32", "b32", 0, 0,
        "and.b32 $r1, $a, 31;\n\tmov.u32 $o0, 0;\nLOOP:\n\tsetp.eq.u32 $p1, $r1, 0;\n\t@$p1 bra END;\n\t"
        "add.s32 $o0, $o0, $b;\n\tshl.b32 $o0, $o0, 1;\n\tsub.s32 $r1, $r1, 1;\n\tbra LOOP;\nEND:");
}

static void compare(struct diff_set *s)
{
    char nm[64], ins[64];
    const char *g = "setp";
    static const char *const icmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"};
    static const char *const it[] = {"b16", "b32", "b64", "u16", "u32", "u64", "s16", "s32", "s64"};
    for (int i = 0; i < 9; i++)
        for (int k = 0; k < 10; k++) {
            const char *t = it[i];
            if (t[0] == 'b' && k >= 2)
                continue;
            if (t[0] == 's' && k >= 6)
                continue;
            add(s, g, N("setp.%s.%s", icmp[k], t), IN2(t), "p", 0, 0, "setp.%s.%s $o0, $a, $b;", icmp[k], t);
        }
    static const char *const fcmp[] = {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu",
                                       "leu", "gtu", "geu", "num", "nan"};
    static const char *const ft[] = {"f32", "ftz.f32", "f64", "f16", "ftz.f16", "bf16"};
    for (int i = 0; i < 6; i++)
        for (int k = 0; k < 14; k++) {
            const char *t = ft[i], *bt = strrchr(t, '.') ? strrchr(t, '.') + 1 : t;
            add(s, g, N("setp.%s.%s", fcmp[k], t), IN2(bt), "p", 0, 0, "setp.%s.%s $o0, $a, $b;", fcmp[k], t);
        }
    static const char *const ft2[] = {"f16x2", "ftz.f16x2", "bf16x2"};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 14; k++) {
            const char *t = ft2[i], *bt = strrchr(t, '.') ? strrchr(t, '.') + 1 : t;
            add(s, g, N("setp.%s.%s", fcmp[k], t), IN2(bt), "p p", 0, 0, "setp.%s.%s $o0|$o1, $a, $b;", fcmp[k], t);
        }
    /* two destinations, boolean combinations, negated operands */
    add(s, g, "setp.lt.s32 p|q", "i32 i32", "p p", 0, 0, "setp.lt.s32 $o0|$o1, $a, $b;");
    add(s, g, "setp.ltu.f32 p|q", "f32 f32", "p p", 0, 0, "setp.ltu.f32 $o0|$o1, $a, $b;");
    static const char *const bop[] = {"and", "or", "xor"};
    for (int i = 0; i < 3; i++) {
        add(s, g, N("setp.lt.%s.s32", bop[i]), "i32 i32 p", "p p", 0, 0, "setp.lt.%s.s32 $o0|$o1, $a, $b, $c;", bop[i]);
        add(s, g, N("setp.lt.%s.s32 !c", bop[i]), "i32 i32 p", "p", 0, 0, "setp.lt.%s.s32 $o0, $a, $b, !$c;", bop[i]);
        add(s, g, N("setp.gtu.%s.f32", bop[i]), "f32 f32 p", "p p", 0, 0, "setp.gtu.%s.f32 $o0|$o1, $a, $b, $c;", bop[i]);
        add(s, g, N("setp.ne.%s.f16x2", bop[i]), "f16x2 f16x2 p", "p p", 0, 0, "setp.ne.%s.f16x2 $o0|$o1, $a, $b, $c;", bop[i]);
    }
    g = "set";
    for (int k = 0; k < 14; k++) {
        add(s, g, N("set.%s.u32.f32", fcmp[k]), "f32 f32", "b32", 0, 0, "set.%s.u32.f32 $o0, $a, $b;", fcmp[k]);
        add(s, g, N("set.%s.f32.f32", fcmp[k]), "f32 f32", "f32", 0, 0, "set.%s.f32.f32 $o0, $a, $b;", fcmp[k]);
        add(s, g, N("set.%s.s32.f64", fcmp[k]), "f64 f64", "b32", 0, 0, "set.%s.s32.f64 $o0, $a, $b;", fcmp[k]);
        add(s, g, N("set.%s.ftz.u32.f32", fcmp[k]), "f32 f32", "b32", 0, 0, "set.%s.ftz.u32.f32 $o0, $a, $b;", fcmp[k]);
        add(s, g, N("set.%s.f16x2.f16x2", fcmp[k]), "f16x2 f16x2", "f16x2", 0, 0, "set.%s.f16x2.f16x2 $o0, $a, $b;", fcmp[k]);
        add(s, g, N("set.%s.u32.f16x2", fcmp[k]), "f16x2 f16x2", "b32", 0, 0, "set.%s.u32.f16x2 $o0, $a, $b;", fcmp[k]);
    }
    for (int k = 0; k < 10; k++) {
        add(s, g, N("set.%s.u32.u32", icmp[k]), "i32 i32", "b32", 0, 0, "set.%s.u32.u32 $o0, $a, $b;", icmp[k]);
        if (k < 6) {
            add(s, g, N("set.%s.f32.s32", icmp[k]), "i32 i32", "f32", 0, 0, "set.%s.f32.s32 $o0, $a, $b;", icmp[k]);
            add(s, g, N("set.%s.s32.s64", icmp[k]), "i64 i64", "b32", 0, 0, "set.%s.s32.s64 $o0, $a, $b;", icmp[k]);
        }
    }
    for (int i = 0; i < 3; i++) {
        add(s, g, N("set.lt.%s.u32.s32", bop[i]), "i32 i32 p", "b32", 0, 0, "set.lt.%s.u32.s32 $o0, $a, $b, $c;", bop[i]);
        add(s, g, N("set.lt.%s.f32.f32 !c", bop[i]), "f32 f32 p", "f32", 0, 0, "set.lt.%s.f32.f32 $o0, $a, $b, !$c;", bop[i]);
    }
}

static void floats(struct diff_set *s)
{
    char nm[64], ins[64], mods[32];
    const char *g = "f32";
    static const char *const ar[] = {"add", "sub", "mul"};
    for (int o = 0; o < 3; o++)
        for (int r = 0; r < 5; r++)
            for (int f = 0; f < 4; f++) {
                snprintf(mods, sizeof mods, "%s%s%s%s%s", r ? rnd4[r - 1] : "", r ? "." : "",
                         f & 1 ? "ftz." : "", f & 2 ? "sat." : "", "f32");
                add(s, g, N("%s.%s", ar[o], mods), "f32 f32", "f32", o < 2 ? DIFF_CANCEL : 0, 0,
                    "%s.%s $o0, $a, $b;", ar[o], mods);
            }
    for (int r = 0; r < 4; r++)
        for (int f = 0; f < 4; f++) {
            snprintf(mods, sizeof mods, "%s.%s%sf32", rnd4[r], f & 1 ? "ftz." : "", f & 2 ? "sat." : "");
            add(s, g, N("fma.%s", mods), "f32 f32 f32", "f32", DIFF_CANCEL, 0, "fma.%s $o0, $a, $b, $c;", mods);
            add(s, g, N("mad.%s", mods), "f32 f32 f32", "f32", DIFF_CANCEL, 0, "mad.%s $o0, $a, $b, $c;", mods);
        }
    g = "f32div";
    for (int f = 0; f < 2; f++) {
        const char *z = f ? "ftz." : "";
        add(s, g, N("div.approx.%sf32", z), "f32 f32", "f32", 0, TOL_DIV_APPROX, "div.approx.%sf32 $o0, $a, $b;", z);
        add(s, g, N("div.full.%sf32", z), "f32 f32", "f32", 0, TOL_DIV_FULL, "div.full.%sf32 $o0, $a, $b;", z);
        for (int r = 0; r < 4; r++) {
            add(s, g, N("div.%s.%sf32", rnd4[r], z), "f32 f32", "f32", 0, 0, "div.%s.%sf32 $o0, $a, $b;", rnd4[r], z);
            add(s, g, N("rcp.%s.%sf32", rnd4[r], z), "f32", "f32", 0, 0, "rcp.%s.%sf32 $o0, $a;", rnd4[r], z);
            add(s, g, N("sqrt.%s.%sf32", rnd4[r], z), "f32", "f32", 0, 0, "sqrt.%s.%sf32 $o0, $a;", rnd4[r], z);
        }
        add(s, g, N("rcp.approx.%sf32", z), "f32", "f32", 0, TOL_RCP_F32, "rcp.approx.%sf32 $o0, $a;", z);
        add(s, g, N("sqrt.approx.%sf32", z), "f32", "f32", 0, TOL_SQRT_F32, "sqrt.approx.%sf32 $o0, $a;", z);
        add(s, g, N("rsqrt.approx.%sf32", z), "f32", "f32", 0, TOL_RSQRT_F32, "rsqrt.approx.%sf32 $o0, $a;", z);
        add(s, g, N("sin.approx.%sf32", z), "trig", "f32", 0, TOL_SIN, "sin.approx.%sf32 $o0, $a;", z);
        add(s, g, N("cos.approx.%sf32", z), "trig", "f32", 0, TOL_COS, "cos.approx.%sf32 $o0, $a;", z);
        add(s, g, N("lg2.approx.%sf32", z), "f32", "f32", 0, TOL_LG2, "lg2.approx.%sf32 $o0, $a;", z);
        add(s, g, N("ex2.approx.%sf32", z), "ex2", "f32", 0, TOL_EX2_F32, "ex2.approx.%sf32 $o0, $a;", z);
        add(s, g, N("abs.%sf32", z), "f32", "f32", 0, 0, "abs.%sf32 $o0, $a;", z);
        add(s, g, N("neg.%sf32", z), "f32", "f32", 0, 0, "neg.%sf32 $o0, $a;", z);
        for (int n = 0; n < 4; n++) {
            snprintf(mods, sizeof mods, "%s%s%sf32", z, n & 1 ? "NaN." : "", n & 2 ? "xorsign.abs." : "");
            add(s, g, N("min.%s", mods), "f32 f32", "f32", 0, 0, "min.%s $o0, $a, $b;", mods);
            add(s, g, N("max.%s", mods), "f32 f32", "f32", 0, 0, "max.%s $o0, $a, $b;", mods);
        }
    }
    add(s, g, "tanh.approx.f32", "f32", "f32", 0, TOL_TANH_F32, "tanh.approx.f32 $o0, $a;");
    add(s, g, "copysign.f32", "f32 f32", "f32", 0, 0, "copysign.f32 $o0, $a, $b;");
    add(s, g, "copysign.f64", "f64 f64", "f64", 0, 0, "copysign.f64 $o0, $a, $b;");
    static const char *const tp[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
    for (int i = 0; i < 6; i++) {
        add(s, g, N("testp.%s.f32", tp[i]), "f32", "p", 0, 0, "testp.%s.f32 $o0, $a;", tp[i]);
        add(s, g, N("testp.%s.f64", tp[i]), "f64", "p", 0, 0, "testp.%s.f64 $o0, $a;", tp[i]);
    }

    g = "f64";
    for (int o = 0; o < 3; o++)
        for (int r = 0; r < 5; r++) {
            snprintf(mods, sizeof mods, "%s%sf64", r ? rnd4[r - 1] : "", r ? "." : "");
            add(s, g, N("%s.%s", ar[o], mods), "f64 f64", "f64", o < 2 ? DIFF_CANCEL : 0, 0, "%s.%s $o0, $a, $b;", ar[o], mods);
        }
    for (int r = 0; r < 4; r++) {
        add(s, g, N("fma.%s.f64", rnd4[r]), "f64 f64 f64", "f64", DIFF_CANCEL, 0, "fma.%s.f64 $o0, $a, $b, $c;", rnd4[r]);
        add(s, g, N("mad.%s.f64", rnd4[r]), "f64 f64 f64", "f64", DIFF_CANCEL, 0, "mad.%s.f64 $o0, $a, $b, $c;", rnd4[r]);
        add(s, g, N("div.%s.f64", rnd4[r]), "f64 f64", "f64", 0, 0, "div.%s.f64 $o0, $a, $b;", rnd4[r]);
        add(s, g, N("rcp.%s.f64", rnd4[r]), "f64", "f64", 0, 0, "rcp.%s.f64 $o0, $a;", rnd4[r]);
        add(s, g, N("sqrt.%s.f64", rnd4[r]), "f64", "f64", 0, 0, "sqrt.%s.f64 $o0, $a;", rnd4[r]);
    }
    add(s, g, "rcp.approx.ftz.f64", "f64", "f64", 0, TOL_RCP_F64, "rcp.approx.ftz.f64 $o0, $a;");
    add(s, g, "rsqrt.approx.f64", "f64", "f64", 0, TOL_RSQRT_F64, "rsqrt.approx.f64 $o0, $a;");
    add(s, g, "rsqrt.approx.ftz.f64", "f64", "f64", 0, TOL_RSQRT_F64FTZ, "rsqrt.approx.ftz.f64 $o0, $a;");
    add(s, g, "abs.f64", "f64", "f64", 0, 0, "abs.f64 $o0, $a;");
    add(s, g, "neg.f64", "f64", "f64", 0, 0, "neg.f64 $o0, $a;");
    add(s, g, "min.f64", "f64 f64", "f64", 0, 0, "min.f64 $o0, $a, $b;");
    add(s, g, "max.f64", "f64 f64", "f64", 0, 0, "max.f64 $o0, $a, $b;");

    g = "half";
    static const char *const ht[] = {"f16", "f16x2", "bf16", "bf16x2"};
    for (int t = 0; t < 4; t++) {
        const char *ty = ht[t];
        int bfl = t >= 2;
        for (int o = 0; o < 3; o++)
            for (int r = 0; r < 2; r++)
                for (int f = 0; f < (bfl ? 1 : 4); f++) {
                    snprintf(mods, sizeof mods, "%s%s%s%s", r ? "rn." : "", f & 1 ? "ftz." : "",
                             f & 2 ? "sat." : "", ty);
                    add(s, g, N("%s.%s", ar[o], mods), IN2(ty), ty, o < 2 && t == 0 ? DIFF_CANCEL : 0, 0,
                        "%s.%s $o0, $a, $b;", ar[o], mods);
                }
        for (int f = 0; f < (bfl ? 1 : 4); f++) {
            snprintf(mods, sizeof mods, "rn.%s%s%s", f & 1 ? "ftz." : "", f & 2 ? "sat." : "", ty);
            add(s, g, N("fma.%s", mods), IN3(ty), ty, t == 0 ? DIFF_CANCEL : 0, 0, "fma.%s $o0, $a, $b, $c;", mods);
        }
        for (int f = 0; f < (bfl ? 1 : 2); f++) {
            snprintf(mods, sizeof mods, "rn.%srelu.%s", f ? "ftz." : "", ty);
            add(s, g, N("fma.%s", mods), IN3(ty), ty, 0, 0, "fma.%s $o0, $a, $b, $c;", mods);
            snprintf(mods, sizeof mods, "%s%s", f ? "ftz." : "", ty);
            add(s, g, N("abs.%s", mods), in_tok(ty), ty, 0, 0, "abs.%s $o0, $a;", mods);
            add(s, g, N("neg.%s", mods), in_tok(ty), ty, 0, 0, "neg.%s $o0, $a;", mods);
            for (int n = 0; n < 4; n++) {
                snprintf(mods, sizeof mods, "%s%s%s%s", f ? "ftz." : "", n & 1 ? "NaN." : "",
                         n & 2 ? "xorsign.abs." : "", ty);
                add(s, g, N("min.%s", mods), IN2(ty), ty, 0, 0, "min.%s $o0, $a, $b;", mods);
                add(s, g, N("max.%s", mods), IN2(ty), ty, 0, 0, "max.%s $o0, $a, $b;", mods);
            }
        }
        add(s, g, N("tanh.approx.%s", ty), in_tok(ty), ty, 0, bfl ? TOL_TANH_BF16 : TOL_TANH_F16,
            "tanh.approx.%s $o0, $a;", ty);
        add(s, g, N("ex2.approx.%s%s", bfl ? "ftz." : "", ty), in_tok(ty), ty, 0,
            bfl ? TOL_EX2_BF16 : TOL_EX2_F16, "ex2.approx.%s%s $o0, $a;", bfl ? "ftz." : "", ty);
        add(s, g, N("mov.b%s %s", t & 1 ? "32" : "16", ty), in_tok(ty), ty, 0, 0, "mov.b%s $o0, $a;", t & 1 ? "32" : "16");
    }
}

static const char *reg_tok(const char *t)
{
    if (!strcmp(t, "u8") || !strcmp(t, "s8")) return "i16";
    return in_tok(t);
}

static const char *reg_out(const char *t)
{
    if (!strcmp(t, "u8") || !strcmp(t, "s8")) return "b16";
    return out_tok(t);
}

static int is_ft(const char *t) { return t[0] == 'f' || t[0] == 'b'; }

static void conversions(struct diff_set *s)
{
    char nm[64], ins[64];
    const char *g = "cvt-int";
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 8; k++) {
            const char *d = all_int[i], *a = all_int[k];
            snprintf(ins, sizeof ins, "%s", !strcmp(a, "u8") || !strcmp(a, "s8") ? "i8" : in_tok(a));
            add(s, g, N("cvt.%s.%s", d, a), ins, reg_out(d), 0, 0, "cvt.%s.%s $o0, $a;", d, a);
            /* ptxas refuses .sat where the value always fits */
            int db = atoi(d + 1), ab = atoi(a + 1);
            if ((d[0] == a[0] && db >= ab) || (d[0] == 's' && a[0] == 'u' && db > ab))
                continue;
            add(s, g, N("cvt.sat.%s.%s", d, a), ins, reg_out(d), 0, 0, "cvt.sat.%s.%s $o0, $a;", d, a);
        }
    /* f32 to tf32 (a .b32 with 13 low bits zero): ties away (.rna), even (.rn), toward zero */
    /* (.satfinite with .rn / .rz needs sm_100) */
    static const char *const tf[] = {"rna", "rna.satfinite", "rn", "rn.relu", "rz", "rz.relu"};
    for (int i = 0; i < 6; i++)
        add(s, "cvt-tf32", N("cvt.%s.tf32.f32", tf[i]), "f32", "b32", 0, 0, "cvt.%s.tf32.f32 $o0, $a;", tf[i]);
    /* the register wider than the type: the source's low bits, the destination extended */
    add(s, g, "cvt.s32.s8 r32", "i32", "b32", 0, 0, "cvt.s32.s8 $o0, $a;");
    add(s, g, "cvt.u32.u16 r32", "i32", "b32", 0, 0, "cvt.u32.u16 $o0, $a;");
    add(s, g, "cvt.s64.s16 r64", "i64", "b64", 0, 0, "cvt.s64.s16 $o0, $a;");
    add(s, g, "cvt.u8.u32 r32", "i32", "b32", 0, 0, "cvt.u8.u32 $o0, $a;");
    add(s, g, "cvt.s8.s32 r32", "i32", "b32", 0, 0, "cvt.s8.s32 $o0, $a;");
    static const char *const fl[] = {"f16", "bf16", "f32", "f64"};
    g = "cvt-i2f";
    for (int i = 0; i < 8; i++)
        for (int f = 0; f < 4; f++)
            for (int r = 0; r < 4; r++) {
                const char *a = all_int[i], *d = fl[f];
                if (f == 1 && i < 2)
                    continue; /* no bf16 from 8-bit integers */
                snprintf(ins, sizeof ins, "%s", !strcmp(a, "u8") || !strcmp(a, "s8") ? "i8" : in_tok(a));
                add(s, g, N("cvt.%s.%s.%s", rnd4[r], d, a), ins, d, 0, 0, "cvt.%s.%s.%s $o0, $a;", rnd4[r], d, a);
            }
    g = "cvt-f2i";
    for (int f = 0; f < 4; f++)
        for (int i = 0; i < 8; i++)
            for (int r = 0; r < 4; r++) {
                const char *d = all_int[i], *a = fl[f];
                if (f == 1 && i < 2)
                    continue; /* nor 8-bit integers from bf16 */
                add(s, g, N("cvt.%s.%s.%s", irnd4[r], d, a), a, reg_out(d), 0, 0, "cvt.%s.%s.%s $o0, $a;", irnd4[r], d, a);
                if (f == 2)
                    add(s, g, N("cvt.%s.ftz.%s.%s", irnd4[r], d, a), a, reg_out(d), 0, 0,
                        "cvt.%s.ftz.%s.%s $o0, $a;", irnd4[r], d, a);
            }
    g = "cvt-f2f";
    for (int f = 0; f < 4; f++)
        for (int h = 0; h < 4; h++) {
            const char *d = fl[f], *a = fl[h];
            int narrow = f < h || (f == 1 && h == 0) || (f == 0 && h == 1);
            for (int z = 0; z < 2; z++)
                for (int sat = 0; sat < 2; sat++) {
                    char m[24];
                    snprintf(m, sizeof m, "%s%s", z ? "ftz." : "", sat ? "sat." : "");
                    if ((z && f != 2 && h != 2) || (sat && (f == 1 || h == 1)))
                        continue; /* .ftz needs an f32; no .sat to or from bf16 */
                    if (f == h) {
                        for (int r = 0; r < 4; r++)
                            add(s, g, N("cvt.%s.%s%s.%s", irnd4[r], m, d, a), a, d, 0, 0,
                                "cvt.%s.%s%s.%s $o0, $a;", irnd4[r], m, d, a);
                    } else if (narrow) {
                        for (int r = 0; r < 4; r++)
                            add(s, g, N("cvt.%s.%s%s.%s", rnd4[r], m, d, a), a, d, 0, 0,
                                "cvt.%s.%s%s.%s $o0, $a;", rnd4[r], m, d, a);
                    } else {
                        add(s, g, N("cvt.%s%s.%s", m, d, a), a, d, 0, 0, "cvt.%s%s.%s $o0, $a;", m, d, a);
                    }
                }
        }
    static const char *const nar[] = {"f16", "bf16"};
    for (int t = 0; t < 2; t++) {
        const char *d = nar[t];
        for (int r = 0; r < 2; r++) { /* .rn and .rz only */
            add(s, g, N("cvt.%s.relu.%s.f32", rnd4[r], d), "f32", d, 0, 0, "cvt.%s.relu.%s.f32 $o0, $a;", rnd4[r], d);
            add(s, g, N("cvt.%s.satfinite.%s.f32", rnd4[r], d), "f32", d, 0, 0, "cvt.%s.satfinite.%s.f32 $o0, $a;", rnd4[r], d);
            add(s, g, N("cvt.%s.%sx2.f32", rnd4[r], d), "f32 f32", t ? "bf16x2" : "f16x2", 0, 0,
                "cvt.%s.%sx2.f32 $o0, $a, $b;", rnd4[r], d);
            add(s, g, N("cvt.%s.relu.%sx2.f32", rnd4[r], d), "f32 f32", t ? "bf16x2" : "f16x2", 0, 0,
                "cvt.%s.relu.%sx2.f32 $o0, $a, $b;", rnd4[r], d);
            add(s, g, N("cvt.%s.satfinite.%sx2.f32", rnd4[r], d), "f32 f32", t ? "bf16x2" : "f16x2", 0, 0,
                "cvt.%s.satfinite.%sx2.f32 $o0, $a, $b;", rnd4[r], d);
        }
    }
    (void)is_ft;
    (void)reg_tok;
}

static void memory(struct diff_set *s)
{
    char nm[64];
    const char *g = "mem";
    /* loads of every type into registers of every width it may fill */
    static const char *const lt[] = {"u8", "s8", "b8", "u16", "s16", "b16", "u32", "s32", "b32",
                                     "f32", "u64", "s64", "b64", "f64"};
    static const char *const rw[] = {"b16", "b32", "b64"};
    for (int i = 0; i < 14; i++)
        for (int r = 0; r < 3; r++) {
            const char *t = lt[i];
            int tb = atoi(t + 1), rb = atoi(rw[r] + 1);
            if (rb < tb || (t[0] == 'f' && rb != tb))
                continue;
            add(s, g, N("ld.global.%s r%d", t, rb), "i64", rw[r], 0, 0, "ld.global.%s $o0, [$Ia];", t);
            add(s, g, N("st.global.%s r%d", t, rb), rb == 16 ? "i16" : rb == 32 ? "i32" : "i64", "*b64",
                0, 0, "st.global.%s [$O0], $a;", t);
        }
    add(s, g, "ld.global.v2.u32", "i64", "b32 b32", 0, 0, "ld.global.v2.u32 {$o0, $o1}, [$Ia];");
    add(s, g, "ld.global.v4.u16", "i64", "b16 b16 b16 b16", 0, 0, "ld.global.v4.u16 {$o0, $o1, $o2, $o3}, [$Ia];");
    add(s, g, "ld.global.v2.s8", "i16", "b32 b32", 0, 0, "ld.global.v2.s8 {$o0, $o1}, [$Ia];");
    add(s, g, "ld.global.v4.s8", "i32", "b16 b16 b16 b16", 0, 0, "ld.global.v4.s8 {$o0, $o1, $o2, $o3}, [$Ia];");
    add(s, g, "ld.global.v2.f32", "i64", "f32 f32", 0, 0, "ld.global.v2.f32 {$o0, $o1}, [$Ia];");
    /* 16 bytes, aligned: the operands of cases i & ~1 and i | 1 */
    add(s, g, "ld.global.v2.u64", "i64", "b64 b64", 0, 0,
        "and.b32 $r1, $i, 1;\n\tmul.wide.u32 $R1, $r1, 8;\n\tsub.s64 $R2, %%ad2, $R1;\n\t"
        "ld.global.v2.u64 {$o0, $o1}, [$R2];");
    add(s, g, "ld.global.v4.u32", "i64", "b32 b32 b32 b32", 0, 0,
        "and.b32 $r1, $i, 1;\n\tmul.wide.u32 $R1, $r1, 8;\n\tsub.s64 $R2, %%ad2, $R1;\n\t"
        "ld.global.v4.u32 {$o0, $o1, $o2, $o3}, [$R2];");
    add(s, g, "ld.global.v2.u32 sink", "i64", "b32", 0, 0, "ld.global.v2.u32 {_, $o0}, [$Ia];");
    add(s, g, "ld.global.L1::no_allocate.u32", "i32", "b32", 0, 0, "ld.global.L1::no_allocate.u32 $o0, [$Ia];");
    add(s, g, "ld.global.nc.L2::128B.u32", "i32", "b32", 0, 0, "ld.global.nc.L2::128B.u32 $o0, [$Ia];");
    add(s, g, "st.global.cs.u32", "i32", "*b32", 0, 0, "st.global.cs.u32 [$O0], $a;");
    add(s, g, "st.global.wb.u16", "i16", "*b32", 0, 0, "st.global.wb.u16 [$O0], $a;");
    add(s, g, "fences and hints", "i32", "b32", 0, 0,
        "membar.gl;\n\tmembar.cta;\n\tfence.acq_rel.gpu;\n\tfence.sc.sys;\n\t"
        "prefetch.global.L2 [$Ia];\n\tnanosleep.u32 0;\n\tmov.b32 $o0, $a;");
    /* cp.async: shared <- global, then waited for */
    add(s, g, "cp.async.ca 4", "i32", "b32", DIFF_SHARED, 0,
        "cp.async.ca.shared.global [$S], [$Ia], 4;\n\tcp.async.commit_group;\n\t"
        "cp.async.wait_group 0;\n\tld.shared.u32 $o0, [$S];");
    add(s, g, "cp.async.ca 8", "i64", "b64", DIFF_SHARED, 0,
        "cp.async.ca.shared.global [$S], [$Ia], 8;\n\tcp.async.wait_all;\n\tld.shared.u64 $o0, [$S];");
    add(s, g, "cp.async.cg 16", "i64", "b64 b64", DIFF_SHARED, 0,
        "and.b32 $r1, $i, 1;\n\tmul.wide.u32 $R1, $r1, 8;\n\tsub.s64 $R2, %%ad2, $R1;\n\t"
        "cp.async.cg.shared.global [$S], [$R2], 16;\n\tcp.async.wait_all;\n\t"
        "ld.shared.v2.u64 {$o0, $o1}, [$S];");
    add(s, g, "cp.async.ca 8 src-size 3", "i64", "b64", DIFF_SHARED, 0,
        "cp.async.ca.shared.global [$S], [$Ia], 8, 3;\n\tcp.async.wait_all;\n\tld.shared.u64 $o0, [$S];");
    add(s, g, "shared address", "i32", "b32 b32", DIFF_SHARED, 0,
        "mov.u32 $o0, sm;\n\tsub.s32 $o1, $S, $o0;");
    add(s, g, "atom generic global", "i32 i32", "*b32 b32", 0, 0,
        "st.global.u32 [$O0], $a;\n\tcvta.global.u64 $R0, $O0;\n\tatom.add.u32 $o1, [$R0], $b;");
    add(s, g, "atom generic shared", "i32 i32", "b32 b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], $a;\n\tcvta.shared.u64 $R0, sm;\n\tcvt.u64.u32 $R1, $t;\n\t"
        "mad.lo.u64 $R0, $R1, 16, $R0;\n\tatom.max.s32 $o1, [$R0], $b;\n\tld.shared.u32 $o0, [$S];");
    add(s, g, "st.global.v2.u32", "i32 i32", "*b64", 0, 0, "st.global.v2.u32 [$O0], {$a, $b};");
    add(s, g, "st.global.v4.u16", "i16 i16 i16 i16", "*b64", 0, 0, "st.global.v4.u16 [$O0], {$a, $b, $c, $d};");
    add(s, g, "st.global.v2.u8", "i16 i16", "*b32", 0, 0, "st.global.v2.u8 [$O0], {$a, $b};");
    add(s, g, "ld.global.nc.u32", "i32", "b32", 0, 0, "ld.global.nc.u32 $o0, [$Ia];");
    add(s, g, "ldu.global.u32", "i32", "b32", 0, 0, "ldu.global.u32 $o0, [$Ia];");
    add(s, g, "ld.volatile.global.s16", "i16", "b32", 0, 0, "ld.volatile.global.s16 $o0, [$Ia];");
    add(s, g, "ld.relaxed.gpu.global.u32", "i32", "b32", 0, 0, "ld.relaxed.gpu.global.u32 $o0, [$Ia];");
    add(s, g, "ld generic global", "i32", "b32", 0, 0, "cvta.global.u64 $R0, $O0;\n\tst.u32 [$R0], $a;\n\tld.s8 $o0, [$R0+1];");
    /* shared: stored with one type, read back with another */
    add(s, g, "st.shared.u32 ld.shared.s8", "i32", "b32 b32 b32 b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], $a;\n\tld.shared.s8 $o0, [$S];\n\tld.shared.s8 $o1, [$S+1];\n\t"
        "ld.shared.u8 $o2, [$S+2];\n\tld.shared.s16 $o3, [$S+2];");
    add(s, g, "st.shared.u8 ld.shared.u32", "i32 i16", "b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], $a;\n\tst.shared.u8 [$S+1], $b;\n\tld.shared.u32 $o0, [$S];");
    add(s, g, "st.shared.v2.u32 ld.shared.u64", "i32 i32", "b64 b32", DIFF_SHARED, 0,
        "st.shared.v2.u32 [$S], {$a, $b};\n\tld.shared.u64 $o0, [$S];\n\tld.shared.u32 $o1, [$S+4];");
    add(s, g, "st.shared.v4.u32 ld.shared.v4.u16", "i32 i32 i32 i32", "b16 b16 b16 b16", DIFF_SHARED, 0,
        "st.shared.v4.u32 [$S], {$a, $b, $c, $d};\n\tld.shared.v4.u16 {$o0, $o1, $o2, $o3}, [$S+8];");
    add(s, g, "st.shared.f64 ld.shared.v2.f32", "f64", "f32 f32", DIFF_SHARED, 0,
        "st.shared.f64 [$S], $a;\n\tld.shared.v2.f32 {$o0, $o1}, [$S];");
    add(s, g, "st.shared.b16 r32", "i32", "b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], 0;\n\tst.shared.b16 [$S], $a;\n\tld.shared.u32 $o0, [$S];");
    add(s, g, "ld generic shared", "i32", "b32 p", DIFF_SHARED, 0,
        "cvta.shared.u64 $R0, sm;\n\tcvt.u64.u32 $R1, $t;\n\tmad.lo.u64 $R0, $R1, 16, $R0;\n\t"
        "st.u32 [$R0], $a;\n\tld.shared.u32 $o0, [$S];\n\tisspacep.shared $o1, $R0;");
    add(s, g, "local st ld", "i32 i64", "b32 b64 b16", DIFF_LOCAL, 0,
        "st.local.u32 [lm], $a;\n\tst.local.u64 [lm+8], $b;\n\tld.local.s16 $o0, [lm+2];\n\t"
        "ld.local.u64 $o1, [lm+8];\n\tld.local.s8 $o2, [lm+9];");
    add(s, g, "local generic", "i32", "b32 p p", DIFF_LOCAL, 0,
        "cvta.local.u64 $R0, lm;\n\tst.u32 [$R0+4], $a;\n\tld.local.u32 $o0, [lm+4];\n\t"
        "isspacep.local $o1, $R0;\n\tisspacep.global $o2, $R0;");
    add(s, g, "isspacep global", "i32", "p p p", 0, 0,
        "isspacep.global $o0, $O0;\n\tisspacep.shared $o1, $O0;\n\tisspacep.local $o2, $O0;");
}

static void atomics(struct diff_set *s)
{
    char nm[64], ins[64], body[600];
    struct at {
        const char *op, *t, *in;
    };
    static const struct at ats[] = {
        {"add", "u32", "i32"}, {"add", "s32", "i32"}, {"add", "u64", "i64"}, {"add", "f32", "f32"},
        {"add", "f64", "f64"}, {"add.noftz", "f16", "f16"}, {"add.noftz", "f16x2", "f16x2"},
        {"add.noftz", "bf16", "bf16"}, {"add.noftz", "bf16x2", "bf16x2"}, {"inc", "u32", "i32"},
        {"dec", "u32", "i32"}, {"min", "u32", "i32"}, {"min", "s32", "i32"}, {"min", "u64", "i64"},
        {"min", "s64", "i64"}, {"max", "u32", "i32"}, {"max", "s32", "i32"}, {"max", "u64", "i64"},
        {"max", "s64", "i64"}, {"and", "b32", "i32"}, {"or", "b32", "i32"}, {"xor", "b32", "i32"},
        {"and", "b64", "i64"}, {"or", "b64", "i64"}, {"xor", "b64", "i64"}, {"exch", "b32", "i32"},
        {"exch", "b64", "i64"}, {"cas", "b32", "i32"}, {"cas", "b64", "i64"}, {"cas", "b16", "i16"},
    };
    for (unsigned i = 0; i < sizeof ats / sizeof ats[0]; i++)
        for (int sh = 0; sh < 2; sh++)
            for (int red = 0; red < 2; red++) {
                const struct at *a = &ats[i];
                int cas = !strcmp(a->op, "cas");
                if (red && (cas || !strcmp(a->op, "exch")))
                    continue;
                const char *o = out_tok(a->t), *w = o;
                snprintf(ins, sizeof ins, "%s %s%s%s", a->in, a->in, cas ? " " : "", cas ? a->in : "");
                char outs[32];
                if (sh)
                    snprintf(outs, sizeof outs, red ? "%s" : "%s %s", w, w);
                else
                    snprintf(outs, sizeof outs, red ? "*%s" : "*%s %s", w, w);
                const char *sp = sh ? "shared" : "global";
                char st[16];
                snprintf(st, sizeof st, "b%d",
                         8 * find_tok(out_toks, sizeof out_toks / sizeof out_toks[0], o)->w);
                /* memory holds $a, the atomic applies $b ($c), the result and memory are kept */
                if (sh)
                    snprintf(body, sizeof body,
                             "st.shared.%s [$S], $a;\n\t%s.shared.%s.%s %s[$S], $b%s%s;\n\t"
                             "ld.shared.%s $o0, [$S];", st, red ? "red" : "atom", a->op, a->t,
                             red ? "" : "$o1, ", cas ? ", " : "", cas ? "$c" : "", st);
                else
                    snprintf(body, sizeof body,
                             "st.global.%s [$O0], $a;\n\t%s.global.%s.%s %s[$O0], $b%s%s;", st,
                             red ? "red" : "atom", a->op, a->t, red ? "" : "$o1, ", cas ? ", " : "",
                             cas ? "$c" : "");
                add(s, "atom", N("%s.%s.%s.%s", red ? "red" : "atom", sp, a->op, a->t), ins, outs,
                    sh ? DIFF_SHARED : 0, 0, "%s", body);
            }
    /* contention: eight threads on one word, whose final value does not depend on their order */
    static const struct at cont[] = {
        {"add", "u32", "i32"}, {"add", "u64", "i64"}, {"and", "b32", "i32"}, {"or", "b32", "i32"},
        {"xor", "b32", "i32"}, {"min", "u32", "i32"}, {"max", "s32", "i32"}, {"min", "s64", "i64"},
        {"inc", "u32", "i32"}, {"dec", "u32", "i32"},
    };
    for (unsigned i = 0; i < sizeof cont / sizeof cont[0]; i++)
        for (int sh = 0; sh < 2; sh++) {
            const struct at *a = &cont[i];
            const char *o = out_tok(a->t);
            int bits = atoi(o + 1);
            int inc = !strcmp(a->op, "inc") || !strcmp(a->op, "dec");
            /* the first of eight threads sets the word; all apply their $b (inc/dec: the first's) */
            if (sh)
                snprintf(body, sizeof body,
                         "and.b32 $r1, $t, 7;\n\tsetp.eq.u32 $p1, $r1, 0;\n\tand.b32 $r2, $t, -8;\n\t"
                         "mov.u32 $r3, sm;\n\tmad.lo.s32 $r3, $r2, 16, $r3;\n\t"
                         "@$p1 st.shared.b%d [$r3], $a;\n\tbar.sync 0;\n\t%s"
                         "red.shared.%s.%s [$r3], %s;\n\tbar.sync 0;\n\tld.shared.b%d $o0, [$r3];",
                         bits, inc ? "mov.u32 $r4, 37;\n\t" : "", a->op, a->t, inc ? "$r4" : "$b", bits);
            else
                snprintf(body, sizeof body,
                         "and.b32 $r1, $t, 7;\n\tsetp.eq.u32 $p1, $r1, 0;\n\tcvt.u64.u32 $R1, $r1;\n\t"
                         "mul.lo.u64 $R1, $R1, %d;\n\tsub.u64 $R2, $O0, $R1;\n\t"
                         "@$p1 st.global.b%d [$R2], $a;\n\tbar.sync 0;\n\t%s"
                         "red.global.%s.%s [$R2], %s;\n\tbar.sync 0;",
                         bits / 8, bits, inc ? "mov.u32 $r4, 37;\n\t" : "", a->op, a->t,
                         inc ? "$r4" : "$b");
            snprintf(ins, sizeof ins, "%s %s", a->in, a->in);
            char outs[16];
            snprintf(outs, sizeof outs, "%s%s", sh ? "" : "*", o);
            add(s, "atom", N("red.%s.%s.%s x8", sh ? "shared" : "global", a->op, a->t), ins, outs,
                sh ? DIFF_SHARED : 0, 0, "%s", body);
        }
}

static void warp(struct diff_set *s)
{
    char nm[64];
    const char *g = "warp";
    static const char *const md[] = {"up", "down", "bfly", "idx"};
    for (int m = 0; m < 4; m++) {
        add(s, g, N("shfl.sync.%s.b32", md[m]), "i32 lbw lc", "b32 p", 0, 0,
            "shfl.sync.%s.b32 $o0|$o1, $a, $b, $c, 0xffffffff;", md[m]);
        add(s, g, N("shfl.sync.%s.b32 lane per thread", md[m]), "i32 lb lc", "b32 p", 0, 0,
            "shfl.sync.%s.b32 $o0|$o1, $a, $b, $c, -1;", md[m]);
        add(s, g, N("shfl.sync.%s.b32 no p", md[m]), "i32 lbw", "b32", 0, 0,
            "shfl.sync.%s.b32 $o0, $a, $b, %s, -1;", md[m], m ? "0x1f" : "0");
        /* the first k lanes take part; a source lane outside them is undefined */
        add(s, g, N("shfl.sync.%s.b32 partial", md[m]), "i32 lb lc k", "b32 p", DIFF_UNDEF_OK, 0,
            "setp.ge.u32 $p1, $l, $d;\n\t@$p1 ret;\n\tshl.b32 $r1, 1, $d;\n\tsub.s32 $r1, $r1, 1;\n\t"
            "shfl.sync.%s.b32 $o0|$o1, $a, $b, $c, $r1;", md[m]);
    }
    add(s, g, "shfl.sync.idx.b32 imm", "i32", "b32 b32", 0, 0,
        "shfl.sync.idx.b32 $o0, $a, 5, 0x1f, -1;\n\tshfl.sync.bfly.b32 $o1, $a, 0x11, 0x1f, -1;");
    static const char *const vm[] = {"all", "any", "uni"};
    for (int m = 0; m < 3; m++) {
        add(s, g, N("vote.sync.%s.pred", vm[m]), "wp", "p", 0, 0, "vote.sync.%s.pred $o0, $a, -1;", vm[m]);
        add(s, g, N("vote.sync.%s.pred !a", vm[m]), "wp", "p", 0, 0, "vote.sync.%s.pred $o0, !$a, -1;", vm[m]);
        add(s, g, N("vote.sync.%s.pred partial", vm[m]), "wp k", "p", 0, 0,
            "setp.ge.u32 $p1, $l, $b;\n\t@$p1 ret;\n\tshl.b32 $r1, 1, $b;\n\tsub.s32 $r1, $r1, 1;\n\t"
            "vote.sync.%s.pred $o0, $a, $r1;", vm[m]);
    }
    add(s, g, "vote.sync.ballot.b32", "wp", "b32", 0, 0, "vote.sync.ballot.b32 $o0, $a, -1;");
    add(s, g, "vote.sync.ballot.b32 !a", "wp", "b32", 0, 0, "vote.sync.ballot.b32 $o0, !$a, -1;");
    add(s, g, "vote.sync.ballot.b32 partial", "wp k", "b32", 0, 0,
        "setp.ge.u32 $p1, $l, $b;\n\t@$p1 ret;\n\tshl.b32 $r1, 1, $b;\n\tsub.s32 $r1, $r1, 1;\n\t"
        "vote.sync.ballot.b32 $o0, $a, $r1;");
    add(s, g, "activemask.b32 exited", "wp", "b32", 0, 0, "@!$a ret;\n\tactivemask.b32 $o0;");
    add(s, g, "activemask.b32 exit", "wp", "b32", 0, 0, "@!$a exit;\n\tactivemask.b32 $o0;");
    add(s, g, "activemask.b32 branches", "wp", "b32 b32", 0, 0,
        "mov.b32 $o1, 0;\n\t@$a bra ELSE;\n\tactivemask.b32 $o0;\n\tbra DONE;\nELSE:\n\t"
        "activemask.b32 $o0;\n\tmov.b32 $o1, 1;\nDONE:");
    add(s, g, "bar.warp.sync", "i32", "b32", 0, 0, "bar.warp.sync -1;\n\tmov.b32 $o0, $a;");
    static const char *const mt[] = {"b32", "b64"};
    for (int t = 0; t < 2; t++) {
        const char *cl = t ? "m64" : "m32";
        add(s, g, N("match.any.sync.%s", mt[t]), cl, "b32", 0, 0, "match.any.sync.%s $o0, $a, -1;", mt[t]);
        add(s, g, N("match.all.sync.%s", mt[t]), cl, "b32 p", 0, 0, "match.all.sync.%s $o0|$o1, $a, -1;", mt[t]);
        add(s, g, N("match.all.sync.%s no p", mt[t]), cl, "b32", 0, 0, "match.all.sync.%s $o0, $a, -1;", mt[t]);
        char ins[16];
        snprintf(ins, sizeof ins, "%s k", cl);
        add(s, g, N("match.any.sync.%s partial", mt[t]), ins, "b32", 0, 0,
            "setp.ge.u32 $p1, $l, $b;\n\t@$p1 ret;\n\tshl.b32 $r1, 1, $b;\n\tsub.s32 $r1, $r1, 1;\n\t"
            "match.any.sync.%s $o0, $a, $r1;", mt[t]);
    }
    static const char *const rx[] = {"add.u32", "add.s32", "min.u32", "min.s32", "max.u32",
                                     "max.s32", "and.b32", "or.b32", "xor.b32"};
    for (int i = 0; i < 9; i++) {
        add(s, g, N("redux.sync.%s", rx[i]), "i32", "b32", 0, 0, "redux.sync.%s $o0, $a, -1;", rx[i]);
        add(s, g, N("redux.sync.%s partial", rx[i]), "i32 k", "b32", 0, 0,
            "setp.ge.u32 $p1, $l, $b;\n\t@$p1 ret;\n\tshl.b32 $r1, 1, $b;\n\tsub.s32 $r1, $r1, 1;\n\t"
            "redux.sync.%s $o0, $a, $r1;", rx[i]);
    }
    g = "block";
    add(s, g, "bar.red.popc.u32", "bp", "b32", 0, 0, "bar.red.popc.u32 $o0, 0, $a;");
    add(s, g, "bar.red.popc.u32 !c", "bp", "b32", 0, 0, "bar.red.popc.u32 $o0, 1, !$a;");
    add(s, g, "bar.red.and.pred", "bp", "p", 0, 0, "bar.red.and.pred $o0, 0, $a;");
    add(s, g, "bar.red.or.pred", "bp", "p", 0, 0, "bar.red.or.pred $o0, 2, $a;");
    add(s, g, "bar.red.or.pred !c", "bp", "p", 0, 0, "bar.red.or.pred $o0, 0, !$a;");
    add(s, g, "bar.sync shared", "i32", "b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], $a;\n\tbar.sync 0;\n\txor.b32 $r1, $t, 1;\n\tmov.u32 $r2, sm;\n\t"
        "mad.lo.s32 $r2, $r1, 16, $r2;\n\tld.shared.u32 $o0, [$r2];");
    /* special registers, in a 3-D block and grid with dynamic shared memory */
    struct diff_combo *c = add(s, g, "special registers", "i32", "b32 b32 b32 b32 b32 b32 b32 b32", 0, 0,
        "mov.u32 $o0, %%tid.x;\n\tmov.u32 $r1, %%tid.y;\n\tmov.u32 $r2, %%tid.z;\n\t"
        "prmt.b32 $o0, $o0, $r1, 0x0040;\n\tprmt.b32 $o0, $o0, $r2, 0x0410;\n\t"
        "mov.u32 $o1, %%ctaid.x;\n\tmov.u32 $r1, %%ctaid.y;\n\tmov.u32 $r2, %%ctaid.z;\n\t"
        "prmt.b32 $o1, $o1, $r1, 0x0040;\n\tprmt.b32 $o1, $o1, $r2, 0x0410;\n\t"
        "mov.u32 $o2, %%nctaid.x;\n\tmov.u32 $r1, %%ntid.y;\n\tprmt.b32 $o2, $o2, $r1, 0x0040;\n\t"
        "mov.u32 $o3, %%laneid;\n\tmov.u32 $o4, %%lanemask_lt;\n\tmov.u32 $o5, %%lanemask_ge;\n\t"
        "mov.u32 $o6, %%lanemask_gt;\n\tmov.u32 $r1, %%lanemask_le;\n\tmov.u32 $r2, %%lanemask_eq;\n\t"
        "xor.b32 $o6, $o6, $r1;\n\txor.b32 $o6, $o6, $r2;\n\tmov.u32 $o7, %%dynamic_smem_size;");
    if (c) {
        c->block[0] = 6; c->block[1] = 5; c->block[2] = 3;  /* 90 threads: a partial warp */
        c->grid[0] = 3; c->grid[1] = 2; c->grid[2] = 2;
        c->ncases = 90 * 12;
        c->dyn_smem = 1000;
    }
    c = add(s, g, "special registers smem", "i32", "b32 b32", DIFF_SHARED, 0,
            "mov.u32 $o0, %%total_smem_size;\n\tmov.u32 $o1, %%dynamic_smem_size;\n\t"
            "st.shared.u32 [$S], $a;");
    if (c)
        c->dyn_smem = 3000;
    add(s, g, "nwarpid", "i32", "b32", 0, 0, "mov.u32 $o0, %%nwarpid;");
}

/* Where shared variables land: the addresses a kernel sees (mov.u32 %r, var) for static layouts of
 * every kind and the dynamic allocation after them (1000 bytes). */
static void layout(struct diff_set *s)
{
    const char *g = "layout";
    struct lay {
        const char *name, *prelude, *decls, *outs, *movs;
    };
    static const struct lay ls[] = {
        {"layout dynamic only", ".extern .shared .align 16 .b8 dynA[];", "", "b32", "mov.u32 $o0, dynA;"},
        {"layout 4 + dynamic", ".extern .shared .align 16 .b8 dynB[];",
         ".shared .align 4 .b8 sA[4];", "b32 b32", "mov.u32 $o0, sA;\n\tmov.u32 $o1, dynB;"},
        {"layout 100 + dynamic align 4", ".extern .shared .align 4 .b8 dynC[];",
         ".shared .align 4 .b8 sB[100];", "b32 b32", "mov.u32 $o0, sB;\n\tmov.u32 $o1, dynC;"},
        {"layout 1000 + dynamic align 8", ".extern .shared .align 8 .b8 dynD[];",
         ".shared .align 8 .b8 sC[1000];", "b32 b32", "mov.u32 $o0, sC;\n\tmov.u32 $o1, dynD;"},
        {"layout 4100 + dynamic align 128", ".extern .shared .align 128 .b8 dynE[];",
         ".shared .align 4 .b8 sD[4100];", "b32 b32", "mov.u32 $o0, sD;\n\tmov.u32 $o1, dynE;"},
        {"layout three statics", ".extern .shared .align 16 .b8 dynF[];",
         ".shared .align 4 .b8 lA[3];\n\t.shared .align 16 .b8 lB[20];\n\t.shared .align 8 .b8 lC[8];",
         "b32 b32 b32 b32",
         "mov.u32 $o0, lA;\n\tmov.u32 $o1, lB;\n\tmov.u32 $o2, lC;\n\tmov.u32 $o3, dynF;"},
        {"layout module and function statics",
         ".extern .shared .align 16 .b8 dynG[];\n.shared .align 4 .b8 modA[12];",
         ".shared .align 8 .b8 fnA[40];", "b32 b32 b32",
         "mov.u32 $o0, modA;\n\tmov.u32 $o1, fnA;\n\tmov.u32 $o2, dynG;"},
        {"layout five statics", ".extern .shared .align 16 .b8 dynH[];",
         ".shared .align 1 .b8 xA[1];\n\t.shared .align 2 .b8 xB[2];\n\t.shared .align 16 .b8 xC[256];\n\t"
         ".shared .align 2 .b8 xD[6];\n\t.shared .align 64 .b8 xE[64];",
         "b32 b32 b32 b32 b32 b32",
         "mov.u32 $o0, xA;\n\tmov.u32 $o1, xB;\n\tmov.u32 $o2, xC;\n\tmov.u32 $o3, xD;\n\t"
         "mov.u32 $o4, xE;\n\tmov.u32 $o5, dynH;"},
        {"layout unused static", ".extern .shared .align 16 .b8 dynI[];",
         ".shared .align 4 .b8 uA[64];\n\t.shared .align 4 .b8 uB[16];", "b32 b32",
         "mov.u32 $o0, uB;\n\tmov.u32 $o1, dynI;"},
        {"layout static, no dynamic", "", ".shared .align 4 .b8 nA[36];\n\t.shared .align 4 .b8 nB[8];",
         "b32 b32", "mov.u32 $o0, nA;\n\tmov.u32 $o1, nB;"},
    };
    for (unsigned i = 0; i < sizeof ls / sizeof ls[0]; i++) {
        struct diff_combo *c = add(s, g, ls[i].name, "i32", ls[i].outs, 0, 0, "%s\n\t%s", ls[i].decls,
                                   ls[i].movs);
        if (c) {
            snprintf(c->prelude, sizeof c->prelude, "%s", ls[i].prelude);
            c->dyn_smem = ls[i].prelude[0] ? 1000 : 0;
            c->ncases = 128;
            c->grid[0] = 1;
        }
    }
}

/* Named barriers with thread counts, and warp collectives in divergent branches. */
static void partial(struct diff_set *s)
{
    add(s, "block", "bar.red.popc.u32 count", "bp", "b32", 0, 0,
        "setp.lt.u32 $p1, $t, 64;\n\t@$p1 bar.red.popc.u32 $o0, 1, 64, $a;\n\t"
        "@!$p1 bar.red.popc.u32 $o0, 2, 64, $a;");
    add(s, "block", "bar.red.and.pred count", "bp", "p", 0, 0,
        "setp.lt.u32 $p1, $t, 32;\n\t@$p1 bar.red.and.pred $o0, 3, 32, $a;\n\t"
        "@!$p1 bar.red.or.pred $o0, 4, 96, $a;");
    add(s, "block", "bar.sync count", "i32", "b32", DIFF_SHARED, 0,
        "st.shared.u32 [$S], $a;\n\tsetp.lt.u32 $p1, $t, 64;\n\t@$p1 bar.sync 1, 64;\n\t"
        "@!$p1 bar.sync 2, 64;\n\txor.b32 $r1, $t, 33;\n\tmov.u32 $r2, sm;\n\t"
        "mad.lo.s32 $r2, $r1, 16, $r2;\n\tld.shared.u32 $o0, [$r2];");
    const char *g = "warp";
    add(s, g, "vote.sync.ballot.b32 branches", "wp p", "b32", 0, 0,
        "@$a bra ELSE;\n\tactivemask.b32 $r1;\n\tvote.sync.ballot.b32 $o0, $b, $r1;\n\tbra DONE;\n"
        "ELSE:\n\tactivemask.b32 $r1;\n\tvote.sync.ballot.b32 $o0, !$b, $r1;\nDONE:");
    add(s, g, "shfl.sync.idx.b32 branches", "wp i32 lb", "b32 p", DIFF_UNDEF_OK, 0,
        "@$a bra ELSE;\n\tactivemask.b32 $r1;\n\tshfl.sync.idx.b32 $o0|$o1, $b, $c, 0x1f, $r1;\n\t"
        "bra DONE;\nELSE:\n\tactivemask.b32 $r1;\n\tshfl.sync.down.b32 $o0|$o1, $b, 1, 0x1f, $r1;\nDONE:");
    add(s, g, "match.any.sync.b32 branches", "wp m32", "b32", 0, 0,
        "@$a bra ELSE;\n\tactivemask.b32 $r1;\n\tmatch.any.sync.b32 $o0, $b, $r1;\n\tbra DONE;\n"
        "ELSE:\n\tactivemask.b32 $r1;\n\tmatch.any.sync.b32 $o0, $b, $r1;\nDONE:");
    add(s, g, "redux.sync.add.u32 branches", "wp i32", "b32", 0, 0,
        "@$a bra ELSE;\n\tactivemask.b32 $r1;\n\tredux.sync.add.u32 $o0, $b, $r1;\n\tbra DONE;\n"
        "ELSE:\n\tactivemask.b32 $r1;\n\tredux.sync.max.s32 $o0, $b, $r1;\nDONE:");
}

/* What the emulator refuses (tests/diff/refused.txt): every case must be refused with a located
 * message; the GPU need not run them. */
static void refused(struct diff_set *s)
{
    const char *g = "refused";
    add(s, g, "ld.global.b128", "i64", "b64 b64", DIFF_B128, 0,
        "and.b32 $r1, $i, 1;\n\tmul.wide.u32 $R1, $r1, 8;\n\tsub.s64 $R2, %%ad2, $R1;\n\t"
        "ld.global.b128 %%q0, [$R2];\n\tmov.b128 {$o0, $o1}, %%q0;");
    add(s, g, "st.shared.b128", "i64 i64", "b64 b64", DIFF_B128 | DIFF_SHARED, 0,
        "mov.b128 %%q0, {$a, $b};\n\tst.shared.b128 [$S], %%q0;\n\tld.shared.v2.u64 {$o0, $o1}, [$S];");
    add(s, g, "mov.b128", "i64 i64", "b64 b64", DIFF_B128, 0,
        "mov.b128 %%q0, {$a, $b};\n\tmov.b128 {$o0, $o1}, %%q0;");
    add(s, g, "atom.global.v2.f16x2.add.noftz", "f16x2 f16x2 f16x2 f16x2", "*b64 b32 b32", 0, 0,
        "mov.b64 $R1, {$a, $b};\n\tst.global.b64 [$O0], $R1;\n\t"
        "atom.global.v2.f16x2.add.noftz {$o1, $o2}, [$O0], {$c, $d};");
    add(s, g, "red.global.v2.f32.add", "f32 f32", "*b64", 0, 0,
        "st.global.v2.f32 [$O0], {$a, $b};\n\tred.global.v2.f32.add [$O0], {$a, $b};");
    add(s, g, "fma.rn.oob.f16", "f16 f16 f16", "f16", 0, 0, "fma.rn.oob.f16 $o0, $a, $b, $c;");
    add(s, g, "fma.rn.oob.relu.bf16", "bf16 bf16 bf16", "bf16", 0, 0, "fma.rn.oob.relu.bf16 $o0, $a, $b, $c;");
    add(s, g, "bar.arrive", "i32", "b32", 0, 0, "bar.arrive 1, 128;\n\tmov.b32 $o0, $a;");
}

int diff_build(struct diff_set *s)
{
    memset(s, 0, sizeof *s);
    failed = 0;
    integer(s);
    compare(s);
    floats(s);
    conversions(s);
    memory(s);
    atomics(s);
    warp(s);
    layout(s);
    partial(s);
    refused(s);
    if (failed) {
        diff_free(s);
        return -1;
    }
    return 0;
}
