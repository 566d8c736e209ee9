/* text.c: read a whole file; write a JSON string. */
#include "smemlab/text.h"

#include <errno.h>
#include <stdlib.h>

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
