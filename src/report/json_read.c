/* json_read.c: a recursive-descent JSON reader (RFC 8259) into a tree of smem_json nodes, with
 * every error located at its line and column. The reports it reads are small: no streaming. */
#include "smemlab/report/json_read.h"

#include "smemlab/base/text.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 64

struct reader {
    const char *s, *end, *start;
    const char *name;
    struct smem_error *err;
};

static int fail(struct reader *r, const char *what)
{
    unsigned line = 1, col = 1;
    for (const char *p = r->start; p < r->s; p++) {
        if (*p == '\n') {
            line++;
            col = 1;
        } else {
            col++;
        }
    }
    if (r->s >= r->end)
        return smem_error_set(r->err, r->name, line, col, "%s (at the end of the text)", what);
    return smem_error_set(r->err, r->name, line, col, "%s", what);
}

static void skip_space(struct reader *r)
{
    while (r->s < r->end && (*r->s == ' ' || *r->s == '\t' || *r->s == '\n' || *r->s == '\r'))
        r->s++;
}

static int hex4(struct reader *r, unsigned *out)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++, r->s++) {
        if (r->s >= r->end)
            return fail(r, "a \\u escape needs four hex digits");
        char c = *r->s;
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return fail(r, "a \\u escape needs four hex digits");
    }
    *out = v;
    return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
    if (cp < 0x80) {
        o[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (char)(0xc0 | (cp >> 6));
        o[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (char)(0xe0 | (cp >> 12));
        o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        o[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (char)(0xf0 | (cp >> 18));
    o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    o[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* At the opening quote; the decoded string (never longer than its source) in *out. */
static int string(struct reader *r, char **out)
{
    const char *q = ++r->s;
    while (q < r->end && *q != '"')
        q += *q == '\\' && q + 1 < r->end ? 2 : 1;
    if (q >= r->end)
        return fail(r, "a string without its closing quote");
    char *o = malloc((size_t)(q - r->s) + 1);
    if (!o)
        return fail(r, "out of memory");
    size_t n = 0;
    while (*r->s != '"') {
        unsigned char c = (unsigned char)*r->s;
        if (c < 0x20) {
            free(o);
            return fail(r, "a control character inside a string");
        }
        if (c != '\\') {
            o[n++] = (char)c;
            r->s++;
            continue;
        }
        r->s++;
        char e = *r->s++;
        switch (e) {
        case '"': o[n++] = '"'; break;
        case '\\': o[n++] = '\\'; break;
        case '/': o[n++] = '/'; break;
        case 'b': o[n++] = '\b'; break;
        case 'f': o[n++] = '\f'; break;
        case 'n': o[n++] = '\n'; break;
        case 'r': o[n++] = '\r'; break;
        case 't': o[n++] = '\t'; break;
        case 'u': {
            unsigned cp = 0;
            if (hex4(r, &cp)) {
                free(o);
                return -1;
            }
            if (cp >= 0xd800 && cp < 0xdc00 && r->end - r->s >= 6 && r->s[0] == '\\' &&
                r->s[1] == 'u') {
                unsigned lo = 0;
                r->s += 2;
                if (hex4(r, &lo)) {
                    free(o);
                    return -1;
                }
                if (lo >= 0xdc00 && lo < 0xe000)
                    cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
                else
                    cp = 0xfffd;
            } else if (cp >= 0xd800 && cp < 0xe000) {
                cp = 0xfffd;
            }
            /* a \uXXXX (6 bytes) decodes to at most 4: the buffer is never outgrown */
            n += put_utf8(o + n, cp);
            break;
        }
        default:
            r->s--;
            free(o);
            return fail(r, "an unknown escape in a string");
        }
    }
    r->s++;
    o[n] = 0;
    *out = o;
    return 0;
}

static int number(struct reader *r, double *out)
{
    const char *p = r->s;
    if (p < r->end && *p == '-')
        p++;
    if (p >= r->end || *p < '0' || *p > '9')
        return fail(r, "expected a value");
    if (*p == '0')
        p++;
    else
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    if (p < r->end && *p == '.') {
        p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return fail(r, "a number needs digits after its point");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    if (p < r->end && (*p == 'e' || *p == 'E')) {
        p++;
        if (p < r->end && (*p == '+' || *p == '-'))
            p++;
        if (p >= r->end || *p < '0' || *p > '9')
            return fail(r, "a number needs digits in its exponent");
        while (p < r->end && *p >= '0' && *p <= '9')
            p++;
    }
    char buf[64];
    size_t len = (size_t)(p - r->s);
    if (len >= sizeof buf)
        return fail(r, "a number too long to read");
    memcpy(buf, r->s, len);
    buf[len] = 0;
    *out = strtod(buf, NULL);
    r->s = p;
    return 0;
}

static int value(struct reader *r, struct smem_json *v, unsigned depth);

static int grow(struct reader *r, struct smem_json *v, unsigned *cap, int keyed)
{
    if (v->n < *cap)
        return 0;
    unsigned nc = *cap ? *cap * 2 : 4;
    struct smem_json *ni = realloc(v->items, nc * sizeof *ni);
    if (!ni)
        return fail(r, "out of memory");
    v->items = ni;
    if (keyed) {
        char **nk = realloc(v->keys, nc * sizeof *nk);
        if (!nk)
            return fail(r, "out of memory");
        v->keys = nk;
    }
    *cap = nc;
    return 0;
}

static int container(struct reader *r, struct smem_json *v, unsigned depth, int keyed)
{
    char close = keyed ? '}' : ']';
    unsigned cap = 0;
    v->type = keyed ? SMEM_JSON_OBJECT : SMEM_JSON_ARRAY;
    if (depth >= MAX_DEPTH)
        return fail(r, "nested deeper than 64");
    r->s++;
    skip_space(r);
    if (r->s < r->end && *r->s == close) {
        r->s++;
        return 0;
    }
    for (;;) {
        if (grow(r, v, &cap, keyed))
            return -1;
        char *key = NULL;
        if (keyed) {
            skip_space(r);
            if (r->s >= r->end || *r->s != '"')
                return fail(r, "expected a member's name in quotes");
            if (string(r, &key))
                return -1;
            skip_space(r);
            if (r->s >= r->end || *r->s != ':') {
                free(key);
                return fail(r, "expected ':' after a member's name");
            }
            r->s++;
            v->keys[v->n] = key;
        }
        memset(&v->items[v->n], 0, sizeof v->items[v->n]);
        v->n++; /* counted before it is read: a failed item is freed with the rest */
        if (value(r, &v->items[v->n - 1], depth + 1))
            return -1;
        skip_space(r);
        if (r->s < r->end && *r->s == ',') {
            r->s++;
            continue;
        }
        if (r->s < r->end && *r->s == close) {
            r->s++;
            return 0;
        }
        return fail(r, keyed ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int literal(struct reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->s) < n || memcmp(r->s, word, n))
        return fail(r, "expected a value");
    r->s += n;
    return 0;
}

static int value(struct reader *r, struct smem_json *v, unsigned depth)
{
    skip_space(r);
    if (r->s >= r->end)
        return fail(r, "expected a value");
    switch (*r->s) {
    case '{': return container(r, v, depth, 1);
    case '[': return container(r, v, depth, 0);
    case '"':
        v->type = SMEM_JSON_STRING;
        return string(r, &v->string);
    case 't':
        v->type = SMEM_JSON_BOOL;
        v->number = 1;
        return literal(r, "true");
    case 'f':
        v->type = SMEM_JSON_BOOL;
        return literal(r, "false");
    case 'n':
        v->type = SMEM_JSON_NULL;
        return literal(r, "null");
    default:
        v->type = SMEM_JSON_NUMBER;
        return number(r, &v->number);
    }
}

static void release(struct smem_json *j)
{
    free(j->string);
    for (unsigned i = 0; i < j->n; i++) {
        release(&j->items[i]);
        if (j->keys)
            free(j->keys[i]);
    }
    free(j->items);
    free(j->keys);
}

void smem_json_free(struct smem_json *j)
{
    if (!j)
        return;
    release(j);
    free(j);
}

struct smem_json *smem_json_parse(const char *text, size_t len, const char *name,
                                  struct smem_error *err)
{
    struct reader r = {text, text + len, text, name ? name : "", err};
    struct smem_json *j = calloc(1, sizeof *j);
    if (!j) {
        smem_error_set(err, r.name, 0, 0, "out of memory");
        return NULL;
    }
    if (value(&r, j, 0) == 0) {
        skip_space(&r);
        if (r.s == r.end)
            return j;
        fail(&r, "text after the end of the document");
    }
    smem_json_free(j);
    return NULL;
}

struct smem_json *smem_json_load(const char *path, struct smem_error *err)
{
    size_t len = 0;
    char *text = smem_read_file(path, &len);
    if (!text) {
        smem_error_set(err, path, 0, 0, "cannot read the file");
        return NULL;
    }
    struct smem_json *j = smem_json_parse(text, len, path, err);
    free(text);
    return j;
}

const struct smem_json *smem_json_get(const struct smem_json *j, const char *key)
{
    if (!j || j->type != SMEM_JSON_OBJECT)
        return NULL;
    for (unsigned i = 0; i < j->n; i++)
        if (!strcmp(j->keys[i], key))
            return &j->items[i];
    return NULL;
}

unsigned smem_json_len(const struct smem_json *j)
{
    return j && j->type == SMEM_JSON_ARRAY ? j->n : 0;
}

const struct smem_json *smem_json_at(const struct smem_json *j, unsigned i)
{
    return j && j->type == SMEM_JSON_ARRAY && i < j->n ? &j->items[i] : NULL;
}

double smem_json_num(const struct smem_json *j, const char *key, double dflt)
{
    const struct smem_json *v = smem_json_get(j, key);
    return v && (v->type == SMEM_JSON_NUMBER || v->type == SMEM_JSON_BOOL) ? v->number : dflt;
}

const char *smem_json_str(const struct smem_json *j, const char *key)
{
    const struct smem_json *v = smem_json_get(j, key);
    return v && v->type == SMEM_JSON_STRING ? v->string : NULL;
}
