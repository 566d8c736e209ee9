/* ci_findings.c: the findings of a report's JSON (conflicting sites, hazards, memory errors, the
 * sanitizer's API errors and leaks) in one flat list, each with its rule and a sentence, for the CI writers and the baseline. */
#include "smemlab/report/ci_findings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *rule, *text;
} RULES[] = {
    {"bank-conflict", "A shared-memory request needs more wavefronts than its bytes need: an "
                      "n-way bank conflict"},
    {"race", "Two threads access the same shared-memory word without a barrier between them, "
             "at least one writing"},
    {"barrier-divergence", "Threads of a block wait at different barriers, or exit while "
                           "others wait"},
    {"shared-out-of-bounds", "A shared-memory access outside the block's shared memory"},
    {"memory-error", "A global-memory access outside every live allocation (or one the "
                     "emulator cannot complete)"},
    {"uninitialized", "A kernel or a copy reads device memory that nothing wrote (compute-sanitizer's "
                      "initcheck), or a kernel reads shared memory nothing in its block wrote "
                      "(--initcheck; compute-sanitizer does not check this): a GPU gives "
                      "whatever was there"},
    {"api-error", "A CUDA runtime call returned an error to the program (compute-sanitizer's "
                  "\"Program hit ...\")"},
    {"leak", "An allocation not freed when the program ended (--leak-check full)"},
    {"layout", "A wgmma reads a shared-memory tile through a matrix descriptor whose swizzle is "
               "not the one the TMA load that wrote the tile used: a wrong product"},
    {"global-race", "Two threads of a launch access the same global-memory byte, at least one "
                    "writing, with no barrier, release / acquire (fence and flag) or atomic "
                    "ordering them (run --global-races; compute-sanitizer does not check this)"},
    {"proxy-fence", "A wgmma reads shared memory that a generic-proxy write (st.shared, atom, "
                    "stmatrix, cp.async) left with no fence.proxy.async since, as the PTX ISA "
                    "requires: undefined, a product of stale data"},
};

const char *smem_finding_rule_text(const char *rule)
{
    for (unsigned i = 0; i < sizeof RULES / sizeof RULES[0]; i++)
        if (!strcmp(RULES[i].rule, rule))
            return RULES[i].text;
    return "";
}

double smem_finding_per_request(const struct smem_finding *f)
{
    return f->count ? f->wavefronts / (double)f->count : 0;
}

int smem_finding_fails(const struct smem_finding *f, const struct smem_ci_checks *c)
{
    switch (f->kind) {
    case SMEM_FINDING_CONFLICT: return c->conflict;
    case SMEM_FINDING_HAZARD: return c->hazard;
    case SMEM_FINDING_SANITIZER:
        return !strcmp(f->rule, "leak") ? c->leak : !strcmp(f->rule, "uninitialized") ? c->memory
                                                                                     : c->api_error;
    default: return c->memory;
    }
}

/* A count or a line from a report: a number out of range (a hand-edited baseline) is clamped, never
 * converted out of range. */
static unsigned long long whole(double v)
{
    return v > 0 ? v < 9.2e18 ? (unsigned long long)v : 9200000000000000000ull : 0;
}

static unsigned small(double v)
{
    return v > 0 ? v < 4294967295.0 ? (unsigned)v : 4294967295u : 0;
}

static struct smem_finding *add(struct smem_findings *out, unsigned *cap)
{
    if (out->n == *cap) {
        unsigned nc = *cap ? *cap * 2 : 16;
        struct smem_finding *nv = realloc(out->v, nc * sizeof *nv);
        if (!nv)
            return NULL;
        out->v = nv;
        *cap = nc;
    }
    struct smem_finding *f = &out->v[out->n++];
    memset(f, 0, sizeof *f);
    f->launch = -1;
    return f;
}

static void copy(char *dst, size_t n, const char *s)
{
    snprintf(dst, n, "%s", s ? s : "");
}

/* The file a kernel's lines are in when a hazard does not say: its first site's. */
static const char *kernel_file(const struct smem_json *k)
{
    const struct smem_json *sites = smem_json_get(k, "sites");
    for (unsigned s = 0; s < smem_json_len(sites); s++) {
        const char *file = smem_json_str(smem_json_at(sites, s), "file");
        if (file && *file)
            return file;
    }
    return "";
}

static const char *hazard_rule(const char *kind)
{
    if (!strcmp(kind, "race"))
        return "race";
    if (!strcmp(kind, "barrier"))
        return "barrier-divergence";
    if (!strcmp(kind, "layout"))
        return "layout";
    if (!strcmp(kind, "proxy-fence"))
        return "proxy-fence";
    if (!strcmp(kind, "global-race"))
        return "global-race";
    if (!strcmp(kind, "uninitialized-shared"))
        return "uninitialized";
    return "shared-out-of-bounds";
}

static void hazard_message(struct smem_finding *f, const struct smem_json *h, const char *kind)
{
    const char *detail = smem_json_str(h, "detail");
    const char *var = smem_json_str(h, "variable");
    char where[300] = "";
    if (var && *var)
        snprintf(where, sizeof where, " on %s", var);
    if (!strcmp(kind, "race"))
        snprintf(f->message, sizeof f->message,
                 "%s: shared-memory race (%s)%s between line %u and line %u, seen %llu times",
                 f->kernel, detail ? detail : "?", where, f->line, f->line2, f->count);
    else if (!strcmp(kind, "barrier"))
        snprintf(f->message, sizeof f->message, "%s: barrier divergence (%s) at lines %u and %u",
                 f->kernel, detail ? detail : "?", f->line, f->line2);
    else if (!strcmp(kind, "layout"))
        snprintf(f->message, sizeof f->message, "%s: %s (the wgmma at line %u, the TMA load at "
                 "line %u), seen %llu times", f->kernel, detail ? detail : "?", f->line, f->line2,
                 f->count);
    else if (!strcmp(kind, "proxy-fence"))
        snprintf(f->message, sizeof f->message, "%s: %s (the wgmma at line %u, the write at "
                 "line %u), seen %llu times", f->kernel, detail ? detail : "?", f->line, f->line2,
                 f->count);
    else if (!strcmp(kind, "global-race"))
        snprintf(f->message, sizeof f->message, "%s: %s, between line %u and line %u, seen %llu "
                 "times", f->kernel, detail ? detail : "?", f->line, f->line2, f->count);
    else if (!strcmp(kind, "uninitialized-shared"))
        snprintf(f->message, sizeof f->message,
                 "%s: read of shared memory nothing in the block wrote, at byte %.0f%s%s (line "
                 "%u), seen %llu times", f->kernel, smem_json_num(h, "address", 0),
                 var && *var ? " of " : "", var && *var ? var : "", f->line, f->count);
    else
        snprintf(f->message, sizeof f->message,
                 "%s: shared-memory %s out of bounds at byte %.0f%s%s, seen %llu times", f->kernel,
                 detail ? detail : "access", smem_json_num(h, "address", 0),
                 var && *var ? ", nearest " : "", var && *var ? var : "", f->count);
}

static int kernel_findings(const struct smem_json *k, struct smem_findings *out, unsigned *cap)
{
    const char *name = smem_json_str(k, "name");
    const struct smem_json *sites = smem_json_get(k, "sites");
    for (unsigned s = 0; s < smem_json_len(sites); s++) {
        const struct smem_json *site = smem_json_at(sites, s);
        double wf = smem_json_num(site, "wavefronts", 0), ideal = smem_json_num(site, "ideal_wavefronts", 0);
        const char *op = smem_json_str(site, "op");
        /* a .cg copy's wavefronts count its global lines too: a conflict only when a bank
           serves more than one word (analyze's --fail-on-conflict reads it the same way) */
        if (wf <= ideal || (op && !strcmp(op, "ldgsts") && smem_json_num(site, "max_ways", 0) <= 1))
            continue;
        struct smem_finding *f = add(out, cap);
        if (!f)
            return -1;
        f->kind = SMEM_FINDING_CONFLICT;
        f->rule = "bank-conflict";
        copy(f->kernel, sizeof f->kernel, name);
        copy(f->file, sizeof f->file, smem_json_str(site, "file"));
        f->line = small(smem_json_num(site, "line", 0));
        f->count = whole(smem_json_num(site, "requests", 0));
        f->wavefronts = wf;
        f->ideal = ideal;
        copy(f->detail, sizeof f->detail, op);
        snprintf(f->message, sizeof f->message,
                 "%s: %u-way bank conflict: shared %s of %.0f bytes, %.0f wavefronts for %llu "
                 "requests (%.2f a request; %.0f without conflicts)",
                 f->kernel, small(smem_json_num(site, "max_ways", 0)), op ? op : "?",
                 smem_json_num(site, "bytes", 0), wf, f->count, smem_finding_per_request(f),
                 ideal);
    }
    const struct smem_json *hz = smem_json_get(k, "hazards");
    for (unsigned h = 0; h < smem_json_len(hz); h++) {
        const struct smem_json *z = smem_json_at(hz, h);
        const char *kind = smem_json_str(z, "kind");
        struct smem_finding *f = add(out, cap);
        if (!f)
            return -1;
        f->kind = SMEM_FINDING_HAZARD;
        f->rule = hazard_rule(kind ? kind : "");
        copy(f->detail, sizeof f->detail, smem_json_str(z, "detail"));
        copy(f->kernel, sizeof f->kernel, name);
        const char *file = smem_json_str(z, "file");
        copy(f->file, sizeof f->file, file ? file : kernel_file(k));
        const struct smem_json *lines = smem_json_get(z, "lines");
        const struct smem_json *l0 = smem_json_at(lines, 0), *l1 = smem_json_at(lines, 1);
        f->line = l0 ? small(l0->number) : 0;
        f->line2 = l1 ? small(l1->number) : 0;
        f->count = whole(smem_json_num(z, "count", 1));
        hazard_message(f, z, kind ? kind : "");
    }
    return 0;
}

/* run: each launch's memory errors, one finding per kernel, kind and line */
static int memory_findings(const struct smem_json *launches, struct smem_findings *out,
                           unsigned *cap)
{
    for (unsigned l = 0; l < smem_json_len(launches); l++) {
        const struct smem_json *launch = smem_json_at(launches, l);
        const char *kernel = smem_json_str(launch, "kernel");
        const struct smem_json *errs = smem_json_get(launch, "memory_errors");
        for (unsigned e = 0; e < smem_json_len(errs); e++) {
            const struct smem_json *m = smem_json_at(errs, e);
            const char *kind = smem_json_str(m, "kind"), *file = smem_json_str(m, "file");
            unsigned line = small(smem_json_num(m, "line", 0));
            unsigned long long count = whole(smem_json_num(m, "count", 1));
            struct smem_finding *f = NULL;
            for (unsigned i = 0; i < out->n && !f; i++) {
                struct smem_finding *g = &out->v[i];
                if (g->kind == SMEM_FINDING_MEMORY && g->line == line &&
                    !strcmp(g->kernel, kernel ? kernel : "") && !strcmp(g->file, file ? file : "") &&
                    !strncmp(g->detail, kind ? kind : "", sizeof g->detail - 1))
                    f = g;
            }
            if (f) {
                f->count += count;
                continue;
            }
            if (!(f = add(out, cap)))
                return -1;
            f->kind = SMEM_FINDING_MEMORY;
            f->rule = kind && !strncmp(kind, "uninitialized", 13) ? "uninitialized" : "memory-error";
            copy(f->detail, sizeof f->detail, kind);
            copy(f->kernel, sizeof f->kernel, kernel);
            copy(f->file, sizeof f->file, file);
            f->line = line;
            f->count = count;
            f->launch = (long)small(smem_json_num(launch, "index", l));
            const char *nearest = smem_json_str(m, "nearest");
            snprintf(f->message, sizeof f->message,
                     "%s: %s memory error (%s) of %.0f bytes at 0x%llx in launch %ld: %s",
                     f->kernel, smem_json_str(m, "space") ? smem_json_str(m, "space") : "global",
                     kind ? kind : "?", smem_json_num(m, "bytes", 0),
                     whole(smem_json_num(m, "address", 0)), f->launch,
                     nearest && *nearest ? nearest : "no allocation near it");
        }
    }
    return 0;
}

/* run: the "sanitizer" array (api errors, leaks, uninitialized bytes copied by the host) */
static int sanitizer_findings(const struct smem_json *arr, struct smem_findings *out, unsigned *cap)
{
    for (unsigned i = 0; i < smem_json_len(arr); i++) {
        const struct smem_json *x = smem_json_at(arr, i);
        const char *kind = smem_json_str(x, "kind"), *call = smem_json_str(x, "call");
        const char *error = smem_json_str(x, "error"), *site = smem_json_str(x, "site");
        const char *detail = smem_json_str(x, "detail");
        struct smem_finding *f = add(out, cap);
        if (!f)
            return -1;
        f->kind = SMEM_FINDING_SANITIZER;
        kind = kind ? kind : "";
        f->rule = !strcmp(kind, "leak") ? "leak" : !strcmp(kind, "uninitialized") ? "uninitialized"
                                                                                : "api-error";
        copy(f->kernel, sizeof f->kernel, call);
        copy(f->detail, sizeof f->detail, error);
        copy(f->file, sizeof f->file, smem_json_str(x, "file"));
        f->line = small(smem_json_num(x, "line", 0));
        f->count = whole(smem_json_num(x, "count", 1));
        if (!strcmp(f->rule, "leak"))
            snprintf(f->message, sizeof f->message, "leak: %llu bytes at 0x%llx, made by %s at %s "
                     "and not freed", whole(smem_json_num(x, "bytes", 0)),
                     whole(smem_json_num(x, "address", 0)), call ? call : "?", site ? site : "?");
        else if (!strcmp(f->rule, "uninitialized"))
            snprintf(f->message, sizeof f->message, "%s at %s read %llu bytes never written%s%s",
                     call ? call : "?", site ? site : "?", whole(smem_json_num(x, "bytes", 0)),
                     detail ? ": " : "", detail ? detail : "");
        else
            snprintf(f->message, sizeof f->message, "%s returned %s at %s%s%s; %llu time%s",
                     call ? call : "?", error ? error : "?", site ? site : "?", detail ? ": " : "",
                     detail ? detail : "", f->count, f->count == 1 ? "" : "s");
    }
    return 0;
}

int smem_findings_collect(const struct smem_json *doc, struct smem_findings *out,
                          struct smem_error *err)
{
    memset(out, 0, sizeof *out);
    const struct smem_json *kernels = smem_json_get(doc, "kernels");
    if (!kernels || kernels->type != SMEM_JSON_ARRAY)
        return smem_error_set(err, "", 0, 0, "not a smemlab report (no \"kernels\" array: "
                                             "one of analyze --format json or run --format json)");
    const struct smem_json *launches = smem_json_get(doc, "launches");
    out->is_run = launches != NULL;
    unsigned cap = 0;
    for (unsigned k = 0; k < smem_json_len(kernels); k++)
        if (kernel_findings(smem_json_at(kernels, k), out, &cap))
            goto oom;
    if (memory_findings(launches, out, &cap))
        goto oom;
    if (sanitizer_findings(smem_json_get(doc, "sanitizer"), out, &cap))
        goto oom;
    return 0;
oom:
    smem_findings_free(out);
    return smem_error_set(err, "", 0, 0, "out of memory");
}

void smem_findings_free(struct smem_findings *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}
