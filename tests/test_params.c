/* test_params.c: kernel parameters by the names the compiler saw (analysis/params.c), without
 * nvcc: preprocessed text as nvcc -E writes it (macros expanded, __global__ spelled
 * __attribute__((global)), line markers), PTX entries and demangled signatures as cu++filt gives
 * them. The scanner, the matching of entries to declarations, the value checks, the binding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smemlab/analysis/params.h"
#include "smemlab/ptx/ptx.h"

/* A PTX module with one entry per "symbol:.u64,.u32,..." (a by-value struct: ".b8[8]"). */
static struct smem_ptx_module *module(const char *const *entries, unsigned n)
{
    char text[8192];
    size_t l = (size_t)snprintf(text, sizeof text, ".version 8.0\n.target sm_90\n.address_size 64\n");
    for (unsigned i = 0; i < n; i++) {
        char sym[200], types[400];
        const char *colon = strchr(entries[i], ':');
        snprintf(sym, sizeof sym, "%.*s", (int)(colon - entries[i]), entries[i]);
        snprintf(types, sizeof types, "%s", colon + 1);
        l += (size_t)snprintf(text + l, sizeof text - l, ".visible .entry %s(\n", sym);
        unsigned j = 0;
        for (char *save = NULL, *t = strtok_r(types, ",", &save); t; t = strtok_r(NULL, ",", &save), j++) {
            unsigned bytes;
            if (sscanf(t, ".b8[%u]", &bytes) == 1)
                l += (size_t)snprintf(text + l, sizeof text - l, "%s\t.param .align 4 .b8 %s_param_%u[%u]",
                                      j ? ",\n" : "", sym, j, bytes);
            else
                l += (size_t)snprintf(text + l, sizeof text - l, "%s\t.param %s %s_param_%u", j ? ",\n" : "",
                                      t, sym, j);
        }
        l += (size_t)snprintf(text + l, sizeof text - l, "\n)\n{\n\tret;\n}\n");
    }
    struct smem_ptx_module *m = NULL;
    struct smem_error err;
    if (smem_ptx_parse(text, l, "test.ptx", &m, &err)) {
        char buf[1200];
        fprintf(stderr, "%s\n", smem_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    return m;
}

/* The signature of entry `sym` of m, demangled as `dem`, named from pp. */
static const char *sig_of(const char *pp, const struct smem_ptx_module *m, const char *sym,
                          const char *dem, struct smem_ksig *s, char *buf, size_t size)
{
    struct smem_pp_unit *u = pp ? smem_pp_scan(pp, strlen(pp)) : NULL;
    const struct smem_ptx_func *f = smem_ptx_find(m, sym);
    CHECK(f != NULL);
    if (!f || smem_ksig_build(u, f, dem, s)) {
        smem_pp_unit_free(u);
        snprintf(buf, size, "?");
        return buf;
    }
    smem_pp_unit_free(u);
    return smem_ksig_format(s, buf, size);
}

/* What nvcc -E writes for the H100 measurement programs: the kernel comes from a macro. */
static const char *const pp_macro =
    "# 1 \"smem_patterns.cu\"\n"
    "# 1 \"common.h\" 1\n"
    "typedef unsigned char __uint8_t;\n"
    "typedef __uint8_t uint8_t;\n"
    "typedef long unsigned int size_t;\n"
    "# 25 \"smem_patterns.cu\" 2\n"
    "\n"
    "__attribute__((global)) void tile_col_plain(unsigned char* out, int p) { "
    "__attribute__((shared)) __attribute__((aligned(16))) unsigned smem[4160]; "
    "const char *s = \"}{ ( \\\" ;\"; char c = '}'; "
    "reinterpret_cast<int*>(out)[threadIdx.x] = ((const int *)smem)[threadIdx.x * 32 + p]; }\n";

static void test_macro_made_kernel_is_named(void)
{
    static const char *const e[] = {"_Z14tile_col_plainPhi:.u64,.u32"};
    struct smem_ptx_module *m = module(e, 1);
    CHECK(m != NULL);
    if (!m)
        return;
    struct smem_ksig s;
    char buf[300];
    CHECK_STR(sig_of(pp_macro, m, "_Z14tile_col_plainPhi", "tile_col_plain(unsigned char*, int)",
                     &s, buf, sizeof buf),
              "tile_col_plain(unsigned char* out, int p)");
    CHECK(s.named);
    CHECK_STR(s.file, "smem_patterns.cu");
    CHECK_EQ(s.line, 26);
    CHECK_EQ(s.params[0].kind, SMEM_PARAM_POINTER);
    CHECK_EQ(s.params[1].kind, SMEM_PARAM_INT);
    CHECK_EQ(s.params[1].bytes, 4);
    CHECK_EQ(s.params[1].is_signed, 1);
    smem_ksig_free(&s);
    /* without the source: types from the demangled name, no names */
    CHECK_STR(sig_of(NULL, m, "_Z14tile_col_plainPhi", "tile_col_plain(unsigned char*, int)", &s,
                     buf, sizeof buf),
              "tile_col_plain(unsigned char*, int)");
    CHECK(!s.named);
    smem_ksig_free(&s);
    smem_ptx_free(m);
}

static const char *const pp_cxx =
    "# 1 \"k.cu\"\n"
    "template <typename T, unsigned N>\n"
    "__attribute__((global)) void __attribute__((launch_bounds(256))) tmpl(const T* __restrict__ in, "
    "T* out, int stride = (3 > 1 ? 3 : 1), Foo<int, 2> f = {}) { }\n"
    "template __attribute__((global)) void tmpl<float, 128u>(const float*, float*, int, Foo<int, 2>);\n"
    "namespace lab { namespace { __attribute__((global)) void anon(int n) {} }\n"
    "  __attribute__((global)) void inner(int n); }\n"
    "__attribute__((global)) void lab::inner(int n2) { }\n"
    "namespace a::b { inline namespace v1 { __attribute__((global)) void deep(long x) {} } }\n"
    "template <typename... Ts> __attribute__((global)) void pack(int first, Ts... rest) {}\n"
    "__attribute__((global)) void unnamed(int, float*) {}\n"
    "__attribute__((global)) void ov(int a) {}\n"
    "__attribute__((global)) void ov(float b, int c) {}\n"
    "__attribute__((global)) void ov(unsigned b2) {}\n"
    "template <typename T> __attribute__((global)) void spec(T x) {}\n"
    "template <> __attribute__((global)) void spec<int>(int y) {}\n"
    "__attribute__((global)) void fp(int (*f)(int), int arr[4], const int *const q) {}\n"
    "__attribute__((global)) void attr([[maybe_unused]] int a, float __attribute__((unused)) b) {}\n"
    "extern \"C\" {\n"
    "__attribute__((global)) void cblock(uint8_t a, size_t n) {}\n"
    "}\n"
    "typedef unsigned char uint8_t; typedef long unsigned int size_t;\n"
    "struct S { void member(int z) {} };\n"
    "void host(int h) { }\n";

static void test_cxx_declarations(void)
{
    static const char *const e[] = {
        "_Z4tmplIfLj128EEvPKT_PS0_i3FooIiLi2EE:.u64,.u64,.u32,.b8[8]",
        "_ZN3lab5innerEi:.u32",
        "_ZN3lab36_GLOBAL__N__7e5dcf22_4_t_cu_1b8c9b714anonEi:.u32",
        "_ZN1a1b2v14deepEl:.u64",
        "_Z4packIJifEEviDpT_:.u32,.u32,.f32",
        "_Z7unnamediPf:.u32,.u64",
        "_Z2ovi:.u32",
        "_Z2ovfi:.f32,.u32",
        "_Z2ovj:.u32",
        "_Z4specIiEvT_:.u32",
        "_Z4specIfEvT_:.f32",
        "_Z2fpPFiiEPiPKi:.u64,.u64,.u64",
        "cblock:.u8,.u64",
        "_Z4attrif:.u32,.f32",
    };
    static const char *const want[][2] = {
        {"void tmpl<float, 128u>(float const*, float*, int, Foo<int, 2>)",
         "tmpl<float, 128u>(float const* in, float* out, int stride, Foo<int, 2> f)"},
        {"lab::inner(int)", "lab::inner(int n2)"},
        {"lab::(anonymous namespace)::anon(int)", "lab::(anonymous namespace)::anon(int n)"},
        {"a::b::v1::deep(long)", "a::b::v1::deep(long x)"},
        {"void pack<int, float>(int, int, float)", "pack<int, float>(int first, int rest[0], float rest[1])"},
        {"unnamed(int, float*)", "unnamed(int, float*)"},
        {"ov(int)", "ov(int a)"},
        {"ov(float, int)", "ov(float b, int c)"},
        {"ov(unsigned int)", "ov(unsigned int b2)"},
        {"void spec<int>(int)", "spec<int>(int y)"},
        {"void spec<float>(float)", "spec<float>(float x)"},
        {"fp(int (*)(int), int*, int const*)", "fp(int (*)(int) f, int* arr, int const* q)"},
        {"cblock", "cblock(uint8_t a, size_t n)"},
        {"attr(int, float)", "attr(int a, float b)"},
    };
    unsigned n = sizeof e / sizeof e[0];
    struct smem_ptx_module *m = module(e, n);
    CHECK(m != NULL);
    if (!m)
        return;
    for (unsigned i = 0; i < n; i++) {
        char sym[200], buf[400];
        snprintf(sym, sizeof sym, "%.*s", (int)(strchr(e[i], ':') - e[i]), e[i]);
        struct smem_ksig s;
        const char *got = sig_of(pp_cxx, m, sym, want[i][0], &s, buf, sizeof buf);
        if (strcmp(got, want[i][1]))
            fprintf(stderr, "  %s: got '%s', want '%s' (%s)\n", sym, got, want[i][1], s.why_unnamed);
        CHECK_STR(got, want[i][1]);
        if (!strcmp(sym, "cblock")) { /* extern "C": types from the declaration, typedefs resolved */
            CHECK_EQ(s.params[0].kind, SMEM_PARAM_INT);
            CHECK_EQ(s.params[0].is_signed, 0);
            CHECK_EQ(s.params[1].is_signed, 0);
            CHECK_EQ(s.params[1].bytes, 8);
        }
        if (!strncmp(sym, "_Z4tmpl", 7))
            CHECK_EQ(s.params[3].kind, SMEM_PARAM_AGGREGATE);
        smem_ksig_free(&s);
    }
    smem_ptx_free(m);
}

/* Values against types: each kind, each edge. */
static void test_values(void)
{
    struct {
        const char *type;
        uint8_t kind, bytes;
        int8_t is_signed;
        const char *value;
        int ok;
        uint64_t bits;
    } c[] = {
        {"unsigned char", SMEM_PARAM_INT, 1, 0, "255", 1, 255},
        {"unsigned char", SMEM_PARAM_INT, 1, 0, "300", 0, 0},
        {"unsigned char", SMEM_PARAM_INT, 1, 0, "-1", 0, 0},
        {"unsigned int", SMEM_PARAM_INT, 4, 0, "-1", 0, 0},
        {"unsigned int", SMEM_PARAM_INT, 4, 0, "0xffffffff", 1, 0xffffffffu},
        {"unsigned int", SMEM_PARAM_INT, 4, 0, "4294967296", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "1e3", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "abc", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "5.0", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "-2147483648", 1, 0xffffffff80000000ull & 0xffffffffu},
        {"int", SMEM_PARAM_INT, 4, 1, "2147483648", 0, 0},
        {"int", SMEM_PARAM_INT, 4, 1, "-5", 1, 0xfffffffbu},
        {"int", SMEM_PARAM_INT, 4, 1, "007", 1, 7},
        {"long", SMEM_PARAM_INT, 8, 1, "-9223372036854775808", 1, 0x8000000000000000ull},
        {"long", SMEM_PARAM_INT, 8, 1, "99999999999999999999", 0, 0},
        {"unsigned long", SMEM_PARAM_INT, 8, 0, "18446744073709551615", 1, ~0ull},
        {"char", SMEM_PARAM_INT, 1, 1, "-128", 1, 0x80},
        {"char", SMEM_PARAM_INT, 1, 1, "128", 0, 0},
        {"Mode", SMEM_PARAM_INT, 4, -1, "-1", 1, 0xffffffffu},
        {"Mode", SMEM_PARAM_INT, 4, -1, "4294967295", 1, 0xffffffffu},
        {"bool", SMEM_PARAM_BOOL, 1, 0, "true", 1, 1},
        {"bool", SMEM_PARAM_BOOL, 1, 0, "0", 1, 0},
        {"bool", SMEM_PARAM_BOOL, 1, 0, "2", 0, 0},
        {"float", SMEM_PARAM_FLOAT, 4, 1, "0.5", 1, 0x3f000000u},
        {"float", SMEM_PARAM_FLOAT, 4, 1, "1e3", 1, 0x447a0000u},
        {"float", SMEM_PARAM_FLOAT, 4, 1, "2", 1, 0x40000000u},
        {"float", SMEM_PARAM_FLOAT, 4, 1, "1e39", 0, 0},
        {"float", SMEM_PARAM_FLOAT, 4, 1, "x", 0, 0},
        {"double", SMEM_PARAM_FLOAT, 8, 1, "1e300", 1, 0x7e37e43c8800759cull},
        {"double", SMEM_PARAM_FLOAT, 8, 1, "1e400", 0, 0},
        {"int*", SMEM_PARAM_POINTER, 8, 0, "0", 0, 0},
        {"S", SMEM_PARAM_AGGREGATE, 8, 0, "1", 0, 0},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        struct smem_kparam p;
        memset(&p, 0, sizeof p);
        snprintf(p.name, sizeof p.name, "x");
        snprintf(p.type, sizeof p.type, "%s", c[i].type);
        p.kind = c[i].kind;
        p.bytes = c[i].bytes;
        p.is_signed = c[i].is_signed;
        p.size = c[i].bytes;
        uint64_t bits = 0;
        char why[240] = "";
        int r = smem_kparam_value(&p, c[i].value, &bits, why, sizeof why);
        if ((r == 0) != c[i].ok || (r == 0 && bits != c[i].bits))
            fprintf(stderr, "  %s '%s': rc %d bits %llx (%s)\n", c[i].type, c[i].value, r,
                    (unsigned long long)bits, why);
        CHECK_EQ(r == 0, c[i].ok);
        if (!r)
            CHECK_EQ(bits, c[i].bits);
        else
            CHECK(why[0] != 0);
    }
}

/* Binding: the three ways a --param used to vanish, and the rule for several kernels. */
static void test_bind(void)
{
    static const char *const e[] = {"_Z14tile_col_plainPhi:.u64,.u32", "_Z5otherPfij:.u64,.u32,.u32"};
    const char *pp = "# 1 \"k.cu\"\n"
                     "__attribute__((global)) void tile_col_plain(unsigned char* out, int p) {}\n"
                     "__attribute__((global)) void other(float* out, int n, unsigned p) {}\n";
    struct smem_ptx_module *m = module(e, 2);
    CHECK(m != NULL);
    if (!m)
        return;
    struct smem_ksig s[2];
    char buf[300];
    sig_of(pp, m, "_Z14tile_col_plainPhi", "tile_col_plain(unsigned char*, int)", &s[0], buf, sizeof buf);
    sig_of(pp, m, "_Z5otherPfij", "other(float*, int, unsigned int)", &s[1], buf, sizeof buf);
    struct smem_param_value v0[2], v1[3];
    struct smem_param_value *const pv[2] = {v0, v1};
    struct smem_error err;
    struct {
        unsigned nk;
        struct smem_param_arg a[2];
        unsigned na;
        int ok;
        const char *msg; /* a part of the error */
    } c[] = {
        {1, {{"p", "5"}}, 1, 1, NULL},
        {1, {{"1", "5"}}, 1, 1, NULL},
        {1, {{"_Z14tile_col_plainPhi_param_1", "5"}}, 1, 1, NULL},
        {1, {{"zz", "5"}}, 1, 0, "--param zz=5: no parameter of that name in kernel "
                                 "tile_col_plain(unsigned char* out, int p)"},
        {1, {{"9", "1"}}, 1, 0, "--param 9=1: no parameter at that position in kernel "
                                "tile_col_plain(unsigned char* out, int p) (positions 0..1)"},
        {1, {{"p", "1e3"}}, 1, 0, "'1e3' is not an integer ('p' is int)"},
        {1, {{"out", "0"}}, 1, 0, "'out' is a pointer (unsigned char*)"},
        {1, {{"p", "1"}, {"1", "2"}}, 2, 0, "parameter 'p' of kernel tile_col_plain(unsigned "
                                             "char* out, int p) is already given (--param p=1)"},
        /* several kernels: a name applies where it names a parameter; none at all is an error */
        {2, {{"n", "4"}}, 1, 1, NULL},
        {2, {{"p", "4"}}, 1, 1, NULL},
        {2, {{"p", "-4"}}, 1, 0, "-4 does not fit 'p' (unsigned int: 0..4294967295); kernel other"},
        {2, {{"2", "4"}}, 1, 1, NULL},
        {2, {{"zz", "4"}}, 1, 0, "no parameter of that name in any of the 2 kernels analysed "
                                 "(tile_col_plain(unsigned char* out, int p); other(float* out, "
                                 "int n, unsigned int p))"},
        {2, {{"3", "4"}}, 1, 0, "no parameter at that position in any of the 2 kernels"},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        memset(v0, 0, sizeof v0);
        memset(v1, 0, sizeof v1);
        memset(&err, 0, sizeof err);
        int r = smem_params_bind(s, c[i].nk, c[i].a, c[i].na, pv, "k.cu", &err);
        if ((r == 0) != c[i].ok || (c[i].msg && !strstr(err.msg, c[i].msg)))
            fprintf(stderr, "  case %zu: rc %d: %s\n", i, r, err.msg);
        CHECK_EQ(r == 0, c[i].ok);
        if (c[i].msg)
            CHECK(strstr(err.msg, c[i].msg) != NULL);
    }
    /* the values land where they belong */
    struct smem_param_arg a[] = {{"p", "7"}, {"n", "3"}};
    memset(v0, 0, sizeof v0);
    memset(v1, 0, sizeof v1);
    CHECK_EQ(smem_params_bind(s, 2, a, 2, pv, "k.cu", &err), 0);
    CHECK(!v0[0].set && v0[1].set && v0[1].bits == 7);
    CHECK(!v1[0].set && v1[1].set && v1[1].bits == 3 && v1[2].set && v1[2].bits == 7);
    /* one kernel: the error points at its declaration */
    struct smem_param_arg bad = {"zz", "1"};
    CHECK(smem_params_bind(s, 1, &bad, 1, pv, "k.cu", &err) != 0);
    CHECK_STR(err.file, "k.cu");
    CHECK_EQ(err.line, 1);
    smem_ksig_free(&s[0]);
    smem_ksig_free(&s[1]);
    /* without the source a name cannot be found: the message says why and offers positions */
    sig_of(NULL, m, "_Z14tile_col_plainPhi", "tile_col_plain(unsigned char*, int)", &s[0], buf, sizeof buf);
    struct smem_param_arg byname = {"p", "5"};
    CHECK(smem_params_bind(s, 1, &byname, 1, pv, "k.ptx", &err) != 0);
    CHECK(strstr(err.msg, "parameter names need the .cu source: give the position") != NULL);
    smem_ksig_free(&s[0]);
    smem_ptx_free(m);
}

/* Malformed text never crashes the scanner and finds nothing it should not. */
static void test_scanner_robust(void)
{
    static const char *const texts[] = {
        "", "__attribute__((global))", "__attribute__((global)) void", "__attribute__((global)) void k(",
        "__attribute__((global)) void k(int a", "namespace { namespace x {", "}}}}} __global__ void k(int a) {}",
        "\"unterminated", "R\"x(raw )\" still)x\" __global__ void r(int q) {}", "# 99999999999999 \"f",
        "int f() { __attribute__((global)) void inner(int a); }", "template<> __global__ void k<(1>2)>(int a){}",
        "__global__ void k(int a, ...) {}", "1'000'000; __global__ void sep(int s) {}",
    };
    unsigned want[] = {0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        struct smem_pp_unit *u = smem_pp_scan(texts[i], strlen(texts[i]));
        CHECK(u != NULL);
        if (smem_pp_unit_kernels(u) != want[i])
            fprintf(stderr, "  text %zu: %u kernels\n", i, smem_pp_unit_kernels(u));
        CHECK_EQ(smem_pp_unit_kernels(u), want[i]);
        smem_pp_unit_free(u);
    }
}

int main(void)
{
    RUN(test_macro_made_kernel_is_named);
    RUN(test_cxx_declarations);
    RUN(test_values);
    RUN(test_bind);
    RUN(test_scanner_robust);
    return CHECK_DONE();
}
