/* analyze.c: from a .cu or .ptx to per-site shared-memory costs. Compiles with the toolkit's nvcc
 * (a subprocess, so host code, templates and headers compile as in the user's own build), runs the
 * emulator per kernel and prices every request with the bank model.
 * Compiling (nvcc as a subprocess), naming parameters and running the emulator are the three
 * steps of one analysis, each a section below. */
#include "smemlab/base/signature.h"
#include "smemlab/base/text.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/analysis/census.h"
#include "smemlab/analysis/parallel.h"
#include "smemlab/analysis/uniform.h"
#include "smemlab/analysis/launch.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

void smem_analyze_defaults(struct smem_analyze_options *o)
{
    memset(o, 0, sizeof *o);
    o->block[0] = o->block[1] = o->block[2] = 0; /* 0: from the kernel, else 256 */
    o->grid[0] = o->grid[1] = o->grid[2] = 1;
    o->banks = smem_banks_default();
    o->arch = "sm_90";
}

/* ---- one block for all ---- */

static void scale_totals(struct smem_totals *t, uint64_t n)
{
    t->requests *= n;
    t->wavefronts *= n;
    t->ideal *= n;
    t->unknown_requests *= n;
    t->pipe_delta *= (int64_t)n;
}

/* k, the report of one block that the proof says stands for every one of n */
static void stand_for_all(struct smem_kernel_report *k, uint64_t n, const char *why)
{
    scale_totals(&k->ld, n);
    scale_totals(&k->st, n);
    scale_totals(&k->atom, n);
    scale_totals(&k->ldsm, n);
    scale_totals(&k->stsm, n);
    scale_totals(&k->ldgsts, n);
    scale_totals(&k->gmma, n);
    scale_totals(&k->ptx_ld, n);
    scale_totals(&k->ptx_st, n);
    for (int op = 0; op < SMEM_DSH_NOPS; op++) {
        k->dshared.requests[op] *= n;
        k->dshared.bytes[op] *= n;
    }
    for (uint32_t i = 0; i < k->ndshared_lines; i++) {
        k->dshared_lines[i].requests *= n;
        k->dshared_lines[i].bytes *= n;
    }
    for (uint32_t i = 0; i < k->nsites; i++) {
        scale_totals(&k->sites[i].t, n);
        scale_totals(&k->sites[i].ptx, n);
    }
    for (uint32_t i = 0; i < k->nhazards; i++)
        k->hazards[i].count *= n;
    k->steps *= n;
    k->blocks_run = n;
    snprintf(k->extrapolation, sizeof k->extrapolation, "%s", why);
}

/* ---- subprocesses ------------------------------------------------------------------------- */

static char *slurp_fd(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    if (!buf)
        return NULL;
    for (;;) {
        if (n == cap) {
            char *nb = realloc(buf, cap * 2 + 1);
            if (!nb) {
                free(buf);
                return NULL;
            }
            buf = nb;
            cap *= 2;
        }
        ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        n += (size_t)r;
    }
    buf[n] = 0;
    if (len)
        *len = n;
    return buf;
}

/* Runs argv (PATH searched), stdout and stderr captured. Returns the exit status, -1 if it could
 * not start. */
static int run_capture(char *const argv[], char **out, char **errs)
{
    char outp[] = "/tmp/smemlab-outXXXXXX", errp[] = "/tmp/smemlab-errXXXXXX";
    int fo = mkstemp(outp), fe = mkstemp(errp);
    int status = -1;
    *out = *errs = NULL;
    if (fo < 0 || fe < 0)
        goto done;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, fo, 1);
    posix_spawn_file_actions_adddup2(&fa, fe, 2);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc == 0) {
        int ws;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
        lseek(fo, 0, SEEK_SET);
        lseek(fe, 0, SEEK_SET);
        *out = slurp_fd(fo, NULL);
        *errs = slurp_fd(fe, NULL);
        if (status == 127 && *errs && !**errs)
            status = -1;
    }
done:
    if (fo >= 0) {
        close(fo);
        unlink(outp);
    }
    if (fe >= 0) {
        close(fe);
        unlink(errp);
    }
    return status;
}

static const char *nvcc_path(void)
{
    const char *e = getenv("SMEMLAB_NVCC");
    return e && *e ? e : "nvcc";
}

/* A .cpp1.ii nvcc left in dir (read), then every file of dir removed and dir itself. */
static char *take_kept(const char *dir, size_t *len)
{
    char *pp = NULL;
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    struct dirent *e;
    char path[1200];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t n = strlen(e->d_name);
        if (!pp && n > 8 && !strcmp(e->d_name + n - 8, ".cpp1.ii"))
            pp = smem_read_file(path, len);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
    return pp;
}

enum compile_mode { COMPILE_PTX, COMPILE_PTX_KEEP, COMPILE_PREPROCESS };

/* nvcc -arch=A {-ptx -lineinfo [-keep -keep-dir D] | -E} ARGS path -o tmp: the output file's text,
 * and for COMPILE_PTX_KEEP the preprocessed source in *pp. */
static char *run_nvcc(const char *path, const struct smem_analyze_options *o, enum compile_mode mode,
                      size_t *len, char **pp, size_t *pp_len, struct smem_error *err)
{
    char outp[] = "/tmp/smemlab-ptxXXXXXX", keep[] = "/tmp/smemlab-keepXXXXXX";
    if (pp)
        *pp = NULL;
    int fd = mkstemp(outp);
    if (fd < 0) {
        smem_error_set(err, path, 0, 0, "cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    int kept = mode == COMPILE_PTX_KEEP && mkdtemp(keep) != NULL;
    char arch[64];
    snprintf(arch, sizeof arch, "-arch=%s", o->arch ? o->arch : "sm_90");
    const char **argv = calloc(16 + o->ncompiler_args, sizeof *argv);
    if (!argv) {
        unlink(outp);
        if (kept)
            rmdir(keep);
        smem_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    unsigned n = 0;
    argv[n++] = nvcc_path();
    argv[n++] = arch;
    if (mode == COMPILE_PREPROCESS) {
        argv[n++] = "-E";
    } else {
        argv[n++] = "-ptx";
        argv[n++] = "-lineinfo";
    }
    if (kept) {
        argv[n++] = "-keep";
        argv[n++] = "-keep-dir";
        argv[n++] = keep;
    }
    for (unsigned i = 0; i < o->ncompiler_args; i++)
        argv[n++] = o->compiler_args[i];
    /* A header (.cuh, .h, .hpp) or any other name is compiled as CUDA, as if it were a .cu file. */
    size_t plen = strlen(path);
    if (plen < 3 || strcmp(path + plen - 3, ".cu")) {
        argv[n++] = "-x";
        argv[n++] = "cu";
    }
    argv[n++] = path;
    argv[n++] = "-o";
    argv[n++] = outp;
    argv[n] = NULL;
    char *out = NULL, *errs = NULL, *text = NULL;
    int st = run_capture((char *const *)argv, &out, &errs);
    if (st < 0) {
        smem_error_set(err, path, 0, 0,
                       "cannot run nvcc (%s): install the CUDA toolkit, put nvcc on PATH or set "
                       "SMEMLAB_NVCC, or give a .ptx file", nvcc_path());
    } else if (st != 0) {
        /* keep the compiler's first lines: they name the file and line */
        char msg[480];
        snprintf(msg, sizeof msg, "%s", errs && *errs ? errs : (out ? out : ""));
        size_t ml = strlen(msg);
        while (ml && (msg[ml - 1] == '\n' || msg[ml - 1] == ' '))
            msg[--ml] = 0;
        smem_error_set(err, path, 0, 0, "nvcc failed (exit %d):\n%s", st, msg);
    } else {
        text = smem_read_file(outp, len);
        if (!text)
            smem_error_set(err, path, 0, 0, "nvcc wrote no %s",
                           mode == COMPILE_PREPROCESS ? "preprocessed source" : "PTX");
    }
    if (kept) {
        size_t pl = 0;
        char *kept_pp = take_kept(keep, &pl);
        if (text && pp) {
            *pp = kept_pp;
            if (pp_len)
                *pp_len = pl;
        } else {
            free(kept_pp);
        }
    }
    free(out);
    free(errs);
    free(argv);
    unlink(outp);
    return text;
}

char *smem_compile_cu(const char *path, const struct smem_analyze_options *o, size_t *len,
                      struct smem_error *err)
{
    return run_nvcc(path, o, COMPILE_PTX, len, NULL, NULL, err);
}

char *smem_compile_cu_pp(const char *path, const struct smem_analyze_options *o, size_t *len,
                         char **pp, size_t *pp_len, struct smem_error *err)
{
    return run_nvcc(path, o, COMPILE_PTX_KEEP, len, pp, pp_len, err);
}

char *smem_preprocess_cu(const char *path, const struct smem_analyze_options *o, size_t *len,
                         struct smem_error *err)
{
    return run_nvcc(path, o, COMPILE_PREPROCESS, len, NULL, NULL, err);
}

void smem_demangle(const char *const *names, unsigned n, char **out)
{
    unsigned need = 0;
    for (unsigned i = 0; i < n; i++) {
        out[i] = NULL;
        if (!strncmp(names[i], "_Z", 2))
            need++;
    }
    if (need) {
        const char **argv = calloc(n + 2, sizeof *argv);
        static const char *const tools[] = {"cu++filt", "c++filt"};
        for (unsigned t = 0; argv && t < 2; t++) {
            unsigned k = 0;
            argv[k++] = tools[t];
            for (unsigned i = 0; i < n; i++)
                argv[k++] = names[i];
            argv[k] = NULL;
            char *o = NULL, *e = NULL;
            if (run_capture((char *const *)argv, &o, &e) == 0 && o) {
                char *save = NULL, *line = strtok_r(o, "\n", &save);
                for (unsigned i = 0; i < n && line; i++, line = strtok_r(NULL, "\n", &save))
                    out[i] = strdup(line);
                free(o);
                free(e);
                break;
            }
            free(o);
            free(e);
        }
        free(argv);
    }
    for (unsigned i = 0; i < n; i++)
        if (!out[i])
            out[i] = strdup(names[i]);
}

/* ---- kernel parameters by source name (params.c does the work) ---------------------------- */

/* Where parameter names come from, fetched once and only when needed: the caller's preprocessed
 * source, else nvcc -E on the .cu (smem_analyze_ptx and _module given a source, no text). */
struct names {
    const char *source;               /* the .cu, or NULL */
    const struct smem_analyze_options *o;
    int tried;
    char *owned;                      /* text preprocessed here */
    struct smem_pp_unit *unit;
    char why[200];                    /* why there is none */
    const struct smem_sass_module *sass; /* ptxas's code of the module, or NULL */
};

static const struct smem_pp_unit *names_unit(struct names *nm)
{
    if (nm->tried)
        return nm->unit;
    nm->tried = 1;
    const char *text = nm->o->preprocessed;
    size_t len = nm->o->preprocessed_len;
    if (!text && nm->source) {
        struct smem_error e;
        memset(&e, 0, sizeof e);
        nm->owned = smem_preprocess_cu(nm->source, nm->o, &len, &e);
        text = nm->owned;
        if (!text) {
            for (char *c = e.msg; *c; c++)
                *c = *c == '\n' ? ' ' : *c;
            snprintf(nm->why, sizeof nm->why, "parameter names need nvcc -E on the source: %.140s",
                     e.msg);
        }
    }
    if (text && !(nm->unit = smem_pp_scan(text, len)))
        snprintf(nm->why, sizeof nm->why, "out of memory reading the preprocessed source");
    return nm->unit;
}

static void names_free(struct names *nm)
{
    free(nm->owned);
    smem_pp_unit_free(nm->unit);
}

/* ---- the analysis -------------------------------------------------------------------------- */

static int span_is(const char *text, struct smem_span sp, const char *want)
{
    return strlen(want) == sp.len && !memcmp(text + sp.off, want, sp.len);
}

/* Matches --kernel against the mangled symbol, the demangled name with or without its parameter
 * list, the name without template arguments, and the same without namespaces. */
static int kernel_matches(const char *want, const char *symbol, const char *full)
{
    struct smem_signature s;
    smem_signature_parse(full, strlen(full), &s);
    if (!strcmp(want, symbol) || !strcmp(want, full) || span_is(full, s.name, want) ||
        span_is(full, s.qual, want))
        return 1;
    /* without namespaces: the part after the last "::" outside template arguments */
    if (s.last.off == s.name.off)
        return 0;
    return span_is(full, s.last, want) || span_is(full, s.base, want);
}

/* One kernel's launch with pv, its scalar parameters (bound by smem_params_bind); sig names them
 * in messages (NULL: built here, from nm, only when a message needs it). */
static int analyze_kernel(struct smem_analysis *an, const struct smem_ptx_func *f,
                          const struct smem_param_value *pv, const struct smem_ksig *sig,
                          struct names *nm, const char *demangled,
                          const struct smem_analyze_options *o, struct smem_kernel_report *k,
                          struct smem_error *err)
{
    struct smem_cta_program *p = NULL;
    k->error_stage = "prepare";
    if (smem_cta_prepare_sass(an->module, f, o->dyn_smem, nm->sass, &p, err))
        return -1;
    k->error_stage = "launch";
    /* which parameters are pointers: the C types say it (a size_t is no pointer, whatever the
     * PTX does with it); the PTX's dataflow only where no type is known */
    {
        struct smem_ksig tmp;
        const struct smem_ksig *ts = sig;
        if (!ts && !smem_ksig_build(names_unit(nm), f, demangled, &tmp))
            ts = &tmp;
        for (uint32_t j = 0; ts && j < f->nparams && j < ts->nparams; j++)
            if (ts->params[j].type_known)
                p->param_is_ptr[j] = ts->params[j].kind == SMEM_PARAM_POINTER;
        if (ts && ts != sig)
            smem_ksig_free(&tmp);
    }
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    for (int d = 0; d < 3; d++) {
        l.block[d] = o->block[0] ? o->block[d] : (f->reqntid[d] ? f->reqntid[d] : (d ? 1 : 256));
        if (!o->block[0] && !f->reqntid[0] && f->maxntid[0])
            l.block[d] = f->maxntid[d] ? f->maxntid[d] : 1;
        l.grid[d] = o->grid[d];
    }
    l.dyn_smem = o->dyn_smem;
    l.max_steps = o->max_steps;
    l.sample_blocks = o->sample_blocks;
    memcpy(k->block, l.block, sizeof k->block);
    memcpy(k->grid, l.grid, sizeof k->grid);
    k->static_smem = p->static_smem;
    k->dynamic_smem = o->dyn_smem;
    k->program = p;
    l.params = pv;
    l.nparams = f->nparams;
    if (smem_cta_check_launch(p, &l, err))
        return -2;
    k->error_stage = "run";
    struct smem_launch_options lo = {o->banks, 1, o->hazards, o->record, 0};
    struct smem_cta_result res;
    /* one block for all when the proof holds (uniform.h) */
    uint64_t nblocks = (uint64_t)l.grid[0] * l.grid[1] * l.grid[2];
    char why[sizeof k->extrapolation];
    int one = 0;
    /* the blocks of a cluster run together (__cluster_dims__): no one block stands for all */
    int clustered = (uint64_t)f->reqnctapercluster[0] * (f->reqnctapercluster[1] ? f->reqnctapercluster[1] : 1) *
                        (f->reqnctapercluster[2] ? f->reqnctapercluster[2] : 1) > 1;
    if (!o->all_blocks && !o->sample_blocks && !o->record && nblocks > 1 && !clustered) {
        one = smem_blocks_uniform(p->func, why, sizeof why); /* calls inlined */
        if (one < 0)
            return smem_error_set(err, NULL, 0, 0, "out of memory");
    }
    if (one) {
        l.block_first = 0;
        l.block_count = 1;
    }
    struct smem_parallel par;
    memset(&par, 0, sizeof par);
    par.jobs = o->jobs;
    if (smem_launch_analyze_parallel(p, &l, &lo, &par, k, &res, err))
        return -1;
    if (one && res.complete)
        stand_for_all(k, nblocks, why);
    /* the scalar parameters left unknown, by the names the compiler saw */
    char unset[200] = "";
    struct smem_ksig own;
    int have_own = 0;
    for (uint32_t j = 0; !res.complete && j < f->nparams; j++) {
        if ((pv && pv[j].set) || p->param_is_ptr[j])
            continue;
        if (!sig && !have_own) {
            have_own = !smem_ksig_build(names_unit(nm), f, demangled, &own);
            sig = have_own ? &own : NULL;
        }
        if (sig && (sig->params[j].kind == SMEM_PARAM_POINTER ||
                    sig->params[j].kind == SMEM_PARAM_AGGREGATE))
            continue;
        size_t ul = strlen(unset);
        snprintf(unset + ul, sizeof unset - ul, "%s%s", ul ? ", " : "",
                 sig ? smem_kparam_label(&sig->params[j]) : f->syms[j].name);
    }
    if (have_own)
        smem_ksig_free(&own);
    if (!res.complete) {
        const struct smem_ptx_insn *in = &p->func->insns[res.unknown.insn];
        const char *file = in->loc_file < an->module->nfiles ? an->module->files[in->loc_file] : NULL;
        const char *slash = file ? strrchr(file, '/') : NULL;
        if (unset[0])
            snprintf(k->incomplete_why, sizeof k->incomplete_why,
                     "%s:%u: the %s depends on data the analysis cannot know (values read from "
                     "global memory, or unset scalar parameters: %s; give them with --param "
                     "NAME=VALUE); block %u stopped there",
                     slash ? slash + 1 : (file ? file : "?"), in->loc_line, res.unknown.what, unset,
                     res.unknown_block);
        else
            snprintf(k->incomplete_why, sizeof k->incomplete_why,
                     "%s:%u: the %s depends on data the analysis cannot know (values read from "
                     "global memory); block %u stopped there",
                     slash ? slash + 1 : (file ? file : "?"), in->loc_line, res.unknown.what,
                     res.unknown_block);
    }
    return 0;
}

static int analyze_module(struct smem_analysis *an, const char *ptx_name, const char *source,
                          const struct smem_analyze_options *o,
                          const struct smem_sass_module *sass, struct smem_analysis **out,
                          struct smem_error *err);

/* The SASS census (census.h) of every kernel analysed, against ptxas's SASS of the same PTX. */
static void census(struct smem_analysis *an, const struct smem_sass_module *sm, const char *why)
{
    for (uint32_t i = 0; i < an->nkernels; i++) {
        struct smem_kernel_report *k = &an->kernels[i];
        if (!k->program || k->error)
            continue;
        struct smem_census *c = smem_census_new(k->program, sm, why);
        smem_census_apply(c, k);
        smem_census_free(c);
    }
}

int smem_analyze_ptx(const char *ptx, size_t len, const char *ptx_name, const char *source,
                     const struct smem_analyze_options *o, struct smem_analysis **out,
                     struct smem_error *err)
{
    *out = NULL;
    struct smem_analysis *an = calloc(1, sizeof *an);
    if (!an)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    an->source = strdup(source ? source : ptx_name);
    /* the tensor-core era instructions too: the emulator runs them (emu/cta_tensor.c) */
    struct smem_ptx_options po = {.tensor_ops = 1};
    if (smem_ptx_parse_opts(ptx, len, ptx_name, &po, &an->module, err)) {
        smem_analysis_free(an);
        return -1;
    }
    an->owns_module = 1;
    /* ptxas's code of it, first: the emulator follows its fixed-place loads (sass/sass_fixed.c) and
       the census compares the rest */
    char why[200] = "";
    struct smem_sass_module *sm = NULL;
    int want = o->sass_census && !getenv("SMEMLAB_NO_SASS"); /* the env: as `smemlab run` reads it */
    if (want)
        sm = smem_sass_of_ptx(ptx, len, why, sizeof why);
    int rc = analyze_module(an, ptx_name, source, o, sm, out, err);
    if (!rc && want)
        census(*out, sm, why);
    smem_sass_free(sm);
    return rc;
}

int smem_analyze_module(const struct smem_ptx_module *m, const char *name, const char *source,
                        const struct smem_analyze_options *o, struct smem_analysis **out,
                        struct smem_error *err)
{
    *out = NULL;
    struct smem_analysis *an = calloc(1, sizeof *an);
    if (!an)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    an->source = strdup(source ? source : name);
    an->module = (struct smem_ptx_module *)m;
    an->owns_module = 0;
    return analyze_module(an, name, source, o, NULL, out, err);
}

/* ---- template kernels nobody instantiated ----------------------------------------------------- */

/* name's last part ("ns::k" -> "k") */
static const char *last_part(const char *name)
{
    const char *c = strrchr(name, ':');
    return c ? c + 1 : name;
}

/* Whether a demangled entry is an instance of the template named qual ("...k<"). */
static int instance_of(const char *dem, const char *qual)
{
    const char *b = last_part(qual);
    size_t n = strlen(b);
    for (const char *p = strstr(dem, b); p; p = strstr(p + 1, b))
        if (p[n] == '<' && (p == dem || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')))
            return 1;
    return 0;
}

/* "k<int BM, int BN> (file.cuh:12), ..." for u's template kernels that no entry of dem[0, ne)
 * instantiates, and in *example "k<BM, BN>" for the first (its parameters' names): how many. */
static unsigned uninstantiated(const struct smem_pp_unit *u, char *const *dem, uint32_t ne,
                               char *buf, size_t n, char *example, size_t en)
{
    unsigned count = 0;
    buf[0] = 0;
    if (example)
        example[0] = 0;
    for (unsigned i = 0; i < smem_pp_unit_kernels(u); i++) {
        struct smem_pp_template t;
        if (!smem_pp_unit_template(u, i, &t))
            continue;
        int made = 0, seen = 0;
        for (uint32_t e = 0; e < ne && !made; e++)
            made = instance_of(dem[e], t.qual);
        for (unsigned j = 0; j < i && !seen; j++) { /* a declaration and its definition */
            struct smem_pp_template o;
            seen = smem_pp_unit_template(u, j, &o) && !strcmp(o.qual, t.qual);
        }
        if (made || seen)
            continue;
        size_t l = strlen(buf);
        if (t.file)
            snprintf(buf + l, n - l, "%s%s<%s> (%s:%u)", count ? ", " : "", t.qual, t.tparams,
                     smem_base_name(t.file), t.line);
        else
            snprintf(buf + l, n - l, "%s%s<%s>", count ? ", " : "", t.qual, t.tparams);
        if (!count++ && example) { /* each parameter's name: its last word before any default */
            size_t el = (size_t)snprintf(example, en, "%s<", last_part(t.qual));
            const char *p = t.tparams;
            for (int first = 1; *p && el < en; first = 0) {
                const char *end = p;
                int depth = 0;
                while (*end && (depth || *end != ',')) {
                    depth += *end == '<' || *end == '(';
                    depth -= (*end == '>' || *end == ')') && depth;
                    end++;
                }
                const char *stop = memchr(p, '=', (size_t)(end - p));
                const char *q = stop ? stop : end;
                while (q > p && (q[-1] == ' ' || q[-1] == '.'))
                    q--;
                const char *w = q;
                while (w > p && (isalnum((unsigned char)w[-1]) || w[-1] == '_'))
                    w--;
                el += (size_t)snprintf(example + el, en - el, "%s%.*s", first ? "" : ", ",
                                       (int)(q - w), w);
                p = *end ? end + 1 : end;
                while (*p == ' ')
                    p++;
            }
            if (el < en)
                snprintf(example + el, en - el, ">");
        }
    }
    return count;
}

static int analyze_module(struct smem_analysis *an, const char *ptx_name, const char *source,
                          const struct smem_analyze_options *o,
                          const struct smem_sass_module *sass, struct smem_analysis **out,
                          struct smem_error *err)
{
    const struct smem_ptx_module *m = an->module;
    struct names nm;
    memset(&nm, 0, sizeof nm);
    nm.o = o;
    nm.sass = sass;
    if (source && strcmp(source, ptx_name)) {
        size_t sl = strlen(source);
        if (!(sl > 4 && !strcmp(source + sl - 4, ".ptx")))
            nm.source = source;
    }
    /* every entry, demangled */
    const char **syms = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *syms);
    char **dem = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *dem);
    uint32_t *sel = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *sel);
    struct smem_ksig *sigs = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *sigs);
    struct smem_param_value **pv = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *pv);
    uint32_t ne = 0, nsel = 0;
    for (uint32_t i = 0; syms && i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && (m->funcs[i].ninsns || m->funcs[i].error))
            syms[ne++] = m->funcs[i].name;
    int rc = 0, first_rc = 0;
    uint32_t nfailed = 0;
    if (!syms || !dem || !sel || !sigs || !pv) {
        rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    smem_demangle(syms, ne, dem);
    an->kernels = calloc(ne ? ne : 1, sizeof *an->kernels);
    if (!an->kernels) {
        rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < ne; i++)
        if (!o->kernel || kernel_matches(o->kernel, syms[i], dem[i]))
            sel[nsel++] = i;
    if (!nsel) {
        char list[300] = "";
        for (uint32_t i = 0; i < ne; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", dem[i]);
        }
        /* the file's template kernels nobody instantiated, and how to name one */
        char tpl[300] = "", example[120] = "";
        const struct smem_pp_unit *unit = nm.source ? names_unit(&nm) : NULL;
        unsigned nt = unit ? uninstantiated(unit, dem, ne, tpl, sizeof tpl, example,
                                            sizeof example) : 0;
        if (o->kernel && nt)
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0,
                                "no kernel named '%s' (kernels: %s; template kernels not "
                                "instantiated here: %s: name one with its template arguments, "
                                "--kernel '%s' with values in place of the parameters)",
                                o->kernel, ne ? list : "none", tpl, example);
        else if (o->kernel)
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0,
                                "no kernel named '%s' (kernels: %s)", o->kernel, ne ? list : "none");
        else if (nt)
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0, "no kernel (__global__ "
                                "function) to analyse: the file's template kernel%s %s not "
                                "instantiated: %s; analyse one with --kernel '%s', values in "
                                "place of its parameters (smemlab instantiates it)",
                                nt == 1 ? "" : "s", nt == 1 ? "is" : "are", tpl, example);
        else
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0, "no kernel (__global__ "
                                "function) to analyse");
        if (o->kernel && ne)
            rc = -2;
        goto done;
    }
    /* template kernels the file leaves uninstantiated: named (not analysed), when the source
       read is at hand (no extra compile) */
    if (nm.source && o->preprocessed)
        uninstantiated(names_unit(&nm), dem, ne, an->uninstantiated, sizeof an->uninstantiated,
                       NULL, 0);
    /* every --param bound to the analysed kernels before any runs: names from the compiler */
    if (o->nparams) {
        const struct smem_pp_unit *unit = names_unit(&nm);
        for (uint32_t s = 0; s < nsel; s++) {
            const struct smem_ptx_func *f = smem_ptx_find(m, syms[sel[s]]);
            if (smem_ksig_build(unit, f, dem[sel[s]], &sigs[s]) ||
                !(pv[s] = calloc(f->nparams ? f->nparams : 1, sizeof **pv))) {
                rc = smem_error_set(err, NULL, 0, 0, "out of memory");
                goto done;
            }
            if (!unit && nm.why[0])
                snprintf(sigs[s].why_unnamed, sizeof sigs[s].why_unnamed, "%s", nm.why);
        }
        if (smem_params_bind(sigs, nsel, o->params, o->nparams, pv, source ? source : ptx_name,
                             err)) {
            rc = -2;
            goto done;
        }
    }
    for (uint32_t s = 0; s < nsel; s++) {
        uint32_t i = sel[s];
        struct smem_kernel_report *k = &an->kernels[an->nkernels++];
        k->symbol = strdup(syms[i]);
        k->name = smem_signature_name(dem[i]);
        if (!k->symbol || !k->name) {
            rc = smem_error_set(err, NULL, 0, 0, "out of memory");
            goto done;
        }
        /* One kernel that cannot be read or run is reported with its reason; the others go on.
         * Only when every kernel fails does the analysis fail, with the first one's error. */
        const struct smem_ptx_func *fn = smem_ptx_find(m, syms[i]);
        struct smem_error kerr;
        memset(&kerr, 0, sizeof kerr);
        int r;
        if (fn->error) {
            k->error_stage = "parse";
            kerr = *fn->error;
            if (fn->error_line && fn->error_file < m->nfiles && m->files[fn->error_file]) {
                size_t ml = strlen(kerr.msg);
                snprintf(kerr.msg + ml, sizeof kerr.msg - ml, " (source %s:%u)",
                         smem_base_name(m->files[fn->error_file]), (unsigned)fn->error_line);
            }
            r = -1;
        } else {
            r = analyze_kernel(an, fn, pv[s], o->nparams ? &sigs[s] : NULL, &nm, dem[i], o, k,
                               &kerr);
        }
        if (r) {
            char buf[800];
            k->error = strdup(smem_error_format(&kerr, buf, sizeof buf));
            k->complete = 0;
            k->nsites = 0; /* whatever a failed run counted is not a result */
            memset(&k->ld, 0, sizeof k->ld);
            memset(&k->st, 0, sizeof k->st);
            memset(&k->atom, 0, sizeof k->atom);
            memset(&k->ldsm, 0, sizeof k->ldsm);
            memset(&k->stsm, 0, sizeof k->stsm);
            memset(&k->ldgsts, 0, sizeof k->ldgsts);
            memset(&k->gmma, 0, sizeof k->gmma);
            memset(&k->dshared, 0, sizeof k->dshared);
            k->ndshared_lines = 0;
            if (!nfailed++) {
                first_rc = r;
                if (err)
                    *err = kerr;
            }
        }
    }
    if (an->nkernels && nfailed == an->nkernels)
        rc = first_rc;
done:
    for (uint32_t i = 0; dem && i < ne; i++)
        free(dem[i]);
    for (uint32_t s = 0; sigs && pv && s < nsel; s++) {
        smem_ksig_free(&sigs[s]);
        free(pv[s]);
    }
    free(dem);
    free(syms);
    free(sel);
    free(sigs);
    free(pv);
    names_free(&nm);
    if (rc) {
        smem_analysis_free(an);
        return rc;
    }
    *out = an;
    return 0;
}

/* Whether a .cu's text includes the header named base ("#include ... base\"" or ">"). */
static int includes(const char *text, const char *base)
{
    size_t n = strlen(base);
    for (const char *p = strstr(text, "#include"); p; p = strstr(p + 1, "#include")) {
        const char *e = p + 8;
        while (*e == ' ' || *e == '\t')
            e++;
        if (*e != '"' && *e != '<')
            continue;
        const char *close = strpbrk(e + 1, "\">\n");
        if (!close || *close == '\n' || (size_t)(close - e - 1) < n)
            continue;
        if (!memcmp(close - n, base, n) && (close - n == e + 1 || close[-(long)n - 1] == '/'))
            return 1;
    }
    return 0;
}

/* The first .cu (by name) of header's folder that includes it, into out: 1, or 0 for none. */
static int includer(const char *header, char *out, size_t n)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", header);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    const char *base = smem_base_name(header);
    struct dirent **names = NULL;
    int nn = scandir(dir, &names, NULL, alphasort), found = 0;
    for (int i = 0; i < nn; i++) {
        size_t l = strlen(names[i]->d_name);
        if (!found && l > 3 && !strcmp(names[i]->d_name + l - 3, ".cu")) {
            char p[PATH_MAX + 260];
            snprintf(p, sizeof p, "%s%s%s", slash ? dir : "", slash ? "/" : "", names[i]->d_name);
            char *text = smem_read_file(p, NULL);
            if (text && includes(text, base)) {
                snprintf(out, n, "%s", p);
                found = 1;
            }
            free(text);
        }
        free(names[i]);
    }
    free(names);
    return found;
}

/* Compiles cpath (path's stand-in) and analyses it as path. */
static int compile_analyse(const char *cpath, const char *path, const struct smem_analyze_options *o,
                           struct smem_analysis **out, char **pp, size_t *pp_len,
                           struct smem_error *err)
{
    size_t len = 0;
    char *text = smem_compile_cu_pp(cpath, o, &len, pp, pp_len, err);
    if (!text)
        return -1;
    struct smem_analyze_options lo = *o;
    lo.preprocessed = *pp;
    lo.preprocessed_len = *pp_len;
    int rc = smem_analyze_ptx(text, len, "<nvcc output>", path, &lo, out, err);
    free(text);
    return rc;
}

/* --kernel 'k<128, 8>' of a template the file does not instantiate: a .cu that includes the file
 * (by its absolute path) and takes k<128, 8>'s address, so nvcc instantiates and compiles it;
 * compiled and analysed as path. 1 when tried (rc in *rc), 0 when no template of pp is named. */
static int instantiate(const char *file, const char *path, const char *pp, size_t pp_len,
                       const struct smem_analyze_options *o, struct smem_analysis **out, int *rc,
                       struct smem_error *err)
{
    const char *lt = strchr(o->kernel, '<');
    if (!lt || !pp)
        return 0;
    struct smem_pp_unit *u = smem_pp_scan(pp, pp_len);
    const char *qual = NULL;
    char want[256];
    snprintf(want, sizeof want, "%.*s", (int)(lt - o->kernel), o->kernel);
    while (strlen(want) && want[strlen(want) - 1] == ' ')
        want[strlen(want) - 1] = 0;
    for (unsigned i = 0; u && i < smem_pp_unit_kernels(u) && !qual; i++) {
        struct smem_pp_template t;
        if (smem_pp_unit_template(u, i, &t) &&
            (!strcmp(t.qual, want) || !strcmp(last_part(t.qual), last_part(want))))
            qual = t.qual;
    }
    char abs[PATH_MAX * 2], cwd[PATH_MAX], cu[] = "/tmp/smemlab-instance-XXXXXX"; /* -x cu */
    if (file[0] == '/' || !getcwd(cwd, sizeof cwd))
        snprintf(abs, sizeof abs, "%s", file);
    else
        snprintf(abs, sizeof abs, "%s/%s", cwd, file);
    int fd = qual ? mkstemp(cu) : -1;
    if (fd < 0) {
        smem_pp_unit_free(u);
        return 0;
    }
    FILE *f = fdopen(fd, "w");
    if (f) {
        fprintf(f, "// smemlab analyze --kernel '%s': the template instantiated\n"
                   "#include \"%s\"\n"
                   "static void *const smemlab_instance_ __attribute__((unused)) = "
                   "(void *)&%s%s;\n", o->kernel, abs, qual, lt);
        fclose(f);
    } else {
        close(fd);
    }
    char *ipp = NULL;
    size_t ipp_len = 0;
    struct smem_analysis *an = NULL;
    struct smem_error ierr;
    memset(&ierr, 0, sizeof ierr);
    *rc = f ? compile_analyse(cu, path, o, &an, &ipp, &ipp_len, &ierr) : -1;
    unlink(cu);
    free(ipp);
    if (*rc == 0) {
        *out = an;
        snprintf(an->compiled_as, sizeof an->compiled_as, "with %s%s instantiated (a .cu that "
                 "includes it and takes the kernel's address)", qual, lt);
    } else if (!strncmp(ierr.msg, "nvcc failed", 11)) {
        char *nl = strchr(ierr.msg, '\n'); /* nvcc's first lines name the argument it refused */
        smem_error_set(err, path, 0, 0, "%s%s cannot be instantiated: %s", qual, lt,
                       nl ? nl + 1 : ierr.msg);
    } else {
        *err = ierr; /* instantiated; its analysis says what went wrong (a --param, a launch) */
    }
    smem_pp_unit_free(u);
    return 1;
}

int smem_analyze_file(const char *path, const struct smem_analyze_options *o,
                      struct smem_analysis **out, struct smem_error *err)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return smem_error_set(err, path, 0, 0, "cannot read: %s",
                              errno ? strerror(errno) : "not a regular file");
    size_t n = strlen(path), len = 0, pp_len = 0;
    int is_ptx = n > 4 && !strcmp(path + n - 4, ".ptx");
    if (is_ptx) {
        char *text = smem_read_file(path, &len);
        if (!text)
            return smem_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        int rc = smem_analyze_ptx(text, len, path, NULL, o, out, err);
        free(text);
        return rc;
    }
    /* a .cu: the preprocessed source comes with the compile (-keep), for parameter names */
    char *pp = NULL, through[PATH_MAX + 260] = "";
    const char *cpath = o->include_from ? o->include_from : path;
    int rc = compile_analyse(cpath, path, o, out, &pp, &pp_len, err);
    int is_cu = n > 3 && !strcmp(path + n - 3, ".cu");
    if (rc && !*out && !is_cu && !o->include_from && !strncmp(err->msg, "nvcc failed", 11)) {
        /* a header that does not compile alone: through a .cu of its folder that includes it */
        struct smem_error alone = *err;
        if (includer(path, through, sizeof through)) {
            memset(err, 0, sizeof *err);
            free(pp);
            pp = NULL;
            rc = compile_analyse(through, path, o, out, &pp, &pp_len, err);
            if (rc && !strncmp(err->msg, "nvcc failed", 11)) {
                char m[sizeof err->msg];
                snprintf(m, sizeof m, "%s", err->msg);
                smem_error_set(err, path, 0, 0, "does not compile alone, nor through %s of its "
                               "folder, which includes it: %s", smem_base_name(through), m);
            }
        } else {
            smem_error_set(err, path, 0, 0, "does not compile alone and no .cu of its folder "
                           "includes it: give one that does with --include-from FILE.cu; %s",
                           alone.msg);
        }
    }
    const char *compiled = through[0] ? through : cpath;
    if (rc && !*out && !strncmp(err->msg, "no kernel named", 15)) {
        int irc = 0;
        if (o->kernel && instantiate(compiled, path, pp, pp_len, o, out, &irc, err))
            rc = irc;
    }
    if (!rc && *out && through[0] && !(*out)->compiled_as[0])
        snprintf((*out)->compiled_as, sizeof (*out)->compiled_as, "through %.500s of its "
                 "folder, which includes it (the header does not compile alone)", through);
    else if (!rc && *out && o->include_from && !(*out)->compiled_as[0])
        snprintf((*out)->compiled_as, sizeof (*out)->compiled_as, "through %.500s "
                 "(--include-from)", o->include_from);
    free(pp);
    return rc;
}

unsigned smem_site_chain(const struct smem_analysis *a, const struct smem_kernel_report *k,
                         const struct smem_site_report *r, const struct smem_ptx_frame **out,
                         unsigned max)
{
    (void)k;
    const struct smem_ptx_module *m = a->module;
    unsigned n = 0;
    for (uint32_t fr = r->chain; fr < m->nframes && n < max; fr = m->frames[fr].parent) {
        if (m->frames[fr].parent >= m->nframes)
            break; /* the kernel's own line: r->line */
        out[n++] = &m->frames[fr];
    }
    return n;
}

void smem_analysis_free(struct smem_analysis *a)
{
    if (!a)
        return;
    for (uint32_t i = 0; i < a->nkernels; i++) {
        struct smem_kernel_report *k = &a->kernels[i];
        free(k->symbol);
        free(k->name);
        free(k->error);
        free(k->sites);
        free(k->dshared_lines);
        free(k->hazards);
        free(k->trace);
        smem_cta_program_free(k->program);
    }
    free(a->kernels);
    if (a->owns_module)
        smem_ptx_free(a->module);
    free(a->source);
    free(a);
}
