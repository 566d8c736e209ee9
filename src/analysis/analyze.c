/* analyze.c: from a .cu or .ptx to per-site shared-memory costs. Compiles with the toolkit's nvcc
 * (a subprocess, so host code, templates and headers compile as in the user's own build), runs the
 * emulator per kernel and prices every request with the bank model.
 * Size (~800 lines): compiling (nvcc as a subprocess), naming parameters and running the
 * emulator are the three steps of one analysis, each a section below. */
#include "smemlab/base/text.h"
#include "smemlab/analysis/analyze.h"
#include "smemlab/analysis/launch.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
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

char *smem_compile_cu(const char *path, const struct smem_analyze_options *o, size_t *len,
                      struct smem_error *err)
{
    char ptxp[] = "/tmp/smemlab-ptxXXXXXX";
    int fd = mkstemp(ptxp);
    if (fd < 0) {
        smem_error_set(err, path, 0, 0, "cannot create a temporary file: %s", strerror(errno));
        return NULL;
    }
    close(fd);
    char arch[64];
    snprintf(arch, sizeof arch, "-arch=%s", o->arch ? o->arch : "sm_90");
    const char **argv = calloc(16 + o->ncompiler_args, sizeof *argv);
    if (!argv) {
        unlink(ptxp);
        smem_error_set(err, path, 0, 0, "out of memory");
        return NULL;
    }
    unsigned n = 0;
    argv[n++] = nvcc_path();
    argv[n++] = arch;
    argv[n++] = "-ptx";
    argv[n++] = "-lineinfo";
    for (unsigned i = 0; i < o->ncompiler_args; i++)
        argv[n++] = o->compiler_args[i];
    /* A header (.cuh, .h, .hpp) or any other name is compiled as CUDA, as if it were a .cu file. */
    size_t pl = strlen(path);
    if (pl < 3 || strcmp(path + pl - 3, ".cu")) {
        argv[n++] = "-x";
        argv[n++] = "cu";
    }
    argv[n++] = path;
    argv[n++] = "-o";
    argv[n++] = ptxp;
    argv[n] = NULL;
    char *out = NULL, *errs = NULL, *ptx = NULL;
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
        ptx = smem_read_file(ptxp, len);
        if (!ptx)
            smem_error_set(err, path, 0, 0, "nvcc wrote no PTX");
    }
    free(out);
    free(errs);
    free(argv);
    unlink(ptxp);
    return ptx;
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

/* "void reduce4<int, 256u>(int*, int*)" -> "reduce4<int, 256u>" (templates demangle with their
 * return type first) */
static char *strip_params(const char *d)
{
    if (!strncmp(d, "void ", 5))
        d += 5;
    size_t n = strlen(d);
    int depth = 0;
    for (size_t i = n; i-- > 0;) {
        if (d[i] == ')')
            depth++;
        else if (d[i] == '(') {
            if (--depth == 0) {
                n = i;
                break;
            }
        }
    }
    char *s = malloc(n + 1);
    if (s) {
        memcpy(s, d, n);
        s[n] = 0;
    }
    return s;
}

/* ---- kernel parameters by source name ----------------------------------------------------- */

/* Finds the parameter names of kernel `name` in the CUDA source text; returns how many. */
static unsigned source_param_names(const char *text, const char *name, char names[][64], unsigned max)
{
    size_t nl = strlen(name);
    const char *p = text;
    while (text && (p = strstr(p, name))) {
        const char *q = p + nl;
        int word_start = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        p = q;
        if (!word_start || isalnum((unsigned char)*q) || *q == '_')
            continue;
        while (*q == ' ' || *q == '\t' || *q == '\n')
            q++;
        if (*q == '<') { /* template kernel: skip the argument list */
            int d = 0;
            for (; *q; q++) {
                if (*q == '<') d++;
                else if (*q == '>' && --d == 0) { q++; break; }
            }
            while (*q == ' ' || *q == '\t' || *q == '\n')
                q++;
        }
        if (*q != '(')
            continue;
        /* a definition or declaration of a __global__ function? look back for __global__ */
        const char *back = p - nl;
        const char *start = back - 300 > text ? back - 300 : text;
        int global = 0;
        for (const char *s = back; s > start; s--)
            if (!strncmp(s, "__global__", 10)) {
                global = 1;
                break;
            } else if (*s == ';' || *s == '}')
                break;
        if (!global)
            continue;
        q++;
        unsigned count = 0;
        int depth = 0;
        const char *seg = q;
        for (; *q; q++) {
            if (*q == '(' || *q == '<' || *q == '[')
                depth++;
            else if ((*q == ')' || *q == '>' || *q == ']') && depth > 0)
                depth--;
            else if ((*q == ',' || *q == ')') && depth == 0) {
                /* the last identifier of seg..q (before any '=' default) */
                const char *e = q;
                for (const char *s = seg; s < q; s++)
                    if (*s == '=') {
                        e = s;
                        break;
                    }
                while (e > seg && !(isalnum((unsigned char)e[-1]) || e[-1] == '_'))
                    e--;
                const char *b = e;
                while (b > seg && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
                    b--;
                if (count < max && e > b && (size_t)(e - b) < 64) {
                    memcpy(names[count], b, (size_t)(e - b));
                    names[count][e - b] = 0;
                    count++;
                }
                seg = q + 1;
                if (*q == ')')
                    return count;
            }
        }
        return count;
    }
    return 0;
}

static int parse_param_value(const char *v, unsigned type, uint64_t *bits)
{
    char *end;
    if (!*v)
        return -1;
    errno = 0;
    if (type == PT_F32 || type == PT_F64 || strpbrk(v, ".eE")) {
        if (!strncmp(v, "0x", 2) || !strncmp(v, "0X", 2))
            goto integer;
        double d = strtod(v, &end);
        if (*end || errno)
            return -1;
        if (type == PT_F32) {
            float f = (float)d;
            uint32_t u;
            memcpy(&u, &f, 4);
            *bits = u;
        } else if (type == PT_F64) {
            memcpy(bits, &d, 8);
        } else {
            return -1; /* a float for an integer parameter */
        }
        return 0;
    }
integer:
    if (*v == '-') {
        long long x = strtoll(v, &end, 0);
        if (*end || errno)
            return -1;
        *bits = (uint64_t)x;
    } else {
        unsigned long long x = strtoull(v, &end, 0);
        if (*end || errno)
            return -1;
        *bits = x;
    }
    return 0;
}

/* ---- the analysis -------------------------------------------------------------------------- */

/* Matches --kernel against the mangled symbol, the demangled name with or without its parameter
 * list, the name without template arguments, and the same without namespaces. */
static int kernel_matches(const char *want, const char *symbol, const char *full, const char *name)
{
    if (!strcmp(want, symbol) || !strcmp(want, full) || !strcmp(want, name))
        return 1;
    size_t base = strcspn(name, "<");
    if (strlen(want) == base && !strncmp(want, name, base))
        return 1;
    /* without namespaces: the part after the last "::" outside template arguments */
    const char *last = name;
    int depth = 0;
    for (const char *c = name; *c; c++) {
        if (*c == '<')
            depth++;
        else if (*c == '>')
            depth--;
        else if (!depth && c[0] == ':' && c[1] == ':')
            last = c + 2;
    }
    if (last == name)
        return 0;
    if (!strcmp(want, last))
        return 1;
    size_t lb = strcspn(last, "<");
    return strlen(want) == lb && !strncmp(want, last, lb);
}

static int analyze_kernel(struct smem_analysis *an, const struct smem_ptx_func *f,
                          const char *source_text, const struct smem_analyze_options *o,
                          struct smem_kernel_report *k, struct smem_error *err)
{
    struct smem_cta_program *p = NULL;
    if (smem_cta_prepare(an->module, f, o->dyn_smem, &p, err))
        return -1;
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
    /* scalar parameters */
    struct smem_param_value *pv = calloc(f->nparams ? f->nparams : 1, sizeof *pv);
    if (!pv) {
        smem_error_set(err, NULL, 0, 0, "out of memory");
        return -1;
    }
    char srcnames[64][64];
    unsigned nsrc = 0;
    if (source_text) {
        char *plain = strip_params(k->name);
        size_t base = strcspn(plain ? plain : k->name, "<");
        char bname[256];
        snprintf(bname, sizeof bname, "%.*s", (int)(base < 255 ? base : 255), plain ? plain : k->name);
        /* namespaces: the last component */
        const char *last = strrchr(bname, ':');
        nsrc = source_param_names(source_text, last ? last + 1 : bname, srcnames, 64);
        free(plain);
    }
    for (unsigned i = 0; i < o->nparams; i++) {
        const struct smem_param_arg *pa = &o->params[i];
        int idx = -1;
        for (unsigned j = 0; j < nsrc && j < f->nparams; j++)
            if (!strcmp(srcnames[j], pa->name))
                idx = (int)j;
        for (unsigned j = 0; idx < 0 && j < f->nparams; j++)
            if (!strcmp(f->syms[j].name, pa->name))
                idx = (int)j;
        if (idx < 0 && pa->name[0] && strspn(pa->name, "0123456789") == strlen(pa->name)) {
            unsigned long v = strtoul(pa->name, NULL, 10);
            if (v < f->nparams)
                idx = (int)v;
        }
        if (idx < 0)
            continue; /* another kernel's parameter (every kernel of a file shares --param) */
        if (parse_param_value(pa->value, f->syms[idx].type, &pv[idx].bits)) {
            free(pv);
            smem_error_set(err, NULL, 0, 0, "--param %s=%s: not a value for a parameter of type %s",
                           pa->name, pa->value,
                           f->syms[idx].type == PT_F32 ? "float" : f->syms[idx].type == PT_F64 ? "double" : "integer");
            return -2;
        }
        pv[idx].set = 1;
    }
    l.params = pv;
    l.nparams = f->nparams;
    if (smem_cta_check_launch(p, &l, err)) {
        free(pv);
        return -2;
    }
    struct smem_launch_options lo = {o->banks, 1, o->hazards, o->record};
    struct smem_cta_result res;
    int rc = smem_launch_analyze(p, &l, &lo, k, &res, err);
    /* the scalar parameters left unknown, by source name where the source says it */
    char unset[200] = "";
    for (uint32_t j = 0; j < f->nparams; j++) {
        if (pv[j].set || p->param_is_ptr[j])
            continue;
        size_t ul = strlen(unset);
        snprintf(unset + ul, sizeof unset - ul, "%s%s", ul ? ", " : "",
                 j < nsrc ? srcnames[j] : f->syms[j].name);
    }
    free(pv);
    if (rc)
        return -1;
    if (!res.complete) {
        const struct smem_ptx_insn *in = &f->insns[res.unknown.insn];
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
                          const struct smem_analyze_options *o, struct smem_analysis **out,
                          struct smem_error *err);

int smem_analyze_ptx(const char *ptx, size_t len, const char *ptx_name, const char *source,
                     const struct smem_analyze_options *o, struct smem_analysis **out,
                     struct smem_error *err)
{
    *out = NULL;
    struct smem_analysis *an = calloc(1, sizeof *an);
    if (!an)
        return smem_error_set(err, NULL, 0, 0, "out of memory");
    an->source = strdup(source ? source : ptx_name);
    if (smem_ptx_parse(ptx, len, ptx_name, &an->module, err)) {
        smem_analysis_free(an);
        return -1;
    }
    an->owns_module = 1;
    return analyze_module(an, ptx_name, source, o, out, err);
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
    return analyze_module(an, name, source, o, out, err);
}

static int analyze_module(struct smem_analysis *an, const char *ptx_name, const char *source,
                          const struct smem_analyze_options *o, struct smem_analysis **out,
                          struct smem_error *err)
{
    const struct smem_ptx_module *m = an->module;
    char *source_text = NULL;
    if (source && strcmp(source, ptx_name))
        source_text = smem_read_file(source, NULL);
    /* every entry, demangled */
    const char **syms = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *syms);
    char **dem = calloc(m->nfuncs ? m->nfuncs : 1, sizeof *dem);
    uint32_t ne = 0;
    for (uint32_t i = 0; syms && i < m->nfuncs; i++)
        if (m->funcs[i].is_entry && (m->funcs[i].ninsns || m->funcs[i].error))
            syms[ne++] = m->funcs[i].name;
    int rc = 0, first_rc = 0;
    uint32_t nfailed = 0;
    if (!syms || !dem) {
        rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    smem_demangle(syms, ne, dem);
    an->kernels = calloc(ne ? ne : 1, sizeof *an->kernels);
    if (!an->kernels) {
        rc = smem_error_set(err, NULL, 0, 0, "out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < ne; i++) {
        char *name = strip_params(dem[i]);
        if (!name) {
            rc = smem_error_set(err, NULL, 0, 0, "out of memory");
            goto done;
        }
        if (o->kernel && !kernel_matches(o->kernel, syms[i], dem[i], name)) {
            free(name);
            continue;
        }
        struct smem_kernel_report *k = &an->kernels[an->nkernels++];
        k->symbol = strdup(syms[i]);
        k->name = name;
        /* One kernel that cannot be read or run is reported with its reason; the others go on.
         * Only when every kernel fails does the analysis fail, with the first one's error. */
        const struct smem_ptx_func *fn = smem_ptx_find(m, syms[i]);
        struct smem_error kerr;
        memset(&kerr, 0, sizeof kerr);
        int r;
        if (fn->error) {
            kerr = *fn->error;
            if (fn->error_line && fn->error_file < m->nfiles && m->files[fn->error_file]) {
                size_t ml = strlen(kerr.msg);
                snprintf(kerr.msg + ml, sizeof kerr.msg - ml, " (source %s:%u)",
                         smem_base_name(m->files[fn->error_file]), (unsigned)fn->error_line);
            }
            r = -1;
        } else {
            r = analyze_kernel(an, fn, source_text, o, k, &kerr);
        }
        if (r) {
            char buf[800];
            k->error = strdup(smem_error_format(&kerr, buf, sizeof buf));
            k->complete = 0;
            k->nsites = 0; /* whatever a failed run counted is not a result */
            memset(&k->ld, 0, sizeof k->ld);
            memset(&k->st, 0, sizeof k->st);
            memset(&k->atom, 0, sizeof k->atom);
            if (!nfailed++) {
                first_rc = r;
                if (err)
                    *err = kerr;
            }
        }
    }
    if (an->nkernels && nfailed == an->nkernels) {
        rc = first_rc;
        goto done;
    }
    if (!an->nkernels) {
        char list[300] = "";
        for (uint32_t i = 0; i < ne; i++) {
            size_t l = strlen(list);
            snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "", dem[i]);
        }
        if (o->kernel)
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0,
                                "no kernel named '%s' (kernels: %s)", o->kernel, ne ? list : "none");
        else
            rc = smem_error_set(err, source ? source : ptx_name, 0, 0, "no kernel (__global__ "
                                "function) to analyse");
        if (o->kernel && ne)
            rc = -2;
    }
done:
    for (uint32_t i = 0; dem && i < ne; i++)
        free(dem[i]);
    free(dem);
    free(syms);
    free(source_text);
    if (rc) {
        smem_analysis_free(an);
        return rc;
    }
    *out = an;
    return 0;
}

int smem_analyze_file(const char *path, const struct smem_analyze_options *o,
                      struct smem_analysis **out, struct smem_error *err)
{
    struct stat st;
    *out = NULL;
    if (stat(path, &st) || !S_ISREG(st.st_mode))
        return smem_error_set(err, path, 0, 0, "cannot read: %s",
                              errno ? strerror(errno) : "not a regular file");
    size_t n = strlen(path), len = 0;
    int is_ptx = n > 4 && !strcmp(path + n - 4, ".ptx");
    char *text = is_ptx ? smem_read_file(path, &len) : smem_compile_cu(path, o, &len, err);
    if (!text) {
        if (is_ptx)
            smem_error_set(err, path, 0, 0, "cannot read: %s", strerror(errno));
        return -1;
    }
    int rc = smem_analyze_ptx(text, len, is_ptx ? path : "<nvcc output>", is_ptx ? NULL : path, o,
                              out, err);
    free(text);
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
