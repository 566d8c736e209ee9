/* ncu.h: reads the CSV that Nsight Compute prints with `ncu --csv` (the "details" page: one row per
 * kernel launch and metric) into per-launch metric values. Pure: parses text, never runs ncu. */
#ifndef SMEMLAB_NCU_H
#define SMEMLAB_NCU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SMEM_NCU_MAX_METRICS 16

struct smem_ncu_launch {
    unsigned id;      /* ncu's launch ID: 0, 1, ... in launch order */
    char kernel[128]; /* "Kernel Name" as ncu prints it */
    unsigned nmetrics;
    struct {
        char name[96];
        double value;
    } metric[SMEM_NCU_MAX_METRICS];
};

/* Parses text (any ncu output: "==PROF==" lines and the program's own output are skipped; the CSV
 * starts at the header line that names "ID", "Kernel Name", "Metric Name" and "Metric Value").
 * Values may carry thousands separators ("1,024"). Fills at most max launches in ID order of first
 * appearance; *n = launches found. Returns 0, or -1 with a sentence in err (no header, a row with
 * too few fields, a value that is not a number, more launches or metrics than fit). */
int smem_ncu_parse(const char *text, size_t len, struct smem_ncu_launch *out, size_t max, size_t *n,
                   char *err, size_t errlen);

/* The value of metric `name` of a launch, or -1 when it is absent. */
double smem_ncu_metric(const struct smem_ncu_launch *l, const char *name);

#ifdef __cplusplus
}
#endif
#endif
