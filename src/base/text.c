/* text.c: read a whole file; write a JSON string or XML text. */
#include "smemlab/base/text.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

char *smem_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap + 1);
    while (s) {
        n += fread(s + n, 1, cap - n, f);
        if (n < cap)
            break;
        char *ns = realloc(s, cap * 2 + 1);
        if (!ns) {
            free(s);
            s = NULL;
            errno = ENOMEM;
            break;
        }
        s = ns;
        cap *= 2;
    }
    if (s && ferror(f)) {
        free(s);
        s = NULL;
        errno = EIO;
    }
    fclose(f);
    if (s) {
        s[n] = 0;
        if (len)
            *len = n;
    }
    return s;
}

void smem_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", f);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Length of the UTF-8 sequence at s (1-4), or 0 when it is not one XML may hold. */
static size_t utf8_char(const unsigned char *s)
{
    unsigned c = s[0];
    size_t n = c < 0x80 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3 : (c & 0xf8) == 0xf0 ? 4 : 0;
    if (!n || (n == 2 && c < 0xc2))
        return 0;
    uint32_t cp = n == 1 ? c : c & (0x7fu >> n);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
        (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe || cp == 0xffff)
        return 0;
    return n;
}

void smem_xml_text(FILE *f, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        size_t n = utf8_char(p);
        switch (n ? *p : 0) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default:
            if (!n || (*p < 0x20 && *p != '\t') || *p == 0x7f)
                fputs("&#xfffd;", f);
            else
                fwrite(p, 1, n, f);
        }
        p += n ? n : 1;
    }
}

const char *smem_base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : (path ? path : "");
}

int smem_same_source(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    return !strcmp(a, b) || !strcmp(smem_base_name(a), smem_base_name(b));
}

const char *smem_source_line(struct smem_source_cache *c, const char *path, unsigned n, char *buf,
                             size_t size)
{
    buf[0] = 0;
    if (!path || !*path || !n || !size)
        return buf;
    if (strcmp(c->path, path)) {
        free(c->text);
        c->text = smem_read_file(path, NULL);
        snprintf(c->path, sizeof c->path, "%s", path);
    }
    const char *p = c->text;
    for (unsigned i = 1; p && i < n; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    if (!p)
        return buf;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t l = strcspn(p, "\r\n");
    if (l >= size)
        l = size - 1;
    memcpy(buf, p, l);
    buf[l] = 0;
    return buf;
}

void smem_source_cache_free(struct smem_source_cache *c)
{
    free(c->text);
    c->text = NULL;
    c->path[0] = 0;
}

const char *smem_group_digits(char *buf, size_t n, unsigned long long v)
{
    char plain[24], out[32];
    int len = snprintf(plain, sizeof plain, "%llu", v), k = 0;
    for (int i = 0; i < len; i++) {
        if (i && (len - i) % 3 == 0)
            out[k++] = ',';
        out[k++] = plain[i];
    }
    out[k] = 0;
    snprintf(buf, n, "%s", out);
    return buf;
}

/* Line n's text without a trailing // comment and blanks; whether it leaves its statement open
 * (ends with an operator, a comma or an opening bracket). */
static int open_end(struct smem_source_cache *c, const char *path, unsigned n, char *buf,
                    size_t size)
{
    smem_source_line(c, path, n, buf, size);
    char *cm = strstr(buf, "//");
    if (cm)
        *cm = 0;
    size_t l = strlen(buf);
    while (l && (buf[l - 1] == ' ' || buf[l - 1] == '\t'))
        buf[--l] = 0;
    if (!l || buf[0] == '#' || (l >= 2 && buf[l - 2] == '*' && buf[l - 1] == '/'))
        return 0;
    return strchr("=+-*/%&|^<>,(?:[", buf[l - 1]) != NULL;
}

const char *smem_source_statement(struct smem_source_cache *c, const char *path, unsigned n,
                                  char *buf, size_t size)
{
    enum { MAX_MORE = 3 };
    char line[512];
    unsigned first = n, last = n;
    while (first > 1 && n - first < MAX_MORE && open_end(c, path, first - 1, line, sizeof line))
        first--;
    while (last - n < MAX_MORE && open_end(c, path, last, line, sizeof line)) {
        smem_source_line(c, path, last + 1, line, sizeof line);
        if (!line[0])
            break;
        last++;
    }
    size_t k = 0;
    buf[0] = 0;
    for (unsigned i = first; i <= last && k + 1 < size; i++) {
        smem_source_line(c, path, i, line, sizeof line);
        if (i < last) { /* a joined line loses its trailing comment */
            char *cm = strstr(line, "//");
            if (cm)
                *cm = 0;
        }
        size_t l = strlen(line);
        while (l && (line[l - 1] == ' ' || line[l - 1] == '\t'))
            line[--l] = 0;
        k += (size_t)snprintf(buf + k, size - k, "%s%s", i > first && l ? " " : "", line);
        if (k >= size)
            k = size - 1;
    }
    return buf;
}
