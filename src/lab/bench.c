/* bench.c: one experiment of the registry on the device (bench.h): fresh inputs, outputs
 * poisoned, one launch, every element verified against the CPU reference; then timed (the GPU
 * harness: CUDA events, median after warm-up) and, for the carveout experiment, swept over the
 * L1/shared splits. */
#include "smemlab/lab/bench.h"
#include "smemlab/gpu/harness.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int carveouts[SMEM_BENCH_CARVEOUTS] = {0, 25, 50, 75, 100};

/* ---- Modules -------------------------------------------------------------------------------------*/

static int get_function(struct smem_gpu *g, struct smem_bench_modules *mc, const char *dir,
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
        if (mc->n < sizeof mc->mod / sizeof mc->mod[0]) {
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

void smem_bench_modules_unload(struct smem_gpu *g, struct smem_bench_modules *mc)
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

/* time_launches' run: one launch of the experiment */
struct launch_args {
    struct smem_gpu *g;
    smem_gpu_function fn;
    const struct smem_experiment *e;
    struct device_args *da;
};

static int launch_once(void *p, int i)
{
    const struct launch_args *la = p;
    (void)i;
    return smem_gpu_launch(la->g, la->fn, la->e->grid, la->e->block, la->e->dyn_smem, la->da->argv);
}

/* Median, min and max of reps launches timed one by one with an event pair, after
 * SMEM_BENCH_WARMUP launches (harness.h). */
static int time_launches(struct smem_gpu *g, smem_gpu_function fn, const struct smem_experiment *e,
                         struct device_args *da, unsigned reps, double *median, double *mn,
                         double *mx, char *err, size_t n)
{
    smem_gpu_event a = NULL, b = NULL;
    struct launch_args la = {g, fn, e, da};
    struct smem_gpu_times t;
    int st = SMEM_GPU_TIME_EVENT;
    if (!smem_gpu_event_create(g, &a) && !smem_gpu_event_create(g, &b))
        st = smem_gpu_time_runs(g, a, b, SMEM_BENCH_WARMUP, (int)reps, launch_once, &la, &t);
    if (st) {
        snprintf(err, n, "%s", st == SMEM_GPU_TIME_NOMEM ? "out of memory" : smem_gpu_error(g));
    } else {
        *median = t.median_ms;
        *mn = t.min_ms;
        *mx = t.max_ms;
    }
    smem_gpu_event_destroy(g, a);
    smem_gpu_event_destroy(g, b);
    return st ? -1 : 0;
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

void smem_bench_run_experiment(struct smem_gpu *g, struct smem_bench_modules *mc, const char *dir,
                               const struct smem_experiment *e, unsigned reps,
                               struct smem_bench_run *r, uint64_t *rng)
{
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
        for (unsigned c = 0; c < SMEM_BENCH_CARVEOUTS; c++) {
            struct smem_bench_carveout *cr = &r->carve[r->ncarve++];
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
            if (reps && time_launches(g, fn, e, &da, reps, &cr->time_ms, &mn, &mx, r->error,
                                      sizeof r->error)) {
                r->verified = 0;
                break;
            }
        }
        /* The top-level time: the driver's own choice (no preference), as a program gets it. */
        if (r->verified && !smem_gpu_set_carveout(g, fn, -1) && reps &&
            time_launches(g, fn, e, &da, reps, &r->time_ms, &r->time_min_ms, &r->time_max_ms,
                          r->error, sizeof r->error))
            r->verified = 0;
        goto out;
    }
    unsigned runs = (e->flags & SMEM_EXP_RACY) ? SMEM_BENCH_MAX_RACY : 1;
    r->verified = 1;
    for (unsigned k = 0; k < runs; k++) {
        int v = run_verified(g, fn, e, &da, &in, &got, rng, r->error, sizeof r->error);
        if (v) {
            r->verified = 0;
            goto out;
        }
        assert(r->nracy < SMEM_BENCH_MAX_RACY);
        if (e->flags & SMEM_EXP_RACY)
            r->racy[r->nracy++] = ((const int *)got.bufs[0])[0];
    }
    if (reps) {
        if (time_launches(g, fn, e, &da, reps, &r->time_ms, &r->time_min_ms, &r->time_max_ms,
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

/* ---- Once, for Nsight Compute ----------------------------------------------------------------------
 * `smemlab bench`'s hidden child mode runs each named experiment once this way at the documents'
 * configuration, and nothing else; ncu profiles those launches, in order. */

int smem_bench_verify_once(struct smem_gpu *g, struct smem_bench_modules *mc, const char *dir,
                           const struct smem_experiment *e, uint64_t *rng, char *err, size_t n)
{
    smem_gpu_function fn;
    struct device_args da;
    struct smem_exp_data in, got;
    char why[600];
    err[0] = 0;
    if (get_function(g, mc, dir, e, &fn, err, n))
        return -1;
    if (smem_exp_data_alloc(e, &in) || smem_exp_data_alloc(e, &got)) {
        smem_exp_data_free(e, &in);
        return -1;
    }
    int rc = 0;
    if (alloc_device_args(g, e, &da, &in)) {
        rc = -1;
    } else if (run_verified(g, fn, e, &da, &in, &got, rng, why, sizeof why)) {
        snprintf(err, n, "%s: %s", e->name, why);
        rc = -1;
    }
    free_device_args(g, &da);
    smem_exp_data_free(e, &in);
    smem_exp_data_free(e, &got);
    return rc;
}
