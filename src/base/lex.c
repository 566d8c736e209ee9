/* lex.c: tokens of C, C++ and CUDA source (lex.h). A hand-written scanner over bytes: blanks,
 * comments and line splices between tokens, then the longest token that starts there. Lines
 * count every newline (in comments, raw strings and splices too); columns count bytes. */
#include "smemlab/base/lex.h"

#include <assert.h>
#include <ctype.h>
#include <string.h>

static int is_id0(int c) { return isalpha(c) || c == '_' || c == '$'; }
static int is_id(int c) { return isalnum(c) || c == '_' || c == '$'; }

void smem_lex_init(struct smem_lexer *L, const char *text, size_t len, unsigned flags)
{
    memset(L, 0, sizeof *L);
    L->text = text;
    L->len = len;
    L->line = 1;
    L->flags = flags;
    L->bol = 1;
}

/* A new line starts at byte `at`. */
static void new_line(struct smem_lexer *L, const char *at)
{
    L->line++;
    L->line_start = (size_t)(at - L->text);
}

/* The length of a line splice (backslash, newline) at p; 0 if none there. */
static size_t splice(const char *p, const char *e)
{
    if (*p != '\\')
        return 0;
    if (p + 1 < e && p[1] == '\n')
        return 2;
    if (p + 2 < e && p[1] == '\r' && p[2] == '\n')
        return 3;
    return 0;
}

void smem_lex_skip_line(struct smem_lexer *L)
{
    const char *p = L->text + L->pos, *e = L->text + L->len;
    while (p < e && *p != '\n') {
        size_t k = splice(p, e);
        if (k) {
            p += k;
            new_line(L, p);
        } else {
            p++;
        }
    }
    L->pos = (size_t)(p - L->text);
}

/* A line marker's number and file after the '#' at p ("# 12 \"file\" 2", "#line 12"): 1 when
 * there is one (the line after it is line 12), 0 when p starts another directive. */
static int line_marker(struct smem_lexer *L, const char *p)
{
    const char *e = L->text + L->len;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (e - p > 4 && !memcmp(p, "line", 4) && !is_id((unsigned char)p[4]))
        p += 4;
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= e || !isdigit((unsigned char)*p))
        return 0;
    unsigned long n = 0;
    while (p < e && isdigit((unsigned char)*p)) {
        n = n * 10 + (unsigned long)(*p - '0');
        if (n > 100000000ul)
            n = 100000000ul;
        p++;
    }
    while (p < e && (*p == ' ' || *p == '\t'))
        p++;
    if (p < e && *p == '"') {
        const char *f = ++p;
        while (p < e && *p != '"' && *p != '\n')
            p += (*p == '\\' && p + 1 < e) ? 2 : 1;
        L->file = f;
        L->file_len = (size_t)(p - f);
    }
    L->line = n ? (unsigned)n - 1 : 0; /* the newline ending the marker makes it n */
    return 1;
}

/* The end of a quoted literal whose quote is at p; raw: R"delim( ... )delim". An ordinary literal
 * ends at its quote or before the end of its line. */
static const char *literal(struct smem_lexer *L, const char *p, int raw)
{
    const char *e = L->text + L->len;
    char q = *p++;
    if (raw) {
        const char *d = p;
        while (p < e && *p != '(' && p - d < 16)
            p++;
        size_t dl = (size_t)(p - d);
        for (; p < e; p++) {
            if (*p == '\n')
                new_line(L, p + 1);
            if (*p == ')' && (size_t)(e - p) > dl + 1 && !memcmp(p + 1, d, dl) && p[1 + dl] == '"')
                return p + 2 + dl;
        }
        return e;
    }
    while (p < e && *p != q && *p != '\n') {
        if (*p == '\\' && p + 1 < e) {
            if (p[1] == '\n')
                new_line(L, p + 2);
            p += 2;
        } else {
            p++;
        }
    }
    return p < e && *p == q ? p + 1 : p;
}

/* The length of the punctuator at p. */
static size_t punct(const struct smem_lexer *L, const char *p)
{
    static const char *const longer[] = {
        "<<=", ">>=", "->*", "...", "<=>", "::", "##", "<<", ">>", "->", "<=", ">=", "==", "!=",
        "&&", "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", ".*"};
    size_t left = L->len - (size_t)(p - L->text);
    if (L->flags & SMEM_LEX_SPLIT_PUNCT) {
        if (left >= 2 && p[0] == ':' && p[1] == ':')
            return 2;
        if (left >= 3 && p[0] == '.' && p[1] == '.' && p[2] == '.')
            return 3;
        return 1;
    }
    for (size_t k = 0; k < sizeof longer / sizeof longer[0]; k++) {
        size_t n = strlen(longer[k]);
        if (left >= n && !memcmp(p, longer[k], n))
            return n;
    }
    return 1;
}

struct smem_token smem_lex_next(struct smem_lexer *L)
{
    const char *p = L->text + L->pos, *e = L->text + L->len;
    for (;;) {
        if (p >= e)
            break;
        char c = *p;
        size_t k;
        if (c == '\n') {
            new_line(L, p + 1);
            L->bol = 1;
            L->directive = 0;
            p++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            p++;
        } else if ((k = splice(p, e))) {
            p += k;
            new_line(L, p);
        } else if (c == '/' && p + 1 < e && p[1] == '/') {
            while (p < e && *p != '\n') {
                if ((k = splice(p, e))) {
                    p += k;
                    new_line(L, p);
                } else {
                    p++;
                }
            }
        } else if (c == '/' && p + 1 < e && p[1] == '*') {
            for (p += 2; p < e && !(*p == '*' && p + 1 < e && p[1] == '/'); p++)
                if (*p == '\n')
                    new_line(L, p + 1);
            p = p < e ? p + 2 : e;
        } else if (c == '#' && L->bol && !L->directive) {
            L->pos = (size_t)(p - L->text);
            if ((L->flags & SMEM_LEX_LINE_MARKERS) && line_marker(L, p + 1)) {
                smem_lex_skip_line(L);
            } else if (!(L->flags & SMEM_LEX_DIRECTIVES)) {
                smem_lex_skip_line(L);
            } else {
                const char *nm = p + 1;
                while (nm < e && (*nm == ' ' || *nm == '\t'))
                    nm++;
                const char *ne = nm;
                while (ne < e && is_id((unsigned char)*ne))
                    ne++;
                struct smem_token t = {nm, (size_t)(ne - nm), L->line,
                                       (unsigned)((size_t)(nm - L->text) - L->line_start) + 1,
                                       SMEM_TOK_DIRECTIVE, 1};
                L->directive = 1;
                L->bol = 0;
                L->pos = (size_t)(ne - L->text);
                return t;
            }
            p = L->text + L->pos;
        } else {
            break;
        }
    }
    L->bol = 0;
    struct smem_token t = {e, 0, L->line, 0, SMEM_TOK_EOF, L->directive};
    if (p >= e) {
        L->pos = L->len;
        return t;
    }
    t.s = p;
    t.col = (unsigned)((size_t)(p - L->text) - L->line_start) + 1;
    unsigned char c = (unsigned char)*p;
    if (is_id0(c)) {
        const char *s = p;
        while (p < e && is_id((unsigned char)*p))
            p++;
        size_t n = (size_t)(p - s);
        t.kind = SMEM_TOK_IDENT;
        /* encoding prefixes and raw strings: u8"..", L'..', R"(..)" */
        if (p < e && (*p == '"' || *p == '\'') && n <= 3) {
            int raw = s[n - 1] == 'R';
            size_t pn = raw ? n - 1 : n;
            if (pn == 0 || (pn == 1 && (*s == 'L' || *s == 'u' || *s == 'U')) ||
                (pn == 2 && s[0] == 'u' && s[1] == '8')) {
                p = literal(L, p, raw && *p == '"');
                t.kind = SMEM_TOK_STRING;
            }
        }
    } else if (isdigit(c) || (c == '.' && p + 1 < e && isdigit((unsigned char)p[1]))) {
        /* a pp-number: digits, letters, '.', digit separators, exponent signs */
        for (p++; p < e; p++) {
            char x = *p, prev = p[-1];
            if (is_id((unsigned char)x) || x == '.')
                continue;
            if (x == '\'' && p + 1 < e && is_id((unsigned char)p[1]))
                continue;
            if ((x == '+' || x == '-') &&
                (prev == 'e' || prev == 'E' || prev == 'p' || prev == 'P'))
                continue;
            break;
        }
        t.kind = SMEM_TOK_NUMBER;
    } else if (c == '"' || c == '\'') {
        p = literal(L, p, 0);
        t.kind = SMEM_TOK_STRING;
    } else {
        p += punct(L, p);
        t.kind = SMEM_TOK_PUNCT;
    }
    t.n = (size_t)(p - t.s);
    assert(t.n > 0 && p <= e);
    L->pos = (size_t)(p - L->text);
    return t;
}

int smem_tok_is(const struct smem_token *t, const char *s)
{
    size_t n = strlen(s);
    return t->kind != SMEM_TOK_EOF && t->n == n && !memcmp(t->s, s, n);
}
