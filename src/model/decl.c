/* decl.c: reads `__shared__` array declarations and the integer constants their sizes use out of
 * CUDA source, from base/lex.c's tokens (comments and literals skipped, preprocessor lines kept
 * apart), and pads a declaration's last dimension. Not a C++ parser: what it cannot read it
 * leaves out, and callers fall back to what the PTX and the accesses say.
 * One reader of one language subset (tokens, constants, integer expressions, types,
 * declarations) and the one edit it makes (padding); each part uses the ones above. */
#include "smemlab/model/decl.h"

#include "smemlab/base/lex.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ------------------------------------------------------------------------------- */

enum tok_kind { T_IDENT, T_NUM, T_PUNCT };

struct tok {
    size_t start, end;     /* bytes in the text */
    unsigned line, col;
    uint8_t kind;
    uint8_t directive;     /* 0: code; 1: body of an object-like #define; 2: other #define body */
    int32_t match;         /* ')' ']' '}': index of the opening token, -1 if none */
    int32_t define;        /* directive 1: index of the macro's name token */
};

struct toks {
    struct tok *t;
    size_t n, cap;
    const char *text;
};

static int tok_push(struct toks *ts, struct tok t)
{
    if (ts->n == ts->cap) {
        size_t nc = ts->cap ? ts->cap * 2 : 1024;
        struct tok *nt = realloc(ts->t, nc * sizeof *nt);
        if (!nt)
            return -1;
        ts->t = nt;
        ts->cap = nc;
    }
    ts->t[ts->n++] = t;
    return 0;
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident_char(int c) { return isalnum(c) || c == '_'; }

static int tok_is(const struct toks *ts, size_t i, const char *s)
{
    if (i >= ts->n)
        return 0;
    size_t l = ts->t[i].end - ts->t[i].start;
    return strlen(s) == l && !memcmp(ts->text + ts->t[i].start, s, l);
}

static void tok_copy(const struct toks *ts, size_t i, char *buf, size_t size)
{
    size_t l = ts->t[i].end - ts->t[i].start;
    if (l >= size)
        l = size - 1;
    memcpy(buf, ts->text + ts->t[i].start, l);
    buf[l] = 0;
}

/* Tokenizes text (base/lex.c). Preprocessor lines other than #define are dropped; a #define's
 * name is a directive-3 token, its body tokens are marked (so a declaration inside a macro is
 * still found). Literals are dropped: they are never part of a size. */
static int tokenize(const char *text, size_t len, struct toks *ts)
{
    struct smem_lexer L;
    smem_lex_init(&L, text, len, SMEM_LEX_DIRECTIVES);
    uint8_t directive = 0;   /* of the current preprocessor line */
    int32_t define_name = -1;
    int32_t stack[512];
    unsigned depth = 0;
    memset(ts, 0, sizeof *ts);
    ts->text = text;
    for (;;) {
        struct smem_token x = smem_lex_next(&L);
        if (x.kind == SMEM_TOK_EOF)
            return 0;
        if (x.kind == SMEM_TOK_DIRECTIVE) {
            directive = 0;
            if (!smem_tok_is(&x, "define")) {
                smem_lex_skip_line(&L);
                continue;
            }
            struct smem_lexer at = L;
            struct smem_token nm = smem_lex_next(&at);
            if (nm.kind == SMEM_TOK_IDENT && nm.directive) {
                /* the macro's name: kept as a directive-3 token so constants can find it */
                size_t b = (size_t)(nm.s - text), e = b + nm.n;
                struct tok t = {b, e, nm.line, nm.col, T_IDENT, 3, -1, -1};
                if (tok_push(ts, t))
                    return -1;
                define_name = (int32_t)(ts->n - 1);
                directive = e < len && text[e] == '(' ? 2 : 1;
                L = at;
            }
            continue;
        }
        if (x.kind == SMEM_TOK_STRING)
            continue;
        uint8_t dir = x.directive ? directive : 0;
        size_t start = (size_t)(x.s - text);
        struct tok t = {start, start + x.n, x.line, x.col,
                        x.kind == SMEM_TOK_IDENT ? T_IDENT : x.kind == SMEM_TOK_NUMBER ? T_NUM : T_PUNCT,
                        dir, -1, dir == 1 ? define_name : -1};
        char c = *x.s;
        if (t.kind == T_PUNCT && (c == '(' || c == '[' || c == '{')) {
            if (depth < 512)
                stack[depth] = (int32_t)ts->n;
            depth++;
        } else if (t.kind == T_PUNCT && (c == ')' || c == ']' || c == '}') && depth) {
            depth--;
            if (depth < 512) {
                int32_t o = stack[depth];
                char oc = text[ts->t[o].start];
                if ((c == ')' && oc == '(') || (c == ']' && oc == '[') || (c == '}' && oc == '{'))
                    t.match = o;
            }
        }
        if (tok_push(ts, t))
            return -1;
    }
}

/* ---- constants ---------------------------------------------------------------------------- */

struct smem_const {
    char name[96];
    char *expr;
};

struct smem_consts {
    struct smem_const *c;
    unsigned n, cap;
};

static int consts_add(struct smem_consts *cs, const char *name, size_t nlen, const char *expr,
                      size_t elen)
{
    if (!nlen || nlen >= sizeof cs->c[0].name)
        return 0;
    for (unsigned i = 0; i < cs->n; i++)
        if (strlen(cs->c[i].name) == nlen && !memcmp(cs->c[i].name, name, nlen))
            return 0; /* the first definition wins (-D come first) */
    if (cs->n == cs->cap) {
        unsigned nc = cs->cap ? cs->cap * 2 : 64;
        struct smem_const *nn = realloc(cs->c, nc * sizeof *nn);
        if (!nn)
            return -1;
        cs->c = nn;
        cs->cap = nc;
    }
    struct smem_const *k = &cs->c[cs->n];
    memcpy(k->name, name, nlen);
    k->name[nlen] = 0;
    k->expr = malloc(elen + 1);
    if (!k->expr)
        return -1;
    memcpy(k->expr, expr, elen);
    k->expr[elen] = 0;
    cs->n++;
    return 0;
}

/* The text of tokens [a, b) joined by single spaces (malloc'd). */
static char *join_tokens(const struct toks *ts, size_t a, size_t b)
{
    size_t n = 1;
    for (size_t i = a; i < b; i++)
        n += ts->t[i].end - ts->t[i].start + 1;
    char *s = malloc(n), *p = s;
    if (!s)
        return NULL;
    for (size_t i = a; i < b; i++) {
        size_t l = ts->t[i].end - ts->t[i].start;
        if (i > a)
            *p++ = ' ';
        memcpy(p, ts->text + ts->t[i].start, l);
        p += l;
    }
    *p = 0;
    return s;
}

static int add_joined(struct smem_consts *cs, const struct toks *ts, size_t name_tok, size_t a,
                      size_t b)
{
    char *e = join_tokens(ts, a, b);
    if (!e)
        return -1;
    int rc = consts_add(cs, ts->text + ts->t[name_tok].start,
                        ts->t[name_tok].end - ts->t[name_tok].start, e, strlen(e));
    free(e);
    return rc;
}

static int scan_consts(struct smem_consts *cs, const struct toks *ts)
{
    for (size_t i = 0; i < ts->n; i++) {
        const struct tok *t = &ts->t[i];
        if (t->directive == 3) {
            /* #define NAME: body = following directive-1 tokens of this macro */
            size_t j = i + 1;
            while (j < ts->n && ts->t[j].directive == 1 && ts->t[j].define == (int32_t)i)
                j++;
            if (i + 1 < ts->n && ts->t[i + 1].directive == 2)
                continue; /* function-like */
            if (j == i + 1) {
                if (consts_add(cs, ts->text + t->start, t->end - t->start, "1", 1))
                    return -1;
            } else if (add_joined(cs, ts, i, i + 1, j)) {
                return -1;
            }
            continue;
        }
        if (t->directive)
            continue;
        if (tok_is(ts, i, "constexpr") || (tok_is(ts, i, "const") && !tok_is(ts, i - 1, "(") &&
                                           !tok_is(ts, i - 1, ","))) {
            /* [static] constexpr|const TYPE... NAME (= | {) EXPR (; | }) */
            size_t j = i + 1;
            while (j < ts->n && ts->t[j].kind == T_IDENT && !ts->t[j].directive &&
                   !(tok_is(ts, j + 1, "=") || tok_is(ts, j + 1, "{")))
                j++;
            if (j >= ts->n || ts->t[j].kind != T_IDENT || j == i + 1)
                continue;
            size_t e = j + 2, end = e;
            int brace = tok_is(ts, j + 1, "{");
            unsigned d = 0;
            for (; end < ts->n; end++) {
                if (tok_is(ts, end, "(") || tok_is(ts, end, "["))
                    d++;
                else if ((tok_is(ts, end, ")") || tok_is(ts, end, "]")) && d)
                    d--;
                else if (!d && (tok_is(ts, end, ";") || tok_is(ts, end, ",") ||
                                (brace && tok_is(ts, end, "}"))))
                    break;
            }
            if (end < ts->n && end > e && add_joined(cs, ts, j, e, end))
                return -1;
            continue;
        }
        if (tok_is(ts, i, "enum")) {
            size_t j = i + 1;
            while (j < ts->n && !tok_is(ts, j, "{") && !tok_is(ts, j, ";"))
                j++;
            if (!tok_is(ts, j, "{"))
                continue;
            char prev[96] = "";
            for (j++; j < ts->n && ts->t[j].kind == T_IDENT;) {
                size_t name = j++;
                char expr[160];
                if (tok_is(ts, j, "=")) {
                    size_t a = j + 1;
                    unsigned d = 0;
                    for (j = a; j < ts->n; j++) {
                        if (tok_is(ts, j, "("))
                            d++;
                        else if (tok_is(ts, j, ")") && d)
                            d--;
                        else if (!d && (tok_is(ts, j, ",") || tok_is(ts, j, "}")))
                            break;
                    }
                    if (add_joined(cs, ts, name, a, j))
                        return -1;
                } else {
                    if (prev[0])
                        snprintf(expr, sizeof expr, "(%s) + 1", prev);
                    else
                        snprintf(expr, sizeof expr, "0");
                    if (consts_add(cs, ts->text + ts->t[name].start,
                                   ts->t[name].end - ts->t[name].start, expr, strlen(expr)))
                        return -1;
                }
                tok_copy(ts, name, prev, sizeof prev);
                if (!tok_is(ts, j, ","))
                    break;
                j++;
            }
        }
    }
    return 0;
}

struct smem_consts *smem_consts_scan(const char *text, size_t len, const char *const *args,
                                     unsigned nargs)
{
    struct smem_consts *cs = calloc(1, sizeof *cs);
    if (!cs)
        return NULL;
    for (unsigned i = 0; i < nargs; i++) {
        const char *d = NULL;
        if (!strcmp(args[i], "-D") && i + 1 < nargs)
            d = args[++i];
        else if (!strncmp(args[i], "-D", 2))
            d = args[i] + 2;
        if (!d || !*d)
            continue;
        const char *eq = strchr(d, '=');
        int rc = eq ? consts_add(cs, d, (size_t)(eq - d), eq + 1, strlen(eq + 1))
                    : consts_add(cs, d, strlen(d), "1", 1);
        if (rc) {
            smem_consts_free(cs);
            return NULL;
        }
    }
    if (text) {
        struct toks ts;
        if (tokenize(text, len, &ts) || scan_consts(cs, &ts)) {
            free(ts.t);
            smem_consts_free(cs);
            return NULL;
        }
        free(ts.t);
    }
    return cs;
}

int smem_consts_define(struct smem_consts *c, const char *name, const char *value)
{
    return consts_add(c, name, strlen(name), value, strlen(value));
}

void smem_consts_free(struct smem_consts *c)
{
    if (!c)
        return;
    for (unsigned i = 0; i < c->n; i++)
        free(c->c[i].expr);
    free(c->c);
    free(c);
}

/* ---- integer expressions ------------------------------------------------------------------ */

struct ev {
    const char *s;
    const struct smem_consts *c;
    unsigned depth;  /* constants expanded inside constants */
    unsigned nest;   /* parentheses and unary operators: deep input must not exhaust the stack */
    int bad;
};

static void ev_ws(struct ev *e)
{
    while (*e->s && isspace((unsigned char)*e->s))
        e->s++;
}

static int ev_eat(struct ev *e, const char *op)
{
    ev_ws(e);
    size_t l = strlen(op);
    if (strncmp(e->s, op, l))
        return 0;
    /* don't read "<" out of "<<" or "<=", "&" out of "&&", "|" out of "||" */
    if (l == 1 && (op[0] == '<' || op[0] == '>') && (e->s[1] == op[0] || e->s[1] == '='))
        return 0;
    if (l == 1 && (op[0] == '&' || op[0] == '|') && e->s[1] == op[0])
        return 0;
    if (l == 1 && (op[0] == '!' || op[0] == '=') && e->s[1] == '=')
        return 0;
    e->s += l;
    return 1;
}

static int64_t ev_cond(struct ev *e);

static int64_t ev_lookup(struct ev *e, const char *name, size_t n)
{
    if (n == 4 && !memcmp(name, "true", 4))
        return 1;
    if (n == 5 && !memcmp(name, "false", 5))
        return 0;
    for (unsigned i = 0; e->c && i < e->c->n; i++)
        if (strlen(e->c->c[i].name) == n && !memcmp(e->c->c[i].name, name, n)) {
            if (e->depth > 32)
                break;
            struct ev sub = {e->c->c[i].expr, e->c, e->depth + 1, e->nest, 0};
            int64_t v = ev_cond(&sub);
            ev_ws(&sub);
            if (sub.bad || *sub.s)
                break;
            return v;
        }
    e->bad = 1;
    return 0;
}

static int64_t ev_unary_inner(struct ev *e);

static int64_t ev_unary(struct ev *e)
{
    if (e->bad || ++e->nest > 256) {
        e->bad = 1;
        return 0;
    }
    int64_t v = ev_unary_inner(e);
    e->nest--;
    return v;
}

static int64_t ev_unary_inner(struct ev *e)
{
    ev_ws(e);
    if (ev_eat(e, "+"))
        return ev_unary(e);
    if (ev_eat(e, "-"))
        return -ev_unary(e);
    if (ev_eat(e, "~"))
        return ~ev_unary(e);
    if (ev_eat(e, "!"))
        return !ev_unary(e);
    if (ev_eat(e, "(")) {
        /* a cast to an integer type: (int) x, (unsigned int) x, (size_t) x */
        const char *save = e->s;
        char ty[64];
        size_t k = 0;
        while (*e->s && (is_ident_char((unsigned char)*e->s) || *e->s == ' ') && k < sizeof ty - 1)
            ty[k++] = *e->s++;
        while (k && ty[k - 1] == ' ')
            k--;
        ty[k] = 0;
        if (k && *e->s == ')' && smem_type_bytes(ty) && !strchr(ty, '*') &&
            strcmp(ty, "float") && strcmp(ty, "double")) {
            e->s++;
            return ev_unary(e);
        }
        e->s = save;
        int64_t v = ev_cond(e);
        if (!ev_eat(e, ")"))
            e->bad = 1;
        return v;
    }
    if (isdigit((unsigned char)*e->s)) {
        char *end;
        unsigned long long v = strtoull(e->s, &end, 0);
        e->s = end;
        while (*e->s == 'u' || *e->s == 'U' || *e->s == 'l' || *e->s == 'L')
            e->s++;
        if (is_ident_char((unsigned char)*e->s) || *e->s == '.')
            e->bad = 1; /* a float or a malformed number */
        return (int64_t)v;
    }
    if (is_ident_start((unsigned char)*e->s)) {
        const char *n = e->s;
        while (is_ident_char((unsigned char)*e->s))
            e->s++;
        size_t nl = (size_t)(e->s - n);
        if (nl == 6 && !memcmp(n, "sizeof", 6)) {
            ev_ws(e);
            if (*e->s != '(') {
                e->bad = 1;
                return 0;
            }
            const char *a = ++e->s;
            while (*e->s && *e->s != ')')
                e->s++;
            char ty[96];
            size_t tl = (size_t)(e->s - a);
            if (!*e->s || tl >= sizeof ty) {
                e->bad = 1;
                return 0;
            }
            memcpy(ty, a, tl);
            ty[tl] = 0;
            e->s++;
            unsigned b = smem_type_bytes(ty);
            if (!b)
                e->bad = 1;
            return b;
        }
        return ev_lookup(e, n, nl);
    }
    e->bad = 1;
    return 0;
}

static int64_t ev_mul(struct ev *e)
{
    int64_t v = ev_unary(e);
    for (;;) {
        if (ev_eat(e, "*"))
            v *= ev_unary(e);
        else if (ev_eat(e, "/") || ev_eat(e, "%")) {
            int div = e->s[-1] == '/';
            int64_t r = ev_unary(e);
            if (!r) {
                e->bad = 1;
                return 0;
            }
            v = div ? v / r : v % r;
        } else
            return v;
    }
}

static int64_t ev_add(struct ev *e)
{
    int64_t v = ev_mul(e);
    for (;;) {
        if (ev_eat(e, "+"))
            v += ev_mul(e);
        else if (ev_eat(e, "-"))
            v -= ev_mul(e);
        else
            return v;
    }
}

static int64_t ev_shift(struct ev *e)
{
    int64_t v = ev_add(e);
    for (;;) {
        if (ev_eat(e, "<<")) {
            int64_t s = ev_add(e);
            v = s >= 0 && s < 63 ? (int64_t)((uint64_t)v << s) : (e->bad = 1, 0);
        } else if (ev_eat(e, ">>")) {
            int64_t s = ev_add(e);
            v = s >= 0 && s < 63 ? v >> s : (e->bad = 1, 0);
        } else
            return v;
    }
}

static int64_t ev_rel(struct ev *e)
{
    int64_t v = ev_shift(e);
    for (;;) {
        if (ev_eat(e, "<="))
            v = v <= ev_shift(e);
        else if (ev_eat(e, ">="))
            v = v >= ev_shift(e);
        else if (ev_eat(e, "<"))
            v = v < ev_shift(e);
        else if (ev_eat(e, ">"))
            v = v > ev_shift(e);
        else if (ev_eat(e, "=="))
            v = v == ev_shift(e);
        else if (ev_eat(e, "!="))
            v = v != ev_shift(e);
        else
            return v;
    }
}

static int64_t ev_bits(struct ev *e)
{
    int64_t v = ev_rel(e);
    for (;;) {
        if (ev_eat(e, "&"))
            v &= ev_rel(e);
        else if (ev_eat(e, "^"))
            v ^= ev_rel(e);
        else if (ev_eat(e, "|"))
            v |= ev_rel(e);
        else
            return v;
    }
}

static int64_t ev_logic(struct ev *e)
{
    int64_t v = ev_bits(e);
    for (;;) {
        if (ev_eat(e, "&&")) {
            int64_t r = ev_bits(e);
            v = v && r;
        } else if (ev_eat(e, "||")) {
            int64_t r = ev_bits(e);
            v = v || r;
        } else
            return v;
    }
}

static int64_t ev_cond(struct ev *e)
{
    int64_t c = ev_logic(e);
    if (!ev_eat(e, "?"))
        return c;
    int64_t a = ev_cond(e);
    if (!ev_eat(e, ":")) {
        e->bad = 1;
        return 0;
    }
    int64_t b = ev_cond(e);
    return c ? a : b;
}

int smem_const_eval(const struct smem_consts *c, const char *expr, int64_t *v)
{
    struct ev e = {expr, c, 0, 0, 0};
    int64_t r = ev_cond(&e);
    ev_ws(&e);
    if (e.bad || *e.s)
        return -1;
    *v = r;
    return 0;
}

/* ---- types -------------------------------------------------------------------------------- */

unsigned smem_type_bytes(const char *type)
{
    char t[128];
    size_t k = 0;
    /* normalise: drop qualifiers and std::/cuda:: prefixes, single spaces */
    const char *p = type;
    while (*p && k < sizeof t - 1) {
        while (*p == ' ')
            p++;
        const char *w = p;
        while (*p && *p != ' ')
            p++;
        size_t wl = (size_t)(p - w);
        if (!wl)
            break;
        if ((wl == 8 && !memcmp(w, "volatile", 8)) || (wl == 5 && !memcmp(w, "const", 5)) ||
            (wl == 6 && !memcmp(w, "signed", 6)))
            continue;
        if (wl > 5 && !memcmp(w, "std::", 5)) {
            w += 5;
            wl -= 5;
        }
        if (k && k < sizeof t - 1)
            t[k++] = ' ';
        if (wl > sizeof t - 1 - k)
            wl = sizeof t - 1 - k;
        memcpy(t + k, w, wl);
        k += wl;
    }
    t[k] = 0;
    if (strchr(t, '*'))
        return 8;
    static const struct {
        const char *name;
        unsigned bytes;
    } types[] = {
        {"char", 1}, {"unsigned char", 1}, {"int8_t", 1}, {"uint8_t", 1}, {"bool", 1},
        {"char1", 1}, {"uchar1", 1},
        {"short", 2}, {"unsigned short", 2}, {"short int", 2}, {"unsigned short int", 2},
        {"int16_t", 2}, {"uint16_t", 2}, {"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2},
        {"nv_bfloat16", 2}, {"char2", 2}, {"uchar2", 2}, {"short1", 2}, {"ushort1", 2},
        {"int", 4}, {"unsigned", 4}, {"unsigned int", 4}, {"int32_t", 4}, {"uint32_t", 4},
        {"float", 4}, {"long", 8}, {"unsigned long", 8}, {"long int", 8}, {"half2", 4},
        {"__half2", 4}, {"__nv_bfloat162", 4}, {"nv_bfloat162", 4}, {"char4", 4},
        {"uchar4", 4}, {"short2", 4}, {"ushort2", 4}, {"int1", 4}, {"uint1", 4}, {"float1", 4},
        {"double", 8}, {"long long", 8}, {"unsigned long long", 8}, {"long long int", 8},
        {"unsigned long long int", 8}, {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8},
        {"float2", 8}, {"int2", 8}, {"uint2", 8}, {"short4", 8}, {"ushort4", 8},
        {"double1", 8}, {"longlong1", 8}, {"ulonglong1", 8},
        {"float3", 12}, {"int3", 12}, {"uint3", 12},
        {"float4", 16}, {"int4", 16}, {"uint4", 16}, {"double2", 16}, {"longlong2", 16},
        {"ulonglong2", 16}, {"double3", 24}, {"double4", 32}, {"longlong4", 32},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(t, types[i].name))
            return types[i].bytes;
    return 0;
}

/* ---- declarations ------------------------------------------------------------------------- */

static int is_qualifier(const struct toks *ts, size_t i)
{
    static const char *const q[] = {"extern", "static", "volatile", "const", "__device__",
                                    "inline", "__restrict__", "register", "thread_local"};
    for (size_t k = 0; k < sizeof q / sizeof q[0]; k++)
        if (tok_is(ts, i, q[k]))
            return 1;
    return 0;
}

/* Skips `__align__(..)`, `alignas(..)`, `__attribute__((..))`, `__declspec(..)` at i. */
static size_t skip_attribute(const struct toks *ts, size_t i)
{
    if ((tok_is(ts, i, "__align__") || tok_is(ts, i, "alignas") || tok_is(ts, i, "__attribute__") ||
         tok_is(ts, i, "__declspec")) && tok_is(ts, i + 1, "(")) {
        for (size_t j = i + 2; j < ts->n; j++)
            if (ts->t[j].match == (int32_t)(i + 1))
                return j + 1;
    }
    return i;
}

static void collapse_ws(const char *src, size_t n, char *buf, size_t size)
{
    size_t k = 0;
    int space = 0;
    for (size_t i = 0; i < n && k + 1 < size; i++) {
        char c = src[i];
        if (c == '\\' && i + 1 < n && (src[i + 1] == '\n' || src[i + 1] == '\r'))
            c = ' ';
        if (isspace((unsigned char)c)) {
            space = k > 0;
            continue;
        }
        if (space && k + 2 < size)
            buf[k++] = ' ';
        space = 0;
        buf[k++] = c;
    }
    buf[k] = 0;
}

/* The name of the function whose body '{' at index b opens, or "" if it is not a function body. */
static size_t function_of_brace(const struct toks *ts, size_t b, char *name, size_t size)
{
    name[0] = 0;
    size_t j = b;
    while (j > 0 && (tok_is(ts, j - 1, "const") || tok_is(ts, j - 1, "noexcept") ||
                     tok_is(ts, j - 1, "override") || tok_is(ts, j - 1, "final")))
        j--;
    if (!j || !tok_is(ts, j - 1, ")") || ts->t[j - 1].match < 1)
        return 0;
    size_t open = (size_t)ts->t[j - 1].match;
    size_t f = open - 1;
    if (ts->t[f].kind != T_IDENT)
        return 0;
    static const char *const kw[] = {"if", "for", "while", "switch", "catch", "return", "sizeof",
                                     "__launch_bounds__", "__attribute__", "alignas", "decltype",
                                     "__align__"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if (tok_is(ts, f, kw[k]))
            return 0;
    tok_copy(ts, f, name, size);
    return f;
}

/* The template parameter names of the function whose name is token f ("TILE,T"), "" if it is not
 * a template: the `template <...>` that starts its declaration. */
static void template_params(const struct toks *ts, size_t f, char *out, size_t size)
{
    out[0] = 0;
    size_t t = f;
    /* back to the statement's start */
    while (t > 0 && !tok_is(ts, t - 1, ";") && !tok_is(ts, t - 1, "}") && !tok_is(ts, t - 1, "{") &&
           ts->t[t - 1].directive == ts->t[f].directive)
        t--;
    while (t < f && !tok_is(ts, t, "template"))
        t++;
    if (t >= f || !tok_is(ts, t + 1, "<"))
        return;
    size_t seg = t + 2, k = 0;
    int depth = 0;
    unsigned np = 0;
    for (size_t i = t + 2; i < f; i++) {
        int end = 0;
        if (tok_is(ts, i, "<") || tok_is(ts, i, "(") || tok_is(ts, i, "[")) {
            depth++;
            continue;
        }
        if (tok_is(ts, i, ")") || tok_is(ts, i, "]")) {
            depth -= depth > 0;
            continue;
        }
        if (tok_is(ts, i, ">>") && depth >= 2) {
            depth -= 2;
            continue;
        }
        if (tok_is(ts, i, ">") || tok_is(ts, i, ">>")) {
            if (tok_is(ts, i, ">") && depth > 0) {
                depth--;
                continue;
            }
            end = 1;
        } else if (!(tok_is(ts, i, ",") && depth == 0)) {
            continue;
        }
        /* a parameter: tokens [seg, i); its name is the last identifier before any '=' */
        size_t stop = i;
        for (size_t j = seg; j < i; j++)
            if (tok_is(ts, j, "=")) {
                stop = j;
                break;
            }
        char name[96] = "";
        if (stop > seg + 1 && ts->t[stop - 1].kind == T_IDENT)
            tok_copy(ts, stop - 1, name, sizeof name);
        if (!strcmp(name, "typename") || !strcmp(name, "class"))
            name[0] = 0;
        int w = snprintf(out + k, size - k, "%s%s", np++ ? "," : "", name);
        if (w < 0 || (size_t)w >= size - k) {
            out[0] = 0;
            return;
        }
        k += (size_t)w;
        seg = i + 1;
        if (end)
            break;
    }
}

/* Parses the declaration whose `__shared__` is token s; appends its declarators. */
static int parse_decl(const struct toks *ts, size_t s, const char *func, const char *tparams,
                      const struct smem_consts *consts, struct smem_decl **out, unsigned *n,
                      unsigned *cap)
{
    size_t start = s;
    int is_extern = 0;
    while (start > 0 && is_qualifier(ts, start - 1) &&
           ts->t[start - 1].directive == ts->t[s].directive) {
        if (tok_is(ts, start - 1, "extern"))
            is_extern = 1;
        start--;
    }
    size_t i = s + 1;
    char type[128] = "";
    for (;;) {
        size_t j = skip_attribute(ts, i);
        if (j != i) {
            i = j;
            continue;
        }
        if (i < ts->n && is_qualifier(ts, i)) {
            if (tok_is(ts, i, "extern"))
                is_extern = 1;
            i++;
            continue;
        }
        break;
    }
    /* type and first name: tokens up to a depth-0 '[', ',', ';' */
    size_t ts0 = i;
    unsigned angle = 0;
    for (; i < ts->n; i++) {
        if (tok_is(ts, i, "<"))
            angle++;
        else if (tok_is(ts, i, ">") && angle)
            angle--;
        else if (!angle && (tok_is(ts, i, "[") || tok_is(ts, i, ",") || tok_is(ts, i, ";") ||
                            tok_is(ts, i, "=") || tok_is(ts, i, "{") || tok_is(ts, i, "(") ||
                            tok_is(ts, i, ")") || tok_is(ts, i, "}")))
            break;
        if (ts->t[i].directive != ts->t[s].directive)
            return 0;
    }
    if (i >= ts->n || i < ts0 + 2 || ts->t[i - 1].kind != T_IDENT)
        return 0;
    if (!(tok_is(ts, i, "[") || tok_is(ts, i, ",") || tok_is(ts, i, ";")))
        return 0;
    /* type = tokens [ts0, i-1) minus attributes and qualifiers */
    size_t k = 0;
    for (size_t t = ts0; t + 1 < i; t++) {
        size_t sk = skip_attribute(ts, t);
        if (sk != t) {
            t = sk - 1;
            continue;
        }
        if (is_qualifier(ts, t))
            continue;
        char w[96];
        tok_copy(ts, t, w, sizeof w);
        int glue = !strcmp(w, "::") || !strcmp(w, "<") || !strcmp(w, ">") || !strcmp(w, ",") ||
                   (k && (type[k - 1] == ':' || type[k - 1] == '<'));
        if (k && !glue && k + 1 < sizeof type)
            type[k++] = ' ';
        size_t wl = strlen(w);
        if (k + wl >= sizeof type)
            break;
        memcpy(type + k, w, wl);
        k += wl;
        type[k] = 0;
    }
    size_t name_tok = i - 1;
    for (;;) {
        struct smem_decl d;
        memset(&d, 0, sizeof d);
        tok_copy(ts, name_tok, d.name, sizeof d.name);
        snprintf(d.type, sizeof d.type, "%s", type);
        snprintf(d.func, sizeof d.func, "%s", func);
        snprintf(d.tparams, sizeof d.tparams, "%s", tparams);
        d.is_extern = is_extern;
        d.line = ts->t[name_tok].line;
        d.col = ts->t[name_tok].col;
        d.stmt_start = ts->t[start].start;
        while (tok_is(ts, i, "[")) {
            size_t close = i + 1;
            while (close < ts->n && ts->t[close].match != (int32_t)i)
                close++;
            if (close >= ts->n)
                return 0;
            size_t a = ts->t[i].end, b = ts->t[close].start;
            if (d.ndims < SMEM_DECL_MAX_DIMS) {
                collapse_ws(ts->text + a, b - a, d.dim_text[d.ndims], sizeof d.dim_text[0]);
                int64_t v;
                d.dim[d.ndims] = d.dim_text[d.ndims][0] && !smem_const_eval(consts, d.dim_text[d.ndims], &v) && v > 0 ? v : -1;
                d.last_start = a;
                d.last_end = b;
            }
            d.ndims++;
            i = close + 1;
        }
        if (d.ndims > SMEM_DECL_MAX_DIMS)
            return 0; /* too many dimensions to describe: leave it out */
        if (*n == *cap) {
            unsigned nc = *cap ? *cap * 2 : 16;
            struct smem_decl *nd = realloc(*out, nc * sizeof *nd);
            if (!nd)
                return -1;
            *out = nd;
            *cap = nc;
        }
        (*out)[(*n)++] = d;
        if (tok_is(ts, i, ",")) {
            i++;
            while (tok_is(ts, i, "*") || tok_is(ts, i, "&"))
                i++;
            if (i >= ts->n || ts->t[i].kind != T_IDENT)
                return 0;
            name_tok = i++;
            continue;
        }
        break;
    }
    if (!tok_is(ts, i, ";"))
        return 0;
    /* the statement ends here: set every declarator of it */
    for (unsigned q = *n; q-- > 0 && (*out)[q].stmt_start == ts->t[start].start;)
        (*out)[q].stmt_end = ts->t[i].end;
    return 0;
}

unsigned smem_decl_scan(const char *text, size_t len, const struct smem_consts *consts,
                        struct smem_decl **out)
{
    struct toks ts;
    *out = NULL;
    if (tokenize(text, len, &ts)) {
        free(ts.t);
        return 0;
    }
    unsigned n = 0, cap = 0;
    /* braces: which function body each token is in */
    struct {
        size_t tok;
        char name[128];
        char tparams[256];
        int func;
    } stack[256];
    unsigned depth = 0;
    const char *func = "", *tparams = "";
    for (size_t i = 0; i < ts.n; i++) {
        if (ts.t[i].directive == 3)
            continue;
        if (tok_is(&ts, i, "{")) {
            if (depth < 256) {
                stack[depth].tok = i;
                stack[depth].func = 0;
                stack[depth].name[0] = 0;
                if (!*func) {
                    size_t f = function_of_brace(&ts, i, stack[depth].name,
                                                 sizeof stack[depth].name);
                    if (stack[depth].name[0]) {
                        stack[depth].func = 1;
                        func = stack[depth].name;
                        template_params(&ts, f, stack[depth].tparams,
                                        sizeof stack[depth].tparams);
                        tparams = stack[depth].tparams;
                    }
                }
            }
            depth++;
        } else if (tok_is(&ts, i, "}") && depth) {
            depth--;
            if (depth < 256 && stack[depth].func)
                func = tparams = "";
        } else if (tok_is(&ts, i, "__shared__")) {
            unsigned before = n;
            if (parse_decl(&ts, i, func, tparams, consts, out, &n, &cap)) {
                free(*out);
                *out = NULL;
                free(ts.t);
                return 0;
            }
            /* a declarator whose statement never ended (no ';') is dropped */
            unsigned kept = before;
            for (unsigned q = before; q < n; q++)
                if ((*out)[q].stmt_end)
                    (*out)[kept++] = (*out)[q];
            n = kept;
        }
    }
    free(ts.t);
    return n;
}

/* ---- padding ------------------------------------------------------------------------------ */

void smem_decl_pad_text(const struct smem_decl *d, unsigned pad, char *buf, size_t size)
{
    const char *t = d->dim_text[d->ndims ? (d->ndims > SMEM_DECL_MAX_DIMS ? SMEM_DECL_MAX_DIMS : d->ndims) - 1 : 0];
    if (!pad) {
        snprintf(buf, size, "%s", t);
        return;
    }
    size_t n = strlen(t);
    if (n && strspn(t, "0123456789") == n) {
        snprintf(buf, size, "%llu", strtoull(t, NULL, 10) + pad);
        return;
    }
    /* "X + k": fold the pad into k when nothing binds looser than + at the top level */
    int depth = 0, simple = 1;
    for (size_t i = 0; i < n; i++) {
        char c = t[i];
        if (c == '(')
            depth++;
        else if (c == ')')
            depth--;
        else if (!depth && strchr("<>?&|^=!,~:", c))
            simple = 0;
    }
    if (!simple) {
        snprintf(buf, size, "(%s) + %u", t, pad);
        return;
    }
    size_t e = n;
    while (e && isdigit((unsigned char)t[e - 1]))
        e--;
    size_t p = e;
    while (p && t[p - 1] == ' ')
        p--;
    if (e < n && p > 1 && t[p - 1] == '+') {
        unsigned long long k = strtoull(t + e, NULL, 10);
        snprintf(buf, size, "%.*s%llu", (int)e, t, k + pad);
        return;
    }
    snprintf(buf, size, "%s + %u", t, pad);
}

char *smem_decl_patch(const char *text, size_t len, const struct smem_decl *const *decls,
                      const unsigned *pads, unsigned n, size_t *outlen)
{
    size_t extra = 0;
    for (unsigned i = 0; i < n; i++)
        extra += pads[i] ? sizeof decls[i]->dim_text[0] + 32 : 0; /* >= a padded dimension */
    char *out = malloc(len + extra + 1);
    uint8_t *done = calloc(n ? n : 1, 1);
    if (!out || !done) {
        free(out);
        free(done);
        return NULL;
    }
    size_t pos = 0, k = 0;
    for (;;) {
        /* the next edit after pos (each once: an empty dimension `[]` starts where it ends) */
        int next = -1;
        for (unsigned i = 0; i < n; i++)
            if (pads[i] && !done[i] && decls[i]->ndims && decls[i]->last_start >= pos &&
                decls[i]->last_end <= len &&
                (next < 0 || decls[i]->last_start < decls[next]->last_start))
                next = (int)i;
        if (next < 0)
            break;
        done[next] = 1;
        const struct smem_decl *d = decls[next];
        memcpy(out + k, text + pos, d->last_start - pos);
        k += d->last_start - pos;
        char buf[200];
        smem_decl_pad_text(d, pads[next], buf, sizeof buf);
        size_t bl = strlen(buf);
        memcpy(out + k, buf, bl);
        k += bl;
        pos = d->last_end;
    }
    free(done);
    memcpy(out + k, text + pos, len - pos);
    k += len - pos;
    out[k] = 0;
    if (outlen)
        *outlen = k;
    return out;
}

void smem_decl_statement(const char *text, const struct smem_decl *d, unsigned pad, char *buf,
                         size_t size)
{
    char pt[200];
    smem_decl_pad_text(d, pad, pt, sizeof pt);
    size_t a = d->stmt_start, b = d->stmt_end;
    size_t n = (b - a) + strlen(pt) + 1;
    char *tmp = malloc(n);
    if (!tmp) {
        snprintf(buf, size, "%s", d->name);
        return;
    }
    size_t k = 0;
    if (d->ndims && d->last_start >= a && d->last_end <= b) {
        memcpy(tmp, text + a, d->last_start - a);
        k = d->last_start - a;
        memcpy(tmp + k, pt, strlen(pt));
        k += strlen(pt);
        memcpy(tmp + k, text + d->last_end, b - d->last_end);
        k += b - d->last_end;
    } else {
        memcpy(tmp, text + a, b - a);
        k = b - a;
    }
    collapse_ws(tmp, k, buf, size);
    free(tmp);
}

/* ---- mangled names ------------------------------------------------------------------------ */

/* "<digits><name>" at s: the name's length and where it starts, 0 if none. */
static size_t source_name_at(const char *s, const char **name)
{
    if (!isdigit((unsigned char)*s))
        return 0;
    char *end;
    unsigned long l = strtoul(s, &end, 10);
    if (!l || strlen(end) < l)
        return 0;
    *name = end;
    return l;
}

/* Whether rest is a discriminator ("", "_N", "__NN_"). */
static int is_discriminator(const char *rest)
{
    if (!*rest)
        return 1;
    if (rest[0] != '_')
        return 0;
    if (isdigit((unsigned char)rest[1]) && !rest[2])
        return 1;
    if (rest[1] == '_') {
        size_t d = strspn(rest + 2, "0123456789");
        return d && rest[2 + d] == '_' && !rest[3 + d];
    }
    return 0;
}

void smem_decl_source_name(const char *ptx_name, char *name, size_t size, char *func, size_t fsize)
{
    if (func && fsize)
        func[0] = 0;
    snprintf(name, size, "%s", ptx_name);
    if (strncmp(ptx_name, "_ZZ", 3))
        return;
    /* the rightmost E<len><name>[discriminator] that ends the string */
    size_t n = strlen(ptx_name);
    for (size_t i = n; i-- > 3;) {
        if (ptx_name[i] != 'E')
            continue;
        const char *nm;
        size_t l = source_name_at(ptx_name + i + 1, &nm);
        if (l && is_discriminator(nm + l)) {
            snprintf(name, size, "%.*s", (int)l, nm);
            break;
        }
    }
    if (func && fsize) {
        /* the function: the first <len><name> after _ZZ (the last component of a nested name) */
        const char *p = ptx_name + 3, *nm;
        size_t l;
        if (*p == 'N') {
            p++;
            const char *last = NULL;
            size_t lastl = 0;
            while ((l = source_name_at(p, &nm))) {
                last = nm;
                lastl = l;
                p = nm + l;
            }
            if (last)
                snprintf(func, fsize, "%.*s", (int)lastl, last);
        } else if ((l = source_name_at(p, &nm))) {
            snprintf(func, fsize, "%.*s", (int)l, nm);
        }
    }
}
