/* ci_sarif.c: SARIF 2.1.0 (the OASIS standard's schema, tests/ci/sarif_valid.py checks it): one run
 * of the driver smemlab with its rules, one result per finding, a race's other line as a related
 * location. Paths stay as the findings name them (relative: resolved against the checkout). */
#include "smemlab/report/ci_sarif.h"

#include "smemlab/base/text.h"
#include "smemlab/base/version.h"

#include <string.h>

static const char *const RULE_IDS[] = {"bank-conflict", "race", "barrier-divergence",
                                       "shared-out-of-bounds", "memory-error", "layout",
                                       "uninitialized", "api-error", "leak", "proxy-fence",
                                       "global-race"};
enum { NRULES = sizeof RULE_IDS / sizeof RULE_IDS[0] };

static unsigned rule_index(const char *rule)
{
    for (unsigned i = 0; i < NRULES; i++)
        if (!strcmp(RULE_IDS[i], rule))
            return i;
    return 0;
}

/* a path as a URI reference: the few characters that may not stand in one escaped */
static void uri(FILE *f, const char *path)
{
    char buf[1600];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)path; *p && n + 4 < sizeof buf; p++) {
        if (*p <= ' ' || *p >= 0x7f || strchr("%\"<>\\^`{|}#?[]", *p))
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%%%02X", *p);
        else
            buf[n++] = (char)*p;
    }
    buf[n] = 0;
    smem_json_string(f, buf);
}

static void location(FILE *f, const char *file, unsigned line)
{
    fprintf(f, "{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ");
    uri(f, file);
    fprintf(f, "}");
    if (line)
        fprintf(f, ", \"region\": {\"startLine\": %u}", line);
    fprintf(f, "}}");
}

/* Conflicts and the sanitizer's host-side findings (an error a program may check on purpose, a
 * leak at exit) are warnings unless a check asked for fails on them; the rest errors. */
static const char *level(const struct smem_finding *x, const struct smem_ci_checks *c)
{
    return (x->kind != SMEM_FINDING_CONFLICT && x->kind != SMEM_FINDING_SANITIZER) ||
                   smem_finding_fails(x, c)
               ? "error"
               : "warning";
}

void smem_sarif_write(FILE *f, const struct smem_findings *fs, const struct smem_ci_checks *c,
                      const char *category)
{
    char id[200];
    size_t n = (size_t)snprintf(id, sizeof id, "smemlab/");
    for (const char *p = category ? category : ""; *p && n + 2 < sizeof id; p++)
        id[n++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                          *p == '.' || *p == '_' || *p == '-' ? *p : '-';
    id[n++] = '/';
    id[n] = 0;
    fprintf(f, "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
               "  \"version\": \"2.1.0\",\n  \"runs\": [{\n"
               "    \"tool\": {\"driver\": {\"name\": \"smemlab\", \"version\": \"%s\",\n"
               "      \"rules\": [",
            SMEMLAB_VERSION);
    for (unsigned i = 0; i < NRULES; i++) {
        fprintf(f, "%s\n        {\"id\": \"%s\", \"shortDescription\": {\"text\": ", i ? "," : "",
                RULE_IDS[i]);
        smem_json_string(f, smem_finding_rule_text(RULE_IDS[i]));
        fprintf(f, "}, \"defaultConfiguration\": {\"level\": \"%s\"}}",
                i == 0 || !strcmp(RULE_IDS[i], "api-error") || !strcmp(RULE_IDS[i], "leak")
                    ? "warning"
                    : "error");
    }
    fprintf(f, "\n      ]}},\n    \"automationDetails\": {\"id\": ");
    smem_json_string(f, id);
    fprintf(f, "},\n    \"results\": [");
    for (unsigned i = 0; i < fs->n; i++) {
        const struct smem_finding *x = &fs->v[i];
        fprintf(f, "%s\n      {\"ruleId\": \"%s\", \"ruleIndex\": %u, \"level\": \"%s\",\n"
                   "       \"message\": {\"text\": ",
                i ? "," : "", x->rule, rule_index(x->rule), level(x, c));
        smem_json_string(f, x->message);
        fprintf(f, "},\n       \"locations\": [");
        if (x->file[0])
            location(f, x->file, x->line);
        fprintf(f, "]");
        if (x->file[0] && x->line2 && x->line2 != x->line) {
            fprintf(f, ",\n       \"relatedLocations\": [");
            location(f, x->file, x->line2);
            fprintf(f, "]");
        }
        fprintf(f, ",\n       \"properties\": {\"%s\": ",
                x->kind == SMEM_FINDING_SANITIZER ? "call" : "kernel");
        smem_json_string(f, x->kernel);
        fprintf(f, ", \"count\": %llu", x->count);
        if (x->launch >= 0)
            fprintf(f, ", \"launch\": %ld", x->launch);
        fprintf(f, "}}");
    }
    fprintf(f, "%s]\n  }]\n}\n", fs->n ? "\n    " : "");
}
