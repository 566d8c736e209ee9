/* bench_sol.c: `smemlab bench transpose` and `smemlab bench reduce` (speed of light): our kernels
 * beside cudaMemcpy, cuBLAS geam, CUB and torch, every result checked, one table per benchmark.
 * Parses, runs the library's runners (src/gpu/sol_bench.c), prints; progress goes to stderr. */
#include "cli.h"
#include "smemlab/base/text.h"
#include "smemlab/gpu/gpu.h"
#include "smemlab/gpu/sol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_ITEMS 32

/* The issue-7 sizes, then shapes users have (issue 16): odd rows and columns (4097x4097: no row on a
 * 16-byte boundary but every fourth), a row vector (the transpose is a copy), a non-square odd-pitch
 * matrix, and tall-skinny. */
static const struct smem_sol_shape default_shapes[] = {{8192, 8192}, {16384, 16384}, {8192, 4096}, {10000, 7000},
                                                       {4097, 4097}, {1, 67108864}, {3000, 5000}, {1048576, 32}};
static const long long default_ns[] = {1LL << 26, 1LL << 27, 1LL << 28};

struct sol_cli {
    const char *cmd; /* "bench transpose" | "bench reduce" */
    int is_reduce, format, quiet, device;
    struct smem_sol_opts o;
    enum smem_sol_dtype dtypes[MAX_ITEMS];
    size_t ndtypes;
    struct smem_sol_shape shapes[MAX_ITEMS];
    size_t nshapes;
    long long ns[MAX_ITEMS];
    size_t nns;
    char kernel_dir[4096], cub_lib[4096], torch_script[4096], tune_cache[4096];
    int no_torch, no_cub;
};

static void usage(FILE *f, int is_reduce)
{
    if (!is_reduce)
        fputs("usage: smemlab bench transpose [--dtypes f32,f16,f64] [--sizes RxC,...] [options]\n\n"
              "Out-of-place matrix transpose at the memory system's limit: our kernel (16-byte\n"
              "accesses, XOR-swizzled shared tiles, conflict-free) beside cudaMemcpy device-to-device\n"
              "of the same bytes (the limit), cuBLAS geam (f32, f64), torch out.copy_(x.t()) and the\n"
              "textbook variants naive, tile (unpadded), pad and swizzle. Every element of every\n"
              "output is checked, before and after timing. GB/s counts bytes read + written.\n"
              "Default sizes 8192x8192,16384x16384,8192x4096,10000x7000,4097x4097,1x67108864,\n"
              "3000x5000,1048576x32; dtypes f32,f16,f64.\n\n",
              f);
    else
        fputs("usage: smemlab bench reduce [--dtypes i32,f32] [--n N,...] [options]\n\n"
              "Sums at the memory system's limit: our one-launch kernel beside cudaMemcpy of the\n"
              "same n elements, CUB DeviceReduce::Sum, torch.sum and the documents' interleaved and\n"
              "sequential block reductions (repeated over the partials). i32 sums must be exact;\n"
              "f32 sums (inputs in [0,1)) within 1e-5 relative of a float64 reference. GB/s counts\n"
              "bytes read (memcpy: read + written). Default n 2^26,2^27,2^28; dtypes i32,f32.\n\n",
              f);
    fputs("options:\n"
          "  --format table|json|csv   output (default table)\n"
          "  --reps N                  timed runs per method, median reported (default 100)\n"
          "  --warmup N                untimed runs first (default 10)\n"
          "  --no-baselines            leave out the textbook variants\n"
          "  --no-torch                leave out torch (otherwise run when importable)\n",
          f);
    if (!is_reduce)
        fputs("  --kernel tiled|pipelined  ours: one tile per block (default), or the same tiles\n"
              "                            software-pipelined on a persistent grid\n"
              "  --tune auto|off|again     ours' configuration per device: the cached pick, measured\n"
              "                            at first use on this device, driver and kernel build (auto,\n"
              "                            default); the H100's (off); measured now (again)\n"
              "  --tune-cache PATH|none    the picks' file (default $SMEMLAB_TUNE_CACHE, else\n"
              "                            $XDG_CACHE_HOME/smemlab/sol-tune.tsv, else ~/.cache/...)\n"
              "  --no-cublas               leave out cuBLAS\n",
              f);
    else
        fputs("  --form auto|register|bulk ours: the bulk-copy form (cp.async.bulk into shared memory;\n"
              "                            sm_90 and later) or the register form; auto (default): bulk\n"
              "                            on sm_90 and later, register before\n"
              "  --no-cub                  leave out CUB\n"
              "  --cub LIB                 the CUB wrapper (default libsmemlab_cub.so next to smemlab)\n",
              f);
    fputs("  --kernels DIR             built kernels (default $SMEMLAB_KERNELS, else kernels/ next\n"
          "                            to smemlab)\n"
          "  --torch-script PATH       bench/sol/torch_ref.py (default: found from smemlab's place)\n"
          "  --python EXE              interpreter for it (default python3)\n"
          "  --device N                CUDA device ordinal (default 0)\n"
          "  -q, --quiet               no progress on stderr\n"
          "exit status: 0 all verified, 1 a check failed, 2 usage, 4 no usable GPU or kernels\n",
          f);
}

static int exists(const char *p, int want_dir)
{
    struct stat st;
    return !stat(p, &st) && (want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode));
}

/* Splits a comma-separated list into at most MAX_ITEMS pieces, calling one() on each. */
static int each_item(const char *list, int (*one)(struct sol_cli *, const char *), struct sol_cli *c)
{
    char buf[1024];
    if (!*list || strlen(list) >= sizeof buf)
        return -1;
    memcpy(buf, list, strlen(list) + 1);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
        if (one(c, t))
            return -1;
    return 0;
}

static int add_dtype(struct sol_cli *c, const char *s)
{
    int t = smem_sol_dtype_parse(s);
    if (t < 0 || c->ndtypes >= MAX_ITEMS)
        return -1;
    if (c->is_reduce ? (t != SMEM_SOL_I32 && t != SMEM_SOL_F32) : t == SMEM_SOL_I32)
        return -1;
    c->dtypes[c->ndtypes++] = (enum smem_sol_dtype)t;
    return 0;
}

static int add_shape(struct sol_cli *c, const char *s)
{
    unsigned long long r, k;
    const char *x = strchr(s, 'x');
    char rows[32];
    if (!x || (size_t)(x - s) >= sizeof rows || c->nshapes >= MAX_ITEMS)
        return -1;
    memcpy(rows, s, (size_t)(x - s));
    rows[x - s] = '\0';
    /* the kernels index with int and launch at most 65535 row tiles of 32 */
    if (cli_parse_uint(rows, 65535ull * 32, &r) || cli_parse_uint(x + 1, 1u << 30, &k) || r == 0 || k == 0 ||
        r * k > 0x7FFFFFFFull)
        return -1;
    c->shapes[c->nshapes].rows = (long long)r;
    c->shapes[c->nshapes].cols = (long long)k;
    c->nshapes++;
    return 0;
}

static int add_n(struct sol_cli *c, const char *s)
{
    unsigned long long v;
    if (c->nns >= MAX_ITEMS)
        return -1;
    if (s[0] == '2' && s[1] == '^') {
        if (cli_parse_uint(s + 2, 31, &v))
            return -1;
        v = 1ull << v;
    } else if (cli_parse_uint(s, 1ull << 31, &v) || v == 0) {
        return -1;
    }
    c->ns[c->nns++] = (long long)v;
    return 0;
}

static void progress(void *ctx, const char *msg)
{
    const struct sol_cli *c = ctx;
    if (!c->quiet)
        fprintf(stderr, "smemlab %s: %s\n", c->cmd, msg);
}

static void print_device_json(FILE *f, const struct smem_gpu_info *gi, const char *driver)
{
    fputs("\"device\":{\"name\":", f);
    smem_json_string(f, gi->name);
    fputs(",\"driver\":", f);
    smem_json_string(f, driver);
    fprintf(f, ",\"cuda\":\"%d.%d\",\"sm_clock_mhz\":%d,\"sms\":%d,\"l2_bytes\":%d,\"mem_clock_mhz\":%d,"
               "\"bus_width_bits\":%d}",
            gi->driver_version / 1000, gi->driver_version % 1000 / 10, gi->sm_clock_khz / 1000, gi->sms,
            gi->l2_bytes, gi->mem_clock_khz / 1000, gi->bus_width_bits);
}

/* ,"tuning":[{"kind","dtype","kernel","from":"cache"|"measured","candidates":[{"kernel","median_ms"}]}]:
 * the configuration picked for this device where a kind has candidates (sol.h) */
static void print_tuning_json(FILE *f, const struct smem_sol_tuning *t)
{
    static const char *const dt[3] = {"f32", "f16", "f64"};
    static const size_t elem[3] = {4, 2, 8};
    fputs(",\"tuning\":[", f);
    int first = 1;
    for (int k = 0; k < SMEM_SOL_KINDS; ++k)
        for (int s = 0; s < 3; ++s) {
            if (!t->known[k][s])
                continue;
            const char *kind = smem_sol_kind_name(k);
            const int n = smem_sol_transpose_candidates(elem[s], kind);
            struct smem_sol_launch l;
            /* the names of the candidates: their launches on a shape every kind takes */
            const long long rows = !strcmp(kind, "copy") ? 1 : 64, cols = !strcmp(kind, "narrow") ? 32 : 64;
            fprintf(f, "%s{\"kind\":\"%s\",\"dtype\":\"%s\",", first ? "" : ",", *kind ? kind : "tiled", dt[s]);
            if (!smem_sol_transpose_launch_cand(elem[s], rows, cols, kind, t->pick[k][s], 0, 0, &l))
                fprintf(f, "\"kernel\":\"%s\",", l.kernel);
            fprintf(f, "\"from\":\"%s\",\"candidates\":[", t->known[k][s] == 1 ? "cache" : "measured");
            for (int i = 0; i < n; ++i)
                if (!smem_sol_transpose_launch_cand(elem[s], rows, cols, kind, i, 0, 0, &l))
                    fprintf(f, "%s{\"kernel\":\"%s\",\"median_ms\":%.5f}", i ? "," : "", l.kernel, t->ms[k][s][i]);
            fputs("]}", f);
            first = 0;
        }
    fputc(']', f);
}

static void print_json(FILE *f, const struct sol_cli *c, const struct smem_gpu_info *gi, const char *driver,
                       const struct smem_sol_results *r)
{
    fputc('{', f);
    print_device_json(f, gi, driver);
    if (!c->is_reduce)
        print_tuning_json(f, &r->tuning);
    fprintf(f, ",\n\"%s\":[\n", c->is_reduce ? "reduce" : "transpose");
    for (size_t i = 0; i < r->n; ++i) {
        const struct smem_sol_row *x = &r->rows[i];
        fprintf(f, "{\"dtype\":\"%s\",", x->dtype);
        if (c->is_reduce)
            fprintf(f, "\"n\":%lld,", x->rows);
        else
            fprintf(f, "\"rows\":%lld,\"cols\":%lld,", x->rows, x->cols);
        fprintf(f,
                "\"method\":\"%s\",\"median_ms\":%.6f,\"min_ms\":%.6f,\"max_ms\":%.6f,\"reps\":%d,\"gbps\":%.2f,"
                "\"ratio_to_copy\":%.4f,\"ratio_to_best_peer\":",
                x->method, x->median_ms, x->min_ms, x->max_ms, x->reps, x->gbps, x->ratio_copy);
        if (x->ratio_peer > 0)
            fprintf(f, "%.4f", x->ratio_peer);
        else
            fputs("null", f);
        fprintf(f, ",\"verified\":%s", x->verified ? "true" : "false");
        if (*x->kernel)
            fprintf(f, ",\"kernel\":\"%s\"", x->kernel);
        if (*x->note) {
            fputs(",\"note\":", f);
            smem_json_string(f, x->note);
        }
        fprintf(f, "}%s\n", i + 1 < r->n ? "," : "");
    }
    fputs("]}\n", f);
}

static void print_csv(FILE *f, const struct smem_sol_results *r)
{
    fputs("bench,dtype,rows,cols,method,median_ms,min_ms,max_ms,reps,gbps,ratio_to_copy,ratio_to_best_peer,verified\n", f);
    for (size_t i = 0; i < r->n; ++i) {
        const struct smem_sol_row *x = &r->rows[i];
        fprintf(f, "%s,%s,%lld,%lld,%s,%.6f,%.6f,%.6f,%d,%.2f,%.4f,", x->bench, x->dtype, x->rows, x->cols, x->method,
                x->median_ms, x->min_ms, x->max_ms, x->reps, x->gbps, x->ratio_copy);
        if (x->ratio_peer > 0)
            fprintf(f, "%.4f", x->ratio_peer);
        fprintf(f, ",%s\n", x->verified ? "true" : "false");
    }
}

static void print_table(FILE *f, const struct sol_cli *c, const struct smem_gpu_info *gi, const char *driver,
                        const struct smem_sol_results *r)
{
    fprintf(f, "%s on %s (driver %s, CUDA %d.%d, %d SMs, %d MHz): median of %d runs\n", c->cmd, gi->name,
            *driver ? driver : "?", gi->driver_version / 1000, gi->driver_version % 1000 / 10, gi->sms,
            gi->sm_clock_khz / 1000, c->o.reps);
    fprintf(f, "%s; x copy = GB/s over memcpy's, x peer = best peer's time over this one (peers: %s)\n\n",
            c->is_reduce ? "GB/s = bytes read / time (memcpy: read + written)" : "GB/s = bytes read + written / time",
            c->is_reduce ? "cub, torch" : "cublas, torch");
    fprintf(f, "%-5s %-13s %-12s %11s %9s %8s %8s  %s\n", "dtype", c->is_reduce ? "n" : "rows x cols", "method",
            "median ms", "GB/s", "x copy", "x peer", "verified");
    for (size_t i = 0; i < r->n; ++i) {
        const struct smem_sol_row *x = &r->rows[i];
        char size[32], peer[16];
        if (c->is_reduce)
            snprintf(size, sizeof size, "%lld", x->rows);
        else
            snprintf(size, sizeof size, "%lldx%lld", x->rows, x->cols);
        if (x->ratio_peer > 0)
            snprintf(peer, sizeof peer, "%.3f", x->ratio_peer);
        else
            snprintf(peer, sizeof peer, "-");
        if (i > 0 && (strcmp(x->dtype, r->rows[i - 1].dtype) || x->rows != r->rows[i - 1].rows ||
                      x->cols != r->rows[i - 1].cols))
            fputc('\n', f);
        fprintf(f, "%-5s %-13s %-12s %11.4f %9.1f %8.3f %8s  %s%s%s\n", x->dtype, size, x->method, x->median_ms, x->gbps,
                x->ratio_copy, peer, x->verified ? "yes" : "NO", *x->note ? ": " : "", x->note);
    }
}

static int parse(struct sol_cli *c, int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        unsigned long long v;
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout, c->is_reduce);
            return -1;
        } else if (!strcmp(a, "--format")) {
            if (!val || (c->format = cli_parse_format(val)) < 0)
                return cli_usage_error(c->cmd, "--format takes table, json or csv");
            ++i;
        } else if (!strcmp(a, "--reps") || !strcmp(a, "--warmup")) {
            int reps = !strcmp(a, "--reps");
            if (!val || cli_parse_uint(val, 100000, &v) || (reps && v == 0))
                return cli_usage_error(c->cmd, "%s takes a count from %d to 100000", a, reps);
            *(reps ? &c->o.reps : &c->o.warmup) = (int)v;
            ++i;
        } else if (!strcmp(a, "--dtypes")) {
            c->ndtypes = 0;
            if (!val || each_item(val, add_dtype, c))
                return cli_usage_error(c->cmd, "--dtypes takes a comma-separated list of %s",
                                       c->is_reduce ? "i32, f32" : "f32, f16, f64");
            ++i;
        } else if (!strcmp(a, "--sizes") && !c->is_reduce) {
            c->nshapes = 0;
            if (!val || each_item(val, add_shape, c))
                return cli_usage_error(c->cmd, "--sizes takes a comma-separated list of ROWSxCOLS, e.g. 8192x4096 "
                                       "(rows up to 2097120, rows x cols below 2^31)");
            ++i;
        } else if (!strcmp(a, "--n") && c->is_reduce) {
            c->nns = 0;
            if (!val || each_item(val, add_n, c))
                return cli_usage_error(c->cmd, "--n takes a comma-separated list of counts (1 to 2^31) or 2^K");
            ++i;
        } else if (!strcmp(a, "--no-baselines")) {
            c->o.baselines = 0;
        } else if (!strcmp(a, "--no-torch")) {
            c->no_torch = 1;
        } else if (!strcmp(a, "--kernel") && !c->is_reduce) {
            if (!val || (strcmp(val, "pipelined") && strcmp(val, "tiled")))
                return cli_usage_error(c->cmd, "--kernel takes pipelined or tiled");
            c->o.pipelined = !strcmp(argv[++i], "pipelined");
        } else if (!strcmp(a, "--tune") && !c->is_reduce) {
            if (!val || (strcmp(val, "auto") && strcmp(val, "off") && strcmp(val, "again")))
                return cli_usage_error(c->cmd, "--tune takes auto, off or again");
            c->o.tune = !strcmp(val, "off") ? 0 : !strcmp(val, "auto") ? 1 : 2;
            ++i;
        } else if (!strcmp(a, "--tune-cache") && !c->is_reduce) {
            if (!val || !*val)
                return cli_usage_error(c->cmd, "--tune-cache takes a file, or none");
            snprintf(c->tune_cache, sizeof c->tune_cache, "%s", argv[++i]);
        } else if (!strcmp(a, "--no-cublas") && !c->is_reduce) {
            c->o.use_cublas = 0;
        } else if (!strcmp(a, "--form") && c->is_reduce) {
            if (!val || (strcmp(val, "auto") && strcmp(val, "register") && strcmp(val, "bulk")))
                return cli_usage_error(c->cmd, "--form takes auto, register or bulk");
            c->o.reduce_form = !strcmp(val, "register") ? SMEM_SOL_REDUCE_REGISTER
                               : !strcmp(val, "bulk")   ? SMEM_SOL_REDUCE_BULK
                                                        : SMEM_SOL_REDUCE_AUTO;
            ++i;
        } else if (!strcmp(a, "--no-cub") && c->is_reduce) {
            c->no_cub = 1;
        } else if (!strcmp(a, "--cub") && c->is_reduce) {
            if (!val)
                return cli_usage_error(c->cmd, "--cub takes a library path");
            snprintf(c->cub_lib, sizeof c->cub_lib, "%s", argv[++i]);
        } else if (!strcmp(a, "--kernels")) {
            if (!val)
                return cli_usage_error(c->cmd, "--kernels takes a folder");
            snprintf(c->kernel_dir, sizeof c->kernel_dir, "%s", argv[++i]);
        } else if (!strcmp(a, "--torch-script")) {
            if (!val)
                return cli_usage_error(c->cmd, "--torch-script takes a path");
            snprintf(c->torch_script, sizeof c->torch_script, "%s", argv[++i]);
        } else if (!strcmp(a, "--python")) {
            if (!val)
                return cli_usage_error(c->cmd, "--python takes an interpreter");
            c->o.python = argv[++i];
        } else if (!strcmp(a, "--device")) {
            if (!val || cli_parse_uint(val, 1024, &v))
                return cli_usage_error(c->cmd, "--device takes a device ordinal");
            c->device = (int)v;
            ++i;
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            c->quiet = 1;
        } else {
            return cli_unknown_option(c->cmd, a, NULL);
        }
    }
    return 0;
}

/* Fills in the places of the kernels, the CUB wrapper and the torch script. 0, or EXIT_NO_GPU. */
static int locate(struct sol_cli *c)
{
    char dir[4000] = ""; /* leaves room for the suffixes below in the 4096-byte paths */
    int have_dir = cli_exe_dir(dir, sizeof dir) == 0;
    if (!*c->kernel_dir) {
        const char *env = getenv("SMEMLAB_KERNELS");
        if (env && *env)
            snprintf(c->kernel_dir, sizeof c->kernel_dir, "%s", env);
        else if (have_dir)
            snprintf(c->kernel_dir, sizeof c->kernel_dir, "%s/kernels", dir);
    }
    char probe[4200];
    snprintf(probe, sizeof probe, "%s/%s.fatbin", c->kernel_dir, c->is_reduce ? "sol_reduce" : "sol_transpose");
    if (!exists(probe, 0)) {
        fprintf(stderr, "smemlab %s: the GPU kernels are missing (%s): build them with nvcc present (make), or point "
                        "SMEMLAB_KERNELS at a kernels folder\n",
                c->cmd, probe);
        return EXIT_NO_GPU;
    }
    if (c->is_reduce && !c->no_cub) {
        if (!*c->cub_lib && have_dir)
            snprintf(c->cub_lib, sizeof c->cub_lib, "%s/libsmemlab_cub.so", dir);
        if (exists(c->cub_lib, 0))
            c->o.cub_lib = c->cub_lib;
    }
    if (!c->is_reduce && c->o.tune) {
        const char *env = getenv("SMEMLAB_TUNE_CACHE"), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
        if (!*c->tune_cache && env && *env)
            snprintf(c->tune_cache, sizeof c->tune_cache, "%s", env);
        else if (!*c->tune_cache && xdg && *xdg == '/')
            snprintf(c->tune_cache, sizeof c->tune_cache, "%s/smemlab/sol-tune.tsv", xdg);
        else if (!*c->tune_cache && home && *home)
            snprintf(c->tune_cache, sizeof c->tune_cache, "%s/.cache/smemlab/sol-tune.tsv", home);
        c->o.tune_cache = *c->tune_cache && strcmp(c->tune_cache, "none") ? c->tune_cache : NULL;
    }
    if (!c->no_torch) {
        if (!*c->torch_script && have_dir)
            snprintf(c->torch_script, sizeof c->torch_script, "%s/../bench/sol/torch_ref.py", dir);
        if (!exists(c->torch_script, 0))
            snprintf(c->torch_script, sizeof c->torch_script, "%s", smem_sol_default_torch_script());
        if (exists(c->torch_script, 0))
            c->o.torch_script = c->torch_script;
        else
            progress(c, "torch_ref.py not found; torch left out (--torch-script PATH)");
    }
    return 0;
}

static int bench_sol(int argc, char **argv, int is_reduce)
{
    struct sol_cli c;
    memset(&c, 0, sizeof c);
    c.cmd = is_reduce ? "bench reduce" : "bench transpose";
    c.is_reduce = is_reduce;
    c.format = FMT_TABLE;
    smem_sol_opts_default(&c.o);
    c.o.progress = progress;
    c.o.progress_ctx = &c;
    int rc = parse(&c, argc, argv);
    if (rc)
        return rc < 0 ? EXIT_OK : rc;
    if (!c.ndtypes) {
        if (is_reduce) {
            c.dtypes[c.ndtypes++] = SMEM_SOL_I32;
            c.dtypes[c.ndtypes++] = SMEM_SOL_F32;
        } else {
            c.dtypes[c.ndtypes++] = SMEM_SOL_F32;
            c.dtypes[c.ndtypes++] = SMEM_SOL_F16;
            c.dtypes[c.ndtypes++] = SMEM_SOL_F64;
        }
    }
    if (!is_reduce && !c.nshapes)
        for (size_t i = 0; i < sizeof default_shapes / sizeof default_shapes[0]; ++i)
            c.shapes[c.nshapes++] = default_shapes[i];
    if (is_reduce && !c.nns)
        for (size_t i = 0; i < sizeof default_ns / sizeof default_ns[0]; ++i)
            c.ns[c.nns++] = default_ns[i];
    if ((rc = locate(&c)))
        return rc;
    c.o.kernel_dir = c.kernel_dir;

    char err[600];
    struct smem_gpu *g = NULL;
    if (smem_gpu_open(c.device, &g, err, sizeof err)) {
        fprintf(stderr, "smemlab %s: %s\n", c.cmd, err);
        return EXIT_NO_GPU;
    }
    const struct smem_gpu_info *gi = smem_gpu_info(g);
    progress(&c, gi->name);
    struct smem_sol_results res = {0};
    int st = is_reduce ? smem_sol_bench_reduce(g, &c.o, c.dtypes, c.ndtypes, c.ns, c.nns, &res, err, sizeof err)
                       : smem_sol_bench_transpose(g, &c.o, c.dtypes, c.ndtypes, c.shapes, c.nshapes, &res, err, sizeof err);
    if (st) {
        fprintf(stderr, "smemlab %s: %s\n", c.cmd, err);
        rc = st == SMEM_GPU_INVALID ? EXIT_INPUT : EXIT_NO_GPU;
    } else {
        char driver[64];
        smem_sol_driver_release(driver, sizeof driver);
        if (c.format == FMT_JSON)
            print_json(stdout, &c, gi, driver, &res);
        else if (c.format == FMT_CSV)
            print_csv(stdout, &res);
        else
            print_table(stdout, &c, gi, driver, &res);
        size_t bad = 0;
        for (size_t i = 0; i < res.n; ++i)
            bad += !res.rows[i].verified;
        if (bad)
            fprintf(stderr, "smemlab %s: %zu result%s FAILED verification\n", c.cmd, bad, bad == 1 ? "" : "s");
        rc = bad ? EXIT_CHECK : EXIT_OK;
    }
    smem_sol_results_free(&res);
    smem_gpu_close(g);
    return rc;
}

int bench_transpose(int argc, char **argv)
{
    return bench_sol(argc, argv, 0);
}

int bench_reduce(int argc, char **argv)
{
    return bench_sol(argc, argv, 1);
}
