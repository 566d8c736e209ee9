/* predict.c: the registry's experiments through the analyzer. PTX text is read once per file. */
#include "smemlab/lab/predict.h"
#include "smemlab/base/text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ptx_file {
    char *stem;
    char *text;
    size_t len;
    struct smem_ptx_module *module; /* parsed once */
};

struct smem_predictor {
    char *dir;
    struct ptx_file *files;
    unsigned nfiles;
};

struct smem_predictor *smem_predictor_new(const char *ptx_dir)
{
    struct smem_predictor *p = calloc(1, sizeof *p);
    if (p && !(p->dir = strdup(ptx_dir))) {
        free(p);
        p = NULL;
    }
    return p;
}

void smem_predictor_free(struct smem_predictor *p)
{
    if (!p)
        return;
    for (unsigned i = 0; i < p->nfiles; i++) {
        free(p->files[i].stem);
        free(p->files[i].text);
        smem_ptx_free(p->files[i].module);
    }
    free(p->files);
    free(p->dir);
    free(p);
}

static const struct ptx_file *load(struct smem_predictor *p, const char *cu, struct smem_error *err)
{
    char stem[256];
    snprintf(stem, sizeof stem, "%s", cu);
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = 0;
    for (unsigned i = 0; i < p->nfiles; i++)
        if (!strcmp(p->files[i].stem, stem))
            return &p->files[i];
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.ptx", p->dir, stem);
    size_t got = 0;
    char *text = smem_read_file(path, &got);
    if (!text) {
        smem_error_set(err, path, 0, 0, "no PTX for kernels/%s (build the kernels with make; "
                                        "nvcc is needed)", cu);
        return NULL;
    }
    struct ptx_file *nf = realloc(p->files, (p->nfiles + 1) * sizeof *nf);
    if (!nf) {
        free(text);
        smem_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    p->files = nf;
    nf[p->nfiles].stem = strdup(stem);
    nf[p->nfiles].text = text;
    nf[p->nfiles].len = got;
    nf[p->nfiles].module = NULL;
    if (smem_ptx_parse(text, got, path, &nf[p->nfiles].module, err)) {
        free(nf[p->nfiles].stem);
        free(text);
        return NULL;
    }
    return &p->files[p->nfiles++];
}

static void scale_totals(struct smem_totals *t, uint64_t s)
{
    t->requests *= s;
    t->wavefronts *= s;
    t->ideal *= s;
    t->unknown_requests *= s;
}

int smem_predict(struct smem_predictor *p, const struct smem_experiment *e, unsigned max_blocks,
                 struct smem_prediction *out, struct smem_error *err)
{
    memset(out, 0, sizeof *out);
    const struct ptx_file *pf = load(p, e->file, err);
    if (!pf)
        return -1;
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = e->kernel;
    memcpy(o.block, e->block, sizeof o.block);
    memcpy(o.grid, e->grid, sizeof o.grid);
    o.dyn_smem = e->dyn_smem;
    o.hazards = 1;
    uint64_t blocks = (uint64_t)e->grid[0] * e->grid[1] * e->grid[2];
    if (max_blocks && blocks > max_blocks)
        o.sample_blocks = max_blocks;
    struct smem_param_arg args[SMEM_EXP_MAX_ARGS];
    char names[SMEM_EXP_MAX_ARGS][8], values[SMEM_EXP_MAX_ARGS][24];
    for (unsigned i = 0; i < e->nargs && i < SMEM_EXP_MAX_ARGS; i++) {
        if (e->args[i].kind != SMEM_ARG_INT)
            continue;
        snprintf(names[i], sizeof names[i], "%u", i);
        snprintf(values[i], sizeof values[i], "%d", e->args[i].value);
        args[o.nparams].name = names[i];
        args[o.nparams].value = values[i];
        o.nparams++;
    }
    o.params = args;
    char ptxname[300];
    snprintf(ptxname, sizeof ptxname, "%s/%s.ptx", p->dir, pf->stem);
    struct smem_analysis *a = NULL;
    if (smem_analyze_module(pf->module, ptxname, NULL, &o, &a, err))
        return -1;
    if (a->nkernels != 1) {
        smem_analysis_free(a);
        return smem_error_set(err, ptxname, 0, 0, "kernel %s: %u matches", e->kernel, a->nkernels);
    }
    const struct smem_kernel_report *k = &a->kernels[0];
    uint64_t scale = k->blocks_run && k->blocks_run < blocks ? blocks / k->blocks_run : 1;
    out->ld = k->ld;
    out->st = k->st;
    out->atom = k->atom;
    scale_totals(&out->ld, scale);
    scale_totals(&out->st, scale);
    scale_totals(&out->atom, scale);
    out->complete = k->complete;
    out->hazards = k->nhazards;
    for (uint32_t h = 0; h < k->nhazards; h++) {
        const char *kn = smem_hazard_kind_name(k->hazards[h].kind);
        if (!strstr(out->hazard_kinds, kn)) {
            size_t l = strlen(out->hazard_kinds);
            snprintf(out->hazard_kinds + l, sizeof out->hazard_kinds - l, "%s%s", l ? "," : "", kn);
        }
    }
    out->seconds = k->seconds;
    out->steps = k->steps;
    out->static_smem = k->static_smem;
    out->blocks_run = k->blocks_run;
    out->blocks_total = k->blocks_total;
    smem_analysis_free(a);
    return 0;
}
