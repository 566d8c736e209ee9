/* text.h: the few text chores every module needs once: read a whole file, write a JSON string. */
#ifndef SMEMLAB_TEXT_H
#define SMEMLAB_TEXT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole file, NUL-terminated (malloc'd; *len without the NUL if len), or NULL with errno set. */
char *smem_read_file(const char *path, size_t *len);

/* s as a JSON string, quotes included (NULL: ""). */
void smem_json_string(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif
