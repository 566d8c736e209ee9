/* test_layout_same.c: one list of layouts (model/layout.h) for `smemlab pattern --advise` and
 * `smemlab advise`. First the list's own promises (pads first, then swizzles in one strict order,
 * one-to-one as a brute force says), then the documents' and the tests' accesses searched both
 * ways: pattern on the expression, advise on a kernel that makes exactly that access
 * (tests/advise/same.cu); both must propose the same pad, the same swizzle, the same best, at the
 * same cost. The second part exits 77 (skipped) when nvcc cannot run. */
#include "check.h"
#include "smemlab/analysis/advise.h"
#include "smemlab/model/layout.h"
#include "smemlab/model/pattern.h"

#include <stdlib.h>
#include <string.h>

#define SAME_CU SMEMLAB_SOURCE_DIR "/tests/advise/same.cu"

static int no_nvcc;

static struct smem_layout_space space(uint32_t elem, uint32_t row, uint32_t rows, uint32_t elems,
                                      uint32_t unit)
{
    struct smem_layout_space sp;
    memset(&sp, 0, sizeof sp);
    sp.elem_bytes = elem;
    sp.row_elems = row;
    sp.rows = rows;
    sp.elems = elems;
    sp.unit = unit;
    sp.banks = smem_banks_default();
    return sp;
}

static unsigned bits_of(uint32_t n)
{
    unsigned k = 0;
    while (k < 32 && (1ull << k) < n)
        k++;
    return k;
}

/* ---- the list ------------------------------------------------------------------------------ */

static void test_pads_first_then_swizzles_in_one_order(void)
{
    const struct smem_layout_space cases[] = {
        space(4, 32, 32, 1024, 4), space(4, 32, 16, 512, 4),   space(4, 24, 16, 384, 4),
        space(2, 32, 64, 2048, 16), space(8, 32, 32, 1024, 8), space(1, 32, 32, 1024, 1),
        space(16, 32, 32, 1024, 16), space(4, 0, 0, 1024, 4),  space(4, 48, 32, 1536, 4),
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const struct smem_layout_space *sp = &cases[i];
        struct smem_layout_iter it, its;
        struct smem_layout l, prev, ls;
        unsigned npads = 0, nswz = 0, ntma = 0;
        int have = 0;
        smem_layout_iter_init(&it, SMEM_LAYOUT_PAD);
        smem_layout_iter_init(&its, SMEM_LAYOUT_SWIZZLE);
        while (smem_layout_next(sp, &it, &l)) {
            if (have)
                CHECK(smem_layout_order(&prev, &l) < 0 && smem_layout_order(&l, &prev) > 0);
            CHECK_EQ(smem_layout_order(&l, &l), 0);
            CHECK_EQ(l.elem_bytes, sp->elem_bytes);
            if (l.kind == SMEM_LAYOUT_PAD) {
                CHECK_EQ(nswz, 0);
                CHECK_EQ(l.pad, npads++);
            } else if (l.kind == SMEM_LAYOUT_TMA) {
                /* Hopper's modes last, where the rows make TMA boxes (their order: above) */
                CHECK(l.tma >= 1 && l.tma <= 3);
                ntma++;
                CHECK(smem_layout_tma_fits(sp->row_elems * sp->elem_bytes, l.tma) == NULL);
                CHECK_EQ(l.rows, sp->rows);
                CHECK_EQ(l.tma_base, 0);
                CHECK(smem_layout_next(sp, &its, &ls) && !memcmp(&ls, &l, sizeof l));
            } else {
                CHECK_EQ(ntma, 0);
                nswz++;
                CHECK(l.s >= l.b && l.b >= 1 && l.b <= 7);
                CHECK(((uint32_t)sp->elem_bytes << l.m) >= sp->unit);
                CHECK(((uint32_t)sp->elem_bytes << l.m) <= 128);
                CHECK(l.m + l.s + l.b <= bits_of(sp->elems));
                CHECK(smem_layout_aligned(sp, &l) == NULL);
                /* starting at the swizzles gives the same swizzles */
                CHECK(smem_layout_next(sp, &its, &ls) && !memcmp(&ls, &l, sizeof l));
            }
            prev = l;
            have = 1;
        }
        CHECK(!smem_layout_next(sp, &its, &ls));
        CHECK_EQ(npads, sp->row_elems ? smem_layout_max_pad(sp) + 1 : 0);
        CHECK(nswz > 0);
        /* rows of 128 bytes (and 64, 32, narrower) take every mode; unknown rows none */
        uint32_t rb = sp->row_elems * sp->elem_bytes;
        unsigned fit = 0;
        for (unsigned m = 1; sp->row_elems && m <= 3; m++)
            fit += smem_layout_tma_fits(rb, m) == NULL;
        CHECK_EQ(ntma, fit);
        /* 96 bytes: 32B (3 spans) and 128B (one, padded); 192: 32B and 64B */
        CHECK_EQ(fit, !rb ? 0 : rb == 96 || rb == 192 ? 2 : 3);
    }
    /* the column form first: c ^ r on a 32 x 32 float tile before Swizzle<1,0,1> */
    struct smem_layout_space sp = space(4, 32, 32, 1024, 4);
    struct smem_layout_iter it;
    struct smem_layout l;
    smem_layout_iter_init(&it, SMEM_LAYOUT_SWIZZLE);
    CHECK(smem_layout_next(&sp, &it, &l));
    CHECK(smem_layout_col_expr(&l, 32, "r", "c", NULL, 0));
    CHECK_EQ(l.b, 1);
    CHECK_EQ(l.m, 0);
    CHECK_EQ(l.s, 5);
    /* too small an array has no swizzle */
    sp = space(4, 0, 0, 3, 4);
    smem_layout_iter_init(&it, SMEM_LAYOUT_SWIZZLE);
    CHECK(!smem_layout_next(&sp, &it, &l));
}

/* pads 0 .. the banks, or a whole bank line of elements when that is more */
static void test_pads_span_one_bank_line(void)
{
    struct smem_layout_space sp = space(4, 32, 32, 1024, 4);
    CHECK_EQ(smem_layout_max_pad(&sp), 32);
    sp.elem_bytes = 2;
    CHECK_EQ(smem_layout_max_pad(&sp), 64);
    sp.elem_bytes = 1;
    CHECK_EQ(smem_layout_max_pad(&sp), 128);
    sp.elem_bytes = 8;
    CHECK_EQ(smem_layout_max_pad(&sp), 32);
    sp.elem_bytes = 16;
    CHECK_EQ(smem_layout_max_pad(&sp), 32);
    sp.elem_bytes = 12; /* a struct: 32 pads of 12 bytes come back to the same banks */
    CHECK_EQ(smem_layout_max_pad(&sp), 32);
    sp.elem_bytes = 6;
    CHECK_EQ(smem_layout_max_pad(&sp), 64);
    sp.elem_bytes = 4;
    sp.banks.bytes = 8; /* Kepler's 8-byte banks: a line of 256 bytes */
    CHECK_EQ(smem_layout_max_pad(&sp), 64);
    sp.max_pad = 3;
    CHECK_EQ(smem_layout_max_pad(&sp), 3);
}

/* smem_layout_onto against mapping every element */
static void test_one_to_one_as_a_brute_force_says(void)
{
    const uint32_t sizes[] = {1024, 1000, 1536, 384, 96, 4, 2048};
    for (unsigned i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        uint32_t n = sizes[i];
        uint8_t *seen = malloc(n);
        CHECK(seen != NULL);
        if (!seen)
            return;
        for (unsigned b = 1; b <= 4; b++)
            for (unsigned m = 0; m <= 3; m++)
                for (unsigned s = 1; m + s + b <= bits_of(n) + 1; s++) {
                    struct smem_layout l = {SMEM_LAYOUT_SWIZZLE, 0, 4, 0, b, m, s, 0, 0, 0};
                    struct smem_layout_space sp = space(4, 0, 0, n, 4);
                    int ok = 1;
                    memset(seen, 0, n);
                    for (uint32_t o = 0; o < n && ok; o++) {
                        uint32_t t = smem_swizzle_bms(o, b, m, s);
                        ok = t < n && !seen[t];
                        if (ok)
                            seen[t] = 1;
                    }
                    if (ok != (smem_layout_onto(&sp, &l) == NULL))
                        fprintf(stderr, "n %u Swizzle<%u,%u,%u>: brute force %d\n", n, b, m, s, ok);
                    CHECK_EQ(ok, smem_layout_onto(&sp, &l) == NULL);
                }
        free(seen);
    }
    /* a pad maps row r, column c to r * (C + p) + c: into the padded array */
    struct smem_layout_space sp = space(4, 32, 32, 1024, 4);
    struct smem_layout p = {SMEM_LAYOUT_PAD, 32, 4, 5, 0, 0, 0, 0, 0, 0};
    CHECK(smem_layout_onto(&sp, &p) == NULL);
    sp.rows = 31; /* more elements than the rows hold */
    CHECK(smem_layout_onto(&sp, &p) != NULL);
}

static void test_a_pad_keeps_the_access_aligned(void)
{
    struct smem_layout_space sp = space(2, 32, 64, 2048, 16); /* ldmatrix rows of halves */
    struct smem_layout p = {SMEM_LAYOUT_PAD, 32, 2, 1, 0, 0, 0, 0, 0, 0};
    CHECK(smem_layout_aligned(&sp, &p) != NULL);
    p.pad = 8;
    CHECK(smem_layout_aligned(&sp, &p) == NULL);
}

/* ---- pattern and advise on the same access -------------------------------------------------- */

struct same_case {
    const char *kernel;
    unsigned bx, by;
    const char *expr;
    unsigned rows, cols; /* pattern's --shape; 0: a 1-D access */
    unsigned elem;
    const char *op;
    const char *array;
};

static const struct same_case same[] = {
    {"square", 32, 32, "tile[tx][ty]", 32, 32, 4, "ld", "tile"},
    {"rect", 32, 16, "tile[(ty*32+tx)%16][(ty*32+tx)/16]", 16, 32, 4, "ld", "tile"},
    {"rect24", 24, 16, "tile[(ty*24+tx)%16][(ty*24+tx)/16]", 16, 24, 4, "ld", "tile"},
    {"col48", 32, 32, "tile[tx][ty]", 32, 48, 4, "ld", "tile"},
    {"sq24", 24, 24, "tile[tx][ty]", 24, 24, 4, "ld", "tile"},
    {"pull", 32, 32, "tile[2*tx][ty]", 64, 32, 4, "ld", "tile"},
    {"dbl", 32, 32, "tile[tx][ty]", 32, 32, 8, "ld", "tile"},
    {"shorts", 32, 32, "tile[tx][ty]", 32, 32, 2, "ld", "tile"},
    {"chars", 32, 32, "tile[tx][ty]", 32, 32, 1, "ld", "tile"},
    {"ldsm64", 32, 1, "tile[lane%16][lane/16*8]", 64, 32, 2, "ldmatrix.x4", "tile"},
    {"ldsm128", 32, 1, "tile[lane%16][lane/16*8]", 64, 64, 2, "ldmatrix.x4", "tile"},
    {"stride32", 32, 1, "arr[tid*32]", 0, 0, 4, "ld", "arr"},
    {"stride8", 32, 1, "arr[tid*8]", 0, 0, 4, "ld", "arr"},
};

static void compare(const struct same_case *c, const char *ptx, size_t plen)
{
    /* pattern */
    struct smem_access *a = NULL;
    struct smem_diag d;
    CHECK(!smem_access_parse(c->expr, &a, &d));
    if (!a)
        return;
    struct smem_pattern p = smem_pattern_default();
    p.block[0] = c->bx;
    p.block[1] = c->by;
    p.shape[0] = c->rows;
    p.shape[1] = c->cols;
    CHECK(!smem_pattern_set_op(&p, c->op, 1));
    p.elem_bytes = c->elem;
    struct smem_pattern_advice pa;
    int prc = smem_pattern_advise(a, &p, 0, &pa, &d);
    if (prc)
        fprintf(stderr, "%s: pattern: %s\n", c->kernel, d.message);
    CHECK(!prc);
    smem_access_free(a);
    /* advise */
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    o.kernel = c->kernel;
    o.block[0] = c->bx;
    o.block[1] = c->by;
    o.block[2] = 1;
    o.record = 1;
    struct smem_error err;
    memset(&err, 0, sizeof err);
    struct smem_analysis *an = NULL;
    struct smem_advice *adv = NULL;
    if (smem_analyze_ptx(ptx, plen, "same.ptx", SAME_CU, &o, &an, &err)) {
        fprintf(stderr, "%s: %s\n", c->kernel, err.msg);
        CHECK(0);
        return;
    }
    struct smem_advise_options ad;
    smem_advise_defaults(&ad);
    ad.source = SAME_CU;
    ad.analyze = &o;
    ad.array = c->array;
    ad.compile_check = 0; /* one access, one build: what pattern sees */
    CHECK(!smem_advise_kernel(an, &an->kernels[0], &ad, &adv, &err));
    if (prc || !adv || adv->narrays != 1) {
        CHECK(0);
        goto done;
    }
    const struct smem_advise_array *ar = &adv->arrays[0];
    CHECK_EQ(pa.wavefronts, ar->before.wavefronts); /* the same access */
    CHECK_EQ(pa.ideal, ar->before.ideal);
    CHECK(pa.wavefronts > pa.ideal);
    unsigned eshift = 0;
    while ((1u << eshift) < c->elem)
        eshift++;
    const struct smem_advise_candidate *bp = ar->best_pad >= 0 ? &ar->pads[ar->best_pad] : NULL;
    const struct smem_advise_candidate *bs =
        ar->best_swizzle >= 0 ? &ar->swizzles[ar->best_swizzle] : NULL;
    if (c->rows) { /* pattern pads 2-D accesses only */
        CHECK(pa.has_pad && bp);
        if (pa.has_pad && bp) {
            CHECK_EQ(pa.pad, ar->best_pad);
            CHECK_EQ(pa.pad_wavefronts, bp->wavefronts);
        }
        /* the best of the two, as `pattern --advise` and advise's ranking say it */
        int pad_better = pa.has_pad && pa.pad_wavefronts < pa.wavefronts;
        int swz_better = pa.has_swizzle && pa.swz_wavefronts < pa.wavefronts;
        int pattern_swizzle = swz_better && (!pad_better || pa.swz_wavefronts < pa.pad_wavefronts ||
                                             (pa.swz_wavefronts == pa.pad_wavefronts && pa.pad));
        CHECK_EQ(pattern_swizzle, ar->best_is_swizzle);
        /* Hopper's swizzle modes: the same best mode at the same cost */
        const struct smem_advise_candidate *bt = ar->best_tma >= 0 ? &ar->tmas[ar->best_tma] : NULL;
        CHECK_EQ(pa.has_tma, bt != NULL);
        if (pa.has_tma && bt) {
            CHECK_EQ(pa.tma, bt->layout.tma);
            CHECK_EQ(pa.tma_wavefronts, bt->wavefronts);
            CHECK_EQ(pa.tma_tried, ar->ntmas);
            printf("  %-9s swizzle mode %s: %llu wavefronts (%u modes)\n", c->kernel,
                   smem_layout_tma_name(pa.tma), (unsigned long long)pa.tma_wavefronts, pa.tma_tried);
        }
    }
    CHECK_EQ(pa.has_swizzle, bs != NULL);
    if (pa.has_swizzle && bs) {
        if (pa.b != bs->layout.b || pa.m != bs->layout.m + eshift || pa.s != bs->layout.s)
            fprintf(stderr, "%s: pattern Swizzle<%u,%u,%u> on bytes, advise Swizzle<%u,%u,%u> on "
                    "%u-byte elements\n", c->kernel, pa.b, pa.m, pa.s, bs->layout.b,
                    bs->layout.m, bs->layout.s, c->elem);
        CHECK_EQ(pa.b, bs->layout.b);
        CHECK_EQ(pa.m, bs->layout.m + eshift);
        CHECK_EQ(pa.s, bs->layout.s);
        CHECK_EQ(pa.swz_wavefronts, bs->wavefronts);
    }
    printf("  %-9s %-36s %5llu -> pad %2u: %llu, Swizzle<%u,%u,%u>: %llu, best: %s\n", c->kernel,
           c->expr, (unsigned long long)pa.wavefronts, pa.pad,
           (unsigned long long)pa.pad_wavefronts, pa.b, pa.m, pa.s,
           (unsigned long long)pa.swz_wavefronts, ar->best_is_swizzle ? "swizzle" : "pad");
done:
    smem_advice_free(adv);
    smem_analysis_free(an);
}

static void test_pattern_and_advise_propose_the_same_layout(void)
{
    struct smem_analyze_options o;
    smem_analyze_defaults(&o);
    struct smem_error err;
    memset(&err, 0, sizeof err);
    size_t plen = 0;
    char *ptx = smem_compile_cu(SAME_CU, &o, &plen, &err);
    if (!ptx) {
        no_nvcc = strstr(err.msg, "cannot run nvcc") != NULL;
        if (!no_nvcc)
            fprintf(stderr, "%s: %s\n", SAME_CU, err.msg);
        CHECK(no_nvcc);
        return;
    }
    for (unsigned i = 0; i < sizeof same / sizeof same[0]; i++)
        compare(&same[i], ptx, plen);
    free(ptx);
}

int main(void)
{
    RUN(test_pads_first_then_swizzles_in_one_order);
    RUN(test_pads_span_one_bank_line);
    RUN(test_one_to_one_as_a_brute_force_says);
    RUN(test_a_pad_keeps_the_access_aligned);
    RUN(test_pattern_and_advise_propose_the_same_layout);
    int rc = CHECK_DONE();
    if (no_nvcc && !rc) {
        printf("nvcc cannot run: pattern and advise were not compared\n");
        return 77;
    }
    return rc;
}
