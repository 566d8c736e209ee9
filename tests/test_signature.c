/* test_signature.c: demangled signatures read into their parts (base/signature.c), on names as
 * cu++filt writes them for kernels of cuda-samples, CUB, CUTLASS-like templates and llm.c, and
 * on the shapes that break naive splitting (operator<, anonymous namespaces, lambdas, function
 * pointers, arrays, references); and the C/C++ lexer (base/lex.c) on what its readers rely on. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "smemlab/base/lex.h"
#include "smemlab/base/signature.h"

static char got[8][256];

/* The text of a span into one of a few rotating buffers. */
static const char *S(const char *text, struct smem_span s)
{
    static unsigned k;
    char *b = got[k++ % 8];
    snprintf(b, sizeof got[0], "%.*s", (int)s.len, text + s.off);
    return b;
}

/* The parameters of d joined by '|' ("int*|int*|unsigned int"); "-" when there is no list. */
static const char *params_of(const char *d)
{
    static char out[512];
    struct smem_signature s;
    smem_signature_parse(d, strlen(d), &s);
    struct smem_span it[16];
    int n = smem_signature_params(d, &s, it, 16);
    if (n < 0)
        return "-";
    out[0] = 0;
    for (int i = 0; i < n && i < 16; i++) {
        size_t l = strlen(out);
        snprintf(out + l, sizeof out - l, "%s%.*s", i ? "|" : "", (int)it[i].len, d + it[i].off);
    }
    return out;
}

static void parts(const char *d, const char *ret, const char *name, const char *qual,
                  const char *last, const char *base, const char *targs, const char *params)
{
    struct smem_signature s;
    CHECK_EQ(smem_signature_parse(d, strlen(d), &s), 0);
    CHECK_STR(S(d, s.ret), ret);
    CHECK_STR(S(d, s.name), name);
    CHECK_STR(S(d, s.qual), qual);
    CHECK_STR(S(d, s.last), last);
    CHECK_STR(S(d, s.base), base);
    CHECK_STR(s.has_targs ? S(d, s.targs) : "-", targs);
    CHECK_STR(params_of(d), params);
    char *nm = smem_signature_name(d);
    CHECK(nm && !strcmp(nm, name));
    free(nm);
    if (strcmp(S(d, s.ret), ret) || strcmp(S(d, s.name), name) || strcmp(params_of(d), params))
        fprintf(stderr, "  in %s\n", d);
}

static void test_samples(void)
{
    /* cuda-samples: plain kernels demangle without a return type */
    parts("setRowReadCol(int*)", "", "setRowReadCol", "setRowReadCol", "setRowReadCol",
          "setRowReadCol", "-", "int*");
    parts("reduce4<int, 256u>(int*, int*, unsigned int)", "", "reduce4<int, 256u>", "reduce4",
          "reduce4<int, 256u>", "reduce4", "int, 256u", "int*|int*|unsigned int");
    parts("void reduce4<int, 256u>(int*, int*, unsigned int)", "void", "reduce4<int, 256u>",
          "reduce4", "reduce4<int, 256u>", "reduce4", "int, 256u", "int*|int*|unsigned int");
    parts("void Sgemm<128, 8, 128, 8, 8>(int, int, int, float, float const*, float const*, float, "
          "float*)",
          "void", "Sgemm<128, 8, 128, 8, 8>", "Sgemm", "Sgemm<128, 8, 128, 8, 8>", "Sgemm",
          "128, 8, 128, 8, 8",
          "int|int|int|float|float const*|float const*|float|float*");
    parts("void MatrixMulCUDA<32>(float*, float*, float*, int, int)", "void", "MatrixMulCUDA<32>",
          "MatrixMulCUDA", "MatrixMulCUDA<32>", "MatrixMulCUDA", "32", "float*|float*|float*|int|int");
    /* extern "C": the symbol alone */
    parts("transpose_naive", "", "transpose_naive", "transpose_naive", "transpose_naive",
          "transpose_naive", "-", "-");
    parts("k(void)", "", "k", "k", "k", "k", "-", "");
    parts("k()", "", "k", "k", "k", "k", "-", "");
}

static void test_llmc(void)
{
    parts("softmax_forward_kernel5(float*, float, float const*, int, int)", "",
          "softmax_forward_kernel5", "softmax_forward_kernel5", "softmax_forward_kernel5",
          "softmax_forward_kernel5", "-", "float*|float|float const*|int|int");
    parts("void matmul_forward_kernel4<__nv_bfloat16>(__nv_bfloat16*, __nv_bfloat16 const*, "
          "__nv_bfloat16 const*, __nv_bfloat16 const*, int, int)",
          "void", "matmul_forward_kernel4<__nv_bfloat16>", "matmul_forward_kernel4",
          "matmul_forward_kernel4<__nv_bfloat16>", "matmul_forward_kernel4", "__nv_bfloat16",
          "__nv_bfloat16*|__nv_bfloat16 const*|__nv_bfloat16 const*|__nv_bfloat16 const*|int|int");
    parts("void layernorm_forward_kernel6<float, 1024>(float* __restrict__, float const*, int)",
          "void", "layernorm_forward_kernel6<float, 1024>", "layernorm_forward_kernel6",
          "layernorm_forward_kernel6<float, 1024>", "layernorm_forward_kernel6", "float, 1024",
          "float* __restrict__|float const*|int");
}

static void test_cub_cutlass(void)
{
    /* CUB: namespaces with version tags, nested templates, struct arguments, "> >" */
    parts("void cub::CUB_200200_900_NS::DeviceReduceSingleTileKernel<cub::CUB_200200_900_NS::"
          "DeviceReducePolicy<float, unsigned int, cub::CUB_200200_900_NS::Sum>::Policy600, "
          "float*, float*, int, cub::CUB_200200_900_NS::Sum, float>(float*, float*, int, "
          "cub::CUB_200200_900_NS::Sum, float)",
          "void",
          "cub::CUB_200200_900_NS::DeviceReduceSingleTileKernel<cub::CUB_200200_900_NS::"
          "DeviceReducePolicy<float, unsigned int, cub::CUB_200200_900_NS::Sum>::Policy600, "
          "float*, float*, int, cub::CUB_200200_900_NS::Sum, float>",
          "cub::CUB_200200_900_NS::DeviceReduceSingleTileKernel",
          "DeviceReduceSingleTileKernel<cub::CUB_200200_900_NS::DeviceReducePolicy<float, "
          "unsigned int, cub::CUB_200200_900_NS::Sum>::Policy600, float*, float*, int, "
          "cub::CUB_200200_900_NS::Sum, float>",
          "DeviceReduceSingleTileKernel",
          "cub::CUB_200200_900_NS::DeviceReducePolicy<float, unsigned int, "
          "cub::CUB_200200_900_NS::Sum>::Policy600, float*, float*, int, "
          "cub::CUB_200200_900_NS::Sum, float",
          "float*|float*|int|cub::CUB_200200_900_NS::Sum|float");
    /* CUTLASS-like: a kernel template over a struct of templates, by-value parameters */
    parts("void cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::GemmShape<128, 128, "
          "8>, cutlass::arch::Sm80, (cutlass::arch::OpClass)1> >(cutlass::gemm::kernel::Gemm<"
          "cutlass::gemm::GemmShape<128, 128, 8>, cutlass::arch::Sm80, (cutlass::arch::OpClass)1>"
          "::Params)",
          "void",
          "cutlass::Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::GemmShape<128, 128, 8>, "
          "cutlass::arch::Sm80, (cutlass::arch::OpClass)1> >",
          "cutlass::Kernel",
          "Kernel<cutlass::gemm::kernel::Gemm<cutlass::gemm::GemmShape<128, 128, 8>, "
          "cutlass::arch::Sm80, (cutlass::arch::OpClass)1> >",
          "Kernel",
          "cutlass::gemm::kernel::Gemm<cutlass::gemm::GemmShape<128, 128, 8>, cutlass::arch::Sm80, "
          "(cutlass::arch::OpClass)1> ",
          "cutlass::gemm::kernel::Gemm<cutlass::gemm::GemmShape<128, 128, 8>, cutlass::arch::Sm80, "
          "(cutlass::arch::OpClass)1>::Params");
    /* the targs of that one split at their top level only */
    const char *d = "void k<A<1, 2>, ((3)>(4)), B<C<int>, D> >(int)";
    struct smem_signature s;
    smem_signature_parse(d, strlen(d), &s);
    struct smem_span it[4];
    CHECK_EQ(smem_signature_split(d, s.targs, it, 4), 3);
    CHECK_STR(S(d, it[0]), "A<1, 2>");
    CHECK_STR(S(d, it[1]), "((3)>(4))");
    CHECK_STR(S(d, it[2]), "B<C<int>, D>");
}

static void test_hard_shapes(void)
{
    /* anonymous namespaces: their blank is no return type */
    parts("void (anonymous namespace)::tile<32>(float*)", "void", "(anonymous namespace)::tile<32>",
          "(anonymous namespace)::tile", "tile<32>", "tile", "32", "float*");
    parts("(anonymous namespace)::k(int)", "", "(anonymous namespace)::k",
          "(anonymous namespace)::k", "k", "k", "-", "int");
    /* lambdas as template arguments and parameter types */
    parts("void k<main::{lambda(float, int)#1}>(float*, main::{lambda(float, int)#1})", "void",
          "k<main::{lambda(float, int)#1}>", "k", "k<main::{lambda(float, int)#1}>", "k",
          "main::{lambda(float, int)#1}", "float*|main::{lambda(float, int)#1}");
    parts("void apply<__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>> >(float*, "
          "__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>>)",
          "void", "apply<__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>> >", "apply",
          "apply<__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>> >", "apply",
          "__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>> ",
          "float*|__nv_dl_wrapper_t<__nv_dl_tag<void (*)(float*, int), &run, 1u>>");
    /* function pointers, arrays, references, cv */
    parts("k(void (*)(int, float), int (&) [4], float const volatile* const, int&&)", "", "k", "k",
          "k", "k", "-",
          "void (*)(int, float)|int (&) [4]|float const volatile* const|int&&");
    /* operators: their symbols are no brackets and no commas */
    parts("bool operator< <int>(S<int> const&, S<int> const&)", "bool", "operator< <int>",
          "operator<", "operator< <int>", "operator<", "int", "S<int> const&|S<int> const&");
    parts("ns::S::operator()(int) const", "", "ns::S::operator()", "ns::S::operator()",
          "operator()", "operator()", "-", "int");
    parts("std::ostream& operator<<(std::ostream&, V const&)", "std::ostream&", "operator<<",
          "operator<<", "operator<<", "operator<<", "-", "std::ostream&|V const&");
    parts("void k<&operator>, 2>(int)", "void", "k<&operator>, 2>", "k", "k<&operator>, 2>", "k",
          "&operator>, 2", "int");
    parts("bool operator>(A, A)", "bool", "operator>", "operator>", "operator>", "operator>", "-",
          "A|A");
    parts("A::operator unsigned int()", "", "A::operator unsigned int", "A::operator unsigned int",
          "operator unsigned int", "operator unsigned int", "-", "");
    /* a comparison inside parentheses (the demangler adds them) does not close the arguments */
    parts("void k<((3)>(2)), 4>(int)", "void", "k<((3)>(2)), 4>", "k", "k<((3)>(2)), 4>", "k",
          "((3)>(2)), 4", "int");
    /* a name alone, as reports keep it (advise reads its template arguments) */
    parts("lab::transpose<32, float>", "", "lab::transpose<32, float>", "lab::transpose",
          "transpose<32, float>", "transpose", "32, float", "-");
    /* a non-void return type (no kernel has one) */
    parts("unsigned int const* f<1>(int)", "unsigned int const*", "f<1>", "f", "f<1>", "f", "1",
          "int");
}

static void test_broken(void)
{
    struct smem_signature s;
    const char *d = "void k<int(float*, int";
    CHECK_EQ(smem_signature_parse(d, strlen(d), &s), -1);
    CHECK_STR(S(d, s.name), d);
    CHECK(!s.has_params && !s.has_targs);
    d = "k)(";
    CHECK_EQ(smem_signature_parse(d, strlen(d), &s), -1);
    CHECK_EQ(smem_signature_parse("", 0, &s), 0);
    CHECK_EQ(s.name.len, 0);
    /* nesting past the limit is refused, not overrun */
    char deep[400];
    memset(deep, '<', 200);
    memset(deep + 200, '>', 200);
    CHECK_EQ(smem_signature_parse(deep, sizeof deep, &s), -1);
    char *nm = smem_signature_name(d);
    CHECK(nm && !strcmp(nm, "k)("));
    free(nm);
    /* strip_targs */
    char q[] = "(anonymous namespace)::k<A<1>, 2>";
    smem_signature_strip_targs(q);
    CHECK_STR(q, "(anonymous namespace)::k");
    char r[] = "ns:: Outer<int>::k <T>";
    smem_signature_strip_targs(r);
    CHECK_STR(r, "ns::Outer::k ");
}

/* ---- the lexer ---------------------------------------------------------------------------- */

/* The tokens of text as "kind:text@line:col" joined by ' '. */
static const char *lex(const char *text, unsigned flags)
{
    static char out[2048];
    struct smem_lexer L;
    smem_lex_init(&L, text, strlen(text), flags);
    out[0] = 0;
    for (;;) {
        struct smem_token t = smem_lex_next(&L);
        if (t.kind == SMEM_TOK_EOF)
            break;
        size_t l = strlen(out);
        snprintf(out + l, sizeof out - l, "%s%c%s:%.*s@%u:%u", l ? " " : "",
                 "EINSPD"[t.kind], t.directive ? "#" : "", (int)t.n, t.s, t.line, t.col);
        if (t.kind == SMEM_TOK_DIRECTIVE && !smem_tok_is(&t, "define"))
            smem_lex_skip_line(&L);
    }
    return out;
}

static void test_lexer(void)
{
    CHECK_STR(lex("int a = 1'000'000 + 0x1p-3 + 1e+5f;", 0),
              "I:int@1:1 I:a@1:5 P:=@1:7 N:1'000'000@1:9 P:+@1:19 N:0x1p-3@1:21 P:+@1:28 "
              "N:1e+5f@1:30 P:;@1:35");
    /* comments, splices and literals keep lines and columns */
    CHECK_STR(lex("a /* x\ny */ b // c \\\n d\ne \"s\\\"t\" u8'c' R\"x(q\n)\")x\" f", 0),
              "I:a@1:1 I:b@2:6 I:e@4:1 S:\"s\\\"t\"@4:3 S:u8'c'@4:10 S:R\"x(q\n)\")x\"@4:16 I:f@5:7");
    CHECK_STR(lex("x \\\n  y", 0), "I:x@1:1 I:y@2:3");
    /* punctuators: longest, or one byte each for readers that pair '<' '>' themselves */
    CHECK_STR(lex("A<B<int>> ::c...d->e<<=f", 0),
              "I:A@1:1 P:<@1:2 I:B@1:3 P:<@1:4 I:int@1:5 P:>>@1:8 P:::@1:11 I:c@1:13 P:...@1:14 "
              "I:d@1:17 P:->@1:18 I:e@1:20 P:<<=@1:21 I:f@1:24");
    CHECK_STR(lex("A<B<int>> ::c...d->e", SMEM_LEX_SPLIT_PUNCT),
              "I:A@1:1 P:<@1:2 I:B@1:3 P:<@1:4 I:int@1:5 P:>@1:8 P:>@1:9 P:::@1:11 I:c@1:13 "
              "P:...@1:14 I:d@1:17 P:-@1:18 P:>@1:19 I:e@1:20");
    /* preprocessor lines: skipped, or read and marked; a '#' inside a line is punctuation */
    CHECK_STR(lex("#include <x's.h>\n  # define N (4) \\\n + 1\nint a[N];", 0),
              "I:int@4:1 I:a@4:5 P:[@4:6 I:N@4:7 P:]@4:8 P:;@4:9");
    CHECK_STR(lex("#include <x.h>\n  # define N (4) \\\n + 1\nint a # b;", SMEM_LEX_DIRECTIVES),
              "D#:include@1:2 D#:define@2:5 I#:N@2:12 P#:(@2:14 N#:4@2:15 P#:)@2:16 P#:+@3:2 "
              "N#:1@3:4 I:int@4:1 I:a@4:5 P:#@4:7 I:b@4:9 P:;@4:10");
    /* line markers of preprocessed text */
    struct smem_lexer L;
    const char *pp = "# 1 \"a.cu\"\nx\n# 40 \"dir/b.cuh\" 2\n\ny\n#line 7\n#pragma once\nz";
    smem_lex_init(&L, pp, strlen(pp), SMEM_LEX_LINE_MARKERS);
    struct smem_token t = smem_lex_next(&L);
    CHECK(smem_tok_is(&t, "x") && t.line == 1 && L.file_len == 4 && !memcmp(L.file, "a.cu", 4));
    t = smem_lex_next(&L);
    CHECK(smem_tok_is(&t, "y") && t.line == 41 && L.file_len == 9);
    t = smem_lex_next(&L);
    CHECK(smem_tok_is(&t, "z") && t.line == 8);
    CHECK_EQ(smem_lex_next(&L).kind, SMEM_TOK_EOF);
    CHECK_EQ(smem_lex_next(&L).kind, SMEM_TOK_EOF);
    /* unterminated things end at the end of their line, or of the text */
    CHECK_STR(lex("'a\nb \"c", 0), "S:'a@1:1 I:b@2:1 S:\"c@2:3");
    CHECK_STR(lex("/* open", 0), "");
    CHECK_STR(lex("R\"d(never", 0), "S:R\"d(never@1:1");
}

int main(void)
{
    RUN(test_samples);
    RUN(test_llmc);
    RUN(test_cub_cutlass);
    RUN(test_hard_shapes);
    RUN(test_broken);
    RUN(test_lexer);
    return CHECK_DONE();
}
