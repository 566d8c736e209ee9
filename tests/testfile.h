/* testfile.h: a whole file read into memory, for tests that compare outputs. */
#ifndef SMEMLAB_TEST_TESTFILE_H
#define SMEMLAB_TEST_TESTFILE_H
#include <stdio.h>
#include <stdlib.h>

/* path's bytes, NUL-terminated (free them), their count in *len if len is not NULL; NULL if the
 * file cannot be read. */
static inline char *test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = 0;
    if (s) {
        got = fread(s, 1, (size_t)n, f);
        s[got] = 0;
    }
    fclose(f);
    if (len)
        *len = got;
    return s;
}
#endif
