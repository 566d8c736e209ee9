/* bench_counters.c: Nsight Compute (ncu) counts the experiments' launches: it runs this program's
 * hidden child mode (bench --counters-child) and the CSV it prints is read back into r->measured. */
#include "bench.h"
#include "cli.h"
#include "smemlab/gpu/ncu.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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


/* ---- Finding things ------------------------------------------------------------------------------*/

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
int bench_collect_counters(struct result *rs, size_t n, const struct options *o, char *why,
                            size_t wn)
{
    char ncu[4096], self[4096];
    if (find_ncu(ncu, sizeof ncu)) {
        snprintf(why, wn, "no hardware counters: Nsight Compute (ncu) is not on PATH "
                          "(or set SMEMLAB_NCU)");
        return -1;
    }
    if (cli_exe_path(self, sizeof self)) {
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
        if (rs[i].e->role == SMEM_EXP_DOC && !rs[i].run.skip && rs[i].run.verified)
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
