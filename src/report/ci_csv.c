/* ci_csv.c: a report's findings as one CSV table (ci_csv.h). */
#include "smemlab/report/ci_csv.h"

static void field(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    }
    fputc('"', f);
}

void smem_findings_csv_write(FILE *f, const struct smem_findings *fs, const struct smem_ci_checks *c)
{
    static const char *const kinds[SMEM_FINDING_KINDS] = {"conflict", "hazard", "memory",
                                                          "sanitizer"};
    fprintf(f, "rule,kind,kernel,file,line,line2,detail,count,launch,fails,message\n");
    for (unsigned i = 0; i < fs->n; i++) {
        const struct smem_finding *x = &fs->v[i];
        field(f, x->rule);
        fprintf(f, ",%s,", (unsigned)x->kind < SMEM_FINDING_KINDS ? kinds[x->kind] : "?");
        field(f, x->kernel);
        fputc(',', f);
        field(f, x->file);
        fprintf(f, ",%u,%u,", x->line, x->line2);
        field(f, x->detail);
        fprintf(f, ",%llu,%ld,%d,", x->count, x->launch, smem_finding_fails(x, c) != 0);
        field(f, x->message);
        fputc('\n', f);
    }
}
