/* error.c: located error messages. */
#include "smemlab/base/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int smem_error_set(struct smem_error *err, const char *file, unsigned line, unsigned col,
                   const char *fmt, ...)
{
    if (!err)
        return -1;
    va_list ap;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    err->line = line;
    err->col = col;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

const char *smem_error_format(const struct smem_error *err, char *buf, unsigned size)
{
    if (err->file[0] && err->line && err->col)
        snprintf(buf, size, "%s:%u:%u: %s", err->file, err->line, err->col, err->msg);
    else if (err->file[0] && err->line)
        snprintf(buf, size, "%s:%u: %s", err->file, err->line, err->msg);
    else if (err->file[0])
        snprintf(buf, size, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, size, "%s", err->msg);
    return buf;
}
