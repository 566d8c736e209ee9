/* ci_junit.c: JUnit XML (the Ant/Surefire dialect CI systems read: testsuites > testsuite >
 * testcase, with failure and error children). A run's launch fails a check when its own record
 * shows it (conflict totals, hazards, memory errors); the failure text names the kernel's
 * findings at their file:line. */
#include "smemlab/report/ci_junit.h"

#include <string.h>

static void xml(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '<')
            fputs("&lt;", f);
        else if (c == '>')
            fputs("&gt;", f);
        else if (c == '&')
            fputs("&amp;", f);
        else if (c == '"')
            fputs("&quot;", f);
        else if (c < 0x20 && c != '\n' && c != '\t')
            fputc(' ', f); /* not allowed in XML 1.0 */
        else
            fputc(c, f);
    }
}

/* cp.async's totals left out: a .cg copy's wavefronts count its global lines too */
static const char *const TOTALS[] = {"shared_ld", "shared_st", "shared_atom", "shared_ldsm",
                                     "shared_stsm"};

/* what a record (a launch, or a kernel of analyze) shows: checks it fails, as a bit mask */
enum { FAIL_CONFLICT = 1, FAIL_HAZARD = 2, FAIL_MEMORY = 4 };

static unsigned record_fails(const struct smem_json *r, const struct smem_ci_checks *c)
{
    unsigned m = 0;
    double excess = 0;
    for (unsigned t = 0; t < sizeof TOTALS / sizeof TOTALS[0]; t++) {
        const struct smem_json *x = smem_json_get(r, TOTALS[t]);
        excess += smem_json_num(x, "wavefronts", 0) - smem_json_num(x, "ideal_wavefronts", 0);
    }
    if (c->conflict && excess > 0)
        m |= FAIL_CONFLICT;
    if (c->hazard && smem_json_len(smem_json_get(r, "hazards")))
        m |= FAIL_HAZARD;
    if (c->memory && smem_json_len(smem_json_get(r, "memory_errors")))
        m |= FAIL_MEMORY;
    return m;
}

static void failure(FILE *f, unsigned mask, const char *kernel, const struct smem_findings *fs)
{
    static const char *const what[] = {"bank conflict", "hazard", "memory error"};
    char msg[128] = "";
    size_t n = 0;
    for (unsigned b = 0; b < 3; b++)
        if (mask & (1u << b))
            n += (size_t)snprintf(msg + n, sizeof msg - n, "%s%s", n ? ", " : "", what[b]);
    fprintf(f, "      <failure type=\"smemlab\" message=\"");
    xml(f, msg);
    fprintf(f, "\">");
    for (unsigned i = 0; i < fs->n; i++) {
        const struct smem_finding *x = &fs->v[i];
        unsigned bit = x->kind == SMEM_FINDING_CONFLICT ? FAIL_CONFLICT
                       : x->kind == SMEM_FINDING_HAZARD ? FAIL_HAZARD : FAIL_MEMORY;
        if (!(mask & bit) || strcmp(x->kernel, kernel))
            continue;
        char where[600];
        snprintf(where, sizeof where, "%s:%u: [%s] ", x->file[0] ? x->file : "?", x->line, x->rule);
        xml(f, where);
        xml(f, x->message);
        fputc('\n', f);
    }
    fprintf(f, "</failure>\n");
}

void smem_junit_write(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                      const struct smem_ci_checks *c, const char *suite)
{
    const struct smem_json *records = smem_json_get(doc, fs->is_run ? "launches" : "kernels");
    unsigned n = smem_json_len(records), tests = n, failures = 0, errors = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct smem_json *r = smem_json_at(records, i);
        if (smem_json_str(r, "error"))
            errors++;
        else if (record_fails(r, c))
            failures++;
    }
    const struct smem_json *status = smem_json_get(doc, "exit_status");
    const char *stopped = smem_json_str(doc, "stopped");
    int bad_exit = status && status->type == SMEM_JSON_NUMBER && status->number != 0;
    /* run: the sanitizer's host-side findings (api errors, leaks) are one more test case, there
       only when there are any (a report without them reads as before) */
    unsigned nsan = 0, sanfail = 0;
    for (unsigned i = 0; i < fs->n; i++)
        if (fs->v[i].kind == SMEM_FINDING_SANITIZER) {
            nsan++;
            sanfail += smem_finding_fails(&fs->v[i], c) != 0;
        }
    if (fs->is_run) {
        tests++;
        errors += stopped != NULL;
        failures += !stopped && bad_exit;
        tests += nsan > 0;
        failures += sanfail > 0;
    }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites tests=\"%u\" "
               "failures=\"%u\" errors=\"%u\">\n  <testsuite name=\"", tests, failures, errors);
    xml(f, suite);
    fprintf(f, "\" tests=\"%u\" failures=\"%u\" errors=\"%u\" skipped=\"0\">\n", tests, failures,
            errors);
    for (unsigned i = 0; i < n; i++) {
        const struct smem_json *r = smem_json_at(records, i);
        const char *kernel = smem_json_str(r, fs->is_run ? "kernel" : "name");
        char name[400];
        if (fs->is_run)
            snprintf(name, sizeof name, "launch %.0f: %s", smem_json_num(r, "index", i),
                     kernel ? kernel : "?");
        else
            snprintf(name, sizeof name, "%s", kernel ? kernel : "?");
        fprintf(f, "    <testcase classname=\"");
        xml(f, suite);
        fprintf(f, "\" name=\"");
        xml(f, name);
        fprintf(f, "\" time=\"%.6f\"", smem_json_num(r, "emulation_seconds", 0));
        const char *error = smem_json_str(r, "error");
        unsigned mask = error ? 0 : record_fails(r, c);
        if (!error && !mask) {
            fprintf(f, "/>\n");
            continue;
        }
        fprintf(f, ">\n");
        if (error) {
            fprintf(f, "      <error type=\"smemlab\" message=\"");
            xml(f, error);
            fprintf(f, "\"/>\n");
        } else {
            failure(f, mask, kernel ? kernel : "", fs);
        }
        fprintf(f, "    </testcase>\n");
    }
    if (nsan) {
        fprintf(f, "    <testcase classname=\"");
        xml(f, suite);
        fprintf(f, "\" name=\"sanitizer: runtime calls and allocations\"");
        if (!sanfail) {
            fprintf(f, ">\n      <system-out>");
        } else {
            fprintf(f, ">\n      <failure type=\"smemlab\" message=\"%u sanitizer finding%s failing "
                       "the checks asked for\">", sanfail, sanfail == 1 ? "" : "s");
        }
        for (unsigned i = 0; i < fs->n; i++) {
            const struct smem_finding *x = &fs->v[i];
            if (x->kind != SMEM_FINDING_SANITIZER)
                continue;
            char where[600];
            snprintf(where, sizeof where, "%s:%u: [%s] ", x->file[0] ? x->file : "?", x->line,
                     x->rule);
            xml(f, where);
            xml(f, x->message);
            fputc('\n', f);
        }
        fprintf(f, "%s\n    </testcase>\n", sanfail ? "</failure>" : "</system-out>");
    }
    if (fs->is_run) {
        fprintf(f, "    <testcase classname=\"");
        xml(f, suite);
        fprintf(f, "\" name=\"program exit status\"");
        if (stopped) {
            fprintf(f, ">\n      <error type=\"smemlab\" message=\"");
            xml(f, stopped);
            fprintf(f, "\"/>\n    </testcase>\n");
        } else if (bad_exit) {
            fprintf(f, ">\n      <failure type=\"exit\" message=\"the program exited with status "
                       "%.0f\"/>\n    </testcase>\n", status->number);
        } else {
            fprintf(f, "/>\n");
        }
    }
    fprintf(f, "  </testsuite>\n</testsuites>\n");
}
