/* params.c: kernel parameters by the names the compiler saw (params.h). Three parts: a scanner of
 * preprocessed C++ that finds every __global__ declaration (namespaces, templates, macros already
 * expanded by nvcc) and the simple typedefs; matching a PTX entry to its declaration and typing
 * each parameter; checking and binding --param values.
 * The scanner serves only the matching below and shares its declaration types; the next split is
 * the scanner into params_scan.c. */
#include "smemlab/analysis/params.h"

#include "smemlab/base/lex.h"
#include "smemlab/base/signature.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens of preprocessed C++ (base/lex.c: line markers followed, one-byte punctuators) ---- */

static int is_id(int c) { return isalnum(c) || c == '_' || c == '$'; }

enum { T_EOF = SMEM_TOK_EOF, T_ID = SMEM_TOK_IDENT, T_STR = SMEM_TOK_STRING,
       T_PUNCT = SMEM_TOK_PUNCT };

/* Short names for this file's many token tests. */
static struct smem_token next(struct smem_lexer *L) { return smem_lex_next(L); }
static int is(const struct smem_token *t, const char *s) { return smem_tok_is(t, s); }

static struct smem_token peek(const struct smem_lexer *L)
{
    struct smem_lexer c = *L;
    return next(&c);
}

/* Skips a balanced group; the opening token was just read. Returns 0 at its close, -1 at EOF. */
static int skip_group(struct smem_lexer *L, char open, char close)
{
    int depth = 1;
    for (;;) {
        struct smem_token t = next(L);
        if (t.kind == T_EOF)
            return -1;
        if (t.kind == T_PUNCT && t.n == 1 && *t.s == open)
            depth++;
        else if (t.kind == T_PUNCT && t.n == 1 && *t.s == close && --depth == 0)
            return 0;
    }
}

/* Skips template arguments; '<' was just read. '>' inside parentheses does not close them. */
static int skip_targs(struct smem_lexer *L)
{
    int depth = 1, paren = 0;
    for (;;) {
        struct smem_token t = next(L);
        if (t.kind == T_EOF || is(&t, ";") || is(&t, "{") || is(&t, "}"))
            return -1;
        if (is(&t, "(") || is(&t, "["))
            paren++;
        else if ((is(&t, ")") || is(&t, "]")) && paren > 0)
            paren--;
        else if (!paren && is(&t, "<"))
            depth++;
        else if (!paren && is(&t, ">") && --depth == 0)
            return 0;
    }
}

/* ---- growing text ------------------------------------------------------------------------------ */

struct sbuf {
    char *s;
    size_t n, cap;
    int oom;
};

static void sb_add(struct sbuf *b, const char *s, size_t n)
{
    if (b->oom)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t nc = b->cap ? b->cap * 2 : 64;
        while (nc < b->n + n + 1)
            nc *= 2;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->oom = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

/* Appends token text, a space between two words ("unsigned char", "T* __restrict__ in"). */
static void sb_tok(struct sbuf *b, const char *s, size_t n)
{
    if (b->n && n) {
        char last = b->s[b->n - 1];
        int word = is_id((unsigned char)*s) || *s == '"' || *s == '\'';
        if ((word && (is_id((unsigned char)last) || last == '*' || last == '&' || last == ',')) ||
            (*s == '.' && n == 3))
            sb_add(b, " ", 1);
    }
    sb_add(b, s, n);
}

/* ---- the declarations of a preprocessed unit --------------------------------------------------- */

struct pp_param {
    char *name;  /* NULL: unnamed */
    char *type;  /* the declaration without name and default ("const T* __restrict__") */
    int pack;    /* a function parameter pack (Ts... rest) */
};

struct pp_kernel {
    char *qual;        /* namespaces and name, template arguments removed ("lab::transpose") */
    char *targs;       /* explicit template arguments (a specialisation), normalised; NULL */
    char *tparams;     /* a template's parameters ("int BM, int BN"), blanks collapsed; NULL */
    int definition;
    int c_linkage;     /* declared in extern "C" (block or prefix) */
    struct pp_param *params;
    unsigned nparams;
    char *file;
    unsigned line;
};

struct pp_typedef {
    char *name;
    char *type;
};

struct smem_pp_unit {
    struct pp_kernel *k;
    unsigned nk, capk;
    struct pp_typedef *td;
    unsigned ntd, captd;
    int oom;
};

static char *dupn(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Template arguments compared loosely: no blanks, no integer suffixes (256u == 256). */
static char *norm_targs(const char *s, size_t n)
{
    char *d = malloc(n + 1), *w = d;
    if (!d)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\n')
            continue;
        if (strchr("uUlL", c) && w > d && isdigit((unsigned char)w[-1])) {
            /* a suffix of a number (not of a name like int64) */
            char *q = w;
            while (q > d && isdigit((unsigned char)q[-1]))
                q--;
            if (q == d || !is_id((unsigned char)q[-1]))
                continue;
        }
        *w++ = c;
    }
    *w = 0;
    return d;
}

static const char *const builtin_words[] = {
    "void", "bool", "char", "short", "int", "long", "signed", "unsigned", "float", "double",
    "wchar_t", "char8_t", "char16_t", "char32_t", "__int128", "__signed__", "__signed", NULL};
static const char *const qualifier_words[] = {
    "const", "volatile", "__restrict__", "__restrict", "restrict", "struct", "class", "union",
    "enum", "typename", "register", NULL};

static int in_list(const char *const *list, const char *s, size_t n)
{
    for (unsigned i = 0; list[i]; i++)
        if (strlen(list[i]) == n && !memcmp(list[i], s, n))
            return 1;
    return 0;
}

/* One parameter from its tokens (default argument already cut). */
static int make_param(const struct smem_token *t, unsigned n, struct pp_param *out)
{
    memset(out, 0, sizeof *out);
    int name_at = -1;
    /* int (*fp)(int): the name inside the first parenthesised declarator */
    for (unsigned i = 0; i + 2 < n; i++)
        if (is(&t[i], "(") && (is(&t[i + 1], "*") || is(&t[i + 1], "&")) && t[i + 2].kind == T_ID) {
            name_at = (int)i + 2;
            break;
        }
    if (name_at < 0) {
        unsigned m = n;
        while (m && is(&t[m - 1], "]")) { /* int a[4]: drop the extents */
            int d = 0;
            while (m) {
                m--;
                if (is(&t[m], "]"))
                    d++;
                else if (is(&t[m], "[") && --d == 0)
                    break;
            }
        }
        if (m >= 2 && t[m - 1].kind == T_ID && !in_list(builtin_words, t[m - 1].s, t[m - 1].n) &&
            !in_list(qualifier_words, t[m - 1].s, t[m - 1].n) && !is(&t[m - 2], "::")) {
            int type_before = 0;
            for (unsigned i = 0; i + 1 < m; i++)
                if ((t[i].kind == T_ID && !in_list(qualifier_words, t[i].s, t[i].n)) ||
                    is(&t[i], ">") || is(&t[i], "*") || is(&t[i], "&"))
                    type_before = 1;
            if (type_before)
                name_at = (int)m - 1;
        }
    }
    struct sbuf ty = {0};
    for (unsigned i = 0; i < n; i++) {
        if ((int)i == name_at)
            continue;
        if (is(&t[i], "...") && (name_at < 0 || (int)i < name_at))
            out->pack = 1;
        sb_tok(&ty, t[i].s, t[i].n);
    }
    if (ty.oom)
        return -1;
    out->type = ty.s ? ty.s : dupn("", 0);
    if (name_at >= 0)
        out->name = dupn(t[name_at].s, t[name_at].n);
    return out->type && (name_at < 0 || out->name) ? 0 : -1;
}

/* The parameter list after '(' up to its ')'. Returns 0, -1 at EOF or out of memory. */
static int param_list(struct smem_lexer *L, struct pp_kernel *k)
{
    struct smem_token buf[256];
    unsigned n = 0, cap = 0;
    int depth = 0, in_default = 0, overflow = 0;
    for (;;) {
        struct smem_token t = next(L);
        if (t.kind == T_EOF)
            return -1;
        int close = depth == 0 && is(&t, ")");
        if (depth == 0 && (close || is(&t, ","))) {
            if (n == 1 && is(&buf[0], "void") && close && !k->nparams) {
                return 0; /* k(void) */
            }
            if (n || !close || k->nparams) {
                if (k->nparams == cap) {
                    cap = cap ? cap * 2 : 8;
                    struct pp_param *np = realloc(k->params, cap * sizeof *np);
                    if (!np)
                        return -1;
                    k->params = np;
                }
                if (overflow)
                    n = 0; /* too long to read: an unnamed parameter */
                if (make_param(buf, n, &k->params[k->nparams]))
                    return -1;
                k->nparams++;
            }
            n = 0;
            in_default = overflow = 0;
            if (close)
                return 0;
            continue;
        }
        if (!in_default && is(&t, "__attribute__")) { /* say nothing of type or name */
            struct smem_token o = next(L);
            if (!is(&o, "(") || skip_group(L, '(', ')'))
                return -1;
            continue;
        }
        if (!in_default && is(&t, "[") && is((struct smem_token[]){peek(L)}, "[")) { /* [[...]] */
            next(L);
            if (skip_group(L, '[', ']') || !is((struct smem_token[]){next(L)}, "]"))
                return -1;
            continue;
        }
        if (is(&t, "(") || is(&t, "[") || is(&t, "{") || (is(&t, "<") && !in_default))
            depth++;
        else if ((is(&t, ")") || is(&t, "]") || is(&t, "}") || (is(&t, ">") && !in_default)) &&
                 depth > 0)
            depth--;
        if (depth == 0 && is(&t, "="))
            in_default = 1;
        if (in_default)
            continue;
        if (n < sizeof buf / sizeof buf[0])
            buf[n++] = t;
        else
            overflow = 1;
    }
}

static void pp_kernel_free(struct pp_kernel *k)
{
    for (unsigned i = 0; i < k->nparams; i++) {
        free(k->params[i].name);
        free(k->params[i].type);
    }
    free(k->params);
    free(k->qual);
    free(k->targs);
    free(k->tparams);
    free(k->file);
}

struct scope {
    int kind;     /* 0 other, 1 namespace, 2 linkage block */
    int c;        /* linkage "C" */
    char *name;   /* namespace */
};

/* A declaration after __attribute__((global)) / __global__: specifiers, the name, the parameters,
 * then '{' (a definition) or ';'. On success *L stands after the ')' (the main loop sees the
 * body's braces). */
/* text[0, n) with each run of blanks one space, trimmed (malloc'd; NULL when out of memory) */
static char *collapse_blanks(const char *text, size_t n)
{
    char *d = malloc(n + 1), *w = d;
    if (!d)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        if (isspace((unsigned char)text[i])) {
            if (w > d && w[-1] != ' ')
                *w++ = ' ';
        } else {
            *w++ = text[i];
        }
    }
    while (w > d && w[-1] == ' ')
        w--;
    *w = 0;
    return d;
}

static int kernel_decl(struct smem_lexer *L, const struct scope *st, unsigned depth, int c_prefix,
                       unsigned line, const char *tpl, size_t tpl_n, struct smem_pp_unit *u)
{
    struct smem_lexer save = *L;
    struct pp_kernel k;
    memset(&k, 0, sizeof k);
    struct sbuf name = {0};
    const char *targ_b = NULL;
    size_t targ_n = 0;
    int found = 0;
    for (int guard = 0; guard < 200 && !found; guard++) {
        struct smem_token t = next(L);
        if (t.kind == T_EOF || is(&t, ";") || is(&t, "{") || is(&t, "}") || is(&t, "="))
            goto fail;
        if (t.kind == T_ID && (is(&t, "__attribute__") || is(&t, "__declspec") ||
                               is(&t, "alignas") || is(&t, "__launch_bounds__") ||
                               is(&t, "__align__") || is(&t, "decltype"))) {
            struct smem_token o = next(L);
            if (!is(&o, "(") || skip_group(L, '(', ')'))
                goto fail;
            continue;
        }
        if (is(&t, "[") && is((struct smem_token[]){peek(L)}, "[")) {
            next(L);
            if (skip_group(L, '[', ']') || !is((struct smem_token[]){next(L)}, "]"))
                goto fail;
            continue;
        }
        if (t.kind != T_ID && !is(&t, "::"))
            continue;
        /* a (qualified) name; the declarator if '(' follows */
        name.n = 0;
        if (name.s)
            name.s[0] = 0;
        struct smem_token cur = t;
        if (is(&t, "::")) { /* ::name: from the global namespace */
            sb_add(&name, "::", 2);
            cur = next(L);
            if (cur.kind != T_ID)
                goto fail;
        }
        for (;;) {
            sb_add(&name, cur.s, cur.n);
            struct smem_token nx = peek(L);
            if (is(&nx, "<") && cur.kind == T_ID) {
                struct smem_lexer at = *L;
                next(L);
                if (skip_targs(L))
                    goto fail;
                targ_b = at.text + at.pos;
                while (targ_b < L->text + L->len && *targ_b != '<')
                    targ_b++;
                targ_b++;
                targ_n = (size_t)(L->text + L->pos - 1 - targ_b);
                nx = peek(L);
                if (!is(&nx, "::") && !is(&nx, "(")) {
                    targ_b = NULL;
                    break;
                }
                if (is(&nx, "::"))
                    targ_b = NULL; /* a class template's arguments, not the function's */
            }
            if (is(&nx, "::")) {
                next(L);
                sb_add(&name, "::", 2);
                cur = next(L);
                if (cur.kind != T_ID)
                    goto fail;
                continue;
            }
            if (is(&nx, "(") && cur.kind == T_ID) {
                found = 1;
            } else if (cur.kind == T_ID) {
                struct smem_token after = peek(L);
                if (after.kind == T_ID || is(&after, "::")) {
                    break; /* a specifier (void, static, ...): go on */
                }
            }
            break;
        }
        if (!found)
            targ_b = NULL;
    }
    if (!found || name.oom)
        goto fail;
    next(L); /* '(' */
    if (param_list(L, &k))
        goto fail;
    /* after ')': attributes, noexcept, a trailing return, then '{' or ';' */
    struct smem_lexer after = *L;
    for (int guard = 0; guard < 100; guard++) {
        struct smem_token t = next(&after);
        if (t.kind == T_EOF)
            break;
        if (is(&t, "{")) {
            k.definition = 1;
            break;
        }
        if (is(&t, ";") || is(&t, "}") || is(&t, ","))
            break;
        if (is(&t, "(") && skip_group(&after, '(', ')'))
            break;
    }
    /* the qualified name */
    struct sbuf q = {0};
    if (strncmp(name.s, "::", 2))
        for (unsigned i = 0; i < depth; i++)
            if (st[i].kind == 1) {
                sb_add(&q, st[i].name, strlen(st[i].name));
                sb_add(&q, "::", 2);
            }
    sb_add(&q, name.s[0] == ':' ? name.s + 2 : name.s, strlen(name.s[0] == ':' ? name.s + 2 : name.s));
    free(name.s);
    name.s = NULL;
    if (q.oom)
        goto fail;
    smem_signature_strip_targs(q.s);
    k.qual = q.s;
    if (targ_b && !(k.targs = norm_targs(targ_b, targ_n)))
        goto fail;
    if (tpl && !(k.tparams = collapse_blanks(tpl, tpl_n)))
        goto fail;
    k.c_linkage = c_prefix;
    for (unsigned i = 0; i < depth; i++)
        k.c_linkage |= st[i].kind == 2 && st[i].c;
    k.line = line;
    if (save.file && !(k.file = dupn(save.file, save.file_len)))
        goto fail;
    if (u->nk == u->capk) {
        unsigned nc = u->capk ? u->capk * 2 : 16;
        struct pp_kernel *nk = realloc(u->k, nc * sizeof *nk);
        if (!nk)
            goto fail;
        u->k = nk;
        u->capk = nc;
    }
    u->k[u->nk++] = k;
    return 0;
fail:
    free(name.s);
    pp_kernel_free(&k);
    *L = save;
    return -1;
}

/* typedef A B C NAME;  using NAME = A B C; (simple ones: words, '::' and '*' only) */
static void simple_typedef(struct smem_lexer *L, int is_using, struct smem_pp_unit *u)
{
    struct smem_lexer save = *L;
    struct smem_token t[32];
    unsigned n = 0;
    for (;;) {
        struct smem_token x = next(L);
        if (is(&x, ";"))
            break;
        if (x.kind == T_EOF || n == 32 ||
            !(x.kind == T_ID || is(&x, "::") || is(&x, "*") || (is_using && is(&x, "=")))) {
            *L = save;
            return;
        }
        t[n++] = x;
    }
    const struct smem_token *nm;
    unsigned b, e;
    if (is_using) {
        if (n < 3 || t[0].kind != T_ID || !is(&t[1], "="))
            return;
        nm = &t[0];
        b = 2;
        e = n;
    } else {
        if (n < 2 || t[n - 1].kind != T_ID)
            return;
        nm = &t[n - 1];
        b = 0;
        e = n - 1;
    }
    struct sbuf ty = {0};
    for (unsigned i = b; i < e; i++)
        sb_tok(&ty, t[i].s, t[i].n);
    char *name = dupn(nm->s, nm->n);
    if (ty.oom || !name || !ty.s) {
        free(ty.s);
        free(name);
        u->oom = 1;
        return;
    }
    if (u->ntd == u->captd) {
        unsigned nc = u->captd ? u->captd * 2 : 64;
        struct pp_typedef *nt = realloc(u->td, nc * sizeof *nt);
        if (!nt) {
            free(ty.s);
            free(name);
            u->oom = 1;
            return;
        }
        u->td = nt;
        u->captd = nc;
    }
    u->td[u->ntd].name = name;
    u->td[u->ntd].type = ty.s;
    u->ntd++;
}

struct smem_pp_unit *smem_pp_scan(const char *text, size_t len)
{
    struct smem_pp_unit *u = calloc(1, sizeof *u);
    if (!u)
        return NULL;
    struct smem_lexer L;
    smem_lex_init(&L, text, len, SMEM_LEX_LINE_MARKERS | SMEM_LEX_SPLIT_PUNCT);
    struct scope st[256];
    unsigned depth = 0;
    int pending = 0, pending_c = 0, c_prefix = 0; /* the next '{' opens a namespace/linkage */
    char *pending_name = NULL;
    const char *tpl = NULL; /* the parameters of a `template <...>` the next declaration has */
    size_t tpl_n = 0;
    for (;;) {
        struct smem_token t = next(&L);
        if (t.kind == T_EOF || u->oom)
            break;
        if (is(&t, "{") || is(&t, "}") || is(&t, ";"))
            tpl = NULL;
        if (is(&t, "{")) {
            if (depth < 256) {
                st[depth].kind = pending;
                st[depth].c = pending_c;
                st[depth].name = pending_name;
                pending_name = NULL;
            } else {
                free(pending_name);
                pending_name = NULL;
            }
            depth++;
            pending = pending_c = c_prefix = 0;
            continue;
        }
        if (is(&t, "}")) {
            if (depth) {
                depth--;
                if (depth < 256)
                    free(st[depth].name);
            }
            c_prefix = 0;
            continue;
        }
        if (is(&t, ";")) {
            c_prefix = 0;
            free(pending_name);
            pending_name = NULL;
            pending = 0;
            continue;
        }
        if (t.kind != T_ID)
            continue;
        int ns_scope = depth <= 256;
        for (unsigned i = 0; ns_scope && i < depth; i++)
            ns_scope = st[i].kind != 0;
        if (is(&t, "namespace")) {
            struct sbuf nm = {0};
            struct smem_lexer at = L;
            struct smem_token x = next(&at);
            while (x.kind == T_ID || is(&x, "::")) {
                if (x.kind == T_ID && !is(&x, "inline"))
                    sb_tok(&nm, x.s, x.n);
                else if (is(&x, "::"))
                    sb_add(&nm, "::", 2);
                x = next(&at);
            }
            if (is(&x, "{")) {
                free(pending_name);
                pending_name = nm.s ? nm.s : dupn("(anonymous namespace)", 21);
                if (!pending_name)
                    u->oom = 1;
                pending = 1;
            } else {
                free(nm.s);
            }
            continue;
        }
        if (is(&t, "extern")) { /* extern "C" { ... } or extern "C" one declaration */
            struct smem_lexer at = L;
            struct smem_token lit = next(&at);
            if (lit.kind == T_STR) {
                int c = lit.n == 3 && !memcmp(lit.s, "\"C\"", 3);
                L = at;
                if (is((struct smem_token[]){peek(&L)}, "{")) {
                    pending = 2;
                    pending_c = c;
                } else {
                    c_prefix = c;
                }
            }
            continue;
        }
        if (ns_scope && is(&t, "template") && is((struct smem_token[]){peek(&L)}, "<")) {
            next(&L);
            size_t b = L.pos;
            tpl = NULL;
            if (skip_targs(&L) == 0 && L.pos - 1 > b) {
                tpl = L.text + b;
                tpl_n = L.pos - 1 - b; /* "<>": a specialisation, no template */
                while (tpl_n && isspace((unsigned char)*tpl)) {
                    tpl++;
                    tpl_n--;
                }
                if (!tpl_n)
                    tpl = NULL;
            }
            continue;
        }
        if (ns_scope && (is(&t, "typedef") || is(&t, "using"))) {
            simple_typedef(&L, is(&t, "using"), u);
            continue;
        }
        int global = 0;
        unsigned line = t.line;
        if (is(&t, "__global__")) {
            global = 1;
        } else if (is(&t, "__attribute__")) {
            struct smem_lexer at = L;
            struct smem_token a = next(&at), b = next(&at), g = next(&at), c1 = next(&at),
                              c2 = next(&at);
            if (is(&a, "(") && is(&b, "(") && (is(&g, "global") || is(&g, "__global__")) &&
                is(&c1, ")") && is(&c2, ")")) {
                global = 1;
                L = at;
            }
        }
        if (global && ns_scope)
            kernel_decl(&L, st, depth < 256 ? depth : 256, c_prefix, line, tpl, tpl_n, u);
    }
    free(pending_name);
    for (unsigned i = 0; i < depth && i < 256; i++)
        free(st[i].name);
    if (u->oom) {
        smem_pp_unit_free(u);
        return NULL;
    }
    return u;
}

void smem_pp_unit_free(struct smem_pp_unit *u)
{
    if (!u)
        return;
    for (unsigned i = 0; i < u->nk; i++)
        pp_kernel_free(&u->k[i]);
    free(u->k);
    for (unsigned i = 0; i < u->ntd; i++) {
        free(u->td[i].name);
        free(u->td[i].type);
    }
    free(u->td);
    free(u);
}

unsigned smem_pp_unit_kernels(const struct smem_pp_unit *u)
{
    return u ? u->nk : 0;
}

int smem_pp_unit_template(const struct smem_pp_unit *u, unsigned i, struct smem_pp_template *out)
{
    if (!u || i >= u->nk || !u->k[i].tparams || !u->k[i].definition)
        return 0;
    out->qual = u->k[i].qual;
    out->tparams = u->k[i].tparams;
    out->file = u->k[i].file;
    out->line = u->k[i].line;
    return 1;
}

/* ---- types ------------------------------------------------------------------------------------ */

struct ctype {
    int kind;      /* enum smem_param_kind, or -1 unknown (a class, an enum, a template T) */
    unsigned bytes;
    int is_signed;
};

static const char *typedef_of(const struct smem_pp_unit *u, const char *name, size_t n)
{
    if (!u)
        return NULL;
    for (unsigned i = u->ntd; i-- > 0;)
        if (strlen(u->td[i].name) == n && !memcmp(u->td[i].name, name, n))
            return u->td[i].type;
    return NULL;
}

/* A type as C++ spells it ("unsigned char*", "float const*", "long unsigned int", "uint8_t"). */
static struct ctype classify(const char *ty, const struct smem_pp_unit *u, int hops)
{
    struct ctype c = {-1, 0, -1};
    int depth = 0;
    for (const char *p = ty; *p; p++) {
        if (*p == '<' || *p == '(')
            depth++;
        else if ((*p == '>' || *p == ')') && depth)
            depth--;
        else if (!depth && (*p == '*' || *p == '&' || *p == '[')) {
            c.kind = SMEM_PARAM_POINTER;
            c.bytes = 8;
            return c;
        }
    }
    if (strchr(ty, '<') || strchr(ty, '('))
        return c;
    unsigned n_unsigned = 0, n_signed = 0, n_short = 0, n_long = 0, n_char = 0, n_int = 0,
             n_bool = 0, n_float = 0, n_double = 0, n_other_builtin = 0, n_words = 0;
    const char *word = NULL;
    size_t word_n = 0;
    for (const char *p = ty; *p;) {
        if (!is_id((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *s = p;
        while (is_id((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - s);
#define W(x) (n == sizeof(x) - 1 && !memcmp(s, x, n))
        if (in_list(qualifier_words, s, n))
            continue;
        if (W("unsigned"))
            n_unsigned++;
        else if (W("signed") || W("__signed__") || W("__signed"))
            n_signed++;
        else if (W("short"))
            n_short++;
        else if (W("long"))
            n_long++;
        else if (W("char"))
            n_char++;
        else if (W("int"))
            n_int++;
        else if (W("bool"))
            n_bool++;
        else if (W("float"))
            n_float++;
        else if (W("double"))
            n_double++;
        else if (in_list(builtin_words, s, n))
            n_other_builtin++, word = s, word_n = n;
        else
            n_words++, word = s, word_n = n; /* the last name: std::size_t -> size_t */
#undef W
    }
    unsigned builtin = n_unsigned + n_signed + n_short + n_long + n_char + n_int + n_bool +
                       n_float + n_double + n_other_builtin;
    if (n_words) {
        if (builtin || hops > 8)
            return c;
        const char *to = typedef_of(u, word, word_n);
        return to ? classify(to, u, hops + 1) : c;
    }
    if (n_other_builtin) {
        if (word_n == 7 && !memcmp(word, "wchar_t", 7))
            c = (struct ctype){SMEM_PARAM_INT, 4, 1};
        else if (word_n == 7 && !memcmp(word, "char8_t", 7))
            c = (struct ctype){SMEM_PARAM_INT, 1, 0};
        else if (word_n == 8 && !memcmp(word, "char16_t", 8))
            c = (struct ctype){SMEM_PARAM_INT, 2, 0};
        else if (word_n == 8 && !memcmp(word, "char32_t", 8))
            c = (struct ctype){SMEM_PARAM_INT, 4, 0};
        return c; /* void, __int128: left to the PTX */
    }
    if (n_bool)
        return (struct ctype){SMEM_PARAM_BOOL, 1, 0};
    if (n_float)
        return (struct ctype){SMEM_PARAM_FLOAT, 4, 1};
    if (n_double)
        return n_long ? c : (struct ctype){SMEM_PARAM_FLOAT, 8, 1};
    if (!builtin)
        return c;
    c.kind = SMEM_PARAM_INT;
    c.is_signed = n_unsigned ? 0 : 1; /* plain char is signed on the x86-64 and aarch64 hosts... */
    c.bytes = n_char ? 1 : n_short ? 2 : n_long ? 8 : 4;
    return c;
}

static const char *ptx_type_name(unsigned t)
{
    static const char *const names[] = {
#define TYPE(id, name, bytes, where) [PT_##id] = (bytes ? "." name : ""), /* a register type */
#include "smemlab/ptx/types.def"
#undef TYPE
    };
    return t < sizeof names / sizeof names[0] ? names[t] : "";
}

/* The parameter types of a parsed demangled signature: "void k<int>(int const*, S<1, 2>)" -> 2.
 * Returns the count (-1: no parameter list, as for extern "C" symbols; -2: out of memory);
 * types[i] malloc'd. */
static int demangled_types(const char *d, const struct smem_signature *sig, char ***types)
{
    *types = NULL;
    int n = smem_signature_params(d, sig, NULL, 0);
    if (n <= 0)
        return n;
    struct smem_span *sp = malloc((size_t)n * sizeof *sp);
    char **out = calloc((size_t)n, sizeof *out);
    int ok = sp && out;
    if (ok)
        smem_signature_params(d, sig, sp, (unsigned)n);
    for (int i = 0; ok && i < n; i++)
        ok = (out[i] = dupn(d + sp[i].off, sp[i].len)) != NULL;
    free(sp);
    if (!ok) {
        for (int i = 0; out && i < n; i++)
            free(out[i]);
        free(out);
        return -2;
    }
    *types = out;
    return n;
}

/* ---- matching an entry to its declaration ------------------------------------------------------ */

/* Whether declaration parameter type `src` (with template parameters unknown) can be `dem`. */
static int type_compatible(const char *src, const char *dem, const struct smem_pp_unit *u)
{
    struct ctype a = classify(src, u, 0), b = classify(dem, u, 0);
    if ((a.kind == SMEM_PARAM_POINTER) != (b.kind == SMEM_PARAM_POINTER))
        return a.kind == -1 || b.kind == -1 ? (a.kind != SMEM_PARAM_POINTER) : 0;
    if (a.kind == -1 || b.kind == -1)
        return 1;
    return a.kind == b.kind && a.bytes == b.bytes &&
           (a.kind != SMEM_PARAM_INT || a.is_signed == b.is_signed);
}

/* Expanded parameter count of a declaration (packs: at least its fixed ones). */
static int fits_count(const struct pp_kernel *k, unsigned n)
{
    unsigned fixed = 0, packs = 0;
    for (unsigned i = 0; i < k->nparams; i++)
        k->params[i].pack ? packs++ : fixed++;
    return packs ? fixed <= n : fixed == n;
}

/* Source parameter of expanded position j (a pack's elements: index within it in *elem). */
static const struct pp_param *expanded(const struct pp_kernel *k, unsigned n, unsigned j, int *elem)
{
    unsigned fixed = 0, pack_at = k->nparams;
    for (unsigned i = 0; i < k->nparams; i++) {
        if (k->params[i].pack && pack_at == k->nparams)
            pack_at = i;
        else
            fixed++;
    }
    *elem = -1;
    if (pack_at == k->nparams)
        return j < k->nparams ? &k->params[j] : NULL;
    unsigned pack_n = n - fixed;
    if (j < pack_at)
        return &k->params[j];
    if (j < pack_at + pack_n) {
        *elem = (int)(j - pack_at);
        return &k->params[pack_at];
    }
    unsigned i = j - pack_n + 1;
    return i < k->nparams ? &k->params[i] : NULL;
}

static int same_names(const struct pp_kernel *a, const struct pp_kernel *b)
{
    if (a->nparams != b->nparams)
        return 0;
    for (unsigned i = 0; i < a->nparams; i++) {
        const char *x = a->params[i].name, *y = b->params[i].name;
        if ((x == NULL) != (y == NULL) || (x && strcmp(x, y)) ||
            a->params[i].pack != b->params[i].pack)
            return 0;
    }
    return 1;
}

/* A qualified name after its last top-level "::" ("ns::k" -> "k"). */
static const char *unqualified(const char *qual)
{
    struct smem_signature s;
    smem_signature_parse(qual, strlen(qual), &s);
    return qual + s.last.off;
}

/* The declaration that names entry (qual, c_linkage, targs) with n parameters of types dem (NULL:
 * unknown); NULL with why when none or several. */
static const struct pp_kernel *find_decl(const struct smem_pp_unit *u, const char *qual,
                                         const char *targs, int c_linkage, unsigned n,
                                         char *const *dem, char *why, size_t why_size)
{
    const struct pp_kernel *cand[64];
    unsigned nc = 0, same_name = 0;
    const char *last = unqualified(qual);
    for (unsigned i = 0; i < u->nk && nc < 64; i++) {
        const struct pp_kernel *k = &u->k[i];
        int name_ok;
        if (c_linkage) {
            name_ok = !strcmp(unqualified(k->qual), last);
        } else {
            name_ok = !strcmp(k->qual, qual);
        }
        if (!name_ok)
            continue;
        same_name++;
        if (k->targs && (!k->definition || !targs || strcmp(k->targs, targs)))
            continue; /* an explicit instantiation, or another specialisation */
        if (!fits_count(k, n))
            continue;
        int ok = 1;
        for (unsigned j = 0; dem && ok && j < n; j++) {
            int elem;
            const struct pp_param *p = expanded(k, n, j, &elem);
            ok = p && (elem >= 0 || type_compatible(p->type, dem[j], u));
        }
        if (ok)
            cand[nc++] = k;
    }
    /* a specialisation for exactly these arguments wins over the primary template */
    int special = 0;
    for (unsigned i = 0; i < nc; i++)
        special |= cand[i]->targs != NULL;
    int defs = 0;
    for (unsigned i = 0; i < nc; i++)
        defs |= cand[i]->definition && (!special || cand[i]->targs);
    const struct pp_kernel *pick = NULL;
    unsigned distinct = 0;
    for (unsigned i = 0; i < nc; i++) {
        if ((special && !cand[i]->targs) || (defs && !cand[i]->definition))
            continue;
        if (!pick) {
            pick = cand[i];
            distinct = 1;
        } else if (!same_names(pick, cand[i])) {
            distinct++;
        }
    }
    if (!pick) {
        snprintf(why, why_size, same_name ? "no declaration of %s in the preprocessed source has "
                                            "its %u parameters" :
                                            "no declaration of %s in the preprocessed source",
                 qual, n);
        return NULL;
    }
    if (distinct > 1) {
        snprintf(why, why_size, "%u declarations of %s in the preprocessed source could be this "
                                "kernel", distinct, qual);
        return NULL;
    }
    return pick;
}

static void copy_trim(char *dst, size_t size, const char *src)
{
    snprintf(dst, size, "%s", src ? src : "");
}

int smem_ksig_build(const struct smem_pp_unit *u, const struct smem_ptx_func *f,
                    const char *demangled, struct smem_ksig *out)
{
    memset(out, 0, sizeof *out);
    out->nparams = f->nparams;
    out->params = calloc(f->nparams ? f->nparams : 1, sizeof *out->params);
    struct smem_signature dsig;
    smem_signature_parse(demangled, strlen(demangled), &dsig);
    char *dname = dupn(demangled + dsig.name.off, dsig.name.len);
    char **dem = NULL;
    int nd = demangled_types(demangled, &dsig, &dem);
    if (!out->params || !dname || nd == -2) {
        free(dname);
        smem_ksig_free(out);
        return -1;
    }
    copy_trim(out->name, sizeof out->name, dname);
    if (nd >= 0 && (unsigned)nd != f->nparams) { /* should not happen: trust the PTX */
        for (int i = 0; i < nd; i++)
            free(dem[i]);
        free(dem);
        dem = NULL;
        nd = -1;
    }
    int c_linkage = strncmp(f->name, "_Z", 2) != 0;
    const struct pp_kernel *decl = NULL;
    if (!u) {
        snprintf(out->why_unnamed, sizeof out->why_unnamed, "parameter names need the .cu source");
    } else {
        /* qualified name without template arguments; the entry's own arguments for specialisations */
        char *qual = dupn(dname, strlen(dname));
        char *targs = NULL;
        if (dsig.has_targs)
            targs = norm_targs(demangled + dsig.targs.off, dsig.targs.len);
        if (qual) {
            smem_signature_strip_targs(qual);
            decl = find_decl(u, qual, targs, c_linkage, f->nparams, nd >= 0 ? dem : NULL,
                             out->why_unnamed, sizeof out->why_unnamed);
        }
        free(qual);
        free(targs);
    }
    if (decl) {
        out->named = 1;
        copy_trim(out->file, sizeof out->file, decl->file);
        out->line = decl->line;
    }
    for (unsigned j = 0; j < f->nparams; j++) {
        struct smem_kparam *p = &out->params[j];
        const struct smem_ptx_symbol *s = &f->syms[j];
        p->ptx_name = s->name;
        p->size = s->size;
        const struct pp_param *sp = NULL;
        int elem = -1;
        if (decl)
            sp = expanded(decl, f->nparams, j, &elem);
        if (sp && sp->name) {
            if (elem >= 0)
                snprintf(p->name, sizeof p->name, "%.50s[%d]", sp->name, elem);
            else
                copy_trim(p->name, sizeof p->name, sp->name);
        }
        /* the type: demangled, else declared (not a pack's "Ts..."), else the PTX's */
        const char *ty = nd >= 0 ? dem[j] : (sp && elem < 0 ? sp->type : NULL);
        struct ctype c = ty ? classify(ty, u, 0) : (struct ctype){-1, 0, -1};
        unsigned pt = s->type, pbytes = smem_ptx_type_bytes((enum smem_ptx_type)pt);
        int aggregate = (pt >= PT_B8 && pt <= PT_B64 && s->size > pbytes) || pt == PT_B128 ||
                        pt == PT_F16 || pt == PT_BF16 || pt == PT_F16X2 || pt == PT_BF16X2;
        if (aggregate) {
            p->kind = SMEM_PARAM_AGGREGATE;
            p->bytes = (uint8_t)(s->size < 255 ? s->size : 255);
        } else if (c.kind >= 0 && c.bytes == pbytes) {
            p->type_known = 1;
            p->kind = (uint8_t)c.kind;
            p->bytes = (uint8_t)c.bytes;
            p->is_signed = (int8_t)c.is_signed;
        } else if (pt == PT_F32 || pt == PT_F64) {
            p->kind = SMEM_PARAM_FLOAT;
            p->bytes = (uint8_t)pbytes;
            p->is_signed = 1;
        } else {
            p->kind = SMEM_PARAM_INT;
            p->bytes = (uint8_t)(pbytes ? pbytes : 8);
            p->is_signed = (pt >= PT_S8 && pt <= PT_S64) ? 1 : -1;
        }
        if (ty) {
            char t[sizeof p->type];
            copy_trim(t, sizeof t, ty);
            /* the declaration's qualifiers say nothing the value needs */
            char *r;
            while ((r = strstr(t, " __restrict__")) || (r = strstr(t, "__restrict__ ")))
                memmove(r, r + 13, strlen(r + 13) + 1);
            copy_trim(p->type, sizeof p->type, t);
        } else {
            snprintf(p->type, sizeof p->type, "%s", ptx_type_name(pt));
            if (aggregate)
                snprintf(p->type, sizeof p->type, ".b8[%llu]", (unsigned long long)s->size);
        }
    }
    for (int i = 0; i < nd; i++)
        free(dem[i]);
    free(dem);
    free(dname);
    return 0;
}

void smem_ksig_free(struct smem_ksig *s)
{
    if (!s)
        return;
    free(s->params);
    s->params = NULL;
    s->nparams = 0;
}

const char *smem_ksig_format(const struct smem_ksig *s, char *buf, size_t size)
{
    struct sbuf b = {0};
    sb_add(&b, s->name, strlen(s->name));
    sb_add(&b, "(", 1);
    for (unsigned i = 0; i < s->nparams; i++) {
        const struct smem_kparam *p = &s->params[i];
        if (i)
            sb_add(&b, ", ", 2);
        sb_add(&b, p->type, strlen(p->type));
        if (p->name[0]) {
            sb_add(&b, " ", 1);
            sb_add(&b, p->name, strlen(p->name));
        }
    }
    sb_add(&b, ")", 1);
    if (!size)
        return buf;
    if (b.oom || !b.s) {
        snprintf(buf, size, "%s(...)", s->name);
    } else if (b.n < size) {
        memcpy(buf, b.s, b.n + 1);
    } else {
        snprintf(buf, size, "%.*s...)", size > 5 ? (int)(size - 5) : 0, b.s);
    }
    free(b.s);
    return buf;
}

const char *smem_kparam_label(const struct smem_kparam *p)
{
    return p->name[0] ? p->name : p->ptx_name ? p->ptx_name : "?";
}

/* ---- values ----------------------------------------------------------------------------------- */

/* An integer: optional sign, decimal or 0x hex. 0, or -1 (not an integer), -2 (out of 64 bits). */
static int parse_int(const char *v, int *neg, unsigned long long *mag)
{
    const char *p = v;
    *neg = 0;
    if (*p == '-' || *p == '+')
        *neg = *p++ == '-';
    int base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
        base = 16;
        p += 2;
    }
    if (!*p)
        return -1;
    for (const char *q = p; *q; q++)
        if (!(base == 16 ? isxdigit((unsigned char)*q) : isdigit((unsigned char)*q)))
            return -1;
    errno = 0;
    char *end;
    *mag = strtoull(p, &end, base);
    if (errno == ERANGE)
        return -2;
    return 0;
}

int smem_kparam_value(const struct smem_kparam *p, const char *value, uint64_t *bits, char *why,
                      size_t why_size)
{
    *bits = 0;
    if (p->kind == SMEM_PARAM_POINTER) {
        snprintf(why, why_size, "'%s' is a pointer (%s): the analysis gives each pointer an "
                                "address of its own; --param sets scalars",
                 smem_kparam_label(p), p->type);
        return -1;
    }
    if (p->kind == SMEM_PARAM_AGGREGATE) {
        snprintf(why, why_size, "'%s' is passed by value as %llu bytes (%s): --param sets "
                                "integers, floating point and bool",
                 smem_kparam_label(p), (unsigned long long)p->size, p->type);
        return -1;
    }
    if (p->kind == SMEM_PARAM_BOOL) {
        if (!strcmp(value, "0") || !strcmp(value, "false"))
            return 0;
        if (!strcmp(value, "1") || !strcmp(value, "true")) {
            *bits = 1;
            return 0;
        }
        snprintf(why, why_size, "'%s' is not a bool ('%s' is bool: 0, 1, false or true)", value,
                 smem_kparam_label(p));
        return -1;
    }
    if (p->kind == SMEM_PARAM_FLOAT) {
        char *end;
        errno = 0;
        double d = strtod(value, &end);
        if (!*value || *end || isspace((unsigned char)*value)) {
            snprintf(why, why_size, "'%s' is not a number ('%s' is %s)", value,
                     smem_kparam_label(p), p->type);
            return -1;
        }
        if (p->bytes == 4) {
            if (isfinite(d) && fabs(d) > FLT_MAX) {
                snprintf(why, why_size, "%s does not fit '%s' (%s)", value, smem_kparam_label(p),
                         p->type);
                return -1;
            }
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else {
            if (errno == ERANGE && isinf(d)) {
                snprintf(why, why_size, "%s does not fit '%s' (%s)", value, smem_kparam_label(p),
                         p->type);
                return -1;
            }
            memcpy(bits, &d, 8);
        }
        return 0;
    }
    /* integers */
    int neg;
    unsigned long long mag;
    int r = parse_int(value, &neg, &mag);
    if (r == -1) {
        snprintf(why, why_size, "'%s' is not an integer ('%s' is %s)", value,
                 smem_kparam_label(p), p->type);
        return -1;
    }
    unsigned bitsw = p->bytes ? p->bytes * 8u : 64u;
    unsigned long long umax = bitsw >= 64 ? ~0ull : (1ull << bitsw) - 1;
    unsigned long long smax = umax >> 1, smin_mag = smax + 1; /* |min| of the signed type */
    int fits;
    if (r == -2)
        fits = 0;
    else if (p->is_signed == 1)
        fits = neg ? mag <= smin_mag : mag <= smax;
    else if (p->is_signed == 0)
        fits = neg ? mag == 0 : mag <= umax;
    else
        fits = neg ? mag <= smin_mag : mag <= umax;
    if (!fits) {
        char range[96];
        if (p->is_signed == 1)
            snprintf(range, sizeof range, "-%llu..%llu", smin_mag, smax);
        else if (p->is_signed == 0)
            snprintf(range, sizeof range, "0..%llu", umax);
        else
            snprintf(range, sizeof range, "-%llu..%llu", smin_mag, umax);
        snprintf(why, why_size, "%s does not fit '%s' (%s: %s)", value, smem_kparam_label(p),
                 p->type, range);
        return -1;
    }
    uint64_t x = neg ? (uint64_t)0 - (uint64_t)mag : (uint64_t)mag;
    *bits = bitsw >= 64 ? x : x & umax;
    return 0;
}

/* ---- binding ---------------------------------------------------------------------------------- */

static int find_param(const struct smem_ksig *s, const char *name)
{
    if (*name && strspn(name, "0123456789") == strlen(name)) {
        if (strlen(name) > 9)
            return -1;
        unsigned long v = strtoul(name, NULL, 10);
        return v < s->nparams ? (int)v : -1;
    }
    for (unsigned j = 0; j < s->nparams; j++)
        if (s->params[j].name[0] && !strcmp(s->params[j].name, name))
            return (int)j;
    for (unsigned j = 0; j < s->nparams; j++)
        if (s->params[j].ptx_name && !strcmp(s->params[j].ptx_name, name))
            return (int)j;
    return -1;
}

/* The error of a --param, located at the kernel's declaration when there is one kernel. */
static int bind_fail(struct smem_error *err, const struct smem_ksig *s, const char *source,
                     const char *msg)
{
    if (s && s->file[0])
        return smem_error_set(err, s->file, s->line, 0, "%s", msg);
    return smem_error_set(err, source, 0, 0, "%s", msg);
}

int smem_params_bind(const struct smem_ksig *sigs, unsigned nk, const struct smem_param_arg *args,
                     unsigned nargs, struct smem_param_value *const *pv, const char *source,
                     struct smem_error *err)
{
    unsigned total = 0;
    for (unsigned k = 0; k < nk; k++)
        total += sigs[k].nparams;
    int *by = malloc((total ? total : 1) * sizeof *by); /* which arg set each parameter */
    if (!by)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    for (unsigned i = 0; i < total; i++)
        by[i] = -1;
    char sig[400], what[240], why[240], m[1024];
    int rc = 0;
    for (unsigned i = 0; i < nargs && !rc; i++) {
        const struct smem_param_arg *a = &args[i];
        int numeric = *a->name && strspn(a->name, "0123456789") == strlen(a->name);
        snprintf(what, sizeof what, "--param %.100s=%.100s", a->name, a->value);
        unsigned matched = 0, base = 0;
        for (unsigned k = 0; k < nk && !rc; base += sigs[k].nparams, k++) {
            const struct smem_ksig *s = &sigs[k];
            int j = find_param(s, a->name);
            if (j < 0)
                continue;
            matched++;
            const struct smem_kparam *p = &s->params[j];
            smem_ksig_format(s, sig, sizeof sig);
            int *slot = &by[base + (unsigned)j];
            uint64_t bits;
            if (*slot >= 0) {
                const struct smem_param_arg *o = &args[*slot];
                snprintf(m, sizeof m, "%s: parameter '%s' of kernel %s is already given (--param "
                         "%.60s=%.60s)", what, smem_kparam_label(p), sig, o->name, o->value);
                rc = bind_fail(err, s, source, m);
            } else if (smem_kparam_value(p, a->value, &bits, why, sizeof why)) {
                snprintf(m, sizeof m, "%s: %s; kernel %s", what, why, sig);
                rc = bind_fail(err, s, source, m);
            } else {
                *slot = (int)i;
                pv[k][j].set = 1;
                pv[k][j].bits = bits;
            }
        }
        if (rc || matched)
            continue;
        /* matched nothing: say what there is */
        if (nk == 1) {
            const struct smem_ksig *s = &sigs[0];
            smem_ksig_format(s, sig, sizeof sig);
            if (!s->nparams)
                snprintf(why, sizeof why, " (it takes none)");
            else if (numeric)
                snprintf(why, sizeof why, " (positions 0..%u)", s->nparams - 1);
            else if (!s->named)
                snprintf(why, sizeof why, " (%.200s: give the position)", s->why_unnamed);
            else
                why[0] = 0;
            snprintf(m, sizeof m, "%s: no parameter %s in kernel %s%s", what,
                     numeric ? "at that position" : "of that name", sig, why);
            rc = bind_fail(err, s, source, m);
        } else {
            struct sbuf list = {0};
            for (unsigned k = 0; k < nk; k++) {
                smem_ksig_format(&sigs[k], sig, sizeof sig);
                if (k)
                    sb_add(&list, "; ", 2);
                sb_add(&list, sig, strlen(sig));
            }
            snprintf(m, sizeof m, "%s: no parameter %s in any of the %u kernels analysed (%s)",
                     what, numeric ? "at that position" : "of that name", nk,
                     list.s ? list.s : "");
            free(list.s);
            rc = bind_fail(err, NULL, source, m);
        }
    }
    free(by);
    return rc;
}
