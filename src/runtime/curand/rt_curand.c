/* rt_curand.c: libcurand.so.10 of `smemlab run`: cuRAND's host API on the CPU. Generators
 * (XORWOW, MRG32k3a, MTGP32, MT19937, Philox4x32-10, Sobol32/64 plain and scrambled) give the
 * numbers the H200's cuRAND gives: the algorithms of curand_kernel.h (rand_*.c) laid over the
 * output as NVIDIA's library lays them (rand_pseudo.c, rand_mt19937.c; measured:
 * tests/hw/curand/), Poisson numbers by its methods (rand_poisson.c). A device generator writes
 * device memory through the runtime (its bounds checked, the program stopped naming the call
 * when outside); a host generator writes host memory. Statuses are cuRAND's, each error also
 * recorded as an API error of the call (the sanitizer section of the report). What it does not
 * compute (parts of the dynamic ordering, Poisson of large lambdas on
 * MTGP32 and the Sobol generators, the discrete distribution objects) stops the program, named. */
#include "rand.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define API __attribute__((visibility("default")))

/* libcudart.so.13 (src/runtime/rt_library.c, rt_state.c) */
int __cudaSmemlabLibraryBytes(const void *p, unsigned long long n, int write, void **host,
                              char *why, unsigned long why_size);
void __cudaSmemlabLibraryStop(const char *sentence) __attribute__((noreturn));
void __cudaSmemlabLibraryCall(const char *library, const char *name, const char *shape,
                              const char *precision, double seconds, int repeat);
void __cudaSmemlabLibraryApiError(const char *error, const char *detail);
void __cudaSmemlabUnsupported(const char *call, const char *why) __attribute__((noreturn));

enum {
    ST_SUCCESS = 0, ST_VERSION_MISMATCH = 100, ST_NOT_INITIALIZED = 101, ST_ALLOCATION_FAILED = 102,
    ST_TYPE_ERROR = 103, ST_OUT_OF_RANGE = 104, ST_LENGTH_NOT_MULTIPLE = 105,
    ST_DOUBLE_PRECISION_REQUIRED = 106, ST_LAUNCH_FAILURE = 201, ST_PREEXISTING_FAILURE = 202,
    ST_INITIALIZATION_FAILED = 203, ST_ARCH_MISMATCH = 204, ST_INTERNAL_ERROR = 999
};

enum { XORWOW = 101, MRG32K3A = 121, MTGP32 = 141, MT19937 = 142, PHILOX = 161,
       SOBOL32 = 201, SCRAMBLED_SOBOL32 = 202, SOBOL64 = 203, SCRAMBLED_SOBOL64 = 204 };
enum { ORD_BEST = 100, ORD_DEFAULT = 101, ORD_SEEDED = 102, ORD_LEGACY = 103, ORD_DYNAMIC = 104,
       ORD_QUASI = 201 };
enum kind { K_U32, K_U64, K_UNIF, K_UNIFD, K_NORM, K_NORMD, K_LOGN, K_LOGND, K_POIS };

/* cuRAND 10.4.0, CUDA 13.0's (curand.h's CURAND_VERSION; the H200's library reported the same) */
#define VERSION 10400

struct gen {
    int type, host, ordering;
    uint64_t offset;         /* outputs for pseudo generators, points for quasi ones */
    unsigned dims;
    struct rand_pseudo p;
    struct mtgp *mt;         /* MTGP32: its 192 blocks' states, made at the first call */
    struct mt19937 *m19;     /* MT19937: its blocks, made when first reached */
    struct rand_poisson pois; /* the last Poisson table or CDF */
    uint64_t m19_next;       /* MT19937: the next output (a seed set starts again at 0) */
    int fresh;               /* no generation since creation or the seed, offset or ordering set */
    uint64_t mt_chunk;       /* the next chunk of 256 numbers */
    uint32_t mt_buf[256];    /* the current chunk, mt_used of it taken */
    unsigned mt_used;
    void *stream;
};

static const char *status_name(int s)
{
    switch (s) {
    case ST_VERSION_MISMATCH: return "CURAND_STATUS_VERSION_MISMATCH";
    case ST_NOT_INITIALIZED: return "CURAND_STATUS_NOT_INITIALIZED";
    case ST_ALLOCATION_FAILED: return "CURAND_STATUS_ALLOCATION_FAILED";
    case ST_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR";
    case ST_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE";
    case ST_LENGTH_NOT_MULTIPLE: return "CURAND_STATUS_LENGTH_NOT_MULTIPLE";
    case ST_INITIALIZATION_FAILED: return "CURAND_STATUS_INITIALIZATION_FAILED";
    case ST_INTERNAL_ERROR: return "CURAND_STATUS_INTERNAL_ERROR";
    default: return "CURAND_STATUS_SUCCESS";
    }
}

/* an error status returned to the program: recorded as the call's API error, with why */
static int fail(int status, const char *why)
{
    __cudaSmemlabLibraryApiError(status_name(status), why);
    return status;
}

static int pseudo(int t)
{
    return t >= 100 && t < 200;
}

static const char *type_name(int t)
{
    switch (t) {
    case XORWOW: return "XORWOW";
    case MRG32K3A: return "MRG32K3A";
    case MTGP32: return "MTGP32";
    case MT19937: return "MT19937";
    case PHILOX: return "PHILOX4_32_10";
    case SOBOL32: return "SOBOL32";
    case SCRAMBLED_SOBOL32: return "SCRAMBLED_SOBOL32";
    case SOBOL64: return "SOBOL64";
    default: return "SCRAMBLED_SOBOL64";
    }
}

static int create(struct gen **out, int type, int host)
{
    if (!out)
        return fail(ST_NOT_INITIALIZED, "the generator pointer is NULL");
    if (type == 100)
        type = XORWOW;
    if (type == 200)
        type = SOBOL32;
    int known = type == XORWOW || type == MRG32K3A || type == MTGP32 || type == MT19937 ||
                type == PHILOX || (type >= SOBOL32 && type <= SCRAMBLED_SOBOL64);
    if (!known) /* the H200's library: 203 for a device generator, 103 for a host one */
        return fail(host ? ST_TYPE_ERROR : ST_INITIALIZATION_FAILED, "not a curandRngType_t");
    if (type == MT19937 && !mt19937_available())
        __cudaSmemlabUnsupported(host ? "curandCreateGeneratorHost" : "curandCreateGenerator",
                                 "MT19937's jump polynomial is made at build time (the tool "
                                 "mt19937_jump), and this build had none");
    if (type == MTGP32 && !mtgp_available())
        __cudaSmemlabUnsupported(host ? "curandCreateGeneratorHost" : "curandCreateGenerator",
                                 "MTGP32's parameter sets come from the CUDA toolkit's headers "
                                 "at build time, and this build had none");
    if (!pseudo(type) && !rand_sobol_vectors32(0))
        __cudaSmemlabUnsupported(host ? "curandCreateGeneratorHost" : "curandCreateGenerator",
                                 "the Sobol direction vectors come from the CUDA toolkit's "
                                 "libcurand at build time, and this build had none");
    struct gen *g = calloc(1, sizeof *g);
    if (!g)
        return fail(ST_ALLOCATION_FAILED, "out of host memory");
    g->type = type;
    g->host = host;
    g->ordering = pseudo(type) ? ORD_DEFAULT : ORD_QUASI;
    g->dims = 1;
    g->p.type = type;
    g->p.seed = 0;
    g->fresh = 1;
    *out = g;
    return ST_SUCCESS;
}

API int curandCreateGenerator(struct gen **g, int type);
API int curandCreateGenerator(struct gen **g, int type)
{
    return create(g, type, 0);
}

API int curandCreateGeneratorHost(struct gen **g, int type);
API int curandCreateGeneratorHost(struct gen **g, int type)
{
    return create(g, type, 1);
}

API int curandDestroyGenerator(struct gen *g);
API int curandDestroyGenerator(struct gen *g)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    rand_pseudo_free(&g->p);
    free(g->mt);
    mt19937_free(g->m19);
    rand_poisson_free(&g->pois);
    free(g);
    return ST_SUCCESS;
}

API int curandGetVersion(int *v);
API int curandGetVersion(int *v)
{
    if (!v)
        return fail(ST_OUT_OF_RANGE, "the version pointer is NULL");
    *v = VERSION;
    return ST_SUCCESS;
}

API int curandGetProperty(int type, int *v);
API int curandGetProperty(int type, int *v)
{
    if (!v || type < 0 || type > 2)
        return fail(ST_OUT_OF_RANGE, "not MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL");
    *v = type == 0 ? VERSION / 1000 : type == 1 ? VERSION / 100 % 10 : VERSION % 100;
    return ST_SUCCESS;
}

API int curandSetStream(struct gen *g, void *stream);
API int curandSetStream(struct gen *g, void *stream)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    g->stream = stream; /* the runtime runs every stream in order */
    return ST_SUCCESS;
}

API int curandSetPseudoRandomGeneratorSeed(struct gen *g, unsigned long long seed);
API int curandSetPseudoRandomGeneratorSeed(struct gen *g, unsigned long long seed)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    if (!pseudo(g->type))
        return fail(ST_TYPE_ERROR, "a quasirandom generator has no seed");
    g->p.seed = seed; /* the offset stays; Philox's comes back a quarter (its outputs read as
                         counters: measured after 64 outputs, tests/hw/curand/) */
    if (g->type == PHILOX)
        g->offset /= 4;
    if (g->type == MT19937) { /* the H200's library starts the new seed's stream from its start */
        mt19937_free(g->m19);
        g->m19 = NULL;
        g->m19_next = 0;
    }
    /* MTGP32's states, once made, stay: the H200's library went on with the old seed's stream */
    rand_pseudo_reset(&g->p);
    g->fresh = 1;
    return ST_SUCCESS;
}

API int curandSetGeneratorOffset(struct gen *g, unsigned long long offset);
API int curandSetGeneratorOffset(struct gen *g, unsigned long long offset)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    if (g->type == MTGP32 || g->type == MT19937)
        return fail(ST_TYPE_ERROR, g->type == MTGP32 ? "MTGP32 has no offset" : "MT19937 has no offset");
    g->offset = offset;
    rand_pseudo_reset(&g->p);
    g->fresh = 1;
    return ST_SUCCESS;
}

API int curandSetGeneratorOrdering(struct gen *g, int order);
API int curandSetGeneratorOrdering(struct gen *g, int order)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    if (pseudo(g->type)) {
        if (order < ORD_BEST || order > ORD_DYNAMIC)
            return fail(ST_OUT_OF_RANGE, "not a pseudorandom ordering");
        if (order == ORD_SEEDED && g->type != XORWOW)
            return fail(ST_OUT_OF_RANGE, "CURAND_ORDERING_PSEUDO_SEEDED is XORWOW's only");
        if (order == ORD_DYNAMIC && g->host)
            return fail(ST_OUT_OF_RANGE, "a host generator has no CURAND_ORDERING_PSEUDO_DYNAMIC");
        if (order == ORD_DYNAMIC && g->type == MT19937)
            return fail(ST_OUT_OF_RANGE, "MT19937 has no CURAND_ORDERING_PSEUDO_DYNAMIC");
        if (order == ORD_BEST && g->type == MT19937 && g->host) /* the toolkit's host library */
            return fail(ST_OUT_OF_RANGE, "a host MT19937 generator has no CURAND_ORDERING_PSEUDO_BEST");
    } else if (order != ORD_QUASI) {
        return fail(ST_OUT_OF_RANGE, "a quasirandom generator takes CURAND_ORDERING_QUASI_DEFAULT");
    }
    g->ordering = order;
    rand_pseudo_reset(&g->p);
    g->fresh = 1;
    return ST_SUCCESS;
}

API int curandSetQuasiRandomGeneratorDimensions(struct gen *g, unsigned dims);
API int curandSetQuasiRandomGeneratorDimensions(struct gen *g, unsigned dims)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    if (pseudo(g->type))
        return fail(ST_TYPE_ERROR, "a pseudorandom generator has no dimensions");
    if (dims < 1 || dims > SOBOL_DIMS)
        return fail(ST_OUT_OF_RANGE, "dimensions must be 1 to 20000");
    g->dims = dims;
    g->offset = 0;
    return ST_SUCCESS;
}

API int curandGenerateSeeds(struct gen *g);
API int curandGenerateSeeds(struct gen *g)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    return ST_SUCCESS; /* states are made when first needed */
}

/* ---- generation ---- */

static const unsigned esize[] = {4, 8, 4, 8, 4, 8, 4, 8, 4};
static const char *const kind_call[] = {
    "curandGenerate", "curandGenerateLongLong", "curandGenerateUniform",
    "curandGenerateUniformDouble", "curandGenerateNormal", "curandGenerateNormalDouble",
    "curandGenerateLogNormal", "curandGenerateLogNormalDouble", "curandGeneratePoisson"};
static const char *const kind_precision[] = {"uint32", "uint64", "float", "double",
                                             "float", "double", "float", "double", "uint32"};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* outputs per unit and draws per unit of a pseudo generator's call (rand.h) */
static void unit_shape(int type, enum kind k, unsigned *outs, unsigned *draws)
{
    int normal = k == K_NORM || k == K_LOGN, normald = k == K_NORMD || k == K_LOGND;
    if (type == PHILOX) { /* curand4, normal4: one counter; doubles: two counters give four */
        *draws = k == K_UNIFD || normald ? 8 : 4;
        *outs = 4;
    } else if (type == MRG32K3A) {
        *draws = normal || normald ? 2 : 1;
        *outs = *draws;
    } else { /* XORWOW */
        *draws = k == K_UNIFD || normal ? 2 : normald ? 4 : 1;
        *outs = normal || normald ? 2 : 1;
    }
}

static void store(void *out, enum kind k, uint64_t i, double v, uint64_t bits, float fa, float fb,
                  double da, double db)
{
    switch (k) {
    case K_U32: ((uint32_t *)out)[i] = (uint32_t)bits; break;
    case K_U64: ((uint64_t *)out)[i] = bits; break;
    case K_UNIF: ((float *)out)[i] = (float)v; break;
    case K_UNIFD: ((double *)out)[i] = v; break;
    case K_NORM: ((float *)out)[i] = fmaf((float)v, fb, fa); break;
    case K_NORMD: ((double *)out)[i] = fma(v, db, da); break;
    case K_LOGN: ((float *)out)[i] = expf(fmaf((float)v, fb, fa)); break;
    case K_LOGND: ((double *)out)[i] = exp(fma(v, db, da)); break;
    case K_POIS: break; /* fill_poisson's own */
    }
}

/* Philox's dynamic ordering: the first call at an offset of this many counters or more is laid
   51200 counters on; up to PHILOX_DYN_PLAIN none (between: not measured, refused) */
#define PHILOX_DYN_PLAIN 67584u
#define PHILOX_DYN_SHIFTED 100000u

/* the dynamic ordering lays as many states as the GPU suits: the H200's counts */
static void set_states(struct gen *g)
{
    int dyn = g->ordering == ORD_DYNAMIC;
    g->p.seeded = g->ordering == ORD_SEEDED;
    g->p.states = g->type == PHILOX ? (dyn ? 67584 : 65536)
                : g->type == MRG32K3A ? (dyn ? 270336 : g->ordering == ORD_LEGACY ? 4096 : 81920)
                : (dyn ? 2816 : 4096);
}

static int fill_pseudo(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b)
{
    unsigned outs, per;
    unit_shape(g->type, k, &outs, &per);
    /* Philox's offset counts outputs (a call may start inside a counter's four); XORWOW's and
       MRG32k3a's count units (a normal pair is one) */
    int philox = g->type == PHILOX;
    uint64_t first = philox ? g->offset / outs : g->offset, skip = philox ? g->offset % outs : 0;
    /* Philox in the dynamic ordering, the first call after an offset of 400000 numbers or more:
       the H200's layout stands 51200 counters on (measured from 400000 to 2^48; a call
       continuing one does not, tests/hw/curand/README.md) */
    if (philox && g->ordering == ORD_DYNAMIC && g->fresh && first >= PHILOX_DYN_SHIFTED)
        first += 51200;
    uint64_t units = (skip + n + outs - 1) / outs;
    uint64_t chunk = 1u << 20; /* units per pass */
    uint32_t *d = malloc((size_t)(chunk < units ? chunk : units) * per * sizeof *d);
    if (!d)
        return ST_ALLOCATION_FAILED;
    set_states(g);
    uint64_t o = 0; /* outputs written */
    for (uint64_t u0 = 0; u0 < units; u0 += chunk) {
        uint64_t m = units - u0 < chunk ? units - u0 : chunk;
        if (rand_pseudo_draws(&g->p, first + u0, m, per, d)) {
            free(d);
            return ST_ALLOCATION_FAILED;
        }
        for (uint64_t u = 0; u < m; u++) {
            const uint32_t *x = d + u * per;
            double v[4] = {0, 0, 0, 0};
            switch (k) {
            case K_U32:
                for (unsigned j = 0; j < outs; j++)
                    v[j] = g->type == MRG32K3A ? (double)(uint32_t)((double)x[j] * 1.000000048662)
                                               : (double)x[j];
                break;
            case K_UNIF:
                for (unsigned j = 0; j < outs; j++)
                    v[j] = g->type == MRG32K3A ? rand_mrg_uniform(x[j]) : rand_uniform(x[j]);
                break;
            case K_UNIFD:
                if (g->type == MRG32K3A)
                    v[0] = rand_mrg_uniform_double(x[0]);
                else
                    for (unsigned j = 0; j < outs; j++)
                        v[j] = rand_uniform_double_hq(x[2 * j], x[2 * j + 1]);
                break;
            case K_NORM:
            case K_LOGN:
                for (unsigned j = 0; j < outs; j += 2) {
                    float r[2];
                    if (g->type == MRG32K3A)
                        rand_box_muller_mrg(x[j], x[j + 1], r);
                    else
                        rand_box_muller(x[j], x[j + 1], r);
                    v[j] = r[0];
                    v[j + 1] = r[1];
                }
                break;
            default: { /* K_NORMD, K_LOGND */
                double r[2];
                if (g->type == MRG32K3A)
                    rand_box_muller_mrg_double(x[0], x[1], r);
                else
                    rand_box_muller_double(x[0], x[1], x[2], x[3], r);
                v[0] = r[0];
                v[1] = r[1];
                if (outs == 4) { /* Philox: the second counter */
                    rand_box_muller_double(x[4], x[5], x[6], x[7], r);
                    v[2] = r[0];
                    v[3] = r[1];
                }
                break;
            }
            }
            for (unsigned j = 0; j < outs; j++) {
                if (u0 + u == 0 && j < skip)
                    continue;
                if (o == n)
                    break;
                store(out, k, o++, v[j], (uint64_t)v[j], (float)a, (float)b, a, b);
            }
        }
    }
    free(d);
    g->offset += philox ? n : units;
    return ST_SUCCESS;
}

/* output o of a generator whose numbers are one draw each (MTGP32, MT19937): uniforms of one
   draw (MTGP32: curand_uniform and d 2^-32 + 2^-32; MT19937: (d + 1/2) 2^-32 in double, the float
   that rounded), the inverse normal CDF of one draw */
static void store_draw(void *out, enum kind k, uint64_t o, uint32_t d, double a, double b, int mt19937)
{
    double v;
    switch (k) {
    case K_U32: v = d; break;
    case K_UNIF: v = mt19937 ? (float)(d * 2.3283064365386963e-10 + 1.1641532182693481e-10)
                             : rand_uniform(d); break;
    case K_UNIFD: v = d * 2.3283064365386963e-10 + (mt19937 ? 1.1641532182693481e-10
                                                            : 2.3283064365386963e-10); break;
    case K_NORM: case K_LOGN: v = rand_normal_icdf(d); break;
    default: v = rand_normal_icdf_double(d); break;
    }
    store(out, k, o, v, d, (float)a, (float)b, a, b);
}

/* MTGP32: one stream of numbers, chunk c of 256 the next round of block c % blocks (192; 64 in
   the legacy ordering); a call continues where the last one stopped, inside a chunk too */
static int fill_mtgp(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b)
{
    unsigned blocks = g->ordering == ORD_LEGACY ? 64 : 192;
    if (!g->mt) {
        g->mt = malloc(192 * sizeof *g->mt);
        if (!g->mt)
            return ST_ALLOCATION_FAILED;
        for (unsigned i = 0; i < 192; i++)
            mtgp_init(&g->mt[i], g->p.seed, (int)i);
        g->mt_chunk = 0;
        g->mt_used = 256;
    }
    for (uint64_t o = 0; o < n; o++) {
        if (g->mt_used == 256) {
            mtgp_round(&g->mt[g->mt_chunk++ % blocks], g->mt_buf);
            g->mt_used = 0;
        }
        store_draw(out, k, o, g->mt_buf[g->mt_used++], a, b, 0);
    }
    return ST_SUCCESS;
}

/* MT19937: one stream of outputs (rand_mt19937.c), a call continuing where the last stopped */
static int fill_mt19937(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b)
{
    if (!g->m19 && !(g->m19 = mt19937_new(g->p.seed)))
        return ST_ALLOCATION_FAILED;
    uint32_t buf[4096];
    for (uint64_t o = 0; o < n; o += 4096) {
        uint64_t m = n - o < 4096 ? n - o : 4096;
        if (mt19937_fill(g->m19, g->m19_next, m, buf))
            return ST_ALLOCATION_FAILED;
        g->m19_next += m;
        for (uint64_t i = 0; i < m; i++)
            store_draw(out, k, o + i, buf[i], a, b, 1);
    }
    return ST_SUCCESS;
}

static int fill_quasi(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b)
{
    int wide = g->type == SOBOL64 || g->type == SCRAMBLED_SOBOL64;
    int scr = g->type == SCRAMBLED_SOBOL32 || g->type == SCRAMBLED_SOBOL64;
    uint64_t m = n / g->dims;
    for (unsigned dim = 0; dim < g->dims; dim++) {
        /* a 32-bit generator's point index is 32 bits wide (the H200's library wraps it) */
        uint64_t j = wide ? g->offset : (uint32_t)g->offset, gray = j ^ (j >> 1);
        uint64_t x;
        if (wide) {
            const uint64_t *v = rand_sobol_vectors64(scr) + (size_t)dim * 64;
            x = scr ? rand_sobol_scramble64()[dim] : 0;
            for (int bit = 0; bit < 64; bit++)
                if (gray >> bit & 1)
                    x ^= v[bit];
        } else {
            const uint32_t *v = rand_sobol_vectors32(scr) + (size_t)dim * 32;
            x = scr ? rand_sobol_scramble32()[dim] : 0;
            for (int bit = 0; bit < 32; bit++)
                if (gray >> bit & 1)
                    x ^= v[bit];
        }
        for (uint64_t i = 0; i < m; i++, j = wide ? j + 1 : (uint32_t)(j + 1)) {
            uint64_t o = (uint64_t)dim * m + i;
            double v;
            uint32_t x32 = (uint32_t)x;
            switch (k) {
            case K_UNIF: v = wide ? rand_uniform((uint32_t)(x >> 32)) : rand_uniform(x32); break;
            case K_UNIFD:
                v = wide ? (double)(x >> 11) * 1.1102230246251565e-16 + 1.1102230246251565e-16 / 2
                         : x32 * 2.3283064365386963e-10 + 2.3283064365386963e-10;
                break;
            case K_NORM: case K_LOGN:
                v = wide ? rand_normal_icdf64(x) : rand_normal_icdf(x32);
                break;
            case K_NORMD: case K_LOGND:
                v = wide ? rand_normal_icdf_double64(x) : rand_normal_icdf_double(x32);
                break;
            default: v = 0; break;
            }
            store(out, k, o, v, x, (float)a, (float)b, a, b);
            /* the next point: flip the direction of the lowest zero bit of j (Gray code) */
            int c = 0;
            while (c < (wide ? 63 : 31) && (j >> c & 1))
                c++;
            if (wide)
                x ^= rand_sobol_vectors64(scr)[(size_t)dim * 64 + c];
            else
                x ^= rand_sobol_vectors32(scr)[(size_t)dim * 32 + c];
        }
    }
    g->offset += m;
    return ST_SUCCESS;
}

/* curandGeneratePoisson (measured: tests/hw/curand/README.md): the square histogram or the
   inverse CDF of rand_poisson.c on the numbers curandGenerate would give (curandGenerateLongLong's
   for the 64-bit Sobol generators); the normal approximation: lambda + sqrt(lambda) n rounded, n a normal
   number: Philox's as curandGenerateNormal lays them, MT19937's from curandGenerateNormal(lambda,
   sqrt(lambda)) in float, XORWOW's and MRG32k3a's one per output, a state's Box-Muller pair
   giving two of its outputs in turn. Either way the generator moves on as curandGenerate(n). */
#define POISSON_MAX 400000.0

/* NVIDIA's library's method for a lambda (measured against its host generator and the H200):
   the square histogram, the normal approximation, the inverse of the CDF; where its method was
   not matched (MTGP32 above 8000, the 32-bit Sobol generators above 5000, the 64-bit ones from
   2000 on) the call is refused by name */
enum { P_TABLE, P_NORMAL, P_INVERSE, P_REFUSED };
static int poisson_method(int type, double l)
{
    if (type == XORWOW || type == MRG32K3A || type == PHILOX || type == MT19937)
        return l < 2000 ? P_TABLE : P_NORMAL;
    if (type == MTGP32)
        return l < 32 ? P_TABLE : l <= 8000 ? P_INVERSE : P_REFUSED;
    if (type == SOBOL64 || type == SCRAMBLED_SOBOL64)
        return l < 2000 ? P_INVERSE : P_REFUSED;
    return l < 10 ? P_TABLE : l <= 5000 ? P_INVERSE : P_REFUSED;
}

static int fill_any(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b);

static int fill_poisson_pairs(struct gen *g, uint32_t *out, uint64_t n, double lambda)
{
    set_states(g);
    uint64_t S = g->p.states, first = g->offset;
    uint32_t *d = malloc((size_t)n * 2 * sizeof *d);
    if (!d)
        return ST_ALLOCATION_FAILED;
    if (rand_pseudo_draws(&g->p, first, n, 2, d)) {
        free(d);
        return ST_ALLOCATION_FAILED;
    }
    double s = sqrt(lambda);
    for (uint64_t i = 0; i < n; i++) {
        /* output i is output k of its state in this call; its pair is that state's (k / 2)-th */
        uint64_t e = first + i, e0 = first + (e % S + S - first % S) % S, k = (e - e0) / S;
        uint64_t ip = i - S * ((k + 1) / 2);
        float r[2];
        if (g->type == MRG32K3A)
            rand_box_muller_mrg(d[2 * ip], d[2 * ip + 1], r);
        else
            rand_box_muller(d[2 * ip], d[2 * ip + 1], r);
        out[i] = (uint32_t)(s * r[k % 2] + lambda + 0.5);
    }
    free(d);
    rand_pseudo_reset(&g->p); /* the states stand as after curandGenerate(n) */
    g->offset += n;
    return ST_SUCCESS;
}

static int fill_poisson(struct gen *g, uint32_t *out, uint64_t n, double lambda)
{
    int wide = g->type == SOBOL64 || g->type == SCRAMBLED_SOBOL64;
    int method = poisson_method(g->type, lambda);
    if (method == P_NORMAL && (g->type == XORWOW || g->type == MRG32K3A))
        return fill_poisson_pairs(g, out, n, lambda);
    void *tmp = malloc((size_t)n * (wide ? 8 : 4));
    if (!tmp)
        return ST_ALLOCATION_FAILED;
    int st;
    if (method == P_NORMAL) { /* Philox, MT19937 */
        int mt = g->type == MT19937;
        st = fill_any(g, K_NORM, tmp, n, mt ? lambda : 0, mt ? sqrt(lambda) : 1);
        const float *v = tmp;
        for (uint64_t i = 0; i < n && !st; i++)
            out[i] = mt ? (uint32_t)(v[i] + 0.5f) : (uint32_t)(sqrt(lambda) * v[i] + lambda + 0.5);
    } else {
        int inv = method == P_INVERSE;
        if (!g->pois.V || g->pois.lambda != lambda || g->pois.inverse != inv) {
            rand_poisson_free(&g->pois);
            if (rand_poisson_make(&g->pois, lambda, inv)) {
                free(tmp);
                return ST_ALLOCATION_FAILED;
            }
        }
        st = fill_any(g, wide ? K_U64 : K_U32, tmp, n, 0, 0);
        for (uint64_t i = 0; i < n && !st; i++)
            out[i] = wide ? rand_poisson_draw64(&g->pois, ((uint64_t *)tmp)[i])
                          : rand_poisson_draw(&g->pois, ((uint32_t *)tmp)[i]);
    }
    free(tmp);
    return st;
}

static int fill_any(struct gen *g, enum kind k, void *out, uint64_t n, double a, double b)
{
    return g->type == MTGP32 ? fill_mtgp(g, k, out, n, a, b)
           : g->type == MT19937 ? fill_mt19937(g, k, out, n, a, b)
           : pseudo(g->type) ? fill_pseudo(g, k, out, n, a, b) : fill_quasi(g, k, out, n, a, b);
}

static int generate(const char *call, struct gen *g, enum kind k, void *ptr, size_t n, double a,
                    double b)
{
    if (!g)
        return fail(ST_NOT_INITIALIZED, "the generator is NULL");
    if (k == K_POIS && !(a > 0 && a <= POISSON_MAX))
        return fail(ST_OUT_OF_RANGE, "lambda must be above 0 and at most 400000");
    int wide = g->type == SOBOL64 || g->type == SCRAMBLED_SOBOL64;
    if (k == K_POIS && poisson_method(g->type, a) == P_REFUSED) {
        char sentence[300];
        snprintf(sentence, sizeof sentence, "lambda %g on %s: cuRAND's method there is not the "
                 "one the stand-in computes (measured: it matches up to lambda %g)", a,
                 type_name(g->type), g->type == MTGP32 ? 8000.0 : wide ? 1999.0 : 5000.0);
        __cudaSmemlabUnsupported(call, sentence);
    }
    if ((k == K_U64 && !wide) || (k == K_U32 && wide))
        return fail(ST_TYPE_ERROR, wide ? "a 64-bit generator: curandGenerateLongLong"
                                        : "curandGenerateLongLong needs a 64-bit Sobol generator");
    if (pseudo(g->type) && g->type != PHILOX && g->type != MTGP32 && g->type != MT19937 && n % 2 &&
        (k == K_NORM || k == K_NORMD || k == K_LOGN || k == K_LOGND))
        return fail(ST_LENGTH_NOT_MULTIPLE, "normal numbers come in pairs: n must be even");
    if (!pseudo(g->type) && n % g->dims)
        return fail(ST_LENGTH_NOT_MULTIPLE, "n must be a multiple of the dimensions");
    if (!n)
        return ST_SUCCESS;
    if (g->ordering == ORD_DYNAMIC) { /* what the H200's dumps did not settle */
        int normal = k == K_NORM || k == K_NORMD || k == K_LOGN || k == K_LOGND ||
                     (k == K_POIS && poisson_method(g->type, a) == P_NORMAL);
        const char *why = g->type == MTGP32 ? "MTGP32's blocks in CURAND_ORDERING_PSEUDO_DYNAMIC"
            : g->type == XORWOW && normal ? "XORWOW's normal numbers in CURAND_ORDERING_PSEUDO_DYNAMIC"
            : g->type == PHILOX && g->fresh && g->offset / 4 > PHILOX_DYN_PLAIN &&
                      (g->offset / 4 < PHILOX_DYN_SHIFTED || k == K_UNIFD || k == K_NORMD || k == K_LOGND)
                ? "Philox in CURAND_ORDERING_PSEUDO_DYNAMIC, the first call after an offset of "
                  "270337 to 399999 numbers, or of doubles after one of 270337 or more" : NULL;
        if (why) {
            char sentence[300];
            snprintf(sentence, sizeof sentence, "%s (their layout on the GPU is not known to "
                     "smemlab's cuRAND stand-in)", why);
            __cudaSmemlabUnsupported(call, sentence);
        }
    }
    void *out = ptr;
    if (!g->host) {
        char why[400], sentence[700];
        if (__cudaSmemlabLibraryBytes(ptr, (unsigned long long)n * esize[k], 1, &out, why,
                                      sizeof why)) {
            snprintf(sentence, sizeof sentence, "%s: the output at %p (%zu numbers, %llu bytes) "
                     "is %s; on a GPU the call would write outside device memory", call, ptr, n,
                     (unsigned long long)n * esize[k], why);
            __cudaSmemlabLibraryStop(sentence);
        }
    } else if (!ptr) {
        return fail(ST_OUT_OF_RANGE, "the output is NULL");
    }
    double t0 = now();
    uint64_t offset = g->type == MT19937 ? g->m19_next : g->offset;
    int st = k == K_POIS ? fill_poisson(g, out, n, a) : fill_any(g, k, out, n, a, b);
    if (st)
        return fail(st, "out of host memory");
    g->fresh = 0;
    char shape[160];
    snprintf(shape, sizeof shape, "n=%zu %s offset=%llu%s", n, type_name(g->type),
             (unsigned long long)offset, g->host ? " host" : "");
    __cudaSmemlabLibraryCall("cuRAND", call, shape, kind_precision[k], now() - t0, 0);
    return ST_SUCCESS;
}

API int curandGenerate(struct gen *g, unsigned *out, size_t n);
API int curandGenerate(struct gen *g, unsigned *out, size_t n)
{
    return generate(kind_call[K_U32], g, K_U32, out, n, 0, 0);
}

API int curandGenerateLongLong(struct gen *g, unsigned long long *out, size_t n);
API int curandGenerateLongLong(struct gen *g, unsigned long long *out, size_t n)
{
    return generate(kind_call[K_U64], g, K_U64, out, n, 0, 0);
}

API int curandGenerateUniform(struct gen *g, float *out, size_t n);
API int curandGenerateUniform(struct gen *g, float *out, size_t n)
{
    return generate(kind_call[K_UNIF], g, K_UNIF, out, n, 0, 0);
}

API int curandGenerateUniformDouble(struct gen *g, double *out, size_t n);
API int curandGenerateUniformDouble(struct gen *g, double *out, size_t n)
{
    return generate(kind_call[K_UNIFD], g, K_UNIFD, out, n, 0, 0);
}

API int curandGenerateNormal(struct gen *g, float *out, size_t n, float mean, float stddev);
API int curandGenerateNormal(struct gen *g, float *out, size_t n, float mean, float stddev)
{
    return generate(kind_call[K_NORM], g, K_NORM, out, n, mean, stddev);
}

API int curandGenerateNormalDouble(struct gen *g, double *out, size_t n, double mean,
                                   double stddev);
API int curandGenerateNormalDouble(struct gen *g, double *out, size_t n, double mean,
                                   double stddev)
{
    return generate(kind_call[K_NORMD], g, K_NORMD, out, n, mean, stddev);
}

API int curandGenerateLogNormal(struct gen *g, float *out, size_t n, float mean, float stddev);
API int curandGenerateLogNormal(struct gen *g, float *out, size_t n, float mean, float stddev)
{
    return generate(kind_call[K_LOGN], g, K_LOGN, out, n, mean, stddev);
}

API int curandGenerateLogNormalDouble(struct gen *g, double *out, size_t n, double mean,
                                      double stddev);
API int curandGenerateLogNormalDouble(struct gen *g, double *out, size_t n, double mean,
                                      double stddev)
{
    return generate(kind_call[K_LOGND], g, K_LOGND, out, n, mean, stddev);
}

API int curandGeneratePoisson(struct gen *g, unsigned *out, size_t n, double lambda);
API int curandGeneratePoisson(struct gen *g, unsigned *out, size_t n, double lambda)
{
    return generate(kind_call[K_POIS], g, K_POIS, out, n, lambda, 0);
}

#define DISCRETE_WHY "cuRAND's discrete distribution objects (curandCreatePoissonDistribution, for " \
                     "curand_kernel.h's curand_discrete) are not computed by smemlab's cuRAND stand-in"

API int curandGeneratePoissonMethod(void);
API int curandGeneratePoissonMethod(void)
{
    __cudaSmemlabUnsupported("curandGeneratePoissonMethod", DISCRETE_WHY);
}

API int curandCreatePoissonDistribution(void);
API int curandCreatePoissonDistribution(void)
{
    __cudaSmemlabUnsupported("curandCreatePoissonDistribution", DISCRETE_WHY);
}

API int curandDestroyDistribution(void);
API int curandDestroyDistribution(void)
{
    __cudaSmemlabUnsupported("curandDestroyDistribution", DISCRETE_WHY);
}

/* ---- the tables ---- */

API int curandGetDirectionVectors32(const void **vectors, int set);
API int curandGetDirectionVectors32(const void **vectors, int set)
{
    if (set != 101 && set != 102)
        return fail(ST_OUT_OF_RANGE, "not a 32-bit direction vector set");
    if (!vectors)
        return fail(ST_OUT_OF_RANGE, "the vectors pointer is NULL");
    if (!rand_sobol_vectors32(0))
        __cudaSmemlabUnsupported("curandGetDirectionVectors32", "this build had no CUDA toolkit");
    *vectors = rand_sobol_vectors32(set == 102);
    return ST_SUCCESS;
}

API int curandGetDirectionVectors64(const void **vectors, int set);
API int curandGetDirectionVectors64(const void **vectors, int set)
{
    if (set != 103 && set != 104)
        return fail(ST_OUT_OF_RANGE, "not a 64-bit direction vector set");
    if (!vectors)
        return fail(ST_OUT_OF_RANGE, "the vectors pointer is NULL");
    if (!rand_sobol_vectors64(0))
        __cudaSmemlabUnsupported("curandGetDirectionVectors64", "this build had no CUDA toolkit");
    *vectors = rand_sobol_vectors64(set == 104);
    return ST_SUCCESS;
}

API int curandGetScrambleConstants32(const uint32_t **c);
API int curandGetScrambleConstants32(const uint32_t **c)
{
    if (!c)
        return fail(ST_OUT_OF_RANGE, "the constants pointer is NULL");
    if (!rand_sobol_scramble32())
        __cudaSmemlabUnsupported("curandGetScrambleConstants32", "this build had no CUDA toolkit");
    *c = rand_sobol_scramble32();
    return ST_SUCCESS;
}

API int curandGetScrambleConstants64(const uint64_t **c);
API int curandGetScrambleConstants64(const uint64_t **c)
{
    if (!c)
        return fail(ST_OUT_OF_RANGE, "the constants pointer is NULL");
    if (!rand_sobol_scramble64())
        __cudaSmemlabUnsupported("curandGetScrambleConstants64", "this build had no CUDA toolkit");
    *c = rand_sobol_scramble64();
    return ST_SUCCESS;
}
