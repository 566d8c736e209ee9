/* bench_device.c: one experiment of the registry on the device: fresh inputs, outputs poisoned,
 * one launch, every element verified against the CPU reference; then timed (CUDA events, median
 * after warm-up) and, for the carveout experiment, swept over the L1/shared splits. */
#include "bench.h"
#include "cli.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int carveouts[MAX_CARVEOUTS] = {0, 25, 50, 75, 100};
/* The NVIDIA driver's version string ("580.159.04"), from the kernel module, or "" when unknown. */
void bench_driver_string(char *out, size_t n)
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

void bench_unload_all(struct smem_gpu *g, struct module_cache *mc)
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

void bench_run_experiment(struct smem_gpu *g, struct module_cache *mc, const char *dir,
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

int bench_counters_child(struct smem_gpu *g, const char *dir, const struct result *rs, size_t n)
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
    bench_unload_all(g, &mc);
    return rc ? EXIT_CHECK : EXIT_OK;
}


