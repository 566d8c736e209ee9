/* ci_markdown.c: the Markdown summary: one verdict line, a table of the kernels' shared-memory
 * totals, then the findings grouped by rule, each at its file:line, failing ones marked. */
#include "smemlab/report/ci_markdown.h"

#include <string.h>

/* text in a table cell or a list item: the characters Markdown would read as syntax escaped */
static void md(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (strchr("|*_`[]<>\\#", *s))
            fputc('\\', f);
        fputc(*s == '\n' ? ' ' : *s, f);
    }
}

static void totals(FILE *f, const struct smem_json *k, const char *key)
{
    const struct smem_json *t = smem_json_get(k, key);
    double req = smem_json_num(t, "requests", 0), wf = smem_json_num(t, "wavefronts", 0),
           ideal = smem_json_num(t, "ideal_wavefronts", 0);
    fprintf(f, " %.0f / %.0f", req, wf);
    if (wf > ideal)
        fprintf(f, " (+%.0f)", wf - ideal);
    fprintf(f, " |");
}

void smem_markdown_write(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                         const struct smem_ci_checks *c, const char *title)
{
    unsigned counts[SMEM_FINDING_KINDS] = {0}, failing = 0;
    for (unsigned i = 0; i < fs->n; i++) {
        counts[fs->v[i].kind]++;
        failing += smem_finding_fails(&fs->v[i], c) != 0;
    }
    fprintf(f, "## smemlab: ");
    md(f, title);
    fprintf(f, "\n\n%s %u conflicting site%s, %u hazard%s, %u memory error%s",
            failing ? "**FAIL**:" : "**PASS**:", counts[0], counts[0] == 1 ? "" : "s",
            counts[1], counts[1] == 1 ? "" : "s", counts[2], counts[2] == 1 ? "" : "s");
    if (counts[SMEM_FINDING_SANITIZER])
        fprintf(f, ", %u sanitizer finding%s", counts[SMEM_FINDING_SANITIZER],
                counts[SMEM_FINDING_SANITIZER] == 1 ? "" : "s");
    if (failing)
        fprintf(f, " (%u failing the checks asked for)", failing);
    const struct smem_json *status = smem_json_get(doc, "exit_status");
    if (fs->is_run && status && status->type == SMEM_JSON_NUMBER)
        fprintf(f, "; the program exited with status %.0f", status->number);
    const char *stopped = smem_json_str(doc, "stopped");
    if (stopped) {
        fprintf(f, "; stopped by smemlab: ");
        md(f, stopped);
    }
    fprintf(f, ".\n\n| kernel |%s shared ld requests / wavefronts | shared st requests / "
               "wavefronts | hazards |\n|---|%s---:|---:|---:|\n",
            fs->is_run ? " launches |" : "", fs->is_run ? "---:|" : "");
    const struct smem_json *kernels = smem_json_get(doc, "kernels");
    for (unsigned k = 0; k < smem_json_len(kernels); k++) {
        const struct smem_json *kr = smem_json_at(kernels, k);
        fprintf(f, "| `");
        const char *name = smem_json_str(kr, "name");
        fputs(name ? name : "?", f); /* inside a code span: no escapes */
        fprintf(f, "` |");
        if (fs->is_run)
            fprintf(f, " %.0f |", smem_json_num(kr, "launches", 0));
        totals(f, kr, "shared_ld");
        totals(f, kr, "shared_st");
        fprintf(f, " %u |\n", smem_json_len(smem_json_get(kr, "hazards")));
    }
    static const char *const heads[SMEM_FINDING_KINDS] = {
        "Bank conflicts", "Hazards", "Memory errors",
        "Sanitizer (runtime calls that returned an error, leaks, uninitialized copies)"};
    for (unsigned kind = 0; kind < SMEM_FINDING_KINDS; kind++) {
        if (!counts[kind])
            continue;
        fprintf(f, "\n### %s\n\n", heads[kind]);
        for (unsigned i = 0; i < fs->n; i++) {
            const struct smem_finding *x = &fs->v[i];
            if ((unsigned)x->kind != kind)
                continue;
            fprintf(f, "- %s`%s:%u` ", smem_finding_fails(x, c) ? "**fails** " : "",
                    x->file[0] ? x->file : "?", x->line);
            md(f, x->message);
            fputc('\n', f);
        }
    }
}
