/* sol.c: the pure half of the speed-of-light benchmarks: the input functions the fill kernels and
 * torch share, CPU references, result rows and their ratios. No GPU, no I/O. */
#include "smemlab/gpu/sol.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t smem_sol_hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

uint32_t smem_sol_mix(uint64_t i, uint32_t seed)
{
    return smem_sol_hash32((uint32_t)i + seed + smem_sol_hash32((uint32_t)(i >> 32)));
}

uint32_t smem_sol_val_f32(uint64_t i, uint32_t seed)
{
    /* (k / 2^23) - 1 with k < 2^24 is exact in float32, so the bits are the same on every device */
    float v = (float)(smem_sol_mix(i, seed) >> 8) * (1.0f / 8388608.0f) - 1.0f;
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

uint16_t smem_sol_val_f16(uint64_t i, uint32_t seed)
{
    return (uint16_t)(smem_sol_mix(i, seed) & 0xBFFFu);
}

uint64_t smem_sol_val_f64(uint64_t i, uint32_t seed)
{
    double v = (double)smem_sol_mix(i, seed) * (1.0 / 2147483648.0) - 1.0;
    uint64_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

int32_t smem_sol_val_i32(uint64_t i, uint32_t seed)
{
    return (int32_t)(smem_sol_mix(i, seed) & 0xFFu) - 128;
}

float smem_sol_val_rf32(uint64_t i, uint32_t seed)
{
    return (float)(smem_sol_mix(i, seed) >> 8) * (1.0f / 16777216.0f);
}

int64_t smem_sol_sum_i32(uint64_t n, uint32_t seed)
{
    int64_t s = 0;
    for (uint64_t i = 0; i < n; ++i)
        s += smem_sol_val_i32(i, seed);
    return s;
}

double smem_sol_sum_f32(uint64_t n, uint32_t seed)
{
    /* float64 sums of up to 2^28 terms below 1: every partial sum is an integer multiple of 2^-24
     * below 2^28, so it fits the 53-bit significand and this reference is exact. */
    double s = 0;
    for (uint64_t i = 0; i < n; ++i)
        s += (double)smem_sol_val_rf32(i, seed);
    return s;
}

int smem_sol_sum_f32_ok(double got, double ref)
{
    return isfinite(got) && fabs(got - ref) <= SMEM_SOL_F32_RTOL * fabs(ref);
}

int smem_sol_sum_i32_ok(int64_t got, int64_t ref)
{
    return (uint32_t)got == (uint32_t)ref;
}

void smem_sol_transpose_cpu(void *out, const void *in, long long rows, long long cols, size_t elem)
{
    unsigned char *o = out;
    const unsigned char *p = in;
    for (long long r = 0; r < rows; ++r)
        for (long long c = 0; c < cols; ++c)
            memcpy(o + ((size_t)c * (size_t)rows + (size_t)r) * elem, p + ((size_t)r * (size_t)cols + (size_t)c) * elem,
                   elem);
}

/* The shipped configurations of kernels/sol_transpose.cu (its SOL_TILED / SOL_ANY / SOL_COPY lines),
 * per element size 4, 2, 8: tiles of lpr x cg sixteen-byte words (lpr*vec rows, cg*vec columns), nt
 * threads. A mismatch leaves output unwritten, which the bench's exact check reports. Candidate 0 of
 * each kind is the configuration the H100's sweeps picked (issues 7 and 16); later candidates are the
 * kernel file's "candidates" (issue 34), which the bench measures against it at first use on a device
 * (sol_bench.c) and launches where they are faster there. The copy kind uses nt alone (2 words a
 * thread). */
struct tile_cfg {
    int lpr, cg, nt;
    int order;          /* kernels/sol_transpose.cu's ORDER: 0 row-major on a 2-D grid (across, down); -1 column-
                           major, G > 1 bands of G tile rows walked column by column, both on a 1-D grid */
    const char *suffix; /* the kernel's name after sol_transpose_<kind>_<t> */
};
enum { MAX_CANDS = SMEM_SOL_MAX_CANDIDATES };
/* [kind][element slot][candidate]; kinds in smem_sol_kind_name's order: "", big, large, narrow, any, copy */
static const struct tile_cfg cfgs[SMEM_SOL_KINDS][3][MAX_CANDS] = {
    /* "" */
    {{{16, 16, 256, 0, ""}, {16, 32, 512, -1, "_64x128"}},
     {{16, 16, 256, 0, ""}},
     {{16, 16, 256, 0, ""},
      {16, 16, 128, 0, "_t128"},
      {16, 16, 128, 0, "_a"},
      {32, 32, 512, -1, "_64x64"},
      {32, 32, 512, -1, "_64x64a"}}},
    /* big */
    {{{16, 32, 512, -1, ""}},
     {{16, 16, 256, 0, ""}, {16, 16, 256, -1, "_cm"}, {8, 32, 256, -1, "_64x256"}},
     {{32, 32, 512, -1, ""}}},
    /* large */
    {{{16, 32, 512, -1, ""}},
     {{16, 16, 256, 0, ""}, {16, 16, 256, -1, "_cm"}},
     {{32, 32, 512, -1, ""},
      {16, 64, 512, -1, "_32x128"},
      {64, 16, 512, -1, "_128x32"},
      {16, 16, 256, -1, "_32x32"},
      {32, 32, 512, -1, "_a"}}},
    /* narrow */
    {{{32, 8, 256, 0, ""}, {32, 8, 128, 0, "_t128"}, {32, 8, 256, 0, "_a"}, {64, 8, 256, 0, "_256x32a"}},
     {{32, 4, 128, 0, ""}},
     {{16, 16, 256, 0, ""},
      {64, 16, 512, 0, "_128x32"},
      {32, 16, 128, 0, "_64x32t128"},
      {32, 16, 256, 0, "_a"},
      {64, 16, 256, 0, "_128x32a"}}},
    /* any */
    {{{16, 16, 256, -1, ""}, {16, 16, 256, -1, "_shfl"}, {16, 16, 256, -1, "_raw"}, {16, 16, 256, -1, "_raws"}},
     {{16, 16, 512, -1, ""}, {8, 16, 256, -1, "_64x128"}},
     {{16, 16, 256, -1, ""},
      {16, 16, 256, -1, "_raw"},
      {32, 16, 512, -1, "_raw64x32"},
      {32, 16, 512, -1, "_raws64x32"}}},
    /* copy */ {{{0, 0, 256, 0, ""}, {0, 0, 1024, 0, "_t1024"}}, {{0, 0, 256, 0, ""}, {0, 0, 1024, 0, "_t1024"}},
                {{0, 0, 256, 0, ""}, {0, 0, 1024, 0, "_t1024"}}}};
enum { COPY_WORDS = 2, NARROW_MAX_COLS = 32, LINE = 128 };
#define LARGE_BYTES (1LL << 29) /* 512 MB a matrix */
static const char *const kind_names[SMEM_SOL_KINDS] = {"", "big", "large", "narrow", "any", "copy"};

static int slot_of(size_t elem)
{
    return elem == 4 ? 0 : elem == 2 ? 1 : elem == 8 ? 2 : -1;
}

const char *smem_sol_kind_name(int kind)
{
    return kind >= 0 && kind < SMEM_SOL_KINDS ? kind_names[kind] : NULL;
}

int smem_sol_kind_index(const char *kind)
{
    for (int k = 0; kind && k < SMEM_SOL_KINDS; ++k)
        if (strcmp(kind, kind_names[k]) == 0)
            return k;
    return -1;
}

int smem_sol_transpose_candidates(size_t elem, const char *kind)
{
    const int slot = slot_of(elem), k = smem_sol_kind_index(kind);
    if (slot < 0 || k < 0)
        return 0;
    int n = 0;
    while (n < MAX_CANDS && cfgs[k][slot][n].nt > 0)
        ++n;
    return n;
}

/* sol_transpose_<kind>_<t><suffix> ("sol_transpose_<t>" for the tiled kind) */
static void cand_name(char *buf, size_t len, int k, int slot, int cand)
{
    static const char *const suffix[3] = {"f32", "f16", "f64"};
    snprintf(buf, len, "sol_transpose_%s%s%s%s", kind_names[k], *kind_names[k] ? "_" : "", suffix[slot],
             cfgs[k][slot][cand].suffix);
}

int smem_sol_transpose_launch_cand(size_t elem, long long rows, long long cols, const char *kind, int cand,
                                   uint64_t in, uint64_t out, struct smem_sol_launch *l)
{
    memset(l, 0, sizeof *l);
    const int slot = slot_of(elem), k = smem_sol_kind_index(kind);
    if (slot < 0 || k < 0 || cand < 0 || cand >= smem_sol_transpose_candidates(elem, kind) || rows < 1 || cols < 1 ||
        rows * cols > 0x7FFFFFFFLL)
        return -1;
    const struct tile_cfg *c = &cfgs[k][slot][cand];
    const long long vec = 16 / (long long)elem;
    l->block[1] = l->block[2] = l->grid[1] = l->grid[2] = 1;
    if (strcmp(kind, "copy") == 0) {
        if (rows != 1 && cols != 1)
            return -1;
        cand_name(l->kernel, sizeof l->kernel, k, slot, cand);
        const long long per_block = (long long)c->nt * COPY_WORDS * vec;
        l->grid[0] = (unsigned)((rows * cols + per_block - 1) / per_block);
        l->block[0] = (unsigned)c->nt;
        return 0;
    }
    const int aligned = rows % vec == 0 && cols % vec == 0 && ((in | out) & 15) == 0;
    if (strcmp(kind, "any") != 0 && !aligned)
        return -1;
    l->tile_rows = c->lpr * (int)vec;
    l->tile_cols = c->cg * (int)vec;
    const long long down = (rows + l->tile_rows - 1) / l->tile_rows, across = (cols + l->tile_cols - 1) / l->tile_cols;
    if (c->order != 0 ? down * across > 0x7FFFFFFFLL : down > 65535)
        return -1;
    cand_name(l->kernel, sizeof l->kernel, k, slot, cand);
    l->grid[0] = (unsigned)(c->order != 0 ? down * across : across);
    l->grid[1] = (unsigned)(c->order != 0 ? 1 : down);
    l->block[0] = (unsigned)c->nt;
    return 0;
}

int smem_sol_transpose_launch_as(size_t elem, long long rows, long long cols, const char *kind, uint64_t in,
                                 uint64_t out, struct smem_sol_launch *l)
{
    return smem_sol_transpose_launch_cand(elem, rows, cols, kind, 0, in, out, l);
}

const char *smem_sol_transpose_kind(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out)
{
    if (slot_of(elem) < 0 || rows < 1 || cols < 1)
        return NULL;
    const long long vec = 16 / (long long)elem, bytes = rows * cols * (long long)elem;
    const int aligned = rows % vec == 0 && cols % vec == 0 && ((in | out) & 15) == 0;
    /* rows of the input or of the output that do not start on a 128-byte line: every row segment of
     * a tile then straddles lines it shares with the next tile, and wider tiles share fewer */
    const int off_line = (cols * (long long)elem) % LINE != 0 || (rows * (long long)elem) % LINE != 0;
    return rows == 1 || cols == 1    ? "copy"
           : !aligned                ? "any"
           : cols <= NARROW_MAX_COLS ? "narrow"
           : off_line                ? "big"
           : bytes >= LARGE_BYTES    ? "large"
                                     : "";
}

int smem_sol_transpose_launch_tuned(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out,
                                    const struct smem_sol_tuning *t, struct smem_sol_launch *l)
{
    const char *kind = smem_sol_transpose_kind(elem, rows, cols, in, out);
    if (!kind) {
        memset(l, 0, sizeof *l);
        return -1;
    }
    const int k = smem_sol_kind_index(kind), slot = slot_of(elem);
    int cand = t ? t->pick[k][slot] : 0;
    if (cand >= smem_sol_transpose_candidates(elem, kind))
        cand = 0;
    return smem_sol_transpose_launch_cand(elem, rows, cols, kind, cand, in, out, l);
}

int smem_sol_transpose_launch(size_t elem, long long rows, long long cols, uint64_t in, uint64_t out,
                              struct smem_sol_launch *l)
{
    return smem_sol_transpose_launch_tuned(elem, rows, cols, in, out, NULL, l);
}

/* ---- Picking a candidate at first use (issue 34) -------------------------------------------------- */

int smem_sol_tune_probe(size_t elem, const char *kind, long long *rows, long long *cols)
{
    /* a default size of each kind: 4097^2 (any), 1048576 x 32 (narrow), 1 x 2^26 (copy), 10000 x 7000
     * (big), 16384^2 (large), 8192^2 (tiled; f64 8192 x 4096) */
    static const long long probe[SMEM_SOL_KINDS][2] = {{8192, 8192},   {10000, 7000}, {16384, 16384},
                                                       {1048576, 32}, {4097, 4097},  {1, 1LL << 26}};
    const int k = smem_sol_kind_index(kind);
    if (slot_of(elem) < 0 || k < 0)
        return -1;
    *rows = probe[k][0];
    *cols = probe[k][1] / (k == 0 && elem == 8 ? 2 : 1); /* 8192^2 f64 is 512 MB: the large kind's */
    return 0;
}

int smem_sol_tune_pick(const double *ms, int n, double margin)
{
    if (n < 1 || !(ms[0] > 0))
        return 0;
    int best = 0;
    for (int i = 1; i < n; ++i)
        if (ms[i] > 0 && ms[i] < ms[best])
            best = i;
    /* candidate 0 stays unless another is faster by more than the margin: a pick that noise made is
     * no pick */
    return best != 0 && ms[best] < ms[0] * (1.0 - margin) ? best : 0;
}

uint64_t smem_sol_fnv1a(const void *p, size_t n, uint64_t h)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; ++i) {
        h ^= b[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

int smem_sol_tune_format(char *buf, size_t len, const char *key, int kind, size_t elem, const char *kernel,
                         const double *ms, int n)
{
    const int slot = slot_of(elem);
    if (!key || !*key || strchr(key, '\t') || strchr(key, '\n') || kind < 0 || kind >= SMEM_SOL_KINDS || slot < 0 ||
        !kernel || n < 1)
        return -1;
    static const char *const dt[3] = {"f32", "f16", "f64"};
    int k = snprintf(buf, len, "%s\t%s\t%s\t%s\t", key, *kind_names[kind] ? kind_names[kind] : "tiled", dt[slot], kernel);
    for (int i = 0; i < n && k >= 0 && (size_t)k < len; ++i)
        k += snprintf(buf + k, len - (size_t)k, "%s%.5f", i ? "," : "", ms[i]);
    return k >= 0 && (size_t)k + 1 < len ? 0 : -1;
}

int smem_sol_tune_parse(const char *line, const char *key, struct smem_sol_tuning *t)
{
    char copy[1024];
    if (!line || strlen(line) >= sizeof copy)
        return -1;
    snprintf(copy, sizeof copy, "%s", line);
    copy[strcspn(copy, "\r\n")] = '\0';
    if (!copy[0] || copy[0] == '#')
        return 0;
    char *f[5] = {0}, *p = copy;
    for (int i = 0; i < 5; ++i) {
        f[i] = p;
        char *tab = i < 4 ? strchr(p, '\t') : NULL;
        if (i < 4 && !tab)
            return -1;
        if (tab) {
            *tab = '\0';
            p = tab + 1;
        }
    }
    if (strcmp(f[0], key) != 0)
        return 0; /* another device, driver or build */
    const int k = smem_sol_kind_index(strcmp(f[1], "tiled") == 0 ? "" : f[1]);
    const int dt = smem_sol_dtype_parse(f[2]);
    if (k < 0 || dt < 0 || dt > 2)
        return -1;
    const size_t elem = smem_sol_dtype_bytes((enum smem_sol_dtype)dt);
    const int slot = slot_of(elem);
    for (int c = 0; c < smem_sol_transpose_candidates(elem, kind_names[k]); ++c) {
        char name[64];
        cand_name(name, sizeof name, k, slot, c);
        if (strcmp(name, f[3]) == 0) {
            double ms[MAX_CANDS] = {0};
            char *q = f[4], *end = NULL;
            for (int i = 0; i < MAX_CANDS && *q; ++i) {
                ms[i] = strtod(q, &end);
                if (end == q || (*end && *end != ','))
                    return -1;
                q = *end ? end + 1 : end;
            }
            t->pick[k][slot] = (unsigned char)c;
            t->known[k][slot] = 1;
            memcpy(t->ms[k][slot], ms, sizeof ms);
            return 1;
        }
    }
    return -1; /* a kernel this build has no candidate of */
}

static const char *const dtype_names[] = {"f32", "f16", "f64", "i32"};
static const size_t dtype_sizes[] = {4, 2, 8, 4};

const char *smem_sol_dtype_name(enum smem_sol_dtype t)
{
    return (unsigned)t < 4 ? dtype_names[t] : "?";
}

size_t smem_sol_dtype_bytes(enum smem_sol_dtype t)
{
    return (unsigned)t < 4 ? dtype_sizes[t] : 0;
}

int smem_sol_dtype_parse(const char *s)
{
    for (int i = 0; i < 4; ++i)
        if (s && strcmp(s, dtype_names[i]) == 0)
            return i;
    return -1;
}

void smem_sol_results_free(struct smem_sol_results *r)
{
    free(r->rows);
    r->rows = NULL;
    r->n = r->cap = 0;
}

int smem_sol_is_peer(const char *method)
{
    return strcmp(method, "cublas") == 0 || strcmp(method, "torch") == 0 || strcmp(method, "cub") == 0;
}

static int same_case(const struct smem_sol_row *a, const struct smem_sol_row *b)
{
    return strcmp(a->bench, b->bench) == 0 && strcmp(a->dtype, b->dtype) == 0 && a->rows == b->rows &&
           a->cols == b->cols;
}

void smem_sol_ratios(struct smem_sol_results *r)
{
    for (size_t i = 0; i < r->n; ++i) {
        struct smem_sol_row *x = &r->rows[i];
        double copy_gbps = 0, peer_ms = 0;
        for (size_t j = 0; j < r->n; ++j) {
            const struct smem_sol_row *y = &r->rows[j];
            if (!same_case(x, y) || y->median_ms <= 0)
                continue;
            if (strcmp(y->method, "memcpy") == 0)
                copy_gbps = y->gbps;
            else if (smem_sol_is_peer(y->method) && y->verified && (peer_ms == 0 || y->median_ms < peer_ms))
                peer_ms = y->median_ms;
        }
        x->ratio_copy = copy_gbps > 0 ? x->gbps / copy_gbps : 0;
        x->ratio_peer = peer_ms > 0 && x->median_ms > 0 ? peer_ms / x->median_ms : 0;
    }
}

void smem_sol_opts_default(struct smem_sol_opts *o)
{
    memset(o, 0, sizeof *o);
    o->reps = 100;
    o->warmup = 10;
    o->use_cublas = 1;
    o->baselines = 1;
    o->pipelined = 0; /* the measured one; see docs/speed-of-light.md */
    o->tune = 1;
}

const char *smem_sol_default_torch_script(void)
{
#ifdef SMEMLAB_SOURCE_DIR
    return SMEMLAB_SOURCE_DIR "/bench/sol/torch_ref.py";
#else
    return "bench/sol/torch_ref.py";
#endif
}

void smem_sol_driver_release(char *buf, size_t len)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    if (!f)
        return;
    char line[512];
    if (fgets(line, sizeof line, f)) {
        /* "NVRM version: NVIDIA UNIX x86_64 Kernel Module  580.159.04  Thu ..." : the first token
         * that starts with a digit and holds a dot */
        char *save = NULL;
        for (char *t = strtok_r(line, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
            if (t[0] >= '0' && t[0] <= '9' && strchr(t, '.')) {
                snprintf(buf, len, "%s", t);
                break;
            }
    }
    fclose(f);
}

struct smem_sol_reduce_launch smem_sol_reduce_launch_of(int form, int cc_major)
{
    /* kept in step with kernels/sol_reduce.cu's SOL_RED_* and SOL_RED_BULK_* macros */
    static const struct smem_sol_reduce_launch reg = {"", 1024, 2}, bulk = {"_bulk", 256, 4};
    if (form == SMEM_SOL_REDUCE_AUTO)
        form = cc_major >= 9 ? SMEM_SOL_REDUCE_BULK : SMEM_SOL_REDUCE_REGISTER;
    return form == SMEM_SOL_REDUCE_BULK ? bulk : reg;
}
