/* sol_bench.c: the speed-of-light runners: for every case, fill the input on the device, run each
 * method once on a poisoned output and check it exactly, time it (harness.h: median of reps, CUDA
 * events, after warm-up), check again, and append a row. Peers: memcpy, cuBLAS geam, CUB, torch.
 * One context (fill, poison, check, time) and its two users, transpose and reduce. */
#include "smemlab/gpu/sol.h"
#include "smemlab/gpu/harness.h"
#include "sol_peers.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Our sums are launched as smem_sol_reduce_launch_of (sol.c) says for the form asked, our transposes as
 * smem_sol_transpose_launch_tuned (sol.c) says, with the candidates picked on this device (tune()); a
 * launch shape out of step with the kernel leaves output unwritten, which the exact check reports. */
enum {
    DOC_THREADS = 1024,
    MAX_SETS = 16
};

enum tmethod { T_MEMCPY, T_SMEMLAB, T_NAIVE, T_TILE, T_PAD, T_SWIZZLE, T_CUBLAS, T_COUNT };
static const char *const tmethod_names[T_COUNT] = {"memcpy", "smemlab", "naive", "tile", "pad", "swizzle", "cublas"};
enum rmethod { R_MEMCPY, R_SMEMLAB, R_CUB, R_INTERLEAVED, R_SEQUENTIAL, R_COUNT };
static const char *const rmethod_names[R_COUNT] = {"memcpy", "smemlab", "cub", "interleaved", "sequential"};

struct ctx {
    struct smem_gpu *g;
    const struct smem_gpu_info *info;
    const struct smem_sol_opts *o;
    struct sol_peers peers;
    int have_cublas, have_cub;
    smem_gpu_module mod;
    smem_gpu_function scrub_fill; /* the module's 4-byte fill kernel, run over the scrub buffer */
    smem_gpu_ptr scrub, bad;
    size_t scrub_bytes;
    smem_gpu_event e0, e1;
    char *err;
    size_t errlen;
    int status;
};

static void note(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct ctx *c, const char *fmt, ...)
{
    if (!c->o->progress)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    c->o->progress(c->o->progress_ctx, msg);
}

/* Records a GPU failure (first one wins) and returns its status. */
static int gfail(struct ctx *c, int st, const char *what)
{
    if (c->status == SMEM_GPU_OK) {
        c->status = st ? st : SMEM_GPU_FAILED;
        snprintf(c->err, c->errlen, "%s: %s", what, smem_gpu_error(c->g));
    }
    return c->status;
}

static int efail(struct ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int efail(struct ctx *c, const char *fmt, ...)
{
    if (c->status == SMEM_GPU_OK) {
        c->status = SMEM_GPU_FAILED;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(c->err, c->errlen, fmt, ap);
        va_end(ap);
    }
    return c->status;
}

static int push_row(struct smem_sol_results *res, const struct smem_sol_row *row)
{
    if (res->n == res->cap) {
        size_t cap = res->cap ? 2 * res->cap : 64;
        struct smem_sol_row *p = realloc(res->rows, cap * sizeof *p);
        if (!p)
            return -1;
        res->rows = p;
        res->cap = cap;
    }
    res->rows[res->n++] = *row;
    return 0;
}

static int fn(struct ctx *c, const char *name, smem_gpu_function *f)
{
    int st = smem_gpu_function_get(c->g, c->mod, name, f);
    return st ? gfail(c, st, name) : 0;
}

static int launch(struct ctx *c, smem_gpu_function f, unsigned gx, unsigned gy, unsigned bx, unsigned by, void **args,
                  const char *what)
{
    const unsigned grid[3] = {gx, gy, 1}, block[3] = {bx, by, 1};
    int st = smem_gpu_launch(c->g, f, grid, block, 0, args);
    return st ? gfail(c, st, what) : 0;
}

/* time_runs' run: call i on buffer set i mod nsets */
struct rotation {
    struct ctx *c;
    int (*run)(struct ctx *, void *, int);
    void *arg;
    int nsets;
};

static int run_rotated(void *p, int i)
{
    const struct rotation *rt = p;
    return rt->run(rt->c, rt->arg, i % rt->nsets);
}

/* Times run(arg, set) through the harness (harness.h: the median of o->reps event-timed calls after
 * o->warmup untimed ones), rotating over nsets buffer sets. The L2 is first filled with unrelated
 * lines (ordinary stores over twice its size), so no method starts with input lines an earlier
 * method left behind: a method whose loads are marked evict-first would otherwise keep hitting
 * them, run after run. */
static int time_runs(struct ctx *c, int (*run)(struct ctx *, void *, int), void *arg, int nsets,
                     struct smem_sol_row *row)
{
    unsigned long long words = c->scrub_bytes / 4;
    uint32_t seed = 1;
    void *sargs[] = {&c->scrub, &words, &seed};
    if (launch(c, c->scrub_fill, (unsigned)c->info->sms * 8, 1, 256, 1, sargs, "L2 scrub"))
        return c->status;
    struct rotation rt = {c, run, arg, nsets};
    struct smem_gpu_times t;
    switch (smem_gpu_time_runs(c->g, c->e0, c->e1, c->o->warmup, c->o->reps, run_rotated, &rt, &t)) {
    case SMEM_GPU_TIMED:
        break;
    case SMEM_GPU_TIME_WARMUP:
        return gfail(c, SMEM_GPU_FAILED, "warm-up");
    case SMEM_GPU_TIME_NOMEM:
        return efail(c, "out of memory");
    default: /* run() reported its own failure; an event's is the timing's */
        return c->status ? c->status : gfail(c, SMEM_GPU_FAILED, "timing");
    }
    row->reps = t.reps;
    row->median_ms = t.median_ms;
    row->min_ms = t.min_ms;
    row->max_ms = t.max_ms;
    return 0;
}

static int sets_for(const struct ctx *c, size_t working_bytes)
{
    size_t want = 2 * (size_t)c->info->l2_bytes;
    if (working_bytes == 0 || working_bytes >= want)
        return 1;
    size_t k = (want + working_bytes - 1) / working_bytes;
    return k > MAX_SETS ? MAX_SETS : (int)k;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Half a second of memory traffic before anything is timed: an idle GPU starts at low clocks, and
 * the first case would otherwise be measured while they ramp up. */
static int warm_gpu(struct ctx *c)
{
    unsigned long long words = c->scrub_bytes / 4;
    uint32_t seed = 2;
    void *args[] = {&c->scrub, &words, &seed};
    const double start = now_s();
    while (now_s() - start < 0.5) {
        for (int i = 0; i < 50; ++i)
            if (launch(c, c->scrub_fill, (unsigned)c->info->sms * 8, 1, 256, 1, args, "warm-up"))
                return c->status;
        if (smem_gpu_sync(c->g))
            return gfail(c, SMEM_GPU_FAILED, "warm-up");
    }
    return 0;
}

static int ctx_open(struct ctx *c, struct smem_gpu *g, const struct smem_sol_opts *o, const char *module, char *err,
                    size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->g = g;
    c->o = o;
    c->info = smem_gpu_info(g);
    c->err = err;
    c->errlen = errlen;
    if (o->reps < 1 || o->warmup < 0)
        return efail(c, "reps must be at least 1 and warm-up at least 0");
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.fatbin", o->kernel_dir ? o->kernel_dir : ".", module);
    int st = smem_gpu_module_load(g, path, &c->mod);
    if (st)
        return gfail(c, st, path);
    char why[512];
    if (sol_peers_open_copy(&c->peers, why, sizeof why))
        return efail(c, "%s", why);
    c->scrub_bytes = 2 * (size_t)(c->info->l2_bytes > 0 ? c->info->l2_bytes : 64 << 20);
    if ((st = smem_gpu_alloc(g, c->scrub_bytes, &c->scrub)) || (st = smem_gpu_alloc(g, 8, &c->bad)))
        return gfail(c, st, "allocating scratch");
    if ((st = smem_gpu_event_create(g, &c->e0)) || (st = smem_gpu_event_create(g, &c->e1)))
        return gfail(c, st, "creating events");
    if (fn(c, strcmp(module, "sol_reduce") == 0 ? "sol_fill_i32" : "sol_fill_f32", &c->scrub_fill))
        return c->status;
    return warm_gpu(c);
}

static void ctx_close(struct ctx *c)
{
    if (!c->g)
        return;
    if (c->e0)
        smem_gpu_event_destroy(c->g, c->e0);
    if (c->e1)
        smem_gpu_event_destroy(c->g, c->e1);
    if (c->scrub)
        smem_gpu_free(c->g, c->scrub);
    if (c->bad)
        smem_gpu_free(c->g, c->bad);
    if (c->mod)
        smem_gpu_module_unload(c->g, c->mod);
    sol_peers_close(&c->peers);
}

/* Appends spec to a comma-separated list (*len: its length without the terminator). */
static int spec_add(char **list, size_t *len, const char *spec)
{
    size_t k = strlen(spec);
    char *p = realloc(*list, *len + k + 2);
    if (!p)
        return -1;
    if (*len)
        p[(*len)++] = ',';
    memcpy(p + *len, spec, k + 1);
    *len += k;
    *list = p;
    return 0;
}

/* ---- Transpose ---------------------------------------------------------------------------------- */

struct tcase {
    enum smem_sol_dtype dt;
    long long rows, cols;
    size_t elem, n, bytes;
    uint32_t seed;
    int nsets, method;
    unsigned pipe_grid, pipe_block; /* the pipelined kernel's persistent launch */
    struct smem_sol_launch plan;     /* ours otherwise: kernel, grid and block by shape and alignment */
    smem_gpu_ptr in[MAX_SETS], out[MAX_SETS];
    smem_gpu_function fill, check, k[T_COUNT];
    char kname[T_COUNT][48];
};

static int t_run(struct ctx *c, void *arg, int set)
{
    struct tcase *t = arg;
    smem_gpu_ptr out = t->out[set], in = t->in[set];
    int rows = (int)t->rows, cols = (int)t->cols;
    void *args[] = {&out, &in, &rows, &cols};
    switch (t->method) {
    case T_MEMCPY: {
        int r = c->peers.memcpy_dtod(out, in, t->bytes, NULL);
        return r ? efail(c, "cuMemcpyDtoDAsync failed (CUresult %d)", r) : 0;
    }
    case T_SMEMLAB:
        if (c->o->pipelined)
            return launch(c, t->k[T_SMEMLAB], t->pipe_grid, 1, t->pipe_block, 1, args, "sol_transpose_pipelined");
        return launch(c, t->k[T_SMEMLAB], t->plan.grid[0], t->plan.grid[1], t->plan.block[0], 1, args, t->plan.kernel);
    case T_CUBLAS: {
        int r = sol_peers_geam(&c->peers, t->elem, out, in, rows, cols);
        return r ? efail(c, "cuBLAS geam failed (status %d)", r) : 0;
    }
    default:
        return launch(c, t->k[t->method], (unsigned)((cols + 31) / 32), (unsigned)((rows + 31) / 32), 32, 8, args,
                      tmethod_names[t->method]);
    }
}

/* Elements of the output of set `set` that differ from the transpose (or, for memcpy, the copy)
 * of the input, recomputed on the device from (index, seed); -1 on a GPU failure. */
static long long t_check(struct ctx *c, struct tcase *t, int set)
{
    smem_gpu_ptr out = t->out[set], bad = c->bad;
    int rows = (int)t->rows, cols = (int)t->cols;
    if (t->method == T_MEMCPY) {
        cols = (int)t->n;
        rows = 1;
    }
    uint32_t seed = t->seed;
    void *args[] = {&out, &rows, &cols, &seed, &bad};
    unsigned long long count = 0;
    if (smem_gpu_memset(c->g, bad, 0, 8))
        return gfail(c, SMEM_GPU_FAILED, "check"), -1;
    if (launch(c, t->check, (unsigned)c->info->sms * 8, 1, 256, 1, args, "sol_check"))
        return -1;
    if (smem_gpu_download(c->g, &count, bad, sizeof count))
        return gfail(c, SMEM_GPU_FAILED, "check"), -1;
    return (long long)count;
}

static int t_case(struct ctx *c, struct tcase *t, struct smem_sol_results *res)
{
    const char *dn = smem_sol_dtype_name(t->dt);
    for (int m = 0; m < T_COUNT; ++m) {
        if (m >= T_NAIVE && m <= T_SWIZZLE && !c->o->baselines)
            continue;
        if (m == T_CUBLAS && (!c->have_cublas || t->elem == 2))
            continue; /* cuBLAS has no 16-bit geam */
        t->method = m;
        struct smem_sol_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.bench, sizeof row.bench, "transpose");
        snprintf(row.dtype, sizeof row.dtype, "%s", dn);
        snprintf(row.method, sizeof row.method, "%s", tmethod_names[m]);
        snprintf(row.kernel, sizeof row.kernel, "%s", t->kname[m]);
        row.rows = t->rows;
        row.cols = t->cols;
        const int last = t->nsets - 1;
        if (smem_gpu_memset(c->g, t->out[last], 0xFF, t->bytes))
            return gfail(c, SMEM_GPU_FAILED, "poisoning the output");
        if (t_run(c, t, last) || smem_gpu_sync(c->g))
            return c->status ? c->status : gfail(c, SMEM_GPU_FAILED, tmethod_names[m]);
        long long bad1 = t_check(c, t, last);
        if (bad1 < 0 || time_runs(c, t_run, t, t->nsets, &row))
            return c->status;
        long long bad2 = t_check(c, t, (c->o->reps - 1) % t->nsets);
        if (bad2 < 0)
            return c->status;
        row.verified = bad1 == 0 && bad2 == 0;
        if (!row.verified)
            snprintf(row.note, sizeof row.note, "%lld elements wrong before timing, %lld after", bad1, bad2);
        row.gbps = 2.0 * (double)t->bytes / (row.median_ms * 1e-3) / 1e9;
        note(c, "transpose %s %lldx%lld %-8s %9.4f ms %8.1f GB/s %s", dn, t->rows, t->cols, row.method,
             row.median_ms, row.gbps, row.verified ? "verified" : row.note);
        if (push_row(res, &row))
            return efail(c, "out of memory");
    }
    return 0;
}

struct torch_ctx {
    struct ctx *c;
    struct smem_sol_results *res;
    const long long *ns;
    const double *refs; /* reduce: per (dtype slot, n) */
    size_t nns;
};

static void torch_line(void *arg, const char *text)
{
    struct torch_ctx *tc = arg;
    struct smem_sol_row row;
    memset(&row, 0, sizeof row);
    char dt[8], val[64];
    double med, mn, mx;
    long long a, b;
    int ok;
    snprintf(row.method, sizeof row.method, "torch");
    if (sscanf(text, "transpose %7s %lld %lld %lf %lf %lf %d", dt, &a, &b, &med, &mn, &mx, &ok) == 7) {
        int t = smem_sol_dtype_parse(dt);
        if (t < 0 || med <= 0)
            return;
        snprintf(row.bench, sizeof row.bench, "transpose");
        row.rows = a;
        row.cols = b;
        row.verified = ok == 1;
        if (!row.verified)
            snprintf(row.note, sizeof row.note, "torch's output differs from the transpose of its input");
        row.gbps = 2.0 * (double)a * (double)b * (double)smem_sol_dtype_bytes((enum smem_sol_dtype)t) / (med * 1e-3) / 1e9;
    } else if (sscanf(text, "reduce %7s %lld %lf %lf %lf %63s", dt, &a, &med, &mn, &mx, val) == 6) {
        int t = smem_sol_dtype_parse(dt);
        if (t < 0 || med <= 0)
            return;
        snprintf(row.bench, sizeof row.bench, "reduce");
        row.rows = a;
        row.cols = 1;
        double ref = 0;
        int found = 0;
        for (size_t i = 0; i < tc->nns; ++i)
            if (tc->ns[i] == a) {
                ref = tc->refs[2 * i + (t == SMEM_SOL_I32 ? 0 : 1)];
                found = 1;
            }
        if (!found)
            return;
        if (t == SMEM_SOL_I32)
            row.verified = smem_sol_sum_i32_ok(strtoll(val, NULL, 10), (int64_t)ref);
        else
            row.verified = smem_sol_sum_f32_ok(strtod(val, NULL), ref);
        if (!row.verified)
            snprintf(row.note, sizeof row.note, "torch's sum %s, reference %.17g", val, ref);
        row.gbps = (double)a * 4.0 / (med * 1e-3) / 1e9;
    } else {
        note(tc->c, "torch: %.*s", (int)strcspn(text, "\n"), text);
        return;
    }
    snprintf(row.dtype, sizeof row.dtype, "%s", smem_sol_dtype_name((enum smem_sol_dtype)smem_sol_dtype_parse(dt)));
    row.reps = tc->c->o->reps;
    row.median_ms = med;
    row.min_ms = mn;
    row.max_ms = mx;
    note(tc->c, "%s %s %lldx%lld torch    %9.4f ms %8.1f GB/s %s", row.bench, row.dtype, row.rows, row.cols,
         row.median_ms, row.gbps, row.verified ? "verified" : row.note);
    if (push_row(tc->res, &row))
        efail(tc->c, "out of memory");
}

static void run_torch(struct ctx *c, const char *tspecs, const char *rspecs, struct torch_ctx *tc)
{
    if (!c->o->torch_script || (!tspecs && !rspecs))
        return;
    note(c, "torch: running %s", c->o->torch_script);
    int st = sol_torch_run(c->o->python ? c->o->python : "python3", c->o->torch_script, c->o->reps, c->o->warmup,
                           tspecs ? tspecs : "", rspecs ? rspecs : "", torch_line, tc);
    if (st == 3)
        note(c, "torch: not importable or no CUDA device; torch left out");
    else if (st != 0)
        note(c, "torch: the script failed (exit %d); its rows may be missing", st);
}

static const char *const tsuffix[] = {"f32", "f16", "f64"};

/* ---- Configuration at first use (issue 34) ------------------------------------------------------
 * Where a kind has candidates (sol.h), each is run on the kind's probe shape, checked on every
 * element, and timed (L2 scrubbed, 5 warm-ups, median of 30, four rounds in alternating orders, the
 * medians averaged); the fastest is kept if it beats candidate 0 by more than SMEM_SOL_TUNE_MARGIN.
 * The pick is appended to the cache under a key of the device's name, the driver and a hash of the
 * fatbin, so a new device, driver or kernel build measures again; o->tune 2 measures whatever the
 * cache holds. */
enum { TUNE_REPS = 30, TUNE_WARMUP = 5, TUNE_ROUNDS = 4 };

static int tune_key(struct ctx *c, char *key, size_t len)
{
    char path[4096], driver[64];
    snprintf(path, sizeof path, "%s/sol_transpose.fatbin", c->o->kernel_dir ? c->o->kernel_dir : ".");
    FILE *f = fopen(path, "rb");
    if (!f)
        return efail(c, "%s: cannot read the kernels to key the tuning cache", path);
    uint64_t h = 0xcbf29ce484222325ULL;
    unsigned char buf[65536];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0)
        h = smem_sol_fnv1a(buf, k, h);
    fclose(f);
    smem_sol_driver_release(driver, sizeof driver);
    snprintf(key, len, "%s|%s|%016llx", c->info->name, *driver ? driver : "?", (unsigned long long)h);
    for (char *p = key; *p; ++p)
        if (*p == '\t' || *p == '\n')
            *p = ' ';
    return 0;
}

static void tune_read(struct ctx *c, const char *key, struct smem_sol_tuning *tu)
{
    FILE *f = c->o->tune_cache ? fopen(c->o->tune_cache, "r") : NULL;
    if (!f)
        return;
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        ++lineno;
        if (smem_sol_tune_parse(line, key, tu) < 0)
            note(c, "tuning cache %s:%d: not a pick of this build; ignored", c->o->tune_cache, lineno);
    }
    fclose(f);
}

/* mkdir -p of the cache file's folder; the append then says whether it worked */
static void tune_write(struct ctx *c, const char *line)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", c->o->tune_cache);
    for (char *p = dir + 1; *p; ++p)
        if (*p == '/') {
            *p = '\0';
            mkdir(dir, 0755);
            *p = '/';
        }
    FILE *f = fopen(c->o->tune_cache, "a");
    if (!f || fprintf(f, "%s\n", line) < 0 || fclose(f)) {
        note(c, "tuning cache %s: cannot write; the pick holds for this run only", c->o->tune_cache);
        return;
    }
}

/* Measures the candidates of kind k for dtype dt on its probe shape into tu. */
static int tune_kind(struct ctx *c, enum smem_sol_dtype dt, int k, const char *key, struct smem_sol_tuning *tu)
{
    const char *kind = smem_sol_kind_name(k), *sx = tsuffix[dt];
    struct tcase t;
    memset(&t, 0, sizeof t);
    t.dt = dt;
    t.elem = smem_sol_dtype_bytes(dt);
    const int slot = dt; /* f32 0, f16 1, f64 2 */
    const int n = smem_sol_transpose_candidates(t.elem, kind);
    if (smem_sol_tune_probe(t.elem, kind, &t.rows, &t.cols))
        return efail(c, "no probe shape for %s", kind);
    t.n = (size_t)t.rows * (size_t)t.cols;
    t.bytes = t.n * t.elem;
    t.seed = 0x7e57u + (uint32_t)k;
    t.nsets = sets_for(c, 2 * t.bytes);
    t.method = T_SMEMLAB;
    char name[64];
    int bad = 0, st;
    for (int s = 0; s < t.nsets && !bad; ++s)
        if ((st = smem_gpu_alloc(c->g, t.bytes, &t.in[s])) || (st = smem_gpu_alloc(c->g, t.bytes, &t.out[s])))
        {
            gfail(c, st, "allocating the tuning probe");
            bad = 1;
        }
    snprintf(name, sizeof name, "sol_fill_%s", sx);
    bad = bad || fn(c, name, &t.fill);
    snprintf(name, sizeof name, "sol_check_%s", sx);
    bad = bad || fn(c, name, &t.check);
    for (int s = 0; s < t.nsets && !bad; ++s) {
        unsigned long long ne = t.n;
        void *args[] = {&t.in[s], &ne, &t.seed};
        bad = launch(c, t.fill, (unsigned)c->info->sms * 8, 1, 256, 1, args, "sol_fill");
    }
    double ms[SMEM_SOL_MAX_CANDIDATES] = {0};
    struct smem_sol_launch plans[SMEM_SOL_MAX_CANDIDATES];
    smem_gpu_function fns[SMEM_SOL_MAX_CANDIDATES];
    int ok[SMEM_SOL_MAX_CANDIDATES] = {0};
    for (int i = 0; i < n && !bad; ++i) {
        if (smem_sol_transpose_launch_cand(t.elem, t.rows, t.cols, kind, i, t.in[0], t.out[0], &plans[i])) {
            efail(c, "tuning %s %s: candidate %d cannot take the probe shape", kind, sx, i);
            bad = 1;
            break;
        }
        bad = fn(c, plans[i].kernel, &fns[i]);
        if (bad)
            break;
        /* checked on every element before it is timed, like every row of the bench */
        t.plan = plans[i];
        t.k[T_SMEMLAB] = fns[i];
        const int last = t.nsets - 1;
        long long wrong = -1;
        if (!smem_gpu_memset(c->g, t.out[last], 0xFF, t.bytes) && !t_run(c, &t, last))
            wrong = t_check(c, &t, last);
        if (c->status)
            bad = 1;
        else if (wrong != 0)
            note(c, "tuning %s %s: %s is not exact on %lldx%lld (%lld elements); left out", kind, sx, plans[i].kernel,
                 t.rows, t.cols, wrong);
        ok[i] = wrong == 0;
    }
    struct smem_sol_opts o2 = *c->o;
    o2.reps = TUNE_REPS;
    o2.warmup = TUNE_WARMUP;
    const struct smem_sol_opts *saved = c->o;
    c->o = &o2;
    for (int r = 0; r < TUNE_ROUNDS && !bad; ++r)
        for (int j = 0; j < n && !bad; ++j) {
            const int i = r % 2 ? n - 1 - j : j;
            if (!ok[i])
                continue;
            t.plan = plans[i];
            t.k[T_SMEMLAB] = fns[i];
            struct smem_sol_row row;
            memset(&row, 0, sizeof row);
            bad = time_runs(c, t_run, &t, t.nsets, &row) != 0;
            ms[i] += row.median_ms / TUNE_ROUNDS;
        }
    c->o = saved;
    for (int s = 0; s < t.nsets; ++s) {
        if (t.in[s])
            smem_gpu_free(c->g, t.in[s]);
        if (t.out[s])
            smem_gpu_free(c->g, t.out[s]);
    }
    if (bad)
        return c->status ? c->status : efail(c, "tuning %s %s failed", kind, sx);
    for (int i = 0; i < n; ++i)
        if (!ok[i])
            ms[i] = 0;
    const int pick = ok[0] ? smem_sol_tune_pick(ms, n, SMEM_SOL_TUNE_MARGIN) : 0;
    tu->pick[k][slot] = (unsigned char)pick;
    tu->known[k][slot] = 2;
    memcpy(tu->ms[k][slot], ms, sizeof ms);
    char line[1024], list[512] = "";
    for (int i = 0, at = 0; i < n && at >= 0 && (size_t)at < sizeof list; ++i)
        at += snprintf(list + at, sizeof list - (size_t)at, "%s%s %.4f ms", i ? ", " : "", plans[i].kernel, ms[i]);
    note(c, "tuning %s %s on %lldx%lld: %s; picked %s", *kind ? kind : "tiled", sx, t.rows, t.cols, list,
         plans[pick].kernel);
    if (c->o->tune_cache && !smem_sol_tune_format(line, sizeof line, key, k, t.elem, plans[pick].kernel, ms, n))
        tune_write(c, line);
    return 0;
}

/* The picks for the kinds the shapes take, from the cache or measured now. */
static int tune(struct ctx *c, const enum smem_sol_dtype *dtypes, size_t ndtypes, const struct smem_sol_shape *shapes,
                size_t nshapes, struct smem_sol_tuning *tu)
{
    memset(tu, 0, sizeof *tu);
    if (!c->o->tune || c->o->pipelined)
        return 0;
    char key[512];
    if (tune_key(c, key, sizeof key))
        return c->status;
    if (c->o->tune == 1)
        tune_read(c, key, tu);
    for (size_t d = 0; d < ndtypes; ++d) {
        const size_t elem = smem_sol_dtype_bytes(dtypes[d]);
        for (int k = 0; k < SMEM_SOL_KINDS; ++k) {
            int used = 0;
            for (size_t s = 0; s < nshapes && !used; ++s) {
                /* cudaMalloc's pointers are 256-byte aligned: the shape alone decides the kind */
                const char *kind = smem_sol_transpose_kind(elem, shapes[s].rows, shapes[s].cols, 0, 0);
                used = kind && smem_sol_kind_index(kind) == k;
            }
            if (!used || smem_sol_transpose_candidates(elem, smem_sol_kind_name(k)) < 2)
                continue;
            if (tu->known[k][dtypes[d]]) {
                note(c, "tuning %s %s: from the cache (%s)", *smem_sol_kind_name(k) ? smem_sol_kind_name(k) : "tiled",
                     tsuffix[dtypes[d]], c->o->tune_cache);
                continue;
            }
            if (tune_kind(c, dtypes[d], k, key, tu))
                return c->status;
        }
    }
    return 0;
}

int smem_sol_bench_transpose(struct smem_gpu *g, const struct smem_sol_opts *o, const enum smem_sol_dtype *dtypes,
                             size_t ndtypes, const struct smem_sol_shape *shapes, size_t nshapes,
                             struct smem_sol_results *res, char *err, size_t errlen)
{
    struct ctx c;
    char why[512];
    char *tspecs = NULL;
    size_t tlen = 0;
    if (ctx_open(&c, g, o, "sol_transpose", err, errlen))
        goto done;
    for (size_t i = 0; i < nshapes; ++i)
        if (shapes[i].rows < 1 || shapes[i].cols < 1 || shapes[i].rows * shapes[i].cols > 0x7FFFFFFFLL ||
            shapes[i].rows > 65535LL * 32) {
            efail(&c, "transpose %lldx%lld: rows and cols must be at least 1, rows at most 2097120 and "
                      "rows x cols below 2^31", shapes[i].rows, shapes[i].cols);
            goto done;
        }
    for (size_t i = 0; i < ndtypes; ++i)
        if (dtypes[i] == SMEM_SOL_I32) {
            efail(&c, "transpose takes f32, f16 or f64");
            goto done;
        }
    if (tune(&c, dtypes, ndtypes, shapes, nshapes, &res->tuning))
        goto done;
    if (o->use_cublas) {
        c.have_cublas = sol_peers_open_cublas(&c.peers, why, sizeof why) == 0;
        if (!c.have_cublas)
            note(&c, "%s; cuBLAS left out", why);
    }
    for (size_t d = 0; d < ndtypes && !c.status; ++d) {
        for (size_t s = 0; s < nshapes && !c.status; ++s) {
            struct tcase t;
            memset(&t, 0, sizeof t);
            t.dt = dtypes[d];
            t.rows = shapes[s].rows;
            t.cols = shapes[s].cols;
            t.elem = smem_sol_dtype_bytes(t.dt);
            t.n = (size_t)t.rows * (size_t)t.cols;
            t.bytes = t.n * t.elem;
            t.seed = 0x5eed0000u + (uint32_t)t.rows * 31u + (uint32_t)t.cols;
            t.nsets = sets_for(&c, 2 * t.bytes);
            const char *sx = tsuffix[t.dt];
            char name[64];
            int bad = 0, st = 0;
            for (int k = 0; k < t.nsets && !bad; ++k)
                if ((st = smem_gpu_alloc(g, t.bytes, &t.in[k])) || (st = smem_gpu_alloc(g, t.bytes, &t.out[k]))) {
                    gfail(&c, st, "allocating the matrices");
                    bad = 1;
                }
            /* ours: by shape and alignment (every set is allocated alike, so set 0 speaks for all) */
            if (!bad && smem_sol_transpose_launch_tuned(t.elem, t.rows, t.cols, t.in[0], t.out[0], &res->tuning,
                                                        &t.plan)) {
                efail(&c, "transpose %s %lldx%lld: no launch for this shape", sx, t.rows, t.cols);
                bad = 1;
            }
            /* sol_transpose_<infix>_<dtype>; memcpy and cuBLAS have no kernel of ours */
            static const char *const infix[T_COUNT] = {NULL, "", "_naive", "_tile", "_pad", "_swizzle", NULL};
            for (int m = 0; m < T_COUNT && !bad; ++m)
                if (infix[m]) {
                    if (m == T_SMEMLAB && !o->pipelined)
                        snprintf(t.kname[m], sizeof t.kname[m], "%s", t.plan.kernel);
                    else
                        snprintf(t.kname[m], sizeof t.kname[m], "sol_transpose%s_%s",
                                 m == T_SMEMLAB ? "_pipelined" : infix[m], sx);
                    bad = fn(&c, t.kname[m], &t.k[m]);
                }
            if (!bad && o->pipelined) {
                /* persistent grid: as many blocks as are resident at once */
                struct smem_gpu_func_attrs fa;
                int per_sm = 0;
                int st2 = smem_gpu_function_attrs(g, t.k[T_SMEMLAB], &fa);
                if (!st2)
                    st2 = smem_gpu_occupancy(g, t.k[T_SMEMLAB], (unsigned)fa.max_threads_per_block, 0, &per_sm);
                if (st2 || per_sm < 1) {
                    gfail(&c, st2 ? st2 : SMEM_GPU_FAILED, "occupancy of the pipelined transpose");
                    bad = 1;
                } else {
                    t.pipe_block = (unsigned)fa.max_threads_per_block;
                    t.pipe_grid = (unsigned)(per_sm * c.info->sms);
                }
            }
            snprintf(name, sizeof name, "sol_fill_%s", sx);
            bad = bad || fn(&c, name, &t.fill);
            snprintf(name, sizeof name, "sol_check_%s", sx);
            bad = bad || fn(&c, name, &t.check);
            for (int k = 0; k < t.nsets && !bad; ++k) {
                unsigned long long n = t.n;
                void *args[] = {&t.in[k], &n, &t.seed};
                bad = launch(&c, t.fill, (unsigned)c.info->sms * 8, 1, 256, 1, args, "sol_fill");
            }
            /* set 0's device addresses too: where the buffers land can move a row (issue 34, 16384^2 f64) */
            note(&c, "transpose %s %lldx%lld: %zu MB in, %d buffer set%s (in 0x%llx, out 0x%llx); ours: %s%s", sx,
                 t.rows, t.cols, t.bytes >> 20, t.nsets, t.nsets > 1 ? "s" : "", (unsigned long long)t.in[0],
                 (unsigned long long)t.out[0], t.kname[T_SMEMLAB], o->pipelined ? " (persistent grid)" : "");
            if (!bad)
                t_case(&c, &t, res);
            for (int k = 0; k < t.nsets; ++k) {
                if (t.in[k])
                    smem_gpu_free(g, t.in[k]);
                if (t.out[k])
                    smem_gpu_free(g, t.out[k]);
            }
            char spec[96];
            snprintf(spec, sizeof spec, "%s:%lldx%lld:%u", sx, t.rows, t.cols, t.seed);
            if (!c.status && spec_add(&tspecs, &tlen, spec))
                efail(&c, "out of memory");
        }
    }
    if (!c.status) {
        struct torch_ctx tc = {&c, res, NULL, NULL, 0};
        run_torch(&c, tspecs, NULL, &tc);
    }
done:
    free(tspecs);
    ctx_close(&c);
    smem_sol_ratios(res);
    return c.status;
}

/* ---- Reduce ------------------------------------------------------------------------------------- */

struct rcase {
    enum smem_sol_dtype dt;
    long long n;
    size_t bytes;
    uint32_t seed;
    int nsets, method;
    smem_gpu_ptr in[MAX_SETS], copy[MAX_SETS], out, partials, ticket, s0, s1, tmp;
    size_t tmp_bytes;
    smem_gpu_function fill, best, il, sq, diff;
    struct smem_sol_reduce_launch how; /* our kernel's form and launch (the form asked) */
};

static int r_doc(struct ctx *c, struct rcase *r, smem_gpu_function f, int set)
{
    /* The documents' one-element-per-thread kernel, again over the partials until one is left. */
    smem_gpu_ptr src = r->in[set], bufs[2] = {r->s0, r->s1};
    long long m = r->n;
    int w = 0;
    while (m > 1) {
        long long blocks = (m + DOC_THREADS - 1) / DOC_THREADS;
        smem_gpu_ptr dst = blocks == 1 ? r->out : bufs[w];
        void *args[] = {&src, &dst, &m};
        if (launch(c, f, (unsigned)blocks, 1, DOC_THREADS, 1, args, "documents' reduction"))
            return c->status;
        src = dst;
        w ^= 1;
        m = blocks;
    }
    return 0;
}

static int r_run(struct ctx *c, void *arg, int set)
{
    struct rcase *r = arg;
    switch (r->method) {
    case R_MEMCPY: {
        int e = c->peers.memcpy_dtod(r->copy[set], r->in[set], r->bytes, NULL);
        return e ? efail(c, "cuMemcpyDtoDAsync failed (CUresult %d)", e) : 0;
    }
    case R_SMEMLAB: {
        long long n = r->n;
        void *args[] = {&r->in[set], &r->out, &r->partials, &r->ticket, &n};
        return launch(c, r->best, (unsigned)(c->info->sms * r->how.blocks_per_sm), 1, (unsigned)r->how.threads, 1, args,
                      "sol_reduce");
    }
    case R_CUB: {
        int e = (r->dt == SMEM_SOL_I32 ? c->peers.cub_sum_i32 : c->peers.cub_sum_f32)(r->in[set], r->out, r->n, r->tmp,
                                                                                      &r->tmp_bytes);
        return e ? efail(c, "CUB DeviceReduce::Sum failed (cudaError %d)", e) : 0;
    }
    case R_INTERLEAVED:
        return r_doc(c, r, r->il, set);
    default:
        return r_doc(c, r, r->sq, set);
    }
}

/* 1 if the result of the last call on set `set` is right, 0 if not (note filled), -1 on failure. */
static int r_check(struct ctx *c, struct rcase *r, int set, double ref, char *why, size_t whylen)
{
    if (r->method == R_MEMCPY) {
        unsigned long long words = r->bytes / 4, count = 0;
        void *args[] = {&r->copy[set], &r->in[set], &words, &c->bad};
        if (smem_gpu_memset(c->g, c->bad, 0, 8) ||
            launch(c, r->diff, (unsigned)c->info->sms * 8, 1, 256, 1, args, "sol_count_diff") ||
            smem_gpu_download(c->g, &count, c->bad, sizeof count))
            return c->status ? -1 : (gfail(c, SMEM_GPU_FAILED, "copy check"), -1);
        if (count)
            snprintf(why, whylen, "%llu words of the copy differ", count);
        return count == 0;
    }
    unsigned char got[4];
    if (smem_gpu_download(c->g, got, r->out, sizeof got))
        return gfail(c, SMEM_GPU_FAILED, "reading the sum"), -1;
    if (r->dt == SMEM_SOL_I32) {
        int32_t v;
        memcpy(&v, got, sizeof v);
        if (!smem_sol_sum_i32_ok(v, (int64_t)ref)) {
            snprintf(why, whylen, "sum %d, reference %.0f", v, ref);
            return 0;
        }
        return 1;
    }
    float v;
    memcpy(&v, got, sizeof v);
    if (!smem_sol_sum_f32_ok(v, ref)) {
        snprintf(why, whylen, "sum %.9g, reference %.17g (tolerance %g relative)", (double)v, ref, SMEM_SOL_F32_RTOL);
        return 0;
    }
    return 1;
}

static int r_case(struct ctx *c, struct rcase *r, double ref, struct smem_sol_results *res)
{
    const char *dn = smem_sol_dtype_name(r->dt);
    for (int m = 0; m < R_COUNT; ++m) {
        if ((m == R_INTERLEAVED || m == R_SEQUENTIAL) && !c->o->baselines)
            continue;
        if (m == R_CUB && !c->have_cub)
            continue;
        r->method = m;
        struct smem_sol_row row;
        memset(&row, 0, sizeof row);
        snprintf(row.bench, sizeof row.bench, "reduce");
        snprintf(row.dtype, sizeof row.dtype, "%s", dn);
        snprintf(row.method, sizeof row.method, "%s", rmethod_names[m]);
        if (m == R_SMEMLAB || m == R_INTERLEAVED || m == R_SEQUENTIAL)
            snprintf(row.kernel, sizeof row.kernel, "sol_reduce%s_%s",
                     m == R_SMEMLAB ? r->how.infix : m == R_INTERLEAVED ? "_interleaved" : "_sequential", dn);
        row.rows = r->n;
        row.cols = 1;
        const int last = r->nsets - 1;
        char why1[96] = "", why2[96] = "";
        if (smem_gpu_memset(c->g, r->out, 0xFF, 4) || (m == R_MEMCPY && smem_gpu_memset(c->g, r->copy[last], 0xFF, r->bytes)))
            return gfail(c, SMEM_GPU_FAILED, "poisoning the output");
        if (r_run(c, r, last) || smem_gpu_sync(c->g))
            return c->status ? c->status : gfail(c, SMEM_GPU_FAILED, rmethod_names[m]);
        int ok1 = r_check(c, r, last, ref, why1, sizeof why1);
        if (ok1 < 0 || time_runs(c, r_run, r, r->nsets, &row))
            return c->status;
        int ok2 = r_check(c, r, (c->o->reps - 1) % r->nsets, ref, why2, sizeof why2);
        if (ok2 < 0)
            return c->status;
        row.verified = ok1 && ok2;
        if (!row.verified)
            snprintf(row.note, sizeof row.note, "%.55s%s%.55s", why1, *why1 && *why2 ? "; after timing: " : "", why2);
        row.gbps = (m == R_MEMCPY ? 2.0 : 1.0) * (double)r->bytes / (row.median_ms * 1e-3) / 1e9;
        note(c, "reduce %s n=%lld %-11s %9.4f ms %8.1f GB/s %s", dn, r->n, row.method, row.median_ms, row.gbps,
             row.verified ? "verified" : row.note);
        if (push_row(res, &row))
            return efail(c, "out of memory");
    }
    return 0;
}

int smem_sol_bench_reduce(struct smem_gpu *g, const struct smem_sol_opts *o, const enum smem_sol_dtype *dtypes,
                          size_t ndtypes, const long long *ns, size_t nns, struct smem_sol_results *res, char *err,
                          size_t errlen)
{
    struct ctx c;
    char why[512];
    char *rspecs = NULL;
    size_t rlen = 0;
    double *refs = calloc(2 * (nns ? nns : 1), sizeof *refs);
    if (ctx_open(&c, g, o, "sol_reduce", err, errlen))
        goto done;
    if (!refs) {
        efail(&c, "out of memory");
        goto done;
    }
    for (size_t i = 0; i < nns; ++i)
        if (ns[i] < 1 || ns[i] > (1LL << 31)) {
            efail(&c, "reduce n=%lld: n must be between 1 and 2^31", ns[i]);
            goto done;
        }
    for (size_t i = 0; i < ndtypes; ++i)
        if (dtypes[i] != SMEM_SOL_I32 && dtypes[i] != SMEM_SOL_F32) {
            efail(&c, "reduce takes i32 or f32");
            goto done;
        }
    if (o->cub_lib) {
        c.have_cub = sol_peers_open_cub(&c.peers, o->cub_lib, why, sizeof why) == 0;
        if (!c.have_cub)
            note(&c, "%s; CUB left out", why);
    } else {
        note(&c, "no CUB wrapper (libsmemlab_cub.so is built when nvcc is present); CUB left out");
    }
    for (size_t d = 0; d < ndtypes && !c.status; ++d) {
        for (size_t s = 0; s < nns && !c.status; ++s) {
            struct rcase r;
            memset(&r, 0, sizeof r);
            r.dt = dtypes[d];
            r.n = ns[s];
            r.bytes = (size_t)r.n * 4;
            r.seed = 0xa11ce000u + (uint32_t)(r.n & 0xFFFF) + (uint32_t)(r.n >> 20);
            r.nsets = sets_for(&c, r.bytes);
            const int is_int = r.dt == SMEM_SOL_I32;
            r.how = smem_sol_reduce_launch_of(o->reduce_form, c.info->cc_major);
            if (o->reduce_form == SMEM_SOL_REDUCE_BULK && c.info->cc_major < 9) {
                efail(&c, "--form bulk needs a device of compute capability 9.0 or later (this one is %d.%d)",
                      c.info->cc_major, c.info->cc_minor);
                break;
            }
            char best_name[64];
            snprintf(best_name, sizeof best_name, "sol_reduce%s_%s", r.how.infix, is_int ? "i32" : "f32");
            int bad = fn(&c, is_int ? "sol_fill_i32" : "sol_fill_rf32", &r.fill) || fn(&c, best_name, &r.best) ||
                      fn(&c, is_int ? "sol_reduce_interleaved_i32" : "sol_reduce_interleaved_f32", &r.il) ||
                      fn(&c, is_int ? "sol_reduce_sequential_i32" : "sol_reduce_sequential_f32", &r.sq) ||
                      fn(&c, "sol_count_diff", &r.diff);
            const size_t blocks = (size_t)((r.n + DOC_THREADS - 1) / DOC_THREADS);
            int st = 0;
            if (!bad && ((st = smem_gpu_alloc(g, 4, &r.out)) ||
                         (st = smem_gpu_alloc(g, (size_t)c.info->sms * (size_t)r.how.blocks_per_sm * 4, &r.partials)) ||
                         (st = smem_gpu_alloc(g, 4, &r.ticket)) || (st = smem_gpu_alloc(g, blocks * 4, &r.s0)) ||
                         (st = smem_gpu_alloc(g, blocks * 4, &r.s1)) || (st = smem_gpu_memset(g, r.ticket, 0, 4)))) {
                gfail(&c, st, "allocating the sum's buffers");
                bad = 1;
            }
            for (int k = 0; k < r.nsets && !bad; ++k) {
                if ((st = smem_gpu_alloc(g, r.bytes, &r.in[k])) || (st = smem_gpu_alloc(g, r.bytes, &r.copy[k]))) {
                    gfail(&c, st, "allocating the input");
                    bad = 1;
                    break;
                }
                unsigned long long n = (unsigned long long)r.n;
                void *args[] = {&r.in[k], &n, &r.seed};
                bad = launch(&c, r.fill, (unsigned)c.info->sms * 8, 1, 256, 1, args, "sol_fill");
            }
            if (!bad && c.have_cub) {
                int e = (is_int ? c.peers.cub_sum_i32 : c.peers.cub_sum_f32)(r.in[0], r.out, r.n, 0, &r.tmp_bytes);
                if (e || (st = smem_gpu_alloc(g, r.tmp_bytes ? r.tmp_bytes : 16, &r.tmp))) {
                    efail(&c, "CUB scratch size query or allocation failed (%d)", e ? e : st);
                    bad = 1;
                }
            }
            if (!bad) {
                note(&c, "reduce %s n=%lld: %zu MB, %d buffer set%s; ours %s (%d threads, %d blocks a SM; sm_%d%d); float64 "
                         "reference on the CPU",
                     smem_sol_dtype_name(r.dt), r.n, r.bytes >> 20, r.nsets, r.nsets > 1 ? "s" : "", best_name,
                     r.how.threads, r.how.blocks_per_sm, c.info->cc_major, c.info->cc_minor);
                double ref = is_int ? (double)smem_sol_sum_i32((uint64_t)r.n, r.seed) : smem_sol_sum_f32((uint64_t)r.n, r.seed);
                refs[2 * s + (is_int ? 0 : 1)] = ref;
                r_case(&c, &r, ref, res);
            }
            smem_gpu_ptr all[] = {r.out, r.partials, r.ticket, r.s0, r.s1, r.tmp};
            for (size_t k = 0; k < sizeof all / sizeof all[0]; ++k)
                if (all[k])
                    smem_gpu_free(g, all[k]);
            for (int k = 0; k < r.nsets; ++k) {
                if (r.in[k])
                    smem_gpu_free(g, r.in[k]);
                if (r.copy[k])
                    smem_gpu_free(g, r.copy[k]);
            }
            char spec[96];
            snprintf(spec, sizeof spec, "%s:%lld:%u", smem_sol_dtype_name(r.dt), r.n, r.seed);
            if (!c.status && spec_add(&rspecs, &rlen, spec))
                efail(&c, "out of memory");
        }
    }
    if (!c.status) {
        struct torch_ctx tc = {&c, res, ns, refs, nns};
        run_torch(&c, NULL, rspecs, &tc);
    }
done:
    free(rspecs);
    free(refs);
    ctx_close(&c);
    smem_sol_ratios(res);
    return c.status;
}
