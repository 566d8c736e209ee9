/* ncu.c: a small CSV reader for `ncu --csv` output (RFC 4180 quoting, one line per record, which is
 * what ncu writes), keyed by the header's column names so that column order may change. */
#include "smemlab/gpu/ncu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FIELDS 64
#define MAX_FIELD 256

/* Splits one line into fields; returns the count, or -1 on an unterminated quote or a field too
 * long for MAX_FIELD. */
static int split_line(const char *s, size_t len, char fields[][MAX_FIELD], int max)
{
    int n = 0;
    size_t i = 0;
    for (;;) {
        if (n == max)
            return -1;
        size_t k = 0;
        if (i < len && s[i] == '"') {
            i++;
            for (;;) {
                if (i >= len)
                    return -1;
                if (s[i] == '"') {
                    if (i + 1 < len && s[i + 1] == '"') {
                        if (k + 1 >= MAX_FIELD)
                            return -1;
                        fields[n][k++] = '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (k + 1 >= MAX_FIELD)
                    return -1;
                fields[n][k++] = s[i++];
            }
        } else {
            while (i < len && s[i] != ',') {
                if (k + 1 >= MAX_FIELD)
                    return -1;
                fields[n][k++] = s[i++];
            }
        }
        fields[n++][k] = 0;
        if (i >= len)
            return n;
        if (s[i] != ',')
            return -1;
        i++;
    }
}

/* A counter value: digits with optional thousands separators and an optional fraction. */
static int parse_value(const char *s, double *v)
{
    char buf[MAX_FIELD];
    size_t k = 0;
    for (const char *p = s; *p; p++)
        if (*p != ',' && *p != ' ')
            buf[k++] = *p;
    buf[k] = 0;
    if (!k)
        return -1;
    char *end;
    *v = strtod(buf, &end);
    return *end ? -1 : 0;
}

static int column(char fields[][MAX_FIELD], int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(fields[i], name))
            return i;
    return -1;
}

int smem_ncu_parse(const char *text, size_t len, struct smem_ncu_launch *out, size_t max, size_t *n,
                   char *err, size_t errlen)
{
    char f[MAX_FIELDS][MAX_FIELD]; /* 16 KB */
    int c_id = -1, c_kernel = -1, c_name = -1, c_value = -1, nhead = 0;
    size_t line_no = 0;
    *n = 0;
    for (size_t pos = 0; pos < len;) {
        const char *line = text + pos;
        size_t l = 0;
        while (pos + l < len && line[l] != '\n')
            l++;
        pos += l + 1;
        line_no++;
        size_t ll = l;
        if (ll && line[ll - 1] == '\r')
            ll--;
        if (!ll || line[0] != '"')
            continue; /* ==PROF== lines, the program's output, blank lines */
        int nf = split_line(line, ll, f, MAX_FIELDS);
        if (c_id < 0) {
            if (nf > 0 && column(f, nf, "ID") >= 0 && column(f, nf, "Metric Name") >= 0 &&
                column(f, nf, "Metric Value") >= 0) {
                c_id = column(f, nf, "ID");
                c_kernel = column(f, nf, "Kernel Name");
                c_name = column(f, nf, "Metric Name");
                c_value = column(f, nf, "Metric Value");
                nhead = nf;
            }
            continue;
        }
        if (nf != nhead) {
            snprintf(err, errlen, "ncu CSV line %zu: %d fields, the header has %d", line_no, nf, nhead);
            return -1;
        }
        char *end;
        unsigned long id = strtoul(f[c_id], &end, 10);
        if (*end || !f[c_id][0]) {
            snprintf(err, errlen, "ncu CSV line %zu: launch ID '%s' is not a number", line_no, f[c_id]);
            return -1;
        }
        struct smem_ncu_launch *L = NULL;
        for (size_t i = 0; i < *n; i++)
            if (out[i].id == id)
                L = &out[i];
        if (!L) {
            if (*n == max) {
                snprintf(err, errlen, "ncu CSV line %zu: more than %zu launches", line_no, max);
                return -1;
            }
            L = &out[(*n)++];
            memset(L, 0, sizeof *L);
            L->id = (unsigned)id;
            if (c_kernel >= 0)
                snprintf(L->kernel, sizeof L->kernel, "%.*s", (int)sizeof L->kernel - 1, f[c_kernel]);
        }
        double v;
        if (parse_value(f[c_value], &v)) {
            snprintf(err, errlen, "ncu CSV line %zu: metric %s has value '%s', not a number", line_no,
                     f[c_name], f[c_value]);
            return -1;
        }
        if (L->nmetrics == SMEM_NCU_MAX_METRICS) {
            snprintf(err, errlen, "ncu CSV line %zu: more than %d metrics for launch %lu", line_no,
                     SMEM_NCU_MAX_METRICS, id);
            return -1;
        }
        snprintf(L->metric[L->nmetrics].name, sizeof L->metric[0].name, "%.*s",
                 (int)sizeof L->metric[0].name - 1, f[c_name]);
        L->metric[L->nmetrics++].value = v;
    }
    if (c_id < 0) {
        snprintf(err, errlen, "no ncu CSV header (\"ID\", ..., \"Metric Name\", \"Metric Value\") "
                              "in the output");
        return -1;
    }
    return 0;
}

double smem_ncu_metric(const struct smem_ncu_launch *l, const char *name)
{
    for (unsigned i = 0; i < l->nmetrics; i++)
        if (!strcmp(l->metric[i].name, name))
            return l->metric[i].value;
    return -1;
}
