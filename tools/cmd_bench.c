/* cmd_bench.c: `smemlab bench`: every experiment of the registry on the GPU. Verified against its CPU
 * reference first (fresh inputs, outputs poisoned, every element checked), then timed (CUDA events,
 * median after warm-up) and counted (Nsight Compute on this same program), beside the prediction. */
#include "cli.h"
#include "smemlab/predict.h"
#include "smemlab/experiments.h"
#include "smemlab/gpu.h"
#include "smemlab/ncu.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_CARVEOUTS 5
#define MAX_RACY 8
#define WARMUP 5
#define DEFAULT_REPS 50

/* Shared-memory requests and wavefronts of one launch (the analyzer's and Nsight Compute's). */
struct counts {
    int have;
    unsigned long long ld_requests, ld_wavefronts, st_requests, st_wavefronts;
    /* measured only: l1tex wavefronts and the bank-conflict counters, for the record */
    unsigned long long ld_wf_l1tex, st_wf_l1tex, ld_conflicts, st_conflicts;
    long long atom_requests; /* shared atomics (-1: not counted) */
};

struct carveout_result {
    int percent, verified, blocks_observed, blocks_api;
    double time_ms;
};

struct result {
    const struct smem_experiment *e;
    const char *skip; /* why it was not run (NULL: it ran) */
    int verified;     /* 1 every run matched, 0 a mismatch or a GPU error */
    char error[600];
    int racy[MAX_RACY];
    unsigned nracy;
    double time_ms, time_min_ms, time_max_ms; /* < 0: not timed */
    double bandwidth, ratio;                  /* bytes/s and fraction of peak; 0: not applicable */
    double model_ms; /* SCALE: predicted wavefronts / (SMs x SM clock); 0: no prediction */
    struct counts predicted, measured;
    char predicted_why[160];
    struct carveout_result carve[MAX_CARVEOUTS];
    unsigned ncarve;
    int static_smem, regs;
};

struct options {
    int format;
    unsigned reps;
    int counters, timing, list, child, device;
};

static const char *const ncu_metrics[] = {
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    /* Optional: dropped, and ncu run again without it, if this ncu does not know it. */
    "sm__sass_inst_executed_op_shared_atom.sum",
};
#define NCU_REQUIRED 8 /* the first 8 metrics */
#define NCU_ALL (sizeof ncu_metrics / sizeof ncu_metrics[0])

static const int carveouts[MAX_CARVEOUTS] = {0, 25, 50, 75, 100};

/* ---- The prediction ------------------------------------------------------------------------------
 * The analyzer runs e's kernel from the PTX built beside the fatbins (cli_kernels_dir), on the same
 * launch and integer arguments; its requests and wavefronts are summed over every block, the numbers
 * Nsight Compute counts for the same launch. */
static struct smem_predictor *predictor;

static int bench_predict(const struct smem_experiment *e, struct counts *p, char *why, size_t n)
{
    struct smem_prediction pr;
    struct smem_error err;
    memset(p, 0, sizeof *p);
    memset(&err, 0, sizeof err);
    if (!predictor) {
        snprintf(why, n, "not available: no kernels folder");
        return -1;
    }
    /* At-scale launches repeat one block's work thousands of times: one sampled block is exact
     * and keeps the emulation to a fraction of a second (64 took minutes for the 23 of them). */
    if (smem_predict(predictor, e, e->role == SMEM_EXP_SCALE ? 1 : 64, &pr, &err)) {
        char buf[700];
        snprintf(why, n, "not available: %s", smem_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (!pr.complete) {
        snprintf(why, n, "not available: the addresses depend on data");
        return -1;
    }
    if (pr.ld.unknown_requests || pr.st.unknown_requests) {
        /* requests are known, their cost is not: never print a guessed wavefront count */
        snprintf(why, n, "not available: %llu requests have data-dependent addresses",
                 (unsigned long long)(pr.ld.unknown_requests + pr.st.unknown_requests));
        return -1;
    }
    p->ld_requests = pr.ld.requests;
    p->ld_wavefronts = pr.ld.wavefronts;
    p->st_requests = pr.st.requests;
    p->st_wavefronts = pr.st.wavefronts;
    return 0;
}

/* ---- Finding things ------------------------------------------------------------------------------*/

static int self_path(char *out, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", out, n - 1);
    if (k <= 0)
        return -1;
    out[k] = 0;
    return 0;
}

/* An executable named `name` on PATH (or $SMEMLAB_NCU for ncu). */
static int find_ncu(char *out, size_t n)
{
    const char *env = getenv("SMEMLAB_NCU");
    if (env && *env) {
        snprintf(out, n, "%s", env);
        return access(out, X_OK);
    }
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t len = strcspn(path, ":");
        snprintf(out, n, "%.*s/ncu", (int)len, path);
        if (len && !access(out, X_OK))
            return 0;
        path += len + (path[len] == ':');
    }
    return -1;
}

/* The NVIDIA driver's version string ("580.159.04"), from the kernel module, or "" when unknown. */
static void driver_string(char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    /* "NVRM version: NVIDIA UNIX [Open ]Kernel Module for x86_64  580.159.04  Release Build ...":
     * the first word that starts with digits and a dot. */
    char line[512];
    if (fgets(line, sizeof line, f)) {
        for (const char *p = line; *p; p += strcspn(p, " \t\n")) {
            p += strspn(p, " \t\n");
            size_t k = strcspn(p, " \t\n"), d = strspn(p, "0123456789");
            if (d && d < k && p[d] == '.') {
                snprintf(out, n, "%.*s", (int)k, p);
                break;
            }
        }
    }
    fclose(f);
}

/* ---- Modules -------------------------------------------------------------------------------------*/

struct module_cache {
    const char *file[32];
    smem_gpu_module mod[32];
    unsigned n;
};

static int get_function(struct smem_gpu *g, struct module_cache *mc, const char *dir,
                        const struct smem_experiment *e, smem_gpu_function *fn, char *err, size_t n)
{
    smem_gpu_module mod = NULL;
    for (unsigned i = 0; i < mc->n; i++)
        if (!strcmp(mc->file[i], e->file))
            mod = mc->mod[i];
    if (!mod) {
        char path[4200];
        snprintf(path, sizeof path, "%s/%.*s.fatbin", dir, (int)(strlen(e->file) - 3), e->file);
        if (smem_gpu_module_load(g, path, &mod)) {
            snprintf(err, n, "%s", smem_gpu_error(g));
            return -1;
        }
        if (mc->n < 32) {
            mc->file[mc->n] = e->file;
            mc->mod[mc->n++] = mod;
        }
    }
    if (smem_gpu_function_get(g, mod, e->kernel, fn)) {
        snprintf(err, n, "%s", smem_gpu_error(g));
        return -1;
    }
    return 0;
}

static void unload_all(struct smem_gpu *g, struct module_cache *mc)
{
    for (unsigned i = 0; i < mc->n; i++)
        smem_gpu_module_unload(g, mc->mod[i]);
    mc->n = 0;
}

/* ---- One experiment on the device -----------------------------------------------------------------*/

struct device_args {
    smem_gpu_ptr ptr[SMEM_EXP_MAX_ARGS];
    void *argv[SMEM_EXP_MAX_ARGS];
};

static void free_device_args(struct smem_gpu *g, struct device_args *da)
{
    for (unsigned i = 0; i < SMEM_EXP_MAX_ARGS; i++) {
        smem_gpu_free(g, da->ptr[i]);
        da->ptr[i] = 0;
    }
}

static int alloc_device_args(struct smem_gpu *g, const struct smem_experiment *e,
                             struct device_args *da, struct smem_exp_data *vals)
{
    memset(da, 0, sizeof *da);
    for (unsigned i = 0; i < e->nargs; i++) {
        if (e->args[i].kind == SMEM_ARG_BUFFER) {
            if (smem_gpu_alloc(g, (size_t)smem_exp_arg_bytes(&e->args[i]), &da->ptr[i])) {
                free_device_args(g, da);
                return -1;
            }
            da->argv[i] = &da->ptr[i];
        } else {
            da->argv[i] = &vals->vals[i];
        }
    }
    return 0;
}

/* Fresh inputs, upload (outputs poisoned), one launch, download, verify. 0 verified, 1 wrong result
 * (err says where), -1 GPU error. `in` keeps the inputs, `got` the results. */
static int run_verified(struct smem_gpu *g, smem_gpu_function fn, const struct smem_experiment *e,
                        struct device_args *da, struct smem_exp_data *in, struct smem_exp_data *got,
                        uint64_t *rng, char *err, size_t n)
{
    smem_exp_fill_inputs(e, in, rng);
    smem_exp_data_copy(e, got, in);
    for (unsigned i = 0; i < e->nargs; i++)
        if (e->args[i].kind == SMEM_ARG_BUFFER &&
            smem_gpu_upload(g, da->ptr[i], in->bufs[i], (size_t)smem_exp_arg_bytes(&e->args[i])))
            goto gpu_error;
    if (smem_gpu_launch(g, fn, e->grid, e->block, e->dyn_smem, da->argv) || smem_gpu_sync(g))
        goto gpu_error;
    for (unsigned i = 0; i < e->nargs; i++)
        if (e->args[i].kind == SMEM_ARG_BUFFER && e->args[i].output &&
            smem_gpu_download(g, got->bufs[i], da->ptr[i], (size_t)smem_exp_arg_bytes(&e->args[i])))
            goto gpu_error;
    const char *why = smem_exp_verify(e, in, got, err, n);
    return why ? 1 : 0;
gpu_error:
    snprintf(err, n, "%s", smem_gpu_error(g));
    return -1;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median, min and max of reps launches timed one by one with an event pair, after WARMUP launches. */
static int time_launches(struct smem_gpu *g, smem_gpu_function fn, const struct smem_experiment *e,
                         struct device_args *da, unsigned reps, double *median, double *mn,
                         double *mx, char *err, size_t n)
{
    smem_gpu_event a = NULL, b = NULL;
    double *t = calloc(reps, sizeof *t);
    int rc = -1;
    if (!t || smem_gpu_event_create(g, &a) || smem_gpu_event_create(g, &b))
        goto out;
    for (unsigned i = 0; i < WARMUP; i++)
        if (smem_gpu_launch(g, fn, e->grid, e->block, e->dyn_smem, da->argv))
            goto out;
    if (smem_gpu_sync(g))
        goto out;
    for (unsigned i = 0; i < reps; i++) {
        float ms = 0;
        if (smem_gpu_event_record(g, a) ||
            smem_gpu_launch(g, fn, e->grid, e->block, e->dyn_smem, da->argv) ||
            smem_gpu_event_record(g, b) || smem_gpu_event_elapsed(g, a, b, &ms))
            goto out;
        t[i] = ms;
    }
    qsort(t, reps, sizeof *t, cmp_double);
    *median = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    *mn = t[0];
    *mx = t[reps - 1];
    rc = 0;
out:
    if (rc)
        snprintf(err, n, "%s", t ? smem_gpu_error(g) : "out of memory");
    smem_gpu_event_destroy(g, a);
    smem_gpu_event_destroy(g, b);
    free(t);
    return rc;
}

/* The most blocks any SM held at once during the run (carveout.cu's occ counters). */
static int observed_blocks(const struct smem_experiment *e, const struct smem_exp_data *got)
{
    for (unsigned i = 0; i < e->nargs; i++)
        if (!strcmp(e->args[i].name, "occ")) {
            const int *occ = got->bufs[i];
            int best = 0;
            for (unsigned long long s = 0; s + 1 < e->args[i].count; s += 2)
                if (occ[s + 1] > best)
                    best = occ[s + 1];
            return best;
        }
    return 0;
}

static void run_experiment(struct smem_gpu *g, struct module_cache *mc, const char *dir,
                           const struct options *o, struct result *r, uint64_t *rng)
{
    const struct smem_experiment *e = r->e;
    smem_gpu_function fn;
    struct device_args da;
    struct smem_exp_data in, got;
    r->time_ms = r->time_min_ms = r->time_max_ms = -1;
    if (e->flags & SMEM_EXP_NO_GPU) {
        r->skip = "undefined behaviour (it may hang the GPU): analysed, never launched";
        return;
    }
    if (get_function(g, mc, dir, e, &fn, r->error, sizeof r->error))
        return;
    struct smem_gpu_func_attrs fa;
    if (!smem_gpu_function_attrs(g, fn, &fa)) {
        r->static_smem = fa.static_smem;
        r->regs = fa.num_regs;
    }
    if (smem_exp_data_alloc(e, &in) || smem_exp_data_alloc(e, &got)) {
        snprintf(r->error, sizeof r->error, "out of host memory");
        smem_exp_data_free(e, &in);
        return;
    }
    if (alloc_device_args(g, e, &da, &in)) {
        snprintf(r->error, sizeof r->error, "%s", smem_gpu_error(g));
        goto out;
    }
    /* Integers are passed from `in` (da.argv points there): fresh random ones each run. */
    if (e->flags & SMEM_EXP_CARVEOUT) {
        r->verified = 1;
        for (unsigned c = 0; c < MAX_CARVEOUTS; c++) {
            struct carveout_result *cr = &r->carve[r->ncarve++];
            cr->percent = carveouts[c];
            cr->time_ms = -1;
            if (smem_gpu_set_carveout(g, fn, cr->percent) ||
                smem_gpu_occupancy(g, fn, e->block[0] * e->block[1] * e->block[2], e->dyn_smem,
                                   &cr->blocks_api)) {
                snprintf(r->error, sizeof r->error, "%s", smem_gpu_error(g));
                r->verified = 0;
                break;
            }
            int v = run_verified(g, fn, e, &da, &in, &got, rng, r->error, sizeof r->error);
            cr->verified = v == 0;
            if (v) {
                r->verified = 0;
                break;
            }
            cr->blocks_observed = observed_blocks(e, &got);
            double mn, mx;
            if (o->timing && time_launches(g, fn, e, &da, o->reps, &cr->time_ms, &mn, &mx, r->error,
                                           sizeof r->error)) {
                r->verified = 0;
                break;
            }
        }
        /* The top-level time: the driver's own choice (no preference), as a program gets it. */
        if (r->verified && !smem_gpu_set_carveout(g, fn, -1) && o->timing &&
            time_launches(g, fn, e, &da, o->reps, &r->time_ms, &r->time_min_ms, &r->time_max_ms,
                          r->error, sizeof r->error))
            r->verified = 0;
        goto out;
    }
    unsigned runs = (e->flags & SMEM_EXP_RACY) ? MAX_RACY : 1;
    r->verified = 1;
    for (unsigned k = 0; k < runs; k++) {
        int v = run_verified(g, fn, e, &da, &in, &got, rng, r->error, sizeof r->error);
        if (v) {
            r->verified = 0;
            goto out;
        }
        if (e->flags & SMEM_EXP_RACY)
            r->racy[r->nracy++] = ((const int *)got.bufs[0])[0];
    }
    if (o->timing) {
        if (time_launches(g, fn, e, &da, o->reps, &r->time_ms, &r->time_min_ms, &r->time_max_ms,
                          r->error, sizeof r->error)) {
            r->verified = 0;
            goto out;
        }
        if (e->role == SMEM_EXP_SCALE && r->time_ms > 0) {
            r->bandwidth = (double)e->smem_bytes / (r->time_ms * 1e-3);
            double peak = smem_gpu_peak_smem_bandwidth(smem_gpu_info(g));
            r->ratio = peak > 0 ? r->bandwidth / peak : 0;
        }
    }
out:
    free_device_args(g, &da);
    smem_exp_data_free(e, &in);
    smem_exp_data_free(e, &got);
}

/* ---- Counters through Nsight Compute ---------------------------------------------------------------
 * The hidden child mode (--counters-child NAME...) runs each named experiment once at the documents'
 * configuration, verified, and nothing else; ncu profiles those launches, in order. */

static int counters_child(struct smem_gpu *g, const char *dir, const struct result *rs, size_t n)
{
    struct module_cache mc = {0};
    uint64_t rng = (uint64_t)time(NULL) | 1;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const struct smem_experiment *e = rs[i].e;
        smem_gpu_function fn;
        struct device_args da;
        struct smem_exp_data in, got;
        char err[600];
        if (get_function(g, &mc, dir, e, &fn, err, sizeof err)) {
            fprintf(stderr, "smemlab bench (counters): %s\n", err);
            rc = 1;
            break;
        }
        if (smem_exp_data_alloc(e, &in) || smem_exp_data_alloc(e, &got)) {
            smem_exp_data_free(e, &in);
            rc = 1;
            break;
        }
        if (alloc_device_args(g, e, &da, &in))
            rc = 1;
        else if (run_verified(g, fn, e, &da, &in, &got, &rng, err, sizeof err)) {
            fprintf(stderr, "smemlab bench (counters): %s: %s\n", e->name, err);
            rc = 1;
        }
        free_device_args(g, &da);
        smem_exp_data_free(e, &in);
        smem_exp_data_free(e, &got);
    }
    unload_all(g, &mc);
    return rc ? EXIT_CHECK : EXIT_OK;
}

/* Strips ncu's "Kernel Name" to the bare name ("setRowReadCol(int *)" -> "setRowReadCol"). */
static int kernel_name_matches(const char *ncu_name, const char *kernel)
{
    size_t k = strlen(kernel);
    return !strncmp(ncu_name, kernel, k) && (ncu_name[k] == 0 || ncu_name[k] == '(');
}

static unsigned long long metric(const struct smem_ncu_launch *l, unsigned i)
{
    double v = smem_ncu_metric(l, ncu_metrics[i]);
    return v < 0 ? 0 : (unsigned long long)llround(v);
}

/* Runs `ncu --csv` with the first nmetrics metrics over the child mode for the experiments
 * which[0..nw); returns its stdout (malloc'd, NUL-terminated) and exit status, or NULL. */
static char *run_ncu(const char *ncu, const char *self, const struct options *o,
                     const struct result *rs, const size_t *which, size_t nw, size_t nmetrics,
                     size_t *olen, int *status)
{
    size_t cap = 65536, len = 0;
    char *cmd = malloc(cap);
    if (!cmd)
        return NULL;
    len += (size_t)snprintf(cmd + len, cap - len,
                            "LC_ALL=C '%s' --csv --clock-control none --metrics ", ncu);
    for (size_t m = 0; m < nmetrics; m++)
        len += (size_t)snprintf(cmd + len, cap - len, "%s%s", m ? "," : "", ncu_metrics[m]);
    len += (size_t)snprintf(cmd + len, cap - len, " '%s' bench --counters-child --device %d", self,
                            o->device);
    for (size_t k = 0; k < nw && len + 256 < cap; k++)
        len += (size_t)snprintf(cmd + len, cap - len, " %s", rs[which[k]].e->name);
    FILE *p = popen(cmd, "r");
    free(cmd);
    if (!p)
        return NULL;
    size_t ocap = 1 << 20;
    char *out = malloc(ocap);
    *olen = 0;
    while (out) {
        if (*olen + 65536 > ocap) {
            char *bigger = realloc(out, ocap * 2);
            if (!bigger) {
                free(out);
                out = NULL;
                break;
            }
            out = bigger;
            ocap *= 2;
        }
        size_t k = fread(out + *olen, 1, ocap - *olen - 1, p);
        if (!k)
            break;
        *olen += k;
    }
    int st = pclose(p);
    *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    if (out)
        out[*olen] = 0;
    return out;
}

/* Runs ncu over the child mode for every verified DOC experiment and fills r->measured. Returns 0
 * (why may still hold a remark), or -1 with a sentence in why (no ncu, ncu failed, output
 * unreadable). The optional metrics are dropped if ncu rejects them. */
static int collect_counters(struct result *rs, size_t n, const struct options *o, char *why,
                            size_t wn)
{
    char ncu[4096], self[4096];
    if (find_ncu(ncu, sizeof ncu)) {
        snprintf(why, wn, "no hardware counters: Nsight Compute (ncu) is not on PATH "
                          "(or set SMEMLAB_NCU)");
        return -1;
    }
    if (self_path(self, sizeof self)) {
        snprintf(why, wn, "no hardware counters: cannot find this program's own path");
        return -1;
    }
    size_t *which = calloc(n ? n : 1, sizeof *which), nw = 0;
    struct smem_ncu_launch *ls = calloc(n ? n : 1, sizeof *ls);
    if (!which || !ls) {
        free(which);
        free(ls);
        snprintf(why, wn, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        if (rs[i].e->role == SMEM_EXP_DOC && !rs[i].skip && rs[i].verified)
            which[nw++] = i;
    if (!nw) {
        free(which);
        free(ls);
        return 0;
    }
    size_t nl = 0, nmetrics = NCU_ALL;
    int status = 0, rc = -1;
    for (int attempt = 0; attempt < 2 && rc; attempt++) {
        if (attempt)
            nmetrics = NCU_REQUIRED; /* perhaps this ncu does not know an optional metric */
        fprintf(stderr, "smemlab bench: counting %zu kernels with Nsight Compute (%s, %zu metrics)...\n",
                nw, ncu, nmetrics);
        size_t olen = 0;
        char *out = run_ncu(ncu, self, o, rs, which, nw, nmetrics, &olen, &status);
        if (!out) {
            snprintf(why, wn, "no hardware counters: cannot run ncu (%s)", strerror(errno));
            break;
        }
        char perr[300];
        if (!smem_ncu_parse(out, olen, ls, nw, &nl, perr, sizeof perr)) {
            rc = 0;
        } else {
            /* Say what ncu said: its ==ERROR== lines are the useful part. */
            const char *e = strstr(out, "==ERROR==");
            snprintf(why, wn, "no hardware counters: ncu exited with status %d%s%.*s", status,
                     e ? ": " : "", e ? (int)strcspn(e, "\n") : 0, e ? e : "");
        }
        free(out);
    }
    if (!rc) {
        why[0] = 0;
        if (nmetrics == NCU_REQUIRED)
            snprintf(why, wn, "shared atomics not counted: this ncu rejected %s",
                     ncu_metrics[NCU_ALL - 1]);
        if (nl < nw)
            snprintf(why, wn, "ncu reported %zu of %zu launches (status %d)", nl, nw, status);
        for (size_t k = 0; k < nl && k < nw; k++) {
            struct result *r = &rs[which[k]];
            if (!kernel_name_matches(ls[k].kernel, r->e->kernel)) {
                snprintf(why, wn, "ncu launch %zu is %s, expected %s: counters dropped from there",
                         k, ls[k].kernel, r->e->kernel);
                break;
            }
            struct counts *c = &r->measured;
            c->have = 1;
            c->ld_requests = metric(&ls[k], 0);
            c->st_requests = metric(&ls[k], 1);
            c->ld_wavefronts = metric(&ls[k], 2);
            c->st_wavefronts = metric(&ls[k], 3);
            c->ld_wf_l1tex = metric(&ls[k], 4);
            c->st_wf_l1tex = metric(&ls[k], 5);
            c->ld_conflicts = metric(&ls[k], 6);
            c->st_conflicts = metric(&ls[k], 7);
            double atom = nmetrics > NCU_REQUIRED ? smem_ncu_metric(&ls[k], ncu_metrics[NCU_ALL - 1])
                                                  : -1;
            c->atom_requests = atom < 0 ? -1 : llround(atom);
        }
    }
    free(ls);
    free(which);
    return rc;
}

/* ---- Output -------------------------------------------------------------------------------------*/

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static void json_counts(FILE *f, const struct counts *c, int extra)
{
    if (!c->have) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"ld_requests\":%llu,\"ld_wavefronts\":%llu,\"st_requests\":%llu,\"st_wavefronts\":%llu",
            c->ld_requests, c->ld_wavefronts, c->st_requests, c->st_wavefronts);
    if (extra) {
        fprintf(f, ",\"ld_wavefronts_l1tex\":%llu,\"st_wavefronts_l1tex\":%llu,"
                   "\"ld_bank_conflicts\":%llu,\"st_bank_conflicts\":%llu",
                c->ld_wf_l1tex, c->st_wf_l1tex, c->ld_conflicts, c->st_conflicts);
        if (c->atom_requests >= 0)
            fprintf(f, ",\"atom_requests\":%lld", c->atom_requests);
    }
    fputc('}', f);
}

static int counts_match(const struct counts *p, const struct counts *m)
{
    return p->ld_requests == m->ld_requests && p->ld_wavefronts == m->ld_wavefronts &&
           p->st_requests == m->st_requests && p->st_wavefronts == m->st_wavefronts;
}

static void json_number(FILE *f, double v, int valid)
{
    if (valid && isfinite(v))
        fprintf(f, "%.6g", v);
    else
        fputs("null", f);
}

static void print_json(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                       const struct result *rs, size_t n, const char *counters_note)
{
    fputs("{\"device\":{\"name\":", f);
    json_string(f, gi->name);
    fputs(",\"driver\":", f);
    json_string(f, driver);
    fprintf(f, ",\"cuda\":\"%d.%d\",\"sm_clock_mhz\":%d,\"sms\":%d,\"cc\":\"%d.%d\","
               "\"smem_per_sm\":%d,\"smem_per_block_optin\":%d,\"bank_bytes\":%d,"
               "\"peak_smem_bandwidth_tbps\":%.4f},\n",
            gi->driver_version / 1000, gi->driver_version % 1000 / 10, gi->sm_clock_khz / 1000,
            gi->sms, gi->cc_major, gi->cc_minor, gi->smem_per_sm, gi->smem_per_block_optin,
            gi->bank_bytes, smem_gpu_peak_smem_bandwidth(gi) / 1e12);
    fputs("\"counters\":", f);
    if (counters_note && *counters_note)
        json_string(f, counters_note);
    else
        fputs("null", f);
    fputs(",\n\"experiments\":[\n", f);
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        const struct smem_experiment *e = r->e;
        fputs("{\"name\":", f);
        json_string(f, e->name);
        fprintf(f, ",\"row\":%u,\"role\":\"%s\",\"verified\":%s", e->row,
                e->role == SMEM_EXP_DOC ? "documents" : "scale",
                r->skip ? "null" : r->verified ? "true" : "false");
        if (r->skip) {
            fputs(",\"skipped\":", f);
            json_string(f, r->skip);
        }
        if (!r->skip && !r->verified) {
            fputs(",\"error\":", f);
            json_string(f, r->error);
        }
        fputs(",\"predicted\":", f);
        json_counts(f, &r->predicted, 0);
        fputs(",\"measured\":", f);
        json_counts(f, &r->measured, 0);
        if (r->measured.have) {
            fputs(",\"measured_extra\":", f);
            json_counts(f, &r->measured, 1);
        }
        fputs(",\"match\":", f);
        if (r->predicted.have && r->measured.have)
            fputs(counts_match(&r->predicted, &r->measured) ? "true" : "false", f);
        else
            fputs("null", f);
        fputs(",\"time_ms\":", f);
        json_number(f, r->time_ms, r->time_ms >= 0);
        fputs(",\"smem_bandwidth_ratio\":", f);
        json_number(f, r->ratio, r->bandwidth > 0);
        fputs(",\"smem_bandwidth_tbps\":", f);
        json_number(f, r->bandwidth / 1e12, r->bandwidth > 0);
        if (r->model_ms > 0) {
            fputs(",\"model_time_ms\":", f);
            json_number(f, r->model_ms, 1);
            fputs(",\"model_time_ratio\":", f);
            json_number(f, r->model_ms / r->time_ms, r->time_ms > 0);
        }
        if (e->ways)
            fprintf(f, ",\"ways\":%u", e->ways);
        if (e->scale) {
            fputs(",\"scale\":", f);
            json_string(f, e->scale);
        }
        fprintf(f, ",\"launch\":{\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"dynamic_smem\":%u,"
                   "\"static_smem\":%d,\"registers\":%d}",
                e->grid[0], e->grid[1], e->grid[2], e->block[0], e->block[1], e->block[2],
                e->dyn_smem, r->static_smem, r->regs);
        if (r->nracy) {
            fputs(",\"results_seen\":[", f);
            for (unsigned k = 0; k < r->nracy; k++)
                fprintf(f, "%s%d", k ? "," : "", r->racy[k]);
            fputc(']', f);
        }
        if (r->ncarve) {
            fputs(",\"carveout\":[", f);
            for (unsigned k = 0; k < r->ncarve; k++) {
                const struct carveout_result *c = &r->carve[k];
                fprintf(f, "%s{\"percent\":%d,\"verified\":%s,\"blocks_per_sm_observed\":%d,"
                           "\"blocks_per_sm_occupancy_api\":%d,\"time_ms\":",
                        k ? "," : "", c->percent, c->verified ? "true" : "false",
                        c->blocks_observed, c->blocks_api);
                json_number(f, c->time_ms, c->time_ms >= 0);
                fputc('}', f);
            }
            fputc(']', f);
        }
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fputs("]}\n", f);
}

static void csv_counts(FILE *f, const struct counts *c)
{
    if (c->have)
        fprintf(f, ",%llu,%llu,%llu,%llu", c->ld_requests, c->ld_wavefronts, c->st_requests,
                c->st_wavefronts);
    else
        fputs(",,,,", f);
}

static void print_csv(FILE *f, const struct result *rs, size_t n)
{
    fputs("name,row,role,verified,pred_ld_requests,pred_ld_wavefronts,pred_st_requests,"
          "pred_st_wavefronts,ld_requests,ld_wavefronts,st_requests,st_wavefronts,match,time_ms,"
          "smem_bandwidth_tbps,smem_bandwidth_ratio\n",
          f);
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        fprintf(f, "%s,%u,%s,%s", r->e->name, r->e->row,
                r->e->role == SMEM_EXP_DOC ? "documents" : "scale",
                r->skip ? "skipped" : r->verified ? "yes" : "NO");
        csv_counts(f, &r->predicted);
        csv_counts(f, &r->measured);
        fprintf(f, ",%s", r->predicted.have && r->measured.have
                              ? (counts_match(&r->predicted, &r->measured) ? "yes" : "NO")
                              : "");
        if (r->time_ms >= 0)
            fprintf(f, ",%.6f", r->time_ms);
        else
            fputs(",", f);
        if (r->bandwidth > 0)
            fprintf(f, ",%.4f,%.4f\n", r->bandwidth / 1e12, r->ratio);
        else
            fputs(",,\n", f);
    }
}

static void cell_counts(char *buf, size_t n, const struct counts *c, int ld)
{
    if (!c->have)
        snprintf(buf, n, "-");
    else
        snprintf(buf, n, "%llu/%llu", ld ? c->ld_requests : c->st_requests,
                 ld ? c->ld_wavefronts : c->st_wavefronts);
}

static void print_table(FILE *f, const struct smem_gpu_info *gi, const char *driver,
                        const struct result *rs, size_t n, const char *counters_note)
{
    fprintf(f, "%s (CC %d.%d, %d SMs, SM clock %d MHz), driver %s, CUDA %d.%d\n", gi->name,
            gi->cc_major, gi->cc_minor, gi->sms, gi->sm_clock_khz / 1000, *driver ? driver : "?",
            gi->driver_version / 1000, gi->driver_version % 1000 / 10);
    fprintf(f, "peak shared-memory bandwidth: %d SMs x 128 B/clock x %d MHz = %.1f TB/s\n", gi->sms,
            gi->sm_clock_khz / 1000, smem_gpu_peak_smem_bandwidth(gi) / 1e12);
    if (counters_note && *counters_note)
        fprintf(f, "counters: %s\n", counters_note);
    fputs("\nLD/ST = requests/wavefronts (predicted by the analyzer, measured by Nsight Compute)\n", f);
    fputs("time: median of the timed launches; model: the predicted wavefronts at one per SM per "
          "clock (at-scale runs)\n", f);
    fprintf(f, "%-44s %3s %-8s %-15s %-15s %-15s %-15s %-5s %11s %8s %6s %11s\n", "experiment",
            "row", "verified", "LD predicted", "LD measured", "ST predicted", "ST measured", "match",
            "time (us)", "TB/s", "peak", "model (us)");
    for (size_t i = 0; i < n; i++) {
        const struct result *r = &rs[i];
        char lp[40], lm[40], sp[40], sm[40], t[32], bw[32], pk[32];
        cell_counts(lp, sizeof lp, &r->predicted, 1);
        cell_counts(lm, sizeof lm, &r->measured, 1);
        cell_counts(sp, sizeof sp, &r->predicted, 0);
        cell_counts(sm, sizeof sm, &r->measured, 0);
        snprintf(t, sizeof t, r->time_ms >= 0 ? "%.2f" : "-", r->time_ms * 1e3);
        snprintf(bw, sizeof bw, r->bandwidth > 0 ? "%.2f" : "", r->bandwidth / 1e12);
        snprintf(pk, sizeof pk, r->bandwidth > 0 ? "%.3f" : "", r->ratio);
        char mo[32];
        snprintf(mo, sizeof mo, r->model_ms > 0 ? "%.2f" : "", r->model_ms * 1e3);
        fprintf(f, "%-44s %3u %-8s %-15s %-15s %-15s %-15s %-5s %11s %8s %6s %11s\n", r->e->name,
                r->e->row, r->skip ? "skipped" : r->verified ? "yes" : "NO", lp, lm, sp, sm,
                r->predicted.have && r->measured.have
                    ? (counts_match(&r->predicted, &r->measured) ? "yes" : "NO")
                    : "-",
                t, bw, pk, mo);
        for (unsigned k = 0; k < r->ncarve; k++) {
            const struct carveout_result *c = &r->carve[k];
            fprintf(f, "    carveout %3d%%: %d blocks/SM observed (occupancy API %d), %.2f us%s\n",
                    c->percent, c->blocks_observed, c->blocks_api, c->time_ms * 1e3,
                    c->verified ? "" : ", NOT verified");
        }
        if (r->nracy) {
            fputs("    results seen:", f);
            for (unsigned k = 0; k < r->nracy; k++)
                fprintf(f, " %d", r->racy[k]);
            fputc('\n', f);
        }
        if (r->skip)
            fprintf(f, "    %s\n", r->skip);
        else if (!r->verified)
            fprintf(f, "    %s\n", r->error);
    }
}

/* ---- Command line -------------------------------------------------------------------------------*/

static void usage(FILE *f)
{
    fputs("usage: smemlab bench [EXPERIMENT...] [--format table|json|csv] [--reps N]\n"
          "                     [--no-counters] [--no-time] [--device N] [--list]\n"
          "       smemlab bench transpose|reduce [options]   (speed-of-light benchmarks)\n\n"
          "Runs the experiments on the GPU: each is verified against its CPU reference (fresh\n"
          "random inputs, outputs poisoned, every element checked), then timed (median of N\n"
          "CUDA-event-timed launches after warm-up; at-scale versions give shared-memory\n"
          "bandwidth and its fraction of the device's peak) and counted (shared ld/st requests\n"
          "and wavefronts from Nsight Compute, beside the analyzer's prediction).\n\n"
          "EXPERIMENT: a name (square/setRowReadCol), a kernel file (square), or a kernel name\n"
          "(setRowReadCol: every file's); none = all.\n"
          "  --reps N        timed launches per experiment (default 50)\n"
          "  --no-counters   skip the Nsight Compute pass\n"
          "  --no-time       verify (and count) only\n"
          "  --device N      CUDA device ordinal (default 0)\n"
          "  --list          list the experiments and exit (no GPU needed)\n"
          "Environment: SMEMLAB_KERNELS (built kernels), SMEMLAB_NCU (ncu executable).\n"
          "Exit: 0 all verified, 1 a result was wrong, 2 usage, 4 no usable GPU or kernels.\n",
          f);
}

/* Adds every experiment `sel` names to chosen[]; returns how many it matched. */
static size_t select_experiments(const char *sel, unsigned char *chosen)
{
    size_t hits = 0, sl = strlen(sel);
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        size_t stem = strlen(e->file) - 3;
        int match = !strcmp(e->name, sel) || !strcmp(e->kernel, sel) ||
                    ((sl == stem || (sl == stem + 1 && sel[stem] == '/')) &&
                     !strncmp(e->file, sel, stem));
        if (match) {
            chosen[i] = 1;
            hits++;
        }
    }
    return hits;
}

static void list_experiments(FILE *f, const unsigned char *chosen)
{
    fprintf(f, "%-44s %3s %-9s %-26s %s\n", "experiment", "row", "role", "H100 counterpart",
            "shows");
    for (size_t i = 0; i < smem_experiment_count(); i++) {
        const struct smem_experiment *e = smem_experiment_at(i);
        if (!chosen[i])
            continue;
        char hw[80] = "-";
        if (e->hw_section)
            snprintf(hw, sizeof hw, "%s/%s", e->hw_section, e->hw_kernel);
        fprintf(f, "%-44s %3u %-9s %-26s %s%s\n", e->name, e->row,
                e->role == SMEM_EXP_DOC ? "documents" : "scale", hw, e->shows ? e->shows : "",
                (e->flags & SMEM_EXP_NO_GPU) ? " [not launched]" : "");
    }
}

int cmd_bench(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "transpose"))
        return bench_transpose(argc - 1, argv + 1);
    if (argc >= 2 && !strcmp(argv[1], "reduce"))
        return bench_reduce(argc - 1, argv + 1);

    struct options o = {.format = FMT_TABLE, .reps = DEFAULT_REPS, .counters = 1, .timing = 1};
    size_t count = smem_experiment_count();
    unsigned char *chosen = calloc(count, 1);
    if (!chosen)
        return EXIT_USAGE;
    int any = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        unsigned long long v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            free(chosen);
            return EXIT_OK;
        } else if (!strcmp(a, "--format")) {
            if (i + 1 >= argc || (o.format = cli_parse_format(argv[++i])) < 0) {
                free(chosen);
                return cli_usage_error("bench", "--format takes table, json or csv");
            }
        } else if (!strcmp(a, "--reps")) {
            if (i + 1 >= argc || cli_parse_uint(argv[++i], 100000, &v) || v == 0) {
                free(chosen);
                return cli_usage_error("bench", "--reps takes a count from 1 to 100000");
            }
            o.reps = (unsigned)v;
        } else if (!strcmp(a, "--device")) {
            if (i + 1 >= argc || cli_parse_uint(argv[++i], 1024, &v)) {
                free(chosen);
                return cli_usage_error("bench", "--device takes a device ordinal");
            }
            o.device = (int)v;
        } else if (!strcmp(a, "--no-counters")) {
            o.counters = 0;
        } else if (!strcmp(a, "--no-time")) {
            o.timing = 0;
        } else if (!strcmp(a, "--list")) {
            o.list = 1;
        } else if (!strcmp(a, "--counters-child")) {
            o.child = 1; /* internal: the launches Nsight Compute counts */
        } else if (a[0] == '-') {
            free(chosen);
            return cli_usage_error("bench", "unknown option '%s'", a);
        } else {
            if (!select_experiments(a, chosen)) {
                free(chosen);
                return cli_usage_error("bench", "no experiment named '%s' (smemlab bench --list)", a);
            }
            any = 1;
        }
    }
    if (!any)
        memset(chosen, 1, count);
    if (o.list) {
        list_experiments(stdout, chosen);
        free(chosen);
        return EXIT_OK;
    }

    char dir[4096];
    if (cli_kernels_dir(dir, sizeof dir)) {
        fprintf(stderr, "smemlab bench: the GPU kernels are missing: build them with nvcc present "
                        "(make), or point SMEMLAB_KERNELS at a kernels folder\n");
        free(chosen);
        return EXIT_NO_GPU;
    }
    char err[600];
    struct smem_gpu *g = NULL;
    if (smem_gpu_open(o.device, &g, err, sizeof err)) {
        fprintf(stderr, "smemlab bench: %s\n", err);
        free(chosen);
        return EXIT_NO_GPU;
    }
    const struct smem_gpu_info *gi = smem_gpu_info(g);
    predictor = smem_predictor_new(dir);

    size_t n = 0;
    struct result *rs = calloc(count, sizeof *rs);
    if (!rs) {
        smem_gpu_close(g);
        free(chosen);
        return EXIT_NO_GPU;
    }
    for (size_t i = 0; i < count; i++)
        if (chosen[i])
            rs[n++].e = smem_experiment_at(i);
    free(chosen);

    if (o.child) {
        int rc = counters_child(g, dir, rs, n);
        free(rs);
        smem_gpu_close(g);
        return rc;
    }

    fprintf(stderr, "smemlab bench: %s, %zu experiments, %u timed launches each\n", gi->name, n,
            o.reps);
    struct module_cache mc = {0};
    uint64_t rng = (uint64_t)time(NULL) * 0x9E3779B97F4A7C15ull | 1;
    int failed = 0;
    for (size_t i = 0; i < n; i++) {
        struct result *r = &rs[i];
        run_experiment(g, &mc, dir, &o, r, &rng);
        if (!r->skip && !r->verified)
            failed++;
        r->predicted.have = !bench_predict(r->e, &r->predicted, r->predicted_why,
                                           sizeof r->predicted_why);
        /* The bank model's time: every SM's shared-memory pipe passing one wavefront a clock and
         * nothing else in the way. Only meaningful where the launch fills the GPU and its addresses
         * are known (not the carveout's data-dependent chase, which is latency-bound anyway). */
        if (r->e->role == SMEM_EXP_SCALE && !(r->e->flags & SMEM_EXP_CARVEOUT) &&
            r->predicted.have && gi->sms > 0 && gi->sm_clock_khz > 0)
            r->model_ms = (double)(r->predicted.ld_wavefronts + r->predicted.st_wavefronts) /
                          ((double)gi->sms * gi->sm_clock_khz);
        fprintf(stderr, "[%zu/%zu] %-44s %s", i + 1, n, r->e->name,
                r->skip ? "skipped" : r->verified ? "verified" : "FAILED");
        if (r->time_ms >= 0)
            fprintf(stderr, ", %.2f us", r->time_ms * 1e3);
        if (r->bandwidth > 0)
            fprintf(stderr, ", %.2f TB/s (%.3f of peak)", r->bandwidth / 1e12, r->ratio);
        if (r->model_ms > 0)
            fprintf(stderr, ", model %.2f us", r->model_ms * 1e3);
        if (!r->skip && !r->verified)
            fprintf(stderr, ": %s", r->error);
        fputc('\n', stderr);
    }
    unload_all(g, &mc);

    char note[700] = "";
    if (o.counters) {
        if (collect_counters(rs, n, &o, note, sizeof note))
            fprintf(stderr, "smemlab bench: %s\n", note);
        else if (*note)
            fprintf(stderr, "smemlab bench: %s\n", note);
    } else {
        snprintf(note, sizeof note, "not collected (--no-counters)");
    }

    char driver[64];
    driver_string(driver, sizeof driver);
    if (o.format == FMT_JSON)
        print_json(stdout, gi, driver, rs, n, note);
    else if (o.format == FMT_CSV)
        print_csv(stdout, rs, n);
    else
        print_table(stdout, gi, driver, rs, n, note);
    free(rs);
    smem_gpu_close(g);
    smem_predictor_free(predictor);
    predictor = NULL;
    if (failed)
        fprintf(stderr, "smemlab bench: %d experiment%s FAILED verification\n", failed,
                failed == 1 ? "" : "s");
    return failed ? EXIT_CHECK : EXIT_OK;
}
