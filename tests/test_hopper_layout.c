/* test_hopper_layout.c: Hopper's swizzle modes as `smemlab pattern --swizzle` and `advise` see a
 * tile (layout kind SMEM_LAYOUT_TMA, model/layout.h), against the hardware:
 *  - every placement the H200 measured (tests/run/h200-tma-layout.txt.gz: tests/hw/tma/tma_layout.cu
 *    on an NVIDIA H200, driver 580.159.04, 2026-11-29; boxes of 2-byte elements 16 to 128 bytes
 *    wide under none/32B/64B/128B, at bytes 0, 128 and 384 of the pattern, element stride 2):
 *    each element of the box lies where the layout puts it, and nothing else was written;
 *  - ldmatrix reads of swizzled and unswizzled tiles (the A fragment, rows 0-15, chunks 0 and 1)
 *    against the H100's counts (tests/hw/h100-ldsm.csv: afrag_s128 / afrag_s64 and their
 *    Swizzle<3,4,3> / <2,4,3> forms, x4, x2 and .trans, under the modes; six CuTe spellings on
 *    dense tiles; measured 2026-11-23): the addresses the layout gives are the measured kernels'
 *    and the wavefronts the H100's;
 *  - the mode equals CuTe's Swizzle<B,4,3> on byte offsets for a tile aligned to the pattern whose
 *    rows are one span, and the fields (box, SBO, LBO, layout type) are the documented ones. */
#include "check.h"
#include "hwdata.h"
#include "testfile.h"
#include "smemlab/model/layout.h"
#include "smemlab/model/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src = SMEMLAB_SOURCE_DIR;

static struct smem_layout tma(unsigned cols, unsigned elem, unsigned rows, unsigned mode,
                              unsigned base)
{
    struct smem_layout l;
    memset(&l, 0, sizeof l);
    l.kind = SMEM_LAYOUT_TMA;
    l.row_elems = cols;
    l.elem_bytes = elem;
    l.rows = rows;
    l.tma = mode;
    l.tma_base = base;
    return l;
}

/* ---- the H200's placements ----------------------------------------------------------------- */

static void test_h200_placements(void)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "gzip -dc %s/tests/run/h200-tma-layout.txt.gz", src);
    FILE *f = popen(cmd, "r");
    CHECK(f != NULL);
    if (!f)
        return;
    static char line[1 << 15];
    unsigned cases = 0, placed = 0, modes[4] = {0};
    while (fgets(line, sizeof line, f)) {
        unsigned sw, box0, box1, es1, dstoff;
        int c0, c1, rc;
        if (sscanf(line, "case %u %u %u %u %u %d %d %d", &sw, &box0, &box1, &es1, &dstoff, &c0, &c1,
                   &rc) != 8)
            continue;
        if (!fgets(line, sizeof line, f))
            break;
        if (!strncmp(line, "error", 5) || c0 < 0 || c0 + (int)box0 > 256) /* stopped on the H200 */
            continue;
        static unsigned words[1024];
        unsigned n = 0;
        for (char *p = line, *e; n < 1024; p = e) {
            unsigned long v = strtoul(p, &e, 16);
            if (e == p)
                break;
            words[n++] = (unsigned)v;
        }
        CHECK_EQ(n, 1024);
        if (n != 1024)
            continue;
        unsigned rows = (box1 + es1 - 1) / es1;
        struct smem_layout l = tma(box0, 2, rows, sw, dstoff % 1024);
        unsigned bad = 0, written = 0;
        for (unsigned r = 0; r < rows; r++)
            for (unsigned c = 0; c < box0; c++) {
                uint32_t at = dstoff + smem_layout_map(&l, (r * box0 + c) * 2);
                unsigned want = (unsigned)(c1 + (int)(r * es1)) * 256 + (unsigned)(c0 + (int)c) + 1;
                bad += at / 2 >= 1024 || words[at / 2] != want;
            }
        for (unsigned i = 0; i < 1024; i++)
            written += words[i] != 0xffff;
        if (bad || written != rows * box0)
            fprintf(stderr, "  case %u %u %u %u %u %d %d: %u elements elsewhere, %u words written\n",
                    sw, box0, box1, es1, dstoff, c0, c1, bad, written);
        CHECK_EQ(bad, 0);
        CHECK_EQ(written, rows * box0);
        cases++;
        placed += rows * box0;
        modes[sw]++;
    }
    pclose(f);
    /* the 52 placements of the file (26 boxes stopped): 13 under each mode but 32B's 8 */
    CHECK_EQ(cases, 52);
    CHECK_EQ(modes[0], 16);
    CHECK_EQ(modes[1], 8);
    CHECK_EQ(modes[2], 12);
    CHECK_EQ(modes[3], 16);
    printf("  H200 placements: %u boxes, %u elements, as the layout puts them\n", cases, placed);
}

/* ---- ldmatrix on swizzled tiles against the H100 ------------------------------------------ */

/* The row of tests/hw/h100-ldsm.csv for kind, name: its addresses (lanes) and wavefronts. */
static int ldsm_row(const char *kind, const char *name, uint32_t addr[32], long long *wf)
{
    char path[1200];
    snprintf(path, sizeof path, "%s/tests/hw/h100-ldsm.csv", src);
    char *text = test_read_file(path, NULL);
    if (!text)
        return -1;
    int found = -1;
    for (char *ln = strtok(text, "\n"); ln && found; ln = strtok(NULL, "\n")) {
        char *fld[16];
        char copy[4096];
        snprintf(copy, sizeof copy, "%s", ln);
        if (hw_split(copy, fld, 16) < 7 || strcmp(fld[0], kind) || strcmp(fld[1], name))
            continue;
        unsigned n = 0;
        for (char *p = fld[3], *e; n < 32; p = e) {
            unsigned long v = strtoul(p, &e, 10);
            if (e == p)
                break;
            addr[n++] = (uint32_t)v;
        }
        *wf = atoll(fld[6]);
        found = n == 32 ? 0 : -1;
    }
    free(text);
    return found;
}

/* 'a[lane%16][lane/16*8]' read by op on a tile rows x cols of halves under layout l: the addresses
 * must be the measured kernel's (name) and the wavefronts the H100's. */
static void ldsm_layout(const char *op, unsigned rows, unsigned cols, struct smem_layout l,
                        const char *name)
{
    uint32_t want[32];
    long long wf = -1;
    CHECK_EQ(ldsm_row(op, name, want, &wf), 0);
    struct smem_pattern p = smem_pattern_default();
    char opname[40];
    snprintf(opname, sizeof opname, "ldmatrix%s", op + 4); /* "ldsm.x4" -> "ldmatrix.x4" */
    CHECK_EQ(smem_pattern_set_op(&p, opname, 1), 0);
    p.shape[0] = rows;
    p.shape[1] = cols;
    p.layout = l;
    struct smem_access *a;
    struct smem_diag d;
    CHECK_EQ(smem_access_parse("a[lane%16][lane/16*8]", &a, &d), 0);
    static struct smem_pattern_result r;
    CHECK_EQ(smem_pattern_eval(a, &p, &r, &d), 0);
    smem_access_free(a);
    unsigned lanes = 8 * p.matrices, same = 0;
    for (unsigned ln = 0; ln < lanes; ln++)
        same += smem_layout_map(&p.layout, ((ln % 16) * cols + ln / 16 * 8) * 2) == want[ln];
    CHECK_EQ(same, lanes);
    CHECK_EQ((long long)r.wavefronts, wf);
    char lay[40];
    if (l.kind == SMEM_LAYOUT_SWIZZLE)
        snprintf(lay, sizeof lay, "Swizzle<%u,%u,%u>", l.b, l.m + 1, l.s);
    else
        snprintf(lay, sizeof lay, "swizzle %s", smem_layout_tma_name(l.tma));
    printf("  %-17s %-22s %-14s %2llu wavefronts (H100 %lld)\n", opname, name, lay,
           (unsigned long long)r.wavefronts, wf);
}

static void ldsm_case(const char *op, unsigned rows, unsigned cols, unsigned mode, const char *name)
{
    ldsm_layout(op, rows, cols, tma(cols, 2, rows, mode, 0), name);
}

/* CuTe's Swizzle<B,M,S> on byte offsets of the dense tile (`pattern --swizzle 'Swizzle<B,M,S>'`):
 * on halves, the element swizzle Swizzle<B,M-1,S> */
static void ldsm_cute(const char *op, unsigned rows, unsigned cols, unsigned b, unsigned m,
                      unsigned s, const char *name)
{
    struct smem_layout l;
    memset(&l, 0, sizeof l);
    l.kind = SMEM_LAYOUT_SWIZZLE;
    l.row_elems = cols;
    l.elem_bytes = 2;
    l.b = b;
    l.m = m - 1;
    l.s = s;
    ldsm_layout(op, rows, cols, l, name);
}

static void test_ldmatrix_against_h100(void)
{
    static const char *const ops[] = {"ldsm.x4", "ldsm.x2", "ldsm.x4.trans", "ldsm.x2.trans"};
    for (unsigned i = 0; i < 4; i++) {
        ldsm_case(ops[i], 16, 64, 0, "afrag_s128");            /* 128-byte rows: 8-way */
        ldsm_case(ops[i], 16, 64, 3, "afrag_s128_swz343_c0");  /* 128B: conflict-free */
        ldsm_case(ops[i], 16, 32, 0, "afrag_s64");             /* 64-byte rows: 4-way */
        ldsm_case(ops[i], 16, 32, 2, "afrag_s64_swz243_c0");   /* 64B: conflict-free */
        ldsm_case(ops[i], 16, 32, 3, "afrag_s128_swz343_c0");  /* 64-byte rows under 128B: rows
                                                                   padded to the span */
    }
    /* the sm_80 spellings on dense tiles, unlike the modes where the rows differ from the span */
    ldsm_cute("ldsm.x4", 16, 64, 3, 4, 3, "afrag_s128_swz343_c0"); /* = 128B */
    ldsm_cute("ldsm.x4", 16, 32, 3, 4, 3, "afrag_s64_swz343_c0");  /* 64-byte rows: 4 */
    ldsm_cute("ldsm.x4", 16, 32, 2, 4, 3, "afrag_s64_swz243_c0");  /* = 64B (tests/ldsm/gemm.cu) */
    ldsm_cute("ldsm.x4", 16, 64, 2, 4, 3, "afrag_s128_swz243_c0"); /* 128-byte rows: 2-way */
    ldsm_cute("ldsm.x4", 16, 64, 1, 4, 3, "afrag_s128_swz143_c0"); /* 4-way */
    ldsm_cute("ldsm.x4", 16, 32, 2, 4, 2, "afrag_s64_swz242_c0");  /* 2-way */
}

/* ---- the modes as CuTe writes them, and their fields ---------------------------------------- */

static void test_modes_are_cute_swizzles(void)
{
    for (unsigned mode = 1; mode <= 3; mode++) {
        unsigned span = 16u << mode;
        for (unsigned e = 1; e <= 8; e *= 2) {
            struct smem_layout l = tma(span / e, e, 64, mode, 0);
            unsigned diff = 0;
            for (uint32_t off = 0; off < 64 * span; off++)
                diff += smem_layout_map(&l, off) != smem_swizzle_bms(off, mode, 4, 3);
            CHECK_EQ(diff, 0);
        }
        /* a narrower row is padded to the span (the H200), a wider one is boxes side by side */
        struct smem_layout n = tma(8, 2, 16, mode, 0);
        CHECK_EQ(smem_layout_map(&n, 16), mode == 3 ? 144u : span); /* row 1: 128B XORs chunk 1 */
        struct smem_layout w = tma(2 * span / 2, 2, 16, mode, 0);
        CHECK_EQ(smem_layout_map(&w, span), 16 * span); /* row 0 of box 1 after box 0's 16 rows */
        struct smem_layout_hopper h;
        smem_layout_tma_fields(&w, &h);
        CHECK_EQ(h.boxes, 2);
        CHECK_EQ(h.box_inner, span / 2);
        CHECK_EQ(h.sbo, 8 * span);
        CHECK_EQ(h.lbo_mn, 16 * span);
        CHECK_EQ(h.wgmma_layout, 4 - mode);
        CHECK_EQ(h.align, 8 * span);
        CHECK_EQ(h.cute_b, mode);
        CHECK(smem_layout_tma_fits(span + 16, mode) != NULL);
        CHECK(smem_layout_tma_fits(24, mode) != NULL);
    }
    /* the PTX ISA's 128B figure: chunk c of row r at c ^ (r % 8) */
    struct smem_layout l = tma(64, 2, 64, 3, 0);
    for (unsigned r = 0; r < 64; r++)
        for (unsigned c = 0; c < 8; c++)
            CHECK_EQ(smem_layout_map(&l, r * 128 + c * 16), r * 128 + ((c ^ (r % 8)) * 16));
    /* off the pattern's boundary the XOR follows the absolute address */
    l.tma_base = 384;
    CHECK_EQ(smem_layout_map(&l, 0), (0u ^ 3u) * 16);
    CHECK(smem_layout_tma_fits(128, 0) != NULL);
}

int main(void)
{
    RUN(test_h200_placements);
    RUN(test_ldmatrix_against_h100);
    RUN(test_modes_are_cute_swizzles);
    return CHECK_DONE();
}
