/* cli_util.c: option parsing shared by the subcommands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cli_parse_format(const char *s)
{
    if (!strcmp(s, "table"))
        return FMT_TABLE;
    if (!strcmp(s, "json"))
        return FMT_JSON;
    if (!strcmp(s, "csv"))
        return FMT_CSV;
    return -1;
}

int cli_parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
    char *end;
    if (!s || !*s || *s == '-' || *s == '+')
        return -1;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || *end || v > max)
        return -1;
    *out = v;
    return 0;
}

int cli_parse_dim3(const char *s, unsigned dims[3])
{
    char buf[96];
    size_t n = strlen(s);
    if (!n || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    dims[0] = dims[1] = dims[2] = 1;
    unsigned k = 0;
    char *p = buf;
    for (;;) {
        char *sep = p + strcspn(p, ",x");
        char c = *sep;
        *sep = 0;
        unsigned long long v;
        if (k >= 3 || cli_parse_uint(p, 0xffffffffull, &v) || v == 0)
            return -1;
        dims[k++] = (unsigned)v;
        if (!c)
            break;
        p = sep + 1;
    }
    return 0;
}

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "smemlab %s: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n(see 'smemlab %s --help')\n", cmd);
    return EXIT_USAGE;
}

int cli_kernels_dir(char *out, size_t n)
{
    struct stat st;
    const char *env = getenv("SMEMLAB_KERNELS");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return !stat(out, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
    }
    char self[4096];
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    if (k <= 0)
        return -1;
    self[k] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return -1;
    *slash = 0;
    if ((size_t)snprintf(out, n, "%s/kernels", self) >= n)
        return -1;
    return !stat(out, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
}
