/* cli_ci.c: the CI outputs of analyze and run (--sarif, --junit, --markdown FILE, --baseline
 * REPORT, --source-root DIR): the command's JSON report read back through the library's CI
 * writers (src/report/ci_*.c), so every output says what --format json says. */
#define _GNU_SOURCE /* open_memstream's declaration with some libcs */
#include "cli.h"
#include "smemlab/base/text.h"
#include "smemlab/report/ci_baseline.h"
#include "smemlab/report/ci_csv.h"
#include "smemlab/report/ci_junit.h"
#include "smemlab/report/ci_markdown.h"
#include "smemlab/report/ci_sarif.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_ci_option(const char *cmd, int argc, char **argv, int *i, struct cli_ci *ci)
{
    static const char *const names[] = {"--sarif", "--junit", "--markdown", "--baseline",
                                        "--source-root", "--findings-csv"};
    const char **slots[] = {&ci->sarif, &ci->junit, &ci->markdown, &ci->baseline,
                            &ci->source_root, &ci->findings_csv};
    for (unsigned k = 0; k < sizeof names / sizeof names[0]; k++) {
        if (strcmp(argv[*i], names[k]))
            continue;
        if (*i + 1 >= argc || !argv[*i + 1][0]) {
            cli_usage_error(cmd, "%s needs a file", names[k]);
            return -1;
        }
        *slots[k] = argv[++*i];
        return 1;
    }
    return 0;
}

int cli_ci_wanted(const struct cli_ci *ci)
{
    return ci->sarif || ci->junit || ci->markdown || ci->baseline || ci->findings_csv;
}

/* --source-root: a finding's file (a base name, as the reports give it) becomes its path under
 * DIR when exactly one file of that name is there (hidden folders and build trees skipped), so
 * that code scanning can place it in the repository. */
struct lookup {
    const char *name;
    char found[1024];
    unsigned hits;
};

static void walk(const char *root, const char *rel, struct lookup *l, unsigned depth)
{
    char dir[2048];
    snprintf(dir, sizeof dir, "%s%s%s", root, *rel ? "/" : "", rel);
    char probe[2100];
    snprintf(probe, sizeof probe, "%s/CMakeCache.txt", dir);
    struct stat st;
    if (depth > 16 || (depth && !stat(probe, &st)))
        return;
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) && l->hits < 2) {
        if (e->d_name[0] == '.')
            continue;
        char sub[1024], path[3100];
        if ((size_t)snprintf(sub, sizeof sub, "%s%s%s", rel, *rel ? "/" : "", e->d_name) >=
            sizeof sub)
            continue;
        snprintf(path, sizeof path, "%s/%s", root, sub);
        if (stat(path, &st))
            continue;
        if (S_ISDIR(st.st_mode))
            walk(root, sub, l, depth + 1);
        else if (!strcmp(e->d_name, l->name) && l->hits++ == 0)
            snprintf(l->found, sizeof l->found, "%s", sub);
    }
    closedir(d);
}

static void resolve(struct smem_findings *fs, const char *root)
{
    for (unsigned i = 0; i < fs->n; i++) {
        struct smem_finding *x = &fs->v[i];
        if (!x->file[0] || strchr(x->file, '/'))
            continue;
        int done = 0;
        for (unsigned j = 0; j < i && !done; j++) /* one walk a name */
            if (!strcmp(smem_base_name(fs->v[j].file), x->file) && strchr(fs->v[j].file, '/')) {
                snprintf(x->file, sizeof x->file, "%s", fs->v[j].file);
                done = 1;
            }
        if (done)
            continue;
        struct lookup l = {x->file, "", 0};
        walk(root, "", &l, 0);
        if (l.hits == 1 && strlen(l.found) < sizeof x->file)
            memcpy(x->file, l.found, strlen(l.found) + 1);
    }
}

typedef void (*writer_fn)(FILE *, const struct smem_json *, const struct smem_findings *,
                          const struct smem_ci_checks *, const char *);

static int write_out(const char *cmd, const char *path, writer_fn w, const struct smem_json *doc,
                     const struct smem_findings *fs, const struct smem_ci_checks *c,
                     const char *title)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "smemlab %s: cannot write %s\n", cmd, path);
        return EXIT_INPUT;
    }
    w(f, doc, fs, c, title);
    if (fclose(f)) {
        fprintf(stderr, "smemlab %s: cannot write %s\n", cmd, path);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

static void findings_csv(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                         const struct smem_ci_checks *c, const char *title)
{
    (void)doc;
    (void)title;
    smem_findings_csv_write(f, fs, c);
}

static void sarif(FILE *f, const struct smem_json *doc, const struct smem_findings *fs,
                  const struct smem_ci_checks *c, const char *title)
{
    (void)doc;
    smem_sarif_write(f, fs, c, title);
}

int cli_ci_outputs(const char *cmd, const struct cli_ci *ci, const char *json, size_t len,
                   const struct smem_ci_checks *checks, const char *title)
{
    struct smem_error err;
    memset(&err, 0, sizeof err);
    char buf[1200];
    struct smem_json *doc = smem_json_parse(json, len, "report", &err);
    if (!doc) { /* our own report: a bug if it does not read */
        fprintf(stderr, "smemlab %s: the report does not read back: %s\n", cmd,
                smem_error_format(&err, buf, sizeof buf));
        return EXIT_INPUT;
    }
    struct smem_findings fs;
    int rc = EXIT_OK;
    if (smem_findings_collect(doc, &fs, &err)) {
        smem_json_free(doc);
        return cli_library_error(cmd, -1, &err);
    }
    if (ci->baseline) {
        struct smem_json *base = smem_json_load(ci->baseline, &err);
        struct smem_findings was;
        if (!base || smem_findings_collect(base, &was, &err)) {
            if (!err.file[0])
                snprintf(err.file, sizeof err.file, "%s", ci->baseline);
            rc = cli_library_error(cmd, -1, &err);
        } else if (was.is_run != fs.is_run) {
            fprintf(stderr, "smemlab %s: --baseline %s: a report of smemlab %s, not of %s\n", cmd,
                    ci->baseline, was.is_run ? "run" : "analyze", cmd);
            rc = EXIT_INPUT;
            smem_findings_free(&was);
        } else {
            unsigned worse = smem_baseline_compare(&was, &fs, stderr);
            if (worse) {
                fprintf(stderr, "smemlab %s: --baseline %s: %u finding%s worse than the "
                                "baseline\n", cmd, ci->baseline, worse, worse == 1 ? "" : "s");
                rc = EXIT_CHECK;
            }
            smem_findings_free(&was);
        }
        smem_json_free(base);
    }
    if (ci->source_root)
        resolve(&fs, ci->source_root);
    int w = EXIT_OK;
    if (ci->sarif && !w)
        w = write_out(cmd, ci->sarif, sarif, doc, &fs, checks, title);
    if (ci->junit && !w)
        w = write_out(cmd, ci->junit, smem_junit_write, doc, &fs, checks, title);
    if (ci->markdown && !w)
        w = write_out(cmd, ci->markdown, smem_markdown_write, doc, &fs, checks, title);
    if (ci->findings_csv && !w)
        w = write_out(cmd, ci->findings_csv, findings_csv, doc, &fs, checks, title);
    smem_findings_free(&fs);
    smem_json_free(doc);
    return rc == EXIT_OK ? w : rc;
}

int cli_ci_run_outputs(const struct cli_ci *ci, const char *json_path, const char *exit_status,
                       const struct smem_ci_checks *checks, char **argv)
{
    size_t len = 0;
    char *text = smem_read_file(json_path, &len);
    if (!text) {
        fprintf(stderr, "smemlab run: the program left no report for --sarif/--junit/--markdown/"
                        "--findings-csv/--baseline\n");
        return EXIT_INPUT;
    }
    /* the program's status where the library left a place for it */
    static const char hole[] = "\"exit_status\": null";
    char *at = strstr(text, hole);
    size_t n = len + 32;
    char *full = malloc(n);
    if (!full) {
        free(text);
        return EXIT_INPUT;
    }
    if (at)
        len = (size_t)snprintf(full, n, "%.*s\"exit_status\": %s%s", (int)(at - text), text,
                               exit_status, at + sizeof hole - 1);
    else
        memcpy(full, text, len + 1);
    free(text);
    char title[512] = "run";
    size_t t = strlen(title);
    for (unsigned i = 0; argv[i] && t + 2 < sizeof title; i++)
        t += (size_t)snprintf(title + t, sizeof title - t, " %s",
                              i ? argv[i] : smem_base_name(argv[i]));
    int rc = cli_ci_outputs("run", ci, full, len < n ? len : n - 1, checks, title);
    free(full);
    return rc;
}
