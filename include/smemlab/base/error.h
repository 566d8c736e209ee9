/* error.h: the one error shape the library returns: what went wrong and where (file:line:column). */
#ifndef SMEMLAB_ERROR_H
#define SMEMLAB_ERROR_H

#ifdef __cplusplus
extern "C" {
#endif

struct smem_error {
    char file[256]; /* the input that was at fault ("" if none) */
    unsigned line;  /* 1-based; 0 when not about a line */
    unsigned col;   /* 1-based; 0 when not about a column */
    char msg[512];
};

/* Fills err (if not NULL) with a located, printf-formatted message; returns -1 for chaining. */
int smem_error_set(struct smem_error *err, const char *file, unsigned line, unsigned col,
                   const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* "file:line:col: msg" (the parts that are known) into buf. */
const char *smem_error_format(const struct smem_error *err, char *buf, unsigned size);

#ifdef __cplusplus
}
#endif
#endif
