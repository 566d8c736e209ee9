/* json_read.h: a JSON document read into a tree, so that the CI writers and the baseline work from
 * the reports' JSON contract (DESIGN.md) alone: analyze's, run's and a committed one alike. */
#ifndef SMEMLAB_REPORT_JSON_READ_H
#define SMEMLAB_REPORT_JSON_READ_H

#include <stddef.h>

#include "smemlab/base/error.h"

enum smem_json_type { SMEM_JSON_NULL, SMEM_JSON_BOOL, SMEM_JSON_NUMBER, SMEM_JSON_STRING,
                      SMEM_JSON_ARRAY, SMEM_JSON_OBJECT };

struct smem_json {
    enum smem_json_type type;
    double number;            /* NUMBER; BOOL: 0 or 1 */
    char *string;             /* STRING (NUL-terminated, escapes decoded) */
    unsigned n;               /* ARRAY, OBJECT: how many items */
    struct smem_json *items;  /* ARRAY, OBJECT: the values */
    char **keys;              /* OBJECT: the key of each value */
};

/* Parses text (len bytes; name says where it came from in errors). NULL with err filled
 * (name:line:col) on a syntax error, nesting deeper than 64, or no memory. */
struct smem_json *smem_json_parse(const char *text, size_t len, const char *name,
                                  struct smem_error *err);
/* Reads and parses a file. */
struct smem_json *smem_json_load(const char *path, struct smem_error *err);
void smem_json_free(struct smem_json *j);

/* An object's member (NULL when j is not an object or has no such key). */
const struct smem_json *smem_json_get(const struct smem_json *j, const char *key);
/* An array's length (0 when j is not an array) and its i-th item. */
unsigned smem_json_len(const struct smem_json *j);
const struct smem_json *smem_json_at(const struct smem_json *j, unsigned i);
/* A member's number (dflt when absent or not a number), string (NULL when absent). */
double smem_json_num(const struct smem_json *j, const char *key, double dflt);
const char *smem_json_str(const struct smem_json *j, const char *key);

#endif
