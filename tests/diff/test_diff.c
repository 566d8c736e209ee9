/* test_diff: replays every case of the differential suite on the emulator and compares its outputs
 * with the H100's (tests/diff/golden/), bit for bit; approximate instructions within the PTX ISA's
 * bounds (tests/diff/README.md). A combination the emulator refuses must be refused with a located
 * message and be listed in tests/diff/refused.txt; every other one must match on every case.
 *
 *   test_diff [-v] [--all] [--only SUBSTRING|=NAME] [--golden PATH] [--emit DIR]
 *
 * --emit DIR writes the emulator's outputs as DIR/outputs.bin + device.txt (diffgen pack's input),
 * for testing the suite itself. */
#include "cases.h"

#include "smemlab/emu/cta.h"
#include "smemlab/ptx/ptx.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef SMEMLAB_SOURCE_DIR
#define SMEMLAB_SOURCE_DIR "."
#endif

struct gold {
    char name[64];
    uint64_t hash, off, size;
};

static struct gold *golds;
static unsigned ngolds;
static uint8_t *gold_bin;
static size_t gold_size;
static int verbose;
static unsigned show_max = 4;

static int load_golden(const char *path)
{
    char p[4096], line[512];
    snprintf(p, sizeof p, "%s.idx", path);
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    unsigned cap = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#') {
            if (verbose)
                printf("golden %s", line + 2);
            continue;
        }
        char *tab = strchr(line, '\t');
        if (!tab)
            continue;
        if (ngolds == cap) {
            cap = cap ? cap * 2 : 1024;
            golds = realloc(golds, cap * sizeof *golds);
            if (!golds)
                return -1;
        }
        struct gold *g = &golds[ngolds];
        *tab = 0;
        snprintf(g->name, sizeof g->name, "%.63s", line);
        unsigned long long off, size;
        if (sscanf(tab + 1, "%" SCNx64 " %llu %llu", &g->hash, &off, &size) != 3)
            continue;
        g->off = off;
        g->size = size;
        ngolds++;
    }
    fclose(f);
    snprintf(p, sizeof p, "%s.bin", path);
    f = fopen(p, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    gold_size = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    gold_bin = malloc(gold_size ? gold_size : 1);
    if (!gold_bin || fread(gold_bin, 1, gold_size, f) != gold_size) {
        fclose(f);
        return -1;
    }
    fclose(f);
    return 0;
}

static const struct gold *find_gold(const char *name)
{
    for (unsigned i = 0; i < ngolds; i++)
        if (!strcmp(golds[i].name, name))
            return &golds[i];
    return NULL;
}

/* ---- refusals ------------------------------------------------------------------------------ */

static char **refused;
static unsigned nrefused;

static void load_refused(void)
{
    char line[512];
    FILE *f = fopen(SMEMLAB_SOURCE_DIR "/tests/diff/refused.txt", "r");
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        line[strcspn(line, "\t\n")] = 0;
        char **nr = realloc(refused, (nrefused + 1) * sizeof *nr);
        if (!nr)
            break;
        refused = nr;
        refused[nrefused] = malloc(strlen(line) + 1);
        if (!refused[nrefused])
            break;
        strcpy(refused[nrefused++], line);
    }
    fclose(f);
}

static int expect_refused(const char *name)
{
    for (unsigned i = 0; i < nrefused; i++)
        if (!strcmp(refused[i], name))
            return 1;
    return 0;
}

/* ---- running one combination ------------------------------------------------------------------ */

/* Runs c on the emulator: out (poisoned first) and known (per byte) get its outputs. Returns 0,
 * -1 refused (err says why and where), -2 the harness failed. */
/* The modules the GPU ran, one a group (a kernel's shared layout depends on what the module
 * declares before it), parsed once. NULL where the group does not parse: its kernels are then
 * parsed alone, to say where. */
static const struct diff_set *the_set;
static struct smem_ptx_module *group_mod[64];
static const char *group_name[64];
static int group_tried[64];
static unsigned ngroup;

static struct smem_ptx_module *module_of(const char *group)
{
    unsigned g;
    for (g = 0; g < ngroup && strcmp(group_name[g], group); g++)
        ;
    if (g == ngroup) {
        if (ngroup == 64)
            return NULL;
        group_name[ngroup++] = group;
    }
    if (!group_tried[g]) {
        struct smem_error e;
        char *ptx = diff_module_ptx(the_set, group);
        group_tried[g] = 1;
        if (ptx && smem_ptx_parse(ptx, strlen(ptx), group, &group_mod[g], &e))
            group_mod[g] = NULL;
        free(ptx);
    }
    return group_mod[g];
}

static int run_combo(const struct diff_combo *c, uint8_t *out, uint8_t *known,
                     struct smem_error *err, int *incomplete)
{
    char *ptx = NULL;
    size_t insz = diff_in_size(c), outsz = diff_out_size(c);
    uint8_t *in = malloc(insz);
    struct smem_ptx_module *m = NULL, *gm_ = module_of(c->group);
    struct smem_cta_program *p = NULL;
    int rc = -2;
    *incomplete = 0;
    if (!in)
        goto out;
    diff_inputs(c, in);
    memset(out, DIFF_POISON, outsz);
    memset(known, 1, outsz);
    rc = -1;
    if (!gm_) {
        ptx = diff_kernel_ptx(c);
        if (!ptx || smem_ptx_parse(ptx, strlen(ptx), c->kname, &m, err))
            goto out;
    }
    const struct smem_ptx_module *mod = gm_ ? gm_ : m;
    const struct smem_ptx_func *f = smem_ptx_find(mod, c->kname);
    if (!f) {
        rc = -2;
        goto out;
    }
    if (smem_cta_prepare(mod, f, c->dyn_smem, &p, err))
        goto out;
    struct smem_global_region reg[2] = {
        {DIFF_IN_BASE, insz, in, NULL, 1, 0},
        {DIFF_OUT_BASE, outsz, out, known, 0, 0},
    };
    struct smem_global_memory gm;
    memset(&gm, 0, sizeof gm);
    gm.regions = reg;
    gm.nregions = 2;
    gm.faults_stop = 1;
    uint8_t params[16];
    uint64_t bi = DIFF_IN_BASE, bo = DIFF_OUT_BASE;
    memcpy(params, &bi, 8);
    memcpy(params + 8, &bo, 8);
    struct smem_launch l;
    memset(&l, 0, sizeof l);
    memcpy(l.block, c->block, sizeof l.block);
    memcpy(l.grid, c->grid, sizeof l.grid);
    l.dyn_smem = c->dyn_smem;
    l.global = &gm;
    l.param_buf = params;
    l.param_buf_size = sizeof params;
    struct smem_cta_result res;
    if (smem_cta_run(p, &l, NULL, &res, err))
        goto out;
    if (!res.complete) {
        *incomplete = 1;
        snprintf(err->msg, sizeof err->msg, "stopped: the %s at PTX instruction %u is unknown",
                 res.unknown.what, res.unknown.insn);
    }
    rc = 0;
out:
    smem_cta_program_free(p);
    smem_ptx_free(m);
    free(ptx);
    free(in);
    return rc;
}

/* ---- comparing -------------------------------------------------------------------------------- */

static double f16v(uint16_t h, int bf)
{
    if (bf) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = (h >> 10) & 0x1f;
    double m = h & 0x3ff;
    double v = e == 31 ? (m ? NAN : INFINITY) : e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return h & 0x8000 ? -v : v;
}

static double value_of(uint64_t bits, unsigned fmt)
{
    switch (fmt) {
    case DF_F16: return f16v((uint16_t)bits, 0);
    case DF_BF16: return f16v((uint16_t)bits, 1);
    case DF_F64: { double d; memcpy(&d, &bits, 8); return d; }
    default: { uint32_t u = (uint32_t)bits; float f; memcpy(&f, &u, 4); return f; }
    }
}

/* ulp of a value in format fmt */
static double ulp_of(double v, unsigned fmt)
{
    int p = fmt == DF_F16 ? 11 : fmt == DF_BF16 ? 8 : fmt == DF_F64 ? 53 : 24;
    int emin = fmt == DF_F16 ? -14 : fmt == DF_F64 ? -1022 : -126;
    int e;
    frexp(v, &e);
    e -= 1;
    if (e < emin)
        e = emin;
    return ldexp(1.0, e - p + 1);
}

/* Ordered distance in ulps between two finite values of the same format. */
static double ulp_dist(uint64_t a, uint64_t b, unsigned fmt)
{
    int64_t ia, ib;
    if (fmt == DF_F64) {
        ia = (int64_t)a;
        ib = (int64_t)b;
        ia = ia < 0 ? (int64_t)0x8000000000000000ull - ia : ia;
        ib = ib < 0 ? (int64_t)0x8000000000000000ull - ib : ib;
    } else {
        int32_t xa = (int32_t)(uint32_t)a, xb = (int32_t)(uint32_t)b;
        ia = xa < 0 ? (int64_t)INT32_MIN - xa : xa;
        ib = xb < 0 ? (int64_t)INT32_MIN - xb : xb;
    }
    return fabs((double)ia - (double)ib);
}

/* The bounds of approximate instructions: the PTX ISA's (9.1, sections 9.7.3 and 9.7.4), or where it
 * states none, the suite's own (README.md). Special values (NaN, infinities, zeros of exact
 * results) must match exactly; ulps are counted against the correctly rounded result, which is
 * what the emulator gives. */
static const char *const tol_what[TOL_COUNT] = {
    [TOL_RCP_F32] = "rcp.approx.f32: 1 ulp (ISA)",
    [TOL_SQRT_F32] = "sqrt.approx.f32: relative 2^-23 (ISA)",
    [TOL_RSQRT_F32] = "rsqrt.approx.f32: relative 2^-22.9 (ISA)",
    [TOL_RCP_F64] = "rcp.approx.ftz.f64: no ISA bound; relative 2^-19 (suite)",
    [TOL_RSQRT_F64] = "rsqrt.approx.f64: no ISA bound; 1 ulp (suite)",
    [TOL_RSQRT_F64FTZ] = "rsqrt.approx.ftz.f64: no ISA bound; relative 2^-19 (suite)",
    [TOL_SIN] = "sin.approx.f32: absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] (ISA)",
    [TOL_COS] = "cos.approx.f32: absolute 2^-20.5 on [-2pi, 2pi], 2^-14.7 on [-100pi, 100pi] (ISA)",
    [TOL_LG2] = "lg2.approx.f32: absolute 2^-22 on (0.5, 2), relative 2^-22 elsewhere (ISA)",
    [TOL_EX2_F32] = "ex2.approx.f32: 2 ulp from the correctly rounded result (ISA)",
    [TOL_EX2_F16] = "ex2.approx.f16: relative 2^-9.9 (ISA)",
    [TOL_EX2_BF16] = "ex2.approx.ftz.bf16: relative 2^-7 (ISA)",
    [TOL_TANH_F32] = "tanh.approx.f32: relative 2^-11 (ISA)",
    [TOL_TANH_F16] = "tanh.approx.f16: absolute 2^-10.987 (ISA)",
    [TOL_TANH_BF16] = "tanh.approx.bf16: absolute 2^-8 (ISA)",
    [TOL_DIV_APPROX] = "div.approx.f32: 2 ulp for |b| in [2^-126, 2^126] (ISA; the suite's below)",
    [TOL_DIV_FULL] = "div.full.f32: 2 ulp (ISA)",
};

#define PI 3.14159265358979323846

/* Within the bound? x: the operand (the first; b for division); err_out: the error in units of
 * the bound (for the report). */
static int within(unsigned tol, unsigned fmt, uint64_t hw, uint64_t emu, double x, double *err_out)
{
    double h = value_of(hw, fmt), e = value_of(emu, fmt);
    *err_out = 0;
    if (isnan(h) || isnan(e))
        return isnan(h) && isnan(e);
    if (isinf(h) || isinf(e))
        return h == e;
    double ulps = 0, absb = 0, relb = 0, u = ulp_of(e, fmt);
    switch (tol) {
    case TOL_RCP_F32: case TOL_RSQRT_F64: ulps = 1; break;
    case TOL_EX2_F32: case TOL_DIV_FULL: ulps = 2; break;
    case TOL_DIV_APPROX: /* |b| above 2^126: zero or NaN, exactly; below 2^-126 no ISA bound */
        if (fabs(x) > 0x1p126)
            return hw == emu;
        ulps = 2;
        break;
    case TOL_SQRT_F32: relb = 0x1p-23; break;
    case TOL_RSQRT_F32: relb = 0x1.13p-23; /* 2^-22.9 */ break;
    case TOL_RCP_F64: case TOL_RSQRT_F64FTZ: relb = 0x1p-19; break;
    case TOL_SIN: case TOL_COS:
        if (fabs(x) > 100 * PI)
            return fabs(h) <= 1; /* "no defined error guarantees" */
        absb = fabs(x) <= 2 * PI ? 0x1.6ap-21 /* 2^-20.5 */ : 0x1.3p-15 /* 2^-14.7 */;
        break;
    case TOL_LG2: if (x > 0.5 && x < 2) absb = 0x1p-22; else relb = 0x1p-22; break;
    case TOL_EX2_F16: relb = 0x1.12p-10; /* 2^-9.9 */ break;
    case TOL_EX2_BF16: relb = 0x1p-7; break;
    case TOL_TANH_F32: relb = 0x1p-11; break;
    case TOL_TANH_F16: absb = 0x1.01p-11; /* 2^-10.987 */ break;
    case TOL_TANH_BF16: absb = 0x1p-8; break;
    default: return hw == emu;
    }
    if (ulps) {
        double d = ulp_dist(hw, emu, fmt);
        *err_out = d / ulps;
        return d <= ulps;
    }
    /* a bound on the error from the exact value; the emulator's own is half an ulp. Below the
     * normal range a relative bound cannot hold: there one unit of the format is allowed. */
    double b = absb + relb * fabs(e), d = fabs(h - e), lim = b + 0.5 * u;
    double min_normal = fmt == DF_F16 ? 0x1p-14 : fmt == DF_F64 ? 0x1p-1022 : 0x1p-126;
    if (relb && fabs(e) < min_normal)
        lim = b + u;
    *err_out = b ? d / lim : 0;
    return d <= lim;
}

static uint64_t read_bits(const uint8_t *p, unsigned w)
{
    uint64_t v = 0;
    memcpy(&v, p, w);
    return v;
}

struct stats {
    unsigned combos, matched, refused, failed, missing;
    uint64_t cases, undefined, approx_cases;
};

static int compare(const struct diff_combo *c, const uint8_t *gold, const uint8_t *out,
                   const uint8_t *known, struct stats *st, unsigned *nbad)
{
    uint8_t *in = malloc(diff_in_size(c));
    if (!in)
        return -1;
    diff_inputs(c, in);
    double worst = 0;
    unsigned shown = 0;
    *nbad = 0;
    for (unsigned i = 0; i < c->ncases; i++) {
        int bad = 0;
        for (unsigned j = 0; j < c->nout; j++) {
            size_t o = diff_out_offset(c, j, i);
            unsigned w = c->outw[j];
            int unk = 0;
            for (unsigned b = 0; b < w; b++)
                if (!known[o + b])
                    unk = 1;
            uint64_t g = read_bits(gold + o, w), e = read_bits(out + o, w);
            if (unk) {
                if (c->flags & DIFF_UNDEF_OK) {
                    st->undefined++;
                    continue;
                }
                bad = 1;
            } else if (g != e) {
                /* the operand the bound depends on: b for division, a otherwise */
                unsigned xo = c->tol == TOL_DIV_APPROX || c->tol == TOL_DIV_FULL ? 1 : 0;
                double err = 0,
                       x = value_of(read_bits(in + ((size_t)xo * c->ncases + i) * 8, 8), c->outfmt[j]);
                if (c->tol && c->outfmt[j] == DF_F16X2) {
                    double e1 = 0, e2 = 0;
                    bad = !within(c->tol, DF_F16, g & 0xffff, e & 0xffff, x, &e1) ||
                          !within(c->tol, DF_F16, g >> 16, e >> 16, x, &e2);
                    err = e1 > e2 ? e1 : e2;
                } else if (c->tol && c->outfmt[j] == DF_BF16X2) {
                    double e1 = 0, e2 = 0;
                    bad = !within(c->tol, DF_BF16, g & 0xffff, e & 0xffff, x, &e1) ||
                          !within(c->tol, DF_BF16, g >> 16, e >> 16, x, &e2);
                    err = e1 > e2 ? e1 : e2;
                } else if (c->tol) {
                    bad = !within(c->tol, c->outfmt[j], g, e, x, &err);
                } else {
                    bad = 1;
                }
                if (err > worst)
                    worst = err;
            }
            if (bad && shown < show_max) {
                if (!shown)
                    printf("  %s:\n", c->name);
                shown++;
                printf("    case %u out %u: gpu %0*" PRIx64 " emulator %0*" PRIx64 "%s  inputs", i, j,
                       2 * w, g, 2 * w, e, unk ? " (unknown)" : "");
                for (unsigned k = 0; k < c->nin; k++)
                    printf(" %0*" PRIx64, 2 * c->inw[k],
                           read_bits(in + ((size_t)k * c->ncases + i) * 8, c->inw[k] > 1 ? c->inw[k] : 1));
                printf("\n");
            }
        }
        if (bad)
            (*nbad)++;
    }
    if (c->tol) {
        st->approx_cases += c->ncases;
        if (verbose)
            printf("  %-34s worst error %.2f of the bound (%s)\n", c->name, worst, tol_what[c->tol]);
    }
    free(in);
    return 0;
}

static int emit_outputs(const struct diff_set *s, const char *dir)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/outputs.bin", dir);
    FILE *f = fopen(p, "wb");
    snprintf(p, sizeof p, "%s/device.txt", dir);
    FILE *d = fopen(p, "w");
    if (!f || !d)
        return 1;
    fprintf(d, "device: the emulator (test_diff --emit)\n");
    fclose(d);
    for (unsigned i = 0; i < s->n; i++) {
        size_t n = diff_out_size(&s->c[i]);
        uint8_t *out = malloc(n), *known = malloc(n);
        struct smem_error err;
        int inc;
        memset(&err, 0, sizeof err);
        if (!out || !known)
            return 1;
        run_combo(&s->c[i], out, known, &err, &inc);
        fwrite(out, 1, n, f);
        free(out);
        free(known);
    }
    return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
    const char *only = NULL, *golden = SMEMLAB_SOURCE_DIR "/tests/diff/golden/h100", *emit = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-v")) {
            verbose = 1;
            show_max = 12;
        } else if (!strcmp(argv[i], "--all"))
            show_max = 1u << 30;
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) /* =NAME: exactly that one */
            only = argv[++i];
        else if (!strcmp(argv[i], "--golden") && i + 1 < argc)
            golden = argv[++i];
        else if (!strcmp(argv[i], "--emit") && i + 1 < argc)
            emit = argv[++i];
        else {
            fprintf(stderr, "usage: test_diff [-v] [--only SUBSTRING] [--golden PATH] [--emit DIR]\n");
            return 2;
        }
    }
    struct diff_set s;
    if (diff_build(&s)) {
        fprintf(stderr, "test_diff: the combination table is broken\n");
        return 1;
    }
    the_set = &s;
    if (emit)
        return emit_outputs(&s, emit);
    if (load_golden(golden)) {
        fprintf(stderr, "test_diff: cannot read the golden data %s.idx/.bin\n", golden);
        return 1;
    }
    load_refused();
    struct stats st;
    memset(&st, 0, sizeof st);
    for (unsigned i = 0; i < s.n; i++) {
        const struct diff_combo *c = &s.c[i];
        if (only && (only[0] == '=' ? strcmp(c->name, only + 1) != 0 : !strstr(c->name, only)))
            continue;
        st.combos++;
        const struct gold *g = find_gold(c->name);
        if (expect_refused(c->name)) { /* refused: nothing to compare, no GPU data needed */
            size_t n = diff_out_size(c);
            uint8_t *out = malloc(n), *known = malloc(n);
            struct smem_error err;
            int inc = 0;
            memset(&err, 0, sizeof err);
            if (!out || !known)
                return 1;
            int rc = run_combo(c, out, known, &err, &inc);
            free(out);
            free(known);
            if (rc == -1 && err.line > 0) {
                if (verbose)
                    printf("refused  %s: %s:%u: %s\n", c->name, err.file[0] ? err.file : "PTX",
                           err.line, err.msg);
                st.refused++;
            } else {
                printf("FAIL     %s: listed in refused.txt but %s\n", c->name,
                       rc == -1 ? "refused without a location" : "runs");
                st.failed++;
            }
            continue;
        }
        if (!g || g->size != diff_out_size(c) || g->off + g->size > gold_size) {
            printf("MISSING  %s: not in the golden data (measure it: tests/diff/README.md)\n", c->name);
            st.missing++;
            continue;
        }
        if (g->hash != diff_hash(c)) {
            printf("MISSING  %s: the golden data were made from another kernel or inputs\n", c->name);
            st.missing++;
            continue;
        }
        size_t n = diff_out_size(c);
        uint8_t *out = malloc(n), *known = malloc(n);
        struct smem_error err;
        int inc = 0;
        memset(&err, 0, sizeof err);
        if (!out || !known)
            return 1;
        int rc = run_combo(c, out, known, &err, &inc);
        if (rc == -1) {
            int located = err.line > 0;
            int listed = expect_refused(c->name);
            if (!located || !listed) {
                printf("FAIL     %s: refused%s%s: %s:%u:%u: %s\n", c->name,
                       located ? "" : " without a location", listed ? "" : " (not in refused.txt)",
                       err.file[0] ? err.file : "?", err.line, err.col, err.msg);
                st.failed++;
            } else {
                if (verbose)
                    printf("refused  %s: line %u: %s\n", c->name, err.line, err.msg);
                st.refused++;
            }
        } else if (rc == -2 || inc) {
            printf("FAIL     %s: %s\n", c->name, rc == -2 ? "the harness failed" : err.msg);
            st.failed++;
        } else {
            unsigned nbad = 0;
            st.cases += c->ncases;
            if (expect_refused(c->name)) {
                printf("FAIL     %s: listed in refused.txt but runs\n", c->name);
                st.failed++;
            }
            compare(c, gold_bin + g->off, out, known, &st, &nbad);
            if (nbad) {
                printf("FAIL     %s: %u of %u cases differ from the H100\n", c->name, nbad, c->ncases);
                st.failed++;
            } else {
                st.matched++;
            }
        }
        free(out);
        free(known);
    }
    printf("%u combinations: %u match the H100 on all %" PRIu64 " cases (%" PRIu64
           " within the ISA's bounds of approximate instructions, %" PRIu64
           " undefined on the GPU skipped), %u refused with a located message, %u fail, %u not "
           "measured\n",
           st.combos, st.matched, st.cases, st.approx_cases, st.undefined, st.refused, st.failed,
           st.missing);
    for (unsigned g = 0; g < ngroup; g++)
        smem_ptx_free(group_mod[g]);
    diff_free(&s);
    return st.failed || st.missing ? 1 : 0;
}
