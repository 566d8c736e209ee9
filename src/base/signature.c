/* signature.c: demangled function names read into their parts (signature.h). One walk over the
 * text knows, at each byte, how deep it is in brackets: ( [ { always nest, < nests outside
 * parentheses and brackets (inside them it is an operator of an expression argument), and the
 * symbol after `operator` is a name, never a bracket or a comma. */
#include "smemlab/base/signature.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NEST 64

static int is_word(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$';
}

/* Where the name of an operator that starts at i ends ("operator<<" -> after "<<"); i when no
 * operator name starts there. Word operators (new, delete, conversions) end where the word does:
 * the walk reads them as any name. */
static size_t operator_end(const char *s, size_t i, size_t e)
{
    static const char *const ops[] = {
        "<=>", "->*", "<<=", ">>=", "()", "[]", "->", "<<", ">>", "<=", ">=", "==", "!=", "&&",
        "||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<", ">", "+", "-", "*",
        "/", "%", "^", "&", "|", "~", "!", "=", ","};
    if (e - i < 8 || memcmp(s + i, "operator", 8) || (i && is_word((unsigned char)s[i - 1])) ||
        (i + 8 < e && is_word((unsigned char)s[i + 8])))
        return i;
    size_t j = i + 8;
    while (j < e && s[j] == ' ')
        j++;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = strlen(ops[k]);
        if (e - j >= n && !memcmp(s + j, ops[k], n))
            return j + n;
    }
    return i + 8;
}

/* The bracket nesting of a walk. */
struct nest {
    char open[MAX_NEST];
    unsigned depth;
    int bad;
};

/* Takes byte c into the nesting: 1 when it opened a group, -1 when it closed one, 0 otherwise. */
static int nest_step(struct nest *n, char c)
{
    char top = n->depth ? n->open[n->depth - 1] : 0;
    if (c == '(' || c == '[' || c == '{' || (c == '<' && top != '(' && top != '[')) {
        if (n->depth == MAX_NEST) {
            n->bad = 1;
            return 0;
        }
        n->open[n->depth++] = c;
        return 1;
    }
    if (c == '>') {
        if (top != '<')
            return 0; /* a comparison inside parentheses, or a stray '>' */
        n->depth--;
        return -1;
    }
    if (c == ')' || c == ']' || c == '}') {
        char want = c == ')' ? '(' : c == ']' ? '[' : '{';
        while (n->depth && n->open[n->depth - 1] == '<' && want != '<')
            n->depth--; /* a '<' that was a comparison */
        if (!n->depth || n->open[n->depth - 1] != want) {
            n->bad = 1;
            return 0;
        }
        n->depth--;
        return -1;
    }
    return 0;
}

static struct smem_span span(size_t b, size_t e)
{
    assert(e >= b);
    return (struct smem_span){b, e - b};
}

/* [b, e) without blanks at either end. */
static struct smem_span trimmed(const char *s, size_t b, size_t e)
{
    while (b < e && s[b] == ' ')
        b++;
    while (e > b && s[e - 1] == ' ')
        e--;
    return span(b, e);
}

/* Whether s[b, e) holds only what may follow a member function's parameters (" const &&"). */
static int only_qualifiers(const char *s, size_t b, size_t e)
{
    static const char *const words[] = {"const", "volatile", "noexcept", "&&", "&", " "};
    while (b < e) {
        size_t k, n = 0;
        for (k = 0; k < sizeof words / sizeof words[0]; k++) {
            n = strlen(words[k]);
            if (e - b >= n && !memcmp(s + b, words[k], n))
                break;
        }
        if (k == sizeof words / sizeof words[0])
            return 0;
        b += n;
    }
    return 1;
}

int smem_signature_parse(const char *s, size_t len, struct smem_signature *out)
{
    memset(out, 0, sizeof *out);
    struct smem_span all = trimmed(s, 0, len);
    size_t b = all.off, e = all.off + all.len;
    /* the parameters: the last top-level ( ) group, followed by qualifiers at most */
    struct nest n = {{0}, 0, 0};
    size_t open = e, close = e, last_open = e;
    for (size_t i = b; i < e && !n.bad;) {
        size_t o = operator_end(s, i, e);
        if (o != i) {
            i = o;
            continue;
        }
        int step = nest_step(&n, s[i]);
        if (step > 0 && n.depth == 1 && s[i] == '(')
            last_open = i;
        else if (step < 0 && n.depth == 0 && s[i] == ')') {
            open = last_open;
            close = i;
        }
        i++;
    }
    if (n.bad || n.depth) {
        out->name = out->qual = out->last = out->base = all;
        return -1;
    }
    size_t head_end = e;
    if (close < e && open > b && only_qualifiers(s, close + 1, e)) {
        out->has_params = 1;
        out->params = span(open + 1, close);
        head_end = open;
    }
    while (head_end > b && s[head_end - 1] == ' ')
        head_end--;
    /* the head: [return type ]name, the name's parts at its top level */
    size_t name_b = b, last_b = b, lt = head_end, gt = head_end;
    int in_operator = 0;
    n.depth = 0;
    for (size_t i = b; i < head_end;) {
        size_t o = operator_end(s, i, head_end);
        if (o != i && !n.depth) {
            in_operator = 1; /* "operator unsigned int": its blanks are the name's */
            lt = gt = head_end;
            i = o;
            continue;
        }
        if (o != i) {
            i = o;
            continue;
        }
        char c = s[i];
        if (!n.depth && c == ' ' && !in_operator) {
            out->ret = trimmed(s, b, i);
            name_b = last_b = i + 1;
            lt = gt = head_end;
        } else if (!n.depth && c == ':' && i + 1 < head_end && s[i + 1] == ':') {
            last_b = i + 2;
            lt = gt = head_end;
            i += 2;
            continue;
        }
        int step = nest_step(&n, c);
        if (step > 0 && n.depth == 1 && c == '<' && lt == head_end)
            lt = i;
        else if (step < 0 && n.depth == 0 && c == '>' && lt < head_end && gt == head_end)
            gt = i;
        i++;
    }
    out->name = trimmed(s, name_b, head_end);
    out->last = trimmed(s, last_b, head_end);
    if (lt < head_end && gt + 1 == head_end) {
        out->has_targs = 1;
        out->targs = span(lt + 1, gt);
        out->base = trimmed(s, last_b, lt);
        out->qual = trimmed(s, name_b, lt);
    } else {
        out->base = out->last;
        out->qual = out->name;
    }
    return 0;
}

unsigned smem_signature_split(const char *s, struct smem_span list, struct smem_span *items,
                              unsigned max)
{
    size_t b = list.off, e = list.off + list.len;
    struct smem_span all = trimmed(s, b, e);
    if (!all.len)
        return 0;
    struct nest n = {{0}, 0, 0};
    unsigned count = 0;
    size_t seg = b;
    for (size_t i = b; i <= e;) {
        size_t o = i < e ? operator_end(s, i, e) : i;
        if (o != i) {
            i = o;
            continue;
        }
        if (i == e || (s[i] == ',' && !n.depth)) {
            if (count < max)
                items[count] = trimmed(s, seg, i);
            count++;
            seg = i + 1;
        } else {
            nest_step(&n, s[i]);
        }
        i++;
    }
    return count;
}

int smem_signature_params(const char *s, const struct smem_signature *sig,
                          struct smem_span *items, unsigned max)
{
    if (!sig->has_params)
        return -1;
    struct smem_span p = trimmed(s, sig->params.off, sig->params.off + sig->params.len);
    if (p.len == 4 && !memcmp(s + p.off, "void", 4))
        return 0;
    return (int)smem_signature_split(s, p, items, max);
}

char *smem_signature_name(const char *demangled)
{
    struct smem_signature sig;
    smem_signature_parse(demangled, strlen(demangled), &sig);
    char *d = malloc(sig.name.len + 1);
    if (d) {
        memcpy(d, demangled + sig.name.off, sig.name.len);
        d[sig.name.len] = 0;
    }
    return d;
}

void smem_signature_strip_targs(char *s)
{
    char *w = s;
    int depth = 0;
    for (char *r = s; *r; r++) {
        if (*r == '<')
            depth++;
        else if (*r == '>' && depth > 0)
            depth--;
        else if (!depth && (*r != ' ' || (w > s && w[-1] != ':')))
            *w++ = *r;
    }
    *w = 0;
}
