/* text.h: the few text chores every module needs once: read a whole file, write a JSON string or
 * XML text. */
#ifndef SMEMLAB_TEXT_H
#define SMEMLAB_TEXT_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The whole file, NUL-terminated (malloc'd; *len without the NUL if len), or NULL with errno set. */
char *smem_read_file(const char *path, size_t *len);

/* The file name after the last '/' ("" for NULL). */
const char *smem_base_name(const char *path);
/* Two source paths name the same file: equal, or equal base names (a line table and a PTX .file
 * may spell one file's folder differently). NULL names nothing. */
int smem_same_source(const char *a, const char *b);

/* Source lines by number, the file read once while the path stays the same. Start zeroed; free
 * with smem_source_cache_free. */
struct smem_source_cache {
    char path[1024];
    char *text;
};
/* Line n (1-based) of path without its leading blanks, in buf; "" when unreadable. */
const char *smem_source_line(struct smem_source_cache *c, const char *path, unsigned n, char *buf,
                             size_t size);
/* The statement line n belongs to, its lines joined by one space: the lines before that leave it
 * open (ending with an operator, a comma or an opening bracket) and those after while it stays
 * open, at most 3 each way ("float v = a[i] + b[j];" for line n holding "b[j];"). */
const char *smem_source_statement(struct smem_source_cache *c, const char *path, unsigned n,
                                  char *buf, size_t size);
void smem_source_cache_free(struct smem_source_cache *c);

/* s as a JSON string, quotes included (NULL: ""). */
void smem_json_string(FILE *f, const char *s);

/* s as XML (and HTML) text or attribute value: < > & " ' escaped; control characters other than
 * tab, and bytes that are not UTF-8, written as U+FFFD, so the page stays well-formed whatever a
 * source line holds (NULL: nothing). */
void smem_xml_text(FILE *f, const char *s);
/* v with its digits grouped by thousands ("105,906,176") in buf (27 bytes hold any); buf. */
const char *smem_group_digits(char *buf, size_t n, unsigned long long v);

#ifdef __cplusplus
}
#endif
#endif
