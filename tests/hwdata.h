/* hwdata.h: reads the H100 measurements in tests/hw/ (copied from shared/hw/, measured 2026-11-22 on
 * an H100 80GB HBM3 with Nsight Compute 2025.3.1) so golden tests take their numbers from the data. */
#ifndef SMEMLAB_TEST_HWDATA_H
#define SMEMLAB_TEST_HWDATA_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits one CSV line into fields (quotes respected); returns the count. Modifies line. */
static inline int hw_split(char *line, char **f, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        if (*p == '"') {
            f[n++] = ++p;
            while (*p && *p != '"')
                p++;
            if (*p)
                *p++ = 0;
        } else {
            f[n++] = p;
            while (*p && *p != ',' && *p != '\n' && *p != '\r')
                p++;
        }
        if (*p != ',') {
            *p = 0;
            break;
        }
        *p++ = 0;
    }
    return n;
}

/* The value of column col in the row of file (tests/hw/FILE) whose section and kernel match;
 * -1 when absent. */
static inline long long hw_value(const char *file, const char *section, const char *kernel, const char *col)
{
    char path[512], head[2048], line[2048];
    char *hf[64], *lf[64];
    snprintf(path, sizeof path, "%s/tests/hw/%s", SMEMLAB_SOURCE_DIR, file);
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    long long v = -1;
    if (fgets(head, sizeof head, fp)) {
        int nh = hw_split(head, hf, 64), ci = -1;
        for (int i = 0; i < nh; i++)
            if (!strcmp(hf[i], col))
                ci = i;
        while (ci >= 0 && fgets(line, sizeof line, fp)) {
            int nl = hw_split(line, lf, 64);
            if (nl > ci && !strcmp(lf[0], section) && !strcmp(lf[1], kernel)) {
                v = atoll(lf[ci]);
                break;
            }
        }
    }
    fclose(fp);
    if (v < 0)
        fprintf(stderr, "no %s for %s/%s in %s\n", col, section, kernel, file);
    return v;
}
#endif
