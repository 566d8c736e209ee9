/* expr.c: index expressions. A recursive-descent parser with C's precedence emits postfix
 * bytecode (constants folded); the evaluator runs it over a warp's lanes at once, so each
 * instruction is one tight loop the compiler can vectorise. */
#include "smemlab/model/expr.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum op {
    OP_CONST, OP_VAR, OP_NEG, OP_NOT,
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR
};

struct insn {
    uint8_t op;
    uint32_t arg;    /* OP_CONST: the value; OP_VAR: enum smem_var */
    uint32_t column; /* of the operator or operand, for run-time errors */
};

struct smem_expr {
    unsigned n, max_stack;
    struct insn code[]; /* postfix */
};

struct smem_access {
    char name[SMEM_ACCESS_MAX_NAME + 1];
    unsigned dims;
    unsigned column[2];
    struct smem_expr *index[2];
};

static const char *const var_names[SMEM_VAR_COUNT] = {
    "tx", "ty", "tz", "bx", "by", "bz", "bdx", "bdy", "bdz", "tid", "lane", "warp"};

const char *smem_var_name(enum smem_var v)
{
    return (unsigned)v < SMEM_VAR_COUNT ? var_names[v] : "?";
}

/* ---- parser ---------------------------------------------------------------------------- */

struct parser {
    const char *s;
    size_t len, pos;
    unsigned depth;
    struct insn *code;
    unsigned n, cap;
    struct smem_diag *diag;
    int failed;
};

#if defined(__GNUC__)
__attribute__((format(printf, 3, 4)))
#endif
static void fail(struct parser *p, size_t pos, const char *fmt, ...)
{
    if (p->failed)
        return; /* the first error is the one worth reporting */
    p->failed = 1;
    if (!p->diag)
        return;
    va_list ap;
    unsigned col = (unsigned)pos + 1;
    p->diag->column = col;
    int k = snprintf(p->diag->message, sizeof p->diag->message, "column %u: ", col);
    va_start(ap, fmt);
    vsnprintf(p->diag->message + k, sizeof p->diag->message - (size_t)k, fmt, ap);
    va_end(ap);
}

static void skip_space(struct parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' ||
                               p->s[p->pos] == '\n' || p->s[p->pos] == '\r'))
        p->pos++;
}

static int peek(struct parser *p)
{
    skip_space(p);
    return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1;
}

static int is_ident_start(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_ident(int c) { return is_ident_start(c) || (c >= '0' && c <= '9'); }

/* Describes what sits at pos, for "expected X, found Y" messages. */
static void describe(struct parser *p, size_t pos, char *buf, size_t n)
{
    if (pos >= p->len) {
        snprintf(buf, n, "the end of the text");
        return;
    }
    unsigned char c = (unsigned char)p->s[pos];
    if (c >= 0x20 && c < 0x7f)
        snprintf(buf, n, "'%c'", c);
    else
        snprintf(buf, n, "byte 0x%02x", c);
}

static void expected(struct parser *p, const char *what)
{
    char found[32];
    skip_space(p);
    describe(p, p->pos, found, sizeof found);
    fail(p, p->pos, "expected %s, found %s", what, found);
}

static void emit(struct parser *p, enum op op, uint32_t arg, size_t pos)
{
    if (p->failed)
        return;
    if (p->n == p->cap) { /* cannot happen: every token emits at most one instruction */
        fail(p, pos, "expression too complex");
        return;
    }
    struct insn *i = &p->code[p->n++];
    i->op = (uint8_t)op;
    i->arg = arg;
    i->column = (uint32_t)pos + 1;
}

static uint32_t fold_binary(enum op op, uint32_t a, uint32_t b)
{
    switch (op) {
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_MOD: return a % b;
    case OP_AND: return a & b;
    case OP_OR: return a | b;
    case OP_XOR: return a ^ b;
    case OP_SHL: return b >= 32 ? 0 : a << b;
    case OP_SHR: return b >= 32 ? 0 : a >> b;
    default: return 0;
    }
}

/* Emits a binary operator, folding it when both operands are constants (a postfix operand whose
 * last instruction is a constant is that constant alone). Division by a constant zero is left for
 * the evaluator, so the error names a thread like every other division by zero. */
static void emit_binary(struct parser *p, enum op op, size_t pos)
{
    if (p->failed)
        return;
    if (p->n >= 2 && p->code[p->n - 1].op == OP_CONST && p->code[p->n - 2].op == OP_CONST &&
        !((op == OP_DIV || op == OP_MOD) && p->code[p->n - 1].arg == 0)) {
        uint32_t b = p->code[--p->n].arg;
        p->code[p->n - 1].arg = fold_binary(op, p->code[p->n - 1].arg, b);
        return;
    }
    emit(p, op, 0, pos);
}

static void emit_unary(struct parser *p, enum op op, size_t pos)
{
    if (p->failed)
        return;
    if (p->n >= 1 && p->code[p->n - 1].op == OP_CONST) {
        uint32_t *v = &p->code[p->n - 1].arg;
        *v = op == OP_NEG ? 0u - *v : ~*v;
        return;
    }
    emit(p, op, 0, pos);
}

static void parse_or(struct parser *p);

static void parse_number(struct parser *p)
{
    size_t start = p->pos;
    uint64_t v = 0;
    int hex = 0, big = 0, digits = 0;
    const char *s = p->s;
    if (s[p->pos] == '0' && p->pos + 1 < p->len && (s[p->pos + 1] == 'x' || s[p->pos + 1] == 'X')) {
        hex = 1;
        p->pos += 2;
    }
    for (; p->pos < p->len; p->pos++) {
        int c = (unsigned char)s[p->pos], d;
        if (c >= '0' && c <= '9')
            d = c - '0';
        else if (hex && c >= 'a' && c <= 'f')
            d = c - 'a' + 10;
        else if (hex && c >= 'A' && c <= 'F')
            d = c - 'A' + 10;
        else
            break;
        v = v * (hex ? 16u : 10u) + (unsigned)d;
        if (v > 0xffffffffu) {
            big = 1;
            v = 0xffffffffu; /* keep scanning the digits without overflowing */
        }
        digits++;
    }
    if (!digits) {
        fail(p, start, "'0x' needs hex digits");
        return;
    }
    if (!hex && digits > 1 && s[start] == '0') {
        fail(p, start, "constants with a leading 0 (C's octal) are not supported; write %llu or use 0x",
             (unsigned long long)strtoull(s + start, NULL, 10));
        return;
    }
    if (p->pos < p->len && (s[p->pos] == 'u' || s[p->pos] == 'U'))
        p->pos++; /* C's unsigned suffix: everything is unsigned here anyway */
    if (p->pos < p->len && is_ident((unsigned char)s[p->pos])) {
        fail(p, p->pos, "unexpected '%c' in a number", s[p->pos]);
        return;
    }
    if (big) {
        fail(p, start, "constant does not fit in 32 bits");
        return;
    }
    emit(p, OP_CONST, (uint32_t)v, start);
}

static void parse_variable(struct parser *p)
{
    size_t start = p->pos;
    while (p->pos < p->len && is_ident((unsigned char)p->s[p->pos]))
        p->pos++;
    size_t n = p->pos - start;
    const char *w = p->s + start;
    /* CUDA's spellings: threadIdx.x, blockIdx.y, blockDim.z. */
    static const struct { const char *name; enum smem_var first; } dotted[] = {
        {"threadIdx", SMEM_VAR_TX}, {"blockIdx", SMEM_VAR_BX}, {"blockDim", SMEM_VAR_BDX}};
    for (size_t k = 0; k < sizeof dotted / sizeof dotted[0]; k++) {
        if (strlen(dotted[k].name) != n || memcmp(w, dotted[k].name, n))
            continue;
        char c = p->pos + 1 < p->len && p->s[p->pos] == '.' ? p->s[p->pos + 1] : 0;
        if ((c != 'x' && c != 'y' && c != 'z') ||
            (p->pos + 2 < p->len && is_ident((unsigned char)p->s[p->pos + 2]))) {
            fail(p, p->pos, "expected .x, .y or .z after %s", dotted[k].name);
            return;
        }
        p->pos += 2;
        emit(p, OP_VAR, (uint32_t)dotted[k].first + (uint32_t)(c - 'x'), start);
        return;
    }
    for (unsigned v = 0; v < SMEM_VAR_COUNT; v++)
        if (strlen(var_names[v]) == n && !memcmp(w, var_names[v], n)) {
            emit(p, OP_VAR, v, start);
            return;
        }
    fail(p, start, "unknown variable '%.*s' (variables: tx ty tz bx by bz bdx bdy bdz tid lane warp)",
         (int)(n > 40 ? 40 : n), w);
}

static void parse_unary(struct parser *p)
{
    if (p->failed)
        return;
    if (++p->depth > SMEM_EXPR_MAX_DEPTH) {
        fail(p, p->pos, "expression nested too deeply (more than %d levels)", SMEM_EXPR_MAX_DEPTH);
        return;
    }
    int c = peek(p);
    size_t pos = p->pos;
    if (c == '-' || c == '~' || c == '+') {
        p->pos++;
        parse_unary(p);
        if (c != '+')
            emit_unary(p, c == '-' ? OP_NEG : OP_NOT, pos);
    } else if (c == '(') {
        p->pos++;
        parse_or(p);
        if (p->failed)
            ;
        else if (peek(p) != ')')
            expected(p, "')'");
        else
            p->pos++;
    } else if (c >= '0' && c <= '9') {
        parse_number(p);
    } else if (is_ident_start(c)) {
        parse_variable(p);
    } else {
        expected(p, "a number, a variable or '('");
    }
    p->depth--;
}

/* One precedence level: operand (op operand)*, left-associative as in C. */
struct binop {
    const char *tok;
    enum op op;
};

static void parse_level(struct parser *p, int level);

static const struct binop levels[][3] = {
    {{"|", OP_OR}, {NULL, OP_ADD}, {NULL, OP_ADD}},
    {{"^", OP_XOR}, {NULL, OP_ADD}, {NULL, OP_ADD}},
    {{"&", OP_AND}, {NULL, OP_ADD}, {NULL, OP_ADD}},
    {{"<<", OP_SHL}, {">>", OP_SHR}, {NULL, OP_ADD}},
    {{"+", OP_ADD}, {"-", OP_SUB}, {NULL, OP_ADD}},
    {{"*", OP_MUL}, {"/", OP_DIV}, {"%", OP_MOD}},
};
#define NLEVELS ((int)(sizeof levels / sizeof levels[0]))

static void parse_operand(struct parser *p, int level)
{
    if (level + 1 < NLEVELS)
        parse_level(p, level + 1);
    else
        parse_unary(p);
}

static void parse_level(struct parser *p, int level)
{
    parse_operand(p, level);
    while (!p->failed) {
        peek(p);
        const struct binop *hit = NULL;
        for (int k = 0; k < 3 && levels[level][k].tok; k++) {
            size_t tl = strlen(levels[level][k].tok);
            if (p->pos + tl <= p->len && !memcmp(p->s + p->pos, levels[level][k].tok, tl)) {
                hit = &levels[level][k];
                break;
            }
        }
        if (!hit)
            return;
        size_t pos = p->pos, tl = strlen(hit->tok);
        /* '<' and '>' alone are comparisons, which the language does not have. */
        if (tl == 1 && p->pos + 1 < p->len && (hit->op == OP_AND || hit->op == OP_OR) &&
            p->s[p->pos + 1] == p->s[p->pos]) {
            fail(p, p->pos, "'%c%c' is not supported (use '%c' on 0/1 values)", p->s[p->pos],
                 p->s[p->pos], p->s[p->pos]);
            return;
        }
        p->pos += tl;
        parse_operand(p, level);
        emit_binary(p, hit->op, pos);
    }
}

static void parse_or(struct parser *p) { parse_level(p, 0); }

/* Checks the evaluation stack the code needs; 0 when within SMEM_EXPR_MAX_STACK. */
static int stack_need(struct parser *p, unsigned *max_out)
{
    unsigned sp = 0, max = 0;
    for (unsigned i = 0; i < p->n; i++) {
        enum op op = (enum op)p->code[i].op;
        if (op == OP_CONST || op == OP_VAR)
            sp++;
        else if (op != OP_NEG && op != OP_NOT)
            sp--;
        if (sp > max)
            max = sp;
        if (sp > SMEM_EXPR_MAX_STACK) {
            fail(p, p->code[i].column - 1,
                 "expression needs more than %d pending values to evaluate; simplify it",
                 SMEM_EXPR_MAX_STACK);
            return -1;
        }
    }
    *max_out = max;
    return 0;
}

/* Parses one expression at p->pos into a new smem_expr. */
static struct smem_expr *parse_expr(struct parser *p)
{
    p->n = 0;
    p->depth = 0;
    parse_or(p);
    unsigned max = 0;
    if (p->failed || stack_need(p, &max))
        return NULL;
    struct smem_expr *e = malloc(sizeof *e + p->n * sizeof e->code[0]);
    if (!e) {
        fail(p, p->pos, "out of memory");
        return NULL;
    }
    e->n = p->n;
    e->max_stack = max;
    memcpy(e->code, p->code, p->n * sizeof e->code[0]);
    return e;
}

/* Sets up p over text; -1 (diag filled) when the text is too long or memory is short. */
static int parser_init(struct parser *p, const char *text, struct smem_diag *diag)
{
    memset(p, 0, sizeof *p);
    p->diag = diag;
    if (diag) {
        diag->column = 0;
        diag->message[0] = 0;
    }
    if (!text) {
        fail(p, 0, "no expression");
        return -1;
    }
    p->s = text;
    p->len = strlen(text);
    if (p->len > SMEM_EXPR_MAX_LEN) {
        fail(p, SMEM_EXPR_MAX_LEN, "expression longer than %d characters", SMEM_EXPR_MAX_LEN);
        return -1;
    }
    p->cap = (unsigned)p->len + 1; /* each token emits at most one instruction */
    p->code = malloc(p->cap * sizeof p->code[0]);
    if (!p->code) {
        fail(p, 0, "out of memory");
        return -1;
    }
    return 0;
}

int smem_expr_parse(const char *text, struct smem_expr **out, struct smem_diag *diag)
{
    struct parser p;
    *out = NULL;
    if (parser_init(&p, text, diag))
        return -1;
    struct smem_expr *e = parse_expr(&p);
    if (e && peek(&p) != -1) {
        char found[32];
        describe(&p, p.pos, found, sizeof found);
        fail(&p, p.pos, "unexpected %s after the expression", found);
        free(e);
        e = NULL;
    }
    free(p.code);
    *out = e;
    return e ? 0 : -1;
}

void smem_expr_free(struct smem_expr *e) { free(e); }

unsigned smem_expr_size(const struct smem_expr *e) { return e ? e->n : 0; }

int smem_access_parse(const char *text, struct smem_access **out, struct smem_diag *diag)
{
    struct parser p;
    *out = NULL;
    if (parser_init(&p, text, diag))
        return -1;
    struct smem_access *a = calloc(1, sizeof *a);
    if (!a) {
        fail(&p, 0, "out of memory");
        free(p.code);
        return -1;
    }
    int c = peek(&p);
    size_t start = p.pos;
    if (!is_ident_start(c)) {
        expected(&p, "an access such as arr[tid*2] or tile[ty][tx]");
        goto bad;
    }
    while (p.pos < p.len && is_ident((unsigned char)p.s[p.pos]))
        p.pos++;
    if (p.pos - start > SMEM_ACCESS_MAX_NAME) {
        fail(&p, start, "array name longer than %d characters", SMEM_ACCESS_MAX_NAME);
        goto bad;
    }
    memcpy(a->name, p.s + start, p.pos - start);
    while (peek(&p) == '[') {
        if (a->dims == 2) {
            fail(&p, p.pos, "at most 2 dimensions (NAME[row][col])");
            goto bad;
        }
        p.pos++;
        peek(&p);
        a->column[a->dims] = (unsigned)p.pos + 1;
        a->index[a->dims] = parse_expr(&p);
        if (!a->index[a->dims])
            goto bad;
        a->dims++;
        if (peek(&p) != ']') {
            expected(&p, "']'");
            goto bad;
        }
        p.pos++;
    }
    if (!a->dims) {
        expected(&p, "'[' (an access is NAME[index] or NAME[row][col])");
        goto bad;
    }
    if (peek(&p) != -1) {
        char found[32];
        describe(&p, p.pos, found, sizeof found);
        fail(&p, p.pos, "unexpected %s after the access", found);
        goto bad;
    }
    free(p.code);
    *out = a;
    return 0;
bad:
    free(p.code);
    smem_access_free(a);
    return -1;
}

void smem_access_free(struct smem_access *a)
{
    if (!a)
        return;
    free(a->index[0]);
    free(a->index[1]);
    free(a);
}

const char *smem_access_name(const struct smem_access *a) { return a->name; }
unsigned smem_access_dims(const struct smem_access *a) { return a->dims; }
unsigned smem_access_column(const struct smem_access *a, unsigned dim)
{
    return dim < a->dims ? a->column[dim] : 0;
}

int smem_access_eval(const struct smem_access *a, unsigned dim, const struct smem_lanes *lanes,
                     uint32_t out[SMEM_WARP], struct smem_diag *diag)
{
    if (dim >= a->dims) {
        if (diag) {
            diag->column = 0;
            snprintf(diag->message, sizeof diag->message, "the access has no dimension %u", dim);
        }
        return -1;
    }
    return smem_expr_eval(a->index[dim], lanes, out, diag);
}

/* ---- evaluator ------------------------------------------------------------------------- */

static int divide_by_zero(const struct insn *in, const struct smem_lanes *L, unsigned lane,
                          struct smem_diag *diag)
{
    if (!diag)
        return -1;
    diag->column = in->column;
    int k = snprintf(diag->message, sizeof diag->message, "column %u: %s by zero in thread (%u,%u,%u)",
                     (unsigned)in->column, in->op == OP_DIV ? "division" : "modulo",
                     L->var[SMEM_VAR_TX][lane], L->var[SMEM_VAR_TY][lane], L->var[SMEM_VAR_TZ][lane]);
    if (L->var[SMEM_VAR_BX][lane] | L->var[SMEM_VAR_BY][lane] | L->var[SMEM_VAR_BZ][lane])
        snprintf(diag->message + k, sizeof diag->message - (size_t)k, " of block (%u,%u,%u)",
                 L->var[SMEM_VAR_BX][lane], L->var[SMEM_VAR_BY][lane], L->var[SMEM_VAR_BZ][lane]);
    return -1;
}

int smem_expr_eval(const struct smem_expr *e, const struct smem_lanes *L, uint32_t out[SMEM_WARP],
                   struct smem_diag *diag)
{
    uint32_t st[SMEM_EXPR_MAX_STACK][SMEM_WARP];
    unsigned sp = 0, n = L->count;
    if (n == 0 || n > SMEM_WARP || !e || e->max_stack > SMEM_EXPR_MAX_STACK) {
        if (diag) {
            diag->column = 0;
            snprintf(diag->message, sizeof diag->message, "cannot evaluate for %u lanes", n);
        }
        return -1;
    }
    for (unsigned i = 0; i < e->n; i++) {
        const struct insn *in = &e->code[i];
        uint32_t *a = sp >= 2 ? st[sp - 2] : NULL, *b = sp >= 1 ? st[sp - 1] : NULL;
        unsigned l;
        switch ((enum op)in->op) {
        case OP_CONST:
            for (l = 0; l < n; l++)
                st[sp][l] = in->arg;
            sp++;
            break;
        case OP_VAR:
            memcpy(st[sp], L->var[in->arg], n * sizeof(uint32_t));
            sp++;
            break;
        case OP_NEG:
            for (l = 0; l < n; l++)
                b[l] = 0u - b[l];
            break;
        case OP_NOT:
            for (l = 0; l < n; l++)
                b[l] = ~b[l];
            break;
#define BIN(OP, EXPR)                                                                              \
    case OP:                                                                                       \
        for (l = 0; l < n; l++)                                                                    \
            a[l] = (EXPR);                                                                         \
        sp--;                                                                                      \
        break;
            BIN(OP_ADD, a[l] + b[l])
            BIN(OP_SUB, a[l] - b[l])
            BIN(OP_MUL, a[l] * b[l])
            BIN(OP_AND, a[l] & b[l])
            BIN(OP_OR, a[l] | b[l])
            BIN(OP_XOR, a[l] ^ b[l])
            /* C leaves shifts by >= 32 undefined; we define them as 0 (docs/pattern.md). */
            BIN(OP_SHL, b[l] >= 32 ? 0u : a[l] << b[l])
            BIN(OP_SHR, b[l] >= 32 ? 0u : a[l] >> b[l])
#undef BIN
        case OP_DIV:
        case OP_MOD:
            for (l = 0; l < n; l++)
                if (!b[l])
                    return divide_by_zero(in, L, l, diag);
            if (in->op == OP_DIV)
                for (l = 0; l < n; l++)
                    a[l] /= b[l];
            else
                for (l = 0; l < n; l++)
                    a[l] %= b[l];
            sp--;
            break;
        }
    }
    memcpy(out, st[0], n * sizeof(uint32_t));
    return 0;
}
