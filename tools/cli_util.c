/* cli_util.c: option parsing shared by the subcommands, where smemlab lives, and how a library
 * error is said. */
#include "cli.h"
#include "smemlab/base/error.h"

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

/* "X[,Y[,Z]]" or "XxYxZ" into v: missing parts are `missing`, zero parts allowed when `zero`. */
static int parse3(const char *s, unsigned v[3], unsigned missing, int zero)
{
    char buf[96];
    size_t n = strlen(s);
    if (!n || n >= sizeof buf)
        return -1;
    memcpy(buf, s, n + 1);
    v[0] = v[1] = v[2] = missing;
    unsigned k = 0;
    for (char *p = buf;;) {
        char *sep = p + strcspn(p, ",x");
        char c = *sep;
        unsigned long long x;
        *sep = 0;
        if (k >= 3 || cli_parse_uint(p, 0xffffffffull, &x) || (!zero && x == 0))
            return -1;
        v[k++] = (unsigned)x;
        if (!c)
            return 0;
        p = sep + 1;
    }
}

int cli_parse_dim3(const char *s, unsigned dims[3])
{
    return parse3(s, dims, 1, 0);
}

int cli_parse_index3(const char *s, unsigned v[3])
{
    return parse3(s, v, 0, 1);
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

int cli_unknown_option(const char *cmd, const char *a, const char *const *valued)
{
    int needs = 0;
    for (; valued && *valued; valued++)
        needs |= !strcmp(a, *valued);
    return cli_usage_error(cmd, "unknown option '%s'%s", a, needs ? " (it needs a value)" : "");
}

int cli_exe_path(char *out, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", out, n - 1);
    if (k <= 0)
        return -1;
    out[k] = 0;
    return 0;
}

int cli_exe_dir(char *out, size_t n)
{
    if (cli_exe_path(out, n))
        return -1;
    char *slash = strrchr(out, '/');
    if (!slash)
        return -1;
    *slash = 0;
    return 0;
}

int cli_private_dir(const char *in_build, const char *in_install, char *out, size_t n)
{
    struct stat st;
    char self[4096];
    if (cli_exe_dir(self, sizeof self))
        return -1;
    if ((size_t)snprintf(out, n, "%s/%s", self, in_build) >= n)
        return -1;
    if (!stat(out, &st) && S_ISDIR(st.st_mode))
        return 0;
    if ((size_t)snprintf(out, n, "%s/../lib/smemlab%s%s", self, *in_install ? "/" : "",
                         in_install) >= n)
        return -1;
    return !stat(out, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
}

int cli_kernels_dir(char *out, size_t n)
{
    struct stat st;
    const char *env = getenv("SMEMLAB_KERNELS");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return !stat(out, &st) && S_ISDIR(st.st_mode) ? 0 : -1;
    }
    return cli_private_dir("kernels", "kernels", out, n);
}

int cli_library_error(const char *cmd, int r, const struct smem_error *err)
{
    char buf[1200];
    fprintf(stderr, "smemlab %s: %s\n", cmd, smem_error_format(err, buf, sizeof buf));
    return r == -2 ? EXIT_USAGE : EXIT_INPUT;
}
