/* xmlcheck.c: a strict XML 1.0 well-formedness checker for the tests of the HTML pages and SVG files
 * (CI has a C compiler; xmllint and python are not guaranteed). Checks: UTF-8 and XML's characters,
 * one root element, every element closed in order, names, attributes quoted and not repeated, no
 * raw '<' or stray '&' (only XML's five entities and character references), comments, processing
 * instructions, CDATA, a DOCTYPE without internal subset (<!DOCTYPE html>). Not checked: anything a
 * DTD or a namespace would add.
 *
 *   xmlcheck FILE [--count CLASS]... [--most OUTER INNER]...
 *
 * Prints "FILE: well-formed, N elements" and exits 0, or "FILE:LINE:COL: what is wrong" and exits 1
 * (2: usage or unreadable). --count CLASS prints "count CLASS N": the elements whose class attribute
 * names CLASS. --most OUTER INNER prints "most OUTER INNER N": the largest number of INNER-class
 * elements inside one OUTER-class element (32 bank columns: --count bank; a 32-deep column:
 * --most bank word). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 256
#define MAX_QUERIES 8
#define MAX_ATTRS 64

struct open_elem {
    const char *name;
    size_t len;
    unsigned outer;   /* bit q: this element has query q's OUTER class */
    unsigned inner[MAX_QUERIES];
};

struct checker {
    const unsigned char *s, *end, *p;
    const char *path;
    struct open_elem stack[MAX_DEPTH];
    unsigned depth;
    unsigned long elements;
    const char *count_class[MAX_QUERIES];
    unsigned long count[MAX_QUERIES];
    unsigned ncount;
    const char *outer_class[MAX_QUERIES], *inner_class[MAX_QUERIES];
    unsigned most[MAX_QUERIES];
    unsigned nmost;
};

static int fail(struct checker *c, const unsigned char *at, const char *msg)
{
    unsigned line = 1, col = 1;
    for (const unsigned char *q = c->s; q < at && q < c->end; q++) {
        if (*q == '\n') {
            line++;
            col = 1;
        } else if ((*q & 0xc0) != 0x80) {
            col++;
        }
    }
    printf("%s:%u:%u: %s\n", c->path, line, col, msg);
    return -1;
}

/* Decodes one character at p (UTF-8, an XML Char); returns its length or 0. */
static size_t xml_char(const unsigned char *p, const unsigned char *end, unsigned long *cp)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (size_t)(end - p) < n)
        return 0;
    unsigned long v = n == 1 ? c : c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (p[i] & 0x3fu);
    }
    static const unsigned long min[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (v < min[n])
        return 0; /* overlong */
    if (v < 0x20 ? !(v == 9 || v == 10 || v == 13)
                 : (v >= 0xd800 && v <= 0xdfff) || v == 0xfffe || v == 0xffff || v > 0x10ffff)
        return 0;
    *cp = v;
    return n;
}

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }
static int name_start(int ch) { return ch >= 0x80 || ch == ':' || ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
static int name_char(int ch) { return name_start(ch) || ch == '-' || ch == '.' || (ch >= '0' && ch <= '9'); }

static void skip_space(struct checker *c)
{
    while (c->p < c->end && is_space(*c->p))
        c->p++;
}

static int starts(const struct checker *c, const char *lit)
{
    size_t n = strlen(lit);
    return (size_t)(c->end - c->p) >= n && !memcmp(c->p, lit, n);
}

static int name(struct checker *c, const char **out, size_t *len)
{
    const unsigned char *b = c->p;
    if (c->p >= c->end || !name_start(*c->p))
        return fail(c, c->p, "expected a name");
    while (c->p < c->end && name_char(*c->p))
        c->p++;
    *out = (const char *)b;
    *len = (size_t)(c->p - b);
    return 0;
}

/* &...; at c->p: XML's five entities or a character reference to an XML Char. */
static int reference(struct checker *c)
{
    const unsigned char *b = c->p++;
    static const char *const ents[] = {"lt;", "gt;", "amp;", "quot;", "apos;"};
    for (int i = 0; i < 5; i++)
        if (starts(c, ents[i])) {
            c->p += strlen(ents[i]);
            return 0;
        }
    if (c->p >= c->end || *c->p != '#')
        return fail(c, b, "'&' that is neither one of XML's five entities nor a character reference");
    c->p++;
    int hex = c->p < c->end && *c->p == 'x';
    c->p += hex;
    unsigned long v = 0;
    int digits = 0;
    for (; c->p < c->end && *c->p != ';'; c->p++, digits++) {
        int ch = *c->p, d = ch >= '0' && ch <= '9' ? ch - '0'
                        : hex && ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                        : hex && ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
        if (d < 0 || v > 0x10ffff)
            return fail(c, b, "bad character reference");
        v = v * (hex ? 16u : 10u) + (unsigned)d;
    }
    if (c->p >= c->end || !digits)
        return fail(c, b, "unterminated character reference");
    c->p++;
    if (v < 0x20 ? !(v == 9 || v == 10 || v == 13)
                 : (v >= 0xd800 && v <= 0xdfff) || v == 0xfffe || v == 0xffff || v > 0x10ffff)
        return fail(c, b, "character reference to a character XML does not allow");
    return 0;
}

/* Characters up to the literal `until` (consumed); `what` names the construct for messages. */
static int until(struct checker *c, const char *lit, const char *what, int no_double_dash)
{
    const unsigned char *b = c->p;
    unsigned long cp;
    while (!starts(c, lit)) {
        if (c->p >= c->end) {
            char msg[96];
            snprintf(msg, sizeof msg, "unterminated %s", what);
            return fail(c, b, msg);
        }
        if (no_double_dash && starts(c, "--"))
            return fail(c, c->p, "'--' inside a comment");
        size_t n = xml_char(c->p, c->end, &cp);
        if (!n)
            return fail(c, c->p, "a byte that is not UTF-8 or a character XML does not allow");
        c->p += n;
    }
    c->p += strlen(lit);
    return 0;
}

static int misc(struct checker *c)
{
    if (starts(c, "<!--")) {
        c->p += 4;
        return until(c, "-->", "comment", 1);
    }
    /* <?target ...?> */
    const char *n;
    size_t len;
    const unsigned char *b = c->p;
    c->p += 2;
    if (name(c, &n, &len))
        return -1;
    if (len == 3 && (n[0] | 32) == 'x' && (n[1] | 32) == 'm' && (n[2] | 32) == 'l')
        return fail(c, b, "an XML declaration that is not at the very start");
    return until(c, "?>", "processing instruction", 0);
}

static int has_class(const char *v, size_t len, const char *cls)
{
    size_t n = strlen(cls);
    for (size_t i = 0; i < len;) {
        while (i < len && is_space((unsigned char)v[i]))
            i++;
        size_t j = i;
        while (j < len && !is_space((unsigned char)v[j]))
            j++;
        if (j - i == n && !memcmp(v + i, cls, n))
            return 1;
        i = j;
    }
    return 0;
}

static int start_tag(struct checker *c)
{
    const unsigned char *b = c->p++;
    const char *n, *anames[MAX_ATTRS];
    size_t len, alens[MAX_ATTRS];
    unsigned na = 0;
    if (name(c, &n, &len))
        return -1;
    if (c->depth == MAX_DEPTH)
        return fail(c, b, "elements nested too deep for this checker");
    struct open_elem *e = &c->stack[c->depth];
    memset(e, 0, sizeof *e);
    e->name = n;
    e->len = len;
    c->elements++;
    for (;;) {
        int sp = c->p < c->end && is_space(*c->p);
        skip_space(c);
        if (c->p >= c->end)
            return fail(c, b, "unterminated start tag");
        if (*c->p == '>' || starts(c, "/>"))
            break;
        if (!sp)
            return fail(c, c->p, "attributes must be separated by white space");
        const char *an;
        size_t al;
        if (name(c, &an, &al))
            return -1;
        for (unsigned i = 0; i < na; i++)
            if (alens[i] == al && !memcmp(anames[i], an, al))
                return fail(c, (const unsigned char *)an, "attribute given twice");
        if (na == MAX_ATTRS)
            return fail(c, (const unsigned char *)an, "too many attributes for this checker");
        anames[na] = an;
        alens[na++] = al;
        skip_space(c);
        if (c->p >= c->end || *c->p != '=')
            return fail(c, c->p, "expected '=' after an attribute name");
        c->p++;
        skip_space(c);
        if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
            return fail(c, c->p, "attribute value not quoted");
        unsigned char q = *c->p++;
        const unsigned char *vb = c->p;
        while (c->p < c->end && *c->p != q) {
            unsigned long cp;
            size_t k;
            if (*c->p == '<')
                return fail(c, c->p, "'<' inside an attribute value");
            if (*c->p == '&') {
                if (reference(c))
                    return -1;
                continue;
            }
            if (!(k = xml_char(c->p, c->end, &cp)))
                return fail(c, c->p, "a byte that is not UTF-8 or a character XML does not allow");
            c->p += k;
        }
        if (c->p >= c->end)
            return fail(c, vb, "unterminated attribute value");
        if (al == 5 && !memcmp(an, "class", 5)) {
            size_t vl = (size_t)(c->p - vb);
            for (unsigned qi = 0; qi < c->ncount; qi++)
                c->count[qi] += (unsigned long)has_class((const char *)vb, vl, c->count_class[qi]);
            for (unsigned qi = 0; qi < c->nmost; qi++) {
                if (has_class((const char *)vb, vl, c->outer_class[qi]))
                    e->outer |= 1u << qi;
                if (has_class((const char *)vb, vl, c->inner_class[qi]))
                    for (unsigned d = 0; d < c->depth; d++)
                        c->stack[d].inner[qi] += c->stack[d].outer >> qi & 1u;
            }
        }
        c->p++;
    }
    int empty = *c->p == '/';
    c->p += empty ? 2 : 1;
    if (!empty) {
        c->depth++;
        return 0;
    }
    for (unsigned qi = 0; qi < c->nmost; qi++)
        if (e->outer >> qi & 1u && e->inner[qi] > c->most[qi])
            c->most[qi] = e->inner[qi];
    return 1; /* closed at once */
}

static int end_tag(struct checker *c)
{
    const unsigned char *b = c->p;
    const char *n;
    size_t len;
    c->p += 2;
    if (name(c, &n, &len))
        return -1;
    skip_space(c);
    if (c->p >= c->end || *c->p != '>')
        return fail(c, b, "unterminated end tag");
    c->p++;
    if (!c->depth)
        return fail(c, b, "an end tag with no element open");
    struct open_elem *e = &c->stack[c->depth - 1];
    if (e->len != len || memcmp(e->name, n, len)) {
        char msg[200];
        snprintf(msg, sizeof msg, "</%.*s> closes <%.*s>", (int)(len > 60 ? 60 : len), n,
                 (int)(e->len > 60 ? 60 : e->len), e->name);
        return fail(c, b, msg);
    }
    for (unsigned qi = 0; qi < c->nmost; qi++)
        if (e->outer >> qi & 1u && e->inner[qi] > c->most[qi])
            c->most[qi] = e->inner[qi];
    c->depth--;
    return 0;
}

/* The root element and everything in it. */
static int element(struct checker *c)
{
    int r = start_tag(c);
    if (r)
        return r < 0 ? -1 : 0;
    while (c->depth) {
        if (c->p >= c->end)
            return fail(c, c->p, "the document ends inside an element");
        if (starts(c, "</")) {
            if (end_tag(c))
                return -1;
        } else if (starts(c, "<!--") || starts(c, "<?")) {
            if (misc(c))
                return -1;
        } else if (starts(c, "<![CDATA[")) {
            c->p += 9;
            if (until(c, "]]>", "CDATA section", 0))
                return -1;
        } else if (starts(c, "<!")) {
            return fail(c, c->p, "a declaration inside an element");
        } else if (*c->p == '<') {
            if (start_tag(c) < 0)
                return -1;
        } else if (*c->p == '&') {
            if (reference(c))
                return -1;
        } else if (starts(c, "]]>")) {
            return fail(c, c->p, "']]>' in text");
        } else {
            unsigned long cp;
            size_t n = xml_char(c->p, c->end, &cp);
            if (!n)
                return fail(c, c->p, "a byte that is not UTF-8 or a character XML does not allow");
            c->p += n;
        }
    }
    return 0;
}

static int doctype(struct checker *c)
{
    const unsigned char *b = c->p;
    const char *n;
    size_t len;
    c->p += 9;
    if (c->p >= c->end || !is_space(*c->p))
        return fail(c, b, "expected white space after <!DOCTYPE");
    skip_space(c);
    if (name(c, &n, &len))
        return -1;
    for (;;) {
        skip_space(c);
        if (c->p >= c->end)
            return fail(c, b, "unterminated DOCTYPE");
        if (*c->p == '>') {
            c->p++;
            return 0;
        }
        if (*c->p == '[')
            return fail(c, c->p, "an internal DTD subset (not supported by this checker)");
        if (*c->p == '"' || *c->p == '\'') {
            const unsigned char *q = memchr(c->p + 1, *c->p, (size_t)(c->end - c->p - 1));
            if (!q)
                return fail(c, c->p, "unterminated literal in DOCTYPE");
            c->p = q + 1;
        } else if (name(c, &n, &len)) {
            return -1;
        }
    }
}

static int document(struct checker *c)
{
    if (starts(c, "\xef\xbb\xbf"))
        c->p += 3;
    if (starts(c, "<?xml") && c->p + 5 < c->end && is_space(c->p[5])) {
        c->p += 5;
        if (until(c, "?>", "XML declaration", 0))
            return -1;
    }
    int seen_doctype = 0;
    for (;;) {
        skip_space(c);
        if (c->p >= c->end)
            return fail(c, c->p, "no root element");
        if (starts(c, "<!--") || starts(c, "<?")) {
            if (misc(c))
                return -1;
        } else if (starts(c, "<!DOCTYPE")) {
            if (seen_doctype++)
                return fail(c, c->p, "a second DOCTYPE");
            if (doctype(c))
                return -1;
        } else if (*c->p == '<' && c->p + 1 < c->end && name_start(c->p[1])) {
            break;
        } else {
            return fail(c, c->p, "text or markup before the root element");
        }
    }
    if (element(c))
        return -1;
    for (;;) {
        skip_space(c);
        if (c->p >= c->end)
            return 0;
        if (!starts(c, "<!--") && !starts(c, "<?"))
            return fail(c, c->p, "content after the root element (a second root?)");
        if (misc(c))
            return -1;
    }
}

int main(int argc, char **argv)
{
    static struct checker c;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--count") && i + 1 < argc && c.ncount < MAX_QUERIES) {
            c.count_class[c.ncount++] = argv[++i];
        } else if (!strcmp(argv[i], "--most") && i + 2 < argc && c.nmost < MAX_QUERIES) {
            c.outer_class[c.nmost] = argv[++i];
            c.inner_class[c.nmost++] = argv[++i];
        } else if (argv[i][0] != '-' && !c.path) {
            c.path = argv[i];
        } else {
            fprintf(stderr, "usage: xmlcheck FILE [--count CLASS]... [--most OUTER INNER]...\n");
            return 2;
        }
    }
    if (!c.path) {
        fprintf(stderr, "usage: xmlcheck FILE [--count CLASS]... [--most OUTER INNER]...\n");
        return 2;
    }
    FILE *f = fopen(c.path, "rb");
    if (!f) {
        fprintf(stderr, "xmlcheck: cannot read %s\n", c.path);
        return 2;
    }
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, cap * 2);
        if (!nb)
            free(buf);
        buf = nb;
        cap *= 2;
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "xmlcheck: out of memory\n");
        return 2;
    }
    c.s = c.p = buf;
    c.end = buf + n;
    int rc = document(&c) ? 1 : 0;
    if (!rc) {
        printf("%s: well-formed, %lu elements\n", c.path, c.elements);
        for (unsigned q = 0; q < c.ncount; q++)
            printf("count %s %lu\n", c.count_class[q], c.count[q]);
        for (unsigned q = 0; q < c.nmost; q++)
            printf("most %s %s %u\n", c.outer_class[q], c.inner_class[q], c.most[q]);
    }
    free(buf);
    return rc;
}
