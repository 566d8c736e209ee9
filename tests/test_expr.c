/* test_expr.c: the index-expression language: C's precedence and unsigned 32-bit semantics (checked
 * against the C compiler and against a reference tree evaluator on random expressions), error
 * columns, run-time errors naming the thread, and the limits that keep hostile input safe. */
#include "check.h"
#include "smemlab/model/expr.h"

#include <stdint.h>
#include <stdlib.h>

/* Evaluates text for one thread with the given tid (tx = tid, others small distinct values). */
static int eval1(const char *text, uint32_t tid, uint32_t *out, struct smem_diag *d)
{
    struct smem_expr *e;
    if (smem_expr_parse(text, &e, d))
        return -1;
    struct smem_lanes L;
    memset(&L, 0, sizeof L);
    L.count = 1;
    for (unsigned v = 0; v < SMEM_VAR_COUNT; v++)
        L.var[v][0] = 100 + v;
    L.var[SMEM_VAR_TID][0] = tid;
    L.var[SMEM_VAR_TX][0] = tid;
    uint32_t o[SMEM_WARP];
    int rc = smem_expr_eval(e, &L, o, d);
    *out = o[0];
    smem_expr_free(e);
    return rc;
}

/* The compiler is the reference: the same text as a C expression on unsigned tid. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wparentheses"
#define SAME_AS_C(text, cexpr)                                                                     \
    do {                                                                                           \
        for (uint32_t tid = 0; tid < 40; tid++) {                                                  \
            uint32_t got = 0;                                                                      \
            struct smem_diag d_;                                                                   \
            CHECK_EQ(eval1(text, tid, &got, &d_), 0);                                              \
            CHECK_EQ(got, (uint32_t)(cexpr));                                                      \
        }                                                                                          \
    } while (0)

static void test_c_precedence_and_associativity(void)
{
    SAME_AS_C("tid*3+1", tid * 3 + 1);
    SAME_AS_C("1+tid*3", 1 + tid * 3);
    SAME_AS_C("tid+1<<2", tid + 1 << 2);
    SAME_AS_C("tid<<2+1", tid << 2 + 1);
    SAME_AS_C("tid&3|4", tid & 3 | 4);
    SAME_AS_C("tid|3&4", tid | 3 & 4);
    SAME_AS_C("tid^5&7", tid ^ 5 & 7);
    SAME_AS_C("tid|6^5", tid | 6 ^ 5);
    SAME_AS_C("100-tid-3", 100 - tid - 3);
    SAME_AS_C("1000/(tid+1)/2", 1000 / (tid + 1) / 2);
    SAME_AS_C("tid*7%5", tid * 7 % 5);
    SAME_AS_C("tid%5*7", tid % 5 * 7);
    SAME_AS_C("tid>>1>>1", tid >> 1 >> 1);
    SAME_AS_C("-tid*2", -tid * 2);
    SAME_AS_C("~tid&31", ~tid & 31);
    SAME_AS_C("- -tid", - -tid);
    SAME_AS_C("+tid", +tid);
    SAME_AS_C("(tid+1)*(tid+2)", (tid + 1) * (tid + 2));
    SAME_AS_C("tid/2*2+tid%2", tid / 2 * 2 + tid % 2);
    SAME_AS_C("tid*32+(5^tid)", tid * 32 + (5 ^ tid));
    SAME_AS_C("((tid*32+5)%33)", ((tid * 32 + 5) % 33));
}

static void test_unsigned_32bit_wraparound(void)
{
    SAME_AS_C("0-1", 0u - 1u);
    SAME_AS_C("(0-1)/2", (0u - 1u) / 2u);
    SAME_AS_C("tid-5", tid - 5u);
    SAME_AS_C("-tid/3", -tid / 3u);
    SAME_AS_C("0xffffffff+tid", 0xffffffffu + tid);
    SAME_AS_C("0x10000*0x10000+tid", 0x10000u * 0x10000u + tid);
    SAME_AS_C("~0>>tid%32", ~0u >> tid % 32);
    SAME_AS_C("4294967295u*tid", 4294967295u * tid);
    SAME_AS_C("0XfF+0x0", 0xffu);
}
#pragma GCC diagnostic pop

static uint32_t value_of(const char *text)
{
    uint32_t v = 0xdeadbeefu;
    struct smem_diag d;
    CHECK_EQ(eval1(text, 7, &v, &d), 0);
    return v;
}

static void test_shift_by_32_or_more_is_zero(void)
{
    CHECK_EQ(value_of("1<<31"), 0x80000000u);
    CHECK_EQ(value_of("1<<32"), 0);
    CHECK_EQ(value_of("tid<<32"), 0);
    CHECK_EQ(value_of("tid<<(30+tid)"), 0); /* 7 << 37: run time, not folded */
    CHECK_EQ(value_of("0x80000000>>31"), 1);
    CHECK_EQ(value_of("0x80000000>>32"), 0);
    CHECK_EQ(value_of("tid>>(0-1)"), 0);
}

static void test_variables_and_cuda_spellings(void)
{
    /* eval1 gives variable v the value 100+v, tid and tx the thread number. */
    CHECK_EQ(value_of("ty"), 100 + SMEM_VAR_TY);
    CHECK_EQ(value_of("threadIdx.y"), 100 + SMEM_VAR_TY);
    CHECK_EQ(value_of("threadIdx.x"), 7);
    CHECK_EQ(value_of("blockIdx.z"), 100 + SMEM_VAR_BZ);
    CHECK_EQ(value_of("blockDim.x"), 100 + SMEM_VAR_BDX);
    CHECK_EQ(value_of("bdz + lane*0 + warp*0"), 100 + SMEM_VAR_BDZ);
    CHECK_EQ(value_of(" \t( tid \n+ 1 ) "), 8);
    CHECK_STR(smem_var_name(SMEM_VAR_BDY), "bdy");
}

static void test_constants_are_folded(void)
{
    struct smem_expr *e;
    struct smem_diag d;
    CHECK_EQ(smem_expr_parse("1+2*3<<4", &e, &d), 0);
    CHECK_EQ(smem_expr_size(e), 1);
    smem_expr_free(e);
    CHECK_EQ(smem_expr_parse("tid*(32+1)", &e, &d), 0);
    CHECK_EQ(smem_expr_size(e), 3);
    smem_expr_free(e);
    CHECK_EQ(smem_expr_parse("-(~5)", &e, &d), 0);
    CHECK_EQ(smem_expr_size(e), 1);
    smem_expr_free(e);
}

/* Parse errors: the column (1-based) and a word of the message. */
static void error_at(const char *text, unsigned column, const char *words)
{
    struct smem_access *a = NULL;
    struct smem_diag d;
    int rc = smem_access_parse(text, &a, &d);
    CHECK_EQ(rc, -1);
    CHECK(a == NULL);
    if (rc == -1) {
        if (d.column != column || !strstr(d.message, words))
            fprintf(stderr, "  '%s': got \"%s\"\n", text, d.message);
        CHECK_EQ(d.column, column);
        CHECK(strstr(d.message, words) != NULL);
        char prefix[32];
        snprintf(prefix, sizeof prefix, "column %u: ", column);
        CHECK(strncmp(d.message, prefix, strlen(prefix)) == 0);
    }
}

static void test_parse_errors_name_the_column(void)
{
    error_at("arr[tid*2", 10, "expected ']'");
    error_at("arr[tid*2)", 10, "expected ']'");
    error_at("arr[tid $ 2]", 9, "expected ']'");
    error_at("arr[foo+1]", 5, "unknown variable 'foo'");
    error_at("arr[tid+]", 9, "expected a number, a variable or '('");
    error_at("arr[]", 5, "expected a number");
    error_at("arr[(tid+1]", 11, "expected ')'");
    error_at("arr[tid] extra", 10, "after the access");
    error_at("arr", 4, "expected '['");
    error_at("", 1, "expected an access");
    error_at("[tid]", 1, "expected an access");
    error_at("9arr[tid]", 1, "expected an access");
    error_at("arr[99999999999]", 5, "does not fit in 32 bits");
    error_at("arr[0x100000000]", 5, "does not fit in 32 bits");
    error_at("arr[0x]", 5, "hex digits");
    error_at("arr[010]", 5, "leading 0");
    error_at("arr[12ab]", 7, "in a number");
    error_at("arr[threadIdx]", 14, "expected .x, .y or .z");
    error_at("arr[threadIdx.q]", 14, "expected .x, .y or .z");
    error_at("arr[tid && 1]", 9, "'&&' is not supported");
    error_at("arr[tid < 2]", 9, "expected ']'");
    error_at("t[tx][ty][tz]", 10, "at most 2 dimensions");
    error_at("arr[tid]\x01", 9, "byte 0x01");
}

static void test_division_by_zero_names_operator_and_thread(void)
{
    struct smem_access *a;
    struct smem_diag d;
    CHECK_EQ(smem_access_parse("arr[tid/(tx-3)]", &a, &d), 0);
    struct smem_lanes L;
    memset(&L, 0, sizeof L);
    L.count = 32;
    for (unsigned l = 0; l < 32; l++)
        L.var[SMEM_VAR_TX][l] = L.var[SMEM_VAR_TID][l] = l;
    uint32_t out[SMEM_WARP];
    CHECK_EQ(smem_access_eval(a, 0, &L, out, &d), -1);
    CHECK_EQ(d.column, 8);
    CHECK(strstr(d.message, "column 8: division by zero in thread (3,0,0)") != NULL);
    smem_access_free(a);

    /* A constant zero divisor is not folded away: it fails at run time like any other. */
    CHECK_EQ(smem_access_parse("arr[ 1 % 0 ]", &a, &d), 0);
    CHECK_EQ(smem_access_eval(a, 0, &L, out, &d), -1);
    CHECK(strstr(d.message, "column 8: modulo by zero in thread (0,0,0)") != NULL);
    smem_access_free(a);

    /* The block is named when it is not block 0. */
    CHECK_EQ(smem_access_parse("a[1/(bx-2)]", &a, &d), 0);
    for (unsigned l = 0; l < 32; l++)
        L.var[SMEM_VAR_BX][l] = 2;
    CHECK_EQ(smem_access_eval(a, 0, &L, out, &d), -1);
    CHECK(strstr(d.message, "of block (2,0,0)") != NULL);
    smem_access_free(a);
}

static void test_access_shapes(void)
{
    struct smem_access *a;
    struct smem_diag d;
    CHECK_EQ(smem_access_parse("  tile [ ty ] [tx*2]", &a, &d), 0);
    CHECK_STR(smem_access_name(a), "tile");
    CHECK_EQ(smem_access_dims(a), 2);
    CHECK_EQ(smem_access_column(a, 0), 10);
    CHECK_EQ(smem_access_column(a, 1), 16);
    CHECK_EQ(smem_access_column(a, 2), 0);
    struct smem_lanes L;
    memset(&L, 0, sizeof L);
    L.count = 3;
    for (unsigned l = 0; l < 3; l++) {
        L.var[SMEM_VAR_TX][l] = l;
        L.var[SMEM_VAR_TY][l] = 9;
    }
    uint32_t out[SMEM_WARP];
    CHECK_EQ(smem_access_eval(a, 1, &L, out, &d), 0);
    CHECK_EQ(out[2], 4);
    CHECK_EQ(smem_access_eval(a, 0, &L, out, &d), 0);
    CHECK_EQ(out[1], 9);
    CHECK_EQ(smem_access_eval(a, 2, &L, out, &d), -1);
    smem_access_free(a);
}

static void test_limits_refuse_hostile_input(void)
{
    static char buf[SMEM_EXPR_MAX_LEN + 64];
    struct smem_access *a;
    struct smem_diag d;
    /* 60 nested parentheses are fine; 200 are refused, not a stack overflow. */
    int n = snprintf(buf, sizeof buf, "a[");
    for (int i = 0; i < 60; i++)
        buf[n++] = '(';
    buf[n++] = '1';
    for (int i = 0; i < 60; i++)
        buf[n++] = ')';
    strcpy(buf + n, "]");
    CHECK_EQ(smem_access_parse(buf, &a, &d), 0);
    smem_access_free(a);
    n = snprintf(buf, sizeof buf, "a[");
    for (int i = 0; i < 200; i++)
        buf[n++] = '(';
    strcpy(buf + n, "1]");
    CHECK_EQ(smem_access_parse(buf, &a, &d), -1);
    CHECK(strstr(d.message, "nested too deeply") != NULL);
    n = snprintf(buf, sizeof buf, "a[");
    for (int i = 0; i < 100; i++)
        buf[n++] = '-';
    strcpy(buf + n, "1]");
    CHECK_EQ(smem_access_parse(buf, &a, &d), -1);
    CHECK(strstr(d.message, "nested too deeply") != NULL);
    /* Each parenthesis level can leave 6 operands pending (one per precedence level). */
    n = snprintf(buf, sizeof buf, "a[");
    for (int i = 0; i < 12; i++)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "tid|tid^tid&tid<<tid+tid*(");
    n += snprintf(buf + n, sizeof buf - (size_t)n, "tid");
    for (int i = 0; i < 12; i++)
        buf[n++] = ')';
    strcpy(buf + n, "]");
    CHECK_EQ(smem_access_parse(buf, &a, &d), -1);
    CHECK(strstr(d.message, "pending values") != NULL);
    /* Longer than the limit. */
    memset(buf, ' ', SMEM_EXPR_MAX_LEN + 10);
    memcpy(buf, "a[1]", 4);
    buf[SMEM_EXPR_MAX_LEN + 10] = 0;
    CHECK_EQ(smem_access_parse(buf, &a, &d), -1);
    CHECK(strstr(d.message, "longer than") != NULL);
    /* A long but flat expression is fine and evaluates (stack stays at 2). */
    n = snprintf(buf, sizeof buf, "a[tid");
    while (n < SMEM_EXPR_MAX_LEN - 10)
        n += snprintf(buf + n, sizeof buf - (size_t)n, "+1");
    strcpy(buf + n, "]");
    CHECK_EQ(smem_access_parse(buf, &a, &d), 0);
    smem_access_free(a);
}

/* ---- random expressions: a reference tree evaluator against parse + bytecode ------------ */

enum { N_CONST, N_VAR, N_NEG, N_NOT, N_ADD, N_SUB, N_MUL, N_DIV, N_MOD, N_AND, N_OR, N_XOR, N_SHL, N_SHR };
struct node {
    int kind;
    uint32_t value;
    struct node *l, *r;
};
static const char *const bin_tok[] = {[N_ADD] = "+", [N_SUB] = "-", [N_MUL] = "*", [N_DIV] = "/",
                                      [N_MOD] = "%", [N_AND] = "&", [N_OR] = "|", [N_XOR] = "^",
                                      [N_SHL] = "<<", [N_SHR] = ">>"};
static int prec(int kind)
{
    switch (kind) {
    case N_OR: return 1;
    case N_XOR: return 2;
    case N_AND: return 3;
    case N_SHL: case N_SHR: return 4;
    case N_ADD: case N_SUB: return 5;
    case N_MUL: case N_DIV: case N_MOD: return 6;
    case N_NEG: case N_NOT: return 7;
    default: return 8;
    }
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static struct node pool[4096];
static unsigned npool;

static struct node *gen(int depth)
{
    struct node *n = &pool[npool++];
    memset(n, 0, sizeof *n);
    unsigned pick = rnd() % 16;
    if (depth == 0 || pick < 4) {
        if (rnd() % 2) {
            n->kind = N_VAR;
            n->value = rnd() % SMEM_VAR_COUNT;
        } else {
            n->kind = N_CONST;
            n->value = rnd() % 3 ? rnd() % 40 : rnd();
        }
    } else if (pick < 6) {
        n->kind = pick == 4 ? N_NEG : N_NOT;
        n->l = gen(depth - 1);
    } else {
        n->kind = N_ADD + (int)(rnd() % 10);
        n->l = gen(depth - 1);
        n->r = gen(depth - 1);
    }
    return n;
}

/* Prints with the fewest parentheses C needs (plus a few extra), so precedence is exercised. */
static void print(const struct node *n, char *buf, size_t *k, size_t cap)
{
#define OUT(...) (*k += (size_t)snprintf(buf + *k, *k < cap ? cap - *k : 0, __VA_ARGS__))
    switch (n->kind) {
    case N_CONST:
        if (rnd() % 2)
            OUT("%u", n->value);
        else
            OUT("0x%x", n->value);
        return;
    case N_VAR:
        OUT("%s", smem_var_name((enum smem_var)n->value));
        return;
    case N_NEG:
    case N_NOT: {
        int paren = prec(n->l->kind) < 7;
        OUT("%s%s", n->kind == N_NEG ? "-" : "~", paren ? "(" : "");
        print(n->l, buf, k, cap);
        OUT("%s", paren ? ")" : "");
        return;
    }
    default: {
        int p = prec(n->kind);
        int pl = prec(n->l->kind) < p || rnd() % 8 == 0, pr = prec(n->r->kind) <= p || rnd() % 8 == 0;
        OUT("%s", pl ? "(" : "");
        print(n->l, buf, k, cap);
        OUT("%s%s%s %s", pl ? ")" : "", rnd() % 2 ? " " : "", bin_tok[n->kind], pr ? "(" : "");
        print(n->r, buf, k, cap);
        OUT("%s", pr ? ")" : "");
    }
    }
#undef OUT
}

static int ref_eval(const struct node *n, const uint32_t *vars, uint32_t *out)
{
    uint32_t a, b = 0;
    if (n->kind == N_CONST) {
        *out = n->value;
        return 0;
    }
    if (n->kind == N_VAR) {
        *out = vars[n->value];
        return 0;
    }
    if (ref_eval(n->l, vars, &a) || (n->r && ref_eval(n->r, vars, &b)))
        return -1;
    switch (n->kind) {
    case N_NEG: *out = 0u - a; return 0;
    case N_NOT: *out = ~a; return 0;
    case N_ADD: *out = a + b; return 0;
    case N_SUB: *out = a - b; return 0;
    case N_MUL: *out = a * b; return 0;
    case N_DIV: if (!b) return -1; *out = a / b; return 0;
    case N_MOD: if (!b) return -1; *out = a % b; return 0;
    case N_AND: *out = a & b; return 0;
    case N_OR: *out = a | b; return 0;
    case N_XOR: *out = a ^ b; return 0;
    case N_SHL: *out = b >= 32 ? 0 : a << b; return 0;
    case N_SHR: *out = b >= 32 ? 0 : a >> b; return 0;
    }
    return -1;
}

static void test_random_expressions_match_reference(void)
{
    static char text[8192];
    unsigned agree = 0, div0 = 0;
    for (int iter = 0; iter < 20000; iter++) {
        npool = 0;
        struct node *root = gen(1 + (int)(rnd() % 6));
        size_t k = 0;
        print(root, text, &k, sizeof text);
        if (k >= sizeof text)
            continue;
        struct smem_expr *e;
        struct smem_diag d;
        if (smem_expr_parse(text, &e, &d)) {
            fprintf(stderr, "  '%s': %s\n", text, d.message);
            CHECK(0);
            continue;
        }
        struct smem_lanes L;
        L.count = 1 + rnd() % 32;
        for (unsigned v = 0; v < SMEM_VAR_COUNT; v++)
            for (unsigned l = 0; l < L.count; l++)
                L.var[v][l] = rnd() % 4 ? rnd() % 64 : rnd();
        uint32_t got[SMEM_WARP], want[SMEM_WARP];
        int ref_fail = 0;
        for (unsigned l = 0; l < L.count && !ref_fail; l++) {
            uint32_t vars[SMEM_VAR_COUNT];
            for (unsigned v = 0; v < SMEM_VAR_COUNT; v++)
                vars[v] = L.var[v][l];
            ref_fail = ref_eval(root, vars, &want[l]) != 0;
        }
        int rc = smem_expr_eval(e, &L, got, &d);
        /* Both must agree on whether some lane divides by zero... */
        CHECK_EQ(rc != 0, ref_fail);
        if (ref_fail) {
            div0++;
            CHECK(strstr(d.message, "by zero") != NULL);
        } else if (!rc) {
            int same = !memcmp(got, want, L.count * sizeof got[0]);
            if (!same)
                fprintf(stderr, "  '%s' differs from the reference\n", text);
            CHECK(same);
            agree += (unsigned)same;
        }
        smem_expr_free(e);
    }
    printf("  random expressions: %u agree with the reference, %u divide by zero in both\n", agree, div0);
    CHECK(agree > 10000);
}

int main(void)
{
    RUN(test_c_precedence_and_associativity);
    RUN(test_unsigned_32bit_wraparound);
    RUN(test_shift_by_32_or_more_is_zero);
    RUN(test_variables_and_cuda_spellings);
    RUN(test_constants_are_folded);
    RUN(test_parse_errors_name_the_column);
    RUN(test_division_by_zero_names_operator_and_thread);
    RUN(test_access_shapes);
    RUN(test_limits_refuse_hostile_input);
    RUN(test_random_expressions_match_reference);
    return CHECK_DONE();
}
